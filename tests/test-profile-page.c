/* test-profile-page.c — the profiler page in a real window under Xvfb: loading with progress, the
 * summary, recent and bad files, the layout, a range, exporting, other jobs and ranks, Live… and the
 * screenshots. The timeline is in test-profile-timeline.c, the other views in test-profile-views.c.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>
#include <string.h>
#include <glib/gi18n.h>
#include <glib/gstdio.h>
#include <adwaita.h>

#include "suanli-against-plan-view.h"
#include "suanli-catalog.h"
#include "suanli-device-match.h"
#include "suanli-estimate.h"
#include "suanli-flame-graph.h"
#include "suanli-flame-view.h"
#include "suanli-import.h"
#include "suanli-inject.h"
#include "suanli-live-dialog.h"
#include "suanli-plan-page.h"
#include "suanli-profile-common.h"
#include "suanli-profile-page.h"
#include "suanli-stats-table.h"
#include "suanli-tables-view.h"
#include "suanli-test-capture.h"
#include "suanli-test-fixtures.h"
#include "suanli-test-generator.h"
#include "suanli-test-profile-page.h"
#include "suanli-test-support.h"
#include "suanli-timeline.h"
#include "suanli-timeline-painter.h"
#include "suanli-units.h"
#include "suanli-whatif-view.h"
#include "suanli-window.h"
#include "suanli-workspace.h"

typedef SuanliTestProfileFixture Fixture;

static void
test_summary (Fixture       *fixture,
              gconstpointer  data)
{
  const char *summary = suanli_profile_page_get_summary (fixture->page);
  /* The translated words between the GPU count and the first percentage ("1 GPU: busy 61%"). */
  const char *format = ngettext ("%u GPU: busy %.0f%% · compute %.0f%% · communication %.0f%% · "
                                 "memcpy %.0f%% · idle %.0f%% (waiting for the host %.0f%%)",
                                 "%u GPUs: busy %.0f%% · compute %.0f%% · communication %.0f%% · "
                                 "memcpy %.0f%% · idle %.0f%% (waiting for the host %.0f%%)", 1);
  const char *words = strstr (format, "%u") + 2;
  g_autofree char *gpu = g_strdup_printf ("1%.*s", (int) (strchr (words, '%') - words), words);
  /* The mean of the periods: 400 ms to the second step's start, then 399 ms to its end. */
  g_autofree char *step = suanli_format_duration_ns (399500000);
  g_autofree char *steps = g_strdup_printf (ngettext ("%u step, %s per step", "%u steps, %s per step", 2), 2, step);

  g_test_message ("summary: %s", summary);
  /* The GPU-time bar under it. */
  g_assert_true (gtk_widget_get_visible (suanli_test_find_widget (GTK_WIDGET (fixture->page), GTK_TYPE_DRAWING_AREA)));
  g_assert_nonnull (strstr (summary, gpu));
  g_assert_nonnull (strstr (summary, steps));
  g_assert_nonnull (strstr (summary, "ampere_sgemm_128x64_tn"));
}

/* Whether the menu of the page's recent-traces button lists @label. */
static gboolean
recent_lists (gpointer data)
{
  Fixture *fixture = data;
  GtkWidget *button = suanli_test_find_widget (GTK_WIDGET (fixture->page), GTK_TYPE_MENU_BUTTON);
  GMenuModel *menu = gtk_menu_button_get_menu_model (GTK_MENU_BUTTON (button));

  for (int i = 0; menu != NULL && i < g_menu_model_get_n_items (menu); i++)
    {
      g_autofree char *label = NULL;

      if (g_menu_model_get_item_attribute (menu, i, G_MENU_ATTRIBUTE_LABEL, "s", &label) &&
          g_str_equal (label, "generated-rank0.json"))
        return TRUE;
    }
  return FALSE;
}

static void
test_recent (Fixture       *fixture,
             gconstpointer  data)
{
  /* The trace just read is in the recent list (the file itself is gone by now). */
  suanli_test_await (recent_lists, fixture);
}

static void
test_bad_file (Fixture       *fixture,
               gconstpointer  data)
{
  /* A file that is not a trace: an error, and the trace shown before stays, with its view. */
  g_autofree char *path = g_build_filename (fixture->directory, "notes.json", NULL);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  SuanliTrace *before = suanli_workspace_get_trace (fixture->workspace);

  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (fixture->timeline), "timeline.zoom-in", NULL));
  g_assert_true (g_file_set_contents (path, "these are notes, not a trace", -1, NULL));
  suanli_profile_page_open_files (fixture->page, &file, 1);
  suanli_test_await (suanli_test_profile_loaded, fixture);
  g_assert_true (suanli_workspace_get_trace (fixture->workspace) == before);
  g_assert_true (suanli_timeline_get_trace (fixture->timeline) == before);
  g_assert_cmpint (suanli_test_profile_span (fixture), <, (gint64) SUANLI_TEST_TRACE_SPAN_US * 1000);   /* still zoomed */
  g_unlink (path);
}

/* The toggle button whose tooltip is @tooltip, under @root. */
static gboolean
is_toggle_with_tooltip (GtkWidget     *widget,
                        gconstpointer  tooltip)
{
  return GTK_IS_TOGGLE_BUTTON (widget) && g_strcmp0 (gtk_widget_get_tooltip_text (widget), tooltip) == 0;
}

static GtkWidget *
find_toggle (GtkWidget  *root,
             const char *tooltip)
{
  return suanli_test_find_matching (root, is_toggle_with_tooltip, tooltip);
}

/* The label reading @text and nothing else ("Reading “…”…" holds the name too). */
static gboolean
reads_exactly (GtkWidget     *widget,
               gconstpointer  text)
{
  return GTK_IS_LABEL (widget) && g_str_equal (gtk_label_get_text (GTK_LABEL (widget)), text);
}

static GtkWidget *
find_label_exactly (GtkWidget  *root,
                    const char *text)
{
  return suanli_test_find_matching (root, reads_exactly, text);
}

static gboolean
revealer_settled (gpointer data)
{
  return gtk_revealer_get_child_revealed (data) == gtk_revealer_get_reveal_child (data);
}

/* At 1280 × 820 the summary folds away and the timeline takes its room; the kernels table fills
 * its part of the height; the trace's path is in the title's tooltip. */
