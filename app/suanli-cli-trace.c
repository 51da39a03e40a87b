/* suanli-cli-trace.c — `suanli-cli trace summary FILE… [--json]` and `trace convert IN… OUT`
 *
 * A summary of several files (ranks) ends with a table comparing the ranks, stragglers marked.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <stdio.h>
#include <string.h>
#include <glib/gi18n.h>
#include <json-glib/json-glib.h>

#include "suanli-analysis.h"
#include "suanli-capture-decoder.h"
#include "suanli-trace-figures.h"
#include "suanli-cli.h"
#include "suanli-cli-trace-io.h"
#include "suanli-export-chrome.h"
#include "suanli-flame.h"
#include "suanli-import.h"
#include "suanli-units.h"

#define TOP_KERNELS  20
#define NAME_COLUMNS 100

/* Folded stacks measure in samples, not nanoseconds. */
static gboolean
is_sampled (SuanliTrace *trace)
{
  return g_strcmp0 (suanli_trace_get_metadata (trace, "unit"), "samples") == 0;
}

/* "rank" and "file" of an item from group @index, for telling ranks apart. */
static void
member_group (JsonBuilder *builder,
              SuanliTrace *trace,
              guint        index)
{
  SuanliGroup *group = suanli_trace_get_group (trace, index);

  if (group == NULL)
    return;
  if (group->rank >= 0)
    suanli_cli_member_int (builder, "rank", group->rank);
  suanli_cli_member_string (builder, "file", suanli_trace_get_string (trace, group->name));
}

static void
memcpy_json (JsonBuilder   *builder,
             SuanliGpuTime *gpu)
{
  json_builder_set_member_name (builder, "memcpy");
  json_builder_begin_object (builder);
  for (SuanliMemcpyDirection d = 0; d < SUANLI_MEMCPY_N_DIRECTIONS; d++)
    {
      SuanliMemcpyStats *copies = &gpu->memcpy[d];

      if (copies->count == 0)
        continue;
      json_builder_set_member_name (builder, suanli_memcpy_direction_name (d));
      json_builder_begin_object (builder);
      suanli_cli_member_int (builder, "count", (gint64) copies->count);
      suanli_cli_member_int (builder, "bytes", (gint64) copies->bytes);
      suanli_cli_member_int (builder, "total_ns", copies->total_ns);
      if (copies->sized_ns > 0)
        suanli_cli_member_double (builder, "bandwidth_gbps", (double) copies->bytes / (double) copies->sized_ns);
      json_builder_end_object (builder);
    }
  json_builder_end_object (builder);
}

static void
gpus_json (JsonBuilder *builder,
           SuanliTrace *trace,
           GArray      *gpus)
{
  json_builder_set_member_name (builder, "gpus");
  json_builder_begin_array (builder);
  for (guint i = 0; i < gpus->len; i++)
    {
      SuanliGpuTime *gpu = &g_array_index (gpus, SuanliGpuTime, i);

      json_builder_begin_object (builder);
      suanli_cli_member_int (builder, "device", gpu->device);
      member_group (builder, trace, gpu->group);
      suanli_cli_member_int (builder, "span_ns", gpu->span_ns);
      suanli_cli_member_int (builder, "kernel_ns", gpu->kernel_ns);
      suanli_cli_member_int (builder, "busy_ns", gpu->busy_ns);
      suanli_cli_member_int (builder, "compute_ns", gpu->compute_ns);
      suanli_cli_member_int (builder, "comm_ns", gpu->comm_ns);
      suanli_cli_member_int (builder, "memcpy_ns", gpu->memcpy_ns);
      suanli_cli_member_int (builder, "memset_ns", gpu->memset_ns);
      suanli_cli_member_int (builder, "idle_ns", gpu->idle_ns);
      suanli_cli_member_int (builder, "host_wait_ns", gpu->host_wait_ns);
      suanli_cli_member_int (builder, "short_gap_ns", gpu->short_gap_ns);
      suanli_cli_member_int (builder, "other_idle_ns", gpu->other_idle_ns);
      memcpy_json (builder, gpu);
      json_builder_end_object (builder);
    }
  json_builder_end_array (builder);
}

