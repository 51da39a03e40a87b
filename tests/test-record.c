/* test-record.c — `suanli-cli run`, `jobs` and `record` with a real injected process (no GPU):
 * jobs are listed, another user's socket is not, and a capture that CUPTI cannot start fails
 * with CUPTI's words and leaves no file
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>
#include <glib.h>
#include <glib/gstdio.h>
#include <gio/gio.h>
#include <json-glib/json-glib.h>

#include <signal.h>

#include "suanli-capture.h"
#include "suanli-import.h"
#include "suanli-live-job.h"
#include "suanli-test-process.h"
#include "suanli-test-wait.h"

typedef SuanliTestRun Run;
G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (Run, suanli_test_run_clear)

static char *runtime_dir;

/* A profilable process: the harness with the library in CUDA_INJECTION64_PATH, living until killed. */
/* A condition: the job at this control socket (a char *) reports that a capture is under way. */
static gboolean
job_is_capturing (gpointer socket_path)
{
  g_autofree char *status = suanli_live_ask (socket_path, "STATUS\n", NULL, NULL);

  return status != NULL && strstr (status, "\"capturing\"") != NULL;
}

/* A condition: record's file being written (a hidden one whose name starts with @prefix, beside
 * its target in runtime_dir) holds more than its header: kernels are coming. */
static gboolean
kernels_are_written (gpointer prefix)
{
  g_autoptr(GDir) dir = g_dir_open (runtime_dir, 0, NULL);
  const char *name;

  while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
    if (g_str_has_prefix (name, prefix))
      {
        g_autofree char *path = g_build_filename (runtime_dir, name, NULL);
        GStatBuf info;

        if (g_stat (path, &info) == 0 && info.st_size > 64 * 1024)
          return TRUE;
      }
  return FALSE;
}

static GSubprocess *
start_job (char **socket_path)
{
  g_autoptr(GSubprocessLauncher) launcher = g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_NONE);
  g_autoptr(GError) error = NULL;
  GSubprocess *job;

  g_subprocess_launcher_setenv (launcher, "CUDA_INJECTION64_PATH", g_getenv ("SUANLI_INJECT_LIBRARY"), TRUE);
  g_subprocess_launcher_setenv (launcher, "SUANLI_QUIET", "1", TRUE);
  g_subprocess_launcher_setenv (launcher, "RANK", "2", TRUE);
  job = g_subprocess_launcher_spawn (launcher, &error, g_getenv ("SUANLI_INJECT_HARNESS"), "600", NULL);
  g_assert_no_error (error);
  *socket_path = g_strdup_printf ("%s/suanli/%s.sock", runtime_dir, g_subprocess_get_identifier (job));
  suanli_test_await (suanli_test_file_exists, *socket_path);
  return job;
}

static void
stop_job (GSubprocess *job)
{
  g_subprocess_force_exit (job);
  g_subprocess_wait (job, NULL, NULL);
}

