/* suanli-catalog-page-private.h — the catalog page's fields, for the files that make it up
 *
 * suanli-catalog-page.c shows the catalog; suanli-catalog-page-actions.c holds its actions, the
 * compare window and the save dialog. Only these two include this header.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <adwaita.h>

#include "suanli-catalog-detail.h"
#include "suanli-catalog-page.h"
#include "suanli-chart-view.h"
#include "suanli-page.h"
#include "suanli-units.h"

G_BEGIN_DECLS

struct _SuanliCatalogPage
{
  SuanliPage          parent_instance;

  GListModel         *catalog;
  GListStore         *compare_items;
  GtkFilterListModel *filter_model;
  GtkSortListModel   *sort_model;
  GtkSingleSelection *selection;
  GtkCustomFilter    *filter;
  GtkCustomSorter    *relevance;      /* while searching: the best match first */
  GSettings          *settings;
  SuanliMemoryUnits   memory_units;
  SuanliItemKind      kind;
  char              **search_terms;
  gboolean            searching;      /* terms given: the whole catalog is searched, not the kind */
  GPtrArray          *vendors;          /* the vendor dropdown's entries after "All vendors" */
  GPtrArray          *chart_keys;       /* spec keys in the X and Y dropdowns */
  GtkFileChooserNative *save_dialog;
  GtkWindow          *compare_window;
  gboolean            rebuilding;
  guint               spinner_timeout;

  /* Template children */
  GtkListBox         *kind_list;
  GtkSearchEntry     *search_entry;
  GtkDropDown        *vendor_dropdown;
  GtkDropDown        *memory_dropdown;
  GtkToggleButton    *fp8_toggle;
  GtkToggleButton    *table_toggle;
  GtkToggleButton    *chart_toggle;
  GtkButton          *compare_button;
  GtkStack           *content_stack;
  AdwStatusPage      *loading_status;
  AdwStatusPage      *empty_page;
  GtkSpinner         *loading_spinner;
  GtkColumnView      *column_view;
  SuanliCatalogDetail *detail_view;
  GtkToggleButton    *bars_toggle;
  GtkLabel           *x_label;
  GtkDropDown        *x_dropdown;
  GtkDropDown        *y_dropdown;
  GtkLabel           *size_label;
  GtkDropDown        *size_dropdown;
  GtkCheckButton     *log_check;
  SuanliChartView    *chart_view;
  GtkLabel           *chart_left_out;
};

void       _suanli_catalog_page_class_actions_init (GtkWidgetClass    *widget_class);
void       _suanli_catalog_page_actions_dispose    (SuanliCatalogPage *self);
void       _suanli_catalog_page_update_compare     (SuanliCatalogPage *self);
GtkWindow *_suanli_catalog_page_present_compare    (SuanliCatalogPage *self);
char      *_suanli_catalog_plan_patch              (SuanliItem        *item);

G_END_DECLS
