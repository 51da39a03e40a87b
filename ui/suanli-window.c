/* suanli-window.c — the main window: a view switcher over the catalog, planner and profiler
 *
 * The window owns nothing of the model: the application gives it a workspace, and the window
 * hands that to each page. Opening files goes back to the application (g_application_open), which
 * decides what a file is and which page shows it, for Open… and `suanli FILE…` alike.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>

#include "suanli-catalog-page.h"
#include "suanli-page-slot.h"
#include "suanli-plan-page.h"
#include "suanli-profile-page.h"
#include "suanli-window.h"

struct _SuanliWindow
{
  AdwApplicationWindow  parent_instance;

  SuanliWorkspace      *workspace;
  GSettings            *settings;
  GtkFileChooserNative *open_dialog;

  /* Template children */
  AdwToastOverlay      *toast_overlay;
  AdwViewStack         *stack;
  AdwViewSwitcherTitle *switcher_title;
  AdwViewSwitcherBar   *switcher_bar;
};

G_DEFINE_FINAL_TYPE (SuanliWindow, suanli_window, ADW_TYPE_APPLICATION_WINDOW)

enum {
  PROP_0,
  PROP_WORKSPACE,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

/* A page in the stack, built when it is first shown or asked for (suanli_window_get_page). */
static GtkWidget *
add_page (SuanliWindow      *self,
          SuanliPageBuilder  build,
          const char        *name,
          const char        *title,
          const char        *icon_name)
{
  GtkWidget *slot = suanli_page_slot_new (build, self->workspace);
  AdwViewStackPage *stack_page = adw_view_stack_add_titled (self->stack, slot, name, title);

  adw_view_stack_page_set_icon_name (stack_page, icon_name);
  return slot;
}

static void
restore_window_state (SuanliWindow *self)
{
  gtk_window_set_default_size (GTK_WINDOW (self),
                               g_settings_get_int (self->settings, "window-width"),
                               g_settings_get_int (self->settings, "window-height"));
  if (g_settings_get_boolean (self->settings, "window-maximized"))
    gtk_window_maximize (GTK_WINDOW (self));
}

static gboolean
suanli_window_close_request (GtkWindow *window)
{
  SuanliWindow *self = SUANLI_WINDOW (window);
  int width = 0, height = 0;

  /* The default size is the unmaximized size, which is what should come back next time. */
  gtk_window_get_default_size (window, &width, &height);
  g_settings_delay (self->settings);
  if (width > 0 && height > 0)
    {
      g_settings_set_int (self->settings, "window-width", width);
      g_settings_set_int (self->settings, "window-height", height);
    }
  g_settings_set_boolean (self->settings, "window-maximized", gtk_window_is_maximized (window));
  g_settings_apply (self->settings);

  return GTK_WINDOW_CLASS (suanli_window_parent_class)->close_request (window);
}

static void
on_open_dialog_response (GtkNativeDialog *dialog,
                         int              response,
                         gpointer         user_data)
{
  SuanliWindow *self = SUANLI_WINDOW (user_data);
  g_autoptr(GListModel) files = NULL;
  g_autoptr(GPtrArray) array = NULL;
  GApplication *application;
  guint n;

  if (response != GTK_RESPONSE_ACCEPT)
    return;

  application = G_APPLICATION (gtk_window_get_application (GTK_WINDOW (self)));
  files = gtk_file_chooser_get_files (GTK_FILE_CHOOSER (dialog));
  n = g_list_model_get_n_items (files);
  if (application == NULL || n == 0)
    return;

  array = g_ptr_array_new_with_free_func (g_object_unref);
  for (guint i = 0; i < n; i++)
    g_ptr_array_add (array, g_list_model_get_item (files, i));
  gtk_window_present (GTK_WINDOW (self));
  g_application_open (application, (GFile **) array->pdata, (int) array->len, "");
}

static void
add_filter (GtkFileChooser     *chooser,
            const char         *name,
            const char * const *patterns)
{
  g_autoptr(GtkFileFilter) filter = gtk_file_filter_new ();

  gtk_file_filter_set_name (filter, name);
  for (guint i = 0; patterns[i] != NULL; i++)
    gtk_file_filter_add_pattern (filter, patterns[i]);
  gtk_file_chooser_add_filter (chooser, filter);
}

static void
open_action (GtkWidget  *widget,
             const char *action_name,
             GVariant   *parameter)
{
  SuanliWindow *self = SUANLI_WINDOW (widget);
  static const char * const supported[] = {
    "*.suanli-plan", "*.suanli-capture", "*.json", "*.json.gz", "*.gz", "*.folded",
    "*.collapsed", "*.txt", "*.sqlite", "*.nsys-rep", "*.qdrep", NULL
  };
  static const char * const plans[] = { "*.suanli-plan", NULL };
  static const char * const traces[] = {
    "*.json", "*.json.gz", "*.gz", "*.folded", "*.collapsed", "*.txt", "*.suanli-capture", "*.sqlite", "*.nsys-rep",
    "*.qdrep", NULL
  };
  static const char * const everything[] = { "*", NULL };

  if (self->open_dialog == NULL)
    {
      GtkFileChooser *chooser;

      self->open_dialog = gtk_file_chooser_native_new (_("Open Plans or Traces"), GTK_WINDOW (self),
                                                       GTK_FILE_CHOOSER_ACTION_OPEN,
                                                       _("_Open"), _("_Cancel"));
      chooser = GTK_FILE_CHOOSER (self->open_dialog);
      gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (self->open_dialog), TRUE);
      gtk_file_chooser_set_select_multiple (chooser, TRUE);
      add_filter (chooser, _("Plans and Traces"), supported);
      add_filter (chooser, _("Plans"), plans);
      add_filter (chooser, _("Traces"), traces);
      add_filter (chooser, _("All Files"), everything);
      g_signal_connect (self->open_dialog, "response", G_CALLBACK (on_open_dialog_response), self);
    }

