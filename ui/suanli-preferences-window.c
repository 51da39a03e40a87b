/* suanli-preferences-window.c — Preferences, backed by GSettings
 *
 * Every row is bound to its key, so a change takes effect at once and there is nothing to save.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>

#include "suanli-preferences-window.h"

struct _SuanliPreferencesWindow
{
  AdwPreferencesWindow  parent_instance;

  GSettings            *settings;
  GtkFileChooserNative *folder_dialog;

  /* Template children */
  AdwComboRow          *color_scheme_row;
  AdwComboRow          *memory_units_row;
  AdwComboRow          *paper_size_row;
  GtkSpinButton        *rate_spin;
  GtkListBox           *folder_list;
};

G_DEFINE_FINAL_TYPE (SuanliPreferencesWindow, suanli_preferences_window, ADW_TYPE_PREFERENCES_WINDOW)

/* The enum keys' nicks, in the order of their combo rows' items. */
static const char * const color_scheme_nicks[] = { "default", "light", "dark", NULL };
static const char * const memory_units_nicks[] = { "gb", "gib", NULL };
static const char * const paper_size_nicks[] = { "a4", "letter", NULL };

static gboolean
nick_to_position (GValue   *value,
                  GVariant *variant,
                  gpointer  user_data)
{
  const char * const *nicks = user_data;
  const char *nick = g_variant_get_string (variant, NULL);

  for (guint i = 0; nicks[i] != NULL; i++)
    if (g_str_equal (nicks[i], nick))
      {
        g_value_set_uint (value, i);
        return TRUE;
      }
  return FALSE;
}

static GVariant *
position_to_nick (const GValue       *value,
                  const GVariantType *expected_type,
                  gpointer            user_data)
{
  const char * const *nicks = user_data;
  guint position = g_value_get_uint (value);

  if (position >= g_strv_length ((char **) nicks))
    return NULL;
  return g_variant_new_string (nicks[position]);
}

static void
bind_combo_row (SuanliPreferencesWindow *self,
                const char              *key,
                AdwComboRow             *row,
                const char * const      *nicks)
{
  g_settings_bind_with_mapping (self->settings, key, row, "selected", G_SETTINGS_BIND_DEFAULT,
                                nick_to_position, position_to_nick, (gpointer) nicks, NULL);
}

static GtkWidget *
create_folder_row (const char *path)
{
  g_autofree char *name = g_filename_display_basename (path);
  g_autofree char *display_path = g_filename_display_name (path);
  /* Rows take markup; a path may hold "<" or "&". */
  g_autofree char *name_markup = g_markup_escape_text (name, -1);
  g_autofree char *path_markup = g_markup_escape_text (display_path, -1);
  GtkWidget *row = adw_action_row_new ();
  GtkWidget *remove = gtk_button_new_from_icon_name ("user-trash-symbolic");

  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), name_markup);
  adw_action_row_set_subtitle (ADW_ACTION_ROW (row), path_markup);

  gtk_widget_set_valign (remove, GTK_ALIGN_CENTER);
  gtk_widget_add_css_class (remove, "flat");
  gtk_widget_set_tooltip_text (remove, _("Remove Folder"));
  gtk_accessible_update_property (GTK_ACCESSIBLE (remove), GTK_ACCESSIBLE_PROPERTY_LABEL, _("Remove Folder"), -1);
  gtk_actionable_set_action_name (GTK_ACTIONABLE (remove), "preferences.remove-folder");
  gtk_actionable_set_action_target (GTK_ACTIONABLE (remove), "s", path);
  adw_action_row_add_suffix (ADW_ACTION_ROW (row), remove);

  return row;
}

static void
reload_folders (SuanliPreferencesWindow *self)
{
  g_auto(GStrv) folders = g_settings_get_strv (self->settings, "catalog-folders");
  GtkListBoxRow *row;

  /* Rows only: the placeholder is a child of the list too. */
  while ((row = gtk_list_box_get_row_at_index (self->folder_list, 0)) != NULL)
    gtk_list_box_remove (self->folder_list, GTK_WIDGET (row));
  for (guint i = 0; folders[i] != NULL; i++)
    gtk_list_box_append (self->folder_list, create_folder_row (folders[i]));
}

static void
on_folders_changed (GSettings  *settings,
                    const char *key,
                    gpointer    user_data)
{
  reload_folders (SUANLI_PREFERENCES_WINDOW (user_data));
}

static void
on_folder_dialog_response (GtkNativeDialog *dialog,
                           int              response,
                           gpointer         user_data)
{
  SuanliPreferencesWindow *self = SUANLI_PREFERENCES_WINDOW (user_data);
  g_autoptr(GFile) folder = NULL;
  g_autofree char *path = NULL;
  g_auto(GStrv) folders = NULL;
  g_autoptr(GStrvBuilder) builder = NULL;
  g_auto(GStrv) updated = NULL;

  if (response != GTK_RESPONSE_ACCEPT)
    return;

  folder = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (dialog));
  path = folder != NULL ? g_file_get_path (folder) : NULL;
  if (path == NULL)
    return;

  folders = g_settings_get_strv (self->settings, "catalog-folders");
  if (g_strv_contains ((const char * const *) folders, path))
    return;

  builder = g_strv_builder_new ();
  g_strv_builder_addv (builder, (const char **) folders);
  g_strv_builder_add (builder, path);
  updated = g_strv_builder_end (builder);
  g_settings_set_strv (self->settings, "catalog-folders", (const char * const *) updated);
}

