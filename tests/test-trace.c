/* test-trace.c — the Chrome/Kineto importer and the GPU-time analysis, rule by rule
 *
 * Hand-written cases for each rule of docs/trace-formats.md, the real Kineto
 * fixtures (figures computed independently with Python's json and decimal modules, written here as
 * literals), and every prefix of a small trace.
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
#include "suanli-import-folded.h"
#include "suanli-import-limits.h"
#include "suanli-test-fixtures.h"
#include "suanli-test-flame.h"
#include "suanli-test-samples.h"

typedef struct
{
  SuanliTrace       *trace;
  SuanliImportStats  stats;
  gboolean           ok;
  GError            *error;
} Imported;

static void
imported_free (Imported *imported)
{
  g_clear_object (&imported->trace);
  suanli_import_stats_clear (&imported->stats);
  g_clear_error (&imported->error);
  g_free (imported);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (Imported, imported_free)

typedef gboolean (*ImportFunc) (SuanliTrace *, GInputStream *, const char *, SuanliImportStats *, GCancellable *,
                                GError **);

static Imported *
import_with (ImportFunc  import,
             const char *name,
             const char *text,
             gsize       length)
{
  Imported *imported = g_new0 (Imported, 1);
  g_autoptr(GInputStream) stream = g_memory_input_stream_new_from_data (text, (gssize) length, NULL);

  imported->trace = suanli_trace_new ();
  imported->ok = import (imported->trace, stream, name, &imported->stats, NULL, &imported->error);
  return imported;
}

static Imported *
import_bytes (const char *text,
              gsize       length)
{
  return import_with (suanli_import_chrome, "test.json", text, length);
}

static Imported *
import_text (const char *text)
{
  return import_bytes (text, strlen (text));
}

/* The first track of @kind, or NULL. */
static SuanliTrack *
find_track (SuanliTrace    *trace,
            SuanliTrackKind kind,
            gint64          pid,
            gint64          tid)
{
  for (guint i = 0; i < suanli_trace_get_n_tracks (trace); i++)
    {
      SuanliTrack *track = suanli_trace_get_track (trace, i);
      if (track->kind == kind && track->pid == pid && (kind == SUANLI_TRACK_COUNTER || track->tid == tid))
        return track;
    }
  return NULL;
}

static SuanliSlice *
slice_at (SuanliTrack *track,
          guint        index)
{
  g_assert_nonnull (track);
  g_assert_cmpuint (index, <, track->slices->len);
  return &g_array_index (track->slices, SuanliSlice, index);
}

static const char *
slice_name (SuanliTrace *trace,
            SuanliTrack *track,
            guint        index)
{
  return suanli_trace_get_string (trace, slice_at (track, index)->name);
}

