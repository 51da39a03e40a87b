/* test-catalog-page.c — the catalog page in a real window: search, select, compare, chart, click
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>
#include <glib/gi18n.h>
#include <glib/gstdio.h>
#include <adwaita.h>

#include "suanli-catalog-page.h"
#include "suanli-catalog.h"
#include "suanli-chart-view.h"
#include "suanli-compare-view.h"
#include "suanli-test-support.h"
#include "suanli-window.h"
#include "suanli-workspace.h"

typedef struct
{
  SuanliCatalog     *catalog;
  SuanliWorkspace   *workspace;
  SuanliWindow      *window;
  SuanliCatalogPage *page;
} Fixture;

static void
fixture_set_up (Fixture       *fixture,
                gconstpointer  data)
{
  g_autoptr(GPtrArray) problems = g_ptr_array_new_with_free_func (g_free);

  fixture->catalog = suanli_catalog_new ();
  suanli_catalog_load_builtin (fixture->catalog, problems);
  g_assert_cmpuint (problems->len, ==, 0);
  fixture->workspace = suanli_workspace_new (fixture->catalog);
  fixture->window = g_object_ref (suanli_window_new (NULL, fixture->workspace));
  gtk_window_set_default_size (GTK_WINDOW (fixture->window), 1280, 820);
  gtk_window_present (GTK_WINDOW (fixture->window));
  suanli_test_wait_for_frame (GTK_WIDGET (fixture->window));
  fixture->page = SUANLI_CATALOG_PAGE (suanli_window_get_page (fixture->window, SUANLI_PAGE_CATALOG));
  g_assert_nonnull (fixture->page);
}

static void
fixture_tear_down (Fixture       *fixture,
                   gconstpointer  data)
{
  suanli_test_destroy_window (GTK_WINDOW (fixture->window));
  g_assert_finalize_object (fixture->workspace);
  g_assert_finalize_object (fixture->catalog);
}

static SuanliItem *
item (Fixture    *fixture,
      const char *id)
{
  SuanliItem *found = suanli_catalog_lookup (fixture->catalog, id);

  g_assert_nonnull (found);
  return found;
}

static gboolean
list_contains (GListModel *model,
               SuanliItem *wanted)
{
  for (guint i = 0; i < g_list_model_get_n_items (model); i++)
    {
      g_autoptr(SuanliItem) candidate = g_list_model_get_item (model, i);
      if (candidate == wanted)
        return TRUE;
    }
  return FALSE;
}

static void
test_kinds_and_search (Fixture       *fixture,
                       gconstpointer  data)
{
  GListModel *visible = suanli_catalog_page_get_visible_items (fixture->page);
  guint accelerators = suanli_catalog_count_kind (fixture->catalog, SUANLI_ITEM_KIND_ACCELERATOR);

  /* Accelerators first, every one of them. */
  g_assert_cmpuint (g_list_model_get_n_items (visible), ==, accelerators);

  suanli_catalog_page_set_search (fixture->page, "h200");
  g_assert_true (list_contains (visible, item (fixture, "nvidia-h200-sxm")));
  g_assert_false (list_contains (visible, item (fixture, "amd-mi300x")));
  g_assert_cmpuint (g_list_model_get_n_items (visible), <, accelerators);

  /* Chinese finds the same parts. */
  suanli_catalog_page_set_search (fixture->page, "昇腾");
  g_assert_true (list_contains (visible, item (fixture, "huawei-ascend-910b")));

  /* A search covers the whole catalog, as its placeholder promises (“H200, 昇腾, NVLink”): the
   * links come up while the accelerators are on screen, with a Kind column to tell them apart,
   * and each kind in the sidebar counts its matches. */
  suanli_catalog_page_set_search (fixture->page, "NVLink");
  g_assert_true (list_contains (visible, item (fixture, "nvlink-4")));
  suanli_test_wait_for_frame (GTK_WIDGET (fixture->window));
  g_assert_nonnull (suanli_test_find_label (GTK_WIDGET (fixture->page), _("Kind")));
  {
    guint links = 0;

    for (guint i = 0; i < g_list_model_get_n_items (visible); i++)
      {
        g_autoptr(SuanliItem) found = g_list_model_get_item (visible, i);

        links += suanli_item_get_kind (found) == SUANLI_ITEM_KIND_LINK;
      }
    g_assert_cmpuint (links, >=, 3);
  }

  /* No match shows the empty state's words, and its icon (set only when it is first shown). */
  suanli_catalog_page_set_search (fixture->page, "no such accelerator anywhere");
  g_assert_cmpuint (g_list_model_get_n_items (visible), ==, 0);
  suanli_test_wait_for_frame (GTK_WIDGET (fixture->window));
  {
    GtkWidget *no_matches = suanli_test_find_label (GTK_WIDGET (fixture->page), _("No Matches"));
    GtkWidget *status = no_matches != NULL ? gtk_widget_get_ancestor (no_matches, ADW_TYPE_STATUS_PAGE) : NULL;

    g_assert_nonnull (status);
    g_assert_cmpstr (adw_status_page_get_icon_name (ADW_STATUS_PAGE (status)), ==, "system-search-symbolic");
  }

  /* Another kind: its own items and columns. */
  suanli_catalog_page_set_search (fixture->page, "");
  suanli_catalog_page_show_kind (fixture->page, SUANLI_ITEM_KIND_MODEL);
  g_assert_cmpuint (g_list_model_get_n_items (visible), ==,
                    suanli_catalog_count_kind (fixture->catalog, SUANLI_ITEM_KIND_MODEL));
  g_assert_true (list_contains (visible, item (fixture, "llama-2-70b")));
}

