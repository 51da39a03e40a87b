/* suanli-import-stats.c — what an import counted
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "suanli-import-stats.h"

void
suanli_import_stats_clear (SuanliImportStats *stats)
{
  g_clear_pointer (&stats->by_category, g_hash_table_unref);
  stats->events = 0;
  stats->bytes = 0;
}
