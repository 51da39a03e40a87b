/* suanli-import-stats.h — what an import counted, shared by every importer and the loader
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

void suanli_import_stats_clear (SuanliImportStats *stats);

G_END_DECLS