static gboolean
focus_in_table (gpointer window)
{
  GtkWidget *focus = gtk_root_get_focus (GTK_ROOT (window));

  return focus != NULL && gtk_widget_get_ancestor (focus, GTK_TYPE_COLUMN_VIEW) != NULL;
}

/* Tab leaves the categories for the table, through the X server as a person presses it; the kind
 * on screen stays the same. */
static void
test_tab_leaves_sidebar (Fixture       *fixture,
                         gconstpointer  data)
{
  GtkListBox *kinds = GTK_LIST_BOX (suanli_test_find_widget (GTK_WIDGET (fixture->page), GTK_TYPE_LIST_BOX));
  GtkWidget *first = GTK_WIDGET (gtk_list_box_get_row_at_index (kinds, 0));
  GListModel *visible = suanli_catalog_page_get_visible_items (fixture->page);
  guint accelerators = suanli_catalog_count_kind (fixture->catalog, SUANLI_ITEM_KIND_ACCELERATOR);
  GtkWidget *focus;

  suanli_test_wait_for_frame (GTK_WIDGET (fixture->window));
  g_assert_true (gtk_widget_grab_focus (first));
  suanli_test_key (first, "Tab");
  /* The key arrives through the X server: wait for where it moves the focus. */
  suanli_test_wait_until (focus_in_table, fixture->window, suanli_test_patience_ms ());
  focus = gtk_root_get_focus (GTK_ROOT (fixture->window));
  g_assert_nonnull (focus);
  g_assert_nonnull (gtk_widget_get_ancestor (focus, GTK_TYPE_COLUMN_VIEW));
  g_assert_cmpuint (g_list_model_get_n_items (visible), ==, accelerators);
}

static void
test_sort_by_column (Fixture       *fixture,
                     gconstpointer  data)
{
  GtkColumnView *view = GTK_COLUMN_VIEW (suanli_test_find_widget (GTK_WIDGET (fixture->page), GTK_TYPE_COLUMN_VIEW));
  GListModel *columns = gtk_column_view_get_columns (view);
  GListModel *visible = suanli_catalog_page_get_visible_items (fixture->page);
  g_autoptr(GtkColumnViewColumn) bf16 = NULL;
  g_autoptr(SuanliItem) first = NULL;
  g_autoptr(SuanliItem) last = NULL;
  double best = 0, value = 0;

  for (guint i = 0; i < g_list_model_get_n_items (columns) && bf16 == NULL; i++)
    {
      g_autoptr(GtkColumnViewColumn) column = g_list_model_get_item (columns, i);

      if (g_str_has_prefix (gtk_column_view_column_get_title (column), "BF16"))
        bf16 = g_steal_pointer (&column);
    }
  g_assert_nonnull (bf16);
  for (guint i = 0; i < g_list_model_get_n_items (visible); i++)
    {
      g_autoptr(SuanliItem) item = g_list_model_get_item (visible, i);
      if (suanli_item_get_spec_value (item, "bf16_tflops", &value))
        best = MAX (best, value);
    }

  /* Highest first, and accelerators without a BF16 figure last. */
  gtk_column_view_sort_by_column (view, bf16, GTK_SORT_DESCENDING);
  first = g_list_model_get_item (visible, 0);
  g_assert_true (suanli_item_get_spec_value (first, "bf16_tflops", &value));
  g_assert_cmpfloat (value, ==, best);
  last = g_list_model_get_item (visible, g_list_model_get_n_items (visible) - 1);
  g_assert_false (suanli_item_get_spec_value (last, "bf16_tflops", NULL));
}

/* A cell on screen that says @text: the list keeps unmapped cells aside to bind again. */
static gboolean
is_shown_cell (GtkWidget     *widget,
               gconstpointer  text)
{
  return GTK_IS_LABEL (widget) && gtk_widget_get_mapped (widget) &&
         g_str_equal (gtk_label_get_text (GTK_LABEL (widget)), text);
}

/* A figure's cell shows where the figure comes from when the pointer rests on it, through the
 * X server as a person would see it; the text is the cell's own after the new kind bound it. */