static void
streams_json (JsonBuilder *builder,
              SuanliTrace *trace,
              GArray      *streams)
{
  json_builder_set_member_name (builder, "streams");
  json_builder_begin_array (builder);
  for (guint i = 0; i < streams->len; i++)
    {
      SuanliStreamTime *stream = &g_array_index (streams, SuanliStreamTime, i);

      json_builder_begin_object (builder);
      suanli_cli_member_int (builder, "device", stream->device);
      suanli_cli_member_int (builder, "stream", stream->stream);
      member_group (builder, trace, stream->group);
      suanli_cli_member_int (builder, "span_ns", stream->span_ns);
      suanli_cli_member_int (builder, "busy_ns", stream->busy_ns);
      suanli_cli_member_int (builder, "idle_ns", stream->idle_ns);
      suanli_cli_member_int (builder, "host_wait_ns", stream->host_wait_ns);
      suanli_cli_member_int (builder, "short_gap_ns", stream->short_gap_ns);
      suanli_cli_member_int (builder, "other_idle_ns", stream->other_idle_ns);
      json_builder_set_member_name (builder, "queue");
      json_builder_begin_object (builder);
      suanli_cli_member_int (builder, "launched", (gint64) stream->launched);
      suanli_cli_member_int (builder, "max", stream->queue_max);
      suanli_cli_member_double (builder, "mean", stream->queue_mean);
      suanli_cli_member_double (builder, "mean_of_changes", stream->queue_mean_of_changes);
      json_builder_end_object (builder);
      json_builder_end_object (builder);
    }
  json_builder_end_array (builder);
}

/* Of each live capture: whether it holds its job from the start ("launch") or from START. */
static void
captures_json (JsonBuilder *builder,
               SuanliTrace *trace)
{
  json_builder_set_member_name (builder, "captures");
  json_builder_begin_array (builder);
  for (guint g = 0; g < suanli_trace_get_n_groups (trace); g++)
    {
      SuanliGroupCapture capture = suanli_trace_get_group (trace, g)->capture;

      if (capture == SUANLI_GROUP_NOT_CAPTURED)
        continue;
      json_builder_begin_object (builder);
      member_group (builder, trace, g);
      suanli_cli_member_string (builder, "from", capture == SUANLI_GROUP_CAPTURED_FROM_LAUNCH ? "launch" : "start");
      json_builder_end_object (builder);
    }
  json_builder_end_array (builder);
}

/* The warnings of each file, counted: a run of several files says which one each is about. */
static void
warnings_json (JsonBuilder *builder,
               SuanliTrace *trace)
{
  GPtrArray *warnings = suanli_trace_get_warnings (trace);

  json_builder_set_member_name (builder, "warnings");
  json_builder_begin_array (builder);
  for (guint i = 0; i < warnings->len; i++)
    json_builder_add_string_value (builder, g_ptr_array_index (warnings, i));
  json_builder_end_array (builder);
  json_builder_set_member_name (builder, "warnings_per_file");
  json_builder_begin_array (builder);
  for (guint g = 0; g < suanli_trace_get_n_groups (trace); g++)
    {
      json_builder_begin_object (builder);
      member_group (builder, trace, g);
      suanli_cli_member_int (builder, "count", suanli_trace_count_warnings (trace, g));
      json_builder_end_object (builder);
    }
  json_builder_end_array (builder);
}

static void
host_json (JsonBuilder        *builder,
           SuanliTrace        *trace,
           SuanliTraceFigures *analysis)
{
  json_builder_set_member_name (builder, "cpu_operators");
  json_builder_begin_array (builder);
  for (guint i = 0; i < analysis->operators->len && i < TOP_KERNELS; i++)
    {
      SuanliOperatorStats *op = &g_array_index (analysis->operators, SuanliOperatorStats, i);

      json_builder_begin_object (builder);
      suanli_cli_member_string (builder, "name", suanli_trace_get_string (trace, op->name));
      suanli_cli_member_int (builder, "count", (gint64) op->count);
      suanli_cli_member_int (builder, "self_ns", op->self_ns);
      suanli_cli_member_int (builder, "total_ns", op->total_ns);
      json_builder_end_object (builder);
    }
  json_builder_end_array (builder);

  json_builder_set_member_name (builder, "launch_delays");
  json_builder_begin_array (builder);
  for (guint i = 0; i < analysis->delays->len; i++)
    {
      SuanliLaunchDelays *delays = &g_array_index (analysis->delays, SuanliLaunchDelays, i);

      json_builder_begin_object (builder);
      member_group (builder, trace, delays->group);
      suanli_cli_member_int (builder, "count", (gint64) delays->count);
      suanli_cli_member_int (builder, "min_ns", delays->min_ns);
      suanli_cli_member_int (builder, "median_ns", delays->median_ns);
      suanli_cli_member_int (builder, "p95_ns", delays->p95_ns);
      suanli_cli_member_int (builder, "max_ns", delays->max_ns);
      suanli_cli_member_double (builder, "mean_ns", delays->mean_ns);
      /* From the launch call's end (its return) to the work's start. */
      json_builder_set_member_name (builder, "from_end");
      json_builder_begin_object (builder);
      suanli_cli_member_int (builder, "min_ns", delays->from_end.min_ns);
      suanli_cli_member_int (builder, "median_ns", delays->from_end.median_ns);
      suanli_cli_member_int (builder, "p95_ns", delays->from_end.p95_ns);
      suanli_cli_member_int (builder, "max_ns", delays->from_end.max_ns);
      suanli_cli_member_double (builder, "mean_ns", delays->from_end.mean_ns);
      json_builder_end_object (builder);
      json_builder_end_object (builder);
    }
  json_builder_end_array (builder);
}

