/* test-trace-analysis.c — the analyses' definitions (idle time by cause, launch delays, queue
 * length, GPU slices, warnings), on small traces in Kineto's own format and on the real Kineto
 * fixtures (the flame graph's are in test-flame.c)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>
#include <sys/wait.h>
#include <glib/gstdio.h>

#include "suanli-analysis.h"
#include "suanli-import-chrome.h"
#include "suanli-import.h"
#include "suanli-interval.h"
#include "suanli-test-fixtures.h"
#include "suanli-trace-figures.h"

static SuanliTrace *
import_named (SuanliTrace *trace,
              const char  *name,
              const char  *text,
              GError     **error)
{
  g_autoptr(GInputStream) stream = g_memory_input_stream_new_from_data (text, -1, NULL);
  SuanliImportStats stats = { 0 };
  gboolean ok = suanli_import_chrome (trace, stream, name, &stats, NULL, error);

  suanli_import_stats_clear (&stats);
  return ok ? trace : NULL;
}

static SuanliTrace *
import_text (const char *text)
{
  SuanliTrace *trace = suanli_trace_new ();
  g_autoptr(GError) error = NULL;

  g_assert_nonnull (import_named (trace, "test.json", text, &error));
  g_assert_no_error (error);
  return trace;
}

/* One CPU thread launching kernels on stream 7 of GPU 0, each launch a cudaLaunchKernel with the
 * kernel's correlation (Kineto's form), times in µs. */
#define LAUNCH(ts, dur, corr) \
  "{\"ph\":\"X\",\"cat\":\"cuda_runtime\",\"name\":\"cudaLaunchKernel\",\"pid\":1,\"tid\":1,\"ts\":" #ts ",\"dur\":" #dur \
  ",\"args\":{\"correlation\":" #corr "}},"
#define KERNEL(tid, ts, dur, corr) \
  "{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"k" #corr "\",\"pid\":0,\"tid\":" #tid ",\"ts\":" #ts ",\"dur\":" #dur \
  ",\"args\":{\"correlation\":" #corr ",\"stream\":" #tid "}},"

/* Gaps between work queued ahead of it: 20 µs is a short gap (HTA's 30 µs threshold, in its own
 * µs), 40 µs is not. With the threshold read as 30 ns both were "other". */
static void
test_short_gap_threshold (void)
{
  g_autoptr(SuanliTrace) trace = import_text ("[" LAUNCH (0, 5, 1) LAUNCH (6, 5, 2) LAUNCH (12, 5, 3)
                                              KERNEL (7, 100, 10, 1) KERNEL (7, 130, 10, 2) KERNEL (7, 180, 10, 3) "{}]");
  g_autoptr(GArray) gpus = suanli_analysis_gpu_time (trace);
  g_autoptr(GArray) streams = suanli_analysis_stream_time (trace);
  SuanliGpuTime *gpu;
  SuanliStreamTime *stream;

  g_assert_cmpint (SUANLI_SHORT_GAP_NS, ==, 30000);
  g_assert_cmpuint (gpus->len, ==, 1);
  gpu = &g_array_index (gpus, SuanliGpuTime, 0);
  g_assert_cmpint (gpu->short_gap_ns, ==, 20000);
  g_assert_cmpint (gpu->other_idle_ns, ==, 40000);
  g_assert_cmpint (gpu->host_wait_ns, ==, 0);
  /* The same split for the stream on its own. */
  g_assert_cmpuint (streams->len, ==, 1);
  stream = &g_array_index (streams, SuanliStreamTime, 0);
  g_assert_cmpint (stream->stream, ==, 7);
  g_assert_cmpint (stream->short_gap_ns, ==, 20000);
  g_assert_cmpint (stream->other_idle_ns, ==, 40000);
  g_assert_cmpint (stream->idle_ns, ==, stream->host_wait_ns + stream->short_gap_ns + stream->other_idle_ns);
}

/* Two streams of one device: per stream each has its own gaps; the device's union has none of
 * stream 7's gap, which stream 8's kernel fills. */
