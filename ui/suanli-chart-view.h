/* suanli-chart-view.h — catalog items as a scatter chart of two specs, or ranked by one
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "suanli-item.h"
#include "suanli-units.h"

G_BEGIN_DECLS

#define SUANLI_TYPE_CHART_VIEW (suanli_chart_view_get_type ())

G_DECLARE_FINAL_TYPE (SuanliChartView, suanli_chart_view, SUANLI, CHART_VIEW, GtkWidget)

typedef enum {
  SUANLI_CHART_SCATTER,
  SUANLI_CHART_BARS,
} SuanliChartMode;

GtkWidget  *suanli_chart_view_new           (void);
void        suanli_chart_view_set_items     (SuanliChartView   *self,
                                             GListModel        *items);
void        suanli_chart_view_set_mode      (SuanliChartView   *self,
                                             SuanliChartMode    mode);
void        suanli_chart_view_set_specs     (SuanliChartView   *self,
                                             const char        *x_key,
                                             const char        *y_key,
                                             const char        *size_key);
void        suanli_chart_view_set_logarithmic (SuanliChartView *self,
                                             gboolean           x_logarithmic,
                                             gboolean           y_logarithmic);
void        suanli_chart_view_set_memory_units (SuanliChartView *self,
                                             SuanliMemoryUnits  units);
void        suanli_chart_view_set_selected  (SuanliChartView   *self,
                                             SuanliItem        *item);
SuanliItem *suanli_chart_view_get_item_at   (SuanliChartView   *self,
                                             double             x,
                                             double             y);
gboolean    suanli_chart_view_get_item_position (SuanliChartView *self,
                                             SuanliItem        *item,
                                             double            *x,
                                             double            *y);
const char *suanli_chart_view_get_left_out  (SuanliChartView   *self);
gboolean    suanli_chart_view_export        (SuanliChartView   *self,
                                             GFile             *file,
                                             GError           **error);

void             suanli_chart_view_set_compared      (SuanliChartView   *self,
                                                      GListModel        *items);
gboolean         suanli_chart_view_get_item_labelled (SuanliChartView   *self,
                                                      SuanliItem        *item);

G_END_DECLS