static void
steps_json (JsonBuilder        *builder,
            SuanliTrace        *trace,
            SuanliTraceFigures *analysis)
{
  json_builder_set_member_name (builder, "steps");
  json_builder_begin_array (builder);
  for (guint i = 0; i < analysis->steps->len; i++)
    {
      SuanliStepStats *step = &g_array_index (analysis->steps, SuanliStepStats, i);

      json_builder_begin_object (builder);
      suanli_cli_member_int (builder, "step", step->step);
      member_group (builder, trace, step->group);
      suanli_cli_member_int (builder, "start_ns", step->start);
      suanli_cli_member_int (builder, "duration_ns", step->duration_ns);
      suanli_cli_member_int (builder, "kernel_ns", step->kernel_ns);
      suanli_cli_member_int (builder, "busy_ns", step->busy_ns);
      suanli_cli_member_int (builder, "comm_ns", step->comm_ns);
      suanli_cli_member_int (builder, "kernels", (gint64) step->kernels);
      json_builder_end_object (builder);
    }
  json_builder_end_array (builder);

  json_builder_set_member_name (builder, "collectives");
  json_builder_begin_array (builder);
  for (guint i = 0; i < analysis->collectives->len; i++)
    {
      SuanliCollectiveStats *collective = &g_array_index (analysis->collectives, SuanliCollectiveStats, i);

      json_builder_begin_object (builder);
      suanli_cli_member_string (builder, "collective", collective->collective);
      member_group (builder, trace, collective->group);
      suanli_cli_member_int (builder, "count", (gint64) collective->count);
      suanli_cli_member_int (builder, "total_ns", collective->total_ns);
      suanli_cli_member_int (builder, "sized", (gint64) collective->sized);
      suanli_cli_member_int (builder, "bytes", (gint64) collective->bytes);
      if (collective->group_size > 0)
        suanli_cli_member_int (builder, "group_size", collective->group_size);
      if (collective->algbw_gbps > 0)
        suanli_cli_member_double (builder, "algbw_gbps", collective->algbw_gbps);
      if (collective->busbw_gbps > 0)
        suanli_cli_member_double (builder, "busbw_gbps", collective->busbw_gbps);
      json_builder_end_object (builder);
    }
  json_builder_end_array (builder);
}

static void
memory_json (JsonBuilder        *builder,
             SuanliTrace        *trace,
             SuanliTraceFigures *analysis)
{
  json_builder_set_member_name (builder, "memory");
  json_builder_begin_array (builder);
  for (guint i = 0; i < analysis->memory->len; i++)
    {
      SuanliMemoryPeak *peak = &g_array_index (analysis->memory, SuanliMemoryPeak, i);

      json_builder_begin_object (builder);
      member_group (builder, trace, peak->group);
      suanli_cli_member_int (builder, "pid", peak->pid);
      suanli_cli_member_int (builder, "device_type", peak->device_type);
      suanli_cli_member_int (builder, "device", peak->device);
      if (peak->peak_allocated >= 0)
        {
          suanli_cli_member_int (builder, "peak_allocated_bytes", (gint64) peak->peak_allocated);
          suanli_cli_member_int (builder, "peak_time_ns", peak->peak_time);
        }
      if (peak->peak_reserved >= 0)
        suanli_cli_member_int (builder, "peak_reserved_bytes", (gint64) peak->peak_reserved);
      json_builder_end_object (builder);
    }
  json_builder_end_array (builder);
  if (analysis->flops.operators > 0)
    {
      json_builder_set_member_name (builder, "flops");
      json_builder_begin_object (builder);
      suanli_cli_member_double (builder, "total", analysis->flops.flops);
      suanli_cli_member_int (builder, "operators", (gint64) analysis->flops.operators);
      suanli_cli_member_int (builder, "first_ns", analysis->flops.first_ns);
      suanli_cli_member_int (builder, "last_ns", analysis->flops.last_ns);
      json_builder_end_object (builder);
    }
}

static const char *
measure_name (SuanliRankMeasure measure)
{
  return measure == SUANLI_RANK_BY_STEP ? "median_step" : "gpu_busy";
}