static void
test_cell_tooltip (Fixture       *fixture,
                   gconstpointer  data)
{
  const SuanliSpec *spec = suanli_item_find_spec (item (fixture, "amd-epyc-9654"), "memory_bandwidth");
  g_autofree char *text = g_strdup_printf ("%.6g", spec->value);
  g_autofree char *expected = g_strdup_printf ("%.15g %s — %s (%s)", spec->value, spec->unit, spec->source,
                                               suanli_confidence_get_title (spec->confidence));
  GtkWidget *view = suanli_test_find_widget (GTK_WIDGET (fixture->page), GTK_TYPE_COLUMN_VIEW);
  GtkWidget *cell;

  /* The CPUs fit on screen; no other one has this bandwidth. */
  suanli_catalog_page_show_kind (fixture->page, SUANLI_ITEM_KIND_CPU);
  suanli_test_wait_for_frame (GTK_WIDGET (fixture->window));
  cell = suanli_test_find_matching (view, is_shown_cell, text);
  g_assert_nonnull (cell);
  suanli_test_point_at (cell, gtk_widget_get_width (cell) / 2.0, gtk_widget_get_height (cell) / 2.0);
  suanli_test_await_label (GTK_WIDGET (fixture->window), expected);
}

static void
test_chart_export (Fixture       *fixture,
                   gconstpointer  data)
{
  g_autofree char *directory = g_dir_make_tmp ("suanli-chart-XXXXXX", NULL);
  g_autoptr(GFile) svg = g_file_new_build_filename (directory, "chart.svg", NULL);
  g_autoptr(GFile) png = g_file_new_build_filename (directory, "chart.png", NULL);
  g_autoptr(GFile) unwritable = g_file_new_build_filename (directory, "no-such-folder", "chart.png", NULL);
  g_autoptr(GError) error = NULL;
  g_autofree char *contents = NULL;
  gsize length = 0;
  SuanliChartView *chart;

  suanli_catalog_page_show_chart (fixture->page, TRUE);
  chart = SUANLI_CHART_VIEW (suanli_test_find_widget (GTK_WIDGET (fixture->page), SUANLI_TYPE_CHART_VIEW));
  suanli_test_wait_for_frame (GTK_WIDGET (chart));

  g_assert_true (suanli_chart_view_export (chart, svg, &error));
  g_assert_no_error (error);
  g_assert_true (g_file_load_contents (svg, NULL, &contents, &length, NULL, NULL));
  g_assert_nonnull (strstr (contents, "<svg"));
  g_clear_pointer (&contents, g_free);

  g_assert_true (suanli_chart_view_export (chart, png, &error));
  g_assert_true (g_file_load_contents (png, NULL, &contents, &length, NULL, NULL));
  g_assert_cmpmem (contents, 4, "\x89PNG", 4);

  /* A bad place fails with a reason and leaves nothing behind. */
  g_assert_false (suanli_chart_view_export (chart, unwritable, &error));
  g_assert_nonnull (error);
  g_assert_false (g_file_query_exists (unwritable, NULL));

  g_file_delete (svg, NULL, NULL);
  g_file_delete (png, NULL, NULL);
  g_rmdir (directory);
}

static void
test_select_shows_details (Fixture       *fixture,
                           gconstpointer  data)
{
  SuanliItem *h200 = item (fixture, "nvidia-h200-sxm");
  g_autofree char *screenshot = g_strdup_printf ("catalog-detail-light-%s", suanli_test_language_tag ());

  g_assert_true (suanli_catalog_page_select_item (fixture->page, h200));
  g_assert_true (suanli_catalog_page_get_selected_item (fixture->page) == h200);
  suanli_test_wait_for_frame (GTK_WIDGET (fixture->window));
  /* The detail pane names the item, its sources and the article's sparse figure. */
  g_assert_nonnull (suanli_test_find_label (GTK_WIDGET (fixture->page), _("A sparse figure quoted as dense")));
  g_assert_nonnull (suanli_test_find_label (GTK_WIDGET (fixture->page), _("Specifications")));
  g_free (suanli_test_screenshot (GTK_WIDGET (fixture->window), screenshot));

  /* "Use in plan" puts it into the workspace's plan. */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (fixture->page), "catalog.use-in-plan", NULL));
  g_assert_cmpstr (json_object_get_string_member (
                     json_object_get_object_member (suanli_plan_get_root (suanli_workspace_get_plan (fixture->workspace)),
                                                    "system"), "accelerator"), ==, "nvidia-h200-sxm");
}

