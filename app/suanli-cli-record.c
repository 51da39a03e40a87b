/* suanli-cli-record.c — `suanli-cli run`, `jobs` and `record`: profilable jobs and live captures
 *
 * run starts a command with the injection library in its environment (and captures nothing); jobs
 * lists this user's profilable jobs by asking each control socket for its STATUS; record captures
 * a job it launches, or one already running (--attach), into a *.suanli-capture file.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define _GNU_SOURCE   /* execvpe */
#include "config.h"

#include <errno.h>
#include <signal.h>
#include <poll.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>
#include <glib/gi18n.h>
#include <glib/gstdio.h>

#include "suanli-cli.h"
#include "suanli-cli-trace-io.h"
#include "suanli-inject.h"
#include "suanli-live-job.h"

#define WAIT_FOR_SOCKET_S 60   /* how long a launched job has to reach cuInit */

/* ---- the injection library ----------------------------------------------------------------------- */

/* The library to inject: SUANLI_INJECT_LIBRARY, else the one built beside this suanli-cli (an
 * uninstalled build), else the installed one. */
static char *
inject_library (void)
{
  const char *set = g_getenv ("SUANLI_INJECT_LIBRARY");
  g_autofree char *self = g_file_read_link ("/proc/self/exe", NULL);

  if (set != NULL && *set != '\0')
    return g_strdup (set);
  if (self != NULL)
    {
      g_autofree char *directory = g_path_get_dirname (self);
      char *built = g_build_filename (directory, "..", "profiler", "libsuanli-inject.so", NULL);

      if (g_file_test (built, G_FILE_TEST_EXISTS))
        return built;
      g_free (built);
    }
  return g_strdup (INJECT_LIBRARY_PATH);
}

/* The environment a job needs to be profilable: the driver loads the library at cuInit, and NVTX
 * loads it too (for its ranges) at the job's first NVTX call. Neither loads libcupti: only START
 * does. An NVTX injection the user set already (another tool's) is kept. */
static char **
profilable_environment (void)
{
  char **environment = g_get_environ ();
  g_autofree char *library = inject_library ();

  environment = g_environ_setenv (environment, "CUDA_INJECTION64_PATH", library, TRUE);
  environment = g_environ_setenv (environment, "NVTX_INJECTION64_PATH", library, FALSE);
  return environment;
}

/* ---- run ----------------------------------------------------------------------------------------- */

int
suanli_cli_run (int    argc,
                char **argv)
{
  g_auto(GStrv) environment = NULL;

  if (argc < 2 || !g_str_equal (argv[1], "--") || argc < 3)
    {
      g_printerr (_("Usage: suanli-cli run -- COMMAND [ARGUMENTS…]\n"));
      return SUANLI_EXIT_USAGE_OR_IO;
    }
  environment = profilable_environment ();
  /* Said before the exec, which keeps the process: its id is the job's. Quiet when asked to be. */
  if (g_strcmp0 (g_getenv ("SUANLI_QUIET"), "1") != 0)
    {
      char socket_path[128], error[256];

      if (suanli_inject_socket_path (socket_path, sizeof socket_path, getpid (), error, sizeof error) == 0)
        g_printerr (_("suanli-cli run: starting %s as process %d, profilable (CUDA_INJECTION64_PATH=%s). It appears in "
                      "“suanli-cli jobs” and the Live window once it initialises CUDA, listening on %s.\n"),
                    argv[2], (int) getpid (), g_environ_getenv (environment, "CUDA_INJECTION64_PATH"), socket_path);
      else
        g_printerr (_("suanli-cli run: starting %s as process %d; it cannot be captured: %s\n"), argv[2],
                    (int) getpid (), error);
    }
  execvpe (argv[2], argv + 2, environment);
  g_printerr (_("suanli-cli run: cannot start %s: %s\n"), argv[2], g_strerror (errno));
  return SUANLI_EXIT_USAGE_OR_IO;
}

/* ---- jobs ---------------------------------------------------------------------------------------- */

