/* test-flame.c — flame graphs: CPU stacks and GPU time by launching stack, a time window, merged
 * step names, the profiler's span left out, first-run times, differences between two runs, folded
 * stacks written and read back, and the real sampled training trace
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "suanli-flame.h"
#include "suanli-import.h"
#include "suanli-import-chrome.h"
#include "suanli-import-folded.h"
#include "suanli-test-fixtures.h"
#include "suanli-test-flame.h"
#include "suanli-test-samples.h"

typedef gboolean (*ImportFunc) (SuanliTrace *, GInputStream *, const char *, SuanliImportStats *, GCancellable *,
                                GError **);

/* @length bytes of @text read by @import as the file @name; the test fails if they do not read. */
static SuanliTrace *
import_named (ImportFunc  import,
              const char *name,
              const char *text,
              gsize       length)
{
  g_autoptr(GInputStream) stream = g_memory_input_stream_new_from_data (text, (gssize) length, NULL);
  g_autoptr(GError) error = NULL;
  SuanliTrace *trace = suanli_trace_new ();
  SuanliImportStats stats = { 0 };

  g_assert_true (import (trace, stream, name, &stats, NULL, &error));
  g_assert_no_error (error);
  suanli_import_stats_clear (&stats);
  return trace;
}

static SuanliTrace *
import_trace (const char *text)
{
  return import_named (suanli_import_chrome, "test.json", text, strlen (text));
}

static int
compare_strings (const char * const *a,
                 const char * const *b)
{
  return g_strcmp0 (*a, *b);
}

static void
test_flame_diff (void)
{
  /* Two runs of one program: the thread ids differ, the thread names do not. */
  g_autoptr(SuanliTrace) a = import_trace (
    "[{\"ph\":\"M\",\"name\":\"thread_name\",\"pid\":1,\"tid\":11,\"args\":{\"name\":\"thread 11 (python)\"}},"
    " {\"ph\":\"X\",\"name\":\"main\",\"pid\":1,\"tid\":11,\"ts\":0,\"dur\":20},"
    " {\"ph\":\"X\",\"name\":\"f\",\"pid\":1,\"tid\":11,\"ts\":1,\"dur\":10},"
    " {\"ph\":\"X\",\"name\":\"g\",\"pid\":1,\"tid\":11,\"ts\":12,\"dur\":5}]");
  g_autoptr(SuanliTrace) b = import_trace (
    "[{\"ph\":\"M\",\"name\":\"thread_name\",\"pid\":7,\"tid\":70,\"args\":{\"name\":\"thread 70 (python)\"}},"
    " {\"ph\":\"X\",\"name\":\"main\",\"pid\":7,\"tid\":70,\"ts\":0,\"dur\":9},"
    " {\"ph\":\"X\",\"name\":\"f\",\"pid\":7,\"tid\":70,\"ts\":1,\"dur\":4},"
    " {\"ph\":\"X\",\"name\":\"h\",\"pid\":7,\"tid\":70,\"ts\":6,\"dur\":3}]");
  g_autoptr(SuanliFlame) before = suanli_flame_new (a, SUANLI_FLAME_CPU, G_MININT64, G_MAXINT64);
  g_autoptr(SuanliFlame) after = suanli_flame_new (b, SUANLI_FLAME_CPU, G_MININT64, G_MAXINT64);
  g_autoptr(SuanliFlame) diff = suanli_flame_new_diff (before, after);
  g_autoptr(GOutputStream) output = g_memory_output_stream_new_resizable ();
  g_autoptr(GError) error = NULL;
  g_autoptr(SuanliTrace) folded = NULL;
  guint python = suanli_test_flame_child (diff, 0, "python");
  guint main_node = suanli_test_flame_child (diff, python, "main");
  const SuanliFlameNode *node;

  g_assert_true (suanli_flame_is_differential (diff));
  g_assert_false (suanli_flame_is_differential (before));
  g_assert_cmpuint (python, !=, 0);
  g_assert_cmpint (suanli_flame_get_node (diff, 0)->total, ==, 9000);
  g_assert_cmpint (suanli_flame_get_node (diff, 0)->baseline_total, ==, 20000);
  node = suanli_flame_get_node (diff, main_node);
  g_assert_cmpint (node->total, ==, 9000);
  g_assert_cmpint (node->baseline_total, ==, 20000);
  g_assert_cmpint (node->self, ==, 2000);
  g_assert_cmpint (node->baseline_self, ==, 5000);
  node = suanli_flame_get_node (diff, suanli_test_flame_child (diff, main_node, "f"));
  g_assert_cmpint (node->total, ==, 4000);
  g_assert_cmpint (node->baseline_total, ==, 10000);
  /* In one run only: the other side is 0. */
  node = suanli_flame_get_node (diff, suanli_test_flame_child (diff, main_node, "g"));
  g_assert_cmpint (node->total, ==, 0);
  g_assert_cmpint (node->baseline_total, ==, 5000);
  node = suanli_flame_get_node (diff, suanli_test_flame_child (diff, main_node, "h"));
  g_assert_cmpint (node->total, ==, 3000);
  g_assert_cmpint (node->baseline_total, ==, 0);

  /* Written as two count columns, it reads back as a differential folded file. */
  g_assert_true (suanli_flame_write_folded (diff, output, NULL, &error));
  g_assert_true (g_output_stream_close (output, NULL, &error));
  folded = import_named (suanli_import_folded, "diff.folded", g_memory_output_stream_get_data (G_MEMORY_OUTPUT_STREAM (output)),
                        g_memory_output_stream_get_data_size (G_MEMORY_OUTPUT_STREAM (output)));
  {
    g_autoptr(SuanliFlame) again = suanli_flame_new (folded, SUANLI_FLAME_CPU, G_MININT64, G_MAXINT64);
    guint before_group = suanli_test_flame_child (again, 0, "diff.folded (before)");
    guint after_group = suanli_test_flame_child (again, 0, "diff.folded (after)");

    g_assert_cmpint (suanli_flame_get_node (again, before_group)->total, ==, 20000);
    g_assert_cmpint (suanli_flame_get_node (again, after_group)->total, ==, 9000);
  }
}

