/* suanli-whatif-timeline.h — the projected timeline of a what-if: one file's threads and streams,
 * each slice at its replayed time
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "suanli-replay-graph.h"

G_BEGIN_DECLS

SuanliTrace *suanli_whatif_timeline_new (SuanliTrace       *trace,
                                         guint              group,
                                         SuanliReplayGraph *graph,
                                         const gint64      *starts,
                                         const gint64      *ends);

G_END_DECLS