static void
test_layout (Fixture       *fixture,
             gconstpointer  data)
{
  GtkWidget *toggle = find_toggle (GTK_WIDGET (fixture->page), _("Show or Hide the Summary"));
  GtkRevealer *revealer = GTK_REVEALER (gtk_widget_get_ancestor (GTK_WIDGET (suanli_test_find_label (GTK_WIDGET (fixture->page),
                                                                                                     suanli_profile_page_get_summary (fixture->page))),
                                                                 GTK_TYPE_REVEALER));
  /* In the trace's view (the recent-traces menu has a button of that name too). */
  GtkWidget *title = find_label_exactly (gtk_widget_get_parent (gtk_widget_get_parent (GTK_WIDGET (fixture->timeline))),
                                         "generated-rank0.json");
  int unfolded;

  gtk_window_set_default_size (GTK_WINDOW (fixture->window), 1280, 820);
  suanli_test_wait_for_frame (GTK_WIDGET (fixture->window));
  suanli_test_settle (GTK_WIDGET (fixture->window));
  g_assert_nonnull (toggle);
  g_assert_nonnull (revealer);
  unfolded = gtk_widget_get_height (GTK_WIDGET (fixture->timeline));
  gtk_toggle_button_set_active (GTK_TOGGLE_BUTTON (toggle), FALSE);
  suanli_test_await (revealer_settled, revealer);
  suanli_test_settle (GTK_WIDGET (fixture->window));
  g_test_message ("timeline %d px high with the summary, %d without", unfolded, gtk_widget_get_height (GTK_WIDGET (fixture->timeline)));
  g_assert_cmpint (gtk_widget_get_height (GTK_WIDGET (fixture->timeline)), >, unfolded + 60);
  suanli_test_screenshot_styles (GTK_WIDGET (fixture->window), "profiler-summary-folded");
  gtk_toggle_button_set_active (GTK_TOGGLE_BUTTON (toggle), TRUE);
  suanli_test_await (revealer_settled, revealer);

  /* The kernels table: two thirds of the tables' height, not the 160 px it asks for. */
  suanli_profile_page_show_view (fixture->page, "tables");
  suanli_test_settle (GTK_WIDGET (fixture->window));
  {
    GtkWidget *kernels = suanli_tables_view_get_kernels (suanli_test_profile_tables_view (fixture));
    GtkWidget *paned = gtk_widget_get_ancestor (kernels, GTK_TYPE_PANED);

    g_test_message ("kernels %d px of %d", gtk_widget_get_height (kernels), gtk_widget_get_height (paned));
    g_assert_cmpint (gtk_widget_get_height (kernels), >=, gtk_widget_get_height (paned) / 2);
  }
  suanli_profile_page_show_view (fixture->page, "timeline");

  /* The trace's full path is in the title's tooltip, and its name is whole at 1024 × 700. */
  g_assert_nonnull (title);
  g_assert_nonnull (gtk_widget_get_tooltip_text (title));
  g_assert_true (g_str_has_suffix (gtk_widget_get_tooltip_text (title), "/generated-rank0.json"));
  g_assert_true (g_path_is_absolute (gtk_widget_get_tooltip_text (title)));
  gtk_window_set_default_size (GTK_WINDOW (fixture->window), 1024, 700);
  suanli_test_settle (GTK_WIDGET (fixture->window));
  g_assert_cmpint (gtk_widget_get_width (GTK_WIDGET (fixture->window)), <=, 1024);
  g_assert_false (pango_layout_is_ellipsized (gtk_label_get_layout (GTK_LABEL (title))));
  g_assert_cmpstr (gtk_label_get_text (GTK_LABEL (title)), ==, "generated-rank0.json");
  suanli_test_screenshot_styles (GTK_WIDGET (fixture->window), "profiler-narrow");
}

static void
test_range (Fixture       *fixture,
            gconstpointer  data)
{
  SuanliStatsTable *range = SUANLI_STATS_TABLE (suanli_tables_view_get_range (suanli_test_profile_tables_view (fixture)));
  SuanliStatsTable *kernels = SUANLI_STATS_TABLE (suanli_tables_view_get_kernels (suanli_test_profile_tables_view (fixture)));
  SuanliFlameGraph *graph = SUANLI_FLAME_GRAPH (suanli_flame_view_get_graph (suanli_test_profile_flame_view (fixture)));
  g_autofree char *name = g_strdup_printf ("profiler-range-light-%s", suanli_test_language_tag ());
  g_autofree char *range_csv = NULL;
  g_autofree char *kernels_csv = NULL;
  gint64 from, to;

  /* The first 100 ms: the step, linear, addmm, a launch and the GEMM, for the part inside. */
  g_assert_false (gtk_widget_get_visible (GTK_WIDGET (range)));
  suanli_timeline_set_range (fixture->timeline, 0, 100000000);
  suanli_test_await (suanli_test_profile_loaded, fixture);   /* the range's figures come from a worker */
  g_assert_true (gtk_widget_get_visible (GTK_WIDGET (range)));
  g_assert_cmpuint (suanli_stats_table_get_n_rows (range), ==, 5);
  range_csv = suanli_stats_table_to_csv (range);
  g_test_message ("%s", range_csv);
  g_assert_nonnull (strstr (range_csv, "\r\naten::linear,1,90000000,90000000,90000000,90000000\r\n"));
  g_assert_nonnull (strstr (range_csv, "\r\nampere_sgemm_128x64_tn,1,60000000,60000000,60000000,60000000\r\n"));
  kernels_csv = suanli_stats_table_to_csv (kernels);
  g_assert_nonnull (strstr (kernels_csv, "\r\nampere_sgemm_128x64_tn,1,60000000,"));
  g_assert_null (strstr (kernels_csv, "ncclDevKernel"));

  /* F zooms to the range; the flame graph keeps to it. */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (fixture->timeline), "timeline.zoom-to-selection", NULL));
  suanli_timeline_get_window (fixture->timeline, &from, &to);
  g_assert_cmpint (from, ==, 0);
  g_assert_cmpint (to, ==, 100000000);
  g_free (suanli_test_screenshot (GTK_WIDGET (fixture->window), name));
  suanli_profile_page_show_view (fixture->page, "flame");
  suanli_test_profile_wait_for_flame (fixture);
  g_assert_cmpint (suanli_flame_get_node (suanli_flame_graph_get_flame (graph), 0)->total, ==, 100000000);

  /* Escape forgets it: everything again. */
  suanli_profile_page_show_view (fixture->page, "timeline");
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (fixture->timeline), "timeline.clear-range", NULL));
  g_assert_false (gtk_widget_get_visible (GTK_WIDGET (range)));
  g_assert_cmpuint (suanli_stats_table_get_n_rows (kernels), ==, 3);
  suanli_profile_page_show_view (fixture->page, "flame");
  suanli_test_profile_wait_for_flame (fixture);
  g_assert_cmpint (suanli_flame_get_node (suanli_flame_graph_get_flame (graph), 0)->total, ==, 798000000);
}

