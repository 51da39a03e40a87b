/* suanli-test-import.h — importing a trace from text in a test, and finding what it made
 *
 * Shared by the importer's tests (test-trace*.c): each imports hand-written text and looks at the
 * tracks, slices and warnings that came of it; What If's tests load whole files with it.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>

#include "suanli-import.h"
#include "suanli-trace.h"

/* One import's result: the trace (what was kept even on failure), its counts and its error. */
typedef struct
{
  SuanliTrace       *trace;
  SuanliImportStats  stats;
  gboolean           ok;
  GError            *error;
} SuanliTestImport;

void suanli_test_import_free (SuanliTestImport *imported);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (SuanliTestImport, suanli_test_import_free)

/* An importer's signature (suanli_import_chrome, suanli_import_stream, …). */
typedef gboolean (*SuanliTestImportFunc) (SuanliTrace *, GInputStream *, const char *, SuanliImportStats *,
                                          GCancellable *, GError **);

SuanliTestImport *suanli_test_import_with  (SuanliTestImportFunc import,
                                            const char          *name,
                                            const char          *text,
                                            gsize                length);
/* @length bytes of @text through the Chrome importer, as "test.json". */
SuanliTestImport *suanli_test_import_bytes (const char          *text,
                                            gsize                length);
SuanliTestImport *suanli_test_import_text  (const char          *text);
/* Folded stacks through the sniffing entry point, as the app and the CLI read them. */
SuanliTestImport *suanli_test_import_folded (const char         *text,
                                             gsize               length);

/* The trace in the file at @path, which must import without an error. */
SuanliTrace *suanli_test_load_file (const char *path);

/* The first track of @kind for @pid and @tid (any tid for counters), or NULL. */
SuanliTrack *suanli_test_find_track   (SuanliTrace    *trace,
                                       SuanliTrackKind kind,
                                       gint64          pid,
                                       gint64          tid);
SuanliSlice *suanli_test_slice_at     (SuanliTrack    *track,
                                       guint           index);
const char  *suanli_test_slice_name   (SuanliTrace    *trace,
                                       SuanliTrack    *track,
                                       guint           index);
/* Whether a warning of @trace contains @part. */
gboolean     suanli_test_has_warning  (SuanliTrace    *trace,
                                       const char     *part);
/* Every prefix of the @length bytes of @text imports or fails cleanly: no crash, no leak (the
 * sanitizer build runs this too), and what it keeps, never more than @max_slices slices. */
void         suanli_test_import_every_prefix (SuanliTestImportFunc import,
                                              const char          *name,
                                              const char          *text,
                                              gsize                length,
                                              guint                max_slices);
