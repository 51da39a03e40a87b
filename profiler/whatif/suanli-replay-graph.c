/* suanli-replay-graph.c — one file's (rank's) dependency graph, built from its trace alone, and its
 * replay with other durations
 *
 * Nodes: on each CPU thread its runtime and driver calls, the host's work between them (gaps) and
 * the ProfilerStep#N begin and end markers, as one chain; on each GPU stream its kernels, copies and
 * memsets in order. Edges: the chains' program order; a launch call → its work (flows, which the
 * importer also makes from correlation ids); stream order; a stream waiting on an event → the work
 * the event recorded; a blocking call's end → the work it waited on. A node starts only when its
 * predecessors allow (plus a delay per edge), never at its measured time, except the first node of
 * each chain and GPU work that nothing precedes. They are read from the trace in
 * suanli-replay-graph-read.c; this file sets the delays, orders the nodes and replays them.
 *
 * Delays are set so that the replay with the measured durations gives the measured times: of a GPU
 * node's incoming edges the one that bound it in the measurement (the one least above its kind's
 * typical delay) keeps its measured delay, the others get their kind's typical delay (the median of
 * the binding delays of that kind) or their measured one where that is smaller. A queued kernel then
 * starts earlier when its predecessor gets faster, down to its launch; a launch-bound one does not.
 * A blocking call ends at max(start + own time, waited work's end + its measured delay), its own time
 * being its measured duration less the time it waited.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <stdlib.h>

#include "suanli-replay-graph-private.h"
#include "suanli-replay-raw-edge.h"

#define NONE G_MAXUINT32

static int
compare_int64 (gconstpointer a,
               gconstpointer b)
{
  gint64 x = *(const gint64 *) a, y = *(const gint64 *) b;

  return (x > y) - (x < y);
}

/* The slack of @edge into @node: how much later than the predecessor allowed it the node started. */
static gint64
slack (SuanliReplayGraph      *self,
       const SuanliReplayNode *node,
       const SuanliReplayEdge *edge)
{
  const SuanliReplayNode *from = suanli_replay_graph_node (self, edge->from);

  return node->start - (edge->kind == SUANLI_REPLAY_EDGE_LAUNCH ? from->start : from->start + from->duration);
}

/* Of @node's incoming edges, the one that bound it: least above its kind's typical delay. */
static const SuanliReplayEdge *
binding_edge (SuanliReplayGraph      *self,
              const SuanliReplayNode *node)
{
  const SuanliReplayEdge *edges = (const SuanliReplayEdge *) self->edges->data + node->first_in;
  const SuanliReplayEdge *best = NULL;
  gint64 best_excess = G_MAXINT64;

  for (guint32 e = 0; e < node->n_in; e++)
    {
      gint64 excess = slack (self, node, &edges[e]) - self->typical[edges[e].kind];

      if (excess < best_excess)
        {
          best_excess = excess;
          best = &edges[e];
        }
    }
  return best;
}

/* The typical delay of each kind of GPU edge: the median of the measured delays of the edges that
 * bound their node, found twice (first with typical delays of 0, then with those). */
static void
find_typical_delays (SuanliReplayGraph *self)
{
  for (guint pass = 0; pass < 2; pass++)
    {
      GArray *binding[SUANLI_REPLAY_N_EDGE_KINDS];

      for (guint k = 0; k < SUANLI_REPLAY_N_EDGE_KINDS; k++)
        binding[k] = g_array_new (FALSE, FALSE, sizeof (gint64));
      for (guint n = 0; n < self->nodes->len; n++)
        {
          const SuanliReplayNode *node = suanli_replay_graph_node (self, n);
          const SuanliReplayEdge *edge;
          gint64 delay;

          if (node->kind != SUANLI_REPLAY_GPU || node->n_in == 0)
            continue;
          edge = binding_edge (self, node);
          delay = slack (self, node, edge);
          g_array_append_val (binding[edge->kind], delay);
        }
      for (guint k = 0; k < SUANLI_REPLAY_N_EDGE_KINDS; k++)
        {
          if (binding[k]->len > 0)
            {
              g_array_sort (binding[k], compare_int64);
              self->typical[k] = MAX (0, g_array_index (binding[k], gint64, binding[k]->len / 2));
            }
          g_array_unref (binding[k]);
        }
    }
}

