/* suanli-test-standin-job.c — the stand-in CUDA job (tests/standins/cupti-job.c), driven a line at a time
 *
 * The job answers each command with one line of JSON; every wait for it is for that line (or its
 * exit), within the suite's patience, never for a fixed time.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <signal.h>
#include <stdlib.h>
#include <glib/gstdio.h>
#include <string.h>
#include <sys/prctl.h>

#include "suanli-inject.h"
#include "suanli-test-standin-job.h"
#include "suanli-test-wait.h"

void
suanli_test_job_free (SuanliTestJob *job)
{
  if (!job->exited)
    {
      g_subprocess_force_exit (job->process);
      g_subprocess_wait (job->process, NULL, NULL);
    }
  g_object_unref (job->answers);
  g_object_unref (job->process);
  g_free (job->pid);
  g_free (job->socket_path);
  g_free (job);
}

typedef struct
{
  char    *line;
  gboolean done;
} LineRead;

static void
on_line (GObject      *source,
         GAsyncResult *result,
         gpointer      data)
{
  LineRead *read = data;

  read->line = g_data_input_stream_read_line_finish_utf8 (G_DATA_INPUT_STREAM (source), result, NULL, NULL);
  read->done = TRUE;
}

static gboolean
line_read (gpointer data)
{
  return ((LineRead *) data)->done;
}

/* The job's next line of JSON, parsed (the job must give one within the suite's patience). */
JsonObject *
suanli_test_job_answer (SuanliTestJob *job)
{
  LineRead read = { NULL, FALSE };
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) error = NULL;
  g_autofree char *line = NULL;

  g_data_input_stream_read_line_async (job->answers, G_PRIORITY_DEFAULT, NULL, on_line, &read);
  suanli_test_await (line_read, &read);
  line = read.line;
  if (line == NULL)
    g_error ("the job ended without answering");
  if (!json_parser_load_from_data (parser, line, -1, &error))
    g_error ("the job answered %s, not JSON: %s", line, error->message);
  if (json_object_has_member (json_node_get_object (json_parser_get_root (parser)), "error"))
    g_error ("the job answered %s", line);
  return json_object_ref (json_node_get_object (json_parser_get_root (parser)));
}

void
suanli_test_job_say (SuanliTestJob *job,
                     const char    *command)
{
  g_autofree char *line = g_strconcat (command, "\n", NULL);

  g_assert_true (g_output_stream_write_all (job->commands, line, strlen (line), NULL, NULL, NULL));
  g_assert_true (g_output_stream_flush (job->commands, NULL, NULL));
}

JsonObject *
suanli_test_job_ask (SuanliTestJob *job,
                     const char    *command)
{
  suanli_test_job_say (job, command);
  return suanli_test_job_answer (job);
}

/* A command whose answer says nothing the test needs (it must still be one line of JSON). */
void
suanli_test_job_do (SuanliTestJob *job,
                    const char    *command)
{
  json_object_unref (suanli_test_job_ask (job, command));
}

/* In the child: it dies with the test, so that a test that fails while a job hangs (the very
 * fault some cases look for) does not leave the job holding the suite's output open. */
void
suanli_test_dies_with_test (gpointer data)
{
  prctl (PR_SET_PDEATHSIG, SIGKILL);
}

/* An interactive cupti-job with @arguments and @environment (NAME=VALUE, NULL-terminated; either
 * may be NULL), the injection library in its CUDA_INJECTION64_PATH; back once it is past cuInit. */
