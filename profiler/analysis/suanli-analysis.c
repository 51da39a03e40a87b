/* suanli-analysis.c — what a trace says: GPU time by kind of work and idle time by cause, top kernels
 *
 * GPU time is measured as unions of intervals, not sums: kernels on concurrent streams overlap,
 * and a summed "busy" would exceed the wall clock. Communication kernels are told apart by name
 * (NCCL's and RCCL's), as HolisticTraceAnalysis (HTA) does. Idle time is split by HTA's rule,
 * applied to the gaps in a device's union of work rather than per stream, so that the parts add up
 * to the idle time: a gap is host wait when the CPU launched the work after it only once the gap
 * had begun; else kernel wait when shorter than SUANLI_SHORT_GAP_NS; else other.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>
#include <glib/gi18n.h>

#include "suanli-analysis-private.h"

/* Sorts @intervals by start, equal starts kept in their order (as g_array_sort() keeps them: the
 * merge keeps the first one's launch). They come as runs already sorted, a stream's work each, so
 * the runs are found and merged two by two, a pass over them each time their number halves; a
 * general sort of them was most of the GPU time figures. */
static void
sort_by_start (GArray *intervals)
{
  guint n = intervals->len, n_runs = 0;
  g_autofree guint *runs = NULL;   /* where each run begins, then @n */
  g_autofree SuanliInterval *spare = NULL;
  SuanliInterval *from = (SuanliInterval *) (gpointer) intervals->data, *to;

  for (guint i = 1; i < n; i++)
    n_runs += from[i].start < from[i - 1].start;
  if (n_runs == 0)
    return;
  runs = g_new (guint, n_runs + 2);
  runs[0] = 0;
  n_runs = 1;
  for (guint i = 1; i < n; i++)
    if (from[i].start < from[i - 1].start)
      runs[n_runs++] = i;
  runs[n_runs] = n;
  spare = g_new (SuanliInterval, n);
  to = spare;
  while (n_runs > 1)
    {
      guint merged = 0;

      for (guint r = 0; r < n_runs; r += 2)
        {
          guint left = runs[r], middle = r + 1 < n_runs ? runs[r + 1] : n, right = r + 2 <= n_runs ? runs[r + 2] : n;
          guint i = left, j = middle, out = left;

          /* Left first on a tie: equal starts keep their order. */
          while (i < middle && j < right)
            to[out++] = from[j].start < from[i].start ? from[j++] : from[i++];
          while (i < middle)
            to[out++] = from[i++];
          while (j < right)
            to[out++] = from[j++];
          runs[merged++] = left;
        }
      runs[merged] = n;
      n_runs = merged;
      {
        SuanliInterval *swap = from;

        from = to;
        to = swap;
      }
    }
  if (from != (SuanliInterval *) (gpointer) intervals->data)
    memcpy (intervals->data, from, n * sizeof (SuanliInterval));
}

/* Sorts @intervals and merges them in place into disjoint ones, each keeping the launch time of the
 * first interval in it. Returns: the length of their union. */
gint64
suanli_interval_merge (GArray *intervals)
{
  gint64 total = 0;
  guint kept = 0;

  sort_by_start (intervals);
  for (guint i = 0; i < intervals->len; i++)
    {
      SuanliInterval interval = g_array_index (intervals, SuanliInterval, i);
      SuanliInterval *last = kept > 0 ? &g_array_index (intervals, SuanliInterval, kept - 1) : NULL;

      if (last != NULL && interval.start <= last->end)
        last->end = MAX (last->end, interval.end);
      else
        g_array_index (intervals, SuanliInterval, kept++) = interval;
    }
  g_array_set_size (intervals, kept);
  for (guint i = 0; i < kept; i++)
    total += g_array_index (intervals, SuanliInterval, i).end - g_array_index (intervals, SuanliInterval, i).start;
  return total;
}

/* How much of [@from, @to) the disjoint, sorted @merged intervals cover. */
gint64
suanli_interval_covered (GArray *merged,
                         gint64  from,
                         gint64  to)
{
  guint low = 0, high = merged->len;
  gint64 covered = 0;

  /* The first interval ending after @from: ends are sorted too, as the intervals are disjoint. */
  while (low < high)
    {
      guint middle = (low + high) / 2;

      if (g_array_index (merged, SuanliInterval, middle).end <= from)
        low = middle + 1;
      else
        high = middle;
    }
  for (guint i = low; i < merged->len; i++)
    {
      SuanliInterval *interval = &g_array_index (merged, SuanliInterval, i);

      if (interval->start >= to)
        break;
      covered += MIN (interval->end, to) - MAX (interval->start, from);
    }
  return covered;
}

