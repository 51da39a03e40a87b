/* suanli-bench.c — a small timing helper for the benchmarks: samples in, medians out
 *
 * The machines are small and noisy, so a benchmark takes several samples and reports the median
 * with the spread; it never asserts on time.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "suanli-bench.h"

struct _SuanliBench
{
  char   *name;
  char   *unit;
  GArray *samples;
};

SuanliBench *
suanli_bench_new (const char *name,
                  const char *unit)
{
  SuanliBench *bench = g_new0 (SuanliBench, 1);

  bench->name = g_strdup (name);
  bench->unit = g_strdup (unit);
  bench->samples = g_array_new (FALSE, FALSE, sizeof (double));
  return bench;
}

void
suanli_bench_add (SuanliBench *bench,
                  double       value)
{
  g_array_append_val (bench->samples, value);
}

static int
compare_doubles (gconstpointer a,
                 gconstpointer b)
{
  double x = *(const double *) a, y = *(const double *) b;

  return (x > y) - (x < y);
}

/* The sample added last; 0 without samples. */
double
suanli_bench_last (SuanliBench *bench)
{
  return bench->samples->len > 0 ? g_array_index (bench->samples, double, bench->samples->len - 1) : 0;
}

/* The middle sample, or the mean of the two middle ones; 0 without samples. */
double
suanli_bench_median (SuanliBench *bench)
{
  g_autoptr(GArray) sorted = NULL;
  guint n = bench->samples->len;

  if (n == 0)
    return 0;
  sorted = g_array_copy (bench->samples);
  g_array_sort (sorted, compare_doubles);
  if (n % 2 == 1)
    return g_array_index (sorted, double, n / 2);
  return (g_array_index (sorted, double, n / 2 - 1) + g_array_index (sorted, double, n / 2)) / 2;
}

/* Runs @body @samples times, adding each run's wall-clock time in milliseconds. */
void
suanli_bench_time (SuanliBench *bench,
                   guint        samples,
                   void       (*body) (gpointer data),
                   gpointer     data)
{
  for (guint i = 0; i < samples; i++)
    {
      gint64 start = g_get_monotonic_time ();

      body (data);
      suanli_bench_add (bench, (g_get_monotonic_time () - start) / 1000.0);
    }
}

/* One line: "name: median X unit (min A, max B, N samples)". */
void
suanli_bench_report (SuanliBench *bench)
{
  double low = G_MAXDOUBLE, high = -G_MAXDOUBLE;

  for (guint i = 0; i < bench->samples->len; i++)
    {
      low = MIN (low, g_array_index (bench->samples, double, i));
      high = MAX (high, g_array_index (bench->samples, double, i));
    }
  g_print ("%s: median %.3f %s (min %.3f, max %.3f, %u samples)\n", bench->name,
           suanli_bench_median (bench), bench->unit, bench->samples->len ? low : 0,
           bench->samples->len ? high : 0, bench->samples->len);
}

void
suanli_bench_free (SuanliBench *bench)
{
  g_free (bench->name);
  g_free (bench->unit);
  g_array_unref (bench->samples);
  g_free (bench);
}
