/* suanli-test-planner.c — a window on the planner, for the planner's widget tests
 *
 * Each test starts from the planner's own first plan: the plan autosaved by an earlier test is
 * removed before and after.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gstdio.h>

#include "suanli-test-planner.h"
#include "suanli-test-support.h"

void
suanli_test_remove_autosave (void)
{
  g_autofree char *path = g_build_filename (g_get_user_state_dir (), "suanli", "autosave.suanli-plan", NULL);

  g_unlink (path);
}

void
suanli_test_planner_set_up (SuanliTestPlanner *fixture,
                            gconstpointer      data)
{
  g_autoptr(GPtrArray) problems = g_ptr_array_new_with_free_func (g_free);

  suanli_test_remove_autosave ();
  fixture->catalog = suanli_catalog_new ();
  suanli_catalog_load_builtin (fixture->catalog, problems);
  fixture->workspace = suanli_workspace_new (fixture->catalog);
  fixture->window = g_object_ref (suanli_window_new (NULL, fixture->workspace));
  gtk_window_set_default_size (GTK_WINDOW (fixture->window), 1280, 860);
  suanli_window_show_page (fixture->window, SUANLI_PAGE_PLANNER);
  gtk_window_present (GTK_WINDOW (fixture->window));
  suanli_test_wait_for_frame (GTK_WIDGET (fixture->window));
  fixture->page = SUANLI_PLAN_PAGE (suanli_window_get_page (fixture->window, SUANLI_PAGE_PLANNER));
  g_assert_nonnull (fixture->page);
}

void
suanli_test_planner_tear_down (SuanliTestPlanner *fixture,
                               gconstpointer      data)
{
  suanli_test_destroy_window (GTK_WINDOW (fixture->window));
  g_assert_finalize_object (fixture->workspace);
  g_object_unref (fixture->catalog);
  suanli_test_remove_autosave ();
}
