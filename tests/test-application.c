/* test-application.c — the application: actions, accelerators, preferences, opening files
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>

#include <glib/gi18n.h>
#include <glib/gstdio.h>
#include <adwaita.h>

#include "suanli-application.h"
#include "suanli-catalog.h"
#include "suanli-catalog-page.h"
#include "suanli-plan-page.h"
#include "suanli-preferences-window.h"
#include "suanli-test-support.h"
#include "suanli-trace.h"
#include "suanli-window.h"
#include "suanli-workspace.h"

/* One application for the whole program, as in real life: it stays registered on the session bus
 * until the process ends. Each test starts without windows. */
static SuanliApplication *the_application;

typedef struct
{
  SuanliApplication *application;
  char              *directory;
} Fixture;

static void
fixture_set_up (Fixture       *fixture,
                gconstpointer  data)
{
  g_autoptr(GError) error = NULL;

  fixture->application = the_application;
  g_assert_null (gtk_application_get_windows (GTK_APPLICATION (fixture->application)));
  fixture->directory = g_dir_make_tmp ("suanli-test-XXXXXX", &error);
  g_assert_no_error (error);
}

static gboolean
all_gone (gpointer data)
{
  GPtrArray *windows = data;

  for (guint i = 0; i < windows->len; i++)
    if (g_ptr_array_index (windows, i) != NULL)
      return FALSE;
  return TRUE;
}

/* Destroys every window of @application and waits until each is finalized. */
static void
close_windows (GtkApplication *application)
{
  g_autoptr(GPtrArray) windows = g_ptr_array_new ();
  GList *open;

  for (GList *l = gtk_application_get_windows (application); l != NULL; l = l->next)
    g_ptr_array_add (windows, l->data);
  /* Each slot becomes NULL when its window is finalized. */
  for (guint i = 0; i < windows->len; i++)
    g_object_add_weak_pointer (g_ptr_array_index (windows, i), &g_ptr_array_index (windows, i));
  while ((open = gtk_application_get_windows (application)) != NULL)
    gtk_window_destroy (open->data);
  suanli_test_await (all_gone, windows);
}

static void
fixture_tear_down (Fixture       *fixture,
                   gconstpointer  data)
{
  g_autoptr(GDir) dir = g_dir_open (fixture->directory, 0, NULL);
  const char *name;

  close_windows (GTK_APPLICATION (fixture->application));
  g_assert_null (gtk_application_get_windows (GTK_APPLICATION (fixture->application)));

  while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *path = g_build_filename (fixture->directory, name, NULL);
      g_assert_cmpint (g_unlink (path), ==, 0);
    }
  g_assert_cmpint (g_rmdir (fixture->directory), ==, 0);
  g_free (fixture->directory);
}

static SuanliWindow *
activate (Fixture *fixture)
{
  GtkWindow *window;

  g_application_activate (G_APPLICATION (fixture->application));
  window = gtk_application_get_active_window (GTK_APPLICATION (fixture->application));
  g_assert_true (SUANLI_IS_WINDOW (window));
  suanli_test_wait_for_frame (GTK_WIDGET (window));
  return SUANLI_WINDOW (window);
}

static void
assert_accels (GtkApplication *application,
               const char     *action,
               const char     *accel)
{
  g_auto(GStrv) accels = gtk_application_get_accels_for_action (application, action);

  g_assert_true (g_strv_contains ((const char * const *) accels, accel));
}

static void
test_accelerators (Fixture       *fixture,
                   gconstpointer  data)
{
  GtkApplication *application = GTK_APPLICATION (fixture->application);

  assert_accels (application, "win.show-page::catalog", "<Control>1");
  assert_accels (application, "win.show-page::planner", "<Control>2");
  assert_accels (application, "win.show-page::profiler", "<Control>3");
  assert_accels (application, "win.open", "<Control>o");
  assert_accels (application, "app.preferences", "<Control>comma");
  assert_accels (application, "win.show-help-overlay", "<Control>question");
  assert_accels (application, "app.quit", "<Control>q");
}

static void
test_one_window_shares_the_catalog (Fixture       *fixture,
                                    gconstpointer  data)
{
  SuanliWindow *window = activate (fixture);

  /* Activating again presents the same window. */
  g_assert_true (activate (fixture) == window);
  g_assert_true (suanli_workspace_get_catalog (suanli_window_get_workspace (window)) ==
                 suanli_application_get_catalog (fixture->application));
}

