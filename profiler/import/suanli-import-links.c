/* suanli-import-links.c — joining CPU launches to the GPU work they launched, for the importers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "suanli-import-links.h"

/* A track and slice as one hash key: exact where pointers have 64 bits. */
static gpointer
slice_key (guint32 track,
           guint32 slice)
{
  return GSIZE_TO_POINTER (((gsize) track << (sizeof (gsize) > 4 ? 32 : 20)) ^ slice);
}

/* Kineto's categories for work on the GPU (and their names in older traces). A stream's row holds
 * syncs too, which carry correlation ids but were not launched. */
static gboolean
is_gpu_work (const char *category)
{
  static const char * const gpu[] = {
    "kernel", "gpu_memcpy", "gpu_memset", "gpu_user_annotation", "Kernel", "Memcpy", "Memset",
    "mtia_ccp_events",
  };

  for (guint i = 0; i < G_N_ELEMENTS (gpu); i++)
    if (g_str_equal (category, gpu[i]))
      return TRUE;
  return FALSE;
}

/**
 * suanli_import_link_correlations:
 * @group: the file just read: every rank numbers its correlations from the same start, so links
 *   stay within one
 *
 * Adds an "ac2g" flow from each CPU slice with a "correlation" argument (a launch) to the GPU work
 * with the same one, where no flow joins them yet. Call after suanli_trace_finish().
 */
void
suanli_import_link_correlations (SuanliTrace *trace,
                                 guint        group)
{
  g_autoptr(GHashTable) launches = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, g_free);
  g_autoptr(GHashTable) linked = g_hash_table_new (g_direct_hash, g_direct_equal);
  g_autoptr(GHashTable) work_categories = g_hash_table_new (NULL, NULL);   /* category id + 1 → 1 yes, 2 no */
  SuanliString ac2g = suanli_trace_intern (trace, "ac2g", -1);
  GArray *flows = suanli_trace_get_flows (trace);

  for (guint i = 0; i < flows->len; i++)
    {
      SuanliFlow *flow = &g_array_index (flows, SuanliFlow, i);
      g_hash_table_add (linked, slice_key (flow->to_track, flow->to_slice));
    }
  for (guint t = 0; t < suanli_trace_get_n_tracks (trace); t++)
    {
      SuanliTrack *track = suanli_trace_get_track (trace, t);

      if (track->kind != SUANLI_TRACK_THREAD || track->group != group)
        continue;
      for (guint s = 0; s < track->slices->len; s++)
        {
          gint64 correlation;
          guint32 ends[2] = { t, s };

          if (suanli_trace_find_arg_int (trace, &g_array_index (track->slices, SuanliSlice, s), "correlation",
                                         &correlation))
            g_hash_table_replace (launches, g_memdup2 (&correlation, sizeof correlation), g_memdup2 (ends, sizeof ends));
        }
    }
  for (guint t = 0; t < suanli_trace_get_n_tracks (trace); t++)
    {
      SuanliTrack *track = suanli_trace_get_track (trace, t);

      if (track->kind != SUANLI_TRACK_GPU_STREAM || track->group != group)
        continue;
      for (guint s = 0; s < track->slices->len; s++)
        {
          const SuanliSlice *slice = &g_array_index (track->slices, SuanliSlice, s);
          gpointer key = GUINT_TO_POINTER (slice->category + 1);
          guint work = GPOINTER_TO_UINT (g_hash_table_lookup (work_categories, key));
          gint64 correlation;
          guint32 *launch;

          if (work == 0)
            {
              work = is_gpu_work (suanli_trace_get_string (trace, slice->category)) ? 1 : 2;
              g_hash_table_insert (work_categories, key, GUINT_TO_POINTER (work));
            }
          if (work != 1 || g_hash_table_contains (linked, slice_key (t, s)) ||
              !suanli_trace_find_arg_int (trace, slice, "correlation", &correlation) ||
              (launch = g_hash_table_lookup (launches, &correlation)) == NULL)
            continue;
          {
            SuanliFlow flow = { launch[0], launch[1], t, s, ac2g };
            suanli_trace_add_flow (trace, &flow);
          }
        }
    }
}
