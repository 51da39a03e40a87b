/* suanli-analysis-streams.c — GPU streams one by one: idle time by cause, and the launch queue
 *
 * HolisticTraceAnalysis (HTA) splits idle time per stream, between consecutive pieces of work; the
 * device figures (suanli-analysis.c) split the gaps in the union of a device's streams. Here the
 * same rule is applied to each stream's own union, so a stream's parts add up to its idle time.
 *
 * The queue of a stream is HTA's "queue length": work launched by the CPU and not yet finished on
 * the GPU. It rises by one when the launch call starts and falls by one when the work ends; work
 * no flow or correlation ties to a launch is not counted, as in HTA.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "suanli-analysis-private.h"

typedef struct
{
  gint64 time;
  int    change;   /* +1: launched, −1: finished */
} QueueStep;

static int
compare_steps (gconstpointer a,
               gconstpointer b)
{
  const QueueStep *x = a, *y = b;

  /* At one instant, work that ends leaves the queue before new work joins it. */
  if (x->time != y->time)
    return (x->time > y->time) - (x->time < y->time);
  return x->change - y->change;
}

/* Sorts @steps, all of one change, unless they come in order already, as a stream's launches and
 * ends most often do. */
static void
sort_unless_sorted (GArray *steps)
{
  for (guint i = 1; i < steps->len; i++)
    if (g_array_index (steps, QueueStep, i).time < g_array_index (steps, QueueStep, i - 1).time)
      {
        g_array_sort (steps, compare_steps);
        return;
      }
}

/* The queue's changes on track @t, sorted, from its GPU work with a recorded launch. Launches and
 * ends are sorted apart and merged: sorting them together was most of this. The arrays are sized
 * first and filled by index: GLib 2.74 divides at every append, and this appended three times per
 * kernel. */
static GArray *
queue_steps (SuanliTrace      *trace,
             SuanliClassifier *classifier,
             guint32         **launches,
             guint             t)
{
  SuanliTrack *track = suanli_trace_get_track (trace, t);
  g_autoptr(GArray) ins = g_array_sized_new (FALSE, FALSE, sizeof (QueueStep), track->slices->len);
  g_autoptr(GArray) outs = g_array_sized_new (FALSE, FALSE, sizeof (QueueStep), track->slices->len);
  GArray *steps;
  guint i = 0, o = 0, n = 0, k = 0;

  g_array_set_size (ins, track->slices->len);
  g_array_set_size (outs, track->slices->len);
  for (guint s = 0; s < track->slices->len; s++)
    {
      SuanliSlice *slice = &g_array_index (track->slices, SuanliSlice, s);
      gint64 launch = suanli_analysis_launch_time (trace, launches, t, s);

      if (launch == G_MININT64 || suanli_classifier_work (classifier, slice) == SUANLI_GPU_WORK_NONE)
        continue;
      g_array_index (ins, QueueStep, n) = (QueueStep) { launch, +1 };
      g_array_index (outs, QueueStep, n++) = (QueueStep) { slice->start + slice->duration, -1 };
    }
  g_array_set_size (ins, n);
  g_array_set_size (outs, n);
  sort_unless_sorted (ins);
  sort_unless_sorted (outs);
  steps = g_array_sized_new (FALSE, FALSE, sizeof (QueueStep), 2 * n);
  g_array_set_size (steps, 2 * n);
  while (i < n || o < n)
    {
      /* compare_steps' order: an end before a launch at the same instant. */
      if (o < n && (i == n || compare_steps (&g_array_index (outs, QueueStep, o), &g_array_index (ins, QueueStep, i)) <= 0))
        g_array_index (steps, QueueStep, k++) = g_array_index (outs, QueueStep, o++);
      else
        g_array_index (steps, QueueStep, k++) = g_array_index (ins, QueueStep, i++);
    }
  return steps;
}

/* The queue after each instant it changes at (of SuanliSample), from its sorted @steps. */
static GArray *
queue_samples (GArray *steps)
{
  GArray *samples = g_array_new (FALSE, FALSE, sizeof (SuanliSample));
  gint64 length = 0;

  for (guint i = 0; i < steps->len; i++)
    {
      QueueStep *step = &g_array_index (steps, QueueStep, i);
      SuanliSample sample = { step->time, 0 };

      length += step->change;
      sample.value = (double) length;
      /* Several changes at one instant are one sample: the length once they have all happened. */
      if (samples->len > 0 && g_array_index (samples, SuanliSample, samples->len - 1).time == step->time)
        g_array_index (samples, SuanliSample, samples->len - 1) = sample;
      else
        g_array_append_val (samples, sample);
    }
  return samples;
}

static void
queue_figures (SuanliStreamTime *stream,
               GArray           *steps)
{
  double area = 0, changes = 0;
  gint64 length = 0;

  stream->launched = steps->len / 2;
  for (guint i = 0; i < steps->len; i++)
    {
      QueueStep *step = &g_array_index (steps, QueueStep, i);

      if (i > 0)
        area += (double) length * (double) (step->time - g_array_index (steps, QueueStep, i - 1).time);
      length += step->change;
      changes += (double) length;
      stream->queue_max = MAX (stream->queue_max, length);
    }
  if (steps->len > 1)
    {
      gint64 span = g_array_index (steps, QueueStep, steps->len - 1).time - g_array_index (steps, QueueStep, 0).time;

      stream->queue_mean = span > 0 ? area / (double) span : 0;
    }
  /* HTA describes the series of values at each change (a row per launch and per end). */
  stream->queue_mean_of_changes = steps->len > 0 ? changes / steps->len : 0;
}

