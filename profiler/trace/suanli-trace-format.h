/* suanli-trace-format.h — telling which importer reads a trace file, from its first bytes
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

typedef enum {
  SUANLI_TRACE_FORMAT_UNKNOWN,
  /* Chrome trace-event JSON: {"traceEvents": …} as Kineto and Chrome write it, or a bare array of
   * events as PyTorch's legacy profiler writes it. */
  SUANLI_TRACE_FORMAT_CHROME_JSON,
  /* Collapsed stacks, one "frame;frame;frame count" per line (UTF-8, or UTF-16 with a BOM). */
  SUANLI_TRACE_FORMAT_FOLDED,
  /* Suanli's own capture stream, as suanli-cli record and the injection library write it. */
  SUANLI_TRACE_FORMAT_CAPTURE,
  /* An Nsight Systems SQLite export (nsys export --type sqlite): any SQLite database by its bytes;
   * the importer tells an export from someone else's database by its tables. */
  SUANLI_TRACE_FORMAT_NSYS_SQLITE,
  /* An Nsight Systems report (.nsys-rep, .qdrep): its format is not public; its SQLite export is read. */
  SUANLI_TRACE_FORMAT_NSYS_REPORT,
} SuanliTraceFormat;

/* How many leading bytes the sniffer looks at. */
#define SUANLI_TRACE_SNIFF_LENGTH 8192

SuanliTraceFormat  suanli_trace_format_sniff       (const guint8        *head,
                                                    gsize                length);
GBytes            *suanli_trace_format_read_head   (GFile               *file,
                                                    gboolean            *compressed,
                                                    GCancellable        *cancellable,
                                                    GError             **error);
SuanliTraceFormat  suanli_trace_format_sniff_file  (GFile               *file,
                                                    gboolean            *compressed,
                                                    GCancellable        *cancellable,
                                                    GError             **error);
const char        *suanli_trace_format_describe    (SuanliTraceFormat    format);

G_END_DECLS
