/* suanli-import-folded.c — collapsed ("folded") stacks: `frame;frame;frame COUNT [COUNT]`
 *
 * What FlameGraph's stackcollapse scripts, py-spy and PyTorch's export_stacks write. Each stack
 * becomes nested slices laid end to end on one track, a count wide (the trace's unit is then
 * "samples", not nanoseconds), sharing frames with the stack before it while their prefixes match:
 * a sorted file reads as a flame graph, any file as a flame chart. A second count column (a
 * differential file) becomes a second group: "before" and "after", side by side.
 *
 * Lines are split in chunks, never held whole beyond MAX_LINE; CRLF, blank lines, a UTF-8 BOM and
 * UTF-16 with a BOM are read; invalid lines are counted and the first is named in a warning.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>
#include <glib/gi18n.h>

#include "suanli-import-folded.h"
#include "suanli-import-limits.h"
#include "suanli-peekable-stream.h"

#define CHUNK_SIZE (64 * 1024)
#define MAX_LINE   (1024 * 1024)
/* Slices keep their depth in 8 bits: deeper frames are folded into one, named for how many. */
#define MAX_FRAMES 255
#define CURSOR_LIMIT (G_GINT64_CONSTANT (1) << 61)

/* One column's layout: where the next stack starts, and the frames still open. */
typedef struct
{
  SuanliTrack *track;
  gint64       cursor;
  GArray      *open;     /* of OpenFrame */
} Column;

typedef struct
{
  SuanliString name;
  gint64       start;
} OpenFrame;

typedef struct
{
  SuanliTrace       *trace;
  SuanliImportStats *stats;
  const char        *name;
  Column             columns[2];
  guint              n_columns;     /* 0 until the first valid line says 1 or 2 */
  guint64            line;
  guint64            invalid;
  guint64            first_invalid;
  GString           *pending;       /* a line not yet ended */
  gboolean           skipping;      /* inside a line longer than MAX_LINE */
  SuanliString       category;
  guint64            slices;
} FoldedImporter;

/* Ends the open frames deeper than @keep. They are appended parent first: a frame and its only
 * child can share start and width, and the (stable) sort must keep the parent above. */
static void
close_frames (FoldedImporter *importer,
              Column         *column,
              guint           keep)
{
  for (guint i = keep; i < column->open->len; i++)
    {
      OpenFrame *frame = &g_array_index (column->open, OpenFrame, i);
      SuanliSlice slice = {
        frame->start, column->cursor - frame->start, frame->name, importer->category, G_MAXUINT32, 0, 0, 0,
      };

      if (slice.duration > 0)
        {
          g_array_append_val (column->track->slices, slice);
          importer->slices++;
        }
    }
  if (column->open->len > keep)
    g_array_set_size (column->open, keep);
}

/* Lays one stack out in @column, @count wide. */
static void
add_stack (FoldedImporter *importer,
           Column         *column,
           SuanliString   *frames,
           guint           n_frames,
           guint64         count)
{
  guint common = 0;

  if (count == 0)
    return;
  while (common < n_frames && common < column->open->len &&
         g_array_index (column->open, OpenFrame, common).name == frames[common])
    common++;
  close_frames (importer, column, common);
  for (guint i = common; i < n_frames; i++)
    {
      OpenFrame frame = { frames[i], column->cursor };
      g_array_append_val (column->open, frame);
    }
  /* Saturates rather than wraps: 2^61 samples is beyond any real profile. */
  column->cursor += (gint64) MIN (count, (guint64) (CURSOR_LIMIT - column->cursor));
}

static gboolean
parse_count (const char *text,
             gsize       length,
             guint64    *count)
{
  guint64 value = 0;

  if (length == 0 || length > 18)
    return FALSE;
  for (gsize i = 0; i < length; i++)
    {
      if (!g_ascii_isdigit (text[i]))
        return FALSE;
      value = value * 10 + (guint64) (text[i] - '0');
    }
  *count = value;
  return TRUE;
}

/* Splits off the last space-separated word of text[0..*length): TRUE with it in @word. */
static gboolean
last_word (const char  *text,
           gsize       *length,
           const char **word,
           gsize       *word_length)
{
  gsize end = *length, start;

  while (end > 0 && (text[end - 1] == ' ' || text[end - 1] == '\t'))
    end--;
  start = end;
  while (start > 0 && text[start - 1] != ' ' && text[start - 1] != '\t')
    start--;
  if (start == end || start == 0)
    return FALSE;
  *word = text + start;
  *word_length = end - start;
  *length = start;
  return TRUE;
}

