/* suanli-local-capture.h — a live capture from a job on this machine, over its control socket
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "suanli-live-capture.h"

G_BEGIN_DECLS

#define SUANLI_TYPE_LOCAL_CAPTURE (suanli_local_capture_get_type ())

G_DECLARE_FINAL_TYPE (SuanliLocalCapture, suanli_local_capture, SUANLI, LOCAL_CAPTURE, SuanliLiveCapture)

SuanliLiveCapture *suanli_local_capture_new (SuanliTrace         *trace,
                                             const SuanliLiveJob *job);

G_END_DECLS
