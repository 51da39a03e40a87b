/* suanli-import-chrome.h — Chrome trace-event JSON, as PyTorch's profiler and Kineto write it
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "suanli-import-stats.h"

G_BEGIN_DECLS

gboolean suanli_import_chrome (SuanliTrace       *trace,
                               GInputStream      *stream,
                               const char        *name,
                               SuanliImportStats *stats,
                               GCancellable      *cancellable,
                               GError           **error);

G_END_DECLS
