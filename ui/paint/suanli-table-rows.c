/* suanli-table-rows.c — the rows of a table a SuanliPageWriter draws
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <stdarg.h>

#include "suanli-table-rows.h"

/* Returns: (transfer full): an empty array of rows, each a NULL-terminated array of strings. */
GPtrArray *
suanli_table_rows_new (void)
{
  return g_ptr_array_new_with_free_func ((GDestroyNotify) g_strfreev);
}

/* Adds a row of copies of the strings given, up to NULL. */
void
suanli_table_row (GPtrArray  *rows,
                  const char *first,
                  ...)
{
  GStrvBuilder *builder = g_strv_builder_new ();
  va_list cells;

  va_start (cells, first);
  for (const char *cell = first; cell != NULL; cell = va_arg (cells, const char *))
    g_strv_builder_add (builder, cell);
  va_end (cells);
  g_ptr_array_add (rows, g_strv_builder_end (builder));
  g_strv_builder_unref (builder);
}

/* Adds a row of @n_cells strings, taking them (a NULL cell shows as empty). */
void
suanli_table_row_take (GPtrArray *rows,
                       guint      n_cells,
                       ...)
{
  char **row = g_new0 (char *, n_cells + 1);
  va_list cells;

  va_start (cells, n_cells);
  for (guint i = 0; i < n_cells; i++)
    {
      char *cell = va_arg (cells, char *);

      row[i] = cell != NULL ? cell : g_strdup ("");
    }
  va_end (cells);
  g_ptr_array_add (rows, row);
}