static void
test_split_per_stream (void)
{
  g_autoptr(SuanliTrace) trace = import_text ("[" LAUNCH (0, 5, 1) LAUNCH (6, 5, 2) LAUNCH (12, 5, 3)
                                              KERNEL (7, 100, 10, 1) KERNEL (8, 105, 100, 2) KERNEL (7, 200, 10, 3) "{}]");
  g_autoptr(GArray) gpus = suanli_analysis_gpu_time (trace);
  g_autoptr(GArray) streams = suanli_analysis_stream_time (trace);

  g_assert_cmpuint (gpus->len, ==, 1);
  g_assert_cmpint (g_array_index (gpus, SuanliGpuTime, 0).idle_ns, ==, 0);
  g_assert_cmpuint (streams->len, ==, 2);
  for (guint i = 0; i < streams->len; i++)
    {
      SuanliStreamTime *stream = &g_array_index (streams, SuanliStreamTime, i);

      if (stream->stream == 7)
        {
          g_assert_cmpint (stream->idle_ns, ==, 90000);
          g_assert_cmpint (stream->other_idle_ns, ==, 90000);
        }
      else
        {
          g_assert_cmpint (stream->stream, ==, 8);
          g_assert_cmpint (stream->idle_ns, ==, 0);
        }
    }
}

/* Queue length: +1 at each launch call's start, −1 at each kernel's end. */
static void
test_queue_length (void)
{
  g_autoptr(SuanliTrace) trace = import_text ("[" LAUNCH (0, 1, 1) LAUNCH (1, 1, 2) LAUNCH (2, 1, 3)
                                              KERNEL (7, 10, 10, 1) KERNEL (7, 20, 10, 2) KERNEL (7, 30, 10, 3) "{}]");
  static const double expected[][2] = { { 0, 1 }, { 1000, 2 }, { 2000, 3 }, { 20000, 2 }, { 30000, 1 }, { 40000, 0 } };
  g_autoptr(GArray) streams = suanli_analysis_stream_time (trace);
  SuanliStreamTime *stream = &g_array_index (streams, SuanliStreamTime, 0);
  g_autoptr(GArray) samples = suanli_analysis_queue_length (trace, stream->track);
  g_autofree char *name = suanli_queue_counter_name (7);
  SuanliTrack *counter = NULL;

  g_assert_cmpuint (samples->len, ==, G_N_ELEMENTS (expected));
  for (guint i = 0; i < samples->len; i++)
    {
      g_assert_cmpint (g_array_index (samples, SuanliSample, i).time, ==, (gint64) expected[i][0]);
      g_assert_cmpfloat (g_array_index (samples, SuanliSample, i).value, ==, expected[i][1]);
    }
  g_assert_cmpint (stream->queue_max, ==, 3);
  g_assert_cmpuint (stream->launched, ==, 3);
  /* Over 0…40 µs: 1 for 1 µs, 2 for 1, 3 for 18, 2 for 10, 1 for 10: 87 µs·ops ÷ 40 µs. */
  g_assert_cmpfloat_with_epsilon (stream->queue_mean, 87.0 / 40.0, 1e-9);
  /* The counter track the importer made for the timeline holds the same series. */
  for (guint t = 0; t < suanli_trace_get_n_tracks (trace); t++)
    {
      SuanliTrack *track = suanli_trace_get_track (trace, t);

      if (track->kind == SUANLI_TRACK_COUNTER && g_str_equal (suanli_trace_get_string (trace, track->name), name))
        counter = track;
    }
  g_assert_nonnull (counter);
  g_assert_cmpint (counter->pid, ==, 0);
  g_assert_cmpuint (counter->samples->len, ==, samples->len);
  g_assert_cmpfloat (g_array_index (counter->samples, SuanliSample, 2).value, ==, 3);
}

