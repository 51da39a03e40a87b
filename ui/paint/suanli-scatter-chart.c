/* suanli-scatter-chart.c — a scatter (or bubble) chart of items over two numeric specs
 *
 * Labels are placed greedily where they overlap no other label or point: beside their point (right,
 * left, above, below, then the corners), then further out with a leader line back to it. The
 * selected point, the one under the pointer and the marked ones (the items compared) go first, so
 * their labels are never the ones left out; a label that fits nowhere else is left out and shows
 * when the pointer is on its point, and the point's tooltip names it.
 * The painter remembers where it drew each point, for hit tests and for tests of the drawing.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>

#include "suanli-axis.h"
#include "suanli-scatter-chart.h"

#define MARGIN_LEFT   56.0
#define MARGIN_RIGHT  16.0
#define MARGIN_TOP    16.0
#define MARGIN_BOTTOM 44.0
#define RADIUS         5.0
#define HIT_RADIUS    10.0

typedef struct
{
  double  x, y, size;
  char   *label;
  double  pixel_x, pixel_y, radius;
  gboolean drawn;
  gboolean faded;
  gboolean marked;
  gboolean labelled;
} Point;

struct _SuanliScatterChart
{
  GArray *points;     /* of Point */
  int     selected;
  int     hovered;
  char   *x_title;
  char   *y_title;
  gboolean x_logarithmic;
  gboolean y_logarithmic;
};

static void
clear_point (gpointer data)
{
  g_free (((Point *) data)->label);
}

SuanliScatterChart *
suanli_scatter_chart_new (void)
{
  SuanliScatterChart *chart = g_new0 (SuanliScatterChart, 1);

  chart->points = g_array_new (FALSE, TRUE, sizeof (Point));
  g_array_set_clear_func (chart->points, clear_point);
  chart->selected = -1;
  chart->hovered = -1;
  return chart;
}

void
suanli_scatter_chart_free (SuanliScatterChart *chart)
{
  if (chart == NULL)
    return;
  g_array_unref (chart->points);
  g_free (chart->x_title);
  g_free (chart->y_title);
  g_free (chart);
}

void
suanli_scatter_chart_clear (SuanliScatterChart *chart)
{
  g_array_set_size (chart->points, 0);
  chart->selected = -1;
  chart->hovered = -1;
}

/* @size: the bubble's value, or NAN for plain points. */
void
suanli_scatter_chart_add_point (SuanliScatterChart *chart,
                                double              x,
                                double              y,
                                double              size,
                                const char         *label)
{
  Point point = { x, y, size, g_strdup (label), 0, 0, RADIUS, FALSE, FALSE, FALSE, FALSE };

  g_array_append_val (chart->points, point);
}

void
suanli_scatter_chart_set_selected (SuanliScatterChart *chart,
                                   int                 index)
{
  chart->selected = index;
}

/* The point under the pointer (-1 for none): its label goes first, so a crowded one shows. */
void
suanli_scatter_chart_set_hovered (SuanliScatterChart *chart,
                                  int                 index)
{
  chart->hovered = index;
}

/* A marked point (an item being compared) is ringed in its own colour and labelled first. */
void
suanli_scatter_chart_set_marked (SuanliScatterChart *chart,
                                 guint               index,
                                 gboolean            marked)
{
  g_return_if_fail (index < chart->points->len);

  g_array_index (chart->points, Point, index).marked = marked;
}

/* A faded point is drawn pale and unlabelled: a dominated configuration, say. */
void
suanli_scatter_chart_set_faded (SuanliScatterChart *chart,
                                guint               index,
                                gboolean            faded)
{
  g_return_if_fail (index < chart->points->len);

  g_array_index (chart->points, Point, index).faded = faded;
}

void
suanli_scatter_chart_set_axes (SuanliScatterChart *chart,
                               const char         *x_title,
                               gboolean            x_logarithmic,
                               const char         *y_title,
                               gboolean            y_logarithmic)
{
  g_free (chart->x_title);
  g_free (chart->y_title);
  chart->x_title = g_strdup (x_title);
  chart->y_title = g_strdup (y_title);
  chart->x_logarithmic = x_logarithmic;
  chart->y_logarithmic = y_logarithmic;
}

