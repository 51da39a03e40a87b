/* suanli-import-capture.h — reading a *.suanli-capture file (or any capture stream) into a trace
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "suanli-import-stats.h"

G_BEGIN_DECLS

gboolean suanli_import_capture (SuanliTrace       *trace,
                                GInputStream      *input,
                                const char        *name,
                                SuanliImportStats *stats,
                                GCancellable      *cancellable,
                                GError           **error);

G_END_DECLS
