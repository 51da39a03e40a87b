/* suanli-stats-table.h — a sortable table of named figures (kernels, operators) with CSV export
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

typedef enum {
  SUANLI_STAT_COUNT,
  SUANLI_STAT_DURATION,   /* nanoseconds */
  SUANLI_STAT_PERCENT,
  SUANLI_STAT_FACTOR,     /* a ratio, shown as "×0.42" */
  SUANLI_STAT_NOTE,       /* the row's note (suanli_stat_row_set_note), not a figure */
} SuanliStatKind;

typedef struct
{
  const char     *title;
  SuanliStatKind  kind;
} SuanliStatColumn;

#define SUANLI_TYPE_STATS_TABLE (suanli_stats_table_get_type ())

G_DECLARE_FINAL_TYPE (SuanliStatsTable, suanli_stats_table, SUANLI, STATS_TABLE, GtkWidget)

GtkWidget *suanli_stats_table_new         (void);
void       suanli_stats_table_set_columns (SuanliStatsTable       *self,
                                           const char             *title,
                                           const SuanliStatColumn *columns,
                                           guint                   n_columns);
void       suanli_stats_table_set_rows    (SuanliStatsTable       *self,
                                           GListModel             *rows);
guint      suanli_stats_table_get_n_rows  (SuanliStatsTable       *self);
gboolean   suanli_stats_table_select      (SuanliStatsTable       *self,
                                           const char             *name);
char      *suanli_stats_table_to_csv      (SuanliStatsTable       *self);

G_END_DECLS