  gtk_native_dialog_show (GTK_NATIVE_DIALOG (self->open_dialog));
}

/* The shortcuts window is built the first time it is asked for. GtkApplication would build one
 * from <resource-base-path>/gtk/help-overlay.ui with every window, before its first frame; the
 * resource lives elsewhere so that it does not. Once set, GtkApplicationWindow keeps this action
 * (it adds its own only when there is none). */
static void
show_help_overlay (GSimpleAction *action,
                   GVariant      *parameter,
                   gpointer       user_data)
{
  GtkApplicationWindow *window = GTK_APPLICATION_WINDOW (user_data);
  GtkShortcutsWindow *overlay = gtk_application_window_get_help_overlay (window);

  if (overlay == NULL)
    {
      g_autoptr(GtkBuilder) builder = gtk_builder_new_from_resource ("/org/suanli/Suanli/ui/suanli-shortcuts-window.ui");

      overlay = GTK_SHORTCUTS_WINDOW (gtk_builder_get_object (builder, "help_overlay"));
      gtk_application_window_set_help_overlay (window, overlay);
    }
  gtk_window_present (GTK_WINDOW (overlay));
}

static void
show_page_action (GtkWidget  *widget,
                  const char *action_name,
                  GVariant   *parameter)
{
  suanli_window_show_page (SUANLI_WINDOW (widget), g_variant_get_string (parameter, NULL));
}

/* On the planner, the title says which plan: "Llama 2 70B LoRA on 8 × H100 SXM — Suanli", and a
 * narrow window's title shows the plan's name under the app's. */
static void
update_title (SuanliWindow *self)
{
  GtkWidget *slot = adw_view_stack_get_child_by_name (self->stack, SUANLI_PAGE_PLANNER);
  GtkWidget *planner = slot != NULL ? suanli_page_slot_peek_page (SUANLI_PAGE_SLOT (slot)) : NULL;
  const char *name = planner != NULL ? suanli_plan_page_get_plan_name (SUANLI_PLAN_PAGE (planner)) : NULL;
  g_autofree char *title = NULL;

  if (name == NULL || g_strcmp0 (adw_view_stack_get_visible_child_name (self->stack), SUANLI_PAGE_PLANNER) != 0)
    name = NULL;
  /* Translators: the window's title on the planner: the plan's name, then the app's. */
  title = name != NULL ? g_strdup_printf (_("%s — Suanli"), name) : g_strdup (_("Suanli"));
  gtk_window_set_title (GTK_WINDOW (self), title);
  adw_view_switcher_title_set_subtitle (self->switcher_title, name != NULL ? name : "");
}

/* The bar at the bottom shows the pages only in a window too narrow for the title's switcher. It
 * gets the stack (and builds its buttons) the first time it is needed, not for a first frame of
 * a wide window, which does not show it. */
static void
on_title_visible (SuanliWindow *self)
{
  if (adw_view_switcher_title_get_title_visible (self->switcher_title) &&
      adw_view_switcher_bar_get_stack (self->switcher_bar) == NULL)
    adw_view_switcher_bar_set_stack (self->switcher_bar, self->stack);
}

static void
on_planner_built (SuanliPageSlot *slot,
                  GtkWidget      *planner,
                  SuanliWindow   *self)
{
  g_signal_connect_object (planner, "notify::plan-name", G_CALLBACK (update_title), self, G_CONNECT_SWAPPED);
  update_title (self);
}

