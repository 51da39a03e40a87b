/* test-trace.c — the Chrome/Kineto importer and the GPU-time analysis, rule by rule
 *
 * Hand-written cases for each rule of docs/trace-formats.md. Compressed and cut input, budgets and
 * faults are in test-trace-input.c, folded stacks in test-trace-folded.c, the real Kineto fixtures
 * in test-trace-fixtures.c.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <glib/gstdio.h>

#include "suanli-analysis.h"
#include "suanli-export-chrome.h"
#include "suanli-flame.h"
#include "suanli-import.h"
#include "suanli-import-chrome.h"
#include "suanli-test-fixtures.h"
#include "suanli-test-flame.h"
#include "suanli-test-import.h"
#include "suanli-test-samples.h"


/* Arguments' numbers are read as strtod reads them, to the last bit, whichever way the importer
 * takes (short decimals are read without strtod); keys are cut at a NUL as C strings are; every
 * slice is counted under its category. */
static void
test_argument_values (void)
{
  static const char * const numbers[] = {
    "1.62963", "12.2", "34.9", "-0.5", "0.1", "-0.0", "9007199254740993.5", "0.30000000000000004",
    "123456789.123456789", "1e5", "2.5E-3", "4503599627370497.5", "0.0000000000000000000001",
    "1.00000000000000000000001", "3.141592653589793", "17976931348623157e292",
  };
  g_autoptr(GString) json = g_string_new ("[");
  g_autoptr(SuanliTestImport) imported = NULL;
  SuanliTrack *track;

  for (guint i = 0; i < G_N_ELEMENTS (numbers); i++)
    g_string_append_printf (json, "%s{\"ph\": \"X\", \"cat\": \"%s\", \"name\": \"n\", \"pid\": 1, \"tid\": 1, "
                            "\"ts\": %u, \"dur\": 1, \"args\": {\"value\": %s, \"cut\\u0000here\": 1, "
                            "\"name\": \"x\"}}",
                            i == 0 ? "" : ", ", i % 3 == 0 ? "kernel" : "cpu_op", i * 10, numbers[i]);
  g_string_append (json, "]");
  imported = suanli_test_import_text (json->str);
  g_assert_true (imported->ok);
  track = suanli_test_find_track (imported->trace, SUANLI_TRACK_GPU_STREAM, 1, 1);
  g_assert_nonnull (track);
  g_assert_cmpuint (track->slices->len, ==, G_N_ELEMENTS (numbers));
  for (guint i = 0; i < G_N_ELEMENTS (numbers); i++)
    {
      const SuanliArg *args = suanli_trace_get_args (imported->trace, suanli_test_slice_at (track, i));
      double expected = g_ascii_strtod (numbers[i], NULL);

      g_assert_cmpuint (suanli_test_slice_at (track, i)->n_args, ==, 3);
      g_assert_cmpstr (suanli_trace_get_string (imported->trace, args[0].key), ==, "value");
      g_assert_cmpint (args[0].type, ==, SUANLI_ARG_DOUBLE);
      /* Bit for bit: the same double, -0.0 included. */
      g_assert_cmpmem (&args[0].d, sizeof (double), &expected, sizeof (double));
      g_assert_cmpstr (suanli_trace_get_string (imported->trace, args[1].key), ==, "cut");
      g_assert_cmpstr (suanli_trace_get_string (imported->trace, args[2].key), ==, "name");
      g_assert_cmpstr (suanli_trace_get_string (imported->trace, args[2].s), ==, "x");
    }
  g_assert_cmpuint (GPOINTER_TO_SIZE (g_hash_table_lookup (imported->stats.by_category, "kernel")), ==, 6);
  g_assert_cmpuint (GPOINTER_TO_SIZE (g_hash_table_lookup (imported->stats.by_category, "cpu_op")), ==, 10);
}

static void
test_times (void)
{
  /* Integers, decimals, numeric strings; epoch microseconds keep every digit. */
  g_autoptr(SuanliTestImport) imported = suanli_test_import_text (
    "[{\"ph\":\"X\",\"name\":\"a\",\"pid\":1,\"tid\":1,\"ts\":10,\"dur\":2.5},"
    " {\"ph\":\"X\",\"name\":\"b\",\"pid\":1,\"tid\":1,\"ts\":\"20.125\",\"dur\":\"1\"},"
    " {\"ph\":\"X\",\"name\":\"c\",\"pid\":1,\"tid\":1,\"ts\":1694039968933321.123,\"dur\":0.0015}]");
  SuanliTrack *track;

  g_assert_true (imported->ok);
  track = suanli_test_find_track (imported->trace, SUANLI_TRACK_THREAD, 1, 1);
  g_assert_nonnull (track);
  g_assert_cmpuint (track->slices->len, ==, 3);
  g_assert_cmpint (suanli_test_slice_at (track, 0)->start, ==, 10000);
  g_assert_cmpint (suanli_test_slice_at (track, 0)->duration, ==, 2500);
  g_assert_cmpint (suanli_test_slice_at (track, 1)->start, ==, 20125);
  g_assert_cmpint (suanli_test_slice_at (track, 1)->duration, ==, 1000);
  g_assert_cmpint (suanli_test_slice_at (track, 2)->start, ==, G_GINT64_CONSTANT (1694039968933321123));
  g_assert_cmpint (suanli_test_slice_at (track, 2)->duration, ==, 1);
  g_assert_cmpuint (imported->stats.events, ==, 3);
}

static void
test_containers (void)
{
  const char *events = "{\"ph\":\"X\",\"name\":\"a\",\"cat\":\"cpu_op\",\"pid\":1,\"tid\":2,\"ts\":1,\"dur\":5}";
  g_autofree char *array = g_strdup_printf ("[%s]", events);
  g_autofree char *object = g_strdup_printf ("{\"schemaVersion\":1,\"deviceProperties\":[{\"id\":0}],"
                                             "\"traceEvents\":[%s],\"traceName\":\"x\"}", events);
  /* The array form may be left unfinished: no "]", a trailing comma, a final {}. */
  g_autofree char *open = g_strdup_printf ("[%s", events);
  g_autofree char *comma = g_strdup_printf ("[%s,\n", events);
  g_autofree char *empty = g_strdup_printf ("[%s,{}", events);
  const char *forms[] = { array, object, open, comma, empty };

  for (guint i = 0; i < G_N_ELEMENTS (forms); i++)
    {
      g_autoptr(SuanliTestImport) imported = suanli_test_import_text (forms[i]);
      SuanliTrack *track;

      g_test_message ("form %u: %s", i, forms[i]);
      g_assert_no_error (imported->error);
      g_assert_true (imported->ok);
      track = suanli_test_find_track (imported->trace, SUANLI_TRACK_THREAD, 1, 2);
      g_assert_nonnull (track);
      g_assert_cmpuint (track->slices->len, ==, 1);
      g_assert_cmpstr (suanli_test_slice_name (imported->trace, track, 0), ==, "a");
      g_assert_cmpuint (suanli_trace_get_warnings (imported->trace)->len, ==, 0);
      g_assert_cmpuint (GPOINTER_TO_SIZE (g_hash_table_lookup (imported->stats.by_category, "cpu_op")), ==, 1);
    }
}

/* What the trace ran on: deviceProperties' first device, in whatever order the members come (after
 * traceEvents too, where a device must not be read as an event), and how many the job used. */
static void
test_accelerator (void)
{
  static const char * const devices =
    "\"deviceProperties\":[{\"id\":0,\"name\":\"Tesla V100-SXM2-32GB\",\"totalGlobalMem\":34089730048,"
    "\"computeMajor\":7,\"extra\":{\"name\":\"not this\"}},{\"id\":1,\"name\":\"Tesla V100-SXM2-32GB\"}]";
  static const char * const events =
    "\"traceEvents\":[{\"ph\":\"X\",\"name\":\"k\",\"cat\":\"kernel\",\"pid\":1,\"tid\":7,\"ts\":1,\"dur\":5}]";
  g_autofree char *before = g_strdup_printf ("{\"schemaVersion\":1,%s,%s}", devices, events);
  g_autofree char *after = g_strdup_printf ("{%s,%s,\"distributedInfo\":{\"rank\":3,\"world_size\":16}}", events, devices);
  const char *forms[] = { before, after };

  for (guint i = 0; i < G_N_ELEMENTS (forms); i++)
    {
      g_autoptr(SuanliTestImport) imported = suanli_test_import_text (forms[i]);
      guint64 memory = 0;
      guint count = 0;

      g_assert_true (imported->ok);
      g_assert_cmpstr (suanli_trace_get_accelerator (imported->trace, &memory, &count), ==, "Tesla V100-SXM2-32GB");
      g_assert_cmpuint (memory, ==, 34089730048);
      /* Two devices listed, one used: one GPU; with a world size, that many. */
      g_assert_cmpuint (count, ==, i == 0 ? 1 : 16);
      g_assert_cmpuint (suanli_trace_get_n_slices (imported->trace), ==, 1);
    }
  {
    g_autoptr(SuanliTestImport) imported = suanli_test_import_text ("[{\"ph\":\"X\",\"name\":\"a\",\"pid\":1,\"tid\":2,\"ts\":1,\"dur\":5}]");
    guint count = 0;

    g_assert_null (suanli_trace_get_accelerator (imported->trace, NULL, &count));
    g_assert_cmpuint (count, ==, 1);
  }
  /* A real one: HolisticTraceAnalysis's eight A100s, of which rank 0 used one. */
  {
    g_autofree char *path = suanli_test_fixture_path ("critical_path__simple_add__trace.json.gz");
    g_autoptr(SuanliTrace) trace = suanli_trace_new ();
    g_autoptr(GFile) file = NULL;
    SuanliImportStats stats = { 0 };
    guint64 memory = 0;
    guint count = 0;

    file = g_file_new_for_path (path);
    g_assert_true (suanli_import_file (trace, file, &stats, NULL, NULL));
    g_assert_cmpstr (suanli_trace_get_accelerator (trace, &memory, &count), ==, "NVIDIA A100-PG509-200");
    g_assert_cmpuint (memory, ==, 42297524224);
    g_assert_cmpuint (count, ==, 1);
    suanli_import_stats_clear (&stats);
  }
}

