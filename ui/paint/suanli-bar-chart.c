/* suanli-bar-chart.c — items ranked by one spec, as horizontal bars
 *
 * Bars keep the order they were added in (the caller ranks them); a bar's index is its item's.
 * Items without a value are left out by the caller, not drawn as zero.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>

#include "suanli-bar-chart.h"

#define ROW_HEIGHT   24.0
#define BAR_HEIGHT   16.0
#define LABEL_WIDTH 180.0
#define VALUE_WIDTH  90.0
#define MARGIN        8.0

typedef struct
{
  char   *label;
  double  value;
  char   *value_text;
  gboolean marked;
} Bar;

struct _SuanliBarChart
{
  GArray *bars;   /* of Bar */
  int     selected;
};

static void
clear_bar (gpointer data)
{
  Bar *bar = data;

  g_free (bar->label);
  g_free (bar->value_text);
}

SuanliBarChart *
suanli_bar_chart_new (void)
{
  SuanliBarChart *chart = g_new0 (SuanliBarChart, 1);

  chart->bars = g_array_new (FALSE, TRUE, sizeof (Bar));
  g_array_set_clear_func (chart->bars, clear_bar);
  chart->selected = -1;
  return chart;
}

void
suanli_bar_chart_free (SuanliBarChart *chart)
{
  if (chart == NULL)
    return;
  g_array_unref (chart->bars);
  g_free (chart);
}

void
suanli_bar_chart_clear (SuanliBarChart *chart)
{
  g_array_set_size (chart->bars, 0);
  chart->selected = -1;
}

void
suanli_bar_chart_add_bar (SuanliBarChart *chart,
                          const char     *label,
                          double          value,
                          const char     *value_text)
{
  Bar bar = { g_strdup (label), value, g_strdup (value_text), FALSE };

  g_array_append_val (chart->bars, bar);
}

void
suanli_bar_chart_set_selected (SuanliBarChart *chart,
                               int             index)
{
  chart->selected = index;
}

/* The height the chart needs: one row per bar. */
double
suanli_bar_chart_get_height (SuanliBarChart *chart)
{
  return 2 * MARGIN + chart->bars->len * ROW_HEIGHT;
}

void
suanli_bar_chart_draw (SuanliBarChart         *chart,
                       cairo_t                *cr,
                       double                  width,
                       const SuanliChartStyle *style)
{
  double largest = 0, bar_space = MAX (10, width - LABEL_WIDTH - VALUE_WIDTH - 2 * MARGIN);
  SuanliColor fill, accent, marked;

  for (guint i = 0; i < chart->bars->len; i++)
    largest = MAX (largest, g_array_index (chart->bars, Bar, i).value);

  suanli_palette_category (SUANLI_CATEGORY_CPU, style->dark, &fill);
  suanli_palette_category (SUANLI_CATEGORY_MEMORY, style->dark, &accent);
  suanli_palette_category (SUANLI_CATEGORY_COMMUNICATION, style->dark, &marked);
  for (guint i = 0; i < chart->bars->len; i++)
    {
      Bar *bar = &g_array_index (chart->bars, Bar, i);
      double middle = MARGIN + i * ROW_HEIGHT + ROW_HEIGHT / 2;
      double length = largest > 0 && bar->value > 0 ? bar_space * bar->value / largest : 0;
      g_autoptr(PangoLayout) label = suanli_chart_style_layout (style, cr, bar->label, (int) i == chart->selected || bar->marked);
      SuanliColor text;

      /* The label, cut with an ellipsis to its column. */
      pango_layout_set_width (label, (int) ((LABEL_WIDTH - 8) * PANGO_SCALE));
      pango_layout_set_ellipsize (label, PANGO_ELLIPSIZE_END);
      pango_layout_set_alignment (label, PANGO_ALIGN_RIGHT);
      suanli_chart_style_foreground (style, 0.85, &text);
      suanli_color_set_source (cr, &text);
      cairo_move_to (cr, MARGIN, middle - 8);
      pango_cairo_show_layout (cr, label);

      cairo_rectangle (cr, MARGIN + LABEL_WIDTH, middle - BAR_HEIGHT / 2, MAX (1, length), BAR_HEIGHT);
      suanli_color_set_source (cr, (int) i == chart->selected ? &accent : bar->marked ? &marked : &fill);
      cairo_fill (cr);

      if (bar->value_text != NULL)
        suanli_chart_style_draw_text (style, cr, bar->value_text, MARGIN + LABEL_WIDTH + length + 6, middle,
                                      SUANLI_TEXT_START, 0.7);
    }
}

/* A marked bar (an item being compared) is drawn in its own colour, its label bold. */
void
suanli_bar_chart_set_marked (SuanliBarChart *chart,
                             guint           index,
                             gboolean        marked)
{
  g_return_if_fail (index < chart->bars->len);

  g_array_index (chart->bars, Bar, index).marked = marked;
}

/* The bar whose row holds (@x, @y), or -1. */
int
suanli_bar_chart_hit (SuanliBarChart *chart,
                      double          x,
                      double          y)
{
  double row = floor ((y - MARGIN) / ROW_HEIGHT);

  if (y < MARGIN || row < 0 || row >= chart->bars->len || x < 0)
    return -1;
  return (int) row;
}