/* Sets every edge's delay (see the top of the file). */
static void
set_delays (SuanliReplayGraph *self)
{
  SuanliReplayEdge *edges = (SuanliReplayEdge *) self->edges->data;

  find_typical_delays (self);
  for (guint n = 0; n < self->nodes->len; n++)
    {
      SuanliReplayNode *node = suanli_replay_graph_node (self, n);

      if (node->kind == SUANLI_REPLAY_GPU && node->n_in > 0)
        {
          const SuanliReplayEdge *bound = binding_edge (self, node);

          for (guint32 e = node->first_in; e < node->first_in + node->n_in; e++)
            {
              gint64 measured = slack (self, node, &edges[e]);

              edges[e].delay = &edges[e] == bound ? measured : MIN (measured, self->typical[edges[e].kind]);
            }
        }
      else if (node->flags & (SUANLI_REPLAY_BLOCKS | SUANLI_REPLAY_QUEUED))
        {
          gint64 waited_end = G_MININT64, end = node->start + node->duration, wait;

          for (guint32 e = node->first_in; e < node->first_in + node->n_in; e++)
            if (edges[e].kind == SUANLI_REPLAY_EDGE_SYNC)
              {
                const SuanliReplayNode *from = suanli_replay_graph_node (self, edges[e].from);
                waited_end = MAX (waited_end, from->start + from->duration);
              }
          wait = CLAMP (waited_end - node->start, 0, node->duration);
          node->own = node->duration - wait;
          for (guint32 e = node->first_in; e < node->first_in + node->n_in; e++)
            if (edges[e].kind == SUANLI_REPLAY_EDGE_SYNC)
              {
                const SuanliReplayNode *from = suanli_replay_graph_node (self, edges[e].from);
                edges[e].delay = MIN (end - (from->start + from->duration), node->own);
              }
        }
    }
}

/* The event of an edge's source that it follows: a launch follows its call's start, the others its
 * predecessor's end. Events are 2n (node n's start) and 2n + 1 (its end). */
static guint32
source_event (guint32 from,
              guint8  kind)
{
  return 2 * from + (kind == SUANLI_REPLAY_EDGE_LAUNCH ? 0 : 1);
}

/* The event an edge leads to: a sync edge the call's end, the others the node's start. */
static guint32
target_event (guint32 to,
              guint8  kind)
{
  return 2 * to + (kind == SUANLI_REPLAY_EDGE_SYNC ? 1 : 0);
}

/* The nodes' starts and ends as events (2n and 2n + 1) and the edges between them, as index_edges()
 * orders them. */
typedef struct
{
  guint     n_events;
  guint32  *out_first;   /* per event, and one past the last: where its edges out begin in out_to */
  guint32  *out_to;      /* the events each event's edges out lead to */
  guint32  *waiting;     /* per event: its edges in from events not yet placed */
  guint32  *position;    /* per event: its place in the order, G_MAXUINT32 until placed */
} EventEdges;

/* Counts each node's edges in and each event's edges out, and gives each node its first edge in. */
static void
count_edges (SuanliReplayGraph *self,
             GArray            *raw,
             EventEdges        *events)
{
  for (guint e = 0; e < raw->len; e++)
    {
      SuanliReplayRawEdge *edge = &g_array_index (raw, SuanliReplayRawEdge, e);

      suanli_replay_graph_node (self, edge->to)->n_in++;
      events->out_first[source_event (edge->from, edge->kind) + 1]++;
      events->waiting[target_event (edge->to, edge->kind)]++;
      self->counts[edge->kind]++;
    }
  for (guint n = 0; n < self->nodes->len; n++)
    {
      SuanliReplayNode *node = suanli_replay_graph_node (self, n);
      const SuanliReplayNode *before = n > 0 ? suanli_replay_graph_node (self, n - 1) : NULL;

      node->first_in = before == NULL ? 0 : before->first_in + before->n_in;
      if (node->n_in == 0)
        node->flags |= SUANLI_REPLAY_ANCHORED;
      events->out_first[2 * n + 1]++;   /* a node's start → its end */
      events->waiting[2 * n + 1]++;
    }
  for (guint v = 0; v < events->n_events; v++)
    events->out_first[v + 1] += events->out_first[v];
}