static void
test_export (Fixture       *fixture,
             gconstpointer  data)
{
  g_autofree char *svg_path = g_build_filename (fixture->directory, "timeline.svg", NULL);
  g_autofree char *png_path = g_build_filename (fixture->directory, "flame.png", NULL);
  g_autoptr(GFile) svg = g_file_new_for_path (svg_path);
  g_autoptr(GFile) png = g_file_new_for_path (png_path);
  g_autoptr(GError) error = NULL;
  g_autofree char *contents = NULL;
  gsize length;

  /* The timeline in front: SVG, a vector drawing. */
  g_assert_true (suanli_profile_page_export_view (fixture->page, svg, &error));
  g_assert_no_error (error);
  g_assert_true (g_file_get_contents (svg_path, &contents, &length, NULL));
  g_assert_nonnull (strstr (contents, "<svg"));
  g_assert_null (strstr (contents, "<image"));   /* no raster in it */
  g_assert_cmpuint (length, >, 1000);
  g_clear_pointer (&contents, g_free);

  /* The flame graph in front: PNG. */
  suanli_profile_page_show_view (fixture->page, "flame");
  suanli_test_profile_wait_for_flame (fixture);
  suanli_test_wait_for_frame (GTK_WIDGET (fixture->window));
  g_assert_true (suanli_profile_page_export_view (fixture->page, png, &error));
  g_assert_true (g_file_get_contents (png_path, &contents, &length, NULL));
  g_assert_cmpuint (length, >, 8);
  g_assert_cmpint (memcmp (contents, "\x89PNG\r\n\x1a\n", 8), ==, 0);

  /* A folder that is not there: an error, and nothing written. */
  {
    g_autoptr(GFile) nowhere = g_file_new_for_path ("/nonexistent-folder/flame.png");

    g_assert_false (suanli_profile_page_export_view (fixture->page, nowhere, &error));
    g_assert_nonnull (error);
  }
  g_unlink (svg_path);
  g_unlink (png_path);
}

/* The generated trace as if it ran on @gpus × @device (with @memory bytes), opened. */
static void
open_trace_on (Fixture    *fixture,
               const char *device,
               guint64     memory,
               guint       gpus)
{
  g_autofree char *path = suanli_test_write_kineto_trace (fixture->directory);
  g_autofree char *text = NULL;
  g_autoptr(GString) moved = NULL;
  g_autofree char *devices = g_strdup_printf ("\"name\":\"%s\",\"totalGlobalMem\":%" G_GUINT64_FORMAT, device, memory);
  g_autofree char *world = g_strdup_printf ("\"world_size\":%u", gpus);
  g_autoptr(GFile) file = NULL;

  g_assert_true (g_file_get_contents (path, &text, NULL, NULL));
  moved = g_string_new (text);
  g_assert_cmpuint (g_string_replace (moved, "\"name\":\"NVIDIA H100 80GB HBM3\",\"totalGlobalMem\":85520809984", devices, 1), ==, 1);
  g_assert_cmpuint (g_string_replace (moved, "\"world_size\":8", world, 1), ==, 1);
  g_assert_true (g_file_set_contents (path, moved->str, (gssize) moved->len, NULL));
  file = g_file_new_for_path (path);
  suanli_profile_page_open_files (fixture->page, &file, 1);
  suanli_test_await (suanli_test_profile_loaded, fixture);
  suanli_test_wait_for_frame (GTK_WIDGET (fixture->window));
  g_unlink (path);
}

/* The trace shown, on the plan's hardware, is not compared until This Trace Is of This Plan's Job
 * is clicked: then it is. */
static void
tie (Fixture *fixture)
{
  SuanliAgainstPlanView *view = suanli_test_profile_against_plan (fixture);
  GtkWidget *button = gtk_widget_get_ancestor (suanli_test_find_label (GTK_WIDGET (fixture->page),
                                                                       _("This Trace Is of This Plan's Job")),
                                               GTK_TYPE_BUTTON);

  /* The sentence after the plan's name, in the language the test runs in. */
  const char *why = strstr (_("This trace ran on the hardware of the plan “%s”, but it is not known to be of that plan's "
                              "job, so the two are not compared."), "%s") + 2;

  g_assert_null (suanli_against_plan_view_get_text (view));
  g_assert_nonnull (strstr (suanli_against_plan_view_get_other_job (view), why));
  g_assert_true (gtk_widget_is_visible (button) && gtk_widget_is_sensitive (button));
  g_signal_emit_by_name (button, "clicked");
  g_assert_nonnull (suanli_against_plan_view_get_text (view));
  g_assert_false (gtk_widget_get_visible (button));
}

/* A trace of another job is not set against the plan: the page says what each ran on and offers
 * a plan for the trace's hardware, or another plan. */
