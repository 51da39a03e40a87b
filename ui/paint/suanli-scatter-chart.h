/* suanli-scatter-chart.h — a scatter (or bubble) chart of items over two numeric specs
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "suanli-chart-style.h"

G_BEGIN_DECLS

typedef struct _SuanliScatterChart SuanliScatterChart;

SuanliScatterChart *suanli_scatter_chart_new          (void);
void                suanli_scatter_chart_free         (SuanliScatterChart     *chart);
void                suanli_scatter_chart_clear        (SuanliScatterChart     *chart);
void                suanli_scatter_chart_add_point    (SuanliScatterChart     *chart,
                                                       double                  x,
                                                       double                  y,
                                                       double                  size,
                                                       const char             *label);
void                suanli_scatter_chart_set_selected (SuanliScatterChart     *chart,
                                                       int                     index);
void                suanli_scatter_chart_set_faded    (SuanliScatterChart     *chart,
                                                       guint                   index,
                                                       gboolean                faded);
void                suanli_scatter_chart_set_axes     (SuanliScatterChart     *chart,
                                                       const char             *x_title,
                                                       gboolean                x_logarithmic,
                                                       const char             *y_title,
                                                       gboolean                y_logarithmic);
void                suanli_scatter_chart_draw         (SuanliScatterChart     *chart,
                                                       cairo_t                *cr,
                                                       double                  width,
                                                       double                  height,
                                                       const SuanliChartStyle *style);
void                suanli_scatter_chart_set_hovered  (SuanliScatterChart     *chart,
                                                       int                     index);
void                suanli_scatter_chart_set_marked   (SuanliScatterChart     *chart,
                                                       guint                   index,
                                                       gboolean                marked);
gboolean            suanli_scatter_chart_get_labelled (SuanliScatterChart     *chart,
                                                       guint                   index);
guint               suanli_scatter_chart_get_n_points (SuanliScatterChart     *chart);
gboolean            suanli_scatter_chart_get_position (SuanliScatterChart     *chart,
                                                       guint                   index,
                                                       double                 *x,
                                                       double                 *y);
int                 suanli_scatter_chart_hit          (SuanliScatterChart     *chart,
                                                       double                  x,
                                                       double                  y);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (SuanliScatterChart, suanli_scatter_chart_free)

G_END_DECLS
