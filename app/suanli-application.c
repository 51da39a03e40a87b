/* suanli-application.c — the Suanli application: actions, accelerators, opening files
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>

#include "suanli-application.h"
#include "suanli-catalog.h"
#include "suanli-file-kind.h"
#include "suanli-preferences-window.h"
#include "suanli-window.h"
#include "suanli-workspace.h"

struct _SuanliApplication
{
  AdwApplication  parent_instance;

  GSettings      *settings;
  SuanliCatalog  *catalog;
  GCancellable   *catalog_loading;
  GStrv           catalog_problems;   /* not yet shown: no window was open when they came */
};

G_DEFINE_FINAL_TYPE (SuanliApplication, suanli_application, ADW_TYPE_APPLICATION)

/* What was found out about one file to open, off the main thread. */
typedef struct
{
  SuanliFileKind    kind;
  SuanliTraceFormat trace_format;
} Detection;

static const GOptionEntry option_entries[] = {
  { "version", 'v', G_OPTION_FLAG_NONE, G_OPTION_ARG_NONE, NULL,
    N_("Print the version and exit"), NULL },
  { NULL }
};

static const struct {
  const char *action;
  const char *accels[3];
} accelerators[] = {
  { "app.quit", { "<Control>q", NULL } },
  { "app.preferences", { "<Control>comma", NULL } },
  { "win.open", { "<Control>o", NULL } },
  { "window.close", { "<Control>w", NULL } },
  { "win.show-help-overlay", { "<Control>question", NULL } },
  { "win.show-page::" SUANLI_PAGE_CATALOG, { "<Control>1", NULL } },
  { "win.show-page::" SUANLI_PAGE_PLANNER, { "<Control>2", NULL } },
  { "win.show-page::" SUANLI_PAGE_PROFILER, { "<Control>3", NULL } },
};

static void
apply_color_scheme (SuanliApplication *self)
{
  g_autofree char *scheme = g_settings_get_string (self->settings, "color-scheme");
  AdwColorScheme color_scheme = ADW_COLOR_SCHEME_DEFAULT;

  if (g_str_equal (scheme, "light"))
    color_scheme = ADW_COLOR_SCHEME_FORCE_LIGHT;
  else if (g_str_equal (scheme, "dark"))
    color_scheme = ADW_COLOR_SCHEME_FORCE_DARK;
  adw_style_manager_set_color_scheme (adw_application_get_style_manager (ADW_APPLICATION (self)),
                                      color_scheme);
}

static void
on_color_scheme_changed (GSettings  *settings,
                         const char *key,
                         gpointer    user_data)
{
  apply_color_scheme (SUANLI_APPLICATION (user_data));
}

static void
show_catalog_problems (AdwToast *toast,
                       gpointer  user_data)
{
  const char * const *problems = user_data;
  g_autofree char *body = g_strjoinv ("\n", (char **) problems);
  GtkApplication *application = GTK_APPLICATION (g_application_get_default ());
  GtkWidget *dialog = adw_message_dialog_new (gtk_application_get_active_window (application),
                                              _("Some Catalog Files Were Not Loaded"), body);

  adw_message_dialog_add_response (ADW_MESSAGE_DIALOG (dialog), "close", _("_Close"));
  gtk_window_present (GTK_WINDOW (dialog));
}

/* Tells about catalog files that did not load, once, in @window. */
static void
show_pending_catalog_problems (SuanliApplication *self,
                               SuanliWindow      *window)
{
  guint n = self->catalog_problems != NULL ? g_strv_length (self->catalog_problems) : 0;
  g_autofree char *title = NULL;

  if (n == 0)
    return;
  title = g_strdup_printf (ngettext ("%u problem in the catalog files", "%u problems in the catalog files", n), n);
  suanli_window_add_toast_with_button (window, title, _("Details"), G_CALLBACK (show_catalog_problems),
                                       g_steal_pointer (&self->catalog_problems), (GDestroyNotify) g_strfreev);
}