static void
test_flame_cpu (void)
{
  /* outer 0–10 µs holds f twice (2–5, 6–8): outer's own time is what f leaves. */
  g_autoptr(SuanliTrace) trace = import_trace (
    "[{\"ph\":\"M\",\"name\":\"thread_name\",\"pid\":1,\"tid\":1,\"args\":{\"name\":\"main\"}},"
    " {\"ph\":\"X\",\"name\":\"outer\",\"pid\":1,\"tid\":1,\"ts\":0,\"dur\":10},"
    " {\"ph\":\"X\",\"name\":\"f\",\"pid\":1,\"tid\":1,\"ts\":2,\"dur\":3},"
    " {\"ph\":\"X\",\"name\":\"f\",\"pid\":1,\"tid\":1,\"ts\":6,\"dur\":2}]");
  g_autoptr(SuanliFlame) all = suanli_flame_new (trace, SUANLI_FLAME_CPU, G_MININT64, G_MAXINT64);
  g_autoptr(SuanliFlame) window = suanli_flame_new (trace, SUANLI_FLAME_CPU, 4000, 7000);
  guint thread, outer, f;

  thread = suanli_test_flame_child (all, 0, "main");
  outer = suanli_test_flame_child (all, thread, "outer");
  f = suanli_test_flame_child (all, outer, "f");
  g_assert_cmpuint (f, !=, 0);
  g_assert_cmpint (suanli_flame_get_node (all, 0)->total, ==, 10000);
  g_assert_cmpint (suanli_flame_get_node (all, outer)->total, ==, 10000);
  g_assert_cmpint (suanli_flame_get_node (all, outer)->self, ==, 5000);
  g_assert_cmpint (suanli_flame_get_node (all, f)->total, ==, 5000);
  g_assert_cmpuint (suanli_flame_get_node (all, f)->count, ==, 2);

  /* Restricted to 4–7 µs: each slice counts only its part inside. */
  outer = suanli_test_flame_child (window, suanli_test_flame_child (window, 0, "main"), "outer");
  f = suanli_test_flame_child (window, outer, "f");
  g_assert_cmpint (suanli_flame_get_node (window, outer)->total, ==, 3000);
  g_assert_cmpint (suanli_flame_get_node (window, outer)->self, ==, 1000);
  g_assert_cmpint (suanli_flame_get_node (window, f)->total, ==, 2000);
}

