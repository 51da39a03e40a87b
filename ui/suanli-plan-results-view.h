/* suanli-plan-results-view.h — the planner's results: whether the plan fits, the memory and step
 * bars, the figures' cards, the advice and the plan's issues
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "suanli-catalog.h"
#include "suanli-estimate.h"

G_BEGIN_DECLS

#define SUANLI_TYPE_PLAN_RESULTS_VIEW (suanli_plan_results_view_get_type ())

G_DECLARE_FINAL_TYPE (SuanliPlanResultsView, suanli_plan_results_view, SUANLI, PLAN_RESULTS_VIEW, GtkWidget)

/* The view's signal:
 *
 *  "apply-advice"  void (*) (SuanliPlanResultsView *view, guint index, gpointer user_data)
 *                  an advice's Apply was clicked: @index is its place in the advice last shown. */

GtkWidget *suanli_plan_results_view_new  (void);
void       suanli_plan_results_view_show (SuanliPlanResultsView  *self,
                                          gboolean                valid,
                                          const SuanliPlanInputs *inputs,
                                          const SuanliEstimate   *estimate,
                                          SuanliCatalog          *catalog,
                                          GPtrArray              *advice,
                                          GPtrArray              *errors,
                                          GPtrArray              *warnings);

G_END_DECLS
