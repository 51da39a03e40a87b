/* suanli-import-chrome-windows.c — the events array read in windows through simdjson
 *
 * yajl reads a trace's top level; when the events array opens, the importer reads its elements
 * here instead: a window of whole elements at a time (found by a quick scan for where each ends,
 * outside strings) is indexed by simdjson (suanli-json-walker.cc), and its tokens are handed to
 * the same callbacks yajl calls, so that every rule the importer keeps holds unchanged. Memory
 * holds one window, never the file.
 *
 * Whatever yajl might read differently goes back to yajl, from the end of the last element read
 * whole: the end of the array and what follows it, a malformed element, a number or word not
 * written as JSON writes it, a string with a control character in it, and an element that comes
 * near a budget (suanli-import-limits.h), where yajl stops at the same byte it always stopped at.
 * Strings with escapes are decoded by yajl itself. So a trace reads to the same model, and a
 * fault to the same message at the same byte and line, whichever parser read each part.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define _GNU_SOURCE   /* memrchr */
#include "config.h"

#include <string.h>

#include "suanli-import-chrome-private.h"
#include "suanli-json-walker.h"

/* Read ahead of the walk: a window is what was read, past the last element walked, in reads of
 * this size at least. */
#define WINDOW_SIZE     (1024 * 1024)
/* An element can grow a trace's memory by at most this many times its length: a 3-byte "{}," adds
 * an instant, or at worst a track. Used to stop short of the memory budget. */
#define GROWTH_PER_BYTE 128

