/* test-units.c — numbers with units, as every page and the CLI show them
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>

#include <math.h>

#include "suanli-units.h"

#define S SUANLI_UNIT_SPACE

static void
assert_significant (double value, guint digits, const char *expected)
{
  g_autofree char *text = suanli_format_significant (value, digits);

  g_assert_cmpstr (text, ==, expected);
}

static void
assert_bytes (guint64 bytes, SuanliMemoryUnits units, const char *expected)
{
  g_autofree char *text = suanli_format_bytes (bytes, units);

  g_assert_cmpstr (text, ==, expected);
}

static void
assert_duration (gint64 ns, const char *expected)
{
  g_autofree char *text = suanli_format_duration_ns (ns);

  g_assert_cmpstr (text, ==, expected);
}

static void
test_significant (void)
{
  assert_significant (989.4, 3, "989");
  assert_significant (1.41421, 3, "1.41");
  assert_significant (12.34, 3, "12.3");
  assert_significant (1979, 3, "1979");        /* integer digits are never dropped */
  assert_significant (0.000123456, 3, "0.000123");
  assert_significant (9.996, 3, "10.0");       /* the carry into a new digit keeps 3 digits */
  assert_significant (99.96, 3, "100");
  assert_significant (-4.5678, 2, "-4.6");
  assert_significant (0, 3, "0");
  assert_significant (NAN, 3, "—");
  assert_significant (INFINITY, 3, "—");
  assert_significant (7.0, 0, "7");            /* zero digits means one */
}

static void
test_bytes (void)
{
  /* An H100 80 GB reports 81,559 MiB = 85,520,809,984 bytes: 85.5 GB, 81559/1024 = 79.6 GiB. */
  assert_bytes (85520809984ull, SUANLI_MEMORY_UNITS_GB, "85.5" S "GB");
  assert_bytes (85520809984ull, SUANLI_MEMORY_UNITS_GIB, "79.6" S "GiB");
  /* An H200 141 GB reports 143,771 MiB = 150,754,820,096 bytes: 151 GB, 140.4 GiB. */
  assert_bytes (150754820096ull, SUANLI_MEMORY_UNITS_GB, "151" S "GB");
  assert_bytes (150754820096ull, SUANLI_MEMORY_UNITS_GIB, "140" S "GiB");
  assert_bytes (0, SUANLI_MEMORY_UNITS_GB, "0" S "B");
  assert_bytes (999, SUANLI_MEMORY_UNITS_GB, "999" S "B");
  assert_bytes (1000, SUANLI_MEMORY_UNITS_GB, "1.00" S "kB");
  assert_bytes (1023, SUANLI_MEMORY_UNITS_GIB, "0.999" S "KiB");
  assert_bytes (1536, SUANLI_MEMORY_UNITS_GIB, "1.50" S "KiB");
  /* 999.6 MB would print as a four-digit 1000 MB: it becomes 1.00 GB. */
  assert_bytes (999600000ull, SUANLI_MEMORY_UNITS_GB, "1.00" S "GB");
  assert_bytes (G_MAXUINT64, SUANLI_MEMORY_UNITS_GIB, "16.0" S "EiB");
}

static void
test_durations (void)
{
  assert_duration (0, "0" S "ns");
  assert_duration (950, "950" S "ns");
  assert_duration (2310000, "2.31" S "ms");
  assert_duration (999999, "1.00" S "ms");
  assert_duration (342000000, "342" S "ms");
  assert_duration (11400000000, "11.4" S "s");
  assert_duration (90000000000, "1.50" S "min");
  /* 18.2 days of training: 18.2 × 24 = 436.8 h. */
  assert_duration (1572480000000000, "437" S "h");
  assert_duration (-5000, "-5.00" S "µs");
}

/* Long durations, energy, mass and counts in units that fit their magnitude, never 1.82e+03. */
static void
test_magnitudes (void)
{
  const struct { char *text; const char *expected; } cases[] = {
    { suanli_format_days (157248000), "1820" S "d" },   /* 1820 days, the old "1.82e+03 d" */
    { suanli_format_days (26784), "7.44" S "h" },
    { suanli_format_days (2520), "42.0" S "min" },
    { suanli_format_energy_kwh (45.8), "45.8" S "kWh" },
    { suanli_format_energy_kwh (44100), "44.1" S "MWh" },
    { suanli_format_energy_kwh (3.2e6), "3.20" S "GWh" },
    { suanli_format_tonnes (0.0176), "17.6" S "kg" },
    { suanli_format_tonnes (17), "17.0" S "t" },
    { suanli_format_large (842030.68), "842k" },
    { suanli_format_large (1.5e15), "1500T" },
    { suanli_format_large (0.00001234), "0.0000123" },
    { suanli_format_count (28672), "28672" },
    { suanli_format_count (6.738e9), "6.74 billion" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_assert_cmpstr (cases[i].text, ==, cases[i].expected);
      g_assert_null (strchr (cases[i].text, 'e'));
      g_free (cases[i].text);
    }
}

static void
test_memory_unit_nicks (void)
{
  g_assert_cmpint (suanli_memory_units_from_nick ("gib"), ==, SUANLI_MEMORY_UNITS_GIB);
  g_assert_cmpint (suanli_memory_units_from_nick ("gb"), ==, SUANLI_MEMORY_UNITS_GB);
  g_assert_cmpint (suanli_memory_units_from_nick ("bogus"), ==, SUANLI_MEMORY_UNITS_GB);
  g_assert_cmpstr (suanli_memory_units_to_nick (SUANLI_MEMORY_UNITS_GIB), ==, "gib");
  g_assert_cmpstr (suanli_memory_units_to_nick (SUANLI_MEMORY_UNITS_GB), ==, "gb");
}

int
main (int argc, char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/units/significant", test_significant);
  g_test_add_func ("/units/bytes", test_bytes);
  g_test_add_func ("/units/durations", test_durations);
  g_test_add_func ("/units/magnitudes", test_magnitudes);
  g_test_add_func ("/units/memory-unit-nicks", test_memory_unit_nicks);

  return g_test_run ();
}
