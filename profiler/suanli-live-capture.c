/* suanli-live-capture.c — a capture streaming from a running job into a growing trace
 *
 * START goes to the job on a worker thread (CUPTI's first set-up can take seconds). Then, on the
 * main loop, whatever the socket holds is decoded into the trace as it comes (at most
 * READ_SLICE bytes per wake-up, so a fast job cannot starve the interface), and twice a second
 * what is new is sorted in and the trace emits "grown": the timeline is at most about half a
 * second behind. The stream's bytes are kept in a temporary file, for Save. STOP asks the job to
 * end the capture; "ended" comes when the stream closes, for whatever reason.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <errno.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>
#include <glib/gi18n.h>
#include <glib-unix.h>

#include "suanli-capture-decoder.h"
#include "suanli-live-capture.h"

#define READ_SLICE   (4u << 20)
#define UPDATE_MS    500

struct _SuanliLiveCapture
{
  GObject               parent_instance;

  SuanliTrace          *trace;
  SuanliCaptureDecoder *decoder;
  char                 *socket_path;
  char                 *name;
  int                   fd;
  guint                 read_source;
  guint                 update_source;
  gboolean              fresh;          /* records came since the last update */
  gboolean              running;
  GFile                *raw;            /* the stream as it came, for Save */
  GFileIOStream        *raw_io;
  GOutputStream        *raw_output;     /* raw_io's */
  GError               *failure;        /* why the stream ended early, if it did */
};

enum {
  SIGNAL_ENDED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

G_DEFINE_FINAL_TYPE (SuanliLiveCapture, suanli_live_capture, G_TYPE_OBJECT)

static void
close_stream (SuanliLiveCapture *self)
{
  g_clear_handle_id (&self->read_source, g_source_remove);
  g_clear_handle_id (&self->update_source, g_source_remove);
  if (self->fd >= 0)
    close (self->fd);
  self->fd = -1;
  if (self->raw_io != NULL)
    g_io_stream_close (G_IO_STREAM (self->raw_io), NULL, NULL);
  self->raw_output = NULL;
  g_clear_object (&self->raw_io);
}

static void
suanli_live_capture_finalize (GObject *object)
{
  SuanliLiveCapture *self = SUANLI_LIVE_CAPTURE (object);

  close_stream (self);
  g_clear_pointer (&self->decoder, suanli_capture_decoder_free);
  g_object_unref (self->trace);
  if (self->raw != NULL)
    g_file_delete (self->raw, NULL, NULL);
  g_clear_object (&self->raw);
  g_clear_error (&self->failure);
  g_free (self->socket_path);
  g_free (self->name);
  G_OBJECT_CLASS (suanli_live_capture_parent_class)->finalize (object);
}

static void
suanli_live_capture_class_init (SuanliLiveCaptureClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = suanli_live_capture_finalize;

  /**
   * SuanliLiveCapture::ended:
   * @error: (nullable): why it ended early, or NULL when it was stopped or the job ended it
   *
   * The stream has closed; everything that came is in the trace.
   */
  signals[SIGNAL_ENDED] = g_signal_new ("ended", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                                        G_TYPE_NONE, 1, G_TYPE_ERROR);
}

static void
suanli_live_capture_init (SuanliLiveCapture *self)
{
  self->fd = -1;
}

/* Returns: (transfer full): a capture of @job into @trace, not started yet. */
SuanliLiveCapture *
suanli_live_capture_new (SuanliTrace         *trace,
                         const SuanliLiveJob *job)
{
  SuanliLiveCapture *self = g_object_new (SUANLI_TYPE_LIVE_CAPTURE, NULL);

  self->trace = g_object_ref (trace);
  self->socket_path = g_strdup (job->socket_path);
  self->name = job->rank >= 0 ? g_strdup_printf ("%s pid %d rank %d", job->host, job->pid, job->rank)
                              : g_strdup_printf ("%s pid %d", job->host, job->pid);
  return self;
}

SuanliTrace *
suanli_live_capture_get_trace (SuanliLiveCapture *self)
{
  return self->trace;
}

/* Whether the stream is open: started and not yet ended. */
gboolean
suanli_live_capture_is_running (SuanliLiveCapture *self)
{
  return self->running;
}

guint64
suanli_live_capture_get_records (SuanliLiveCapture *self)
{
  return self->decoder != NULL ? suanli_capture_decoder_get_records (self->decoder) : 0;
}

static void
end (SuanliLiveCapture *self)
{
  /* Held through the signal: a handler may drop the last other reference. */
  g_object_ref (self);
  close_stream (self);
  self->running = FALSE;
  suanli_capture_decoder_finish_live (self->decoder);
  suanli_trace_set_growing (self->trace, FALSE);
  g_signal_emit (self, signals[SIGNAL_ENDED], 0, self->failure);
  g_object_unref (self);
}

static gboolean
update (gpointer data)
{
  SuanliLiveCapture *self = data;

  if (self->fresh)
    {
      self->fresh = FALSE;
      suanli_capture_decoder_update (self->decoder);
    }
  return G_SOURCE_CONTINUE;
}

static gboolean
on_readable (int          fd,
             GIOCondition condition,
             gpointer     data)
{
  SuanliLiveCapture *self = data;
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
          end (self);
          return G_SOURCE_REMOVE;
        }
      taken += (gsize) got;
      self->fresh = TRUE;
      if (self->raw_output != NULL)
        g_output_stream_write_all (self->raw_output, buffer, (gsize) got, NULL, NULL, NULL);
      if (!suanli_capture_decoder_feed (self->decoder, buffer, (gsize) got, &self->failure))
        {
          self->read_source = 0;
          end (self);
          return G_SOURCE_REMOVE;
        }
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
  SuanliLiveCapture *self = source;
  GError *error = NULL;
  int fd = -1;
  g_autofree char *answer = suanli_live_ask (self->socket_path, "START\n", &fd, &error);

