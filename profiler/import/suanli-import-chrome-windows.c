/* suanli-import-chrome-windows.c — the events array cut into windows and walked by simdjson
 *
 * yajl reads a trace's top level; when the events array opens, its elements are read here
 * instead, a window of whole elements at a time: the bytes read up to the last newline (no string
 * holds one); in a file without newlines, up to just past the last '}' when simdjson finds it
 * outside strings; else, and at the end of the file, up to the end of the last element a scan
 * finds whole. simdjson indexes the window (suanli-json-walker.cc) and walks
 * it, and each token is checked as yajl would check it and kept, with where it lies, in the
 * window's list (ChromeWindow), which suanli-import-chrome-replay.c hands to the callbacks yajl
 * calls, on this thread or another. Memory holds a few windows, never the file.
 *
 * Whatever yajl might read differently is left to yajl, from the end of the last element read
 * whole: the end of the array and what follows it, a malformed element, a number or word not
 * written as JSON writes it, a string with a control character, nesting past the importer's
 * limit and a run of bytes past the token budget. Strings with escapes are decoded by yajl itself.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define _GNU_SOURCE   /* memrchr */
#include "config.h"

#include <pthread.h>
#include <string.h>

#include "suanli-import-chrome-private.h"
#include "suanli-json-walker.h"

/* Read ahead of the walk: a window is what was read, past the last element walked, in reads of
 * this size at least. */
#define WINDOW_SIZE     (128 * 1024)
/* Windows made ahead for a reading thread: as many as can be in flight (three queued, the one
 * being handed over and the one being read) and one more. Buffers given back are kept for the
 * next windows, up to SPARE_BASES. */
#define SPARE_WINDOWS   6
#define SPARE_BASES     8

struct ChromeProducer
{
  GInputStream     *stream;
  GCancellable     *cancellable;
  SuanliImportLimits limits;
  gsize             window_size;      /* WINDOW_SIZE, or SUANLI_TRACE_WINDOW's bytes (tests) */
  int               events_depth;     /* the importer's depth between two elements */
  SuanliJsonWalker *walker;
  yajl_handle       decoder;          /* strings with escapes: yajl decodes them, as it always did */
  guchar           *base;             /* the allocation: a byte, the data, the padding */
  guchar           *data;             /* the bytes read and not walked, from a place between elements */
  gsize             length, size;     /* size: allocated, less SUANLI_JSON_PADDING and two */
  guint64           offset, line;     /* of data[0] in the file */
  gboolean          after_value;      /* data[0] follows an element (else the array's '[') */
  gboolean          at_eof;
  GError           *read_error;
  gboolean          ended;            /* yajl reads on from data[0] */
  gsize             wanted;           /* what to read before the next window */
  GArray           *ends;             /* of gsize: where each element the scan found ends in data */
  /* Windows and a buffer given back (chrome_producer_recycle), from the replaying thread */
  pthread_mutex_t   spare_lock;
  ChromeWindow     *spare_windows;    /* linked by next_spare (no GSList: GLib's slices cross threads unseen by TSan) */
  guchar           *spare_bases[SPARE_BASES];   /* of size + padding */
  guint             n_spare_bases;
  /* While a window is walked */
  ChromeWindow     *window;
};

/* ---- where the elements end -------------------------------------------------------------- */

static inline gboolean
is_space (guchar c)
{
  return c == ' ' || c == '\n' || c == '\r' || c == '\t';
}

/* Past the string whose quote is at @at; 0 when it does not end within @length. */
static gsize
string_end (const guchar *data,
            gsize         at,
            gsize         length)
{
  gsize from = at + 1;

  for (;;)
    {
      const guchar *quote = memchr (data + from, '"', length - from);
      gsize q, backslashes = 0;

      if (quote == NULL)
        return 0;
      q = (gsize) (quote - data);
      while (data[q - 1 - backslashes] == '\\')
        backslashes++;
      if (backslashes % 2 == 0)
        return q + 1;
      from = q + 1;
    }
}