/* For sorting arrays of gint64. */
int
suanli_compare_int64 (gconstpointer a,
                      gconstpointer b)
{
  gint64 x = *(const gint64 *) a, y = *(const gint64 *) b;

  return (x > y) - (x < y);
}

/* Sorts an array of gint64 ascending: a radix sort, a byte at a time from the lowest, passing over
 * the bytes every value shares (a trace's times share their highest ones). The delays and kernel
 * starts of a large trace are millions of values, and a sort calling a comparison for each pair
 * was a fifth of its figures' time. */
void
suanli_sort_int64 (GArray *values)
{
  const guint64 sign = G_GUINT64_CONSTANT (1) << 63;   /* flipped: negative values order first */
  guint n = values->len;
  guint64 *data = (guint64 *) (gpointer) values->data, *from = data, *to;
  g_autofree guint64 *spare = NULL;
  g_autofree guint *counts = NULL;   /* per byte, from the lowest: 256 counts, then places */

  if (n < 256)
    {
      g_array_sort (values, suanli_compare_int64);
      return;
    }
  counts = g_new0 (guint, 8 * 256);
  for (guint i = 0; i < n; i++)
    for (guint b = 0; b < 8; b++)
      counts[256 * b + (((data[i] ^ sign) >> (8 * b)) & 0xff)]++;
  to = spare = g_new (guint64, n);
  for (guint b = 0; b < 8; b++)
    {
      guint place = 0;
      guint64 *written;

      if (counts[256 * b + (((from[0] ^ sign) >> (8 * b)) & 0xff)] == n)
        continue;   /* every value has this byte */
      for (guint digit = 0; digit < 256; digit++)
        {
          guint count = counts[256 * b + digit];

          counts[256 * b + digit] = place;
          place += count;
        }
      for (guint i = 0; i < n; i++)
        to[counts[256 * b + (((from[i] ^ sign) >> (8 * b)) & 0xff)]++] = from[i];
      written = to;
      to = from;
      from = written;
    }
  if (from != data)
    memcpy (data, from, (gsize) n * sizeof (guint64));
}

/* The entry of @entries for @name, found through @index (name + 1 → position + 1), or appended as
 * a copy of @fresh when there is none yet. */
gpointer
suanli_analysis_entry (GArray        *entries,
                       GHashTable    *index,
                       SuanliString   name,
                       gconstpointer  fresh)
{
  gpointer found = g_hash_table_lookup (index, GUINT_TO_POINTER (name + 1));

  if (found == NULL)
    {
      g_array_append_vals (entries, fresh, 1);
      found = GUINT_TO_POINTER (entries->len);
      g_hash_table_insert (index, GUINT_TO_POINTER (name + 1), found);
    }
  return entries->data + (gsize) (GPOINTER_TO_UINT (found) - 1) * g_array_get_element_size (entries);
}

/* Per track, per slice of a GPU stream: the index + 1 of the flow that launched it (0: none). */
guint32 **
suanli_analysis_launch_table (SuanliTrace *trace)
{
  guint n_tracks = suanli_trace_get_n_tracks (trace);
  guint32 **table = g_new0 (guint32 *, MAX (n_tracks, 1));
  GArray *flows = suanli_trace_get_flows (trace);

  for (guint f = 0; f < flows->len; f++)
    {
      SuanliFlow *flow = &g_array_index (flows, SuanliFlow, f);
      SuanliTrack *to = suanli_trace_get_track (trace, flow->to_track);
      SuanliTrack *from = suanli_trace_get_track (trace, flow->from_track);

      if (to->kind != SUANLI_TRACK_GPU_STREAM || from->kind != SUANLI_TRACK_THREAD)
        continue;
      if (table[flow->to_track] == NULL)
        table[flow->to_track] = g_new0 (guint32, to->slices->len);
      if (table[flow->to_track][flow->to_slice] == 0)
        table[flow->to_track][flow->to_slice] = f + 1;
    }
  return table;
}

void
suanli_analysis_launch_table_free (SuanliTrace  *trace,
                                   guint32     **table)
{
  for (guint t = 0; t < suanli_trace_get_n_tracks (trace); t++)
    g_free (table[t]);
  g_free (table);
}

