/* suanli-live-dialog.h — Live…: profilable jobs here and on connected agents' nodes, and capturing
 * them into the profiler
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <adwaita.h>

#include "suanli-live-capture.h"
#include "suanli-workspace.h"

G_BEGIN_DECLS

#define SUANLI_TYPE_LIVE_DIALOG (suanli_live_dialog_get_type ())

G_DECLARE_FINAL_TYPE (SuanliLiveDialog, suanli_live_dialog, SUANLI, LIVE_DIALOG, AdwWindow)

SuanliLiveDialog  *suanli_live_dialog_new         (GtkWindow        *parent,
                                                   SuanliWorkspace  *workspace);
void               suanli_live_dialog_refresh     (SuanliLiveDialog *self);
guint              suanli_live_dialog_get_n_jobs  (SuanliLiveDialog *self);
gboolean           suanli_live_dialog_capture     (SuanliLiveDialog *self,
                                                   int               pid);
gboolean           suanli_live_dialog_capture_jobs (SuanliLiveDialog *self,
                                                   GPtrArray        *jobs);
gboolean           suanli_live_dialog_select      (SuanliLiveDialog *self,
                                                   const char       *agent,
                                                   int               pid,
                                                   gboolean          selected);
gboolean           suanli_live_dialog_capture_selected (SuanliLiveDialog *self);
gboolean           suanli_live_dialog_connect_agent (SuanliLiveDialog *self,
                                                   const char       *address,
                                                   const char       *token);
guint              suanli_live_dialog_get_n_captures (SuanliLiveDialog *self);
gboolean           suanli_live_dialog_is_busy     (SuanliLiveDialog *self);
void               suanli_live_dialog_stop        (SuanliLiveDialog *self);
SuanliLiveCapture *suanli_live_dialog_get_capture (SuanliLiveDialog *self);
const char        *suanli_live_dialog_get_status  (SuanliLiveDialog *self);

G_END_DECLS