/* Past the element (an object, array, string or scalar) beginning at @at; 0 when it does not
 * end within @length. Only brackets outside strings count: the walk checks the rest. */
static gsize
element_end (const guchar *data,
             gsize         at,
             gsize         length)
{
  int depth = 0;
  gsize i = at;

  if (data[at] == '"')
    return string_end (data, at, length);
  if (data[at] != '{' && data[at] != '[')
    {
      while (i < length && !is_space (data[i]) && data[i] != ',' && data[i] != ']' && data[i] != '}')
        i++;
      return i < length ? i : 0;
    }
  while (i < length)
    {
      switch (data[i])
        {
        case '"':
          i = string_end (data, i, length);
          if (i == 0)
            return 0;
          continue;
        case '{':
        case '[':
          depth++;
          break;
        case '}':
        case ']':
          if (--depth == 0)
            return i + 1;
          break;
        default:
          break;
        }
      i++;
    }
  return 0;
}

/* Finds the elements that end within the data, after a comma each but the first (which follows
 * the array's '[' or the element before): their ends go to producer->ends. TRUE when the scan
 * stopped for good (the array's end, or something yajl must judge); FALSE when it needs more. */
static gboolean
scan_elements (ChromeProducer *producer)
{
  const guchar *data = producer->data;
  gsize at = 0, length = producer->length, start;
  gboolean after_value = producer->after_value, after_comma = FALSE;
  guint64 longest = producer->limits.max_token;

  g_array_set_size (producer->ends, 0);
  for (;;)
    {
      start = at;
      while (at < length && is_space (data[at]))
        at++;
      if (at - start >= longest)
        return TRUE;   /* a long run of blanks: yajl counts them against the token budget */
      if (at == length)
        return FALSE;
      if (after_value && data[at] == ',' && !after_comma)
        {
          after_comma = TRUE;
          at++;
          continue;
        }
      if (after_value && !after_comma)
        return TRUE;   /* the array's end, or no comma */
      if (data[at] == ']' || data[at] == ',')
        return TRUE;
      start = at;
      at = element_end (data, start, length);
      if (at == 0)
        return length - start >= longest;
      if (at - start >= longest)
        return TRUE;
      g_array_append_val (producer->ends, at);
      after_value = TRUE;
      after_comma = FALSE;
    }
}

/* ---- strings with escapes, decoded ---------------------------------------------------- */

static int
keep_decoded (void                *ctx,
              const unsigned char *text,
              size_t               length)
{
  ChromeProducer *producer = ctx;

  g_byte_array_append (producer->window->decoded, text, (guint) length);
  return 1;
}

static const yajl_callbacks decoding = { .yajl_string = keep_decoded };

/* A string with a backslash or a control character, read by yajl from its quotes into the
 * window's decoded bytes: FALSE where yajl finds it malformed (and then reads it in the file, to
 * say so). */
static gboolean
decode_string (ChromeProducer *producer,
               const char     *text,
               gsize           length)
{
  if (producer->decoder == NULL)
    {
      producer->decoder = yajl_alloc (&decoding, NULL, producer);
      yajl_config (producer->decoder, yajl_allow_multiple_values, 1);
    }
  if (yajl_parse (producer->decoder, (const unsigned char *) text - 1, length + 2) != yajl_status_ok)
    {
      g_clear_pointer (&producer->decoder, yajl_free);
      return FALSE;
    }
  return TRUE;
}

/* Decodes the escaped strings of the element whose tokens begin at @first: FALSE where one is
 * malformed (yajl then reads the element in the file, to say so). */
static gboolean
decode_element (ChromeProducer *producer,
                guint           first)
{
  ChromeWindow *window = producer->window;

  for (guint t = first; t < window->tokens.n; t++)
    {
      SuanliJsonRecord *token = &window->tokens.items[t];
      guint at = window->decoded->len;

      if (!token->escaped)
        continue;
      if (!decode_string (producer, (const char *) producer->data + token->at, token->length))
        return FALSE;
      token->decoded = TRUE;
      token->at = at;
      token->length = window->decoded->len - at;
    }
  return TRUE;
}

