/* suanli-plan-page.h — the planner page: a configuration builder with live estimates
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "suanli-page.h"

G_BEGIN_DECLS

#define SUANLI_TYPE_PLAN_PAGE (suanli_plan_page_get_type ())

G_DECLARE_FINAL_TYPE (SuanliPlanPage, suanli_plan_page, SUANLI, PLAN_PAGE, SuanliPage)

GtkWidget *suanli_plan_page_new (GObject *workspace);

G_END_DECLS
