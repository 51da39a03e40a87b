/* suanli-units.c — formatting numbers with units
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>
#include <string.h>
#include <glib/gi18n.h>

#include "suanli-text.h"
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

/* A size as an article or vendor states it, in decimal units and with the digits it was given:
 * "96 GB", "1.1 PB", "1.128 TB". Vendors' "GB" of HBM are what they print, so a figure quoted from
 * a page is never converted through GiB. */
char *
suanli_format_stated_bytes (double bytes)
{
  static const char *names[] = { "B", "kB", "MB", "GB", "TB", "PB", "EB" };
  double value = bytes;
  guint unit = 0;

  if (!isfinite (bytes))
    return g_strdup ("—");
  while (fabs (value) >= 1000 && unit + 1 < G_N_ELEMENTS (names))
    {
      value /= 1000;
      unit++;
    }
  return g_strdup_printf ("%.6g" SUANLI_UNIT_SPACE "%s", value, names[unit]);
}

/* @value in @unit, three significant digits, the unit translated: "18.2 d", "1820 d". */
static char *
with_unit (double      value,
           const char *unit)
{
  g_autofree char *number = suanli_format_significant (value, 3);

  return g_strconcat (number, SUANLI_UNIT_SPACE, unit, NULL);
}

/* A long duration in the unit that suits it: minutes under an hour, hours under a day, else days,
 * never in powers of ten: "42.0 min", "7.44 h", "1820 d". */
char *
suanli_format_days (double seconds)
{
  if (seconds < 3600)
    return with_unit (seconds / 60, C_("unit", "min"));
  if (seconds < 86400)
    return with_unit (seconds / 3600, C_("unit", "h"));
  /* Translators: the unit of a duration in days, e.g. "18.2 d"; 天 in Chinese. */
  return with_unit (seconds / 86400, C_("unit", "d"));
}

/* A range of two formatted figures, "71.1–104 d": the unit once when both share it, else both whole
 * ("20.5 h – 1.20 d"); one figure when they are the same. */
char *
suanli_format_range (const char *low,
                     const char *high)
{
  const char *low_unit = g_strrstr (low, SUANLI_UNIT_SPACE), *high_unit = g_strrstr (high, SUANLI_UNIT_SPACE);

  if (g_str_equal (low, high))
    return g_strdup (low);
  if (low_unit != NULL && high_unit != NULL && g_str_equal (low_unit, high_unit))
    return g_strdup_printf ("%.*s–%s", (int) (low_unit - low), low, high);
  if (low_unit == NULL && high_unit == NULL)
    return g_strdup_printf ("%s–%s", low, high);
  return g_strdup_printf ("%s – %s", low, high);
}

/* Energy in kWh, MWh or GWh, whichever keeps the number readable. */
char *
suanli_format_energy_kwh (double kwh)
{
  if (kwh >= 1e6)
    return with_unit (kwh / 1e6, "GWh");
  if (kwh >= 1e3)
    return with_unit (kwh / 1e3, "MWh");
  return with_unit (kwh, "kWh");
}

/* A mass of CO₂ given in tonnes: kg under a tonne. */
char *
suanli_format_tonnes (double tonnes)
{
  if (tonnes < 1)
    return with_unit (tonnes * 1000, C_("unit", "kg"));
  return with_unit (tonnes, C_("unit", "t"));
}

/* A count with k, M, G or T, to three significant digits, never in powers of ten. */
char *
suanli_format_large (double value)
{
  static const struct { double scale; const char *suffix; } steps[] = {
    { 1e12, "T" }, { 1e9, "G" }, { 1e6, "M" }, { 1e3, "k" },
  };
  g_autofree char *number = NULL;

  for (guint i = 0; i < G_N_ELEMENTS (steps); i++)
    if (fabs (value) >= steps[i].scale * 0.9995)
      {
        number = suanli_format_significant (value / steps[i].scale, 3);
        return g_strconcat (number, steps[i].suffix, NULL);
      }
  return suanli_format_significant (value, 3);
}

/* Seconds as suanli_format_duration_ns() shows them, and zero as "0 s"; "—" when not finite. Hours
 * are written from the double: past 292 years the nanoseconds overflow a gint64 (1e18 tokens on
 * one GPU read "Step -2562048 h"). */
