/* suanli-test-capture-reader.c — a capture stream read record by record, from a file or a job's
 * control socket, for the tests that look at what the injection library sends
 *
 * The importer makes a trace of a stream; these tests also need what a trace does not keep (the
 * end record's reason, a kernel's graph node, which launches came with a stack), so the records
 * are read here as they are, with the capture format's own reader.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <errno.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "suanli-live-job.h"
#include "suanli-test-capture-reader.h"
#include "suanli-test-wait.h"

void
suanli_test_stream_init (SuanliTestStream *stream)
{
  memset (stream, 0, sizeof *stream);
  stream->kernels = g_array_new (FALSE, TRUE, sizeof (SuanliCaptureKernel));
  stream->apis = g_array_new (FALSE, TRUE, sizeof (SuanliCaptureApi));
  stream->strings = g_hash_table_new_full (NULL, NULL, NULL, g_free);
  stream->stacks = g_hash_table_new (NULL, NULL);
}

void
suanli_test_stream_clear (SuanliTestStream *stream)
{
  g_clear_pointer (&stream->kernels, g_array_unref);
  g_clear_pointer (&stream->apis, g_array_unref);
  g_clear_pointer (&stream->strings, g_hash_table_unref);
  g_clear_pointer (&stream->stacks, g_hash_table_unref);
}

/* Keeps what the tests look at of @record; returns its size. */
static gsize
take_record (SuanliTestStream          *stream,
             const SuanliCaptureRecord *record)
{
  SuanliCaptureRecord head;

  memcpy (&head, record, sizeof head);
  switch (head.kind)
    {
    case SUANLI_CAPTURE_KERNEL:
      {
        SuanliCaptureKernel kernel;

        suanli_capture_copy_record (record, &kernel, sizeof kernel);
        g_array_append_val (stream->kernels, kernel);
        break;
      }
    case SUANLI_CAPTURE_API:
      {
        SuanliCaptureApi api;

        suanli_capture_copy_record (record, &api, sizeof api);
        g_array_append_val (stream->apis, api);
        break;
      }
    case SUANLI_CAPTURE_STRING:
      {
        SuanliCaptureString string;

        suanli_capture_copy_record (record, &string, sizeof string);
        if (string.length <= head.size - sizeof string)
          g_hash_table_replace (stream->strings, GUINT_TO_POINTER (string.id),
                                g_strndup ((const char *) record + sizeof string, string.length));
        break;
      }
    case SUANLI_CAPTURE_LAUNCH_STACK:
      {
        SuanliCaptureLaunchStack stack;

        suanli_capture_copy_record (record, &stack, sizeof stack);
        g_hash_table_replace (stream->stacks, GUINT_TO_POINTER (stack.correlation), GUINT_TO_POINTER (stack.depth));
        break;
      }
    case SUANLI_CAPTURE_DROPPED:
      {
        SuanliCaptureDropped dropped;

        suanli_capture_copy_record (record, &dropped, sizeof dropped);
        stream->drop_records++;
        stream->dropped += dropped.count;
        break;
      }
    case SUANLI_CAPTURE_END:
      suanli_capture_copy_record (record, &stream->end, sizeof stream->end);
      stream->ended = TRUE;
      break;
    default:
      break;
    }
  return head.size;
}

/* Reads the whole records among @bytes past what was read before (the devices after the header
 * are passed over by the size the header gives them). */
void
suanli_test_stream_parse (SuanliTestStream *stream,
                          const guint8     *bytes,
                          gsize             length)
{
  SuanliCaptureStatus status;
  gsize used = 0;

  if (!stream->has_header)
    {
      status = suanli_capture_read_header (bytes, length, &stream->header, &used);
      if (status == SUANLI_CAPTURE_NEED_MORE)
        return;
      if (status != SUANLI_CAPTURE_OK)
        g_error ("the capture's header is damaged: %s", suanli_capture_status_message (status));
      stream->has_header = TRUE;
      stream->offset = used + (gsize) stream->header.n_devices * stream->header.device_size;
    }
  while (stream->offset < length)
    {
      const SuanliCaptureRecord *record;

      status = suanli_capture_next_record (bytes + stream->offset, length - stream->offset, &record);
      if (status == SUANLI_CAPTURE_NEED_MORE)
        return;
      if (status != SUANLI_CAPTURE_OK)
        g_error ("the capture stream is damaged at byte %" G_GSIZE_FORMAT ": %s", stream->offset,
                 suanli_capture_status_message (status));
      stream->offset += take_record (stream, record);
    }
}