/* Launch delay from the call's start and from its end (its return). */
static void
test_launch_delay_from_end (void)
{
  g_autoptr(SuanliTrace) trace = import_text ("[" LAUNCH (0, 5, 1) KERNEL (7, 8, 1, 1) "{}]");
  g_autoptr(GArray) delays = suanli_analysis_launch_delays (trace);
  SuanliLaunchDelays *delay;

  g_assert_cmpuint (delays->len, ==, 1);
  delay = &g_array_index (delays, SuanliLaunchDelays, 0);
  g_assert_cmpint (delay->median_ns, ==, 8000);
  g_assert_cmpint (delay->from_end.median_ns, ==, 3000);
  g_assert_cmpint (delay->from_end.min_ns, ==, 3000);
  g_assert_cmpint (delay->from_end.max_ns, ==, 3000);
}

/* Kernels are measured by the device: one that ends 0.5 µs after the GPU annotation around it keeps
 * its duration. A CPU child overrunning its parent by as much is clamped (whole µs rounding). */
static void
test_gpu_slices_not_clamped (void)
{
  g_autoptr(SuanliTrace) trace = import_text (
    "[{\"ph\":\"X\",\"cat\":\"gpu_user_annotation\",\"name\":\"step\",\"pid\":0,\"tid\":7,\"ts\":0,\"dur\":10},"
    "{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"k\",\"pid\":0,\"tid\":7,\"ts\":5,\"dur\":5.5},"
    "{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"outer\",\"pid\":1,\"tid\":1,\"ts\":0,\"dur\":10},"
    "{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"inner\",\"pid\":1,\"tid\":1,\"ts\":5,\"dur\":5.5}]");

  for (guint t = 0; t < suanli_trace_get_n_tracks (trace); t++)
    {
      SuanliTrack *track = suanli_trace_get_track (trace, t);
      SuanliSlice *second;

      if (track->slices->len != 2)
        continue;
      second = &g_array_index (track->slices, SuanliSlice, 1);
      if (track->kind == SUANLI_TRACK_GPU_STREAM)
        {
          g_assert_cmpint (second->duration, ==, 5500);
          g_assert_false (second->flags & SUANLI_SLICE_CLAMPED);
        }
      else
        {
          g_assert_cmpint (second->duration, ==, 5000);
          g_assert_true (second->flags & SUANLI_SLICE_CLAMPED);
        }
    }
  /* Neither is a warning: one is clamped, the other within a rounding step. */
  g_assert_cmpuint (suanli_trace_get_warnings (trace)->len, ==, 0);
}

/* A JSON file that holds no trace is refused, naming the file. */
static void
test_no_trace (void)
{
  static const char *texts[] = { "{\"foo\": 1}", "{\"schemaVersion\": 1, \"traceEvents\": []}", "[]",
                                 "[{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":1,\"args\":{\"name\":\"x\"}}]" };

  for (guint i = 0; i < G_N_ELEMENTS (texts); i++)
    {
      g_autoptr(SuanliTrace) trace = suanli_trace_new ();
      g_autoptr(GError) error = NULL;

      g_assert_null (import_named (trace, "settings.json", texts[i], &error));
      g_assert_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA);
      g_assert_true (g_str_has_prefix (error->message, "settings.json: holds no trace"));
    }
}

/* The same through suanli-cli: exit 2 and the message, not an empty summary. */
static void
test_no_trace_cli (void)
{
  g_autofree char *path = g_build_filename (g_get_tmp_dir (), "suanli-test-no-trace.json", NULL);
  const char *argv[] = { g_getenv ("SUANLI_CLI"), "trace", "summary", path, NULL };
  g_autofree char *out = NULL, *err = NULL;
  g_autoptr(GError) error = NULL;
  int status;

  g_assert_true (g_file_set_contents (path, "{\"displayTimeUnit\": \"ms\"}", -1, NULL));
  g_assert_true (g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_DEFAULT, NULL, NULL, &out, &err, &status, &error));
  g_assert_no_error (error);
  g_assert_true (WIFEXITED (status));
  g_assert_cmpint (WEXITSTATUS (status), ==, 2);
  g_assert_cmpstr (out, ==, "");
  g_assert_nonnull (strstr (err, "holds no trace"));
  g_unlink (path);
}

