/* suanli-inflate-stream.c — gzip inflated by ISA-L on its own thread, read as a plain stream
 *
 * Inflating a Kineto trace with zlib takes about as long as parsing it, and the importer did both
 * on one thread. Here a worker thread reads the compressed stream and inflates it with ISA-L's
 * igzip (several times zlib's speed) into a few large chunks, which the reader takes in order: on a
 * machine with two cores inflate and parse overlap, and on one they cost only igzip's time.
 *
 * The chunks go round between two queues (filled, to the reader; empty, back to the worker), so
 * memory stays at a few chunks whatever the file's size. Every member of a multi-member file
 * (`cat a.gz b.gz`, pigz, bgzip) is inflated, as gunzip does. A cut or corrupt file ends the stream
 * with an error that names the byte of the compressed data where it stopped; what came before it
 * has been read. Closing the stream (or dropping it) stops the worker, also while it waits on a
 * pipe, and the caller's GCancellable cancels both sides.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <pthread.h>
#include <string.h>
#include <isa-l/igzip_lib.h>
#include <glib/gi18n.h>

#include "suanli-inflate-stream.h"

#define CHUNK_SIZE   (1024 * 1024)   /* inflated bytes handed over at once */
#define N_CHUNKS     4               /* chunks in flight: the memory the stream holds */
#define INPUT_SIZE   (256 * 1024)    /* compressed bytes read at once */

typedef struct
{
  guchar  *data;
  gsize    length, consumed;
  gboolean last;          /* nothing follows: the end of the data, or @error */
  GError  *error;
} Chunk;

struct _SuanliInflateStream
{
  GInputStream  parent_instance;

  GInputStream *compressed;
  GCancellable *stop;            /* cancelled on close, and when the caller's cancellable is */
  GCancellable *caller;
  gulong        caller_handler;
  GThread      *worker;
  /* POSIX's lock rather than GLib's, which ThreadSanitizer cannot see into (futexes): the tests
   * run this stream under it. */
  pthread_mutex_t lock;
  pthread_cond_t  changed;
  GQueue          filled;        /* of Chunk, in order */
  GQueue          empty;         /* of Chunk, to be filled again */
  Chunk        *reading;         /* the chunk the reader is taking bytes from */
  gboolean      ended;
};

G_DEFINE_FINAL_TYPE (SuanliInflateStream, suanli_inflate_stream, G_TYPE_INPUT_STREAM)

static void
chunk_free (Chunk *chunk)
{
  g_clear_error (&chunk->error);
  g_free (chunk->data);
  g_free (chunk);
}

static void
put_chunk (SuanliInflateStream *self,
           GQueue              *queue,
           Chunk               *chunk,
           gboolean             first)
{
  pthread_mutex_lock (&self->lock);
  if (first)
    g_queue_push_head (queue, chunk);
  else
    g_queue_push_tail (queue, chunk);
  pthread_cond_broadcast (&self->changed);
  pthread_mutex_unlock (&self->lock);
}

/* The next chunk of @queue; NULL when it has none and @wait is FALSE. */
static Chunk *
take_chunk (SuanliInflateStream *self,
            GQueue              *queue,
            gboolean             wait)
{
  Chunk *chunk;

  pthread_mutex_lock (&self->lock);
  while (wait && g_queue_is_empty (queue))
    pthread_cond_wait (&self->changed, &self->lock);
  chunk = g_queue_pop_head (queue);
  pthread_mutex_unlock (&self->lock);
  return chunk;
}

/* What ISA-L's error codes mean, in words a user can act on. */
static const char *
inflate_fault (int status)
{
  switch (status)
    {
    case ISAL_INVALID_WRAPPER:
      return _("not a gzip header");
    case ISAL_UNSUPPORTED_METHOD:
      return _("compressed with a method gzip does not use");
    case ISAL_INCORRECT_CHECKSUM:
      return _("the checksum does not match: the data is damaged");
    case ISAL_INVALID_BLOCK:
    case ISAL_INVALID_SYMBOL:
    case ISAL_INVALID_LOOKBACK:
    default:
      return _("the compressed data is damaged");
    }
}

/* The worker's state while it inflates. */
typedef struct
{
  SuanliInflateStream *self;
  struct inflate_state state;
  guchar              *input;
  guint64              offset;    /* compressed bytes taken from the input so far */
  gboolean             input_ended;
  gboolean             input_short;   /* the last read gave less than asked: a pipe, most likely */
  gboolean             in_member; /* inside a member: its end has not been reached */
} Inflater;