static void
test_color_scheme_follows_settings (Fixture       *fixture,
                                    gconstpointer  data)
{
  g_autoptr(GSettings) settings = g_settings_new (APPLICATION_ID);
  AdwStyleManager *style = adw_application_get_style_manager (ADW_APPLICATION (fixture->application));

  activate (fixture);
  g_settings_set_string (settings, "color-scheme", "dark");
  g_assert_cmpint (adw_style_manager_get_color_scheme (style), ==, ADW_COLOR_SCHEME_FORCE_DARK);
  g_assert_true (adw_style_manager_get_dark (style));
  g_settings_set_string (settings, "color-scheme", "light");
  g_assert_cmpint (adw_style_manager_get_color_scheme (style), ==, ADW_COLOR_SCHEME_FORCE_LIGHT);
  g_assert_false (adw_style_manager_get_dark (style));
  g_settings_reset (settings, "color-scheme");
  g_assert_cmpint (adw_style_manager_get_color_scheme (style), ==, ADW_COLOR_SCHEME_DEFAULT);
}

typedef struct
{
  GtkApplication *application;
  GType           type;
} WindowSearch;

static gboolean
has_window_of_type (gpointer data)
{
  WindowSearch *search = data;

  for (GList *l = gtk_application_get_windows (search->application); l != NULL; l = l->next)
    if (G_TYPE_CHECK_INSTANCE_TYPE (l->data, search->type))
      return TRUE;
  return FALSE;
}

static GtkWidget *
find_window_of_type (GtkApplication *application,
                     GType           type)
{
  WindowSearch search = { application, type };

  suanli_test_await (has_window_of_type, &search);
  for (GList *l = gtk_application_get_windows (application); l != NULL; l = l->next)
    if (G_TYPE_CHECK_INSTANCE_TYPE (l->data, type))
      return l->data;
  return NULL;
}

static void
test_menu_actions (Fixture       *fixture,
                   gconstpointer  data)
{
  activate (fixture);
  g_action_group_activate_action (G_ACTION_GROUP (fixture->application), "preferences", NULL);
  g_assert_nonnull (find_window_of_type (GTK_APPLICATION (fixture->application), SUANLI_TYPE_PREFERENCES_WINDOW));
  g_assert_true (g_action_group_has_action (G_ACTION_GROUP (fixture->application), "about"));
  g_assert_true (g_action_group_has_action (G_ACTION_GROUP (fixture->application), "quit"));
}

/* Returns: (nullable): @accelerator as "key:mods", one spelling for each key, or NULL when it does not parse. */
static char *
accelerator_key (const char *accelerator)
{
  guint key = 0;
  GdkModifierType mods = 0;

  if (!gtk_accelerator_parse (accelerator, &key, &mods))
    return NULL;
  return g_strdup_printf ("%u:%u", gdk_keyval_to_lower (key), mods);
}

/* Adds the accelerators (parsed, as "key:mods") of every GtkShortcutsShortcut under @root to @listed. */
static void
collect_listed (GtkWidget  *root,
                GHashTable *listed)
{
  if (GTK_IS_SHORTCUTS_SHORTCUT (root))
    {
      g_autofree char *accelerators = NULL;
      g_auto(GStrv) each = NULL;

      g_object_get (root, "accelerator", &accelerators, NULL);
      each = g_strsplit (accelerators != NULL ? accelerators : "", " ", -1);
      for (guint i = 0; each[i] != NULL; i++)
        {
          char *key = accelerator_key (each[i]);

          if (key != NULL)
            g_hash_table_add (listed, key);
        }
    }
  for (GtkWidget *child = gtk_widget_get_first_child (root); child != NULL; child = gtk_widget_get_next_sibling (child))
    collect_listed (child, listed);
}

/* Every shortcut a page's controllers answer to is in the shortcuts window. */
static void
assert_pages_shortcuts_listed (SuanliWindow *window,
                               GtkWidget    *shortcuts)
{
  g_autoptr(GHashTable) listed = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  const char * const pages[] = { SUANLI_PAGE_PLANNER, SUANLI_PAGE_CATALOG };
  guint checked = 0;

  collect_listed (shortcuts, listed);
  for (guint p = 0; p < G_N_ELEMENTS (pages); p++)
    {
      GtkWidget *page = suanli_window_get_page (window, pages[p]);
      g_autoptr(GListModel) controllers = gtk_widget_observe_controllers (page);

      for (guint c = 0; c < g_list_model_get_n_items (controllers); c++)
        {
          g_autoptr(GtkEventController) controller = g_list_model_get_item (controllers, c);

          if (!GTK_IS_SHORTCUT_CONTROLLER (controller))
            continue;
          for (guint k = 0; k < g_list_model_get_n_items (G_LIST_MODEL (controller)); k++)
            {
              g_autoptr(GtkShortcut) shortcut = g_list_model_get_item (G_LIST_MODEL (controller), k);
              g_autofree char *trigger = gtk_shortcut_trigger_to_string (gtk_shortcut_get_trigger (shortcut));
              g_autofree char *wanted = accelerator_key (trigger);

              g_assert_nonnull (wanted);
              if (!g_hash_table_contains (listed, wanted))
                g_error ("%s's shortcut %s is not in the shortcuts window", G_OBJECT_TYPE_NAME (page), trigger);
              checked++;
            }
        }
    }
  g_assert_cmpuint (checked, >=, 6);
}

