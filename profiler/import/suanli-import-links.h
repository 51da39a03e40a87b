/* suanli-import-links.h — joining CPU launches to the GPU work they launched, for the importers
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "suanli-trace.h"

G_BEGIN_DECLS

void suanli_import_link_correlations (SuanliTrace *trace,
                                      guint        group);

G_END_DECLS
