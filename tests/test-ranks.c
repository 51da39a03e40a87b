/* test-ranks.c — several ranks in one trace: per-rank steps and GPU time, stragglers, and the flame
 * graph of one rank against another's
 *
 * Hand-written ranks whose figures are worked out here by hand, and the real Kineto fixtures read
 * twice (or beside another) through SuanliTraceLoader, a group per file.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>

#include "suanli-analysis.h"
#include "suanli-flame.h"
#include "suanli-import-chrome.h"
#include "suanli-trace-loader.h"
#include "suanli-test-fixtures.h"

#define STEPS 3

/* One rank's Kineto file: STEPS ProfilerStep#N 200 µs apart on thread 100 + rank (named
 * "python3", as Kineto names threads), each launching a GEMM of @compute_us and then an NCCL
 * all-reduce of @comm_us on another stream, one after the other. Without @steps, the same work
 * with no step annotations. */
static char *
rank_trace (int      rank,
            guint    step_us,
            guint    compute_us,
            guint    comm_us,
            gboolean steps)
{
  GString *text = g_string_new (NULL);
  guint tid = 100 + (guint) rank;

  g_string_append_printf (text, "{\"distributedInfo\":{\"rank\":%d,\"world_size\":3},\"traceEvents\":[\n"
                          "{\"ph\":\"M\",\"name\":\"thread_name\",\"pid\":100,\"tid\":%u,"
                          "\"args\":{\"name\":\"thread %u (python3)\"}}",
                          rank, tid, tid);
  for (guint k = 0; k < STEPS; k++)
    {
      guint base = 200 * k, gemm = 10 * k + 1, nccl = 10 * k + 2;

      if (steps)
        g_string_append_printf (text, ",\n{\"ph\":\"X\",\"cat\":\"user_annotation\",\"name\":\"ProfilerStep#%u\","
                                "\"pid\":100,\"tid\":%u,\"ts\":%u,\"dur\":%u}",
                                k, tid, base, step_us);
      g_string_append_printf (text,
        ",\n{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"aten::mm\",\"pid\":100,\"tid\":%u,\"ts\":%u,\"dur\":10}"
        ",\n{\"ph\":\"X\",\"cat\":\"cuda_runtime\",\"name\":\"cudaLaunchKernel\",\"pid\":100,\"tid\":%u,\"ts\":%u,"
        "\"dur\":3,\"args\":{\"correlation\":%u}}"
        ",\n{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"record_param_comms\",\"pid\":100,\"tid\":%u,\"ts\":%u,\"dur\":10}"
        ",\n{\"ph\":\"X\",\"cat\":\"cuda_runtime\",\"name\":\"cudaLaunchKernel\",\"pid\":100,\"tid\":%u,\"ts\":%u,"
        "\"dur\":3,\"args\":{\"correlation\":%u}}"
        ",\n{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"gemm\",\"pid\":0,\"tid\":7,\"ts\":%u,\"dur\":%u,"
        "\"args\":{\"correlation\":%u}}"
        ",\n{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"ncclDevKernel_AllReduce_Sum_f32_RING_LL(ncclDevComm*)\","
        "\"pid\":0,\"tid\":13,\"ts\":%u,\"dur\":%u,\"args\":{\"correlation\":%u}}",
        tid, base + 1, tid, base + 2, gemm, tid, base + 20, tid, base + 21, nccl, base + 30, compute_us, gemm,
        base + 30 + compute_us, comm_us, nccl);
    }
  g_string_append (text, "\n]}\n");
  return g_string_free (text, FALSE);
}

/* Reads @text into @trace as one more file (group). */
static void
add_rank (SuanliTrace *trace,
          const char  *name,
          char        *text)
{
  g_autofree char *owned = text;
  g_autoptr(GInputStream) stream = g_memory_input_stream_new_from_data (owned, -1, NULL);
  g_autoptr(GError) error = NULL;
  SuanliImportStats stats = { 0 };

  g_assert_true (suanli_import_chrome (trace, stream, name, &stats, NULL, &error));
  g_assert_no_error (error);
  suanli_import_stats_clear (&stats);
}