int
suanli_cli_jobs (int    argc,
                 char **argv)
{
  gboolean json = FALSE;
  const GOptionEntry entries[] = {
    { "json", 0, 0, G_OPTION_ARG_NONE, &json, N_("Print the jobs as a JSON array"), NULL },
    { NULL }
  };
  g_autoptr(GOptionContext) context = g_option_context_new (NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) jobs = NULL;

  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);
  if (!g_option_context_parse (context, &argc, &argv, &error) || argc != 1)
    {
      g_printerr ("suanli-cli jobs: %s\n", error != NULL ? error->message : _("no arguments are taken"));
      return SUANLI_EXIT_USAGE_OR_IO;
    }
  if ((jobs = suanli_live_list_jobs (&error)) == NULL)
    {
      g_printerr ("suanli-cli jobs: %s\n", error->message);
      return SUANLI_EXIT_USAGE_OR_IO;
    }
  if (json)
    {
      g_autofree char *text = suanli_live_jobs_to_json (jobs);

      g_print ("%s\n", text);
      return SUANLI_EXIT_DONE;
    }
  if (jobs->len == 0)
    g_print (_("No profilable jobs: start one with “suanli-cli run -- COMMAND”.\n"));
  for (guint i = 0; i < jobs->len; i++)
    {
      SuanliLiveJob *job = g_ptr_array_index (jobs, i);

      g_print ("%8d  %-9s  rank %-3d  %s  %s\n", job->pid, job->state, job->rank, job->host, job->command);
    }
  return SUANLI_EXIT_DONE;
}

/* ---- record -------------------------------------------------------------------------------------- */

static volatile sig_atomic_t interrupted;

static void
on_interrupt (int signal)
{
  interrupted = 1;
}

/* Waits for @pid's socket to appear (the job reaching cuInit), or the job to end. */
static char *
wait_for_socket (GPid pid)
{
  char path[256], message[256];
  gint64 deadline = g_get_monotonic_time () + WAIT_FOR_SOCKET_S * G_USEC_PER_SEC;

  if (suanli_inject_socket_path (path, sizeof path, pid, message, sizeof message) != 0)
    {
      g_printerr ("suanli-cli record: %s\n", message);
      return NULL;
    }
  while (g_get_monotonic_time () < deadline && !interrupted)
    {
      int status;

      if (g_file_test (path, G_FILE_TEST_EXISTS))
        return g_strdup (path);
      if (waitpid (pid, &status, WNOHANG) == pid)
        {
          g_printerr (_("suanli-cli record: the command ended before it used CUDA: nothing to capture\n"));
          return NULL;
        }
      g_usleep (20000);
    }
  g_printerr (_("suanli-cli record: the command did not start CUDA within %d s\n"), WAIT_FOR_SOCKET_S);
  return NULL;
}

/* Copies the capture stream from @fd to @output until the job ends it (or @duration_s passes, or
 * Ctrl+C: then STOP, and the rest). Returns the bytes written, or -1 with @error. */
static gint64
copy_capture (int            fd,
              GOutputStream *output,
              double         duration_s,
              GError       **error)
{
  g_autofree char *buffer = g_malloc (1 << 16);
  gint64 deadline = duration_s > 0 ? g_get_monotonic_time () + (gint64) (duration_s * G_USEC_PER_SEC) : G_MAXINT64;
  gboolean stopped = FALSE;
  gint64 written = 0;

  for (;;)
    {
      struct pollfd readable = { fd, POLLIN, 0 };
      ssize_t got;

      if (!stopped && (interrupted || g_get_monotonic_time () >= deadline))
        {
          send (fd, "STOP\n", 5, MSG_NOSIGNAL);
          stopped = TRUE;
        }
      if (poll (&readable, 1, 100) <= 0)
        continue;
      got = recv (fd, buffer, 1 << 16, 0);
      if (got < 0 && errno == EINTR)
        continue;
      if (got <= 0)
        break;   /* the job ended the capture: STOP answered, or the job exited */
      if (!g_output_stream_write_all (output, buffer, (gsize) got, NULL, NULL, error))
        return -1;
      written += got;
    }
  return written;
}