/* When the CPU launched slice @s of track @t, or G_MININT64. */
gint64
suanli_analysis_launch_time (SuanliTrace *trace,
             guint32    **launches,
             guint        t,
             guint        s)
{
  SuanliFlow *flow;

  if (launches[t] == NULL || launches[t][s] == 0)
    return G_MININT64;
  flow = &g_array_index (suanli_trace_get_flows (trace), SuanliFlow, launches[t][s] - 1);
  return g_array_index (suanli_trace_get_track (trace, flow->from_track)->slices, SuanliSlice, flow->from_slice).start;
}

/* Splits the gaps between the merged intervals @busy by cause, adding to the three sums. */
void
suanli_interval_split_idle (GArray *busy,
                            gint64 *host_wait_ns,
                            gint64 *short_gap_ns,
                            gint64 *other_idle_ns)
{
  for (guint i = 1; i < busy->len; i++)
    {
      SuanliInterval *before = &g_array_index (busy, SuanliInterval, i - 1);
      SuanliInterval *after = &g_array_index (busy, SuanliInterval, i);
      gint64 gap = after->start - before->end;

      if (after->launch != G_MININT64 && after->launch >= before->end)
        *host_wait_ns += gap;
      else if (gap < SUANLI_SHORT_GAP_NS)
        *short_gap_ns += gap;
      else
        *other_idle_ns += gap;
    }
}

/* Whether GPU work of @kind (a communication kernel or not) belongs in @list. */
static gboolean
belongs_in (guint          list,
            SuanliGpuWork  kind,
            gboolean       communication)
{
  switch (list)
    {
    case SUANLI_WORK_BUSY:
      return kind != SUANLI_GPU_WORK_NONE;
    case SUANLI_WORK_KERNELS:
      return kind == SUANLI_GPU_WORK_KERNEL;
    case SUANLI_WORK_COMPUTE:
      return kind == SUANLI_GPU_WORK_KERNEL && !communication;
    case SUANLI_WORK_COMMUNICATION:
      return kind == SUANLI_GPU_WORK_KERNEL && communication;
    case SUANLI_WORK_MEMCPY:
      return kind == SUANLI_GPU_WORK_MEMCPY;
    case SUANLI_WORK_MEMSET:
      return kind == SUANLI_GPU_WORK_MEMSET;
    }
  return FALSE;
}

/* The intervals of the GPU work on @tracks (track indexes, guint), in their order and each track's,
 * not yet merged, each with its launch where @launches is given (else G_MININT64): those of each
 * list in @lists (a bit 1 << SuanliWorkList each) into @gathered at that list. A device's lists held
 * together were most of `trace summary`'s memory past the trace's own: callers gather a few lists
 * at a time, that no piece of work is in twice, and merge and free them before the next. */
void
suanli_analysis_gather_work (SuanliTrace      *trace,
                             SuanliClassifier *classifier,
                             guint32         **launches,
                             GArray           *tracks,
                             guint             lists,
                             GArray          **gathered)
{
  gsize most = 0;

  for (guint i = 0; i < tracks->len; i++)
    most += suanli_trace_get_track (trace, g_array_index (tracks, guint, i))->slices->len;
  /* Room for all at once (pages never written take no memory): grown by doubling, an array was
   * copied and its old block kept by malloc. */
  for (guint list = 0; list < SUANLI_WORK_N_LISTS; list++)
    if (lists & (1u << list))
      gathered[list] = g_array_sized_new (FALSE, FALSE, sizeof (SuanliInterval), (guint) MIN (most, G_MAXUINT / 2));
  for (guint i = 0; i < tracks->len; i++)
    {
      guint t = g_array_index (tracks, guint, i);
      SuanliTrack *track = suanli_trace_get_track (trace, t);

      for (guint s = 0; s < track->slices->len; s++)
        {
          const SuanliSlice *slice = &g_array_index (track->slices, SuanliSlice, s);
          SuanliGpuWork kind = suanli_classifier_work (classifier, slice);
          gboolean communication;
          SuanliInterval interval;

          if (kind == SUANLI_GPU_WORK_NONE)
            continue;
          communication = kind == SUANLI_GPU_WORK_KERNEL && suanli_classifier_is_communication (classifier, slice);
          interval = (SuanliInterval) { slice->start, slice->start + slice->duration,
                                        launches != NULL ? suanli_analysis_launch_time (trace, launches, t, s) : G_MININT64 };
          for (guint list = 0; list < SUANLI_WORK_N_LISTS; list++)
            if ((lists & (1u << list)) && belongs_in (list, kind, communication))
              g_array_append_val (gathered[list], interval);
        }
    }
}

