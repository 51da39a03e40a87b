/* suanli-replay-graph-read.c — a file's nodes and edges, read from its trace alone: its threads'
 * chains of calls, gaps and step markers; its streams' work; the launches (flows); the waits on
 * events and the blocking calls, joined to Kineto's cuda_sync records by correlation; the launch
 * queue's back-pressure. What they are
 * and how they are replayed: suanli-replay-graph.c.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>

#include "suanli-classifier.h"
#include "suanli-replay-graph-private.h"
#include "suanli-replay-raw-edge.h"

#define NONE G_MAXUINT32
#define STEP_PREFIX "ProfilerStep#"

/* What reading a file's nodes and edges carries from one stage to the next. */
typedef struct
{
  SuanliReplayGraph *self;
  SuanliTrace       *trace;
  guint              group;
  guint              n_tracks;
  GArray            *raw;            /* of SuanliReplayRawEdge: the caller's */
  SuanliClassifier  *classifier;
  GPtrArray         *streams;        /* of Stream */
  GHashTable        *records;        /* correlation → Record: Kineto's cuda_sync records */
  GHashTable        *call_starts;    /* correlation of an event's record call → the call's start */
  guint32           *launch;         /* per node: the call that launched it, or NONE */
} GraphReading;

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
  SuanliReplayRawEdge edge = { from, to, kind, delay };

  g_array_append_val (raw, edge);
}

/* Kineto's category of sync records. */
static gboolean
is_sync_category (const char *category)
{
  return g_str_equal (category, "cuda_sync");
}

/* Whether @category passes @test, told once per category: @told maps category + 1 to 1 (yes) or 2
 * (no). Categories are compared by name, not interned: the trace is only read (a view may be
 * drawing it). */
static gboolean
category_is (SuanliTrace  *trace,
             GHashTable   *told,
             SuanliString  category,
             gboolean    (*test) (const char *category))
{
  gpointer key = GUINT_TO_POINTER (category + 1);
  guint answer = GPOINTER_TO_UINT (g_hash_table_lookup (told, key));

  if (answer == 0)
    {
      answer = test (suanli_trace_get_string (trace, category)) ? 1 : 2;
      g_hash_table_insert (told, key, GUINT_TO_POINTER (answer));
    }
  return answer == 1;
}

/* @track's items, in its order: its steps' markers (the steps are added to the graph), and its
 * outermost calls (any outermost slice in a trace without GPU work). */
static void
collect_chain_items (SuanliReplayGraph *self,
                     SuanliTrack       *track,
                     gboolean           gpu_trace,
                     GHashTable        *runtime_categories,
                     GArray            *items)
{
  gint64 outer_end = G_MININT64;

  for (guint s = 0; s < track->slices->len; s++)
    {
      const SuanliSlice *slice = &g_array_index (track->slices, SuanliSlice, s);

      if (is_step_name (suanli_trace_get_string (self->trace, slice->name)))
        {
          Item begin = { slice->start, slice->start, s, ITEM_BEGIN_MARKER, self->steps->len };
          Item end = { slice->start + slice->duration, slice->start + slice->duration, s, ITEM_END_MARKER, self->steps->len };
          SuanliReplayStep step = { NONE, NONE, slice->start, slice->duration };

          g_array_append_val (items, begin);
          g_array_append_val (items, end);
          g_array_append_val (self->steps, step);
          continue;
        }
      if ((!category_is (self->trace, runtime_categories, slice->category, is_runtime_category) && gpu_trace) || slice->start < outer_end)
        continue;
      {
        Item call = { slice->start, slice->start + slice->duration, s, ITEM_CALL, NONE };

        g_array_append_val (items, call);
        outer_end = call.end;
      }
    }
}

/* Track @t's chain from its @items in time order: a node each, with a gap node wherever time
 * passes between them, and PROGRAM edges along it. */
