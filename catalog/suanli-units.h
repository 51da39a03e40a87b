/* suanli-units.h — formatting numbers with units the way every page and the CLI show them
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* How memory sizes are shown: decimal gigabytes as vendors print them, or binary gibibytes as
 * devices report them. The nicks are the values of the "memory-units" GSettings key. */
typedef enum {
  SUANLI_MEMORY_UNITS_GB,
  SUANLI_MEMORY_UNITS_GIB,
} SuanliMemoryUnits;

/* Separates a number from its unit; a narrow no-break space keeps "80 GB" on one line. */
#define SUANLI_UNIT_SPACE "\u202f"

SuanliMemoryUnits  suanli_memory_units_from_nick (const char        *nick);
const char        *suanli_memory_units_to_nick   (SuanliMemoryUnits  units);

char              *suanli_format_significant     (double             value,
                                                  guint              digits);
char              *suanli_format_bytes           (guint64            bytes,
                                                  SuanliMemoryUnits  units);
char              *suanli_format_duration_ns     (gint64             nanoseconds);
char              *suanli_format_duration_to    (gint64             nanoseconds,
                                                  gint64             resolution_ns);
char              *suanli_format_count           (double             count);
char              *suanli_format_days            (double             seconds);
char              *suanli_format_large           (double             value);
char              *suanli_format_range           (const char        *low,
                                                  const char        *high);
char              *suanli_format_energy_kwh      (double             kwh);
char              *suanli_format_tonnes          (double             tonnes);
char              *suanli_format_seconds         (double             seconds);
char              *suanli_format_stated_bytes    (double             bytes);
char              *suanli_format_gib             (double             bytes);
char              *suanli_format_number          (double             value);
char              *suanli_format_quantity        (double             value,
                                                  const char        *unit,
                                                  SuanliMemoryUnits  memory_units);

G_END_DECLS
