/* suanli-chart-style.c — what the chart painters share: colours for a light or dark background, text
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "suanli-chart-style.h"
#include "suanli-text.h"

/* Adwaita's window foreground: near-black on light, white on dark, at @alpha. */
void
suanli_chart_style_foreground (const SuanliChartStyle *style,
                               double                  alpha,
                               SuanliColor            *color)
{
  double level = style->dark ? 1.0 : 0.0;

  color->red = color->green = color->blue = level;
  color->alpha = alpha * (style->dark ? 1.0 : 0.8);
}

/* Returns: (transfer full): a layout of @text in the style's font. */
PangoLayout *
suanli_chart_style_layout (const SuanliChartStyle *style,
                           cairo_t                *cr,
                           const char             *text,
                           gboolean                bold)
{
  PangoLayout *layout = pango_cairo_create_layout (cr);
  PangoFontDescription *font = pango_font_description_new ();

  /* Han characters take Chinese glyphs when the text is Chinese, whatever the locale's script. */
  if (suanli_text_prefers_chinese ())
    {
      pango_context_set_language (pango_layout_get_context (layout), pango_language_from_string ("zh-cn"));
      pango_layout_context_changed (layout);
    }
  pango_font_description_set_family (font, style->font_family != NULL ? style->font_family : "Sans");
  pango_font_description_set_size (font, (int) ((style->font_size > 0 ? style->font_size : 9) * PANGO_SCALE));
  if (bold)
    pango_font_description_set_weight (font, PANGO_WEIGHT_BOLD);
  pango_layout_set_font_description (layout, font);
  pango_layout_set_text (layout, text, -1);
  pango_font_description_free (font);
  return layout;
}

/* Draws @text with its vertical middle at @y, and its start, centre or end at @x. */
void
suanli_chart_style_draw_text (const SuanliChartStyle *style,
                              cairo_t                *cr,
                              const char             *text,
                              double                  x,
                              double                  y,
                              SuanliTextAlign         align,
                              double                  alpha)
{
  g_autoptr(PangoLayout) layout = suanli_chart_style_layout (style, cr, text, FALSE);
  SuanliColor color;
  int width, height;

  pango_layout_get_pixel_size (layout, &width, &height);
  if (align == SUANLI_TEXT_CENTER)
    x -= width / 2.0;
  else if (align == SUANLI_TEXT_END)
    x -= width;
  suanli_chart_style_foreground (style, alpha, &color);
  suanli_color_set_source (cr, &color);
  cairo_move_to (cr, x, y - height / 2.0);
  pango_cairo_show_layout (cr, layout);
}
