/* suanli-search-window.h — "Find Configurations": the search over the plan's hardware and layout
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <adwaita.h>

#include "suanli-catalog.h"
#include "suanli-plan.h"

G_BEGIN_DECLS

#define SUANLI_TYPE_SEARCH_WINDOW (suanli_search_window_get_type ())

G_DECLARE_FINAL_TYPE (SuanliSearchWindow, suanli_search_window, SUANLI, SEARCH_WINDOW, AdwWindow)

SuanliSearchWindow *suanli_search_window_new         (GtkWindow          *parent,
                                                      SuanliPlan         *plan,
                                                      SuanliCatalog      *catalog);
void                suanli_search_window_search      (SuanliSearchWindow *self);
GArray             *suanli_search_window_get_results (SuanliSearchWindow *self);
GtkWidget          *suanli_search_window_get_control (SuanliSearchWindow *self,
                                                      const char         *name);
GtkWidget          *suanli_search_window_get_price_field (SuanliSearchWindow *self,
                                                          const char         *id);

G_END_DECLS
