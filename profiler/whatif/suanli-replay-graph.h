/* suanli-replay-graph.h — one file's (rank's) dependency graph, built from its trace alone, and its
 * replay with other durations (the Daydream method: Zhu et al., USENIX ATC 2020)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "suanli-trace.h"

G_BEGIN_DECLS

typedef enum {
  SUANLI_REPLAY_CALL,     /* a runtime or driver call on a CPU thread (CPU-only traces: an outermost slice) */
  SUANLI_REPLAY_GAP,      /* the host's work between two of a thread's calls */
  SUANLI_REPLAY_MARKER,   /* a ProfilerStep#N's begin or end: zero length */
  SUANLI_REPLAY_GPU,      /* a kernel, copy or memset on a GPU stream */
} SuanliReplayNodeKind;

typedef enum {
  SUANLI_REPLAY_EDGE_PROGRAM,   /* a thread's previous node's end → the next one's start */
  SUANLI_REPLAY_EDGE_LAUNCH,    /* a launch call's start → the GPU work's start */
  SUANLI_REPLAY_EDGE_STREAM,    /* the stream's previous work's end → the next work's start */
  SUANLI_REPLAY_EDGE_EVENT,     /* the work a waited event recorded, its end → the waiting stream's next work's start */
  SUANLI_REPLAY_EDGE_SYNC,      /* the work a blocking call waits on, its end → the call's end */
  SUANLI_REPLAY_N_EDGE_KINDS
} SuanliReplayEdgeKind;

enum {
  SUANLI_REPLAY_LAUNCHES = 1 << 0,   /* a call that launched GPU work */
  SUANLI_REPLAY_BLOCKS   = 1 << 1,   /* a call that waited on GPU work (SYNC edges end it) */
  SUANLI_REPLAY_ANCHORED = 1 << 2,   /* no predecessor: starts at its measured time */
  SUANLI_REPLAY_QUEUED   = 1 << 3,   /* a launch that waits for room in a full launch queue (SYNC edges end it) */
};

/* How many launches the runtime holds whose work has not ended, the one being made included; a
 * launch made when it is full waits for the work at its head to end. Measured, not documented: on
 * a PyTorch trace of a V100 kept 98% busy (HTA's ns_resolution_trace), each blocked
 * cudaLaunchKernel returned when the work launched 1,022 launches before it ended. */
#define SUANLI_REPLAY_LAUNCH_QUEUE_DEPTH 1023

typedef struct
{
  gint64  start;        /* measured */
  gint64  duration;     /* measured */
  gint64  own;          /* its own time: the duration, less the wait of a blocking call */
  guint32 track;
  guint32 slice;        /* G_MAXUINT32 for gaps and markers */
  guint32 first_in;     /* its incoming edges: first_in … first_in + n_in − 1 */
  guint32 n_in;
  guint8  kind;         /* SuanliReplayNodeKind */
  guint8  flags;
  gint32  step;         /* the step it belongs to (GPU work: launched in), −1 when none */
} SuanliReplayNode;

typedef struct
{
  guint32 from;
  guint8  kind;         /* SuanliReplayEdgeKind */
  guint8  dropped;      /* left out of the replay to break a cycle of contradictory times */
  gint64  delay;        /* added to the predecessor's start (LAUNCH) or end (the others) */
} SuanliReplayEdge;

typedef struct
{
  guint32 begin;        /* its marker nodes; G_MAXUINT32 when the whole trace is one step */
  guint32 end;
  gint64  start;        /* measured: the begin marker's time, or the first node's start */
  gint64  duration;     /* measured: its period (suanli_replay_graph_step_durations()) */
} SuanliReplayStep;

/* What a replay changes besides durations. */
typedef struct
{
  const guint8 *overlapped;   /* per node, or NULL: work that no longer delays the rest (communication
                               * fully overlapped): its non-overlapped successors see it end as it starts */
  gint64        launch_delay; /* ≥ 0: the most any launch edge's delay is (CUDA graphs: the typical
                               * stream gap, or its own where smaller, so never slower); < 0: as measured */
} SuanliReplayChoices;

typedef struct _SuanliReplayGraph SuanliReplayGraph;

SuanliReplayGraph      *suanli_replay_graph_new            (SuanliTrace               *trace,
                                                            guint                      group);
void                    suanli_replay_graph_free           (SuanliReplayGraph         *self);
guint                   suanli_replay_graph_get_n_nodes    (SuanliReplayGraph         *self);
const SuanliReplayNode *suanli_replay_graph_get_nodes      (SuanliReplayGraph         *self);
const SuanliReplayEdge *suanli_replay_graph_get_edges      (SuanliReplayGraph         *self);
GArray                 *suanli_replay_graph_get_steps      (SuanliReplayGraph         *self);   /* of SuanliReplayStep */
gboolean                suanli_replay_graph_has_gpu        (SuanliReplayGraph         *self);
gint64                  suanli_replay_graph_typical_delay  (SuanliReplayGraph         *self,
                                                            SuanliReplayEdgeKind       kind);
guint64                 suanli_replay_graph_count_edges    (SuanliReplayGraph         *self,
                                                            SuanliReplayEdgeKind       kind);
guint                   suanli_replay_graph_get_unplaced_waits (SuanliReplayGraph     *self);
gboolean                suanli_replay_graph_get_cycle      (SuanliReplayGraph         *self);
guint32                 suanli_replay_graph_find_node      (SuanliReplayGraph         *self,
                                                            guint                      track,
                                                            guint                      slice);
gint64                 *suanli_replay_graph_own_durations  (SuanliReplayGraph         *self);
void                    suanli_replay_graph_run            (SuanliReplayGraph         *self,
                                                            const gint64              *durations,
                                                            const SuanliReplayChoices *choices,
                                                            gint64                    *starts,
                                                            gint64                    *ends);
void                    suanli_replay_graph_step_durations (SuanliReplayGraph         *self,
                                                            const gint64              *starts,
                                                            const gint64              *ends,
                                                            gint64                    *durations);
void                    suanli_replay_graph_step_window    (SuanliReplayGraph         *self,
                                                            const gint64              *starts,
                                                            const gint64              *ends,
                                                            gint64                    *from,
                                                            gint64                    *to);
gint64                  suanli_replay_graph_step_time      (SuanliReplayGraph         *self,
                                                            const gint64              *starts,
                                                            const gint64              *ends);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (SuanliReplayGraph, suanli_replay_graph_free)

G_END_DECLS
