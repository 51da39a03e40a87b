/* test-live-standin.c — live capture end to end on this machine: the real injection library in a
 * stand-in CUDA job (tests/standins/cupti-job.c) on the stand-in libcupti (tests/standins/fake-libcupti.c), driven
 * by `suanli-cli record` or its control socket, and read back with the real importer
 *
 * One case per behaviour issue 16 asks of the library (its faults 2 to 7), each run as a test of
 * its own (meson gives each its -p), so that one that hangs the library cannot hide the others.
 * The jobs are driven a line at a time on their standard input, and every wait is for a
 * condition (the job's answer, a record in the stream, the job's exit), never for a fixed time.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <signal.h>
#include <string.h>
#include <unistd.h>
#include <glib.h>
#include <glib/gstdio.h>
#include <gio/gio.h>
#include <json-glib/json-glib.h>

#include "suanli-import.h"
#include "suanli-live-job.h"
#include "suanli-test-capture-reader.h"
#include "suanli-test-process.h"
#include "suanli-test-standin-job.h"
#include "suanli-test-wait.h"

#define RUNTIME_CBIDS 523   /* CUPTI_RUNTIME_TRACE_CBID_SIZE in CUDA 13.0 */
#define DRIVER_CBIDS  807   /* CUPTI_DRIVER_TRACE_CBID_SIZE */

typedef SuanliTestJob Job;
typedef SuanliTestCapture Capture;
typedef SuanliTestStream Stream;
G_DEFINE_AUTOPTR_CLEANUP_FUNC (Job, suanli_test_job_free)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (Capture, suanli_test_capture_free)
G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (Stream, suanli_test_stream_clear)


/* A condition: the stream holds at least this many kernels. */
typedef struct
{
  Capture *capture;
  guint              kernels;
} KernelsSeen;

static gboolean
kernels_seen (gpointer data)
{
  KernelsSeen *seen = data;

  suanli_test_capture_update (seen->capture);
  return seen->capture->stream.kernels->len >= seen->kernels;
}

static gboolean
drops_reported (gpointer data)
{
  Capture *capture = data;

  suanli_test_capture_update (capture);
  return capture->stream.drop_records > 0;
}

/* A condition: the stand-in libcupti in the job (a Job *) has a subscriber and kinds
 * enabled. */
static gboolean
cupti_is_on (gpointer data)
{
  g_autoptr(JsonObject) state = suanli_test_job_fake_state (data);

  return json_object_get_boolean_member (state, "subscribed") && json_object_get_int_member (state, "kinds") != 0;
}

static guint
kernels_named (Stream     *stream,
               const char *name)
{
  guint n = 0;

  for (guint i = 0; i < stream->kernels->len; i++)
    {
      const SuanliCaptureKernel *kernel = &g_array_index (stream->kernels, SuanliCaptureKernel, i);

      n += g_strcmp0 (suanli_test_stream_string (stream, kernel->name), name) == 0;
    }
  return n;
}

/* ---- fault 2: launch mode captures from the first launch, attach mode from START ------------------- */

static void
test_launch_mode (void)
{
  g_autofree char *output = suanli_test_standin_path ("launch.suanli-capture");
  g_autofree char *report_path = suanli_test_standin_path ("launch.json");
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_auto(SuanliTestRun) record = { 0 };
  g_auto(Stream) stream = { 0 };
  g_autofree char *summary = NULL;
  JsonObject *per_name;
  GList *names;

  /* The job launches 3,000 kernels the moment InitializeInjection returns, then exits. */
  suanli_test_run_cli (&record, "en", (const char *[]) { "record", "-o", output, "--", g_getenv ("SUANLI_CUPTI_JOB"),
                                                        "--launches", "3000", "--report", report_path, NULL });
  g_test_message ("record: %s", record.err);
  g_assert_cmpint (record.status, ==, 0);
  suanli_test_stream_read_file (&stream, output);
  g_assert_true (stream.header.flags & SUANLI_CAPTURE_FROM_LAUNCH);
  g_assert_true (json_parser_load_from_file (parser, report_path, NULL));
  per_name = json_object_get_object_member (json_node_get_object (json_parser_get_root (parser)), "per_name");
  names = json_object_get_members (per_name);
  for (GList *name = names; name != NULL; name = name->next)
    {
      g_test_message ("%s: %u of %" G_GINT64_FORMAT, (const char *) name->data, kernels_named (&stream, name->data),
                      json_object_get_int_member (per_name, name->data));
      g_assert_cmpint (kernels_named (&stream, name->data), ==, json_object_get_int_member (per_name, name->data));
    }
  g_list_free (names);
  g_assert_cmpuint (stream.kernels->len, ==, 3000);
  /* The job's driver, loaded RTLD_LOCAL as cudart loads it, answered for its two devices. */
  g_assert_cmpuint (stream.header.n_devices, ==, 2);
  summary = suanli_test_summary_json (output);
  g_assert_null (strstr (summary, "START"));
  g_unlink (output);
  g_unlink (report_path);
}

