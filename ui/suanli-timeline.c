/* suanli-timeline.c — a trace's timeline: zoom, pan, select
 *
 * The drawing is SuanliTimelinePainter's (ui/paint), one cairo node per frame; this widget keeps
 * the time window and the vertical scroll, and turns input into them:
 *   Ctrl+wheel or pinch   zoom around the pointer      W / S   zoom in / out around the middle
 *   wheel                 scroll the rows              A / D   pan left / right
 *   Shift+wheel, drag     pan                          F       zoom to the selected slice
 *   click                 select a slice, or fold a process    0       show everything
 *   drag on the ruler     select a time range                  Escape  forget the range
 *   click a track's name  pin it under the ruler (or unpin)    P       pin the selected slice's track
 *   [ and ]               the slice before or after on its lane   Up / Down  its parent / first child
 *   J                     to the other end of its flow (launch ↔ kernel)
 * The keys are the actions timeline.zoom-in, zoom-out, pan-left, pan-right, zoom-to-selection and
 * reset, so a test or a menu can use them too. "slice-selected" says what was clicked. A search
 * fades what does not match; timeline.next-match and previous-match step through the matches.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>

#include "suanli-drawing-setup.h"
#include "suanli-image-export.h"
#include "suanli-timeline.h"
#include "suanli-timeline-painter.h"
#include "suanli-units.h"

#define ZOOM_STEP      1.5
#define PAN_FRACTION   0.2
#define MIN_SPAN_NS    1000     /* 1 µs across the whole width at most */
#define WHEEL_PIXELS   40.0
#define TOOLTIP_ARGS   4

struct _SuanliTimeline
{
  GtkWidget              parent_instance;

  SuanliTrace           *trace;
  SuanliTimelinePainter *painter;
  gint64                 first, last;     /* the trace's time range */
  SuanliTimelineView     view;
  gboolean               has_selection;
  guint                  selected_track;
  guint32                selected_slice;
  double                 drag_from, drag_scroll;
  gint64                 drag_window_from;
  double                 pointer_x;
  double                 pinch_scale;     /* the pinch's scale when last applied */
  gboolean               selecting_range; /* a drag that began on the ruler */
  gint64                 range_anchor;
  gint64                 range_from, range_to;   /* equal when no range is selected */
};

G_DEFINE_FINAL_TYPE (SuanliTimeline, suanli_timeline, GTK_TYPE_WIDGET)

