/* suanli-analysis.c — what a trace says: GPU time by kind of work, top kernels
 *
 * GPU time is measured as unions of intervals, not sums: kernels on concurrent streams overlap,
 * and a summed "busy" would exceed the wall clock. Communication kernels are told apart by name
 * (NCCL's and RCCL's), as HolisticTraceAnalysis does.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "suanli-analysis.h"

typedef enum {
  WORK_NONE,
  WORK_KERNEL,
  WORK_MEMCPY,
  WORK_MEMSET,
} WorkKind;

typedef struct
{
  gint64 start;
  gint64 end;
} Interval;

static WorkKind
work_kind (SuanliTrace       *trace,
           const SuanliSlice *slice)
{
  const char *category = suanli_trace_get_string (trace, slice->category);

  if (g_str_equal (category, "kernel") || g_str_equal (category, "Kernel"))
    return WORK_KERNEL;
  if (g_str_equal (category, "gpu_memcpy") || g_str_equal (category, "Memcpy"))
    return WORK_MEMCPY;
  if (g_str_equal (category, "gpu_memset") || g_str_equal (category, "Memset"))
    return WORK_MEMSET;
  return WORK_NONE;
}

/* Kernels, copies and memsets: the work that occupies a GPU (annotations on GPU tracks do not). */
gboolean
suanli_analysis_is_gpu_work (SuanliTrace       *trace,
                             const SuanliSlice *slice)
{
  return work_kind (trace, slice) != WORK_NONE;
}

static gboolean
is_communication (const char *name)
{
  g_autofree char *lower = g_ascii_strdown (name, -1);

  return strstr (lower, "nccl") != NULL || strstr (lower, "rccl") != NULL;
}

/* Kinds of work and communication, looked up once per distinct category and name: a trace has
 * millions of slices but a few hundred distinct strings. */
typedef struct
{
  SuanliTrace *trace;
  GHashTable  *kinds;           /* category + 1 → WorkKind + 1 */
  GHashTable  *communication;   /* name + 1 → TRUE + 1 or FALSE + 1 */
} Classifier;

static WorkKind
classify_work (Classifier        *classifier,
               const SuanliSlice *slice)
{
  gpointer key = GUINT_TO_POINTER (slice->category + 1);
  gpointer found = g_hash_table_lookup (classifier->kinds, key);
  WorkKind kind;

  if (found != NULL)
    return GPOINTER_TO_UINT (found) - 1;
  kind = work_kind (classifier->trace, slice);
  g_hash_table_insert (classifier->kinds, key, GUINT_TO_POINTER (kind + 1));
  return kind;
}

static gboolean
classify_communication (Classifier        *classifier,
                        const SuanliSlice *slice)
{
  gpointer key = GUINT_TO_POINTER (slice->name + 1);
  gpointer found = g_hash_table_lookup (classifier->communication, key);
  gboolean communication;

  if (found != NULL)
    return GPOINTER_TO_UINT (found) - 1;
  communication = is_communication (suanli_trace_get_string (classifier->trace, slice->name));
  g_hash_table_insert (classifier->communication, key, GUINT_TO_POINTER (communication + 1));
  return communication;
}

static int
compare_intervals (gconstpointer a,
                   gconstpointer b)
{
  const Interval *x = a, *y = b;

  return (x->start > y->start) - (x->start < y->start);
}

/* The length of the union of @intervals (sorted in place). */
static gint64
union_length (GArray *intervals)
{
  gint64 total = 0, start = 0, end = G_MININT64;

  g_array_sort (intervals, compare_intervals);
  for (guint i = 0; i < intervals->len; i++)
    {
      Interval *interval = &g_array_index (intervals, Interval, i);

      if (interval->start > end)
        {
          if (end > start)
            total += end - start;
          start = interval->start;
          end = interval->end;
        }
      else
        end = MAX (end, interval->end);
    }
  if (end > start)
    total += end - start;
  return total;
}