static void
test_attach_mode (void)
{
  g_autoptr(Job) job = suanli_test_job_start (NULL, NULL);
  g_autofree char *output = suanli_test_standin_path ("attached.suanli-capture");
  g_autoptr(GSubprocessLauncher) launcher = g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_NONE);
  g_autoptr(GSubprocess) record = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonObject) during = NULL;
  g_auto(Stream) stream = { 0 };
  g_autofree char *summary = NULL;

  suanli_test_job_do (job, "launch 100");   /* before START: none of these are captured */
  g_subprocess_launcher_set_child_setup (launcher, suanli_test_dies_with_test, NULL, NULL);
  record = g_subprocess_launcher_spawn (launcher, &error, g_getenv ("SUANLI_CLI"), "record", "--attach", job->pid,
                                        "-o", output, NULL);
  g_assert_no_error (error);
  suanli_test_await (cupti_is_on, job);
  during = suanli_test_job_ask (job, "launch 300");
  g_subprocess_send_signal (record, SIGINT);
  g_assert_true (g_subprocess_wait_check (record, NULL, &error));
  g_assert_no_error (error);
  suanli_test_stream_read_file (&stream, output);
  g_assert_false (stream.header.flags & SUANLI_CAPTURE_FROM_LAUNCH);
  g_assert_cmpuint (stream.kernels->len, ==, 300);
  summary = suanli_test_summary_json (output);
  g_assert_nonnull (strstr (summary, "START"));
  suanli_test_job_exit (job);
  g_unlink (output);
}

/* ---- fault 3: no record dropped at 100,000 launches a second from deep stacks, libtorch loaded ------ */

static void
test_no_drops_deep_stacks (void)
{
  static const char * const options[] = { "--torch", "--depth", "40", "--rate", "100000", NULL };
  g_autoptr(Job) job = suanli_test_job_start (options, NULL);
  g_autoptr(JsonObject) launched = NULL;
  g_autoptr(Capture) capture = suanli_test_job_capture_command (job, "launch 300000", &launched);
  g_autofree char *output = suanli_test_standin_path ("deep.suanli-capture");
  g_autoptr(SuanliTrace) trace = suanli_trace_new ();
  g_autoptr(GFile) file = NULL;
  g_autoptr(GError) error = NULL;
  SuanliImportStats stats = { 0 };
  guint kernels = 0, without = 0, stacked = 0;
  const char *example = NULL;

  g_assert_cmpint (json_object_get_int_member (launched, "launched"), ==, 300000);
  g_assert_cmpint (json_object_get_int_member (launched, "dropped"), ==, 0);
  g_assert_true (capture->stream.ended);
  g_assert_cmpuint (capture->stream.drop_records, ==, 0);
  g_assert_cmpuint (capture->stream.end.dropped, ==, 0);
  g_assert_cmpuint (capture->stream.kernels->len, ==, 300000);
  for (guint i = 0; i < capture->stream.kernels->len; i++)
    stacked += suanli_test_stream_has_stack (&capture->stream,
                                             &g_array_index (capture->stream.kernels, SuanliCaptureKernel, i));
  g_test_message ("%u of the 300000 kernels came with their launch's stack", stacked);
  g_assert_cmpuint (stacked, ==, 300000);

  /* Every kernel has its launch's stack, named down to the job's own functions. */
  suanli_test_capture_save (capture, output);
  file = g_file_new_for_path (output);
  g_assert_true (suanli_import_file (trace, file, &stats, NULL, &error));
  g_assert_no_error (error);
  suanli_import_stats_clear (&stats);
  for (guint t = 0; t < suanli_trace_get_n_tracks (trace); t++)
    {
      SuanliTrack *track = suanli_trace_get_track (trace, t);

      for (guint s = 0; track->kind == SUANLI_TRACK_GPU_STREAM && s < track->slices->len; s++)
        {
          const SuanliSlice *slice = &g_array_index (track->slices, SuanliSlice, s);
          const SuanliArg *args = suanli_trace_get_args (trace, slice);
          const char *stack = NULL;

          for (guint a = 0; a < slice->n_args; a++)
            if (g_str_equal (suanli_trace_get_string (trace, args[a].key), "Call stack"))
              stack = suanli_trace_get_string (trace, args[a].s);
          kernels++;
          if (stack == NULL || strstr (stack, "cupti_job_descend") == NULL)
            without++;
          else
            example = stack;
        }
    }
  g_test_message ("%u kernels, %u without a stack naming cupti_job_descend; one stack:\n%s", kernels, without,
                  example != NULL ? example : "(none)");
  g_assert_cmpuint (kernels, ==, 300000);
  g_assert_cmpuint (without, ==, 0);
  suanli_test_job_exit (job);
  g_unlink (output);
}

/* ---- fault 4: which libcupti ------------------------------------------------------------------------ */

/* A job that loaded none: SUANLI_CUPTI_PATH is the one, before any other on the machine. */
static void
test_cupti_path_first (void)
{
  g_autofree char *setting = g_strdup_printf ("SUANLI_CUPTI_PATH=%s", g_getenv ("FAKE_CUPTI_LIBRARY"));
  g_autoptr(Job) job = suanli_test_job_start ((const char *[]) { "--no-cupti", NULL }, (const char *[]) { setting, NULL });
  g_autoptr(Capture) capture = suanli_test_job_capture_command (job, "launch 50", NULL);
  g_autoptr(GPtrArray) mapped = suanli_test_job_cupti_mappings (job);

  g_assert_cmpuint (capture->stream.kernels->len, ==, 50);
  for (guint i = 0; i < mapped->len; i++)
    g_test_message ("mapped: %s", (const char *) g_ptr_array_index (mapped, i));
  g_assert_cmpuint (mapped->len, ==, 1);
  g_assert_cmpstr (g_ptr_array_index (mapped, 0), ==, g_getenv ("FAKE_CUPTI_LIBRARY"));
  suanli_test_job_exit (job);
}