static void
add_folder_action (GtkWidget  *widget,
                   const char *action_name,
                   GVariant   *parameter)
{
  SuanliPreferencesWindow *self = SUANLI_PREFERENCES_WINDOW (widget);

  if (self->folder_dialog == NULL)
    {
      self->folder_dialog = gtk_file_chooser_native_new (_("Add a Catalog Folder"), GTK_WINDOW (self),
                                                         GTK_FILE_CHOOSER_ACTION_SELECT_FOLDER,
                                                         _("_Add"), _("_Cancel"));
      gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (self->folder_dialog), TRUE);
      g_signal_connect (self->folder_dialog, "response", G_CALLBACK (on_folder_dialog_response), self);
    }
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (self->folder_dialog));
}

static void
remove_folder_action (GtkWidget  *widget,
                      const char *action_name,
                      GVariant   *parameter)
{
  SuanliPreferencesWindow *self = SUANLI_PREFERENCES_WINDOW (widget);
  const char *path = g_variant_get_string (parameter, NULL);
  g_auto(GStrv) folders = g_settings_get_strv (self->settings, "catalog-folders");
  g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();
  g_auto(GStrv) updated = NULL;

  for (guint i = 0; folders[i] != NULL; i++)
    if (!g_str_equal (folders[i], path))
      g_strv_builder_add (builder, folders[i]);
  updated = g_strv_builder_end (builder);
  g_settings_set_strv (self->settings, "catalog-folders", (const char * const *) updated);
}

static void
suanli_preferences_window_dispose (GObject *object)
{
  SuanliPreferencesWindow *self = SUANLI_PREFERENCES_WINDOW (object);

  if (self->folder_dialog != NULL)
    gtk_native_dialog_destroy (GTK_NATIVE_DIALOG (self->folder_dialog));
  g_clear_object (&self->folder_dialog);
  if (self->settings != NULL)
    g_signal_handlers_disconnect_by_data (self->settings, self);
  g_clear_object (&self->settings);
  gtk_widget_dispose_template (GTK_WIDGET (self), SUANLI_TYPE_PREFERENCES_WINDOW);

  G_OBJECT_CLASS (suanli_preferences_window_parent_class)->dispose (object);
}

static void
suanli_preferences_window_class_init (SuanliPreferencesWindowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = suanli_preferences_window_dispose;

  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/org/suanli/Suanli/ui/suanli-preferences-window.ui");
  gtk_widget_class_bind_template_child (widget_class, SuanliPreferencesWindow, color_scheme_row);
  gtk_widget_class_bind_template_child (widget_class, SuanliPreferencesWindow, memory_units_row);
  gtk_widget_class_bind_template_child (widget_class, SuanliPreferencesWindow, paper_size_row);
  gtk_widget_class_bind_template_child (widget_class, SuanliPreferencesWindow, rate_spin);
  gtk_widget_class_bind_template_child (widget_class, SuanliPreferencesWindow, folder_list);

  gtk_widget_class_install_action (widget_class, "preferences.add-folder", NULL, add_folder_action);
  gtk_widget_class_install_action (widget_class, "preferences.remove-folder", "s", remove_folder_action);
}

static void
suanli_preferences_window_init (SuanliPreferencesWindow *self)
{
  GtkWidget *placeholder;

  gtk_widget_init_template (GTK_WIDGET (self));

  placeholder = gtk_label_new (_("No extra folders"));
  gtk_widget_add_css_class (placeholder, "dim-label");
  gtk_widget_set_margin_top (placeholder, 12);
  gtk_widget_set_margin_bottom (placeholder, 12);
  gtk_list_box_set_placeholder (self->folder_list, placeholder);

  self->settings = g_settings_new (APPLICATION_ID);
  bind_combo_row (self, "color-scheme", self->color_scheme_row, color_scheme_nicks);
  bind_combo_row (self, "memory-units", self->memory_units_row, memory_units_nicks);
  bind_combo_row (self, "paper-size", self->paper_size_row, paper_size_nicks);
  g_settings_bind (self->settings, "cny-per-usd", self->rate_spin, "value", G_SETTINGS_BIND_DEFAULT);
  g_signal_connect (self->settings, "changed::catalog-folders", G_CALLBACK (on_folders_changed), self);
  reload_folders (self);
}

/* @parent: (nullable): the window the preferences belong to. */
SuanliPreferencesWindow *
suanli_preferences_window_new (GtkWindow *parent)
{
  g_return_val_if_fail (parent == NULL || GTK_IS_WINDOW (parent), NULL);

  return g_object_new (SUANLI_TYPE_PREFERENCES_WINDOW,
                       "transient-for", parent,
                       "modal", parent != NULL,
                       NULL);
}
