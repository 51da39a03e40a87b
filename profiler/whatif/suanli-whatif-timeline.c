/* suanli-whatif-timeline.c — the projected timeline: the replayed file's processes and their
 * thread and stream tracks, each slice at its replayed time (a node's own, else through its track's
 * time map), and the flows between them
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>

#include "suanli-whatif-timeline.h"

#define NONE G_MAXUINT32

/* Maps a thread's or stream's measured times to replayed ones: exact at its nodes' starts and
 * ends, linear between them, shifted beyond them. */
typedef struct
{
  GArray *measured;   /* of gint64, non-decreasing */
  GArray *replayed;
} TimeMap;

static gint64
map_time (const TimeMap *map,
          gint64         time)
{
  guint low = 0, high;
  gint64 m0, r0, m1, r1;

  if (map->measured == NULL || map->measured->len == 0)
    return time;
  high = map->measured->len;
  while (low < high)
    {
      guint middle = (low + high) / 2;

      if (g_array_index (map->measured, gint64, middle) <= time)
        low = middle + 1;
      else
        high = middle;
    }
  if (low == 0)
    return g_array_index (map->replayed, gint64, 0) - (g_array_index (map->measured, gint64, 0) - time);
  m0 = g_array_index (map->measured, gint64, low - 1);
  r0 = g_array_index (map->replayed, gint64, low - 1);
  if (low == map->measured->len)
    return r0 + (time - m0);
  m1 = g_array_index (map->measured, gint64, low);
  r1 = g_array_index (map->replayed, gint64, low);
  if (m1 <= m0)
    return r0;
  if (r1 - r0 == m1 - m0)
    return r0 + (time - m0);
  return r0 + (gint64) llround ((double) (time - m0) * (double) (r1 - r0) / (double) (m1 - m0));
}

/* A slice at its projected time, and its index in the measured track. */
typedef struct
{
  SuanliSlice slice;
  guint32     original;
} Moved;

/* The trace's own order (at equal start the longer first), which GLib's stable sort keeps: the
 * projected track is appended in it, so that finishing the trace does not move its slices. */
static int
compare_moved (gconstpointer a,
               gconstpointer b)
{
  const Moved *x = a, *y = b;

  if (x->slice.start != y->slice.start)
    return x->slice.start < y->slice.start ? -1 : 1;
  return (x->slice.duration < y->slice.duration) - (x->slice.duration > y->slice.duration);
}

/* What copying the replayed file into the projected trace carries from one stage to the next. */
typedef struct
{
  SuanliTrace       *trace;
  guint              group;
  SuanliReplayGraph *graph;
  const gint64      *starts;        /* per node: replayed */
  const gint64      *ends;
  SuanliTrace       *projected;
  guint              n_tracks;
  guint32           *strings;       /* the trace's string → the projected one's; 0: not copied yet */
  TimeMap           *maps;          /* per track */
  guint             *new_tracks;    /* per copied track: its copy */
  guint32          **new_slices;    /* per copied track: slice → its copy's; NULL for the others */
  GArray            *args;          /* of SuanliArg: one slice's, reused */
  GArray            *moved;         /* of Moved: one track's, reused */
} TimelineCopy;

static SuanliString
copy_text (TimelineCopy *copy,
           SuanliString  string)
{
  if (string == 0)
    return 0;
  if (copy->strings[string] == 0)
    copy->strings[string] = suanli_trace_intern (copy->projected, suanli_trace_get_string (copy->trace, string), -1);
  return copy->strings[string];
}

static void
copy_group (TimelineCopy *copy)
{
  SuanliGroup *source = suanli_trace_get_group (copy->trace, copy->group);
  guint new_group;
  SuanliGroup *group;

  new_group = suanli_trace_begin_group (copy->projected,
                                        source != NULL ? suanli_trace_get_string (copy->trace, source->name) : "");
  if (source == NULL)
    return;
  group = suanli_trace_get_group (copy->projected, new_group);
  group->rank = source->rank;
  group->world_size = source->world_size;
  group->device = copy_text (copy, source->device);
  group->device_memory = source->device_memory;
  group->capture = source->capture;
}