/* The job's own copy is used, and no second one is loaded, whatever else there is to find. */
static void
test_loaded_copy_used (void)
{
  g_autofree char *folder = suanli_test_standin_path ("second-cupti");
  g_autofree char *copy = g_build_filename (folder, "libcupti.so.13", NULL);
  g_autofree char *setting = g_strdup_printf ("SUANLI_CUPTI_PATH=%s", copy);
  g_autofree char *contents = NULL;
  gsize length;
  g_autoptr(Job) job = NULL;
  g_autoptr(Capture) capture = NULL;
  g_autoptr(GPtrArray) mapped = NULL;

  g_assert_cmpint (g_mkdir_with_parents (folder, 0700), ==, 0);
  g_assert_true (g_file_get_contents (g_getenv ("FAKE_CUPTI_LIBRARY"), &contents, &length, NULL));
  g_assert_true (g_file_set_contents (copy, contents, (gssize) length, NULL));
  job = suanli_test_job_start (NULL, (const char *[]) { setting, NULL });
  capture = suanli_test_job_capture_command (job, "launch 50", NULL);
  mapped = suanli_test_job_cupti_mappings (job);
  g_assert_cmpuint (capture->stream.kernels->len, ==, 50);
  for (guint i = 0; i < mapped->len; i++)
    g_test_message ("mapped: %s", (const char *) g_ptr_array_index (mapped, i));
  g_assert_cmpuint (mapped->len, ==, 1);
  g_assert_cmpstr (g_ptr_array_index (mapped, 0), ==, g_getenv ("FAKE_CUPTI_LIBRARY"));
  suanli_test_job_exit (job);
  g_unlink (copy);
  g_rmdir (folder);
}

/* None loaded, none to be found (the toolkits named point at an empty folder, the machine's own
 * is said to be none, and the loader's search has no folder with one): a clear START error. */
static void
test_no_cupti_to_find (void)
{
  g_autofree char *empty = suanli_test_standin_path ("no-cuda");
  g_autofree char *missing = g_build_filename (empty, "lib64", "libcupti.so.13", NULL);
  g_autofree char *setting = g_strdup_printf ("SUANLI_CUPTI_PATH=%s", missing);
  g_autofree char *home = g_strdup_printf ("CUDA_HOME=%s", empty);
  g_autofree char *cuda_path = g_strdup_printf ("CUDA_PATH=%s", empty);
  g_autoptr(Job) job = NULL;
  g_autofree char *refusal = NULL;
  g_autoptr(GPtrArray) mapped = NULL;

  g_assert_cmpint (g_mkdir_with_parents (empty, 0700), ==, 0);
  job = suanli_test_job_start ((const char *[]) { "--no-cupti", NULL },
                               (const char *[]) { setting, home, cuda_path, "SUANLI_CUDA_DEFAULT_TOOLKIT=",
                                                  "LD_LIBRARY_PATH=", NULL });
  refusal = suanli_test_job_start_refused (job);
  mapped = suanli_test_job_cupti_mappings (job);
  if (mapped->len > 0)
    {
      /* The loader's own search is the last place looked (ld.so.cache may name the system's
       * CUPTI, as on a machine with CUDA installed): then that one, and never one from the empty
       * toolkit, was loaded and refused the capture in its own words. */
      g_test_message ("the loader found %s", (const char *) g_ptr_array_index (mapped, 0));
      g_assert_cmpuint (mapped->len, ==, 1);
      g_assert_false (g_str_has_prefix (g_ptr_array_index (mapped, 0), empty));
      g_assert_nonnull (strstr (refusal, "CUPTI"));
    }
  else
    {
      g_assert_nonnull (strstr (refusal, "libcupti"));
      g_assert_nonnull (strstr (refusal, missing));
    }
  suanli_test_job_exit (job);
  g_rmdir (empty);
}

/* A copy of the stand-in libcupti at @relative under @folder. Returns its path. */
static char *
place_cupti (const char *folder,
             const char *relative)
{
  return suanli_test_copy_file (g_getenv ("FAKE_CUPTI_LIBRARY"), folder, relative);
}

/* A job without libcupti (with @arguments and @environment) captures 20 launches through the one at
 * @cupti, and no other is mapped. */
static void
assert_cupti_found (const char * const *arguments,
                    const char * const *environment,
                    const char         *cupti)
{
  g_autoptr(Job) job = suanli_test_job_start (arguments, environment);
  g_autoptr(Capture) capture = suanli_test_job_capture_command (job, "launch 20", NULL);
  g_autoptr(GPtrArray) mapped = suanli_test_job_cupti_mappings (job);

  g_assert_cmpuint (capture->stream.kernels->len, ==, 20);
  g_assert_cmpuint (mapped->len, ==, 1);
  g_assert_cmpstr (g_ptr_array_index (mapped, 0), ==, cupti);
  suanli_test_job_exit (job);
}

