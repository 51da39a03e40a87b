/* suanli-item-csv.h — catalog items as CSV, for spreadsheets
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "suanli-item.h"

G_BEGIN_DECLS

char *suanli_items_to_csv (GPtrArray      *items,
                           SuanliItemKind  kind);

G_END_DECLS