static void
test_base_time (void)
{
  /* Kineto writes baseTimeNanoseconds after the events; it applies to all of them. */
  const char *after = "{\"traceEvents\":[{\"ph\":\"X\",\"name\":\"a\",\"pid\":1,\"tid\":1,\"ts\":2.5,\"dur\":1},"
                      "{\"ph\":\"i\",\"name\":\"mark\",\"pid\":1,\"tid\":1,\"ts\":4,\"s\":\"t\"}],"
                      "\"baseTimeNanoseconds\":1727743122000000000}";
  const char *before = "{\"baseTimeNanoseconds\":1727743122000000000,"
                       "\"traceEvents\":[{\"ph\":\"X\",\"name\":\"a\",\"pid\":1,\"tid\":1,\"ts\":2.5,\"dur\":1},"
                       "{\"ph\":\"i\",\"name\":\"mark\",\"pid\":1,\"tid\":1,\"ts\":4,\"s\":\"t\"}]}";
  const char *forms[] = { after, before };

  for (guint i = 0; i < G_N_ELEMENTS (forms); i++)
    {
      g_autoptr(SuanliTestImport) imported = suanli_test_import_text (forms[i]);
      SuanliTrack *track = suanli_test_find_track (imported->trace, SUANLI_TRACK_THREAD, 1, 1);
      gint64 first, last;

      g_assert_true (imported->ok);
      g_assert_cmpint (suanli_test_slice_at (track, 0)->start, ==, G_GINT64_CONSTANT (1727743122000002500));
      g_assert_cmpint (g_array_index (track->instants, SuanliInstant, 0).time, ==, G_GINT64_CONSTANT (1727743122000004000));
      suanli_trace_get_time_range (imported->trace, &first, &last);
      g_assert_cmpint (first, ==, G_GINT64_CONSTANT (1727743122000002500));
      g_assert_cmpint (last, ==, G_GINT64_CONSTANT (1727743122000004000));
    }
}

/* Times at the edges of 64 bits never overflow: they are kept within ±2^61 ns, and a time that
 * cannot be read at all (1e300 µs) is left out rather than wrapped. */
static void
test_extreme_times (void)
{
  g_autoptr(SuanliTestImport) imported = suanli_test_import_text (
    "{\"traceEvents\":[{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"k\",\"pid\":0,\"tid\":7,"
    "\"ts\":2305843009213693,\"dur\":2305843009213693},"
    "{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"k\",\"pid\":0,\"tid\":7,\"ts\":-2305843009213693,\"dur\":1},"
    "{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"far\",\"pid\":0,\"tid\":7,\"ts\":1e300,\"dur\":1}],"
    "\"baseTimeNanoseconds\":9223372036854775807}");
  g_autoptr(GArray) gpus = NULL;
  SuanliGpuTime *gpu;
  gint64 first, last;

  g_assert_true (imported->ok);
  suanli_trace_get_time_range (imported->trace, &first, &last);
  g_assert_cmpint (first, <=, last);
  g_assert_cmpint (last, <=, G_GINT64_CONSTANT (1) << 62);
  gpus = suanli_analysis_gpu_time (imported->trace);
  gpu = &g_array_index (gpus, SuanliGpuTime, 0);
  g_assert_cmpint (gpu->span_ns, >, 0);
  g_assert_cmpint (gpu->busy_ns, <=, gpu->span_ns);
  g_assert_cmpint (gpu->idle_ns, >=, 0);
}

/* A timestamp's digits are read eight at a time where they can be: every digit counts (epoch
 * microseconds in nanoseconds), and the limit (2^61 ns) falls where reading them one by one puts
 * it, even inside a run of eight: 2305843009213699 µs is read, 2305843009213700 is left out. */
static void
test_timestamp_digits (void)
{
  g_autoptr(SuanliTestImport) imported = suanli_test_import_text (
    "[{\"ph\":\"X\",\"name\":\"a\",\"pid\":1,\"tid\":1,\"ts\":1682725897226747.250,\"dur\":1},"
    " {\"ph\":\"X\",\"name\":\"b\",\"pid\":1,\"tid\":2,\"ts\":2305843009213699.999,\"dur\":0},"
    " {\"ph\":\"X\",\"name\":\"c\",\"pid\":1,\"tid\":3,\"ts\":2305843009213700,\"dur\":1},"
    " {\"ph\":\"X\",\"name\":\"d\",\"pid\":1,\"tid\":4,\"ts\":\"000000000000000000000012.5\",\"dur\":1},"
    " {\"ph\":\"X\",\"name\":\"e\",\"pid\":1,\"tid\":5,\"ts\":-12345678.1234,\"dur\":1},"
    " {\"ph\":\"X\",\"name\":\"f\",\"pid\":1,\"tid\":6,\"ts\":1234567812345678e-3,\"dur\":1}]");
  const gint64 expected[] = { G_GINT64_CONSTANT (1682725897226747250), G_GINT64_CONSTANT (2305843009213699999), -1,
                              12500, -12345678123, 1234567812345678 };

  g_assert_true (imported->ok);
  for (guint i = 0; i < G_N_ELEMENTS (expected); i++)
    {
      SuanliTrack *track = suanli_test_find_track (imported->trace, SUANLI_TRACK_THREAD, 1, i + 1);

      if (expected[i] == -1)
        g_assert_true (track == NULL || track->slices->len == 0);
      else
        g_assert_cmpint (suanli_test_slice_at (track, 0)->start, ==, expected[i]);
    }
  g_assert_true (suanli_test_has_warning (imported->trace, "1 event has a ts that is no time within 73 years of 1970"));
}

static void
test_pids_and_tids (void)
{
  /* Numeric strings become numbers (flows must land on the same thread); a missing tid means the
   * pid; words name their track. */
  g_autoptr(SuanliTestImport) imported = suanli_test_import_text (
    "[{\"ph\":\"X\",\"name\":\"a\",\"pid\":\"12\",\"tid\":\"7\",\"ts\":1,\"dur\":1},"
    " {\"ph\":\"X\",\"name\":\"b\",\"pid\":12,\"tid\":7,\"ts\":3,\"dur\":1},"
    " {\"ph\":\"X\",\"name\":\"c\",\"pid\":5,\"ts\":1,\"dur\":1},"
    " {\"ph\":\"X\",\"name\":\"d\",\"pid\":5,\"tid\":\"stream 7\",\"ts\":1,\"dur\":1}]");
  SuanliTrack *track = suanli_test_find_track (imported->trace, SUANLI_TRACK_THREAD, 12, 7);
  gboolean found_named = FALSE;

  g_assert_true (imported->ok);
  g_assert_nonnull (track);
  g_assert_cmpuint (track->slices->len, ==, 2);
  track = suanli_test_find_track (imported->trace, SUANLI_TRACK_THREAD, 5, 5);
  g_assert_nonnull (track);
  g_assert_cmpstr (suanli_test_slice_name (imported->trace, track, 0), ==, "c");
  for (guint i = 0; i < suanli_trace_get_n_tracks (imported->trace); i++)
    {
      SuanliTrack *each = suanli_trace_get_track (imported->trace, i);
      if (g_strcmp0 (suanli_trace_get_string (imported->trace, each->name), "stream 7") == 0)
        {
          found_named = TRUE;
          g_assert_cmpstr (suanli_test_slice_name (imported->trace, each, 0), ==, "d");
        }
    }
  g_assert_true (found_named);
}

/* The importer holds the last two pids and tids read, by their text: texts that come back after
 * others, in turns of two and of three, with words, numbers, an empty word and a pid given twice
 * in one event (the number wins, the word still names it) must land where each would alone. */