/* Ranks 0 and 1 take 100 µs a step (40 µs of GEMM, 20 of all-reduce); rank 2 takes 130 µs (50 and
 * 25): 30% slower. */
static SuanliTrace *
three_ranks (void)
{
  SuanliTrace *trace = suanli_trace_new ();

  add_rank (trace, "rank0.json", rank_trace (0, 100, 40, 20, TRUE));
  add_rank (trace, "rank1.json", rank_trace (1, 100, 40, 20, TRUE));
  add_rank (trace, "rank2.json", rank_trace (2, 130, 50, 25, TRUE));
  return trace;
}

static void
test_straggler (void)
{
  g_autoptr(SuanliTrace) trace = three_ranks ();
  g_autoptr(GArray) ranks = suanli_analysis_ranks (trace);
  g_autoptr(GArray) collectives = suanli_analysis_collectives (trace);

  g_assert_cmpuint (ranks->len, ==, 3);
  for (guint i = 0; i < ranks->len; i++)
    {
      SuanliRankStats *rank = &g_array_index (ranks, SuanliRankStats, i);
      gint64 step = i == 2 ? 130000 : 100000, compute = i == 2 ? 50000 : 40000, comm = i == 2 ? 25000 : 20000;
      g_autofree char *file = g_strdup_printf ("rank%u.json", i);

      g_assert_cmpuint (rank->group, ==, i);
      g_assert_cmpint (rank->rank, ==, (int) i);
      g_assert_cmpstr (suanli_trace_get_string (trace, rank->name), ==, file);
      g_assert_cmpuint (rank->steps, ==, STEPS);
      g_assert_cmpint (rank->median_step_ns, ==, step);
      g_assert_cmpint (rank->slowest_step_ns, ==, step);
      /* By hand: three GEMMs and three all-reduces, one after the other, never overlapping. */
      g_assert_cmpint (rank->compute_ns, ==, STEPS * compute);
      g_assert_cmpint (rank->comm_ns, ==, STEPS * comm);
      g_assert_cmpint (rank->busy_ns, ==, STEPS * (compute + comm));
      g_assert_cmpint (rank->measure, ==, SUANLI_RANK_BY_STEP);
      /* The median of 100, 100 and 130 µs is 100. */
      g_assert_cmpint (rank->reference_ns, ==, 100000);
      g_assert_cmpfloat_with_epsilon (rank->slower, i == 2 ? 0.3 : 0, 1e-12);
      g_assert_true (rank->straggler == (i == 2));
    }
  /* The communication time agrees with the collectives of each rank. */
  g_assert_cmpuint (collectives->len, ==, 3);
  for (guint i = 0; i < collectives->len; i++)
    {
      SuanliCollectiveStats *collective = &g_array_index (collectives, SuanliCollectiveStats, i);

      g_assert_cmpint (collective->total_ns, ==, g_array_index (ranks, SuanliRankStats, collective->group).comm_ns);
    }
}

/* Of two ranks, the slower is measured against the faster (the lower median); the threshold is
 * "more than 5%": 5% is not a straggler, 6% is. Without steps, GPU busy time is compared. */
