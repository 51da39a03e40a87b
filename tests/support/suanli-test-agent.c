/* suanli-test-agent.c — a real suanli-agent and fake profilable jobs, for the tests
 *
 * The jobs are tests/fake-job (SUANLI_FAKE_JOB): the injection library's control socket, queue and
 * writer, with records from the tests' generator. Their sockets go in $XDG_RUNTIME_DIR/suanli, and
 * the agent (SUANLI_AGENT) keeps its token in $XDG_CONFIG_HOME/suanli/agent-token: a test sets
 * both to folders of its own first.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <signal.h>
#include <string.h>
#include <sys/prctl.h>
#include <glib/gstdio.h>

#include "suanli-live-job.h"
#include "suanli-test-agent.h"
#include "suanli-test-wait.h"

/* Children die with the test, even when an assertion ends it: a failure must not hang the run. */
static void
die_with_parent (gpointer data)
{
  prctl (PR_SET_PDEATHSIG, SIGTERM);
}

static GSubprocessLauncher *
new_launcher (GSubprocessFlags flags)
{
  GSubprocessLauncher *launcher = g_subprocess_launcher_new (flags);

  g_subprocess_launcher_set_child_setup (launcher, die_with_parent, NULL, NULL);
  return launcher;
}

/* A condition: the job at this control socket (a char *) answers STATUS. The socket's file is
 * there a moment before the job listens on it. */
gboolean
suanli_test_job_answers (gpointer socket_path)
{
  g_autofree char *status = suanli_live_ask (socket_path, "STATUS\n", NULL, NULL);

  return status != NULL;
}

/* A profilable job making @count kernels at each START, for @seconds, as rank @rank. */
GSubprocess *
suanli_test_start_job (guint64 count,
           double  seconds,
           int     rank)
{
  g_autofree char *folder = g_build_filename (g_getenv ("XDG_RUNTIME_DIR"), "suanli", NULL);

  return suanli_test_start_job_in (folder, count, seconds, rank);
}

/* The same, for a job whose socket is to be in @socket_folder (as the environment makes it). */
GSubprocess *
suanli_test_start_job_in (const char *socket_folder,
                          guint64     count,
                          double      seconds,
                          int         rank)
{
  g_autoptr(GSubprocessLauncher) launcher = new_launcher (G_SUBPROCESS_FLAGS_NONE);
  g_autoptr(GError) error = NULL;
  g_autofree char *count_text = g_strdup_printf ("%" G_GUINT64_FORMAT, count);
  g_autofree char *seconds_text = g_strdup_printf ("%.1f", seconds);
  g_autofree char *rank_text = g_strdup_printf ("%d", rank);
  g_autofree char *socket_path = NULL;
  GSubprocess *job;

  g_subprocess_launcher_setenv (launcher, "RANK", rank_text, TRUE);
  g_subprocess_launcher_setenv (launcher, "LOCAL_RANK", rank_text, TRUE);
  g_subprocess_launcher_setenv (launcher, "WORLD_SIZE", "2", TRUE);
  job = g_subprocess_launcher_spawn (launcher, &error, g_getenv ("SUANLI_FAKE_JOB"), count_text, seconds_text, "0",
                                     NULL);
  g_assert_no_error (error);
  socket_path = g_strdup_printf ("%s/%s.sock", socket_folder, g_subprocess_get_identifier (job));
  suanli_test_await (suanli_test_job_answers, socket_path);
  return job;
}

void
suanli_test_stop_job (GSubprocess *job)
{
  g_subprocess_force_exit (job);
  g_subprocess_wait (job, NULL, NULL);
  g_object_unref (job);
}

