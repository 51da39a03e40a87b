/* suanli-test-profile-page.c — the profiler page in a real window, and what its tests look at
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>
#include <glib/gstdio.h>

#include "suanli-catalog.h"
#include "suanli-test-profile-page.h"
#include "suanli-test-support.h"
#include "suanli-timeline-painter.h"

static char *state;

void
suanli_test_profile_init (int    *argc,
                          char ***argv)
{
  state = g_dir_make_tmp ("suanli-profile-state-XXXXXX", NULL);
  g_setenv ("XDG_STATE_HOME", state, TRUE);
  suanli_test_init_gtk (argc, argv);
}

int
suanli_test_profile_run (void)
{
  int status = g_test_run ();
  g_autofree char *autosave = g_build_filename (state, "suanli", "autosave.suanli-plan", NULL);
  g_autofree char *folder = g_build_filename (state, "suanli", NULL);

  g_unlink (autosave);
  g_rmdir (folder);
  g_rmdir (state);
  g_clear_pointer (&state, g_free);
  return status;
}

gboolean
suanli_test_profile_loaded (gpointer data)
{
  SuanliTestProfileFixture *fixture = data;

  return !suanli_profile_page_is_loading (fixture->page) && suanli_workspace_get_trace (fixture->workspace) != NULL;
}

void
suanli_test_profile_set_up (SuanliTestProfileFixture *fixture,
                            gconstpointer             data)
{
  g_autoptr(SuanliCatalog) catalog = suanli_catalog_new ();
  g_autoptr(GPtrArray) problems = g_ptr_array_new_with_free_func (g_free);
  g_autofree char *path = NULL;
  g_autoptr(GFile) file = NULL;

  fixture->directory = g_dir_make_tmp ("suanli-profile-XXXXXX", NULL);
  suanli_catalog_load_builtin (catalog, problems);   /* for the plan the trace is compared with */
  fixture->workspace = suanli_workspace_new (catalog);
  fixture->window = g_object_ref (suanli_window_new (NULL, fixture->workspace));
  gtk_window_set_default_size (GTK_WINDOW (fixture->window), 1180, 760);
  gtk_window_present (GTK_WINDOW (fixture->window));
  suanli_window_show_page (fixture->window, SUANLI_PAGE_PROFILER);
  fixture->page = SUANLI_PROFILE_PAGE (suanli_window_get_page (fixture->window, SUANLI_PAGE_PROFILER));
  fixture->timeline = SUANLI_TIMELINE (suanli_profile_page_get_timeline (fixture->page));
  suanli_test_wait_for_frame (GTK_WIDGET (fixture->window));

  path = suanli_test_write_kineto_trace (fixture->directory);
  file = g_file_new_for_path (path);
  suanli_profile_page_open_files (fixture->page, &file, 1);
  suanli_test_await (suanli_test_profile_loaded, fixture);
  suanli_test_wait_for_frame (GTK_WIDGET (fixture->window));
  g_unlink (path);
}

void
suanli_test_profile_tear_down (SuanliTestProfileFixture *fixture,
                               gconstpointer             data)
{
  suanli_test_destroy_window (GTK_WINDOW (fixture->window));
  g_assert_finalize_object (fixture->workspace);
  g_rmdir (fixture->directory);
  g_free (fixture->directory);
}

/* The time window's span, in ns. */
gint64
suanli_test_profile_span (SuanliTestProfileFixture *fixture)
{
  gint64 from, to;

  suanli_timeline_get_window (fixture->timeline, &from, &to);
  return to - from;
}

SuanliAgainstPlanView *
suanli_test_profile_against_plan (SuanliTestProfileFixture *fixture)
{
  return SUANLI_AGAINST_PLAN_VIEW (suanli_profile_page_get_against_plan_view (fixture->page));
}

SuanliTablesView *
suanli_test_profile_tables_view (SuanliTestProfileFixture *fixture)
{
  return SUANLI_TABLES_VIEW (suanli_profile_page_get_tables_view (fixture->page));
}

SuanliFlameView *
suanli_test_profile_flame_view (SuanliTestProfileFixture *fixture)
{
  return SUANLI_FLAME_VIEW (suanli_profile_page_get_flame_view (fixture->page));
}

gboolean
suanli_test_flame_ready (gpointer data)
{
  return suanli_flame_view_is_ready (SUANLI_FLAME_VIEW (data));
}

/* The flame graph is worked out on a worker thread: wait for it. */
void
suanli_test_profile_wait_for_flame (SuanliTestProfileFixture *fixture)
{
  suanli_test_await (suanli_test_flame_ready, suanli_test_profile_flame_view (fixture));
}

/* The flame graph view, showing GPU time by launching stack, worked out. */
void
suanli_test_profile_show_gpu_flame (SuanliTestProfileFixture *fixture)
{
  GtkWidget *label;

  suanli_profile_page_show_view (fixture->page, "flame");
  label = suanli_test_find_label (GTK_WIDGET (fixture->page), _("GPU Time"));
  g_assert_nonnull (label);
  gtk_toggle_button_set_active (GTK_TOGGLE_BUTTON (gtk_widget_get_ancestor (label, GTK_TYPE_TOGGLE_BUTTON)), TRUE);
  suanli_test_profile_wait_for_flame (fixture);
}

/* The x of @time_us on the timeline as it is now. */
double
suanli_test_profile_x_of (SuanliTestProfileFixture *fixture,
                          double                    time_us)
{
  gint64 from, to;
  double width = gtk_widget_get_width (GTK_WIDGET (fixture->timeline)) - SUANLI_TIMELINE_GUTTER_WIDTH;

  suanli_timeline_get_window (fixture->timeline, &from, &to);
  return SUANLI_TIMELINE_GUTTER_WIDTH + (time_us * 1000 - (double) from) * width / (double) (to - from);
}

/* Looks down the column at @x for a slice named @name, and selects it as a click does; its y, or -1. */
double
suanli_test_profile_find_row (SuanliTestProfileFixture *fixture,
                              double                    x,
                              const char               *name)
{
  SuanliTrace *trace = suanli_timeline_get_trace (fixture->timeline);
  int height = gtk_widget_get_height (GTK_WIDGET (fixture->timeline));

  for (double y = SUANLI_TIMELINE_RULER_HEIGHT + 1; y < height; y += 3)
    {
      guint track;
      guint32 slice;

      if (suanli_timeline_slice_at (fixture->timeline, x, y, &track, &slice) &&
          g_str_equal (suanli_trace_get_string (trace, g_array_index (suanli_trace_get_track (trace, track)->slices,
                                                                      SuanliSlice, slice).name),
                       name))
        {
          /* As a click there would. */
          g_assert_true (suanli_timeline_select_at (fixture->timeline, x, y));
          return y;
        }
    }
  return -1;
}

/* The search entry whose placeholder is @placeholder, under @root. */
gboolean
suanli_test_has_placeholder (GtkWidget     *widget,
                             gconstpointer  placeholder)
{
  g_autofree char *text = NULL;

  if (!GTK_IS_SEARCH_ENTRY (widget))
    return FALSE;
  g_object_get (widget, "placeholder-text", &text, NULL);
  return g_strcmp0 (text, placeholder) == 0;
}

GtkWidget *
suanli_test_find_search_entry (GtkWidget  *root,
                               const char *placeholder)
{
  return suanli_test_find_matching (root, suanli_test_has_placeholder, placeholder);
}
