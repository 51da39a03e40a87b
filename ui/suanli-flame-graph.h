/* suanli-flame-graph.h — a flame graph: click to zoom, search, flame or icicle
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "suanli-flame.h"
#include "suanli-flame-painter.h"

G_BEGIN_DECLS

#define SUANLI_TYPE_FLAME_GRAPH (suanli_flame_graph_get_type ())

G_DECLARE_FINAL_TYPE (SuanliFlameGraph, suanli_flame_graph, SUANLI, FLAME_GRAPH, GtkWidget)

GtkWidget   *suanli_flame_graph_new        (void);
void         suanli_flame_graph_set_painter (SuanliFlameGraph   *self,
                                             SuanliFlamePainter *painter);
void         suanli_flame_graph_set_flame  (SuanliFlameGraph *self,
                                            SuanliFlame      *flame,
                                            gboolean          gpu);
SuanliFlame *suanli_flame_graph_get_flame  (SuanliFlameGraph *self);
guint        suanli_flame_graph_get_focus  (SuanliFlameGraph *self);
void         suanli_flame_graph_set_focus  (SuanliFlameGraph *self,
                                            guint             node);
double       suanli_flame_graph_search     (SuanliFlameGraph *self,
                                            const char       *text);
void         suanli_flame_graph_set_by_category (SuanliFlameGraph *self,
                                                 gboolean          by_category);
void         suanli_flame_graph_set_icicle (SuanliFlameGraph *self,
                                            gboolean          icicle);
void         suanli_flame_graph_set_time_order (SuanliFlameGraph *self,
                                                gboolean          time_order);
char        *suanli_flame_graph_describe_focus (SuanliFlameGraph *self);

gboolean     suanli_flame_graph_export     (SuanliFlameGraph *self,
                                            GFile            *file,
                                            GError          **error);

G_END_DECLS
