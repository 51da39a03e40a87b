/* suanli-arg-table.c — every slice's arguments in one table (see the header)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>

#include "suanli-arg-table.h"

guint32
suanli_arg_table_add (SuanliArgTable  *table,
                      const SuanliArg *args,
                      guint            n_args)
{
  guint32 first = table->n;

  if (n_args == 0)
    return first;
  if (n_args > G_MAXUINT32 - first)
    g_error ("suanli_arg_table_add: %u arguments more would pass the table's limit of %u", n_args, G_MAXUINT32);
  if (first + n_args > table->size)
    {
      /* To a power of two of bytes, as GArray grew it, so that it takes what it took. */
      gsize bytes = 16;

      while (bytes < (first + (gsize) n_args) * sizeof (SuanliArg))
        bytes *= 2;
      table->items = g_realloc (table->items, bytes);
      table->size = bytes / sizeof (SuanliArg);
    }
  memcpy (table->items + first, args, n_args * sizeof (SuanliArg));
  table->n = first + n_args;
  return first;
}

void
suanli_arg_table_clear (SuanliArgTable *table)
{
  g_clear_pointer (&table->items, g_free);
  table->n = 0;
  table->size = 0;
}