/* Puts each raw edge in its place among the edges of the node it enters, and among the edges out
 * of the event it follows. */
static void
place_edges (SuanliReplayGraph *self,
             GArray            *raw,
             EventEdges        *events)
{
  g_autofree guint32 *fill = g_new0 (guint32, self->nodes->len + 1);
  g_autofree guint32 *out_fill = g_memdup2 (events->out_first, sizeof (guint32) * (events->n_events + 1));

  g_array_set_size (self->edges, raw->len);
  for (guint n = 0; n < self->nodes->len; n++)
    events->out_to[out_fill[2 * n]++] = 2 * n + 1;
  for (guint e = 0; e < raw->len; e++)
    {
      SuanliReplayRawEdge *edge = &g_array_index (raw, SuanliReplayRawEdge, e);
      SuanliReplayNode *to = suanli_replay_graph_node (self, edge->to);
      SuanliReplayEdge placed_edge = { edge->from, edge->kind, FALSE, edge->delay };

      g_array_index (self->edges, SuanliReplayEdge, to->first_in + fill[edge->to]++) = placed_edge;
      events->out_to[out_fill[source_event (edge->from, edge->kind)]++] = target_event (edge->to, edge->kind);
    }
}

/* Orders the events so that each comes after what it depends on (Kahn's algorithm); a cycle is
 * broken by taking the first event not yet placed. */
static void
order_events (SuanliReplayGraph *self,
              EventEdges        *events)
{
  guint32 head = 0, tail = 0, *waiting = events->waiting;

  self->order = g_new (guint32, MAX (events->n_events, 1));
  for (guint v = 0; v < events->n_events; v++)
    {
      events->position[v] = G_MAXUINT32;
      if (waiting[v] == 0)
        self->order[tail++] = v;
    }
  for (guint32 next_unplaced = 0; head < events->n_events;)
    {
      guint32 v;

      if (head == tail)
        {
          /* A cycle: take the first event not yet placed; its edges from events not placed are dropped below. */
          self->cycle = TRUE;
          for (; events->position[next_unplaced] != G_MAXUINT32 || waiting[next_unplaced] == 0; next_unplaced++)
            ;
          waiting[next_unplaced] = 0;
          self->order[tail++] = next_unplaced;
        }
      v = self->order[head++];
      events->position[v] = head - 1;
      for (guint32 o = events->out_first[v]; o < events->out_first[v + 1]; o++)
        if (waiting[events->out_to[o]] > 0 && --waiting[events->out_to[o]] == 0)
          self->order[tail++] = events->out_to[o];
    }
}

/* Drops the edges that go against the order: those a broken cycle left. */
static void
drop_cycle_edges (SuanliReplayGraph *self,
                  EventEdges        *events)
{
  for (guint n = 0; n < self->nodes->len; n++)
    {
      SuanliReplayNode *node = suanli_replay_graph_node (self, n);

      for (guint32 e = node->first_in; e < node->first_in + node->n_in; e++)
        {
          SuanliReplayEdge *edge = &g_array_index (self->edges, SuanliReplayEdge, e);

          edge->dropped = events->position[source_event (edge->from, edge->kind)] >
                          events->position[target_event (n, edge->kind)];
        }
    }
}

/* Groups the raw edges by the node they enter, and orders the nodes' starts and ends so that each
 * comes after what it depends on (Kahn's algorithm over 2 events per node: a blocking copy's call
 * starts, then its copy, then the call ends, so a synchronous copy makes no cycle). A cycle, which
 * only contradictory times can make, is broken by dropping the edges into the first event not yet
 * placed from events not yet placed: the replay then takes that event from its other predecessors,
 * never from a measured time (unless it has no other). */
