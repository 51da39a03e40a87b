/* suanli-timeline-painter.h — a trace's tracks on a time axis, drawn with cairo at any zoom
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "suanli-chart-style.h"
#include "suanli-trace.h"

G_BEGIN_DECLS

#define SUANLI_TIMELINE_RULER_HEIGHT 24.0
#define SUANLI_TIMELINE_GUTTER_WIDTH 180.0
#define SUANLI_TIMELINE_LANE_HEIGHT  18.0

typedef struct _SuanliTimelinePainter SuanliTimelinePainter;

/* The part of the trace in view: a time window, and how far down the rows are scrolled. */
typedef struct
{
  gint64 from;
  gint64 to;
  double scroll_y;
} SuanliTimelineView;

SuanliTimelinePainter *suanli_timeline_painter_new            (SuanliTrace           *trace);
void                   suanli_timeline_painter_free           (SuanliTimelinePainter *self);
void                   suanli_timeline_painter_refresh        (SuanliTimelinePainter *self);
double                 suanli_timeline_painter_content_height (SuanliTimelinePainter *self);
void                   suanli_timeline_painter_set_selected   (SuanliTimelinePainter *self,
                                                               guint                  track,
                                                               guint32                slice);
guint64                suanli_timeline_painter_set_search     (SuanliTimelinePainter *self,
                                                               const char            *text);
gboolean               suanli_timeline_painter_find_match     (SuanliTimelinePainter *self,
                                                               gint64                 time,
                                                               gboolean               forward,
                                                               guint                 *track,
                                                               guint32               *slice);
void                   suanli_timeline_painter_set_pinned     (SuanliTimelinePainter *self,
                                                               guint                  track,
                                                               gboolean               pinned);
gboolean               suanli_timeline_painter_is_pinned      (SuanliTimelinePainter *self,
                                                               guint                  track);
double                 suanli_timeline_painter_get_pinned_height (SuanliTimelinePainter *self);
void                   suanli_timeline_painter_set_range      (SuanliTimelinePainter *self,
                                                               gint64                 from,
                                                               gint64                 to);
void                   suanli_timeline_painter_set_collapsed  (SuanliTimelinePainter *self,
                                                               guint                  group,
                                                               gint64                 pid,
                                                               gboolean               collapsed);
GStrv                  suanli_timeline_painter_ruler_labels   (SuanliTimelinePainter    *self,
                                                               double                    width,
                                                               const SuanliTimelineView *view);
void                   suanli_timeline_painter_draw           (SuanliTimelinePainter    *self,
                                                               cairo_t                  *cr,
                                                               const SuanliChartStyle   *style,
                                                               double                    width,
                                                               double                    height,
                                                               const SuanliTimelineView *view);
gboolean               suanli_timeline_painter_hit            (SuanliTimelinePainter    *self,
                                                               double                    x,
                                                               double                    y,
                                                               double                    width,
                                                               const SuanliTimelineView *view,
                                                               guint                    *track,
                                                               guint32                  *slice);
gboolean               suanli_timeline_painter_track_y        (SuanliTimelinePainter    *self,
                                                               guint                     track,
                                                               double                   *y);
gboolean               suanli_timeline_painter_hit_track      (SuanliTimelinePainter    *self,
                                                               double                    y,
                                                               const SuanliTimelineView *view,
                                                               guint                    *track);
gboolean               suanli_timeline_painter_hit_header     (SuanliTimelinePainter    *self,
                                                               double                    y,
                                                               const SuanliTimelineView *view,
                                                               guint                    *group,
                                                               gint64                   *pid);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (SuanliTimelinePainter, suanli_timeline_painter_free)

G_END_DECLS