static void
start_columns (FoldedImporter *importer,
               guint           n_columns)
{
  static const char *labels[] = { N_("before"), N_("after") };

  importer->n_columns = n_columns;
  for (guint c = 0; c < n_columns; c++)
    {
      g_autofree char *group = n_columns == 1 ? g_strdup (importer->name)
                                              : g_strdup_printf ("%s (%s)", importer->name, _(labels[c]));
      Column *column = &importer->columns[c];

      suanli_trace_begin_group (importer->trace, group);
      column->track = suanli_trace_ensure_track (importer->trace, SUANLI_TRACK_THREAD, 0, 0,
                                                 suanli_trace_intern (importer->trace, _("Samples"), -1), NULL);
      column->open = g_array_new (FALSE, FALSE, sizeof (OpenFrame));
    }
}

static void
count_invalid (FoldedImporter *importer)
{
  if (importer->invalid++ == 0)
    importer->first_invalid = importer->line;
}

static void
read_line (FoldedImporter *importer,
           const char     *text,
           gsize           length)
{
  const char *word;
  gsize word_length, stack_length = length;
  guint64 counts[2] = { 0, 0 };
  guint n_counts = 0;
  SuanliString frames[MAX_FRAMES];
  guint n_frames = 0;
  gsize start = 0;

  importer->line++;
  if (length > 0 && text[length - 1] == '\r')
    length--, stack_length--;
  if (importer->line == 1 && length >= 3 && memcmp (text, "\xef\xbb\xbf", 3) == 0)
    text += 3, length -= 3, stack_length -= 3;
  while (length > 0 && g_ascii_isspace (text[0]))
    text++, length--, stack_length--;
  if (length == 0)
    return;

  /* One or two counts at the end; the stack is what comes before. */
  if (!last_word (text, &stack_length, &word, &word_length) || !parse_count (word, word_length, &counts[1]))
    {
      count_invalid (importer);
      return;
    }
  n_counts = 1;
  {
    gsize before = stack_length;
    const char *second;
    gsize second_length;

    if (last_word (text, &before, &second, &second_length) && parse_count (second, second_length, &counts[0]))
      {
        n_counts = 2;
        stack_length = before;
      }
  }
  while (stack_length > 0 && (text[stack_length - 1] == ' ' || text[stack_length - 1] == '\t'))
    stack_length--;
  if (stack_length == 0 || !g_utf8_validate (text, (gssize) stack_length, NULL))
    {
      count_invalid (importer);
      return;
    }
  if (importer->n_columns == 0)
    start_columns (importer, n_counts);
  if (n_counts != importer->n_columns)
    {
      count_invalid (importer);
      return;
    }

  for (gsize i = 0; i <= stack_length; i++)
    if (i == stack_length || text[i] == ';')
      {
        if (n_frames == MAX_FRAMES - 1 && i < stack_length)
          {
            /* The rest of a very deep stack, as one frame that says how deep it went. */
            guint rest = 1;
            g_autofree char *label = NULL;

            for (gsize j = i; j < stack_length; j++)
              rest += text[j] == ';';
            label = g_strdup_printf (ngettext ("… %u more frame", "… %u more frames", rest), rest);
            frames[n_frames++] = suanli_trace_intern (importer->trace, label, -1);
            break;
          }
        frames[n_frames++] = suanli_trace_intern (importer->trace, text + start, (gssize) (i - start));
        start = i + 1;
      }

  importer->stats->events++;
  if (importer->n_columns == 1)
    add_stack (importer, &importer->columns[0], frames, n_frames, counts[1]);
  else
    for (guint c = 0; c < 2; c++)
      add_stack (importer, &importer->columns[c], frames, n_frames, counts[c]);
}

/* Feeds a chunk: whole lines are read from it; the last, unfinished one waits in @pending. */
static void
feed (FoldedImporter *importer,
      const char     *chunk,
      gsize           length)
{
  const char *at = chunk, *end = chunk + length;

  while (at < end)
    {
      const char *newline = memchr (at, '\n', (gsize) (end - at));
      gsize piece = (gsize) ((newline != NULL ? newline : end) - at);

      if (!importer->skipping)
        {
          if (importer->pending->len + piece > MAX_LINE)
            {
              importer->skipping = TRUE;
              g_string_truncate (importer->pending, 0);
            }
          else if (newline != NULL && importer->pending->len == 0)
            read_line (importer, at, piece);
          else
            g_string_append_len (importer->pending, at, (gssize) piece);
        }
      if (newline == NULL)
        break;
      if (importer->skipping)
        {
          importer->line++;
          count_invalid (importer);
          importer->skipping = FALSE;
        }
      else if (importer->pending->len > 0)
        {
          read_line (importer, importer->pending->str, importer->pending->len);
          g_string_truncate (importer->pending, 0);
        }
      at = newline + 1;
    }
}

