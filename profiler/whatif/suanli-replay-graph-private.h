/* suanli-replay-graph-private.h — the replay graph's fields, shared by its reading from the trace
 * (suanli-replay-graph-read.c) and its delays, order and replay (suanli-replay-graph.c)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "suanli-replay-graph.h"

G_BEGIN_DECLS

struct _SuanliReplayGraph
{
  SuanliTrace *trace;
  guint        group;
  GArray      *nodes;       /* of SuanliReplayNode */
  GArray      *edges;       /* of SuanliReplayEdge, grouped by the node they enter */
  GArray      *steps;       /* of SuanliReplayStep */
  guint32     *order;       /* the nodes in an order that puts predecessors first */
  guint32     *step_order;  /* the steps by their start */
  struct
  {
    guint32 first;          /* a CPU thread's chain: nodes first … first + count − 1, by start */
    guint32 count;
  }           *chains;      /* per track */
  guint32    **gpu_nodes;   /* per GPU track: slice → node, or NONE */
  gint64       typical[SUANLI_REPLAY_N_EDGE_KINDS];
  guint64      counts[SUANLI_REPLAY_N_EDGE_KINDS];
  guint        unplaced_waits;
  gboolean     cycle;
  gboolean     has_gpu;
};

static inline SuanliReplayNode *
suanli_replay_graph_node (SuanliReplayGraph *self,
                          guint32            index)
{
  return &g_array_index (self->nodes, SuanliReplayNode, index);
}

/* Defined with the reading (suanli-replay-graph-read.c), which uses it: the object files may
 * not call each other both ways. */
guint32  suanli_replay_graph_chain_node_at (SuanliReplayGraph *self,
                                            guint              track,
                                            gint64             time);
guint32 *suanli_replay_graph_read          (SuanliReplayGraph *self,
                                            GArray            *raw);

G_END_DECLS
