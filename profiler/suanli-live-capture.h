/* suanli-live-capture.h — a capture streaming from a running job into a growing trace
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "suanli-live-job.h"
#include "suanli-trace.h"

G_BEGIN_DECLS

#define SUANLI_TYPE_LIVE_CAPTURE (suanli_live_capture_get_type ())

G_DECLARE_FINAL_TYPE (SuanliLiveCapture, suanli_live_capture, SUANLI, LIVE_CAPTURE, GObject)

SuanliLiveCapture *suanli_live_capture_new          (SuanliTrace          *trace,
                                                     const SuanliLiveJob  *job);
SuanliTrace       *suanli_live_capture_get_trace    (SuanliLiveCapture    *self);
void               suanli_live_capture_start_async  (SuanliLiveCapture    *self,
                                                     GCancellable         *cancellable,
                                                     GAsyncReadyCallback   callback,
                                                     gpointer              user_data);
gboolean           suanli_live_capture_start_finish (SuanliLiveCapture    *self,
                                                     GAsyncResult         *result,
                                                     GError              **error);
void               suanli_live_capture_stop         (SuanliLiveCapture    *self);
gboolean           suanli_live_capture_is_running   (SuanliLiveCapture    *self);
guint64            suanli_live_capture_get_records  (SuanliLiveCapture    *self);
gboolean           suanli_live_capture_save         (SuanliLiveCapture    *self,
                                                     GFile                *file,
                                                     GError              **error);

G_END_DECLS