static void
test_other_job (Fixture       *fixture,
                gconstpointer  data)
{
  SuanliPlan *plan = suanli_workspace_get_plan (fixture->workspace);
  SuanliCatalog *catalog = suanli_workspace_get_catalog (fixture->workspace);
  g_autoptr(SuanliPlan) seven_b = suanli_plan_new_from_data ("{\"name\": \"Seven B\", \"model\": {\"preset\": \"llama-2-7b\"},"
                                                             " \"system\": {\"accelerator\": \"nvidia-h100-sxm\","
                                                             " \"gpus_per_node\": 8}, \"parallelism\": {\"tensor\": 8}}", -1,
                                                             "seven-b.suanli-plan", NULL);
  gboolean has_v100 = suanli_device_match (catalog, "Tesla V100-SXM2-32GB", 34089730048) != NULL;
  GtkWidget *make = gtk_widget_get_ancestor (suanli_test_find_label (GTK_WIDGET (fixture->page), _("Plan for This Hardware")),
                                             GTK_TYPE_BUTTON);
  const char *other;

  g_assert_nonnull (seven_b);
  suanli_plan_replace (plan, seven_b);
  /* The generated trace is of 8 × H100 and tied to the plan's job: compared. */
  tie (fixture);
  g_assert_nonnull (suanli_against_plan_view_get_text (suanli_test_profile_against_plan (fixture)));
  g_assert_null (suanli_against_plan_view_get_other_job (suanli_test_profile_against_plan (fixture)));

  /* One V100: no comparison, what it ran on, and the catalog's lack said plainly where it lacks it. */
  open_trace_on (fixture, "Tesla V100-SXM2-32GB", 34089730048, 1);
  other = suanli_against_plan_view_get_other_job (suanli_test_profile_against_plan (fixture));
  g_test_message ("%s", other);
  g_assert_null (suanli_against_plan_view_get_text (suanli_test_profile_against_plan (fixture)));
  g_assert_nonnull (other);
  g_assert_nonnull (strstr (other, "1 × Tesla V100-SXM2-32GB"));
  g_assert_nonnull (strstr (other, "Seven B"));
  g_assert_true (gtk_widget_is_sensitive (make) == has_v100);
  if (!has_v100)
    g_assert_nonnull (strstr (other, _("A plan for it needs it in the catalog first.")));
  suanli_test_screenshot_styles (GTK_WIDGET (fixture->window), "profiler-other-job");

  /* Eight H100s where the plan has 16: not compared either. */
  g_assert_true (suanli_plan_apply_merge_patch_data (plan, "{\"system\": {\"nodes\": 2}}", NULL));
  open_trace_on (fixture, "NVIDIA H100 80GB HBM3", 85520809984, 8);
  g_assert_null (suanli_against_plan_view_get_text (suanli_test_profile_against_plan (fixture)));
  g_assert_nonnull (strstr (suanli_against_plan_view_get_other_job (suanli_test_profile_against_plan (fixture)), "8 × NVIDIA H100 80GB HBM3"));

  /* Two A100s: Plan for This Hardware takes their model and count (tensor 8 cannot split 2 GPUs:
   * dropped), and then the two are compared once the trace is tied to the plan's job. */
  open_trace_on (fixture, "NVIDIA A100-SXM4-80GB", 85198045184, 2);
  g_assert_null (suanli_against_plan_view_get_text (suanli_test_profile_against_plan (fixture)));
  g_assert_true (gtk_widget_is_sensitive (make));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (suanli_test_profile_against_plan (fixture)), "against-plan.plan-from-trace", NULL));
  {
    JsonObject *system = json_object_get_object_member (suanli_plan_get_root (plan), "system");

    g_assert_cmpstr (json_object_get_string_member (system, "accelerator"), ==, "nvidia-a100-80gb-sxm");
    g_assert_cmpint (json_object_get_int_member (system, "gpus_per_node"), ==, 2);
    g_assert_cmpint (json_object_get_int_member (system, "nodes"), ==, 1);
  }
  g_assert_null (suanli_against_plan_view_get_text (suanli_test_profile_against_plan (fixture)));
  tie (fixture);
  g_assert_null (suanli_against_plan_view_get_other_job (suanli_test_profile_against_plan (fixture)));
  g_assert_nonnull (suanli_against_plan_view_get_text (suanli_test_profile_against_plan (fixture)));

  /* Open Another Plan…: a plan file of 8 × H100 against the generated trace again. */
  {
    g_autofree char *path = g_build_filename (fixture->directory, "h100.suanli-plan", NULL);
    g_autoptr(GFile) file = g_file_new_for_path (path);
    g_autoptr(GError) error = NULL;
    g_autofree char *earlier_path = g_build_filename (fixture->directory, "earlier.suanli-plan", NULL);
    g_autoptr(GFile) earlier = g_file_new_for_path (earlier_path);
    SuanliPlanPage *planner = SUANLI_PLAN_PAGE (suanli_window_get_page (fixture->window, SUANLI_PAGE_PLANNER));
    g_autofree char *earlier_text = NULL;
    g_autofree char *earlier_after = NULL;

    open_trace_on (fixture, "NVIDIA H100 80GB HBM3", 85520809984, 8);
    g_assert_nonnull (suanli_against_plan_view_get_other_job (suanli_test_profile_against_plan (fixture)));
    g_assert_true (g_file_set_contents (path, "{\"name\": \"Eight H100\", \"model\": {\"preset\": \"llama-2-7b\"},"
                                              " \"system\": {\"accelerator\": \"nvidia-h100-sxm\", \"gpus_per_node\": 8}}",
                                        -1, NULL));
    /* The planner shows, and saves to, another file first. */
    g_assert_true (suanli_plan_page_save_file (planner, earlier, &error));
    g_assert_true (g_file_get_contents (earlier_path, &earlier_text, NULL, NULL));

    g_assert_true (suanli_against_plan_view_open_plan (suanli_test_profile_against_plan (fixture), file, &error));
    g_assert_no_error (error);
    /* The planner's Save now writes this plan to this file, never over the one it showed before. */
    g_assert_true (g_file_equal (suanli_plan_page_get_file (planner), file));
    g_assert_true (gtk_widget_activate_action (GTK_WIDGET (planner), "plan.save", NULL));
    g_assert_true (g_file_get_contents (earlier_path, &earlier_after, NULL, NULL));
    g_assert_cmpstr (earlier_after, ==, earlier_text);
    g_unlink (earlier_path);
    tie (fixture);
    g_assert_null (suanli_against_plan_view_get_other_job (suanli_test_profile_against_plan (fixture)));
    g_assert_nonnull (strstr (suanli_against_plan_view_get_text (suanli_test_profile_against_plan (fixture)), "Eight H100"));
    suanli_test_screenshot_styles (GTK_WIDGET (fixture->window), "profiler-same-job");
    g_unlink (path);
  }
}

/* The generated trace, naming the plan @plan_name as an NVTX mark would ("suanli.plan=…"), opened. */
static void
open_marked_trace (Fixture    *fixture,
                   const char *plan_name)
{
  g_autofree char *path = suanli_test_write_kineto_trace (fixture->directory);
  g_autofree char *text = NULL;
  g_autofree char *mark = g_strdup_printf ("\"traceEvents\":[\n{\"ph\":\"i\",\"s\":\"t\",\"name\":\"suanli.plan=%s\","
                                           "\"pid\":1,\"tid\":1,\"ts\":1},\n", plan_name);
  g_autoptr(GString) marked = NULL;
  g_autoptr(GFile) file = g_file_new_for_path (path);

  g_assert_true (g_file_get_contents (path, &text, NULL, NULL));
  marked = g_string_new (text);
  g_assert_cmpuint (g_string_replace (marked, "\"traceEvents\":[\n", mark, 1), ==, 1);
  g_assert_true (g_file_set_contents (path, marked->str, (gssize) marked->len, NULL));
  suanli_profile_page_open_files (fixture->page, &file, 1);
  suanli_test_await (suanli_test_profile_loaded, fixture);
  suanli_test_wait_for_frame (GTK_WIDGET (fixture->window));
  g_unlink (path);
}

/* The same hardware is not the same job: a trace on the plan's hardware is compared only when the
 * user ties it to the plan (kept in the plan's file, undone in the planner) or it names the plan. */
