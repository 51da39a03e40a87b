/* suanli-catalog-page.h — the catalog page: every part, tool and technique, searched, compared, charted
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "suanli-item.h"
#include "suanli-page.h"

G_BEGIN_DECLS

#define SUANLI_TYPE_CATALOG_PAGE (suanli_catalog_page_get_type ())

G_DECLARE_FINAL_TYPE (SuanliCatalogPage, suanli_catalog_page, SUANLI, CATALOG_PAGE, SuanliPage)

GtkWidget      *suanli_catalog_page_new               (SuanliWorkspace   *workspace);
void            suanli_catalog_page_show_kind         (SuanliCatalogPage *self,
                                                       SuanliItemKind     kind);
void            suanli_catalog_page_set_search        (SuanliCatalogPage *self,
                                                       const char        *text);
GListModel     *suanli_catalog_page_get_visible_items (SuanliCatalogPage *self);
SuanliItem     *suanli_catalog_page_get_selected_item (SuanliCatalogPage *self);
gboolean        suanli_catalog_page_select_item       (SuanliCatalogPage *self,
                                                       SuanliItem        *item);
void            suanli_catalog_page_show_chart        (SuanliCatalogPage *self,
                                                       gboolean           chart);
GtkWindow      *suanli_catalog_page_open_compare      (SuanliCatalogPage *self);

G_END_DECLS