static void
suanli_window_constructed (GObject *object)
{
  SuanliWindow *self = SUANLI_WINDOW (object);

  G_OBJECT_CLASS (suanli_window_parent_class)->constructed (object);

  /* The plan the planner will show, there from the start for the other pages (the profiler's
   * comparison, the catalog's "use in plan") even before the planner is built. */
  if (self->workspace != NULL)
    suanli_plan_page_start_plan (suanli_workspace_get_plan (self->workspace));
  add_page (self, suanli_catalog_page_new, SUANLI_PAGE_CATALOG, _("Catalog"), "suanli-catalog-symbolic");
  g_signal_connect_object (add_page (self, suanli_plan_page_new, SUANLI_PAGE_PLANNER, _("Planner"),
                                     "suanli-planner-symbolic"),
                           "page-built", G_CALLBACK (on_planner_built), self, 0);
  add_page (self, suanli_profile_page_new, SUANLI_PAGE_PROFILER, _("Profiler"), "suanli-profiler-symbolic");
  g_signal_connect_object (self->stack, "notify::visible-child-name", G_CALLBACK (update_title), self,
                           G_CONNECT_SWAPPED);
  update_title (self);
}

static void
suanli_window_dispose (GObject *object)
{
  SuanliWindow *self = SUANLI_WINDOW (object);

  if (self->open_dialog != NULL)
    gtk_native_dialog_destroy (GTK_NATIVE_DIALOG (self->open_dialog));
  g_clear_object (&self->open_dialog);
  gtk_widget_dispose_template (GTK_WIDGET (self), SUANLI_TYPE_WINDOW);

  G_OBJECT_CLASS (suanli_window_parent_class)->dispose (object);
}

static void
suanli_window_finalize (GObject *object)
{
  SuanliWindow *self = SUANLI_WINDOW (object);

  g_clear_object (&self->workspace);
  g_clear_object (&self->settings);

  G_OBJECT_CLASS (suanli_window_parent_class)->finalize (object);
}

