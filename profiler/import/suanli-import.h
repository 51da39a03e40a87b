/* suanli-import.h — reading any trace file Suanli knows: gzip or not, told apart by its bytes
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "suanli-import-stats.h"

G_BEGIN_DECLS

gboolean suanli_import_stream      (SuanliTrace       *trace,
                                    GInputStream      *input,
                                    const char        *name,
                                    SuanliImportStats *stats,
                                    GCancellable      *cancellable,
                                    GError           **error);
gboolean suanli_import_file        (SuanliTrace       *trace,
                                    GFile             *file,
                                    SuanliImportStats *stats,
                                    GCancellable      *cancellable,
                                    GError           **error);
gboolean suanli_import_file_counted (SuanliTrace       *trace,
                                     GFile             *file,
                                     SuanliImportStats *stats,
                                     gsize             *progress,
                                     GCancellable      *cancellable,
                                     GError           **error);

G_END_DECLS
