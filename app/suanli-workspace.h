/* suanli-workspace.h — the one shared object model of a window
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>

#include "suanli-plan.h"
#include "suanli-selection.h"

G_BEGIN_DECLS

#define SUANLI_TYPE_WORKSPACE (suanli_workspace_get_type ())

G_DECLARE_FINAL_TYPE (SuanliWorkspace, suanli_workspace, SUANLI, WORKSPACE, GObject)

SuanliWorkspace *suanli_workspace_new           (GListModel      *catalog);
GListModel      *suanli_workspace_get_catalog   (SuanliWorkspace *self);
SuanliPlan      *suanli_workspace_get_plan      (SuanliWorkspace *self);
void             suanli_workspace_set_plan      (SuanliWorkspace *self,
                                                 SuanliPlan      *plan);
GObject         *suanli_workspace_get_trace     (SuanliWorkspace *self);
void             suanli_workspace_set_trace     (SuanliWorkspace *self,
                                                 GObject         *trace);
SuanliSelection *suanli_workspace_get_selection (SuanliWorkspace *self);

G_END_DECLS