static void
test_plan_tie (Fixture       *fixture,
               gconstpointer  data)
{
  SuanliPlan *plan = suanli_workspace_get_plan (fixture->workspace);
  SuanliAgainstPlanView *view = suanli_test_profile_against_plan (fixture);
  SuanliPlanPage *planner = SUANLI_PLAN_PAGE (suanli_window_get_page (fixture->window, SUANLI_PAGE_PLANNER));
  g_autoptr(SuanliPlan) llama = suanli_plan_new_from_data ("{\"name\": \"Llama 2 7B training\", \"model\": {\"preset\": "
                                                           "\"llama-2-7b\"}, \"system\": {\"accelerator\": \"nvidia-h100-sxm\","
                                                           " \"gpus_per_node\": 8}}", -1, "llama.suanli-plan", NULL);
  g_autoptr(SuanliPlan) fresh = suanli_plan_new_from_data ("{\"model\": {\"preset\": \"llama-2-70b\"}}", -1, "fresh.suanli-plan",
                                                           NULL);
  g_autofree char *path = g_build_filename (fixture->directory, "tied.suanli-plan", NULL);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(GError) error = NULL;
  g_autofree char *saved = NULL;
  GtkWidget *untie = gtk_widget_get_ancestor (suanli_test_find_label (GTK_WIDGET (fixture->page), _("Not This Plan's Job")),
                                              GTK_TYPE_BUTTON);

  g_assert_nonnull (llama);
  suanli_plan_replace (plan, llama);
  /* The generated trace ran on the plan's 8 × H100, but nothing says it is of its job: not compared,
   * and a click ties it. */
  suanli_test_screenshot_styles (GTK_WIDGET (fixture->window), "profiler-unknown-job");
  tie (fixture);
  g_assert_nonnull (strstr (suanli_against_plan_view_get_text (view), "Llama 2 7B training"));
  g_assert_true (gtk_widget_get_visible (untie));

  /* The tie is in the plan's file: saved, another plan put in its place, and the file reopened. */
  g_assert_true (suanli_plan_page_save_file (planner, file, &error));
  g_assert_no_error (error);
  g_assert_true (g_file_get_contents (path, &saved, NULL, NULL));
  g_test_message ("%s", saved);
  g_assert_nonnull (strstr (saved, "\"traces\""));
  g_assert_nonnull (strstr (saved, "generated-rank0.json"));
  suanli_plan_replace (plan, fresh);
  g_assert_null (suanli_against_plan_view_get_text (view));
  g_assert_true (suanli_against_plan_view_open_plan (view, file, &error));
  g_assert_no_error (error);
  g_assert_nonnull (strstr (suanli_against_plan_view_get_text (view), "Llama 2 7B training"));

  /* Untied: not compared; the planner's Undo ties it again. */
  g_signal_emit_by_name (untie, "clicked");
  g_assert_null (suanli_against_plan_view_get_text (view));
  g_assert_false (json_object_has_member (suanli_plan_get_root (plan), "traces"));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (planner), "plan.undo", NULL));
  g_assert_nonnull (suanli_against_plan_view_get_text (view));

  /* A trace that names the plan is compared at once, and has no tie to take back; one that names
   * another plan is not. */
  open_marked_trace (fixture, "Llama 2 7B training");
  g_assert_nonnull (strstr (suanli_against_plan_view_get_text (view), "Llama 2 7B training"));
  g_assert_false (gtk_widget_get_visible (untie));
  open_marked_trace (fixture, "AlexNet");
  g_assert_null (suanli_against_plan_view_get_text (view));
  g_unlink (path);
}

/* The drop-downs under @root, in order (What If…'s are not the ranks'). */
static void
find_drop_downs (GtkWidget *root,
                 GPtrArray *found)
{
  if (SUANLI_IS_WHATIF_VIEW (root))
    return;
  if (GTK_IS_DROP_DOWN (root))
    g_ptr_array_add (found, root);
  for (GtkWidget *child = gtk_widget_get_first_child (root); child != NULL; child = gtk_widget_get_next_sibling (child))
    find_drop_downs (child, found);
}

/* Two files, two ranks: rank 1 is the generated trace with its second step 600 ms, not 399. */
static void
test_ranks (Fixture       *fixture,
            gconstpointer  data)
{
  g_autofree char *path = suanli_test_write_kineto_trace (fixture->directory);
  g_autofree char *slow_path = g_build_filename (fixture->directory, "generated-rank1.json", NULL);
  g_autofree char *text = NULL;
  g_autoptr(GString) slow = NULL;
  g_autoptr(GPtrArray) drop_downs = g_ptr_array_new ();
  GFile *files[2];
  SuanliFlameGraph *graph = SUANLI_FLAME_GRAPH (suanli_flame_view_get_graph (suanli_test_profile_flame_view (fixture)));
  g_autofree char *name = g_strdup_printf ("profiler-ranks-light-%s", suanli_test_language_tag ());
  g_autofree char *flame_name = g_strdup_printf ("profiler-ranks-flame-light-%s", suanli_test_language_tag ());
  g_autofree char *straggler = g_strdup_printf (_("Straggler: +%.1f%%"), 100 * (600.0 / 399.0 - 1));
  g_autofree char *rank0 = g_strdup_printf (_("Rank %d"), 0);
  g_autofree char *rank1 = g_strdup_printf (_("Rank %d"), 1);
  g_autofree char *against = g_strdup_printf (_("%s against %s"), rank1, rank0);
  GtkListBox *list;
  GtkWidget *rows[2];
  SuanliFlame *flame;

  g_assert_true (g_file_get_contents (path, &text, NULL, NULL));
  slow = g_string_new (text);
  g_assert_cmpuint (g_string_replace (slow, "\"rank\":0", "\"rank\":1", 0), ==, 1);
  g_assert_cmpuint (g_string_replace (slow, "\"name\":\"ProfilerStep#2\",\"pid\":100,\"tid\":100,\"ts\":400000,\"dur\":399000",
                                      "\"name\":\"ProfilerStep#2\",\"pid\":100,\"tid\":100,\"ts\":400000,\"dur\":600000", 0),
                    ==, 1);
  g_assert_true (g_file_set_contents (slow_path, slow->str, (gssize) slow->len, NULL));
  files[0] = g_file_new_for_path (path);
  files[1] = g_file_new_for_path (slow_path);
  suanli_profile_page_open_files (fixture->page, files, 2);
  suanli_test_await (suanli_test_profile_loaded, fixture);
  g_object_unref (files[0]);
  g_object_unref (files[1]);

  /* A row a rank; the straggler's says so in words beside its icon, the other's does not. */
  adw_style_manager_set_color_scheme (adw_style_manager_get_default (), ADW_COLOR_SCHEME_FORCE_LIGHT);
  suanli_profile_page_show_view (fixture->page, "ranks");
  list = GTK_LIST_BOX (suanli_test_find_widget (GTK_WIDGET (fixture->page), GTK_TYPE_LIST_BOX));
  g_assert_nonnull (list);
  g_assert_true (gtk_widget_is_visible (GTK_WIDGET (list)));
  rows[0] = GTK_WIDGET (gtk_list_box_get_row_at_index (list, 0));
  rows[1] = GTK_WIDGET (gtk_list_box_get_row_at_index (list, 1));
  g_assert_nonnull (rows[0]);
  g_assert_nonnull (rows[1]);
  g_assert_null (gtk_list_box_get_row_at_index (list, 2));
  g_assert_nonnull (suanli_test_find_label (rows[0], "generated-rank0.json"));
  g_assert_null (suanli_test_find_label (rows[0], straggler));
  g_assert_nonnull (suanli_test_find_label (rows[1], straggler));
  g_assert_nonnull (suanli_test_find_widget (rows[1], GTK_TYPE_IMAGE));
  g_assert_null (suanli_test_find_widget (rows[0], GTK_TYPE_IMAGE));
  suanli_test_wait_for_frame (GTK_WIDGET (fixture->window));
  g_free (suanli_test_screenshot (GTK_WIDGET (fixture->window), name));

  /* The drop-downs start on the straggler against the fastest: its flame graph against rank 0's,
   * the steps' 399 + 600 ms against 2 × 399. */
  find_drop_downs (GTK_WIDGET (fixture->page), drop_downs);
  g_assert_cmpuint (drop_downs->len, ==, 2);
  g_assert_cmpuint (gtk_drop_down_get_selected (g_ptr_array_index (drop_downs, 0)), ==, 1);
  g_assert_cmpuint (gtk_drop_down_get_selected (g_ptr_array_index (drop_downs, 1)), ==, 0);
  g_assert_true (gtk_widget_activate_action (suanli_profile_page_get_ranks_view (fixture->page), "ranks.compare", NULL));
  suanli_test_profile_wait_for_flame (fixture);
  flame = suanli_flame_graph_get_flame (graph);
  g_assert_true (suanli_flame_is_differential (flame));
  g_assert_cmpint (suanli_flame_get_node (flame, 0)->total, ==, 999000000);
  g_assert_cmpint (suanli_flame_get_node (flame, 0)->baseline_total, ==, 798000000);
  g_assert_true (gtk_widget_is_visible (suanli_test_find_label (GTK_WIDGET (fixture->page), against)));
  suanli_test_wait_for_frame (GTK_WIDGET (fixture->window));
  g_free (suanli_test_screenshot (GTK_WIDGET (fixture->window), flame_name));

  /* Activating rank 0's row makes it the rank compared; Stop Comparing ends the comparison. */
  g_signal_emit_by_name (list, "row-activated", rows[0]);
  g_assert_cmpuint (gtk_drop_down_get_selected (g_ptr_array_index (drop_downs, 0)), ==, 0);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (suanli_test_profile_flame_view (fixture)), "flame.compare", NULL));
  suanli_test_profile_wait_for_flame (fixture);
  flame = suanli_flame_graph_get_flame (graph);
  g_assert_false (suanli_flame_is_differential (flame));
  g_assert_cmpint (suanli_flame_get_node (flame, 0)->total, ==, 798000000 + 999000000);
  adw_style_manager_set_color_scheme (adw_style_manager_get_default (), ADW_COLOR_SCHEME_DEFAULT);
  g_unlink (path);
  g_unlink (slow_path);
}

