/* suanli-import-chrome.h — Chrome trace-event JSON, as PyTorch's profiler and Kineto write it
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "suanli-trace.h"

G_BEGIN_DECLS

/* What an import counted, for summaries. */
typedef struct
{
  guint64     events;        /* trace events read, metadata included */
  guint64     bytes;         /* JSON bytes parsed (after decompression) */
  GHashTable *by_category;   /* category string → slices (guint64 in a pointer) */
} SuanliImportStats;

void     suanli_import_stats_clear  (SuanliImportStats *stats);
gboolean suanli_import_chrome       (SuanliTrace       *trace,
                                     GInputStream      *stream,
                                     const char        *name,
                                     SuanliImportStats *stats,
                                     GCancellable      *cancellable,
                                     GError           **error);
gboolean suanli_import_chrome_any   (SuanliTrace       *trace,
                                     GInputStream      *input,
                                     const char        *name,
                                     SuanliImportStats *stats,
                                     GCancellable      *cancellable,
                                     GError           **error);
gboolean suanli_import_chrome_file  (SuanliTrace       *trace,
                                     GFile             *file,
                                     SuanliImportStats *stats,
                                     GCancellable      *cancellable,
                                     GError           **error);

G_END_DECLS