static void
index_edges (SuanliReplayGraph *self,
             GArray            *raw)
{
  guint n_nodes = self->nodes->len, n_events = 2 * n_nodes;
  g_autofree guint32 *out_first = g_new0 (guint32, n_events + 1);
  g_autofree guint32 *out_to = g_new (guint32, MAX (raw->len + n_nodes, 1));
  g_autofree guint32 *waiting = g_new0 (guint32, MAX (n_events, 1));
  g_autofree guint32 *position = g_new (guint32, MAX (n_events, 1));
  EventEdges events = { n_events, out_first, out_to, waiting, position };

  count_edges (self, raw, &events);
  place_edges (self, raw, &events);
  order_events (self, &events);
  if (self->cycle)
    drop_cycle_edges (self, &events);
}

/* Which step each node belongs to: its launch's (GPU work) or its own start's, in the steps' CPU spans. */
static void
assign_steps (SuanliReplayGraph *self,
              const guint32     *launch)
{
  guint32 *by_start = self->step_order = g_new (guint32, MAX (self->steps->len, 1));
  guint n_steps = self->steps->len;

  for (guint i = 0; i < n_steps; i++)
    by_start[i] = i;
  /* Steps come thread by thread, each thread's in time order: a sort puts them in one order. */
  for (guint i = 1; i < n_steps; i++)
    for (guint j = i; j > 0 && g_array_index (self->steps, SuanliReplayStep, by_start[j - 1]).start >
                               g_array_index (self->steps, SuanliReplayStep, by_start[j]).start; j--)
      {
        guint32 swap = by_start[j];
        by_start[j] = by_start[j - 1];
        by_start[j - 1] = swap;
      }
  for (guint n = 0; n < self->nodes->len && n_steps > 0; n++)
    {
      SuanliReplayNode *node = suanli_replay_graph_node (self, n);
      gint64 time = node->kind == SUANLI_REPLAY_GPU && launch[n] != NONE ? suanli_replay_graph_node (self, launch[n])->start
                                                                         : node->start;
      guint low = 0, high = n_steps;
      SuanliReplayStep *step;

      while (low < high)
        {
          guint middle = (low + high) / 2;

          if (g_array_index (self->steps, SuanliReplayStep, by_start[middle]).start <= time)
            low = middle + 1;
          else
            high = middle;
        }
      if (low == 0)
        continue;
      step = &g_array_index (self->steps, SuanliReplayStep, by_start[low - 1]);
      if (time < step->start + step->duration || (time == step->start && step->duration == 0))
        node->step = (gint32) by_start[low - 1];
    }
}


/* The measured step durations, by the rule the replay uses; without steps, one step of the whole
 * file. */
static void
measure_steps (SuanliReplayGraph *self)
{
  g_autofree gint64 *starts = g_new (gint64, MAX (self->nodes->len, 1));
  g_autofree gint64 *ends = g_new (gint64, MAX (self->nodes->len, 1));
  g_autofree gint64 *durations = g_new (gint64, MAX (self->steps->len, 1));
  SuanliReplayStep whole = { NONE, NONE, G_MAXINT64, 0 };
  gint64 last = G_MININT64;

  for (guint n = 0; n < self->nodes->len; n++)
    {
      starts[n] = suanli_replay_graph_node (self, n)->start;
      ends[n] = starts[n] + suanli_replay_graph_node (self, n)->duration;
    }
  suanli_replay_graph_step_durations (self, starts, ends, durations);
  for (guint i = 0; i < self->steps->len; i++)
    g_array_index (self->steps, SuanliReplayStep, i).duration = durations[i];
  if (self->steps->len > 0 || self->nodes->len == 0)
    return;
  for (guint n = 0; n < self->nodes->len; n++)
    {
      whole.start = MIN (whole.start, starts[n]);
      last = MAX (last, ends[n]);
    }
  whole.duration = last - whole.start;
  g_array_append_val (self->steps, whole);
  self->step_order[0] = 0;
  for (guint n = 0; n < self->nodes->len; n++)
    suanli_replay_graph_node (self, n)->step = 0;
}

