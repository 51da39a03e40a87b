/* suanli-plan-page.h — the planner page: a configuration builder with live estimates and advice
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "suanli-estimate.h"
#include "suanli-page.h"
#include "suanli-report.h"

G_BEGIN_DECLS

#define SUANLI_TYPE_PLAN_PAGE (suanli_plan_page_get_type ())

G_DECLARE_FINAL_TYPE (SuanliPlanPage, suanli_plan_page, SUANLI, PLAN_PAGE, SuanliPage)

GtkWidget            *suanli_plan_page_new           (SuanliWorkspace *workspace);
gboolean              suanli_plan_page_load_file     (SuanliPlanPage *self,
                                                      GFile          *file,
                                                      GError        **error);
GFile                *suanli_plan_page_get_file      (SuanliPlanPage *self);
gboolean              suanli_plan_page_save_file     (SuanliPlanPage *self,
                                                      GFile          *file,
                                                      GError        **error);
const SuanliEstimate *suanli_plan_page_get_estimate  (SuanliPlanPage *self);
const char           *suanli_plan_page_get_plan_name (SuanliPlanPage *self);
gboolean              suanli_plan_page_is_valid      (SuanliPlanPage *self);
GPtrArray            *suanli_plan_page_get_advice    (SuanliPlanPage *self);
GtkWidget            *suanli_plan_page_get_editor    (SuanliPlanPage *self,
                                                      const char     *field);
GtkWindow            *suanli_plan_page_open_compare  (SuanliPlanPage *self);
GtkWindow            *suanli_plan_page_open_search   (SuanliPlanPage *self);
gboolean              suanli_plan_page_export_report (SuanliPlanPage *self,
                                                      GFile          *file,
                                                      SuanliPaper     paper);
gboolean              suanli_plan_page_is_exporting  (SuanliPlanPage *self);

void        suanli_plan_page_start_plan (SuanliPlan *plan);

G_END_DECLS