typedef struct
{
  Importer         *importer;
  GInputStream     *stream;
  GCancellable     *cancellable;
  SuanliImportLimits limits;
  gsize             window_size;      /* WINDOW_SIZE, or SUANLI_TRACE_WINDOW's bytes (tests) */
  SuanliJsonWalker *walker;
  yajl_handle       decoder;          /* strings with escapes: yajl decodes them, as it always did */
  GByteArray       *decoded;
  guchar           *base;             /* the allocation: a byte, the data, the padding */
  guchar           *data;             /* the bytes read and not walked, from a place between elements */
  gsize             length, size;     /* size: allocated, less SUANLI_JSON_PADDING */
  guint64           offset, line;     /* of data[0] in the file */
  gboolean          after_value;      /* data[0] follows an element (else the array's '[') */
  gboolean          at_eof;
  GError           *read_error;
  GArray           *ends;             /* of gsize: where each element the scan found ends in data */
} Windows;

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
 * the array's '[' or the element before): their ends go to windows->ends. TRUE when the scan
 * stopped for good (the array's end, or something yajl must judge); FALSE when it needs more. */
static gboolean
scan_elements (Windows *windows)
{
  const guchar *data = windows->data;
  gsize at = 0, length = windows->length, start;
  gboolean after_value = windows->after_value, after_comma = FALSE;
  guint64 longest = windows->limits.max_token;

  g_array_set_size (windows->ends, 0);
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
      g_array_append_val (windows->ends, at);
      after_value = TRUE;
      after_comma = FALSE;
    }
}

/* ---- tokens to the importer's callbacks ---------------------------------------------------- */

/* Whether any of @length bytes is a control character or a backslash: eight at a time. */
static gboolean
needs_a_closer_look (const char *text,
                     gsize       length)
{
  const guint64 ones = G_GUINT64_CONSTANT (0x0101010101010101), highs = ones * 0x80;
  gsize i = 0;

  for (; i + 8 <= length; i += 8)
    {
      guint64 word, backslash;

      memcpy (&word, text + i, 8);
      backslash = word ^ (ones * '\\');
      if ((((word - ones * 0x20) & ~word) | ((backslash - ones) & ~backslash)) & highs)
        return TRUE;
    }
  for (; i < length; i++)
    if ((guchar) text[i] < 0x20 || text[i] == '\\')
      return TRUE;
  return FALSE;
}

static int
keep_decoded (void                *ctx,
              const unsigned char *text,
              size_t               length)
{
  Windows *windows = ctx;

  g_byte_array_set_size (windows->decoded, 0);
  g_byte_array_append (windows->decoded, text, (guint) length);
  return 1;
}

static const yajl_callbacks decoding = { .yajl_string = keep_decoded };

/* A string with a backslash or a control character, read by yajl from its quotes: FALSE where
 * yajl finds it malformed (and then reads it in the file, to say so). */
static gboolean
decode_string (Windows    *windows,
               const char *text,
               gsize       length)
{
  if (windows->decoder == NULL)
    {
      windows->decoder = yajl_alloc (&decoding, NULL, windows);
      yajl_config (windows->decoder, yajl_allow_multiple_values, 1);
    }
  g_byte_array_set_size (windows->decoded, 0);
  if (yajl_parse (windows->decoder, (const unsigned char *) text - 1, length + 2) != yajl_status_ok)
    {
      g_clear_pointer (&windows->decoder, yajl_free);
      return FALSE;
    }
  return TRUE;
}

/* A number as JSON writes it, which is what yajl reads as one: -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)? */
static gboolean
is_json_number (const char *text,
                gsize       length)
{
  gsize i = 0, digits;

  if (i < length && text[i] == '-')
    i++;
  if (i < length && text[i] == '0')
    i++;
  else
    {
      for (digits = 0; i < length && g_ascii_isdigit (text[i]); i++)
        digits++;
      if (digits == 0)
        return FALSE;
    }
  if (i < length && text[i] == '.')
    {
      for (i++, digits = 0; i < length && g_ascii_isdigit (text[i]); i++)
        digits++;
      if (digits == 0)
        return FALSE;
    }
  if (i < length && (text[i] == 'e' || text[i] == 'E'))
    {
      i++;
      if (i < length && (text[i] == '+' || text[i] == '-'))
        i++;
      for (digits = 0; i < length && g_ascii_isdigit (text[i]); i++)
        digits++;
      if (digits == 0)
        return FALSE;
    }
  return i == length;
}

static gboolean
take_scalar (Importer   *importer,
             const char *text,
             gsize       length)
{
  importer->token_end = text + length;
  if (length == 4 && memcmp (text, "true", 4) == 0)
    return chrome_callbacks.yajl_boolean (importer, 1);
  if (length == 5 && memcmp (text, "false", 5) == 0)
    return chrome_callbacks.yajl_boolean (importer, 0);
  if (length == 4 && memcmp (text, "null", 4) == 0)
    return chrome_callbacks.yajl_null (importer);
  return is_json_number (text, length) && chrome_callbacks.yajl_number (importer, text, length);
}

static gboolean
take_string (Windows    *windows,
             gboolean    is_key,
             const char *text,
             gsize       length)
{
  Importer *importer = windows->importer;
  int (*take) (void *, const unsigned char *, size_t) = is_key ? chrome_callbacks.yajl_map_key
                                                                : chrome_callbacks.yajl_string;

  importer->token_end = text + length + 1;
  if (!needs_a_closer_look (text, length))
    return take (importer, (const unsigned char *) text, length);
  if (!decode_string (windows, text, length))
    return FALSE;
  return take (importer, windows->decoded->data, windows->decoded->len);
}

static gboolean
take_token (void           *ctx,
            SuanliJsonToken token,
            const char     *text,
            gsize           length)
{
  Windows *windows = ctx;
  Importer *importer = windows->importer;

  /* From the last token's end to this one's: what yajl counts against the token budget. */
  if (text != NULL && (guint64) (text + length - importer->token_end) >= windows->limits.max_token)
    return FALSE;
  switch (token)
    {
    case SUANLI_JSON_OBJECT_START:
      importer->token_end = text + 1;
      return chrome_callbacks.yajl_start_map (importer);
    case SUANLI_JSON_OBJECT_END:
      return chrome_callbacks.yajl_end_map (importer);
    case SUANLI_JSON_ARRAY_START:
      importer->token_end = text + 1;
      return chrome_callbacks.yajl_start_array (importer);
    case SUANLI_JSON_ARRAY_END:
      return chrome_callbacks.yajl_end_array (importer);
    case SUANLI_JSON_KEY:
    case SUANLI_JSON_STRING:
      return take_string (windows, token == SUANLI_JSON_KEY, text, length);
    case SUANLI_JSON_SCALAR:
      return take_scalar (importer, text, length);
    }
  return FALSE;
}

/* ---- the windows ------------------------------------------------------------------------- */

/* Reads once when fewer than @wanted bytes lie past the walked part: a window is tried on what
 * was read before reading on, so that a pipe left open blocks only where yajl would block. */
static void
fill (Windows *windows,
      gsize    wanted)
{
  gssize got;

  if (windows->at_eof || windows->read_error != NULL || windows->length >= wanted)
    return;
  if (windows->size - windows->length < windows->window_size / 4)
    {
      windows->size *= 2;
      windows->base = g_realloc (windows->base, windows->size + SUANLI_JSON_PADDING + 2);
      windows->data = windows->base + 1;
    }
  got = g_input_stream_read (windows->stream, windows->data + windows->length, windows->size - windows->length,
                             windows->cancellable, &windows->read_error);
  if (got > 0)
    windows->length += (gsize) got;
  else if (got == 0)
    windows->at_eof = TRUE;
}

/* Whether walking @bytes more could bring the importer to a budget: then yajl reads them. */
static gboolean
near_a_budget (Windows *windows,
               gsize    bytes)
{
  return windows->offset + bytes + CHUNK_SIZE > windows->limits.max_bytes ||
         chrome_held_bytes (windows->importer) + (guint64) bytes * GROWTH_PER_BYTE > windows->limits.max_memory;
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

/* Moves the good place past the first @bytes of the data (which end an element). */
static void
advance (Windows *windows,
         gsize    bytes)
{
  windows->line += chrome_count_lines (windows->data, bytes);
  windows->offset += bytes;
  windows->length -= bytes;
  memmove (windows->data, windows->data + bytes, windows->length);
  windows->after_value = TRUE;
}

#define NEED_MORE (-2)

/* Where the next element begins, past blanks and the comma before it (none before the first);
 * -1 where something else comes (the array's end, or a fault), NEED_MORE where the data ends first. */
static gssize
next_element (Windows *windows,
              gsize    at,
              gboolean after_value)
{
  const guchar *data = windows->data;

  while (at < windows->length && is_space (data[at]))
    at++;
  if (after_value && at < windows->length)
    {
      if (data[at] != ',')
        return -1;
      for (at++; at < windows->length && is_space (data[at]);)
        at++;
    }
  if (at == windows->length)
    return NEED_MORE;
  if (data[at] == ']' || data[at] == ',')
    return -1;
  return (gssize) at;
}

/* Walks the elements in data[@first, @end) as the array "[" them "]", the brackets written in
 * place over what was already read and what comes next (put back after). Returns how many were
 * walked whole; @consumed is then where what follows the last of them begins. */
static guint
walk_window (Windows *windows,
             gsize    first,
             gsize    end,
             gsize   *consumed,
             gboolean *stopped)
{
  Importer *importer = windows->importer;
  guchar *data = windows->data, before = data[first - 1], after = data[end];
  guint walked = 0;
  const char *next = (const char *) data + first;
  SuanliJsonStep step = SUANLI_JSON_STOPPED;

  /* Places are counted from the first element, as the byte before it is now the '['. */
  importer->window_base = (const char *) data + first;
  importer->window_at = (Place) { windows->offset + first, windows->line + chrome_count_lines (data, first) };
  importer->token_end = (const char *) data;
  data[first - 1] = '[';
  data[end] = ']';
  if (suanli_json_walker_index (windows->walker, (const char *) data + first - 1, end - first + 2))
    {
      importer->windowed = TRUE;
      while ((step = suanli_json_walker_step (windows->walker, take_token, windows, &next)) == SUANLI_JSON_WALKED)
        {
          walked++;
          *consumed = (gsize) (next - (const char *) data);
        }
      importer->windowed = FALSE;
    }
  data[first - 1] = before;
  data[end] = after;
  *stopped = step != SUANLI_JSON_END;
  if (*stopped)
    between_elements (importer);   /* the element it stopped in is read again, by a window or yajl */
  return walked;
}

/* The last newline in data[@from, length): no string holds one, so a window that ends there
 * ends outside strings. 0 when there is none. */
static gsize
last_newline (Windows *windows,
              gsize    from)
{
  const guchar *newline = memrchr (windows->data + from, '\n', windows->length - from);

  return newline != NULL ? (gsize) (newline - windows->data) : 0;
}

/* Whether more may be read for a window: not past the stream's end, nor for an element longer
 * than any token may be (yajl then says where the budget stopped it). */
static gboolean
may_read_on (Windows *windows)
{
  return !windows->at_eof && windows->read_error == NULL && windows->length < windows->limits.max_token + windows->window_size;
}

/* After a window stopped in an element: whether the element was only cut short by the window's
 * end at @cut (the next window reads it whole) rather than malformed (yajl's to judge). */
static gboolean
cut_short (Windows *windows,
           gsize    cut)
{
  gssize first = next_element (windows, 0, windows->after_value);

  if (first == -1)
    return FALSE;
  return first == NEED_MORE || (gsize) first >= cut || element_end (windows->data, (gsize) first, cut) == 0;
}

/* One window: the elements from the good place to the last newline read (most traces put one
 * event or member on a line), or, in a file without newlines and at the end of the file, to the
 * end of the last element a scan finds whole. Returns FALSE when yajl must read on from the good
 * place, and sets @wanted to what to read before the next window. */
static gboolean
read_window (Windows *windows,
             gsize   *wanted)
{
  gssize first = next_element (windows, 0, windows->after_value);
  gsize end = 0, consumed = 0;
  gboolean stopped, scanned = FALSE, scan_ended = FALSE;
  guint walked;

  *wanted = windows->window_size;
  if (first == -1)
    return FALSE;   /* the array's end, or a fault: yajl's */
  if (first >= 0 && !windows->at_eof && windows->read_error == NULL)
    end = last_newline (windows, (gsize) first);
  if (first >= 0 && end == 0)
    {
      scanned = TRUE;
      scan_ended = scan_elements (windows);
      if (windows->ends->len > 0)
        end = g_array_index (windows->ends, gsize, windows->ends->len - 1);
      else if (scan_ended)
        return FALSE;
    }
  if (end == 0)
    {
      /* Nothing whole yet: read on. */
      *wanted = windows->length + windows->window_size;
      return may_read_on (windows);
    }
  if (near_a_budget (windows, end))
    return FALSE;
  walked = walk_window (windows, (gsize) first, end, &consumed, &stopped);
  if (walked > 0)
    {
      advance (windows, consumed);
      *wanted = 0;   /* what is left after the last newline: tried before reading on */
    }
  if (scanned)
    return !stopped && !scan_ended && (walked > 0 || may_read_on (windows));
  if (!stopped)
    return TRUE;
  if (!cut_short (windows, end - consumed))
    return FALSE;
  if (walked == 0)
    *wanted = windows->length + windows->window_size;
  return walked > 0 || may_read_on (windows);
}

/* Reads the events array from its '[' on, which yajl has just read; the rest of the bytes of its
 * last chunk are @rest. Fills @resume with where yajl reads on, and the bytes read past it. */
void
chrome_read_windows (Importer      *importer,
                     GInputStream  *stream,
                     GCancellable  *cancellable,
                     const guchar  *rest,
                     gsize          rest_length,
                     guint64        offset,
                     guint64        line,
                     ChromeResume  *resume)
{
  Windows windows = {
    .importer = importer, .stream = stream, .cancellable = cancellable, .limits = suanli_import_limits (),
    .walker = suanli_json_walker_new (), .decoded = g_byte_array_new (), .offset = offset, .line = line,
    .ends = g_array_new (FALSE, FALSE, sizeof (gsize)),
  };
  gsize wanted = 0;
  const char *window = g_getenv ("SUANLI_TRACE_WINDOW");

  /* Tests read in small windows, to cut elements at every place. */
  windows.window_size = window != NULL ? CLAMP (g_ascii_strtoull (window, NULL, 10), 16, WINDOW_SIZE) : WINDOW_SIZE;
  windows.size = MAX (2 * windows.window_size, rest_length);

  /* A byte before the data, for the window's '[', and one after, for its ']'. */
  windows.base = g_malloc (windows.size + SUANLI_JSON_PADDING + 2);
  windows.data = windows.base + 1;
  memcpy (windows.data, rest, rest_length);
  windows.length = rest_length;
  do
    fill (&windows, wanted);
  while (read_window (&windows, &wanted));

  *resume = (ChromeResume) {
    .bytes = g_memdup2 (windows.data, windows.length), .length = windows.length, .error = windows.read_error,
    .offset = windows.offset, .line = windows.line, .after_value = windows.after_value,
  };
  g_free (windows.base);
  g_clear_pointer (&windows.decoder, yajl_free);
  g_byte_array_unref (windows.decoded);
  g_array_unref (windows.ends);
  suanli_json_walker_free (windows.walker);
}
