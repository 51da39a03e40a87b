/* suanli-against-plan-view.h — the trace measured against the workspace's plan, or why not
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "suanli-trace-figures.h"
#include "suanli-workspace.h"

G_BEGIN_DECLS

#define SUANLI_TYPE_AGAINST_PLAN_VIEW (suanli_against_plan_view_get_type ())

G_DECLARE_FINAL_TYPE (SuanliAgainstPlanView, suanli_against_plan_view, SUANLI, AGAINST_PLAN_VIEW, GtkWidget)

GtkWidget  *suanli_against_plan_view_new           (void);
void        suanli_against_plan_view_set_workspace (SuanliAgainstPlanView  *self,
                                                    SuanliWorkspace        *workspace);
void        suanli_against_plan_view_set_trace     (SuanliAgainstPlanView  *self,
                                                    SuanliTrace            *trace);
void        suanli_against_plan_view_set_figures   (SuanliAgainstPlanView  *self,
                                                    SuanliTraceFigures     *figures);
gboolean    suanli_against_plan_view_open_plan     (SuanliAgainstPlanView  *self,
                                                    GFile                  *file,
                                                    GError                **error);
const char *suanli_against_plan_view_get_text      (SuanliAgainstPlanView  *self);
const char *suanli_against_plan_view_get_other_job (SuanliAgainstPlanView  *self);

G_END_DECLS