static void
on_catalog_loaded (GObject      *source_object,
                   GAsyncResult *result,
                   gpointer      user_data)
{
  g_autoptr(SuanliApplication) self = user_data;
  g_autoptr(GPtrArray) problems = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(SuanliCatalog) loaded = suanli_catalog_load_standard_finish (result, &problems, &error);
  GtkWindow *window;

  if (loaded == NULL)
    return;   /* cancelled by a newer load */
  /* The pages build their tables and the first estimate now, in this callback. Not in an idle: while
   * the spinner turns on a busy machine, GTK's frames (at a higher priority) would take every turn
   * of the main loop and the catalog would never go in. */
  suanli_catalog_replace_all (self->catalog, loaded);

  g_clear_pointer (&self->catalog_problems, g_strfreev);
  if (problems->len > 0)
    {
      g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();

      for (guint i = 0; i < problems->len; i++)
        g_strv_builder_add (builder, g_ptr_array_index (problems, i));
      self->catalog_problems = g_strv_builder_end (builder);
    }
  window = gtk_application_get_active_window (GTK_APPLICATION (self));
  if (SUANLI_IS_WINDOW (window))
    show_pending_catalog_problems (self, SUANLI_WINDOW (window));
  for (guint i = 0; i < problems->len; i++)
    g_message ("%s", (const char *) g_ptr_array_index (problems, i));
}

/* Loads the built-in catalog, the user's and the extra folders in a thread; a newer load cancels
 * an older one. */
static void
load_catalog (SuanliApplication *self)
{
  g_auto(GStrv) folders = g_settings_get_strv (self->settings, "catalog-folders");

  g_cancellable_cancel (self->catalog_loading);
  g_clear_object (&self->catalog_loading);
  self->catalog_loading = g_cancellable_new ();
  suanli_catalog_load_standard_async ((const char * const *) folders, self->catalog_loading, on_catalog_loaded,
                                      g_object_ref (self));
}

/* The first load starts once the first window has painted its first frame. Until then the main
 * thread and the renderer's threads are busy building and drawing that frame, and on a machine
 * with few cores a loading thread would take its CPU time from them: the window would come later,
 * the catalog no sooner. */
static void
on_first_frame_painted (GdkFrameClock *clock,
                        gpointer       user_data)
{
  SuanliApplication *self = SUANLI_APPLICATION (user_data);

  g_signal_handlers_disconnect_by_func (clock, on_first_frame_painted, user_data);
  if (self->catalog_loading == NULL)
    load_catalog (self);
}

static void
on_first_window_mapped (GtkWidget *window,
                        gpointer   user_data)
{
  g_signal_handlers_disconnect_by_func (window, on_first_window_mapped, user_data);
  g_signal_connect_object (gtk_widget_get_frame_clock (window), "after-paint", G_CALLBACK (on_first_frame_painted),
                           user_data, 0);
}

static SuanliWindow *
ensure_window (SuanliApplication *self)
{
  GtkWindow *window = gtk_application_get_active_window (GTK_APPLICATION (self));
  g_autoptr(SuanliWorkspace) workspace = NULL;

  if (SUANLI_IS_WINDOW (window))
    return SUANLI_WINDOW (window);

  workspace = suanli_workspace_new (self->catalog);
  window = GTK_WINDOW (suanli_window_new (GTK_APPLICATION (self), workspace));
  if (self->catalog_loading == NULL)
    g_signal_connect_object (window, "map", G_CALLBACK (on_first_window_mapped), self, 0);
  show_pending_catalog_problems (self, SUANLI_WINDOW (window));
  return SUANLI_WINDOW (window);
}

static void
quit_action (GSimpleAction *action,
             GVariant      *parameter,
             gpointer       user_data)
{
  GApplication *application = G_APPLICATION (user_data);
  GList *windows = gtk_application_get_windows (GTK_APPLICATION (application));

  /* Closing the windows lets each save its state, as closing them by hand does. */
  for (GList *l = windows; l != NULL;)
    {
      GtkWindow *window = l->data;

      l = l->next;
      gtk_window_close (window);
    }
  g_application_quit (application);
}

static void
preferences_action (GSimpleAction *action,
                    GVariant      *parameter,
                    gpointer       user_data)
{
  SuanliApplication *self = SUANLI_APPLICATION (user_data);
  GtkWindow *parent = gtk_application_get_active_window (GTK_APPLICATION (self));
  GtkWindow *preferences = GTK_WINDOW (suanli_preferences_window_new (parent));

  gtk_window_set_application (preferences, GTK_APPLICATION (self));
  gtk_window_present (preferences);
}