/* The keyboard shortcuts window (resources/ui/suanli-shortcuts-window.ui, built when first asked
 * for) and the about window open from the primary menu; both are translated. */
static void
test_shortcuts_and_about (Fixture       *fixture,
                          gconstpointer  data)
{
  SuanliWindow *window = activate (fixture);
  GtkWidget *shortcuts, *about;
  g_autofree char *shortcuts_name = g_strdup_printf ("shortcuts-light-%s", suanli_test_language_tag ());
  g_autofree char *about_name = g_strdup_printf ("about-light-%s", suanli_test_language_tag ());

  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.show-help-overlay", NULL));
  /* The overlay is the window's own, not one of the application's windows: wait until it is up. */
  shortcuts = GTK_WIDGET (gtk_application_window_get_help_overlay (GTK_APPLICATION_WINDOW (window)));
  g_assert_nonnull (shortcuts);
  suanli_test_wait_for_frame (shortcuts);
  g_assert_nonnull (suanli_test_find_label (shortcuts, _("Open a plan or trace")));
  assert_pages_shortcuts_listed (window, shortcuts);
  g_free (suanli_test_screenshot (shortcuts, shortcuts_name));
  gtk_window_close (GTK_WINDOW (shortcuts));

  g_action_group_activate_action (G_ACTION_GROUP (fixture->application), "about", NULL);
  about = find_window_of_type (GTK_APPLICATION (fixture->application), ADW_TYPE_ABOUT_WINDOW);
  g_assert_nonnull (about);
  g_assert_nonnull (suanli_test_find_label (about, PACKAGE_VERSION));
  g_free (suanli_test_screenshot (about, about_name));
}

static void
open_and_expect_toast (Fixture    *fixture,
                       const char *basename,
                       const char *contents,
                       const char *expected)
{
  g_autofree char *path = g_build_filename (fixture->directory, basename, NULL);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  GtkWidget *window;

  if (contents != NULL)
    g_assert_true (g_file_set_contents (path, contents, -1, NULL));

  /* A toast overlay shows one toast at a time: start each file in a fresh window. */
  close_windows (GTK_APPLICATION (fixture->application));
  activate (fixture);

  g_application_open (G_APPLICATION (fixture->application), &file, 1, "");
  window = GTK_WIDGET (gtk_application_get_active_window (GTK_APPLICATION (fixture->application)));
  g_assert_nonnull (window);
  g_test_message ("opened %s", basename);
  suanli_test_await_label (window, expected);
}

static gboolean
trace_is_loaded (gpointer data)
{
  return suanli_workspace_get_trace (data) != NULL;
}

static gboolean
planner_is_shown (gpointer data)
{
  return g_strcmp0 (suanli_window_get_visible_page (data), SUANLI_PAGE_PLANNER) == 0;
}

