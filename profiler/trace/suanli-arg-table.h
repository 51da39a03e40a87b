/* suanli-arg-table.h — every slice's arguments in one table, a slice's together
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "suanli-trace.h"

G_BEGIN_DECLS

/* Grown as a GArray grows, but not one: GLib 2.74's g_array_append_vals() divides (a slow
 * instruction) at every call, and a trace's importer appends to this table for almost every event. */
typedef struct
{
  SuanliArg *items;
  guint32    n;
  gsize      size;     /* room for, in items */
} SuanliArgTable;

/* Appends @n_args arguments; returns the index of the first. */
guint32 suanli_arg_table_add   (SuanliArgTable  *table,
                                const SuanliArg *args,
                                guint            n_args);
void    suanli_arg_table_clear (SuanliArgTable  *table);

G_END_DECLS
