/* suanli-live-job.c — a profilable job on this machine, as its control socket describes it
 *
 * Jobs are the sockets in the injection library's folder ($XDG_RUNTIME_DIR/suanli, or
 * /tmp/suanli-UID, or $HOME/.suanli-sockets while another user holds that) that belong to this
 * user; each answers STATUS with a line of JSON.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <errno.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>
#include <glib/gi18n.h>
#include <glib/gstdio.h>

#include "suanli-inject.h"
#include "suanli-live-job.h"
#include "suanli-json-depth.h"
#include "suanli-json-writer.h"

void
suanli_live_job_free (SuanliLiveJob *job)
{
  g_free (job->host);
  g_free (job->command);
  g_free (job->state);
  g_free (job->pid_namespace);
  g_free (job->socket_path);
  g_free (job->agent);
  g_free (job);
}

/* Returns: (transfer full): "host pid N rank R", the name a capture of @job gets in a trace. */
char *
suanli_live_job_describe (const SuanliLiveJob *job)
{
  return job->rank >= 0 ? g_strdup_printf ("%s pid %d rank %d", job->host, job->pid, job->rank)
                        : g_strdup_printf ("%s pid %d", job->host, job->pid);
}

static void
write_int (JsonBuilder *builder,
           const char  *name,
           gint64       value)
{
  json_builder_set_member_name (builder, name);
  json_builder_add_int_value (builder, value);
}

static void
write_string (JsonBuilder *builder,
              const char  *name,
              const char  *value)
{
  json_builder_set_member_name (builder, name);
  json_builder_add_string_value (builder, value != NULL ? value : "");
}

/* Adds @job as the JSON object `suanli-cli jobs --json` prints and an agent's /v1/jobs serves. */
void
suanli_live_job_write (const SuanliLiveJob *job,
                       JsonBuilder         *builder)
{
  json_builder_begin_object (builder);
  write_int (builder, "pid", job->pid);
  write_string (builder, "host", job->host);
  write_string (builder, "command", job->command);
  write_int (builder, "rank", job->rank);
  write_int (builder, "local_rank", job->local_rank);
  write_int (builder, "world_size", job->world_size);
  write_string (builder, "state", job->state);
  write_int (builder, "devices", job->devices);
  write_string (builder, "namespace", job->pid_namespace);
  json_builder_end_object (builder);
}

/* Returns: (transfer full): @jobs (of SuanliLiveJob) as a JSON array, pretty printed. */
char *
suanli_live_jobs_to_json (GPtrArray *jobs)
{
  g_autoptr(JsonBuilder) builder = json_builder_new ();

  json_builder_begin_array (builder);
  for (guint i = 0; i < jobs->len; i++)
    suanli_live_job_write (g_ptr_array_index (jobs, i), builder);
  json_builder_end_array (builder);
  /* Integers and strings only: this cannot fail. */
  return suanli_json_write_builder (builder, TRUE, NULL);
}

static gboolean
read_int (JsonObject  *object,
          const char  *name,
          int          minimum,
          int         *value,
          GError     **error)
{
  JsonNode *member = json_object_get_member (object, name);
  gint64 number;

  if (member == NULL || json_node_get_value_type (member) != G_TYPE_INT64 ||
      (number = json_node_get_int (member)) < minimum || number > G_MAXINT)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA, _("A job has no valid “%s”"), name);
      return FALSE;
    }
  *value = (int) number;
  return TRUE;
}

static char *
read_string (JsonObject *object,
             const char *name)
{
  JsonNode *member = json_object_get_member (object, name);

  if (member == NULL || json_node_get_value_type (member) != G_TYPE_STRING)
    return g_strdup ("");
  return g_utf8_make_valid (json_node_get_string (member), -1);
}

/**
 * suanli_live_job_read:
 * @node: one object of a jobs array, as suanli_live_job_write() makes them
 *
 * Returns: (transfer full) (nullable): the job, or NULL with @error naming the field at fault.
 */