int
suanli_cli_record (int    argc,
                   char **argv)
{
  g_autofree char *output_path = NULL;
  double duration = 0, delay = 0;
  int attach = 0, status = SUANLI_EXIT_DONE;
  const GOptionEntry entries[] = {
    { "output", 'o', 0, G_OPTION_ARG_FILENAME, &output_path, N_("Write the capture here"), N_("OUT.suanli-capture") },
    { "attach", 0, 0, G_OPTION_ARG_INT, &attach, N_("Capture a running profilable job"), N_("PID") },
    { "duration", 0, 0, G_OPTION_ARG_DOUBLE, &duration, N_("Stop after this many seconds"), N_("S") },
    { "delay", 0, 0, G_OPTION_ARG_DOUBLE, &delay, N_("Start this many seconds after the job reaches CUDA"), N_("S") },
    { NULL }
  };
  g_autoptr(GOptionContext) context = g_option_context_new (N_("[-- COMMAND ARGUMENTS…]"));
  g_autoptr(GError) error = NULL;
  g_autoptr(GOutputStream) output = NULL;
  g_autofree char *socket_path = NULL;
  char **command = NULL;
  GPid child = 0;
  gint64 written;
  int fd;

  /* Everything after "--" is the command, untouched by the option parser. */
  for (int i = 1; i < argc; i++)
    if (g_str_equal (argv[i], "--"))
      {
        command = argv + i + 1;
        argc = i;
        break;
      }
  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);
  if (!g_option_context_parse (context, &argc, &argv, &error) || argc != 1 || output_path == NULL ||
      (attach > 0) == (command != NULL && command[0] != NULL))
    {
      g_printerr ("suanli-cli record: %s\n", error != NULL ? error->message
                                                           : _("give -o OUT.suanli-capture and either --attach PID or -- COMMAND"));
      return SUANLI_EXIT_USAGE_OR_IO;
    }
  signal (SIGINT, on_interrupt);
  if (command != NULL)
    {
      g_auto(GStrv) environment = profilable_environment ();
      g_autofree char *launcher = g_strdup_printf ("%d", (int) getpid ());

      /* Without a delay the capture begins inside the job's cuInit, so nothing it does is missed:
       * the library waits for this process (its parent) to claim it. */
      if (delay <= 0)
        environment = g_environ_setenv (environment, "SUANLI_CAPTURE_FROM_LAUNCH", launcher, TRUE);
      /* The command runs as it would without record, its standard input too. */
      if (!g_spawn_async (NULL, command, environment,
                          G_SPAWN_SEARCH_PATH | G_SPAWN_DO_NOT_REAP_CHILD | G_SPAWN_CHILD_INHERITS_STDIN, NULL, NULL,
                          &child, &error))
        {
          g_printerr ("suanli-cli record: %s\n", error->message);
          return SUANLI_EXIT_USAGE_OR_IO;
        }
      socket_path = wait_for_socket (child);
    }
  else
    {
      char message[256];
      char path[256];

      if (suanli_inject_socket_path (path, sizeof path, attach, message, sizeof message) != 0)
        g_printerr ("suanli-cli record: %s\n", message);
      else if (!g_file_test (path, G_FILE_TEST_EXISTS))
        g_printerr (_("suanli-cli record: process %d is not profilable (no %s): start it with “suanli-cli run”\n"),
                    attach, path);
      else
        socket_path = g_strdup (path);
    }
  if (socket_path == NULL)
    {
      status = SUANLI_EXIT_USAGE_OR_IO;
      goto done;
    }
  if (delay > 0)
    g_usleep ((gulong) (delay * G_USEC_PER_SEC));
  if ((fd = suanli_live_start (socket_path, &error)) < 0)
    {
      g_printerr ("suanli-cli record: %s\n", error->message);
      status = SUANLI_EXIT_USAGE_OR_IO;
      goto done;
    }
  output = suanli_cli_trace_open_output (output_path, &error);
  if (output == NULL ||
      !suanli_cli_trace_close_output (output, (written = copy_capture (fd, output, duration, &error)) >= 0, &error))
    {
      g_printerr ("suanli-cli record: %s\n", error->message);
      close (fd);
      status = SUANLI_EXIT_USAGE_OR_IO;
      goto done;
    }
  close (fd);
  g_printerr (_("Wrote %s (%.1f MB)\n"), output_path, (double) written / 1e6);

done:
  if (child != 0)
    {
      int wait_status = 0;

      /* Launch mode: the command's own exit status is ours, once it ends. */
      if (waitpid (child, &wait_status, 0) == child && status == SUANLI_EXIT_DONE)
        status = WIFEXITED (wait_status) ? WEXITSTATUS (wait_status) : 128 + WTERMSIG (wait_status);
      g_spawn_close_pid (child);
    }
  return status;
}
