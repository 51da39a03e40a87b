/* suanli-import.h — reading any trace file Suanli knows: gzip or not, told apart by its bytes
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "suanli-trace.h"

G_BEGIN_DECLS

/* What an import counted, for summaries; several imports into one trace add up. */
typedef struct
{
  guint64     events;        /* trace events read, metadata included (folded: stacks) */
  guint64     bytes;         /* bytes parsed (after decompression) */
  GHashTable *by_category;   /* category string → slices (guint64 in a pointer) */
} SuanliImportStats;

void          suanli_import_stats_clear (SuanliImportStats *stats);
GInputStream *suanli_import_peekable    (GInputStream      *input,
                                         gsize              wanted,
                                         GCancellable      *cancellable,
                                         GError           **error);
gboolean suanli_import_stream      (SuanliTrace       *trace,
                                    GInputStream      *input,
                                    const char        *name,
                                    SuanliImportStats *stats,
                                    GCancellable      *cancellable,
                                    GError           **error);
gboolean suanli_import_file        (SuanliTrace       *trace,
                                    GFile             *file,
                                    SuanliImportStats *stats,
                                    GCancellable      *cancellable,
                                    GError           **error);

G_END_DECLS