/* UTF-16 with a byte-order mark is converted to UTF-8 on the way in. */
static GInputStream *
decoded_stream (GInputStream  *input,
                GCancellable  *cancellable,
                GError       **error)
{
  g_autoptr(GInputStream) buffered = suanli_peekable_stream_new (input, 2, cancellable, error);
  const guint8 *head;
  gsize available = 0;

  if (buffered == NULL)
    return NULL;
  head = g_buffered_input_stream_peek_buffer (G_BUFFERED_INPUT_STREAM (buffered), &available);
  if (available >= 2 && ((head[0] == 0xff && head[1] == 0xfe) || (head[0] == 0xfe && head[1] == 0xff)))
    {
      g_autoptr(GCharsetConverter) converter = g_charset_converter_new ("UTF-8", "UTF-16", error);

      if (converter == NULL)
        return NULL;
      return g_converter_input_stream_new (buffered, G_CONVERTER (converter));
    }
  return g_steal_pointer (&buffered);
}

/* Reads folded stacks from @input into @trace. FALSE with @error when nothing valid was read. */
gboolean
suanli_import_folded (SuanliTrace       *trace,
                      GInputStream      *input,
                      const char        *name,
                      SuanliImportStats *stats,
                      GCancellable      *cancellable,
                      GError           **error)
{
  g_autoptr(GInputStream) stream = decoded_stream (input, cancellable, error);
  g_autofree char *buffer = g_malloc (CHUNK_SIZE);
  FoldedImporter importer = { trace, stats, name };
  gssize length;
  guint64 read_bytes = 0;
  SuanliImportLimits limits = suanli_import_limits ();
  gboolean ok = TRUE;

  if (stream == NULL)
    return FALSE;
  if (stats->by_category == NULL)
    stats->by_category = g_hash_table_new (g_str_hash, g_str_equal);
  importer.pending = g_string_new (NULL);
  importer.category = suanli_trace_intern (trace, "", 0);

  while ((length = g_input_stream_read (stream, buffer, CHUNK_SIZE, cancellable, error)) > 0)
    {
      stats->bytes += (guint64) length;
      read_bytes += (guint64) length;
      feed (&importer, buffer, (gsize) length);
      /* The same budget of text as the JSON importer's (a small gzip can inflate without end). */
      if (read_bytes > limits.max_bytes)
        {
          g_autofree char *warning = g_strdup_printf (_("%s: stopped reading at byte %llu (line %llu), keeping what "
                                                        "came before: %s"),
                                                      name, (unsigned long long) read_bytes,
                                                      (unsigned long long) importer.line + 1, _("more text than "
                                                      "SUANLI_TRACE_MAX_BYTES allows"));

          suanli_trace_add_warning (trace, warning);
          g_string_truncate (importer.pending, 0);   /* a line cut by the budget is not a stack */
          break;
        }
    }
  if (length < 0 && importer.n_columns > 0 && !g_error_matches (*error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    {
      /* A read error after some stacks (a cut gzip, bad UTF-16): keep them, and say where. */
      g_autofree char *warning = g_strdup_printf (_("%s: read up to byte %llu (line %llu), where reading failed: %s"),
                                                  name, (unsigned long long) read_bytes,
                                                  (unsigned long long) importer.line + 1, (*error)->message);

      suanli_trace_add_warning (trace, warning);
      g_clear_error (error);
      length = 0;
    }
  if (length < 0)
    ok = FALSE;
  else if (importer.skipping)
    {
      importer.line++;
      count_invalid (&importer);
    }
  else if (importer.pending->len > 0)
    read_line (&importer, importer.pending->str, importer.pending->len);
  g_string_free (importer.pending, TRUE);

  if (ok && importer.n_columns == 0)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                   _("%s: not folded stacks: none of its %llu lines reads “frame;frame count”"), name,
                   (unsigned long long) importer.line);
      ok = FALSE;
    }
  for (guint c = 0; c < importer.n_columns; c++)
    {
      if (ok)
        close_frames (&importer, &importer.columns[c], 0);
      g_array_unref (importer.columns[c].open);
    }
  if (!ok)
    return FALSE;

  if (importer.invalid > 0)
    {
      g_autofree char *warning = g_strdup_printf (ngettext ("%s: %llu line is not a stack and a count, "
                                                            "ignored (line %llu)",
                                                            "%s: %llu lines are not a stack and a count, "
                                                            "ignored (the first is line %llu)",
                                                            importer.invalid),
                                                  name, (unsigned long long) importer.invalid,
                                                  (unsigned long long) importer.first_invalid);
      suanli_trace_add_warning (trace, warning);
    }
  suanli_trace_set_metadata (trace, "unit", "samples");
  g_hash_table_replace (stats->by_category, (gpointer) "",
                        GSIZE_TO_POINTER (GPOINTER_TO_SIZE (g_hash_table_lookup (stats->by_category, "")) +
                                          importer.slices));
  suanli_trace_finish (trace);
  return TRUE;
}