/* The time the GPU work of each list in @lists on @tracks covers, into @covered at that list. */
static void
cover (SuanliTrace      *trace,
       SuanliClassifier *classifier,
       GArray           *tracks,
       guint             lists,
       gint64           *covered)
{
  GArray *gathered[SUANLI_WORK_N_LISTS] = { NULL };

  suanli_analysis_gather_work (trace, classifier, NULL, tracks, lists, gathered);
  for (guint list = 0; list < SUANLI_WORK_N_LISTS; list++)
    if (gathered[list] != NULL)
      {
        covered[list] = suanli_interval_merge (gathered[list]);
        g_array_unref (gathered[list]);
      }
}

/* The copies' counts, times and bytes by direction. */
static void
count_copies (SuanliTrace      *trace,
              SuanliClassifier *classifier,
              GArray           *tracks,
              SuanliGpuTime    *time)
{
  for (guint i = 0; i < tracks->len; i++)
    {
      SuanliTrack *track = suanli_trace_get_track (trace, g_array_index (tracks, guint, i));

      for (guint s = 0; s < track->slices->len; s++)
        {
          const SuanliSlice *slice = &g_array_index (track->slices, SuanliSlice, s);
          SuanliMemcpyStats *copies;
          gint64 bytes;

          if (suanli_classifier_work (classifier, slice) != SUANLI_GPU_WORK_MEMCPY)
            continue;
          copies = &time->memcpy[suanli_classifier_direction (classifier, slice)];
          copies->count++;
          copies->total_ns += slice->duration;
          if (suanli_trace_find_arg_int (trace, slice, "bytes", &bytes) && bytes >= 0)
            {
              copies->bytes += (guint64) bytes;
              copies->sized_ns += slice->duration;
            }
        }
    }
}

/* One device's figures, from its streams' @tracks. */
static void
device_time (SuanliTrace      *trace,
             SuanliClassifier *classifier,
             guint32         **launches,
             GArray           *tracks,
             SuanliGpuTime    *time)
{
  GArray *gathered[SUANLI_WORK_N_LISTS] = { NULL }, *busy;
  gint64 covered[SUANLI_WORK_N_LISTS] = { 0 };

  suanli_analysis_gather_work (trace, classifier, launches, tracks, 1u << SUANLI_WORK_BUSY, gathered);
  busy = gathered[SUANLI_WORK_BUSY];
  time->busy_ns = suanli_interval_merge (busy);
  time->span_ns = busy->len > 0 ? g_array_index (busy, SuanliInterval, busy->len - 1).end -
                                  g_array_index (busy, SuanliInterval, 0).start
                                : 0;
  time->idle_ns = time->span_ns - time->busy_ns;
  suanli_interval_split_idle (busy, &time->host_wait_ns, &time->short_gap_ns, &time->other_idle_ns);
  g_array_unref (busy);
  /* Two passes more, each of lists that share no work. */
  cover (trace, classifier, tracks,
         (1u << SUANLI_WORK_KERNELS) | (1u << SUANLI_WORK_MEMCPY) | (1u << SUANLI_WORK_MEMSET), covered);
  cover (trace, classifier, tracks, (1u << SUANLI_WORK_COMPUTE) | (1u << SUANLI_WORK_COMMUNICATION), covered);
  time->kernel_ns = covered[SUANLI_WORK_KERNELS];
  time->compute_ns = covered[SUANLI_WORK_COMPUTE];
  time->comm_ns = covered[SUANLI_WORK_COMMUNICATION];
  time->memcpy_ns = covered[SUANLI_WORK_MEMCPY];
  time->memset_ns = covered[SUANLI_WORK_MEMSET];
  count_copies (trace, classifier, tracks, time);
}