static void
log_line_read (GObject      *source,
               GAsyncResult *result,
               gpointer      data)
{
  SuanliTestAgent *agent = data;
  g_autoptr(GError) error = NULL;
  g_autofree char *line = g_data_input_stream_read_line_finish_utf8 (G_DATA_INPUT_STREAM (source), result, NULL,
                                                                     &error);

  /* Cancelled: the agent (and @data with it) may be gone. */
  if (line == NULL || g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;
  g_string_append_printf (agent->log, "%s\n", line);
  g_data_input_stream_read_line_async (G_DATA_INPUT_STREAM (source), G_PRIORITY_DEFAULT, agent->log_cancellable,
                                       log_line_read, agent);
}

/* Starts suanli-agent on a free loopback port with @options (NULL-terminated) added. */
void
suanli_test_start_agent (SuanliTestAgent    *agent,
             const char * const *options)
{
  g_autoptr(GPtrArray) argv = g_ptr_array_new ();
  g_autoptr(GSubprocessLauncher) launcher = new_launcher (G_SUBPROCESS_FLAGS_STDOUT_PIPE | G_SUBPROCESS_FLAGS_STDERR_PIPE);
  g_autoptr(GError) error = NULL;
  g_autoptr(GDataInputStream) lines = NULL;
  g_autofree char *token_file = g_build_filename (g_getenv ("XDG_CONFIG_HOME"), "suanli", "agent-token", NULL);
  g_autofree char *token = NULL;

  g_ptr_array_add (argv, (gpointer) g_getenv ("SUANLI_AGENT"));
  g_ptr_array_add (argv, (gpointer) "--port=0");
  for (guint i = 0; options != NULL && options[i] != NULL; i++)
    g_ptr_array_add (argv, (gpointer) options[i]);
  g_ptr_array_add (argv, NULL);
  agent->process = g_subprocess_launcher_spawnv (launcher, (const char * const *) argv->pdata, &error);
  g_assert_no_error (error);
  agent->log = g_string_new (NULL);
  agent->log_cancellable = g_cancellable_new ();
  agent->log_lines = g_data_input_stream_new (g_subprocess_get_stderr_pipe (agent->process));
  g_data_input_stream_read_line_async (agent->log_lines, G_PRIORITY_DEFAULT, agent->log_cancellable, log_line_read,
                                       agent);
  lines = g_data_input_stream_new (g_subprocess_get_stdout_pipe (agent->process));
  /* The first start makes the token and says so; then it names the URL it listens on. */
  while (agent->port == 0)
    {
      g_autofree char *line = g_data_input_stream_read_line_utf8 (lines, NULL, NULL, &error);
      const char *url;

      g_assert_no_error (error);
      g_assert_nonnull (line);
      if ((url = strstr (line, "://127.0.0.1:")) != NULL)
        agent->port = (guint) g_ascii_strtoull (url + strlen ("://127.0.0.1:"), NULL, 10);
    }
  g_assert_true (g_file_get_contents (token_file, &token, NULL, NULL));
  agent->token = g_strstrip (g_steal_pointer (&token));
  agent->address = g_strdup_printf ("127.0.0.1:%u", agent->port);
}

static void
agent_exited (GObject      *source,
              GAsyncResult *result,
              gpointer      data)
{
  g_subprocess_wait_finish (G_SUBPROCESS (source), result, NULL);
  *(gboolean *) data = TRUE;
}

void
suanli_test_stop_agent (SuanliTestAgent *agent)
{
  if (agent->process != NULL)
    {
      gboolean exited = FALSE;

      g_subprocess_send_signal (agent->process, SIGTERM);
      /* Its log is read on the main loop until it is gone: a full pipe would keep it from quitting. */
      g_subprocess_wait_async (agent->process, NULL, agent_exited, &exited);
      while (!exited)
        g_main_context_iteration (NULL, TRUE);
      /* A clean exit: under the sanitizer build, LeakSanitizer found nothing. */
      g_assert_true (g_subprocess_get_if_exited (agent->process));
      g_assert_cmpint (g_subprocess_get_exit_status (agent->process), ==, 0);
    }
  g_clear_object (&agent->process);
  if (agent->log_cancellable != NULL)
    g_cancellable_cancel (agent->log_cancellable);
  g_clear_object (&agent->log_cancellable);
  g_clear_object (&agent->log_lines);
  if (agent->log != NULL)
    g_string_free (agent->log, TRUE);
  agent->log = NULL;
  g_clear_pointer (&agent->token, g_free);
  g_clear_pointer (&agent->address, g_free);
  agent->port = 0;
}

/* The kernels (GPU stream slices) of one group (one job's capture) of @trace. */
guint64
suanli_test_count_kernels (SuanliTrace *trace,
                           guint        group)
{
  guint64 count = 0;

  for (guint i = 0; i < suanli_trace_get_n_tracks (trace); i++)
    {
      SuanliTrack *track = suanli_trace_get_track (trace, i);

      if (track->group == group && track->kind == SUANLI_TRACK_GPU_STREAM)
        count += track->slices->len;
    }
  return count;
}

/* Removes @path and everything under it (a test's scratch folder; links are not followed). */
void
suanli_test_remove_tree (const char *path)
{
  g_autoptr(GDir) dir = g_dir_open (path, 0, NULL);
  const char *name;

  while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *child = g_build_filename (path, name, NULL);

      if (g_file_test (child, G_FILE_TEST_IS_DIR) && !g_file_test (child, G_FILE_TEST_IS_SYMLINK))
        suanli_test_remove_tree (child);
      else
        g_unlink (child);
    }
  g_rmdir (path);
}