static void
ranks_json (JsonBuilder *builder,
            SuanliTrace *trace,
            GArray      *ranks)
{
  suanli_cli_member_double (builder, "straggler_threshold", SUANLI_STRAGGLER_THRESHOLD);
  json_builder_set_member_name (builder, "ranks");
  json_builder_begin_array (builder);
  for (guint i = 0; i < ranks->len; i++)
    {
      SuanliRankStats *rank = &g_array_index (ranks, SuanliRankStats, i);

      json_builder_begin_object (builder);
      member_group (builder, trace, rank->group);
      suanli_cli_member_int (builder, "steps", rank->steps);
      if (rank->steps > 0)
        {
          suanli_cli_member_int (builder, "median_step_ns", rank->median_step_ns);
          suanli_cli_member_int (builder, "slowest_step_ns", rank->slowest_step_ns);
        }
      suanli_cli_member_int (builder, "busy_ns", rank->busy_ns);
      suanli_cli_member_int (builder, "compute_ns", rank->compute_ns);
      suanli_cli_member_int (builder, "comm_ns", rank->comm_ns);
      suanli_cli_member_string (builder, "compared_by", measure_name (rank->measure));
      suanli_cli_member_double (builder, "slower", rank->slower);
      json_builder_set_member_name (builder, "straggler");
      json_builder_add_boolean_value (builder, rank->straggler);
      json_builder_end_object (builder);
    }
  json_builder_end_array (builder);
}

static gboolean
print_summary_json (SuanliTrace        *trace,
                    SuanliImportStats  *stats,
                    SuanliTraceFigures *analysis,
                    GArray             *ranks)
{
  GArray *kernels = analysis->kernels;

  g_autoptr(JsonBuilder) builder = json_builder_new ();
  g_autoptr(GList) categories = g_hash_table_get_keys (stats->by_category);
  gint64 first, last;

  suanli_trace_get_time_range (trace, &first, &last);
  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "schema");
  json_builder_add_string_value (builder, "suanli-trace-summary/1");
  suanli_cli_member_int (builder, "events", (gint64) stats->events);
  suanli_cli_member_int (builder, "slices", (gint64) suanli_trace_get_n_slices (trace));
  json_builder_set_member_name (builder, "by_category");
  json_builder_begin_object (builder);
  categories = g_list_sort (categories, (GCompareFunc) g_strcmp0);
  for (GList *l = categories; l != NULL; l = l->next)
    suanli_cli_member_int (builder, l->data, (gint64) GPOINTER_TO_SIZE (g_hash_table_lookup (stats->by_category, l->data)));
  json_builder_end_object (builder);
  json_builder_set_member_name (builder, "time_unit");
  json_builder_add_string_value (builder, is_sampled (trace) ? "samples" : "ns");
  json_builder_set_member_name (builder, "time_range_ns");
  json_builder_begin_array (builder);
  json_builder_add_int_value (builder, first);
  json_builder_add_int_value (builder, last);
  json_builder_end_array (builder);
  suanli_cli_member_int (builder, "processes", suanli_trace_get_n_processes (trace));
  suanli_cli_member_int (builder, "tracks", suanli_trace_get_n_tracks (trace));
  suanli_cli_member_int (builder, "flows", suanli_trace_get_flows (trace)->len);

  gpus_json (builder, trace, analysis->gpus);
  streams_json (builder, trace, analysis->streams);

  json_builder_set_member_name (builder, "top_kernels");
  json_builder_begin_array (builder);
  for (guint i = 0; i < kernels->len && i < TOP_KERNELS; i++)
    {
      SuanliKernelStats *kernel = &g_array_index (kernels, SuanliKernelStats, i);

      json_builder_begin_object (builder);
      json_builder_set_member_name (builder, "name");
      json_builder_add_string_value (builder, suanli_trace_get_string (trace, kernel->name));
      suanli_cli_member_int (builder, "count", (gint64) kernel->count);
      suanli_cli_member_int (builder, "total_ns", kernel->total_ns);
      suanli_cli_member_int (builder, "min_ns", kernel->min_ns);
      suanli_cli_member_int (builder, "max_ns", kernel->max_ns);
      json_builder_end_object (builder);
    }
  json_builder_end_array (builder);
  host_json (builder, trace, analysis);
  steps_json (builder, trace, analysis);
  ranks_json (builder, trace, ranks);
  memory_json (builder, trace, analysis);
  captures_json (builder, trace);

  warnings_json (builder, trace);
  json_builder_end_object (builder);
  return suanli_cli_print_json (builder, "suanli-cli trace summary");
}