static gboolean
has_warning (SuanliTrace *trace,
             const char  *part)
{
  GPtrArray *warnings = suanli_trace_get_warnings (trace);

  for (guint i = 0; i < warnings->len; i++)
    if (strstr (g_ptr_array_index (warnings, i), part) != NULL)
      return TRUE;
  return FALSE;
}

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
  g_autoptr(Imported) imported = NULL;
  SuanliTrack *track;

  for (guint i = 0; i < G_N_ELEMENTS (numbers); i++)
    g_string_append_printf (json, "%s{\"ph\": \"X\", \"cat\": \"%s\", \"name\": \"n\", \"pid\": 1, \"tid\": 1, "
                            "\"ts\": %u, \"dur\": 1, \"args\": {\"value\": %s, \"cut\\u0000here\": 1, "
                            "\"name\": \"x\"}}",
                            i == 0 ? "" : ", ", i % 3 == 0 ? "kernel" : "cpu_op", i * 10, numbers[i]);
  g_string_append (json, "]");
  imported = import_text (json->str);
  g_assert_true (imported->ok);
  track = find_track (imported->trace, SUANLI_TRACK_GPU_STREAM, 1, 1);
  g_assert_nonnull (track);
  g_assert_cmpuint (track->slices->len, ==, G_N_ELEMENTS (numbers));
  for (guint i = 0; i < G_N_ELEMENTS (numbers); i++)
    {
      const SuanliArg *args = suanli_trace_get_args (imported->trace, slice_at (track, i));
      double expected = g_ascii_strtod (numbers[i], NULL);

      g_assert_cmpuint (slice_at (track, i)->n_args, ==, 3);
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
  g_autoptr(Imported) imported = import_text (
    "[{\"ph\":\"X\",\"name\":\"a\",\"pid\":1,\"tid\":1,\"ts\":10,\"dur\":2.5},"
    " {\"ph\":\"X\",\"name\":\"b\",\"pid\":1,\"tid\":1,\"ts\":\"20.125\",\"dur\":\"1\"},"
    " {\"ph\":\"X\",\"name\":\"c\",\"pid\":1,\"tid\":1,\"ts\":1694039968933321.123,\"dur\":0.0015}]");
  SuanliTrack *track;

  g_assert_true (imported->ok);
  track = find_track (imported->trace, SUANLI_TRACK_THREAD, 1, 1);
  g_assert_nonnull (track);
  g_assert_cmpuint (track->slices->len, ==, 3);
  g_assert_cmpint (slice_at (track, 0)->start, ==, 10000);
  g_assert_cmpint (slice_at (track, 0)->duration, ==, 2500);
  g_assert_cmpint (slice_at (track, 1)->start, ==, 20125);
  g_assert_cmpint (slice_at (track, 1)->duration, ==, 1000);
  g_assert_cmpint (slice_at (track, 2)->start, ==, G_GINT64_CONSTANT (1694039968933321123));
  g_assert_cmpint (slice_at (track, 2)->duration, ==, 1);
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
      g_autoptr(Imported) imported = import_text (forms[i]);
      SuanliTrack *track;

      g_test_message ("form %u: %s", i, forms[i]);
      g_assert_no_error (imported->error);
      g_assert_true (imported->ok);
      track = find_track (imported->trace, SUANLI_TRACK_THREAD, 1, 2);
      g_assert_nonnull (track);
      g_assert_cmpuint (track->slices->len, ==, 1);
      g_assert_cmpstr (slice_name (imported->trace, track, 0), ==, "a");
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
      g_autoptr(Imported) imported = import_text (forms[i]);
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
    g_autoptr(Imported) imported = import_text ("[{\"ph\":\"X\",\"name\":\"a\",\"pid\":1,\"tid\":2,\"ts\":1,\"dur\":5}]");
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
      g_autoptr(Imported) imported = import_text (forms[i]);
      SuanliTrack *track = find_track (imported->trace, SUANLI_TRACK_THREAD, 1, 1);
      gint64 first, last;

      g_assert_true (imported->ok);
      g_assert_cmpint (slice_at (track, 0)->start, ==, G_GINT64_CONSTANT (1727743122000002500));
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
  g_autoptr(Imported) imported = import_text (
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

static void
test_pids_and_tids (void)
{
  /* Numeric strings become numbers (flows must land on the same thread); a missing tid means the
   * pid; words name their track. */
  g_autoptr(Imported) imported = import_text (
    "[{\"ph\":\"X\",\"name\":\"a\",\"pid\":\"12\",\"tid\":\"7\",\"ts\":1,\"dur\":1},"
    " {\"ph\":\"X\",\"name\":\"b\",\"pid\":12,\"tid\":7,\"ts\":3,\"dur\":1},"
    " {\"ph\":\"X\",\"name\":\"c\",\"pid\":5,\"ts\":1,\"dur\":1},"
    " {\"ph\":\"X\",\"name\":\"d\",\"pid\":5,\"tid\":\"stream 7\",\"ts\":1,\"dur\":1}]");
  SuanliTrack *track = find_track (imported->trace, SUANLI_TRACK_THREAD, 12, 7);
  gboolean found_named = FALSE;

  g_assert_true (imported->ok);
  g_assert_nonnull (track);
  g_assert_cmpuint (track->slices->len, ==, 2);
  track = find_track (imported->trace, SUANLI_TRACK_THREAD, 5, 5);
  g_assert_nonnull (track);
  g_assert_cmpstr (slice_name (imported->trace, track, 0), ==, "c");
  for (guint i = 0; i < suanli_trace_get_n_tracks (imported->trace); i++)
    {
      SuanliTrack *each = suanli_trace_get_track (imported->trace, i);
      if (g_strcmp0 (suanli_trace_get_string (imported->trace, each->name), "stream 7") == 0)
        {
          found_named = TRUE;
          g_assert_cmpstr (slice_name (imported->trace, each, 0), ==, "d");
        }
    }
  g_assert_true (found_named);
}

static void
test_complete_nesting (void)
{
  /* X events nest by time whatever their order in the file. */
  g_autoptr(Imported) imported = import_text (
    "[{\"ph\":\"X\",\"name\":\"inner\",\"pid\":1,\"tid\":1,\"ts\":2,\"dur\":3},"
    " {\"ph\":\"X\",\"name\":\"outer\",\"pid\":1,\"tid\":1,\"ts\":1,\"dur\":10},"
    " {\"ph\":\"X\",\"name\":\"innermost\",\"pid\":1,\"tid\":1,\"ts\":3,\"dur\":1},"
    " {\"ph\":\"X\",\"name\":\"next\",\"pid\":1,\"tid\":1,\"ts\":20,\"dur\":1}]");
  SuanliTrack *track = find_track (imported->trace, SUANLI_TRACK_THREAD, 1, 1);

  g_assert_true (imported->ok);
  g_assert_cmpstr (slice_name (imported->trace, track, 0), ==, "outer");
  g_assert_cmpuint (slice_at (track, 0)->depth, ==, 0);
  g_assert_cmpstr (slice_name (imported->trace, track, 1), ==, "inner");
  g_assert_cmpuint (slice_at (track, 1)->depth, ==, 1);
  g_assert_cmpstr (slice_name (imported->trace, track, 2), ==, "innermost");
  g_assert_cmpuint (slice_at (track, 2)->depth, ==, 2);
  g_assert_cmpstr (slice_name (imported->trace, track, 3), ==, "next");
  g_assert_cmpuint (slice_at (track, 3)->depth, ==, 0);
  g_assert_cmpuint (track->max_depth, ==, 2);
}

static void
test_begin_end (void)
{
  /* One stack per thread: E closes the top. An E with nothing open is ignored with a warning; a B
   * left open is closed at the trace's end and marked. */
  g_autoptr(Imported) imported = import_text (
    "[{\"ph\":\"B\",\"name\":\"outer\",\"pid\":1,\"tid\":1,\"ts\":1},"
    " {\"ph\":\"B\",\"name\":\"inner\",\"pid\":1,\"tid\":1,\"ts\":2},"
    " {\"ph\":\"B\",\"name\":\"other thread\",\"pid\":1,\"tid\":2,\"ts\":2},"
    " {\"ph\":\"E\",\"pid\":1,\"tid\":1,\"ts\":4},"
    " {\"ph\":\"E\",\"pid\":1,\"tid\":1,\"ts\":6},"
    " {\"ph\":\"E\",\"pid\":1,\"tid\":1,\"ts\":7},"
    " {\"ph\":\"B\",\"name\":\"left open\",\"pid\":1,\"tid\":1,\"ts\":8},"
    " {\"ph\":\"X\",\"name\":\"last\",\"pid\":1,\"tid\":3,\"ts\":9,\"dur\":3}]");
  SuanliTrack *track = find_track (imported->trace, SUANLI_TRACK_THREAD, 1, 1);
  SuanliTrack *other = find_track (imported->trace, SUANLI_TRACK_THREAD, 1, 2);

  g_assert_true (imported->ok);
  g_assert_cmpuint (track->slices->len, ==, 3);
  g_assert_cmpstr (slice_name (imported->trace, track, 0), ==, "outer");
  g_assert_cmpint (slice_at (track, 0)->duration, ==, 5000);
  g_assert_cmpstr (slice_name (imported->trace, track, 1), ==, "inner");
  g_assert_cmpint (slice_at (track, 1)->duration, ==, 2000);
  g_assert_cmpuint (slice_at (track, 1)->depth, ==, 1);
  g_assert_cmpstr (slice_name (imported->trace, track, 2), ==, "left open");
  g_assert_cmpint (slice_at (track, 2)->duration, ==, 4000);
  g_assert_true (slice_at (track, 2)->flags & SUANLI_SLICE_UNFINISHED);
  g_assert_true (slice_at (other, 0)->flags & SUANLI_SLICE_UNFINISHED);
  g_assert_true (has_warning (imported->trace, "1 end (E) had no begin"));
  g_assert_true (has_warning (imported->trace, "2 slices began and never ended"));
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
  g_autoptr(Imported) imported = import_text (async_trace);
  SuanliTrack *requests = find_async_track (imported->trace, 1, "request");
  SuanliTrack *legacy = find_async_track (imported->trace, 1, "legacy");
  SuanliTrack *open = find_async_track (imported->trace, 2, "open");
  gint64 tokens = 0;

  g_assert_true (imported->ok);
  g_assert_nonnull (requests);
  g_assert_nonnull (legacy);
  g_assert_nonnull (open);
  g_assert_cmpuint (requests->slices->len, ==, 3);
  g_assert_cmpstr (slice_name (imported->trace, requests, 0), ==, "request");
  g_assert_cmpint (slice_at (requests, 0)->start, ==, 1000);
  g_assert_cmpint (slice_at (requests, 0)->duration, ==, 5000);
  g_assert_cmpuint (slice_at (requests, 0)->depth, ==, 0);
  g_assert_true (suanli_trace_find_arg_int (imported->trace, slice_at (requests, 0), "tokens", &tokens));
  g_assert_cmpint (tokens, ==, 7);
  g_assert_cmpstr (slice_name (imported->trace, requests, 1), ==, "decode");
  g_assert_cmpint (slice_at (requests, 1)->duration, ==, 2000);
  g_assert_cmpuint (slice_at (requests, 1)->depth, ==, 1);
  g_assert_cmpint (slice_at (requests, 2)->start, ==, 3000);
  g_assert_cmpint (slice_at (requests, 2)->duration, ==, 5000);
  g_assert_cmpuint (slice_at (requests, 2)->depth, ==, 2);
  g_assert_cmpuint (requests->max_depth, ==, 2);
  g_assert_cmpuint (requests->instants->len, ==, 1);
  g_assert_cmpint (slice_at (legacy, 0)->duration, ==, 2000);
  g_assert_true (slice_at (open, 0)->flags & SUANLI_SLICE_UNFINISHED);
  g_assert_true (has_warning (imported->trace, "1 async end had no begin"));
  g_assert_true (has_warning (imported->trace, "1 slice began and never ended"));
  g_assert_cmpuint (GPOINTER_TO_SIZE (g_hash_table_lookup (imported->stats.by_category, "serve")), ==, 4);

  /* Written back as async pairs, they come back as async slices. */
  {
    g_autoptr(GOutputStream) output = g_memory_output_stream_new_resizable ();
    g_autoptr(GError) error = NULL;
    g_autoptr(Imported) again = NULL;

    g_assert_true (suanli_export_chrome (imported->trace, output, NULL, &error));
    g_assert_true (g_output_stream_close (output, NULL, &error));
    again = import_bytes (g_memory_output_stream_get_data (G_MEMORY_OUTPUT_STREAM (output)),
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
  g_autoptr(Imported) imported = import_text (
    "[{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":3,\"args\":{\"name\":\"python\"}},"
    " {\"ph\":\"M\",\"name\":\"process_sort_index\",\"pid\":3,\"args\":{\"sort_index\":5}},"
    " {\"ph\":\"M\",\"name\":\"thread_name\",\"pid\":3,\"tid\":9,\"args\":{\"name\":\"worker\"}},"
    " {\"ph\":\"i\",\"name\":\"step\",\"pid\":3,\"tid\":9,\"ts\":4,\"s\":\"t\"},"
    " {\"ph\":\"C\",\"name\":\"memory\",\"pid\":3,\"ts\":5,\"args\":{\"allocated\":10,\"reserved\":\"20.5\"}},"
    " {\"ph\":\"C\",\"name\":\"memory\",\"pid\":3,\"ts\":6,\"args\":{\"allocated\":12}}]");
  SuanliTrack *thread = find_track (imported->trace, SUANLI_TRACK_THREAD, 3, 9);
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
  g_autoptr(Imported) imported = import_text (suanli_test_kineto_trace);
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

      g_assert_cmpstr (slice_name (imported->trace, from, flow->from_slice), ==, "cudaLaunchKernel");
      g_assert_cmpint (to->kind, ==, SUANLI_TRACK_GPU_STREAM);
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
  g_autoptr(Imported) imported = import_text (memory_trace);
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
    g_autoptr(Imported) plain = import_text (suanli_test_kineto_trace);
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
  g_autoptr(Imported) imported = import_text (analysis_trace);
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
  g_autoptr(Imported) imported = NULL;
  SuanliFlow *flow;

  g_assert_cmpuint (g_string_replace (text, "\"correlation\":", "\"corr\":", 0), ==, 4);
  imported = import_bytes (text->str, text->len);
  g_assert_true (imported->ok);
  g_assert_cmpuint (suanli_trace_get_flows (imported->trace)->len, ==, 1);
  flow = &g_array_index (suanli_trace_get_flows (imported->trace), SuanliFlow, 0);
  g_assert_cmpint (suanli_trace_get_track (imported->trace, flow->to_track)->kind, ==, SUANLI_TRACK_GPU_STREAM);
  g_assert_cmpstr (slice_name (imported->trace, suanli_trace_get_track (imported->trace, flow->to_track), flow->to_slice),
                   ==, "gemm");
  g_assert_cmpstr (slice_name (imported->trace, suanli_trace_get_track (imported->trace, flow->from_track),
                               flow->from_slice), ==, "cudaLaunchKernel");
}

/* Written back as Chrome JSON and read again: the same slices, flows and GPU time. */
static void
test_export_round_trip (void)
{
  g_autoptr(Imported) imported = import_text (suanli_test_kineto_trace);
  g_autoptr(GOutputStream) output = g_memory_output_stream_new_resizable ();
  g_autoptr(GError) error = NULL;
  g_autoptr(Imported) again = NULL;
  g_autoptr(GArray) gpus = NULL;
  SuanliGpuTime *gpu;

  g_assert_true (suanli_export_chrome (imported->trace, output, NULL, &error));
  g_assert_true (g_output_stream_close (output, NULL, &error));
  g_assert_no_error (error);
  again = import_bytes (g_memory_output_stream_get_data (G_MEMORY_OUTPUT_STREAM (output)),
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
    SuanliTrack *stream = find_track (again->trace, SUANLI_TRACK_GPU_STREAM, 0, 7);

    g_assert_true (suanli_trace_find_arg_int (again->trace, slice_at (stream, 0), "correlation", &correlation));
    g_assert_cmpint (correlation, ==, 11);
  }
}

/* @length bytes of @text as one gzip member, appended to @out. */
static void
append_gzip_member (GByteArray *out,
                    const char *text,
                    gsize       length)
{
  g_autoptr(GZlibCompressor) compressor = g_zlib_compressor_new (G_ZLIB_COMPRESSOR_FORMAT_GZIP, 6);
  g_autoptr(GOutputStream) memory = g_memory_output_stream_new_resizable ();
  g_autoptr(GOutputStream) gzip = g_converter_output_stream_new (memory, G_CONVERTER (compressor));
  g_autoptr(GError) error = NULL;

  g_assert_true (g_output_stream_write_all (gzip, text, length, NULL, NULL, &error));
  g_assert_true (g_output_stream_close (gzip, NULL, &error));
  g_byte_array_append (out, g_memory_output_stream_get_data (G_MEMORY_OUTPUT_STREAM (memory)),
                       (guint) g_memory_output_stream_get_data_size (G_MEMORY_OUTPUT_STREAM (memory)));
}

static void
test_gzip_members (void)
{
  /* Three members cut at arbitrary places (as `cat a.gz b.gz c.gz` makes): read as one text. */
  g_autoptr(GByteArray) gzip = g_byte_array_new ();
  gsize length = sizeof suanli_test_kineto_trace - 1, first = length / 3, second = length / 2;
  g_autoptr(SuanliTrace) trace = suanli_trace_new ();
  g_autoptr(GInputStream) stream = NULL;
  g_autoptr(GError) error = NULL;
  SuanliImportStats stats = { 0 };

  append_gzip_member (gzip, suanli_test_kineto_trace, first);
  append_gzip_member (gzip, suanli_test_kineto_trace + first, second - first);
  append_gzip_member (gzip, suanli_test_kineto_trace + second, length - second);
  stream = g_memory_input_stream_new_from_data (gzip->data, gzip->len, NULL);
  g_assert_true (suanli_import_stream (trace, stream, "members.json.gz", &stats, NULL, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (stats.bytes, ==, length);
  g_assert_cmpuint (stats.events, ==, 9);
  g_assert_cmpuint (suanli_trace_get_n_slices (trace), ==, 7);
  g_assert_cmpuint (suanli_trace_get_warnings (trace)->len, ==, 0);
  suanli_import_stats_clear (&stats);
}

/* Budgets: one JSON value of megabytes (quadratic to lex across chunks) and more text than
 * SUANLI_TRACE_MAX_BYTES both stop the reading; what came before is kept, and a warning says why. */
static void
test_budgets (void)
{
  GString *text = g_string_new ("{\"traceEvents\": [");
  g_autofree char *data = NULL;
  gsize length;

  for (guint i = 0; i < 1000; i++)
    g_string_append_printf (text, "{\"ph\": \"X\", \"name\": \"k\", \"pid\": 1, \"tid\": 1, \"ts\": %u, \"dur\": 1},", i);
  g_string_append (text, "{\"ph\": \"X\", \"name\": \"");
  for (guint i = 0; i < 3 << 20; i += 64)
    g_string_append (text, "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef");
  g_string_append (text, "\", \"pid\": 1, \"tid\": 1, \"ts\": 5000, \"dur\": 1}]}");
  length = text->len;
  data = g_string_free (text, FALSE);

  for (guint round = 0; round < 2; round++)
    {
      g_autoptr(SuanliTrace) trace = suanli_trace_new ();
      g_autoptr(GInputStream) stream = g_memory_input_stream_new_from_data (data, (gssize) length, NULL);
      g_autoptr(GError) error = NULL;
      SuanliImportStats stats = { 0 };
      const char *warning;

      /* The second round: a budget of text that the first 1,000 events already pass. */
      if (round == 1)
        g_setenv ("SUANLI_TRACE_MAX_BYTES", "50000", TRUE);
      g_assert_true (suanli_import_stream (trace, stream, "budget.json", &stats, NULL, &error));
      g_unsetenv ("SUANLI_TRACE_MAX_BYTES");
      g_assert_no_error (error);
      g_assert_cmpuint (suanli_trace_get_warnings (trace)->len, ==, 1);
      warning = g_ptr_array_index (suanli_trace_get_warnings (trace), 0);
      g_test_message ("%s", warning);
      g_assert_true (g_str_has_prefix (warning, "budget.json: stopped reading at byte "));
      g_assert_nonnull (strstr (warning, round == 0 ? "one JSON value is longer than 1048576 bytes"
                                                     : "the trace is longer than 50000 bytes of JSON"));
      g_assert_cmpuint (suanli_trace_get_n_slices (trace), >, 0);
      g_assert_cmpuint (suanli_trace_get_n_slices (trace), <=, 1000);
      suanli_import_stats_clear (&stats);
    }
}

/* The warning of @imported that starts with @start, or NULL. */
static const char *
find_warning (Imported   *imported,
              const char *start)
{
  GPtrArray *warnings = suanli_trace_get_warnings (imported->trace);

  for (guint i = 0; i < warnings->len; i++)
    if (g_str_has_prefix (g_ptr_array_index (warnings, i), start))
      return g_ptr_array_index (warnings, i);
  return NULL;
}

/* The byte just past @value, the first time it is in @text: where the importer says it is. */
static gsize
end_of (const char *text,
        const char *value)
{
  const char *at = strstr (text, value);

  g_assert_nonnull (at);
  return (gsize) (at - text) + strlen (value);
}

/* Times no clock gives: a ts past 64 bits or ±1e400 is left out (it was read as 0), a negative or
 * endless dur is read as 0; each kind is warned about once, with how many and where the first is.
 * Metadata needs no time. A pid or tid of true, null, an array or an object leaves the event out
 * (it went to pid 0, GPU 0 in a Kineto trace). */
static void
test_impossible_times (void)
{
  static const char text[] =
    "{\"traceEvents\": [\n"
    "{\"ph\": \"X\", \"name\": \"a\", \"pid\": 1, \"tid\": 1, \"ts\": 10, \"dur\": 5},\n"
    "{\"ph\": \"X\", \"name\": \"b\", \"pid\": 1, \"tid\": 1, \"ts\": 9223372036854775807, \"dur\": 5},\n"
    "{\"ph\": \"i\", \"name\": \"c\", \"pid\": 1, \"tid\": 1, \"ts\": -1e400},\n"
    "{\"ph\": \"X\", \"name\": \"d\", \"pid\": 1, \"tid\": 1, \"ts\": 20, \"dur\": -3},\n"
    "{\"ph\": \"X\", \"name\": \"e\", \"pid\": 1, \"tid\": 1, \"ts\": 30, \"dur\": 1e400},\n"
    "{\"ph\": \"X\", \"name\": \"f\", \"pid\": true, \"tid\": 1, \"ts\": 40, \"dur\": 1},\n"
    "{\"ph\": \"X\", \"name\": \"g\", \"pid\": 1, \"tid\": null, \"ts\": 40, \"dur\": 1},\n"
    "{\"ph\": \"X\", \"name\": \"h\", \"pid\": [1], \"tid\": 1, \"ts\": 40, \"dur\": 1},\n"
    "{\"ph\": \"X\", \"name\": \"i\", \"pid\": {\"a\": 1}, \"tid\": 1, \"ts\": 40, \"dur\": 1},\n"
    "{\"ph\": \"M\", \"name\": \"process_name\", \"pid\": 1, \"ts\": \"never\", \"args\": {\"name\": \"p\"}}\n"
    "]}\n";
  g_autoptr(Imported) imported = import_text (text);
  g_autofree char *ts_warning = g_strdup_printf ("test.json: 2 events have a ts that is no time within 73 years of "
                                                 "1970 (the first at byte %zu, line 3): left out",
                                                 end_of (text, "9223372036854775807"));
  g_autofree char *dur_warning = g_strdup_printf ("test.json: 2 slices have a dur that is negative or no time within "
                                                  "73 years (the first at byte %zu, line 5): read as 0",
                                                  end_of (text, "-3"));
  g_autofree char *id_warning = g_strdup_printf ("test.json: 4 events have a pid or tid that is neither a number nor "
                                                 "a word (true, false, null, an array or an object; the first at "
                                                 "byte %zu, line 7): left out", end_of (text, "true"));
  SuanliTrack *track;

  g_assert_true (imported->ok);
  g_assert_cmpuint (imported->stats.events, ==, 10);
  g_assert_cmpuint (suanli_trace_get_warnings (imported->trace)->len, ==, 3);
  g_assert_cmpstr (find_warning (imported, "test.json: 2 events have a ts"), ==, ts_warning);
  g_assert_cmpstr (find_warning (imported, "test.json: 2 slices have a dur"), ==, dur_warning);
  g_assert_cmpstr (find_warning (imported, "test.json: 4 events have a pid"), ==, id_warning);
  /* a, d and e on pid 1; nothing at pid 0, and no instant at time 0. */
  g_assert_cmpuint (suanli_trace_get_n_slices (imported->trace), ==, 3);
  g_assert_cmpuint (suanli_trace_get_n_tracks (imported->trace), ==, 1);
  track = find_track (imported->trace, SUANLI_TRACK_THREAD, 1, 1);
  g_assert_nonnull (track);
  g_assert_cmpuint (track->instants->len, ==, 0);
  g_assert_cmpint (g_array_index (track->slices, SuanliSlice, 0).start, ==, 10000);
  g_assert_cmpint (g_array_index (track->slices, SuanliSlice, 1).duration, ==, 0);
  g_assert_cmpint (g_array_index (track->slices, SuanliSlice, 2).duration, ==, 0);
  g_assert_cmpstr (suanli_trace_get_string (imported->trace,
                                            suanli_trace_ensure_process (imported->trace, 1)->name), ==, "p");
}

/* A trace none of whose times can be read is no trace: the error says why and where. */
static void
test_impossible_times_only (void)
{
  static const char text[] = "[{\"ph\": \"X\", \"name\": \"a\", \"pid\": 1, \"ts\": 9223372036854775807, \"dur\": 5},\n"
                             "{\"ph\": \"X\", \"name\": \"b\", \"pid\": 1, \"ts\": 1e400, \"dur\": 5}]";
  g_autoptr(Imported) imported = import_text (text);
  g_autofree char *message = g_strdup_printf ("test.json: holds no trace that can be placed in time: 2 events have a "
                                              "ts that is no time within 73 years of 1970 (the first at byte %zu, "
                                              "line 1): left out", end_of (text, "9223372036854775807"));

  g_assert_false (imported->ok);
  g_assert_error (imported->error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA);
  g_assert_cmpstr (imported->error->message, ==, message);
}

/* Times written as absolute already (microseconds since 1970) and a baseTimeNanoseconds as well:
 * adding it would put every slice at the clamp, 2^61 ns; it is not added, and a warning says so.
 * A base time past 64 bits or out of range is ignored, with a warning. */
static void
test_impossible_base_time (void)
{
  static const char absolute[] =
    "{\"traceEvents\": [\n"
    "{\"ph\": \"X\", \"name\": \"a\", \"pid\": 1, \"tid\": 1, \"ts\": 1700000000000000, \"dur\": 5},\n"
    "{\"ph\": \"X\", \"name\": \"b\", \"pid\": 1, \"tid\": 1, \"ts\": 1700000000000010, \"dur\": 5}\n"
    "],\n\"baseTimeNanoseconds\": 1700000000000000000}\n";
  static const char too_big[] =
    "{\"baseTimeNanoseconds\": 92233720368547758070,\n"
    "\"traceEvents\": [{\"ph\": \"X\", \"name\": \"a\", \"pid\": 1, \"tid\": 1, \"ts\": 10, \"dur\": 5}]}\n";
  g_autoptr(Imported) shifted = import_text (absolute);
  g_autoptr(Imported) ignored = import_text (too_big);
  g_autofree char *not_added = g_strdup_printf ("test.json: baseTimeNanoseconds at byte %zu (line 5) would move the "
                                                "events more than 73 years from 1970 (their ts may be absolute "
                                                "already): not added", end_of (absolute, "1700000000000000000"));
  g_autofree char *not_read = g_strdup_printf ("test.json: baseTimeNanoseconds at byte %zu (line 1) is not a whole "
                                               "number of nanoseconds within 73 years of 1970: ignored",
                                               end_of (too_big, "92233720368547758070"));
  gint64 first = 0, last = 0;

  g_assert_true (shifted->ok);
  g_assert_cmpuint (suanli_trace_get_warnings (shifted->trace)->len, ==, 1);
  g_assert_cmpstr (g_ptr_array_index (suanli_trace_get_warnings (shifted->trace), 0), ==, not_added);
  suanli_trace_get_time_range (shifted->trace, &first, &last);
  g_assert_cmpint (first, ==, G_GINT64_CONSTANT (1700000000000000000));
  g_assert_cmpint (last, ==, G_GINT64_CONSTANT (1700000000000015000));

  g_assert_true (ignored->ok);
  g_assert_cmpuint (suanli_trace_get_warnings (ignored->trace)->len, ==, 1);
  g_assert_cmpstr (g_ptr_array_index (suanli_trace_get_warnings (ignored->trace), 0), ==, not_read);
  suanli_trace_get_time_range (ignored->trace, &first, &last);
  g_assert_cmpint (first, ==, 10000);
}

/* The memory budget is the whole trace's: a second rank that alone would fit stops where the two
 * together pass it, and keeps what it read. */
static void
test_memory_budget_across_files (void)
{
  g_autoptr(GString) text = g_string_new ("{\"traceEvents\": [");
  g_autoptr(SuanliTrace) trace = suanli_trace_new ();
  SuanliImportStats stats = { 0 };
  g_autoptr(GError) error = NULL;
  g_autofree char *budget = NULL;
  const char *warning;

  for (guint i = 0; i < 2000; i++)
    g_string_append_printf (text, "{\"ph\": \"X\", \"name\": \"k\", \"pid\": 1, \"tid\": 1, \"ts\": %u, \"dur\": 1},", i);
  g_string_append (text, "{}]}");
  for (guint rank = 0; rank < 2; rank++)
    {
      g_autoptr(GInputStream) stream = g_memory_input_stream_new_from_data (text->str, (gssize) text->len, NULL);

      if (rank == 1)
        {
          budget = g_strdup_printf ("%" G_GUINT64_FORMAT, suanli_trace_get_memory_size (trace) + 10000);
          g_setenv ("SUANLI_TRACE_MAX_MEMORY", budget, TRUE);
        }
      g_assert_true (suanli_import_stream (trace, stream, rank == 0 ? "rank0.json" : "rank1.json", &stats, NULL, &error));
      g_assert_no_error (error);
    }
  g_unsetenv ("SUANLI_TRACE_MAX_MEMORY");
  g_assert_cmpuint (suanli_trace_get_warnings (trace)->len, ==, 1);
  warning = g_ptr_array_index (suanli_trace_get_warnings (trace), 0);
  g_test_message ("%s", warning);
  g_assert_true (g_str_has_prefix (warning, "rank1.json: stopped reading at byte 65536 (line 1), keeping what came "
                                            "before: the trace read so far takes more than 0 MiB of memory "
                                            "(SUANLI_TRACE_MAX_MEMORY"));
  g_assert_cmpuint (suanli_trace_get_n_slices (trace), >, 2000);
  g_assert_cmpuint (suanli_trace_get_n_slices (trace), <, 4000);
  suanli_import_stats_clear (&stats);
}

/* The memory budget's default is a quarter of what the machine (or its cgroup) gives, never more
 * than the machine has; SUANLI_TRACE_MAX_MEMORY replaces it. */
static void
test_memory_budget_default (void)
{
  guint64 machine = suanli_import_machine_memory ();
  long pages = sysconf (_SC_PHYS_PAGES), page_size = sysconf (_SC_PAGESIZE);

  g_unsetenv ("SUANLI_TRACE_MAX_MEMORY");
  g_assert_cmpuint (machine, >, 0);
  g_assert_cmpuint (machine, <=, (guint64) pages * (guint64) page_size);
  g_assert_cmpuint (suanli_import_limits ().max_memory, ==, machine / 4);
  g_setenv ("SUANLI_TRACE_MAX_MEMORY", "1000000", TRUE);
  g_assert_cmpuint (suanli_import_limits ().max_memory, ==, 1000000);
  g_setenv ("SUANLI_TRACE_MAX_MEMORY", "lots", TRUE);
  g_assert_cmpuint (suanli_import_limits ().max_memory, ==, machine / 4);
  g_unsetenv ("SUANLI_TRACE_MAX_MEMORY");
}

/* A small gzip file cut short: the error names the file and the byte where its data stops. */
static void
test_gzip_cut (void)
{
  g_autoptr(GByteArray) gzip = g_byte_array_new ();
  g_autoptr(SuanliTrace) trace = suanli_trace_new ();
  g_autoptr(GInputStream) stream = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *expected = NULL;
  SuanliImportStats stats = { 0 };

  append_gzip_member (gzip, suanli_test_kineto_trace, sizeof suanli_test_kineto_trace - 1);
  g_byte_array_set_size (gzip, gzip->len / 2);
  expected = g_strdup_printf ("cut.json.gz: the gzip data stops short at byte %u: the file was cut before its end",
                              gzip->len);
  stream = g_memory_input_stream_new_from_data (gzip->data, gzip->len, NULL);
  g_assert_false (suanli_import_stream (trace, stream, "cut.json.gz", &stats, NULL, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA);
  g_assert_cmpstr (error->message, ==, expected);
  suanli_import_stats_clear (&stats);
}

static void
test_gzip_file (void)
{
  g_autofree char *path = g_build_filename (g_get_tmp_dir (), "suanli-test-trace-XXXXXX.json.gz", NULL);
  g_autoptr(GFile) file = NULL;
  g_autoptr(GZlibCompressor) compressor = g_zlib_compressor_new (G_ZLIB_COMPRESSOR_FORMAT_GZIP, 6);
  g_autoptr(GOutputStream) memory = g_memory_output_stream_new_resizable ();
  g_autoptr(GOutputStream) gzip = g_converter_output_stream_new (memory, G_CONVERTER (compressor));
  g_autoptr(SuanliTrace) trace = suanli_trace_new ();
  g_autoptr(GError) error = NULL;
  SuanliImportStats stats = { 0 };
  int fd;

  g_assert_true (g_output_stream_write_all (gzip, suanli_test_kineto_trace, sizeof suanli_test_kineto_trace - 1, NULL, NULL, &error));
  g_assert_true (g_output_stream_close (gzip, NULL, &error));
  fd = g_mkstemp (path);
  g_assert_cmpint (fd, >=, 0);
  close (fd);
  g_assert_true (g_file_set_contents (path, g_memory_output_stream_get_data (G_MEMORY_OUTPUT_STREAM (memory)),
                                      (gssize) g_memory_output_stream_get_data_size (G_MEMORY_OUTPUT_STREAM (memory)),
                                      &error));
  file = g_file_new_for_path (path);
  g_assert_true (suanli_import_file (trace, file, &stats, NULL, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (stats.events, ==, 9);
  g_assert_cmpuint (stats.bytes, ==, sizeof suanli_test_kineto_trace - 1);
  g_assert_cmpuint (suanli_trace_get_n_slices (trace), ==, 7);
  suanli_import_stats_clear (&stats);
  g_unlink (path);
}

static void
test_faults (void)
{
  /* Not JSON at all: an error naming the byte and line, nothing kept. */
  {
    g_autoptr(Imported) imported = import_text ("[\n{\"ph\":\"X\"\n  oops");

    g_assert_false (imported->ok);
    g_assert_error (imported->error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA);
    g_assert_nonnull (strstr (imported->error->message, "test.json: not a trace: at byte"));
    g_assert_nonnull (strstr (imported->error->message, "line 3"));
  }
  /* A fault after some events keeps them, with a warning that says where. */
  {
    g_autoptr(Imported) imported = import_text (
      "{\"traceEvents\":[{\"ph\":\"X\",\"name\":\"kept\",\"pid\":1,\"tid\":1,\"ts\":1,\"dur\":1},\n"
      "{\"ph\":\"X\",\"name\":\"also kept\",\"pid\":1,\"tid\":1,\"ts\":3,\"dur\":1}\n"
      "{\"ph\":\"X\"}]}");

    g_assert_true (imported->ok);
    g_assert_no_error (imported->error);
    g_assert_cmpuint (suanli_trace_get_n_slices (imported->trace), ==, 2);
    g_assert_true (has_warning (imported->trace, "test.json: read up to byte 135 (line 3)"));
  }
  /* The object form cut short is a fault (only the bare array may be left unfinished). */
  {
    g_autoptr(Imported) imported = import_text (
      "{\"traceEvents\":[{\"ph\":\"X\",\"name\":\"kept\",\"pid\":1,\"tid\":1,\"ts\":1,\"dur\":1},");

    g_assert_true (imported->ok);
    g_assert_cmpuint (suanli_trace_get_n_slices (imported->trace), ==, 1);
    g_assert_true (has_warning (imported->trace, "the file ends in the middle of the JSON"));
  }
  /* Nesting has a limit, inside events' values too: a hostile file cannot exhaust the stack. */
  {
    g_autofree char *deep = g_strnfill (100, '[');
    g_autoptr(Imported) imported = import_text (deep);
    g_autoptr(GString) deep_args = g_string_new ("[{\"ph\":\"X\",\"ts\":1,\"dur\":1},{\"ph\":\"X\",\"args\":{\"a\":");

    g_assert_false (imported->ok);
    g_assert_nonnull (strstr (imported->error->message, "the JSON nests more than 64 levels deep"));
    for (guint i = 0; i < 100; i++)
      g_string_append (deep_args, "{\"b\":");
    {
      g_autoptr(Imported) kept = import_text (deep_args->str);

      g_assert_true (kept->ok);
      g_assert_cmpuint (suanli_trace_get_n_slices (kept->trace), ==, 1);
      g_assert_true (has_warning (kept->trace, "the JSON nests more than 64 levels deep"));
    }
  }
  /* Unknown phases are counted, not fatal. */
  {
    g_autoptr(Imported) imported = import_text ("[{\"ph\":\"Q\",\"ts\":1},{\"ph\":\"X\",\"ts\":1,\"dur\":1}]");

    g_assert_true (imported->ok);
    g_assert_true (has_warning (imported->trace, "1 event of an unknown phase"));
  }
}

/* Every prefix of a small trace imports or fails cleanly: no crash, no leak (the sanitizer build
 * runs this too), and what it keeps never exceeds the whole. */
static void
test_every_prefix (void)
{
  gsize length = sizeof suanli_test_kineto_trace - 1;

  for (gsize cut = 0; cut <= length; cut++)
    {
      g_autoptr(Imported) imported = import_bytes (suanli_test_kineto_trace, cut);

      if (imported->ok)
        g_assert_cmpuint (suanli_trace_get_n_slices (imported->trace), <=, 7);
      else
        g_assert_nonnull (imported->error);
    }
}

/* ---- folded stacks ------------------------------------------------------------------------- */

/* Through the sniffing entry point, as the app and the CLI read them. */
static Imported *
import_folded_bytes (const char *text,
                     gsize       length)
{
  return import_with (suanli_import_stream, "test.folded", text, length);
}

static void
assert_slice (SuanliTrace *trace,
              SuanliTrack *track,
              guint        index,
              const char  *name,
              gint64       start,
              gint64       duration,
              guint        depth)
{
  SuanliSlice *slice = slice_at (track, index);

  g_assert_cmpstr (suanli_trace_get_string (trace, slice->name), ==, name);
  g_assert_cmpint (slice->start, ==, start);
  g_assert_cmpint (slice->duration, ==, duration);
  g_assert_cmpuint (slice->depth, ==, depth);
}

static void
test_folded_layout (void)
{
  /* Stacks laid end to end, a count wide, sharing frames while their prefixes match. */
  g_autoptr(Imported) imported = import_folded_bytes (suanli_test_folded_sample, sizeof suanli_test_folded_sample - 1);
  SuanliTrack *track;

  g_assert_no_error (imported->error);
  g_assert_true (imported->ok);
  g_assert_cmpstr (suanli_trace_get_metadata (imported->trace, "unit"), ==, "samples");
  g_assert_cmpuint (suanli_trace_get_n_tracks (imported->trace), ==, 1);
  track = suanli_trace_get_track (imported->trace, 0);
  g_assert_cmpuint (track->slices->len, ==, 6);
  assert_slice (imported->trace, track, 0, "main", 0, 200, 0);
  assert_slice (imported->trace, track, 1, "parse", 0, 150, 1);
  assert_slice (imported->trace, track, 2, "lex", 0, 120, 2);
  assert_slice (imported->trace, track, 3, "tokens", 120, 30, 2);
  assert_slice (imported->trace, track, 4, "eval", 150, 50, 1);
  assert_slice (imported->trace, track, 5, "other_[k]", 200, 7, 0);
  g_assert_cmpuint (imported->stats.events, ==, 5);
  g_assert_true (has_warning (imported->trace, "test.folded: 1 line is not a stack and a count, ignored (line 4)"));
}

static void
test_folded_differential (void)
{
  /* Two count columns: "before" and "after", a group each. */
  g_autoptr(Imported) imported = import_folded_bytes ("a;b 3 5\na;c 1 0\nd 0 2\n", 22);
  SuanliTrack *before, *after;

  g_assert_true (imported->ok);
  g_assert_cmpuint (suanli_trace_get_n_groups (imported->trace), ==, 2);
  g_assert_cmpstr (suanli_trace_get_string (imported->trace, suanli_trace_get_group (imported->trace, 1)->name), ==,
                   "test.folded (after)");
  before = suanli_trace_get_track (imported->trace, 0);
  after = suanli_trace_get_track (imported->trace, 1);
  g_assert_cmpuint (before->group, ==, 0);
  g_assert_cmpuint (after->group, ==, 1);
  assert_slice (imported->trace, before, 0, "a", 0, 4, 0);
  assert_slice (imported->trace, before, 2, "c", 3, 1, 1);
  assert_slice (imported->trace, after, 0, "a", 0, 5, 0);
  assert_slice (imported->trace, after, 2, "d", 5, 2, 0);
  g_assert_cmpuint (after->slices->len, ==, 3);
}

static void
test_folded_utf16 (void)
{
  /* "a;é 7\n" in UTF-16 with a byte-order mark, little- and big-endian. */
  static const guint8 le[] = { 0xff, 0xfe, 'a', 0, ';', 0, 0xe9, 0, ' ', 0, '7', 0, '\n', 0 };
  static const guint8 be[] = { 0xfe, 0xff, 0, 'a', 0, ';', 0, 0xe9, 0, ' ', 0, '7', 0, '\n' };
  const guint8 *forms[] = { le, be };

  for (guint i = 0; i < 2; i++)
    {
      g_autoptr(Imported) imported = import_folded_bytes ((const char *) forms[i], sizeof le);
      SuanliTrack *track;

      g_assert_no_error (imported->error);
      track = suanli_trace_get_track (imported->trace, 0);
      assert_slice (imported->trace, track, 1, "é", 0, 7, 1);
    }

  /* A lone surrogate stops the decoding: the stacks before it are kept, with a warning. */
  {
    static const guint8 broken[] = { 0xff, 0xfe, 'a', 0, ';', 0, 'b', 0, ' ', 0, '3', 0, '\n', 0,
                                     0x00, 0xd8, 'x', 0, ' ', 0, '1', 0, '\n', 0 };
    g_autoptr(Imported) imported = import_folded_bytes ((const char *) broken, sizeof broken);

    g_assert_no_error (imported->error);
    g_assert_true (imported->ok);
    assert_slice (imported->trace, suanli_trace_get_track (imported->trace, 0), 1, "b", 0, 3, 1);
    g_assert_true (has_warning (imported->trace, "where reading failed"));
  }
}

static void
test_folded_deep_and_bad (void)
{
  /* 300 frames: slices keep 8-bit depths, so the last ones fold into one frame that says so. */
  g_autoptr(GString) deep = g_string_new (NULL);
  g_autoptr(Imported) imported = NULL;
  SuanliTrack *track;

  for (guint i = 0; i < 300; i++)
    g_string_append_printf (deep, "%sf%u", i == 0 ? "" : ";", i);
  g_string_append (deep, " 9\n");
  imported = import_folded_bytes (deep->str, deep->len);
  g_assert_true (imported->ok);
  track = suanli_trace_get_track (imported->trace, 0);
  g_assert_cmpuint (track->slices->len, ==, 255);
  g_assert_cmpuint (track->max_depth, ==, 254);
  g_assert_cmpstr (slice_name (imported->trace, track, 254), ==, "… 46 more frames");

  /* Lines that look like stacks at first and then are not: nothing valid is an error that counts them. */
  {
    g_autoptr(Imported) bad = import_folded_bytes ("a;b 1\n", 6);
    g_assert_true (bad->ok);
  }
  {
    g_autoptr(Imported) bad = import_folded_bytes ("a;b 1x\na;b\n", 12);
    g_assert_false (bad->ok);
  }
}

static void
test_folded_every_prefix (void)
{
  for (gsize cut = 0; cut < sizeof suanli_test_folded_sample; cut++)
    {
      g_autoptr(Imported) imported = import_folded_bytes (suanli_test_folded_sample, cut);

      if (imported->ok)
        g_assert_cmpuint (suanli_trace_get_n_slices (imported->trace), <=, 6);
      else
        g_assert_nonnull (imported->error);
    }
}

/* A GPU stream's name, sort order, syncs and flow ends come in events with no GPU category; they
 * all belong to the one row of that pid and tid. B/E pairs match on it too. */
static void
test_stream_rows (void)
{
  g_autoptr(GString) text = g_string_new (suanli_test_kineto_trace);
  g_autoptr(Imported) imported = NULL;
  g_autoptr(Imported) annotation = import_text (
    "[{\"ph\":\"B\",\"cat\":\"gpu_user_annotation\",\"name\":\"anno\",\"pid\":0,\"tid\":7,\"ts\":10},"
    " {\"ph\":\"E\",\"pid\":0,\"tid\":7,\"ts\":20}]");
  SuanliTrack *stream;

  g_string_replace (text, "\"traceEvents\":[\n",
                    "\"traceEvents\":[\n{\"ph\":\"M\",\"name\":\"thread_name\",\"pid\":0,\"tid\":7,"
                    "\"args\":{\"name\":\"stream 7\"}},\n", 1);
  imported = import_bytes (text->str, text->len);
  g_assert_true (imported->ok);
  /* The CPU thread, two streams and their queue-length counters: the flow events and the name add
   * no rows. */
  g_assert_cmpuint (suanli_trace_get_n_tracks (imported->trace), ==, 5);
  stream = find_track (imported->trace, SUANLI_TRACK_GPU_STREAM, 0, 7);
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
    g_autoptr(Imported) imported = import_text (
      "[{\"ph\":\"X\",\"name\":\"a\\u0000b\",\"pid\":1,\"tid\":1,\"ts\":0,\"dur\":4},"
      " {\"ph\":\"X\",\"name\":\"a\\u0000c\",\"pid\":1,\"tid\":1,\"ts\":5,\"dur\":4}]");
    SuanliTrack *track = find_track (imported->trace, SUANLI_TRACK_THREAD, 1, 1);

    g_assert_cmpstr (slice_name (imported->trace, track, 0), ==, "a\xe2\x90\x80" "b");
    g_assert_cmpstr (slice_name (imported->trace, track, 1), ==, "a\xe2\x90\x80" "c");
  }
  /* After a real partial overlap (C over P's end), later slices nest by time again. */
  {
    g_autoptr(Imported) imported = import_text (
      "[{\"ph\":\"X\",\"name\":\"P\",\"pid\":1,\"tid\":1,\"ts\":0,\"dur\":40},"
      " {\"ph\":\"X\",\"name\":\"C\",\"pid\":1,\"tid\":1,\"ts\":30,\"dur\":30},"
      " {\"ph\":\"X\",\"name\":\"Q\",\"pid\":1,\"tid\":1,\"ts\":41,\"dur\":59},"
      " {\"ph\":\"X\",\"name\":\"R\",\"pid\":1,\"tid\":1,\"ts\":70,\"dur\":10}]");
    SuanliTrack *track = find_track (imported->trace, SUANLI_TRACK_THREAD, 1, 1);

    g_assert_cmpstr (slice_name (imported->trace, track, 2), ==, "Q");
    g_assert_cmpuint (slice_at (track, 2)->depth, ==, 0);
    g_assert_cmpuint (slice_at (track, 3)->depth, ==, 1);
    g_assert_true (has_warning (imported->trace, "1 slice overlaps a sibling partly"));
  }
  /* A flow end without "bp":"e" binds to the next slice starting at or after it. */
  {
    g_autoptr(Imported) imported = import_text (
      "[{\"ph\":\"X\",\"name\":\"launch\",\"pid\":1,\"tid\":1,\"ts\":5,\"dur\":5},"
      " {\"ph\":\"X\",\"name\":\"outer\",\"pid\":1,\"tid\":2,\"ts\":0,\"dur\":100},"
      " {\"ph\":\"X\",\"name\":\"inner\",\"pid\":1,\"tid\":2,\"ts\":50,\"dur\":10},"
      " {\"ph\":\"s\",\"id\":1,\"name\":\"f\",\"cat\":\"c\",\"pid\":1,\"tid\":1,\"ts\":6},"
      " {\"ph\":\"f\",\"id\":1,\"name\":\"f\",\"cat\":\"c\",\"pid\":1,\"tid\":2,\"ts\":20}]");
    SuanliFlow *flow = &g_array_index (suanli_trace_get_flows (imported->trace), SuanliFlow, 0);

    g_assert_cmpuint (suanli_trace_get_flows (imported->trace)->len, ==, 1);
    g_assert_cmpstr (slice_name (imported->trace, suanli_trace_get_track (imported->trace, flow->to_track), flow->to_slice),
                     ==, "inner");
  }
  /* A global instant names no process or thread, and a base time that is not an integer is ignored. */
  {
    g_autoptr(Imported) imported = import_text (
      "{\"traceEvents\":[{\"ph\":\"X\",\"name\":\"k\",\"cat\":\"kernel\",\"pid\":0,\"tid\":7,\"ts\":1,\"dur\":1},"
      " {\"ph\":\"i\",\"s\":\"g\",\"name\":\"step\",\"pid\":\"CPU functions\",\"tid\":\"stream 7\",\"ts\":1}],"
      " \"baseTimeNanoseconds\":1e3}");
    SuanliTrack *stream = find_track (imported->trace, SUANLI_TRACK_GPU_STREAM, 0, 7);

    g_assert_nonnull (stream);
    g_assert_cmpuint (stream->name, ==, 0);
    g_assert_cmpint (slice_at (stream, 0)->start, ==, 1000);
    for (guint i = 0; i < suanli_trace_get_n_processes (imported->trace); i++)
      g_assert_cmpuint (suanli_trace_get_process (imported->trace, i)->name, ==, 0);
  }
  /* Folded frames may start with a bracket; a differential file's columns stay apart in its flame. */
  {
    g_autoptr(Imported) imported = import_folded_bytes ("[unknown];foo 5\n{anon};bar 2\n", 28);
    g_autoptr(Imported) differential = import_folded_bytes ("main;a 5 1\nmain;b 0 7\n", 23);
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

/* ---- the real Kineto fixtures ------------------------------------------------------------- */

typedef struct
{
  const char *file;
  guint64     events;
  guint64     slices;
  gint64      device;      /* -1: no GPU */
  gint64      kernel_ns, busy_ns, comm_ns, memcpy_ns, memset_ns, idle_ns;
  guint64     kernels;     /* kernel slices */
  gint64      gpu_work_ns; /* durations of kernels, copies and memsets, summed */
  guint       warnings;    /* critical_path: its stream syncs overlap kernels on the stream's row */
  gint64      host_wait_ns, short_gap_ns, other_idle_ns;   /* gaps before work launched after they
                                                            * began; under 30 µs; the rest */
  guint64     launches;                       /* GPU work linked to a CPU launch */
  gint64      launch_median_ns;
  guint       steps;                          /* ProfilerStep#N on CPU threads */
  gint64      first_step_kernel_ns;
  guint64     first_step_kernels;
  guint64     nccl_kernels;
} Fixture;

/* Computed with Python from the files (decimal timestamps, unions of intervals per category; the
 * idle split, launches by correlation, steps and kernels inside them by the rules in
 * suanli-analysis.c, written again in Python). */
static const Fixture fixtures[] = {
  { "amd_trace__mi250_minitoy_train_ROCm6_2_kineto.json.gz", 220, 113, 2,
    110881, 149042, 0, 38161, 0, 8762845, 14, 149042, 0,
    8762845, 0, 0, 16, 13357, 2, 110881, 14, 0 },
  { "cpu_only__rank-34.Jul_15_10_52_41.1074.pt.trace.json.gz", 30, 16, -1, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 1, 0, 0, 0 },
  { "critical_path__simple_add__trace.json.gz", 1348, 838, 0,
    10670000, 49758000, 0, 39080000, 8000, 15975817000, 79, 49816000, 1,
    15975716000, 101000, 0, 98, 26000, 0, 0, 0, 0 },
  { "timeline_analysis__sampled_rank-0.json.gz", 4855, 4811, 0,
    547303000, 547656000, 396199000, 1297000, 28000, 675191000, 1154, 607844000, 0,
    362945000, 2708000, 309538000, 1204, 10846000, 2, 278511000, 577, 10 },
  { "triton_example__triton_example.json.gz", 71, 8, 0, 1760, 1760, 0, 0, 0, 0, 1, 1760, 0,
    0, 0, 0, 1, 45426, 1, 1760, 1, 0 },
};

static void
test_fixtures (void)
{
  for (guint i = 0; i < G_N_ELEMENTS (fixtures); i++)
    {
      const Fixture *expected = &fixtures[i];
      g_autofree char *path = suanli_test_fixture_path (expected->file);
      g_autoptr(GFile) file = g_file_new_for_path (path);
      g_autoptr(SuanliTrace) trace = suanli_trace_new ();
      g_autoptr(GArray) gpus = NULL;
      g_autoptr(GError) error = NULL;
      SuanliImportStats stats = { 0 };

      g_test_message ("%s", expected->file);
      g_assert_true (suanli_import_file (trace, file, &stats, NULL, &error));
      g_assert_no_error (error);
      g_assert_cmpuint (stats.events, ==, expected->events);
      g_assert_cmpuint (suanli_trace_get_n_slices (trace), ==, expected->slices);
      g_assert_cmpuint (suanli_trace_get_warnings (trace)->len, ==, expected->warnings);
      g_assert_cmpuint (GPOINTER_TO_SIZE (g_hash_table_lookup (stats.by_category, "kernel")), ==, expected->kernels);
      gpus = suanli_analysis_gpu_time (trace);
      if (expected->device < 0)
        g_assert_cmpuint (gpus->len, ==, 0);
      else
        {
          SuanliGpuTime *gpu = &g_array_index (gpus, SuanliGpuTime, 0);

          g_assert_cmpuint (gpus->len, ==, 1);
          g_assert_cmpint (gpu->device, ==, expected->device);
          g_assert_cmpint (gpu->kernel_ns, ==, expected->kernel_ns);
          g_assert_cmpint (gpu->busy_ns, ==, expected->busy_ns);
          g_assert_cmpint (gpu->comm_ns, ==, expected->comm_ns);
          g_assert_cmpint (gpu->memcpy_ns, ==, expected->memcpy_ns);
          g_assert_cmpint (gpu->memset_ns, ==, expected->memset_ns);
          g_assert_cmpint (gpu->idle_ns, ==, expected->idle_ns);
          g_assert_cmpint (gpu->host_wait_ns, ==, expected->host_wait_ns);
          g_assert_cmpint (gpu->short_gap_ns, ==, expected->short_gap_ns);
          g_assert_cmpint (gpu->other_idle_ns, ==, expected->other_idle_ns);
        }
      {
        g_autoptr(GArray) delays = suanli_analysis_launch_delays (trace);
        g_autoptr(GArray) steps = suanli_analysis_steps (trace);
        g_autoptr(GArray) collectives = suanli_analysis_collectives (trace);
        guint64 nccl_kernels = 0;

        g_assert_cmpuint (delays->len, ==, expected->launches > 0 ? 1 : 0);
        if (expected->launches > 0)
          {
            g_assert_cmpuint (g_array_index (delays, SuanliLaunchDelays, 0).count, ==, expected->launches);
            g_assert_cmpint (g_array_index (delays, SuanliLaunchDelays, 0).median_ns, ==, expected->launch_median_ns);
          }
        g_assert_cmpuint (steps->len, ==, expected->steps);
        if (expected->steps > 0)
          {
            g_assert_cmpint (g_array_index (steps, SuanliStepStats, 0).kernel_ns, ==, expected->first_step_kernel_ns);
            g_assert_cmpuint (g_array_index (steps, SuanliStepStats, 0).kernels, ==, expected->first_step_kernels);
          }
        for (guint c = 0; c < collectives->len; c++)
          nccl_kernels += g_array_index (collectives, SuanliCollectiveStats, c).count;
        g_assert_cmpuint (nccl_kernels, ==, expected->nccl_kernels);
      }
      {
        g_autoptr(SuanliFlame) flame = suanli_flame_new (trace, SUANLI_FLAME_GPU, G_MININT64, G_MAXINT64);

        /* Every kernel, copy and memset once, summed: Python's sum of their durations. */
        g_assert_cmpint (suanli_flame_get_node (flame, 0)->total, ==, expected->gpu_work_ns);
      }
      suanli_import_stats_clear (&stats);
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
  g_test_add_func ("/trace/pids-and-tids", test_pids_and_tids);
  g_test_add_func ("/trace/complete-nesting", test_complete_nesting);
  g_test_add_func ("/trace/begin-end", test_begin_end);
  g_test_add_func ("/trace/async", test_async);
  g_test_add_func ("/trace/instants-counters-metadata", test_instants_counters_metadata);
  g_test_add_func ("/trace/gpu-time", test_gpu_time);
  g_test_add_func ("/trace/analysis", test_analysis);
  g_test_add_func ("/trace/memory-and-flops", test_memory_and_flops);
  g_test_add_func ("/trace/merged-ranks", test_merged_ranks);
  g_test_add_func ("/trace/flow-events-reach-streams", test_flow_events_reach_streams);
  g_test_add_func ("/trace/export-round-trip", test_export_round_trip);
  g_test_add_func ("/trace/stream-rows", test_stream_rows);
  g_test_add_func ("/trace/review-rules", test_review_rules);
  g_test_add_func ("/trace/gzip-file", test_gzip_file);
  g_test_add_func ("/trace/gzip-members", test_gzip_members);
  g_test_add_func ("/trace/gzip-cut", test_gzip_cut);
  g_test_add_func ("/trace/budgets", test_budgets);
  g_test_add_func ("/trace/memory-budget-default", test_memory_budget_default);
  g_test_add_func ("/trace/memory-budget-across-files", test_memory_budget_across_files);
  g_test_add_func ("/trace/impossible-times", test_impossible_times);
  g_test_add_func ("/trace/impossible-times-only", test_impossible_times_only);
  g_test_add_func ("/trace/impossible-base-time", test_impossible_base_time);
  g_test_add_func ("/trace/faults", test_faults);
  g_test_add_func ("/trace/every-prefix", test_every_prefix);
  g_test_add_func ("/trace/fixtures", test_fixtures);
  g_test_add_func ("/trace/folded/layout", test_folded_layout);
  g_test_add_func ("/trace/folded/differential", test_folded_differential);
  g_test_add_func ("/trace/folded/utf16", test_folded_utf16);
  g_test_add_func ("/trace/folded/deep-and-bad", test_folded_deep_and_bad);
  g_test_add_func ("/trace/folded/every-prefix", test_folded_every_prefix);
  return g_test_run ();
}
