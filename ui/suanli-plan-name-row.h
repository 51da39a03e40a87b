/* suanli-plan-name-row.h — the plan's name, edited in place: derived until the user types one
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <adwaita.h>

#include "suanli-plan.h"

G_BEGIN_DECLS

#define SUANLI_TYPE_PLAN_NAME_ROW (suanli_plan_name_row_get_type ())

G_DECLARE_FINAL_TYPE (SuanliPlanNameRow, suanli_plan_name_row, SUANLI, PLAN_NAME_ROW, AdwEntryRow)

GtkWidget *suanli_plan_name_row_new      (void);
void       suanli_plan_name_row_set_plan (SuanliPlanNameRow *self,
                                          SuanliPlan        *plan);
void       suanli_plan_name_row_sync     (SuanliPlanNameRow *self,
                                          const char        *name,
                                          gboolean           edited);
GtkWidget *suanli_plan_name_row_get_follow_button (SuanliPlanNameRow *self);

G_END_DECLS
