/* suanli-scatter-chart.c — a scatter (or bubble) chart of items over two numeric specs
 *
 * Labels are placed greedily beside their point (right, left, above, below) where they overlap no
 * other label or point; a label that fits nowhere is left out, and the point's tooltip names it.
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
} Point;

struct _SuanliScatterChart
{
  GArray *points;     /* of Point */
  int     selected;
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
}

/* @size: the bubble's value, or NAN for plain points. */
void
suanli_scatter_chart_add_point (SuanliScatterChart *chart,
                                double              x,
                                double              y,
                                double              size,
                                const char         *label)
{
  Point point = { x, y, size, g_strdup (label), 0, 0, RADIUS, FALSE, FALSE };

  g_array_append_val (chart->points, point);
}

void
suanli_scatter_chart_set_selected (SuanliScatterChart *chart,
                                   int                 index)
{
  chart->selected = index;
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

static gboolean
rect_is_free (const cairo_rectangle_t *rect,
              GArray                  *taken,
              double                   width,
              double                   height)
{
  if (rect->x < 0 || rect->y < 0 || rect->x + rect->width > width || rect->y + rect->height > height)
    return FALSE;
  for (guint i = 0; i < taken->len; i++)
    if (rects_overlap (rect, &g_array_index (taken, cairo_rectangle_t, i)))
      return FALSE;
  return TRUE;
}

static void
draw_labels (SuanliScatterChart     *chart,
             cairo_t                *cr,
             double                  width,
             double                  height,
             const SuanliChartStyle *style)
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
    }

  suanli_chart_style_foreground (style, 0.85, &color);
  /* The selected point's label goes first so it is never the one left out. */
  for (int pass = 0; pass < 2; pass++)
    for (guint i = 0; i < chart->points->len; i++)
      {
        Point *point = &g_array_index (chart->points, Point, i);
        g_autoptr(PangoLayout) layout = NULL;
        int text_width, text_height;
        double gap = point->radius + 3;

        if (!point->drawn || point->faded || point->label == NULL || ((int) i == chart->selected) != (pass == 0))
          continue;
        layout = suanli_chart_style_layout (style, cr, point->label, (int) i == chart->selected);
        pango_layout_get_pixel_size (layout, &text_width, &text_height);
        {
          cairo_rectangle_t candidates[] = {
            { point->pixel_x + gap, point->pixel_y - text_height / 2.0, text_width, text_height },
            { point->pixel_x - gap - text_width, point->pixel_y - text_height / 2.0, text_width, text_height },
            { point->pixel_x - text_width / 2.0, point->pixel_y - gap - text_height, text_width, text_height },
            { point->pixel_x - text_width / 2.0, point->pixel_y + gap, text_width, text_height },
          };

          for (guint c = 0; c < G_N_ELEMENTS (candidates); c++)
            if (rect_is_free (&candidates[c], taken, width, height))
              {
                g_array_append_val (taken, candidates[c]);
                suanli_color_set_source (cr, &color);
                cairo_move_to (cr, candidates[c].x, candidates[c].y);
                pango_cairo_show_layout (cr, layout);
                break;
              }
        }
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
  SuanliColor fill, accent;

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
    }

  draw_labels (chart, cr, width, height, style);
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