static void
test_jobs (void)
{
  g_autofree char *socket_path = NULL;
  g_autoptr(GSubprocess) job = start_job (&socket_path);
  g_autofree char *stranger = g_strdup_printf ("%s/suanli/99999.sock", runtime_dir);
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_auto(Run) listed = { 0 };
  g_auto(Run) table = { 0 };
  gboolean found = FALSE;
  JsonArray *jobs;
  int stranger_fd = -1;

  /* Another user's job in the same folder (a socket owned by "nobody"): not to be listed. */
  if (getuid () == 0)
    {
      struct sockaddr_un address = { .sun_family = AF_UNIX };

      stranger_fd = socket (AF_UNIX, SOCK_STREAM, 0);
      g_strlcpy (address.sun_path, stranger, sizeof address.sun_path);
      g_assert_cmpint (bind (stranger_fd, (struct sockaddr *) &address, sizeof address), ==, 0);
      g_assert_cmpint (listen (stranger_fd, 1), ==, 0);
      g_assert_cmpint (chown (stranger, 65534, 65534), ==, 0);
    }
  else
    g_test_message ("not root: no socket of another user can be made here, so that part is not checked");

  suanli_test_run_cli (&listed, "en", (const char *[]) { "jobs", "--json", NULL });
  g_test_message ("%s%s", listed.out, listed.err);
  g_assert_cmpint (listed.status, ==, 0);
  g_assert_true (json_parser_load_from_data (parser, listed.out, -1, NULL));
  jobs = json_node_get_array (json_parser_get_root (parser));
  for (guint i = 0; i < json_array_get_length (jobs); i++)
    {
      JsonObject *item = json_array_get_object_element (jobs, i);
      gint64 pid = json_object_get_int_member (item, "pid");

      g_assert_cmpint (pid, !=, 99999);
      if (pid == g_ascii_strtoll (g_subprocess_get_identifier (job), NULL, 10))
        {
          found = TRUE;
          g_assert_cmpstr (json_object_get_string_member (item, "state"), ==, "idle");
          g_assert_cmpint (json_object_get_int_member (item, "rank"), ==, 2);
          g_assert_nonnull (strstr (json_object_get_string_member (item, "command"), "inject-harness"));
          g_assert_true (json_object_has_member (item, "host"));
          g_assert_true (json_object_has_member (item, "devices"));
        }
    }
  g_assert_true (found);
  suanli_test_run_cli (&table, "en", (const char *[]) { "jobs", NULL });
  g_assert_nonnull (strstr (table.out, "idle"));

  if (stranger_fd >= 0)
    {
      close (stranger_fd);
      g_unlink (stranger);
    }
  stop_job (job);
}

static void
test_record_refused (void)
{
  g_autofree char *socket_path = NULL;
  g_autoptr(GSubprocess) job = start_job (&socket_path);
  g_autofree char *output = g_build_filename (runtime_dir, "refused.suanli-capture", NULL);
  g_autofree char *pid = g_strdup (g_subprocess_get_identifier (job));
  g_auto(Run) attached = { 0 };
  g_auto(Run) stranger = { 0 };

  /* No GPU: the job refuses, in CUPTI's words; no file is left. */
  suanli_test_run_cli (&attached, "en", (const char *[]) { "record", "--attach", pid, "-o", output, "--duration", "1", NULL });
  g_test_message ("%s", attached.err);
  g_assert_cmpint (attached.status, ==, 1);
  g_assert_nonnull (strstr (attached.err, "refused"));
  g_assert_nonnull (strstr (attached.err, "CUPTI"));
  g_assert_false (g_file_test (output, G_FILE_TEST_EXISTS));

  /* A process that is not profilable: said so. */
  suanli_test_run_cli (&stranger, "en", (const char *[]) { "record", "--attach", "1", "-o", output, NULL });
  g_assert_cmpint (stranger.status, ==, 1);
  g_assert_nonnull (strstr (stranger.err, "not profilable"));
  stop_job (job);
}

/* Launch mode: the command starts profilable, reaches "cuInit" (the harness), and the capture it
 * cannot start is reported; the command itself runs to its end. */
static void
test_record_launch (void)
{
  g_autofree char *output = g_build_filename (runtime_dir, "launched.suanli-capture", NULL);
  g_auto(Run) launched = { 0 };
  g_auto(Run) run = { 0 };

  suanli_test_run_cli (&launched, "en", (const char *[]) { "record", "-o", output, "--", g_getenv ("SUANLI_INJECT_HARNESS"),
                                                          "1", NULL });
  g_test_message ("%s", launched.err);
  g_assert_cmpint (launched.status, ==, 1);
  g_assert_nonnull (strstr (launched.err, "CUPTI"));
  g_assert_false (g_file_test (output, G_FILE_TEST_EXISTS));

  /* run: the environment only, and the command's own exit status. */
  suanli_test_run_cli (&run, "en", (const char *[]) { "run", "--", "sh", "-c", "echo $CUDA_INJECTION64_PATH; exit 7", NULL });
  g_assert_cmpint (run.status, ==, 7);
  g_assert_true (g_str_has_suffix (g_strstrip (run.out), "libsuanli-inject.so"));
  g_assert_true (g_file_test (run.out, G_FILE_TEST_EXISTS));
  /* It says what it did: the job, its socket, and when the job appears. */
  g_assert_nonnull (strstr (run.err, "starting sh as process"));
  g_assert_nonnull (strstr (run.err, ".sock"));
  g_assert_nonnull (strstr (run.err, "once it initialises CUDA"));
}