static void
test_flame_gpu (void)
{
  /* Kernels under the CPU stack that launched them (by flow and by correlation); copies with no
   * launch recorded under their own root. */
  g_autoptr(SuanliTrace) trace = import_trace (suanli_test_kineto_trace);
  g_autoptr(SuanliFlame) flame = suanli_flame_new (trace, SUANLI_FLAME_GPU, G_MININT64, G_MAXINT64);
  guint launch, none;

  launch = suanli_test_flame_child (flame, suanli_test_flame_child (flame, suanli_test_flame_child (flame, 0, "thread 100"), "aten::mm"), "cudaLaunchKernel");
  g_assert_cmpuint (launch, !=, 0);
  g_assert_cmpint (suanli_flame_get_node (flame, suanli_test_flame_child (flame, launch, "gemm"))->self, ==, 30000);
  g_assert_cmpint (suanli_flame_get_node (flame, suanli_test_flame_child (flame, launch, "ncclKernel_AllReduce_RING_LL_Sum_float"))->self,
                   ==, 30000);
  g_assert_cmpint (suanli_flame_get_node (flame, launch)->total, ==, 60000);
  none = suanli_test_flame_child (flame, 0, "(launch not recorded)");
  g_assert_cmpint (suanli_flame_get_node (flame, none)->total, ==, 12000);
  /* Every piece of GPU work once: kernels, copy and memset, 72 µs, summed (not a union). */
  g_assert_cmpint (suanli_flame_get_node (flame, 0)->total, ==, 72000);
}

static void
test_flame_folded_round_trip (void)
{
  g_autoptr(SuanliTrace) trace = import_named (suanli_import_stream, "test.folded", suanli_test_folded_sample,
                                                sizeof suanli_test_folded_sample - 1);
  g_autoptr(SuanliFlame) flame = suanli_flame_new (trace, SUANLI_FLAME_CPU, G_MININT64, G_MAXINT64);
  g_autoptr(GOutputStream) output = g_memory_output_stream_new_resizable ();
  g_autoptr(GError) error = NULL;
  g_autofree char *text = NULL;
  g_auto(GStrv) lines = NULL;
  const char *expected[] = { "main;eval 50", "main;parse;lex 120", "main;parse;tokens 30", "other_[k] 7", NULL };

  g_assert_true (suanli_flame_write_folded (flame, output, NULL, &error));
  g_assert_no_error (error);
  g_assert_true (g_output_stream_write_all (output, "", 1, NULL, NULL, &error));
  g_assert_true (g_output_stream_close (output, NULL, &error));
  text = g_memory_output_stream_steal_data (G_MEMORY_OUTPUT_STREAM (output));
  lines = g_strsplit (g_strstrip (text), "\n", -1);
  qsort (lines, g_strv_length (lines), sizeof (char *), (int (*) (const void *, const void *)) compare_strings);
  g_assert_true (g_strv_equal ((const char * const *) lines, expected));
}

static void
test_merged_names (void)
{
  static const char *cases[][2] = {
    { "ProfilerStep#12", "ProfilerStep#*" }, { "Iteration#3", "Iteration#*" }, { "step 12", "step *" },
    { "Iteration_3", "Iteration_*" }, { "epoch: 2", "epoch: *" }, { "train_batch 7", "train_batch *" },
    { "aten::conv2d", NULL }, { "layer 3", NULL }, { "ProfilerStep#", NULL }, { "12", NULL }, { "footstep 3", NULL },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *merged = suanli_flame_merged_name (cases[i][0]);

      g_assert_cmpstr (merged, ==, cases[i][1]);
    }
}

#define STEP(n, ts) \
  "{\"ph\":\"X\",\"cat\":\"user_annotation\",\"name\":\"ProfilerStep#" #n "\",\"pid\":1,\"tid\":1,\"ts\":" #ts ",\"dur\":10}," \
  "{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"aten::mm\",\"pid\":1,\"tid\":1,\"ts\":" #ts ",\"dur\":4},"
#define THREAD "{\"ph\":\"M\",\"name\":\"thread_name\",\"pid\":1,\"tid\":1,\"args\":{\"name\":\"thread 1 (python)\"}},"
/* Kineto's profiler span, on its own row as Kineto writes it, and (as some exports do) around the
 * steps of the program's thread. */