SuanliLiveJob *
suanli_live_job_read (JsonNode  *node,
                      GError   **error)
{
  g_autoptr(SuanliLiveJob) job = g_new0 (SuanliLiveJob, 1);
  JsonObject *object;

  if (!JSON_NODE_HOLDS_OBJECT (node))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA, _("A job is not a JSON object"));
      return NULL;
    }
  object = json_node_get_object (node);
  if (!read_int (object, "pid", 1, &job->pid, error) || !read_int (object, "rank", -1, &job->rank, error) ||
      !read_int (object, "local_rank", -1, &job->local_rank, error) ||
      !read_int (object, "world_size", -1, &job->world_size, error) ||
      !read_int (object, "devices", 0, &job->devices, error))
    return NULL;
  job->host = read_string (object, "host");
  job->command = read_string (object, "command");
  job->state = read_string (object, "state");
  job->pid_namespace = read_string (object, "namespace");
  return g_steal_pointer (&job);
}

/**
 * suanli_live_ask:
 * @fd_out: (out) (optional): the connection, left open for the caller (a capture's stream); when
 *   NULL it is closed after the answer
 *
 * Sends @command to the job at @socket_path and reads one line of answer (within 5 s: a START
 * may wait on CUPTI's first set-up). Returns: (transfer full): the line, without its newline.
 */
char *
suanli_live_ask (const char  *socket_path,
                 const char  *command,
                 int         *fd_out,
                 GError     **error)
{
  struct sockaddr_un address = { .sun_family = AF_UNIX };
  struct timeval timeout = { 5, 0 };
  g_autoptr(GString) line = g_string_new (NULL);
  int fd = socket (AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  int saved;

  /* A path that does not fit is refused, never cut into another's. */
  if (strlen (socket_path) >= sizeof address.sun_path)
    {
      if (fd >= 0)
        close (fd);
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_FILENAME_TOO_LONG, _("%s is too long for a socket's path"),
                   socket_path);
      return NULL;
    }
  g_strlcpy (address.sun_path, socket_path, sizeof address.sun_path);
  /* A stopped job's backlog fills, and a Unix connect then waits for as long as the send timeout
   * lets it: not forever. */
  if (fd >= 0)
    setsockopt (fd, SOL_SOCKET, SO_SNDTIMEO, &timeout, sizeof timeout);
  if (fd < 0 || connect (fd, (struct sockaddr *) &address, sizeof address) != 0)
    goto failed;
  setsockopt (fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, sizeof timeout);
  if (send (fd, command, strlen (command), MSG_NOSIGNAL) < 0)
    goto failed;
  for (;;)
    {
      char c;
      ssize_t got = recv (fd, &c, 1, 0);

      if (got < 0 && errno == EINTR)
        continue;
      if (got <= 0 || line->len > 8192)
        {
          errno = got == 0 ? ECONNRESET : errno;
          goto failed;
        }
      if (c == '\n')
        break;
      g_string_append_c (line, c);
    }
  timeout.tv_sec = 0;
  setsockopt (fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, sizeof timeout);
  if (fd_out != NULL)
    *fd_out = fd;
  else
    close (fd);
  return g_string_free (g_steal_pointer (&line), FALSE);

failed:
  saved = errno;
  if (fd >= 0)
    close (fd);
  g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved), _("Cannot reach the job at %s: %s"), socket_path,
               g_strerror (saved));
  return NULL;
}

/**
 * suanli_live_start:
 *
 * Sends START to the job at @socket_path. Returns: the connection the capture stream then comes
 * on, or -1 with @error: the job cannot be reached, or refused (its reply, CUPTI's words, quoted).
 */
int
suanli_live_start (const char  *socket_path,
                   GError     **error)
{
  return suanli_live_start_with_stacks (socket_path, -1, error);
}

/**
 * suanli_live_start_with_stacks:
 * @stack_depth: frames each launch stack takes (0: none), or -1 for the job's own setting
 *
 * As suanli_live_start(), with launch stacks of @stack_depth frames.
 */