static void
test_compare_three (Fixture       *fixture,
                    gconstpointer  data)
{
  const char *ids[] = { "nvidia-h100-sxm", "nvidia-h200-sxm", "amd-mi300x" };
  GListModel *compare_items = G_LIST_MODEL (suanli_selection_get_items (suanli_workspace_get_selection (fixture->workspace)));
  g_autofree char *screenshot = g_strdup_printf ("catalog-compare-light-%s", suanli_test_language_tag ());
  GtkWindow *compare;
  SuanliCompareView *view;

  for (guint i = 0; i < G_N_ELEMENTS (ids); i++)
    {
      g_assert_true (suanli_catalog_page_select_item (fixture->page, item (fixture, ids[i])));
      g_assert_true (gtk_widget_activate_action (GTK_WIDGET (fixture->page), "catalog.add-to-compare", NULL));
    }
  /* Adding one twice does nothing. */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (fixture->page), "catalog.add-to-compare", NULL));
  g_assert_cmpuint (g_list_model_get_n_items (compare_items), ==, 3);

  compare = suanli_catalog_page_open_compare (fixture->page);
  suanli_test_wait_for_frame (GTK_WIDGET (compare));
  view = SUANLI_COMPARE_VIEW (suanli_test_find_widget (GTK_WIDGET (compare), SUANLI_TYPE_COMPARE_VIEW));
  g_assert_nonnull (view);
  /* MI300X's 1307.4 BF16 TFLOP/s is the best of the three; H100 and H200 share the most economical TDP. */
  g_assert_cmpint (suanli_compare_view_get_best_column (view, "bf16_tflops"), ==, 2);
  g_assert_cmpint (suanli_compare_view_get_best_column (view, "memory_bytes"), ==, 2);
  g_assert_cmpint (suanli_compare_view_get_best_column (view, "tdp"), ==, 0);
  /* A tie is best in every column it is in: both 700 W. */
  g_assert_true (suanli_compare_view_is_best (view, "tdp", 0));
  g_assert_true (suanli_compare_view_is_best (view, "tdp", 1));
  g_assert_false (suanli_compare_view_is_best (view, "tdp", 2));
  /* Ratios against the first, which they name: 4.8 / 3.35 = ×1.43 for the H200's bandwidth. */
  {
    g_autofree char *ratio = g_strdup_printf (_("×%s vs %s"), "1.43", "H100 SXM");

    g_assert_nonnull (suanli_test_find_label (GTK_WIDGET (view), ratio));
  }
  g_free (suanli_test_screenshot (GTK_WIDGET (compare), screenshot));
  gtk_window_destroy (compare);
}

/* The comparison's cell in the row titled @title (as shown: translated) and column @column; NULL
 * when the table has no such row. */
static GtkWidget *
compare_cell (SuanliCompareView *view,
              const char        *title,
              guint              column)
{
  GtkWidget *grid = suanli_test_find_widget (GTK_WIDGET (view), GTK_TYPE_GRID);
  int row = -1;

  g_assert_nonnull (grid);
  for (GtkWidget *child = gtk_widget_get_first_child (grid); child != NULL; child = gtk_widget_get_next_sibling (child))
    {
      int x, y;

      gtk_grid_query_child (GTK_GRID (grid), child, &x, &y, NULL, NULL);
      if (x == 0 && GTK_IS_LABEL (child) && g_str_equal (gtk_label_get_text (GTK_LABEL (child)), title))
        row = y;
    }
  return row < 0 ? NULL : gtk_grid_get_child_at (GTK_GRID (grid), 1 + (int) column, row);
}

/* The text a cell shows: its value, or with @line 1 the ratio under it (NULL when it has none). */
static const char *
compare_cell_text (SuanliCompareView *view,
                   const char        *title,
                   guint              column,
                   guint              line)
{
  GtkWidget *cell = compare_cell (view, title, column);
  GtkWidget *label;

  g_assert_nonnull (cell);
  label = gtk_widget_get_first_child (cell);
  for (guint i = 0; i < line && label != NULL; i++)
    label = gtk_widget_get_next_sibling (label);
  return label != NULL ? gtk_label_get_text (GTK_LABEL (label)) : NULL;
}

/* Makes @first and @second (both of @kind) the comparison, as a person does: select, Add to Compare. */
static void
compare_only (Fixture        *fixture,
              SuanliItemKind  kind,
              const char     *first,
              const char     *second)
{
  GListStore *compare_items = suanli_selection_get_items (suanli_workspace_get_selection (fixture->workspace));
  const char *ids[] = { first, second };

  g_list_store_remove_all (compare_items);
  suanli_catalog_page_show_kind (fixture->page, kind);
  for (guint i = 0; i < G_N_ELEMENTS (ids); i++)
    {
      g_assert_true (suanli_catalog_page_select_item (fixture->page, item (fixture, ids[i])));
      g_assert_true (gtk_widget_activate_action (GTK_WIDGET (fixture->page), "catalog.add-to-compare", NULL));
    }
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (compare_items)), ==, 2);
}

/* A ratio is shown only where one means something, and says what it is to: throughput,
 * bandwidth, capacity, power and price have one; a scale-up domain (how many accelerators share
 * the fast fabric), a count of accelerators, a process node and a model's layers do not, and a
 * model's layers are not "best". An unknown value says so, with no ratio beside it or against it. */