/* Reads more compressed bytes when the last are used up. FALSE with @error on a read error. */
static gboolean
refill (Inflater *inflater,
        GError  **error)
{
  gssize got;

  if (inflater->state.avail_in > 0 || inflater->input_ended)
    return TRUE;
  /* Not every stream looks at its cancellable (memory and buffered ones do not): look here. */
  if (g_cancellable_set_error_if_cancelled (inflater->self->stop, error))
    return FALSE;
  got = g_input_stream_read (inflater->self->compressed, inflater->input, INPUT_SIZE, inflater->self->stop, error);
  if (got < 0)
    return FALSE;
  inflater->state.next_in = inflater->input;
  inflater->state.avail_in = (guint32) got;
  inflater->input_ended = got == 0;
  inflater->input_short = got < INPUT_SIZE;
  return TRUE;
}

/* Fills @chunk with inflated bytes until it is full or the data ends; FALSE (and @chunk->last with
 * its error) when it ends in a fault. */
static gboolean
fill_chunk (Inflater *inflater,
            Chunk    *chunk)
{
  struct inflate_state *state = &inflater->state;

  chunk->length = chunk->consumed = 0;
  while (chunk->length < CHUNK_SIZE)
    {
      guint32 before;
      int status;

      /* Before waiting on a pipe for more, hand over what it has given: the reader may need no more. */
      if (state->avail_in == 0 && inflater->input_short && chunk->length > 0)
        return TRUE;
      if (!refill (inflater, &chunk->error))
        return !(chunk->last = TRUE);
      if (state->avail_in == 0 && inflater->input_ended)
        {
          chunk->last = TRUE;
          if (inflater->in_member)
            g_set_error (&chunk->error, G_IO_ERROR, G_IO_ERROR_PARTIAL_INPUT,
                         _("the gzip data stops short at byte %llu: the file was cut before its end"),
                         (unsigned long long) inflater->offset);
          return chunk->error == NULL;
        }
      if (!inflater->in_member)
        {
          /* Anything after a member's end is another member. */
          const guint8 *next_in = state->next_in;
          guint32 avail_in = state->avail_in;

          isal_inflate_reset (state);
          state->next_in = (guint8 *) next_in;
          state->avail_in = avail_in;
          state->crc_flag = ISAL_GZIP;
          inflater->in_member = TRUE;
        }
      before = state->avail_in;
      state->next_out = chunk->data + chunk->length;
      state->avail_out = (guint32) (CHUNK_SIZE - chunk->length);
      status = isal_inflate (state);
      inflater->offset += before - state->avail_in;
      chunk->length = CHUNK_SIZE - state->avail_out;
      if (status < 0)
        {
          g_set_error (&chunk->error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA, _("at byte %llu of the gzip data: %s"),
                       (unsigned long long) inflater->offset, inflate_fault (status));
          return !(chunk->last = TRUE);
        }
      if (state->block_state == ISAL_BLOCK_FINISH)
        inflater->in_member = FALSE;
    }
  return TRUE;
}

static gpointer
inflate_worker (gpointer data)
{
  SuanliInflateStream *self = data;
  Inflater inflater = { .self = self };
  gboolean going = TRUE;

  inflater.input = g_malloc (INPUT_SIZE);
  isal_inflate_init (&inflater.state);
  while (going)
    {
      Chunk *chunk = take_chunk (self, &self->empty, TRUE);

      if (chunk->data == NULL && chunk->last)
        {
          chunk_free (chunk);   /* the stream closed: the sentinel */
          break;
        }
      if (chunk->data == NULL)
        chunk->data = g_malloc (CHUNK_SIZE);
      fill_chunk (&inflater, chunk);
      going = !chunk->last;
      put_chunk (self, &self->filled, chunk, FALSE);
    }
  g_free (inflater.input);
  return NULL;
}

