/* suanli-palette.h — the colours every painter uses: GNOME's palette, by category and name
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <cairo.h>
#include <glib.h>

G_BEGIN_DECLS

typedef struct {
  double red;
  double green;
  double blue;
  double alpha;
} SuanliColor;

/* What a slice, bar or flame frame is, for its colour (Adwaita's palette): blue CPU operators, green compute
 * kernels, orange memory traffic, purple communication, grey idle time. */
typedef enum {
  SUANLI_CATEGORY_CPU,
  SUANLI_CATEGORY_KERNEL,
  SUANLI_CATEGORY_MEMORY,
  SUANLI_CATEGORY_COMMUNICATION,
  SUANLI_CATEGORY_IDLE,
  SUANLI_CATEGORY_OTHER,
  SUANLI_N_CATEGORIES,
} SuanliCategory;

void     suanli_palette_category       (SuanliCategory      category,
                                        gboolean            dark,
                                        SuanliColor        *color);
void     suanli_palette_named          (SuanliCategory      category,
                                        const char         *name,
                                        gboolean            dark,
                                        SuanliColor        *color);
void     suanli_palette_text_on        (const SuanliColor  *background,
                                        SuanliColor        *text);
guint32  suanli_palette_hash_name      (const char         *name);
void     suanli_color_set_source       (cairo_t            *cr,
                                        const SuanliColor  *color);

G_END_DECLS