int
suanli_live_start_with_stacks (const char  *socket_path,
                               int          stack_depth,
                               GError     **error)
{
  int fd = -1;
  g_autofree char *command = stack_depth >= 0 ? g_strdup_printf ("START stack-depth=%d\n", stack_depth)
                                              : g_strdup ("START\n");
  g_autofree char *answer = suanli_live_ask (socket_path, command, &fd, error);

  if (answer == NULL)
    return -1;
  if (!g_str_equal (answer, "OK"))
    {
      close (fd);
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED, _("The job refused to start a capture: %s"),
                   g_str_has_prefix (answer, "ERROR ") ? answer + 6 : answer);
      return -1;
    }
  return fd;
}

/* A job's STATUS line, read as any job object is (suanli_live_job_read()). */
static SuanliLiveJob *
parse_status (const char *line,
              const char *socket_path)
{
  g_autoptr(JsonNode) root = suanli_json_check_depth (line, strlen (line), SUANLI_JSON_MAX_DEPTH, NULL)
                              ? json_from_string (line, NULL) : NULL;
  SuanliLiveJob *job = root != NULL ? suanli_live_job_read (root, NULL) : NULL;

  if (job != NULL)
    job->socket_path = g_strdup (socket_path);
  return job;
}

/**
 * suanli_live_list_jobs_in:
 * @folder: (nullable): where the jobs' sockets are (an agent may be given a container's); NULL for
 *   this user's own folders, as suanli_live_list_jobs() reads them
 *
 * Returns: (transfer full) (element-type SuanliLiveJob): this user's profilable jobs in @folder;
 * the sockets of jobs that have gone are removed on the way, and other users' are never read.
 */
GPtrArray *
suanli_live_list_jobs_in (const char *folder)
{
  GPtrArray *jobs;
  g_autoptr(GDir) dir = NULL;
  const char *name;

  if (folder == NULL)
    {
      jobs = suanli_live_list_jobs (NULL);
      return jobs != NULL ? jobs : g_ptr_array_new_with_free_func ((GDestroyNotify) suanli_live_job_free);
    }
  jobs = g_ptr_array_new_with_free_func ((GDestroyNotify) suanli_live_job_free);
  dir = g_dir_open (folder, 0, NULL);

  while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *path = g_build_filename (folder, name, NULL);
      g_autoptr(GError) failure = NULL;
      g_autofree char *line = NULL;
      SuanliLiveJob *job;
      GStatBuf info;

      if (!g_str_has_suffix (name, ".sock") || g_lstat (path, &info) != 0 || !S_ISSOCK (info.st_mode) ||
          info.st_uid != getuid ())
        continue;   /* not a job's socket, or another user's: not ours to read */
      line = suanli_live_ask (path, "STATUS\n", NULL, &failure);
      if (line == NULL)
        {
          if (g_error_matches (failure, G_IO_ERROR, G_IO_ERROR_CONNECTION_REFUSED))
            g_unlink (path);   /* its job is gone */
          continue;
        }
      if ((job = parse_status (line, path)) != NULL)
        g_ptr_array_add (jobs, job);
    }
  return jobs;
}

/**
 * suanli_live_list_jobs:
 *
 * Returns: (transfer full) (element-type SuanliLiveJob): this user's profilable jobs, from the
 * injection library's socket folder, and from $HOME/.suanli-sockets when that is there too (jobs
 * started while another user held /tmp/suanli-UID, which may since be gone).
 */
GPtrArray *
suanli_live_list_jobs (GError **error)
{
  char folder[256], message[256];
  GPtrArray *jobs;
  g_autoptr(GPtrArray) fallen_back = NULL;

  if (suanli_inject_socket_dir (folder, sizeof folder, message, sizeof message) != 0)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_PERMISSION_DENIED, "%s", message);
      return NULL;
    }
  jobs = suanli_live_list_jobs_in (folder);
  if (suanli_inject_fallback_socket_dir (folder, sizeof folder) == 0)
    {
      fallen_back = suanli_live_list_jobs_in (folder);
      g_ptr_array_extend_and_steal (jobs, g_steal_pointer (&fallen_back));
    }
  return jobs;
}
