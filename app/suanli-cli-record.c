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
#include <sys/prctl.h>
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

#define POLL_MS 20   /* how often launch mode looks for new CUDA processes of the command's */

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

/* ---- launch mode: every CUDA process the command starts ------------------------------------------ */

/* One process of the command's, found by its control socket, and its capture. */
typedef struct
{
  int      pid;
  char    *socket_path;
  gint64   seen_at;      /* when its socket was found (monotonic µs) */
  gboolean started;      /* START sent (or refused) */
  int      fd;           /* the capture's connection while it runs, else -1 */
  int      file;         /* a temporary file its stream goes to, else -1 */
  gint64   written;
} LaunchedJob;

static void
launched_job_free (gpointer data)
{
  LaunchedJob *job = data;

  if (job->fd >= 0)
    close (job->fd);
  if (job->file >= 0)
    close (job->file);
  g_free (job->socket_path);
  g_free (job);
}

/* Whether process @pid is @ancestor's child, or its child's, and so on down. */
static gboolean
descends_from (int pid,
               int ancestor)
{
  for (int depth = 0; depth < 256 && pid > 1; depth++)
    {
      g_autofree char *path = g_strdup_printf ("/proc/%d/stat", pid);
      g_autofree char *stat = NULL;
      const char *close_paren;
      int parent = 0;

      if (!g_file_get_contents (path, &stat, NULL, NULL) || (close_paren = strrchr (stat, ')')) == NULL ||
          sscanf (close_paren + 1, " %*c %d", &parent) != 1)
        return FALSE;
      if (parent == ancestor)
        return TRUE;
      pid = parent;
    }
  return FALSE;
}

/* New control sockets, in either folder jobs use, of processes the command started. */
static void
find_launched_jobs (GPtrArray *jobs)
{
  char folders[2][SUANLI_INJECT_SOCKET_DIR_SIZE], error[256];
  gboolean have[2];

  have[0] = suanli_inject_socket_dir (folders[0], sizeof folders[0], error, sizeof error) == 0;
  have[1] = suanli_inject_fallback_socket_dir (folders[1], sizeof folders[1]) == 0;
  for (guint f = 0; f < 2; f++)
    {
      g_autoptr(GDir) dir = have[f] ? g_dir_open (folders[f], 0, NULL) : NULL;
      const char *name;

      while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
        {
          int pid = atoi (name);
          gboolean known = FALSE;

          if (pid <= 1 || !g_str_has_suffix (name, ".sock"))
            continue;
          for (guint i = 0; i < jobs->len && !known; i++)
            known = ((LaunchedJob *) g_ptr_array_index (jobs, i))->pid == pid;
          if (!known && descends_from (pid, (int) getpid ()))
            {
              LaunchedJob *job = g_new0 (LaunchedJob, 1);

              job->pid = pid;
              job->socket_path = g_build_filename (folders[f], name, NULL);
              job->seen_at = g_get_monotonic_time ();
              job->fd = job->file = -1;
              g_ptr_array_add (jobs, job);
            }
        }
    }
}

/* START on @job (whose socket has been there for @delay_s): its stream goes to a temporary file. */
static void
start_launched_job (LaunchedJob *job,
                    double       delay_s)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *temporary = NULL;

  if (job->started || g_get_monotonic_time () < job->seen_at + (gint64) (delay_s * G_USEC_PER_SEC))
    return;
  if ((job->fd = suanli_live_start (job->socket_path, &error)) < 0)
    {
      /* Its socket is there a moment before it listens: tried again at the next look, while the
       * process lives. A refusal is its answer. */
      if ((g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CONNECTION_REFUSED) ||
           g_error_matches (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND)) && kill (job->pid, 0) == 0)
        return;
      job->started = TRUE;
      g_printerr ("suanli-cli record: process %d: %s\n", job->pid, error->message);
      return;
    }
  job->started = TRUE;
  if ((job->file = g_file_open_tmp ("suanli-record-XXXXXX", &temporary, &error)) >= 0)
    g_unlink (temporary);   /* kept open, gone once record is */
  else
    {
      g_printerr ("suanli-cli record: %s\n", error->message);
      close (job->fd);
      job->fd = -1;
      return;
    }
  g_printerr (_("suanli-cli record: capturing process %d\n"), job->pid);
}

/* What @job's connection has for us, into its file; its end when it closes. */
static void
read_launched_job (LaunchedJob *job,
                   char        *buffer,
                   gsize        size)
{
  ssize_t got = recv (job->fd, buffer, size, MSG_DONTWAIT);

  if (got < 0 && (errno == EINTR || errno == EAGAIN))
    return;
  if (got <= 0 || write (job->file, buffer, (size_t) got) != got)
    {
      close (job->fd);
      job->fd = -1;
      return;
    }
  job->written += got;
}

