/* suanli-table-rows.h — the rows of a table a SuanliPageWriter draws
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* A table's rows, each a NULL-terminated array of strings. */
GPtrArray *suanli_table_rows_new (void);
void       suanli_table_row      (GPtrArray  *rows,
                                  const char *first,
                                  ...) G_GNUC_NULL_TERMINATED;
void       suanli_table_row_take (GPtrArray  *rows,
                                  guint       n_cells,
                                  ...);

G_END_DECLS
