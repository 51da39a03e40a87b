/* suanli-plan-compare.h — pinned plans and the current one side by side, figure by figure
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "suanli-estimate.h"

G_BEGIN_DECLS

/* One plan to compare: its name and, when it is valid, its inputs and estimate (else NULL). */
typedef struct
{
  const char             *name;
  const SuanliPlanInputs *inputs;
  const SuanliEstimate   *estimate;
} SuanliPlanCompareColumn;

GtkWidget *suanli_plan_compare_new (const SuanliPlanCompareColumn *columns,
                                    guint                          n_columns,
                                    guint                          current);

G_END_DECLS
