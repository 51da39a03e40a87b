/* suanli-live-capture.h — a capture streaming from a running job into a growing trace
 *
 * The stream's bytes come from a job on this machine (SuanliLocalCapture) or through an agent
 * (SuanliRemoteCapture); this type decodes them, grows the trace, keeps them for Save and says
 * when the stream has ended.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "suanli-live-job.h"
#include "suanli-trace.h"

G_BEGIN_DECLS

#define SUANLI_TYPE_LIVE_CAPTURE (suanli_live_capture_get_type ())

G_DECLARE_DERIVABLE_TYPE (SuanliLiveCapture, suanli_live_capture, SUANLI, LIVE_CAPTURE, GObject)

struct _SuanliLiveCaptureClass
{
  GObjectClass parent_class;

  /* Asks the job to start; start_finish calls suanli_live_capture_begin() once bytes may flow. */
  void     (*start_async)  (SuanliLiveCapture   *self,
                            GCancellable        *cancellable,
                            GAsyncReadyCallback  callback,
                            gpointer             user_data);
  gboolean (*start_finish) (SuanliLiveCapture   *self,
                            GAsyncResult        *result,
                            GError             **error);
  /* Asks the job to end the capture: what it holds still comes, then the stream closes. */
  void     (*stop)         (SuanliLiveCapture   *self);
  /* Lets go of the stream (it has ended, or the capture is being dropped). */
  void     (*close)        (SuanliLiveCapture   *self);
};

SuanliTrace       *suanli_live_capture_get_trace    (SuanliLiveCapture    *self);
const char        *suanli_live_capture_get_name     (SuanliLiveCapture    *self);
void               suanli_live_capture_set_clock_shift (SuanliLiveCapture *self,
                                                     gint64                shift_ns);
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
guint64            suanli_live_capture_get_bytes    (SuanliLiveCapture    *self);
gboolean           suanli_live_capture_save         (SuanliLiveCapture    *self,
                                                     GFile                *file,
                                                     GError              **error);

/* For the transports. */
void               suanli_live_capture_set_name     (SuanliLiveCapture    *self,
                                                     const char           *name);
void               suanli_live_capture_begin        (SuanliLiveCapture    *self);
gboolean           suanli_live_capture_take         (SuanliLiveCapture    *self,
                                                     const void           *data,
                                                     gsize                 length);
void               suanli_live_capture_end          (SuanliLiveCapture    *self,
                                                     const GError         *error);

G_END_DECLS