static void
add_chain_nodes (SuanliReplayGraph *self,
                 guint              t,
                 GArray            *items,
                 GArray            *raw)
{
  gint64 cursor = 0;
  guint32 previous = NONE;

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

/* Makes track @t's chain: its outermost calls and its steps' markers, in time order, with the gaps
 * between them. */
static void
build_chain (GraphReading *r,
             guint         t,
             GHashTable   *runtime_categories)
{
  g_autoptr(GArray) items = g_array_new (FALSE, FALSE, sizeof (Item));

  collect_chain_items (r->self, suanli_trace_get_track (r->trace, t), r->self->has_gpu, runtime_categories, items);
  if (items->len == 0)
    return;
  g_array_sort (items, compare_items);
  add_chain_nodes (r->self, t, items, r->raw);
}

/* The node of @t's chain that holds @time (the last to start at or before it), or NONE. */
guint32
suanli_replay_graph_chain_node_at (SuanliReplayGraph *self,
                                   guint              t,
                                   gint64             time)
{
  guint32 first = self->chains[t].first, low = 0, high = self->chains[t].count;

  if (high == 0)
    return NONE;
  while (low < high)
    {
      guint32 middle = (low + high) / 2;

      if (suanli_replay_graph_node (self, first + middle)->start <= time)
        low = middle + 1;
      else
        high = middle;
    }
  return low == 0 ? first : first + low - 1;
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
  SuanliReplayNode *node = suanli_replay_graph_node (self, call);
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
  SuanliReplayNode *node = suanli_replay_graph_node (self, call);
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

/* Whether the file has GPU work: without it, a thread's chain is its outermost slices. */
static void
find_gpu_work (GraphReading *r)
{
  SuanliReplayGraph *self = r->self;

  for (guint t = 0; t < r->n_tracks && !self->has_gpu; t++)
    {
      SuanliTrack *track = suanli_trace_get_track (r->trace, t);

      if (track->kind == SUANLI_TRACK_GPU_STREAM && track->group == r->group)
        for (guint s = 0; s < track->slices->len && !self->has_gpu; s++)
          self->has_gpu = suanli_classifier_work (r->classifier, &g_array_index (track->slices, SuanliSlice, s)) !=
                          SUANLI_GPU_WORK_NONE;
    }
}

/* Keeps sync record @slice of device @pid by its correlation, for the call it belongs to. */
static void
keep_record (GraphReading      *r,
             const SuanliSlice *slice,
             gint64             pid)
{
  gint64 correlation;

  if (suanli_trace_find_arg_int (r->trace, slice, "correlation", &correlation))
    {
      Record record = { slice, pid };

      g_hash_table_insert (r->records, g_memdup2 (&correlation, sizeof correlation), g_memdup2 (&record, sizeof record));
    }
}

static Stream *
add_stream (GraphReading *r,
            SuanliTrack  *track)
{
  Stream *stream = g_new0 (Stream, 1);

  stream->pid = track->pid;
  stream->tid = track->tid;
  stream->first = r->self->nodes->len;
  g_ptr_array_add (r->streams, stream);
  return stream;
}

/* GPU track @t's work as nodes in stream order, and its sync records. */
static void
read_stream (GraphReading *r,
             guint         t,
             GHashTable   *sync_categories)
{
  SuanliReplayGraph *self = r->self;
  SuanliTrack *track = suanli_trace_get_track (r->trace, t);
  Stream *stream = NULL;

  self->gpu_nodes[t] = g_new (guint32, MAX (track->slices->len, 1));
  for (guint s = 0; s < track->slices->len; s++)
    {
      SuanliSlice *slice = &g_array_index (track->slices, SuanliSlice, s);

      self->gpu_nodes[t][s] = NONE;
      if (category_is (r->trace, sync_categories, slice->category, is_sync_category))
        {
          keep_record (r, slice, track->pid);
          continue;
        }
      if (suanli_classifier_work (r->classifier, slice) == SUANLI_GPU_WORK_NONE)
        continue;
      if (stream == NULL)
        stream = add_stream (r, track);
      self->gpu_nodes[t][s] = add_node (self, SUANLI_REPLAY_GPU, slice->start, slice->duration, t, s);
      if (stream->count > 0)
        add_edge (r->raw, self->gpu_nodes[t][s] - 1, self->gpu_nodes[t][s], SUANLI_REPLAY_EDGE_STREAM, 0);
      stream->count++;
    }
}

/* Reads each of the file's tracks of @kind with @read, in track order, which @categories (see
 * category_is()) serves for them all. */
static void
read_tracks (GraphReading     *r,
             SuanliTrackKind   kind,
             void            (*read) (GraphReading *r, guint t, GHashTable *categories))
{
  g_autoptr(GHashTable) categories = g_hash_table_new (NULL, NULL);

  for (guint t = 0; t < r->n_tracks; t++)
    {
      SuanliTrack *track = suanli_trace_get_track (r->trace, t);

      if (track->kind == kind && track->group == r->group)
        read (r, t, categories);
    }
}

/* Each GPU node's launch call, from the flows into it, and the LAUNCH edge. */
static void
add_launch_edges (GraphReading *r)
{
  SuanliReplayGraph *self = r->self;
  GArray *flows = suanli_trace_get_flows (r->trace);

  r->launch = g_new (guint32, MAX (self->nodes->len, 1));
  memset (r->launch, 0xff, sizeof (guint32) * MAX (self->nodes->len, 1));
  for (guint f = 0; f < flows->len; f++)
    {
      SuanliFlow *flow = &g_array_index (flows, SuanliFlow, f);
      SuanliTrack *from;
      guint32 work, call;

      if (flow->to_track >= r->n_tracks || self->gpu_nodes[flow->to_track] == NULL ||
          flow->to_slice >= suanli_trace_get_track (r->trace, flow->to_track)->slices->len ||
          (work = self->gpu_nodes[flow->to_track][flow->to_slice]) == NONE || r->launch[work] != NONE)
        continue;
      from = suanli_trace_get_track (r->trace, flow->from_track);
      if (from->kind != SUANLI_TRACK_THREAD || from->group != r->group || flow->from_slice >= from->slices->len)
        continue;
      call = suanli_replay_graph_chain_node_at (self, flow->from_track,
                                                g_array_index (from->slices, SuanliSlice, flow->from_slice).start);
      if (call == NONE)
        continue;
      r->launch[work] = call;
      suanli_replay_graph_node (self, call)->flags |= SUANLI_REPLAY_LAUNCHES;
      add_edge (r->raw, call, work, SUANLI_REPLAY_EDGE_LAUNCH, 0);
    }
}

/* When each stream's work was issued (see Stream). */
static void
set_issue_times (GraphReading *r)
{
  for (guint i = 0; i < r->streams->len; i++)
    {
      Stream *stream = g_ptr_array_index (r->streams, i);
      gint64 latest = G_MININT64;

      stream->issued = g_new (gint64, MAX (stream->count, 1));
      for (guint32 w = 0; w < stream->count; w++)
        {
          guint32 n = stream->first + w;
          guint32 by = r->launch[n] != NONE ? r->launch[n] : n;

          latest = MAX (latest, suanli_replay_graph_node (r->self, by)->start);
          stream->issued[w] = latest;
        }
    }
}

static const SuanliSlice *
call_slice (GraphReading           *r,
            guint                   t,
            const SuanliReplayNode *node)
{
  return &g_array_index (suanli_trace_get_track (r->trace, t)->slices, SuanliSlice, node->slice);
}

/* The sync record of call @slice, joined by its correlation, or NULL. */
static Record *
record_of (GraphReading      *r,
           const SuanliSlice *slice)
{
  gint64 correlation;

  if (g_hash_table_size (r->records) > 0 && suanli_trace_find_arg_int (r->trace, slice, "correlation", &correlation))
    return g_hash_table_lookup (r->records, &correlation);
  return NULL;
}

/* The starts of the calls that recorded the events that stream waits wait on, by correlation. */
static void
find_event_record_starts (GraphReading *r)
{
  SuanliReplayGraph *self = r->self;
  g_autoptr(GHashTable) wanted = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, NULL);

  for (guint t = 0; t < r->n_tracks; t++)
    for (guint32 n = self->chains[t].first; n < self->chains[t].first + self->chains[t].count; n++)
      {
        SuanliReplayNode *node = suanli_replay_graph_node (self, n);
        Record *record;
        gint64 recorded;

        if (node->kind != SUANLI_REPLAY_CALL)
          continue;
        record = record_of (r, call_slice (r, t, node));
        if (record != NULL &&
            suanli_trace_find_arg_int (r->trace, record->slice, "wait_on_cuda_event_record_corr_id", &recorded))
          g_hash_table_add (wanted, g_memdup2 (&recorded, sizeof recorded));
      }
  if (g_hash_table_size (wanted) == 0)
    return;
  for (guint t = 0; t < r->n_tracks; t++)
    for (guint32 n = self->chains[t].first; n < self->chains[t].first + self->chains[t].count; n++)
      {
        SuanliReplayNode *node = suanli_replay_graph_node (self, n);
        gint64 correlation;

        if (node->kind == SUANLI_REPLAY_CALL &&
            suanli_trace_find_arg_int (r->trace, call_slice (r, t, node), "correlation", &correlation) &&
            g_hash_table_contains (wanted, &correlation))
          g_hash_table_insert (r->call_starts, g_memdup2 (&correlation, sizeof correlation),
                               g_memdup2 (&node->start, sizeof node->start));
      }
}

/* What call @slice does to the GPU's work, told once per name. */
static guint
call_kind_of (GraphReading      *r,
              GHashTable        *call_kinds,
              const SuanliSlice *slice)
{
  gpointer key = GUINT_TO_POINTER (slice->name + 1);
  guint kind = GPOINTER_TO_UINT (g_hash_table_lookup (call_kinds, key));

  if (kind == 0)
    {
      kind = call_kind (suanli_trace_get_string (r->trace, slice->name));
      g_hash_table_insert (call_kinds, key, GUINT_TO_POINTER (kind));
    }
  return kind;
}

/* The EVENT edges of stream waits on events, and the SYNC edges of synchronising calls. */
static void
add_wait_edges (GraphReading *r)
{
  SuanliReplayGraph *self = r->self;
  g_autoptr(GHashTable) call_kinds = g_hash_table_new (NULL, NULL);   /* name + 1 → call kind */

  if (!self->has_gpu)
    return;
  for (guint t = 0; t < r->n_tracks; t++)
    for (guint32 n = self->chains[t].first; n < self->chains[t].first + self->chains[t].count; n++)
      {
        SuanliReplayNode *node = suanli_replay_graph_node (self, n);
        const SuanliSlice *slice;
        Record *record;
        guint kind;

        if (node->kind != SUANLI_REPLAY_CALL)
          continue;
        slice = call_slice (r, t, node);
        kind = call_kind_of (r, call_kinds, slice);
        if (kind == CALL_PLAIN || kind == CALL_COPIES_BLOCKING)
          continue;
        record = record_of (r, slice);
        if (kind == CALL_WAITS_EVENT)
          add_event_edge (self, r->streams, n, record != NULL ? record->slice : NULL,
                          record != NULL ? record->pid : G_MININT64, r->call_starts, r->raw);
        else
          add_sync_edges (self, r->streams, n, record != NULL ? record->slice : NULL,
                          record != NULL ? record->pid : G_MININT64, r->raw);
      }
}

/* A blocking copy ends when its copy does. */
static void
add_blocking_copy_edges (GraphReading *r)
{
  SuanliReplayGraph *self = r->self;

  for (guint n = 0; n < self->nodes->len; n++)
    if (r->launch[n] != NONE)
      {
        SuanliReplayNode *call = suanli_replay_graph_node (self, r->launch[n]);
        const char *name = suanli_trace_get_string (r->trace, call_slice (r, call->track, call)->name);

        if (call_kind (name) == CALL_COPIES_BLOCKING)
          {
            add_edge (r->raw, n, r->launch[n], SUANLI_REPLAY_EDGE_SYNC, 0);
            call->flags |= SUANLI_REPLAY_BLOCKS;
          }
      }
}

/* A launch and the work it put in the launch queue, for add_queue_edges(). */
typedef struct
{
  gint64  issued;   /* the launch call's start */
  guint32 work;
} Issue;

static int
compare_issues (gconstpointer a,
                gconstpointer b)
{
  const Issue *x = a, *y = b;

  if (x->issued != y->issued)
    return x->issued < y->issued ? -1 : 1;
  return (x->work > y->work) - (x->work < y->work);
}

/* The launch queue's back-pressure: the runtime holds at most SUANLI_REPLAY_LAUNCH_QUEUE_DEPTH
 * launches whose work has not ended, the one being made included, and a launch made when it is
 * full returns only once the work at the queue's head has ended. So each launch call may wait (a
 * SYNC edge) on the work launched DEPTH − 1 launches before its own, in the file's launch order
 * (on HTA's ns_resolution_trace every blocked cudaLaunchKernel returns just after the work 1,022
 * launches before it ends; the work 1,023 before had ended before the call began). Where the queue was never full
 * the edge waits on work long ended: the call keeps its measured time, and waits only when a
 * slower GPU would fill the queue. */
static void
add_queue_edges (GraphReading *r)
{
  SuanliReplayGraph *self = r->self;
  g_autoptr(GArray) issues = g_array_new (FALSE, FALSE, sizeof (Issue));

  for (guint32 n = 0; n < self->nodes->len; n++)
    if (r->launch[n] != NONE)
      {
        Issue issue = { suanli_replay_graph_node (self, r->launch[n])->start, n };

        g_array_append_val (issues, issue);
      }
  if (issues->len < SUANLI_REPLAY_LAUNCH_QUEUE_DEPTH)
    return;
  g_array_sort (issues, compare_issues);
  for (guint k = SUANLI_REPLAY_LAUNCH_QUEUE_DEPTH - 1; k < issues->len; k++)
    {
      guint32 ahead = g_array_index (issues, Issue, k - (SUANLI_REPLAY_LAUNCH_QUEUE_DEPTH - 1)).work;
      guint32 call = r->launch[g_array_index (issues, Issue, k).work];

      add_edge (r->raw, ahead, call, SUANLI_REPLAY_EDGE_SYNC, 0);
      suanli_replay_graph_node (self, call)->flags |= SUANLI_REPLAY_QUEUED;
    }
}

/* Whether thread @t is inside a call at @time. */
static gboolean
in_call_at (SuanliReplayGraph *self,
            guint              t,
            gint64             time)
{
  guint32 n = suanli_replay_graph_chain_node_at (self, t, time);
  const SuanliReplayNode *node;

  if (n == NONE)
    return FALSE;
  node = suanli_replay_graph_node (self, n);
  return node->kind == SUANLI_REPLAY_CALL && node->start < time && node->start + node->duration > time;
}

/* Thread @u's calls inside @gap (of another thread) when @u is idle at both its ends and its
 * calls span at least half of it: the last of them, and how long the span is; NONE otherwise. */
static guint32
burst_within (SuanliReplayGraph      *self,
              guint                   u,
              const SuanliReplayNode *gap)
{
  gint64 gap_end = gap->start + gap->duration;
  guint32 first = self->chains[u].first, end = first + self->chains[u].count, last, n;
  gint64 span_start = G_MAXINT64;

  if (self->chains[u].count == 0 || in_call_at (self, u, gap->start) || in_call_at (self, u, gap_end))
    return NONE;
  last = suanli_replay_graph_chain_node_at (self, u, gap_end);
  while (last >= first && last != NONE &&
         (suanli_replay_graph_node (self, last)->kind != SUANLI_REPLAY_CALL ||
          suanli_replay_graph_node (self, last)->start + suanli_replay_graph_node (self, last)->duration > gap_end))
    last = last > first ? last - 1 : NONE;
  if (last == NONE || suanli_replay_graph_node (self, last)->start < gap->start)
    return NONE;
  n = suanli_replay_graph_chain_node_at (self, u, gap->start);
  for (; n < end && n <= last; n++)
    if (suanli_replay_graph_node (self, n)->kind == SUANLI_REPLAY_CALL && suanli_replay_graph_node (self, n)->start >= gap->start)
      {
        span_start = suanli_replay_graph_node (self, n)->start;
        break;
      }
  if (span_start == G_MAXINT64)
    return NONE;
  {
    const SuanliReplayNode *tail = suanli_replay_graph_node (self, last);

    return 2 * (tail->start + tail->duration - span_start) >= gap->duration ? last : NONE;
  }
}

/* A thread that hands its work to another and waits for it (PyTorch's main thread during the
 * backward pass, which autograd's thread runs) shows one long gap while the other thread makes
 * its calls. Such a gap waits (a SYNC edge) on the other thread's last call inside it: when that
 * thread's calls end earlier (launches that waited less for room in the queue), so does the gap.
 * A gap is taken as such a wait when another thread of the file is idle at both its ends and its
 * calls inside span at least half of it; of several, the one ending last is waited on. */
static void
add_thread_wait_edges (GraphReading *r)
{
  SuanliReplayGraph *self = r->self;

  for (guint t = 0; t < r->n_tracks; t++)
    for (guint32 n = self->chains[t].first; n < self->chains[t].first + self->chains[t].count; n++)
      {
        SuanliReplayNode *gap = suanli_replay_graph_node (self, n);
        guint32 waited = NONE;

        if (gap->kind != SUANLI_REPLAY_GAP || gap->duration <= 0)
          continue;
        for (guint u = 0; u < r->n_tracks; u++)
          {
            guint32 last = u != t ? burst_within (self, u, gap) : NONE;
            const SuanliReplayNode *tail = last != NONE ? suanli_replay_graph_node (self, last) : NULL;

            if (tail != NULL && (waited == NONE ||
                                 tail->start + tail->duration > suanli_replay_graph_node (self, waited)->start +
                                                                suanli_replay_graph_node (self, waited)->duration))
              waited = last;
          }
        if (waited == NONE)
          continue;
        add_edge (r->raw, waited, n, SUANLI_REPLAY_EDGE_SYNC, 0);
        gap->flags |= SUANLI_REPLAY_BLOCKS;
      }
}

/**
 * suanli_replay_graph_read:
 * @raw: (element-type SuanliReplayRawEdge): the edges read are appended to it
 *
 * Reads @self's file from its trace: adds its nodes, its steps (their markers), its threads' chains
 * and its GPU tracks' nodes to @self, and appends its edges to @raw.
 *
 * Returns: (transfer full): per node, the call that launched it, or G_MAXUINT32.
 */
guint32 *
suanli_replay_graph_read (SuanliReplayGraph *self,
                          GArray            *raw)
{
  GraphReading r = { self, self->trace, self->group, suanli_trace_get_n_tracks (self->trace), raw };

  r.classifier = suanli_classifier_new (self->trace);
  r.streams = g_ptr_array_new_with_free_func (stream_free);
  r.records = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, g_free);
  r.call_starts = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, g_free);
  find_gpu_work (&r);
  read_tracks (&r, SUANLI_TRACK_THREAD, build_chain);      /* the CPU threads' chains */
  read_tracks (&r, SUANLI_TRACK_GPU_STREAM, read_stream);   /* their work, and the sync records by correlation */
  add_launch_edges (&r);
  set_issue_times (&r);
  find_event_record_starts (&r);
  add_wait_edges (&r);
  add_blocking_copy_edges (&r);
  add_queue_edges (&r);
  add_thread_wait_edges (&r);
  g_hash_table_unref (r.call_starts);
  g_hash_table_unref (r.records);
  g_ptr_array_unref (r.streams);
  suanli_classifier_free (r.classifier);
  return r.launch;
}