/* ---- with records: a job whose source is the tests' generator ------------------------------------ */

static guint64
slices_in (const char *path)
{
  g_autoptr(SuanliTrace) trace = suanli_trace_new ();
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(GError) error = NULL;
  SuanliImportStats stats = { 0 };

  g_assert_true (suanli_import_file (trace, file, &stats, NULL, &error));
  g_assert_no_error (error);
  suanli_import_stats_clear (&stats);
  return suanli_trace_get_n_slices (trace);
}

/* Launch mode: capture until the command exits, and exit with its status. */
static void
test_record_until_exit (void)
{
  g_autofree char *output = g_build_filename (runtime_dir, "launched.suanli-capture", NULL);
  g_auto(Run) launched = { 0 };

  suanli_test_run_cli (&launched, "en", (const char *[]) { "record", "-o", output, "--", g_getenv ("SUANLI_FAKE_JOB"),
                                                          "50000", "3", "5", NULL });
  g_test_message ("%s", launched.err);
  g_assert_cmpint (launched.status, ==, 5);   /* the command's own */
  g_assert_cmpuint (slices_in (output), ==, 50000);
  g_unlink (output);
}

/* The header's flags of a capture file. */
static guint32
capture_flags (const char *path)
{
  g_autofree char *contents = NULL;
  SuanliCaptureHeader header;
  gsize length = 0, consumed = 0;

  g_assert_true (g_file_get_contents (path, &contents, &length, NULL));
  g_assert_cmpint (suanli_capture_read_header (contents, length, &header, &consumed), ==, SUANLI_CAPTURE_OK);
  return header.flags;
}

/* Launch mode begins the capture inside the job's cuInit: a job that is done before `record` has
 * even connected (it makes its kernels and exits at once) is still captured whole, and the file
 * says it holds the job from its launch. */
static void
test_record_short_job (void)
{
  g_autofree char *output = g_build_filename (runtime_dir, "short.suanli-capture", NULL);
  g_auto(Run) launched = { 0 };

  suanli_test_run_cli (&launched, "en", (const char *[]) { "record", "-o", output, "--", g_getenv ("SUANLI_FAKE_JOB"),
                                                          "2000", "0", "0", NULL });
  g_test_message ("%s", launched.err);
  g_assert_cmpint (launched.status, ==, 0);
  g_assert_cmpuint (slices_in (output), ==, 2000);
  g_assert_cmpuint (capture_flags (output) & SUANLI_CAPTURE_FROM_LAUNCH, !=, 0);
  g_unlink (output);
}

