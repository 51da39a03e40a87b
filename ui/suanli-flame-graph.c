/* suanli-flame-graph.c — a flame graph: click to zoom, search, flame or icicle, left-heavy or in time order
 *
 * SuanliFlamePainter (ui/paint) lays the flame out and draws it; this widget asks for the height
 * the deepest stack needs, turns clicks into a focus (a frame filling the width), and answers
 * tooltips with a frame's total and self time and its share of the whole. Backspace, Escape, Down
 * and the flame-graph.zoom-out action go back up one level; flame-graph.reset (0) shows
 * everything; Up or Enter zoom into the heaviest child, Left and Right move between siblings, so
 * the keyboard reaches every frame.
 * "focus-changed" tells the page, which shows the path to the focus.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>

#include "suanli-drawing-setup.h"
#include "suanli-flame-graph.h"
#include "suanli-flame-painter.h"
#include "suanli-image-export.h"
#include "suanli-units.h"

struct _SuanliFlameGraph
{
  GtkWidget           parent_instance;

  SuanliFlame        *flame;
  SuanliFlamePainter *painter;
  gboolean            sampled;    /* folded stacks: weights are samples, not nanoseconds */
};

G_DEFINE_FINAL_TYPE (SuanliFlameGraph, suanli_flame_graph, GTK_TYPE_WIDGET)

