/* suanli-stacked-bar.h — parts of a whole as one bar, against a limit: memory per GPU, step time
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "suanli-chart-style.h"

G_BEGIN_DECLS

typedef struct _SuanliStackedBar SuanliStackedBar;

SuanliStackedBar *suanli_stacked_bar_new         (void);
void              suanli_stacked_bar_free        (SuanliStackedBar       *bar);
void              suanli_stacked_bar_clear       (SuanliStackedBar       *bar);
void              suanli_stacked_bar_add         (SuanliStackedBar       *bar,
                                                  const char             *label,
                                                  double                  value,
                                                  SuanliCategory          category,
                                                  const char             *value_text);
void              suanli_stacked_bar_set_limit   (SuanliStackedBar       *bar,
                                                  double                  limit,
                                                  const char             *label);
void              suanli_stacked_bar_tag_last    (SuanliStackedBar       *bar,
                                                  const char             *tag);
const char       *suanli_stacked_bar_tag_at      (SuanliStackedBar       *bar,
                                                  double                  x,
                                                  double                  y,
                                                  cairo_rectangle_t      *area);
double            suanli_stacked_bar_get_height  (SuanliStackedBar       *bar);
void              suanli_stacked_bar_draw        (SuanliStackedBar       *bar,
                                                  cairo_t                *cr,
                                                  double                  width,
                                                  const SuanliChartStyle *style);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (SuanliStackedBar, suanli_stacked_bar_free)

G_END_DECLS
