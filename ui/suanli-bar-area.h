/* suanli-bar-area.h — a GtkDrawingArea that draws a SuanliStackedBar and grows to fit it
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "suanli-stacked-bar.h"

G_BEGIN_DECLS

void suanli_bar_area_draw (GtkDrawingArea *area,
                           cairo_t        *cr,
                           int             width,
                           int             height,
                           gpointer        bar);

G_END_DECLS