static void
test_threshold_and_busy (void)
{
  g_autoptr(SuanliTrace) at = suanli_trace_new ();
  g_autoptr(SuanliTrace) over = suanli_trace_new ();
  g_autoptr(SuanliTrace) busy = suanli_trace_new ();
  g_autoptr(SuanliTrace) one = suanli_trace_new ();
  g_autoptr(GArray) at_ranks = NULL;
  g_autoptr(GArray) over_ranks = NULL;
  g_autoptr(GArray) busy_ranks = NULL;
  g_autoptr(GArray) one_rank = NULL;
  SuanliRankStats *rank;

  add_rank (at, "a.json", rank_trace (0, 100, 40, 20, TRUE));
  add_rank (at, "b.json", rank_trace (1, 105, 40, 20, TRUE));
  at_ranks = suanli_analysis_ranks (at);
  rank = &g_array_index (at_ranks, SuanliRankStats, 1);
  g_assert_cmpint (rank->reference_ns, ==, 100000);
  g_assert_cmpfloat_with_epsilon (rank->slower, 0.05, 1e-12);
  g_assert_false (rank->straggler);

  add_rank (over, "a.json", rank_trace (0, 100, 40, 20, TRUE));
  add_rank (over, "b.json", rank_trace (1, 106, 40, 20, TRUE));
  over_ranks = suanli_analysis_ranks (over);
  g_assert_false (g_array_index (over_ranks, SuanliRankStats, 0).straggler);
  g_assert_true (g_array_index (over_ranks, SuanliRankStats, 1).straggler);

  /* No steps: rank 1 is busy 3 × 120 µs against rank 0's 3 × 60. */
  add_rank (busy, "a.json", rank_trace (0, 0, 40, 20, FALSE));
  add_rank (busy, "b.json", rank_trace (1, 0, 80, 40, FALSE));
  busy_ranks = suanli_analysis_ranks (busy);
  rank = &g_array_index (busy_ranks, SuanliRankStats, 1);
  g_assert_cmpuint (rank->steps, ==, 0);
  g_assert_cmpint (rank->median_step_ns, ==, -1);
  g_assert_cmpint (rank->slowest_step_ns, ==, -1);
  g_assert_cmpint (rank->measure, ==, SUANLI_RANK_BY_BUSY);
  g_assert_cmpint (rank->measured_ns, ==, 360000);
  g_assert_cmpint (rank->reference_ns, ==, 180000);
  g_assert_cmpfloat_with_epsilon (rank->slower, 1.0, 1e-12);
  g_assert_true (rank->straggler);
  g_assert_false (g_array_index (busy_ranks, SuanliRankStats, 0).straggler);

  /* One file: one row, compared with itself. */
  add_rank (one, "a.json", rank_trace (0, 100, 40, 20, TRUE));
  one_rank = suanli_analysis_ranks (one);
  g_assert_cmpuint (one_rank->len, ==, 1);
  g_assert_false (g_array_index (one_rank, SuanliRankStats, 0).straggler);
  g_assert_cmpfloat (g_array_index (one_rank, SuanliRankStats, 0).slower, ==, 0);
}

/* The summed total and baseline total of the nodes named @name. */
static void
sum_named (SuanliFlame *flame,
           const char  *name,
           gint64      *total,
           gint64      *baseline,
           guint       *nodes)
{
  *total = *baseline = 0;
  *nodes = 0;
  for (guint i = 1; i < suanli_flame_get_n_nodes (flame); i++)
    if (g_str_equal (suanli_flame_get_name (flame, i), name))
      {
        *total += suanli_flame_get_node (flame, i)->total;
        *baseline += suanli_flame_get_node (flame, i)->baseline_total;
        (*nodes)++;
      }
}

