/* suanli-trace-format.c — telling which importer reads a trace file, from its first bytes
 *
 * Only a prefix is read, so every test here must accept a head cut anywhere, even inside a
 * multi-byte character or a JSON string.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>
#include <glib/gi18n.h>

#include "suanli-trace-format.h"

static const guint8 gzip_magic[] = { 0x1f, 0x8b };
/* Every SQLite database starts so, its terminating NUL included. */
static const char sqlite_magic[16] = "SQLite format 3";
/* Nsight Systems' reports (.nsys-rep, and .qdrep before 2021.4) start so, then the version. */
static const char nsys_report_magic[] = "NVIDIA Tegra Profiler Report";

/* Keys that only a Chrome or Kineto trace has near its start. Kineto writes "schemaVersion" and
 * "deviceProperties" before "traceEvents", and deviceProperties can be kilobytes long. */
static const char *chrome_top_level_keys[] = {
  "\"traceEvents\"", "\"schemaVersion\"", "\"deviceProperties\"", "\"displayTimeUnit\"",
  "\"distributedInfo\"", "\"systemTraceEvents\"",
};

static gsize
skip_space (const guint8 *head,
            gsize         length,
            gsize         at)
{
  while (at < length && g_ascii_isspace (head[at]))
    at++;
  return at;
}

static gboolean
contains (const guint8 *head,
          gsize         length,
          const char   *needle)
{
  gsize needle_length = strlen (needle);

  if (needle_length > length)
    return FALSE;
  for (gsize i = 0; i + needle_length <= length; i++)
    if (head[i] == (guint8) needle[0] && memcmp (head + i, needle, needle_length) == 0)
      return TRUE;
  return FALSE;
}

static SuanliTraceFormat
sniff_json (const guint8 *head,
            gsize         length,
            gsize         at)
{
  if (head[at] == '[')
    {
      /* A bare array of events: the next token opens an event or closes an empty array. */
      at = skip_space (head, length, at + 1);
      if (at == length || head[at] == '{' || head[at] == ']')
        return SUANLI_TRACE_FORMAT_CHROME_JSON;
      return SUANLI_TRACE_FORMAT_UNKNOWN;
    }

  for (guint i = 0; i < G_N_ELEMENTS (chrome_top_level_keys); i++)
    if (contains (head, length, chrome_top_level_keys[i]))
      return SUANLI_TRACE_FORMAT_CHROME_JSON;
  return SUANLI_TRACE_FORMAT_UNKNOWN;
}

/* A folded line ends in one or two counts after the stack: "main;parse;lex 120" or "a;b 3 5". */
static gboolean
is_folded_line (const char *line,
                gsize       length)
{
  gsize end = length;
  guint counts = 0;

  while (end > 0 && (line[end - 1] == '\r' || line[end - 1] == ' ' || line[end - 1] == '\t'))
    end--;
  while (counts < 2 && end > 0 && g_ascii_isdigit (line[end - 1]))
    {
      gsize digits = end;

      while (digits > 0 && g_ascii_isdigit (line[digits - 1]))
        digits--;
      /* Digits that end a frame ("python3", "line 42" is two words) are not a second count. */
      if (digits == 0 || line[digits - 1] != ' ')
        {
          if (counts == 0)
            return FALSE;
          break;
        }
      end = digits - 1;
      counts++;
      while (end > 0 && line[end - 1] == ' ')
        end--;
    }
  return counts > 0 && end > 0;
}

static SuanliTraceFormat
sniff_folded (const char *text,
              gsize       length)
{
  guint lines = 0, invalid = 0;
  gsize start = 0;

  /* Judge whole lines only: the last one may be cut by the end of the head. A stray invalid line
   * (a header, a comment) does not stop a file that is mostly stacks. */
  for (gsize i = 0; i < length && lines + invalid < 16; i++)
    {
      if (text[i] != '\n')
        continue;
      if (i > start && !(i == start + 1 && text[start] == '\r'))
        {
          if (is_folded_line (text + start, i - start))
            lines++;
          else
            invalid++;
        }
      start = i + 1;
    }
  if (lines + invalid == 0 && start < length && is_folded_line (text + start, length - start))
    lines++;
  /* A first line longer than the whole head (a deep stack of long C++ names) has no end to judge:
   * text of frames joined by ';' that is not JSON (ruled out before) is taken as folded, and the
   * folded importer says which line is wrong when one is. */
  if (lines + invalid == 0 && length >= SUANLI_TRACE_SNIFF_LENGTH && memchr (text, ';', length) != NULL &&
      memchr (text, '\0', length) == NULL)
    lines++;
  return lines > 0 && lines > invalid ? SUANLI_TRACE_FORMAT_FOLDED : SUANLI_TRACE_FORMAT_UNKNOWN;
}

static SuanliTraceFormat
sniff_utf16 (const guint8 *head,
             gsize         length)
{
  const char *encoding = head[0] == 0xff ? "UTF-16LE" : "UTF-16BE";
  g_autofree char *text = NULL;
  gsize read = 0, written = 0;

  /* Convert whole code units only; a head cut inside a surrogate pair loses its last character. */
  length = (length - 2) & ~(gsize) 1;
  text = g_convert ((const char *) head + 2, length, "UTF-8", encoding, &read, &written, NULL);
  if (text == NULL && read > 0)
    text = g_convert ((const char *) head + 2, read, "UTF-8", encoding, NULL, &written, NULL);
  if (text == NULL)
    return SUANLI_TRACE_FORMAT_UNKNOWN;
  return sniff_folded (text, written);
}

