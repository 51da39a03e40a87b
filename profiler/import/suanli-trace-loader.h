/* suanli-trace-loader.h — reading trace files into one SuanliTrace on a worker thread, with
 * progress and cancellation
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "suanli-import.h"
#include "suanli-trace-figures.h"

G_BEGIN_DECLS

#define SUANLI_TYPE_TRACE_LOADER (suanli_trace_loader_get_type ())

G_DECLARE_FINAL_TYPE (SuanliTraceLoader, suanli_trace_loader, SUANLI, TRACE_LOADER, GObject)

SuanliTraceLoader *suanli_trace_loader_new          (GFile * const      *files,
                                                     guint               n_files);
double             suanli_trace_loader_get_fraction (SuanliTraceLoader  *self);
void               suanli_trace_loader_load_async   (SuanliTraceLoader  *self,
                                                     GCancellable       *cancellable,
                                                     GAsyncReadyCallback callback,
                                                     gpointer            user_data);
SuanliTrace       *suanli_trace_loader_load_finish  (SuanliTraceLoader  *self,
                                                     GAsyncResult       *result,
                                                     GError            **error);
const SuanliImportStats *suanli_trace_loader_get_stats (SuanliTraceLoader *self);
SuanliTraceFigures *suanli_trace_loader_steal_figures (SuanliTraceLoader *self);

G_END_DECLS
