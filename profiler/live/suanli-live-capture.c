/* suanli-live-capture.c — a capture streaming from a running job into a growing trace
 *
 * A transport (a subclass) brings the stream's bytes and hands them over with
 * suanli_live_capture_take(), on the main loop. They are decoded into the trace as they come, and
 * twice a second what is new is sorted in and the trace emits "grown": the timeline is at most
 * about half a second behind. The bytes are also kept in a temporary file, for Save. "ended" comes
 * when the transport says the stream has closed, for whatever reason.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>

#include "suanli-capture-decoder.h"
#include "suanli-live-capture.h"

#define UPDATE_MS    500

typedef struct
{
  SuanliTrace          *trace;
  SuanliCaptureDecoder *decoder;
  char                 *name;
  gint64                clock_shift_ns;
  guint                 update_source;
  gboolean              fresh;          /* records came since the last update */
  gboolean              running;
  guint64               bytes;
  GFile                *raw;            /* the stream as it came, for Save */
  GFileIOStream        *raw_io;
  GOutputStream        *raw_output;     /* raw_io's */
  GError               *failure;        /* why the stream ended early, if it did */
} SuanliLiveCapturePrivate;

enum {
  PROP_0,
  PROP_TRACE,
  N_PROPS
};

enum {
  SIGNAL_ENDED,
  N_SIGNALS
};

static GParamSpec *properties[N_PROPS];
static guint signals[N_SIGNALS];

G_DEFINE_ABSTRACT_TYPE_WITH_PRIVATE (SuanliLiveCapture, suanli_live_capture, G_TYPE_OBJECT)

static void
close_raw (SuanliLiveCapturePrivate *priv)
{
  g_clear_handle_id (&priv->update_source, g_source_remove);
  if (priv->raw_io != NULL)
    g_io_stream_close (G_IO_STREAM (priv->raw_io), NULL, NULL);
  priv->raw_output = NULL;
  g_clear_object (&priv->raw_io);
}

static void
suanli_live_capture_dispose (GObject *object)
{
  SuanliLiveCapture *self = SUANLI_LIVE_CAPTURE (object);
  SuanliLiveCapturePrivate *priv = suanli_live_capture_get_instance_private (self);

  SUANLI_LIVE_CAPTURE_GET_CLASS (self)->close (self);
  if (priv->running)
    {
      /* Dropped while streaming: the trace keeps what came, and stops growing. */
      priv->running = FALSE;
      suanli_capture_decoder_finish_live (priv->decoder);
      suanli_trace_set_growing (priv->trace, FALSE);
    }
  close_raw (priv);
  G_OBJECT_CLASS (suanli_live_capture_parent_class)->dispose (object);
}

static void
suanli_live_capture_finalize (GObject *object)
{
  SuanliLiveCapture *self = SUANLI_LIVE_CAPTURE (object);
  SuanliLiveCapturePrivate *priv = suanli_live_capture_get_instance_private (self);

  g_clear_pointer (&priv->decoder, suanli_capture_decoder_free);
  g_clear_object (&priv->trace);
  if (priv->raw != NULL)
    g_file_delete (priv->raw, NULL, NULL);
  g_clear_object (&priv->raw);
  g_clear_error (&priv->failure);
  g_free (priv->name);
  G_OBJECT_CLASS (suanli_live_capture_parent_class)->finalize (object);
}