/* A job without libcupti, in whose toolkit (CUDA_HOME) CUPTI sits at @relative: that one is loaded. */
static void
toolkit_layout (const char *relative)
{
  g_autofree char *toolkit = suanli_test_standin_path ("toolkit");
  g_autofree char *cupti = place_cupti (toolkit, relative);
  g_autofree char *home = g_strdup_printf ("CUDA_HOME=%s", toolkit);

  assert_cupti_found ((const char *[]) { "--no-cupti", NULL }, (const char *[]) { home, NULL }, cupti);
  g_unlink (cupti);
}

static void
test_toolkit_lib64 (void)
{
  toolkit_layout ("lib64/libcupti.so.13");
}

static void
test_toolkit_extras (void)
{
  toolkit_layout ("extras/CUPTI/lib64/libcupti.so.13");
}

/* pip's nvidia/cu13 wheel as the toolkit: CUPTI in lib/. */
static void
test_toolkit_pip_lib (void)
{
  toolkit_layout ("lib/libcupti.so.13");
}

/* CUDA_HOME names a toolkit without CUPTI: the machine's own toolkit is still looked in. */
static void
test_toolkit_named_then_default (void)
{
  g_autofree char *named = suanli_test_standin_path ("named-toolkit");
  g_autofree char *machine = suanli_test_standin_path ("machine-toolkit");
  g_autofree char *cupti = place_cupti (machine, "lib64/libcupti.so.13");
  g_autofree char *home = g_strdup_printf ("CUDA_HOME=%s", named);
  g_autofree char *fallback = g_strdup_printf ("SUANLI_CUDA_DEFAULT_TOOLKIT=%s", machine);

  g_assert_cmpint (g_mkdir_with_parents (named, 0700), ==, 0);
  assert_cupti_found ((const char *[]) { "--no-cupti", NULL }, (const char *[]) { home, fallback, NULL }, cupti);
  g_unlink (cupti);
  g_rmdir (named);
}

/* A PyTorch job whose libraries come from a Python packages folder, libcupti not loaded yet: the
 * nvidia-cuda-cupti wheel beside them is found (before any toolkit: CUDA_HOME names an empty one). */
static void
test_wheel_layout (void)
{
  g_autofree char *packages = suanli_test_standin_path ("venv/lib/python3.12/site-packages");
  g_autofree char *empty = suanli_test_standin_path ("empty-toolkit");
  g_autofree char *cupti = place_cupti (packages, "nvidia/cu13/lib/libcupti.so.13");
  g_autofree char *torch_lib = g_build_filename (packages, "torch", "lib", NULL);
  /* Any shared library stands for torch's own: what matters is where it was loaded from. */
  g_autofree char *c10 = suanli_test_copy_file (g_getenv ("SUANLI_FAKE_CUDA"), torch_lib, "libc10_cuda.so");
  g_autofree char *home = g_strdup_printf ("CUDA_HOME=%s", empty);

  g_assert_cmpint (g_mkdir_with_parents (empty, 0700), ==, 0);
  assert_cupti_found ((const char *[]) { "--no-cupti", "--load", c10, NULL }, (const char *[]) { home, NULL }, cupti);
  g_unlink (cupti);
  g_unlink (c10);
}

/* ---- fault 5: Kineto in the same job ------------------------------------------------------------------ */

/* Kineto holds CUPTI when a capture starts: refused, and Kineto's capture goes on undisturbed. */
static void
kineto_first (const char *name)
{
  const char * const options[] = { "--kineto-init", name != NULL ? "--kineto-name" : NULL, name, NULL };
  g_autoptr(Job) job = suanli_test_job_start (options, NULL);
  g_autofree char *refusal = NULL;
  g_autoptr(JsonObject) state = NULL;
  g_autoptr(JsonObject) stopped = NULL;
  JsonObject *kineto;

  suanli_test_job_do (job, "kineto-start");
  refusal = suanli_test_job_start_refused (job);
  suanli_test_job_do (job, "launch 500");
  state = suanli_test_job_fake_state (job);
  stopped = suanli_test_job_ask (job, "kineto-stop");
  kineto = json_object_get_object_member (stopped, "kineto");
  /* Said so (CUPTI's words or the library's own), and who when the holder gave its name. */
  g_assert_nonnull (strstr (refusal, "CUPTI"));
  g_assert_true (strstr (refusal, "MULTIPLE_SUBSCRIBERS") != NULL || strstr (refusal, "another") != NULL);
  if (name != NULL)
    {
      g_autofree char *holder = g_strdup_printf ("CUPTI for %s", name);

      g_assert_nonnull (strstr (refusal, holder));
    }
  /* Kineto's subscriber and buffers are still its own, and it got every kernel and launch. */
  g_assert_true (json_object_get_boolean_member (state, "subscribed"));
  g_assert_true (json_object_get_boolean_member (state, "kineto_owns_buffers"));
  g_assert_cmpint (json_object_get_int_member (state, "finalized"), ==, 0);
  g_assert_cmpint (json_object_get_int_member (kineto, "kernels"), ==, 500);
  g_assert_cmpint (json_object_get_int_member (kineto, "api_records"), ==, 500);
  g_assert_cmpint (json_object_get_int_member (kineto, "unknown_buffers"), ==, 0);
  suanli_test_job_exit (job);
}

static void
test_kineto_first (void)
{
  kineto_first (NULL);   /* Kineto as it is: cuptiSubscribe, no name */
}

static void
test_kineto_first_named (void)
{
  kineto_first ("PyTorch Profiler");   /* a holder that gave cuptiSubscribe_v2 its name */
}

