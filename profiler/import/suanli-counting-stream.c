/* suanli-counting-stream.c — an input stream that counts the bytes read through it, for progress
 *
 * The count goes to a counter the caller owns, added atomically, so that another thread (the main
 * loop, drawing a progress bar) can read it while an import runs.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "suanli-counting-stream.h"

struct _SuanliCountingStream
{
  GFilterInputStream parent_instance;

  gsize *counter;
};

G_DEFINE_FINAL_TYPE (SuanliCountingStream, suanli_counting_stream, G_TYPE_FILTER_INPUT_STREAM)

static gssize
suanli_counting_stream_read (GInputStream  *stream,
                             void          *buffer,
                             gsize          count,
                             GCancellable  *cancellable,
                             GError       **error)
{
  SuanliCountingStream *self = SUANLI_COUNTING_STREAM (stream);
  GInputStream *base = g_filter_input_stream_get_base_stream (G_FILTER_INPUT_STREAM (stream));
  gssize got = g_input_stream_read (base, buffer, count, cancellable, error);

  if (got > 0)
    g_atomic_pointer_add (self->counter, got);
  return got;
}

static void
suanli_counting_stream_class_init (SuanliCountingStreamClass *klass)
{
  G_INPUT_STREAM_CLASS (klass)->read_fn = suanli_counting_stream_read;
}

static void
suanli_counting_stream_init (SuanliCountingStream *self)
{
}

/* Returns: (transfer full): a stream reading @base, adding what it reads to *@counter. */
GInputStream *
suanli_counting_stream_new (GInputStream *base,
                            gsize        *counter)
{
  SuanliCountingStream *self = g_object_new (SUANLI_TYPE_COUNTING_STREAM, "base-stream", base, NULL);

  self->counter = counter;
  return G_INPUT_STREAM (self);
}
