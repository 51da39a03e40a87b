/* suanli-remote-capture.h — a live capture of a job on another node, through its suanli-agent
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "suanli-agent-client.h"
#include "suanli-live-capture.h"

G_BEGIN_DECLS

#define SUANLI_TYPE_REMOTE_CAPTURE (suanli_remote_capture_get_type ())

G_DECLARE_FINAL_TYPE (SuanliRemoteCapture, suanli_remote_capture, SUANLI, REMOTE_CAPTURE, SuanliLiveCapture)

SuanliLiveCapture *suanli_remote_capture_new             (SuanliAgentClient   *client,
                                                          SuanliTrace         *trace,
                                                          const SuanliLiveJob *job);
gint64             suanli_remote_capture_get_clock_offset (SuanliRemoteCapture *self);
gint64             suanli_remote_capture_get_clock_error  (SuanliRemoteCapture *self);
guint64            suanli_remote_capture_get_agent_dropped (SuanliRemoteCapture *self);

G_END_DECLS