  if (answer == NULL)
    {
      g_task_return_error (task, error);
      return;
    }
  if (!g_str_equal (answer, "OK"))
    {
      close (fd);
      g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_FAILED, _("The job refused to start a capture: %s"),
                               g_str_has_prefix (answer, "ERROR ") ? answer + 6 : answer);
      return;
    }
  g_task_return_int (task, fd);
}

/* Sends START to the job on a worker thread; the stream then flows into the trace on this thread. */
void
suanli_live_capture_start_async (SuanliLiveCapture  *self,
                                 GCancellable       *cancellable,
                                 GAsyncReadyCallback callback,
                                 gpointer            user_data)
{
  g_autoptr(GTask) task = g_task_new (self, cancellable, callback, user_data);

  g_return_if_fail (self->decoder == NULL);
  g_task_set_source_tag (task, suanli_live_capture_start_async);
  /* Once the job has said OK its stream is ours: a late cancel must not drop (and leak) it. */
  g_task_set_check_cancellable (task, FALSE);
  g_task_run_in_thread (task, ask_start);
}

gboolean
suanli_live_capture_start_finish (SuanliLiveCapture  *self,
                                  GAsyncResult       *result,
                                  GError            **error)
{
  gssize fd = g_task_propagate_int (G_TASK (result), error);

  if (fd < 0)
    return FALSE;
  self->fd = (int) fd;
  self->decoder = suanli_capture_decoder_new (self->trace, self->name);
  self->raw = g_file_new_tmp ("suanli-live-XXXXXX.suanli-capture", &self->raw_io, NULL);
  if (self->raw_io != NULL)
    self->raw_output = g_io_stream_get_output_stream (G_IO_STREAM (self->raw_io));
  self->running = TRUE;
  suanli_trace_set_growing (self->trace, TRUE);
  self->read_source = g_unix_fd_add (self->fd, G_IO_IN | G_IO_HUP | G_IO_ERR, on_readable, self);
  self->update_source = g_timeout_add (UPDATE_MS, update, self);
  return TRUE;
}

/* Asks the job to end the capture: what it still holds and the end record follow, then "ended". */
void
suanli_live_capture_stop (SuanliLiveCapture *self)
{
  if (self->running && self->fd >= 0)
    send (self->fd, "STOP\n", 5, MSG_NOSIGNAL);
}

/* Writes the stream as it came to @file, a *.suanli-capture that opens like any trace. */
gboolean
suanli_live_capture_save (SuanliLiveCapture  *self,
                          GFile              *file,
                          GError            **error)
{
  if (self->raw == NULL)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND, _("Nothing was captured"));
      return FALSE;
    }
  if (self->raw_output != NULL)
    g_output_stream_flush (self->raw_output, NULL, NULL);
  return g_file_copy (self->raw, file, G_FILE_COPY_OVERWRITE, NULL, NULL, NULL, error);
}