static void
test_compare_ratios (Fixture       *fixture,
                     gconstpointer  data)
{
  g_autofree char *memory_ratio = NULL;
  g_autofree char *bandwidth_ratio = NULL;
  g_autofree char *parameters_ratio = NULL;
  SuanliCompareView *view;
  GtkWindow *compare;

  /* A DGX H100 (8 sharing NVLink) against a GB200 NVL72 rack (72): ×9 of a domain says nothing. */
  compare_only (fixture, SUANLI_ITEM_KIND_SYSTEM, "nvidia-dgx-h100", "nvidia-gb200-nvl72");
  compare = suanli_catalog_page_open_compare (fixture->page);
  suanli_test_wait_for_frame (GTK_WIDGET (compare));
  view = SUANLI_COMPARE_VIEW (suanli_test_find_widget (GTK_WIDGET (compare), SUANLI_TYPE_COMPARE_VIEW));
  g_assert_nonnull (view);
  g_assert_cmpstr (compare_cell_text (view, _("Scale-up domain"), 1, 0), ==, "72");
  g_assert_null (compare_cell_text (view, _("Scale-up domain"), 1, 1));
  g_assert_null (compare_cell_text (view, _("Accelerators"), 1, 1));
  /* The larger domain is still the better one. */
  g_assert_true (suanli_compare_view_is_best (view, "scale_up_domain", 1));
  g_assert_false (suanli_compare_view_is_best (view, "scale_up_domain", 0));
  /* Memory is a capacity: its ratio names the item it is to. */
  {
    const SuanliSpec *dgx = suanli_item_find_spec (item (fixture, "nvidia-dgx-h100"), "accelerator_memory_bytes");
    const SuanliSpec *nvl = suanli_item_find_spec (item (fixture, "nvidia-gb200-nvl72"), "accelerator_memory_bytes");
    g_autofree char *times = g_strdup_printf ("%.2f", nvl->value / dgx->value);

    memory_ratio = g_strdup_printf (_("×%s vs %s"), times, "DGX H100");
    g_assert_cmpstr (compare_cell_text (view, _("Accelerator memory"), 1, 1), ==, memory_ratio);
  }
  suanli_test_screenshot_styles (GTK_WIDGET (compare), "catalog-compare-systems");

  /* A100 (7 nm) against Gaudi 3 (5 nm): a node's name is no quantity, so no ratio; bandwidth has one. */
  compare_only (fixture, SUANLI_ITEM_KIND_ACCELERATOR, "nvidia-a100-80gb-sxm", "intel-gaudi3");
  suanli_test_wait_for_frame (GTK_WIDGET (compare));
  g_assert_nonnull (compare_cell (view, _("Process"), 1));
  g_assert_null (compare_cell_text (view, _("Process"), 1, 1));
  g_assert_true (suanli_compare_view_is_best (view, "process", 1));
  bandwidth_ratio = g_strdup_printf (_("×%s vs %s"), "1.81", "A100 80GB SXM");
  g_assert_cmpstr (compare_cell_text (view, _("Bandwidth"), 1, 1), ==, bandwidth_ratio);

  /* An unknown TDP (the B300's) shows as unknown, and the MI350X's 1000 W has no ratio to it. */
  compare_only (fixture, SUANLI_ITEM_KIND_ACCELERATOR, "nvidia-b300", "amd-mi350x");
  suanli_test_wait_for_frame (GTK_WIDGET (compare));
  g_assert_cmpstr (compare_cell_text (view, _("TDP"), 0, 0), ==, _("unknown"));
  /* The value and its unit are held together by a narrow no-break space. */
  g_assert_cmpstr (compare_cell_text (view, _("TDP"), 1, 0), ==, "1000\u202fW");
  g_assert_null (compare_cell_text (view, _("TDP"), 1, 1));
  g_assert_false (suanli_compare_view_is_best (view, "tdp", 1));
  /* ... and the other way round: no ratio beside an unknown. */
  compare_only (fixture, SUANLI_ITEM_KIND_ACCELERATOR, "amd-mi350x", "nvidia-b300");
  suanli_test_wait_for_frame (GTK_WIDGET (compare));
  g_assert_cmpstr (compare_cell_text (view, _("TDP"), 1, 0), ==, _("unknown"));
  g_assert_null (compare_cell_text (view, _("TDP"), 1, 1));

  /* Llama 2 7B against 70B: ten times the parameters is worth saying; 80 layers are not "best". */
  compare_only (fixture, SUANLI_ITEM_KIND_MODEL, "llama-2-7b", "llama-2-70b");
  suanli_test_wait_for_frame (GTK_WIDGET (compare));
  parameters_ratio = g_strdup_printf (_("×%s vs %s"), "10.24", suanli_item_get_name (item (fixture, "llama-2-7b")));
  g_assert_cmpstr (compare_cell_text (view, _("Parameters"), 1, 1), ==, parameters_ratio);
  g_assert_null (compare_cell_text (view, _("Layers"), 1, 1));
  g_assert_false (suanli_compare_view_is_best (view, "layers", 1));
  gtk_window_destroy (compare);
}