static void
copy_processes (TimelineCopy *copy)
{
  for (guint p = 0; p < suanli_trace_get_n_processes (copy->trace); p++)
    {
      SuanliProcess *process = suanli_trace_get_process (copy->trace, p);
      SuanliProcess *new_process;

      if (process->group != copy->group)
        continue;
      new_process = suanli_trace_ensure_process (copy->projected, process->pid);
      new_process->name = copy_text (copy, process->name);
      new_process->labels = copy_text (copy, process->labels);
      new_process->sort_index = process->sort_index;
      new_process->rank = process->rank;
    }
}

/* Each track's time map, from its nodes' measured and replayed starts and ends. */
static void
build_time_maps (TimelineCopy *copy)
{
  const SuanliReplayNode *nodes = suanli_replay_graph_get_nodes (copy->graph);

  for (guint n = 0; n < suanli_replay_graph_get_n_nodes (copy->graph); n++)
    {
      TimeMap *map = &copy->maps[nodes[n].track];
      gint64 last;

      if (map->measured == NULL)
        {
          map->measured = g_array_new (FALSE, FALSE, sizeof (gint64));
          map->replayed = g_array_new (FALSE, FALSE, sizeof (gint64));
        }
      last = map->measured->len > 0 ? g_array_index (map->measured, gint64, map->measured->len - 1) : G_MININT64;
      /* Kept non-decreasing, so that the map can be searched: work that overlaps on one stream adds only its end. */
      if (nodes[n].start >= last)
        {
          g_array_append_val (map->measured, nodes[n].start);
          g_array_append_val (map->replayed, copy->starts[n]);
        }
      if (nodes[n].start + nodes[n].duration >= MAX (last, nodes[n].start))
        {
          gint64 end = nodes[n].start + nodes[n].duration;

          g_array_append_val (map->measured, end);
          g_array_append_val (map->replayed, copy->ends[n]);
        }
    }
}

static void
free_time_maps (TimelineCopy *copy)
{
  for (guint t = 0; t < copy->n_tracks; t++)
    if (copy->maps[t].measured != NULL)
      {
        g_array_unref (copy->maps[t].measured);
        g_array_unref (copy->maps[t].replayed);
      }
}

/* @slice's args with their strings in the projected trace, or G_MAXUINT32 when it has none. */
static guint32
copy_args (TimelineCopy      *copy,
           const SuanliSlice *slice)
{
  const SuanliArg *from = suanli_trace_get_args (copy->trace, slice);

  if (from == NULL)
    return G_MAXUINT32;
  g_array_set_size (copy->args, 0);
  for (guint a = 0; a < slice->n_args; a++)
    {
      SuanliArg arg = from[a];

      arg.key = copy_text (copy, arg.key);
      if (arg.type == SUANLI_ARG_STRING)
        arg.s = copy_text (copy, arg.s);
      g_array_append_val (copy->args, arg);
    }
  return suanli_trace_add_args (copy->projected, (const SuanliArg *) copy->args->data, copy->args->len);
}

/* Slice @s of track @t at its replayed time: a node's own, else through the track's time map. */
static SuanliSlice
move_slice (TimelineCopy *copy,
            guint         t,
            guint         s)
{
  const SuanliSlice *slice = &g_array_index (suanli_trace_get_track (copy->trace, t)->slices, SuanliSlice, s);
  guint32 n = suanli_replay_graph_find_node (copy->graph, t, s);
  SuanliSlice moved = *slice;
  gint64 end;

  if (n != NONE)
    {
      moved.start = copy->starts[n];
      end = copy->ends[n];
    }
  else
    {
      moved.start = map_time (&copy->maps[t], slice->start);
      end = map_time (&copy->maps[t], slice->start + slice->duration);
    }
  moved.duration = MAX (0, end - moved.start);
  moved.name = copy_text (copy, slice->name);
  moved.category = copy_text (copy, slice->category);
  moved.depth = 0;
  moved.args = copy_args (copy, slice);
  return moved;
}