/* ---- the windows ------------------------------------------------------------------------- */

/* Reads once when fewer than @wanted bytes lie past the walked part: a window is tried on what
 * was read before reading on, so that a pipe left open blocks only where yajl would block. */
static void
fill (ChromeProducer *producer,
      gsize           wanted)
{
  gssize got;

  if (producer->at_eof || producer->read_error != NULL || producer->length >= wanted)
    return;
  if (producer->size - producer->length < producer->window_size / 4)
    {
      pthread_mutex_lock (&producer->spare_lock);
      while (producer->n_spare_bases > 0)   /* of the size before */
        g_free (producer->spare_bases[--producer->n_spare_bases]);
      producer->size *= 2;
      pthread_mutex_unlock (&producer->spare_lock);
      producer->base = g_realloc (producer->base, producer->size + SUANLI_JSON_PADDING + 2);
      producer->data = producer->base + 1;
    }
  got = g_input_stream_read (producer->stream, producer->data + producer->length, producer->size - producer->length,
                             producer->cancellable, &producer->read_error);
  if (got > 0)
    producer->length += (gsize) got;
  else if (got == 0)
    producer->at_eof = TRUE;
}

/* A window with room for the tokens of @bytes of text (as many as most traces hold in them), or,
 * for 0, none until they come. */
static ChromeWindow *
window_alloc (gsize bytes)
{
  ChromeWindow *window = g_new0 (ChromeWindow, 1);

  window->decoded = g_byte_array_new ();
  window->tokens.size = (guint) (bytes / 4);
  window->tokens.items = bytes > 0 ? g_new (SuanliJsonRecord, window->tokens.size) : NULL;
  return window;
}

/* A window for the next elements: one given back, or a new one. */
static ChromeWindow *
window_new (ChromeProducer *producer)
{
  ChromeWindow *window;

  pthread_mutex_lock (&producer->spare_lock);
  window = producer->spare_windows;
  if (window != NULL)
    producer->spare_windows = g_steal_pointer (&window->next_spare);
  pthread_mutex_unlock (&producer->spare_lock);
  if (window == NULL)
    window = window_alloc (0);
  window->tokens.n = 0;
  window->n_elements = 0;
  g_byte_array_set_size (window->decoded, 0);
  window->offset = producer->offset;
  window->line = producer->line;
  window->after_value = producer->after_value;
  return window;
}

void
chrome_window_free (ChromeWindow *window)
{
  g_free (window->base);
  g_free (window->tokens.items);
  g_free (window->elements);
  g_byte_array_unref (window->decoded);
  g_clear_error (&window->read_error);
  g_free (window);
}

void
chrome_producer_recycle (ChromeProducer *producer,
                         ChromeWindow   *window)
{
  pthread_mutex_lock (&producer->spare_lock);
  if (window->base_size == producer->size && producer->n_spare_bases < SPARE_BASES)
    producer->spare_bases[producer->n_spare_bases++] = g_steal_pointer (&window->base);
  g_clear_pointer (&window->base, g_free);
  window->raw = NULL;
  window->raw_length = 0;
  window->next_spare = producer->spare_windows;
  producer->spare_windows = window;
  pthread_mutex_unlock (&producer->spare_lock);
}

/* The window takes the data walked, data[0, @bytes) with the buffer it is in; the rest moves to
 * another buffer (one given back, or a new one), from a place between elements. */
