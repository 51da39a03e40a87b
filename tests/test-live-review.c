/* test-live-review.c — live capture end to end on this machine, as test-live-standin.c runs it (the
 * real injection library in the stand-in job on the stand-in libcupti, driven by `suanli-cli
 * record` or its control socket), for what issue 36's review against CUDA 13's CUPTI and PyTorch
 * 2.11's Kineto found: every process of a command, PyTorch 2.11's torch.profiler under `record`
 * and during a capture, a newer Kineto replaced, graph capture, a newer CUPTI minor, a TSC clock,
 * launch stacks' depth, a slow detach and the queue at START. One meson test a case.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>
#include <glib.h>
#include <glib/gstdio.h>
#include <json-glib/json-glib.h>

#include "suanli-import.h"
#include "suanli-live-job.h"
#include "suanli-test-capture-reader.h"
#include "suanli-test-process.h"
#include "suanli-test-standin-job.h"
#include "suanli-test-wait.h"

typedef SuanliTestJob Job;
typedef SuanliTestCapture Capture;
typedef SuanliTestStream Stream;
G_DEFINE_AUTOPTR_CLEANUP_FUNC (Job, suanli_test_job_free)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (Capture, suanli_test_capture_free)
G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (Stream, suanli_test_stream_clear)

/* `record -- sh -c …` (as `record -- torchrun …`): the CUDA processes the command starts, two ranks
 * a level down and one two levels down, are each captured from their launch, into one file that
 * opens as one group a rank. */
