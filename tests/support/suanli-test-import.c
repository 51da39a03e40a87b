/* suanli-test-import.c — importing a trace from text in a test, and finding what it made
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>

#include "suanli-import-chrome.h"
#include "suanli-test-import.h"

void
suanli_test_import_free (SuanliTestImport *imported)
{
  g_clear_object (&imported->trace);
  suanli_import_stats_clear (&imported->stats);
  g_clear_error (&imported->error);
  g_free (imported);
}

SuanliTestImport *
suanli_test_import_with (SuanliTestImportFunc import,
                         const char          *name,
                         const char          *text,
                         gsize                length)
{
  SuanliTestImport *imported = g_new0 (SuanliTestImport, 1);
  g_autoptr(GInputStream) stream = g_memory_input_stream_new_from_data (text, (gssize) length, NULL);

  imported->trace = suanli_trace_new ();
  imported->ok = import (imported->trace, stream, name, &imported->stats, NULL, &imported->error);
  return imported;
}

SuanliTestImport *
suanli_test_import_bytes (const char *text,
                          gsize       length)
{
  return suanli_test_import_with (suanli_import_chrome, "test.json", text, length);
}

SuanliTestImport *
suanli_test_import_text (const char *text)
{
  return suanli_test_import_bytes (text, strlen (text));
}

SuanliTrack *
suanli_test_find_track (SuanliTrace    *trace,
                        SuanliTrackKind kind,
                        gint64          pid,
                        gint64          tid)
{
  for (guint i = 0; i < suanli_trace_get_n_tracks (trace); i++)
    {
      SuanliTrack *track = suanli_trace_get_track (trace, i);
      if (track->kind == kind && track->pid == pid && (kind == SUANLI_TRACK_COUNTER || track->tid == tid))
        return track;
    }
  return NULL;
}

SuanliSlice *
suanli_test_slice_at (SuanliTrack *track,
                      guint        index)
{
  g_assert_nonnull (track);
  g_assert_cmpuint (index, <, track->slices->len);
  return &g_array_index (track->slices, SuanliSlice, index);
}

const char *
suanli_test_slice_name (SuanliTrace *trace,
                        SuanliTrack *track,
                        guint        index)
{
  return suanli_trace_get_string (trace, suanli_test_slice_at (track, index)->name);
}

gboolean
suanli_test_has_warning (SuanliTrace *trace,
                         const char  *part)
{
  GPtrArray *warnings = suanli_trace_get_warnings (trace);

  for (guint i = 0; i < warnings->len; i++)
    if (strstr (g_ptr_array_index (warnings, i), part) != NULL)
      return TRUE;
  return FALSE;
}

SuanliTestImport *
suanli_test_import_folded (const char *text,
                           gsize       length)
{
  return suanli_test_import_with (suanli_import_stream, "test.folded", text, length);
}

void
suanli_test_import_every_prefix (SuanliTestImportFunc import,
                                 const char          *name,
                                 const char          *text,
                                 gsize                length,
                                 guint                max_slices)
{
  for (gsize cut = 0; cut <= length; cut++)
    {
      g_autoptr(SuanliTestImport) imported = suanli_test_import_with (import, name, text, cut);

      if (imported->ok)
        g_assert_cmpuint (suanli_trace_get_n_slices (imported->trace), <=, max_slices);
      else
        g_assert_nonnull (imported->error);
    }
}

SuanliTrace *
suanli_test_load_file (const char *path)
{
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(GError) error = NULL;
  SuanliTrace *trace = suanli_trace_new ();
  SuanliImportStats stats = { 0 };

  g_assert_true (suanli_import_file (trace, file, &stats, NULL, &error));
  g_assert_no_error (error);
  suanli_import_stats_clear (&stats);
  return trace;
}
