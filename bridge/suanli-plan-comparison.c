/* suanli-plan-comparison.c — a trace's figures set against a plan's estimate
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>

#include "suanli-plan-comparison.h"
#include "suanli-plan-hardware.h"
#include "suanli-units.h"

static void
clear_row (SuanliComparisonRow *row)
{
  g_free (row->planned);
  g_free (row->measured);
  g_free (row->difference);
  g_free (row->detail);
}

static void
add_row (SuanliPlanComparison *self,
         const char           *figure,
         char                 *planned,
         char                 *measured,
         char                 *difference)
{
  SuanliComparisonRow row = { figure, planned, measured, difference, NULL };

  g_array_append_val (self->rows, row);
}

/* Measured against planned, in percent of the planned. */
static char *
relative (double measured,
          double planned)
{
  if (!(planned > 0))
    return NULL;
  return g_strdup_printf ("%+.0f%%", 100 * (measured - planned) / planned);
}

static char *
percent (double fraction)
{
  return g_strdup_printf ("%.1f%%", 100 * fraction);
}

static char *
flops_per_second (double value)
{
  return g_strdup_printf (_("%.1f TFLOP/s"), value / 1e12);
}

/* GPU busy over the GPUs' spans, all of them together; -1 when the trace has no GPU work. */
static double
measured_busy (GArray *gpus)
{
  gint64 busy = 0, span = 0;

  for (guint i = 0; i < gpus->len; i++)
    {
      const SuanliGpuTime *gpu = &g_array_index (gpus, SuanliGpuTime, i);

      busy += gpu->busy_ns;
      span += gpu->span_ns;
    }
  return span > 0 ? (double) busy / (double) span : -1;
}

/* The most memory any GPU of the trace held: reserved when the trace says, as nvidia-smi would show
 * it, else allocated. FALSE when the trace has no GPU memory events. */
static gboolean
measured_memory (GArray *memory,
                 double *allocated,
                 double *reserved)
{
  gboolean found = FALSE;

  *allocated = *reserved = -1;
  for (guint i = 0; i < memory->len; i++)
    {
      const SuanliMemoryPeak *peak = &g_array_index (memory, SuanliMemoryPeak, i);

      if (peak->device_type == 0)
        continue;   /* the host's memory, which the plan's per-GPU figure is not about */
      *allocated = MAX (*allocated, peak->peak_allocated);
      *reserved = MAX (*reserved, peak->peak_reserved);
      found = TRUE;
    }
  return found && (*allocated > 0 || *reserved > 0);
}

static void
compare_memory (SuanliPlanComparison   *self,
                const SuanliEstimate   *estimate,
                const SuanliTraceFigures *figures)
{
  double allocated, reserved;
  g_autofree char *allocated_text = NULL;
  g_autofree char *reserved_text = NULL;

  if (!measured_memory (figures->memory, &allocated, &reserved) || !(estimate->total > 0))
    return;
  allocated_text = suanli_format_bytes ((guint64) MAX (allocated, 0), SUANLI_MEMORY_UNITS_GIB);
  reserved_text = suanli_format_bytes ((guint64) MAX (reserved, 0), SUANLI_MEMORY_UNITS_GIB);
  add_row (self, _("Peak memory per GPU"), suanli_format_gib (estimate->total),
           g_strdup (reserved > 0 ? reserved_text : allocated_text), relative (reserved > 0 ? reserved : allocated, estimate->total));
  if (reserved > 0 && allocated > 0)
    g_array_index (self->rows, SuanliComparisonRow, self->rows->len - 1).detail =
      g_strdup_printf (_("Reserved by PyTorch's caching allocator at most; %s of it held tensors at the peak"), allocated_text);
  else
    g_array_index (self->rows, SuanliComparisonRow, self->rows->len - 1).detail =
      g_strdup (reserved > 0 ? _("Reserved by PyTorch's caching allocator at most") : _("Held by tensors at most"));
}

