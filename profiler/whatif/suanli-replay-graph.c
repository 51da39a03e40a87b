/* suanli-replay-graph.c — one file's (rank's) dependency graph, built from its trace alone, and its
 * replay with other durations
 *
 * Nodes: on each CPU thread its runtime and driver calls, the host's work between them (gaps) and
 * the ProfilerStep#N begin and end markers, as one chain; on each GPU stream its kernels, copies and
 * memsets in order. Edges: the chains' program order; a launch call → its work (flows, which the
 * importer also makes from correlation ids); stream order; a stream waiting on an event → the work
 * the event recorded; a blocking call's end → the work it waited on. A node starts only when its
 * predecessors allow (plus a delay per edge), never at its measured time, except the first node of
 * each chain and GPU work that nothing precedes.
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
#include <string.h>

#include "suanli-analysis-private.h"
#include "suanli-replay-graph.h"

#define NONE G_MAXUINT32
#define STEP_PREFIX "ProfilerStep#"

typedef struct
{
  guint32 from;
  guint32 to;
  guint8  kind;
  gint64  delay;
} RawEdge;

/* One GPU stream's work, in order, with when each was issued (its launch call's start, or its own
 * start without one), kept non-decreasing for "the last work issued before". */
typedef struct
{
  gint64  pid;
  gint64  tid;
  guint32 first;
  guint32 count;
  gint64 *issued;
} Stream;

/* A thread's chain: nodes first … first + count − 1, by start. */
typedef struct
{
  guint32 first;
  guint32 count;
} Chain;

struct _SuanliReplayGraph
{
  SuanliTrace *trace;
  guint        group;
  GArray      *nodes;       /* of SuanliReplayNode */
  GArray      *edges;       /* of SuanliReplayEdge, grouped by the node they enter */
  GArray      *steps;       /* of SuanliReplayStep */
  guint32     *order;       /* the nodes in an order that puts predecessors first */
  Chain       *chains;      /* per track: CPU threads' chains */
  guint32    **gpu_nodes;   /* per GPU track: slice → node, or NONE */
  gint64       typical[SUANLI_REPLAY_N_EDGE_KINDS];
  guint64      counts[SUANLI_REPLAY_N_EDGE_KINDS];
  guint        unplaced_waits;
  gboolean     cycle;
  gboolean     has_gpu;
};

/* Item of a thread's chain before it becomes nodes. */
enum { ITEM_END_MARKER, ITEM_BEGIN_MARKER, ITEM_CALL };

/* A cuda_sync record on a GPU stream, and its device. */
typedef struct
{
  const SuanliSlice *slice;
  gint64             pid;
} Record;

typedef struct
{
  gint64  time;
  gint64  end;
  guint32 slice;
  guint8  kind;
  guint32 step;
} Item;

static int
compare_items (gconstpointer a,
               gconstpointer b)
{
  const Item *x = a, *y = b;

  if (x->time != y->time)
    return x->time < y->time ? -1 : 1;
  return (x->kind > y->kind) - (x->kind < y->kind);
}

static gboolean
is_step_name (const char *name)
{
  return g_str_has_prefix (name, STEP_PREFIX) && g_ascii_isdigit (name[strlen (STEP_PREFIX)]);
}

/* The CPU side of CUDA, ROCm (Kineto files HIP's calls as cuda_runtime too) and MTIA. */
static gboolean
is_runtime_category (const char *category)
{
  return g_str_equal (category, "cuda_runtime") || g_str_equal (category, "cuda_driver") ||
         g_str_equal (category, "Runtime") || g_str_equal (category, "Driver") ||
         g_str_equal (category, "hip_runtime") || g_str_equal (category, "mtia_runtime");
}

static SuanliReplayNode *
node_at (SuanliReplayGraph *self,
         guint32            index)
{
  return &g_array_index (self->nodes, SuanliReplayNode, index);
}

static guint32
add_node (SuanliReplayGraph *self,
          guint8             kind,
          gint64             start,
          gint64             duration,
          guint32            track,
          guint32            slice)
{
  SuanliReplayNode node = { start, duration, duration, track, slice, 0, 0, kind, 0, -1 };

  g_array_append_val (self->nodes, node);
  return self->nodes->len - 1;
}

