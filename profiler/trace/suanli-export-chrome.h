/* suanli-export-chrome.h — a trace written back as Chrome trace-event JSON (Perfetto opens it)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "suanli-trace.h"

G_BEGIN_DECLS

gboolean suanli_export_chrome (SuanliTrace    *trace,
                               GOutputStream  *output,
                               GCancellable   *cancellable,
                               GError        **error);

G_END_DECLS