/* "file: Rank N, " before a line about one GPU or file, when the trace has several. */
static void
print_group (SuanliTrace *trace,
             guint        index)
{
  SuanliGroup *group = suanli_trace_get_group (trace, index);

  if (group == NULL)
    return;
  if (suanli_trace_get_n_groups (trace) > 1)
    {
      g_autofree char *base = g_path_get_basename (suanli_trace_get_string (trace, group->name));
      g_print ("%s: ", base);
    }
  if (group->rank >= 0)
    g_print (_("Rank %d, "), group->rank);
}

static void
print_streams (SuanliTrace *trace,
               GArray      *streams)
{
  for (guint i = 0; i < streams->len; i++)
    {
      SuanliStreamTime *stream = &g_array_index (streams, SuanliStreamTime, i);
      double span_ns = MAX (stream->span_ns, 1);

      print_group (trace, stream->group);
      g_print (_("Stream %lld of GPU %lld: busy %.1f%%, idle %.1f%% (host %.1f%%, short gaps %.1f%%, other %.1f%%), "
                 "queue up to %lld, %.1f on average\n"),
               (long long) stream->stream, (long long) stream->device, 100 * stream->busy_ns / span_ns,
               100 * stream->idle_ns / span_ns, 100 * stream->host_wait_ns / span_ns, 100 * stream->short_gap_ns / span_ns,
               100 * stream->other_idle_ns / span_ns, (long long) stream->queue_max, stream->queue_mean);
    }
}

static void
print_gpus (SuanliTrace *trace,
            GArray      *gpus)
{
  for (guint i = 0; i < gpus->len; i++)
    {
      SuanliGpuTime *gpu = &g_array_index (gpus, SuanliGpuTime, i);
      double span_ns = MAX (gpu->span_ns, 1);

      print_group (trace, gpu->group);
      g_print (_("GPU %lld: busy %.1f%%, kernels %.1f%%, communication %.1f%%, memcpy %.1f%%, idle %.1f%%\n"),
               (long long) gpu->device, 100 * gpu->busy_ns / span_ns, 100 * gpu->kernel_ns / span_ns, 100 * gpu->comm_ns / span_ns,
               100 * gpu->memcpy_ns / span_ns, 100 * gpu->idle_ns / span_ns);
      g_print (_("  idle: waiting for the host %.1f%%, short gaps %.1f%%, other %.1f%%\n"),
               100 * gpu->host_wait_ns / span_ns, 100 * gpu->short_gap_ns / span_ns, 100 * gpu->other_idle_ns / span_ns);
      for (SuanliMemcpyDirection d = 0; d < SUANLI_MEMCPY_N_DIRECTIONS; d++)
        {
          SuanliMemcpyStats *copies = &gpu->memcpy[d];
          g_autofree char *bytes = g_format_size (copies->bytes);

          if (copies->count == 0)
            continue;
          if (copies->sized_ns > 0)
            g_print (_("  memcpy %s: %llu copies, %s, %.2f GB/s\n"), suanli_memcpy_direction_name (d),
                     (unsigned long long) copies->count, bytes, (double) copies->bytes / (double) copies->sized_ns);
          else
            g_print (_("  memcpy %s: %llu copies, sizes not recorded\n"), suanli_memcpy_direction_name (d),
                     (unsigned long long) copies->count);
        }
    }
}

/* A name cut to NAME_COLUMNS: templated kernel names run to thousands of characters (--json gives
 * them whole). */
static void
print_named_row (const char *figure,
                 guint64     count,
                 const char *name)
{
  g_autofree char *shown = g_utf8_strlen (name, -1) > NAME_COLUMNS ? g_utf8_substring (name, 0, NAME_COLUMNS - 1)
                                                                   : g_strdup (name);

  g_print ("  %10s  %6" G_GUINT64_FORMAT "×  %s%s\n", figure, count, shown,
           g_utf8_strlen (name, -1) > NAME_COLUMNS ? "…" : "");
}