enum {
  SLICE_SELECTED,
  RANGE_CHANGED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

static double
time_width (SuanliTimeline *self)
{
  return MAX (gtk_widget_get_width (GTK_WIDGET (self)) - SUANLI_TIMELINE_GUTTER_WIDTH, 1);
}

static void
clamp_view (SuanliTimeline *self)
{
  gint64 full = MAX (self->last - self->first, MIN_SPAN_NS);
  gint64 span = CLAMP (self->view.to - self->view.from, MIN_SPAN_NS, full);
  double max_scroll = MAX (0, suanli_timeline_painter_content_height (self->painter) -
                              (gtk_widget_get_height (GTK_WIDGET (self)) - SUANLI_TIMELINE_RULER_HEIGHT -
                               suanli_timeline_painter_get_pinned_height (self->painter)));

  self->view.from = CLAMP (self->view.from, self->first, self->first + full - span);
  self->view.to = self->view.from + span;
  self->view.scroll_y = CLAMP (self->view.scroll_y, 0, max_scroll);
}

static void
set_view (SuanliTimeline *self,
          gint64          from,
          gint64          to,
          double          scroll_y)
{
  if (self->painter == NULL)
    return;
  self->view.from = from;
  self->view.to = to;
  self->view.scroll_y = scroll_y;
  clamp_view (self);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

/* Zooms by @factor (> 1 in) keeping the time under @x where it is. */
static void
zoom_around (SuanliTimeline *self,
             double          factor,
             double          x)
{
  double fraction = CLAMP ((x - SUANLI_TIMELINE_GUTTER_WIDTH) / time_width (self), 0, 1);
  double span = (double) (self->view.to - self->view.from);
  double new_span = MAX (span / factor, MIN_SPAN_NS);
  gint64 anchor = self->view.from + (gint64) (span * fraction);
  gint64 from = anchor - (gint64) (new_span * fraction);

  set_view (self, from, from + (gint64) new_span, self->view.scroll_y);
}

static void
pan (SuanliTimeline *self,
     double          fraction)
{
  gint64 shift = (gint64) ((double) (self->view.to - self->view.from) * fraction);

  set_view (self, self->view.from + shift, self->view.to + shift, self->view.scroll_y);
}

static void
snapshot (GtkWidget   *widget,
          GtkSnapshot *gtk_snapshot)
{
  SuanliTimeline *self = SUANLI_TIMELINE (widget);
  double width = gtk_widget_get_width (widget), height = gtk_widget_get_height (widget);
  SuanliChartStyle style = suanli_drawing_style ();
  cairo_t *cr;

  if (self->painter == NULL || (cr = suanli_drawing_begin (widget, gtk_snapshot)) == NULL)
    return;
  clamp_view (self);
  suanli_timeline_painter_draw (self->painter, cr, &style, width, height, &self->view);
  cairo_destroy (cr);
}

static void
zoom_in_action (GtkWidget  *widget,
                const char *action_name,
                GVariant   *parameter)
{
  SuanliTimeline *self = SUANLI_TIMELINE (widget);

  zoom_around (self, ZOOM_STEP, SUANLI_TIMELINE_GUTTER_WIDTH + time_width (self) / 2);
}

static void
zoom_out_action (GtkWidget  *widget,
                 const char *action_name,
                 GVariant   *parameter)
{
  SuanliTimeline *self = SUANLI_TIMELINE (widget);

  zoom_around (self, 1 / ZOOM_STEP, SUANLI_TIMELINE_GUTTER_WIDTH + time_width (self) / 2);
}

static void
pan_left_action (GtkWidget  *widget,
                 const char *action_name,
                 GVariant   *parameter)
{
  pan (SUANLI_TIMELINE (widget), -PAN_FRACTION);
}

static void
pan_right_action (GtkWidget  *widget,
                  const char *action_name,
                  GVariant   *parameter)
{
  pan (SUANLI_TIMELINE (widget), PAN_FRACTION);
}

static void
reset_action (GtkWidget  *widget,
              const char *action_name,
              GVariant   *parameter)
{
  SuanliTimeline *self = SUANLI_TIMELINE (widget);

  set_view (self, self->first, self->last, self->view.scroll_y);
}

/* The selected range fills the width, or else the selected slice fills the middle 80% of it. */
static void
zoom_to_selection_action (GtkWidget  *widget,
                          const char *action_name,
                          GVariant   *parameter)
{
  SuanliTimeline *self = SUANLI_TIMELINE (widget);
  SuanliSlice *slice;
  gint64 margin;

  if (self->range_to > self->range_from)
    {
      set_view (self, self->range_from, self->range_to, self->view.scroll_y);
      return;
    }
  if (!self->has_selection)
    return;
  slice = &g_array_index (suanli_trace_get_track (self->trace, self->selected_track)->slices, SuanliSlice,
                          self->selected_slice);
  margin = MAX (slice->duration / 8, MIN_SPAN_NS / 2);
  set_view (self, slice->start - margin, slice->start + slice->duration + margin, self->view.scroll_y);
}

/* Brings the selected slice into view when it is outside it, keeping the zoom: its time, and its
 * row when that is scrolled off (a search match on a thread far down, say). */
static void
reveal_selection (SuanliTimeline *self)
{
  SuanliSlice *slice = &g_array_index (suanli_trace_get_track (self->trace, self->selected_track)->slices, SuanliSlice,
                                       self->selected_slice);
  gint64 span = self->view.to - self->view.from;
  double rows = gtk_widget_get_height (GTK_WIDGET (self)) - SUANLI_TIMELINE_RULER_HEIGHT -
                suanli_timeline_painter_get_pinned_height (self->painter);
  double scroll_y = self->view.scroll_y, y;
  gint64 from = self->view.from;

  if (slice->start + slice->duration < self->view.from || slice->start > self->view.to)
    from = slice->start + slice->duration / 2 - span / 2;
  /* Pinned rows are always in view; a row not laid out (its process folded) has no place. */
  if (suanli_timeline_painter_track_y (self->painter, self->selected_track, &y))
    {
      double top = y + slice->depth * SUANLI_TIMELINE_LANE_HEIGHT;

      if (top < scroll_y || top + SUANLI_TIMELINE_LANE_HEIGHT > scroll_y + rows)
        scroll_y = top - rows / 3;
    }
  set_view (self, from, from + span, scroll_y);
}

/* J: to the other end of the selected slice's first flow (a kernel's launch, a launch's kernel),
 * selected and brought into view, its row too. */
static void
jump_action (GtkWidget  *widget,
             const char *action_name,
             GVariant   *parameter)
{
  SuanliTimeline *self = SUANLI_TIMELINE (widget);
  GArray *flows;

  if (self->painter == NULL || !self->has_selection)
    return;
  flows = suanli_trace_get_flows (self->trace);
  for (guint f = 0; f < flows->len; f++)
    {
      SuanliFlow *flow = &g_array_index (flows, SuanliFlow, f);
      gboolean from_here = flow->from_track == self->selected_track && flow->from_slice == self->selected_slice;
      gboolean to_here = flow->to_track == self->selected_track && flow->to_slice == self->selected_slice;

      if (!from_here && !to_here)
        continue;
      suanli_timeline_select (self, from_here ? flow->to_track : flow->from_track, from_here ? flow->to_slice : flow->from_slice);
      reveal_selection (self);
      return;
    }
}

/* Selects the next (or previous) slice matching the search, from the selected one's start, and
 * brings it to the middle of the view. */
static void
step_match (SuanliTimeline *self,
            gboolean        forward)
{
  gint64 from = self->view.from - 1;
  guint track;
  guint32 index;

  if (self->painter == NULL)
    return;
  if (self->has_selection)
    from = g_array_index (suanli_trace_get_track (self->trace, self->selected_track)->slices, SuanliSlice,
                          self->selected_slice).start;
  else if (!forward)
    from = self->view.to + 1;
  if (!suanli_timeline_painter_find_match (self->painter, from, forward, &track, &index))
    return;
  suanli_timeline_select (self, track, index);
  reveal_selection (self);
}

/* The keyboard moves the selection: [ and ] to the slice before or after on the same lane, Up to
 * the slice it is inside, Down to the first slice inside it. */
static void
step_selection_action (GtkWidget  *widget,
                       const char *action_name,
                       GVariant   *parameter)
{
  SuanliTimeline *self = SUANLI_TIMELINE (widget);
  GArray *slices;
  SuanliSlice *current;
  guint found = G_MAXUINT;

  if (self->painter == NULL || !self->has_selection)
    return;
  slices = suanli_trace_get_track (self->trace, self->selected_track)->slices;
  current = &g_array_index (slices, SuanliSlice, self->selected_slice);
  if (g_str_equal (action_name, "timeline.next-slice"))
    {
      for (guint i = self->selected_slice + 1; i < slices->len && found == G_MAXUINT; i++)
        if (g_array_index (slices, SuanliSlice, i).depth == current->depth)
          found = i;
    }
  else if (g_str_equal (action_name, "timeline.previous-slice"))
    {
      for (guint i = self->selected_slice; i-- > 0 && found == G_MAXUINT;)
        if (g_array_index (slices, SuanliSlice, i).depth == current->depth)
          found = i;
    }
  else if (g_str_equal (action_name, "timeline.parent-slice"))
    {
      for (guint i = self->selected_slice; i-- > 0 && found == G_MAXUINT && current->depth > 0;)
        if (g_array_index (slices, SuanliSlice, i).depth == current->depth - 1u)
          found = i;
    }
  else if (self->selected_slice + 1 < slices->len &&
           g_array_index (slices, SuanliSlice, self->selected_slice + 1).depth == current->depth + 1u)
    found = self->selected_slice + 1;   /* its first child comes right after it */
  if (found == G_MAXUINT)
    return;
  suanli_timeline_select (self, self->selected_track, found);
  reveal_selection (self);
}

static void
next_match_action (GtkWidget  *widget,
                   const char *action_name,
                   GVariant   *parameter)
{
  step_match (SUANLI_TIMELINE (widget), TRUE);
}

static void
previous_match_action (GtkWidget  *widget,
                       const char *action_name,
                       GVariant   *parameter)
{
  step_match (SUANLI_TIMELINE (widget), FALSE);
}

/* Fades the slices whose names do not contain @text (none when it is empty). Returns: how many
 * slices match. */
guint64
suanli_timeline_search (SuanliTimeline *self,
                        const char     *text)
{
  guint64 count;

  if (self->painter == NULL)
    return 0;
  count = suanli_timeline_painter_set_search (self->painter, text);
  gtk_widget_queue_draw (GTK_WIDGET (self));
  return count;
}

static gboolean
on_scroll (GtkEventControllerScroll *controller,
           double                    dx,
           double                    dy,
           SuanliTimeline           *self)
{
  GdkModifierType state = gtk_event_controller_get_current_event_state (GTK_EVENT_CONTROLLER (controller));

  if (self->painter == NULL)
    return FALSE;
  if (state & GDK_CONTROL_MASK)
    zoom_around (self, dy < 0 ? ZOOM_STEP : 1 / ZOOM_STEP, self->pointer_x);
  else if ((state & GDK_SHIFT_MASK) || dx != 0)
    pan (self, (dx != 0 ? dx : dy) * PAN_FRACTION / 2);
  else
    set_view (self, self->view.from, self->view.to, self->view.scroll_y + dy * WHEEL_PIXELS);
  return TRUE;
}

static void
on_pinch_begin (GtkGesture       *gesture,
                GdkEventSequence *sequence,
                SuanliTimeline   *self)
{
  self->pinch_scale = 1;
}

static void
on_zoom_gesture (GtkGestureZoom *gesture,
                 double          scale,
                 SuanliTimeline *self)
{
  double x, y;

  gtk_gesture_get_bounding_box_center (GTK_GESTURE (gesture), &x, &y);
  if (scale > 0 && self->pinch_scale > 0)
    zoom_around (self, scale / self->pinch_scale, x);
  self->pinch_scale = scale;
}

static void
on_motion (GtkEventControllerMotion *controller,
           double                    x,
           double                    y,
           SuanliTimeline           *self)
{
  self->pointer_x = x;
}

/* The time at @x on the timeline as it is now. */
static gint64
time_at (SuanliTimeline *self,
         double          x)
{
  double fraction = CLAMP ((x - SUANLI_TIMELINE_GUTTER_WIDTH) / time_width (self), 0, 1);

  return self->view.from + (gint64) ((double) (self->view.to - self->view.from) * fraction);
}

/* Selects the range [@from, @to) (none when they are equal), as a drag on the ruler does. */
void
suanli_timeline_set_range (SuanliTimeline *self,
                           gint64          from,
                           gint64          to)
{
  self->range_from = MIN (from, to);
  self->range_to = MAX (from, to);
  if (self->painter != NULL)
    suanli_timeline_painter_set_range (self->painter, self->range_from, self->range_to);
  gtk_widget_queue_draw (GTK_WIDGET (self));
  g_signal_emit (self, signals[RANGE_CHANGED], 0);
}

/* Returns: whether a range is selected, and it. */
gboolean
suanli_timeline_get_range (SuanliTimeline *self,
                           gint64         *from,
                           gint64         *to)
{
  *from = self->range_from;
  *to = self->range_to;
  return self->range_to > self->range_from;
}

static void
clear_range_action (GtkWidget  *widget,
                    const char *action_name,
                    GVariant   *parameter)
{
  suanli_timeline_set_range (SUANLI_TIMELINE (widget), 0, 0);
}

/* A drag on the ruler selects a range; anywhere else it pans. */
static void
on_drag_begin (GtkGestureDrag *gesture,
               double          x,
               double          y,
               SuanliTimeline *self)
{
  self->drag_window_from = self->view.from;
  self->drag_scroll = self->view.scroll_y;
  self->drag_from = x;
  self->selecting_range = self->painter != NULL && y < SUANLI_TIMELINE_RULER_HEIGHT && x >= SUANLI_TIMELINE_GUTTER_WIDTH;
  if (self->selecting_range)
    self->range_anchor = time_at (self, x);
}

static void
on_drag_update (GtkGestureDrag *gesture,
                double          dx,
                double          dy,
                SuanliTimeline *self)
{
  gint64 span = self->view.to - self->view.from;
  gint64 shift = (gint64) (-dx * (double) span / time_width (self));

  if (self->selecting_range)
    {
      gint64 at = time_at (self, self->drag_from + dx);

      self->range_from = MIN (self->range_anchor, at);
      self->range_to = MAX (self->range_anchor, at);
      suanli_timeline_painter_set_range (self->painter, self->range_from, self->range_to);
      gtk_widget_queue_draw (GTK_WIDGET (self));
      return;
    }
  set_view (self, self->drag_window_from + shift, self->drag_window_from + shift + span, self->drag_scroll - dy);
}

static void
on_drag_end (GtkGestureDrag *gesture,
             double          dx,
             double          dy,
             SuanliTimeline *self)
{
  if (self->selecting_range)
    suanli_timeline_set_range (self, self->range_from, self->range_to);
  self->selecting_range = FALSE;
}

/* The slice at (@x, @y), within two pixels: its track and index in the track. */
gboolean
suanli_timeline_slice_at (SuanliTimeline *self,
                          double          x,
                          double          y,
                          guint          *track,
                          guint32        *slice)
{
  return self->painter != NULL &&
         suanli_timeline_painter_hit (self->painter, x, y, gtk_widget_get_width (GTK_WIDGET (self)), &self->view, track,
                                      slice);
}

/* Pins @track under the ruler (or unpins it). */
void
suanli_timeline_set_pinned (SuanliTimeline *self,
                            guint           track,
                            gboolean        pinned)
{
  if (self->painter == NULL)
    return;
  suanli_timeline_painter_set_pinned (self->painter, track, pinned);
  clamp_view (self);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

static void
toggle_pin_action (GtkWidget  *widget,
                   const char *action_name,
                   GVariant   *parameter)
{
  SuanliTimeline *self = SUANLI_TIMELINE (widget);

  if (self->painter != NULL && self->has_selection)
    suanli_timeline_set_pinned (self, self->selected_track,
                                !suanli_timeline_painter_is_pinned (self->painter, self->selected_track));
}

/* Selects the slice at (@x, @y), or folds the process whose header is there. Returns: whether
 * something was there. */
gboolean
suanli_timeline_select_at (SuanliTimeline *self,
                           double          x,
                           double          y)
{
  guint track, group;
  guint32 slice;
  gint64 pid;

  if (self->painter == NULL)
    return FALSE;
  if (suanli_timeline_slice_at (self, x, y, &track, &slice))
    {
      suanli_timeline_select (self, track, slice);
      return TRUE;
    }
  /* A track's label pins the track, or unpins it. */
  if (x < SUANLI_TIMELINE_GUTTER_WIDTH && suanli_timeline_painter_hit_track (self->painter, y, &self->view, &track))
    {
      suanli_timeline_set_pinned (self, track, !suanli_timeline_painter_is_pinned (self->painter, track));
      return TRUE;
    }
  if (suanli_timeline_painter_hit_header (self->painter, y, &self->view, &group, &pid))
    {
      g_autofree char *key = g_strdup_printf ("%u:%" G_GINT64_FORMAT, group, pid);
      gboolean collapsed = GPOINTER_TO_INT (g_object_get_data (G_OBJECT (self), key));

      g_object_set_data (G_OBJECT (self), key, GINT_TO_POINTER (!collapsed));
      suanli_timeline_painter_set_collapsed (self->painter, group, pid, !collapsed);
      clamp_view (self);
      gtk_widget_queue_draw (GTK_WIDGET (self));
      return TRUE;
    }
  return FALSE;
}

static void
on_click (GtkGestureClick *gesture,
          int              n_press,
          double           x,
          double           y,
          SuanliTimeline  *self)
{
  gtk_widget_grab_focus (GTK_WIDGET (self));
  suanli_timeline_select_at (self, x, y);
}

static gboolean
on_query_tooltip (GtkWidget      *widget,
                  int             x,
                  int             y,
                  gboolean        keyboard,
                  GtkTooltip     *tooltip,
                  SuanliTimeline *self)
{
  guint track;
  guint32 index;
  SuanliSlice *slice;
  g_autofree char *duration = NULL;
  g_autofree char *text = NULL;
  const char *category;

  if (self->painter == NULL || keyboard ||
      !suanli_timeline_painter_hit (self->painter, x, y, gtk_widget_get_width (widget), &self->view, &track, &index))
    return FALSE;
  slice = &g_array_index (suanli_trace_get_track (self->trace, track)->slices, SuanliSlice, index);
  duration = suanli_format_duration_ns (slice->duration);
  category = suanli_trace_get_string (self->trace, slice->category);
  text = g_markup_printf_escaped ("<b>%s</b>\n%s%s%s", suanli_trace_get_string (self->trace, slice->name), duration,
                                  *category != '\0' ? " · " : "", category);
  /* The first few arguments (the details line has them all). */
  {
    g_autoptr(GString) markup = g_string_new (text);
    const SuanliArg *args = suanli_trace_get_args (self->trace, slice);

    for (guint i = 0; i < slice->n_args && i < TOOLTIP_ARGS; i++)
      {
        g_autofree char *arg = suanli_trace_format_arg (self->trace, &args[i]);
        g_autofree char *escaped = g_markup_escape_text (arg, -1);

        g_string_append_printf (markup, "\n%s", escaped);
      }
    gtk_tooltip_set_markup (tooltip, markup->str);
  }
  return TRUE;
}

static void
suanli_timeline_dispose (GObject *object)
{
  SuanliTimeline *self = SUANLI_TIMELINE (object);

  if (self->trace != NULL)
    g_signal_handlers_disconnect_by_data (self->trace, self);
  g_clear_pointer (&self->painter, suanli_timeline_painter_free);
  g_clear_object (&self->trace);
  G_OBJECT_CLASS (suanli_timeline_parent_class)->dispose (object);
}

static void
suanli_timeline_class_init (SuanliTimelineClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = suanli_timeline_dispose;
  widget_class->snapshot = snapshot;

  /* The selected range changed (suanli_timeline_get_range() says what it is now). */
  signals[RANGE_CHANGED] = g_signal_new ("range-changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL,
                                         NULL, G_TYPE_NONE, 0);
  /* A slice was selected: its track and its index in the track. */
  signals[SLICE_SELECTED] = g_signal_new ("slice-selected", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL,
                                          NULL, G_TYPE_NONE, 2, G_TYPE_UINT, G_TYPE_UINT);

  gtk_widget_class_install_action (widget_class, "timeline.zoom-in", NULL, zoom_in_action);
  gtk_widget_class_install_action (widget_class, "timeline.zoom-out", NULL, zoom_out_action);
  gtk_widget_class_install_action (widget_class, "timeline.pan-left", NULL, pan_left_action);
  gtk_widget_class_install_action (widget_class, "timeline.pan-right", NULL, pan_right_action);
  gtk_widget_class_install_action (widget_class, "timeline.reset", NULL, reset_action);
  gtk_widget_class_install_action (widget_class, "timeline.zoom-to-selection", NULL, zoom_to_selection_action);
  gtk_widget_class_install_action (widget_class, "timeline.next-match", NULL, next_match_action);
  gtk_widget_class_install_action (widget_class, "timeline.clear-range", NULL, clear_range_action);
  gtk_widget_class_install_action (widget_class, "timeline.toggle-pin", NULL, toggle_pin_action);
  gtk_widget_class_install_action (widget_class, "timeline.jump-to-linked", NULL, jump_action);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_j, 0, "timeline.jump-to-linked", NULL);
  gtk_widget_class_install_action (widget_class, "timeline.next-slice", NULL, step_selection_action);
  gtk_widget_class_install_action (widget_class, "timeline.previous-slice", NULL, step_selection_action);
  gtk_widget_class_install_action (widget_class, "timeline.parent-slice", NULL, step_selection_action);
  gtk_widget_class_install_action (widget_class, "timeline.child-slice", NULL, step_selection_action);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_bracketright, 0, "timeline.next-slice", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_bracketleft, 0, "timeline.previous-slice", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Up, 0, "timeline.parent-slice", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Down, 0, "timeline.child-slice", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_p, 0, "timeline.toggle-pin", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Escape, 0, "timeline.clear-range", NULL);
  gtk_widget_class_install_action (widget_class, "timeline.previous-match", NULL, previous_match_action);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_w, 0, "timeline.zoom-in", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_s, 0, "timeline.zoom-out", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_a, 0, "timeline.pan-left", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_d, 0, "timeline.pan-right", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Left, 0, "timeline.pan-left", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Right, 0, "timeline.pan-right", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_f, 0, "timeline.zoom-to-selection", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_0, 0, "timeline.reset", NULL);
  gtk_widget_class_set_css_name (widget_class, "timeline");
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_IMG);
}

