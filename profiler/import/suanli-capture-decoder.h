/* suanli-capture-decoder.h — a capture stream's bytes, as they come, into a trace
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "suanli-trace.h"

G_BEGIN_DECLS

typedef struct _SuanliCaptureDecoder SuanliCaptureDecoder;

SuanliCaptureDecoder *suanli_capture_decoder_new        (SuanliTrace          *trace,
                                                         const char           *name);
void                  suanli_capture_decoder_free       (SuanliCaptureDecoder *self);
gboolean              suanli_capture_decoder_feed       (SuanliCaptureDecoder *self,
                                                         const void           *data,
                                                         gsize                 length,
                                                         GError              **error);
gboolean              suanli_capture_decoder_finish     (SuanliCaptureDecoder *self,
                                                         GError              **error);
void                  suanli_capture_decoder_update     (SuanliCaptureDecoder *self);
void                  suanli_capture_decoder_finish_live (SuanliCaptureDecoder *self);
guint64               suanli_capture_decoder_get_records (SuanliCaptureDecoder *self);
guint64               suanli_capture_decoder_get_dropped (SuanliCaptureDecoder *self);
const char           *suanli_capture_decoder_get_end_problem (SuanliCaptureDecoder *self);
const char           *suanli_capture_decoder_describe   (SuanliGroupCapture    capture);
gboolean              suanli_capture_decoder_has_ended  (SuanliCaptureDecoder *self);
gboolean              suanli_capture_decoder_has_rest   (SuanliCaptureDecoder *self);
GBytes               *suanli_capture_decoder_steal_rest (SuanliCaptureDecoder *self);
void                  suanli_capture_decoder_set_clock_shift (SuanliCaptureDecoder *self,
                                                         gint64                shift_ns);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (SuanliCaptureDecoder, suanli_capture_decoder_free)

G_END_DECLS
