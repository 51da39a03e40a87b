/* suanli-plan-form.h — the planner's form: every field of a plan, edited in place
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <adwaita.h>

#include "suanli-plan-inputs.h"

G_BEGIN_DECLS

#define SUANLI_TYPE_PLAN_FORM (suanli_plan_form_get_type ())

G_DECLARE_FINAL_TYPE (SuanliPlanForm, suanli_plan_form, SUANLI, PLAN_FORM, GtkWidget)

GtkWidget *suanli_plan_form_new        (void);
void       suanli_plan_form_set_plan   (SuanliPlanForm         *self,
                                        SuanliPlan             *plan,
                                        SuanliCatalog          *catalog);
void       suanli_plan_form_sync       (SuanliPlanForm         *self,
                                        const SuanliPlanInputs *inputs,
                                        GPtrArray              *errors);
GtkWidget *suanli_plan_form_get_editor (SuanliPlanForm         *self,
                                        const char             *field);

G_END_DECLS