static void
suanli_timeline_init (SuanliTimeline *self)
{
  GtkEventController *scroll = gtk_event_controller_scroll_new (GTK_EVENT_CONTROLLER_SCROLL_BOTH_AXES);
  GtkEventController *motion = gtk_event_controller_motion_new ();
  GtkGesture *drag = gtk_gesture_drag_new ();
  GtkGesture *click = gtk_gesture_click_new ();
  GtkGesture *pinch = gtk_gesture_zoom_new ();

  suanli_drawing_setup (GTK_WIDGET (self), SUANLI_DRAWING_FOCUSABLE | SUANLI_DRAWING_EXPAND, _("Timeline"),
                        G_CALLBACK (on_query_tooltip));
  g_signal_connect (scroll, "scroll", G_CALLBACK (on_scroll), self);
  g_signal_connect (motion, "motion", G_CALLBACK (on_motion), self);
  g_signal_connect (drag, "drag-begin", G_CALLBACK (on_drag_begin), self);
  g_signal_connect (drag, "drag-update", G_CALLBACK (on_drag_update), self);
  g_signal_connect (drag, "drag-end", G_CALLBACK (on_drag_end), self);
  g_signal_connect (click, "pressed", G_CALLBACK (on_click), self);
  g_signal_connect (pinch, "begin", G_CALLBACK (on_pinch_begin), self);
  g_signal_connect (pinch, "scale-changed", G_CALLBACK (on_zoom_gesture), self);
  gtk_widget_add_controller (GTK_WIDGET (self), scroll);
  gtk_widget_add_controller (GTK_WIDGET (self), motion);
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (drag));
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (click));
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (pinch));
}

