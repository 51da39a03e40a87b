/* suanli-profile-common.c — what the profiler page and its views share: toasts, file dialogs,
 * the names of a trace's files
 *
 * The page and its views (the flame view's Compare With…, the page's Open and Export) each ask
 * for files and tell what went wrong the same way; this file is below all of them, so that none
 * of them calls another back (docs/architecture.md).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <adwaita.h>
#include <glib/gi18n.h>

#include "suanli-profile-common.h"

/* A toast in the window's overlay, if @widget is in a window that has one. */
void
suanli_profile_toast (GtkWidget  *widget,
                      const char *message)
{
  GtkWidget *overlay = gtk_widget_get_ancestor (widget, ADW_TYPE_TOAST_OVERLAY);

  if (overlay != NULL)
    adw_toast_overlay_add_toast (ADW_TOAST_OVERLAY (overlay), adw_toast_new (message));
}

/* A modal file dialog over @owner's window; @respond gets its answer (the dialog, the response,
 * then @data). */
GtkFileChooserNative *
suanli_profile_file_dialog_new (GtkWidget            *owner,
                                const char           *title,
                                GtkFileChooserAction  action,
                                const char           *accept,
                                gboolean              several,
                                GCallback             respond,
                                gpointer              data)
{
  GtkRoot *root = gtk_widget_get_root (owner);
  GtkFileChooserNative *dialog = gtk_file_chooser_native_new (title, GTK_IS_WINDOW (root) ? GTK_WINDOW (root) : NULL,
                                                              action, accept, _("_Cancel"));

  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (dialog), TRUE);
  gtk_file_chooser_set_select_multiple (GTK_FILE_CHOOSER (dialog), several);
  g_signal_connect (dialog, "response", respond, data);
  return dialog;
}

/* Opens @dialog in @folder, or in the home folder when NULL: never on Recent, where GTK's dialog
 * starts otherwise and where a path typed after Ctrl+L opens nothing. */
void
suanli_profile_set_dialog_folder (GtkFileChooserNative *dialog,
                                  GFile                *folder)
{
  g_autoptr(GFile) home = g_file_new_for_path (g_get_home_dir ());

  if (folder == NULL || !gtk_file_chooser_set_current_folder (GTK_FILE_CHOOSER (dialog), folder, NULL))
    gtk_file_chooser_set_current_folder (GTK_FILE_CHOOSER (dialog), home, NULL);
}

/* Destroys *@dialog, if any, and forgets it (from a dispose). */
void
suanli_profile_file_dialog_destroy (GtkFileChooserNative **dialog)
{
  if (*dialog != NULL)
    gtk_native_dialog_destroy (GTK_NATIVE_DIALOG (*dialog));
  g_clear_object (dialog);
}

/* A file dialog's answer: the file chosen goes to @use, and what goes wrong to a toast. */
void
suanli_profile_use_chosen_file (GtkNativeDialog      *dialog,
                                int                   response,
                                GtkWidget            *owner,
                                SuanliProfileFileUse  use)
{
  g_autoptr(GFile) file = NULL;
  g_autoptr(GError) error = NULL;

  if (response != GTK_RESPONSE_ACCEPT)
    return;
  file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (dialog));
  if (!use (owner, file, &error))
    suanli_profile_toast (owner, error->message);
}

/* Returns: (transfer full): the files chosen in @dialog, as an array of GFile. */
GPtrArray *
suanli_profile_chosen_files (GtkNativeDialog *dialog)
{
  g_autoptr(GListModel) files = gtk_file_chooser_get_files (GTK_FILE_CHOOSER (dialog));
  GPtrArray *array = g_ptr_array_new_with_free_func (g_object_unref);

  for (guint i = 0; i < g_list_model_get_n_items (files); i++)
    g_ptr_array_add (array, g_list_model_get_item (files, i));
  return array;
}

/* "rank0.json, rank1.json" — the files @trace was read from, a group each. */
char *
suanli_profile_files_text (SuanliTrace *trace)
{
  g_autoptr(GString) text = g_string_new (NULL);

  for (guint g = 0; g < suanli_trace_get_n_groups (trace); g++)
    {
      g_autofree char *base = g_path_get_basename (suanli_trace_get_string (trace, suanli_trace_get_group (trace, g)->name));

      if (g > 0)
        g_string_append (text, ", ");
      g_string_append (text, base);
    }
  return g_string_free (g_steal_pointer (&text), FALSE);
}
