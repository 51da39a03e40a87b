/* suanli-import.c — reading any trace file Suanli knows: gzip or not, told apart by its bytes
 *
 * The stream is buffered (suanli-peekable-stream.c) so that its first bytes can be looked at
 * without seeking: pipes and standard input work like files. gzip is recognised by its magic
 * number and inflated on the way (all its members, when several were concatenated); the format is
 * then sniffed from the first (inflated) bytes and the matching importer reads the rest.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>
#include <glib/gi18n.h>

#include "suanli-counting-stream.h"
#include "suanli-inflate-stream.h"
#include "suanli-import.h"
#include "suanli-import-capture.h"
#include "suanli-import-chrome.h"
#include "suanli-import-folded.h"
#include "suanli-import-nsys.h"
#include "suanli-peekable-stream.h"
#include "suanli-trace-format.h"

/* Sniffs the format from the head of @input (plain text by now) and hands it to its importer. */
static gboolean
import_text (SuanliTrace       *trace,
             GInputStream      *input,
             const char        *name,
             SuanliImportStats *stats,
             GCancellable      *cancellable,
             GError           **error)
{
  g_autoptr(GInputStream) text = suanli_peekable_stream_new (input, SUANLI_TRACE_SNIFF_LENGTH, cancellable, error);
  const guint8 *head;
  gsize available = 0;

  if (text == NULL)
    return FALSE;
  head = g_buffered_input_stream_peek_buffer (G_BUFFERED_INPUT_STREAM (text), &available);
  switch (suanli_trace_format_sniff (head, available))
    {
    case SUANLI_TRACE_FORMAT_FOLDED:
      return suanli_import_folded (trace, text, name, stats, cancellable, error);
    case SUANLI_TRACE_FORMAT_CAPTURE:
      return suanli_import_capture (trace, text, name, stats, cancellable, error);
    case SUANLI_TRACE_FORMAT_NSYS_SQLITE:
      /* SQLite reads files, not streams (suanli_import_file() hands it the file). */
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED,
                   _("%s: an SQLite database (Nsight Systems export) can only be read from a file, not a pipe or "
                     "standard input, or from inside gzip"), name);
      return FALSE;
    case SUANLI_TRACE_FORMAT_NSYS_REPORT:
      {
        g_autofree char *command = suanli_import_nsys_export_command (name);

        g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED,
                     _("%s: an Nsight Systems report, whose format is not public; Suanli reads its SQLite export, "
                       "which this command writes: %s"), name, command);
        return FALSE;
      }
    case SUANLI_TRACE_FORMAT_CHROME_JSON:
    case SUANLI_TRACE_FORMAT_UNKNOWN:
    default:
      /* Unknown bytes go to the JSON reader, whose error says where they stop making sense. */
      return suanli_import_chrome (trace, text, name, stats, cancellable, error);
    }
}

gboolean
suanli_import_stream (SuanliTrace       *trace,
                      GInputStream      *input,
                      const char        *name,
                      SuanliImportStats *stats,
                      GCancellable      *cancellable,
                      GError           **error)
{
  g_autoptr(GInputStream) raw = suanli_peekable_stream_new (input, 2, cancellable, error);
  const guint8 *head;
  gsize available = 0;

  if (raw == NULL)
    return FALSE;
  head = g_buffered_input_stream_peek_buffer (G_BUFFERED_INPUT_STREAM (raw), &available);
  if (available >= 2 && head[0] == 0x1f && head[1] == 0x8b)
    {
      g_autoptr(GInputStream) inflated = suanli_inflate_stream_new (raw, cancellable);
      g_autoptr(GError) inflating = NULL;

      if (import_text (trace, inflated, name, stats, cancellable, &inflating))
        return TRUE;
      /* The inflating stream's own words say where the gzip data failed, not which file. */
      if (!g_str_has_prefix (inflating->message, name))
        g_set_error (error, inflating->domain,
                     g_error_matches (inflating, G_IO_ERROR, G_IO_ERROR_PARTIAL_INPUT) ? G_IO_ERROR_INVALID_DATA
                                                                                      : inflating->code,
                     "%s: %s", name, inflating->message);
      else
        g_propagate_error (error, g_steal_pointer (&inflating));
      return FALSE;
    }
  return import_text (trace, raw, name, stats, cancellable, error);
}

/**
 * suanli_import_file_counted:
 * @progress: (nullable): grows, atomically, by the bytes of the file read (what the loader's
 *   fraction counts)
 *
 * Reads @file into @trace: through SQLite when it is a database on disk (an Nsight Systems
 * export), as a stream otherwise (a pipe too: its first bytes are peeked at, not read again).
 */
gboolean
suanli_import_file_counted (SuanliTrace       *trace,
                            GFile             *file,
                            SuanliImportStats *stats,
                            gsize             *progress,
                            GCancellable      *cancellable,
                            GError           **error)
{
  g_autoptr(GFileInputStream) input = g_file_read (file, cancellable, error);
  g_autofree char *name = g_file_get_parse_name (file);
  g_autofree char *path = g_file_get_path (file);
  g_autoptr(GInputStream) counted = NULL;
  g_autoptr(GInputStream) peekable = NULL;
  const guint8 *head;
  gsize available = 0;

  if (input == NULL)
    return FALSE;
  counted = progress != NULL ? suanli_counting_stream_new (G_INPUT_STREAM (input), progress)
                             : g_object_ref (G_INPUT_STREAM (input));
  peekable = suanli_peekable_stream_new (counted, sizeof SUANLI_NSYS_SQLITE_MAGIC, cancellable, error);
  if (peekable == NULL)
    return FALSE;
  head = g_buffered_input_stream_peek_buffer (G_BUFFERED_INPUT_STREAM (peekable), &available);
  if (path != NULL && available >= sizeof SUANLI_NSYS_SQLITE_MAGIC &&
      memcmp (head, SUANLI_NSYS_SQLITE_MAGIC, sizeof SUANLI_NSYS_SQLITE_MAGIC) == 0)
    {
      /* SQLite reads the file itself; the bytes peeked were counted already. */
      if (progress != NULL)
        g_atomic_pointer_add (progress, -(gssize) MIN (available, (gsize) G_MAXSSIZE));
      return suanli_import_nsys (trace, path, name, stats, progress, cancellable, error);
    }
  return suanli_import_stream (trace, peekable, name, stats, cancellable, error);
}

gboolean
suanli_import_file (SuanliTrace       *trace,
                    GFile             *file,
                    SuanliImportStats *stats,
                    GCancellable      *cancellable,
                    GError           **error)
{
  return suanli_import_file_counted (trace, file, stats, NULL, cancellable, error);
}
