/* suanli-test-capture.h — capture streams written record by record, for the decoder's tests and
 * benchmarks, with this process's own modules and stacks
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

#include "capture/suanli-capture.h"
#include "suanli-trace.h"

G_BEGIN_DECLS

typedef struct
{
  GByteArray *bytes;
  guint32     next_string;   /* the last string id given */
} SuanliTestCapture;

void     suanli_test_capture_init         (SuanliTestCapture *capture,
                                           guint32            flags);
void     suanli_test_capture_clear        (SuanliTestCapture *capture);
guint32  suanli_test_capture_string       (SuanliTestCapture *capture,
                                           const char        *text);
void     suanli_test_capture_kernel       (SuanliTestCapture *capture,
                                           guint32            correlation,
                                           guint32            name,
                                           guint64            start,
                                           guint64            end);
void     suanli_test_capture_module       (SuanliTestCapture *capture,
                                           guint64            bias,
                                           guint64            start,
                                           guint64            end,
                                           const char        *path,
                                           const guint8      *build_id,
                                           guint              build_id_length);
guint    suanli_test_capture_own_modules  (SuanliTestCapture *capture);
void     suanli_test_capture_launch_stack (SuanliTestCapture *capture,
                                           guint32            correlation,
                                           guint32            python,
                                           const guint64     *frames,
                                           guint              depth);
void     suanli_test_capture_dropped      (SuanliTestCapture *capture,
                                           guint64            count,
                                           SuanliDropReason   reason);
void     suanli_test_capture_end          (SuanliTestCapture *capture,
                                           SuanliEndReason    reason,
                                           guint32            detail,
                                           guint64            dropped);
SuanliTrace *suanli_test_capture_decode   (SuanliTestCapture *capture);
SuanliTrack *suanli_test_find_gpu_stream   (SuanliTrace       *trace);
const char  *suanli_test_find_string_arg  (SuanliTrace       *trace,
                                           const SuanliSlice *slice,
                                           const char        *key);

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (SuanliTestCapture, suanli_test_capture_clear)

G_END_DECLS
