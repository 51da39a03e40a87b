/* suanli-axis.c — mapping values to pixels along a chart axis, linear or logarithmic, with ticks
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>

#include "suanli-axis.h"

/* 1, 2 or 5 times a power of ten, the step a person counts in. */
static double
nice_step (double range,
           guint  target_ticks)
{
  double raw = range / MAX (target_ticks, 1);
  double power = pow (10, floor (log10 (raw)));
  double fraction = raw / power;

  if (fraction <= 1)
    return power;
  if (fraction <= 2)
    return 2 * power;
  if (fraction <= 5)
    return 5 * power;
  return 10 * power;
}

/* Fits the axis around @values (finite ones; non-positive ones are ignored on a log axis), padded
 * out to round bounds. Pixel ends are left for the caller to set. */
void
suanli_axis_fit (SuanliAxis   *axis,
                 const double *values,
                 guint         n_values,
                 gboolean      logarithmic,
                 gboolean      include_zero)
{
  double low = G_MAXDOUBLE, high = -G_MAXDOUBLE;

  axis->logarithmic = logarithmic;
  for (guint i = 0; i < n_values; i++)
    {
      if (!isfinite (values[i]) || (logarithmic && values[i] <= 0))
        continue;
      low = MIN (low, values[i]);
      high = MAX (high, values[i]);
    }
  if (low > high)
    {
      low = logarithmic ? 1 : 0;
      high = logarithmic ? 10 : 1;
    }

  if (logarithmic)
    {
      axis->min = pow (10, floor (log10 (low)));
      axis->max = pow (10, ceil (log10 (high)));
      if (axis->max <= axis->min)
        axis->max = axis->min * 10;
      return;
    }

  if (include_zero)
    {
      low = MIN (low, 0);
      high = MAX (high, 0);
    }
  if (high == low)
    {
      double pad = low == 0 ? 1 : fabs (low) * 0.1;
      low -= pad;
      high += pad;
    }
  {
    double step = nice_step (high - low, 5);

    axis->min = floor (low / step) * step;
    axis->max = ceil (high / step) * step;
  }
}

double
suanli_axis_to_pixel (const SuanliAxis *axis,
                      double            value)
{
  double t;

  if (axis->logarithmic)
    t = (log10 (MAX (value, axis->min * 1e-3)) - log10 (axis->min)) / (log10 (axis->max) - log10 (axis->min));
  else
    t = (value - axis->min) / (axis->max - axis->min);
  return axis->pixel_start + t * (axis->pixel_end - axis->pixel_start);
}

/* Fills @ticks with round values inside the axis; returns how many. Log axes tick each decade. */
guint
suanli_axis_ticks (const SuanliAxis *axis,
                   double           *ticks,
                   guint             max_ticks)
{
  guint n = 0;

  if (axis->logarithmic)
    {
      for (double value = axis->min; value <= axis->max * 1.0001 && n < max_ticks; value *= 10)
        ticks[n++] = value;
      return n;
    }

  {
    double step = nice_step (axis->max - axis->min, 5);
    double first = ceil (axis->min / step - 1e-9) * step;

    for (double value = first; value <= axis->max + step * 1e-9 && n < max_ticks; value += step)
      ticks[n++] = fabs (value) < step * 1e-9 ? 0 : value;
  }
  return n;
}

/* Tick labels: 0.5, 1, 20, 1500, 2k, 1.5M — short enough to sit under the axis. */
char *
suanli_axis_format_tick (double value)
{
  double magnitude = fabs (value);

  if (magnitude >= 1e9)
    return g_strdup_printf ("%gG", value / 1e9);
  if (magnitude >= 1e6)
    return g_strdup_printf ("%gM", value / 1e6);
  if (magnitude >= 1e4)
    return g_strdup_printf ("%gk", value / 1e3);
  return g_strdup_printf ("%g", value);
}
