/* suanli-live-job.c — a profilable job on this machine, as its control socket describes it
 *
 * Jobs are the sockets in the injection library's folder ($XDG_RUNTIME_DIR/suanli, or
 * /tmp/suanli-UID) that belong to this user; each answers STATUS with a line of JSON.
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
#include <yajl/yajl_tree.h>

#include "suanli-inject.h"
#include "suanli-live-job.h"

void
suanli_live_job_free (SuanliLiveJob *job)
{
  g_free (job->host);
  g_free (job->command);
  g_free (job->state);
  g_free (job->socket_path);
  g_free (job);
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

  g_strlcpy (address.sun_path, socket_path, sizeof address.sun_path);
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

static char *
string_member (yajl_val object,
               const char *name)
{
  const char *path[] = { name, NULL };
  yajl_val value = yajl_tree_get (object, path, yajl_t_string);

  return g_strdup (value != NULL ? YAJL_GET_STRING (value) : "");
}

static int
int_member (yajl_val    object,
            const char *name)
{
  const char *path[] = { name, NULL };
  yajl_val value = yajl_tree_get (object, path, yajl_t_number);

  return value != NULL && YAJL_IS_INTEGER (value) ? (int) YAJL_GET_INTEGER (value) : -1;
}

static SuanliLiveJob *
parse_status (const char *line,
              const char *socket_path)
{
  char message[128];
  yajl_val root = yajl_tree_parse (line, message, sizeof message);
  SuanliLiveJob *job;

  if (root == NULL || !YAJL_IS_OBJECT (root))
    {
      yajl_tree_free (root);
      return NULL;
    }
  job = g_new0 (SuanliLiveJob, 1);
  job->pid = int_member (root, "pid");
  job->host = string_member (root, "host");
  job->command = string_member (root, "command");
  job->rank = int_member (root, "rank");
  job->local_rank = int_member (root, "local_rank");
  job->world_size = int_member (root, "world_size");
  job->state = string_member (root, "state");
  job->devices = MAX (int_member (root, "devices"), 0);
  job->socket_path = g_strdup (socket_path);
  yajl_tree_free (root);
  return job;
}

/**
 * suanli_live_list_jobs:
 *
 * Returns: (transfer full) (element-type SuanliLiveJob): this user's profilable jobs, by pid; the
 * sockets of jobs that have gone are removed on the way, and other users' are never read.
 */
GPtrArray *
suanli_live_list_jobs (GError **error)
{
  char folder[256], message[256];
  GPtrArray *jobs;
  g_autoptr(GDir) dir = NULL;
  const char *name;

  if (suanli_inject_socket_dir (folder, sizeof folder, message, sizeof message) != 0)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_PERMISSION_DENIED, "%s", message);
      return NULL;
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