/* The Kineto after 2.11 (no subscription) starts while a capture runs: the capture ends with what
 * it had, saying why, and Kineto gets all that came after. */
static void
test_kineto_during_capture (void)
{
  g_autoptr(Job) job = suanli_test_job_start ((const char *[]) { "--kineto", "newer", NULL }, NULL);
  g_autoptr(Capture) capture = suanli_test_job_capture (job);
  KernelsSeen seen = { capture, 400 };
  g_autoptr(JsonObject) stopped = NULL;
  g_autofree char *output = suanli_test_standin_path ("taken.suanli-capture");
  g_autofree char *summary = NULL;
  g_autofree char *lowered = NULL;
  JsonObject *kineto;

  suanli_test_job_do (job, "launch 400");
  suanli_test_await (kernels_seen, &seen);
  suanli_test_job_do (job, "kineto-start");
  suanli_test_job_do (job, "launch 600");
  stopped = suanli_test_job_ask (job, "kineto-stop");
  kineto = json_object_get_object_member (stopped, "kineto");
  g_assert_cmpint (json_object_get_int_member (kineto, "kernels"), ==, 600);
  g_assert_cmpint (json_object_get_int_member (kineto, "api_records"), ==, 600);
  suanli_test_capture_finish (capture);
  g_assert_true (capture->stream.ended);
  g_assert_cmpuint (capture->stream.end.reason, ==, SUANLI_END_CUPTI_TAKEN);
  g_assert_cmpuint (capture->stream.kernels->len, ==, 400);
  suanli_test_capture_save (capture, output);
  summary = suanli_test_summary_json (output);
  lowered = g_ascii_strdown (summary, -1);
  g_assert_nonnull (strstr (lowered, "cupti"));
  g_assert_true (strstr (lowered, "took") != NULL || strstr (lowered, "taken") != NULL);
  suanli_test_job_exit (job);
  g_unlink (output);
}

/* torch.profiler starts while a capture runs, and traces for a while (the job launching all along):
 * the capture ends by itself, with what it had, saying why; Kineto gets all that came after. */
static void
test_kineto_takes_over (void)
{
  g_autoptr(Job) job = suanli_test_job_start ((const char *[]) { "--rate", "5000", "--kineto", "newer", NULL }, NULL);
  g_autoptr(Capture) capture = suanli_test_job_capture (job);
  KernelsSeen seen = { capture, 400 };
  g_autoptr(JsonObject) stopped = NULL;
  gint64 after = 0, give_up;

  suanli_test_job_do (job, "launch 400");
  suanli_test_await (kernels_seen, &seen);
  suanli_test_job_do (job, "kineto-start");
  give_up = g_get_monotonic_time () + (gint64) suanli_test_patience_ms () * 1000;
  while (!suanli_test_capture_closed (capture))
    {
      g_autoptr(JsonObject) launched = suanli_test_job_ask (job, "launch 1000");

      after += json_object_get_int_member (launched, "launched");
      if (g_get_monotonic_time () > give_up)
        g_error ("the capture went on for %u s after Kineto took CUPTI's buffers (%" G_GINT64_FORMAT " launches since)",
                 suanli_test_patience_ms () / 1000, after);
    }
  stopped = suanli_test_job_ask (job, "kineto-stop");
  g_test_message ("the capture ended by itself %" G_GINT64_FORMAT " launches after Kineto started", after);
  g_assert_cmpint (json_object_get_int_member (json_object_get_object_member (stopped, "kineto"), "kernels"), ==, after);
  g_assert_true (capture->stream.ended);
  g_assert_cmpuint (capture->stream.end.reason, ==, SUANLI_END_CUPTI_TAKEN);
  g_assert_cmpuint (capture->stream.kernels->len, ==, 400);
  suanli_test_job_exit (job);
}

/* ---- fault 6: teardown and exit ------------------------------------------------------------------------ */

static void
assert_idle (JsonObject *state,
             JsonObject *before)
{
  g_assert_false (json_object_get_boolean_member (state, "subscribed"));
  g_assert_cmpint (json_object_get_int_member (state, "runtime_callbacks"), ==, 0);
  g_assert_cmpint (json_object_get_int_member (state, "driver_callbacks"), ==, 0);
  g_assert_cmpint (json_object_get_int_member (state, "kinds"), ==, json_object_get_int_member (before, "kinds"));
  g_assert_cmpint (json_object_get_int_member (state, "runtime_api_records"), ==, 0);
  g_assert_cmpint (json_object_get_int_member (state, "driver_api_records"), ==, 0);
  g_assert_false (json_object_get_boolean_member (state, "callbacks_registered"));
  g_assert_cmpint (json_object_get_int_member (state, "buffers_held"), ==, 0);
}

static void
test_teardown (void)
{
  g_autoptr(Job) job = suanli_test_job_start (NULL, NULL);
  g_autoptr(JsonObject) before = suanli_test_job_fake_state (job);
  g_autoptr(JsonObject) after_first = NULL;
  g_autoptr(JsonObject) after_second = NULL;

  g_assert_cmpint (json_object_get_int_member (before, "kinds"), ==, 0);
  g_assert_false (json_object_get_boolean_member (before, "callbacks_registered"));
  for (guint round = 0; round < 2; round++)
    {
      g_autoptr(Capture) capture = suanli_test_job_capture_command (job, round == 0 ? "launch 100" : "launch 50", NULL);

      g_assert_true (capture->stream.ended);
      g_assert_cmpuint (capture->stream.kernels->len, ==, round == 0 ? 100 : 50);
      if (round == 0)
        after_first = suanli_test_job_fake_state (job);
      else
        after_second = suanli_test_job_fake_state (job);
    }
  assert_idle (after_first, before);
  assert_idle (after_second, before);
  g_assert_cmpint (json_object_get_int_member (after_first, "finalized"), >=, 1);
  g_assert_cmpint (json_object_get_int_member (after_second, "finalized"), >,
                   json_object_get_int_member (after_first, "finalized"));
  suanli_test_job_exit (job);
}