/* Two files, each with an end that has no begin and a real overlap: each file's warnings name it,
 * and the first file's overlap is not counted again when the second is read. */
static void
test_warnings_per_file (void)
{
  static const char *text =
    "[{\"ph\":\"E\",\"pid\":1,\"tid\":1,\"ts\":1},"
    "{\"ph\":\"X\",\"name\":\"a\",\"pid\":1,\"tid\":1,\"ts\":0,\"dur\":10},"
    "{\"ph\":\"X\",\"name\":\"b\",\"pid\":1,\"tid\":1,\"ts\":5,\"dur\":20}]";
  g_autoptr(SuanliTrace) trace = suanli_trace_new ();
  GPtrArray *warnings;

  g_assert_nonnull (import_named (trace, "rank0.json", text, NULL));
  g_assert_cmpuint (suanli_trace_get_warnings (trace)->len, ==, 2);
  g_assert_nonnull (import_named (trace, "rank1.json", text, NULL));
  warnings = suanli_trace_get_warnings (trace);
  g_assert_cmpuint (warnings->len, ==, 4);
  g_assert_cmpuint (suanli_trace_count_warnings (trace, 0), ==, 2);
  g_assert_cmpuint (suanli_trace_count_warnings (trace, 1), ==, 2);
  for (guint i = 0; i < warnings->len; i++)
    {
      const char *warning = g_ptr_array_index (warnings, i);

      g_assert_true (g_str_has_prefix (warning, i < 2 ? "rank0.json: " : "rank1.json: "));
      g_assert_null (strstr (warning + strlen ("rankN.json: "), "rank"));   /* named once */
      g_assert_nonnull (strstr (warning, i % 2 == 0 ? "no begin" : "1 slice overlaps"));
    }
}

/* Meta's MTIA in Kineto's format (as its traces are written: the device a process "MTIA 9",
 * streams as its threads, work of category mtia_ccp_events with DMA as "dma_request", launches
 * of category mtia_runtime joined by ac2g flows and correlations): a device with kernel and copy
 * time, not "no GPU activity". No MTIA fixture is shipped; this follows the format of the MTIA
 * traces in HolisticTraceAnalysis's tests. */
static void
test_mtia (void)
{
  g_autoptr(SuanliTrace) trace = import_text (
    "{\"schemaVersion\":1,\"distributedInfo\":{\"backend\":\"mtia:hccl,cpu:gloo\",\"rank\":0,\"world_size\":1},"
    "\"traceEvents\":["
    "{\"name\":\"process_name\",\"ph\":\"M\",\"ts\":0.0,\"pid\":9,\"tid\":0,\"args\":{\"name\":\"MTIA 9\"}},"
    "{\"name\":\"thread_name\",\"ph\":\"M\",\"ts\":0.0,\"pid\":9,\"tid\":408,\"args\":{\"name\":\"Stream 102\"}},"
    "{\"ph\":\"X\",\"cat\":\"mtia_runtime\",\"name\":\"runFunction - job_prep_and_submit_for_execution\",\"pid\":100,"
    "\"tid\":100,\"ts\":1000.5,\"dur\":300.25,\"args\":{\"correlation\":18}},"
    "{\"ph\":\"s\",\"id\":18,\"pid\":100,\"tid\":100,\"ts\":1000.5,\"cat\":\"ac2g\",\"name\":\"ac2g\"},"
    "{\"ph\":\"X\",\"cat\":\"mtia_ccp_events\",\"name\":\"dma_request\",\"pid\":9,\"tid\":408,\"ts\":1400.0,\"dur\":14.0,"
    "\"args\":{\"stream\":102,\"direction\":\"HOST_TO_DEVICE\",\"size\":1852,\"sqid\":1}},"
    "{\"ph\":\"X\",\"cat\":\"mtia_ccp_events\",\"name\":\"permute_2d_sparse_data-dtype_Int\",\"pid\":9,\"tid\":408,"
    "\"ts\":1500.0,\"dur\":2833.5,\"args\":{\"correlation\":18,\"stream\":102}},"
    "{\"ph\":\"f\",\"id\":18,\"pid\":9,\"tid\":408,\"ts\":1500.0,\"cat\":\"ac2g\",\"name\":\"ac2g\",\"bp\":\"e\"}]}");
  g_autoptr(GArray) gpus = suanli_analysis_gpu_time (trace);
  g_autoptr(GArray) delays = suanli_analysis_launch_delays (trace);
  SuanliGpuTime *gpu;

  g_assert_cmpuint (gpus->len, ==, 1);
  gpu = &g_array_index (gpus, SuanliGpuTime, 0);
  g_assert_cmpint (gpu->device, ==, 9);
  g_assert_cmpint (gpu->kernel_ns, ==, 2833500);
  g_assert_cmpint (gpu->memcpy_ns, ==, 14000);
  g_assert_cmpint (gpu->host_wait_ns, ==, 0);
  g_assert_cmpuint (delays->len, ==, 1);
  g_assert_cmpint (g_array_index (delays, SuanliLaunchDelays, 0).median_ns, ==, 499500);
}