enum {
  FOCUS_CHANGED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

static void
measure (GtkWidget      *widget,
         GtkOrientation  orientation,
         int             for_size,
         int            *minimum,
         int            *natural,
         int            *minimum_baseline,
         int            *natural_baseline)
{
  SuanliFlameGraph *self = SUANLI_FLAME_GRAPH (widget);

  if (orientation == GTK_ORIENTATION_HORIZONTAL)
    *minimum = *natural = 200;
  else
    *minimum = *natural = self->painter == NULL ? 100
                                                : (int) ((suanli_flame_painter_get_depth (self->painter) + 2) *
                                                         SUANLI_FLAME_ROW_HEIGHT);
}

static void
snapshot (GtkWidget   *widget,
          GtkSnapshot *gtk_snapshot)
{
  SuanliFlameGraph *self = SUANLI_FLAME_GRAPH (widget);
  double width = gtk_widget_get_width (widget), height = gtk_widget_get_height (widget);
  SuanliChartStyle style = suanli_drawing_style ();
  cairo_t *cr;

  if (self->painter == NULL || (cr = suanli_drawing_begin (widget, gtk_snapshot)) == NULL)
    return;
  suanli_flame_painter_draw (self->painter, cr, &style, width, height);
  cairo_destroy (cr);
}

static char *
weight_text (SuanliFlameGraph *self,
             gint64            weight)
{
  if (self->sampled)
    return g_strdup_printf (ngettext ("%lld sample", "%lld samples", (gulong) MIN (weight, G_MAXLONG)), (long long) weight);
  return suanli_format_duration_ns (weight);
}

static gboolean
on_query_tooltip (GtkWidget        *widget,
                  int               x,
                  int               y,
                  gboolean          keyboard,
                  GtkTooltip       *tooltip,
                  SuanliFlameGraph *self)
{
  guint node;
  const SuanliFlameNode *data;
  g_autofree char *total = NULL;
  g_autofree char *self_time = NULL;
  g_autofree char *text = NULL;
  gint64 root;

  if (self->painter == NULL || keyboard ||
      !suanli_flame_painter_hit (self->painter, x, y, gtk_widget_get_width (widget), gtk_widget_get_height (widget), &node))
    return FALSE;
  data = suanli_flame_get_node (self->flame, node);
  root = MAX (suanli_flame_get_node (self->flame, 0)->total, 1);
  total = weight_text (self, data->total);
  self_time = weight_text (self, data->self);
  if (suanli_flame_is_differential (self->flame))
    {
      g_autofree char *before = weight_text (self, data->baseline_total);

      text = g_markup_printf_escaped (_("<b>%s</b>\nTotal %s, was %s (%+.1f%%) · self %s"),
                                      node == 0 ? _("all") : suanli_flame_get_name (self->flame, node), total, before,
                                      data->baseline_total > 0 ? 100.0 * (double) (data->total - data->baseline_total) /
                                                                 (double) data->baseline_total
                                                               : 100.0,
                                      self_time);
    }
  else
    text = g_markup_printf_escaped (_("<b>%s</b>\nTotal %s (%.1f%%) · self %s"),
                                    node == 0 ? _("all") : suanli_flame_get_name (self->flame, node), total,
                                    100.0 * (double) data->total / (double) root, self_time);
  gtk_tooltip_set_markup (tooltip, text);
  return TRUE;
}

void
suanli_flame_graph_set_focus (SuanliFlameGraph *self,
                              guint             node)
{
  if (self->painter == NULL)
    return;
  suanli_flame_painter_set_focus (self->painter, node);
  gtk_widget_queue_draw (GTK_WIDGET (self));
  g_signal_emit (self, signals[FOCUS_CHANGED], 0);
}

guint
suanli_flame_graph_get_focus (SuanliFlameGraph *self)
{
  return self->painter != NULL ? suanli_flame_painter_get_focus (self->painter) : 0;
}

static void
on_click (GtkGestureClick  *gesture,
          int               n_press,
          double            x,
          double            y,
          SuanliFlameGraph *self)
{
  guint node;
  GtkWidget *widget = GTK_WIDGET (self);

  gtk_widget_grab_focus (widget);
  if (self->painter != NULL &&
      suanli_flame_painter_hit (self->painter, x, y, gtk_widget_get_width (widget), gtk_widget_get_height (widget), &node))
    suanli_flame_graph_set_focus (self, node);
}

static void
zoom_out_action (GtkWidget  *widget,
                 const char *action_name,
                 GVariant   *parameter)
{
  SuanliFlameGraph *self = SUANLI_FLAME_GRAPH (widget);
  guint focus = suanli_flame_graph_get_focus (self);

  if (focus != 0)
    suanli_flame_graph_set_focus (self, suanli_flame_get_node (self->flame, focus)->parent);
}

/* The keyboard walks the tree: Up (or Enter) zooms into the focus's heaviest child, Left and
 * Right move to the next lighter or heavier sibling (its neighbours in the left-heavy layout). */
static void
into_child_action (GtkWidget  *widget,
                   const char *action_name,
                   GVariant   *parameter)
{
  SuanliFlameGraph *self = SUANLI_FLAME_GRAPH (widget);
  guint focus = suanli_flame_graph_get_focus (self), best = 0;

  if (self->flame == NULL)
    return;
  for (guint c = suanli_flame_get_node (self->flame, focus)->first_child; c != 0;
       c = suanli_flame_get_node (self->flame, c)->next_sibling)
    if (best == 0 || suanli_flame_get_node (self->flame, c)->total > suanli_flame_get_node (self->flame, best)->total)
      best = c;
  if (best != 0)
    suanli_flame_graph_set_focus (self, best);
}

static int
compare_heavier_first (gconstpointer a,
                       gconstpointer b,
                       gpointer      data)
{
  gint64 x = suanli_flame_get_node (data, *(const guint *) a)->total;
  gint64 y = suanli_flame_get_node (data, *(const guint *) b)->total;

  return (x < y) - (x > y);
}

/* Left and Right: the sibling drawn just before or after the focus (heavier ones are drawn first,
 * the order the painter lays them out in). */
static void
sibling_action (GtkWidget  *widget,
                const char *action_name,
                GVariant   *parameter)
{
  SuanliFlameGraph *self = SUANLI_FLAME_GRAPH (widget);
  guint focus = suanli_flame_graph_get_focus (self);
  g_autoptr(GArray) siblings = g_array_new (FALSE, FALSE, sizeof (guint));

  if (self->flame == NULL || focus == 0)
    return;
  for (guint c = suanli_flame_get_node (self->flame, suanli_flame_get_node (self->flame, focus)->parent)->first_child; c != 0;
       c = suanli_flame_get_node (self->flame, c)->next_sibling)
    g_array_append_val (siblings, c);
  g_array_sort_with_data (siblings, compare_heavier_first, self->flame);
  for (guint i = 0; i < siblings->len; i++)
    if (g_array_index (siblings, guint, i) == focus)
      {
        gboolean left = g_str_equal (action_name, "flame-graph.previous-sibling");

        if (left && i > 0)
          suanli_flame_graph_set_focus (self, g_array_index (siblings, guint, i - 1));
        else if (!left && i + 1 < siblings->len)
          suanli_flame_graph_set_focus (self, g_array_index (siblings, guint, i + 1));
        return;
      }
}

static void
reset_action (GtkWidget  *widget,
              const char *action_name,
              GVariant   *parameter)
{
  suanli_flame_graph_set_focus (SUANLI_FLAME_GRAPH (widget), 0);
}

static void
suanli_flame_graph_dispose (GObject *object)
{
  SuanliFlameGraph *self = SUANLI_FLAME_GRAPH (object);

  g_clear_pointer (&self->painter, suanli_flame_painter_free);
  g_clear_object (&self->flame);
  G_OBJECT_CLASS (suanli_flame_graph_parent_class)->dispose (object);
}

static void
suanli_flame_graph_class_init (SuanliFlameGraphClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = suanli_flame_graph_dispose;
  widget_class->measure = measure;
  widget_class->snapshot = snapshot;
  /* The focused frame changed (a click, a zoom out). */
  signals[FOCUS_CHANGED] = g_signal_new ("focus-changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL,
                                         NULL, G_TYPE_NONE, 0);
  gtk_widget_class_install_action (widget_class, "flame-graph.zoom-out", NULL, zoom_out_action);
  gtk_widget_class_install_action (widget_class, "flame-graph.reset", NULL, reset_action);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_BackSpace, 0, "flame-graph.zoom-out", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Escape, 0, "flame-graph.zoom-out", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_0, 0, "flame-graph.reset", NULL);
  gtk_widget_class_install_action (widget_class, "flame-graph.into-child", NULL, into_child_action);
  gtk_widget_class_install_action (widget_class, "flame-graph.previous-sibling", NULL, sibling_action);
  gtk_widget_class_install_action (widget_class, "flame-graph.next-sibling", NULL, sibling_action);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Up, 0, "flame-graph.into-child", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Return, 0, "flame-graph.into-child", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Down, 0, "flame-graph.zoom-out", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Left, 0, "flame-graph.previous-sibling", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Right, 0, "flame-graph.next-sibling", NULL);
  gtk_widget_class_set_css_name (widget_class, "flamegraph");
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_IMG);
}

