/* test-window.c — the main window, its pages, actions and preferences, in a real window under Xvfb
 *
 * Run once in English and once with LANGUAGE=zh_CN; with SUANLI_SCREENSHOT_DIR set it writes
 * <page>-<light|dark>-<en|zh_CN>.png for every page, and the dialogs.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>
#include <glib/gstdio.h>
#include <adwaita.h>

#include "suanli-catalog.h"
#include "suanli-page.h"
#include "suanli-preferences-window.h"
#include "suanli-profile-page.h"
#include "suanli-test-support.h"
#include "suanli-window.h"
#include "suanli-workspace.h"

static const char * const page_names[] = {
  SUANLI_PAGE_CATALOG, SUANLI_PAGE_PLANNER, SUANLI_PAGE_PROFILER,
};

/* The built-in catalog, so that screenshots show the catalog page as people see it. */
static SuanliCatalog *builtin_catalog;

static SuanliWorkspace *
new_workspace (void)
{
  return suanli_workspace_new (builtin_catalog);
}

static SuanliWindow *
create_window (SuanliWorkspace *workspace)
{
  SuanliWindow *window = g_object_ref (suanli_window_new (NULL, workspace));

  gtk_window_set_default_size (GTK_WINDOW (window), 1180, 760);
  gtk_window_present (GTK_WINDOW (window));
  suanli_test_wait_for_frame (GTK_WIDGET (window));
  return window;
}

static void
destroy_window (SuanliWindow *window)
{
  suanli_test_destroy_window (GTK_WINDOW (window));
}

static void
test_window_pages (void)
{
  g_autoptr(SuanliWorkspace) workspace = new_workspace ();
  SuanliWindow *window = create_window (workspace);
  GtkWidget *page;

  g_assert_true (suanli_window_get_workspace (window) == workspace);
  g_assert_cmpstr (suanli_window_get_visible_page (window), ==, SUANLI_PAGE_CATALOG);

  /* Ctrl+1/2/3 activate win.show-page; the action is what the shortcuts run. */
  for (guint i = G_N_ELEMENTS (page_names); i-- > 0;)
    {
      g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.show-page", "s", page_names[i]));
      g_assert_cmpstr (suanli_window_get_visible_page (window), ==, page_names[i]);
    }

  /* Each page holds the window's workspace. */
  page = gtk_widget_get_ancestor (suanli_test_find_label (GTK_WIDGET (window), _("Profile AI Workloads")),
                                  SUANLI_TYPE_PAGE);
  g_assert_nonnull (page);
  g_assert_true (suanli_page_get_workspace (SUANLI_PAGE (page)) == workspace);

  /* The view switcher's labels are translated in the Chinese run. */
  g_assert_nonnull (suanli_test_find_label (GTK_WIDGET (window), _("Planner")));
  if (g_str_equal (suanli_test_language_tag (), "zh_CN"))
    g_assert_nonnull (suanli_test_find_label (GTK_WIDGET (window), "规划器"));

  destroy_window (window);
}

static void
test_window_toast (void)
{
  g_autoptr(SuanliWorkspace) workspace = new_workspace ();
  SuanliWindow *window = create_window (workspace);

  g_assert_null (suanli_test_find_label (GTK_WIDGET (window), "a toast to be seen"));
  suanli_window_add_toast (window, "a toast to be seen");
  suanli_test_wait_for_frame (GTK_WIDGET (window));
  g_assert_nonnull (suanli_test_find_label (GTK_WIDGET (window), "a toast to be seen"));

  destroy_window (window);
}

static void
test_window_remembers_size (void)
{
  g_autoptr(GSettings) settings = g_settings_new (APPLICATION_ID);
  g_autoptr(SuanliWorkspace) workspace = new_workspace ();
  SuanliWindow *window;
  int width = 0, height = 0;

  g_settings_set_int (settings, "window-width", 900);
  g_settings_set_int (settings, "window-height", 640);
  window = g_object_ref (suanli_window_new (NULL, workspace));
  gtk_window_get_default_size (GTK_WINDOW (window), &width, &height);
  g_assert_cmpint (width, ==, 900);
  g_assert_cmpint (height, ==, 640);

  gtk_window_set_default_size (GTK_WINDOW (window), 1010, 707);
  gtk_window_present (GTK_WINDOW (window));
  suanli_test_wait_for_frame (GTK_WIDGET (window));
  gtk_window_close (GTK_WINDOW (window));
  g_assert_cmpint (g_settings_get_int (settings, "window-width"), ==, 1010);
  g_assert_cmpint (g_settings_get_int (settings, "window-height"), ==, 707);
  g_assert_false (g_settings_get_boolean (settings, "window-maximized"));

  suanli_test_await_finalized (window);
  g_settings_reset (settings, "window-width");
  g_settings_reset (settings, "window-height");
}