SuanliTestJob *
suanli_test_job_start (const char * const *arguments,
                       const char * const *environment)
{
  g_autoptr(GSubprocessLauncher) launcher = g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDIN_PIPE |
                                                                      G_SUBPROCESS_FLAGS_STDOUT_PIPE);
  g_autoptr(GPtrArray) argv = g_ptr_array_new ();
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonObject) ready = NULL;
  SuanliTestJob *job = g_new0 (SuanliTestJob, 1);

  g_subprocess_launcher_set_child_setup (launcher, suanli_test_dies_with_test, NULL, NULL);
  g_subprocess_launcher_setenv (launcher, "CUDA_INJECTION64_PATH", g_getenv ("SUANLI_INJECT_LIBRARY"), TRUE);
  for (guint i = 0; environment != NULL && environment[i] != NULL; i++)
    {
      g_auto(GStrv) pair = g_strsplit (environment[i], "=", 2);

      g_subprocess_launcher_setenv (launcher, pair[0], pair[1], TRUE);
    }
  g_ptr_array_add (argv, (char *) g_getenv ("SUANLI_CUPTI_JOB"));
  g_ptr_array_add (argv, "--interactive");
  for (guint i = 0; arguments != NULL && arguments[i] != NULL; i++)
    g_ptr_array_add (argv, (char *) arguments[i]);
  g_ptr_array_add (argv, NULL);
  job->process = g_subprocess_launcher_spawnv (launcher, (const char * const *) argv->pdata, &error);
  g_assert_no_error (error);
  job->answers = g_data_input_stream_new (g_subprocess_get_stdout_pipe (job->process));
  job->commands = g_subprocess_get_stdin_pipe (job->process);
  job->pid = g_strdup (g_subprocess_get_identifier (job->process));
  {
    char path[256], message[256];

    if (suanli_inject_socket_path (path, sizeof path, atoi (job->pid), message, sizeof message) != 0)
      g_error ("no socket path for the job: %s", message);
    job->socket_path = g_strdup (path);
  }
  ready = suanli_test_job_answer (job);
  g_assert_true (json_object_get_boolean_member (ready, "ready"));
  g_assert_true (g_file_test (job->socket_path, G_FILE_TEST_EXISTS));
  return job;
}

gboolean
suanli_test_job_exited (gpointer data)
{
  SuanliTestJob *job = data;

  if (!job->exited && g_subprocess_get_identifier (job->process) == NULL)
    job->exited = TRUE;
  return job->exited;
}

static void
on_job_exit (GObject      *source,
             GAsyncResult *result,
             gpointer      data)
{
  g_subprocess_wait_finish (G_SUBPROCESS (source), result, NULL);
}

/* Tells the job to exit and waits for it to be gone: its exit must not hang. Returns how long it took. */
double
suanli_test_job_exit (SuanliTestJob *job)
{
  gint64 start = g_get_monotonic_time ();

  g_subprocess_wait_async (job->process, NULL, on_job_exit, NULL);
  suanli_test_job_say (job, "exit");
  suanli_test_await (suanli_test_job_exited, job);
  g_assert_true (g_subprocess_get_if_exited (job->process));
  g_assert_cmpint (g_subprocess_get_exit_status (job->process), ==, 0);
  return (double) (g_get_monotonic_time () - start) / G_USEC_PER_SEC;
}

JsonObject *
suanli_test_job_fake_state (SuanliTestJob *job)
{
  g_autoptr(JsonObject) state = suanli_test_job_ask (job, "state");

  g_assert_true (json_object_has_member (state, "fake"));
  return json_object_ref (json_object_get_object_member (state, "fake"));
}

/* The paths of the libcupti copies mapped in the job. */
GPtrArray *
suanli_test_job_cupti_mappings (SuanliTestJob *job)
{
  g_autofree char *maps_path = g_strdup_printf ("/proc/%s/maps", job->pid);
  g_autofree char *maps = NULL;
  g_auto(GStrv) lines = NULL;
  GPtrArray *paths = g_ptr_array_new_with_free_func (g_free);

  g_assert_true (g_file_get_contents (maps_path, &maps, NULL, NULL));
  lines = g_strsplit (maps, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      const char *path = strchr (lines[i], '/');

      if (path != NULL && strstr (path, "libcupti") != NULL &&
          !g_ptr_array_find_with_equal_func (paths, path, g_str_equal, NULL))
        g_ptr_array_add (paths, g_strdup (path));
    }
  return paths;
}