static void
test_screenshots (Fixture       *fixture,
                  gconstpointer  data)
{
  g_autofree char *name = g_strdup_printf ("profiler-zoomed-light-%s", suanli_test_language_tag ());

  adw_style_manager_set_color_scheme (adw_style_manager_get_default (), ADW_COLOR_SCHEME_FORCE_LIGHT);
  suanli_timeline_set_window (fixture->timeline, 380000000, 620000000);
  suanli_test_profile_find_row (fixture, suanli_test_profile_x_of (fixture, 490000), "ampere_sgemm_128x64_tn");
  g_free (suanli_test_screenshot (GTK_WIDGET (fixture->window), name));
  adw_style_manager_set_color_scheme (adw_style_manager_get_default (), ADW_COLOR_SCHEME_DEFAULT);

  /* Deep: 400 ns at the GEMM's start, the ruler in tens of nanoseconds; the GEMM selected, its
   * details to the nanosecond under the timeline. */
  suanli_timeline_set_window (fixture->timeline, 439999800, 440000200);
  g_assert_cmpfloat (suanli_test_profile_find_row (fixture, suanli_test_profile_x_of (fixture, 440000), "ampere_sgemm_128x64_tn"), >, 0);
  suanli_test_screenshot_styles (GTK_WIDGET (fixture->window), "profiler-deep-zoom");
}

/* ---- Nsight Systems ------------------------------------------------------------------------------ */

static gboolean
whatif_ready (gpointer data)
{
  return suanli_whatif_view_is_ready (data);
}

/* A real Nsight Systems export (TensorRT on an RTX 3090, NVTX ranges in the TensorRT domain) opens
 * like a Kineto trace: the timeline with its NVTX ranges over the runtime calls, the flame graph by
 * launching stack, What If on the GPU the export names. */
static void
test_nsys_export (Fixture       *fixture,
                  gconstpointer  data)
{
  g_autofree char *path = g_build_filename (g_getenv ("SUANLI_TEST_DATA_DIR"), "nsys", "nsys-2023.1-tensorrt-nvtx.sqlite", NULL);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  /* utcEpochNs of its session, and its first NVTX range's start and last kernel's end after it. */
  const gint64 origin = G_GINT64_CONSTANT (1690709432747674811);
  SuanliWhatifView *whatif = SUANLI_WHATIF_VIEW (suanli_profile_page_get_whatif_view (fixture->page));

  suanli_profile_page_open_files (fixture->page, &file, 1);
  suanli_test_await (suanli_test_profile_loaded, fixture);
  suanli_profile_page_show_view (fixture->page, "timeline");
  suanli_timeline_set_window (fixture->timeline, origin + 18900000, origin + 26000000);
  {
    SuanliTrace *trace = suanli_timeline_get_trace (fixture->timeline);
    SuanliString annotation;
    guint ranges = 0;

    g_assert_cmpstr (suanli_trace_get_string (trace, suanli_trace_get_group (trace, 0)->device), ==, "NVIDIA GeForce RTX 3090");
    g_assert_true (suanli_trace_lookup_string (trace, "user_annotation", &annotation));
    for (guint t = 0; t < suanli_trace_get_n_tracks (trace); t++)
      for (guint i = 0; i < suanli_trace_get_track (trace, t)->slices->len; i++)
        ranges += g_array_index (suanli_trace_get_track (trace, t)->slices, SuanliSlice, i).category == annotation;
    g_assert_cmpuint (ranges, ==, 59);
  }
  suanli_test_screenshot_styles (GTK_WIDGET (fixture->window), "profiler-nsys");

  suanli_test_profile_show_gpu_flame (fixture);
  suanli_test_screenshot_styles (GTK_WIDGET (fixture->window), "profiler-nsys-flame");

  suanli_profile_page_show_view (fixture->page, "whatif");
  suanli_test_await (whatif_ready, whatif);
  suanli_test_wait_for_frame (GTK_WIDGET (fixture->window));
  suanli_test_screenshot_styles (GTK_WIDGET (fixture->window), "profiler-nsys-whatif");
}

/* ---- Live… ------------------------------------------------------------------------------------- */

static SuanliTestGenerator live_generator;

#define CAPTURING_LIVE N_("Capturing live: the timeline grows as records come; the summary, tables and flame graph follow " \
                          "when the capture stops.")

/* The capture's trace is on the timeline and has grown there at least once. */
static gboolean
live_trace_shown (gpointer data)
{
  Fixture *fixture = data;
  SuanliTrace *trace = suanli_timeline_get_trace (fixture->timeline);
  gint64 from, to;

  suanli_timeline_get_window (fixture->timeline, &from, &to);
  return trace != NULL && suanli_trace_is_growing (trace) && from > 0;
}

static gboolean
generator_done (gpointer data)
{
  return g_atomic_int_get (&live_generator.done);
}

static gboolean
capture_ended (gpointer data)
{
  SuanliLiveCapture *capture = suanli_live_dialog_get_capture (data);

  return capture != NULL && !suanli_live_capture_is_running (capture);
}

/* This test process is itself a profilable job (the injection library's control code with a
 * generator for CUPTI): Live… lists it, captures it, and the page shows the trace growing, then its
 * figures once the capture stops. */
/* A capture that another CUPTI client (PyTorch's profiler) took over, from a job the collector
 * attached to: the toast says first why it ended, and that there is more (it holds what came after
 * START only). Its kernel is found by the name Kineto would give it, not CUPTI's mangled one. */
