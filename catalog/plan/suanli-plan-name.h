/* suanli-plan-name.h — a plan's name: the one its user gave it, else one made from its model and hardware
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "suanli-plan-inputs.h"

G_BEGIN_DECLS

gboolean  suanli_plan_name_is_edited (SuanliPlan             *plan);
char     *suanli_plan_name_derive    (const SuanliPlanInputs *inputs);
char     *suanli_plan_name_dup       (SuanliPlan             *plan,
                                      const SuanliPlanInputs *inputs);

G_END_DECLS