#define SPAN(pid, tid, ts, dur) \
  "{\"ph\":\"X\",\"cat\":\"Trace\",\"name\":\"PyTorch Profiler (0)\",\"pid\":" pid ",\"tid\":" tid ",\"ts\":" #ts \
  ",\"dur\":" #dur ",\"args\":{\"Op count\":0}},"

static void
test_flame_steps_merged (void)
{
  g_autoptr(SuanliTrace) trace = import_trace ("[" THREAD STEP (1, 0) STEP (2, 20) STEP (3, 40) "{}]");
  g_autoptr(SuanliFlame) merged = suanli_flame_new (trace, SUANLI_FLAME_CPU, G_MININT64, G_MAXINT64);
  g_autoptr(SuanliFlame) apart = suanli_flame_new_full (trace, SUANLI_FLAME_CPU, SUANLI_FLAME_ALL_GROUPS, G_MININT64,
                                                        G_MAXINT64, SUANLI_FLAME_KEEP_STEP_NUMBERS);
  guint thread = suanli_test_flame_child (merged, 0, "thread 1 (python)");
  guint step = suanli_test_flame_child (merged, thread, "ProfilerStep#*");

  g_assert_cmpuint (step, !=, 0);
  g_assert_cmpuint (suanli_flame_get_node (merged, step)->count, ==, 3);
  g_assert_cmpint (suanli_flame_get_node (merged, step)->total, ==, 30000);
  g_assert_cmpint (suanli_flame_get_node (merged, suanli_test_flame_child (merged, step, "aten::mm"))->total, ==, 12000);
  /* Kept apart on request. */
  thread = suanli_test_flame_child (apart, 0, "thread 1 (python)");
  g_assert_cmpuint (suanli_test_flame_child (apart, thread, "ProfilerStep#*"), ==, 0);
  g_assert_cmpuint (suanli_test_flame_child (apart, thread, "ProfilerStep#2"), !=, 0);
}

static void
test_flame_profiler_span_left_out (void)
{
  g_autoptr(SuanliTrace) trace = import_trace ("[" THREAD SPAN ("\"Spans\"", "\"PyTorch Profiler\"", 0, 100)
                                              SPAN ("1", "1", 0, 100) STEP (1, 10) STEP (2, 30) "{}]");
  g_autoptr(SuanliFlame) flame = suanli_flame_new (trace, SUANLI_FLAME_CPU, G_MININT64, G_MAXINT64);
  guint thread = suanli_test_flame_child (flame, 0, "thread 1 (python)");
  guint step = suanli_test_flame_child (flame, thread, "ProfilerStep#*");

  for (guint n = 1; n < suanli_flame_get_n_nodes (flame); n++)
    g_assert_cmpstr (suanli_flame_get_name (flame, n), !=, "PyTorch Profiler (0)");
  /* The steps the span held are the thread's own now, and all the graph holds. */
  g_assert_cmpuint (step, !=, 0);
  g_assert_cmpint (suanli_flame_get_node (flame, thread)->total, ==, 20000);
  g_assert_cmpint (suanli_flame_get_node (flame, 0)->total, ==, 20000);
  g_assert_cmpint (suanli_flame_get_node (flame, step)->self, ==, 12000);
}

/* Each frame knows when it first ran, for the time-order view. */
static void
test_flame_first (void)
{
  g_autoptr(SuanliTrace) trace = import_trace (
    "[" THREAD
    "{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"late\",\"pid\":1,\"tid\":1,\"ts\":50,\"dur\":40},"
    "{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"early\",\"pid\":1,\"tid\":1,\"ts\":10,\"dur\":5},"
    "{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"early\",\"pid\":1,\"tid\":1,\"ts\":100,\"dur\":5}]");
  g_autoptr(SuanliFlame) flame = suanli_flame_new (trace, SUANLI_FLAME_CPU, G_MININT64, G_MAXINT64);
  guint thread = suanli_test_flame_child (flame, 0, "thread 1 (python)");

  g_assert_cmpint (suanli_flame_get_node (flame, suanli_test_flame_child (flame, thread, "early"))->first, ==, 10000);
  g_assert_cmpint (suanli_flame_get_node (flame, suanli_test_flame_child (flame, thread, "late"))->first, ==, 50000);
  g_assert_cmpint (suanli_flame_get_node (flame, thread)->first, ==, 10000);
  g_assert_cmpint (suanli_flame_get_node (flame, 0)->first, ==, 10000);
}