static void
test_group_flames (void)
{
  g_autoptr(SuanliTrace) trace = three_ranks ();
  g_autoptr(SuanliFlame) all_cpu = suanli_flame_new (trace, SUANLI_FLAME_CPU, G_MININT64, G_MAXINT64);
  g_autoptr(SuanliFlame) all_gpu = suanli_flame_new (trace, SUANLI_FLAME_GPU, G_MININT64, G_MAXINT64);
  g_autoptr(SuanliFlame) cpu0 = suanli_flame_new_for_group (trace, SUANLI_FLAME_CPU, 0, G_MININT64, G_MAXINT64);
  g_autoptr(SuanliFlame) cpu2 = suanli_flame_new_for_group (trace, SUANLI_FLAME_CPU, 2, G_MININT64, G_MAXINT64);
  g_autoptr(SuanliFlame) gpu0 = suanli_flame_new_for_group (trace, SUANLI_FLAME_GPU, 0, G_MININT64, G_MAXINT64);
  g_autoptr(SuanliFlame) gpu2 = suanli_flame_new_for_group (trace, SUANLI_FLAME_GPU, 2, G_MININT64, G_MAXINT64);
  g_autoptr(SuanliFlame) window = suanli_flame_new_for_group (trace, SUANLI_FLAME_GPU, 2, 0, 200000);
  g_autoptr(SuanliFlame) diff = suanli_flame_new_diff (gpu0, gpu2);
  gint64 total, baseline;
  guint nodes;

  /* CPU: the steps, 3 × 100 µs for rank 0 and 3 × 130 for rank 2, of the 990 µs of all three. */
  g_assert_cmpint (suanli_flame_get_node (all_cpu, 0)->total, ==, 990000);
  g_assert_cmpint (suanli_flame_get_node (cpu0, 0)->total, ==, 300000);
  g_assert_cmpint (suanli_flame_get_node (cpu2, 0)->total, ==, 390000);
  /* GPU: 3 × (40 + 20) µs and 3 × (50 + 25), of the 585 of all three; the first step alone. */
  g_assert_cmpint (suanli_flame_get_node (all_gpu, 0)->total, ==, 585000);
  g_assert_cmpint (suanli_flame_get_node (gpu0, 0)->total, ==, 180000);
  g_assert_cmpint (suanli_flame_get_node (gpu2, 0)->total, ==, 225000);
  g_assert_cmpint (suanli_flame_get_node (window, 0)->total, ==, 75000);
  /* A flame of one rank has no node for the rank: its stacks start at the thread. */
  sum_named (gpu2, "rank 2", &total, &baseline, &nodes);
  g_assert_cmpuint (nodes, ==, 0);
  sum_named (all_gpu, "rank 2", &total, &baseline, &nodes);
  g_assert_cmpuint (nodes, ==, 1);
  g_assert_cmpint (total, ==, 225000);

  /* Rank 2 against rank 0: the threads (100 and 102, both "python3") line up, and so do the
   * kernels under them. */
  g_assert_true (suanli_flame_is_differential (diff));
  g_assert_cmpint (suanli_flame_get_node (diff, 0)->total, ==, 225000);
  g_assert_cmpint (suanli_flame_get_node (diff, 0)->baseline_total, ==, 180000);
  sum_named (diff, "python3", &total, &baseline, &nodes);
  g_assert_cmpuint (nodes, ==, 1);
  /* The steps are one frame ("ProfilerStep#*"), so the kernel is one node under it. */
  sum_named (diff, "ncclDevKernel_AllReduce_Sum_f32_RING_LL(ncclDevComm*)", &total, &baseline, &nodes);
  g_assert_cmpuint (nodes, ==, 1);
  g_assert_cmpint (total, ==, 75000);
  g_assert_cmpint (baseline, ==, 60000);
  sum_named (diff, "gemm", &total, &baseline, &nodes);
  g_assert_cmpint (total, ==, 150000);
  g_assert_cmpint (baseline, ==, 120000);
}

static void
on_loaded (GObject      *source,
           GAsyncResult *result,
           gpointer      data)
{
  SuanliTrace **trace = data;
  g_autoptr(GError) error = NULL;

  *trace = suanli_trace_loader_load_finish (SUANLI_TRACE_LOADER (source), result, &error);
  g_assert_no_error (error);
}

/* The fixtures named, read as one trace by the loader.
 * @figures, when not NULL, gets the figures the loader worked out as it read. */
