/* suanli-import-folded.h — collapsed ("folded") stacks, one "frame;frame count" per line
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "suanli-import-stats.h"

G_BEGIN_DECLS

gboolean suanli_import_folded (SuanliTrace       *trace,
                               GInputStream      *input,
                               const char        *name,
                               SuanliImportStats *stats,
                               GCancellable      *cancellable,
                               GError           **error);

G_END_DECLS