static void
test_pids_and_tids_repeated (void)
{
  static const char *const pids[] = { "\"CPU functions\"", "\"12\"", "\"GPU 0\"", "12" };
  static const char *const tids[] = { "1", "\"stream 7\"", "\"\"", "\"stream 7\"" };
  const gint64 word_ids[] = { -(gint64) (g_str_hash ("CPU functions") & 0x7fffffff) - 1, 12,
                              -(gint64) (g_str_hash ("GPU 0") & 0x7fffffff) - 1, 12 };
  const gint64 tid_ids[] = { 1, 7, -(gint64) (g_str_hash ("") & 0x7fffffff) - 1, 7 };
  static const guint order[] = { 0, 1, 0, 0, 2, 1, 2, 0, 3, 1, 1, 2, 0, 2, 2, 1, 3, 0 };
  g_autoptr(GString) text = g_string_new ("[");
  g_autoptr(SuanliTestImport) imported = NULL;
  guint expected[3] = { 0 };
  SuanliTrack *track;

  for (guint i = 0; i < G_N_ELEMENTS (order); i++)
    {
      g_string_append_printf (text, "{\"ph\":\"X\",\"name\":\"e%u\",\"pid\":%s,\"tid\":%s,\"ts\":%u,\"dur\":1},",
                              i, pids[order[i]], tids[order[i]], i * 2);
      expected[order[i] == 3 ? 1 : order[i]]++;
    }
  g_string_append (text, "{\"ph\":\"X\",\"name\":\"twice\",\"pid\":\"CPU functions\",\"pid\":12,\"tid\":1,\"ts\":1,\"dur\":1}]");
  imported = suanli_test_import_text (text->str);
  g_assert_true (imported->ok);
  for (guint k = 0; k < 3; k++)
    {
      track = suanli_test_find_track (imported->trace, SUANLI_TRACK_THREAD, word_ids[k], tid_ids[k]);
      g_assert_nonnull (track);
      g_assert_cmpuint (track->slices->len, ==, expected[k]);
    }
  track = suanli_test_find_track (imported->trace, SUANLI_TRACK_THREAD, 12, 1);
  g_assert_nonnull (track);
  g_assert_cmpuint (track->slices->len, ==, 1);
  g_assert_cmpstr (suanli_test_slice_name (imported->trace, track, 0), ==, "twice");
}

static void
test_complete_nesting (void)
{
  /* X events nest by time whatever their order in the file. */
  g_autoptr(SuanliTestImport) imported = suanli_test_import_text (
    "[{\"ph\":\"X\",\"name\":\"inner\",\"pid\":1,\"tid\":1,\"ts\":2,\"dur\":3},"
    " {\"ph\":\"X\",\"name\":\"outer\",\"pid\":1,\"tid\":1,\"ts\":1,\"dur\":10},"
    " {\"ph\":\"X\",\"name\":\"innermost\",\"pid\":1,\"tid\":1,\"ts\":3,\"dur\":1},"
    " {\"ph\":\"X\",\"name\":\"next\",\"pid\":1,\"tid\":1,\"ts\":20,\"dur\":1}]");
  SuanliTrack *track = suanli_test_find_track (imported->trace, SUANLI_TRACK_THREAD, 1, 1);

  g_assert_true (imported->ok);
  g_assert_cmpstr (suanli_test_slice_name (imported->trace, track, 0), ==, "outer");
  g_assert_cmpuint (suanli_test_slice_at (track, 0)->depth, ==, 0);
  g_assert_cmpstr (suanli_test_slice_name (imported->trace, track, 1), ==, "inner");
  g_assert_cmpuint (suanli_test_slice_at (track, 1)->depth, ==, 1);
  g_assert_cmpstr (suanli_test_slice_name (imported->trace, track, 2), ==, "innermost");
  g_assert_cmpuint (suanli_test_slice_at (track, 2)->depth, ==, 2);
  g_assert_cmpstr (suanli_test_slice_name (imported->trace, track, 3), ==, "next");
  g_assert_cmpuint (suanli_test_slice_at (track, 3)->depth, ==, 0);
  g_assert_cmpuint (track->max_depth, ==, 2);
}

static void
test_begin_end (void)
{
  /* One stack per thread: E closes the top. An E with nothing open is ignored with a warning; a B
   * left open is closed at the trace's end and marked. */
  g_autoptr(SuanliTestImport) imported = suanli_test_import_text (
    "[{\"ph\":\"B\",\"name\":\"outer\",\"pid\":1,\"tid\":1,\"ts\":1},"
    " {\"ph\":\"B\",\"name\":\"inner\",\"pid\":1,\"tid\":1,\"ts\":2},"
    " {\"ph\":\"B\",\"name\":\"other thread\",\"pid\":1,\"tid\":2,\"ts\":2},"
    " {\"ph\":\"E\",\"pid\":1,\"tid\":1,\"ts\":4},"
    " {\"ph\":\"E\",\"pid\":1,\"tid\":1,\"ts\":6},"
    " {\"ph\":\"E\",\"pid\":1,\"tid\":1,\"ts\":7},"
    " {\"ph\":\"B\",\"name\":\"left open\",\"pid\":1,\"tid\":1,\"ts\":8},"
    " {\"ph\":\"X\",\"name\":\"last\",\"pid\":1,\"tid\":3,\"ts\":9,\"dur\":3}]");
  SuanliTrack *track = suanli_test_find_track (imported->trace, SUANLI_TRACK_THREAD, 1, 1);
  SuanliTrack *other = suanli_test_find_track (imported->trace, SUANLI_TRACK_THREAD, 1, 2);

  g_assert_true (imported->ok);
  g_assert_cmpuint (track->slices->len, ==, 3);
  g_assert_cmpstr (suanli_test_slice_name (imported->trace, track, 0), ==, "outer");
  g_assert_cmpint (suanli_test_slice_at (track, 0)->duration, ==, 5000);
  g_assert_cmpstr (suanli_test_slice_name (imported->trace, track, 1), ==, "inner");
  g_assert_cmpint (suanli_test_slice_at (track, 1)->duration, ==, 2000);
  g_assert_cmpuint (suanli_test_slice_at (track, 1)->depth, ==, 1);
  g_assert_cmpstr (suanli_test_slice_name (imported->trace, track, 2), ==, "left open");
  g_assert_cmpint (suanli_test_slice_at (track, 2)->duration, ==, 4000);
  g_assert_true (suanli_test_slice_at (track, 2)->flags & SUANLI_SLICE_UNFINISHED);
  g_assert_true (suanli_test_slice_at (other, 0)->flags & SUANLI_SLICE_UNFINISHED);
  g_assert_true (suanli_test_has_warning (imported->trace, "1 end (E) had no begin"));
  g_assert_true (suanli_test_has_warning (imported->trace, "2 slices began and never ended"));
}

/* The async track of @pid named @name, or NULL. */
static SuanliTrack *
find_async_track (SuanliTrace *trace,
                  gint64       pid,
                  const char  *name)
{
  for (guint i = 0; i < suanli_trace_get_n_tracks (trace); i++)
    {
      SuanliTrack *track = suanli_trace_get_track (trace, i);
      if (track->kind == SUANLI_TRACK_ASYNC && track->pid == pid &&
          g_str_equal (suanli_trace_get_string (trace, track->name), name))
        return track;
    }
  return NULL;
}

static const char async_trace[] =
  "[{\"ph\":\"b\",\"cat\":\"serve\",\"name\":\"request\",\"id\":1,\"pid\":1,\"ts\":1,\"args\":{\"tokens\":7}},"
  " {\"ph\":\"b\",\"cat\":\"serve\",\"name\":\"decode\",\"id\":1,\"pid\":1,\"ts\":2},"
  " {\"ph\":\"n\",\"cat\":\"serve\",\"name\":\"token\",\"id\":1,\"pid\":1,\"ts\":3},"
  " {\"ph\":\"e\",\"cat\":\"serve\",\"name\":\"decode\",\"id\":1,\"pid\":1,\"ts\":4},"
  " {\"ph\":\"b\",\"cat\":\"serve\",\"name\":\"request\",\"id2\":{\"local\":\"0x2\"},\"pid\":1,\"ts\":3},"
  " {\"ph\":\"e\",\"cat\":\"serve\",\"name\":\"request\",\"id\":1,\"pid\":1,\"ts\":6},"
  " {\"ph\":\"e\",\"cat\":\"serve\",\"id2\":{\"local\":\"0x2\"},\"pid\":1,\"ts\":8},"
  " {\"ph\":\"e\",\"cat\":\"serve\",\"name\":\"request\",\"id\":9,\"pid\":1,\"ts\":8},"
  " {\"ph\":\"S\",\"cat\":\"old\",\"name\":\"legacy\",\"id\":\"0x4\",\"pid\":1,\"ts\":10},"
  " {\"ph\":\"F\",\"cat\":\"old\",\"name\":\"legacy\",\"id\":\"0x4\",\"pid\":1,\"ts\":12},"
  " {\"ph\":\"b\",\"cat\":\"serve\",\"name\":\"open\",\"id\":3,\"pid\":2,\"ts\":9}]";

