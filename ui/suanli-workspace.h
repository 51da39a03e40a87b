/* suanli-workspace.h — the one shared object model of a window
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>

#include "suanli-catalog.h"
#include "suanli-plan.h"
#include "suanli-selection.h"
#include "suanli-trace.h"

G_BEGIN_DECLS

#define SUANLI_TYPE_WORKSPACE (suanli_workspace_get_type ())

G_DECLARE_FINAL_TYPE (SuanliWorkspace, suanli_workspace, SUANLI, WORKSPACE, GObject)

/* The workspace's signals, with the handlers they call:
 *
 *  "plan-replaced"   void (*) (SuanliWorkspace *workspace, SuanliPlan *plan, gpointer user_data)
 *                    another plan is the workspace's now (its edits are SuanliPlan's "changed").
 *  "plan-file-changed" void (*) (SuanliWorkspace *workspace, GFile *file, gpointer user_data)
 *                    Save writes the plan to another file now (NULL: to none; it asks).
 *  "trace-replaced"  void (*) (SuanliWorkspace *workspace, SuanliTrace *trace, gpointer user_data)
 *                    another trace (or NULL: none) is the workspace's now (a live capture's growth
 *                    is SuanliTrace's "grown"). */

SuanliWorkspace *suanli_workspace_new           (SuanliCatalog   *catalog);
SuanliCatalog   *suanli_workspace_get_catalog   (SuanliWorkspace *self);
SuanliPlan      *suanli_workspace_get_plan      (SuanliWorkspace *self);
void             suanli_workspace_set_plan      (SuanliWorkspace *self,
                                                 SuanliPlan      *plan);
GFile           *suanli_workspace_get_plan_file (SuanliWorkspace *self);
void             suanli_workspace_set_plan_file (SuanliWorkspace *self,
                                                 GFile           *file);
SuanliTrace     *suanli_workspace_get_trace     (SuanliWorkspace *self);
void             suanli_workspace_set_trace     (SuanliWorkspace *self,
                                                 SuanliTrace     *trace);
SuanliSelection *suanli_workspace_get_selection (SuanliWorkspace *self);

G_END_DECLS