static void
hand_over (ChromeProducer *producer,
           gsize           bytes)
{
  ChromeWindow *window = producer->window;
  guchar *base;

  pthread_mutex_lock (&producer->spare_lock);
  base = producer->n_spare_bases > 0 ? producer->spare_bases[--producer->n_spare_bases] : NULL;
  pthread_mutex_unlock (&producer->spare_lock);
  if (base == NULL)
    base = g_malloc (producer->size + SUANLI_JSON_PADDING + 2);
  window->base = producer->base;
  window->base_size = producer->size;
  window->raw = producer->data;
  window->raw_length = bytes;
  producer->line += chrome_count_lines (producer->data, bytes);
  producer->offset += bytes;
  producer->length -= bytes;
  memcpy (base + 1, producer->data + bytes, producer->length);
  producer->base = base;
  producer->data = base + 1;
  producer->after_value = TRUE;
}

#define NEED_MORE (-2)

/* Where the next element begins, past blanks and the comma before it (none before the first);
 * -1 where something else comes (the array's end, or a fault), NEED_MORE where the data ends first. */
static gssize
next_element (ChromeProducer *producer,
              gsize           at,
              gboolean        after_value)
{
  const guchar *data = producer->data;

  while (at < producer->length && is_space (data[at]))
    at++;
  if (after_value && at < producer->length)
    {
      if (data[at] != ',')
        return -1;
      for (at++; at < producer->length && is_space (data[at]);)
        at++;
    }
  if (at == producer->length)
    return NEED_MORE;
  if (data[at] == ']' || data[at] == ',')
    return -1;
  return (gssize) at;
}

/* Walks the elements in data[@first, @end) as the array "[" them "]", the brackets written in
 * place over what was already read and what comes next (put back after), into the window's
 * tokens. Returns how many were walked whole; @consumed is then where what follows the last of
 * them begins. The tokens of an element it stopped in are dropped. @indexed says whether simdjson
 * took the window (not when it ends inside a string, or its text is malformed). */
static guint
walk_window (ChromeProducer *producer,
             gsize           first,
             gsize           end,
             gsize          *consumed,
             gboolean       *stopped,
             gboolean       *indexed)
{
  ChromeWindow *window = producer->window;
  guchar *data = producer->data, *open = producer->base + first;   /* the byte before data[first] */
  guchar before = *open, after = data[end];
  const char *next = (const char *) data + first;
  SuanliJsonChecks checks = { producer->limits.max_token, MAX_DEPTH - producer->events_depth };
  SuanliJsonStep step = SUANLI_JSON_STOPPED;
  guint walked = 0, escaped = 0, element_start = 0;

  *open = '[';
  data[end] = ']';
  *indexed = suanli_json_walker_index (producer->walker, (const char *) open, end - first + 2, (const char *) data,
                                       &checks, &window->tokens);
  if (*indexed)
    while ((step = suanli_json_walker_step (producer->walker, &next, &escaped)) == SUANLI_JSON_WALKED)
      {
        ChromeElement element = {
          window->tokens.n, (guint32) (next - (const char *) data),
          window->tokens.items[element_start].kind == SUANLI_JSON_OBJECT_START && escaped == 0,
        };

        if (escaped > 0 && !decode_element (producer, element_start))
          {
            step = SUANLI_JSON_STOPPED;
            break;
          }
        if (window->n_elements == window->elements_size)
          {
            /* Not a GArray: its every append divides (a slow instruction), and windows hold many */
            window->elements_size = MAX (2 * window->elements_size, 256);
            window->elements = g_renew (ChromeElement, window->elements, window->elements_size);
          }
        window->elements[window->n_elements++] = element;
        *consumed = element.raw_end;
        element_start = element.tokens;
        walked++;
      }
  *open = before;
  data[end] = after;
  window->tokens.n = element_start;
  *stopped = step != SUANLI_JSON_END;
  return walked;
}

/* The last newline in data[@from, length): no string holds one, so a window that ends there
 * ends outside strings. 0 when there is none. */
static gsize
last_newline (ChromeProducer *producer,
              gsize           from)
{
  const guchar *newline = memrchr (producer->data + from, '\n', producer->length - from);

  return newline != NULL ? (gsize) (newline - producer->data) : 0;
}

