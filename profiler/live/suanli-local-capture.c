/* suanli-local-capture.c — a live capture from a job on this machine, over its control socket
 *
 * START goes to the job on a worker thread (CUPTI's first set-up can take seconds). Then, on the
 * main loop, whatever the socket holds is handed to the capture as it comes, at most READ_SLICE
 * bytes per wake-up so that a fast job cannot starve the interface. STOP is a line on the same
 * connection; the job closes it after the end record.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <errno.h>
#include <sys/socket.h>
#include <unistd.h>
#include <glib/gi18n.h>
#include <glib-unix.h>

#include "suanli-local-capture.h"

#define READ_SLICE   (4u << 20)

struct _SuanliLocalCapture
{
  SuanliLiveCapture parent_instance;

  char             *socket_path;
  int               fd;
  guint             read_source;
};

G_DEFINE_FINAL_TYPE (SuanliLocalCapture, suanli_local_capture, SUANLI_TYPE_LIVE_CAPTURE)

static void
suanli_local_capture_close (SuanliLiveCapture *capture)
{
  SuanliLocalCapture *self = SUANLI_LOCAL_CAPTURE (capture);

  g_clear_handle_id (&self->read_source, g_source_remove);
  if (self->fd >= 0)
    close (self->fd);
  self->fd = -1;
}

static gboolean
on_readable (int          fd,
             GIOCondition condition,
             gpointer     data)
{
  SuanliLocalCapture *self = data;
  g_autofree guint8 *buffer = g_malloc (1 << 16);
  gsize taken = 0;

  while (taken < READ_SLICE)
    {
      ssize_t got = recv (fd, buffer, 1 << 16, MSG_DONTWAIT);

      if (got < 0 && errno == EINTR)
        continue;
      if (got < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
        return G_SOURCE_CONTINUE;
      if (got <= 0)
        {
          self->read_source = 0;
          suanli_live_capture_end (SUANLI_LIVE_CAPTURE (self), NULL);
          return G_SOURCE_REMOVE;
        }
      taken += (gsize) got;
      if (!suanli_live_capture_take (SUANLI_LIVE_CAPTURE (self), buffer, (gsize) got))
        return G_SOURCE_REMOVE;   /* ended, and its source is gone with the stream */
    }
  return G_SOURCE_CONTINUE;
}

/* On the worker: START, and its answer. */
static void
ask_start (GTask        *task,
           gpointer      source,
           gpointer      data,
           GCancellable *cancellable)
{
  GError *error = NULL;
  int fd = suanli_live_start (SUANLI_LOCAL_CAPTURE (source)->socket_path, &error);

  if (fd < 0)
    g_task_return_error (task, error);
  else
    g_task_return_int (task, fd);
}

static void
suanli_local_capture_start_async (SuanliLiveCapture  *capture,
                                  GCancellable       *cancellable,
                                  GAsyncReadyCallback callback,
                                  gpointer            user_data)
{
  g_autoptr(GTask) task = g_task_new (capture, cancellable, callback, user_data);

  g_task_set_source_tag (task, suanli_local_capture_start_async);
  /* Once the job has said OK its stream is ours: a late cancel must not drop (and leak) it. */
  g_task_set_check_cancellable (task, FALSE);
  g_task_run_in_thread (task, ask_start);
}

static gboolean
suanli_local_capture_start_finish (SuanliLiveCapture  *capture,
                                   GAsyncResult       *result,
                                   GError            **error)
{
  SuanliLocalCapture *self = SUANLI_LOCAL_CAPTURE (capture);
  gssize fd = g_task_propagate_int (G_TASK (result), error);

  if (fd < 0)
    return FALSE;
  self->fd = (int) fd;
  suanli_live_capture_begin (capture);
  self->read_source = g_unix_fd_add (self->fd, G_IO_IN | G_IO_HUP | G_IO_ERR, on_readable, self);
  return TRUE;
}

static void
suanli_local_capture_stop (SuanliLiveCapture *capture)
{
  SuanliLocalCapture *self = SUANLI_LOCAL_CAPTURE (capture);

  if (self->fd >= 0)
    send (self->fd, "STOP\n", 5, MSG_NOSIGNAL | MSG_DONTWAIT);   /* a stopped job must not stop the interface */
}

static void
suanli_local_capture_finalize (GObject *object)
{
  SuanliLocalCapture *self = SUANLI_LOCAL_CAPTURE (object);

  g_free (self->socket_path);
  G_OBJECT_CLASS (suanli_local_capture_parent_class)->finalize (object);
}

static void
suanli_local_capture_class_init (SuanliLocalCaptureClass *klass)
{
  SuanliLiveCaptureClass *capture_class = SUANLI_LIVE_CAPTURE_CLASS (klass);

  G_OBJECT_CLASS (klass)->finalize = suanli_local_capture_finalize;
  capture_class->start_async = suanli_local_capture_start_async;
  capture_class->start_finish = suanli_local_capture_start_finish;
  capture_class->stop = suanli_local_capture_stop;
  capture_class->close = suanli_local_capture_close;
}

static void
suanli_local_capture_init (SuanliLocalCapture *self)
{
  self->fd = -1;
}

/**
 * suanli_local_capture_new:
 * @trace: where the capture goes, as a group of its own
 * @job: a job on this machine (with its socket path)
 *
 * Returns: (transfer full): a capture of @job into @trace, not started yet.
 */
SuanliLiveCapture *
suanli_local_capture_new (SuanliTrace         *trace,
                          const SuanliLiveJob *job)
{
  SuanliLocalCapture *self = g_object_new (SUANLI_TYPE_LOCAL_CAPTURE, "trace", trace, NULL);
  g_autofree char *name = suanli_live_job_describe (job);

  g_return_val_if_fail (job->socket_path != NULL, NULL);
  self->socket_path = g_strdup (job->socket_path);
  suanli_live_capture_set_name (SUANLI_LIVE_CAPTURE (self), name);
  return SUANLI_LIVE_CAPTURE (self);
}