/* Attach mode: --duration, then Ctrl+C; each writes a capture that opens. */
static void
test_record_attached (void)
{
  g_autoptr(GSubprocess) job = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *socket_path = NULL;
  g_autofree char *timed = g_build_filename (runtime_dir, "timed.suanli-capture", NULL);
  g_autofree char *interrupted = g_build_filename (runtime_dir, "interrupted.suanli-capture", NULL);
  g_autofree char *terminated = g_build_filename (runtime_dir, "terminated.suanli-capture", NULL);
  GStatBuf info;
  g_auto(Run) attached = { 0 };

  job = g_subprocess_new (G_SUBPROCESS_FLAGS_NONE, &error, g_getenv ("SUANLI_FAKE_JOB"), "1000000", "60", "0", NULL);
  g_assert_no_error (error);
  socket_path = g_strdup_printf ("%s/suanli/%s.sock", runtime_dir, g_subprocess_get_identifier (job));
  suanli_test_await (suanli_test_file_exists, socket_path);

  /* One second of a job that makes 5,000 kernels every 100 ms: some, not all. */
  suanli_test_run_cli (&attached, "en", (const char *[]) { "record", "--attach", g_subprocess_get_identifier (job), "-o",
                                                          timed, "--duration", "1", NULL });
  g_test_message ("%s", attached.err);
  g_assert_cmpint (attached.status, ==, 0);
  {
    guint64 slices = slices_in (timed);

    g_test_message ("%" G_GUINT64_FORMAT " kernels in one second", slices);
    g_assert_cmpuint (slices, >, 0);
    g_assert_cmpuint (slices, <, 1000000);
    /* Attached: it holds what came after START, and says so. */
    g_assert_cmpuint (capture_flags (timed) & SUANLI_CAPTURE_FROM_LAUNCH, ==, 0);
  }

  /* Ctrl+C: STOP, the rest, a whole capture, and exit 0; the capture replaces a 0600 file and
   * keeps its mode. */
  g_assert_true (g_file_set_contents_full (interrupted, "old", -1, G_FILE_SET_CONTENTS_NONE, 0600, NULL));
  {
    g_autoptr(GSubprocessLauncher) launcher = g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDERR_PIPE);
    g_autoptr(GSubprocess) record = NULL;

    g_subprocess_launcher_setenv (launcher, "LC_ALL", "C.UTF-8", TRUE);
    record = g_subprocess_launcher_spawn (launcher, &error, g_getenv ("SUANLI_CLI"), "record", "--attach",
                                          g_subprocess_get_identifier (job), "-o", interrupted, NULL);
    g_assert_no_error (error);
    /* Ctrl+C once kernels are coming into the file, not before. */
    suanli_test_await (kernels_are_written, (gpointer) ".interrupted.suanli-capture.");
    g_subprocess_send_signal (record, SIGINT);
    g_assert_true (g_subprocess_wait (record, NULL, &error));
    g_assert_true (g_subprocess_get_if_exited (record));
    g_assert_cmpint (g_subprocess_get_exit_status (record), ==, 0);
    g_assert_cmpuint (slices_in (interrupted), >, 0);
    g_assert_cmpint (g_stat (interrupted, &info), ==, 0);
    g_assert_cmpint (info.st_mode & 0777, ==, 0600);
  }

  /* SIGTERM mid-capture: the command dies of it, the old file stays as it was, and no hidden
   * temporary file (ours, or GLib's .goutputstream-*) is left beside it. */
  g_assert_true (g_file_set_contents_full (terminated, "old", -1, G_FILE_SET_CONTENTS_NONE, 0600, NULL));
  {
    g_autoptr(GSubprocess) record = NULL;
    g_autofree char *contents = NULL;
    g_autoptr(GDir) dir = NULL;
    const char *name;

    record = g_subprocess_new (G_SUBPROCESS_FLAGS_STDERR_SILENCE, &error, g_getenv ("SUANLI_CLI"), "record", "--attach",
                               g_subprocess_get_identifier (job), "-o", terminated, NULL);
    g_assert_no_error (error);
    suanli_test_await (job_is_capturing, socket_path);
    g_subprocess_send_signal (record, SIGTERM);
    g_assert_true (g_subprocess_wait (record, NULL, &error));
    g_assert_true (g_subprocess_get_if_signaled (record));
    g_assert_cmpint (g_subprocess_get_term_sig (record), ==, SIGTERM);
    g_assert_true (g_file_get_contents (terminated, &contents, NULL, NULL));
    g_assert_cmpstr (contents, ==, "old");
    dir = g_dir_open (runtime_dir, 0, NULL);
    while ((name = g_dir_read_name (dir)) != NULL)
      if (name[0] == '.')
        g_error ("%s was left behind", name);
  }
  g_subprocess_force_exit (job);
  g_subprocess_wait (job, NULL, NULL);
  g_unlink (timed);
  g_unlink (interrupted);
  g_unlink (terminated);
}

int
main (int    argc,
      char **argv)
{
  int status;

  g_test_init (&argc, &argv, NULL);
  runtime_dir = g_dir_make_tmp ("suanli-record-XXXXXX", NULL);
  g_setenv ("XDG_RUNTIME_DIR", runtime_dir, TRUE);
  g_test_add_func ("/record/jobs", test_jobs);
  g_test_add_func ("/record/refused", test_record_refused);
  g_test_add_func ("/record/launch", test_record_launch);
  g_test_add_func ("/record/short-job", test_record_short_job);
  g_test_add_func ("/record/until-exit", test_record_until_exit);
  g_test_add_func ("/record/attached", test_record_attached);
  status = g_test_run ();
  {
    g_autofree char *folder = g_build_filename (runtime_dir, "suanli", NULL);

    g_rmdir (folder);
    g_rmdir (runtime_dir);
  }
  return status;
}
