/* suanli-palette.c — the colours every painter uses
 *
 * The ramps are GNOME's palette (the HIG's "Blue 1…5" and so on). A name picks a stable shade
 * inside its category's ramp, so "aten::mm" has the same colour in every trace, on screen and in
 * the PDF report, and neighbouring slices of one category still tell apart.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "suanli-palette.h"

typedef struct {
  guint32 light;   /* the ramp's light end (shade 1) */
  guint32 dark;    /* the ramp's dark end (shade 5) */
} Ramp;

static const Ramp ramps[SUANLI_N_CATEGORIES] = {
  [SUANLI_CATEGORY_CPU]           = { 0x99c1f1, 0x1a5fb4 },  /* Blue 1 … Blue 5 */
  [SUANLI_CATEGORY_KERNEL]        = { 0x8ff0a4, 0x26a269 },  /* Green 1 … Green 5 */
  [SUANLI_CATEGORY_MEMORY]        = { 0xffbe6f, 0xc64600 },  /* Orange 1 … Orange 5 */
  [SUANLI_CATEGORY_COMMUNICATION] = { 0xdc8add, 0x613583 },  /* Purple 1 … Purple 5 */
  [SUANLI_CATEGORY_IDLE]          = { 0xdeddda, 0x77767b },  /* Light 3 … Dark 1 */
  [SUANLI_CATEGORY_OTHER]         = { 0xcdab8f, 0x63452c },  /* Brown 1 … Brown 5 */
};

static void
mix (guint32      from,
     guint32      to,
     double       t,
     SuanliColor *color)
{
  double a[3] = { (from >> 16) & 0xff, (from >> 8) & 0xff, from & 0xff };
  double b[3] = { (to >> 16) & 0xff, (to >> 8) & 0xff, to & 0xff };

  color->red = (a[0] + (b[0] - a[0]) * t) / 255.0;
  color->green = (a[1] + (b[1] - a[1]) * t) / 255.0;
  color->blue = (a[2] + (b[2] - a[2]) * t) / 255.0;
  color->alpha = 1.0;
}

/* The category's middle shade (Blue 3 for CPU work): for legends and whole-category bars.
 * On dark backgrounds the ramp is walked one step lighter, as Adwaita's dark style does. */
void
suanli_palette_category (SuanliCategory  category,
                         gboolean        dark,
                         SuanliColor    *color)
{
  g_return_if_fail (category < SUANLI_N_CATEGORIES);
  g_return_if_fail (color != NULL);

  mix (ramps[category].light, ramps[category].dark, dark ? 0.35 : 0.55, color);
}

/* FNV-1a: small, fast, and the same on every machine, which is all a colour needs. */
guint32
suanli_palette_hash_name (const char *name)
{
  guint32 hash = 2166136261u;

  for (const guchar *p = (const guchar *) (name ? name : ""); *p; p++)
    {
      hash ^= *p;
      hash *= 16777619u;
    }
  return hash;
}

/* A stable shade for @name between the ramp's second and fourth steps: never so light that white
 * text vanishes on dark themes, never so dark that black text does on light ones. */
void
suanli_palette_named (SuanliCategory  category,
                      const char     *name,
                      gboolean        dark,
                      SuanliColor    *color)
{
  double t;

  g_return_if_fail (category < SUANLI_N_CATEGORIES);
  g_return_if_fail (color != NULL);

  t = 0.2 + 0.6 * ((suanli_palette_hash_name (name) % 1024) / 1023.0);
  if (dark)
    t = MAX (0.0, t - 0.15);
  mix (ramps[category].light, ramps[category].dark, t, color);
}

/* Black or white, whichever reads better on @background (luma of the sRGB values). */
void
suanli_palette_text_on (const SuanliColor *background,
                        SuanliColor       *text)
{
  double luminance;

  g_return_if_fail (background != NULL);
  g_return_if_fail (text != NULL);

  luminance = 0.2126 * background->red + 0.7152 * background->green + 0.0722 * background->blue;
  text->red = text->green = text->blue = luminance > 0.55 ? 0.0 : 1.0;
  text->alpha = luminance > 0.55 ? 0.87 : 1.0;
}

void
suanli_color_set_source (cairo_t           *cr,
                         const SuanliColor *color)
{
  g_return_if_fail (cr != NULL);
  g_return_if_fail (color != NULL);

  cairo_set_source_rgba (cr, color->red, color->green, color->blue, color->alpha);
}