static void
test_async (void)
{
  /* Nestable async slices pair by category, process and id; an end without a name closes the
   * innermost open slice of its id; overlapping ids take separate rows of one track. */
  g_autoptr(SuanliTestImport) imported = suanli_test_import_text (async_trace);
  SuanliTrack *requests = find_async_track (imported->trace, 1, "request");
  SuanliTrack *legacy = find_async_track (imported->trace, 1, "legacy");
  SuanliTrack *open = find_async_track (imported->trace, 2, "open");
  gint64 tokens = 0;

  g_assert_true (imported->ok);
  g_assert_nonnull (requests);
  g_assert_nonnull (legacy);
  g_assert_nonnull (open);
  g_assert_cmpuint (requests->slices->len, ==, 3);
  g_assert_cmpstr (suanli_test_slice_name (imported->trace, requests, 0), ==, "request");
  g_assert_cmpint (suanli_test_slice_at (requests, 0)->start, ==, 1000);
  g_assert_cmpint (suanli_test_slice_at (requests, 0)->duration, ==, 5000);
  g_assert_cmpuint (suanli_test_slice_at (requests, 0)->depth, ==, 0);
  g_assert_true (suanli_trace_find_arg_int (imported->trace, suanli_test_slice_at (requests, 0), "tokens", &tokens));
  g_assert_cmpint (tokens, ==, 7);
  g_assert_cmpstr (suanli_test_slice_name (imported->trace, requests, 1), ==, "decode");
  g_assert_cmpint (suanli_test_slice_at (requests, 1)->duration, ==, 2000);
  g_assert_cmpuint (suanli_test_slice_at (requests, 1)->depth, ==, 1);
  g_assert_cmpint (suanli_test_slice_at (requests, 2)->start, ==, 3000);
  g_assert_cmpint (suanli_test_slice_at (requests, 2)->duration, ==, 5000);
  g_assert_cmpuint (suanli_test_slice_at (requests, 2)->depth, ==, 2);
  g_assert_cmpuint (requests->max_depth, ==, 2);
  g_assert_cmpuint (requests->instants->len, ==, 1);
  g_assert_cmpint (suanli_test_slice_at (legacy, 0)->duration, ==, 2000);
  g_assert_true (suanli_test_slice_at (open, 0)->flags & SUANLI_SLICE_UNFINISHED);
  g_assert_true (suanli_test_has_warning (imported->trace, "1 async end had no begin"));
  g_assert_true (suanli_test_has_warning (imported->trace, "1 slice began and never ended"));
  g_assert_cmpuint (GPOINTER_TO_SIZE (g_hash_table_lookup (imported->stats.by_category, "serve")), ==, 4);

  /* Written back as async pairs, they come back as async slices. */
  {
    g_autoptr(GOutputStream) output = g_memory_output_stream_new_resizable ();
    g_autoptr(GError) error = NULL;
    g_autoptr(SuanliTestImport) again = NULL;

    g_assert_true (suanli_export_chrome (imported->trace, output, NULL, &error));
    g_assert_true (g_output_stream_close (output, NULL, &error));
    again = suanli_test_import_bytes (g_memory_output_stream_get_data (G_MEMORY_OUTPUT_STREAM (output)),
                          g_memory_output_stream_get_data_size (G_MEMORY_OUTPUT_STREAM (output)));
    g_assert_no_error (again->error);
    g_assert_cmpuint (suanli_trace_get_n_slices (again->trace), ==, 5);
    g_assert_nonnull (find_async_track (again->trace, 1, "legacy"));
    g_assert_cmpuint (find_async_track (again->trace, 1, "token")->instants->len, ==, 1);
  }
}

static void
test_instants_counters_metadata (void)
{
  g_autoptr(SuanliTestImport) imported = suanli_test_import_text (
    "[{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":3,\"args\":{\"name\":\"python\"}},"
    " {\"ph\":\"M\",\"name\":\"process_sort_index\",\"pid\":3,\"args\":{\"sort_index\":5}},"
    " {\"ph\":\"M\",\"name\":\"thread_name\",\"pid\":3,\"tid\":9,\"args\":{\"name\":\"worker\"}},"
    " {\"ph\":\"i\",\"name\":\"step\",\"pid\":3,\"tid\":9,\"ts\":4,\"s\":\"t\"},"
    " {\"ph\":\"C\",\"name\":\"memory\",\"pid\":3,\"ts\":5,\"args\":{\"allocated\":10,\"reserved\":\"20.5\"}},"
    " {\"ph\":\"C\",\"name\":\"memory\",\"pid\":3,\"ts\":6,\"args\":{\"allocated\":12}}]");
  SuanliTrack *thread = suanli_test_find_track (imported->trace, SUANLI_TRACK_THREAD, 3, 9);
  guint counters = 0;

  g_assert_true (imported->ok);
  g_assert_cmpuint (imported->stats.events, ==, 6);
  g_assert_cmpstr (suanli_trace_get_string (imported->trace, thread->name), ==, "worker");
  g_assert_cmpuint (thread->instants->len, ==, 1);
  g_assert_cmpint (g_array_index (thread->instants, SuanliInstant, 0).time, ==, 4000);
  for (guint i = 0; i < suanli_trace_get_n_processes (imported->trace); i++)
    {
      SuanliProcess *process = suanli_trace_get_process (imported->trace, i);
      if (process->pid == 3)
        {
          g_assert_cmpstr (suanli_trace_get_string (imported->trace, process->name), ==, "python");
          g_assert_cmpint (process->sort_index, ==, 5);
        }
    }
  /* Each argument of a counter is its own series. */
  for (guint i = 0; i < suanli_trace_get_n_tracks (imported->trace); i++)
    {
      SuanliTrack *track = suanli_trace_get_track (imported->trace, i);
      const char *name = suanli_trace_get_string (imported->trace, track->name);

      if (track->kind != SUANLI_TRACK_COUNTER)
        continue;
      counters++;
      if (g_str_equal (name, "memory allocated"))
        {
          g_assert_cmpuint (track->samples->len, ==, 2);
          g_assert_cmpfloat (g_array_index (track->samples, SuanliSample, 1).value, ==, 12);
        }
      else
        {
          g_assert_cmpstr (name, ==, "memory reserved");
          g_assert_cmpfloat (g_array_index (track->samples, SuanliSample, 0).value, ==, 20.5);
        }
    }
  g_assert_cmpuint (counters, ==, 2);
}

static void
test_gpu_time (void)
{
  g_autoptr(SuanliTestImport) imported = suanli_test_import_text (suanli_test_kineto_trace);
  g_autoptr(GArray) gpus = NULL;
  g_autoptr(GArray) kernels = NULL;
  SuanliGpuTime *gpu;

  g_assert_true (imported->ok);
  gpus = suanli_analysis_gpu_time (imported->trace);
  g_assert_cmpuint (gpus->len, ==, 1);
  gpu = &g_array_index (gpus, SuanliGpuTime, 0);
  g_assert_cmpint (gpu->device, ==, 0);
  g_assert_cmpint (gpu->rank, ==, 3);
  /* Kernels 10–40 and 25–55 overlap: their union is 45 µs, not 60. */
  g_assert_cmpint (gpu->kernel_ns, ==, 45000);
  g_assert_cmpint (gpu->comm_ns, ==, 30000);
  g_assert_cmpint (gpu->memcpy_ns, ==, 10000);
  g_assert_cmpint (gpu->memset_ns, ==, 2000);
  g_assert_cmpint (gpu->busy_ns, ==, 57000);
  g_assert_cmpint (gpu->span_ns, ==, 92000);
  g_assert_cmpint (gpu->idle_ns, ==, 35000);

  kernels = suanli_analysis_top_kernels (imported->trace);
  g_assert_cmpuint (kernels->len, ==, 2);
  g_assert_cmpint (g_array_index (kernels, SuanliKernelStats, 0).total_ns, ==, 30000);

  /* Both launches reach their kernels: one by the flow event, one by its correlation id. */
  g_assert_cmpuint (suanli_trace_get_flows (imported->trace)->len, ==, 2);
  for (guint i = 0; i < 2; i++)
    {
      SuanliFlow *flow = &g_array_index (suanli_trace_get_flows (imported->trace), SuanliFlow, i);
      SuanliTrack *from = suanli_trace_get_track (imported->trace, flow->from_track);
      SuanliTrack *to = suanli_trace_get_track (imported->trace, flow->to_track);

      g_assert_cmpstr (suanli_test_slice_name (imported->trace, from, flow->from_slice), ==, "cudaLaunchKernel");
      g_assert_cmpint (to->kind, ==, SUANLI_TRACK_GPU_STREAM);
    }
}

/* The launch that reaches the kernel named @kernel by its correlation id, or NULL. */
static const char *
launch_of (SuanliTrace *trace,
           const char  *kernel)
{
  GArray *flows = suanli_trace_get_flows (trace);

  for (guint i = 0; i < flows->len; i++)
    {
      SuanliFlow *flow = &g_array_index (flows, SuanliFlow, i);

      if (g_str_equal (suanli_test_slice_name (trace, suanli_trace_get_track (trace, flow->to_track), flow->to_slice),
                       kernel))
        return suanli_test_slice_name (trace, suanli_trace_get_track (trace, flow->from_track), flow->from_slice);
    }
  return NULL;
}

