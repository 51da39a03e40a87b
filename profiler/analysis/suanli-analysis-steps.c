/* suanli-analysis-steps.c — training steps: each ProfilerStep#N annotation with the GPU work of its
 * file (rank) inside it
 *
 * A step's time is its period (docs/trace-analysis.md, "The step"): from its start to the next
 * step's start in its file; the last step's until every step's CPU span and the GPU work launched in
 * them have ended. What If's replay (profiler/whatif/suanli-replay-graph.c) counts steps the same way.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "suanli-analysis-private.h"

#define STEP_PREFIX "ProfilerStep#"

/* The N of "ProfilerStep#N", or -1 when @name is not a step. */
static gint64
step_number (const char *name)
{
  gint64 number = 0;
  const char *digit;

  if (strncmp (name, STEP_PREFIX, strlen (STEP_PREFIX)) != 0)
    return -1;
  digit = name + strlen (STEP_PREFIX);
  if (*digit == '\0')
    return -1;
  for (; *digit != '\0'; digit++)
    {
      if (!g_ascii_isdigit (*digit) || number > (G_MAXINT64 - 9) / 10)
        return -1;
      number = number * 10 + (*digit - '0');
    }
  return number;
}

/* The GPU streams of @group, as track indexes in order. */
static GArray *
group_streams (SuanliTrace *trace,
               guint        group)
{
  GArray *tracks = g_array_new (FALSE, FALSE, sizeof (guint));

  for (guint t = 0; t < suanli_trace_get_n_tracks (trace); t++)
    {
      SuanliTrack *track = suanli_trace_get_track (trace, t);

      if (track->kind == SUANLI_TRACK_GPU_STREAM && track->group == group)
        g_array_append_val (tracks, t);
    }
  return tracks;
}

/* The position of the first of the sorted @starts at or after @time. */
static guint
first_at_or_after (GArray *starts,
                   gint64  time)
{
  guint low = 0, high = starts->len;

  while (low < high)
    {
      guint middle = (low + high) / 2;

      if (g_array_index (starts, gint64, middle) < time)
        low = middle + 1;
      else
        high = middle;
    }
  return low;
}

static int
compare_steps (gconstpointer a,
               gconstpointer b)
{
  const SuanliStepStats *x = a, *y = b;

  if (x->group != y->group)
    return x->group < y->group ? -1 : 1;
  return (x->start > y->start) - (x->start < y->start);
}

/* Whether one of @steps[@first …] (@count of them, their starts @step_starts) holds @time in its CPU span. */
static gboolean
in_a_step (GArray *steps,
           guint   first,
           GArray *step_starts,
           gint64  time)
{
  guint after = first_at_or_after (step_starts, time == G_MAXINT64 ? time : time + 1);   /* the first starting after */
  const SuanliStepStats *step;

  if (after == 0)
    return FALSE;
  step = &g_array_index (steps, SuanliStepStats, first + after - 1);
  return time < step->start + step->cpu_ns || (time == step->start && step->cpu_ns == 0);
}

/* Each of a group's steps (@steps[@first …], @count of them) given its period: to the next step's
 * start; the last to when every step's CPU span and the GPU work on @streams launched in them
 * (work without a recorded launch: starting in them) have ended. */
static void
set_periods (GArray           *steps,
             guint             first,
             guint             count,
             SuanliTrace      *trace,
             SuanliClassifier *classifier,
             guint32         **launches,
             GArray           *streams)
{
  g_autoptr(GArray) step_starts = g_array_sized_new (FALSE, FALSE, sizeof (gint64), count);
  gint64 finish = G_MININT64;

  for (guint i = first; i < first + count; i++)
    {
      const SuanliStepStats *step = &g_array_index (steps, SuanliStepStats, i);

      g_array_append_val (step_starts, step->start);
      finish = MAX (finish, step->start + step->cpu_ns);
    }
  for (guint i = 0; i < streams->len; i++)
    {
      guint t = g_array_index (streams, guint, i);
      SuanliTrack *track = suanli_trace_get_track (trace, t);

      for (guint s = 0; s < track->slices->len; s++)
        {
          const SuanliSlice *slice = &g_array_index (track->slices, SuanliSlice, s);
          gint64 end = slice->start + slice->duration, launch;

          if (end <= finish || suanli_classifier_work (classifier, slice) == SUANLI_GPU_WORK_NONE)
            continue;
          launch = suanli_analysis_launch_time (trace, launches, t, s);
          if (in_a_step (steps, first, step_starts, launch != G_MININT64 ? launch : slice->start))
            finish = end;
        }
    }
  for (guint i = first; i < first + count; i++)
    {
      SuanliStepStats *step = &g_array_index (steps, SuanliStepStats, i);
      gint64 next = i + 1 < first + count ? g_array_index (steps, SuanliStepStats, i + 1).start : finish;

      step->duration_ns = MAX (next - step->start, 0);
    }
}

/* The starts of the intervals in @kernels, sorted. */
static GArray *
sorted_starts (GArray *kernels)
{
  GArray *starts = g_array_sized_new (FALSE, FALSE, sizeof (gint64), kernels->len);

  for (guint k = 0; k < kernels->len; k++)
    g_array_append_val (starts, g_array_index (kernels, SuanliInterval, k).start);
  suanli_sort_int64 (starts);
  return starts;
}