static void
test_preferences_bound_to_settings (void)
{
  g_autoptr(GSettings) settings = g_settings_new (APPLICATION_ID);
  SuanliPreferencesWindow *preferences = g_object_ref (suanli_preferences_window_new (NULL));
  const char *folders[] = { "/opt/catalogs/<team>", NULL };
  AdwComboRow *units_row;
  GtkWidget *label;

  gtk_window_present (GTK_WINDOW (preferences));
  suanli_test_wait_for_frame (GTK_WIDGET (preferences));

  /* A combo row writes its key… */
  label = suanli_test_find_label (GTK_WIDGET (preferences),
                                  _("Vendors print decimal gigabytes; devices report binary gibibytes"));
  g_assert_nonnull (label);
  units_row = ADW_COMBO_ROW (gtk_widget_get_ancestor (label, ADW_TYPE_COMBO_ROW));
  g_assert_cmpuint (adw_combo_row_get_selected (units_row), ==, 1);
  adw_combo_row_set_selected (units_row, 0);
  g_assert_cmpstr (g_settings_get_string (settings, "memory-units"), ==, "gb");
  /* …and follows it. */
  g_settings_set_string (settings, "memory-units", "gib");
  g_assert_cmpuint (adw_combo_row_get_selected (units_row), ==, 1);

  /* The folder list shows the setting, markup characters and all, and removes on request. */
  g_assert_nonnull (suanli_test_find_label (GTK_WIDGET (preferences), _("No extra folders")));
  g_settings_set_strv (settings, "catalog-folders", folders);
  g_assert_nonnull (suanli_test_find_label (GTK_WIDGET (preferences), "/opt/catalogs/<team>"));
  suanli_test_wait_for_frame (GTK_WIDGET (preferences));
  {
    g_autofree char *name = g_strdup_printf ("preferences-%s-%s",
                                             adw_style_manager_get_dark (adw_style_manager_get_default ())
                                               ? "dark" : "light",
                                             suanli_test_language_tag ());
    g_free (suanli_test_screenshot (GTK_WIDGET (preferences), name));
  }
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (preferences), "preferences.remove-folder",
                                             "s", folders[0]));
  g_assert_cmpuint (g_strv_length (g_settings_get_strv (settings, "catalog-folders")), ==, 0);

  suanli_test_destroy_window (GTK_WINDOW (preferences));
  g_settings_reset (settings, "memory-units");
}

static gboolean
trace_shown (gpointer data)
{
  return !suanli_profile_page_is_loading (SUANLI_PROFILE_PAGE (data));
}

/* The profiler shows a real trace (the Kineto fixture of a training step). */
static void
load_trace (SuanliWindow    *window,
            SuanliWorkspace *workspace)
{
  g_autofree char *path = suanli_test_fixture_path ("timeline_analysis__sampled_rank-0.json.gz");
  g_autoptr(GFile) file = g_file_new_for_path (path);
  GtkWidget *page = suanli_window_get_page (window, SUANLI_PAGE_PROFILER);

  suanli_profile_page_open_files (SUANLI_PROFILE_PAGE (page), &file, 1);
  suanli_test_await (trace_shown, page);
  g_assert_nonnull (suanli_workspace_get_trace (workspace));
}

typedef struct
{
  GtkWidget *window;
  int        wide;   /* its width before */
} Resize;

/* The window has been made narrower than it was. */
static gboolean
is_narrower (gpointer data)
{
  Resize *resize = data;

  return gtk_widget_get_width (resize->window) < resize->wide;
}

static void
screenshot_pages (const char *scheme)
{
  g_autoptr(SuanliWorkspace) workspace = new_workspace ();
  SuanliWindow *window = create_window (workspace);

  for (guint i = 0; i < G_N_ELEMENTS (page_names); i++)
    {
      g_autofree char *name = g_strdup_printf ("%s-%s-%s", page_names[i], scheme, suanli_test_language_tag ());

      suanli_window_show_page (window, page_names[i]);
      if (g_str_equal (page_names[i], SUANLI_PAGE_PROFILER))
        {
          g_autofree char *empty = g_strdup_printf ("profiler-empty-%s-%s", scheme, suanli_test_language_tag ());

          g_free (suanli_test_screenshot (GTK_WIDGET (window), empty));
          load_trace (window, workspace);
        }
      g_free (suanli_test_screenshot (GTK_WIDGET (window), name));
    }

  /* Narrow: the switcher moves to the bottom bar. */
  {
    Resize resize = { GTK_WIDGET (window), gtk_widget_get_width (GTK_WIDGET (window)) };

    gtk_window_set_default_size (GTK_WINDOW (window), 400, 700);
    suanli_test_await (is_narrower, &resize);
  }
  {
    g_autofree char *name = g_strdup_printf ("window-narrow-%s-%s", scheme, suanli_test_language_tag ());

    g_free (suanli_test_screenshot (GTK_WIDGET (window), name));
  }

  destroy_window (window);
}

static void
test_screenshots (void)
{
  AdwStyleManager *style = adw_style_manager_get_default ();

  if (g_getenv ("SUANLI_SCREENSHOT_DIR") == NULL)
    g_test_message ("SUANLI_SCREENSHOT_DIR is unset: rendering the pages without saving them");

  adw_style_manager_set_color_scheme (style, ADW_COLOR_SCHEME_FORCE_LIGHT);
  g_assert_false (adw_style_manager_get_dark (style));
  screenshot_pages ("light");

  adw_style_manager_set_color_scheme (style, ADW_COLOR_SCHEME_FORCE_DARK);
  g_assert_true (adw_style_manager_get_dark (style));
  screenshot_pages ("dark");
  test_preferences_bound_to_settings ();

  adw_style_manager_set_color_scheme (style, ADW_COLOR_SCHEME_DEFAULT);
}

int
main (int   argc,
      char *argv[])
{
  g_autoptr(GPtrArray) problems = g_ptr_array_new_with_free_func (g_free);
  int status;

  suanli_test_init_gtk (&argc, &argv);
  builtin_catalog = suanli_catalog_new ();
  suanli_catalog_load_builtin (builtin_catalog, problems);

  g_test_add_func ("/window/pages", test_window_pages);
  g_test_add_func ("/window/toast", test_window_toast);
  g_test_add_func ("/window/remembers-size", test_window_remembers_size);
  g_test_add_func ("/preferences/bound-to-settings", test_preferences_bound_to_settings);
  g_test_add_func ("/window/screenshots", test_screenshots);

  status = g_test_run ();
  g_clear_object (&builtin_catalog);
  return status;
}