static void
suanli_flame_graph_init (SuanliFlameGraph *self)
{
  GtkGesture *click = gtk_gesture_click_new ();

  suanli_drawing_setup (GTK_WIDGET (self), SUANLI_DRAWING_FOCUSABLE | SUANLI_DRAWING_EXPAND, _("Flame graph"),
                        G_CALLBACK (on_query_tooltip));
  g_signal_connect (click, "pressed", G_CALLBACK (on_click), self);
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (click));
}

GtkWidget *
suanli_flame_graph_new (void)
{
  return g_object_new (SUANLI_TYPE_FLAME_GRAPH, NULL);
}

/**
 * suanli_flame_graph_set_painter:
 * @painter: (transfer full) (nullable): a painter laid out already (on a worker thread, say), or NULL
 *
 * Shows the painter's flame, or nothing.
 */
void
suanli_flame_graph_set_painter (SuanliFlameGraph   *self,
                                SuanliFlamePainter *painter)
{
  g_return_if_fail (SUANLI_IS_FLAME_GRAPH (self));

  g_clear_pointer (&self->painter, suanli_flame_painter_free);
  g_clear_object (&self->flame);
  self->painter = painter;
  if (painter != NULL)
    {
      SuanliFlame *flame = suanli_flame_painter_get_flame (painter);

      self->flame = g_object_ref (flame);
      self->sampled = g_strcmp0 (suanli_trace_get_metadata (suanli_flame_get_trace (flame), "unit"), "samples") == 0;
    }
  gtk_widget_queue_resize (GTK_WIDGET (self));
  g_signal_emit (self, signals[FOCUS_CHANGED], 0);
}