/* The button over a column of the comparison that takes its item out. */
static gboolean
is_remove_button (GtkWidget     *widget,
                  gconstpointer  name)
{
  g_autofree char *tooltip = g_strdup_printf (_("Remove %s from the comparison"), (const char *) name);

  return GTK_IS_BUTTON (widget) && g_strcmp0 (gtk_widget_get_tooltip_text (widget), tooltip) == 0;
}

static gboolean
compare_has_two (gpointer data)
{
  return g_list_model_get_n_items (data) == 2;
}

/* A search selects its best match, so Add to Compare adds what was searched for, and the chart
 * rings what is compared; a compared item leaves on its own, by its column's button. */
static void
test_search_then_compare (Fixture       *fixture,
                          gconstpointer  data)
{
  GListModel *compare_items = G_LIST_MODEL (suanli_selection_get_items (suanli_workspace_get_selection (fixture->workspace)));
  GListModel *visible = suanli_catalog_page_get_visible_items (fixture->page);
  const char *searches[][2] = {
    { "H100 SXM", "nvidia-h100-sxm" }, { "H20", "nvidia-h20" }, { "MI300X", "amd-mi300x" },
  };
  SuanliChartView *chart;
  GtkWindow *compare;
  GtkWidget *remove;

  /* The H200 stays a match for "H100 SXM" (its summary names the H100) but is not what was asked. */
  g_assert_true (suanli_catalog_page_select_item (fixture->page, item (fixture, "nvidia-h200-sxm")));
  for (guint i = 0; i < G_N_ELEMENTS (searches); i++)
    {
      g_autoptr(SuanliItem) first = NULL;

      suanli_catalog_page_set_search (fixture->page, searches[i][0]);
      first = g_list_model_get_item (visible, 0);
      g_assert_cmpstr (suanli_item_get_id (first), ==, searches[i][1]);
      g_assert_true (suanli_catalog_page_get_selected_item (fixture->page) == item (fixture, searches[i][1]));
      g_assert_true (gtk_widget_activate_action (GTK_WIDGET (fixture->page), "catalog.add-to-compare", NULL));
    }
  g_assert_cmpuint (g_list_model_get_n_items (compare_items), ==, 3);
  for (guint i = 0; i < G_N_ELEMENTS (searches); i++)
    g_assert_true (list_contains (compare_items, item (fixture, searches[i][1])));

  /* Every compared item on the chart keeps its label, however crowded. */
  suanli_catalog_page_set_search (fixture->page, "");
  suanli_catalog_page_show_kind (fixture->page, SUANLI_ITEM_KIND_ACCELERATOR);
  suanli_catalog_page_show_chart (fixture->page, TRUE);
  chart = SUANLI_CHART_VIEW (suanli_test_find_widget (GTK_WIDGET (fixture->page), SUANLI_TYPE_CHART_VIEW));
  suanli_test_wait_for_frame (GTK_WIDGET (chart));
  for (guint i = 0; i < G_N_ELEMENTS (searches); i++)
    g_assert_true (suanli_chart_view_get_item_labelled (chart, item (fixture, searches[i][1])));
  suanli_test_screenshot_styles (GTK_WIDGET (fixture->window), "catalog-compare-chart");

  /* The H20 leaves by its own button, a real click; the other two stay. */
  compare = suanli_catalog_page_open_compare (fixture->page);
  suanli_test_wait_for_frame (GTK_WIDGET (compare));
  suanli_test_screenshot_styles (GTK_WIDGET (compare), "catalog-compare-remove");
  remove = suanli_test_find_matching (GTK_WIDGET (compare), is_remove_button, "H20");
  g_assert_nonnull (remove);
  suanli_test_click (remove, gtk_widget_get_width (remove) / 2.0, gtk_widget_get_height (remove) / 2.0);
  suanli_test_await (compare_has_two, compare_items);
  g_assert_false (list_contains (compare_items, item (fixture, "nvidia-h20")));
  g_assert_true (list_contains (compare_items, item (fixture, "nvidia-h100-sxm")));
  gtk_window_destroy (compare);
}

typedef struct
{
  SuanliChartView *chart;
  SuanliItem      *item;
} LabelWait;

static gboolean
item_is_labelled (gpointer data)
{
  LabelWait *wait = data;

  return suanli_chart_view_get_item_labelled (wait->chart, wait->item);
}

