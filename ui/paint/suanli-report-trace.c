/* suanli-report-trace.c — the report's pages about a trace: where GPU time went, against the plan,
 * top kernels, a flame graph and the timeline
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>

#include "suanli-flame-painter.h"
#include "suanli-job-match.h"
#include "suanli-plan-comparison.h"
#include "suanli-plan-trace-tie.h"
#include "suanli-report-private.h"
#include "suanli-table-rows.h"
#include "suanli-timeline-painter.h"
#include "suanli-trace-figures.h"
#include "suanli-units.h"

#define TOP_KERNELS 15
#define HEADING_HEIGHT 30   /* a level-2 heading and the space around it */

static char *
share (gint64 part,
       gint64 whole)
{
  return g_strdup_printf ("%.1f%%", whole > 0 ? 100.0 * (double) part / (double) whole : 0);
}

static void
write_gpus (SuanliPageWriter   *writer,
            SuanliTraceFigures *figures)
{
  static const char * const headers[] = {
    N_("GPU"), N_("Span"), N_("Busy"), N_("Compute"), N_("Communication"), N_("Copies"), N_("Idle"), N_("Waiting for the host"),
  };
  static const double widths[] = { 0.1, 0.12, 0.1, 0.12, 0.16, 0.1, 0.1, 0.2 };
  const char *translated[G_N_ELEMENTS (headers)];
  g_autoptr(GPtrArray) rows = suanli_table_rows_new ();

  for (guint i = 0; i < G_N_ELEMENTS (headers); i++)
    translated[i] = _(headers[i]);
  for (guint i = 0; i < figures->gpus->len; i++)
    {
      const SuanliGpuTime *gpu = &g_array_index (figures->gpus, SuanliGpuTime, i);

      suanli_table_row_take (rows, 8,
                             gpu->rank >= 0 ? g_strdup_printf (_("%lld (rank %d)"), (long long) gpu->device, gpu->rank)
                                            : g_strdup_printf ("%lld", (long long) gpu->device),
                             suanli_format_duration_ns (gpu->span_ns), share (gpu->busy_ns, gpu->span_ns),
                             share (gpu->compute_ns, gpu->span_ns), share (gpu->comm_ns, gpu->span_ns),
                             share (gpu->memcpy_ns + gpu->memset_ns, gpu->span_ns), share (gpu->idle_ns, gpu->span_ns),
                             share (gpu->host_wait_ns, gpu->span_ns));
    }
  if (rows->len > 0)
    suanli_page_writer_table (writer, translated, widths, G_N_ELEMENTS (headers), rows);
  else
    suanli_page_writer_text (writer, _("The trace has no GPU work."), SUANLI_TEXT_BODY);
}

static void
write_steps (SuanliPageWriter   *writer,
             SuanliTraceFigures *figures)
{
  gint64 step = suanli_analysis_step_time (figures->steps);
  g_autofree char *step_text = NULL;
  g_autofree char *line = NULL;

  if (step <= 0)
    return;
  step_text = suanli_format_duration_ns (step);
  /* The mean of the steps' periods, as the profiler page and What If give it. */
  line = g_strdup_printf (ngettext ("%u step, %s per step", "%u steps, %s per step", figures->steps->len),
                          figures->steps->len, step_text);
  suanli_page_writer_text (writer, line, SUANLI_TEXT_BODY);
}

static void
write_against_plan (SuanliReport       *self,
                    SuanliPageWriter   *writer,
                    SuanliTraceFigures *figures)
{
  g_autoptr(SuanliJobMatch) match = suanli_job_match_new (self->trace, self->catalog, self->plan_name, &self->inputs);
  g_autoptr(SuanliPlanComparison) comparison = NULL;
  static const char * const headers[] = { N_("Figure"), N_("Planned"), N_("Measured"), N_("Difference") };
  static const double widths[] = { 0.25, 0.22, 0.22, 0.31 };
  const char *translated[G_N_ELEMENTS (headers)];
  g_autoptr(GPtrArray) rows = suanli_table_rows_new ();

  /* Figures of another job against the plan's would mislead: say why there are none. */
  if (!match->same_job)
    {
      suanli_page_writer_text (writer, match->why, SUANLI_TEXT_SMALL);
      return;
    }
  /* The same hardware is not the same job: the plan lists the trace, or the trace names the plan. */
  if (self->plan == NULL || suanli_plan_trace_tie (self->plan, self->plan_name, self->trace) == SUANLI_PLAN_TIE_UNKNOWN)
    {
      g_autofree char *why = suanli_plan_trace_unknown_job (self->plan_name);

      suanli_page_writer_text (writer, why, SUANLI_TEXT_SMALL);
      return;
    }
  comparison = suanli_plan_comparison_new (self->plan_name, &self->inputs, &self->estimate, figures);
  if (comparison == NULL)
    return;
  for (guint i = 0; i < G_N_ELEMENTS (headers); i++)
    translated[i] = _(headers[i]);
  suanli_page_writer_heading (writer, _("Measured against planned"), 2);
  suanli_page_writer_text (writer, comparison->heading, SUANLI_TEXT_SMALL);
  for (guint i = 0; i < comparison->rows->len; i++)
    {
      const SuanliComparisonRow *row = &g_array_index (comparison->rows, SuanliComparisonRow, i);

      suanli_table_row (rows, row->figure, row->planned, row->measured, row->difference != NULL ? row->difference : "",
                        NULL);
    }
  suanli_page_writer_table (writer, translated, widths, G_N_ELEMENTS (headers), rows);
  if (comparison->warning != NULL)
    suanli_page_writer_text (writer, comparison->warning, SUANLI_TEXT_SMALL);
}