/* Track @t's copy, its slices moved and appended in the trace's own order. */
static void
copy_track (TimelineCopy *copy,
            guint         t)
{
  SuanliTrack *track = suanli_trace_get_track (copy->trace, t);
  SuanliTrack *new_track;

  new_track = suanli_trace_ensure_track (copy->projected, track->kind, track->pid, track->tid,
                                         copy_text (copy, track->name), &copy->new_tracks[t]);
  new_track->sort_index = track->sort_index;
  g_array_set_size (copy->moved, 0);
  for (guint s = 0; s < track->slices->len; s++)
    {
      Moved entry = { move_slice (copy, t, s), s };

      g_array_append_val (copy->moved, entry);
    }
  g_array_sort (copy->moved, compare_moved);
  copy->new_slices[t] = g_new (guint32, MAX (track->slices->len, 1));
  for (guint i = 0; i < copy->moved->len; i++)
    {
      Moved *entry = &g_array_index (copy->moved, Moved, i);

      copy->new_slices[t][entry->original] = new_track->slices->len;
      g_array_append_val (new_track->slices, entry->slice);
    }
}

/* The flows between copied slices. */
static void
copy_flows (TimelineCopy *copy)
{
  GArray *flows = suanli_trace_get_flows (copy->trace);

  for (guint f = 0; f < flows->len; f++)
    {
      const SuanliFlow *flow = &g_array_index (flows, SuanliFlow, f);

      if (flow->from_track < copy->n_tracks && flow->to_track < copy->n_tracks &&
          copy->new_slices[flow->from_track] != NULL && copy->new_slices[flow->to_track] != NULL &&
          flow->from_slice < suanli_trace_get_track (copy->trace, flow->from_track)->slices->len &&
          flow->to_slice < suanli_trace_get_track (copy->trace, flow->to_track)->slices->len)
        {
          SuanliFlow new_flow = { copy->new_tracks[flow->from_track], copy->new_slices[flow->from_track][flow->from_slice],
                                  copy->new_tracks[flow->to_track], copy->new_slices[flow->to_track][flow->to_slice],
                                  copy_text (copy, flow->category) };

          suanli_trace_add_flow (copy->projected, &new_flow);
        }
    }
}

/**
 * suanli_whatif_timeline_new:
 * @group: the file replayed on @graph
 * @starts: (array): per node of @graph, its replayed start
 * @ends: (array): per node, its replayed end
 *
 * Returns: (transfer full): @group's processes, threads and streams with their slices at their
 * replayed times, and the flows between them.
 */
SuanliTrace *
suanli_whatif_timeline_new (SuanliTrace       *trace,
                            guint              group,
                            SuanliReplayGraph *graph,
                            const gint64      *starts,
                            const gint64      *ends)
{
  guint n_tracks = suanli_trace_get_n_tracks (trace);
  TimelineCopy copy = { trace, group, graph, starts, ends, suanli_trace_new (), n_tracks };

  copy.strings = g_new0 (guint32, suanli_trace_get_n_strings (trace) + 1);
  copy.maps = g_new0 (TimeMap, MAX (n_tracks, 1));
  copy.new_tracks = g_new (guint, MAX (n_tracks, 1));
  copy.new_slices = g_new0 (guint32 *, MAX (n_tracks, 1));
  copy.args = g_array_new (FALSE, FALSE, sizeof (SuanliArg));
  copy.moved = g_array_new (FALSE, FALSE, sizeof (Moved));
  copy_group (&copy);
  copy_processes (&copy);
  build_time_maps (&copy);
  for (guint t = 0; t < n_tracks; t++)
    {
      SuanliTrack *track = suanli_trace_get_track (trace, t);

      if (track->group == group && (track->kind == SUANLI_TRACK_THREAD || track->kind == SUANLI_TRACK_GPU_STREAM))
        copy_track (&copy, t);
    }
  free_time_maps (&copy);
  suanli_trace_finish (copy.projected);
  copy_flows (&copy);
  for (guint t = 0; t < n_tracks; t++)
    g_free (copy.new_slices[t]);
  g_free (copy.new_slices);
  g_free (copy.new_tracks);
  g_free (copy.maps);
  g_free (copy.strings);
  g_array_unref (copy.args);
  g_array_unref (copy.moved);
  return copy.projected;
}