/* A crowded bubble whose label found no room shows it while the pointer is on it. */
static void
test_crowded_label_on_hover (Fixture       *fixture,
                             gconstpointer  data)
{
  GListModel *visible = suanli_catalog_page_get_visible_items (fixture->page);
  SuanliChartView *chart;
  LabelWait wait = { NULL, NULL };
  guint plotted = 0, unlabelled = 0;
  double x, y;

  suanli_catalog_page_show_chart (fixture->page, TRUE);
  chart = SUANLI_CHART_VIEW (suanli_test_find_widget (GTK_WIDGET (fixture->page), SUANLI_TYPE_CHART_VIEW));
  /* A small chart, so that labels crowd. */
  gtk_window_set_default_size (GTK_WINDOW (fixture->window), 900, 560);
  suanli_test_wait_for_frame (GTK_WIDGET (fixture->window));
  suanli_test_wait_for_frame (GTK_WIDGET (chart));
  for (guint i = 0; i < g_list_model_get_n_items (visible); i++)
    {
      g_autoptr(SuanliItem) each = g_list_model_get_item (visible, i);

      if (!suanli_chart_view_get_item_position (chart, each, &x, &y))
        continue;
      plotted++;
      if (!suanli_chart_view_get_item_labelled (chart, each))
        {
          unlabelled++;
          if (wait.item == NULL)
            wait.item = each;
        }
    }
  g_test_message ("%u of %u points have no room for their label", unlabelled, plotted);
  g_assert_cmpuint (plotted, >, 20);
  if (wait.item == NULL)
    return;
  wait.chart = chart;
  g_assert_true (suanli_chart_view_get_item_position (chart, wait.item, &x, &y));
  suanli_test_point_at (GTK_WIDGET (chart), x, y);
  suanli_test_await (item_is_labelled, &wait);
}

typedef struct
{
  SuanliCatalogPage *page;
  SuanliItem        *item;
} SelectionWait;

static gboolean
item_is_selected (gpointer data)
{
  SelectionWait *wait = data;

  return suanli_catalog_page_get_selected_item (wait->page) == wait->item;
}

static void
test_chart_click_selects (Fixture       *fixture,
                          gconstpointer  data)
{
  g_autofree char *screenshot = g_strdup_printf ("catalog-chart-light-%s", suanli_test_language_tag ());
  SuanliChartView *chart;
  SuanliItem *mi300x = item (fixture, "amd-mi300x");
  SelectionWait wait = { fixture->page, mi300x };
  g_autoptr(GdkTexture) texture = NULL;
  double x = 0, y = 0;
  guint32 background, point;

  g_assert_true (suanli_catalog_page_select_item (fixture->page, item (fixture, "nvidia-h100-sxm")));
  suanli_catalog_page_show_chart (fixture->page, TRUE);
  chart = SUANLI_CHART_VIEW (suanli_test_find_widget (GTK_WIDGET (fixture->page), SUANLI_TYPE_CHART_VIEW));
  g_assert_nonnull (chart);
  suanli_test_wait_for_frame (GTK_WIDGET (chart));
  g_assert_true (gtk_widget_get_mapped (GTK_WIDGET (chart)));

  /* The MI300X is drawn where the painter says: its pixel is not the background's. */
  texture = suanli_test_render (GTK_WIDGET (chart));
  g_assert_true (suanli_chart_view_get_item_position (chart, mi300x, &x, &y));
  background = suanli_test_pixel (texture, gdk_texture_get_width (texture) - 3, 3);
  point = suanli_test_pixel (texture, (int) x, (int) y);
  g_assert_cmphex (point, !=, background);
  g_assert_true (suanli_chart_view_get_item_at (chart, x, y) == mi300x);

  /* A real click there selects its row in the table. */
  suanli_test_click (GTK_WIDGET (chart), x, y);
  suanli_test_await (item_is_selected, &wait);

  g_free (suanli_test_screenshot (GTK_WIDGET (fixture->window), screenshot));
}

/* The new hardware, in English and Chinese: an item whose figures no source confirms says so in
 * its details and in the compare view, and the chart says how many items it leaves out and why. */