/* The ROCm fixture's streams are a device (MI250's kernels under "kernel"). */
static void
test_rocm_fixture (void)
{
  g_autofree char *path = suanli_test_fixture_path ("amd_trace__mi250_minitoy_train_ROCm6_2_kineto.json.gz");
  g_autoptr(SuanliTrace) trace = suanli_trace_new ();
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(GArray) gpus = NULL;
  SuanliImportStats stats = { 0 };

  g_assert_true (suanli_import_file (trace, file, &stats, NULL, NULL));
  suanli_import_stats_clear (&stats);
  gpus = suanli_analysis_gpu_time (trace);
  g_assert_cmpuint (gpus->len, ==, 1);
  g_assert_cmpint (g_array_index (gpus, SuanliGpuTime, 0).kernel_ns, >, 0);
}

/* Two arrays of @Type of the same length, with the same @field in each element. */
#define ASSERT_SAME_FIELD(made, alone, Type, field)                                                  \
  G_STMT_START                                                                                     \
  {                                                                                                \
    g_assert_cmpuint ((made)->len, ==, (alone)->len);                                              \
    for (guint i_ = 0; i_ < (alone)->len; i_++)                                                    \
      g_assert_cmpint (g_array_index ((made), Type, i_).field, ==, g_array_index ((alone), Type, i_).field); \
  }                                                                                                \
  G_STMT_END

/* The figures, worked out on two threads where the machine has a second core, are the analyses'
 * own, run one by one: GPU and stream time, kernels, operators, launch delays, steps,
 * collectives, memory peaks and FLOPs. (CI runs this under ThreadSanitizer too: no analysis may
 * write what another reads.) */
static void
test_figures_together (void)
{
  g_autofree char *path = suanli_test_fixture_path ("timeline_analysis__sampled_rank-0.json.gz");
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(SuanliTrace) trace = suanli_trace_new ();
  g_autoptr(SuanliTraceFigures) figures = NULL;
  g_autoptr(GArray) gpus = NULL, streams = NULL, kernels = NULL, operators = NULL, delays = NULL, steps = NULL;
  g_autoptr(GArray) collectives = NULL, memory = NULL;
  SuanliImportStats stats = { 0 };
  SuanliFlopCount flops;

  g_assert_true (suanli_import_file (trace, file, &stats, NULL, NULL));
  suanli_import_stats_clear (&stats);
  figures = suanli_trace_figures_new (trace);
  gpus = suanli_analysis_gpu_time (trace);
  streams = suanli_analysis_stream_time (trace);
  kernels = suanli_analysis_top_kernels (trace);
  operators = suanli_analysis_cpu_operators (trace);
  delays = suanli_analysis_launch_delays (trace);
  steps = suanli_analysis_steps (trace);
  collectives = suanli_analysis_collectives (trace);
  memory = suanli_analysis_memory_peaks (trace);
  suanli_analysis_flops (trace, &flops);

  g_assert_cmpuint (gpus->len, >, 0);
  g_assert_cmpuint (operators->len, >, 0);
  g_assert_cmpuint (collectives->len, >, 0);
  ASSERT_SAME_FIELD (figures->gpus, gpus, SuanliGpuTime, busy_ns);
  ASSERT_SAME_FIELD (figures->gpus, gpus, SuanliGpuTime, host_wait_ns);
  ASSERT_SAME_FIELD (figures->streams, streams, SuanliStreamTime, queue_max);
  ASSERT_SAME_FIELD (figures->kernels, kernels, SuanliKernelStats, total_ns);
  ASSERT_SAME_FIELD (figures->operators, operators, SuanliOperatorStats, self_ns);
  ASSERT_SAME_FIELD (figures->delays, delays, SuanliLaunchDelays, median_ns);
  ASSERT_SAME_FIELD (figures->steps, steps, SuanliStepStats, busy_ns);
  ASSERT_SAME_FIELD (figures->collectives, collectives, SuanliCollectiveStats, total_ns);
  g_assert_cmpuint (figures->memory->len, ==, memory->len);
  g_assert_cmpfloat (figures->flops.flops, ==, flops.flops);
  g_assert_cmpuint (figures->flops.operators, ==, flops.operators);
}