/* The command's processes and their captures, until the command has ended and so has every capture
 * (or Ctrl+C, or @duration_s: then STOP to each). @child's wait status in @child_status. */
static void
capture_launched (GPid       child,
                  GPtrArray *jobs,
                  double     duration_s,
                  double     delay_s,
                  int       *child_status)
{
  g_autofree char *buffer = g_malloc (1 << 16);
  gint64 deadline = duration_s > 0 ? g_get_monotonic_time () + (gint64) (duration_s * G_USEC_PER_SEC) : G_MAXINT64;
  gboolean child_done = FALSE, stopping = FALSE;

  for (;;)
    {
      struct pollfd readable[64];
      guint n = 0, open = 0, waiting = 0;
      int status, pid;

      while ((pid = waitpid (-1, &status, WNOHANG)) > 0)
        if (pid == child)
          child_done = TRUE, *child_status = status;
      if (!stopping && (interrupted || g_get_monotonic_time () >= deadline))
        {
          stopping = TRUE;
          for (guint i = 0; i < jobs->len; i++)
            if (((LaunchedJob *) g_ptr_array_index (jobs, i))->fd >= 0)
              send (((LaunchedJob *) g_ptr_array_index (jobs, i))->fd, "STOP\n", 5, MSG_NOSIGNAL);
        }
      if (!stopping)
        find_launched_jobs (jobs);
      for (guint i = 0; i < jobs->len; i++)
        {
          LaunchedJob *job = g_ptr_array_index (jobs, i);

          if (!stopping && !child_done)
            start_launched_job (job, delay_s);
          waiting += !job->started && !stopping && !child_done;
          if (job->fd >= 0)
            {
              open++;
              if (n < G_N_ELEMENTS (readable))
                readable[n++] = (struct pollfd) { job->fd, POLLIN, 0 };
            }
        }
      /* Done once the command has ended and every capture with it; its workers are its to wait for. */
      if (child_done && open == 0 && waiting == 0)
        break;
      if (poll (readable, n, POLL_MS) <= 0)
        continue;
      for (guint i = 0; i < jobs->len; i++)
        {
          LaunchedJob *job = g_ptr_array_index (jobs, i);

          for (guint k = 0; k < n; k++)
            if (job->fd >= 0 && readable[k].fd == job->fd && (readable[k].revents & (POLLIN | POLLHUP | POLLERR)) != 0)
              read_launched_job (job, buffer, 1 << 16);
        }
    }
}

/* The captures of @jobs, one after another, into @output_path (each stream opens as a group of its
 * own). Returns how many were written, or -1 with @error. */
static int
write_launched (GPtrArray   *jobs,
                const char  *output_path,
                gint64      *bytes,
                GError     **error)
{
  g_autoptr(GOutputStream) output = NULL;
  g_autofree char *buffer = g_malloc (1 << 16);
  gboolean ok = TRUE;
  int n = 0;

  *bytes = 0;
  for (guint i = 0; i < jobs->len; i++)
    n += ((LaunchedJob *) g_ptr_array_index (jobs, i))->written > 0;
  if (n == 0 || (output = suanli_cli_trace_open_output (output_path, error)) == NULL)
    return n == 0 ? 0 : -1;
  for (guint i = 0; i < jobs->len && ok; i++)
    {
      LaunchedJob *job = g_ptr_array_index (jobs, i);
      ssize_t got;

      if (job->written == 0 || lseek (job->file, 0, SEEK_SET) != 0)
        continue;
      while (ok && (got = read (job->file, buffer, 1 << 16)) > 0)
        {
          ok = g_output_stream_write_all (output, buffer, (gsize) got, NULL, NULL, error);
          *bytes += got;
        }
    }
  if (!suanli_cli_trace_close_output (output, ok, error))
    return -1;
  return n;
}

/* `record -- COMMAND`: the command runs profilable, and every process it starts that reaches
 * cuInit, however deep (torchrun's workers, a shell's), is captured from its launch (or @delay_s
 * after). record is their subreaper, so that what a shell leaves behind stays its descendant. */