/* Returns: (transfer full): one SuanliGpuTime per GPU device, by device index. */
GArray *
suanli_analysis_gpu_time (SuanliTrace *trace)
{
  /* Devices are told apart by group (file, rank) and pid: "group:pid" → index + 1. */
  g_autoptr(GHashTable) devices = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_autoptr(GPtrArray) groups = g_ptr_array_new ();   /* per device: 5 arrays of Interval */
  g_autoptr(GArray) keys = g_array_new (FALSE, FALSE, sizeof (SuanliTrack *));
  GArray *result = g_array_new (FALSE, TRUE, sizeof (SuanliGpuTime));
  Classifier classifier = { trace, g_hash_table_new (NULL, NULL), g_hash_table_new (NULL, NULL) };

  for (guint t = 0; t < suanli_trace_get_n_tracks (trace); t++)
    {
      SuanliTrack *track = suanli_trace_get_track (trace, t);
      g_autofree char *device = NULL;
      GArray **lists;
      gpointer found;

      if (track->kind != SUANLI_TRACK_GPU_STREAM)
        continue;
      device = g_strdup_printf ("%u:%" G_GINT64_FORMAT, track->group, track->pid);
      found = g_hash_table_lookup (devices, device);
      if (found == NULL)
        {
          /* Interval lists: busy, kernels, communication, memcpy, memset. */
          lists = g_new0 (GArray *, 5);
          for (guint k = 0; k < 5; k++)
            lists[k] = g_array_new (FALSE, FALSE, sizeof (Interval));
          g_ptr_array_add (groups, lists);
          g_array_append_val (keys, track);
          found = GUINT_TO_POINTER (groups->len);
          g_hash_table_insert (devices, g_steal_pointer (&device), found);
        }
      lists = g_ptr_array_index (groups, GPOINTER_TO_UINT (found) - 1);
      for (guint s = 0; s < track->slices->len; s++)
        {
          SuanliSlice *slice = &g_array_index (track->slices, SuanliSlice, s);
          WorkKind kind = classify_work (&classifier, slice);
          Interval interval = { slice->start, slice->start + slice->duration };

          if (kind == WORK_NONE)
            continue;
          g_array_append_val (lists[0], interval);   /* busy */
          if (kind == WORK_KERNEL)
            {
              g_array_append_val (lists[1], interval);
              if (classify_communication (&classifier, slice))
                g_array_append_val (lists[2], interval);
            }
          else if (kind == WORK_MEMCPY)
            g_array_append_val (lists[3], interval);
          else
            g_array_append_val (lists[4], interval);
        }
    }

  for (guint d = 0; d < groups->len; d++)
    {
      GArray **lists = g_ptr_array_index (groups, d);
      SuanliTrack *first_track = g_array_index (keys, SuanliTrack *, d);
      SuanliGroup *group = suanli_trace_get_group (trace, first_track->group);
      SuanliGpuTime time = { first_track->pid, group != NULL ? group->rank : -1, first_track->group };
      gint64 first = G_MAXINT64, last = G_MININT64;

      for (guint i = 0; i < lists[0]->len; i++)
        {
          first = MIN (first, g_array_index (lists[0], Interval, i).start);
          last = MAX (last, g_array_index (lists[0], Interval, i).end);
        }
      time.span_ns = lists[0]->len > 0 ? last - first : 0;
      time.busy_ns = union_length (lists[0]);
      time.kernel_ns = union_length (lists[1]);
      time.comm_ns = union_length (lists[2]);
      time.memcpy_ns = union_length (lists[3]);
      time.memset_ns = union_length (lists[4]);
      time.idle_ns = time.span_ns - time.busy_ns;
      g_array_append_val (result, time);
      for (guint k = 0; k < 5; k++)
        g_array_unref (lists[k]);
      g_free (lists);
    }
  g_hash_table_unref (classifier.kinds);
  g_hash_table_unref (classifier.communication);
  return result;
}

static int
compare_total_descending (gconstpointer a,
                          gconstpointer b)
{
  const SuanliKernelStats *x = a, *y = b;

  return (x->total_ns < y->total_ns) - (x->total_ns > y->total_ns);
}

/* Returns: (transfer full): per kernel name (verbatim), its count and times, by total descending. */
GArray *
suanli_analysis_top_kernels (SuanliTrace *trace)
{
  g_autoptr(GHashTable) by_name = g_hash_table_new (NULL, NULL);
  GArray *result = g_array_new (FALSE, TRUE, sizeof (SuanliKernelStats));

  for (guint t = 0; t < suanli_trace_get_n_tracks (trace); t++)
    {
      SuanliTrack *track = suanli_trace_get_track (trace, t);

      if (track->kind != SUANLI_TRACK_GPU_STREAM)
        continue;
      for (guint s = 0; s < track->slices->len; s++)
        {
          SuanliSlice *slice = &g_array_index (track->slices, SuanliSlice, s);
          gpointer found;
          SuanliKernelStats *stats;

          if (work_kind (trace, slice) != WORK_KERNEL)
            continue;
          found = g_hash_table_lookup (by_name, GUINT_TO_POINTER (slice->name + 1));
          if (found == NULL)
            {
              SuanliKernelStats fresh = { slice->name, 0, 0, G_MAXINT64, 0 };

              g_array_append_val (result, fresh);
              found = GUINT_TO_POINTER (result->len);
              g_hash_table_insert (by_name, GUINT_TO_POINTER (slice->name + 1), found);
            }
          stats = &g_array_index (result, SuanliKernelStats, GPOINTER_TO_UINT (found) - 1);
          stats->count++;
          stats->total_ns += slice->duration;
          stats->min_ns = MIN (stats->min_ns, slice->duration);
          stats->max_ns = MAX (stats->max_ns, slice->duration);
        }
    }
  g_array_sort (result, compare_total_descending);
  return result;
}