/* Returns: (transfer full): one SuanliGpuTime per GPU device, in the order devices first appear. */
GArray *
suanli_analysis_gpu_time (SuanliTrace *trace)
{
  /* Devices are told apart by group (file, rank) and pid: "group:pid" → index + 1. */
  g_autoptr(GHashTable) by_key = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_autoptr(GPtrArray) device_tracks = g_ptr_array_new_with_free_func ((GDestroyNotify) g_array_unref);
  GArray *result = g_array_new (FALSE, TRUE, sizeof (SuanliGpuTime));
  SuanliClassifier *classifier = suanli_classifier_new (trace);
  guint32 **launches = suanli_analysis_launch_table (trace);

  for (guint t = 0; t < suanli_trace_get_n_tracks (trace); t++)
    {
      SuanliTrack *track = suanli_trace_get_track (trace, t);
      g_autofree char *key = NULL;
      gpointer found;

      if (track->kind != SUANLI_TRACK_GPU_STREAM)
        continue;
      key = g_strdup_printf ("%u:%" G_GINT64_FORMAT, track->group, track->pid);
      found = g_hash_table_lookup (by_key, key);
      if (found == NULL)
        {
          SuanliGroup *group = suanli_trace_get_group (trace, track->group);
          SuanliGpuTime time = { .device = track->pid, .rank = group != NULL ? group->rank : -1, .group = track->group };

          g_array_append_val (result, time);
          g_ptr_array_add (device_tracks, g_array_new (FALSE, FALSE, sizeof (guint)));
          found = GUINT_TO_POINTER (device_tracks->len);
          g_hash_table_insert (by_key, g_steal_pointer (&key), found);
        }
      g_array_append_val (g_ptr_array_index (device_tracks, GPOINTER_TO_UINT (found) - 1), t);
    }
  for (guint d = 0; d < result->len; d++)
    device_time (trace, classifier, launches, g_ptr_array_index (device_tracks, d),
                 &g_array_index (result, SuanliGpuTime, d));
  suanli_analysis_launch_table_free (trace, launches);
  suanli_classifier_free (classifier);
  return result;
}

static int
compare_total_descending (gconstpointer a,
                          gconstpointer b)
{
  const SuanliKernelStats *x = a, *y = b;

  return (x->total_ns < y->total_ns) - (x->total_ns > y->total_ns);
}

/* How much of @slice lies in [@from, @to). */
gint64
suanli_analysis_overlap (const SuanliSlice *slice,
                         gint64             from,
                         gint64             to)
{
  gint64 start = MAX (slice->start, from);
  gint64 end = MIN (slice->start + slice->duration, to);

  return MAX (0, end - start);
}

/* Returns: (transfer full): per kernel name (verbatim), its count and times, by total descending. */
GArray *
suanli_analysis_top_kernels (SuanliTrace *trace)
{
  return suanli_analysis_top_kernels_in (trace, G_MININT64, G_MAXINT64);
}

/**
 * suanli_analysis_top_kernels_in:
 * @from, @to: a time range: kernels that overlap it count, for the part inside it
 *
 * Returns: (transfer full): as suanli_analysis_top_kernels(), within the range.
 */
GArray *
suanli_analysis_top_kernels_in (SuanliTrace *trace,
                                gint64       from,
                                gint64       to)
{
  g_autoptr(GHashTable) by_name = g_hash_table_new (NULL, NULL);
  GArray *result = g_array_new (FALSE, TRUE, sizeof (SuanliKernelStats));
  SuanliClassifier *classifier = suanli_classifier_new (trace);

  for (guint t = 0; t < suanli_trace_get_n_tracks (trace); t++)
    {
      SuanliTrack *track = suanli_trace_get_track (trace, t);

      if (track->kind != SUANLI_TRACK_GPU_STREAM)
        continue;
      for (guint s = 0; s < track->slices->len; s++)
        {
          SuanliSlice *slice = &g_array_index (track->slices, SuanliSlice, s);
          SuanliKernelStats fresh = { slice->name, 0, 0, G_MAXINT64, 0 };
          SuanliKernelStats *stats;

          gint64 duration = suanli_analysis_overlap (slice, from, to);

          if (suanli_classifier_work (classifier, slice) != SUANLI_GPU_WORK_KERNEL ||
              (duration == 0 && (slice->start < from || slice->start >= to)))
            continue;
          stats = suanli_analysis_entry (result, by_name, slice->name, &fresh);
          stats->count++;
          stats->total_ns += duration;
          stats->min_ns = MIN (stats->min_ns, duration);
          stats->max_ns = MAX (stats->max_ns, duration);
        }
    }
  suanli_classifier_free (classifier);
  g_array_sort (result, compare_total_descending);
  return result;
}