static void
test_open_files (Fixture       *fixture,
                 gconstpointer  data)
{
  g_autofree char *unknown = NULL;
  g_autofree char *missing = NULL;
  g_autofree char *path = NULL;

  activate (fixture);

  unknown = g_strdup_printf (_("“%s” is not a plan, catalog or trace Suanli can open"), "notes.bin");
  open_and_expect_toast (fixture, "notes.bin", "\x01\x02 not a trace", unknown);

  /* Two traces opened together are read as one, a group each, and shown in the profiler. */
  {
    g_autofree char *rank0 = g_build_filename (fixture->directory, "rank0.json", NULL);
    g_autofree char *rank1 = g_build_filename (fixture->directory, "rank1.json", NULL);
    GFile *files[2];
    SuanliWindow *window;

    g_assert_true (g_file_set_contents (rank0, "{\"distributedInfo\":{\"rank\":0},\"traceEvents\":[{\"ph\":\"X\","
                                               "\"name\":\"aten::mm\",\"pid\":1,\"tid\":1,\"ts\":0,\"dur\":5}]}", -1, NULL));
    g_assert_true (g_file_set_contents (rank1, "{\"distributedInfo\":{\"rank\":1},\"traceEvents\":[{\"ph\":\"X\","
                                               "\"name\":\"aten::mm\",\"pid\":1,\"tid\":1,\"ts\":1,\"dur\":5}]}", -1, NULL));
    files[0] = g_file_new_for_path (rank0);
    files[1] = g_file_new_for_path (rank1);
    g_application_open (G_APPLICATION (fixture->application), files, 2, "");
    window = SUANLI_WINDOW (gtk_application_get_active_window (GTK_APPLICATION (fixture->application)));
    suanli_test_await (trace_is_loaded, suanli_window_get_workspace (window));
    g_assert_cmpstr (suanli_window_get_visible_page (window), ==, SUANLI_PAGE_PROFILER);
    {
      SuanliTrace *loaded = suanli_workspace_get_trace (suanli_window_get_workspace (window));

      g_assert_cmpuint (suanli_trace_get_n_groups (loaded), ==, 2);
      g_assert_cmpuint (suanli_trace_get_n_slices (loaded), ==, 2);
    }
    g_object_unref (files[0]);
    g_object_unref (files[1]);
  }

  /* A plan opens in the planner. */
  {
    g_autofree char *plan_path = g_build_filename (fixture->directory, "opened.suanli-plan", NULL);
    g_autoptr(GFile) plan_file = g_file_new_for_path (plan_path);
    SuanliWindow *window;

    g_assert_true (g_file_set_contents (plan_path, "{\"name\": \"Opened from the command line\","
                                                   " \"model\": {\"preset\": \"llama-2-7b\"},"
                                                   " \"system\": {\"accelerator\": \"nvidia-h100-sxm\"}}", -1, NULL));
    g_application_open (G_APPLICATION (fixture->application), &plan_file, 1, "");
    window = SUANLI_WINDOW (gtk_application_get_active_window (GTK_APPLICATION (fixture->application)));
    suanli_test_await (planner_is_shown, window);
    g_assert_cmpstr (suanli_plan_get_name (suanli_workspace_get_plan (SUANLI_WORKSPACE (suanli_window_get_workspace (window)))),
                     ==, "Opened from the command line");
  }

  /* A file that is not there names itself, then the reason. */
  path = g_build_filename (fixture->directory, "gone.json", NULL);
  missing = g_strdup_printf (_("Cannot open “%s”: %s"), path, "");
  open_and_expect_toast (fixture, "gone.json", NULL, missing);
}

static gboolean
catalog_is_loaded (gpointer data)
{
  return g_list_model_get_n_items (G_LIST_MODEL (suanli_application_get_catalog (data))) > 0;
}

/* The user's catalog folder: one good file overrides a built-in item, a bad file and one of 80,000
 * nested brackets (which would overflow json-glib's parser) are reported in a toast with their
 * details, and the rest still loads. The files are written before the application
 * starts (see main). */
static void
test_user_catalog (Fixture       *fixture,
                   gconstpointer  data)
{
  g_autofree char *title = g_strdup_printf (ngettext ("%u problem in the catalog files",
                                                      "%u problems in the catalog files", 2), 2);
  GtkWidget *window = GTK_WIDGET (activate (fixture));
  SuanliCatalog *catalog;

  suanli_test_await (catalog_is_loaded, fixture->application);
  catalog = suanli_application_get_catalog (fixture->application);
  g_assert_cmpstr (suanli_item_get_name (suanli_catalog_lookup (catalog, "nvidia-h200-sxm")), ==, "H200 (ours)");
  g_assert_nonnull (suanli_catalog_lookup (catalog, "amd-mi300x"));
  suanli_test_await_label (window, title);
}

/* Draws a frame late, as a busy machine does: the next frame is due before this one is done. */
static gboolean
draw_late (GtkWidget     *widget,
           GdkFrameClock *clock,
           gpointer       user_data)
{
  g_usleep (25 * G_TIME_SPAN_MILLISECOND);
  return G_SOURCE_CONTINUE;
}

static gboolean
item_is_in (gpointer data)
{
  SuanliApplication *application = data;

  return suanli_catalog_lookup (suanli_application_get_catalog (application), "late-frames-accelerator") != NULL;
}

static gboolean
item_is_out (gpointer data)
{
  return !item_is_in (data);
}

/* A load goes in while the window keeps drawing frames that come late (a spinner turning on a
 * busy machine), which left nothing for the main loop's idle priority. */