GtkWidget *
suanli_timeline_new (void)
{
  return g_object_new (SUANLI_TYPE_TIMELINE, NULL);
}

/* A live capture added to the trace: new rows, and the view follows its end while it was showing
 * the end already (as a terminal follows its output). */
static void
on_trace_grown (SuanliTimeline *self)
{
  gint64 first, last;
  gboolean following = self->view.to >= self->last;

  suanli_timeline_painter_refresh (self->painter);
  suanli_trace_get_time_range (self->trace, &first, &last);
  if (self->first == self->last)
    {
      /* The first records of a capture that started empty: all of them. */
      self->first = first;
      self->view.from = first;
      self->view.to = MAX (last, first + MIN_SPAN_NS);
    }
  else if (following && last > self->last)
    {
      gint64 span = self->view.to - self->view.from;

      self->view.to = last;
      self->view.from = MAX (self->first, last - MAX (span, MIN_SPAN_NS));
    }
  self->last = last;
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

/* Shows @trace (or nothing), all of it. */
void
suanli_timeline_set_trace (SuanliTimeline *self,
                           SuanliTrace    *trace)
{
  g_return_if_fail (SUANLI_IS_TIMELINE (self));

  if (self->trace == trace)
    return;
  if (self->trace != NULL)
    g_signal_handlers_disconnect_by_data (self->trace, self);
  g_set_object (&self->trace, trace);
  if (trace != NULL)
    g_signal_connect_swapped (trace, "grown", G_CALLBACK (on_trace_grown), self);
  g_clear_pointer (&self->painter, suanli_timeline_painter_free);
  self->has_selection = FALSE;
  if (trace != NULL)
    {
      self->painter = suanli_timeline_painter_new (trace);
      suanli_trace_get_time_range (trace, &self->first, &self->last);
      self->view.from = self->first;
      self->view.to = MAX (self->last, self->first + MIN_SPAN_NS);
      self->view.scroll_y = 0;
    }
  self->range_from = self->range_to = 0;
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

SuanliTrace *
suanli_timeline_get_trace (SuanliTimeline *self)
{
  return self->trace;
}

void
suanli_timeline_get_window (SuanliTimeline *self,
                            gint64         *from,
                            gint64         *to)
{
  *from = self->view.from;
  *to = self->view.to;
}

void
suanli_timeline_set_window (SuanliTimeline *self,
                            gint64          from,
                            gint64          to)
{
  set_view (self, from, to, self->view.scroll_y);
}

gboolean
suanli_timeline_get_selected (SuanliTimeline *self,
                              guint          *track,
                              guint32        *slice)
{
  *track = self->selected_track;
  *slice = self->selected_slice;
  return self->has_selection;
}

/* Returns: the time one pixel column covers in the view, in ns (at least 1): the precision a time
 * read off the view needs. */
gint64
suanli_timeline_get_resolution (SuanliTimeline *self)
{
  double columns = MAX (gtk_widget_get_width (GTK_WIDGET (self)) - SUANLI_TIMELINE_GUTTER_WIDTH, 1);

  g_return_val_if_fail (SUANLI_IS_TIMELINE (self), 1);
  return MAX ((gint64) ((double) (self->view.to - self->view.from) / columns), 1);
}

void
suanli_timeline_select (SuanliTimeline *self,
                        guint           track,
                        guint32         slice)
{
  g_return_if_fail (self->trace != NULL && track < suanli_trace_get_n_tracks (self->trace));

  self->has_selection = TRUE;
  self->selected_track = track;
  self->selected_slice = slice;
  suanli_timeline_painter_set_selected (self->painter, track, slice);
  gtk_widget_queue_draw (GTK_WIDGET (self));
  g_signal_emit (self, signals[SLICE_SELECTED], 0, track, slice);
}

static void
draw_for_export (cairo_t *cr,
                 double   width,
                 double   height,
                 gpointer data)
{
  SuanliTimeline *self = data;
  SuanliChartStyle style = { FALSE, NULL, 9 };

  suanli_timeline_painter_draw (self->painter, cr, &style, width, height, &self->view);
}

/* Writes the timeline as it is in view (light style) to @file: SVG for *.svg, else PNG. */
gboolean
suanli_timeline_export (SuanliTimeline  *self,
                        GFile           *file,
                        GError         **error)
{
  if (self->painter == NULL)
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND, _("There is no trace to export"));
      return FALSE;
    }
  return suanli_image_export (file, MAX (gtk_widget_get_width (GTK_WIDGET (self)), 640),
                              MAX (gtk_widget_get_height (GTK_WIDGET (self)), 400), draw_for_export, self, error);
}