/* Launches join kernels by correlation id, whether the ids are counted up from a start (the most
 * common: a table by id) or spread over 64 bits (a hashed table); a later launch of an id takes
 * an earlier one's place; an id no launch gave links nothing. */
static void
test_correlation_ids (void)
{
  static const char *const ids[][5] = {
    { "5", "6", "7", "6", "8" },
    { "1", "1000000000000000", "-3", "4611686018427387904", "-9223372036854775808" },
  };

  for (guint form = 0; form < G_N_ELEMENTS (ids); form++)
    {
      GString *text = g_string_new ("{\"traceEvents\":[\n");
      g_autoptr(SuanliTestImport) imported = NULL;

      /* Launches A to D give ids 0 to 3 (D the same as B's in the first form); kernels a to d
       * carry ids 0 to 2 and 4, which no launch gave. */
      for (guint i = 0; i < 4; i++)
        g_string_append_printf (text,
                                "{\"ph\":\"X\",\"cat\":\"cuda_runtime\",\"name\":\"launch %c\",\"pid\":1,"
                                "\"tid\":1,\"ts\":%u,\"dur\":1,\"args\":{\"correlation\":%s}},\n",
                                'A' + i, 10 * i, ids[form][i]);
      for (guint i = 0; i < 4; i++)
        g_string_append_printf (text,
                                "{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"kernel %c\",\"pid\":0,\"tid\":7,"
                                "\"ts\":%u,\"dur\":1,\"args\":{\"correlation\":%s}}%s\n",
                                'a' + i, 100 + 10 * i, ids[form][i < 3 ? i : 4], i < 3 ? "," : "");
      g_string_append (text, "]}\n");
      imported = suanli_test_import_text (text->str);
      g_string_free (text, TRUE);
      g_assert_true (imported->ok);
      g_assert_cmpstr (launch_of (imported->trace, "kernel a"), ==, "launch A");
      g_assert_cmpstr (launch_of (imported->trace, "kernel b"), ==, form == 0 ? "launch D" : "launch B");
      g_assert_cmpstr (launch_of (imported->trace, "kernel c"), ==, "launch C");
      g_assert_null (launch_of (imported->trace, "kernel d"));
    }
}

/* PyTorch's profiler with profile_memory=True and with_flops=True writes "[memory]" instants with
 * the allocator's totals, and a "flops" argument on matrix products (the form of its Kineto output). */
static const char memory_trace[] =
  "{\"traceEvents\":[\n"
  "{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"aten::linear\",\"pid\":100,\"tid\":100,\"ts\":0,\"dur\":100},\n"
  "{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"aten::addmm\",\"pid\":100,\"tid\":100,\"ts\":10,\"dur\":80,"
  "\"args\":{\"External id\":3,\"flops\":2000000}},\n"
  "{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"aten::mm\",\"pid\":100,\"tid\":100,\"ts\":20,\"dur\":10,"
  "\"args\":{\"flops\":999}},\n"
  "{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"aten::mm\",\"pid\":100,\"tid\":100,\"ts\":200,\"dur\":100,"
  "\"args\":{\"flops\":1000000.0}},\n"
  "{\"ph\":\"i\",\"cat\":\"cpu_instant_event\",\"s\":\"t\",\"name\":\"[memory]\",\"pid\":100,\"tid\":100,"
  "\"ts\":15,\"args\":{\"Device Type\":1,\"Device Id\":0,\"Addr\":1,\"Bytes\":1048576,"
  "\"Total Allocated\":3145728,\"Total Reserved\":20971520}},\n"
  "{\"ph\":\"i\",\"cat\":\"cpu_instant_event\",\"s\":\"t\",\"name\":\"[memory]\",\"pid\":100,\"tid\":100,"
  "\"ts\":25,\"args\":{\"Device Type\":1,\"Device Id\":0,\"Addr\":2,\"Bytes\":4194304,"
  "\"Total Allocated\":7340032,\"Total Reserved\":20971520}},\n"
  "{\"ph\":\"i\",\"cat\":\"cpu_instant_event\",\"s\":\"t\",\"name\":\"[memory]\",\"pid\":100,\"tid\":100,"
  "\"ts\":95,\"args\":{\"Device Type\":1,\"Device Id\":0,\"Addr\":2,\"Bytes\":-4194304,"
  "\"Total Allocated\":3145728,\"Total Reserved\":41943040}},\n"
  "{\"ph\":\"i\",\"cat\":\"cpu_instant_event\",\"s\":\"t\",\"name\":\"[memory]\",\"pid\":100,\"tid\":100,"
  "\"ts\":96,\"args\":{\"Device Type\":0,\"Device Id\":-1,\"Addr\":3,\"Bytes\":64,"
  "\"Total Allocated\":64,\"Total Reserved\":0}},\n"
  "{\"ph\":\"i\",\"cat\":\"cpu_instant_event\",\"s\":\"t\",\"name\":\"[memory]\",\"pid\":100,\"tid\":100,\"ts\":97}\n"
  "]}\n";

static void
test_memory_and_flops (void)
{
  g_autoptr(SuanliTestImport) imported = suanli_test_import_text (memory_trace);
  g_autoptr(GArray) peaks = NULL;
  SuanliFlopCount flops;
  SuanliMemoryPeak *gpu = NULL, *cpu = NULL;
  guint counters = 0, instants = 0;

  g_assert_true (imported->ok);
  /* The totals became counters, two per device; the event without args stays an instant. */
  for (guint t = 0; t < suanli_trace_get_n_tracks (imported->trace); t++)
    {
      SuanliTrack *track = suanli_trace_get_track (imported->trace, t);

      counters += track->kind == SUANLI_TRACK_COUNTER;
      instants += track->instants->len;
    }
  g_assert_cmpuint (counters, ==, 4);
  g_assert_cmpuint (instants, ==, 1);

  peaks = suanli_analysis_memory_peaks (imported->trace);
  g_assert_cmpuint (peaks->len, ==, 2);
  for (guint i = 0; i < peaks->len; i++)
    {
      SuanliMemoryPeak *peak = &g_array_index (peaks, SuanliMemoryPeak, i);

      if (peak->device_type == 1)
        gpu = peak;
      else
        cpu = peak;
    }
  g_assert_nonnull (gpu);
  g_assert_nonnull (cpu);
  g_assert_cmpint (gpu->device, ==, 0);
  g_assert_cmpint (gpu->pid, ==, 100);
  g_assert_cmpfloat (gpu->peak_allocated, ==, 7340032);
  g_assert_cmpint (gpu->peak_time, ==, 25000);
  g_assert_cmpfloat (gpu->peak_reserved, ==, 41943040);
  g_assert_cmpint (cpu->device, ==, -1);
  g_assert_cmpfloat (cpu->peak_allocated, ==, 64);

  /* The mm inside the addmm is not counted again; the later one, a double, is. */
  suanli_analysis_flops (imported->trace, &flops);
  g_assert_cmpuint (flops.operators, ==, 2);
  g_assert_cmpfloat (flops.flops, ==, 3000000);
  g_assert_cmpint (flops.first_ns, ==, 10000);
  g_assert_cmpint (flops.last_ns, ==, 300000);

  /* A trace without either says nothing, rather than zeros. */
  {
    g_autoptr(SuanliTestImport) plain = suanli_test_import_text (suanli_test_kineto_trace);
    g_autoptr(GArray) none = suanli_analysis_memory_peaks (plain->trace);

    g_assert_cmpuint (none->len, ==, 0);
    suanli_analysis_flops (plain->trace, &flops);
    g_assert_cmpuint (flops.operators, ==, 0);
  }
}

/* Two ranks into one trace: each keeps its own GPU, and correlation ids (which every rank numbers
 * alike) link launches to kernels within their own file only. */
/* A step of a Kineto-form trace built for the analyses; the figures below are worked out by hand
 * in the comments. Times in µs. */
