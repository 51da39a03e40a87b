/* suanli-class-shares.h — the steps' time split among the classes of work, so that the classes are
 * shares of the step and add up to it
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "suanli-replay-graph.h"
#include "suanli-whatif.h"

G_BEGIN_DECLS

void suanli_class_shares (const SuanliReplayNode *nodes,
                          guint                   n_nodes,
                          const guint8           *classes,
                          const gint64           *starts,
                          const gint64           *ends,
                          gint64                  from,
                          gint64                  to,
                          gint64                 *class_ns);

G_END_DECLS