static void
test_capture_warnings (Fixture       *fixture,
                       gconstpointer  data)
{
  static const char detail[] = "torch.profiler called cuptiSubscribe";
  g_autofree char *path = g_build_filename (fixture->directory, "taken.suanli-capture", NULL);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autofree char *problem = g_strdup_printf (_("another CUPTI client (PyTorch's profiler, Nsight) took CUPTI over: %s"), detail);
  g_autofree char *warning = g_strdup_printf (_("The capture ended early: %s. What came before is kept."), problem);
  g_autofree char *toast = NULL;
  g_auto(SuanliTestCapture) capture = { 0 };
  GPtrArray *warnings;

  suanli_test_capture_init (&capture, 0);
  suanli_test_capture_kernel (&capture, 1, suanli_test_capture_string (&capture, "_Z18suanli_long_kernelxPi"), 1000, 90000);
  suanli_test_capture_end (&capture, SUANLI_END_CUPTI_TAKEN, suanli_test_capture_string (&capture, detail), 0);
  g_assert_true (g_file_set_contents (path, (const char *) capture.bytes->data, capture.bytes->len, NULL));
  suanli_profile_page_open_files (fixture->page, &file, 1);
  suanli_test_await (suanli_test_profile_loaded, fixture);
  warnings = suanli_trace_get_warnings (suanli_workspace_get_trace (fixture->workspace));
  g_assert_cmpuint (warnings->len, ==, 2);
  g_assert_true (g_str_has_suffix (g_ptr_array_index (warnings, 0), warning));
  g_assert_true (g_str_has_suffix (g_ptr_array_index (warnings, 1),
                                   _("Captured from START (attached to a running job: earlier work is not in it)")));
  toast = g_strdup (g_ptr_array_index (warnings, 0));
  suanli_test_await_label (GTK_WIDGET (fixture->window), toast);
  g_assert_cmpuint (suanli_timeline_search (fixture->timeline, "suanli_long_kernel(long long, int*)"), ==, 1);
  g_assert_cmpuint (suanli_timeline_search (fixture->timeline, "_Z18"), ==, 0);
  g_unlink (path);
}

/* A label saying @text outside any popover: on the page or in a toast. */
static gboolean
says_outside_popover (GtkWidget     *widget,
                      gconstpointer  text)
{
  return GTK_IS_LABEL (widget) && strstr (gtk_label_get_text (GTK_LABEL (widget)), text) != NULL &&
         gtk_widget_get_ancestor (widget, GTK_TYPE_POPOVER) == NULL;
}

/* The page's title: the label reading @text, not an item of the recent traces' menu. */
static gboolean
is_title (GtkWidget     *widget,
          gconstpointer  text)
{
  return reads_exactly (widget, text) && gtk_widget_get_ancestor (widget, GTK_TYPE_POPOVER) == NULL;
}

static GtkWidget *
warnings_button (Fixture *fixture)
{
  g_autofree char *title = suanli_profile_files_text (suanli_workspace_get_trace (fixture->workspace));
  GtkWidget *label = suanli_test_find_matching (GTK_WIDGET (fixture->page), is_title, title);
  GtkWidget *row = label != NULL ? gtk_widget_get_parent (label) : NULL;

  g_assert_nonnull (row);
  for (GtkWidget *child = gtk_widget_get_first_child (row); child != NULL; child = gtk_widget_get_next_sibling (child))
    if (GTK_IS_MENU_BUTTON (child))
      return child;
  g_assert_not_reached ();
}

/* The real trace whose seven slices overlap a sibling partly: that is kept among the warnings
 * (behind the button beside the title), and no toast greets the user with it; nor with the tables
 * of an Nsight Systems export that are not shown. A gzip cut in its
 * middle loads partly, and stays marked so under the title, not only in the toast. */
static void
test_warnings_kept (Fixture       *fixture,
                    gconstpointer  data)
{
  g_autofree char *overlapping = suanli_test_fixture_path ("critical_path__simple_add__trace.json.gz");
  g_autofree char *whole = suanli_test_fixture_path ("timeline_analysis__sampled_rank-0.json.gz");
  g_autofree char *cut = g_build_filename (fixture->directory, "cut.json.gz", NULL);
  g_autoptr(GFile) file = g_file_new_for_path (overlapping);
  g_autoptr(GFile) cut_file = g_file_new_for_path (cut);
  g_autofree char *nsys = g_build_filename (g_getenv ("SUANLI_TEST_DATA_DIR"), "nsys", "nsys-2023.1-tensorrt-nvtx.sqlite", NULL);
  g_autoptr(GFile) nsys_file = g_file_new_for_path (nsys);
  g_autofree char *bytes = NULL;
  gsize length = 0;
  const char *partly = strstr (_("%s · read partly"), "%s") + 2;
  g_autofree char *overlaps = g_strdup_printf (ngettext ("%u slice overlaps a sibling partly and was kept at its depth",
                                                         "%u slices overlap a sibling partly and were kept at their depth", 7), 7);
  GtkWidget *button;
  const char *partial;

  suanli_profile_page_open_files (fixture->page, &file, 1);
  suanli_test_await (suanli_test_profile_loaded, fixture);
  suanli_test_settle (GTK_WIDGET (fixture->window));
  button = warnings_button (fixture);
  g_assert_true (gtk_widget_get_visible (button));
  g_assert_nonnull (strstr (gtk_label_get_text (GTK_LABEL (suanli_test_find_widget (GTK_WIDGET (gtk_menu_button_get_popover (GTK_MENU_BUTTON (button))),
                                                                                        GTK_TYPE_LABEL))),
                            overlaps));
  g_assert_null (suanli_test_find_matching (GTK_WIDGET (fixture->window), says_outside_popover, overlaps));
  g_assert_null (suanli_test_find_matching (GTK_WIDGET (fixture->page), says_outside_popover, partly));

  /* Nearly every Nsight Systems export has tables Suanli does not show (SCHED_EVENTS): listed
   * behind the button too, not toasted on every open. */
  suanli_profile_page_open_files (fixture->page, &nsys_file, 1);
  suanli_test_await (suanli_test_profile_loaded, fixture);
  suanli_test_settle (GTK_WIDGET (fixture->window));
  g_assert_true (gtk_widget_get_visible (warnings_button (fixture)));
  g_assert_null (suanli_test_find_matching (GTK_WIDGET (fixture->window), says_outside_popover, "SCHED_EVENTS"));

  g_assert_true (g_file_get_contents (whole, &bytes, &length, NULL));
  g_assert_true (g_file_set_contents (cut, bytes, (gssize) (length / 2), NULL));
  suanli_profile_page_open_files (fixture->page, &cut_file, 1);
  suanli_test_await (suanli_test_profile_loaded, fixture);
  partial = suanli_trace_get_partial (suanli_workspace_get_trace (fixture->workspace));
  g_assert_nonnull (partial);
  suanli_test_await_label (GTK_WIDGET (fixture->window), partial);
  g_assert_nonnull (suanli_test_find_matching (GTK_WIDGET (fixture->page), says_outside_popover, partly));
  g_assert_true (gtk_widget_get_visible (warnings_button (fixture)));
  g_unlink (cut);
}

