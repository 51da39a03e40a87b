/* suanli-profile-common.h — what the profiler page and its views share: toasts, file dialogs,
 * the names of a trace's files
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "suanli-trace.h"

G_BEGIN_DECLS

/* What is done with a file chosen in a dialog (by @owner, the dialog's owner). */
typedef gboolean (*SuanliProfileFileUse) (gpointer   owner,
                                          GFile     *file,
                                          GError   **error);

void                  suanli_profile_toast                (GtkWidget             *widget,
                                                           const char            *message);
GtkFileChooserNative *suanli_profile_file_dialog_new      (GtkWidget             *owner,
                                                           const char            *title,
                                                           GtkFileChooserAction   action,
                                                           const char            *accept,
                                                           gboolean               several,
                                                           GCallback              respond,
                                                           gpointer               data);
void                  suanli_profile_set_dialog_folder (GtkFileChooserNative  *dialog,
                                                        GFile                 *folder);
void                  suanli_profile_file_dialog_destroy  (GtkFileChooserNative **dialog);
void                  suanli_profile_use_chosen_file      (GtkNativeDialog       *dialog,
                                                           int                    response,
                                                           GtkWidget             *owner,
                                                           SuanliProfileFileUse   use);
GPtrArray            *suanli_profile_chosen_files         (GtkNativeDialog       *dialog);
char                 *suanli_profile_files_text           (SuanliTrace           *trace);

G_END_DECLS