static SuanliTrace *
load_fixtures (const char * const   *names,
               SuanliTraceFigures  **figures)
{
  g_autoptr(GPtrArray) files = g_ptr_array_new_with_free_func (g_object_unref);
  g_autoptr(SuanliTraceLoader) loader = NULL;
  SuanliTrace *trace = NULL;

  for (guint i = 0; names[i] != NULL; i++)
    {
      g_autofree char *path = suanli_test_fixture_path (names[i]);

      g_ptr_array_add (files, g_file_new_for_path (path));
    }
  loader = suanli_trace_loader_new ((GFile * const *) files->pdata, files->len);
  suanli_trace_loader_load_async (loader, NULL, on_loaded, &trace);
  while (trace == NULL)
    g_main_context_iteration (NULL, TRUE);
  if (figures != NULL)
    *figures = suanli_trace_loader_steal_figures (loader);
  return trace;
}

#define SAMPLED "timeline_analysis__sampled_rank-0.json.gz"
#define AMD     "amd_trace__mi250_minitoy_train_ROCm6_2_kineto.json.gz"

/* A real rank-0 trace read twice: two ranks alike in every figure, each what the file alone gives. */
static void
test_fixture_twice (void)
{
  g_autoptr(SuanliTrace) trace = load_fixtures ((const char *[]) { SAMPLED, SAMPLED, NULL }, NULL);
  g_autoptr(SuanliTrace) alone = NULL;
  g_autoptr(GArray) ranks = NULL;
  g_autoptr(GArray) gpus = NULL;
  g_autoptr(SuanliFlame) flame = NULL;
  g_autoptr(SuanliFlame) first = NULL;
  g_autoptr(SuanliFlame) second = NULL;
  g_autoptr(SuanliFlame) diff = NULL;
  SuanliGpuTime *gpu;

  alone = load_fixtures ((const char *[]) { SAMPLED, NULL }, NULL);
  g_assert_cmpuint (suanli_trace_get_n_groups (trace), ==, 2);
  ranks = suanli_analysis_ranks (trace);
  gpus = suanli_analysis_gpu_time (alone);
  g_assert_cmpuint (ranks->len, ==, 2);
  g_assert_cmpuint (gpus->len, ==, 1);
  gpu = &g_array_index (gpus, SuanliGpuTime, 0);
  for (guint i = 0; i < 2; i++)
    {
      SuanliRankStats *rank = &g_array_index (ranks, SuanliRankStats, i);

      g_assert_cmpint (rank->rank, ==, 0);
      /* ProfilerStep#551 of 607 ms and #552 of 623 ms. */
      g_assert_cmpuint (rank->steps, ==, 2);
      g_assert_cmpint (rank->median_step_ns, ==, 622928000);
      g_assert_cmpint (rank->slowest_step_ns, ==, 622928000);
      g_assert_cmpint (rank->busy_ns, ==, gpu->busy_ns);
      g_assert_cmpint (rank->compute_ns, ==, gpu->compute_ns);
      g_assert_cmpint (rank->comm_ns, ==, gpu->comm_ns);
      g_assert_cmpint (rank->comm_ns, >, 0);
      g_assert_false (rank->straggler);
      g_assert_cmpfloat (rank->slower, ==, 0);
    }

  /* Each rank's flame is the file's own; the two against each other differ nowhere. */
  flame = suanli_flame_new (alone, SUANLI_FLAME_GPU, G_MININT64, G_MAXINT64);
  first = suanli_flame_new_for_group (trace, SUANLI_FLAME_GPU, 0, G_MININT64, G_MAXINT64);
  second = suanli_flame_new_for_group (trace, SUANLI_FLAME_GPU, 1, G_MININT64, G_MAXINT64);
  g_assert_cmpint (suanli_flame_get_node (first, 0)->total, ==, suanli_flame_get_node (flame, 0)->total);
  g_assert_cmpint (suanli_flame_get_node (second, 0)->total, ==, suanli_flame_get_node (flame, 0)->total);
  g_assert_cmpuint (suanli_flame_get_n_nodes (first), ==, suanli_flame_get_n_nodes (flame));
  diff = suanli_flame_new_diff (first, second);
  g_assert_cmpint (suanli_flame_get_node (diff, 0)->total, ==, suanli_flame_get_node (flame, 0)->total);
  for (guint i = 0; i < suanli_flame_get_n_nodes (diff); i++)
    g_assert_cmpint (suanli_flame_get_node (diff, i)->total, ==, suanli_flame_get_node (diff, i)->baseline_total);
}

