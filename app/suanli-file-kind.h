/* suanli-file-kind.h — what a file given to `suanli FILE…` or Open… is, so it reaches the right page
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>

#include "suanli-trace-format.h"

G_BEGIN_DECLS

typedef enum {
  SUANLI_FILE_KIND_UNKNOWN,
  SUANLI_FILE_KIND_PLAN,      /* *.suanli-plan, or JSON with "schema": "suanli-plan/…" */
  SUANLI_FILE_KIND_CATALOG,   /* JSON with "schema": "suanli-catalog/…" */
  SUANLI_FILE_KIND_TRACE,     /* anything the trace sniffer recognises */
} SuanliFileKind;

SuanliFileKind  suanli_file_kind_detect    (GFile              *file,
                                            SuanliTraceFormat  *trace_format,
                                            GCancellable       *cancellable,
                                            GError            **error);
const char     *suanli_file_kind_describe  (SuanliFileKind      kind);

G_END_DECLS