/**
 * suanli_replay_graph_new:
 * @group: the file (rank) whose graph to build
 *
 * Returns: (transfer full): the graph of @group's threads and streams, with delays that make its
 * replay with the measured durations give the measured times.
 */
SuanliReplayGraph *
suanli_replay_graph_new (SuanliTrace *trace,
                         guint        group)
{
  SuanliReplayGraph *self = g_new0 (SuanliReplayGraph, 1);
  guint n_tracks = suanli_trace_get_n_tracks (trace);
  g_autoptr(GArray) raw = g_array_new (FALSE, FALSE, sizeof (SuanliReplayRawEdge));
  g_autofree guint32 *launch = NULL;

  self->trace = g_object_ref (trace);
  self->group = group;
  self->nodes = g_array_new (FALSE, FALSE, sizeof (SuanliReplayNode));
  self->edges = g_array_new (FALSE, FALSE, sizeof (SuanliReplayEdge));
  self->steps = g_array_new (FALSE, FALSE, sizeof (SuanliReplayStep));
  self->chains = g_malloc0_n (MAX (n_tracks, 1), sizeof *self->chains);
  self->gpu_nodes = g_new0 (guint32 *, MAX (n_tracks, 1));
  launch = suanli_replay_graph_read (self, raw);
  index_edges (self, raw);
  set_delays (self);
  assign_steps (self, launch);
  measure_steps (self);
  return self;
}

void
suanli_replay_graph_free (SuanliReplayGraph *self)
{
  for (guint t = 0; t < suanli_trace_get_n_tracks (self->trace); t++)
    g_free (self->gpu_nodes[t]);
  g_free (self->gpu_nodes);
  g_free (self->chains);
  g_free (self->order);
  g_free (self->step_order);
  g_array_unref (self->nodes);
  g_array_unref (self->edges);
  g_array_unref (self->steps);
  g_object_unref (self->trace);
  g_free (self);
}

guint
suanli_replay_graph_get_n_nodes (SuanliReplayGraph *self)
{
  return self->nodes->len;
}

const SuanliReplayNode *
suanli_replay_graph_get_nodes (SuanliReplayGraph *self)
{
  return (const SuanliReplayNode *) self->nodes->data;
}

/* Returns: (transfer none): the edges, node by node (see SuanliReplayNode's first_in and n_in). */
const SuanliReplayEdge *
suanli_replay_graph_get_edges (SuanliReplayGraph *self)
{
  return (const SuanliReplayEdge *) self->edges->data;
}

/* Returns: (transfer none): the steps (one for the whole trace when it marks none). */
GArray *
suanli_replay_graph_get_steps (SuanliReplayGraph *self)
{
  return self->steps;
}

gboolean
suanli_replay_graph_has_gpu (SuanliReplayGraph *self)
{
  return self->has_gpu;
}

/* The median measured delay of the edges of @kind that bound their node (GPU edges only). */
gint64
suanli_replay_graph_typical_delay (SuanliReplayGraph    *self,
                                   SuanliReplayEdgeKind  kind)
{
  return self->typical[kind];
}

guint64
suanli_replay_graph_count_edges (SuanliReplayGraph    *self,
                                 SuanliReplayEdgeKind  kind)
{
  return self->counts[kind];
}

/* Stream waits on events whose streams the trace does not give (no cuda_sync record): not modelled. */
guint
suanli_replay_graph_get_unplaced_waits (SuanliReplayGraph *self)
{
  return self->unplaced_waits;
}

/* Whether the measured times made a cycle, broken by dropping edges (the replay is then approximate). */
gboolean
suanli_replay_graph_get_cycle (SuanliReplayGraph *self)
{
  return self->cycle;
}