static void
print_host (SuanliTrace        *trace,
            SuanliTraceFigures *analysis)
{
  if (analysis->operators->len > 0)
    g_print (_("CPU operators by self time:\n"));
  for (guint i = 0; i < analysis->operators->len && i < 5; i++)
    {
      SuanliOperatorStats *op = &g_array_index (analysis->operators, SuanliOperatorStats, i);
      g_autofree char *self = suanli_format_duration_ns (op->self_ns);

      print_named_row (self, op->count, suanli_trace_get_string (trace, op->name));
    }
  for (guint i = 0; i < analysis->delays->len; i++)
    {
      SuanliLaunchDelays *delays = &g_array_index (analysis->delays, SuanliLaunchDelays, i);
      g_autofree char *median = suanli_format_duration_ns (delays->median_ns);
      g_autofree char *p95 = suanli_format_duration_ns (delays->p95_ns);

      g_autofree char *end_median = suanli_format_duration_ns (delays->from_end.median_ns);
      g_autofree char *end_p95 = suanli_format_duration_ns (delays->from_end.p95_ns);

      print_group (trace, delays->group);
      g_print (_("Launch to start: median %s, 95th percentile %s, over %llu launches\n"), median, p95,
               (unsigned long long) delays->count);
      print_group (trace, delays->group);
      g_print (_("Launch call's end to start: median %s, 95th percentile %s\n"), end_median, end_p95);
    }
  for (guint i = 0; i < analysis->steps->len; i++)
    {
      SuanliStepStats *step = &g_array_index (analysis->steps, SuanliStepStats, i);
      g_autofree char *duration = suanli_format_duration_ns (step->duration_ns);

      print_group (trace, step->group);
      g_print (_("Step %lld: %s, GPU kernels %.1f%%, communication %.1f%%, %llu kernels\n"), (long long) step->step,
               duration, 100.0 * step->kernel_ns / MAX (step->duration_ns, 1),
               100.0 * step->comm_ns / MAX (step->duration_ns, 1), (unsigned long long) step->kernels);
    }
  for (guint i = 0; i < analysis->collectives->len; i++)
    {
      SuanliCollectiveStats *collective = &g_array_index (analysis->collectives, SuanliCollectiveStats, i);
      g_autofree char *total = suanli_format_duration_ns (collective->total_ns);

      print_group (trace, collective->group);
      g_print (_("%s: %llu kernels, %s"), collective->collective,
               (unsigned long long) collective->count, total);
      if (collective->busbw_gbps > 0)
        g_print (_(", bus bandwidth %.1f GB/s"), collective->busbw_gbps);
      else if (collective->algbw_gbps > 0)
        g_print (_(", algorithm bandwidth %.1f GB/s (group size unknown)"), collective->algbw_gbps);
      else
        g_print (_(", message sizes not recorded"));
      g_print ("\n");
    }
  for (guint i = 0; i < analysis->memory->len; i++)
    {
      SuanliMemoryPeak *peak = &g_array_index (analysis->memory, SuanliMemoryPeak, i);
      g_autofree char *device = suanli_memory_device_name (peak->device_type, peak->device);
      g_autofree char *allocated = suanli_format_bytes ((guint64) MAX (peak->peak_allocated, 0), SUANLI_MEMORY_UNITS_GIB);
      g_autofree char *reserved = suanli_format_bytes ((guint64) MAX (peak->peak_reserved, 0), SUANLI_MEMORY_UNITS_GIB);

      print_group (trace, peak->group);
      g_print (_("%s memory: peak allocated %s, peak reserved %s\n"), device,
               peak->peak_allocated >= 0 ? allocated : "–", peak->peak_reserved >= 0 ? reserved : "–");
    }
  if (analysis->flops.operators > 0)
    {
      double seconds = (double) (analysis->flops.last_ns - analysis->flops.first_ns) / 1e9;

      g_print (_("Counted FLOPs: %.3g over %llu operators, %.3g TFLOP/s over their span\n"), analysis->flops.flops,
               (unsigned long long) analysis->flops.operators, seconds > 0 ? analysis->flops.flops / seconds / 1e12 : 0);
    }
}

/* A duration, or "–" for none (< 0). */
static char *
duration_or_dash (gint64 ns)
{
  return ns >= 0 ? suanli_format_duration_ns (ns) : g_strdup ("–");
}

/* Appends @text to @line in a column @width terminal cells wide, right-aligned unless @left:
 * padded by cells, not bytes ("µs" and "–" take more bytes than cells, Chinese more cells). */
static void
append_cell (GString    *line,
             const char *text,
             int         width,
             gboolean    left)
{
  int cells = 0;

  for (const char *at = text; *at != '\0'; at = g_utf8_next_char (at))
    cells += g_unichar_iswide (g_utf8_get_char (at)) ? 2 : 1;
  if (left)
    g_string_append (line, text);
  for (int i = cells; i < width; i++)
    g_string_append_c (line, ' ');
  if (!left)
    g_string_append (line, text);
  g_string_append_c (line, ' ');
}

