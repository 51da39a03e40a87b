/* suanli-trace-figures.h — every analysis of a whole trace, worked out together
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "suanli-analysis.h"

G_BEGIN_DECLS

/* What `trace summary` prints and the profiler's summary, tables and plan comparison show. The
 * analyses only read the trace, so this may be made on a worker thread. */
typedef struct
{
  SuanliTrace *trace;
  GArray      *gpus;          /* of SuanliGpuTime */
  GArray      *streams;       /* of SuanliStreamTime */
  GArray      *kernels;       /* of SuanliKernelStats */
  GArray      *operators;     /* of SuanliOperatorStats */
  GArray      *delays;        /* of SuanliLaunchDelays */
  GArray      *steps;         /* of SuanliStepStats */
  GArray      *collectives;   /* of SuanliCollectiveStats */
  GArray      *memory;        /* of SuanliMemoryPeak */
  SuanliFlopCount flops;
} SuanliTraceFigures;

SuanliTraceFigures *suanli_trace_figures_new  (SuanliTrace        *trace);
void                suanli_trace_figures_free (SuanliTraceFigures *self);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (SuanliTraceFigures, suanli_trace_figures_free)

G_END_DECLS