const char *
suanli_test_stream_string (SuanliTestStream *stream,
                           guint32           id)
{
  return g_hash_table_lookup (stream->strings, GUINT_TO_POINTER (id));
}

/* Whether the kernel of @correlation came with its launch's stack (as addresses, or as text from
 * a writer before the module records). */
gboolean
suanli_test_stream_has_stack (SuanliTestStream          *stream,
                              const SuanliCaptureKernel *kernel)
{
  return GPOINTER_TO_UINT (g_hash_table_lookup (stream->stacks, GUINT_TO_POINTER (kernel->correlation))) > 0 ||
         kernel->stack != SUANLI_CAPTURE_NO_STRING;
}

void
suanli_test_stream_read_file (SuanliTestStream *stream,
                              const char       *path)
{
  g_autofree char *contents = NULL;
  gsize length = 0;

  suanli_test_stream_init (stream);
  if (!g_file_get_contents (path, &contents, &length, NULL))
    g_error ("no capture was written to %s", path);
  suanli_test_stream_parse (stream, (const guint8 *) contents, length);
}

/* ---- a capture over the control socket, read on a thread of its own ------------------------------- */

static gpointer
read_capture (gpointer data)
{
  SuanliTestCapture *capture = data;
  guint8 buffer[1 << 16];

  for (;;)
    {
      ssize_t got = recv (capture->fd, buffer, sizeof buffer, 0);

      if (got < 0 && errno == EINTR)
        continue;
      g_mutex_lock (&capture->lock);
      if (got > 0)
        g_byte_array_append (capture->bytes, buffer, (guint) got);
      else
        capture->closed = TRUE;
      g_mutex_unlock (&capture->lock);
      if (got <= 0)
        return NULL;
    }
}

/* START on @socket_path: the job's answer must be OK; NULL with why in @error when it is not. */
SuanliTestCapture *
suanli_test_capture_start (const char  *socket_path,
                           GError     **error)
{
  int fd = suanli_live_start (socket_path, error);
  SuanliTestCapture *capture;

  if (fd < 0)
    return NULL;
  capture = g_new0 (SuanliTestCapture, 1);
  capture->fd = fd;
  capture->bytes = g_byte_array_new ();
  g_mutex_init (&capture->lock);
  suanli_test_stream_init (&capture->stream);
  capture->reader = g_thread_new ("capture", read_capture, capture);
  return capture;
}

/* Brings capture->stream up to what has come; returns whether the job has closed the stream. */
gboolean
suanli_test_capture_update (SuanliTestCapture *capture)
{
  gboolean closed;

  g_mutex_lock (&capture->lock);
  suanli_test_stream_parse (&capture->stream, capture->bytes->data, capture->bytes->len);
  closed = capture->closed;
  g_mutex_unlock (&capture->lock);
  return closed;
}

gboolean
suanli_test_capture_closed (gpointer data)
{
  return suanli_test_capture_update (data);
}

void
suanli_test_capture_stop (SuanliTestCapture *capture)
{
  send (capture->fd, "STOP\n", 5, MSG_NOSIGNAL);
}

/* STOP, and the rest of the stream to its end. */
void
suanli_test_capture_finish (SuanliTestCapture *capture)
{
  suanli_test_capture_stop (capture);
  suanli_test_await (suanli_test_capture_closed, capture);
}

void
suanli_test_capture_save (SuanliTestCapture *capture,
                          const char        *path)
{
  g_mutex_lock (&capture->lock);
  g_assert_true (g_file_set_contents (path, (const char *) capture->bytes->data, capture->bytes->len, NULL));
  g_mutex_unlock (&capture->lock);
}

void
suanli_test_capture_free (SuanliTestCapture *capture)
{
  shutdown (capture->fd, SHUT_RDWR);
  g_thread_join (capture->reader);
  close (capture->fd);
  g_byte_array_unref (capture->bytes);
  g_mutex_clear (&capture->lock);
  suanli_test_stream_clear (&capture->stream);
  g_free (capture);
}
