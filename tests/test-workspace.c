/* test-workspace.c — the shared object model: the workspace, its signals, and the selection
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "suanli-workspace.h"

static void
count_notify (GObject    *object,
              GParamSpec *pspec,
              gpointer    user_data)
{
  (*(guint *) user_data)++;
}

/* What a "plan-replaced" or "trace-replaced" handler was given, and how often. */
typedef struct
{
  guint    calls;
  gpointer last;
} Replaced;

static void
on_plan_replaced (SuanliWorkspace *workspace,
                  SuanliPlan      *plan,
                  Replaced        *replaced)
{
  g_assert_true (suanli_workspace_get_plan (workspace) == plan);
  replaced->calls++;
  replaced->last = plan;
}

static void
on_trace_replaced (SuanliWorkspace *workspace,
                   SuanliTrace     *trace,
                   Replaced        *replaced)
{
  g_assert_true (suanli_workspace_get_trace (workspace) == trace);
  replaced->calls++;
  replaced->last = trace;
}

static void
test_workspace_plan (void)
{
  g_autoptr(SuanliCatalog) catalog = suanli_catalog_new ();
  g_autoptr(SuanliWorkspace) workspace = suanli_workspace_new (catalog);
  g_autoptr(SuanliPlan) plan = suanli_plan_new ();
  g_autoptr(SuanliPlan) first = NULL;
  Replaced replaced = { 0 };
  guint plan_notifies = 0;

  g_assert_true (suanli_workspace_get_catalog (workspace) == catalog);
  /* A workspace always has a plan to edit. */
  first = g_object_ref (suanli_workspace_get_plan (workspace));
  g_assert_true (SUANLI_IS_PLAN (first));
  g_assert_null (suanli_workspace_get_trace (workspace));
  g_assert_true (SUANLI_IS_SELECTION (suanli_workspace_get_selection (workspace)));

  /* "plan-replaced" (and "notify::plan", for bindings) only on a real change. */
  g_signal_connect (workspace, "plan-replaced", G_CALLBACK (on_plan_replaced), &replaced);
  g_signal_connect (workspace, "notify::plan", G_CALLBACK (count_notify), &plan_notifies);
  suanli_workspace_set_plan (workspace, plan);
  suanli_workspace_set_plan (workspace, plan);
  g_object_set (workspace, "plan", plan, NULL);
  g_assert_cmpuint (replaced.calls, ==, 1);
  g_assert_cmpuint (plan_notifies, ==, 1);
  g_assert_true (replaced.last == plan);
  suanli_workspace_set_plan (workspace, first);
  g_assert_cmpuint (replaced.calls, ==, 2);
  g_assert_true (replaced.last == first);
  g_assert_cmpuint (plan_notifies, ==, 2);

  /* An edit of the plan is the plan's own "changed", not another plan. */
  g_assert_true (suanli_plan_apply_merge_patch_data (first, "{\"name\": \"edited\"}", NULL));
  g_assert_cmpuint (replaced.calls, ==, 2);
}

static void
test_workspace_without_catalog (void)
{
  g_autoptr(SuanliWorkspace) workspace = suanli_workspace_new (NULL);

  g_assert_true (SUANLI_IS_CATALOG (suanli_workspace_get_catalog (workspace)));
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (suanli_workspace_get_catalog (workspace))), ==, 0);
}

static void
test_workspace_trace (void)
{
  g_autoptr(SuanliWorkspace) workspace = suanli_workspace_new (NULL);
  g_autoptr(SuanliTrace) trace = suanli_trace_new ();
  Replaced replaced = { 0 };

  g_signal_connect (workspace, "trace-replaced", G_CALLBACK (on_trace_replaced), &replaced);
  suanli_workspace_set_trace (workspace, trace);
  suanli_workspace_set_trace (workspace, trace);
  g_assert_cmpuint (replaced.calls, ==, 1);
  g_assert_true (replaced.last == trace);
  g_assert_true (suanli_workspace_get_trace (workspace) == trace);

  /* Closing the trace is a replacement by none. */
  suanli_workspace_set_trace (workspace, NULL);
  g_assert_cmpuint (replaced.calls, ==, 2);
  g_assert_null (replaced.last);
  g_assert_null (suanli_workspace_get_trace (workspace));
}

static void
test_new_trace_clears_its_selection (void)
{
  g_autoptr(SuanliWorkspace) workspace = suanli_workspace_new (NULL);
  SuanliSelection *selection = suanli_workspace_get_selection (workspace);
  g_autoptr(SuanliTrace) first = suanli_trace_new ();
  g_autoptr(SuanliTrace) second = suanli_trace_new ();
  g_autoptr(SuanliItem) item = suanli_item_new (SUANLI_ITEM_KIND_ACCELERATOR, "test-gpu", "Test", "Test GPU");

  suanli_workspace_set_trace (workspace, first);
  suanli_selection_set_range (selection, 500, 100);
  suanli_selection_set_event (selection, 3, 42);
  g_list_store_append (suanli_selection_get_items (selection), item);

  suanli_workspace_set_trace (workspace, second);
  g_assert_false (suanli_selection_get_has_range (selection));
  g_assert_cmpint (suanli_selection_get_event_track (selection), ==, -1);
  g_assert_cmpint (suanli_selection_get_event_index (selection), ==, -1);
  /* Catalog items belong to the plan, not the trace: they stay. */
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (suanli_selection_get_items (selection))), ==, 1);
  g_assert_true (g_list_model_get_item_type (G_LIST_MODEL (suanli_selection_get_items (selection))) == SUANLI_TYPE_ITEM);
}

static void
test_selection_range (void)
{
  g_autoptr(SuanliSelection) selection = suanli_selection_new ();
  guint has_range_notifies = 0, start_notifies = 0;

  g_signal_connect (selection, "notify::has-range", G_CALLBACK (count_notify), &has_range_notifies);
  g_signal_connect (selection, "notify::range-start", G_CALLBACK (count_notify), &start_notifies);

  g_assert_false (suanli_selection_get_has_range (selection));
  suanli_selection_set_range (selection, 2000, 1000);   /* dragged right to left */
  g_assert_true (suanli_selection_get_has_range (selection));
  g_assert_cmpint (suanli_selection_get_range_start (selection), ==, 1000);
  g_assert_cmpint (suanli_selection_get_range_end (selection), ==, 2000);
  suanli_selection_set_range (selection, 1000, 3000);
  g_assert_cmpuint (start_notifies, ==, 1);
  g_assert_cmpuint (has_range_notifies, ==, 1);

  suanli_selection_clear_range (selection);
  g_assert_false (suanli_selection_get_has_range (selection));
  g_assert_cmpint (suanli_selection_get_range_start (selection), ==, SUANLI_SELECTION_NONE);
  g_assert_cmpuint (has_range_notifies, ==, 2);
}

int
main (int argc, char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/workspace/plan", test_workspace_plan);
  g_test_add_func ("/workspace/without-catalog", test_workspace_without_catalog);
  g_test_add_func ("/workspace/trace", test_workspace_trace);
  g_test_add_func ("/workspace/new-trace-clears-its-selection", test_new_trace_clears_its_selection);
  g_test_add_func ("/selection/range", test_selection_range);

  return g_test_run ();
}