static void
test_catalog_arrives_under_frames (Fixture       *fixture,
                                   gconstpointer  data)
{
  g_autoptr(GSettings) settings = g_settings_new (APPLICATION_ID);
  g_autofree char *file = g_build_filename (fixture->directory, "late.json", NULL);
  const char *folders[] = { fixture->directory, NULL };
  GtkWidget *window = GTK_WIDGET (activate (fixture));
  guint ticking;

  suanli_test_await (catalog_is_loaded, fixture->application);
  g_assert_true (g_file_set_contents (file,
    "{\"schema\": \"suanli-catalog/1\", \"items\": [{\"id\": \"late-frames-accelerator\",\n"
    " \"kind\": \"accelerator\", \"vendor\": \"Test\", \"name\": \"Late Frames\",\n"
    " \"summary\": {\"en\": \"x\", \"zh_CN\": \"x\"}}]}", -1, NULL));
  ticking = gtk_widget_add_tick_callback (window, draw_late, NULL, NULL);
  g_settings_set_strv (settings, "catalog-folders", folders);
  suanli_test_await (item_is_in, fixture->application);
  g_settings_reset (settings, "catalog-folders");
  suanli_test_await (item_is_out, fixture->application);
  gtk_widget_remove_tick_callback (window, ticking);
}

/* Writes the user's catalog files into a data folder of this test's own, which it returns. */
static char *
write_user_catalog (void)
{
  char *data_home = g_dir_make_tmp ("suanli-data-XXXXXX", NULL);
  g_autofree char *directory = g_build_filename (data_home, "suanli", "catalog", NULL);
  g_autofree char *good = g_build_filename (directory, "good.json", NULL);
  g_autofree char *bad = g_build_filename (directory, "bad.json", NULL);
  g_autofree char *deep = g_build_filename (directory, "deep.json", NULL);
  g_autofree char *brackets = g_strnfill (160000, '[');

  memset (brackets + 80000, ']', 80000);
  g_assert_cmpint (g_mkdir_with_parents (directory, 0700), ==, 0);
  g_assert_true (g_file_set_contents (deep, brackets, -1, NULL));
  g_assert_true (g_file_set_contents (good,
    "{\"schema\": \"suanli-catalog/1\", \"items\": [{\"id\": \"nvidia-h200-sxm\", \"kind\": \"accelerator\",\n"
    " \"vendor\": \"NVIDIA\", \"name\": \"H200 (ours)\", \"summary\": {\"en\": \"x\", \"zh_CN\": \"x\"}}]}",
    -1, NULL));
  g_assert_true (g_file_set_contents (bad, "{\"schema\": \"suanli-catalog/1\", \"items\": [", -1, NULL));
  /* Before anything reads it: GLib keeps the first value it sees. */
  g_setenv ("XDG_DATA_HOME", data_home, TRUE);
  return data_home;
}

static void
remove_user_catalog (const char *data_home)
{
  const char *names[] = { "suanli/catalog/good.json", "suanli/catalog/bad.json", "suanli/catalog/deep.json",
                          "suanli/catalog", "suanli", "" };

  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    {
      g_autofree char *path = g_build_filename (data_home, names[i], NULL);
      g_remove (path);
    }
}

int
main (int   argc,
      char *argv[])
{
  g_autoptr(GError) error = NULL;
  int status;

  g_autofree char *data_home = write_user_catalog ();

  suanli_test_init_gtk (&argc, &argv);
  the_application = suanli_application_new (G_APPLICATION_NON_UNIQUE);
  g_assert_true (g_application_register (G_APPLICATION (the_application), NULL, &error));
  g_assert_no_error (error);

  g_test_add ("/application/user-catalog", Fixture, NULL, fixture_set_up, test_user_catalog, fixture_tear_down);
  g_test_add ("/application/catalog-under-frames", Fixture, NULL, fixture_set_up, test_catalog_arrives_under_frames,
              fixture_tear_down);
  g_test_add ("/application/accelerators", Fixture, NULL, fixture_set_up, test_accelerators, fixture_tear_down);
  g_test_add ("/application/one-window", Fixture, NULL, fixture_set_up, test_one_window_shares_the_catalog,
              fixture_tear_down);
  g_test_add ("/application/color-scheme", Fixture, NULL, fixture_set_up, test_color_scheme_follows_settings,
              fixture_tear_down);
  g_test_add ("/application/menu-actions", Fixture, NULL, fixture_set_up, test_menu_actions, fixture_tear_down);
  g_test_add ("/application/shortcuts-and-about", Fixture, NULL, fixture_set_up, test_shortcuts_and_about,
              fixture_tear_down);
  g_test_add ("/application/open-files", Fixture, NULL, fixture_set_up, test_open_files, fixture_tear_down);

  status = g_test_run ();
  g_application_quit (G_APPLICATION (the_application));
  g_clear_object (&the_application);
  remove_user_catalog (data_home);
  return status;
}