/* In data[@from, length): just past its last '}', where a window of a file without newlines
 * (PyTorch's own export writes a trace on one line) may end, when that brace is outside strings;
 * simdjson's index says so, as it refuses a window that ends inside a string. 0 when there is
 * none. Scanning for where each element ends, string by string, was a quarter of the time such a
 * file took to read; a byte search costs nothing like it, and the scan is left for a window
 * whose last brace was in a string. */
static gsize
after_last_brace (ChromeProducer *producer,
                  gsize           from)
{
  const guchar *brace = memrchr (producer->data + from, '}', producer->length - from);

  return brace != NULL ? (gsize) (brace - producer->data) + 1 : 0;
}

/* Whether more may be read for a window: not past the stream's end, nor for an element longer
 * than any token may be (yajl then says where the budget stopped it). */
static gboolean
may_read_on (ChromeProducer *producer)
{
  return !producer->at_eof && producer->read_error == NULL &&
         producer->length < producer->limits.max_token + producer->window_size;
}

/* After a window stopped in an element: whether the element was only cut short by the window's
 * end at @cut (the next window reads it whole) rather than malformed (yajl's to judge). */
static gboolean
cut_short (ChromeProducer *producer,
           gsize           cut)
{
  gssize first = next_element (producer, 0, producer->after_value);

  if (first == -1)
    return FALSE;
  return first == NEED_MORE || (gsize) first >= cut || element_end (producer->data, (gsize) first, cut) == 0;
}

/* One window into producer->window: the elements from the good place to the last newline read,
 * or to the end of the last element a scan finds whole. Returns FALSE when yajl must read on from
 * the good place, and sets producer->wanted to what to read before the next window. */
static gboolean
read_window (ChromeProducer *producer)
{
  gssize first = next_element (producer, 0, producer->after_value);
  gsize end = 0, consumed = 0;
  gboolean stopped, indexed = FALSE, scanned = FALSE, scan_ended = FALSE;
  guint walked = 0;

  producer->wanted = producer->window_size;
  if (first == -1)
    return FALSE;   /* the array's end, or a fault: yajl's */
  if (first >= 0 && !producer->at_eof && producer->read_error == NULL)
    {
      end = last_newline (producer, (gsize) first);
      if (end == 0 && (end = after_last_brace (producer, (gsize) first)) != 0)
        {
          walked = walk_window (producer, (gsize) first, end, &consumed, &stopped, &indexed);
          if (!indexed)
            end = 0;   /* the brace was in a string: the elements are scanned for */
        }
    }
  if (first >= 0 && end == 0)
    {
      scanned = TRUE;
      scan_ended = scan_elements (producer);
      if (producer->ends->len > 0)
        end = g_array_index (producer->ends, gsize, producer->ends->len - 1);
      else if (scan_ended)
        return FALSE;
    }
  if (end == 0)
    {
      /* Nothing whole yet: read on. */
      producer->wanted = producer->length + producer->window_size;
      return may_read_on (producer);
    }
  if (!indexed)
    walked = walk_window (producer, (gsize) first, end, &consumed, &stopped, &indexed);
  if (walked > 0)
    {
      hand_over (producer, consumed);
      producer->wanted = 0;   /* what is left after the cut: tried before reading on */
    }
  if (scanned)
    return !stopped && !scan_ended && (walked > 0 || may_read_on (producer));
  if (!stopped)
    return TRUE;
  if (!cut_short (producer, end - consumed))
    return FALSE;
  if (walked == 0)
    producer->wanted = producer->length + producer->window_size;
  return walked > 0 || may_read_on (producer);
}

/* The next window of elements read whole; or, once yajl is to read on (or @stop asks for it), the
 * last, which holds all the bytes read and not walked, and how the reading ended. */
