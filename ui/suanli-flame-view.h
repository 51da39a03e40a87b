/* suanli-flame-view.h — the profiler's flame graph with its choices, its search and its
 * comparison, worked out off the main thread
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "suanli-trace.h"

G_BEGIN_DECLS

#define SUANLI_TYPE_FLAME_VIEW (suanli_flame_view_get_type ())

G_DECLARE_FINAL_TYPE (SuanliFlameView, suanli_flame_view, SUANLI, FLAME_VIEW, GtkWidget)

GtkWidget *suanli_flame_view_new           (void);
void       suanli_flame_view_set_trace     (SuanliFlameView *self,
                                            SuanliTrace     *trace);
void       suanli_flame_view_set_range     (SuanliFlameView *self,
                                            gint64           from,
                                            gint64           to);
void       suanli_flame_view_set_baseline  (SuanliFlameView *self,
                                            SuanliTrace     *baseline);
void       suanli_flame_view_compare_ranks (SuanliFlameView *self,
                                            guint            group,
                                            guint            baseline_group,
                                            const char      *description);
void       suanli_flame_view_search        (SuanliFlameView *self,
                                            const char      *text);
gboolean   suanli_flame_view_is_ready      (SuanliFlameView *self);
GtkWidget *suanli_flame_view_get_graph     (SuanliFlameView *self);

G_END_DECLS
