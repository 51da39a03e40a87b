/* suanli-test-planner.h — a window on the planner, for the planner's widget tests
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "suanli-catalog.h"
#include "suanli-plan-page.h"
#include "suanli-window.h"
#include "suanli-workspace.h"

G_BEGIN_DECLS

/* The built-in catalog, a workspace on it, and its window showing the planner, 1280 × 860. */
typedef struct
{
  SuanliCatalog   *catalog;
  SuanliWorkspace *workspace;
  SuanliWindow    *window;
  SuanliPlanPage  *page;
} SuanliTestPlanner;

void suanli_test_remove_autosave    (void);
void suanli_test_planner_set_up     (SuanliTestPlanner *fixture,
                                     gconstpointer      data);
void suanli_test_planner_tear_down  (SuanliTestPlanner *fixture,
                                     gconstpointer      data);

G_END_DECLS