static const char analysis_trace[] =
  "{\"distributedInfo\":{\"rank\":0,\"world_size\":8},\"traceEvents\":[\n"
  "{\"ph\":\"X\",\"cat\":\"user_annotation\",\"name\":\"ProfilerStep#5\",\"pid\":100,\"tid\":1,\"ts\":0,\"dur\":100},\n"
  "{\"ph\":\"X\",\"cat\":\"user_annotation\",\"name\":\"ProfilerStep#6\",\"pid\":100,\"tid\":1,\"ts\":100,\"dur\":50},\n"
  "{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"aten::linear\",\"pid\":100,\"tid\":1,\"ts\":1,\"dur\":40},\n"
  "{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"aten::addmm\",\"pid\":100,\"tid\":1,\"ts\":2,\"dur\":30},\n"
  "{\"ph\":\"X\",\"cat\":\"cuda_runtime\",\"name\":\"cudaLaunchKernel\",\"pid\":100,\"tid\":1,\"ts\":3,\"dur\":5,"
  "\"args\":{\"correlation\":1}},\n"
  "{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"aten::add\",\"pid\":100,\"tid\":1,\"ts\":50,\"dur\":10},\n"
  "{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"aten::add\",\"pid\":100,\"tid\":1,\"ts\":51,\"dur\":4},\n"
  "{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"record_param_comms\",\"pid\":100,\"tid\":1,\"ts\":60,\"dur\":20,"
  "\"args\":{\"Collective name\":\"allreduce\",\"In msg nelems\":1048576,\"Out msg nelems\":1048576,"
  "\"dtype\":\"Float\",\"Group size\":4}},\n"
  "{\"ph\":\"X\",\"cat\":\"cuda_runtime\",\"name\":\"cudaLaunchKernel\",\"pid\":100,\"tid\":1,\"ts\":61,\"dur\":3,"
  "\"args\":{\"correlation\":2}},\n"
  "{\"ph\":\"X\",\"cat\":\"cuda_runtime\",\"name\":\"cudaLaunchKernel\",\"pid\":100,\"tid\":1,\"ts\":85,\"dur\":0.5,"
  "\"args\":{\"correlation\":3}},\n"
  "{\"ph\":\"X\",\"cat\":\"cuda_runtime\",\"name\":\"cudaLaunchKernel\",\"pid\":100,\"tid\":1,\"ts\":86,\"dur\":1,"
  "\"args\":{\"correlation\":4}},\n"
  "{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"gemm\",\"pid\":0,\"tid\":7,\"ts\":10,\"dur\":20,\"args\":{\"correlation\":1}},\n"
  "{\"ph\":\"X\",\"cat\":\"gpu_memcpy\",\"name\":\"Memcpy HtoD (Pinned -> Device)\",\"pid\":0,\"tid\":7,\"ts\":31,"
  "\"dur\":4,\"args\":{\"bytes\":400000}},\n"
  "{\"ph\":\"X\",\"cat\":\"gpu_memcpy\",\"name\":\"Memcpy DtoH (Device -> Pageable)\",\"pid\":0,\"tid\":7,\"ts\":35,"
  "\"dur\":1,\"args\":{\"bytes\":1000}},\n"
  "{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"ncclDevKernel_AllReduce_Sum_f32_RING_LL(ncclDevComm*)\",\"pid\":0,"
  "\"tid\":9,\"ts\":64,\"dur\":10,\"args\":{\"correlation\":2}},\n"
  "{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"relu\",\"pid\":0,\"tid\":7,\"ts\":90,\"dur\":5,\"args\":{\"correlation\":3}},\n"
  "{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"tiny\",\"pid\":0,\"tid\":7,\"ts\":95.02,\"dur\":0.01,"
  "\"args\":{\"correlation\":4}},\n"
  "{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"ncclKernel_SendRecv_RING_SIMPLE_Sum_int8_t(ncclDevComm*)\",\"pid\":0,"
  "\"tid\":9,\"ts\":140,\"dur\":5}\n"
  "]}\n";

static const SuanliOperatorStats *
find_operator (SuanliTrace *trace,
               GArray      *operators,
               const char  *name)
{
  for (guint i = 0; i < operators->len; i++)
    if (g_str_equal (suanli_trace_get_string (trace, g_array_index (operators, SuanliOperatorStats, i).name), name))
      return &g_array_index (operators, SuanliOperatorStats, i);
  g_assert_not_reached ();
}

static void
test_analysis (void)
{
  g_autoptr(SuanliTestImport) imported = suanli_test_import_text (analysis_trace);
  g_autoptr(GArray) gpus = suanli_analysis_gpu_time (imported->trace);
  g_autoptr(GArray) operators = suanli_analysis_cpu_operators (imported->trace);
  g_autoptr(GArray) delays = suanli_analysis_launch_delays (imported->trace);
  g_autoptr(GArray) steps = suanli_analysis_steps (imported->trace);
  g_autoptr(GArray) collectives = suanli_analysis_collectives (imported->trace);
  SuanliGpuTime *gpu = &g_array_index (gpus, SuanliGpuTime, 0);
  SuanliLaunchDelays *delay = &g_array_index (delays, SuanliLaunchDelays, 0);
  SuanliStepStats *step;
  SuanliCollectiveStats *collective;

  g_assert_true (imported->ok);
  g_assert_cmpuint (gpus->len, ==, 1);
  /* Work: [10,30] [31,36] (two copies) [64,74] [90,95] [95.02,95.03] [140,145]. */
  g_assert_cmpint (gpu->span_ns, ==, 135000);
  g_assert_cmpint (gpu->busy_ns, ==, 45010);
  g_assert_cmpint (gpu->kernel_ns, ==, 40010);
  g_assert_cmpint (gpu->comm_ns, ==, 15000);
  g_assert_cmpint (gpu->compute_ns, ==, 25010);
  g_assert_cmpint (gpu->memcpy_ns, ==, 5000);
  /* Gaps: 30→31 before a copy nobody launched (short: under 30 µs); 36→64 and 74→90 before
   * kernels launched at 61 and 85, after the gaps began (host wait); 95→95.02 before a kernel
   * launched at 86 (short); 95.03→140 before a kernel with no launch (other: 45 µs). */
  g_assert_cmpint (gpu->idle_ns, ==, 89990);
  g_assert_cmpint (gpu->host_wait_ns, ==, 44000);
  g_assert_cmpint (gpu->short_gap_ns, ==, 1020);
  g_assert_cmpint (gpu->other_idle_ns, ==, 44970);
  g_assert_cmpuint (gpu->memcpy[SUANLI_MEMCPY_HTOD].count, ==, 1);
  g_assert_cmpuint (gpu->memcpy[SUANLI_MEMCPY_HTOD].bytes, ==, 400000);
  g_assert_cmpint (gpu->memcpy[SUANLI_MEMCPY_HTOD].total_ns, ==, 4000);
  g_assert_cmpuint (gpu->memcpy[SUANLI_MEMCPY_DTOH].bytes, ==, 1000);
  g_assert_cmpuint (gpu->memcpy[SUANLI_MEMCPY_DTOD].count, ==, 0);

  /* Self time less the slices directly under; a recursive call counts once in the total. */
  g_assert_cmpint (find_operator (imported->trace, operators, "aten::linear")->total_ns, ==, 40000);
  g_assert_cmpint (find_operator (imported->trace, operators, "aten::linear")->self_ns, ==, 10000);
  g_assert_cmpint (find_operator (imported->trace, operators, "aten::addmm")->self_ns, ==, 25000);
  g_assert_cmpuint (find_operator (imported->trace, operators, "aten::add")->count, ==, 2);
  g_assert_cmpint (find_operator (imported->trace, operators, "aten::add")->total_ns, ==, 10000);
  g_assert_cmpint (find_operator (imported->trace, operators, "aten::add")->self_ns, ==, 10000);
  g_assert_cmpint (find_operator (imported->trace, operators, "record_param_comms")->self_ns, ==, 17000);
  g_assert_cmpstr (suanli_trace_get_string (imported->trace, g_array_index (operators, SuanliOperatorStats, 0).name), ==,
                   "aten::addmm");

  /* Launch to start: 7, 3, 5 and 9.02 µs. */
  g_assert_cmpuint (delays->len, ==, 1);
  g_assert_cmpuint (delay->count, ==, 4);
  g_assert_cmpint (delay->min_ns, ==, 3000);
  g_assert_cmpint (delay->median_ns, ==, 7000);
  g_assert_cmpint (delay->p95_ns, ==, 9020);
  g_assert_cmpint (delay->max_ns, ==, 9020);
  g_assert_cmpfloat_with_epsilon (delay->mean_ns, 6005, 1e-9);

  g_assert_cmpuint (steps->len, ==, 2);
  step = &g_array_index (steps, SuanliStepStats, 0);
  g_assert_cmpint (step->step, ==, 5);
  g_assert_cmpint (step->rank, ==, 0);
  g_assert_cmpint (step->duration_ns, ==, 100000);
  g_assert_cmpint (step->kernel_ns, ==, 35010);
  g_assert_cmpint (step->busy_ns, ==, 40010);
  g_assert_cmpint (step->comm_ns, ==, 10000);
  g_assert_cmpuint (step->kernels, ==, 4);
  step = &g_array_index (steps, SuanliStepStats, 1);
  g_assert_cmpint (step->step, ==, 6);
  g_assert_cmpint (step->kernel_ns, ==, 5000);
  g_assert_cmpuint (step->kernels, ==, 1);

  /* 4 MiB all-reduced over 4 ranks in 10 µs: 419.4304 GB/s, and 1.5 times that on the bus. The
   * send/receive has no message size, and its group size is the file's world size. */
  g_assert_cmpuint (collectives->len, ==, 2);
  collective = &g_array_index (collectives, SuanliCollectiveStats, 0);
  g_assert_cmpstr (collective->collective, ==, "AllReduce");
  g_assert_cmpuint (collective->count, ==, 1);
  g_assert_cmpuint (collective->bytes, ==, 4194304);
  g_assert_cmpint (collective->group_size, ==, 4);
  g_assert_cmpfloat_with_epsilon (collective->algbw_gbps, 419.4304, 1e-9);
  g_assert_cmpfloat_with_epsilon (collective->busbw_gbps, 629.1456, 1e-9);
  collective = &g_array_index (collectives, SuanliCollectiveStats, 1);
  g_assert_cmpstr (collective->collective, ==, "SendRecv");
  g_assert_cmpuint (collective->sized, ==, 0);
  g_assert_cmpint (collective->group_size, ==, 8);
  g_assert_cmpfloat (collective->busbw_gbps, ==, 0);

  /* Within 20–60 µs: operators and kernels count for the part inside, and what lies wholly
   * outside (the launch at 3–8 µs, record_param_comms from 60 µs) not at all. */
  {
    g_autoptr(GArray) in_range = suanli_analysis_cpu_operators_in (imported->trace, 20000, 60000);
    g_autoptr(GArray) kernels_in = suanli_analysis_top_kernels_in (imported->trace, 10000, 30000);

    g_assert_cmpuint (in_range->len, ==, 3);
    g_assert_cmpint (find_operator (imported->trace, in_range, "aten::linear")->total_ns, ==, 21000);
    g_assert_cmpint (find_operator (imported->trace, in_range, "aten::linear")->self_ns, ==, 9000);
    g_assert_cmpint (find_operator (imported->trace, in_range, "aten::addmm")->self_ns, ==, 12000);
    g_assert_cmpint (find_operator (imported->trace, in_range, "aten::add")->total_ns, ==, 10000);
    g_assert_cmpuint (find_operator (imported->trace, in_range, "aten::add")->count, ==, 2);
    g_assert_cmpuint (kernels_in->len, ==, 1);
    g_assert_cmpint (g_array_index (kernels_in, SuanliKernelStats, 0).total_ns, ==, 20000);
  }

  g_assert_cmpfloat_with_epsilon (suanli_analysis_bus_factor ("all_gather", 8), 7.0 / 8, 1e-12);
  g_assert_cmpfloat_with_epsilon (suanli_analysis_bus_factor ("ReduceScatter", 2), 0.5, 1e-12);
  g_assert_cmpfloat (suanli_analysis_bus_factor ("AllReduce", 0), ==, 0);
  g_assert_cmpfloat (suanli_analysis_bus_factor ("Broadcast", 0), ==, 1);
}