static void
suanli_window_get_property (GObject    *object,
                            guint       prop_id,
                            GValue     *value,
                            GParamSpec *pspec)
{
  SuanliWindow *self = SUANLI_WINDOW (object);

  switch (prop_id)
    {
    case PROP_WORKSPACE:
      g_value_set_object (value, self->workspace);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
suanli_window_set_property (GObject      *object,
                            guint         prop_id,
                            const GValue *value,
                            GParamSpec   *pspec)
{
  SuanliWindow *self = SUANLI_WINDOW (object);

  switch (prop_id)
    {
    case PROP_WORKSPACE:
      self->workspace = g_value_dup_object (value);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
suanli_window_class_init (SuanliWindowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  GtkWindowClass *window_class = GTK_WINDOW_CLASS (klass);

  object_class->constructed = suanli_window_constructed;
  object_class->dispose = suanli_window_dispose;
  object_class->finalize = suanli_window_finalize;
  object_class->get_property = suanli_window_get_property;
  object_class->set_property = suanli_window_set_property;
  window_class->close_request = suanli_window_close_request;

  /* The workspace the pages show (ui/suanli-workspace.h). */
  properties[PROP_WORKSPACE] =
    g_param_spec_object ("workspace", NULL, NULL, SUANLI_TYPE_WORKSPACE,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  gtk_widget_class_set_template_from_resource (widget_class, "/org/suanli/Suanli/ui/suanli-window.ui");
  gtk_widget_class_bind_template_child (widget_class, SuanliWindow, toast_overlay);
  gtk_widget_class_bind_template_child (widget_class, SuanliWindow, stack);
  gtk_widget_class_bind_template_child (widget_class, SuanliWindow, switcher_title);
  gtk_widget_class_bind_template_child (widget_class, SuanliWindow, switcher_bar);

  gtk_widget_class_install_action (widget_class, "win.open", NULL, open_action);
  gtk_widget_class_install_action (widget_class, "win.show-page", "s", show_page_action);

  /* The application's accelerators cover these too; the bindings make them work in a window
   * that has no application yet, as in the widget tests. */
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_o, GDK_CONTROL_MASK, "win.open", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_1, GDK_CONTROL_MASK,
                                       "win.show-page", "s", SUANLI_PAGE_CATALOG);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_2, GDK_CONTROL_MASK,
                                       "win.show-page", "s", SUANLI_PAGE_PLANNER);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_3, GDK_CONTROL_MASK,
                                       "win.show-page", "s", SUANLI_PAGE_PROFILER);
}

static void
suanli_window_init (SuanliWindow *self)
{
  static const GActionEntry actions[] = {
    { "show-help-overlay", show_help_overlay },
  };

  gtk_widget_init_template (GTK_WIDGET (self));
  g_action_map_add_action_entries (G_ACTION_MAP (self), actions, G_N_ELEMENTS (actions), self);
  g_signal_connect_object (self->switcher_title, "notify::title-visible", G_CALLBACK (on_title_visible), self,
                           G_CONNECT_SWAPPED);

  self->settings = g_settings_new (APPLICATION_ID);
  restore_window_state (self);
}

/* @application: (nullable): the application, or NULL for a window on its own (tests).
 * @workspace: the SuanliWorkspace this window shows. */
SuanliWindow *
suanli_window_new (GtkApplication  *application,
                   SuanliWorkspace *workspace)
{
  g_return_val_if_fail (application == NULL || GTK_IS_APPLICATION (application), NULL);
  g_return_val_if_fail (SUANLI_IS_WORKSPACE (workspace), NULL);

  return g_object_new (SUANLI_TYPE_WINDOW,
                       "application", application,
                       "workspace", workspace,
                       NULL);
}

/* Returns: (transfer none): the window's workspace. */
SuanliWorkspace *
suanli_window_get_workspace (SuanliWindow *self)
{
  g_return_val_if_fail (SUANLI_IS_WINDOW (self), NULL);

  return self->workspace;
}

/* Shows the page called @name (SUANLI_PAGE_CATALOG, …); an unknown name is a programming error. */
void
suanli_window_show_page (SuanliWindow *self,
                         const char   *name)
{
  g_return_if_fail (SUANLI_IS_WINDOW (self));
  g_return_if_fail (adw_view_stack_get_child_by_name (self->stack, name) != NULL);

  adw_view_stack_set_visible_child_name (self->stack, name);
}

/**
 * suanli_window_get_page:
 * @name: SUANLI_PAGE_CATALOG, SUANLI_PAGE_PLANNER or SUANLI_PAGE_PROFILER
 *
 * Returns: (transfer none): the page, built now if it had not been shown yet.
 */
GtkWidget *
suanli_window_get_page (SuanliWindow *self,
                        const char   *name)
{
  GtkWidget *slot;

  g_return_val_if_fail (SUANLI_IS_WINDOW (self), NULL);
  slot = adw_view_stack_get_child_by_name (self->stack, name);
  g_return_val_if_fail (SUANLI_IS_PAGE_SLOT (slot), NULL);

  return suanli_page_slot_get_page (SUANLI_PAGE_SLOT (slot));
}

const char *
suanli_window_get_visible_page (SuanliWindow *self)
{
  g_return_val_if_fail (SUANLI_IS_WINDOW (self), NULL);

  return adw_view_stack_get_visible_child_name (self->stack);
}

void
suanli_window_add_toast (SuanliWindow *self,
                         const char   *title)
{
  AdwToast *toast;

  g_return_if_fail (SUANLI_IS_WINDOW (self));
  g_return_if_fail (title != NULL);

  toast = adw_toast_new (title);
  adw_toast_set_timeout (toast, 8);
  adw_toast_overlay_add_toast (self->toast_overlay, toast);
}

/* A toast with a button; @clicked gets the button and @data, which lives as long as the toast. */
void
suanli_window_add_toast_with_button (SuanliWindow   *self,
                                     const char     *title,
                                     const char     *button_label,
                                     GCallback       clicked,
                                     gpointer        data,
                                     GDestroyNotify  destroy_data)
{
  AdwToast *toast;

  g_return_if_fail (SUANLI_IS_WINDOW (self));
  g_return_if_fail (title != NULL && button_label != NULL);

  toast = adw_toast_new (title);
  adw_toast_set_timeout (toast, 0);
  adw_toast_set_button_label (toast, button_label);
  g_signal_connect_data (toast, "button-clicked", clicked, data, (GClosureNotify) (void (*) (void)) destroy_data, 0);
  adw_toast_overlay_add_toast (self->toast_overlay, toast);
}

/* Opens a plan file in the planner and shows it. */
gboolean
suanli_window_open_plan (SuanliWindow  *self,
                         GFile         *file,
                         GError       **error)
{
  GtkWidget *page;

  g_return_val_if_fail (SUANLI_IS_WINDOW (self), FALSE);

  page = suanli_window_get_page (self, SUANLI_PAGE_PLANNER);
  if (!suanli_plan_page_load_file (SUANLI_PLAN_PAGE (page), file, error))
    return FALSE;
  suanli_window_show_page (self, SUANLI_PAGE_PLANNER);
  return TRUE;
}

/* Adds a trace file to those the profiler reads next (files opened together make one trace),
 * and shows the profiler. */
void
suanli_window_open_trace (SuanliWindow *self,
                          GFile        *file)
{
  GtkWidget *page;

  g_return_if_fail (SUANLI_IS_WINDOW (self));

  page = suanli_window_get_page (self, SUANLI_PAGE_PROFILER);
  suanli_profile_page_add_file (SUANLI_PROFILE_PAGE (page), file);
  suanli_window_show_page (self, SUANLI_PAGE_PROFILER);
}
