/* suanli-timeline.h — a trace's timeline: zoom, pan, select
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "suanli-trace.h"

G_BEGIN_DECLS

#define SUANLI_TYPE_TIMELINE (suanli_timeline_get_type ())

G_DECLARE_FINAL_TYPE (SuanliTimeline, suanli_timeline, SUANLI, TIMELINE, GtkWidget)

GtkWidget   *suanli_timeline_new            (void);
void         suanli_timeline_set_trace      (SuanliTimeline *self,
                                             SuanliTrace    *trace);
SuanliTrace *suanli_timeline_get_trace      (SuanliTimeline *self);
void         suanli_timeline_get_window     (SuanliTimeline *self,
                                             gint64         *from,
                                             gint64         *to);
void         suanli_timeline_set_window     (SuanliTimeline *self,
                                             gint64          from,
                                             gint64          to);
gint64       suanli_timeline_get_resolution (SuanliTimeline *self);
gboolean     suanli_timeline_get_selected   (SuanliTimeline *self,
                                             guint          *track,
                                             guint32        *slice);
void         suanli_timeline_select         (SuanliTimeline *self,
                                             guint           track,
                                             guint32         slice);
gboolean     suanli_timeline_slice_at       (SuanliTimeline *self,
                                             double          x,
                                             double          y,
                                             guint          *track,
                                             guint32        *slice);
void         suanli_timeline_set_pinned     (SuanliTimeline *self,
                                             guint           track,
                                             gboolean        pinned);
void         suanli_timeline_set_range      (SuanliTimeline *self,
                                             gint64          from,
                                             gint64          to);
gboolean     suanli_timeline_get_range      (SuanliTimeline *self,
                                             gint64         *from,
                                             gint64         *to);
guint64      suanli_timeline_search         (SuanliTimeline *self,
                                             const char     *text);
gboolean     suanli_timeline_select_at      (SuanliTimeline *self,
                                             double          x,
                                             double          y);

gboolean     suanli_timeline_export         (SuanliTimeline *self,
                                             GFile          *file,
                                             GError        **error);

G_END_DECLS