/* Returns: (transfer full): one SuanliStreamTime per GPU stream with work, in track order. */
GArray *
suanli_analysis_stream_time (SuanliTrace *trace)
{
  GArray *result = g_array_new (FALSE, TRUE, sizeof (SuanliStreamTime));
  g_autoptr(SuanliClassifier) classifier = suanli_classifier_new (trace);
  guint32 **launches = suanli_analysis_launch_table (trace);

  for (guint t = 0; t < suanli_trace_get_n_tracks (trace); t++)
    {
      SuanliTrack *track = suanli_trace_get_track (trace, t);
      SuanliGroup *group = suanli_trace_get_group (trace, track->group);
      g_autoptr(GArray) busy = NULL;
      g_autoptr(GArray) steps = NULL;
      SuanliStreamTime stream = { 0 };

      if (track->kind != SUANLI_TRACK_GPU_STREAM)
        continue;
      /* Room for all at once, and freed before the queue's steps are made: grown by doubling and
       * held with them, the stream's intervals were most of this analysis's memory. */
      busy = g_array_sized_new (FALSE, FALSE, sizeof (SuanliInterval), track->slices->len);
      for (guint s = 0; s < track->slices->len; s++)
        {
          SuanliSlice *slice = &g_array_index (track->slices, SuanliSlice, s);
          SuanliInterval interval = { slice->start, slice->start + slice->duration,
                                      suanli_analysis_launch_time (trace, launches, t, s) };

          if (suanli_classifier_work (classifier, slice) != SUANLI_GPU_WORK_NONE)
            g_array_append_val (busy, interval);
        }
      if (busy->len == 0)
        continue;
      stream.device = track->pid;
      stream.stream = track->tid;
      stream.track = t;
      stream.group = track->group;
      stream.rank = group != NULL ? group->rank : -1;
      stream.busy_ns = suanli_interval_merge (busy);
      stream.span_ns = g_array_index (busy, SuanliInterval, busy->len - 1).end - g_array_index (busy, SuanliInterval, 0).start;
      stream.idle_ns = stream.span_ns - stream.busy_ns;
      suanli_interval_split_idle (busy, &stream.host_wait_ns, &stream.short_gap_ns, &stream.other_idle_ns);
      g_clear_pointer (&busy, g_array_unref);
      steps = queue_steps (trace, classifier, launches, t);
      queue_figures (&stream, steps);
      g_array_append_val (result, stream);
    }
  suanli_analysis_launch_table_free (trace, launches);
  return result;
}

/**
 * suanli_analysis_queue_length:
 * @track: a GPU stream's track
 *
 * Returns: (transfer full): the stream's queue length (of SuanliSample) after each instant it
 * changes at; empty when none of its work has a recorded launch.
 */
GArray *
suanli_analysis_queue_length (SuanliTrace *trace,
                              guint        track)
{
  g_autoptr(SuanliClassifier) classifier = suanli_classifier_new (trace);
  guint32 **launches = suanli_analysis_launch_table (trace);
  g_autoptr(GArray) steps = queue_steps (trace, classifier, launches, track);

  suanli_analysis_launch_table_free (trace, launches);
  return queue_samples (steps);
}

/* Returns: (transfer full): the name of the counter of a stream's queue length. Like the memory
 * counters' names it is not translated: an exported trace read back finds it and adds no second. */
char *
suanli_queue_counter_name (gint64 stream)
{
  return g_strdup_printf ("Stream %" G_GINT64_FORMAT " queue length", stream);
}

/**
 * suanli_analysis_add_queue_counters:
 * @group: the group (file) whose streams get one
 *
 * Adds a counter track under each GPU stream's device for the stream's queue length, so the
 * timeline draws it, unless the trace has one by that name already (a trace Suanli exported).
 * Call with @group the trace's current group, once its flows are bound.
 */
void
suanli_analysis_add_queue_counters (SuanliTrace *trace,
                                    guint        group)
{
  guint n_tracks = suanli_trace_get_n_tracks (trace);
  g_autoptr(SuanliClassifier) classifier = suanli_classifier_new (trace);
  guint32 **launches = suanli_analysis_launch_table (trace);
  g_autoptr(GPtrArray) series = g_ptr_array_new_full (n_tracks, (GDestroyNotify) g_array_unref);

  /* Worked out first, as the launch table is sized to the tracks there are before the counters. */
  for (guint t = 0; t < n_tracks; t++)
    {
      SuanliTrack *track = suanli_trace_get_track (trace, t);
      g_autoptr(GArray) steps = NULL;

      if (track->kind != SUANLI_TRACK_GPU_STREAM || track->group != group)
        {
          g_ptr_array_add (series, g_array_new (FALSE, FALSE, sizeof (SuanliSample)));
          continue;
        }
      steps = queue_steps (trace, classifier, launches, t);
      g_ptr_array_add (series, queue_samples (steps));
    }
  suanli_analysis_launch_table_free (trace, launches);

  for (guint t = 0; t < n_tracks; t++)
    {
      SuanliTrack *track = suanli_trace_get_track (trace, t);
      GArray *samples = g_ptr_array_index (series, t);
      g_autofree char *name = NULL;
      SuanliTrack *counter;

      if (samples->len == 0)
        continue;
      name = suanli_queue_counter_name (track->tid);
      counter = suanli_trace_ensure_track (trace, SUANLI_TRACK_COUNTER, track->pid, 0,
                                           suanli_trace_intern (trace, name, -1), NULL);
      /* The samples come sorted: the track needs no finishing. */
      if (counter->samples->len == 0)
        g_array_append_vals (counter->samples, samples->data, samples->len);
    }
}
