/* suanli-chart-view.c — catalog items as a scatter chart of two specs, or ranked by one
 *
 * The drawing is the painters' in ui/paint (the PDF report uses the same ones); this widget feeds
 * them the items that have the chosen specs, follows the list it is given, and turns pointer
 * positions back into items for tooltips and clicks.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>
#include <glib/gi18n.h>

#include "suanli-bar-chart.h"
#include "suanli-chart-view.h"
#include "suanli-drawing-setup.h"
#include "suanli-image-export.h"
#include "suanli-model-follow.h"
#include "suanli-scatter-chart.h"

#define EXPORT_WIDTH  1200
#define EXPORT_HEIGHT  800

struct _SuanliChartView
{
  GtkWidget           parent_instance;

  GListModel         *items;
  GPtrArray          *plotted;        /* of SuanliItem, in the painters' order */
  SuanliScatterChart *scatter;
  SuanliBarChart     *bars;
  SuanliChartMode     mode;
  char               *x_key;
  char               *y_key;
  char               *size_key;
  gboolean            x_logarithmic;
  gboolean            y_logarithmic;
  SuanliMemoryUnits   memory_units;
  SuanliItem         *selected;
  SuanliItem         *hovered;        /* the item under the pointer: its label shows first */
  GListModel         *compared;       /* the items in Compare, marked on the chart */
  char               *left_out;       /* what the chart leaves out and why, or NULL */
};

G_DEFINE_FINAL_TYPE (SuanliChartView, suanli_chart_view, GTK_TYPE_WIDGET)

enum {
  ITEM_ACTIVATED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

enum {
  PROP_0,
  PROP_LEFT_OUT,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

/* Sizes are plotted in GB or GiB as Preferences say; other units as stored. */
static double
display_value (SuanliChartView  *self,
               const SuanliSpec *spec)
{
  if (g_strcmp0 (spec->unit, "B") == 0)
    return spec->value / (self->memory_units == SUANLI_MEMORY_UNITS_GIB ? 1073741824.0 : 1e9);
  return spec->value;
}

static char *
axis_title (SuanliChartView *self,
            SuanliItem      *sample,
            const char      *key)
{
  const SuanliSpecKey *spec_key = suanli_item_kind_find_spec_key (suanli_item_get_kind (sample), key);
  const char *unit;

  if (spec_key == NULL)
    return g_strdup (key);
  unit = spec_key->units[0];
  if (g_strcmp0 (unit, "B") == 0)
    unit = self->memory_units == SUANLI_MEMORY_UNITS_GIB ? "GiB" : "GB";
  if (g_strcmp0 (unit, "count") == 0)
    return g_strdup (_(spec_key->title));
  return g_strdup_printf ("%s (%s)", _(spec_key->title), unit);
}

static int
compare_by_y_descending (gconstpointer a,
                         gconstpointer b,
                         gpointer      user_data)
{
  const char *key = user_data;
  double x = 0, y = 0;

  suanli_item_get_spec_value (*(SuanliItem **) a, key, &x);
  suanli_item_get_spec_value (*(SuanliItem **) b, key, &y);
  return (y > x) - (y < x);
}

/* "without a BF16 figure: 9 (5 no source gives)" for the items lacking @key. */
static void
append_reason (SuanliChartView *self,
               GString         *reasons,
               SuanliItem      *sample,
               const char      *key,
               guint            missing,
               guint            unknown)
{
  const SuanliSpecKey *spec_key = suanli_item_kind_find_spec_key (suanli_item_get_kind (sample), key);
  const char *title = spec_key != NULL ? _(spec_key->title) : key;

  if (missing == 0)
    return;
  if (reasons->len > 0)
    g_string_append (reasons, _("; "));
  if (unknown > 0)
    /* Translators: "9 without a BF16 figure (5 of them marked unknown: no source gives one)". */
    g_string_append_printf (reasons, ngettext ("%u without a %s figure (%u of them marked unknown: no source gives one)",
                                               "%u without a %s figure (%u of them marked unknown: no source gives one)",
                                               missing),
                            missing, title, unknown);
  else
    g_string_append_printf (reasons, ngettext ("%u without a %s figure", "%u without a %s figure", missing), missing,
                            title);
}

/* Counts what the chart cannot draw, and why, into the left-out text. */
static void
update_left_out (SuanliChartView *self,
                 guint            n)
{
  const char *keys[2] = { self->y_key, self->mode == SUANLI_CHART_SCATTER ? self->x_key : NULL };
  guint missing[2] = { 0, 0 }, unknown[2] = { 0, 0 }, left_out = 0;
  g_autoptr(SuanliItem) sample = NULL;
  g_autoptr(GString) reasons = g_string_new (NULL);
  char *text = NULL;

  for (guint i = 0; i < n && keys[0] != NULL; i++)
    {
      g_autoptr(SuanliItem) item = g_list_model_get_item (self->items, i);
      gboolean out = FALSE;

      for (guint k = 0; k < G_N_ELEMENTS (keys); k++)
        if (keys[k] != NULL && !suanli_item_get_spec_value (item, keys[k], NULL))
          {
            missing[k]++;
            unknown[k] += suanli_item_find_unknown (item, keys[k]) != NULL;
            out = TRUE;
          }
      left_out += out;
      if (sample == NULL)
        sample = g_object_ref (item);
    }
  if (left_out > 0)
    {
      for (guint k = 0; k < G_N_ELEMENTS (keys); k++)
        if (keys[k] != NULL)
          append_reason (self, reasons, sample, keys[k], missing[k], unknown[k]);
      /* Translators: "Left out: 12 of 49 items, 9 without a BF16 figure (…)". */
      text = g_strdup_printf (ngettext ("Left out: %u of %u item, %s.", "Left out: %u of %u items, %s.", n),
                              left_out, n, reasons->str);
    }
  if (g_strcmp0 (text, self->left_out) != 0)
    {
      g_free (self->left_out);
      self->left_out = text;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_LEFT_OUT]);
    }
  else
    g_free (text);
}