/* The radix sort orders gint64 values as a comparison sort does: negatives, the extremes, runs of
 * one value, values sharing their high bytes (as a trace's times do), below and above the size
 * where it hands small arrays to g_array_sort(). */
static void
test_sort_int64 (void)
{
  static const guint sizes[] = { 0, 1, 255, 256, 257, 1000, 100000 };
  g_autoptr(GRand) rand = g_rand_new_with_seed (38);

  for (guint s = 0; s < G_N_ELEMENTS (sizes); s++)
    for (guint form = 0; form < 5; form++)
      {
        g_autoptr(GArray) values = g_array_sized_new (FALSE, FALSE, sizeof (gint64), sizes[s]);
        g_autoptr(GArray) expected = NULL;

        for (guint i = 0; i < sizes[s]; i++)
          {
            guint64 bits = ((guint64) g_rand_int (rand) << 32) | g_rand_int (rand);
            gint64 value = form == 0 ? (gint64) bits                                        /* anything */
                         : form == 1 ? G_GINT64_CONSTANT (1700000000000000000) + (gint64) (bits % 1000000000)   /* times */
                         : form == 2 ? (gint64) (bits % 7) - 3                             /* few values, some negative */
                         : form == 3 ? (gint64) (bits % 5000000)                           /* delays: three bytes differ */
                                     : (i % 3 == 0 ? G_MININT64 : i % 3 == 1 ? G_MAXINT64 : 0);

            g_array_append_val (values, value);
          }
        expected = g_array_copy (values);
        g_array_sort (expected, suanli_compare_int64);
        suanli_sort_int64 (values);
        g_assert_cmpuint (values->len, ==, expected->len);
        g_assert_cmpmem (values->data, values->len * sizeof (gint64), expected->data, expected->len * sizeof (gint64));
      }
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/analysis/short-gap-threshold", test_short_gap_threshold);
  g_test_add_func ("/analysis/split-per-stream", test_split_per_stream);
  g_test_add_func ("/analysis/queue-length", test_queue_length);
  g_test_add_func ("/analysis/launch-delay-from-end", test_launch_delay_from_end);
  g_test_add_func ("/analysis/gpu-slices-not-clamped", test_gpu_slices_not_clamped);
  g_test_add_func ("/analysis/no-trace", test_no_trace);
  g_test_add_func ("/analysis/no-trace-cli", test_no_trace_cli);
  g_test_add_func ("/analysis/warnings-per-file", test_warnings_per_file);
  g_test_add_func ("/analysis/mtia", test_mtia);
  g_test_add_func ("/analysis/rocm-fixture", test_rocm_fixture);
  g_test_add_func ("/analysis/figures-together", test_figures_together);
  g_test_add_func ("/analysis/sort-int64", test_sort_int64);
  return g_test_run ();
}