static void
compare_training (SuanliPlanComparison     *self,
                  const SuanliPlanInputs   *inputs,
                  const SuanliEstimate     *estimate,
                  const SuanliTraceFigures *figures)
{
  gint64 step = suanli_analysis_step_time (figures->steps);   /* the mean period, as the profiler page gives it */
  double busy = measured_busy (figures->gpus);
  double step_s = (double) step / 1e9;
  const SuanliFlopCount *flops = &figures->flops;

  if (step > 0)
    {
      self->measured_mfu = estimate->model_flops_per_step / (step_s * inputs->gpus * inputs->peak_flops);
      add_row (self, _("Step time"), suanli_format_seconds (estimate->step_time_s),
               suanli_format_duration_ns (step), relative (step_s, estimate->step_time_s));
    }
  if (busy >= 0 && estimate->step_time_s > 0)
    {
      /* In the plan a GPU waits only in the pipeline's bubble. */
      double planned = 1 - estimate->bubble_s / estimate->step_time_s;

      add_row (self, _("GPU busy"), percent (planned), percent (busy), relative (busy, planned));
    }
  if (step > 0)
    add_row (self, _("MFU"), percent (estimate->mfu), percent (self->measured_mfu),
             relative (self->measured_mfu, estimate->mfu));
  if (flops->operators > 0 && flops->last_ns > flops->first_ns && estimate->step_time_s > 0)
    {
      /* What the profiler counted, over the time its counted operators spanned, per GPU of the trace. */
      double gpus = MAX (1, figures->gpus->len);
      double measured = flops->flops / ((double) (flops->last_ns - flops->first_ns) / 1e9) / gpus;
      double planned = estimate->model_flops_per_step / (estimate->step_time_s * inputs->gpus);

      add_row (self, _("Throughput per GPU"), flops_per_second (planned), flops_per_second (measured),
               relative (measured, planned));
      g_array_index (self->rows, SuanliComparisonRow, self->rows->len - 1).detail =
        g_strdup (_("The FLOPs PyTorch's profiler counted (matrix products and convolutions), over the time from the "
                    "first counted operator to the last"));
    }
  if (self->measured_mfu > 1)
    self->warning = g_strdup (_("Over 100% MFU: the trace is not of this job, or not of all its GPUs."));
}

static void
compare_links (SuanliPlanComparison     *self,
               const SuanliPlanInputs   *inputs,
               const SuanliTraceFigures *figures)
{
  double best = 0, link = 0;

  for (guint i = 0; i < figures->collectives->len; i++)
    best = MAX (best, g_array_index (figures->collectives, SuanliCollectiveStats, i).busbw_gbps);
  /* The link a node's GPUs talk over: the host link where the node is larger than the domain. */
  suanli_plan_hardware_fabric (inputs, MIN (inputs->gpus, inputs->gpus_per_node), &link);
  if (best > 0 && link > 0)
    {
      add_row (self, _("NCCL bus bandwidth"), g_strdup_printf (_("%.0f GB/s"), link / 1e9),
               g_strdup_printf (_("%.0f GB/s"), best),
               g_strdup_printf (_("%.0f%% of the link"), 100 * best * 1e9 / link));
      g_array_index (self->rows, SuanliComparisonRow, self->rows->len - 1).detail =
        g_strdup (_("The best bus bandwidth of the trace's collectives, against the link the plan gives a node's "
                    "GPUs: the scale-up fabric, or the host link where the node is larger than the scale-up domain"));
    }
}

/**
 * suanli_plan_comparison_new:
 * @plan_name: the plan's name
 * @inputs: the plan resolved against the catalog
 * @estimate: its estimate
 * @figures: the trace's
 *
 * Sets what the trace measured against what the plan expects: step time, GPU busy, MFU, peak
 * memory (from PyTorch's memory events), throughput (from the FLOPs PyTorch counted) and NCCL bus
 * bandwidth, each where the trace gives it. It assumes the trace is of the plan's job, and says so.
 *
 * Returns: (transfer full) (nullable): the comparison, or NULL when the trace gives none of them.
 */
SuanliPlanComparison *
suanli_plan_comparison_new (const char               *plan_name,
                            const SuanliPlanInputs   *inputs,
                            const SuanliEstimate     *estimate,
                            const SuanliTraceFigures *figures)
{
  SuanliPlanComparison *self = g_new0 (SuanliPlanComparison, 1);

  self->rows = g_array_new (FALSE, TRUE, sizeof (SuanliComparisonRow));
  g_array_set_clear_func (self->rows, (GDestroyNotify) clear_row);
  if (suanli_plan_inputs_is_training (inputs))
    compare_training (self, inputs, estimate, figures);
  compare_memory (self, estimate, figures);
  compare_links (self, inputs, figures);
  if (self->rows->len == 0)
    {
      suanli_plan_comparison_free (self);
      return NULL;
    }
  self->heading = g_strdup_printf (_("Against the plan “%s” (%g × %s), if this trace is of its job"),
                                   plan_name, inputs->gpus, inputs->accelerator_name);
  return self;
}

/* Returns: (transfer full): the heading, then a line per figure, then the warning. */
char *
suanli_plan_comparison_to_text (const SuanliPlanComparison *self)
{
  GString *text = g_string_new (self->heading);

  for (guint i = 0; i < self->rows->len; i++)
    {
      const SuanliComparisonRow *row = &g_array_index (self->rows, SuanliComparisonRow, i);

      g_string_append_printf (text, _("\n%s: planned %s, measured %s"), row->figure, row->planned, row->measured);
      if (row->difference != NULL)
        g_string_append_printf (text, " (%s)", row->difference);
      if (row->detail != NULL)
        g_string_append_printf (text, ". %s", row->detail);
    }
  if (self->warning != NULL)
    g_string_append_printf (text, "\n%s", self->warning);
  return g_string_free (text, FALSE);
}

void
suanli_plan_comparison_free (SuanliPlanComparison *self)
{
  g_array_unref (self->rows);
  g_free (self->heading);
  g_free (self->warning);
  g_free (self);
}
