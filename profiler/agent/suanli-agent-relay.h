/* suanli-agent-relay.h — one workbench's WebSocket to one job's capture, inside suanli-agent
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <libsoup/soup.h>

#include "suanli-live-job.h"

G_BEGIN_DECLS

#define SUANLI_TYPE_AGENT_RELAY (suanli_agent_relay_get_type ())

G_DECLARE_FINAL_TYPE (SuanliAgentRelay, suanli_agent_relay, SUANLI, AGENT_RELAY, GObject)

SuanliAgentRelay *suanli_agent_relay_new (SoupWebsocketConnection *connection,
                                          int                      pid,
                                          const char              *socket_folder,
                                          const char              *peer,
                                          gint64                   clock_shift_ns,
                                          guint                    queue_limit);
gint64            suanli_agent_now_ns    (gint64                   clock_shift_ns);

G_END_DECLS