/* START refused: the job's words, from its ERROR answer. */
char *
suanli_test_job_start_refused (SuanliTestJob *job)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(SuanliTestCapture) capture = suanli_test_capture_start (job->socket_path, &error);

  if (capture != NULL)
    g_error ("START was taken, and should have been refused");
  g_test_message ("START refused: %s", error->message);
  return g_strdup (error->message);
}

SuanliTestCapture *
suanli_test_job_capture (SuanliTestJob *job)
{
  g_autoptr(GError) error = NULL;
  SuanliTestCapture *capture = suanli_test_capture_start (job->socket_path, &error);

  if (capture == NULL)
    g_error ("START was refused: %s", error->message);
  return capture;
}

/* START, @command to the job, then STOP and the stream to its end; the job's answer in @answer
 * (NULL: not wanted). */
SuanliTestCapture *
suanli_test_job_capture_command (SuanliTestJob *job,
                                 const char    *command,
                                 JsonObject   **answer)
{
  SuanliTestCapture *capture = suanli_test_job_capture (job);
  JsonObject *said = suanli_test_job_ask (job, command);

  suanli_test_capture_finish (capture);
  if (answer != NULL)
    *answer = said;
  else
    json_object_unref (said);
  return capture;
}

/* A condition: the stand-in has been flushed a given number of times more, or the capture ended. */
typedef struct
{
  SuanliTestJob     *job;
  gint64             flushes;
  SuanliTestCapture *capture;
} Flushed;

static gboolean
flushed (gpointer data)
{
  Flushed *wanted = data;
  g_autoptr(JsonObject) state = NULL;

  if (wanted->capture != NULL && suanli_test_capture_closed (wanted->capture))
    return TRUE;
  state = suanli_test_job_fake_state (wanted->job);
  return json_object_get_int_member (state, "flushes") >= wanted->flushes;
}

/* Until the library has flushed the stand-in @more times again (or @capture, when not NULL, ended:
 * a capture that ended flushes no more). */
void
suanli_test_job_await_flushes (SuanliTestJob     *job,
                               SuanliTestCapture *capture,
                               guint              more)
{
  g_autoptr(JsonObject) before = suanli_test_job_fake_state (job);
  Flushed later = { job, json_object_get_int_member (before, "flushes") + more, capture };

  suanli_test_await (flushed, &later);
}

/* A private folder for the jobs' sockets and the test's files, as XDG_RUNTIME_DIR. */
char *
suanli_test_standin_begin (void)
{
  char *folder = g_dir_make_tmp ("suanli-standin-XXXXXX", NULL);

  g_setenv ("XDG_RUNTIME_DIR", folder, TRUE);
  return folder;
}

void
suanli_test_standin_end (const char *folder)
{
  g_autofree char *sockets = g_build_filename (folder, "suanli", NULL);

  g_rmdir (sockets);
  g_rmdir (folder);
}

/* @name in the test's folder (XDG_RUNTIME_DIR, from suanli_test_standin_begin()). */
char *
suanli_test_standin_path (const char *name)
{
  return g_build_filename (g_getenv ("XDG_RUNTIME_DIR"), name, NULL);
}

/* A copy of the file @source at @relative under @folder. Returns its path. */
char *
suanli_test_copy_file (const char *source,
                       const char *folder,
                       const char *relative)
{
  char *path = g_build_filename (folder, relative, NULL);
  g_autofree char *parent = g_path_get_dirname (path);
  g_autofree char *contents = NULL;
  gsize length;

  g_assert_cmpint (g_mkdir_with_parents (parent, 0700), ==, 0);
  g_assert_true (g_file_get_contents (source, &contents, &length, NULL));
  g_assert_true (g_file_set_contents (path, contents, (gssize) length, NULL));
  return path;
}