static void
draw_axes (SuanliScatterChart     *chart,
           cairo_t                *cr,
           const SuanliAxis       *x_axis,
           const SuanliAxis       *y_axis,
           const SuanliChartStyle *style)
{
  double ticks[32];
  guint n;
  SuanliColor grid;

  suanli_chart_style_foreground (style, 0.12, &grid);
  cairo_set_line_width (cr, 1);

  n = suanli_axis_ticks (x_axis, ticks, G_N_ELEMENTS (ticks));
  for (guint i = 0; i < n; i++)
    {
      double px = round (suanli_axis_to_pixel (x_axis, ticks[i])) + 0.5;
      g_autofree char *text = suanli_axis_format_tick (ticks[i]);

      suanli_color_set_source (cr, &grid);
      cairo_move_to (cr, px, y_axis->pixel_end);
      cairo_line_to (cr, px, y_axis->pixel_start);
      cairo_stroke (cr);
      suanli_chart_style_draw_text (style, cr, text, px, y_axis->pixel_start + 10, SUANLI_TEXT_CENTER, 0.6);
    }
  n = suanli_axis_ticks (y_axis, ticks, G_N_ELEMENTS (ticks));
  for (guint i = 0; i < n; i++)
    {
      double py = round (suanli_axis_to_pixel (y_axis, ticks[i])) + 0.5;
      g_autofree char *text = suanli_axis_format_tick (ticks[i]);

      suanli_color_set_source (cr, &grid);
      cairo_move_to (cr, x_axis->pixel_start, py);
      cairo_line_to (cr, x_axis->pixel_end, py);
      cairo_stroke (cr);
      suanli_chart_style_draw_text (style, cr, text, x_axis->pixel_start - 6, py, SUANLI_TEXT_END, 0.6);
    }

  if (chart->x_title != NULL)
    suanli_chart_style_draw_text (style, cr, chart->x_title, (x_axis->pixel_start + x_axis->pixel_end) / 2,
                                  y_axis->pixel_start + 28, SUANLI_TEXT_CENTER, 0.8);
  if (chart->y_title != NULL)
    {
      cairo_save (cr);
      cairo_translate (cr, 12, (y_axis->pixel_start + y_axis->pixel_end) / 2);
      cairo_rotate (cr, -G_PI / 2);
      suanli_chart_style_draw_text (style, cr, chart->y_title, 0, 0, SUANLI_TEXT_CENTER, 0.8);
      cairo_restore (cr);
    }
}

static gboolean
rects_overlap (const cairo_rectangle_t *a,
               const cairo_rectangle_t *b)
{
  return a->x < b->x + b->width && b->x < a->x + a->width && a->y < b->y + b->height && b->y < a->y + a->height;
}

/* Whether @rect lies inside @area (the plot, not the axes' tick labels) and over nothing taken. */
static gboolean
rect_is_free (const cairo_rectangle_t *rect,
              GArray                  *taken,
              const cairo_rectangle_t *area)
{
  if (rect->x < area->x || rect->y < area->y || rect->x + rect->width > area->x + area->width ||
      rect->y + rect->height > area->y + area->height)
    return FALSE;
  for (guint i = 0; i < taken->len; i++)
    if (rects_overlap (rect, &g_array_index (taken, cairo_rectangle_t, i)))
      return FALSE;
  return TRUE;
}

/* Which pass places @point's label: the selected and hovered first, then the marked, then the rest. */
static int
label_pass (SuanliScatterChart *chart,
            guint               index)
{
  Point *point = &g_array_index (chart->points, Point, index);

  if ((int) index == chart->selected || (int) index == chart->hovered)
    return 0;
  return point->marked ? 1 : 2;
}

/* Places @point's label in the first free spot of ever wider rings around it; draws a leader line
 * to it from past the first ring. FALSE when there is none. */