static void
about_action (GSimpleAction *action,
              GVariant      *parameter,
              gpointer       user_data)
{
  SuanliApplication *self = SUANLI_APPLICATION (user_data);
  GtkWindow *parent = gtk_application_get_active_window (GTK_APPLICATION (self));
  static const char *developers[] = { "The Suanli developers", NULL };
  GtkWindow *about;

  about = g_object_new (ADW_TYPE_ABOUT_WINDOW,
                        "transient-for", parent,
                        "modal", parent != NULL,
                        "application", self,
                        "application-icon", APPLICATION_ID,
                        "application-name", _("Suanli"),
                        "developer-name", _("The Suanli developers"),
                        "version", PACKAGE_VERSION,
                        "comments", _("Plan and profile AI systems: a catalog of AI hardware, a "
                                      "planner that estimates memory, time, cost and energy, and a "
                                      "profiler for PyTorch traces and live CUDA jobs."),
                        "developers", developers,
                        "copyright", "© 2026 The Suanli developers",
                        "license-type", GTK_LICENSE_GPL_3_0,
                        /* Translators: put your names here, one per line. */
                        "translator-credits", _("translator-credits"),
                        NULL);
  gtk_window_present (about);
}

static void
scan_icon_theme (GTask        *task,
                 gpointer      source_object,
                 gpointer      task_data,
                 GCancellable *cancellable)
{
  g_autoptr(GtkIconPaintable) icon = gtk_icon_theme_lookup_icon (GTK_ICON_THEME (task_data), "open-menu-symbolic",
                                                                 NULL, 16, 1, GTK_TEXT_DIR_LTR, 0);

  g_task_return_boolean (task, icon != NULL);
}

/* The icon theme reads its themes' index files and caches at its first lookup, about a tenth of
 * what the main thread did before the first frame. A thread does that while the window is built:
 * GtkIconTheme allows lookups from other threads once it is set up on the main thread, and a
 * lookup on the main thread meanwhile waits for it rather than reading them again. */
static void
start_icon_theme_scan (void)
{
  GdkDisplay *display = gdk_display_get_default ();
  g_autoptr(GTask) task = NULL;

  if (display == NULL)
    return;
  task = g_task_new (NULL, NULL, NULL, NULL);
  g_task_set_source_tag (task, start_icon_theme_scan);
  g_task_set_task_data (task, g_object_ref (gtk_icon_theme_get_for_display (display)), g_object_unref);
  g_task_run_in_thread (task, scan_icon_theme);
}

static const GActionEntry app_actions[] = {
  { "quit", quit_action },
  { "preferences", preferences_action },
  { "about", about_action },
};

static void
suanli_application_startup (GApplication *application)
{
  SuanliApplication *self = SUANLI_APPLICATION (application);

  G_APPLICATION_CLASS (suanli_application_parent_class)->startup (application);
  start_icon_theme_scan ();

  gtk_window_set_default_icon_name (APPLICATION_ID);
  g_action_map_add_action_entries (G_ACTION_MAP (self), app_actions, G_N_ELEMENTS (app_actions), self);
  for (guint i = 0; i < G_N_ELEMENTS (accelerators); i++)
    gtk_application_set_accels_for_action (GTK_APPLICATION (self), accelerators[i].action,
                                           accelerators[i].accels);

  self->settings = g_settings_new (APPLICATION_ID);
  g_signal_connect_object (self->settings, "changed::color-scheme",
                           G_CALLBACK (on_color_scheme_changed), self, 0);
  apply_color_scheme (self);

  /* One catalog for every window: empty at first, filled when the load in a thread is done. That
   * starts when the first window has painted (on_first_frame_painted), or at once when the folders
   * change. */
  self->catalog = suanli_catalog_new ();
  g_signal_connect_object (self->settings, "changed::catalog-folders", G_CALLBACK (load_catalog), self,
                           G_CONNECT_SWAPPED);
}

static void
suanli_application_activate (GApplication *application)
{
  gtk_window_present (GTK_WINDOW (ensure_window (SUANLI_APPLICATION (application))));
}

static char *
describe_opened_file (GFile           *file,
                      const Detection *detection)
{
  g_autofree char *name = g_file_get_basename (file);

  switch (detection->kind)
    {
    case SUANLI_FILE_KIND_CATALOG:
      return g_strdup_printf (_("“%s” is a catalog; add its folder in Preferences to use it"), name);
    case SUANLI_FILE_KIND_TRACE:
      /* Translators: the second %s is a trace format, such as "Folded stacks". */
      return g_strdup_printf (_("“%s” is a trace (%s); this version cannot open it yet"), name,
                              suanli_trace_format_describe (detection->trace_format));
    case SUANLI_FILE_KIND_UNKNOWN:
    default:
      return g_strdup_printf (_("“%s” is not a plan, catalog or trace Suanli can open"), name);
    }
}

