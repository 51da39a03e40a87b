/* suanli-bar-chart.h — items ranked by one spec, as horizontal bars
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "suanli-chart-style.h"

G_BEGIN_DECLS

typedef struct _SuanliBarChart SuanliBarChart;

SuanliBarChart *suanli_bar_chart_new          (void);
void            suanli_bar_chart_free         (SuanliBarChart         *chart);
void            suanli_bar_chart_clear        (SuanliBarChart         *chart);
void            suanli_bar_chart_add_bar      (SuanliBarChart         *chart,
                                               const char             *label,
                                               double                  value,
                                               const char             *value_text);
void            suanli_bar_chart_set_selected (SuanliBarChart         *chart,
                                               int                     index);
void            suanli_bar_chart_set_marked   (SuanliBarChart         *chart,
                                               guint                   index,
                                               gboolean                marked);
double          suanli_bar_chart_get_height   (SuanliBarChart         *chart);
void            suanli_bar_chart_draw         (SuanliBarChart         *chart,
                                               cairo_t                *cr,
                                               double                  width,
                                               const SuanliChartStyle *style);
int             suanli_bar_chart_hit          (SuanliBarChart         *chart,
                                               double                  x,
                                               double                  y);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (SuanliBarChart, suanli_bar_chart_free)

G_END_DECLS
