/* suanli-chart-style.h — what the chart painters share: colours for a light or dark background, text
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <cairo.h>
#include <pango/pangocairo.h>

#include "suanli-palette.h"

G_BEGIN_DECLS

typedef struct
{
  gboolean    dark;
  const char *font_family;   /* NULL: the default sans-serif */
  double      font_size;     /* in points; 0: 9 */
} SuanliChartStyle;

typedef enum {
  SUANLI_TEXT_START,
  SUANLI_TEXT_CENTER,
  SUANLI_TEXT_END,
} SuanliTextAlign;

void         suanli_chart_style_foreground (const SuanliChartStyle *style,
                                            double                  alpha,
                                            SuanliColor            *color);
PangoLayout *suanli_chart_style_layout     (const SuanliChartStyle *style,
                                            cairo_t                *cr,
                                            const char             *text,
                                            gboolean                bold);
void         suanli_chart_style_draw_text  (const SuanliChartStyle *style,
                                            cairo_t                *cr,
                                            const char             *text,
                                            double                  x,
                                            double                  y,
                                            SuanliTextAlign         align,
                                            double                  alpha);

G_END_DECLS