/* A collector that stops reading: the job still exits. */
static void
test_exit_collector_stalled (void)
{
  g_autoptr(Job) job = suanli_test_job_start (NULL, NULL);
  g_autoptr(GError) error = NULL;
  int fd = suanli_live_start (job->socket_path, &error);
  g_autoptr(JsonObject) launched = NULL;

  g_assert_no_error (error);
  launched = suanli_test_job_ask (job, "launch 200000");   /* far more than the socket takes unread */
  g_test_message ("the job exited %.2f s after it was told to, its collector reading nothing", suanli_test_job_exit (job));
  close (fd);
}

/* cuptiActivityFlushAll never returns (a device that does not answer): the job still exits. */
static void
test_exit_flush_hangs (void)
{
  g_autoptr(Job) job = suanli_test_job_start (NULL, NULL);
  g_autoptr(Capture) capture = suanli_test_job_capture (job);

  suanli_test_job_do (job, "launch 100");
  suanli_test_job_do (job, "flush-hang");
  g_test_message ("the job exited %.2f s after it was told to, CUPTI's flush hanging", suanli_test_job_exit (job));
  suanli_test_await (suanli_test_capture_closed, capture);
}

/* ---- fault 7: the smaller faults ------------------------------------------------------------------------ */

/* CUPTI runs out of buffers (a stream's kernels cannot finish, so no buffer comes back): the drops
 * are reported while capturing, and counted once. */
static void
test_drops_reported (void)
{
  g_autoptr(Job) job = suanli_test_job_start (NULL, NULL);
  g_autoptr(Capture) capture = suanli_test_job_capture (job);
  g_autoptr(JsonObject) launched = NULL;
  g_autoptr(JsonObject) state = NULL;
  gint64 dropped;

  suanli_test_job_do (job, "hold 9");
  launched = suanli_test_job_ask (job, "launch-until-dropped 9");
  suanli_test_job_do (job, "release 9");
  g_test_message ("%" G_GINT64_FORMAT " launches until the stand-in dropped records",
                  json_object_get_int_member (launched, "launched"));
  g_assert_cmpint (json_object_get_int_member (launched, "dropped"), >, 0);
  suanli_test_await (drops_reported, capture);   /* before STOP */
  state = suanli_test_job_fake_state (job);
  dropped = json_object_get_int_member (state, "records_dropped");
  suanli_test_capture_finish (capture);
  g_test_message ("the stand-in dropped %" G_GINT64_FORMAT " records; the capture's drop records say %" G_GUINT64_FORMAT
                  ", its end %" G_GUINT64_FORMAT, dropped, capture->stream.dropped, capture->stream.end.dropped);
  g_assert_true (capture->stream.ended);
  g_assert_cmpuint (capture->stream.dropped, ==, (guint64) dropped);
  g_assert_cmpuint (capture->stream.end.dropped, ==, (guint64) dropped);
  suanli_test_job_exit (job);
}

/* Kernels queued behind a long one (their stream held) for a dozen of the library's flush ticks:
 * each of them comes, with its times, once they have run. A forced flush meanwhile would hand
 * their records back unfinished, with no times, and lose them. */
static void
test_held_stream_kept (void)
{
  g_autoptr(Job) job = suanli_test_job_start (NULL, NULL);
  g_autoptr(Capture) capture = suanli_test_job_capture (job);
  guint timed = 0;

  suanli_test_job_do (job, "hold 9");
  suanli_test_job_do (job, "launch 20000 cudaLaunchKernel 9");
  suanli_test_job_await_flushes (job, NULL, 12);
  suanli_test_job_do (job, "release 9");
  suanli_test_capture_finish (capture);
  for (guint i = 0; i < capture->stream.kernels->len; i++)
    {
      const SuanliCaptureKernel *kernel = &g_array_index (capture->stream.kernels, SuanliCaptureKernel, i);

      timed += kernel->start != 0 && kernel->end >= kernel->start;
    }
  g_test_message ("%u kernels of 20000, %u with their times, %" G_GUINT64_FORMAT " dropped", capture->stream.kernels->len,
                  timed, capture->stream.dropped);
  g_assert_cmpuint (capture->stream.dropped, ==, 0);
  g_assert_cmpuint (capture->stream.kernels->len, ==, 20000);
  g_assert_cmpuint (timed, ==, 20000);
  suanli_test_job_exit (job);
}

