/* suanli-page-slot.h — a page's place in the window, the page itself built when first needed
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "suanli-workspace.h"

G_BEGIN_DECLS

#define SUANLI_TYPE_PAGE_SLOT (suanli_page_slot_get_type ())

G_DECLARE_FINAL_TYPE (SuanliPageSlot, suanli_page_slot, SUANLI, PAGE_SLOT, GtkWidget)

typedef GtkWidget *(*SuanliPageBuilder) (SuanliWorkspace *workspace);

GtkWidget *suanli_page_slot_new      (SuanliPageBuilder  build,
                                      SuanliWorkspace   *workspace);
GtkWidget *suanli_page_slot_get_page (SuanliPageSlot    *self);
GtkWidget *suanli_page_slot_peek_page (SuanliPageSlot   *self);

G_END_DECLS