static void
suanli_live_capture_set_property (GObject      *object,
                                  guint         prop_id,
                                  const GValue *value,
                                  GParamSpec   *pspec)
{
  SuanliLiveCapturePrivate *priv = suanli_live_capture_get_instance_private (SUANLI_LIVE_CAPTURE (object));

  switch (prop_id)
    {
    case PROP_TRACE:
      priv->trace = g_value_dup_object (value);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
suanli_live_capture_get_property (GObject    *object,
                                  guint       prop_id,
                                  GValue     *value,
                                  GParamSpec *pspec)
{
  SuanliLiveCapturePrivate *priv = suanli_live_capture_get_instance_private (SUANLI_LIVE_CAPTURE (object));

  switch (prop_id)
    {
    case PROP_TRACE:
      g_value_set_object (value, priv->trace);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
suanli_live_capture_class_init (SuanliLiveCaptureClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = suanli_live_capture_dispose;
  object_class->finalize = suanli_live_capture_finalize;
  object_class->set_property = suanli_live_capture_set_property;
  object_class->get_property = suanli_live_capture_get_property;

  properties[PROP_TRACE] = g_param_spec_object ("trace", NULL, NULL, SUANLI_TYPE_TRACE,
                                                G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  /**
   * SuanliLiveCapture::ended:
   * @error: (nullable): why it ended early (the stream broke, or its end record says another CUPTI
   *   client took CUPTI over or CUPTI failed), or NULL when it was stopped or the job exited
   *
   * The stream has closed; everything that came is in the trace.
   */
  signals[SIGNAL_ENDED] = g_signal_new ("ended", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                                        G_TYPE_NONE, 1, G_TYPE_ERROR);
}

static void
suanli_live_capture_init (SuanliLiveCapture *self)
{
}

SuanliTrace *
suanli_live_capture_get_trace (SuanliLiveCapture *self)
{
  SuanliLiveCapturePrivate *priv = suanli_live_capture_get_instance_private (self);

  return priv->trace;
}

/* The name of the capture's group in the trace: host, pid and rank. */
const char *
suanli_live_capture_get_name (SuanliLiveCapture *self)
{
  SuanliLiveCapturePrivate *priv = suanli_live_capture_get_instance_private (self);

  return priv->name;
}

void
suanli_live_capture_set_name (SuanliLiveCapture *self,
                              const char        *name)
{
  SuanliLiveCapturePrivate *priv = suanli_live_capture_get_instance_private (self);

  g_free (priv->name);
  priv->name = g_strdup (name);
}

/* Before start: the job's host clock is @shift_ns ahead of this machine's, and its times move
 * back by as much (see suanli_capture_decoder_set_clock_shift()). */
void
suanli_live_capture_set_clock_shift (SuanliLiveCapture *self,
                                     gint64             shift_ns)
{
  SuanliLiveCapturePrivate *priv = suanli_live_capture_get_instance_private (self);

  priv->clock_shift_ns = shift_ns;
}

/* Whether the stream is open: started and not yet ended. */
gboolean
suanli_live_capture_is_running (SuanliLiveCapture *self)
{
  SuanliLiveCapturePrivate *priv = suanli_live_capture_get_instance_private (self);

  return priv->running;
}

guint64
suanli_live_capture_get_records (SuanliLiveCapture *self)
{
  SuanliLiveCapturePrivate *priv = suanli_live_capture_get_instance_private (self);

  return priv->decoder != NULL ? suanli_capture_decoder_get_records (priv->decoder) : 0;
}

/* Bytes of stream taken so far. */
guint64
suanli_live_capture_get_bytes (SuanliLiveCapture *self)
{
  SuanliLiveCapturePrivate *priv = suanli_live_capture_get_instance_private (self);

  return priv->bytes;
}

static gboolean
update (gpointer data)
{
  SuanliLiveCapturePrivate *priv = suanli_live_capture_get_instance_private (data);

  if (priv->fresh)
    {
      priv->fresh = FALSE;
      suanli_capture_decoder_update (priv->decoder);
    }
  return G_SOURCE_CONTINUE;
}

/* For transports, once the job has agreed to stream: the trace grows from here on. */
void
suanli_live_capture_begin (SuanliLiveCapture *self)
{
  SuanliLiveCapturePrivate *priv = suanli_live_capture_get_instance_private (self);

  g_return_if_fail (priv->decoder == NULL);
  priv->decoder = suanli_capture_decoder_new (priv->trace, priv->name != NULL ? priv->name : "capture");
  suanli_capture_decoder_set_clock_shift (priv->decoder, priv->clock_shift_ns);
  priv->raw = g_file_new_tmp ("suanli-live-XXXXXX.suanli-capture", &priv->raw_io, NULL);
  if (priv->raw_io != NULL)
    priv->raw_output = g_io_stream_get_output_stream (G_IO_STREAM (priv->raw_io));
  priv->running = TRUE;
  suanli_trace_set_growing (priv->trace, TRUE);
  priv->update_source = g_timeout_add (UPDATE_MS, update, self);
}

/**
 * suanli_live_capture_end:
 * @error: (nullable): why the stream ended early; NULL when it was stopped or the job ended it (its
 * end record may still say the job ended it early: "ended" then has why)
 *
 * For transports: the stream has closed. What came is sorted in and linked; "ended" is emitted.
 */
void
suanli_live_capture_end (SuanliLiveCapture *self,
                         const GError      *error)
{
  SuanliLiveCapturePrivate *priv = suanli_live_capture_get_instance_private (self);

  if (!priv->running)
    return;
  /* Held through the signal: a handler may drop the last other reference. */
  g_object_ref (self);
  if (error != NULL && priv->failure == NULL)
    priv->failure = g_error_copy (error);
  /* A job whose capture another CUPTI client took over (or CUPTI failed in) ended it early too. */
  if (priv->failure == NULL && suanli_capture_decoder_get_end_problem (priv->decoder) != NULL)
    priv->failure = g_error_new_literal (G_IO_ERROR, G_IO_ERROR_FAILED, suanli_capture_decoder_get_end_problem (priv->decoder));
  SUANLI_LIVE_CAPTURE_GET_CLASS (self)->close (self);
  close_raw (priv);
  priv->running = FALSE;
  suanli_capture_decoder_finish_live (priv->decoder);
  suanli_trace_set_growing (priv->trace, FALSE);
  g_signal_emit (self, signals[SIGNAL_ENDED], 0, priv->failure);
  g_object_unref (self);
}

/* For transports: bytes of the stream, in order. FALSE (and the capture has ended) when they are
 * not a capture stream. */
gboolean
suanli_live_capture_take (SuanliLiveCapture *self,
                          const void        *data,
                          gsize              length)
{
  SuanliLiveCapturePrivate *priv = suanli_live_capture_get_instance_private (self);

  g_return_val_if_fail (priv->running, FALSE);
  priv->bytes += length;
  priv->fresh = TRUE;
  if (priv->raw_output != NULL)
    g_output_stream_write_all (priv->raw_output, data, length, NULL, NULL, NULL);
  if (!suanli_capture_decoder_feed (priv->decoder, data, length, &priv->failure))
    {
      suanli_live_capture_end (self, NULL);
      return FALSE;
    }
  return TRUE;
}

/* Asks the job to stream; the stream then flows into the trace on this thread. */
void
suanli_live_capture_start_async (SuanliLiveCapture  *self,
                                 GCancellable       *cancellable,
                                 GAsyncReadyCallback callback,
                                 gpointer            user_data)
{
  SuanliLiveCapturePrivate *priv = suanli_live_capture_get_instance_private (self);

  g_return_if_fail (priv->decoder == NULL);
  SUANLI_LIVE_CAPTURE_GET_CLASS (self)->start_async (self, cancellable, callback, user_data);
}

gboolean
suanli_live_capture_start_finish (SuanliLiveCapture  *self,
                                  GAsyncResult       *result,
                                  GError            **error)
{
  return SUANLI_LIVE_CAPTURE_GET_CLASS (self)->start_finish (self, result, error);
}

/* Asks the job to end the capture: what it still holds and the end record follow, then "ended". */
void
suanli_live_capture_stop (SuanliLiveCapture *self)
{
  SuanliLiveCapturePrivate *priv = suanli_live_capture_get_instance_private (self);

  if (priv->running)
    SUANLI_LIVE_CAPTURE_GET_CLASS (self)->stop (self);
}

/* Writes the stream as it came to @file, a *.suanli-capture that opens like any trace. */
gboolean
suanli_live_capture_save (SuanliLiveCapture  *self,
                          GFile              *file,
                          GError            **error)
{
  SuanliLiveCapturePrivate *priv = suanli_live_capture_get_instance_private (self);

  if (priv->raw == NULL)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND, _("Nothing was captured"));
      return FALSE;
    }
  if (priv->raw_output != NULL)
    g_output_stream_flush (priv->raw_output, NULL, NULL);
  return g_file_copy (priv->raw, file, G_FILE_COPY_OVERWRITE, NULL, NULL, NULL, error);
}