static void
test_zero_timestamps (void)
{
  g_autoptr(Job) job = suanli_test_job_start (NULL, (const char *[]) { "FAKE_CUPTI_ZERO_TIMESTAMPS=4", NULL });
  g_autoptr(Capture) capture = suanli_test_job_capture_command (job, "launch 400", NULL);
  guint zeros = 0;

  for (guint i = 0; i < capture->stream.kernels->len; i++)
    {
      const SuanliCaptureKernel *kernel = &g_array_index (capture->stream.kernels, SuanliCaptureKernel, i);

      zeros += kernel->start == 0 || kernel->end == 0;
    }
  g_assert_cmpuint (zeros, ==, 0);
  g_assert_cmpuint (capture->stream.kernels->len, ==, 300);   /* every fourth had no times */
  /* Left out, and counted as drops: in the stream's drop records and in the end's total. */
  g_assert_cmpuint (capture->stream.dropped, ==, 100);
  g_assert_cmpuint (capture->stream.end.dropped, ==, 100);
  suanli_test_job_exit (job);
}

static void
test_thread_ids (void)
{
  g_autoptr(Job) job = suanli_test_job_start ((const char *[]) { "--threads", "3", NULL }, NULL);
  g_autoptr(Capture) capture = suanli_test_job_capture_command (job, "launch 300", NULL);
  g_autoptr(JsonObject) state = suanli_test_job_ask (job, "state");
  JsonArray *threads = json_object_get_array_member (state, "threads");
  g_autoptr(GHashTable) seen = g_hash_table_new (NULL, NULL);

  g_assert_cmpuint (capture->stream.apis->len, >=, 300);
  for (guint i = 0; i < capture->stream.apis->len; i++)
    {
      guint32 thread = g_array_index (capture->stream.apis, SuanliCaptureApi, i).thread;
      gboolean known = FALSE;

      for (guint t = 0; t < json_array_get_length (threads); t++)
        known = known || json_array_get_int_element (threads, t) == thread;
      if (!known)
        g_error ("an API call on thread %u, which is none of the job's (its OS thread ids)", thread);
      g_hash_table_add (seen, GUINT_TO_POINTER (thread));
    }
  g_assert_cmpuint (g_hash_table_size (seen), ==, 3);   /* the three launching threads */
  suanli_test_job_exit (job);
}

static void
test_api_names (void)
{
  g_autoptr(Job) job = suanli_test_job_start (NULL, NULL);
  g_autoptr(Capture) capture = suanli_test_job_capture (job);
  g_autoptr(JsonObject) state = NULL;
  guint runtime_named = 0, driver_named = 0;

  suanli_test_job_do (job, "launch 10 cudaLaunchKernel");
  suanli_test_job_do (job, "launch 10 cuLaunchKernel");
  state = suanli_test_job_fake_state (job);
  /* Only the callbacks that matter: not whole domains. */
  g_assert_cmpint (json_object_get_int_member (state, "runtime_callbacks"), <, RUNTIME_CBIDS / 2);
  g_assert_cmpint (json_object_get_int_member (state, "driver_callbacks"), <, DRIVER_CBIDS / 2);
  suanli_test_capture_finish (capture);
  for (guint i = 0; i < capture->stream.apis->len; i++)
    {
      const SuanliCaptureApi *api = &g_array_index (capture->stream.apis, SuanliCaptureApi, i);
      const char *name = suanli_test_stream_string (&capture->stream, api->name);

      g_assert_nonnull (name);
      if (api->domain == SUANLI_API_RUNTIME && (g_str_equal (name, "cudaLaunchKernel") ||
                                                g_str_equal (name, "cudaLaunchKernel_v7000")))
        runtime_named++;
      else if (api->domain == SUANLI_API_DRIVER && g_str_equal (name, "cuLaunchKernel"))
        driver_named++;
      else
        g_error ("an API call named \"%s\" (callback id %u)", name, api->callback_id);
    }
  g_assert_cmpuint (runtime_named, ==, 10);
  g_assert_cmpuint (driver_named, ==, 10);
  suanli_test_job_exit (job);
}

static void
test_stack_every_path (void)
{
  static const char * const launch_paths[] = {
    "cudaLaunchKernel", "cudaLaunchKernel_ptsz", "cudaLaunchKernelExC", "cudaLaunchKernelExC_ptsz",
    "cudaLaunchCooperativeKernel", "cudaLaunchCooperativeKernel_ptsz", "cuLaunchKernel", "cuLaunchKernel_ptsz",
    "cuLaunchKernelEx", "cuLaunchKernelEx_ptsz", "cuLaunchCooperativeKernel", "cuLaunchCooperativeKernel_ptsz",
  };
  static const char * const graph_paths[] = { "cudaGraphLaunch", "cuGraphLaunch" };
  g_autoptr(Job) job = suanli_test_job_start (NULL, NULL);
  g_autoptr(Capture) capture = suanli_test_job_capture (job);
  guint without[G_N_ELEMENTS (launch_paths) + G_N_ELEMENTS (graph_paths)] = { 0 };
  guint missing = 0;

  /* Each path on a stream of its own, 100 + its index. */
  for (guint p = 0; p < G_N_ELEMENTS (launch_paths) + G_N_ELEMENTS (graph_paths); p++)
    {
      guint n_launch = G_N_ELEMENTS (launch_paths);
      g_autofree char *command = p < n_launch ? g_strdup_printf ("launch 5 %s %u", launch_paths[p], 100 + p)
                                              : g_strdup_printf ("graph 3 %s %u", graph_paths[p - n_launch], 100 + p);

      suanli_test_job_do (job, command);
    }
  suanli_test_capture_finish (capture);
  g_assert_cmpuint (capture->stream.kernels->len, ==, 5 * G_N_ELEMENTS (launch_paths) + 3 * G_N_ELEMENTS (graph_paths));
  for (guint i = 0; i < capture->stream.kernels->len; i++)
    {
      const SuanliCaptureKernel *kernel = &g_array_index (capture->stream.kernels, SuanliCaptureKernel, i);

      g_assert_cmpuint (kernel->stream - 100, <, G_N_ELEMENTS (without));
      if (!suanli_test_stream_has_stack (&capture->stream, kernel))
        without[kernel->stream - 100]++;
    }
  for (guint p = 0; p < G_N_ELEMENTS (without); p++)
    if (without[p] > 0)
      {
        g_test_message ("%s: %u kernels without their launch's stack",
                        p < G_N_ELEMENTS (launch_paths) ? launch_paths[p] : graph_paths[p - G_N_ELEMENTS (launch_paths)],
                        without[p]);
        missing += without[p];
      }
  g_assert_cmpuint (missing, ==, 0);
  suanli_test_job_exit (job);
}

