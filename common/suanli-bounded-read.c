/* suanli-bounded-read.c — a whole file read into memory, never more than a limit
 *
 * A size limit checked with stat() holds for regular files only: a pipe, a FIFO or a device
 * (/dev/zero) reports no size, or 0, and would be read without end. The bytes are counted as
 * they are read instead, and reading stops one byte past the limit.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "suanli-bounded-read.h"

#define CHUNK (64 * 1024)

/* Returns: (transfer full): the contents of @file, or NULL with @error; when it holds more than
 * @limit bytes, G_IO_ERROR_MESSAGE_TOO_LARGE (the caller says what the limit is for). */
GBytes *
suanli_read_bounded (GFile        *file,
                     gsize         limit,
                     GCancellable *cancellable,
                     GError      **error)
{
  g_autoptr(GFileInputStream) input = g_file_read (file, cancellable, error);
  g_autoptr(GByteArray) contents = NULL;

  if (input == NULL)
    return NULL;
  contents = g_byte_array_new ();
  for (;;)
    {
      gsize wanted = MIN ((gsize) CHUNK, limit + 1 - contents->len);
      guint before = contents->len;
      gssize got;

      g_byte_array_set_size (contents, before + (guint) wanted);
      got = g_input_stream_read (G_INPUT_STREAM (input), contents->data + before, wanted, cancellable, error);
      if (got < 0)
        return NULL;
      g_byte_array_set_size (contents, before + (guint) got);
      if (got == 0)
        break;
      if (contents->len > limit)
        {
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_MESSAGE_TOO_LARGE, "more than %" G_GSIZE_FORMAT " bytes", limit);
          return NULL;
        }
    }
  return g_byte_array_free_to_bytes (g_steal_pointer (&contents));
}
