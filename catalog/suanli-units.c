/* suanli-units.c — formatting numbers with units
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>

#include "suanli-units.h"

SuanliMemoryUnits
suanli_memory_units_from_nick (const char *nick)
{
  if (g_strcmp0 (nick, "gib") == 0)
    return SUANLI_MEMORY_UNITS_GIB;
  return SUANLI_MEMORY_UNITS_GB;
}

const char *
suanli_memory_units_to_nick (SuanliMemoryUnits units)
{
  return units == SUANLI_MEMORY_UNITS_GIB ? "gib" : "gb";
}

/* Returns @value rounded to @digits significant digits (at least one), never dropping integer
 * digits: 989.4 → "989", 1.4142 → "1.41", 12.34 → "12.3", 1979 → "1979", 0.000123 → "0.000123". */
char *
suanli_format_significant (double value,
                           guint  digits)
{
  int magnitude;
  int decimals;

  if (!isfinite (value))
    return g_strdup ("—");
  if (digits == 0)
    digits = 1;
  if (value == 0)
    return g_strdup ("0");

  magnitude = (int) floor (log10 (fabs (value)));
  decimals = (int) digits - 1 - magnitude;
  /* Rounding can carry into a new digit (9.996 → 10.0): take one decimal less then. */
  if (decimals > 0 && fabs (value) * pow (10, decimals) + 0.5 >= pow (10, digits))
    decimals--;
  decimals = CLAMP (decimals, 0, 12);
  return g_strdup_printf ("%.*f", decimals, value);
}

/* Three significant digits in the largest unit that keeps the number below 1000. */
char *
suanli_format_bytes (guint64           bytes,
                     SuanliMemoryUnits units)
{
  static const char *decimal_units[] = { "B", "kB", "MB", "GB", "TB", "PB", "EB" };
  static const char *binary_units[] = { "B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB" };
  const char **names = units == SUANLI_MEMORY_UNITS_GIB ? binary_units : decimal_units;
  double step = units == SUANLI_MEMORY_UNITS_GIB ? 1024.0 : 1000.0;
  double value = (double) bytes;
  guint unit = 0;
  g_autofree char *number = NULL;

  /* 999.5 would round to a four-digit "1000": show it in the next unit instead. */
  while (value >= 999.5 && unit + 1 < G_N_ELEMENTS (decimal_units))
    {
      value /= step;
      unit++;
    }

  number = unit == 0 ? g_strdup_printf ("%" G_GUINT64_FORMAT, bytes)
                     : suanli_format_significant (value, 3);
  return g_strconcat (number, SUANLI_UNIT_SPACE, names[unit], NULL);
}

/* Durations in the unit a profiler user reads at a glance: ns, µs, ms, s, then min and h. */
char *
suanli_format_duration_ns (gint64 nanoseconds)
{
  static const struct { double scale; const char *name; } steps[] = {
    { 1e0, "ns" }, { 1e3, "µs" }, { 1e6, "ms" }, { 1e9, "s" },
  };
  double magnitude = fabs ((double) nanoseconds);
  g_autofree char *number = NULL;
  guint i;

  if (magnitude >= 3600e9)
    {
      number = suanli_format_significant ((double) nanoseconds / 3600e9, 3);
      return g_strconcat (number, SUANLI_UNIT_SPACE, "h", NULL);
    }
  if (magnitude >= 60e9)
    {
      number = suanli_format_significant ((double) nanoseconds / 60e9, 3);
      return g_strconcat (number, SUANLI_UNIT_SPACE, "min", NULL);
    }

  for (i = G_N_ELEMENTS (steps) - 1; i > 0; i--)
    if (magnitude >= steps[i].scale * 0.9995)
      break;
  number = suanli_format_significant ((double) nanoseconds / steps[i].scale, 3);
  return g_strconcat (number, SUANLI_UNIT_SPACE, steps[i].name, NULL);
}
