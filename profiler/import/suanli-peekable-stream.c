/* suanli-peekable-stream.c — a buffered stream whose first bytes can be looked at without seeking
 *
 * The sniffing of a trace's format and the folded importer's check for a byte-order mark both
 * look at the head of their input; pipes and standard input cannot seek back, so the head is
 * buffered instead.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "suanli-peekable-stream.h"

#define BUFFER_SIZE (64 * 1024)

/* Buffers @input and fills the buffer with at least @wanted bytes (up to its 64 KiB), or all there
 * is. @input that is such a stream already (a plain file's, sniffed for gzip, then for its format)
 * is filled itself rather than buffered again: a second buffer of the same size returns the same
 * reads, after one more copy of every byte.
 * Returns: (transfer full): a GBufferedInputStream over @input (or @input), or NULL with @error set. */
GInputStream *
suanli_peekable_stream_new (GInputStream  *input,
                            gsize          wanted,
                            GCancellable  *cancellable,
                            GError       **error)
{
  gboolean reused = G_OBJECT_TYPE (input) == G_TYPE_BUFFERED_INPUT_STREAM &&
                    g_buffered_input_stream_get_buffer_size (G_BUFFERED_INPUT_STREAM (input)) == BUFFER_SIZE;
  g_autoptr(GInputStream) buffered = reused ? g_object_ref (input) : g_buffered_input_stream_new_sized (input, BUFFER_SIZE);
  GBufferedInputStream *buffer = G_BUFFERED_INPUT_STREAM (buffered);

  while (g_buffered_input_stream_get_available (buffer) < wanted)
    {
      gssize got = g_buffered_input_stream_fill (buffer, (gssize) (wanted - g_buffered_input_stream_get_available (buffer)),
                                                 cancellable, error);
      if (got < 0)
        return NULL;
      if (got == 0)
        break;
    }
  return g_steal_pointer (&buffered);
}