char *
suanli_format_seconds (double seconds)
{
  if (!isfinite (seconds))
    return g_strdup ("—");
  if (seconds == 0)
    return g_strdup ("0" SUANLI_UNIT_SPACE "s");
  if (fabs (seconds) >= 3600)
    return with_unit (seconds / 3600, C_("unit", "h"));
  return suanli_format_duration_ns ((gint64) (seconds * 1e9));
}

/* Bytes in GiB (or the unit that suits), as devices report memory; negative counts as none. */
char *
suanli_format_gib (double bytes)
{
  if (!isfinite (bytes))
    return g_strdup ("—");
  /* Past 2⁶⁴ bytes the count is no guint64 (the cast would be undefined): EiB from the double. */
  if (bytes >= 18446744073709551616.0)
    return with_unit (bytes / 1152921504606846976.0, "EiB");
  return suanli_format_bytes ((guint64) MAX (0, bytes), SUANLI_MEMORY_UNITS_GIB);
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
    return with_unit ((double) nanoseconds / 3600e9, C_("unit", "h"));
  if (magnitude >= 60e9)
    return with_unit ((double) nanoseconds / 60e9, C_("unit", "min"));

  for (i = G_N_ELEMENTS (steps) - 1; i > 0; i--)
    if (magnitude >= steps[i].scale * 0.9995)
      break;
  number = suanli_format_significant ((double) nanoseconds / steps[i].scale, 3);
  return g_strconcat (number, SUANLI_UNIT_SPACE, steps[i].name, NULL);
}

/**
 * suanli_format_duration_to:
 * @resolution_ns: the smallest difference the text must show, ≥ 1
 *
 * A duration with as many decimals as @resolution_ns needs and no more, in the unit that suits
 * the larger of it and the duration: 250.000100 ms for a ruler tick 100 ns from the last,
 * 1.234567891 s at 1 ns. Exact: the digits come from the integer, not from a double.
 */
char *
suanli_format_duration_to (gint64 nanoseconds,
                           gint64 resolution_ns)
{
  static const struct { gint64 scale; const char *name; guint digits; } units[] = {
    { 1, "ns", 0 }, { 1000, "µs", 3 }, { 1000000, "ms", 6 }, { 1000000000, "s", 9 },
  };
  guint64 magnitude = nanoseconds < 0 ? -(guint64) nanoseconds : (guint64) nanoseconds;
  guint64 whole, fraction;
  gint64 step;
  guint u = G_N_ELEMENTS (units) - 1, decimals = 0;
  char digits[16];

  resolution_ns = MAX (resolution_ns, 1);
  while (u > 0 && MAX (magnitude, (guint64) resolution_ns) < (guint64) units[u].scale)
    u--;
  for (step = units[u].scale; step > resolution_ns && decimals < units[u].digits; step /= 10)
    decimals++;
  whole = magnitude / (guint64) units[u].scale;
  fraction = magnitude % (guint64) units[u].scale;
  g_snprintf (digits, sizeof digits, "%0*" G_GUINT64_FORMAT, (int) units[u].digits, fraction);
  digits[decimals] = '\0';   /* the digits past the resolution are dropped */
  return g_strdup_printf ("%s%" G_GUINT64_FORMAT "%s%s" SUANLI_UNIT_SPACE "%s", nanoseconds < 0 ? "-" : "", whole,
                          decimals > 0 ? "." : "", digits, units[u].name);
}

/* A count as people say it: 28672, 70.0 billion, 1.8 trillion; in Chinese 万, 亿 and 万亿. */
/* A count as people say it: exact below a million (a feed-forward of 28672 stays 28672), then 70.0
 * billion, 1.80 trillion; in Chinese 万, 亿 and 万亿 from a million on (2560万, 67.4亿). */