static void
test_merged_ranks (void)
{
  g_autoptr(SuanliTrace) trace = suanli_trace_new ();
  g_autoptr(GArray) gpus = NULL;
  SuanliImportStats stats = { 0 };
  GArray *flows;

  for (guint rank = 0; rank < 2; rank++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(GString) text = g_string_new (suanli_test_kineto_trace);
      g_autofree char *name = g_strdup_printf ("rank%u.json", rank);
      g_autoptr(GInputStream) stream = NULL;

      g_string_replace (text, "\"rank\":3", rank == 0 ? "\"rank\":0" : "\"rank\":1", 1);
      stream = g_memory_input_stream_new_from_data (text->str, (gssize) text->len, NULL);
      g_assert_true (suanli_import_chrome (trace, stream, name, &stats, NULL, &error));
      g_assert_no_error (error);
    }
  g_assert_cmpuint (suanli_trace_get_n_groups (trace), ==, 2);
  g_assert_cmpuint (stats.events, ==, 18);
  gpus = suanli_analysis_gpu_time (trace);
  g_assert_cmpuint (gpus->len, ==, 2);
  for (guint i = 0; i < 2; i++)
    {
      SuanliGpuTime *gpu = &g_array_index (gpus, SuanliGpuTime, i);

      g_assert_cmpint (gpu->device, ==, 0);
      g_assert_cmpint (gpu->rank, ==, (int) i);
      g_assert_cmpint (gpu->kernel_ns, ==, 45000);
      g_assert_cmpint (gpu->busy_ns, ==, 57000);
    }
  flows = suanli_trace_get_flows (trace);
  g_assert_cmpuint (flows->len, ==, 4);
  for (guint i = 0; i < flows->len; i++)
    {
      SuanliFlow *flow = &g_array_index (flows, SuanliFlow, i);

      g_assert_cmpuint (suanli_trace_get_track (trace, flow->from_track)->group, ==,
                        suanli_trace_get_track (trace, flow->to_track)->group);
    }

  /* The same thread (pid 100, tid 100) in both ranks: a rank node each in the flames, not one. */
  {
    g_autoptr(SuanliFlame) cpu = suanli_flame_new (trace, SUANLI_FLAME_CPU, G_MININT64, G_MAXINT64);
    g_autoptr(SuanliFlame) gpu = suanli_flame_new (trace, SUANLI_FLAME_GPU, G_MININT64, G_MAXINT64);

    for (guint rank = 0; rank < 2; rank++)
      {
        g_autofree char *label = g_strdup_printf ("rank %u", rank);
        guint cpu_rank = suanli_test_flame_child (cpu, 0, label);
        guint gpu_rank = suanli_test_flame_child (gpu, 0, label);

        g_assert_cmpuint (cpu_rank, !=, 0);
        g_assert_cmpint (suanli_flame_get_node (cpu, cpu_rank)->total, ==, 50000);
        g_assert_cmpint (suanli_flame_get_node (cpu, suanli_test_flame_child (cpu, cpu_rank, "thread 100"))->total, ==, 50000);
        /* GPU: 30 µs of gemm launched by aten::mm; the rest was launched by nothing recorded. */
        g_assert_cmpint (suanli_flame_get_node (gpu, gpu_rank)->total, ==, 72000);
        g_assert_cmpuint (suanli_test_flame_child (gpu, gpu_rank, "(launch not recorded)"), !=, 0);
      }
    g_assert_cmpint (suanli_flame_get_node (cpu, 0)->total, ==, 100000);
  }
  suanli_import_stats_clear (&stats);
}

/* A flow event pair alone (no correlation ids) joins a launch to its kernel on the GPU stream of
 * the same pid and tid, although the flow events themselves carry no GPU category. */
static void
test_flow_events_reach_streams (void)
{
  g_autoptr(GString) text = g_string_new (suanli_test_kineto_trace);
  g_autoptr(SuanliTestImport) imported = NULL;
  SuanliFlow *flow;

  g_assert_cmpuint (g_string_replace (text, "\"correlation\":", "\"corr\":", 0), ==, 4);
  imported = suanli_test_import_bytes (text->str, text->len);
  g_assert_true (imported->ok);
  g_assert_cmpuint (suanli_trace_get_flows (imported->trace)->len, ==, 1);
  flow = &g_array_index (suanli_trace_get_flows (imported->trace), SuanliFlow, 0);
  g_assert_cmpint (suanli_trace_get_track (imported->trace, flow->to_track)->kind, ==, SUANLI_TRACK_GPU_STREAM);
  g_assert_cmpstr (suanli_test_slice_name (imported->trace, suanli_trace_get_track (imported->trace, flow->to_track), flow->to_slice),
                   ==, "gemm");
  g_assert_cmpstr (suanli_test_slice_name (imported->trace, suanli_trace_get_track (imported->trace, flow->from_track),
                               flow->from_slice), ==, "cudaLaunchKernel");
}

/* Written back as Chrome JSON and read again: the same slices, flows and GPU time. */
static void
test_export_round_trip (void)
{
  g_autoptr(SuanliTestImport) imported = suanli_test_import_text (suanli_test_kineto_trace);
  g_autoptr(GOutputStream) output = g_memory_output_stream_new_resizable ();
  g_autoptr(GError) error = NULL;
  g_autoptr(SuanliTestImport) again = NULL;
  g_autoptr(GArray) gpus = NULL;
  SuanliGpuTime *gpu;

  g_assert_true (suanli_export_chrome (imported->trace, output, NULL, &error));
  g_assert_true (g_output_stream_close (output, NULL, &error));
  g_assert_no_error (error);
  again = suanli_test_import_bytes (g_memory_output_stream_get_data (G_MEMORY_OUTPUT_STREAM (output)),
                        g_memory_output_stream_get_data_size (G_MEMORY_OUTPUT_STREAM (output)));
  g_assert_no_error (again->error);
  g_assert_cmpuint (suanli_trace_get_n_slices (again->trace), ==, suanli_trace_get_n_slices (imported->trace));
  g_assert_cmpuint (suanli_trace_get_flows (again->trace)->len, ==, 2);
  gpus = suanli_analysis_gpu_time (again->trace);
  gpu = &g_array_index (gpus, SuanliGpuTime, 0);
  g_assert_cmpint (gpu->kernel_ns, ==, 45000);
  g_assert_cmpint (gpu->busy_ns, ==, 57000);
  g_assert_cmpint (gpu->comm_ns, ==, 30000);
  {
    gint64 correlation = 0;
    SuanliTrack *stream = suanli_test_find_track (again->trace, SUANLI_TRACK_GPU_STREAM, 0, 7);

    g_assert_true (suanli_trace_find_arg_int (again->trace, suanli_test_slice_at (stream, 0), "correlation", &correlation));
    g_assert_cmpint (correlation, ==, 11);
  }
}

/* A GPU stream's name, sort order, syncs and flow ends come in events with no GPU category; they
 * all belong to the one row of that pid and tid. B/E pairs match on it too. */