/* Two different real files: the rank-0 training step, and an AMD trace that gives no rank and
 * whose steps take milliseconds, not hundreds: the first is the straggler by far. */
static void
test_fixture_pair (void)
{
  g_autoptr(SuanliTrace) trace = load_fixtures ((const char *[]) { SAMPLED, AMD, NULL }, NULL);
  g_autoptr(GArray) ranks = NULL;
  SuanliRankStats *sampled, *amd;

  ranks = suanli_analysis_ranks (trace);
  g_assert_cmpuint (ranks->len, ==, 2);
  sampled = &g_array_index (ranks, SuanliRankStats, 0);
  amd = &g_array_index (ranks, SuanliRankStats, 1);
  g_assert_cmpint (amd->rank, ==, -1);
  g_assert_true (g_str_has_suffix (suanli_trace_get_string (trace, amd->name), AMD));
  g_assert_cmpuint (amd->steps, ==, 2);
  g_assert_cmpint (amd->comm_ns, ==, 0);
  g_assert_cmpint (sampled->reference_ns, ==, amd->median_step_ns);
  g_assert_true (sampled->straggler);
  g_assert_false (amd->straggler);
  g_assert_cmpfloat (sampled->slower, >, 10);
}

/* The loader works the figures out as it reads (the page shows them with the trace): they are the
 * trace's, and what the analyses give on it afterwards, to the nanosecond. */
static void
test_loader_figures (void)
{
  static const char * const names[] = { SAMPLED, AMD, NULL };
  SuanliTraceFigures *early = NULL;
  g_autoptr(SuanliTrace) trace = load_fixtures (names, &early);
  SuanliTraceFigures *late;

  g_assert_nonnull (early);
  g_assert_true (early->trace == trace);
  late = suanli_trace_figures_new (trace);
  g_assert_cmpuint (early->gpus->len, ==, late->gpus->len);
  g_assert_cmpuint (early->gpus->len, >, 0);
  for (guint i = 0; i < late->gpus->len; i++)
    {
      SuanliGpuTime *a = &g_array_index (early->gpus, SuanliGpuTime, i), *b = &g_array_index (late->gpus, SuanliGpuTime, i);

      g_assert_cmpint (a->busy_ns, ==, b->busy_ns);
      g_assert_cmpint (a->kernel_ns, ==, b->kernel_ns);
      g_assert_cmpint (a->comm_ns, ==, b->comm_ns);
      g_assert_cmpint (a->span_ns, ==, b->span_ns);
      g_assert_cmpint (a->host_wait_ns, ==, b->host_wait_ns);
    }
  g_assert_cmpuint (early->kernels->len, ==, late->kernels->len);
  g_assert_cmpuint (early->operators->len, ==, late->operators->len);
  g_assert_cmpuint (early->steps->len, ==, late->steps->len);
  g_assert_cmpuint (early->delays->len, ==, late->delays->len);
  suanli_trace_figures_free (late);
  suanli_trace_figures_free (early);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/ranks/straggler", test_straggler);
  g_test_add_func ("/ranks/threshold-and-busy", test_threshold_and_busy);
  g_test_add_func ("/ranks/group-flames", test_group_flames);
  g_test_add_func ("/ranks/fixture-twice", test_fixture_twice);
  g_test_add_func ("/ranks/fixture-pair", test_fixture_pair);
  g_test_add_func ("/ranks/loader-figures", test_loader_figures);

  return g_test_run ();
}
