/* suanli-drawing-setup.h — what every widget that draws itself sets up: focus, tooltips, room,
 * its accessible label, and a redraw when the style turns dark or light
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "suanli-chart-style.h"

G_BEGIN_DECLS

typedef enum {
  SUANLI_DRAWING_FOCUSABLE = 1 << 0, /* reached with the keyboard */
  SUANLI_DRAWING_EXPAND    = 1 << 1, /* takes the room it is given, both ways */
} SuanliDrawingFlags;

void             suanli_drawing_setup (GtkWidget          *widget,
                                       SuanliDrawingFlags  flags,
                                       const char         *accessible_label,
                                       GCallback           on_query_tooltip);
SuanliChartStyle suanli_drawing_style (void);
cairo_t         *suanli_drawing_begin (GtkWidget          *widget,
                                       GtkSnapshot        *snapshot);

G_END_DECLS
