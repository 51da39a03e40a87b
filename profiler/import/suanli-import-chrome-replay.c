/* suanli-import-chrome-replay.c — the windows' tokens handed to the importer's callbacks, in order
 *
 * The events array is cut into windows and walked by simdjson (suanli-import-chrome-windows.c);
 * here each window's tokens go to the callbacks yajl calls (suanli-import-chrome-tokens.c), in
 * the order of the file. Where the machine has a second core, the windows are read and walked on
 * a thread of their own while this one hands the last window's tokens over: the importer sees
 * the same tokens in the same order whatever the number of threads (SUANLI_IMPORT_THREADS sets
 * it; 1 keeps everything on this thread).
 *
 * Before a window, the budgets are checked: where walking it could come near one, yajl reads on
 * from the window's start and stops at the very byte it always stopped at. yajl then gets every
 * byte read and not handed over, in order.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <stdlib.h>

#include "suanli-handoff-queue.h"
#include "suanli-import-chrome-private.h"

/* An element can grow a trace's memory by at most this many times its length: a 3-byte "{}," adds
 * an instant, or at worst a track. Used to stop short of the memory budget. */
#define GROWTH_PER_BYTE   128
/* Windows read ahead of the one handed over: each is 128 KiB of text and its tokens. */
#define WINDOWS_IN_FLIGHT 3
/* Windows read on this thread before the others are read on a thread of their own. */
#define WINDOWS_BEFORE_A_THREAD 2

typedef struct
{
  ChromeProducer     *producer;
  SuanliHandoffQueue *queue;     /* NULL: windows are made on this thread, when wanted */
  GThread            *thread;
  gint                stop;      /* atomic: the producer is to hand back what it read */
} Windows;

static gpointer
produce (gpointer data)
{
  Windows *windows = data;
  gboolean last;

  do
    {
      ChromeWindow *window = chrome_producer_next (windows->producer, g_atomic_int_get (&windows->stop));

      last = window->last;   /* read before the window is handed over: the other thread frees it */
      suanli_handoff_queue_push (windows->queue, window);
    }
  while (!last);
  return NULL;
}

/* The next window; with @stop, until the last, which holds what the producer read past them. */
static ChromeWindow *
next_window (Windows *windows,
             gboolean stop)
{
  if (windows->queue == NULL)
    return chrome_producer_next (windows->producer, stop);
  if (stop)
    g_atomic_int_set (&windows->stop, 1);
  return suanli_handoff_queue_pop (windows->queue);
}

static guint
import_threads (void)
{
  const char *threads = g_getenv ("SUANLI_IMPORT_THREADS");

  if (threads != NULL)
    return (guint) CLAMP (atoi (threads), 1, 64);
  return g_get_num_processors () > 1 ? 2 : 1;
}

/* Whether handing the window over could bring the importer near a budget: then yajl reads it. */
static gboolean
near_a_budget (Importer                 *importer,
               const SuanliImportLimits *limits,
               const ChromeWindow       *window)
{
  return window->offset + window->raw_length + CHUNK_SIZE > limits->max_bytes ||
         chrome_held_bytes (importer) + (guint64) window->raw_length * GROWTH_PER_BYTE > limits->max_memory;
}

/* The state between two elements of the events array, as yajl leaves it there. */
static void
between_elements (Importer *importer)
{
  importer->depth = importer->events_depth;
  importer->in_event = importer->in_args = importer->in_id2 = FALSE;
  importer->skip_depth = importer->array_depth = 0;
  g_clear_error (&importer->limit_error);
}

/* Hands the window's tokens to the callbacks, element by element. Returns G_MAXSIZE, or, where a
 * callback stopped (the producer checks nesting, so none should), the end of the element before
 * it in the window's bytes, for yajl to read on from. */
static gsize
replay_window (Importer           *importer,
               const ChromeWindow *window)
{
  guint t = 0;

  importer->windowed = TRUE;
  importer->window_base = (const char *) window->raw;
  importer->window_at = (Place) { window->offset, window->line };
  for (guint e = 0; e < window->n_elements; e++)
    {
      const ChromeElement *element = &window->elements[e];
      guint end = element->tokens;

      if (element->plain)
        {
          chrome_take_plain_event (importer, window->tokens.items, t, end, (const char *) window->raw);
          t = end;
        }
      else if ((t = chrome_take_tokens (importer, window->tokens.items, t, end, (const char *) window->raw,
                                   (const char *) window->decoded->data)) != end)
        {
          importer->windowed = FALSE;
          between_elements (importer);
          return e > 0 ? window->elements[e - 1].raw_end : 0;
        }
    }
  importer->windowed = FALSE;
  return G_MAXSIZE;
}

/* Where yajl reads on: @at in @window's bytes, with them and every byte read after them. */
static void
resume_at (Windows      *windows,
           ChromeWindow *window,
           gsize         at,
           ChromeResume *resume)
{
  GByteArray *bytes = g_byte_array_new ();

  *resume = (ChromeResume) {
    .offset = window->offset + at, .line = window->line + chrome_count_lines (window->raw, at),
    .after_value = at > 0 || window->after_value,
  };
  g_byte_array_append (bytes, window->raw + at, (guint) (window->raw_length - at));
  while (!window->last)
    {
      chrome_window_free (window);
      window = next_window (windows, TRUE);
      g_byte_array_append (bytes, window->raw, (guint) window->raw_length);
    }
  resume->error = g_steal_pointer (&window->read_error);
  resume->length = bytes->len;
  resume->bytes = g_byte_array_free (bytes, FALSE);
  chrome_window_free (window);
}

/* Reads the events array from its '[' on, which yajl has just read; the rest of the bytes of its
 * last chunk are @rest. Fills @resume with where yajl reads on, and the bytes read past it. */
void
chrome_read_windows (Importer     *importer,
                     GInputStream *stream,
                     GCancellable *cancellable,
                     const guchar *rest,
                     gsize         rest_length,
                     guint64       offset,
                     guint64       line,
                     ChromeResume *resume)
{
  SuanliImportLimits limits = suanli_import_limits ();
  Windows windows = {
    .producer = chrome_producer_new (stream, cancellable, rest, rest_length, offset, line, importer->events_depth),
  };
  gboolean threaded = import_threads () > 1;
  ChromeWindow *window;
  gsize stop = G_MAXSIZE;

  for (guint read = 1; !(window = next_window (&windows, FALSE))->last; read++)
    {
      stop = near_a_budget (importer, &limits, window) ? 0 : replay_window (importer, window);
      if (stop != G_MAXSIZE)
        break;
      chrome_producer_recycle (windows.producer, window);
      /* The first windows on this thread: a trace read whole by then (most small ones) is walked
       * sooner than a thread starts, and with no windows made ahead. */
      if (threaded && read == WINDOWS_BEFORE_A_THREAD && !chrome_producer_read_all (windows.producer))
        {
          chrome_producer_make_spares (windows.producer);
          windows.queue = suanli_handoff_queue_new (WINDOWS_IN_FLIGHT);
          windows.thread = g_thread_new ("suanli-json", produce, &windows);
        }
    }
  resume_at (&windows, window, stop != G_MAXSIZE ? stop : 0, resume);
  if (windows.thread != NULL)
    {
      g_thread_join (windows.thread);
      suanli_handoff_queue_free (windows.queue);
    }
  chrome_producer_free (windows.producer);
}
