/* suanli-compare-view.h — two to four catalog items side by side, spec by spec
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "suanli-item.h"
#include "suanli-units.h"

G_BEGIN_DECLS

#define SUANLI_TYPE_COMPARE_VIEW (suanli_compare_view_get_type ())

G_DECLARE_FINAL_TYPE (SuanliCompareView, suanli_compare_view, SUANLI, COMPARE_VIEW, GtkWidget)

/* At most this many items are compared. */
#define SUANLI_COMPARE_MAX_ITEMS 4

GtkWidget *suanli_compare_view_new                 (void);
void       suanli_compare_view_set_items           (SuanliCompareView *self,
                                                    GListModel        *items);
void       suanli_compare_view_set_memory_units    (SuanliCompareView *self,
                                                    SuanliMemoryUnits  units);
GtkWidget *suanli_compare_cell_label               (const char        *text,
                                                    const char        *style_class,
                                                    float              xalign);
int        suanli_compare_view_get_best_column     (SuanliCompareView *self,
                                                    const char        *key);
gboolean   suanli_compare_view_is_best             (SuanliCompareView *self,
                                                    const char        *key,
                                                    guint              column);

G_END_DECLS
