/* suanli-frame-guard.c — an input stream that reads a WebSocket client's frames as they pass and
 * fails once one message grows past a limit
 *
 * libsoup 3.2 checks its incoming size limit frame by frame, not message by message
 * (CVE-2025-32049, fixed in later libsoup): a client could send one text message in endless
 * continuation frames and the agent would hold all of it. So the agent's capture connections read
 * through this guard. It follows the frames' headers (RFC 6455 §5.2) in the bytes it passes on, adds
 * up the payload of the data frames of one message, and fails the read (G_IO_ERROR_MESSAGE_TOO_LARGE)
 * when that passes the limit; libsoup then closes the connection. Control frames (ping, pong,
 * close) are not part of any message and not counted.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "suanli-frame-guard.h"

struct _SuanliFrameGuard
{
  GFilterInputStream parent_instance;

  guint64            max_message;
  guint8             header[14];       /* the frame header being read */
  guint              header_have;
  guint64            payload_left;     /* of the frame being passed */
  guint64            message_bytes;    /* data payload of the message so far */
  gboolean           failed;
};

static void suanli_frame_guard_pollable_init (GPollableInputStreamInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (SuanliFrameGuard, suanli_frame_guard, G_TYPE_FILTER_INPUT_STREAM,
                               G_IMPLEMENT_INTERFACE (G_TYPE_POLLABLE_INPUT_STREAM, suanli_frame_guard_pollable_init))

/* The header's length once its first two bytes are known: 2, the extended length, the mask. */
static guint
header_length (const guint8 *header)
{
  guint length7 = header[1] & 0x7f;

  return 2 + (length7 == 126 ? 2 : length7 == 127 ? 8 : 0) + ((header[1] & 0x80) ? 4 : 0);
}

static guint64
payload_length (const guint8 *header)
{
  guint length7 = header[1] & 0x7f;
  guint64 length = 0;

  if (length7 < 126)
    return length7;
  for (guint i = 0; i < (length7 == 126 ? 2u : 8u); i++)
    length = (length << 8) | header[2 + i];
  return length;
}

/* A whole header has come: counts its frame against its message. FALSE past the limit. */
static gboolean
take_header (SuanliFrameGuard *self)
{
  guint opcode = self->header[0] & 0x0f;
  gboolean fin = (self->header[0] & 0x80) != 0;
  guint64 length = payload_length (self->header);

  self->payload_left = length;
  self->header_have = 0;
  if (opcode >= 0x8)
    return TRUE;   /* control frames stand alone */
  if (opcode != 0x0)
    self->message_bytes = 0;   /* text or binary: a new message */
  if (length > self->max_message || self->message_bytes + length > self->max_message)
    return FALSE;
  self->message_bytes += length;
  if (fin)
    self->message_bytes = 0;
  return TRUE;
}

/* Follows the frames through @length bytes just read. */
static gboolean
inspect (SuanliFrameGuard  *self,
         const guint8      *bytes,
         gsize              length,
         GError           **error)
{
  gsize at = 0;

  while (at < length && !self->failed)
    {
      if (self->payload_left > 0)
        {
          guint64 take = MIN (self->payload_left, (guint64) (length - at));

          self->payload_left -= take;
          at += (gsize) take;
          continue;
        }
      self->header[self->header_have++] = bytes[at++];
      if (self->header_have >= 2 && self->header_have == header_length (self->header) && !take_header (self))
        self->failed = TRUE;
    }
  if (self->failed)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_MESSAGE_TOO_LARGE,
                   "a WebSocket message of more than %" G_GUINT64_FORMAT " bytes", self->max_message);
      return FALSE;
    }
  return TRUE;
}

static gssize
suanli_frame_guard_read (GInputStream  *stream,
                         void          *buffer,
                         gsize          count,
                         GCancellable  *cancellable,
                         GError       **error)
{
  SuanliFrameGuard *self = SUANLI_FRAME_GUARD (stream);
  GInputStream *base = g_filter_input_stream_get_base_stream (G_FILTER_INPUT_STREAM (stream));
  gssize got = g_input_stream_read (base, buffer, count, cancellable, error);

  if (got > 0 && !inspect (self, buffer, (gsize) got, error))
    return -1;
  return got;
}

static gboolean
suanli_frame_guard_can_poll (GPollableInputStream *stream)
{
  GInputStream *base = g_filter_input_stream_get_base_stream (G_FILTER_INPUT_STREAM (stream));

  return G_IS_POLLABLE_INPUT_STREAM (base) && g_pollable_input_stream_can_poll (G_POLLABLE_INPUT_STREAM (base));
}

static gboolean
suanli_frame_guard_is_readable (GPollableInputStream *stream)
{
  GInputStream *base = g_filter_input_stream_get_base_stream (G_FILTER_INPUT_STREAM (stream));

  return g_pollable_input_stream_is_readable (G_POLLABLE_INPUT_STREAM (base));
}

static GSource *
suanli_frame_guard_create_source (GPollableInputStream *stream,
                                  GCancellable         *cancellable)
{
  GInputStream *base = g_filter_input_stream_get_base_stream (G_FILTER_INPUT_STREAM (stream));
  GSource *base_source = g_pollable_input_stream_create_source (G_POLLABLE_INPUT_STREAM (base), NULL);
  GSource *source = g_pollable_source_new_full (stream, base_source, cancellable);

  g_source_unref (base_source);
  return source;
}

static gssize
suanli_frame_guard_read_nonblocking (GPollableInputStream  *stream,
                                     void                  *buffer,
                                     gsize                  count,
                                     GError               **error)
{
  SuanliFrameGuard *self = SUANLI_FRAME_GUARD (stream);
  GInputStream *base = g_filter_input_stream_get_base_stream (G_FILTER_INPUT_STREAM (stream));
  gssize got = g_pollable_input_stream_read_nonblocking (G_POLLABLE_INPUT_STREAM (base), buffer, count, NULL, error);

  if (got > 0 && !inspect (self, buffer, (gsize) got, error))
    return -1;
  return got;
}

static void
suanli_frame_guard_pollable_init (GPollableInputStreamInterface *iface)
{
  iface->can_poll = suanli_frame_guard_can_poll;
  iface->is_readable = suanli_frame_guard_is_readable;
  iface->create_source = suanli_frame_guard_create_source;
  iface->read_nonblocking = suanli_frame_guard_read_nonblocking;
}

static void
suanli_frame_guard_class_init (SuanliFrameGuardClass *klass)
{
  G_INPUT_STREAM_CLASS (klass)->read_fn = suanli_frame_guard_read;
}

static void
suanli_frame_guard_init (SuanliFrameGuard *self)
{
}

/* Returns: (transfer full): @base, read through a guard that fails once a message passes
 * @max_message bytes of payload. */
GInputStream *
suanli_frame_guard_new (GInputStream *base,
                        guint64       max_message)
{
  SuanliFrameGuard *self = g_object_new (SUANLI_TYPE_FRAME_GUARD, "base-stream", base, "close-base-stream", TRUE, NULL);

  self->max_message = max_message;
  return G_INPUT_STREAM (self);
}
