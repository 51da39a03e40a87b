/* suanli-image-export.h — a painter's drawing written to an SVG or PNG file
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <cairo.h>
#include <gio/gio.h>

G_BEGIN_DECLS

typedef void (*SuanliDrawFunc) (cairo_t *cr,
                                double   width,
                                double   height,
                                gpointer user_data);

gboolean suanli_image_export (GFile          *file,
                              double          width,
                              double          height,
                              SuanliDrawFunc  draw,
                              gpointer        user_data,
                              GError        **error);

G_END_DECLS