static void
add_edge (GArray  *raw,
          guint32  from,
          guint32  to,
          guint8   kind,
          gint64   delay)
{
  RawEdge edge = { from, to, kind, delay };

  g_array_append_val (raw, edge);
}

/* Makes @track's chain: its outermost calls (any outermost slice in a trace without GPU work) and
 * its steps' markers, in time order, with the gaps between them. */
static void
build_chain (SuanliReplayGraph *self,
             guint              t,
             gboolean           gpu_trace,
             GArray            *raw,
             GHashTable        *runtime_categories)
{
  SuanliTrack *track = suanli_trace_get_track (self->trace, t);
  g_autoptr(GArray) items = g_array_new (FALSE, FALSE, sizeof (Item));
  gint64 outer_end = G_MININT64, cursor = 0;
  guint32 previous = NONE;

  for (guint s = 0; s < track->slices->len; s++)
    {
      const SuanliSlice *slice = &g_array_index (track->slices, SuanliSlice, s);
      const char *name = suanli_trace_get_string (self->trace, slice->name);
      gpointer key = GUINT_TO_POINTER (slice->category + 1);
      guint runtime = GPOINTER_TO_UINT (g_hash_table_lookup (runtime_categories, key));

      if (is_step_name (name))
        {
          Item begin = { slice->start, slice->start, s, ITEM_BEGIN_MARKER, self->steps->len };
          Item end = { slice->start + slice->duration, slice->start + slice->duration, s, ITEM_END_MARKER, self->steps->len };
          SuanliReplayStep step = { NONE, NONE, slice->start, slice->duration };

          g_array_append_val (items, begin);
          g_array_append_val (items, end);
          g_array_append_val (self->steps, step);
          continue;
        }
      if (runtime == 0)
        {
          runtime = is_runtime_category (suanli_trace_get_string (self->trace, slice->category)) ? 1 : 2;
          g_hash_table_insert (runtime_categories, key, GUINT_TO_POINTER (runtime));
        }
      if ((gpu_trace && runtime != 1) || slice->start < outer_end)
        continue;
      {
        Item call = { slice->start, slice->start + slice->duration, s, ITEM_CALL, NONE };

        g_array_append_val (items, call);
        outer_end = call.end;
      }
    }
  if (items->len == 0)
    return;
  g_array_sort (items, compare_items);
  self->chains[t].first = self->nodes->len;
  for (guint i = 0; i < items->len; i++)
    {
      Item *item = &g_array_index (items, Item, i);
      guint32 node;

      if (previous != NONE && item->time != cursor)
        {
          /* Negative only where a marker falls inside a call: kept, so that the replay is exact. */
          guint32 gap = add_node (self, SUANLI_REPLAY_GAP, cursor, item->time - cursor, t, NONE);

          add_edge (raw, previous, gap, SUANLI_REPLAY_EDGE_PROGRAM, 0);
          previous = gap;
        }
      node = add_node (self, item->kind == ITEM_CALL ? SUANLI_REPLAY_CALL : SUANLI_REPLAY_MARKER, item->time,
                       item->end - item->time, t, item->kind == ITEM_CALL ? item->slice : NONE);
      if (previous != NONE)
        add_edge (raw, previous, node, SUANLI_REPLAY_EDGE_PROGRAM, 0);
      if (item->kind == ITEM_BEGIN_MARKER)
        g_array_index (self->steps, SuanliReplayStep, item->step).begin = node;
      else if (item->kind == ITEM_END_MARKER)
        g_array_index (self->steps, SuanliReplayStep, item->step).end = node;
      previous = node;
      cursor = item->end;
    }
  self->chains[t].count = self->nodes->len - self->chains[t].first;
}

/* The node of @t's chain that holds @time (the last to start at or before it), or NONE. */
static guint32
chain_node_at (SuanliReplayGraph *self,
               guint              t,
               gint64             time)
{
  Chain *chain = &self->chains[t];
  guint32 low = 0, high = chain->count;

  if (chain->count == 0)
    return NONE;
  while (low < high)
    {
      guint32 middle = (low + high) / 2;

      if (node_at (self, chain->first + middle)->start <= time)
        low = middle + 1;
      else
        high = middle;
    }
  return low == 0 ? chain->first : chain->first + low - 1;
}

