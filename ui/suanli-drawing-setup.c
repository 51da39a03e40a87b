/* suanli-drawing-setup.c — what every widget that draws itself sets up: focus, tooltips, room,
 * its accessible label, and a redraw when the style turns dark or light
 *
 * The charts, the timeline and the flame graph paint with the palette of the current style
 * (suanli_drawing_style) into a cairo context over the whole widget (suanli_drawing_begin); a
 * drawing made in light colours would stay light after the switch without the redraw.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <adwaita.h>

#include "suanli-drawing-setup.h"

/**
 * suanli_drawing_setup:
 * @widget: a widget that draws itself
 * @flags: whether it takes focus and expands
 * @accessible_label: (nullable): what a screen reader calls it
 * @on_query_tooltip: (nullable): its #GtkWidget::query-tooltip handler, given @widget as its data
 *
 * Sets @widget up and redraws it whenever the style manager turns dark or light.
 */
void
suanli_drawing_setup (GtkWidget          *widget,
                      SuanliDrawingFlags  flags,
                      const char         *accessible_label,
                      GCallback           on_query_tooltip)
{
  if (flags & SUANLI_DRAWING_FOCUSABLE)
    gtk_widget_set_focusable (widget, TRUE);
  if (flags & SUANLI_DRAWING_EXPAND)
    {
      gtk_widget_set_hexpand (widget, TRUE);
      gtk_widget_set_vexpand (widget, TRUE);
    }
  if (accessible_label != NULL)
    gtk_accessible_update_property (GTK_ACCESSIBLE (widget), GTK_ACCESSIBLE_PROPERTY_LABEL, accessible_label, -1);
  if (on_query_tooltip != NULL)
    {
      gtk_widget_set_has_tooltip (widget, TRUE);
      g_signal_connect (widget, "query-tooltip", on_query_tooltip, widget);
    }
  g_signal_connect_object (adw_style_manager_get_default (), "notify::dark", G_CALLBACK (gtk_widget_queue_draw),
                           widget, G_CONNECT_SWAPPED);
}

/* Returns: (transfer full) (nullable): a cairo context over all of @widget in @snapshot, for
 * the widget's snapshot function to paint into and destroy; NULL when it has no area. */
cairo_t *
suanli_drawing_begin (GtkWidget   *widget,
                      GtkSnapshot *snapshot)
{
  int width = gtk_widget_get_width (widget), height = gtk_widget_get_height (widget);

  if (width <= 0 || height <= 0)
    return NULL;
  return gtk_snapshot_append_cairo (snapshot, &GRAPHENE_RECT_INIT (0, 0, width, height));
}

/* Returns: the style to paint with now: dark or light as the style manager says, the default
 * font at 9 points. */
SuanliChartStyle
suanli_drawing_style (void)
{
  SuanliChartStyle style = { adw_style_manager_get_dark (adw_style_manager_get_default ()), NULL, 9 };

  return style;
}