static void
test_launch_descendants (void)
{
  g_autofree char *output = suanli_test_standin_path ("ranks.suanli-capture");
  g_autofree char *script = g_strdup_printf ("RANK=0 WORLD_SIZE=3 '%1$s' --launches 300 & "
                                             "RANK=1 WORLD_SIZE=3 '%1$s' --launches 500 & "
                                             "sh -c \"RANK=2 WORLD_SIZE=3 '%1$s' --launches 700\"; wait",
                                             g_getenv ("SUANLI_CUPTI_JOB"));
  g_autoptr(SuanliTrace) trace = suanli_trace_new ();
  g_autoptr(GFile) file = NULL;
  g_autoptr(GError) error = NULL;
  g_auto(SuanliTestRun) record = { 0 };
  SuanliImportStats stats = { 0 };
  guint seen_ranks = 0;

  suanli_test_run_cli (&record, "en", (const char *[]) { "record", "-o", output, "--", "sh", "-c", script, NULL });
  g_test_message ("record: %s", record.err);
  g_assert_cmpint (record.status, ==, 0);
  file = g_file_new_for_path (output);
  g_assert_true (suanli_import_file (trace, file, &stats, NULL, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (GPOINTER_TO_SIZE (g_hash_table_lookup (stats.by_category, "kernel")), ==, 1500);
  suanli_import_stats_clear (&stats);
  g_assert_cmpuint (suanli_trace_get_n_groups (trace), ==, 3);
  for (guint g = 0; g < 3; g++)
    {
      const SuanliGroup *group = suanli_trace_get_group (trace, g);

      g_assert_cmpint (group->world_size, ==, 3);
      g_assert_cmpint (group->capture, ==, SUANLI_GROUP_CAPTURED_FROM_LAUNCH);
      seen_ranks |= 1u << group->rank;
    }
  g_assert_cmpuint (seen_ranks, ==, 7);
  g_unlink (output);
}

/* A copy of the stand-in driver under the name of PyTorch's CUDA library, for a job to load: what
 * the capture's modules show of a PyTorch job. Returns its path. */
static char *
fake_torch_cuda (void)
{
  g_autofree char *folder = suanli_test_standin_path ("torch-lib");

  return suanli_test_copy_file (g_getenv ("SUANLI_FAKE_CUDA"), folder, "libtorch_cuda.so");
}

/* `record -- job` where the job runs torch.profiler (PyTorch 2.11's Kineto) around its launches:
 * the capture keeps every kernel; Kineto, refused CUPTI, traces the CPU only; the summary says so. */
static void
test_kineto_2_11_under_record (void)
{
  g_autofree char *output = suanli_test_standin_path ("torch-2-11.suanli-capture");
  g_autofree char *report_path = suanli_test_standin_path ("torch-2-11.json");
  g_autofree char *torch_cuda = fake_torch_cuda ();
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_auto(SuanliTestRun) record = { 0 };
  g_auto(Stream) stream = { 0 };
  g_autofree char *summary = NULL;
  JsonObject *kineto;

  suanli_test_run_cli (&record, "en", (const char *[]) { "record", "-o", output, "--", g_getenv ("SUANLI_CUPTI_JOB"),
                                                        "--load", torch_cuda, "--kineto-profile", "--launches", "2000",
                                                        "--report", report_path, NULL });
  g_test_message ("record: %s", record.err);
  g_assert_cmpint (record.status, ==, 0);
  suanli_test_stream_read_file (&stream, output);
  g_assert_cmpuint (stream.kernels->len, ==, 2000);
  g_assert_cmpuint (stream.end.reason, !=, SUANLI_END_CUPTI_TAKEN);
  g_assert_true (json_parser_load_from_file (parser, report_path, NULL));
  kineto = json_object_get_object_member (json_node_get_object (json_parser_get_root (parser)), "kineto");
  g_assert_cmpint (json_object_get_int_member (kineto, "subscribe_result"), ==, 39);   /* MULTIPLE_SUBSCRIBERS */
  g_assert_true (json_object_get_boolean_member (kineto, "cpu_only"));
  g_assert_cmpint (json_object_get_int_member (kineto, "kernels"), ==, 0);
  summary = suanli_test_summary_json (output);
  g_assert_nonnull (strstr (summary, "torch.profiler"));
  g_assert_nonnull (strstr (summary, "CPU only"));
  g_unlink (output);
  g_unlink (report_path);
  g_unlink (torch_cuda);
}

/* PyTorch 2.11's torch.profiler starts while a capture runs: refused CUPTI, it changes nothing, and
 * the capture goes on with every kernel. */
static void
test_kineto_2_11_during_capture (void)
{
  g_autoptr(Job) job = suanli_test_job_start (NULL, NULL);
  g_autoptr(Capture) capture = suanli_test_job_capture (job);
  g_autoptr(JsonObject) stopped = NULL;
  JsonObject *kineto;

  suanli_test_job_do (job, "launch 400");
  suanli_test_job_do (job, "kineto-start");
  suanli_test_job_do (job, "launch 20000");
  stopped = suanli_test_job_ask (job, "kineto-stop");
  kineto = json_object_get_object_member (stopped, "kineto");
  g_assert_true (json_object_get_boolean_member (kineto, "cpu_only"));
  g_assert_cmpint (json_object_get_int_member (kineto, "kernels"), ==, 0);
  suanli_test_capture_finish (capture);
  g_assert_true (capture->stream.ended);
  g_assert_cmpuint (capture->stream.end.reason, ==, SUANLI_END_STOPPED);
  g_assert_cmpuint (capture->stream.kernels->len, ==, 20400);
  suanli_test_job_exit (job);
}

/* The Kineto after 2.11 collects without a subscription when a capture attaches: the capture's
 * buffer callbacks replace its own, CUPTI hands the capture Kineto's buffers, and the capture says
 * so at its end (it neither reads nor frees them). */
static void
test_kineto_newer_replaced (void)
{
  g_autoptr(Job) job = suanli_test_job_start ((const char *[]) { "--kineto", "newer", NULL }, NULL);
  g_autoptr(Capture) capture = NULL;
  g_autofree char *output = suanli_test_standin_path ("replaced.suanli-capture");
  g_autofree char *summary = NULL;

  suanli_test_job_do (job, "kineto-start");
  suanli_test_job_do (job, "launch 300");
  capture = suanli_test_job_capture (job);
  suanli_test_job_await_flushes (job, NULL, 2);
  suanli_test_job_do (job, "launch 200");
  suanli_test_capture_finish (capture);
  suanli_test_job_do (job, "kineto-stop");
  g_assert_true (capture->stream.ended);
  g_assert_cmpuint (capture->stream.kernels->len, ==, 200);   /* none of Kineto's */
  suanli_test_capture_save (capture, output);
  summary = suanli_test_summary_json (output);
  g_assert_nonnull (strstr (summary, "without a subscription"));
  suanli_test_job_exit (job);
  g_unlink (output);
}

/* A server capturing CUDA graphs: launches into a captured stream write only their API record,
 * 24,000 of them in one buffer with no kernel record. The capture goes on, and has the graph's
 * kernels when it runs. */
static void
test_graph_capture_not_taken (void)
{
  g_autoptr(Job) job = suanli_test_job_start (NULL, NULL);
  g_autoptr(Capture) capture = suanli_test_job_capture (job);

  suanli_test_job_do (job, "stream-capture 11 on");
  suanli_test_job_do (job, "launch 24000 cudaLaunchKernel 11");
  suanli_test_job_do (job, "stream-capture 11 off");
  suanli_test_job_await_flushes (job, capture, 3);   /* (a capture that ended meanwhile flushes no more) */
  suanli_test_job_do (job, "graph 3 cudaGraphLaunch 11");
  suanli_test_capture_finish (capture);
  g_test_message ("%u API records, %u kernels; the end's reason %u", capture->stream.apis->len,
                  capture->stream.kernels->len, capture->stream.end.reason);
  g_assert_true (capture->stream.ended);
  g_assert_cmpuint (capture->stream.end.reason, ==, SUANLI_END_STOPPED);
  g_assert_cmpuint (capture->stream.apis->len, >=, 24000);
  g_assert_cmpuint (capture->stream.kernels->len, ==, 3);
  suanli_test_job_exit (job);
}

/* CUPTI 13.1 under a library built for 13.0: taken, with a note saying so. */
static void
test_newer_minor_accepted (void)
{
  g_autoptr(Job) job = suanli_test_job_start (NULL, (const char *[]) { "FAKE_CUPTI_VERSION=130100", NULL });
  g_autoptr(Capture) capture = suanli_test_job_capture_command (job, "launch 50", NULL);
  const char *detail = suanli_test_stream_string (&capture->stream, capture->stream.end.detail);

  g_assert_cmpuint (capture->stream.kernels->len, ==, 50);
  g_assert_cmpuint (capture->stream.header.cupti_version, ==, 130100);
  g_test_message ("the end's note: %s", detail != NULL ? detail : "(none)");
  g_assert_nonnull (detail);
  g_assert_nonnull (strstr (detail, "13.1"));
  suanli_test_job_exit (job);
}

/* PyTorch's profiler ran before the capture and left CUPTI a TSC clock (raw ticks, 3 a ns here):
 * the capture's times are still nanoseconds. */
static void
test_tsc_clock_replaced (void)
{
  g_autoptr(Job) job = suanli_test_job_start ((const char *[]) { "--kineto", "newer", NULL }, NULL);
  g_autoptr(Capture) capture = NULL;
  guint wrong = 0;

  suanli_test_job_do (job, "kineto-start");
  suanli_test_job_do (job, "launch 10");
  suanli_test_job_do (job, "kineto-stop");
  capture = suanli_test_job_capture_command (job, "launch 100 cudaLaunchKernel 7 20000", NULL);
  g_assert_cmpuint (capture->stream.kernels->len, ==, 100);
  for (guint i = 0; i < capture->stream.kernels->len; i++)
    {
      const SuanliCaptureKernel *kernel = &g_array_index (capture->stream.kernels, SuanliCaptureKernel, i);

      if (kernel->end - kernel->start < 19000 || kernel->end - kernel->start > 21000)
        {
          if (wrong++ == 0)
            g_test_message ("a 20 µs kernel lasted %" G_GUINT64_FORMAT " units", kernel->end - kernel->start);
        }
    }
  g_assert_cmpuint (wrong, ==, 0);
  suanli_test_job_exit (job);
}

/* `record --stack-depth N`: launch stacks of N frames at most, none at 0 (the least overhead); and
 * START's stack-depth=N for an attached capture. */
static void
test_stack_depth (void)
{
  static const char * const depths[] = { "0", "6" };
  g_autoptr(Job) job = suanli_test_job_start (NULL, NULL);
  g_autoptr(GError) error = NULL;
  int fd;

  for (guint d = 0; d < G_N_ELEMENTS (depths); d++)
    {
      g_autofree char *output = suanli_test_standin_path ("depth.suanli-capture");
      g_auto(SuanliTestRun) record = { 0 };
      g_auto(Stream) stream = { 0 };
      GHashTableIter iter;
      gpointer depth;
      guint deepest = 0;

      suanli_test_run_cli (&record, "en", (const char *[]) { "record", "--stack-depth", depths[d], "-o", output, "--",
                                                            g_getenv ("SUANLI_CUPTI_JOB"), "--launches", "500", NULL });
      g_assert_cmpint (record.status, ==, 0);
      suanli_test_stream_read_file (&stream, output);
      g_assert_cmpuint (stream.kernels->len, ==, 500);
      g_hash_table_iter_init (&iter, stream.stacks);
      while (g_hash_table_iter_next (&iter, NULL, &depth))
        deepest = MAX (deepest, GPOINTER_TO_UINT (depth));
      g_test_message ("--stack-depth %s: %u stacks, the deepest %u frames", depths[d], g_hash_table_size (stream.stacks),
                      deepest);
      g_assert_cmpuint (g_hash_table_size (stream.stacks), ==, atoi (depths[d]) == 0 ? 0 : 500);
      g_assert_cmpuint (deepest, <=, (guint) atoi (depths[d]));
      g_unlink (output);
    }
  /* Attached: the option goes with START; a bad one is refused. */
  fd = suanli_live_start_with_stacks (job->socket_path, 33, &error);
  g_assert_cmpint (fd, <, 0);
  g_assert_nonnull (strstr (error->message, "stack-depth"));
  suanli_test_job_exit (job);
}

/* STOP's detach runs on the job's thread, at its next CUDA call, and takes a while (cuptiFinalize):
 * STOP waits for it to finish, so the next START's subscription is not forgotten by it. */
static void
test_detach_finishes (void)
{
  g_autoptr(Job) job = suanli_test_job_start (NULL, (const char *[]) { "FAKE_CUPTI_FINALIZE_MS=300", NULL });
  g_autoptr(Capture) first = suanli_test_job_capture_command (job, "launch 10", NULL);
  g_autoptr(Capture) second = NULL;
  g_autoptr(Capture) third = suanli_test_job_capture (job);

  /* A capture whose STOP meets the job's next launch, then at once the next capture. */
  suanli_test_job_do (job, "launch 10");
  suanli_test_capture_stop (third);
  suanli_test_job_say (job, "sleep 50");   /* the launch comes while STOP waits for one */
  suanli_test_job_say (job, "launch 1");
  second = suanli_test_job_capture (job);
  json_object_unref (suanli_test_job_answer (job));
  json_object_unref (suanli_test_job_answer (job));
  suanli_test_job_do (job, "launch 50");
  suanli_test_capture_finish (second);
  suanli_test_await (suanli_test_capture_closed, third);
  g_test_message ("%u kernels in the first, %u in the third, %u in the second", first->stream.kernels->len,
                  third->stream.kernels->len, second->stream.kernels->len);
  g_assert_cmpuint (first->stream.kernels->len, ==, 10);
  g_assert_cmpuint (second->stream.kernels->len, ==, 50);
  suanli_test_job_exit (job);
}

/* Anonymous mappings of 64 MiB or more in the job: the record queue's, once it has one. */
static guint
large_mappings (Job *job)
{
  g_autofree char *path = g_strdup_printf ("/proc/%s/maps", job->pid);
  g_autofree char *maps = NULL;
  g_auto(GStrv) lines = NULL;
  guint n = 0;

  g_assert_true (g_file_get_contents (path, &maps, NULL, NULL));
  lines = g_strsplit (maps, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      guint64 start = 0, end = 0;
      char file[256] = "";

      if (sscanf (lines[i], "%" G_GINT64_MODIFIER "x-%" G_GINT64_MODIFIER "x %*s %*s %*s %*s %255s", &start, &end,
                  file) >= 2 && file[0] != '/' && end - start >= (64u << 20))
        n++;
    }
  return n;
}

/* Whether this test runs under AddressSanitizer, whose allocator maps large regions of its own. */
#if defined(__SANITIZE_ADDRESS__)
#define UNDER_ASAN 1
#elif defined(__has_feature)
#if __has_feature (address_sanitizer)
#define UNDER_ASAN 1
#endif
#endif
#ifndef UNDER_ASAN
#define UNDER_ASAN 0
#endif

/* An idle job holds no record queue: the 64 MiB are taken at the first START. */
static void
test_queue_at_start (void)
{
  g_autoptr(Job) job = NULL;
  g_autoptr(Capture) capture = NULL;
  guint idle, capturing;

  if (UNDER_ASAN)
    {
      g_test_skip ("AddressSanitizer's allocator maps large regions of its own: the queue's cannot be told apart");
      return;
    }
  job = suanli_test_job_start (NULL, NULL);
  idle = large_mappings (job);
  capture = suanli_test_job_capture (job);
  capturing = large_mappings (job);
  g_test_message ("%u large anonymous mappings idle, %u capturing", idle, capturing);
  g_assert_cmpuint (idle, ==, 0);
  g_assert_cmpuint (capturing, ==, 1);
  suanli_test_capture_finish (capture);
  suanli_test_job_exit (job);
}

int
main (int    argc,
      char **argv)
{
  g_autofree char *runtime_dir = NULL;
  int status;

  g_test_init (&argc, &argv, NULL);
  runtime_dir = suanli_test_standin_begin ();
  g_test_add_func ("/live-review/launch-descendants", test_launch_descendants);
  g_test_add_func ("/live-review/kineto-2-11-under-record", test_kineto_2_11_under_record);
  g_test_add_func ("/live-review/kineto-2-11-during-capture", test_kineto_2_11_during_capture);
  g_test_add_func ("/live-review/kineto-newer-replaced", test_kineto_newer_replaced);
  g_test_add_func ("/live-review/graph-capture-not-taken", test_graph_capture_not_taken);
  g_test_add_func ("/live-review/newer-minor-accepted", test_newer_minor_accepted);
  g_test_add_func ("/live-review/tsc-clock-replaced", test_tsc_clock_replaced);
  g_test_add_func ("/live-review/stack-depth", test_stack_depth);
  g_test_add_func ("/live-review/detach-finishes", test_detach_finishes);
  g_test_add_func ("/live-review/queue-at-start", test_queue_at_start);
  status = g_test_run ();
  suanli_test_standin_end (runtime_dir);
  return status;
}