/* Two runs whose steps are numbered differently meet frame for frame in the difference graph. */
static void
test_flame_diff_matches_runs (void)
{
  g_autoptr(SuanliTrace) a = import_trace ("[" THREAD STEP (1, 0) STEP (2, 20) "{}]");
  g_autoptr(SuanliTrace) b = import_trace ("[{\"ph\":\"M\",\"name\":\"thread_name\",\"pid\":7,\"tid\":7,"
                                          "\"args\":{\"name\":\"thread 7 (python)\"}},"
                                          "{\"ph\":\"X\",\"name\":\"ProfilerStep#40\",\"pid\":7,\"tid\":7,\"ts\":0,\"dur\":10},"
                                          "{\"ph\":\"X\",\"name\":\"ProfilerStep#41\",\"pid\":7,\"tid\":7,\"ts\":20,\"dur\":12}]");
  g_autoptr(SuanliFlame) before = suanli_flame_new (a, SUANLI_FLAME_CPU, G_MININT64, G_MAXINT64);
  g_autoptr(SuanliFlame) after = suanli_flame_new (b, SUANLI_FLAME_CPU, G_MININT64, G_MAXINT64);
  g_autoptr(SuanliFlame) diff = suanli_flame_new_diff (before, after);
  guint thread = suanli_test_flame_child (diff, 0, "python");
  guint step = suanli_test_flame_child (diff, thread, "ProfilerStep#*");
  guint roots = 0;

  for (guint c = suanli_flame_get_node (diff, thread)->first_child; c != 0; c = suanli_flame_get_node (diff, c)->next_sibling)
    roots++;
  g_assert_cmpuint (roots, ==, 1);
  g_assert_cmpint (suanli_flame_get_node (diff, step)->baseline_total, ==, 20000);
  g_assert_cmpint (suanli_flame_get_node (diff, step)->total, ==, 22000);
}

/* The real sampled training trace: its 50-odd steps are one frame, and no profiler span. */
static void
test_flame_fixture (void)
{
  g_autofree char *path = suanli_test_fixture_path ("timeline_analysis__sampled_rank-0.json.gz");
  g_autoptr(SuanliTrace) trace = suanli_trace_new ();
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(SuanliFlame) flame = NULL;
  SuanliImportStats stats = { 0 };
  guint steps = 0;

  g_assert_true (suanli_import_file (trace, file, &stats, NULL, NULL));
  suanli_import_stats_clear (&stats);
  flame = suanli_flame_new (trace, SUANLI_FLAME_CPU, G_MININT64, G_MAXINT64);
  for (guint n = 1; n < suanli_flame_get_n_nodes (flame); n++)
    {
      const char *name = suanli_flame_get_name (flame, n);

      g_assert_false (g_str_has_prefix (name, "PyTorch Profiler"));
      g_assert_false (g_str_has_prefix (name, "ProfilerStep#") && !g_str_equal (name, "ProfilerStep#*"));
      steps += g_str_equal (name, "ProfilerStep#*");
    }
  g_assert_cmpuint (steps, ==, 1);
}

int
main (int    argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/flame/diff", test_flame_diff);
  g_test_add_func ("/flame/cpu", test_flame_cpu);
  g_test_add_func ("/flame/gpu", test_flame_gpu);
  g_test_add_func ("/flame/folded-round-trip", test_flame_folded_round_trip);
  g_test_add_func ("/flame/merged-names", test_merged_names);
  g_test_add_func ("/flame/steps-merged", test_flame_steps_merged);
  g_test_add_func ("/flame/profiler-span-left-out", test_flame_profiler_span_left_out);
  g_test_add_func ("/flame/first", test_flame_first);
  g_test_add_func ("/flame/diff-matches-runs", test_flame_diff_matches_runs);
  g_test_add_func ("/flame/fixture", test_flame_fixture);

  return g_test_run ();
}