/* The position in @stream of the last work issued before @time, or −1. */
static gint64
last_issued_before (Stream *stream,
                    gint64  time)
{
  guint32 low = 0, high = stream->count;

  while (low < high)
    {
      guint32 middle = (low + high) / 2;

      if (stream->issued[middle] < time)
        low = middle + 1;
      else
        high = middle;
    }
  return (gint64) low - 1;
}

static Stream *
find_stream (GPtrArray *streams,
             gint64     pid,
             gint64     tid)
{
  for (guint i = 0; i < streams->len; i++)
    {
      Stream *stream = g_ptr_array_index (streams, i);

      if (stream->pid == pid && stream->tid == tid)
        return stream;
    }
  return NULL;
}

static void
stream_free (gpointer data)
{
  Stream *stream = data;

  g_free (stream->issued);
  g_free (stream);
}

/* What a call's name says it does to the GPU's work. */
enum {
  CALL_PLAIN = 1,
  CALL_WAITS_EVENT,      /* cudaStreamWaitEvent: a stream waits, the CPU does not */
  CALL_SYNCHRONIZES,     /* cudaStreamSynchronize, cudaDeviceSynchronize, cudaEventSynchronize … */
  CALL_COPIES_BLOCKING,  /* cudaMemcpy and other copies without Async: until the copy ends */
};

static guint
call_kind (const char *name)
{
  if (strstr (name, "StreamWaitEvent") != NULL)
    return CALL_WAITS_EVENT;
  if (strstr (name, "Synchronize") != NULL)
    return CALL_SYNCHRONIZES;
  if (strstr (name, "Memcpy") != NULL && strstr (name, "Async") == NULL)
    return CALL_COPIES_BLOCKING;
  return CALL_PLAIN;
}

/* Kineto's cuda_sync records give a wait's stream as an unsigned 32-bit −1 when it has none. */
static gboolean
valid_stream (gint64 stream)
{
  return stream >= 0 && stream != G_MAXUINT32;
}

/* SYNC edges into the blocking call @call from the last work issued before it on each stream it
 * waits on: the record's stream, else every stream of the record's device, else of the file. */
static void
add_sync_edges (SuanliReplayGraph *self,
                GPtrArray         *streams,
                guint32            call,
                const SuanliSlice *record,
                gint64             record_pid,
                GArray            *raw)
{
  SuanliReplayNode *node = node_at (self, call);
  gint64 stream_id = -1, device = G_MININT64;
  const char *kind = NULL;
  gboolean added = FALSE;

  if (record != NULL)
    {
      device = record_pid;
      kind = suanli_trace_find_arg_string (self->trace, record, "cuda_sync_kind");
      if (kind == NULL || g_str_equal (kind, "Stream Sync"))
        suanli_trace_find_arg_int (self->trace, record, "stream", &stream_id);
      else if (g_str_equal (kind, "Event Sync"))
        suanli_trace_find_arg_int (self->trace, record, "wait_on_stream", &stream_id);
    }
  for (guint i = 0; i < streams->len; i++)
    {
      Stream *stream = g_ptr_array_index (streams, i);
      gint64 last;

      if (valid_stream (stream_id) ? stream->tid != stream_id || stream->pid != device
                                   : device != G_MININT64 && stream->pid != device)
        continue;
      last = last_issued_before (stream, node->start);
      if (last < 0)
        continue;
      add_edge (raw, stream->first + (guint32) last, call, SUANLI_REPLAY_EDGE_SYNC, 0);
      added = TRUE;
    }
  if (added)
    node->flags |= SUANLI_REPLAY_BLOCKS;
}

/* An EVENT edge for the cudaStreamWaitEvent @call, from its record: the waiting stream's next
 * work waits for the last work issued, before the event's record (or, without its correlation,
 * before the wait), on the stream waited on. */