char *
suanli_format_count (double count)
{
  static const struct { double scale; const char *suffix; } chinese[] = {
    { 1e12, "万亿" }, { 1e8, "亿" }, { 1e4, "万" },
  };
  double magnitude = fabs (count);
  g_autofree char *number = NULL;

  if (magnitude < 1e6)
    return count == floor (count) ? g_strdup_printf ("%.0f", count) : suanli_format_significant (count, 6);
  if (suanli_text_prefers_chinese ())
    {
      for (guint i = 0; i < G_N_ELEMENTS (chinese); i++)
        if (magnitude >= chinese[i].scale)
          {
            number = suanli_format_significant (count / chinese[i].scale, 3);
            return g_strconcat (number, chinese[i].suffix, NULL);
          }
      return suanli_format_significant (count, 6);
    }

  if (magnitude >= 1e12)
    {
      number = suanli_format_significant (count / 1e12, 3);
      /* Translators: a large count, e.g. "1.80 trillion" tokens. */
      return g_strdup_printf (_("%s trillion"), number);
    }
  if (magnitude >= 1e9)
    {
      number = suanli_format_significant (count / 1e9, 3);
      /* Translators: a large count, e.g. "70.0 billion" parameters. */
      return g_strdup_printf (_("%s billion"), number);
    }
  number = suanli_format_significant (count / 1e6, 3);
  /* Translators: a large count, e.g. "25.6 million" parameters. */
  return g_strdup_printf (_("%s million"), number);
}

/* A catalog figure with its unit, exact as given (494.5 TFLOP/s, 3.35 TB/s), except sizes, which
 * follow @memory_units, and large counts, which read as words. */
/* @number ("10200", "-1234567.5") with its whole part's digits in threes: "10,200". */
static char *
group_thousands (const char *number)
{
  GString *grouped = g_string_new (NULL);
  const char *digits = number + (number[0] == '-'), *end = digits + strspn (digits, "0123456789");

  g_string_append_len (grouped, number, digits - number);
  for (const char *d = digits; d < end; d++)
    {
      if (d > digits && (end - d) % 3 == 0)
        g_string_append_c (grouped, ',');
      g_string_append_c (grouped, *d);
    }
  g_string_append (grouped, end);
  return g_string_free (grouped, FALSE);
}

/* A number as a table or a quantity shows it: six significant digits, and from 10,000 up every
 * whole digit, grouped ("10,200", a rack's "132,000"), where %g would write 10200 and 1.32e+05. */
char *
suanli_format_number (double value)
{
  g_autofree char *digits = NULL;

  if (!isfinite (value) || fabs (value) < 1e4 || fabs (value) >= 1e15)
    return g_strdup_printf ("%.6g", value);
  digits = suanli_format_significant (value, 6);
  /* As %g does, no trailing zeros after the point ("10200.0" is 10200). */
  if (strchr (digits, '.') != NULL)
    {
      for (gsize end = strlen (digits); end > 0 && (digits[end - 1] == '0' || digits[end - 1] == '.'); end--)
        {
          gboolean point = digits[end - 1] == '.';

          digits[end - 1] = '\0';
          if (point)
            break;
        }
    }
  return group_thousands (digits);
}

char *
suanli_format_quantity (double             value,
                        const char        *unit,
                        SuanliMemoryUnits  memory_units)
{
  g_autofree char *number = NULL;

  if (g_strcmp0 (unit, "B") == 0 && value >= 0 && value < 1.8e19)
    return suanli_format_bytes ((guint64) value, memory_units);
  /* A ratio or a version read as written ("1.4", "2.15"), not padded to six digits. */
  if (g_strcmp0 (unit, "count") == 0 && fabs (value) < 1e6 && value != floor (value))
    return g_strdup_printf ("%.6g", value);
  if (g_strcmp0 (unit, "count") == 0)
    return suanli_format_count (value);
  if (g_strcmp0 (unit, "tokens") == 0)
    {
      number = suanli_format_count (value);
      /* Translators: a number of tokens, e.g. "2.00 trillion tokens". */
      return g_strdup_printf (_("%s tokens"), number);
    }
  if (g_strcmp0 (unit, "year") == 0)
    return g_strdup_printf ("%.0f", value);
  number = suanli_format_number (value);
  if (g_strcmp0 (unit, "%") == 0)
    return g_strconcat (number, "%", NULL);
  return g_strconcat (number, SUANLI_UNIT_SPACE, unit, NULL);
}
