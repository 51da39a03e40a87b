/* suanli-analysis-host.c — the CPU side of a trace: operators by self and total time, and the delay
 * from each kernel launch to the kernel's start
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <stdlib.h>

#include "suanli-analysis-private.h"

static int
compare_self_descending (gconstpointer a,
                         gconstpointer b)
{
  const SuanliOperatorStats *x = a, *y = b;

  return (x->self_ns < y->self_ns) - (x->self_ns > y->self_ns);
}

/* Returns: (transfer full): SuanliOperatorStats per operator name (cpu_op, Operator, or a CPU slice
 * without a category), by self time descending. Self
 * time is the operator's duration less that of the slices directly under it, whatever they are
 * (other operators, runtime calls, annotations). */
GArray *
suanli_analysis_cpu_operators (SuanliTrace *trace)
{
  return suanli_analysis_cpu_operators_in (trace, G_MININT64, G_MAXINT64);
}

/**
 * suanli_analysis_cpu_operators_in:
 * @from, @to: a time range: operators that overlap it count, for the part inside it
 *
 * Returns: (transfer full): as suanli_analysis_cpu_operators(), within the range.
 */
GArray *
suanli_analysis_cpu_operators_in (SuanliTrace *trace,
                                  gint64       from,
                                  gint64       to)
{
  g_autoptr(GHashTable) by_name = g_hash_table_new (NULL, NULL);
  g_autoptr(SuanliClassifier) classifier = suanli_classifier_new (trace);
  GArray *result = g_array_new (FALSE, TRUE, sizeof (SuanliOperatorStats));

  for (guint t = 0; t < suanli_trace_get_n_tracks (trace); t++)
    {
      SuanliTrack *track = suanli_trace_get_track (trace, t);
      guint32 open[256];   /* the slice at each depth above the one being read */

      if (track->kind != SUANLI_TRACK_THREAD)
        continue;
      for (guint s = 0; s < track->slices->len; s++)
        {
          SuanliSlice *slice = &g_array_index (track->slices, SuanliSlice, s);
          SuanliOperatorStats fresh = { slice->name, 0, 0, 0, 0 };
          SuanliOperatorStats *stats;
          gboolean recursive = FALSE;
          gint64 duration = suanli_analysis_overlap (slice, from, to);

          open[slice->depth] = s;
          if (duration == 0 && (slice->start < from || slice->start >= to))
            continue;   /* outside the range; its children are too, unless it is the parent of one inside */
          if (slice->depth > 0)
            {
              /* Less self time for the parent, when the parent is an operator. */
              SuanliSlice *parent = &g_array_index (track->slices, SuanliSlice, open[slice->depth - 1]);

              if (suanli_classifier_is_operator (classifier, parent))
                {
                  SuanliOperatorStats parent_fresh = { parent->name, 0, 0, 0, 0 };
                  SuanliOperatorStats *parent_stats = suanli_analysis_entry (result, by_name, parent->name, &parent_fresh);

                  parent_stats->self_ns -= duration;
                }
            }
          if (!suanli_classifier_is_operator (classifier, slice))
            continue;
          for (guint d = 0; d < slice->depth && !recursive; d++)
            recursive = g_array_index (track->slices, SuanliSlice, open[d]).name == slice->name;
          stats = suanli_analysis_entry (result, by_name, slice->name, &fresh);
          stats->count++;
          stats->self_ns += duration;
          stats->max_ns = MAX (stats->max_ns, duration);
          if (!recursive)
            stats->total_ns += duration;
        }
    }
  g_array_sort (result, compare_self_descending);
  return result;
}

/* The value at fraction @q of the sorted @values (nearest rank). */
static gint64
quantile (GArray *values,
          double  q)
{
  guint index = (guint) (q * (values->len - 1) + 0.5);

  return g_array_index (values, gint64, MIN (index, values->len - 1));
}

/* Sorts @delays (not empty) and gives their figures. */
static void
delay_stats (GArray *delays,
             gint64 *min,
             gint64 *median,
             gint64 *p95,
             gint64 *max,
             double *mean)
{
  double sum = 0;

  suanli_sort_int64 (delays);
  for (guint i = 0; i < delays->len; i++)
    sum += (double) g_array_index (delays, gint64, i);
  *min = g_array_index (delays, gint64, 0);
  *max = g_array_index (delays, gint64, delays->len - 1);
  *median = quantile (delays, 0.5);
  *p95 = quantile (delays, 0.95);
  *mean = sum / delays->len;
}

/* Returns: (transfer full): SuanliLaunchDelays per file (rank) that has CPU launches linked to GPU
 * work, by group: from the launch call's start, and from its end (the call's return), to the
 * work's start. */
GArray *
suanli_analysis_launch_delays (SuanliTrace *trace)
{
  GArray *flows = suanli_trace_get_flows (trace);
  /* Per group, two lists: from the launch call's start, and from its end. */
  g_autoptr(GPtrArray) per_group = g_ptr_array_new_with_free_func ((GDestroyNotify) g_array_unref);
  GArray *result = g_array_new (FALSE, TRUE, sizeof (SuanliLaunchDelays));

  for (guint g = 0; g < 2 * suanli_trace_get_n_groups (trace); g++)
    g_ptr_array_add (per_group, g_array_new (FALSE, FALSE, sizeof (gint64)));
  for (guint f = 0; f < flows->len; f++)
    {
      SuanliFlow *flow = &g_array_index (flows, SuanliFlow, f);
      SuanliTrack *from = suanli_trace_get_track (trace, flow->from_track);
      SuanliTrack *to = suanli_trace_get_track (trace, flow->to_track);
      SuanliSlice *launch = &g_array_index (from->slices, SuanliSlice, flow->from_slice);
      SuanliSlice *work = &g_array_index (to->slices, SuanliSlice, flow->to_slice);
      gint64 delay, after_return;

      if (from->kind != SUANLI_TRACK_THREAD || to->kind != SUANLI_TRACK_GPU_STREAM ||
          !suanli_analysis_is_gpu_work (trace, work) || 2 * to->group >= per_group->len)
        continue;
      delay = work->start - launch->start;
      after_return = work->start - (launch->start + launch->duration);
      g_array_append_val (g_ptr_array_index (per_group, 2 * to->group), delay);
      g_array_append_val (g_ptr_array_index (per_group, 2 * to->group + 1), after_return);
    }
  for (guint g = 0; g < per_group->len / 2; g++)
    {
      SuanliLaunchDelays stats = { 0 };

      if (((GArray *) g_ptr_array_index (per_group, 2 * g))->len == 0)
        continue;
      stats.group = g;
      stats.count = ((GArray *) g_ptr_array_index (per_group, 2 * g))->len;
      delay_stats (g_ptr_array_index (per_group, 2 * g), &stats.min_ns, &stats.median_ns, &stats.p95_ns, &stats.max_ns,
                   &stats.mean_ns);
      delay_stats (g_ptr_array_index (per_group, 2 * g + 1), &stats.from_end.min_ns, &stats.from_end.median_ns,
                   &stats.from_end.p95_ns, &stats.from_end.max_ns, &stats.from_end.mean_ns);
      g_array_append_val (result, stats);
    }
  return result;
}