static void
add_event_edge (SuanliReplayGraph *self,
                GPtrArray         *streams,
                guint32            call,
                const SuanliSlice *record,
                gint64             record_pid,
                GHashTable        *call_starts,
                GArray            *raw)
{
  SuanliReplayNode *node = node_at (self, call);
  gint64 waiting_id = -1, waited_id = -1, recorded = -1, event_time = node->start, last, next;
  Stream *waiting, *waited;

  if (record == NULL || !suanli_trace_find_arg_int (self->trace, record, "stream", &waiting_id) ||
      !suanli_trace_find_arg_int (self->trace, record, "wait_on_stream", &waited_id))
    {
      self->unplaced_waits++;
      return;
    }
  if (suanli_trace_find_arg_int (self->trace, record, "wait_on_cuda_event_record_corr_id", &recorded))
    {
      gint64 *start = g_hash_table_lookup (call_starts, &recorded);

      if (start != NULL)
        event_time = *start + 1;   /* the record call itself issues after the work before it */
    }
  waiting = find_stream (streams, record_pid, waiting_id);
  waited = find_stream (streams, record_pid, waited_id);
  if (waiting == NULL || waited == NULL)
    return;   /* a stream without work: nothing waits or nothing is waited on */
  last = last_issued_before (waited, event_time);
  next = last_issued_before (waiting, node->start) + 1;
  if (last < 0 || next >= waiting->count)
    return;
  add_edge (raw, waited->first + (guint32) last, waiting->first + (guint32) next, SUANLI_REPLAY_EDGE_EVENT, 0);
}

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
  const SuanliReplayNode *from = node_at (self, edge->from);

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
          const SuanliReplayNode *node = node_at (self, n);
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
      SuanliReplayNode *node = node_at (self, n);

      if (node->kind == SUANLI_REPLAY_GPU && node->n_in > 0)
        {
          const SuanliReplayEdge *bound = binding_edge (self, node);

          for (guint32 e = node->first_in; e < node->first_in + node->n_in; e++)
            {
              gint64 measured = slack (self, node, &edges[e]);

              edges[e].delay = &edges[e] == bound ? measured : MIN (measured, self->typical[edges[e].kind]);
            }
        }
      else if (node->flags & SUANLI_REPLAY_BLOCKS)
        {
          gint64 waited_end = G_MININT64, end = node->start + node->duration, wait;

          for (guint32 e = node->first_in; e < node->first_in + node->n_in; e++)
            if (edges[e].kind == SUANLI_REPLAY_EDGE_SYNC)
              {
                const SuanliReplayNode *from = node_at (self, edges[e].from);
                waited_end = MAX (waited_end, from->start + from->duration);
              }
          wait = CLAMP (waited_end - node->start, 0, node->duration);
          node->own = node->duration - wait;
          for (guint32 e = node->first_in; e < node->first_in + node->n_in; e++)
            if (edges[e].kind == SUANLI_REPLAY_EDGE_SYNC)
              {
                const SuanliReplayNode *from = node_at (self, edges[e].from);
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
  g_autofree guint32 *fill = g_new0 (guint32, n_nodes + 1);
  g_autofree guint32 *out_fill = NULL;
  g_autofree guint32 *waiting = g_new0 (guint32, MAX (n_events, 1));
  g_autofree guint32 *position = g_new (guint32, MAX (n_events, 1));
  guint32 head = 0, tail = 0;

  for (guint e = 0; e < raw->len; e++)
    {
      RawEdge *edge = &g_array_index (raw, RawEdge, e);

      node_at (self, edge->to)->n_in++;
      out_first[source_event (edge->from, edge->kind) + 1]++;
      waiting[target_event (edge->to, edge->kind)]++;
      self->counts[edge->kind]++;
    }
  for (guint n = 0; n < n_nodes; n++)
    {
      SuanliReplayNode *node = node_at (self, n);

      node->first_in = n == 0 ? 0 : node_at (self, n - 1)->first_in + node_at (self, n - 1)->n_in;
      if (node->n_in == 0)
        node->flags |= SUANLI_REPLAY_ANCHORED;
      out_first[2 * n + 1]++;   /* a node's start → its end */
      waiting[2 * n + 1]++;
    }
  for (guint v = 0; v < n_events; v++)
    out_first[v + 1] += out_first[v];
  g_array_set_size (self->edges, raw->len);
  out_fill = g_memdup2 (out_first, sizeof (guint32) * (n_events + 1));
  for (guint n = 0; n < n_nodes; n++)
    out_to[out_fill[2 * n]++] = 2 * n + 1;
  for (guint e = 0; e < raw->len; e++)
    {
      RawEdge *edge = &g_array_index (raw, RawEdge, e);
      SuanliReplayNode *to = node_at (self, edge->to);
      SuanliReplayEdge placed_edge = { edge->from, edge->kind, FALSE, edge->delay };

      g_array_index (self->edges, SuanliReplayEdge, to->first_in + fill[edge->to]++) = placed_edge;
      out_to[out_fill[source_event (edge->from, edge->kind)]++] = target_event (edge->to, edge->kind);
    }

  self->order = g_new (guint32, MAX (n_events, 1));
  for (guint v = 0; v < n_events; v++)
    {
      position[v] = G_MAXUINT32;
      if (waiting[v] == 0)
        self->order[tail++] = v;
    }
  for (guint32 next_unplaced = 0; head < n_events;)
    {
      guint32 v;

      if (head == tail)
        {
          /* A cycle: take the first event not yet placed; its edges from events not placed are dropped below. */
          self->cycle = TRUE;
          for (; position[next_unplaced] != G_MAXUINT32 || waiting[next_unplaced] == 0; next_unplaced++)
            ;
          waiting[next_unplaced] = 0;
          self->order[tail++] = next_unplaced;
        }
      v = self->order[head++];
      position[v] = head - 1;
      for (guint32 o = out_first[v]; o < out_first[v + 1]; o++)
        if (waiting[out_to[o]] > 0 && --waiting[out_to[o]] == 0)
          self->order[tail++] = out_to[o];
    }
  if (self->cycle)
    for (guint n = 0; n < n_nodes; n++)
      {
        SuanliReplayNode *node = node_at (self, n);

        for (guint32 e = node->first_in; e < node->first_in + node->n_in; e++)
          {
            SuanliReplayEdge *edge = &g_array_index (self->edges, SuanliReplayEdge, e);

            edge->dropped = position[source_event (edge->from, edge->kind)] > position[target_event (n, edge->kind)];
          }
      }
}

/* Which step each node belongs to: its launch's (GPU work) or its own start's, in the steps' CPU spans. */
static void
assign_steps (SuanliReplayGraph *self,
              const guint32     *launch)
{
  g_autofree guint32 *by_start = g_new (guint32, MAX (self->steps->len, 1));
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
      SuanliReplayNode *node = node_at (self, n);
      gint64 time = node->kind == SUANLI_REPLAY_GPU && launch[n] != NONE ? node_at (self, launch[n])->start : node->start;
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
  g_autoptr(GArray) raw = g_array_new (FALSE, FALSE, sizeof (RawEdge));
  g_autoptr(GPtrArray) streams = g_ptr_array_new_with_free_func (stream_free);
  g_autoptr(GHashTable) runtime_categories = g_hash_table_new (NULL, NULL);
  g_autoptr(GHashTable) records = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, g_free);   /* correlation → Record */
  g_autoptr(GHashTable) call_starts = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, g_free);
  g_autoptr(GHashTable) wanted = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, NULL);
  g_autoptr(GHashTable) call_kinds = g_hash_table_new (NULL, NULL);
  g_autoptr(SuanliClassifier) classifier = suanli_classifier_new (trace);
  g_autofree guint32 *launch = NULL;
  /* Categories are compared by name, not interned: the trace is only read (a view may be drawing it). */
  g_autoptr(GHashTable) sync_categories = g_hash_table_new (NULL, NULL);   /* category + 1 → 1 no, 2 yes */
  GArray *flows = suanli_trace_get_flows (trace);

  self->trace = g_object_ref (trace);
  self->group = group;
  self->nodes = g_array_new (FALSE, FALSE, sizeof (SuanliReplayNode));
  self->edges = g_array_new (FALSE, FALSE, sizeof (SuanliReplayEdge));
  self->steps = g_array_new (FALSE, FALSE, sizeof (SuanliReplayStep));
  self->chains = g_new0 (Chain, MAX (n_tracks, 1));
  self->gpu_nodes = g_new0 (guint32 *, MAX (n_tracks, 1));

  for (guint t = 0; t < n_tracks && !self->has_gpu; t++)
    {
      SuanliTrack *track = suanli_trace_get_track (trace, t);

      if (track->kind == SUANLI_TRACK_GPU_STREAM && track->group == group)
        for (guint s = 0; s < track->slices->len && !self->has_gpu; s++)
          self->has_gpu = suanli_classifier_work (classifier, &g_array_index (track->slices, SuanliSlice, s)) !=
                          SUANLI_WORK_NONE;
    }

  /* The CPU threads' chains. */
  for (guint t = 0; t < n_tracks; t++)
    {
      SuanliTrack *track = suanli_trace_get_track (trace, t);

      if (track->kind == SUANLI_TRACK_THREAD && track->group == group)
        build_chain (self, t, self->has_gpu, raw, runtime_categories);
    }

  /* The GPU streams' work, and the sync records (Kineto's cuda_sync) by correlation. */
  for (guint t = 0; t < n_tracks; t++)
    {
      SuanliTrack *track = suanli_trace_get_track (trace, t);
      Stream *stream = NULL;

      if (track->kind != SUANLI_TRACK_GPU_STREAM || track->group != group)
        continue;
      self->gpu_nodes[t] = g_new (guint32, MAX (track->slices->len, 1));
      for (guint s = 0; s < track->slices->len; s++)
        {
          SuanliSlice *slice = &g_array_index (track->slices, SuanliSlice, s);
          gpointer key = GUINT_TO_POINTER (slice->category + 1);
          guint is_sync = GPOINTER_TO_UINT (g_hash_table_lookup (sync_categories, key));
          gint64 correlation;

          self->gpu_nodes[t][s] = NONE;
          if (is_sync == 0)
            {
              is_sync = g_str_equal (suanli_trace_get_string (trace, slice->category), "cuda_sync") ? 2 : 1;
              g_hash_table_insert (sync_categories, key, GUINT_TO_POINTER (is_sync));
            }
          if (is_sync == 2)
            {
              if (suanli_trace_find_arg_int (trace, slice, "correlation", &correlation))
                {
                  Record record = { slice, track->pid };

                  g_hash_table_insert (records, g_memdup2 (&correlation, sizeof correlation),
                                       g_memdup2 (&record, sizeof record));
                }
              continue;
            }
          if (suanli_classifier_work (classifier, slice) == SUANLI_WORK_NONE)
            continue;
          if (stream == NULL)
            {
              stream = g_new0 (Stream, 1);
              stream->pid = track->pid;
              stream->tid = track->tid;
              stream->first = self->nodes->len;
              g_ptr_array_add (streams, stream);
            }
          self->gpu_nodes[t][s] = add_node (self, SUANLI_REPLAY_GPU, slice->start, slice->duration, t, s);
          if (stream->count > 0)
            add_edge (raw, self->gpu_nodes[t][s] - 1, self->gpu_nodes[t][s], SUANLI_REPLAY_EDGE_STREAM, 0);
          stream->count++;
        }
    }

  /* Launches. */
  launch = g_new (guint32, MAX (self->nodes->len, 1));
  memset (launch, 0xff, sizeof (guint32) * MAX (self->nodes->len, 1));
  for (guint f = 0; f < flows->len; f++)
    {
      SuanliFlow *flow = &g_array_index (flows, SuanliFlow, f);
      SuanliTrack *from;
      guint32 work, call;

      if (flow->to_track >= n_tracks || self->gpu_nodes[flow->to_track] == NULL ||
          flow->to_slice >= suanli_trace_get_track (trace, flow->to_track)->slices->len ||
          (work = self->gpu_nodes[flow->to_track][flow->to_slice]) == NONE || launch[work] != NONE)
        continue;
      from = suanli_trace_get_track (trace, flow->from_track);
      if (from->kind != SUANLI_TRACK_THREAD || from->group != group || flow->from_slice >= from->slices->len)
        continue;
      call = chain_node_at (self, flow->from_track,
                            g_array_index (from->slices, SuanliSlice, flow->from_slice).start);
      if (call == NONE)
        continue;
      launch[work] = call;
      node_at (self, call)->flags |= SUANLI_REPLAY_LAUNCHES;
      add_edge (raw, call, work, SUANLI_REPLAY_EDGE_LAUNCH, 0);
    }
  for (guint i = 0; i < streams->len; i++)
    {
      Stream *stream = g_ptr_array_index (streams, i);
      gint64 latest = G_MININT64;

      stream->issued = g_new (gint64, MAX (stream->count, 1));
      for (guint32 w = 0; w < stream->count; w++)
        {
          guint32 n = stream->first + w;
          gint64 issued = launch[n] != NONE ? node_at (self, launch[n])->start : node_at (self, n)->start;

          latest = MAX (latest, issued);
          stream->issued[w] = latest;
        }
    }

  /* Waits: the calls' correlations joined to their records. */
  for (guint t = 0; t < n_tracks; t++)
    for (guint32 n = self->chains[t].first; n < self->chains[t].first + self->chains[t].count; n++)
      {
        SuanliReplayNode *node = node_at (self, n);
        const SuanliSlice *slice;
        Record *record;
        gint64 correlation;

        if (node->kind != SUANLI_REPLAY_CALL)
          continue;
        slice = &g_array_index (suanli_trace_get_track (trace, t)->slices, SuanliSlice, node->slice);
        if (g_hash_table_size (records) > 0 && suanli_trace_find_arg_int (trace, slice, "correlation", &correlation))
          {
            record = g_hash_table_lookup (records, &correlation);
            if (record != NULL)
              {
                gint64 recorded;

                if (suanli_trace_find_arg_int (trace, record->slice, "wait_on_cuda_event_record_corr_id", &recorded))
                  g_hash_table_add (wanted, g_memdup2 (&recorded, sizeof recorded));
              }
          }
      }
  if (g_hash_table_size (wanted) > 0)
    for (guint t = 0; t < n_tracks; t++)
      for (guint32 n = self->chains[t].first; n < self->chains[t].first + self->chains[t].count; n++)
        {
          SuanliReplayNode *node = node_at (self, n);
          gint64 correlation;

          if (node->kind == SUANLI_REPLAY_CALL &&
              suanli_trace_find_arg_int (trace, &g_array_index (suanli_trace_get_track (trace, t)->slices, SuanliSlice,
                                                                node->slice),
                                         "correlation", &correlation) &&
              g_hash_table_contains (wanted, &correlation))
            g_hash_table_insert (call_starts, g_memdup2 (&correlation, sizeof correlation),
                                 g_memdup2 (&node->start, sizeof node->start));
        }
  for (guint t = 0; t < n_tracks; t++)
    for (guint32 n = self->chains[t].first; n < self->chains[t].first + self->chains[t].count; n++)
      {
        SuanliReplayNode *node = node_at (self, n);
        const SuanliSlice *slice;
        Record *record = NULL;
        gint64 correlation;
        gpointer key;
        guint kind;

        if (node->kind != SUANLI_REPLAY_CALL || !self->has_gpu)
          continue;
        slice = &g_array_index (suanli_trace_get_track (trace, t)->slices, SuanliSlice, node->slice);
        key = GUINT_TO_POINTER (slice->name + 1);
        kind = GPOINTER_TO_UINT (g_hash_table_lookup (call_kinds, key));
        if (kind == 0)
          {
            kind = call_kind (suanli_trace_get_string (trace, slice->name));
            g_hash_table_insert (call_kinds, key, GUINT_TO_POINTER (kind));
          }
        if (kind == CALL_PLAIN || kind == CALL_COPIES_BLOCKING)
          continue;
        if (g_hash_table_size (records) > 0 && suanli_trace_find_arg_int (trace, slice, "correlation", &correlation))
          record = g_hash_table_lookup (records, &correlation);
        if (kind == CALL_WAITS_EVENT)
          add_event_edge (self, streams, n, record != NULL ? record->slice : NULL, record != NULL ? record->pid : G_MININT64,
                          call_starts, raw);
        else
          add_sync_edges (self, streams, n, record != NULL ? record->slice : NULL, record != NULL ? record->pid : G_MININT64,
                          raw);
      }
  /* A blocking copy ends when its copy does. */
  for (guint n = 0; n < self->nodes->len; n++)
    if (launch[n] != NONE)
      {
        SuanliReplayNode *call = node_at (self, launch[n]);
        const char *name = suanli_trace_get_string (trace, g_array_index (suanli_trace_get_track (trace, call->track)->slices,
                                                                          SuanliSlice, call->slice).name);

        if (call_kind (name) == CALL_COPIES_BLOCKING)
          {
            add_edge (raw, n, launch[n], SUANLI_REPLAY_EDGE_SYNC, 0);
            call->flags |= SUANLI_REPLAY_BLOCKS;
          }
      }
  g_hash_table_remove_all (records);

  index_edges (self, raw);
  set_delays (self);
  assign_steps (self, launch);
  {
    /* The measured step durations, by the rule the replay uses. */
    g_autofree gint64 *starts = g_new (gint64, MAX (self->nodes->len, 1));
    g_autofree gint64 *ends = g_new (gint64, MAX (self->nodes->len, 1));
    g_autofree gint64 *durations = g_new (gint64, MAX (self->steps->len, 1));

    for (guint n = 0; n < self->nodes->len; n++)
      {
        starts[n] = node_at (self, n)->start;
        ends[n] = starts[n] + node_at (self, n)->duration;
      }
    suanli_replay_graph_step_durations (self, starts, ends, durations);
    for (guint i = 0; i < self->steps->len; i++)
      g_array_index (self->steps, SuanliReplayStep, i).duration = durations[i];
    if (self->steps->len == 0 && self->nodes->len > 0)
      {
        SuanliReplayStep whole = { NONE, NONE, G_MAXINT64, 0 };
        gint64 last = G_MININT64;

        for (guint n = 0; n < self->nodes->len; n++)
          {
            whole.start = MIN (whole.start, starts[n]);
            last = MAX (last, ends[n]);
          }
        whole.duration = last - whole.start;
        g_array_append_val (self->steps, whole);
        for (guint n = 0; n < self->nodes->len; n++)
          node_at (self, n)->step = 0;
      }
  }
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
  n = chain_node_at (self, track, g_array_index (t->slices, SuanliSlice, slice).start);
  for (; n != NONE && n < self->chains[track].first + self->chains[track].count &&
         node_at (self, n)->start <= g_array_index (t->slices, SuanliSlice, slice).start; n++)
    if (node_at (self, n)->slice == slice)
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
    durations[n] = node_at (self, n)->own;
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
      starts[n] = node_at (self, n)->start;   /* kept only by nodes without a predecessor */
      ends[n] = G_MININT64;                   /* the sync edges' waits, until the node's end */
    }
  for (guint i = 0; i < 2 * self->nodes->len; i++)
    {
      guint32 n = self->order[i] / 2;
      gboolean end_event = self->order[i] % 2 == 1;
      const SuanliReplayNode *node = node_at (self, n);
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

/**
 * suanli_replay_graph_step_durations:
 * @durations: (out caller-allocates): per step
 *
 * Each step's duration for the node times @starts and @ends: from its begin marker until its end
 * marker and all the GPU work launched in it have ended. One step without markers: the first
 * node's start to the last node's end.
 */
void
suanli_replay_graph_step_durations (SuanliReplayGraph *self,
                                    const gint64      *starts,
                                    const gint64      *ends,
                                    gint64            *durations)
{
  g_autofree gint64 *last = g_new (gint64, MAX (self->steps->len, 1));
  g_autofree gint64 *first = g_new (gint64, MAX (self->steps->len, 1));

  for (guint i = 0; i < self->steps->len; i++)
    {
      SuanliReplayStep *step = &g_array_index (self->steps, SuanliReplayStep, i);

      first[i] = step->begin != NONE ? starts[step->begin] : G_MAXINT64;
      last[i] = step->end != NONE ? ends[step->end] : G_MININT64;
    }
  for (guint n = 0; n < self->nodes->len; n++)
    {
      const SuanliReplayNode *node = node_at (self, n);
      SuanliReplayStep *step;

      if (node->step < 0)
        continue;
      step = &g_array_index (self->steps, SuanliReplayStep, node->step);
      if (step->begin == NONE)
        first[node->step] = MIN (first[node->step], starts[n]);
      if (node->kind == SUANLI_REPLAY_GPU || step->end == NONE)
        last[node->step] = MAX (last[node->step], ends[n]);
    }
  for (guint i = 0; i < self->steps->len; i++)
    durations[i] = first[i] == G_MAXINT64 ? 0 : last[i] - first[i];
}

/* The median of the steps' durations for the node times @starts and @ends (the lower middle one of
 * an even count). */
gint64
suanli_replay_graph_median_step (SuanliReplayGraph *self,
                                 const gint64      *starts,
                                 const gint64      *ends)
{
  g_autofree gint64 *durations = g_new (gint64, MAX (self->steps->len, 1));

  if (self->steps->len == 0)
    return 0;
  suanli_replay_graph_step_durations (self, starts, ends, durations);
  qsort (durations, self->steps->len, sizeof (gint64), compare_int64);
  return durations[(self->steps->len - 1) / 2];
}
