/* suanli-stacked-bar.c — parts of a whole as one bar, against a limit: memory per GPU, step time
 *
 * The scale holds the larger of the total and the limit, so a bar that overflows its limit shows by
 * how much. Parts of one category get alternating shades so neighbours stay apart; a legend row
 * under the bar names each part with its value.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>

#include "suanli-stacked-bar.h"

#define BAR_HEIGHT    22.0
#define LEGEND_ROW    20.0
#define SWATCH         10.0
#define LEGEND_GAP     16.0

typedef struct
{
  char           *label;
  char           *value_text;
  double          value;
  SuanliCategory  category;
  const char     *tag;            /* static: what the part stands for, e.g. an estimate figure */
  /* where the last draw put it: its segment and its legend entry */
  double          segment_x, segment_width;
  double          legend_x, legend_y, legend_width;
} Part;

struct _SuanliStackedBar
{
  GArray *parts;
  double  limit;
  char   *limit_label;
  double  legend_rows;   /* from the last draw */
};

static void
clear_part (gpointer data)
{
  Part *part = data;

  g_free (part->label);
  g_free (part->value_text);
}

SuanliStackedBar *
suanli_stacked_bar_new (void)
{
  SuanliStackedBar *bar = g_new0 (SuanliStackedBar, 1);

  bar->parts = g_array_new (FALSE, TRUE, sizeof (Part));
  g_array_set_clear_func (bar->parts, clear_part);
  bar->legend_rows = 1;
  return bar;
}

void
suanli_stacked_bar_free (SuanliStackedBar *bar)
{
  if (bar == NULL)
    return;
  g_array_unref (bar->parts);
  g_free (bar->limit_label);
  g_free (bar);
}

void
suanli_stacked_bar_clear (SuanliStackedBar *bar)
{
  g_array_set_size (bar->parts, 0);
  bar->limit = 0;
  g_clear_pointer (&bar->limit_label, g_free);
}

void
suanli_stacked_bar_add (SuanliStackedBar *bar,
                        const char       *label,
                        double            value,
                        SuanliCategory    category,
                        const char       *value_text)
{
  Part part = { g_strdup (label), g_strdup (value_text), MAX (0, value), category };

  g_array_append_val (bar->parts, part);
}

/* A vertical mark at @limit (memory capacity), labelled; 0 for none. */
void
suanli_stacked_bar_set_limit (SuanliStackedBar *bar,
                              double            limit,
                              const char       *label)
{
  bar->limit = limit;
  g_free (bar->limit_label);
  bar->limit_label = g_strdup (label);
}

/* The height the bar and its legend took at the last draw's width (one legend row before). */
double
suanli_stacked_bar_get_height (SuanliStackedBar *bar)
{
  return BAR_HEIGHT + 8 + bar->legend_rows * LEGEND_ROW;
}

void
suanli_stacked_bar_draw (SuanliStackedBar       *bar,
                         cairo_t                *cr,
                         double                  width,
                         const SuanliChartStyle *style)
{
  double total = 0, scale, x = 0, legend_x = 0, legend_y = BAR_HEIGHT + 8 + LEGEND_ROW / 2;
  SuanliColor track, mark;

  for (guint i = 0; i < bar->parts->len; i++)
    total += g_array_index (bar->parts, Part, i).value;
  scale = MAX (total, bar->limit);
  scale = scale > 0 ? width / scale : 0;

  suanli_chart_style_foreground (style, 0.08, &track);
  suanli_color_set_source (cr, &track);
  cairo_rectangle (cr, 0, 0, width, BAR_HEIGHT);
  cairo_fill (cr);

  bar->legend_rows = 1;
  for (guint i = 0; i < bar->parts->len; i++)
    {
      Part *part = &g_array_index (bar->parts, Part, i);
      g_autofree char *legend = g_strdup_printf ("%s %s", part->label, part->value_text ? part->value_text : "");
      g_autoptr(PangoLayout) layout = suanli_chart_style_layout (style, cr, legend, FALSE);
      double segment = part->value * scale;
      SuanliColor color;
      int text_width, text_height;

      suanli_palette_named (part->category, part->label, style->dark, &color);
      suanli_color_set_source (cr, &color);
      cairo_rectangle (cr, x, 0, segment, BAR_HEIGHT);
      cairo_fill (cr);
      part->segment_x = x;
      part->segment_width = segment;
      x += segment;

      /* The legend flows onto more rows when it does not fit one. */
      pango_layout_get_pixel_size (layout, &text_width, &text_height);
      if (legend_x > 0 && legend_x + SWATCH + 4 + text_width > width)
        {
          legend_x = 0;
          legend_y += LEGEND_ROW;
          bar->legend_rows++;
        }
      suanli_color_set_source (cr, &color);
      cairo_rectangle (cr, legend_x, legend_y - SWATCH / 2, SWATCH, SWATCH);
      cairo_fill (cr);
      suanli_chart_style_draw_text (style, cr, legend, legend_x + SWATCH + 4, legend_y, SUANLI_TEXT_START, 0.8);
      part->legend_x = legend_x;
      part->legend_y = legend_y;
      part->legend_width = SWATCH + 4 + text_width;
      legend_x += SWATCH + 4 + text_width + LEGEND_GAP;
    }

  if (bar->limit > 0)
    {
      double at = round (bar->limit * scale) - 1;

      suanli_chart_style_foreground (style, 0.9, &mark);
      suanli_color_set_source (cr, &mark);
      cairo_rectangle (cr, MAX (0, at), -3, 2, BAR_HEIGHT + 6);
      cairo_fill (cr);
      if (bar->limit_label != NULL)
        suanli_chart_style_draw_text (style, cr, bar->limit_label, MAX (0, at) - 4, BAR_HEIGHT / 2, SUANLI_TEXT_END,
                                      0.9);
    }
}

/* Gives the part added last a @tag (a static string), for suanli_stacked_bar_tag_at(). */
void
suanli_stacked_bar_tag_last (SuanliStackedBar *bar,
                             const char       *tag)
{
  g_return_if_fail (bar->parts->len > 0);

  g_array_index (bar->parts, Part, bar->parts->len - 1).tag = tag;
}

/* Returns: (nullable): the tag of the part whose segment or legend entry the last draw put at
 * @x, @y, and in @area where that was. */
const char *
suanli_stacked_bar_tag_at (SuanliStackedBar *bar,
                           double            x,
                           double            y,
                           cairo_rectangle_t *area)
{
  for (guint i = 0; i < bar->parts->len; i++)
    {
      Part *part = &g_array_index (bar->parts, Part, i);
      gboolean on_segment = y >= 0 && y <= BAR_HEIGHT && x >= part->segment_x && x < part->segment_x + part->segment_width;
      gboolean on_legend = fabs (y - part->legend_y) <= LEGEND_ROW / 2 && x >= part->legend_x &&
                           x < part->legend_x + part->legend_width;

      if (part->tag == NULL || !(on_segment || on_legend))
        continue;
      if (area != NULL)
        *area = on_segment ? (cairo_rectangle_t) { part->segment_x, 0, part->segment_width, BAR_HEIGHT }
                           : (cairo_rectangle_t) { part->legend_x, part->legend_y - LEGEND_ROW / 2, part->legend_width,
                                                   LEGEND_ROW };
      return part->tag;
    }
  return NULL;
}
