/* suanli-analysis.h — what a trace says: GPU time by kind of work, top kernels
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "suanli-trace.h"

G_BEGIN_DECLS

typedef struct
{
  gint64 device;       /* the GPU's index (its pid in Kineto traces) */
  int    rank;         /* -1 when unknown */
  guint  group;        /* the file it came from (SuanliGroup) */
  gint64 span_ns;      /* first GPU activity to last */
  gint64 kernel_ns;    /* covered by at least one kernel */
  gint64 busy_ns;      /* covered by any GPU activity: kernels, memcpy, memset */
  gint64 comm_ns;      /* covered by communication kernels (NCCL, RCCL) */
  gint64 memcpy_ns;
  gint64 memset_ns;
  gint64 idle_ns;      /* span − busy */
} SuanliGpuTime;

typedef struct
{
  SuanliString name;
  guint64      count;
  gint64       total_ns;
  gint64       min_ns;
  gint64       max_ns;
} SuanliKernelStats;

gboolean suanli_analysis_is_gpu_work (SuanliTrace       *trace,
                                      const SuanliSlice *slice);
GArray  *suanli_analysis_gpu_time    (SuanliTrace       *trace);
GArray  *suanli_analysis_top_kernels (SuanliTrace       *trace);

G_END_DECLS
