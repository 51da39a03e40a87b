/* suanli-catalog-detail.h — the catalog page's detail pane: the selected item, its sources and claims
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "suanli-item.h"
#include "suanli-units.h"

G_BEGIN_DECLS

#define SUANLI_TYPE_CATALOG_DETAIL (suanli_catalog_detail_get_type ())

G_DECLARE_FINAL_TYPE (SuanliCatalogDetail, suanli_catalog_detail, SUANLI, CATALOG_DETAIL, GtkWidget)

GtkWidget *suanli_catalog_detail_new  (void);
void       suanli_catalog_detail_show (SuanliCatalogDetail *self,
                                       SuanliItem          *item,
                                       SuanliMemoryUnits    memory_units,
                                       gboolean             plannable);

G_END_DECLS