/* The node of slice @slice of @track (a call or GPU work), or G_MAXUINT32. */
guint32
suanli_replay_graph_find_node (SuanliReplayGraph *self,
                               guint              track,
                               guint              slice)
{
  SuanliTrack *t;
  guint32 n;

  if (track >= suanli_trace_get_n_tracks (self->trace))
    return NONE;
  t = suanli_trace_get_track (self->trace, track);
  if (slice >= t->slices->len)
    return NONE;
  if (self->gpu_nodes[track] != NULL)
    return self->gpu_nodes[track][slice];
  n = suanli_replay_graph_chain_node_at (self, track, g_array_index (t->slices, SuanliSlice, slice).start);
  for (; n != NONE && n < self->chains[track].first + self->chains[track].count &&
         suanli_replay_graph_node (self, n)->start <= g_array_index (t->slices, SuanliSlice, slice).start; n++)
    if (suanli_replay_graph_node (self, n)->slice == slice)
      return n;
  return NONE;
}

/* Returns: (transfer full): each node's own time (its duration; a blocking call's less its wait),
 * the durations that replay to the measured times. */
gint64 *
suanli_replay_graph_own_durations (SuanliReplayGraph *self)
{
  gint64 *durations = g_new (gint64, MAX (self->nodes->len, 1));

  for (guint n = 0; n < self->nodes->len; n++)
    durations[n] = suanli_replay_graph_node (self, n)->own;
  return durations;
}

/**
 * suanli_replay_graph_run:
 * @durations: each node's own time (see suanli_replay_graph_own_durations())
 * @choices: (nullable): what else changes
 * @starts: (out caller-allocates): each node's replayed start
 * @ends: (out caller-allocates): each node's replayed end
 */
void
suanli_replay_graph_run (SuanliReplayGraph         *self,
                         const gint64              *durations,
                         const SuanliReplayChoices *choices,
                         gint64                    *starts,
                         gint64                    *ends)
{
  const SuanliReplayEdge *edges = (const SuanliReplayEdge *) self->edges->data;
  const guint8 *overlapped = choices != NULL ? choices->overlapped : NULL;
  gint64 launch_delay = choices != NULL ? choices->launch_delay : -1;

  for (guint n = 0; n < self->nodes->len; n++)
    {
      starts[n] = suanli_replay_graph_node (self, n)->start;   /* kept only by nodes without a predecessor */
      ends[n] = G_MININT64;                   /* the sync edges' waits, until the node's end */
    }
  for (guint i = 0; i < 2 * self->nodes->len; i++)
    {
      guint32 n = self->order[i] / 2;
      gboolean end_event = self->order[i] % 2 == 1;
      const SuanliReplayNode *node = suanli_replay_graph_node (self, n);
      gint64 start = G_MININT64, waited = G_MININT64;

      for (guint32 e = node->first_in; e < node->first_in + node->n_in; e++)
        {
          const SuanliReplayEdge *edge = &edges[e];
          /* Overlapped work seems, to what is not overlapped, to end as it starts. */
          gboolean hidden = overlapped != NULL && overlapped[edge->from] && !overlapped[n];
          gint64 from_end;

          if (edge->dropped || (edge->kind == SUANLI_REPLAY_EDGE_SYNC) != end_event)
            continue;
          from_end = hidden ? starts[edge->from] : ends[edge->from];
          switch (edge->kind)
            {
            case SUANLI_REPLAY_EDGE_LAUNCH:
              start = MAX (start, starts[edge->from] + (launch_delay >= 0 ? MIN (launch_delay, edge->delay) : edge->delay));
              break;
            case SUANLI_REPLAY_EDGE_SYNC:
              if (!hidden)
                waited = MAX (waited, from_end + edge->delay);
              break;
            default:
              start = MAX (start, from_end + edge->delay);
              break;
            }
        }
      if (!end_event)
        {
          if (start != G_MININT64)
            starts[n] = start;
        }
      else
        ends[n] = MAX (starts[n] + durations[n], waited);
    }
}

