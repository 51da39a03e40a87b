/* suanli-analysis-ranks.c — the files (ranks) of a merged trace side by side: steps, GPU time,
 * communication, and which ranks hold the others up
 *
 * In a synchronous data-parallel job every rank waits for the slowest at each collective, so one
 * slow rank (a throttled GPU, a busy host, a bad link) slows all. Such a straggler shows as a
 * longer median step than the other ranks'; the rule and its threshold are described with
 * SuanliRankStats in suanli-analysis.h. The figures come from the per-device GPU time and the
 * per-file steps the other analyses work out, so they agree with what those show.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "suanli-analysis-private.h"

/* The lower median of the measures of the ranks compared by @measure; -1 when there are none. */
static gint64
reference_of (GArray            *ranks,
              SuanliRankMeasure  measure)
{
  g_autoptr(GArray) values = g_array_new (FALSE, FALSE, sizeof (gint64));

  for (guint i = 0; i < ranks->len; i++)
    {
      SuanliRankStats *rank = &g_array_index (ranks, SuanliRankStats, i);

      if (rank->measure == measure)
        g_array_append_val (values, rank->measured_ns);
    }
  if (values->len == 0)
    return -1;
  g_array_sort (values, suanli_compare_int64);
  return g_array_index (values, gint64, (values->len - 1) / 2);
}

/* The count, median and longest CPU span of @rank's group's steps among @steps (SuanliStepStats):
 * see suanli_analysis_median_step(). */
static void
add_steps (SuanliRankStats *rank,
           GArray          *steps)
{
  g_autoptr(GArray) own = g_array_new (FALSE, FALSE, sizeof (SuanliStepStats));

  for (guint i = 0; i < steps->len; i++)
    {
      SuanliStepStats *step = &g_array_index (steps, SuanliStepStats, i);

      if (step->group != rank->group)
        continue;
      g_array_append_val (own, *step);
      rank->slowest_step_ns = MAX (rank->slowest_step_ns, step->cpu_ns);
    }
  rank->steps = own->len;
  rank->median_step_ns = suanli_analysis_median_step (own);
}

/**
 * suanli_analysis_ranks_from:
 * @gpus: suanli_analysis_gpu_time() of @trace
 * @steps: suanli_analysis_steps() of @trace
 *
 * As suanli_analysis_ranks(), from figures already worked out.
 *
 * Returns: (transfer full): one SuanliRankStats per group of @trace, in group order.
 */
GArray *
suanli_analysis_ranks_from (SuanliTrace *trace,
                            GArray      *gpus,
                            GArray      *steps)
{
  guint n_groups;
  GArray *ranks;
  gint64 references[2];

  g_return_val_if_fail (SUANLI_IS_TRACE (trace), NULL);
  n_groups = suanli_trace_get_n_groups (trace);
  ranks = g_array_sized_new (FALSE, TRUE, sizeof (SuanliRankStats), n_groups);
  for (guint g = 0; g < n_groups; g++)
    {
      SuanliGroup *group = suanli_trace_get_group (trace, g);
      SuanliRankStats rank = { g, group->rank, group->name, 0, -1, -1 };

      add_steps (&rank, steps);
      for (guint d = 0; d < gpus->len; d++)
        {
          SuanliGpuTime *gpu = &g_array_index (gpus, SuanliGpuTime, d);

          if (gpu->group != g)
            continue;
          rank.busy_ns += gpu->busy_ns;
          rank.compute_ns += gpu->compute_ns;
          rank.comm_ns += gpu->comm_ns;
        }
      rank.measure = rank.steps > 0 ? SUANLI_RANK_BY_STEP : SUANLI_RANK_BY_BUSY;
      rank.measured_ns = rank.steps > 0 ? rank.median_step_ns : rank.busy_ns;
      g_array_append_val (ranks, rank);
    }

  references[SUANLI_RANK_BY_STEP] = reference_of (ranks, SUANLI_RANK_BY_STEP);
  references[SUANLI_RANK_BY_BUSY] = reference_of (ranks, SUANLI_RANK_BY_BUSY);
  for (guint i = 0; i < ranks->len; i++)
    {
      SuanliRankStats *rank = &g_array_index (ranks, SuanliRankStats, i);

      rank->reference_ns = references[rank->measure];
      /* A reference of nothing (ranks without GPU work) makes no rank slower than it. */
      if (rank->reference_ns <= 0)
        continue;
      rank->slower = (double) rank->measured_ns / (double) rank->reference_ns - 1;
      /* Compared as a product, not through the quotient, whose rounding would make 105 ÷ 100 more
       * than 5% above. */
      rank->straggler = (double) rank->measured_ns > (double) rank->reference_ns * (1 + SUANLI_STRAGGLER_THRESHOLD);
    }
  return ranks;
}

/**
 * suanli_analysis_ranks:
 *
 * Per file (rank) of @trace: its steps, GPU time and whether it is a straggler. There is a row
 * for every group, even when there is one; callers show a comparison only from two.
 *
 * Returns: (transfer full): SuanliRankStats, in group order.
 */
GArray *
suanli_analysis_ranks (SuanliTrace *trace)
{
  g_autoptr(GArray) gpus = suanli_analysis_gpu_time (trace);
  g_autoptr(GArray) steps = suanli_analysis_steps (trace);

  return suanli_analysis_ranks_from (trace, gpus, steps);
}