static gboolean
is_compared (SuanliChartView *self,
             SuanliItem      *item)
{
  guint n = self->compared != NULL ? g_list_model_get_n_items (self->compared) : 0;

  for (guint i = 0; i < n; i++)
    {
      g_autoptr(SuanliItem) compared = g_list_model_get_item (self->compared, i);

      if (compared == item)
        return TRUE;
    }
  return FALSE;
}

static void
rebuild (SuanliChartView *self)
{
  guint n = self->items != NULL ? g_list_model_get_n_items (self->items) : 0;

  g_ptr_array_set_size (self->plotted, 0);
  suanli_scatter_chart_clear (self->scatter);
  suanli_bar_chart_clear (self->bars);

  for (guint i = 0; i < n; i++)
    {
      g_autoptr(SuanliItem) item = g_list_model_get_item (self->items, i);

      if (self->y_key == NULL || !suanli_item_get_spec_value (item, self->y_key, NULL))
        continue;
      if (self->mode == SUANLI_CHART_SCATTER &&
          (self->x_key == NULL || !suanli_item_get_spec_value (item, self->x_key, NULL)))
        continue;
      g_ptr_array_add (self->plotted, g_steal_pointer (&item));
    }

  update_left_out (self, n);
  if (self->mode == SUANLI_CHART_BARS)
    g_ptr_array_sort_with_data (self->plotted, compare_by_y_descending, self->y_key);

  for (guint i = 0; i < self->plotted->len; i++)
    {
      SuanliItem *item = g_ptr_array_index (self->plotted, i);
      const SuanliSpec *y = suanli_item_find_spec (item, self->y_key);

      if (self->mode == SUANLI_CHART_SCATTER)
        {
          const SuanliSpec *x = suanli_item_find_spec (item, self->x_key);
          const SuanliSpec *size = self->size_key != NULL ? suanli_item_find_spec (item, self->size_key) : NULL;

          suanli_scatter_chart_add_point (self->scatter, display_value (self, x), display_value (self, y),
                                          size != NULL ? display_value (self, size) : NAN,
                                          suanli_item_get_name (item));
        }
      else
        {
          g_autofree char *text = suanli_format_quantity (y->value, y->unit, self->memory_units);
          suanli_bar_chart_add_bar (self->bars, suanli_item_get_name (item), display_value (self, y), text);
        }
      if (item == self->selected)
        {
          suanli_scatter_chart_set_selected (self->scatter, (int) i);
          suanli_bar_chart_set_selected (self->bars, (int) i);
        }
      if (item == self->hovered && self->mode == SUANLI_CHART_SCATTER)
        suanli_scatter_chart_set_hovered (self->scatter, (int) i);
      if (is_compared (self, item))
        {
          if (self->mode == SUANLI_CHART_SCATTER)
            suanli_scatter_chart_set_marked (self->scatter, i, TRUE);
          else
            suanli_bar_chart_set_marked (self->bars, i, TRUE);
        }
    }

  if (self->plotted->len > 0)
    {
      SuanliItem *sample = g_ptr_array_index (self->plotted, 0);
      g_autofree char *x_title = self->x_key != NULL ? axis_title (self, sample, self->x_key) : NULL;
      g_autofree char *y_title = axis_title (self, sample, self->y_key);

      suanli_scatter_chart_set_axes (self->scatter, x_title, self->x_logarithmic, y_title, self->y_logarithmic);
    }

  gtk_widget_queue_resize (GTK_WIDGET (self));
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

static void
paint (SuanliChartView *self,
       cairo_t         *cr,
       double           width,
       double           height,
       gboolean         dark)
{
  SuanliChartStyle style = { dark, NULL, 9 };

  if (self->mode == SUANLI_CHART_SCATTER)
    suanli_scatter_chart_draw (self->scatter, cr, width, height, &style);
  else
    suanli_bar_chart_draw (self->bars, cr, width, &style);
}

static void
suanli_chart_view_snapshot (GtkWidget   *widget,
                            GtkSnapshot *snapshot)
{
  SuanliChartView *self = SUANLI_CHART_VIEW (widget);
  cairo_t *cr = suanli_drawing_begin (widget, snapshot);

  if (cr == NULL)
    return;
  paint (self, cr, gtk_widget_get_width (widget), gtk_widget_get_height (widget), suanli_drawing_style ().dark);
  cairo_destroy (cr);
}

static void
suanli_chart_view_measure (GtkWidget      *widget,
                           GtkOrientation  orientation,
                           int             for_size,
                           int            *minimum,
                           int            *natural,
                           int            *minimum_baseline,
                           int            *natural_baseline)
{
  SuanliChartView *self = SUANLI_CHART_VIEW (widget);

  if (orientation == GTK_ORIENTATION_HORIZONTAL)
    *minimum = 320, *natural = 640;
  else if (self->mode == SUANLI_CHART_BARS)
    *minimum = *natural = (int) ceil (suanli_bar_chart_get_height (self->bars));
  else
    *minimum = 240, *natural = 480;
}

/* Returns: (transfer none) (nullable): the item drawn at (@x, @y) in widget coordinates. */
SuanliItem *
suanli_chart_view_get_item_at (SuanliChartView *self,
                               double           x,
                               double           y)
{
  int index;

  g_return_val_if_fail (SUANLI_IS_CHART_VIEW (self), NULL);

  index = self->mode == SUANLI_CHART_SCATTER ? suanli_scatter_chart_hit (self->scatter, x, y)
                                             : suanli_bar_chart_hit (self->bars, x, y);
  return index >= 0 && (guint) index < self->plotted->len ? g_ptr_array_index (self->plotted, index) : NULL;
}

/* Where the last paint put @item's point (scatter mode only). */
gboolean
suanli_chart_view_get_item_position (SuanliChartView *self,
                                     SuanliItem      *item,
                                     double          *x,
                                     double          *y)
{
  guint index;

  g_return_val_if_fail (SUANLI_IS_CHART_VIEW (self), FALSE);

  if (self->mode != SUANLI_CHART_SCATTER || !g_ptr_array_find (self->plotted, item, &index))
    return FALSE;
  return suanli_scatter_chart_get_position (self->scatter, index, x, y);
}

static gboolean
on_query_tooltip (GtkWidget  *widget,
                  int         x,
                  int         y,
                  gboolean    keyboard,
                  GtkTooltip *tooltip,
                  gpointer    user_data)
{
  SuanliChartView *self = SUANLI_CHART_VIEW (widget);
  SuanliItem *item = suanli_chart_view_get_item_at (self, x, y);
  const char *keys[] = { self->mode == SUANLI_CHART_SCATTER ? self->x_key : NULL, self->y_key, self->size_key };
  g_autoptr(GString) text = NULL;

  if (item == NULL)
    return FALSE;
  text = g_string_new (NULL);
  g_string_append_printf (text, "<b>%s</b> — %s", suanli_item_get_name (item), suanli_item_get_vendor (item));
  for (guint i = 0; i < G_N_ELEMENTS (keys); i++)
    {
      const SuanliSpec *spec = keys[i] != NULL ? suanli_item_find_spec (item, keys[i]) : NULL;
      const SuanliSpecKey *spec_key;
      g_autofree char *value = NULL;
      g_autofree char *escaped = NULL;

      if (spec == NULL)
        continue;
      spec_key = suanli_item_kind_find_spec_key (suanli_item_get_kind (item), spec->key);
      value = suanli_format_quantity (spec->value, spec->unit, self->memory_units);
      escaped = g_markup_printf_escaped ("\n%s: %s", _(spec_key->title), value);
      g_string_append (text, escaped);
    }
  gtk_tooltip_set_markup (tooltip, text->str);
  return TRUE;
}

static void
on_pressed (GtkGestureClick *gesture,
            int              n_press,
            double           x,
            double           y,
            gpointer         user_data)
{
  SuanliChartView *self = SUANLI_CHART_VIEW (user_data);
  SuanliItem *item = suanli_chart_view_get_item_at (self, x, y);

  if (item == NULL)
    return;
  suanli_chart_view_set_selected (self, item);
  g_signal_emit (self, signals[ITEM_ACTIVATED], 0, item);
}

/* The pointer over a crowded point brings its label out, even where there was no room for it. Only
 * the painting changes: the points stay where they are, for the click that may follow. */
static void
set_hovered (SuanliChartView *self,
             SuanliItem      *item)
{
  guint index;

  if (item == self->hovered)
    return;
  g_set_object (&self->hovered, item);
  suanli_scatter_chart_set_hovered (self->scatter,
                                    item != NULL && g_ptr_array_find (self->plotted, item, &index) ? (int) index : -1);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

static void
on_motion (GtkEventControllerMotion *controller,
           double                    x,
           double                    y,
           gpointer                  user_data)
{
  SuanliChartView *self = SUANLI_CHART_VIEW (user_data);

  set_hovered (self, self->mode == SUANLI_CHART_SCATTER ? suanli_chart_view_get_item_at (self, x, y) : NULL);
}

static void
on_leave (GtkEventControllerMotion *controller,
          gpointer                  user_data)
{
  set_hovered (SUANLI_CHART_VIEW (user_data), NULL);
}

static void
suanli_chart_view_dispose (GObject *object)
{
  SuanliChartView *self = SUANLI_CHART_VIEW (object);

  suanli_model_follow (&self->items, NULL, NULL, self);
  g_clear_object (&self->selected);
  g_clear_object (&self->hovered);
  suanli_model_follow (&self->compared, NULL, NULL, self);
  g_clear_pointer (&self->plotted, g_ptr_array_unref);

  G_OBJECT_CLASS (suanli_chart_view_parent_class)->dispose (object);
}

static void
suanli_chart_view_finalize (GObject *object)
{
  SuanliChartView *self = SUANLI_CHART_VIEW (object);

  suanli_scatter_chart_free (self->scatter);
  suanli_bar_chart_free (self->bars);
  g_free (self->x_key);
  g_free (self->y_key);
  g_free (self->size_key);
  g_free (self->left_out);

  G_OBJECT_CLASS (suanli_chart_view_parent_class)->finalize (object);
}

static void
suanli_chart_view_get_property (GObject    *object,
                                guint       prop_id,
                                GValue     *value,
                                GParamSpec *pspec)
{
  SuanliChartView *self = SUANLI_CHART_VIEW (object);

  switch (prop_id)
    {
    case PROP_LEFT_OUT:
      g_value_set_string (value, self->left_out);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
suanli_chart_view_class_init (SuanliChartViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = suanli_chart_view_dispose;
  object_class->finalize = suanli_chart_view_finalize;
  object_class->get_property = suanli_chart_view_get_property;

  /* How many of the items the chart leaves out for want of a figure, and which; NULL when none. */
  properties[PROP_LEFT_OUT] = g_param_spec_string ("left-out", NULL, NULL, NULL,
                                                   G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);
  widget_class->snapshot = suanli_chart_view_snapshot;
  widget_class->measure = suanli_chart_view_measure;

  /* A point or bar was clicked; the item is already selected in the chart. */
  signals[ITEM_ACTIVATED] = g_signal_new ("item-activated", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0,
                                          NULL, NULL, NULL, G_TYPE_NONE, 1, SUANLI_TYPE_ITEM);

  gtk_widget_class_set_css_name (widget_class, "chartview");
}

static void
suanli_chart_view_init (SuanliChartView *self)
{
  GtkGesture *click = gtk_gesture_click_new ();
  GtkEventController *motion = gtk_event_controller_motion_new ();

  self->plotted = g_ptr_array_new_with_free_func (g_object_unref);
  self->scatter = suanli_scatter_chart_new ();
  self->bars = suanli_bar_chart_new ();

  g_signal_connect (click, "pressed", G_CALLBACK (on_pressed), self);
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (click));
  g_signal_connect (motion, "motion", G_CALLBACK (on_motion), self);
  g_signal_connect (motion, "leave", G_CALLBACK (on_leave), self);
  gtk_widget_add_controller (GTK_WIDGET (self), motion);
  suanli_drawing_setup (GTK_WIDGET (self), 0, NULL, G_CALLBACK (on_query_tooltip));
}

GtkWidget *
suanli_chart_view_new (void)
{
  return g_object_new (SUANLI_TYPE_CHART_VIEW, NULL);
}

/* @items: (nullable): a list of SuanliItem; the chart follows its changes. */
void
suanli_chart_view_set_items (SuanliChartView *self,
                             GListModel      *items)
{
  g_return_if_fail (SUANLI_IS_CHART_VIEW (self));

  if (self->items == items)
    return;
  suanli_model_follow (&self->items, items, G_CALLBACK (rebuild), self);
  rebuild (self);
}

void
suanli_chart_view_set_mode (SuanliChartView *self,
                            SuanliChartMode  mode)
{
  g_return_if_fail (SUANLI_IS_CHART_VIEW (self));

  self->mode = mode;
  rebuild (self);
}

/* @x_key: the horizontal spec (scatter only); @y_key: the vertical, or ranked, spec; @size_key:
 * (nullable): bubble sizes. */
void
suanli_chart_view_set_specs (SuanliChartView *self,
                             const char      *x_key,
                             const char      *y_key,
                             const char      *size_key)
{
  g_return_if_fail (SUANLI_IS_CHART_VIEW (self));

  g_free (self->x_key);
  g_free (self->y_key);
  g_free (self->size_key);
  self->x_key = g_strdup (x_key);
  self->y_key = g_strdup (y_key);
  self->size_key = g_strdup (size_key);
  rebuild (self);
}

void
suanli_chart_view_set_logarithmic (SuanliChartView *self,
                                   gboolean         x_logarithmic,
                                   gboolean         y_logarithmic)
{
  g_return_if_fail (SUANLI_IS_CHART_VIEW (self));

  self->x_logarithmic = x_logarithmic;
  self->y_logarithmic = y_logarithmic;
  rebuild (self);
}

void
suanli_chart_view_set_memory_units (SuanliChartView   *self,
                                    SuanliMemoryUnits  units)
{
  g_return_if_fail (SUANLI_IS_CHART_VIEW (self));

  self->memory_units = units;
  rebuild (self);
}

void
suanli_chart_view_set_selected (SuanliChartView *self,
                                SuanliItem      *item)
{
  g_return_if_fail (SUANLI_IS_CHART_VIEW (self));

  if (self->selected == item)
    return;
  g_set_object (&self->selected, item);
  rebuild (self);
}

/* @items: (nullable): the items in Compare, ringed on the chart; the chart follows the list. */
void
suanli_chart_view_set_compared (SuanliChartView *self,
                                GListModel      *items)
{
  g_return_if_fail (SUANLI_IS_CHART_VIEW (self));

  suanli_model_follow (&self->compared, items, G_CALLBACK (rebuild), self);
  rebuild (self);
}

/* Whether the last paint labelled @item's point (scatter mode only; for tests). */
gboolean
suanli_chart_view_get_item_labelled (SuanliChartView *self,
                                     SuanliItem      *item)
{
  guint index;

  g_return_val_if_fail (SUANLI_IS_CHART_VIEW (self), FALSE);

  if (self->mode != SUANLI_CHART_SCATTER || !g_ptr_array_find (self->plotted, item, &index))
    return FALSE;
  return suanli_scatter_chart_get_labelled (self->scatter, index);
}

static void
draw_for_export (cairo_t *cr,
                 double   width,
                 double   height,
                 gpointer data)
{
  paint (data, cr, width, height, FALSE);
}

/* Returns: (nullable): what the chart leaves out and why ("Left out: 12 of 49 items, …"). */
const char *
suanli_chart_view_get_left_out (SuanliChartView *self)
{
  g_return_val_if_fail (SUANLI_IS_CHART_VIEW (self), NULL);
  return self->left_out;
}

/* Writes the chart, light style, to @file as SVG (*.svg) or PNG (anything else); the file is
 * replaced whole or not at all. */
gboolean
suanli_chart_view_export (SuanliChartView  *self,
                          GFile            *file,
                          GError          **error)
{
  double height = self->mode == SUANLI_CHART_BARS ? suanli_bar_chart_get_height (self->bars) : EXPORT_HEIGHT;

  g_return_val_if_fail (SUANLI_IS_CHART_VIEW (self), FALSE);

  return suanli_image_export (file, EXPORT_WIDTH, height, draw_for_export, self, error);
}