/* The ranks side by side, when there are several: a row each, stragglers flagged in words. */
static void
print_ranks (SuanliTrace *trace,
             GArray      *ranks)
{
  static const int widths[] = { 6, 6, 12, 12, 10, 10, 14 };
  const char *headings[] = { _("rank"), _("steps"), _("median step"), _("slowest step"), _("GPU busy"), _("compute"),
                             _("communication") };
  g_autoptr(GString) line = g_string_new ("  ");

  if (ranks->len < 2)
    return;
  g_print (_("Ranks (a straggler's median step, or GPU busy time without steps, is over %.0f%% above the ranks' "
             "median):\n"),
           100 * SUANLI_STRAGGLER_THRESHOLD);
  for (guint c = 0; c < G_N_ELEMENTS (widths); c++)
    append_cell (line, headings[c], widths[c], c == 0);
  g_print ("%s %s\n", line->str, _("file"));
  for (guint i = 0; i < ranks->len; i++)
    {
      SuanliRankStats *rank = &g_array_index (ranks, SuanliRankStats, i);
      g_autofree char *file = g_path_get_basename (suanli_trace_get_string (trace, rank->name));
      char *cells[] = {
        rank->rank >= 0 ? g_strdup_printf ("%d", rank->rank) : g_strdup ("–"),
        g_strdup_printf ("%u", rank->steps),
        duration_or_dash (rank->median_step_ns),
        duration_or_dash (rank->slowest_step_ns),
        suanli_format_duration_ns (rank->busy_ns),
        suanli_format_duration_ns (rank->compute_ns),
        suanli_format_duration_ns (rank->comm_ns),
      };

      g_string_assign (line, "  ");
      for (guint c = 0; c < G_N_ELEMENTS (cells); c++)
        {
          append_cell (line, cells[c], widths[c], c == 0);
          g_free (cells[c]);
        }
      g_print ("%s %s", line->str, file);
      if (rank->straggler && rank->measure == SUANLI_RANK_BY_STEP)
        g_print (_("  STRAGGLER: median step %.1f%% above the ranks' median"), 100 * rank->slower);
      else if (rank->straggler)
        g_print (_("  STRAGGLER: GPU busy time %.1f%% above the ranks' median"), 100 * rank->slower);
      g_print ("\n");
    }
}

static void
print_summary (SuanliTrace        *trace,
               SuanliImportStats  *stats,
               SuanliTraceFigures *analysis,
               GArray             *ranks)
{
  gint64 first, last;
  g_autofree char *span = NULL;

  suanli_trace_get_time_range (trace, &first, &last);
  if (is_sampled (trace))
    span = g_strdup_printf (ngettext ("%lld sample", "%lld samples", (gulong) MIN (last - first, G_MAXLONG)),
                            (long long) (last - first));
  else
    span = suanli_format_duration_ns (last - first);
  g_print (_("Events %llu · slices %llu · tracks %u · flows %u · span %s\n"), (unsigned long long) stats->events,
           (unsigned long long) suanli_trace_get_n_slices (trace), suanli_trace_get_n_tracks (trace), suanli_trace_get_flows (trace)->len,
           span);
  for (guint g = 0; g < suanli_trace_get_n_groups (trace); g++)
    {
      const char *capture = suanli_capture_decoder_describe (suanli_trace_get_group (trace, g)->capture);

      if (capture == NULL)
        continue;
      print_group (trace, g);
      g_print ("%s\n", capture);
    }
  print_gpus (trace, analysis->gpus);
  print_streams (trace, analysis->streams);
  if (analysis->kernels->len > 0)
    g_print (_("Kernels by total time:\n"));
  for (guint i = 0; i < analysis->kernels->len && i < 10; i++)
    {
      SuanliKernelStats *kernel = &g_array_index (analysis->kernels, SuanliKernelStats, i);
      g_autofree char *total = suanli_format_duration_ns (kernel->total_ns);

      print_named_row (total, kernel->count, suanli_trace_get_string (trace, kernel->name));
    }
  print_host (trace, analysis);
  print_ranks (trace, ranks);
}

static int
run_summary (int    argc,
             char **argv)
{
  gboolean json = FALSE;
  const GOptionEntry entries[] = {
    { "json", 0, 0, G_OPTION_ARG_NONE, &json, N_("Print the summary as suanli-trace-summary/1 JSON"), NULL },
    { NULL }
  };
  g_autoptr(GOptionContext) context = g_option_context_new (N_("FILE… (- for standard input)"));
  g_autoptr(SuanliTrace) trace = suanli_trace_new ();
  g_autoptr(GError) error = NULL;
  SuanliImportStats stats = { 0 };
  g_autoptr(SuanliTraceFigures) analysis = NULL;
  g_autoptr(GArray) ranks = NULL;
  int status = SUANLI_EXIT_DONE;

  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);
  if (!g_option_context_parse (context, &argc, &argv, &error) || argc < 2)
    {
      g_printerr ("suanli-cli trace summary: %s\n", error != NULL ? error->message : _("give one or more trace files"));
      return SUANLI_EXIT_USAGE_OR_IO;
    }

  status = suanli_cli_trace_import (trace, &stats, (const char * const *) argv + 1, argc - 1);
  if (status != SUANLI_EXIT_DONE)
    {
      suanli_import_stats_clear (&stats);
      return status;
    }

  analysis = suanli_trace_figures_new (trace);
  ranks = suanli_analysis_ranks_from (trace, analysis->gpus, analysis->steps);
  if (json && !print_summary_json (trace, &stats, analysis, ranks))
    status = SUANLI_EXIT_INVALID_INPUT;
  else if (!json)
    print_summary (trace, &stats, analysis, ranks);
  suanli_import_stats_clear (&stats);
  return status;
}