static void
detect_in_thread (GTask        *task,
                  gpointer      source_object,
                  gpointer      task_data,
                  GCancellable *cancellable)
{
  GFile *file = task_data;
  g_autofree Detection *detection = g_new0 (Detection, 1);
  GError *error = NULL;

  detection->kind = suanli_file_kind_detect (file, &detection->trace_format, cancellable, &error);
  if (error != NULL)
    g_task_return_error (task, error);
  else
    g_task_return_pointer (task, g_steal_pointer (&detection), g_free);
}

static void
on_file_detected (GObject      *source_object,
                  GAsyncResult *result,
                  gpointer      user_data)
{
  SuanliApplication *self = SUANLI_APPLICATION (source_object);
  GFile *file = g_task_get_task_data (G_TASK (result));
  g_autoptr(GError) error = NULL;
  g_autofree Detection *detection = g_task_propagate_pointer (G_TASK (result), &error);
  g_autofree char *message = NULL;

  if (detection == NULL)
    {
      g_autofree char *name = g_file_get_parse_name (file);

      message = g_strdup_printf (_("Cannot open “%s”: %s"), name, error->message);
    }
  else if (detection->kind == SUANLI_FILE_KIND_PLAN)
    {
      if (suanli_window_open_plan (ensure_window (self), file, &error))
        {
          g_application_release (G_APPLICATION (self));
          return;
        }
      message = g_strdup (error->message);
    }
  else if (detection->kind == SUANLI_FILE_KIND_TRACE)
    {
      suanli_window_open_trace (ensure_window (self), file);
      g_application_release (G_APPLICATION (self));
      return;
    }
  else
    {
      message = describe_opened_file (file, detection);
    }

  suanli_window_add_toast (ensure_window (self), message);
  g_application_release (G_APPLICATION (self));
}

/* Each file is looked at in a thread (reading its head may be slow on a network mount), then
 * routed to the page that shows its kind. */
static void
suanli_application_open (GApplication  *application,
                         GFile        **files,
                         int            n_files,
                         const char    *hint)
{
  SuanliApplication *self = SUANLI_APPLICATION (application);

  gtk_window_present (GTK_WINDOW (ensure_window (self)));

  for (int i = 0; i < n_files; i++)
    {
      g_autoptr(GTask) task = g_task_new (self, NULL, on_file_detected, NULL);

      g_task_set_source_tag (task, suanli_application_open);
      g_task_set_task_data (task, g_object_ref (files[i]), g_object_unref);
      /* Keep the application alive until every file has been answered. */
      g_application_hold (application);
      g_task_run_in_thread (task, detect_in_thread);
    }
}

static int
suanli_application_handle_local_options (GApplication *application,
                                         GVariantDict *options)
{
  if (g_variant_dict_contains (options, "version"))
    {
      g_print ("suanli %s\n", PACKAGE_VERSION);
      return 0;
    }
  return -1;
}

static void
suanli_application_dispose (GObject *object)
{
  SuanliApplication *self = SUANLI_APPLICATION (object);

  g_cancellable_cancel (self->catalog_loading);
  g_clear_object (&self->catalog_loading);
  g_clear_pointer (&self->catalog_problems, g_strfreev);
  g_clear_object (&self->settings);
  g_clear_object (&self->catalog);

  G_OBJECT_CLASS (suanli_application_parent_class)->dispose (object);
}

static void
suanli_application_class_init (SuanliApplicationClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GApplicationClass *application_class = G_APPLICATION_CLASS (klass);

  object_class->dispose = suanli_application_dispose;
  application_class->startup = suanli_application_startup;
  application_class->activate = suanli_application_activate;
  application_class->open = suanli_application_open;
  application_class->handle_local_options = suanli_application_handle_local_options;
}

static void
suanli_application_init (SuanliApplication *self)
{
  g_application_add_main_option_entries (G_APPLICATION (self), option_entries);
}

/* @extra_flags: added to HANDLES_OPEN; the tests pass G_APPLICATION_NON_UNIQUE. */
SuanliApplication *
suanli_application_new (GApplicationFlags extra_flags)
{
  return g_object_new (SUANLI_TYPE_APPLICATION,
                       "application-id", APPLICATION_ID,
                       "flags", G_APPLICATION_HANDLES_OPEN | extra_flags,
                       "resource-base-path", "/org/suanli/Suanli",
                       NULL);
}

/* Returns: (transfer none): the catalog every window's workspace shares; NULL before startup. */
SuanliCatalog *
suanli_application_get_catalog (SuanliApplication *self)
{
  g_return_val_if_fail (SUANLI_IS_APPLICATION (self), NULL);

  return self->catalog;
}
