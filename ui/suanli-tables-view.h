/* suanli-tables-view.h — the profiler's Kernels view: the trace's GPU kernels and CPU operators,
 * and every name in the range selected on the timeline
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "suanli-trace.h"

G_BEGIN_DECLS

#define SUANLI_TYPE_TABLES_VIEW (suanli_tables_view_get_type ())

G_DECLARE_FINAL_TYPE (SuanliTablesView, suanli_tables_view, SUANLI, TABLES_VIEW, GtkWidget)

/* The view's signals:
 *
 *  "row-selected"  void (*) (SuanliTablesView *view, const char *name, gpointer user_data)
 *                  A row was picked in one of the tables.
 *  "range-shown"   void (*) (SuanliTablesView *view, gint64 from, gint64 to, guint64 n_slices, gpointer user_data)
 *                  The range asked for is shown; @n_slices slices overlap it. */

GtkWidget *suanli_tables_view_new           (void);
void       suanli_tables_view_set_stats     (SuanliTablesView *self,
                                             SuanliTrace      *trace,
                                             GArray           *kernel_stats,
                                             GArray           *operator_stats);
void       suanli_tables_view_show_range    (SuanliTablesView *self,
                                             SuanliTrace      *trace,
                                             gint64            from,
                                             gint64            to);
void       suanli_tables_view_hide_range    (SuanliTablesView *self);
gboolean   suanli_tables_view_is_working    (SuanliTablesView *self);
GtkWidget *suanli_tables_view_get_kernels   (SuanliTablesView *self);
GtkWidget *suanli_tables_view_get_operators (SuanliTablesView *self);
GtkWidget *suanli_tables_view_get_range     (SuanliTablesView *self);

G_END_DECLS
