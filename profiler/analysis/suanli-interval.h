/* suanli-interval.h — stretches of GPU work: merged, covered, and the idle time between them
 * split by cause
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* A stretch of GPU work; launch is when the CPU launched it, G_MININT64 when not known. */
typedef struct
{
  gint64 start;
  gint64 end;
  gint64 launch;
} SuanliInterval;

gint64         suanli_interval_merge            (GArray            *intervals);
gint64         suanli_interval_covered          (GArray            *merged,
                                                 gint64             from,
                                                 gint64             to);
void           suanli_interval_split_idle       (GArray            *busy,
                                                 gint64            *host_wait_ns,
                                                 gint64            *short_gap_ns,
                                                 gint64            *other_idle_ns);

/* Orders gint64 values, for sorting times and durations. */
int            suanli_compare_int64             (gconstpointer      a,
                                                 gconstpointer      b);
void           suanli_sort_int64                (GArray            *values);

G_END_DECLS
