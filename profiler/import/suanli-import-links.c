/* suanli-import-links.c — joining CPU launches to the GPU work they launched, for the importers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "suanli-import-links.h"

/* The slices some flow already ends at: a bit per slice, for each track one ends on. */
typedef struct
{
  guint8 **bits;   /* by track; NULL where no flow ends */
  guint    n_tracks;
} FlowEnds;

static void
flow_ends_init (FlowEnds    *ends,
                SuanliTrace *trace)
{
  GArray *flows = suanli_trace_get_flows (trace);

  ends->n_tracks = suanli_trace_get_n_tracks (trace);
  ends->bits = g_new0 (guint8 *, ends->n_tracks);
  for (guint i = 0; i < flows->len; i++)
    {
      const SuanliFlow *flow = &g_array_index (flows, SuanliFlow, i);
      guint n_slices;

      if (flow->to_track >= ends->n_tracks)
        continue;
      n_slices = suanli_trace_get_track (trace, flow->to_track)->slices->len;
      if (flow->to_slice >= n_slices)
        continue;
      if (ends->bits[flow->to_track] == NULL)
        ends->bits[flow->to_track] = g_new0 (guint8, n_slices / 8 + 1);
      ends->bits[flow->to_track][flow->to_slice / 8] |= (guint8) (1u << (flow->to_slice % 8));
    }
}

static gboolean
flow_ends_at (const FlowEnds *ends,
              guint           track,
              guint           slice)
{
  return ends->bits[track] != NULL && (ends->bits[track][slice / 8] & (1u << (slice % 8))) != 0;
}