/* The member of SuanliStepStats that holds the time the work of @list covers in a step's period. */
static gint64 *
covered_in (SuanliStepStats *step,
            guint            list)
{
  switch (list)
    {
    case SUANLI_WORK_KERNELS:
      return &step->kernel_ns;
    case SUANLI_WORK_COMMUNICATION:
      return &step->comm_ns;
    default:
      g_assert (list == SUANLI_WORK_BUSY);
      return &step->busy_ns;
    }
}

/* Each of the @count steps from @first given the time of its period that the work of each list in
 * @lists (of those covered_in() names) on @streams covers; and, with the kernels, their number. */
static void
cover_steps (GArray           *steps,
             guint             first,
             guint             count,
             SuanliTrace      *trace,
             SuanliClassifier *classifier,
             GArray           *streams,
             guint             lists)
{
  GArray *gathered[SUANLI_WORK_N_LISTS] = { NULL };
  g_autoptr(GArray) starts = NULL;

  suanli_analysis_gather_work (trace, classifier, NULL, streams, lists, gathered);
  if (gathered[SUANLI_WORK_KERNELS] != NULL)
    starts = sorted_starts (gathered[SUANLI_WORK_KERNELS]);
  for (guint list = 0; list < SUANLI_WORK_N_LISTS; list++)
    {
      if (gathered[list] == NULL)
        continue;
      suanli_interval_merge (gathered[list]);
      for (guint i = first; i < first + count; i++)
        {
          SuanliStepStats *step = &g_array_index (steps, SuanliStepStats, i);

          *covered_in (step, list) = suanli_interval_covered (gathered[list], step->start, step->start + step->duration_ns);
        }
      g_array_unref (gathered[list]);
    }
  for (guint i = first; starts != NULL && i < first + count; i++)
    {
      SuanliStepStats *step = &g_array_index (steps, SuanliStepStats, i);
      gint64 end = step->start + step->duration_ns;

      step->kernels = first_at_or_after (starts, end) - first_at_or_after (starts, step->start);
    }
}

/* Returns: (transfer full): SuanliStepStats for each ProfilerStep#N slice on a CPU thread, by file
 * then time, each with its period and the GPU work in it. */
GArray *
suanli_analysis_steps (SuanliTrace *trace)
{
  GArray *result = g_array_new (FALSE, TRUE, sizeof (SuanliStepStats));
  SuanliClassifier *classifier;
  guint32 **launches;

  for (guint t = 0; t < suanli_trace_get_n_tracks (trace); t++)
    {
      SuanliTrack *track = suanli_trace_get_track (trace, t);

      if (track->kind != SUANLI_TRACK_THREAD)
        continue;
      for (guint s = 0; s < track->slices->len; s++)
        {
          SuanliSlice *slice = &g_array_index (track->slices, SuanliSlice, s);
          gint64 number = step_number (suanli_trace_get_string (trace, slice->name));
          SuanliGroup *group = suanli_trace_get_group (trace, track->group);
          SuanliStepStats step = { track->group, group != NULL ? group->rank : -1, number, slice->start,
                                   slice->duration, slice->duration, 0, 0, 0, 0 };

          if (number >= 0)
            g_array_append_val (result, step);
        }
    }
  g_array_sort (result, compare_steps);

  /* GPU work per group, gathered once for all of the group's steps. */
  launches = suanli_analysis_launch_table (trace);
  classifier = suanli_classifier_new (trace);
  for (guint i = 0; i < result->len;)
    {
      guint group = g_array_index (result, SuanliStepStats, i).group;
      g_autoptr(GArray) streams = group_streams (trace, group);
      guint count = 0;

      while (i + count < result->len && g_array_index (result, SuanliStepStats, i + count).group == group)
        count++;
      set_periods (result, i, count, trace, classifier, launches, streams);
      /* All the work, then the kernels with the communication among them (a pass each). */
      cover_steps (result, i, count, trace, classifier, streams, 1u << SUANLI_WORK_BUSY);
      cover_steps (result, i, count, trace, classifier, streams,
                   (1u << SUANLI_WORK_KERNELS) | (1u << SUANLI_WORK_COMMUNICATION));
      i += count;
    }
  suanli_classifier_free (classifier);
  suanli_analysis_launch_table_free (trace, launches);
  return result;
}

/* The step time of @steps (SuanliStepStats, of every file): the mean of their periods, which is
 * the steps' time divided by their count (docs/trace-analysis.md, "The step"); -1 when there are
 * none. */
gint64
suanli_analysis_step_time (GArray *steps)
{
  gint64 total = 0;

  if (steps->len == 0)
    return -1;
  for (guint i = 0; i < steps->len; i++)
    total += g_array_index (steps, SuanliStepStats, i).duration_ns;
  return total / (gint64) steps->len;
}

/* The median of @steps' CPU spans (SuanliStepStats, of every file), the ProfilerStep#N annotations'
 * own lengths: the ranks are compared by it, as a rank that works longer in a step shows there
 * while collectives give every rank the same period; -1 when there are none. */
gint64
suanli_analysis_median_step (GArray *steps)
{
  g_autoptr(GArray) durations = g_array_sized_new (FALSE, FALSE, sizeof (gint64), steps->len);

  if (steps->len == 0)
    return -1;
  for (guint i = 0; i < steps->len; i++)
    g_array_append_val (durations, g_array_index (steps, SuanliStepStats, i).cpu_ns);
  g_array_sort (durations, suanli_compare_int64);
  return g_array_index (durations, gint64, durations->len / 2);
}