/* `trace convert IN… OUT`: Chrome trace JSON (OUT.json, OUT.json.gz), or folded stacks of the
 * CPU stacks (with --gpu, of GPU time by the stack that launched it; OUT "-" is standard output).
 * The file is replaced atomically. */
static int
run_convert (int    argc,
             char **argv)
{
  gboolean gpu = FALSE, keep_steps = FALSE;
  const GOptionEntry entries[] = {
    { "gpu", 0, 0, G_OPTION_ARG_NONE, &gpu, N_("GPU time under the CPU stack that launched it, not CPU stacks"), NULL },
    { "keep-step-numbers", 0, 0, G_OPTION_ARG_NONE, &keep_steps,
      N_("Keep frames that differ only by a step number (ProfilerStep#12) apart; by default they are merged"), NULL },
    { NULL }
  };
  g_autoptr(GOptionContext) context = g_option_context_new (N_("IN… OUT.json[.gz]|OUT.folded|-"));
  g_autoptr(SuanliTrace) trace = suanli_trace_new ();
  g_autoptr(SuanliFlame) flame = NULL;
  g_autoptr(GOutputStream) output = NULL;
  g_autoptr(GError) error = NULL;
  SuanliImportStats stats = { 0 };
  const char *out;
  gboolean chrome;
  int status;

  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);
  if (!g_option_context_parse (context, &argc, &argv, &error) || argc < 3)
    {
      g_printerr ("suanli-cli trace convert: %s\n", error != NULL ? error->message : _("give the input files, then the output"));
      return SUANLI_EXIT_USAGE_OR_IO;
    }
  out = argv[argc - 1];
  chrome = g_str_has_suffix (out, ".json") || g_str_has_suffix (out, ".json.gz");
  if (!chrome && !g_str_equal (out, "-") && !g_str_has_suffix (out, ".folded") && !g_str_has_suffix (out, ".txt"))
    {
      g_printerr (_("suanli-cli trace convert: %s: write OUT.json or OUT.json.gz (Chrome trace), OUT.folded or "
                    "OUT.txt (folded stacks), or - (folded stacks to standard output)\n"),
                  out);
      return SUANLI_EXIT_USAGE_OR_IO;
    }
  status = suanli_cli_trace_import (trace, &stats, (const char * const *) argv + 1, argc - 2);
  suanli_import_stats_clear (&stats);
  if (status != SUANLI_EXIT_DONE)
    return status;

  output = suanli_cli_trace_open_output (out, &error);
  if (output != NULL && !chrome)
    flame = suanli_flame_new_full (trace, gpu ? SUANLI_FLAME_GPU : SUANLI_FLAME_CPU, SUANLI_FLAME_ALL_GROUPS, G_MININT64,
                                   G_MAXINT64, keep_steps ? SUANLI_FLAME_KEEP_STEP_NUMBERS : 0);
  if (output == NULL ||
      !suanli_cli_trace_close_output (output,
                                      chrome ? suanli_export_chrome (trace, output, NULL, &error)
                                             : suanli_flame_write_folded (flame, output, NULL, &error),
                                      &error))
    {
      g_printerr ("suanli-cli trace convert: %s: %s\n", out, error->message);
      return SUANLI_EXIT_USAGE_OR_IO;
    }
  return SUANLI_EXIT_DONE;
}

int
suanli_cli_trace (int    argc,
                  char **argv)
{
  if (argc >= 2 && g_str_equal (argv[1], "summary"))
    return run_summary (argc - 1, argv + 1);
  if (argc >= 2 && g_str_equal (argv[1], "convert"))
    return run_convert (argc - 1, argv + 1);
  if (argc >= 2 && g_str_equal (argv[1], "diff"))
    return suanli_cli_trace_diff (argc - 1, argv + 1);
  if (argc >= 2 && g_str_equal (argv[1], "whatif"))
    return suanli_cli_trace_whatif (argc - 1, argv + 1);
  g_printerr ("%s suanli-cli trace %s\n", _("Usage:"), _(SUANLI_CLI_TRACE_ARGUMENTS));
  return SUANLI_EXIT_USAGE_OR_IO;
}