static void
write_kernels (SuanliPageWriter   *writer,
               SuanliTrace        *trace,
               SuanliTraceFigures *figures)
{
  static const char * const headers[] = { N_("Kernel"), N_("Count"), N_("Total"), N_("Mean"), N_("Share") };
  static const double widths[] = { 0.52, 0.1, 0.13, 0.13, 0.12 };
  const char *translated[G_N_ELEMENTS (headers)];
  g_autoptr(GPtrArray) rows = suanli_table_rows_new ();
  gint64 all = 0;

  if (figures->kernels->len == 0)
    return;
  for (guint i = 0; i < G_N_ELEMENTS (headers); i++)
    translated[i] = _(headers[i]);
  for (guint i = 0; i < figures->kernels->len; i++)
    all += g_array_index (figures->kernels, SuanliKernelStats, i).total_ns;
  for (guint i = 0; i < figures->kernels->len && i < TOP_KERNELS; i++)
    {
      const SuanliKernelStats *kernel = &g_array_index (figures->kernels, SuanliKernelStats, i);

      suanli_table_row_take (rows, 5, g_strdup (suanli_trace_get_string (trace, kernel->name)),
                             g_strdup_printf ("%llu", (unsigned long long) kernel->count),
                             suanli_format_duration_ns (kernel->total_ns),
                             suanli_format_duration_ns (kernel->total_ns / (gint64) MAX (kernel->count, 1)),
                             share (kernel->total_ns, all));
    }
  suanli_page_writer_heading (writer, _("Top kernels"), 2);
  suanli_page_writer_table (writer, translated, widths, G_N_ELEMENTS (headers), rows);
}

static void
draw_flame (cairo_t  *cr,
            double    width,
            double    height,
            gpointer  data)
{
  SuanliChartStyle style = { FALSE, NULL, 7 };

  suanli_flame_painter_draw (data, cr, &style, width, height);
}

typedef struct
{
  SuanliTimelinePainter *painter;
  SuanliTimelineView     view;
} TimelineSnapshot;

static void
draw_timeline (cairo_t  *cr,
               double    width,
               double    height,
               gpointer  data)
{
  TimelineSnapshot *snapshot = data;
  SuanliChartStyle style = { FALSE, NULL, 7 };

  suanli_timeline_painter_draw (snapshot->painter, cr, &style, width, height, &snapshot->view);
}

/* The profile's section: GPU time, steps, the comparison with the plan, top kernels, the flame
 * graph (of GPU time by launching stack when the trace has GPU work, else of CPU time) and the
 * whole timeline. */
void
suanli_report_write_trace (SuanliReport     *self,
                           SuanliPageWriter *writer)
{
  g_autoptr(SuanliTraceFigures) figures = suanli_trace_figures_new (self->trace);
  gboolean gpu = figures->kernels->len > 0;
  g_autoptr(SuanliFlame) flame = suanli_flame_new (self->trace, gpu ? SUANLI_FLAME_GPU : SUANLI_FLAME_CPU, G_MININT64,
                                                   G_MAXINT64);
  g_autoptr(SuanliFlamePainter) flame_painter = suanli_flame_painter_new (flame, gpu);
  TimelineSnapshot snapshot = { suanli_timeline_painter_new (self->trace), { 0, 0, 0 } };
  g_autofree char *title = g_strdup_printf (_("Profile: %s"), self->trace_name != NULL ? self->trace_name : "");
  double flame_height, timeline_height;

  suanli_page_writer_heading (writer, title, 1);
  write_gpus (writer, figures);
  write_steps (writer, figures);
  write_against_plan (self, writer, figures);
  write_kernels (writer, self->trace, figures);
  flame_height = MIN (360, SUANLI_FLAME_ROW_HEIGHT * (suanli_flame_painter_get_depth (flame_painter) + 1));
  suanli_page_writer_keep_together (writer, flame_height + HEADING_HEIGHT);
  suanli_page_writer_heading (writer, gpu ? _("Flame graph: GPU time by launching stack") : _("Flame graph: CPU time"), 2);
  suanli_page_writer_drawing (writer, flame_height, draw_flame, flame_painter);
  timeline_height = MIN (480, suanli_timeline_painter_content_height (snapshot.painter) + 30);
  suanli_page_writer_keep_together (writer, timeline_height + HEADING_HEIGHT);
  suanli_page_writer_heading (writer, _("Timeline"), 2);
  suanli_trace_get_time_range (self->trace, &snapshot.view.from, &snapshot.view.to);
  snapshot.view.to = MAX (snapshot.view.to, snapshot.view.from + 1000);
  suanli_page_writer_drawing (writer, timeline_height, draw_timeline, &snapshot);
  suanli_timeline_painter_free (snapshot.painter);
}
