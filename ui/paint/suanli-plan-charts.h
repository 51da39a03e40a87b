/* suanli-plan-charts.h — an estimate's memory and step time as stacked bars, for the planner and the report
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "suanli-estimate.h"
#include "suanli-stacked-bar.h"

G_BEGIN_DECLS

void suanli_plan_charts_fill_memory (SuanliStackedBar     *bar,
                                     const SuanliEstimate *estimate);
void suanli_plan_charts_fill_step   (SuanliStackedBar     *bar,
                                     const SuanliEstimate *estimate);

G_END_DECLS
