/* suanli-trace-figures.c — every analysis of a whole trace, worked out together
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "suanli-trace-figures.h"

SuanliTraceFigures *
suanli_trace_figures_new (SuanliTrace *trace)
{
  SuanliTraceFigures *self = g_new0 (SuanliTraceFigures, 1);

  self->trace = g_object_ref (trace);
  self->gpus = suanli_analysis_gpu_time (trace);
  self->streams = suanli_analysis_stream_time (trace);
  self->kernels = suanli_analysis_top_kernels (trace);
  self->operators = suanli_analysis_cpu_operators (trace);
  self->delays = suanli_analysis_launch_delays (trace);
  self->steps = suanli_analysis_steps (trace);
  self->collectives = suanli_analysis_collectives (trace);
  self->memory = suanli_analysis_memory_peaks (trace);
  suanli_analysis_flops (trace, &self->flops);
  return self;
}

void
suanli_trace_figures_free (SuanliTraceFigures *self)
{
  g_object_unref (self->trace);
  g_array_unref (self->gpus);
  g_array_unref (self->streams);
  g_array_unref (self->kernels);
  g_array_unref (self->operators);
  g_array_unref (self->delays);
  g_array_unref (self->steps);
  g_array_unref (self->collectives);
  g_array_unref (self->memory);
  g_free (self);
}
