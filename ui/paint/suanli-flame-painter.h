/* suanli-flame-painter.h — a flame graph of a SuanliFlame, laid out left-heavy and drawn with cairo
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "suanli-chart-style.h"
#include "suanli-flame.h"

G_BEGIN_DECLS

#define SUANLI_FLAME_ROW_HEIGHT 18.0

typedef struct _SuanliFlamePainter SuanliFlamePainter;

SuanliFlamePainter *suanli_flame_painter_new        (SuanliFlame        *flame,
                                                     gboolean            gpu);
void                suanli_flame_painter_free       (SuanliFlamePainter *self);
SuanliFlame        *suanli_flame_painter_get_flame  (SuanliFlamePainter *self);
gboolean            suanli_flame_painter_is_gpu     (SuanliFlamePainter *self);
void                suanli_flame_painter_set_focus  (SuanliFlamePainter *self,
                                                     guint               node);
guint               suanli_flame_painter_get_focus  (SuanliFlamePainter *self);
void                suanli_flame_painter_set_icicle (SuanliFlamePainter *self,
                                                     gboolean            icicle);
void                suanli_flame_painter_set_time_order (SuanliFlamePainter *self,
                                                         gboolean            time_order);
gboolean            suanli_flame_painter_get_time_order (SuanliFlamePainter *self);
void                suanli_flame_painter_set_by_category (SuanliFlamePainter *self,
                                                          gboolean            by_category);
double              suanli_flame_painter_set_search (SuanliFlamePainter *self,
                                                     const char         *text);
guint               suanli_flame_painter_get_depth  (SuanliFlamePainter *self);
void                suanli_flame_painter_draw       (SuanliFlamePainter     *self,
                                                     cairo_t                *cr,
                                                     const SuanliChartStyle *style,
                                                     double                  width,
                                                     double                  height);
gboolean            suanli_flame_painter_hit        (SuanliFlamePainter *self,
                                                     double              x,
                                                     double              y,
                                                     double              width,
                                                     double              height,
                                                     guint              *node);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (SuanliFlamePainter, suanli_flame_painter_free)

G_END_DECLS
