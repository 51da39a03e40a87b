/* suanli-plan-page-private.h — the planner page's fields, for the files that make it up
 *
 * suanli-plan-page.c estimates the plan and shows it; suanli-plan-page-actions.c holds its actions
 * and the file dialogs and windows they open. Only these two include this header.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <adwaita.h>

#include "suanli-advice.h"
#include "suanli-plan-form.h"
#include "suanli-plan-name-row.h"
#include "suanli-plan-page.h"
#include "suanli-plan-results-view.h"

G_BEGIN_DECLS

/* A plan kept for Compare: its name, inputs and estimate as they were when pinned. */
typedef struct
{
  char             *name;
  SuanliPlanInputs  inputs;
  SuanliEstimate    estimate;
} Pinned;

struct _SuanliPlanPage
{
  SuanliPage        parent_instance;

  SuanliPlan       *plan;
  SuanliCatalog    *catalog;
  GFile            *file;
  char             *snapshot;       /* the document as it was after the last change */
  GPtrArray        *undo;           /* of char *, documents */
  GPtrArray        *redo;
  gboolean          restoring;
  guint             autosave_id;

  gboolean          valid;
  char             *name;           /* in effect: the plan's own, or made from its model and hardware */
  SuanliPlanInputs  inputs;
  SuanliEstimate    estimate;
  GPtrArray        *errors;
  GPtrArray        *warnings;
  GPtrArray        *advice;
  GPtrArray        *pinned;         /* of Pinned */
  GtkFileChooserNative *dialog;
  GtkFileChooserNative *report_dialog;
  guint             exporting;      /* reports on their way */
  AdwToast         *export_toast;   /* "Writing the report…", while one is */
  AdwToast         *applied_toast;  /* "Applied: … Undo", while its Undo still takes back that change */
  GtkWindow        *compare_window;
  GtkWindow        *search_window;

  /* Template children */
  SuanliPlanNameRow *name_row;
  SuanliPlanForm   *form;
  GtkMenuButton    *recent_button;
  GtkLabel         *file_label;
  GtkButton        *compare_button;
  GtkButton        *find_button;
  SuanliPlanResultsView *results_view;
};

void      _suanli_plan_page_class_actions_init  (GtkWidgetClass *widget_class);
void      _suanli_plan_page_actions_dispose     (SuanliPlanPage *self);
void      _suanli_plan_page_update_actions      (SuanliPlanPage *self);
void      _suanli_plan_page_dismiss_applied     (SuanliPlanPage *self);
void      _suanli_plan_page_update_recent_menu  (SuanliPlanPage *self);
gboolean  _suanli_plan_page_load_file           (SuanliPlanPage *self,
                                                 GFile          *file,
                                                 GError        **error);
gboolean  _suanli_plan_page_save_file           (SuanliPlanPage *self,
                                                 GFile          *file,
                                                 GError        **error);
gboolean  _suanli_plan_page_export_report       (SuanliPlanPage *self,
                                                 GFile          *file,
                                                 SuanliPaper     paper);
GtkWindow *_suanli_plan_page_open_compare       (SuanliPlanPage *self);
GtkWindow *_suanli_plan_page_open_search        (SuanliPlanPage *self);

G_END_DECLS