static int
record_launch (char       **command,
               const char  *output_path,
               double       duration_s,
               double       delay_s,
               int          stack_depth)
{
  g_auto(GStrv) environment = profilable_environment ();
  g_autofree char *launcher = g_strdup_printf ("%d", (int) getpid ());
  g_autoptr(GPtrArray) jobs = g_ptr_array_new_with_free_func (launched_job_free);
  g_autoptr(GError) error = NULL;
  int child_status = 0, written;
  gint64 bytes = 0;
  GPid child;

  /* Without a delay each capture begins inside its process's cuInit, so nothing it does is missed:
   * the library waits for this process (its ancestor) to claim it. */
  if (delay_s <= 0)
    environment = g_environ_setenv (environment, "SUANLI_CAPTURE_FROM_LAUNCH", launcher, TRUE);
  if (stack_depth >= 0)
    {
      g_autofree char *depth = g_strdup_printf ("%d", stack_depth);

      environment = g_environ_setenv (environment, "SUANLI_STACK_DEPTH", depth, TRUE);
    }
  prctl (PR_SET_CHILD_SUBREAPER, 1);
  /* The command runs as it would without record, its standard input too. */
  if (!g_spawn_async (NULL, command, environment,
                      G_SPAWN_SEARCH_PATH | G_SPAWN_DO_NOT_REAP_CHILD | G_SPAWN_CHILD_INHERITS_STDIN, NULL, NULL,
                      &child, &error))
    {
      g_printerr ("suanli-cli record: %s\n", error->message);
      return SUANLI_EXIT_USAGE_OR_IO;
    }
  capture_launched (child, jobs, duration_s, delay_s, &child_status);
  g_spawn_close_pid (child);
  written = write_launched (jobs, output_path, &bytes, &error);
  if (written < 0)
    {
      g_printerr ("suanli-cli record: %s\n", error->message);
      return SUANLI_EXIT_USAGE_OR_IO;
    }
  if (written == 0)
    {
      g_printerr (_("suanli-cli record: no process of the command's was captured (none used CUDA, or every "
                    "START was refused): nothing written\n"));
      return SUANLI_EXIT_USAGE_OR_IO;
    }
  if (written == 1)
    g_printerr (_("Wrote %s (%.1f MB)\n"), output_path, (double) bytes / 1e6);
  else
    g_printerr (_("Wrote %s (%.1f MB, %d processes)\n"), output_path, (double) bytes / 1e6, written);
  /* The command's own exit status is ours. */
  return WIFEXITED (child_status) ? WEXITSTATUS (child_status) : 128 + WTERMSIG (child_status);
}

int
suanli_cli_record (int    argc,
                   char **argv)
{
  g_autofree char *output_path = NULL;
  double duration = 0, delay = 0;
  int attach = 0, stack_depth = -1;
  const GOptionEntry entries[] = {
    { "output", 'o', 0, G_OPTION_ARG_FILENAME, &output_path, N_("Write the capture here"), N_("OUT.suanli-capture") },
    { "attach", 0, 0, G_OPTION_ARG_INT, &attach, N_("Capture a running profilable job"), N_("PID") },
    { "duration", 0, 0, G_OPTION_ARG_DOUBLE, &duration, N_("Stop after this many seconds"), N_("S") },
    { "delay", 0, 0, G_OPTION_ARG_DOUBLE, &delay, N_("Start this many seconds after the job reaches CUDA"), N_("S") },
    { "stack-depth", 0, 0, G_OPTION_ARG_INT, &stack_depth,
      N_("Frames of each kernel launch's CPU stack, 0 to 32 (0: no stacks, the least overhead; default 32)"), N_("N") },
    { NULL }
  };
  g_autoptr(GOptionContext) context = g_option_context_new (N_("[-- COMMAND ARGUMENTS…]"));
  g_autoptr(GError) error = NULL;
  g_autoptr(GOutputStream) output = NULL;
  g_autofree char *socket_path = NULL;
  char **command = NULL;
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
      (attach > 0) == (command != NULL && command[0] != NULL) || stack_depth < -1 ||
      stack_depth > SUANLI_INJECT_MAX_STACK_DEPTH)
    {
      g_printerr ("suanli-cli record: %s\n", error != NULL ? error->message
                                                           : _("give -o OUT.suanli-capture and either --attach PID or -- COMMAND "
                                                             "(and --stack-depth from 0 to 32)"));
      return SUANLI_EXIT_USAGE_OR_IO;
    }
  signal (SIGINT, on_interrupt);
  if (command != NULL)
    return record_launch (command, output_path, duration, delay, stack_depth);
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
    return SUANLI_EXIT_USAGE_OR_IO;
  if (delay > 0)
    g_usleep ((gulong) (delay * G_USEC_PER_SEC));
  if ((fd = suanli_live_start_with_stacks (socket_path, stack_depth, &error)) < 0)
    {
      g_printerr ("suanli-cli record: %s\n", error->message);
      return SUANLI_EXIT_USAGE_OR_IO;
    }
  output = suanli_cli_trace_open_output (output_path, &error);
  if (output == NULL ||
      !suanli_cli_trace_close_output (output, (written = copy_capture (fd, output, duration, &error)) >= 0, &error))
    {
      g_printerr ("suanli-cli record: %s\n", error->message);
      close (fd);
      return SUANLI_EXIT_USAGE_OR_IO;
    }
  close (fd);
  g_printerr (_("Wrote %s (%.1f MB)\n"), output_path, (double) written / 1e6);
  return SUANLI_EXIT_DONE;
}
