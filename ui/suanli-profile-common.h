/* suanli-profile-common.h — what the profiler page and its views share: toasts, file dialogs,
 * the names of a trace's files
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "suanli-trace.h"

G_BEGIN_DECLS

void                  suanli_profile_toast                (GtkWidget             *widget,
                                                           const char            *message);
GtkFileChooserNative *suanli_profile_file_dialog_new      (GtkWidget             *owner,
                                                           const char            *title,
                                                           GtkFileChooserAction   action,
                                                           const char            *accept,
                                                           gboolean               several,
                                                           GCallback              respond,
                                                           gpointer               data);
void                  suanli_profile_file_dialog_destroy  (GtkFileChooserNative **dialog);
GPtrArray            *suanli_profile_chosen_files         (GtkNativeDialog       *dialog);
char                 *suanli_profile_files_text           (SuanliTrace           *trace);

G_END_DECLS
