/* suanli-catalog-page.h — the catalog page: accelerators, links, systems, cloud offers, models, tools and techniques
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "suanli-page.h"

G_BEGIN_DECLS

#define SUANLI_TYPE_CATALOG_PAGE (suanli_catalog_page_get_type ())

G_DECLARE_FINAL_TYPE (SuanliCatalogPage, suanli_catalog_page, SUANLI, CATALOG_PAGE, SuanliPage)

GtkWidget *suanli_catalog_page_new (GObject *workspace);

G_END_DECLS