static gboolean
place_label (Point                  *point,
             cairo_t                *cr,
             PangoLayout            *layout,
             GArray                 *taken,
             const cairo_rectangle_t *area,
             const SuanliColor      *color)
{
  static const double rings[] = { 3, 12, 26, 44 };
  int text_width, text_height;

  pango_layout_get_pixel_size (layout, &text_width, &text_height);
  for (guint r = 0; r < G_N_ELEMENTS (rings); r++)
    {
      double gap = point->radius + rings[r];
      double w = text_width, h = text_height, x = point->pixel_x, y = point->pixel_y;
      cairo_rectangle_t candidates[] = {
        { x + gap, y - h / 2, w, h },         { x - gap - w, y - h / 2, w, h },
        { x - w / 2, y - gap - h, w, h },     { x - w / 2, y + gap, w, h },
        { x + gap * 0.7, y - gap * 0.7 - h, w, h }, { x - gap * 0.7 - w, y - gap * 0.7 - h, w, h },
        { x + gap * 0.7, y + gap * 0.7, w, h },     { x - gap * 0.7 - w, y + gap * 0.7, w, h },
      };

      for (guint c = 0; c < G_N_ELEMENTS (candidates); c++)
        {
          cairo_rectangle_t *rect = &candidates[c];

          if (!rect_is_free (rect, taken, area))
            continue;
          g_array_append_val (taken, *rect);
          suanli_color_set_source (cr, color);
          if (r > 0)
            {
              double to_x = CLAMP (x, rect->x, rect->x + rect->width);
              double to_y = CLAMP (y, rect->y, rect->y + rect->height);
              double length = hypot (to_x - x, to_y - y);

              cairo_save (cr);
              cairo_set_line_width (cr, 0.8);
              cairo_move_to (cr, x + (to_x - x) * point->radius / length, y + (to_y - y) * point->radius / length);
              cairo_line_to (cr, to_x, to_y);
              cairo_stroke (cr);
              cairo_restore (cr);
            }
          cairo_move_to (cr, rect->x, rect->y);
          pango_cairo_show_layout (cr, layout);
          return TRUE;
        }
    }
  return FALSE;
}

static void
draw_labels (SuanliScatterChart      *chart,
             cairo_t                 *cr,
             const cairo_rectangle_t *area,
             const SuanliChartStyle  *style)
{
  g_autoptr(GArray) taken = g_array_new (FALSE, FALSE, sizeof (cairo_rectangle_t));
  SuanliColor color;

  /* Points are obstacles too. */
  for (guint i = 0; i < chart->points->len; i++)
    {
      Point *point = &g_array_index (chart->points, Point, i);
      cairo_rectangle_t rect = { point->pixel_x - point->radius, point->pixel_y - point->radius,
                                 2 * point->radius, 2 * point->radius };
      if (point->drawn)
        g_array_append_val (taken, rect);
      point->labelled = FALSE;
    }

  suanli_chart_style_foreground (style, 0.85, &color);
  for (int pass = 0; pass < 3; pass++)
    for (guint i = 0; i < chart->points->len; i++)
      {
        Point *point = &g_array_index (chart->points, Point, i);
        g_autoptr(PangoLayout) layout = NULL;

        if (!point->drawn || point->label == NULL || label_pass (chart, i) != pass ||
            (point->faded && pass == 2))
          continue;
        layout = suanli_chart_style_layout (style, cr, point->label, pass < 2);
        point->labelled = place_label (point, cr, layout, taken, area, &color);
      }
}

