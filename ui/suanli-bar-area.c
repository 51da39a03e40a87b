/* suanli-bar-area.c — a GtkDrawingArea that draws a SuanliStackedBar and grows to fit it
 *
 * The draw function for gtk_drawing_area_set_draw_func() with the bar as its data: the planner's
 * memory and step bars and the profiler's GPU-time bar.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>

#include "suanli-bar-area.h"
#include "suanli-drawing-setup.h"

void
suanli_bar_area_draw (GtkDrawingArea *area,
                      cairo_t        *cr,
                      int             width,
                      int             height,
                      gpointer        bar)
{
  SuanliChartStyle style = suanli_drawing_style ();
  double needed;

  cairo_translate (cr, 0, 3);
  suanli_stacked_bar_draw (bar, cr, width, &style);
  needed = ceil (suanli_stacked_bar_get_height (bar)) + 6;
  if (gtk_drawing_area_get_content_height (area) != (int) needed)
    gtk_drawing_area_set_content_height (area, (int) needed);
}
