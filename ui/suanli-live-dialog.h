/* suanli-live-dialog.h — Live…: this machine's profilable jobs, and capturing one into the profiler
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <adwaita.h>

#include "suanli-live-capture.h"

G_BEGIN_DECLS

#define SUANLI_TYPE_LIVE_DIALOG (suanli_live_dialog_get_type ())

G_DECLARE_FINAL_TYPE (SuanliLiveDialog, suanli_live_dialog, SUANLI, LIVE_DIALOG, AdwWindow)

SuanliLiveDialog  *suanli_live_dialog_new         (GtkWindow        *parent,
                                                   GObject          *workspace);
void               suanli_live_dialog_refresh     (SuanliLiveDialog *self);
guint              suanli_live_dialog_get_n_jobs  (SuanliLiveDialog *self);
gboolean           suanli_live_dialog_capture     (SuanliLiveDialog *self,
                                                   int               pid);
void               suanli_live_dialog_stop        (SuanliLiveDialog *self);
SuanliLiveCapture *suanli_live_dialog_get_capture (SuanliLiveDialog *self);
const char        *suanli_live_dialog_get_status  (SuanliLiveDialog *self);

G_END_DECLS
