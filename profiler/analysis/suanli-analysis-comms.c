/* suanli-analysis-comms.c — communication kernels by collective, with the bandwidth they reached
 *
 * The collective comes from the kernel's name (ncclKernel_AllReduce_…, ncclDevKernel_SendRecv_…).
 * The message size comes from the record_param_comms operator around the CPU launch, where PyTorch
 * writes "In msg nelems", "Out msg nelems", "dtype" and "Group size". Bandwidths follow nccl-tests'
 * definitions: algorithm bandwidth is bytes ÷ time (the larger of input and output, which is the
 * whole gathered or scattered buffer); bus bandwidth is that times 2(n−1)/n for all-reduce, (n−1)/n
 * for all-gather, reduce-scatter and all-to-all, and 1 for broadcast, reduce and send/receive.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>

#include "suanli-analysis-private.h"

/* "AllReduce" from "ncclDevKernel_AllReduce_Sum_f32_RING_LL(…)"; the name up to its arguments
 * when it does not follow that pattern. */
char *
suanli_analysis_collective_name (const char *kernel)
{
  const char *start = strstr (kernel, "Kernel_");
  gsize length;

  start = start != NULL ? start + strlen ("Kernel_") : kernel;
  length = strcspn (start, "(_");
  return g_strndup (start, length > 0 ? length : strcspn (kernel, "("));
}

/* The multiplier from algorithm to bus bandwidth; 0 when it depends on an unknown group size. */
double
suanli_analysis_bus_factor (const char *collective,
                            int         group_size)
{
  g_autofree char *lower = g_ascii_strdown (collective, -1);
  g_autoptr(GString) key = g_string_new (NULL);
  double n = group_size;

  for (const char *c = lower; *c != '\0'; c++)
    if (g_ascii_isalpha (*c))
      g_string_append_c (key, *c);
  if (g_str_equal (key->str, "broadcast") || g_str_equal (key->str, "reduce") ||
      g_str_equal (key->str, "sendrecv") || g_str_equal (key->str, "send") || g_str_equal (key->str, "recv"))
    return 1;
  if (group_size <= 0)
    return 0;
  if (g_str_equal (key->str, "allreduce"))
    return 2 * (n - 1) / n;
  if (g_str_equal (key->str, "allgather") || g_str_equal (key->str, "reducescatter") ||
      g_str_equal (key->str, "alltoall") || g_str_equal (key->str, "alltoallv"))
    return (n - 1) / n;
  return 0;
}

/* Bytes per element of PyTorch's dtype names ("Float", "BFloat16", "Long" …); 0 when unknown. */
static int
dtype_size (const char *dtype)
{
  static const struct { const char *name; int size; } sizes[] = {
    { "double", 8 }, { "float64", 8 }, { "long", 8 }, { "int64", 8 }, { "uint64", 8 }, { "complexfloat", 8 },
    { "float", 4 }, { "float32", 4 }, { "int", 4 }, { "int32", 4 }, { "uint32", 4 },
    { "half", 2 }, { "float16", 2 }, { "bfloat16", 2 }, { "short", 2 }, { "int16", 2 }, { "uint16", 2 },
    { "byte", 1 }, { "char", 1 }, { "bool", 1 }, { "int8", 1 }, { "uint8", 1 },
  };
  g_autofree char *lower = g_ascii_strdown (dtype, -1);

  if (g_str_has_prefix (lower, "float8"))
    return 1;
  for (guint i = 0; i < G_N_ELEMENTS (sizes); i++)
    if (g_str_equal (lower, sizes[i].name))
      return sizes[i].size;
  return 0;
}

static const char *
find_arg_string (SuanliTrace       *trace,
                 const SuanliSlice *slice,
                 const char        *key)
{
  const SuanliArg *args = suanli_trace_get_args (trace, slice);

  for (guint i = 0; i < slice->n_args; i++)
    if (args[i].type == SUANLI_ARG_STRING && g_str_equal (suanli_trace_get_string (trace, args[i].key), key))
      return suanli_trace_get_string (trace, args[i].s);
  return NULL;
}

