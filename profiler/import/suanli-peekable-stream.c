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
 * is. Returns: (transfer full): a GBufferedInputStream over @input, or NULL with @error set. */
GInputStream *
suanli_peekable_stream_new (GInputStream  *input,
                            gsize          wanted,
                            GCancellable  *cancellable,
                            GError       **error)
{
  g_autoptr(GInputStream) buffered = g_buffered_input_stream_new_sized (input, BUFFER_SIZE);
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