static void
flow_ends_clear (FlowEnds *ends)
{
  for (guint t = 0; t < ends->n_tracks; t++)
    g_free (ends->bits[t]);
  g_free (ends->bits);
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

/* A launch: its slice, and the correlation id it gave its work (or that work, with the same id). */
typedef struct
{
  gint64  correlation;
  guint32 track, slice;   /* track EMPTY: an empty slot; NOT_FOUND: an id sought, no launch yet */
} Launch;

#define EMPTY     G_MAXUINT32
#define NOT_FOUND (G_MAXUINT32 - 1)

/* The launches of the correlation ids sought, by id. Ids are most often counted up from some
 * start, so they are held in a table indexed by the id less the least, when that is at most four
 * times as long as there are ids: kernels come in the order of their launches, and the table is
 * read in that order too. Otherwise (ids spread out, as a hostile file may) by open addressing over
 * a power of two of slots, at most half full; its hashed places were a cache miss per launch and
 * per kernel. */
typedef struct
{
  Launch *slots;
  gsize   mask;       /* hashed: slots less one; 0 when the table is by id */
  gint64  first;      /* by id: the least */
  guint64 span;       /* by id: slots */
} Launches;

static Launch *
launch_slot (const Launches *launches,
             gint64          correlation)
{
  gsize at = (gsize) (((guint64) correlation * G_GUINT64_CONSTANT (0x9e3779b97f4a7c15)) >> 32) & launches->mask;

  while (launches->slots[at].track != EMPTY && launches->slots[at].correlation != correlation)
    at = (at + 1) & launches->mask;
  return &launches->slots[at];
}

/* The slot of @correlation, when it is sought; else NULL. */
static Launch *
launches_find (const Launches *launches,
               gint64          correlation)
{
  Launch *launch;

  if (launches->mask == 0)
    {
      guint64 at = (guint64) correlation - (guint64) launches->first;

      launch = at < launches->span ? &launches->slots[at] : NULL;
    }
  else
    launch = launch_slot (launches, correlation);
  return launch != NULL && launch->track != EMPTY ? launch : NULL;
}

/* A slot for each correlation id of the GPU work in @sought, none with its launch yet. */
static void
launches_init (Launches     *launches,
               const GArray *sought)
{
  gint64 least = G_MAXINT64, most = G_MININT64;
  gsize n_slots;

  for (guint i = 0; i < sought->len; i++)
    {
      least = MIN (least, g_array_index (sought, Launch, i).correlation);
      most = MAX (most, g_array_index (sought, Launch, i).correlation);
    }
  if (sought->len > 0 && (guint64) most - (guint64) least < 4 * (guint64) sought->len + 1024)
    {
      *launches = (Launches) { NULL, 0, least, (guint64) most - (guint64) least + 1 };
      n_slots = (gsize) launches->span;
    }
  else
    {
      for (n_slots = 1024; n_slots < 2 * (gsize) sought->len;)
        n_slots *= 2;
      *launches = (Launches) { NULL, n_slots - 1, 0, 0 };
    }
  launches->slots = g_new (Launch, n_slots);
  for (gsize i = 0; i < n_slots; i++)
    launches->slots[i].track = EMPTY;
  for (guint i = 0; i < sought->len; i++)
    {
      gint64 correlation = g_array_index (sought, Launch, i).correlation;
      Launch *slot = launches->mask == 0 ? &launches->slots[(guint64) correlation - (guint64) least]
                                         : launch_slot (launches, correlation);

      *slot = (Launch) { correlation, NOT_FOUND, 0 };
    }
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
  g_autoptr(GHashTable) work_categories = g_hash_table_new (NULL, NULL);   /* category id + 1 → 1 yes, 2 no */
  SuanliString ac2g = suanli_trace_intern (trace, "ac2g", -1);
  g_autoptr(GArray) unlinked = g_array_new (FALSE, FALSE, sizeof (Launch));   /* GPU work, by its id */
  SuanliString key;
  Launches launches;
  FlowEnds linked;

  /* No slice has an argument no string of the trace spells. */
  if (!suanli_trace_lookup_string (trace, "correlation", &key))
    return;
  /* The GPU work no flow reaches yet first: in Kineto's traces flows reach all of it, and then no
   * CPU slice's arguments need reading. */
  flow_ends_init (&linked, trace);
  for (guint t = 0; t < suanli_trace_get_n_tracks (trace); t++)
    {
      SuanliTrack *track = suanli_trace_get_track (trace, t);

      if (track->kind != SUANLI_TRACK_GPU_STREAM || track->group != group)
        continue;
      for (guint s = 0; s < track->slices->len; s++)
        {
          const SuanliSlice *slice = &g_array_index (track->slices, SuanliSlice, s);
          gpointer category = GUINT_TO_POINTER (slice->category + 1);
          Launch work_slice = { 0, t, s };
          guint work;

          if (flow_ends_at (&linked, t, s))
            continue;
          work = GPOINTER_TO_UINT (g_hash_table_lookup (work_categories, category));
          if (work == 0)
            {
              work = is_gpu_work (suanli_trace_get_string (trace, slice->category)) ? 1 : 2;
              g_hash_table_insert (work_categories, category, GUINT_TO_POINTER (work));
            }
          if (work == 1 && suanli_trace_find_arg_int_id (trace, slice, key, &work_slice.correlation))
            g_array_append_val (unlinked, work_slice);
        }
    }
  flow_ends_clear (&linked);
  if (unlinked->len == 0)
    return;
  /* Only the ids of that work are looked for among the CPU slices: a table of every launch held
   * 21 MB for the 1 GB bench trace, whose unlinked work is a few copies. A later launch of the
   * same id takes the place of an earlier one. */
  launches_init (&launches, unlinked);
  for (guint t = 0; t < suanli_trace_get_n_tracks (trace); t++)
    {
      SuanliTrack *track = suanli_trace_get_track (trace, t);

      if (track->kind != SUANLI_TRACK_THREAD || track->group != group)
        continue;
      for (guint s = 0; s < track->slices->len; s++)
        {
          gint64 correlation;
          Launch *launch;

          if (suanli_trace_find_arg_int_id (trace, &g_array_index (track->slices, SuanliSlice, s), key, &correlation) &&
              (launch = launches_find (&launches, correlation)) != NULL)
            {
              launch->track = t;
              launch->slice = s;
            }
        }
    }
  for (guint i = 0; i < unlinked->len; i++)
    {
      const Launch *work = &g_array_index (unlinked, Launch, i);
      const Launch *launch = launches_find (&launches, work->correlation);

      if (launch != NULL && launch->track != NOT_FOUND)
        {
          SuanliFlow flow = { launch->track, launch->slice, work->track, work->slice, ac2g };

          suanli_trace_add_flow (trace, &flow);
        }
    }
  g_free (launches.slots);
}