/* Lays the chart out in @width × @height and paints it; the background is left to the caller. */
void
suanli_scatter_chart_draw (SuanliScatterChart     *chart,
                           cairo_t                *cr,
                           double                  width,
                           double                  height,
                           const SuanliChartStyle *style)
{
  g_autofree double *xs = g_new (double, chart->points->len + 1);
  g_autofree double *ys = g_new (double, chart->points->len + 1);
  double largest = 0;
  SuanliAxis x_axis, y_axis;
  SuanliColor fill, accent, marked;

  for (guint i = 0; i < chart->points->len; i++)
    {
      Point *point = &g_array_index (chart->points, Point, i);

      xs[i] = point->x;
      ys[i] = point->y;
      if (isfinite (point->size))
        largest = MAX (largest, point->size);
    }
  suanli_axis_fit (&x_axis, xs, chart->points->len, chart->x_logarithmic, !chart->x_logarithmic);
  suanli_axis_fit (&y_axis, ys, chart->points->len, chart->y_logarithmic, !chart->y_logarithmic);
  x_axis.pixel_start = MARGIN_LEFT;
  x_axis.pixel_end = MAX (MARGIN_LEFT + 1, width - MARGIN_RIGHT);
  y_axis.pixel_start = MAX (MARGIN_TOP + 1, height - MARGIN_BOTTOM);
  y_axis.pixel_end = MARGIN_TOP;

  draw_axes (chart, cr, &x_axis, &y_axis, style);

  suanli_palette_category (SUANLI_CATEGORY_CPU, style->dark, &fill);
  fill.alpha = 0.75;
  suanli_palette_category (SUANLI_CATEGORY_MEMORY, style->dark, &accent);
  suanli_palette_category (SUANLI_CATEGORY_COMMUNICATION, style->dark, &marked);
  for (guint i = 0; i < chart->points->len; i++)
    {
      Point *point = &g_array_index (chart->points, Point, i);
      gboolean selected = (int) i == chart->selected;

      point->drawn = isfinite (point->x) && isfinite (point->y) &&
                     (!chart->x_logarithmic || point->x > 0) && (!chart->y_logarithmic || point->y > 0);
      if (!point->drawn)
        continue;
      point->pixel_x = suanli_axis_to_pixel (&x_axis, point->x);
      point->pixel_y = suanli_axis_to_pixel (&y_axis, point->y);
      /* Bubble area proportional to the size value. */
      point->radius = largest > 0 && isfinite (point->size) ? 4 + 14 * sqrt (point->size / largest) : RADIUS;
      if (selected)
        point->radius += 2;

      cairo_new_path (cr);
      cairo_arc (cr, point->pixel_x, point->pixel_y, point->radius, 0, 2 * G_PI);
      if (point->faded && !selected)
        cairo_set_source_rgba (cr, fill.red, fill.green, fill.blue, 0.2);
      else
        suanli_color_set_source (cr, selected ? &accent : &fill);
      cairo_fill_preserve (cr);
      cairo_set_line_width (cr, selected ? 2.5 : 1);
      cairo_set_source_rgba (cr, style->dark ? 0 : 1, style->dark ? 0 : 1, style->dark ? 0 : 1, 0.9);
      cairo_stroke (cr);
      /* A compared item wears a ring in its own colour, outside the bubble's edge. */
      if (point->marked)
        {
          cairo_new_path (cr);
          cairo_arc (cr, point->pixel_x, point->pixel_y, point->radius + 3.5, 0, 2 * G_PI);
          cairo_set_line_width (cr, 2.5);
          suanli_color_set_source (cr, &marked);
          cairo_stroke (cr);
        }
    }

  {
    /* Labels stay in the plot, off the tick labels of both axes. */
    cairo_rectangle_t area = { x_axis.pixel_start, 0, width - x_axis.pixel_start, y_axis.pixel_start };

    draw_labels (chart, cr, &area, style);
  }
}

guint
suanli_scatter_chart_get_n_points (SuanliScatterChart *chart)
{
  return chart->points->len;
}

/* Where the last draw put point @index; FALSE when it was not drawn (no value, or ≤ 0 on a log axis). */
gboolean
suanli_scatter_chart_get_position (SuanliScatterChart *chart,
                                   guint               index,
                                   double             *x,
                                   double             *y)
{
  Point *point;

  g_return_val_if_fail (index < chart->points->len, FALSE);

  point = &g_array_index (chart->points, Point, index);
  *x = point->pixel_x;
  *y = point->pixel_y;
  return point->drawn;
}

/* Whether the last draw found room for point @index's label. */
gboolean
suanli_scatter_chart_get_labelled (SuanliScatterChart *chart,
                                   guint               index)
{
  g_return_val_if_fail (index < chart->points->len, FALSE);

  return g_array_index (chart->points, Point, index).labelled;
}

/* The point under (@x, @y), nearest first, or -1. */
int
suanli_scatter_chart_hit (SuanliScatterChart *chart,
                          double              x,
                          double              y)
{
  double best = G_MAXDOUBLE;
  int found = -1;

  for (guint i = 0; i < chart->points->len; i++)
    {
      Point *point = &g_array_index (chart->points, Point, i);
      double distance = hypot (point->pixel_x - x, point->pixel_y - y);

      if (point->drawn && distance <= MAX (HIT_RADIUS, point->radius) && distance < best)
        {
          best = distance;
          found = (int) i;
        }
    }
  return found;
}
