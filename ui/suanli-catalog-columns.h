/* suanli-catalog-columns.h — the catalog table's columns for a kind: cells, tooltips and sorting
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "suanli-item.h"
#include "suanli-units.h"

G_BEGIN_DECLS

gboolean suanli_catalog_kind_has_spec   (GListModel        *catalog,
                                        SuanliItemKind     kind,
                                        const char        *key);
void     suanli_catalog_columns_rebuild (GtkColumnView     *view,
                                        GListModel        *catalog,
                                        SuanliItemKind     kind,
                                        gboolean           searching,
                                        SuanliMemoryUnits  memory_units,
                                        GtkSelectionModel *model);

G_END_DECLS