static void
test_new_items (Fixture       *fixture,
                gconstpointer  data)
{
  const char *ids[] = { "nvidia-b300", "amd-mi350x", "google-tpu-v7", "huawei-ascend-950dt" };
  SuanliChartView *chart;
  SuanliCompareView *view;
  GtkWindow *compare;
  const char *left_out;

  g_assert_true (suanli_catalog_page_select_item (fixture->page, item (fixture, "cambricon-mlu590")));
  suanli_test_wait_for_frame (GTK_WIDGET (fixture->window));
  g_assert_nonnull (suanli_test_find_label (GTK_WIDGET (fixture->page), _("Not known")));
  g_assert_true (suanli_catalog_page_select_item (fixture->page, item (fixture, "huawei-ascend-910c")));
  suanli_test_wait_for_frame (GTK_WIDGET (fixture->window));
  g_assert_nonnull (suanli_test_find_label (GTK_WIDGET (fixture->page), _("Specifications")));
  g_assert_nonnull (suanli_test_find_label (GTK_WIDGET (fixture->page), _("Not known")));
  suanli_test_screenshot_styles (GTK_WIDGET (fixture->window), "catalog-new-detail");

  for (guint i = 0; i < G_N_ELEMENTS (ids); i++)
    {
      g_assert_true (suanli_catalog_page_select_item (fixture->page, item (fixture, ids[i])));
      g_assert_true (gtk_widget_activate_action (GTK_WIDGET (fixture->page), "catalog.add-to-compare", NULL));
    }
  compare = suanli_catalog_page_open_compare (fixture->page);
  suanli_test_wait_for_frame (GTK_WIDGET (compare));
  view = SUANLI_COMPARE_VIEW (suanli_test_find_widget (GTK_WIDGET (compare), SUANLI_TYPE_COMPARE_VIEW));
  g_assert_nonnull (view);
  /* The B300's and the MI350X's 288 GB tie for the most memory, and both are marked; the
   * Ascend 950DT's BF16 rate is not public. */
  g_assert_true (suanli_compare_view_is_best (view, "memory_bytes", 0));
  g_assert_true (suanli_compare_view_is_best (view, "memory_bytes", 1));
  g_assert_false (suanli_compare_view_is_best (view, "memory_bytes", 2));
  g_assert_nonnull (suanli_test_find_label (GTK_WIDGET (view), _("unknown")));
  suanli_test_screenshot_styles (GTK_WIDGET (compare), "catalog-new-compare");
  gtk_window_destroy (compare);

  suanli_catalog_page_show_chart (fixture->page, TRUE);
  chart = SUANLI_CHART_VIEW (suanli_test_find_widget (GTK_WIDGET (fixture->page), SUANLI_TYPE_CHART_VIEW));
  g_assert_nonnull (chart);
  suanli_test_wait_for_frame (GTK_WIDGET (chart));
  left_out = suanli_chart_view_get_left_out (chart);
  g_assert_nonnull (left_out);
  g_test_message ("%s", left_out);
  /* The label under the chart shows it. */
  g_assert_nonnull (suanli_test_find_label (GTK_WIDGET (fixture->page), left_out));
  /* It counts the accelerators without a BF16 or a bandwidth figure, of all the accelerators. */
  {
    guint all = 0, out = 0;
    g_autofree char *counts = NULL;

    for (guint i = 0; i < g_list_model_get_n_items (G_LIST_MODEL (fixture->catalog)); i++)
      {
        g_autoptr(SuanliItem) each = g_list_model_get_item (G_LIST_MODEL (fixture->catalog), i);

        if (suanli_item_get_kind (each) != SUANLI_ITEM_KIND_ACCELERATOR)
          continue;
        all++;
        out += !suanli_item_get_spec_value (each, "bf16_tflops", NULL) ||
               !suanli_item_get_spec_value (each, "memory_bandwidth", NULL);
      }
    g_assert_cmpuint (out, >, 0);
    counts = g_strdup_printf (" %u ", all);
    g_assert_nonnull (strstr (left_out, counts));
    g_free (counts);
    counts = g_strdup_printf (" %u ", out);
    g_assert_nonnull (strstr (left_out, counts));
  }
  suanli_test_screenshot_styles (GTK_WIDGET (fixture->window), "catalog-new-chart");
}

int
main (int   argc,
      char *argv[])
{
  suanli_test_init_gtk (&argc, &argv);

  g_test_add ("/catalog-page/tab-leaves-sidebar", Fixture, NULL, fixture_set_up, test_tab_leaves_sidebar,
              fixture_tear_down);
  g_test_add ("/catalog-page/kinds-and-search", Fixture, NULL, fixture_set_up, test_kinds_and_search,
              fixture_tear_down);
  g_test_add ("/catalog-page/sort-by-column", Fixture, NULL, fixture_set_up, test_sort_by_column,
              fixture_tear_down);
  g_test_add ("/catalog-page/cell-tooltip", Fixture, NULL, fixture_set_up, test_cell_tooltip, fixture_tear_down);
  g_test_add ("/catalog-page/chart-export", Fixture, NULL, fixture_set_up, test_chart_export, fixture_tear_down);
  g_test_add ("/catalog-page/select-shows-details", Fixture, NULL, fixture_set_up, test_select_shows_details,
              fixture_tear_down);
  g_test_add ("/catalog-page/compare-three", Fixture, NULL, fixture_set_up, test_compare_three, fixture_tear_down);
  g_test_add ("/catalog-page/compare-ratios", Fixture, NULL, fixture_set_up, test_compare_ratios, fixture_tear_down);
  g_test_add ("/catalog-page/new-items", Fixture, NULL, fixture_set_up, test_new_items, fixture_tear_down);
  g_test_add ("/catalog-page/search-then-compare", Fixture, NULL, fixture_set_up, test_search_then_compare,
              fixture_tear_down);
  g_test_add ("/catalog-page/crowded-label-on-hover", Fixture, NULL, fixture_set_up, test_crowded_label_on_hover,
              fixture_tear_down);
  g_test_add ("/catalog-page/chart-click-selects", Fixture, NULL, fixture_set_up, test_chart_click_selects,
              fixture_tear_down);

  return g_test_run ();
}