SuanliTraceFormat
suanli_trace_format_sniff (const guint8 *head,
                           gsize         length)
{
  gsize at = 0;

  g_return_val_if_fail (head != NULL || length == 0, SUANLI_TRACE_FORMAT_UNKNOWN);

  if (length >= 8 && memcmp (head, "SUANLICP", 8) == 0)
    return SUANLI_TRACE_FORMAT_CAPTURE;
  if (length >= sizeof sqlite_magic && memcmp (head, sqlite_magic, sizeof sqlite_magic) == 0)
    return SUANLI_TRACE_FORMAT_NSYS_SQLITE;
  if (length >= strlen (nsys_report_magic) && memcmp (head, nsys_report_magic, strlen (nsys_report_magic)) == 0)
    return SUANLI_TRACE_FORMAT_NSYS_REPORT;
  if (length >= 2 && ((head[0] == 0xff && head[1] == 0xfe) || (head[0] == 0xfe && head[1] == 0xff)))
    return sniff_utf16 (head, length);
  if (length >= 3 && head[0] == 0xef && head[1] == 0xbb && head[2] == 0xbf)
    at = 3;

  at = skip_space (head, length, at);
  if (at == length)
    return SUANLI_TRACE_FORMAT_UNKNOWN;
  /* Folded frames may start with a bracket too ("[unknown];foo 5", "{anon};bar 2"). */
  if ((head[at] == '{' || head[at] == '[') && sniff_json (head, length, at) == SUANLI_TRACE_FORMAT_CHROME_JSON)
    return SUANLI_TRACE_FORMAT_CHROME_JSON;
  return sniff_folded ((const char *) head + at, length - at);
}

static gssize
read_head (GInputStream  *stream,
           guint8        *buffer,
           GCancellable  *cancellable,
           GError       **error)
{
  gsize length = 0;

  if (!g_input_stream_read_all (stream, buffer, SUANLI_TRACE_SNIFF_LENGTH, &length, cancellable, error))
    return -1;
  return (gssize) length;
}

/* Reads the first SUANLI_TRACE_SNIFF_LENGTH bytes of @file, inflated when it is gzipped (then
 * @compressed is set). Returns: (transfer full): the head, maybe shorter or empty; NULL on error. */
GBytes *
suanli_trace_format_read_head (GFile         *file,
                               gboolean      *compressed,
                               GCancellable  *cancellable,
                               GError       **error)
{
  g_autoptr(GFileInputStream) input = NULL;
  g_autofree guint8 *head = NULL;
  gssize length;

  g_return_val_if_fail (G_IS_FILE (file), NULL);

  if (compressed != NULL)
    *compressed = FALSE;

  input = g_file_read (file, cancellable, error);
  if (input == NULL)
    return NULL;

  head = g_malloc (SUANLI_TRACE_SNIFF_LENGTH);
  length = read_head (G_INPUT_STREAM (input), head, cancellable, error);
  if (length < 0)
    return NULL;

  if (length >= 2 && memcmp (head, gzip_magic, sizeof gzip_magic) == 0)
    {
      g_autoptr(GZlibDecompressor) decompressor = g_zlib_decompressor_new (G_ZLIB_COMPRESSOR_FORMAT_GZIP);
      g_autoptr(GInputStream) inflated = NULL;
      g_autoptr(GError) inflate_error = NULL;

      if (!g_seekable_seek (G_SEEKABLE (input), 0, G_SEEK_SET, cancellable, error))
        return NULL;
      if (compressed != NULL)
        *compressed = TRUE;
      inflated = g_converter_input_stream_new (G_INPUT_STREAM (input), G_CONVERTER (decompressor));
      length = read_head (inflated, head, cancellable, &inflate_error);
      if (length < 0)
        {
          g_propagate_prefixed_error (error, g_steal_pointer (&inflate_error),
                                      _("Cannot decompress the start of the file: "));
          return NULL;
        }
    }

  return g_bytes_new_take (g_steal_pointer (&head), (gsize) length);
}

/* Sniffs @file, looking inside gzip compression. Sets @compressed when the file is gzipped. */
SuanliTraceFormat
suanli_trace_format_sniff_file (GFile         *file,
                                gboolean      *compressed,
                                GCancellable  *cancellable,
                                GError       **error)
{
  g_autoptr(GBytes) head = suanli_trace_format_read_head (file, compressed, cancellable, error);
  gsize length = 0;
  const guint8 *data;

  if (head == NULL)
    return SUANLI_TRACE_FORMAT_UNKNOWN;
  data = g_bytes_get_data (head, &length);
  return suanli_trace_format_sniff (data, length);
}

const char *
suanli_trace_format_describe (SuanliTraceFormat format)
{
  switch (format)
    {
    case SUANLI_TRACE_FORMAT_CHROME_JSON:
      return _("Chrome trace JSON (PyTorch, Kineto)");
    case SUANLI_TRACE_FORMAT_FOLDED:
      return _("Folded stacks");
    case SUANLI_TRACE_FORMAT_CAPTURE:
      return _("Suanli capture (CUPTI)");
    case SUANLI_TRACE_FORMAT_NSYS_SQLITE:
      return _("Nsight Systems SQLite export");
    case SUANLI_TRACE_FORMAT_NSYS_REPORT:
      return _("Nsight Systems report");
    case SUANLI_TRACE_FORMAT_UNKNOWN:
    default:
      return _("Unknown format");
    }
}