/* Shows @flame (or nothing), laid out here; @gpu colours its leaves as GPU work. */
void
suanli_flame_graph_set_flame (SuanliFlameGraph *self,
                              SuanliFlame      *flame,
                              gboolean          gpu)
{
  suanli_flame_graph_set_painter (self, flame != NULL ? suanli_flame_painter_new (flame, gpu) : NULL);
}

SuanliFlame *
suanli_flame_graph_get_flame (SuanliFlameGraph *self)
{
  return self->flame;
}

/* Marks the frames whose names contain @text. Returns: their share of the focused total. */
double
suanli_flame_graph_search (SuanliFlameGraph *self,
                           const char       *text)
{
  double share;

  if (self->painter == NULL)
    return 0;
  share = suanli_flame_painter_set_search (self->painter, text);
  gtk_widget_queue_draw (GTK_WIDGET (self));
  return share;
}

void
suanli_flame_graph_set_icicle (SuanliFlameGraph *self,
                               gboolean          icicle)
{
  if (self->painter == NULL)
    return;
  suanli_flame_painter_set_icicle (self->painter, icicle);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

/* Frames in the order they first ran (@time_order) or heaviest first. */
void
suanli_flame_graph_set_time_order (SuanliFlameGraph *self,
                                   gboolean          time_order)
{
  if (self->painter == NULL)
    return;
  suanli_flame_painter_set_time_order (self->painter, time_order);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

/* "all › thread › forward (12.3%)": the path to the focus, for a breadcrumb. */
char *
suanli_flame_graph_describe_focus (SuanliFlameGraph *self)
{
  g_autoptr(GPtrArray) path = g_ptr_array_new ();
  g_autoptr(GString) text = g_string_new (_("all"));
  guint focus = suanli_flame_graph_get_focus (self);

  if (self->flame == NULL)
    return g_strdup ("");
  for (guint at = focus; at != 0; at = suanli_flame_get_node (self->flame, at)->parent)
    g_ptr_array_add (path, (gpointer) suanli_flame_get_name (self->flame, at));
  for (guint i = path->len; i-- > 0;)
    g_string_append_printf (text, " › %s", (const char *) g_ptr_array_index (path, i));
  if (focus != 0)
    g_string_append_printf (text, " (%.1f%%)", 100.0 * (double) suanli_flame_get_node (self->flame, focus)->total /
                                               (double) MAX (suanli_flame_get_node (self->flame, 0)->total, 1));
  return g_string_free (g_steal_pointer (&text), FALSE);
}

static void
draw_for_export (cairo_t *cr,
                 double   width,
                 double   height,
                 gpointer data)
{
  SuanliFlameGraph *self = data;
  SuanliChartStyle style = { FALSE, NULL, 9 };

  suanli_flame_painter_draw (self->painter, cr, &style, width, height);
}

/* Writes the flame graph as it is in view (light style) to @file: SVG for *.svg, else PNG. */
gboolean
suanli_flame_graph_export (SuanliFlameGraph  *self,
                           GFile             *file,
                           GError           **error)
{
  if (self->painter == NULL)
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND, _("There is no flame graph to export"));
      return FALSE;
    }
  return suanli_image_export (file, MAX (gtk_widget_get_width (GTK_WIDGET (self)), 640),
                              MAX (gtk_widget_get_height (GTK_WIDGET (self)), 200), draw_for_export, self, error);
}

/* Colours by kind of work (CPU, kernel, copy, communication) rather than by name. */
void
suanli_flame_graph_set_by_category (SuanliFlameGraph *self,
                                    gboolean          by_category)
{
  if (self->painter == NULL)
    return;
  suanli_flame_painter_set_by_category (self->painter, by_category);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}
