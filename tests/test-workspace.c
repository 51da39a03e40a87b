/* test-workspace.c — the shared object model: workspace, selection, file kinds
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>
#include <glib/gstdio.h>

#include "suanli-file-kind.h"
#include "suanli-workspace.h"

static void
count_notify (GObject    *object,
              GParamSpec *pspec,
              gpointer    user_data)
{
  (*(guint *) user_data)++;
}

static void
test_workspace_properties (void)
{
  g_autoptr(GListStore) catalog = g_list_store_new (G_TYPE_OBJECT);
  g_autoptr(SuanliWorkspace) workspace = suanli_workspace_new (G_LIST_MODEL (catalog));
  g_autoptr(SuanliPlan) plan = suanli_plan_new ();
  g_autoptr(SuanliPlan) first = NULL;
  GListModel *bound_catalog = NULL;
  guint plan_notifies = 0;

  g_object_get (workspace, "catalog", &bound_catalog, NULL);
  g_assert_true (bound_catalog == G_LIST_MODEL (catalog));
  g_object_unref (bound_catalog);
  /* A workspace always has a plan to edit. */
  first = g_object_ref (suanli_workspace_get_plan (workspace));
  g_assert_true (SUANLI_IS_PLAN (first));
  g_assert_null (suanli_workspace_get_trace (workspace));
  g_assert_true (SUANLI_IS_SELECTION (suanli_workspace_get_selection (workspace)));

  /* "notify::plan" only on a real change. */
  g_signal_connect (workspace, "notify::plan", G_CALLBACK (count_notify), &plan_notifies);
  suanli_workspace_set_plan (workspace, plan);
  suanli_workspace_set_plan (workspace, plan);
  g_object_set (workspace, "plan", plan, NULL);
  g_assert_cmpuint (plan_notifies, ==, 1);
  g_assert_true (suanli_workspace_get_plan (workspace) == plan);
  suanli_workspace_set_plan (workspace, first);
  g_assert_cmpuint (plan_notifies, ==, 2);
}

static void
test_workspace_without_catalog (void)
{
  g_autoptr(SuanliWorkspace) workspace = suanli_workspace_new (NULL);

  g_assert_true (G_IS_LIST_MODEL (suanli_workspace_get_catalog (workspace)));
  g_assert_cmpuint (g_list_model_get_n_items (suanli_workspace_get_catalog (workspace)), ==, 0);
}

static void
test_new_trace_clears_its_selection (void)
{
  g_autoptr(SuanliWorkspace) workspace = suanli_workspace_new (NULL);
  SuanliSelection *selection = suanli_workspace_get_selection (workspace);
  g_autoptr(GObject) first = g_object_new (G_TYPE_OBJECT, NULL);
  g_autoptr(GObject) second = g_object_new (G_TYPE_OBJECT, NULL);
  g_autoptr(GObject) item = g_object_new (G_TYPE_OBJECT, NULL);

  suanli_workspace_set_trace (workspace, first);
  suanli_selection_set_range (selection, 500, 100);
  suanli_selection_set_event (selection, 3, 42);
  g_list_store_append (G_LIST_STORE (suanli_selection_get_items (selection)), item);

  suanli_workspace_set_trace (workspace, second);
  g_assert_false (suanli_selection_get_has_range (selection));
  g_assert_cmpint (suanli_selection_get_event_track (selection), ==, -1);
  g_assert_cmpint (suanli_selection_get_event_index (selection), ==, -1);
  /* Catalog items belong to the plan, not the trace: they stay. */
  g_assert_cmpuint (g_list_model_get_n_items (suanli_selection_get_items (selection)), ==, 1);
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

static GFile *
write_file (const char *directory,
            const char *name,
            const char *contents)
{
  g_autofree char *path = g_build_filename (directory, name, NULL);

  g_assert_true (g_file_set_contents (path, contents, -1, NULL));
  return g_file_new_for_path (path);
}

static void
assert_kind (const char        *directory,
             const char        *name,
             const char        *contents,
             SuanliFileKind     expected,
             SuanliTraceFormat  expected_format)
{
  g_autoptr(GFile) file = write_file (directory, name, contents);
  g_autoptr(GError) error = NULL;
  SuanliTraceFormat format = 99;

  g_assert_cmpint (suanli_file_kind_detect (file, &format, NULL, &error), ==, expected);
  g_assert_no_error (error);
  g_assert_cmpint (format, ==, expected_format);
  g_file_delete (file, NULL, NULL);
}

static void
test_file_kinds (void)
{
  g_autofree char *directory = g_dir_make_tmp ("suanli-kinds-XXXXXX", NULL);
  g_autoptr(GFile) missing = NULL;
  g_autoptr(GError) error = NULL;

  assert_kind (directory, "a.suanli-plan", "not even JSON", SUANLI_FILE_KIND_PLAN, SUANLI_TRACE_FORMAT_UNKNOWN);
  assert_kind (directory, "plan.json", "{ \"schema\" :\n \"suanli-plan/1\", \"name\": \"x\" }",
               SUANLI_FILE_KIND_PLAN, SUANLI_TRACE_FORMAT_UNKNOWN);
  assert_kind (directory, "mine.json", "{\"schema\":\"suanli-catalog/1\",\"items\":[]}",
               SUANLI_FILE_KIND_CATALOG, SUANLI_TRACE_FORMAT_UNKNOWN);
  /* A "schema" key that is not ours, or is only a prefix of ours, is not a plan. */
  assert_kind (directory, "other.json", "{\"schema\": \"suanli-pl\"}", SUANLI_FILE_KIND_UNKNOWN,
               SUANLI_TRACE_FORMAT_UNKNOWN);
  assert_kind (directory, "trace.json", "{\"traceEvents\": []}", SUANLI_FILE_KIND_TRACE,
               SUANLI_TRACE_FORMAT_CHROME_JSON);
  assert_kind (directory, "perf.folded", "main;work 10\n", SUANLI_FILE_KIND_TRACE, SUANLI_TRACE_FORMAT_FOLDED);
  assert_kind (directory, "empty", "", SUANLI_FILE_KIND_UNKNOWN, SUANLI_TRACE_FORMAT_UNKNOWN);

  missing = g_file_new_build_filename (directory, "missing.json", NULL);
  suanli_file_kind_detect (missing, NULL, NULL, &error);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND);

  g_assert_cmpint (g_rmdir (directory), ==, 0);
}

int
main (int argc, char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/workspace/properties", test_workspace_properties);
  g_test_add_func ("/workspace/without-catalog", test_workspace_without_catalog);
  g_test_add_func ("/workspace/new-trace-clears-its-selection", test_new_trace_clears_its_selection);
  g_test_add_func ("/selection/range", test_selection_range);
  g_test_add_func ("/file-kind/detect", test_file_kinds);

  return g_test_run ();
}