static void
test_graph_nodes (void)
{
  g_autoptr(Job) job = suanli_test_job_start (NULL, NULL);
  g_autoptr(JsonObject) graph = NULL;
  g_autoptr(Capture) capture = suanli_test_job_capture_command (job, "graph 5", &graph);
  JsonArray *nodes = json_object_get_array_member (graph, "nodes");
  guint found = 0;

  for (guint i = 0; i < capture->stream.kernels->len; i++)
    {
      const SuanliCaptureKernel *kernel = &g_array_index (capture->stream.kernels, SuanliCaptureKernel, i);

      g_assert_cmpint (kernel->graph, ==, json_object_get_int_member (graph, "graph"));
      g_assert_cmpint (kernel->correlation, ==, json_object_get_int_member (graph, "correlation"));
      for (guint n = 0; n < json_array_get_length (nodes); n++)
        found += (gint64) kernel->graph_node == json_array_get_int_element (nodes, n);
    }
  g_assert_cmpuint (capture->stream.kernels->len, ==, 5);
  g_assert_cmpuint (found, ==, 5);
  suanli_test_job_exit (job);
}

static void
test_newer_cupti_refused (void)
{
  g_autoptr(Job) job = suanli_test_job_start (NULL, (const char *[]) { "FAKE_CUPTI_VERSION=140000", NULL });
  g_autofree char *refusal = suanli_test_job_start_refused (job);
  g_autoptr(JsonObject) state = suanli_test_job_fake_state (job);

  g_assert_nonnull (strstr (refusal, "CUPTI"));
  g_assert_true (strstr (refusal, "140000") != NULL || strstr (refusal, "14.0") != NULL);
  /* Refused before anything was switched on. */
  g_assert_false (json_object_get_boolean_member (state, "subscribed"));
  g_assert_cmpint (json_object_get_int_member (state, "kinds"), ==, 0);
  g_assert_false (json_object_get_boolean_member (state, "callbacks_registered"));
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
  g_test_add_func ("/live-standin/launch-mode", test_launch_mode);
  g_test_add_func ("/live-standin/attach-mode", test_attach_mode);
  g_test_add_func ("/live-standin/no-drops-deep-stacks", test_no_drops_deep_stacks);
  g_test_add_func ("/live-standin/cupti-path-first", test_cupti_path_first);
  g_test_add_func ("/live-standin/loaded-copy-used", test_loaded_copy_used);
  g_test_add_func ("/live-standin/no-cupti-to-find", test_no_cupti_to_find);
  g_test_add_func ("/live-standin/toolkit-lib64", test_toolkit_lib64);
  g_test_add_func ("/live-standin/toolkit-extras", test_toolkit_extras);
  g_test_add_func ("/live-standin/toolkit-pip-lib", test_toolkit_pip_lib);
  g_test_add_func ("/live-standin/toolkit-named-then-default", test_toolkit_named_then_default);
  g_test_add_func ("/live-standin/wheel-layout", test_wheel_layout);
  g_test_add_func ("/live-standin/kineto-first", test_kineto_first);
  g_test_add_func ("/live-standin/kineto-first-named", test_kineto_first_named);
  g_test_add_func ("/live-standin/kineto-during-capture", test_kineto_during_capture);
  g_test_add_func ("/live-standin/kineto-takes-over", test_kineto_takes_over);
  g_test_add_func ("/live-standin/teardown", test_teardown);
  g_test_add_func ("/live-standin/exit-collector-stalled", test_exit_collector_stalled);
  g_test_add_func ("/live-standin/exit-flush-hangs", test_exit_flush_hangs);
  g_test_add_func ("/live-standin/drops-reported", test_drops_reported);
  g_test_add_func ("/live-standin/held-stream-kept", test_held_stream_kept);
  g_test_add_func ("/live-standin/zero-timestamps", test_zero_timestamps);
  g_test_add_func ("/live-standin/thread-ids", test_thread_ids);
  g_test_add_func ("/live-standin/api-names", test_api_names);
  g_test_add_func ("/live-standin/stack-every-path", test_stack_every_path);
  g_test_add_func ("/live-standin/graph-nodes", test_graph_nodes);
  g_test_add_func ("/live-standin/newer-cupti-refused", test_newer_cupti_refused);
  status = g_test_run ();
  suanli_test_standin_end (runtime_dir);
  return status;
}