static gssize
suanli_inflate_stream_read (GInputStream  *stream,
                            void          *buffer,
                            gsize          count,
                            GCancellable  *cancellable,
                            GError       **error)
{
  SuanliInflateStream *self = SUANLI_INFLATE_STREAM (stream);
  gsize given = 0;

  while (given < count)
    {
      Chunk *chunk = self->reading;
      gsize take;

      if (chunk == NULL)
        {
          if (self->ended)
            break;
          /* Wait for the next chunk only while nothing is given: a short read is a read. */
          chunk = self->reading = take_chunk (self, &self->filled, given == 0);
          if (chunk == NULL)
            break;
        }
      take = MIN (count - given, chunk->length - chunk->consumed);
      memcpy ((guchar *) buffer + given, chunk->data + chunk->consumed, take);
      chunk->consumed += take;
      given += take;
      if (chunk->consumed < chunk->length)
        break;
      if (!chunk->last)
        {
          put_chunk (self, &self->empty, g_steal_pointer (&self->reading), FALSE);
          continue;
        }
      if (chunk->error != NULL && given > 0)
        break;   /* the bytes now, the error with the next read */
      self->ended = TRUE;
      self->reading = NULL;
      if (chunk->error != NULL)
        {
          g_propagate_error (error, g_steal_pointer (&chunk->error));
          chunk_free (chunk);
          return -1;
        }
      chunk_free (chunk);
    }
  return (gssize) given;
}

/* Stops the worker (it may wait for an empty chunk, or on a read) and waits for it. */
static void
stop_worker (SuanliInflateStream *self)
{
  Chunk *sentinel;

  if (self->worker == NULL)
    return;
  g_cancellable_cancel (self->stop);
  sentinel = g_new0 (Chunk, 1);
  sentinel->last = TRUE;
  put_chunk (self, &self->empty, sentinel, TRUE);
  g_thread_join (g_steal_pointer (&self->worker));
}

static gboolean
suanli_inflate_stream_close (GInputStream  *stream,
                             GCancellable  *cancellable,
                             GError       **error)
{
  SuanliInflateStream *self = SUANLI_INFLATE_STREAM (stream);

  stop_worker (self);
  return g_input_stream_close (self->compressed, cancellable, error);
}

static void
suanli_inflate_stream_finalize (GObject *object)
{
  SuanliInflateStream *self = SUANLI_INFLATE_STREAM (object);

  stop_worker (self);
  if (self->caller != NULL)
    g_cancellable_disconnect (self->caller, self->caller_handler);
  g_clear_object (&self->caller);
  g_clear_pointer (&self->reading, chunk_free);
  g_queue_clear_full (&self->filled, (GDestroyNotify) chunk_free);
  g_queue_clear_full (&self->empty, (GDestroyNotify) chunk_free);
  pthread_cond_destroy (&self->changed);
  pthread_mutex_destroy (&self->lock);
  g_cancellable_release_fd (self->stop);
  g_object_unref (self->stop);
  g_object_unref (self->compressed);
  G_OBJECT_CLASS (suanli_inflate_stream_parent_class)->finalize (object);
}

static void
suanli_inflate_stream_class_init (SuanliInflateStreamClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = suanli_inflate_stream_finalize;
  G_INPUT_STREAM_CLASS (klass)->read_fn = suanli_inflate_stream_read;
  G_INPUT_STREAM_CLASS (klass)->close_fn = suanli_inflate_stream_close;
}

static void
suanli_inflate_stream_init (SuanliInflateStream *self)
{
  pthread_mutex_init (&self->lock, NULL);
  pthread_cond_init (&self->changed, NULL);
  g_queue_init (&self->filled);
  g_queue_init (&self->empty);
  self->stop = g_cancellable_new ();
  /* The wake-up descriptor a blocking read on a pipe polls, made here, before the worker starts:
   * made lazily on the worker, its creation and close()'s cancel met on two threads with nothing
   * between them that ThreadSanitizer sees (GLib guards it with a futex). Released in finalize. */
  g_cancellable_get_fd (self->stop);
}

static void
cancel_stop (GCancellable *caller,
             GCancellable *stop)
{
  g_cancellable_cancel (stop);
}

/**
 * suanli_inflate_stream_new:
 * @compressed: the gzip data, read on the stream's worker thread from now on
 * @cancellable: (nullable): cancels the inflating as well as the reads
 *
 * Returns: (transfer full): a stream of the inflated bytes
 */
GInputStream *
suanli_inflate_stream_new (GInputStream *compressed,
                           GCancellable *cancellable)
{
  SuanliInflateStream *self = g_object_new (SUANLI_TYPE_INFLATE_STREAM, NULL);

  self->compressed = g_object_ref (compressed);
  if (cancellable != NULL)
    {
      self->caller = g_object_ref (cancellable);
      self->caller_handler = g_cancellable_connect (cancellable, G_CALLBACK (cancel_stop), self->stop, NULL);
    }
  for (guint i = 0; i < N_CHUNKS; i++)
    g_queue_push_tail (&self->empty, g_new0 (Chunk, 1));
  self->worker = g_thread_new ("suanli-inflate", inflate_worker, self);
  return G_INPUT_STREAM (self);
}