/* The message of a collective, from the record_param_comms around @launch on its thread. */
static gboolean
message_of (SuanliTrace *trace,
            SuanliTrack *thread,
            guint        launch,
            guint64     *bytes,
            int         *group_size)
{
  guint depth = g_array_index (thread->slices, SuanliSlice, launch).depth;
  gint64 start = g_array_index (thread->slices, SuanliSlice, launch).start;

  /* Ancestors are the slices before it, at lower depths, that still cover it. */
  for (guint i = launch; i-- > 0 && depth > 0;)
    {
      SuanliSlice *slice = &g_array_index (thread->slices, SuanliSlice, i);
      gint64 in = 0, out = 0, size = 0;
      const char *dtype;

      if (slice->depth >= depth || slice->start + slice->duration < start)
        continue;
      depth = slice->depth;
      if (!suanli_trace_find_arg_int (trace, slice, "In msg nelems", &in) &&
          !suanli_trace_find_arg_int (trace, slice, "Out msg nelems", &out))
        continue;
      suanli_trace_find_arg_int (trace, slice, "Out msg nelems", &out);
      dtype = find_arg_string (trace, slice, "dtype");
      if (dtype == NULL || dtype_size (dtype) == 0 || MAX (in, out) <= 0)
        return FALSE;
      *bytes = (guint64) MAX (in, out) * (guint64) dtype_size (dtype);
      if (suanli_trace_find_arg_int (trace, slice, "Group size", &size) && size > 0 && size <= G_MAXINT)
        *group_size = (int) size;
      return TRUE;
    }
  return FALSE;
}

/* Returns: (transfer full): SuanliCollectiveStats per file and collective, in order of appearance.
 * Where the trace gives no group size, the file's world size stands in (the default group). */
GArray *
suanli_analysis_collectives (SuanliTrace *trace)
{
  g_autoptr(GHashTable) by_key = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  GArray *result = g_array_new (FALSE, TRUE, sizeof (SuanliCollectiveStats));
  GArray *flows = suanli_trace_get_flows (trace);
  guint32 **launches = suanli_analysis_launch_table (trace);
  g_autoptr(SuanliClassifier) classifier = suanli_classifier_new (trace);

  for (guint t = 0; t < suanli_trace_get_n_tracks (trace); t++)
    {
      SuanliTrack *track = suanli_trace_get_track (trace, t);

      if (track->kind != SUANLI_TRACK_GPU_STREAM)
        continue;
      for (guint s = 0; s < track->slices->len; s++)
        {
          SuanliSlice *slice = &g_array_index (track->slices, SuanliSlice, s);
          g_autofree char *collective = NULL;
          g_autofree char *key = NULL;
          SuanliCollectiveStats *stats;
          gpointer found;
          guint64 bytes = 0;
          int group_size = 0;

          if (suanli_classifier_work (classifier, slice) != SUANLI_GPU_WORK_KERNEL ||
              !suanli_classifier_is_communication (classifier, slice))
            continue;
          collective = suanli_analysis_collective_name (suanli_trace_get_string (trace, slice->name));
          key = g_strdup_printf ("%u:%s", track->group, collective);
          found = g_hash_table_lookup (by_key, key);
          if (found == NULL)
            {
              SuanliCollectiveStats fresh = { track->group };

              g_strlcpy (fresh.collective, collective, sizeof fresh.collective);
              g_array_append_val (result, fresh);
              found = GUINT_TO_POINTER (result->len);
              g_hash_table_insert (by_key, g_steal_pointer (&key), found);
            }
          stats = &g_array_index (result, SuanliCollectiveStats, GPOINTER_TO_UINT (found) - 1);
          stats->count++;
          stats->total_ns += slice->duration;
          if (launches[t] != NULL && launches[t][s] != 0)
            {
              SuanliFlow *flow = &g_array_index (flows, SuanliFlow, launches[t][s] - 1);

              if (message_of (trace, suanli_trace_get_track (trace, flow->from_track), flow->from_slice, &bytes,
                              &group_size))
                {
                  stats->sized++;
                  stats->bytes += bytes;
                  stats->sized_ns += slice->duration;
                  if (group_size > 0)
                    stats->group_size = group_size;
                }
            }
        }
    }
  for (guint i = 0; i < result->len; i++)
    {
      SuanliCollectiveStats *stats = &g_array_index (result, SuanliCollectiveStats, i);
      SuanliGroup *group = suanli_trace_get_group (trace, stats->group);

      if (stats->group_size == 0 && group != NULL)
        stats->group_size = group->world_size;
      if (stats->sized_ns > 0)
        {
          stats->algbw_gbps = (double) stats->bytes / (double) stats->sized_ns;   /* bytes per ns = GB/s */
          stats->busbw_gbps = stats->algbw_gbps *
                              suanli_analysis_bus_factor (stats->collective,
                                                          stats->group_size);
        }
    }
  suanli_analysis_launch_table_free (trace, launches);
  return result;
}