ChromeWindow *
chrome_producer_next (ChromeProducer *producer,
                      gboolean        stop)
{
  ChromeWindow *window;

  while (!producer->ended && !stop)
    {
      producer->window = window_new (producer);
      fill (producer, producer->wanted);
      producer->ended = !read_window (producer);
      if (producer->window->raw != NULL)
        return g_steal_pointer (&producer->window);
      chrome_producer_recycle (producer, g_steal_pointer (&producer->window));
    }
  window = window_new (producer);
  window->last = TRUE;
  window->base = g_steal_pointer (&producer->base);
  window->base_size = producer->size;
  window->raw = producer->data;
  window->raw_length = producer->length;
  window->at_eof = producer->at_eof;
  window->read_error = g_steal_pointer (&producer->read_error);
  return window;
}

/* Reads the events array from its '[' on, which yajl has just read at @offset (and @line) with
 * the importer at @events_depth; the rest of the bytes yajl was given are @rest. */
ChromeProducer *
chrome_producer_new (GInputStream *stream,
                     GCancellable *cancellable,
                     const guchar *rest,
                     gsize         rest_length,
                     guint64       offset,
                     guint64       line,
                     int           events_depth)
{
  ChromeProducer *producer = g_new0 (ChromeProducer, 1);
  const char *window = g_getenv ("SUANLI_TRACE_WINDOW");

  producer->stream = g_object_ref (stream);
  producer->cancellable = cancellable != NULL ? g_object_ref (cancellable) : NULL;
  producer->limits = suanli_import_limits ();
  /* Tests read in small windows, to cut elements at every place. */
  producer->window_size = window != NULL ? CLAMP (g_ascii_strtoull (window, NULL, 10), 16, WINDOW_SIZE) : WINDOW_SIZE;
  producer->events_depth = events_depth;
  producer->walker = suanli_json_walker_new ();
  producer->offset = offset;
  producer->line = line;
  producer->ends = g_array_new (FALSE, FALSE, sizeof (gsize));
  pthread_mutex_init (&producer->spare_lock, NULL);
  /* A byte before the data, for the window's '[', and one after, for its ']'. */
  producer->size = MAX (2 * producer->window_size, rest_length);
  producer->base = g_malloc (producer->size + SUANLI_JSON_PADDING + 2);
  producer->data = producer->base + 1;
  memcpy (producer->data, rest, rest_length);
  producer->length = rest_length;
  return producer;
}

gboolean
chrome_producer_read_all (ChromeProducer *producer)
{
  return producer->ended || producer->at_eof || producer->read_error != NULL;
}

void
chrome_producer_make_spares (ChromeProducer *producer)
{
  /* Made on the reading thread, they went to a malloc arena of its own, whose pages stay resident
   * once freed (8 MB of a 1 GB trace's import, 17 MB at its summary's peak). Their pages are only
   * touched as they fill. */
  suanli_json_walker_reserve (producer->walker, producer->size + 2);
  pthread_mutex_lock (&producer->spare_lock);
  for (guint i = 0; i < SPARE_WINDOWS; i++)
    {
      ChromeWindow *spare = window_alloc (producer->size);

      spare->next_spare = producer->spare_windows;
      producer->spare_windows = spare;
      if (producer->n_spare_bases < SPARE_BASES)
        producer->spare_bases[producer->n_spare_bases++] = g_malloc (producer->size + SUANLI_JSON_PADDING + 2);
    }
  pthread_mutex_unlock (&producer->spare_lock);
}

void
chrome_producer_free (ChromeProducer *producer)
{
  while (producer->spare_windows != NULL)
    {
      ChromeWindow *spare = producer->spare_windows;

      producer->spare_windows = spare->next_spare;
      chrome_window_free (spare);
    }
  while (producer->n_spare_bases > 0)
    g_free (producer->spare_bases[--producer->n_spare_bases]);
  pthread_mutex_destroy (&producer->spare_lock);
  g_free (producer->base);
  g_clear_error (&producer->read_error);
  g_clear_pointer (&producer->decoder, yajl_free);
  g_array_unref (producer->ends);
  suanli_json_walker_free (producer->walker);
  g_clear_object (&producer->cancellable);
  g_object_unref (producer->stream);
  g_free (producer);
}
