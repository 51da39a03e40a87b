/* suanli-import-capture.c — reading a *.suanli-capture file (or any capture stream) into a trace
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "suanli-capture-decoder.h"
#include "suanli-import-capture.h"

#define BLOCK_SIZE (256 * 1024)

/* What the trace holds of this file, by category, for `trace summary`. */
static void
count_categories (SuanliTrace       *trace,
                  guint              group,
                  SuanliImportStats *stats)
{
  for (guint t = 0; t < suanli_trace_get_n_tracks (trace); t++)
    {
      SuanliTrack *track = suanli_trace_get_track (trace, t);

      if (track->group != group)
        continue;
      for (guint s = 0; s < track->slices->len; s++)
        {
          const char *category = suanli_trace_get_string (trace, g_array_index (track->slices, SuanliSlice, s).category);

          g_hash_table_replace (stats->by_category, (gpointer) category,
                                GSIZE_TO_POINTER (GPOINTER_TO_SIZE (g_hash_table_lookup (stats->by_category, category)) + 1));
        }
    }
}

/* The decoder's stream has ended with bytes after it: the next stream (a file `record` wrote for
 * several processes holds one after another). Finishes @decoder and returns one for the next, fed
 * those bytes; NULL with @error when the ended one fails to finish. */
static SuanliCaptureDecoder *
next_stream (SuanliTrace          *trace,
             SuanliCaptureDecoder *decoder,
             const char           *name,
             SuanliImportStats    *stats,
             GError              **error)
{
  g_autoptr(GBytes) rest = suanli_capture_decoder_steal_rest (decoder);
  SuanliCaptureDecoder *next;
  gsize size;
  gconstpointer data = g_bytes_get_data (rest, &size);

  if (!suanli_capture_decoder_finish (decoder, error))
    return NULL;
  stats->events += suanli_capture_decoder_get_records (decoder);
  count_categories (trace, suanli_trace_get_n_groups (trace) - 1, stats);
  next = suanli_capture_decoder_new (trace, name);
  if (!suanli_capture_decoder_feed (next, data, size, error))
    {
      suanli_capture_decoder_free (next);
      return NULL;
    }
  return next;
}

/**
 * suanli_import_capture:
 *
 * Reads the stream to its end in blocks: one capture, or several one after another (each a group
 * of its own: `record` of a command that started several CUDA processes). A stream cut short keeps
 * its whole records, with a warning; one that is not a capture fails with the byte offset where it
 * stops being one.
 */
gboolean
suanli_import_capture (SuanliTrace       *trace,
                       GInputStream      *input,
                       const char        *name,
                       SuanliImportStats *stats,
                       GCancellable      *cancellable,
                       GError           **error)
{
  g_autoptr(SuanliCaptureDecoder) decoder = suanli_capture_decoder_new (trace, name);
  g_autofree guint8 *block = g_malloc (BLOCK_SIZE);

  if (stats->by_category == NULL)
    stats->by_category = g_hash_table_new (g_str_hash, g_str_equal);
  for (;;)
    {
      gssize got = g_input_stream_read (input, block, BLOCK_SIZE, cancellable, error);

      if (got < 0)
        return FALSE;
      if (got == 0)
        break;
      stats->bytes += (guint64) got;
      if (!suanli_capture_decoder_feed (decoder, block, (gsize) got, error))
        return FALSE;
      while (suanli_capture_decoder_has_ended (decoder) && suanli_capture_decoder_has_rest (decoder))
        {
          SuanliCaptureDecoder *next = next_stream (trace, decoder, name, stats, error);

          if (next == NULL)
            return FALSE;
          suanli_capture_decoder_free (decoder);
          decoder = next;
        }
    }
  if (!suanli_capture_decoder_finish (decoder, error))
    return FALSE;
  stats->events += suanli_capture_decoder_get_records (decoder);
  count_categories (trace, suanli_trace_get_n_groups (trace) - 1, stats);
  return TRUE;
}
