/* suanli-item-json.h — writing catalog items back as `suanli-catalog/1` JSON
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <json-glib/json-glib.h>

#include "suanli-item.h"

G_BEGIN_DECLS

void  suanli_item_write_json     (SuanliItem  *item,
                                  JsonBuilder *builder);
char *suanli_items_to_catalog_json (GPtrArray  *items,
                                    gboolean    pretty,
                                    GError    **error);

G_END_DECLS