static void
test_stream_rows (void)
{
  g_autoptr(GString) text = g_string_new (suanli_test_kineto_trace);
  g_autoptr(SuanliTestImport) imported = NULL;
  g_autoptr(SuanliTestImport) annotation = suanli_test_import_text (
    "[{\"ph\":\"B\",\"cat\":\"gpu_user_annotation\",\"name\":\"anno\",\"pid\":0,\"tid\":7,\"ts\":10},"
    " {\"ph\":\"E\",\"pid\":0,\"tid\":7,\"ts\":20}]");
  SuanliTrack *stream;

  g_string_replace (text, "\"traceEvents\":[\n",
                    "\"traceEvents\":[\n{\"ph\":\"M\",\"name\":\"thread_name\",\"pid\":0,\"tid\":7,"
                    "\"args\":{\"name\":\"stream 7\"}},\n", 1);
  imported = suanli_test_import_bytes (text->str, text->len);
  g_assert_true (imported->ok);
  /* The CPU thread, two streams and their queue-length counters: the flow events and the name add
   * no rows. */
  g_assert_cmpuint (suanli_trace_get_n_tracks (imported->trace), ==, 5);
  stream = suanli_test_find_track (imported->trace, SUANLI_TRACK_GPU_STREAM, 0, 7);
  g_assert_nonnull (stream);
  g_assert_cmpstr (suanli_trace_get_string (imported->trace, stream->name), ==, "stream 7");

  g_assert_true (annotation->ok);
  g_assert_cmpuint (suanli_trace_get_n_slices (annotation->trace), ==, 1);
  g_assert_cmpuint (suanli_trace_get_warnings (annotation->trace)->len, ==, 0);
}

static void
test_review_rules (void)
{
  /* Names with a NUL inside stay whole and apart, the NUL shown as ␀. */
  {
    g_autoptr(SuanliTestImport) imported = suanli_test_import_text (
      "[{\"ph\":\"X\",\"name\":\"a\\u0000b\",\"pid\":1,\"tid\":1,\"ts\":0,\"dur\":4},"
      " {\"ph\":\"X\",\"name\":\"a\\u0000c\",\"pid\":1,\"tid\":1,\"ts\":5,\"dur\":4}]");
    SuanliTrack *track = suanli_test_find_track (imported->trace, SUANLI_TRACK_THREAD, 1, 1);

    g_assert_cmpstr (suanli_test_slice_name (imported->trace, track, 0), ==, "a\xe2\x90\x80" "b");
    g_assert_cmpstr (suanli_test_slice_name (imported->trace, track, 1), ==, "a\xe2\x90\x80" "c");
  }
  /* After a real partial overlap (C over P's end), later slices nest by time again. */
  {
    g_autoptr(SuanliTestImport) imported = suanli_test_import_text (
      "[{\"ph\":\"X\",\"name\":\"P\",\"pid\":1,\"tid\":1,\"ts\":0,\"dur\":40},"
      " {\"ph\":\"X\",\"name\":\"C\",\"pid\":1,\"tid\":1,\"ts\":30,\"dur\":30},"
      " {\"ph\":\"X\",\"name\":\"Q\",\"pid\":1,\"tid\":1,\"ts\":41,\"dur\":59},"
      " {\"ph\":\"X\",\"name\":\"R\",\"pid\":1,\"tid\":1,\"ts\":70,\"dur\":10}]");
    SuanliTrack *track = suanli_test_find_track (imported->trace, SUANLI_TRACK_THREAD, 1, 1);

    g_assert_cmpstr (suanli_test_slice_name (imported->trace, track, 2), ==, "Q");
    g_assert_cmpuint (suanli_test_slice_at (track, 2)->depth, ==, 0);
    g_assert_cmpuint (suanli_test_slice_at (track, 3)->depth, ==, 1);
    g_assert_true (suanli_test_has_warning (imported->trace, "1 slice overlaps a sibling partly"));
  }
  /* A flow end without "bp":"e" binds to the next slice starting at or after it. */
  {
    g_autoptr(SuanliTestImport) imported = suanli_test_import_text (
      "[{\"ph\":\"X\",\"name\":\"launch\",\"pid\":1,\"tid\":1,\"ts\":5,\"dur\":5},"
      " {\"ph\":\"X\",\"name\":\"outer\",\"pid\":1,\"tid\":2,\"ts\":0,\"dur\":100},"
      " {\"ph\":\"X\",\"name\":\"inner\",\"pid\":1,\"tid\":2,\"ts\":50,\"dur\":10},"
      " {\"ph\":\"s\",\"id\":1,\"name\":\"f\",\"cat\":\"c\",\"pid\":1,\"tid\":1,\"ts\":6},"
      " {\"ph\":\"f\",\"id\":1,\"name\":\"f\",\"cat\":\"c\",\"pid\":1,\"tid\":2,\"ts\":20}]");
    SuanliFlow *flow = &g_array_index (suanli_trace_get_flows (imported->trace), SuanliFlow, 0);

    g_assert_cmpuint (suanli_trace_get_flows (imported->trace)->len, ==, 1);
    g_assert_cmpstr (suanli_test_slice_name (imported->trace, suanli_trace_get_track (imported->trace, flow->to_track), flow->to_slice),
                     ==, "inner");
  }
  /* A global instant names no process or thread, and a base time that is not an integer is ignored. */
  {
    g_autoptr(SuanliTestImport) imported = suanli_test_import_text (
      "{\"traceEvents\":[{\"ph\":\"X\",\"name\":\"k\",\"cat\":\"kernel\",\"pid\":0,\"tid\":7,\"ts\":1,\"dur\":1},"
      " {\"ph\":\"i\",\"s\":\"g\",\"name\":\"step\",\"pid\":\"CPU functions\",\"tid\":\"stream 7\",\"ts\":1}],"
      " \"baseTimeNanoseconds\":1e3}");
    SuanliTrack *stream = suanli_test_find_track (imported->trace, SUANLI_TRACK_GPU_STREAM, 0, 7);

    g_assert_nonnull (stream);
    g_assert_cmpuint (stream->name, ==, 0);
    g_assert_cmpint (suanli_test_slice_at (stream, 0)->start, ==, 1000);
    for (guint i = 0; i < suanli_trace_get_n_processes (imported->trace); i++)
      g_assert_cmpuint (suanli_trace_get_process (imported->trace, i)->name, ==, 0);
  }
  /* Folded frames may start with a bracket; a differential file's columns stay apart in its flame. */
  {
    g_autoptr(SuanliTestImport) imported = suanli_test_import_folded ("[unknown];foo 5\n{anon};bar 2\n", 28);
    g_autoptr(SuanliTestImport) differential = suanli_test_import_folded ("main;a 5 1\nmain;b 0 7\n", 23);
    g_autoptr(SuanliFlame) flame = NULL;
    guint before, after;

    g_assert_no_error (imported->error);
    g_assert_cmpuint (suanli_trace_get_n_slices (imported->trace), ==, 4);
    flame = suanli_flame_new (differential->trace, SUANLI_FLAME_CPU, G_MININT64, G_MAXINT64);
    before = suanli_test_flame_child (flame, 0, "test.folded (before)");
    after = suanli_test_flame_child (flame, 0, "test.folded (after)");
    g_assert_cmpint (suanli_flame_get_node (flame, suanli_test_flame_child (flame, suanli_test_flame_child (flame, before, "main"), "a"))->total,
                     ==, 5);
    g_assert_cmpint (suanli_flame_get_node (flame, suanli_test_flame_child (flame, suanli_test_flame_child (flame, after, "main"), "b"))->total,
                     ==, 7);
  }
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/trace/times", test_times);
  g_test_add_func ("/trace/argument-values", test_argument_values);
  g_test_add_func ("/trace/containers", test_containers);
  g_test_add_func ("/trace/accelerator", test_accelerator);
  g_test_add_func ("/trace/base-time", test_base_time);
  g_test_add_func ("/trace/extreme-times", test_extreme_times);
  g_test_add_func ("/trace/timestamp-digits", test_timestamp_digits);
  g_test_add_func ("/trace/pids-and-tids", test_pids_and_tids);
  g_test_add_func ("/trace/pids-and-tids-repeated", test_pids_and_tids_repeated);
  g_test_add_func ("/trace/complete-nesting", test_complete_nesting);
  g_test_add_func ("/trace/begin-end", test_begin_end);
  g_test_add_func ("/trace/async", test_async);
  g_test_add_func ("/trace/instants-counters-metadata", test_instants_counters_metadata);
  g_test_add_func ("/trace/gpu-time", test_gpu_time);
  g_test_add_func ("/trace/correlation-ids", test_correlation_ids);
  g_test_add_func ("/trace/analysis", test_analysis);
  g_test_add_func ("/trace/memory-and-flops", test_memory_and_flops);
  g_test_add_func ("/trace/merged-ranks", test_merged_ranks);
  g_test_add_func ("/trace/flow-events-reach-streams", test_flow_events_reach_streams);
  g_test_add_func ("/trace/export-round-trip", test_export_round_trip);
  g_test_add_func ("/trace/stream-rows", test_stream_rows);
  g_test_add_func ("/trace/review-rules", test_review_rules);
  return g_test_run ();
}
