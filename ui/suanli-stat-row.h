/* suanli-stat-row.h — one row of a statistics table: a name, its figures and a note
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib-object.h>

G_BEGIN_DECLS

#define SUANLI_STAT_ROW_N_VALUES 6

#define SUANLI_TYPE_STAT_ROW (suanli_stat_row_get_type ())

G_DECLARE_FINAL_TYPE (SuanliStatRow, suanli_stat_row, SUANLI, STAT_ROW, GObject)

SuanliStatRow *suanli_stat_row_new       (const char    *name,
                                          const double  *values,
                                          guint          n_values);
const char    *suanli_stat_row_get_name  (SuanliStatRow *self);
double         suanli_stat_row_get_value (SuanliStatRow *self,
                                          guint          index);
void           suanli_stat_row_set_note  (SuanliStatRow *self,
                                          const char    *note);
const char    *suanli_stat_row_get_note  (SuanliStatRow *self);

G_END_DECLS