/* Each step's begin (@first) and finish (@last: its end marker and the GPU work launched in it
 * ended) for the node times @starts and @ends. One step without markers: the first node's start to
 * the last node's end. */
static void
step_bounds (SuanliReplayGraph *self,
             const gint64      *starts,
             const gint64      *ends,
             gint64            *first,
             gint64            *last)
{
  for (guint i = 0; i < self->steps->len; i++)
    {
      SuanliReplayStep *step = &g_array_index (self->steps, SuanliReplayStep, i);

      first[i] = step->begin != NONE ? starts[step->begin] : G_MAXINT64;
      last[i] = step->end != NONE ? ends[step->end] : G_MININT64;
    }
  for (guint n = 0; n < self->nodes->len; n++)
    {
      const SuanliReplayNode *node = suanli_replay_graph_node (self, n);
      SuanliReplayStep *step;

      if (node->step < 0)
        continue;
      step = &g_array_index (self->steps, SuanliReplayStep, node->step);
      if (step->begin == NONE)
        first[node->step] = MIN (first[node->step], starts[n]);
      if (node->kind == SUANLI_REPLAY_GPU || step->end == NONE)
        last[node->step] = MAX (last[node->step], ends[n]);
    }
}

/**
 * suanli_replay_graph_step_window:
 * @from: (out): the first step's start
 * @to: (out): when every step's CPU span and the GPU work launched in them have ended
 *
 * The time the steps take together, for the node times @starts and @ends; @from = @to when there
 * is no step.
 */
void
suanli_replay_graph_step_window (SuanliReplayGraph *self,
                                 const gint64      *starts,
                                 const gint64      *ends,
                                 gint64            *from,
                                 gint64            *to)
{
  g_autofree gint64 *first = g_new (gint64, MAX (self->steps->len, 1));
  g_autofree gint64 *last = g_new (gint64, MAX (self->steps->len, 1));

  *from = *to = 0;
  if (self->steps->len == 0)
    return;
  step_bounds (self, starts, ends, first, last);
  *from = first[self->step_order[0]];
  *to = *from;
  for (guint i = 0; i < self->steps->len; i++)
    *to = MAX (*to, last[i]);
  if (*from == G_MAXINT64)
    *from = *to = 0;
}

/**
 * suanli_replay_graph_step_durations:
 * @durations: (out caller-allocates): per step
 *
 * Each step's period for the node times @starts and @ends (docs/trace-analysis.md, "The step"):
 * from its begin marker to the next step's; the last step's until every step's CPU span and the
 * GPU work launched in them have ended. The periods add up to the steps' window. One step without
 * markers: the first node's start to the last node's end.
 */
void
suanli_replay_graph_step_durations (SuanliReplayGraph *self,
                                    const gint64      *starts,
                                    const gint64      *ends,
                                    gint64            *durations)
{
  g_autofree gint64 *last = g_new (gint64, MAX (self->steps->len, 1));
  g_autofree gint64 *first = g_new (gint64, MAX (self->steps->len, 1));
  gint64 finish = G_MININT64;
  guint n_steps = self->steps->len;

  if (n_steps == 0)
    return;
  step_bounds (self, starts, ends, first, last);
  for (guint i = 0; i < n_steps; i++)
    finish = MAX (finish, last[i]);
  for (guint i = 0; i < n_steps; i++)
    {
      guint32 step = self->step_order[i];
      gint64 next = i + 1 < n_steps ? first[self->step_order[i + 1]] : finish;

      durations[step] = first[step] == G_MAXINT64 ? 0 : MAX (next - first[step], 0);
    }
}

/* The step time for the node times @starts and @ends: the steps' window divided by their count,
 * the mean of their periods (docs/trace-analysis.md, "The step"); 0 without steps. */
gint64
suanli_replay_graph_step_time (SuanliReplayGraph *self,
                               const gint64      *starts,
                               const gint64      *ends)
{
  gint64 from, to;

  if (self->steps->len == 0)
    return 0;
  suanli_replay_graph_step_window (self, starts, ends, &from, &to);
  return (to - from) / (gint64) self->steps->len;
}