/* A file that cannot be opened leaves Recent, where the file dialog put it when it was chosen. */
static void
test_failed_not_recent (Fixture       *fixture,
                        gconstpointer  data)
{
  g_autofree char *path = g_build_filename (fixture->directory, "broken.json", NULL);
  g_autofree char *uri = g_filename_to_uri (path, NULL, NULL);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  GtkRecentManager *recent = gtk_recent_manager_get_default ();
  GtkRecentData item = { NULL, NULL, (char *) "application/json", (char *) "suanli", (char *) "suanli %u", NULL, FALSE };

  g_assert_true (g_file_set_contents (path, "{\"traceEvents\": [", -1, NULL));
  g_assert_true (gtk_recent_manager_add_full (recent, uri, &item));
  g_assert_true (gtk_recent_manager_has_item (recent, uri));
  suanli_profile_page_open_files (fixture->page, &file, 1);
  suanli_test_await (suanli_test_profile_loaded, fixture);
  g_assert_false (gtk_recent_manager_has_item (recent, uri));
  g_unlink (path);
}

static void
test_live (Fixture       *fixture,
           gconstpointer  data)
{
  g_autofree char *name = g_strdup_printf ("profiler-live-light-%s", suanli_test_language_tag ());
  SuanliLiveDialog *dialog = SUANLI_LIVE_DIALOG (suanli_profile_page_open_live (fixture->page));
  SuanliTrace *trace;
  guint64 mid_capture;

  g_assert_cmpuint (suanli_live_dialog_get_n_jobs (dialog), >=, 1);
  live_generator.count = 200000;
  live_generator.wait_when_full = TRUE;
  live_generator.pause_every = 10000;   /* about 2 s */
  g_assert_true (suanli_live_dialog_capture (dialog, getpid ()));
  suanli_test_await (live_trace_shown, fixture);

  /* Mid-capture: the timeline shows part of it, the summary waits for the end. */
  trace = suanli_timeline_get_trace (fixture->timeline);
  mid_capture = suanli_trace_get_n_slices (trace);
  g_test_message ("%" G_GUINT64_FORMAT " slices shown mid-capture; %s", mid_capture, suanli_live_dialog_get_status (dialog));
  g_assert_cmpuint (mid_capture, <, 200000);
  g_assert_cmpstr (suanli_profile_page_get_summary (fixture->page), ==, _(CAPTURING_LIVE));
  suanli_test_wait_for_frame (GTK_WIDGET (fixture->window));
  g_free (suanli_test_screenshot (GTK_WIDGET (fixture->window), name));

  suanli_test_await (generator_done, NULL);
  suanli_live_dialog_stop (dialog);
  suanli_test_await (capture_ended, dialog);
  suanli_test_await (suanli_test_profile_loaded, fixture);
  g_assert_cmpuint (suanli_trace_get_n_slices (trace), ==, 200000);
  g_assert_cmpstr (suanli_profile_page_get_summary (fixture->page), !=, _(CAPTURING_LIVE));
  g_test_message ("after the capture: %s", suanli_profile_page_get_summary (fixture->page));
  g_assert_nonnull (strstr (suanli_live_dialog_get_status (dialog), "200"));
  {
    g_autofree char *dialog_name = g_strdup_printf ("profiler-live-dialog-light-%s", suanli_test_language_tag ());

    suanli_test_wait_for_frame (GTK_WIDGET (dialog));
    g_free (suanli_test_screenshot (GTK_WIDGET (dialog), dialog_name));
  }
  gtk_window_destroy (GTK_WINDOW (dialog));
}

int
main (int   argc,
      char *argv[])
{
  g_autofree char *runtime = g_dir_make_tmp ("suanli-profile-runtime-XXXXXX", NULL);
  g_autofree char *sockets = g_build_filename (runtime, "suanli", NULL);
  int status;

  /* This process is also a profilable job, for Live…: the library's control code, a generator for CUPTI. */
  g_setenv ("XDG_RUNTIME_DIR", runtime, TRUE);
  g_setenv ("SUANLI_QUIET", "1", TRUE);
  g_assert_cmpint (suanli_inject_control_start (suanli_test_generator_source (&live_generator), 4 << 20), ==, 0);
  suanli_test_profile_init (&argc, &argv);
  g_test_add ("/profile-page/summary", Fixture, NULL, suanli_test_profile_set_up, test_summary, suanli_test_profile_tear_down);
  g_test_add ("/profile-page/recent", Fixture, NULL, suanli_test_profile_set_up, test_recent, suanli_test_profile_tear_down);
  g_test_add ("/profile-page/bad-file", Fixture, NULL, suanli_test_profile_set_up, test_bad_file, suanli_test_profile_tear_down);
  g_test_add ("/profile-page/layout", Fixture, NULL, suanli_test_profile_set_up, test_layout, suanli_test_profile_tear_down);
  g_test_add ("/profile-page/range", Fixture, NULL, suanli_test_profile_set_up, test_range, suanli_test_profile_tear_down);
  g_test_add ("/profile-page/export", Fixture, NULL, suanli_test_profile_set_up, test_export, suanli_test_profile_tear_down);
  g_test_add ("/profile-page/other-job", Fixture, NULL, suanli_test_profile_set_up, test_other_job, suanli_test_profile_tear_down);
  g_test_add ("/profile-page/plan-tie", Fixture, NULL, suanli_test_profile_set_up, test_plan_tie, suanli_test_profile_tear_down);
  g_test_add ("/profile-page/capture-warnings", Fixture, NULL, suanli_test_profile_set_up, test_capture_warnings, suanli_test_profile_tear_down);
  g_test_add ("/profile-page/warnings-kept", Fixture, NULL, suanli_test_profile_set_up, test_warnings_kept, suanli_test_profile_tear_down);
  g_test_add ("/profile-page/failed-not-recent", Fixture, NULL, suanli_test_profile_set_up, test_failed_not_recent, suanli_test_profile_tear_down);
  g_test_add ("/profile-page/ranks", Fixture, NULL, suanli_test_profile_set_up, test_ranks, suanli_test_profile_tear_down);
  g_test_add ("/profile-page/live", Fixture, NULL, suanli_test_profile_set_up, test_live, suanli_test_profile_tear_down);
  g_test_add ("/profile-page/screenshots", Fixture, NULL, suanli_test_profile_set_up, test_screenshots, suanli_test_profile_tear_down);
  g_test_add ("/profile-page/nsys-export", Fixture, NULL, suanli_test_profile_set_up, test_nsys_export, suanli_test_profile_tear_down);
  status = suanli_test_profile_run ();
  suanli_inject_control_stop ();
  g_rmdir (sockets);
  g_rmdir (runtime);
  return status;
}
