/* suanli-bench.h — a small timing helper for the benchmarks: samples in, medians out
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef struct _SuanliBench SuanliBench;

SuanliBench *suanli_bench_new     (const char   *name,
                                   const char   *unit);
void         suanli_bench_add     (SuanliBench  *bench,
                                   double        value);
double       suanli_bench_median  (SuanliBench  *bench);
double       suanli_bench_last    (SuanliBench  *bench);
void         suanli_bench_time    (SuanliBench  *bench,
                                   guint         samples,
                                   void        (*body) (gpointer data),
                                   gpointer      data);
void         suanli_bench_report  (SuanliBench  *bench);
void         suanli_bench_free    (SuanliBench  *bench);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (SuanliBench, suanli_bench_free)

G_END_DECLS
