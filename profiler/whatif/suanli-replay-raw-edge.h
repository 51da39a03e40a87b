/* suanli-replay-raw-edge.h — an edge of the replay graph as read from the trace, before the edges
 * are grouped by the node they enter (SuanliReplayEdge)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef struct
{
  guint32 from;
  guint32 to;
  guint8  kind;      /* SuanliReplayEdgeKind */
  gint64  delay;
} SuanliReplayRawEdge;

G_END_DECLS
