/* test-profile-views.c — the profiler page's views beside the timeline in a real window under Xvfb:
 * the tables, the flame graph and its differential, the trace against the plan, and What If…
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
#include "suanli-profile-page.h"
#include "suanli-stats-table.h"
#include "suanli-tables-view.h"
#include "suanli-test-capture.h"
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

/* The first node named @name. */
static guint
flame_node (SuanliFlame *flame,
            const char  *name)
{
  for (guint i = 1; i < suanli_flame_get_n_nodes (flame); i++)
    if (g_str_equal (suanli_flame_get_name (flame, i), name))
      return i;
  g_assert_not_reached ();
}

static void
test_flame_graph (Fixture       *fixture,
                  gconstpointer  data)
{
  SuanliFlameGraph *graph = SUANLI_FLAME_GRAPH (suanli_flame_view_get_graph (suanli_test_profile_flame_view (fixture)));
  /* The page's one search: the flame graph has no entry of its own. */
  GtkWidget *search = suanli_test_find_search_entry (GTK_WIDGET (fixture->page), _("Search slices (Ctrl+F)"));
  GtkWidget *gpu = suanli_test_find_label (GTK_WIDGET (fixture->page), _("GPU Time"));
  g_autofree char *matched = g_strdup_printf (_("%.1f%% matched"), 100.0 * 240 / 798);
  g_autofree char *name = g_strdup_printf ("profiler-flame-light-%s", suanli_test_language_tag ());
  SuanliFlame *flame;
  g_autofree char *path = NULL;

  /* Worked out when first shown: the CPU stacks, two steps of 399 ms. */
  g_assert_null (suanli_flame_graph_get_flame (graph));
  suanli_profile_page_show_view (fixture->page, "flame");
  suanli_test_profile_wait_for_flame (fixture);
  flame = suanli_flame_graph_get_flame (graph);
  g_assert_nonnull (flame);
  g_assert_cmpint (suanli_flame_get_node (flame, 0)->total, ==, 798000000);

  /* A click's zoom: the breadcrumb shows the path. */
  suanli_flame_graph_set_focus (graph, flame_node (flame, "aten::linear"));
  path = suanli_flame_graph_describe_focus (graph);
  g_test_message ("focus: %s", path);
  g_assert_nonnull (strstr (path, " › aten::linear"));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (graph), "flame-graph.zoom-out", NULL));
  g_assert_cmpuint (suanli_flame_graph_get_focus (graph), ==, suanli_flame_get_node (flame, flame_node (flame, "aten::linear"))->parent);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (graph), "flame-graph.reset", NULL));
  g_assert_cmpuint (suanli_flame_graph_get_focus (graph), ==, 0);

  /* The keyboard reaches every frame: Up into the heaviest child, Right and Left across. */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (graph), "flame-graph.into-child", NULL));
  g_assert_cmpstr (suanli_flame_get_name (flame, suanli_flame_graph_get_focus (graph)), ==, "thread 100 (python3)");
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (graph), "flame-graph.into-child", NULL));
  /* The two steps are one frame, ProfilerStep#*, with both steps' time; Right has nowhere to go. */
  g_assert_cmpstr (suanli_flame_get_name (flame, suanli_flame_graph_get_focus (graph)), ==, "ProfilerStep#*");
  g_assert_cmpint (suanli_flame_get_node (flame, suanli_flame_graph_get_focus (graph))->total, ==, 798000000);
  {
    guint merged = suanli_flame_graph_get_focus (graph);

    g_assert_true (gtk_widget_activate_action (GTK_WIDGET (graph), "flame-graph.next-sibling", NULL));
    g_assert_cmpuint (suanli_flame_graph_get_focus (graph), ==, merged);
  }
  suanli_test_screenshot_styles (GTK_WIDGET (fixture->window), "profiler-flame-merged");

  /* Steps Apart shows each step on its own; the keyboard goes across them. */
  gtk_toggle_button_set_active (GTK_TOGGLE_BUTTON (gtk_widget_get_ancestor (
    suanli_test_find_label (GTK_WIDGET (fixture->page), _("Steps Apart")), GTK_TYPE_TOGGLE_BUTTON)), TRUE);
  suanli_test_profile_wait_for_flame (fixture);
  flame = suanli_flame_graph_get_flame (graph);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (graph), "flame-graph.reset", NULL));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (graph), "flame-graph.into-child", NULL));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (graph), "flame-graph.into-child", NULL));
  g_assert_true (g_str_has_prefix (suanli_flame_get_name (flame, suanli_flame_graph_get_focus (graph)), "ProfilerStep#"));
  {
    guint first = suanli_flame_graph_get_focus (graph);

    g_assert_true (gtk_widget_activate_action (GTK_WIDGET (graph), "flame-graph.next-sibling", NULL));
    g_assert_cmpuint (suanli_flame_graph_get_focus (graph), !=, first);
    g_assert_true (g_str_has_prefix (suanli_flame_get_name (flame, suanli_flame_graph_get_focus (graph)), "ProfilerStep#"));
    g_assert_true (gtk_widget_activate_action (GTK_WIDGET (graph), "flame-graph.previous-sibling", NULL));
    g_assert_cmpuint (suanli_flame_graph_get_focus (graph), ==, first);
  }
  gtk_toggle_button_set_active (GTK_TOGGLE_BUTTON (gtk_widget_get_ancestor (
    suanli_test_find_label (GTK_WIDGET (fixture->page), _("Steps Apart")), GTK_TYPE_TOGGLE_BUTTON)), FALSE);
  suanli_test_profile_wait_for_flame (fixture);
  flame = suanli_flame_graph_get_flame (graph);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (graph), "flame-graph.reset", NULL));

  /* By kind: aten::linear and the aten::addmm on it (rows 3 and 4 from the bottom, at the left
   * edge) have shades of their own, then both the CPU colour. */
  {
    int height;
    g_autoptr(GdkTexture) by_name = NULL;
    g_autoptr(GdkTexture) by_kind = NULL;

    by_name = suanli_test_render (GTK_WIDGET (graph));
    height = gdk_texture_get_height (by_name);
    g_assert_cmpuint (suanli_test_pixel (by_name, 3, height - 4 * 18 + 9), !=, suanli_test_pixel (by_name, 3, height - 5 * 18 + 9));
    suanli_flame_graph_set_by_category (graph, TRUE);
    by_kind = suanli_test_render (GTK_WIDGET (graph));
    g_assert_cmpuint (suanli_test_pixel (by_kind, 3, height - 4 * 18 + 9), ==, suanli_test_pixel (by_kind, 3, height - 5 * 18 + 9));
    suanli_flame_graph_set_by_category (graph, FALSE);
  }

  /* Search: aten::addmm is 2 × 120 ms of the 798. Typed in the page's search, it marks the flame
   * graph's frames and the timeline's slices both, and the flame graph stays in view. */
  g_assert_null (suanli_test_find_search_entry (GTK_WIDGET (fixture->page), _("Search frames")));
  gtk_widget_grab_focus (search);
  gtk_editable_set_text (GTK_EDITABLE (search), "ADDMM");
  /* The search entry reports a change a moment later: wait for its result. */
  suanli_test_await_label (GTK_WIDGET (fixture->page), matched);
  {
    g_autofree char *two = g_strdup_printf (ngettext ("%llu match", "%llu matches", 2), 2ULL);

    g_assert_nonnull (suanli_test_find_label (GTK_WIDGET (fixture->page), two));
    g_assert_cmpstr (gtk_stack_get_visible_child_name (GTK_STACK (gtk_widget_get_parent (GTK_WIDGET (suanli_test_profile_flame_view (fixture))))),
                     ==, "flame");
  }
  g_free (suanli_test_screenshot (GTK_WIDGET (fixture->window), name));

  /* GPU time by launching stack: every kernel, copy and the spike. */
  g_assert_nonnull (gpu);
  gtk_toggle_button_set_active (GTK_TOGGLE_BUTTON (gtk_widget_get_ancestor (gpu, GTK_TYPE_TOGGLE_BUTTON)), TRUE);
  suanli_test_profile_wait_for_flame (fixture);
  flame = suanli_flame_graph_get_flame (graph);
  g_assert_cmpint (suanli_flame_get_node (flame, 0)->total, ==, 420000100);
  /* Both steps' GEMMs under the one merged step's stack: 2 × 100 ms. */
  g_assert_cmpint (suanli_flame_get_node (flame, flame_node (flame, "ampere_sgemm_128x64_tn"))->total, ==, 200000000);
  g_assert_nonnull (strstr (suanli_flame_get_name (flame, suanli_flame_get_node (flame, flame_node (flame, "ampere_sgemm_128x64_tn"))->parent),
                            "cudaLaunchKernel"));
}

static void
test_tables (Fixture       *fixture,
             gconstpointer  data)
{
  SuanliStatsTable *kernels = SUANLI_STATS_TABLE (suanli_tables_view_get_kernels (suanli_test_profile_tables_view (fixture)));
  SuanliStatsTable *operators = SUANLI_STATS_TABLE (suanli_tables_view_get_operators (suanli_test_profile_tables_view (fixture)));
  GtkColumnView *view = GTK_COLUMN_VIEW (suanli_test_find_widget (GTK_WIDGET (kernels), GTK_TYPE_COLUMN_VIEW));
  g_autofree char *name = g_strdup_printf ("profiler-kernels-light-%s", suanli_test_language_tag ());
  g_autofree char *csv = NULL;
  g_auto(GStrv) lines = NULL;

  suanli_profile_page_show_view (fixture->page, "tables");
  g_assert_cmpuint (suanli_stats_table_get_n_rows (kernels), ==, 3);
  g_assert_cmpuint (suanli_stats_table_get_n_rows (operators), ==, 3);

  /* Sorted by count, fewest first: the spike; its row and the GEMM's exact figures in ns. */
  gtk_column_view_sort_by_column (view, g_list_model_get_item (gtk_column_view_get_columns (view), 1), GTK_SORT_ASCENDING);
  g_object_unref (g_list_model_get_item (gtk_column_view_get_columns (view), 1));
  csv = suanli_stats_table_to_csv (kernels);
  g_test_message ("%s", csv);
  lines = g_strsplit (csv, "\r\n", -1);
  g_assert_cmpuint (g_strv_length (lines), ==, 5);   /* header, three rows, the empty end */
  {
    g_autofree char *header = g_strdup_printf ("%s,%s,%s (ns),%s (ns),%s (ns),%s (ns),%s", _("Name"), _("Count"), _("Total"),
                                               _("Mean"), _("Min"), _("Max"), _("Share"));

    g_assert_cmpstr (lines[0], ==, header);
  }
  g_assert_cmpstr (lines[1], ==, "tiny_spike,1,100,100,100,100,0.000");
  g_assert_true (g_strv_contains ((const char * const *) lines,
                                  "ampere_sgemm_128x64_tn,2,200000000,100000000,100000000,100000000,55.556"));
  g_assert_true (g_strv_contains ((const char * const *) lines,
                                  "ncclDevKernel_AllReduce_Sum_f32_RING_LL(ncclDevComm*),2,160000000,80000000,80000000,80000000,44.444"));
  g_free (suanli_test_screenshot (GTK_WIDGET (fixture->window), name));

  /* Picking a row shows where it is: the timeline and the flame graph search for its name. */
  g_assert_true (suanli_stats_table_select (kernels, "ampere_sgemm_128x64_tn"));
  {
    g_autofree char *two = g_strdup_printf (ngettext ("%llu match", "%llu matches", 2), 2ULL);
    SuanliFlameGraph *graph = SUANLI_FLAME_GRAPH (suanli_flame_view_get_graph (suanli_test_profile_flame_view (fixture)));

    g_assert_nonnull (suanli_test_find_label (GTK_WIDGET (fixture->page), two));
    g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (suanli_test_find_search_entry (GTK_WIDGET (fixture->page),
                                                                             _("Search slices (Ctrl+F)")))), ==,
                     "ampere_sgemm_128x64_tn");
    suanli_test_profile_show_gpu_flame (fixture);
    /* Both GEMMs, 200 of the GPU flame's 420 ms. */
    g_assert_cmpfloat_with_epsilon (suanli_flame_graph_search (graph, "ampere_sgemm_128x64_tn"), 200.0 / 420.0001, 1e-6);
  }

  /* Double-clicked, the row shows its slices on the timeline: the whole trace in view, a GEMM
   * selected. */
  suanli_profile_page_show_view (fixture->page, "tables");
  suanli_timeline_set_window (fixture->timeline, 0, 1000);
  {
    GtkWidget *column_view = suanli_test_find_widget (GTK_WIDGET (kernels), GTK_TYPE_COLUMN_VIEW);
    GtkSingleSelection *selection = GTK_SINGLE_SELECTION (gtk_column_view_get_model (GTK_COLUMN_VIEW (column_view)));
    SuanliTrace *trace = suanli_workspace_get_trace (fixture->workspace);
    gint64 first, last;
    guint track;
    guint32 slice;

    g_signal_emit_by_name (column_view, "activate", gtk_single_selection_get_selected (selection));
    g_assert_cmpstr (gtk_stack_get_visible_child_name (GTK_STACK (gtk_widget_get_parent (GTK_WIDGET (fixture->timeline)))),
                     ==, "timeline");
    suanli_trace_get_time_range (trace, &first, &last);
    g_assert_cmpint (suanli_test_profile_span (fixture), >=, last - first);
    g_assert_true (suanli_timeline_get_selected (fixture->timeline, &track, &slice));
    g_assert_cmpstr (suanli_trace_get_string (trace, g_array_index (suanli_trace_get_track (trace, track)->slices, SuanliSlice,
                                                                     slice).name), ==, "ampere_sgemm_128x64_tn");
  }
}

static void
test_against_plan (Fixture       *fixture,
                   gconstpointer  data)
{
  SuanliPlan *plan = suanli_workspace_get_plan (fixture->workspace);
  g_autoptr(SuanliPlan) seven_b = suanli_plan_new_from_data ("{\"name\": \"Seven B\", \"model\": {\"preset\": \"llama-2-7b\"},"
                                                             " \"system\": {\"accelerator\": \"nvidia-h100-sxm\","
                                                             " \"gpus_per_node\": 8}}", -1, "seven-b.suanli-plan", NULL);
  g_autofree char *measured = suanli_format_duration_ns (399500000);   /* the mean of the periods, 400 and 399 ms */
  g_autofree char *name = g_strdup_printf ("profiler-plan-light-%s", suanli_test_language_tag ());
  JsonObject *assumptions;
  double mfu;

  /* (The planner starts every window with a plan; this one replaces it.) */
  g_assert_nonnull (seven_b);
  suanli_plan_replace (plan, seven_b);
  /* The same hardware is not the same job: the user says it is. */
  g_assert_null (suanli_against_plan_view_get_text (suanli_test_profile_against_plan (fixture)));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (suanli_test_profile_against_plan (fixture)), "against-plan.tie", NULL));
  g_assert_nonnull (suanli_against_plan_view_get_text (suanli_test_profile_against_plan (fixture)));
  g_test_message ("%s", suanli_against_plan_view_get_text (suanli_test_profile_against_plan (fixture)));
  g_assert_nonnull (strstr (suanli_against_plan_view_get_text (suanli_test_profile_against_plan (fixture)), measured));
  g_assert_nonnull (strstr (suanli_against_plan_view_get_text (suanli_test_profile_against_plan (fixture)), "Seven B"));
  /* Peak memory from the trace's memory events (36 GiB reserved at most), and throughput from the
   * FLOPs of its two matrix products over the 520 ms from the first one's start to the last one's end. */
  {
    g_autofree char *reserved = suanli_format_bytes (38654705664, SUANLI_MEMORY_UNITS_GIB);
    g_autofree char *throughput = g_strdup_printf (_("%.1f TFLOP/s"), 2 * 274877906944.0 / 0.520 / 1e12);
    const char *text = suanli_against_plan_view_get_text (suanli_test_profile_against_plan (fixture));

    g_assert_nonnull (strstr (text, _("Peak memory per GPU")));
    g_assert_nonnull (strstr (text, reserved));
    g_assert_nonnull (strstr (text, _("Throughput per GPU")));
    g_assert_nonnull (strstr (text, throughput));
    g_assert_nonnull (strstr (text, _("Over 100% MFU: the trace is not of this job, or not of all its GPUs.")));
  }
  g_free (suanli_test_screenshot (GTK_WIDGET (fixture->window), name));

  /* On eight GPUs this 399 ms step would mean an MFU over 100%: the button is off, nothing written. */
  {
    GtkWidget *button = gtk_widget_get_ancestor (suanli_test_find_label (GTK_WIDGET (fixture->page), _("Use Measured MFU in Plan")),
                                                 GTK_TYPE_BUTTON);

    g_assert_nonnull (button);
    g_assert_false (gtk_widget_is_sensitive (button));
  }
  gtk_widget_activate_action (GTK_WIDGET (suanli_test_profile_against_plan (fixture)), "against-plan.use-measured", NULL);
  g_assert_null (json_object_get_member (suanli_plan_get_root (plan), "assumptions"));

  /* With 16 sequences a step, it is plausible; writing it closes the loop: the plan's step is then
   * the measured one. */
  g_assert_true (suanli_plan_apply_merge_patch_data (plan, "{\"workload\": {\"global_batch\": 16}}", NULL));
  g_test_message ("%s", suanli_against_plan_view_get_text (suanli_test_profile_against_plan (fixture)));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (suanli_test_profile_against_plan (fixture)), "against-plan.use-measured", NULL));
  assumptions = json_object_get_object_member (suanli_plan_get_root (plan), "assumptions");
  g_assert_nonnull (assumptions);
  mfu = json_object_get_double_member (assumptions, "mfu");
  g_assert_cmpfloat (mfu, >, 0);
  g_assert_cmpfloat (mfu, <, 1);
  {
    g_autoptr(GPtrArray) errors = g_ptr_array_new_with_free_func ((GDestroyNotify) suanli_plan_issue_free);
    g_autoptr(GPtrArray) warnings = g_ptr_array_new_with_free_func ((GDestroyNotify) suanli_plan_issue_free);
    SuanliCatalog *catalog = suanli_workspace_get_catalog (fixture->workspace);
    SuanliPlanInputs inputs = { 0 };
    SuanliEstimate estimate = { 0 };

    g_assert_true (suanli_plan_inputs_resolve (plan, catalog, &inputs, errors, warnings));
    suanli_estimate_compute (&inputs, &estimate);
    g_test_message ("mfu %.4f: planned step %.4f s", mfu, estimate.step_time_s);
    g_assert_cmpfloat_with_epsilon (estimate.step_time_s, 0.3995, 0.3995 * 1e-3);   /* the measured step */
  }
}

static void
test_flame_diff (Fixture       *fixture,
                 gconstpointer  data)
{
  /* A baseline run where step 1's linear took 300 ms, not 150 (another pid and tid, same name). */
  static const char before[] =
    "{\"traceEvents\":["
    "{\"ph\":\"M\",\"name\":\"thread_name\",\"pid\":7,\"tid\":70,\"args\":{\"name\":\"thread 70 (python3)\"}},"
    "{\"ph\":\"X\",\"cat\":\"user_annotation\",\"name\":\"ProfilerStep#1\",\"pid\":7,\"tid\":70,\"ts\":0,\"dur\":500000},"
    "{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"aten::linear\",\"pid\":7,\"tid\":70,\"ts\":10,\"dur\":300000}]}";
  g_autoptr(SuanliTrace) baseline = suanli_trace_new ();
  g_autoptr(GInputStream) stream = g_memory_input_stream_new_from_data (before, -1, NULL);
  SuanliFlameGraph *graph = SUANLI_FLAME_GRAPH (suanli_flame_view_get_graph (suanli_test_profile_flame_view (fixture)));
  g_autofree char *name = g_strdup_printf ("profiler-flame-diff-light-%s", suanli_test_language_tag ());
  SuanliImportStats stats = { 0 };
  SuanliFlame *flame;
  const SuanliFlameNode *linear;

  g_assert_true (suanli_import_stream (baseline, stream, "before.json", &stats, NULL, NULL));
  suanli_flame_view_set_baseline (suanli_test_profile_flame_view (fixture), baseline);
  suanli_test_profile_wait_for_flame (fixture);
  flame = suanli_flame_graph_get_flame (graph);
  g_assert_true (suanli_flame_is_differential (flame));
  g_assert_cmpint (suanli_flame_get_node (flame, 0)->total, ==, 798000000);
  g_assert_cmpint (suanli_flame_get_node (flame, 0)->baseline_total, ==, 500000000);
  /* Steps merge, so the runs' frames meet under ProfilerStep#*: this run's two linears of 150 ms
   * against the baseline's one of 300. */
  linear = suanli_flame_get_node (flame, flame_node (flame, "aten::linear"));
  g_assert_cmpstr (suanli_flame_get_name (flame, linear->parent), ==, "ProfilerStep#*");
  g_assert_cmpint (linear->total, ==, 300000000);
  g_assert_cmpint (linear->baseline_total, ==, 300000000);
  g_free (suanli_test_screenshot (GTK_WIDGET (fixture->window), name));

  /* The same button stops comparing. */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (suanli_test_profile_flame_view (fixture)), "flame.compare", NULL));
  suanli_test_profile_wait_for_flame (fixture);
  g_assert_false (suanli_flame_is_differential (suanli_flame_graph_get_flame (graph)));
  suanli_import_stats_clear (&stats);
}

/* ---- What If… ---------------------------------------------------------------------------------- */

static gboolean
whatif_ready (gpointer data)
{
  return suanli_whatif_view_is_ready (data);
}

static gint64
projected_step (SuanliWhatifView *view)
{
  suanli_test_await (whatif_ready, view);
  return suanli_whatif_get_figures (suanli_whatif_view_get_whatif (view))->projected_ns;
}

/* The generated trace (H100s, two steps 400 ms apart whose CPU side is the longest path) replayed as it
 * ran, then projected onto A100s and B200s, with communication overlapped; Plan with This hands
 * the plan the target and the projected MFU. */
static void
test_whatif (Fixture       *fixture,
             gconstpointer  data)
{
  SuanliWhatifView *view = SUANLI_WHATIF_VIEW (suanli_profile_page_get_whatif_view (fixture->page));
  SuanliPlan *plan = suanli_workspace_get_plan (fixture->workspace);
  const SuanliWhatifFigures *figures;
  gint64 on_h100, on_a100, on_b200, overlapped;
  JsonObject *root;

  suanli_profile_page_show_view (fixture->page, "whatif");
  on_h100 = projected_step (view);
  figures = suanli_whatif_get_figures (suanli_whatif_view_get_whatif (view));
  g_test_message ("measured %" G_GINT64_FORMAT " ns, replayed %" G_GINT64_FORMAT " ns", figures->measured_ns, figures->replayed_ns);
  g_assert_cmpint (figures->measured_ns, ==, 399500000);   /* the mean of the periods, 400 and 399 ms */
  g_assert_cmpfloat (fabs ((double) figures->replayed_ns - figures->measured_ns), <=, 0.02 * figures->measured_ns);
  g_assert_cmpint (on_h100, ==, figures->replayed_ns);   /* onto what it ran on: the replay itself */
  g_assert_nonnull (suanli_whatif_get_projected (suanli_whatif_view_get_whatif (view)));

  g_assert_true (suanli_whatif_view_set_target (view, "nvidia-a100-80gb-sxm"));
  on_a100 = projected_step (view);
  g_assert_true (suanli_whatif_view_set_target (view, "nvidia-b200"));
  on_b200 = projected_step (view);
  g_test_message ("projected: A100 %" G_GINT64_FORMAT " ns, B200 %" G_GINT64_FORMAT " ns", on_a100, on_b200);
  {
    SuanliItem *b200 = suanli_catalog_lookup (suanli_workspace_get_catalog (fixture->workspace), "nvidia-b200");
    guint gpus = 0;
    g_autofree char *caption = NULL;

    g_assert_nonnull (suanli_trace_get_accelerator (suanli_workspace_get_trace (fixture->workspace), NULL, &gpus));
    caption = g_strdup_printf (_("%s on %u × %s"), _("Projected"), gpus, suanli_item_get_name (b200));

    g_assert_nonnull (suanli_test_find_label (GTK_WIDGET (view), caption));
  }
  /* The step is the CPU's: slower GPUs lengthen it, faster ones cannot shorten it. */
  g_assert_cmpint (on_a100, >, on_h100);
  g_assert_cmpint (on_b200, ==, on_h100);
  /* Each kernel says why it was scaled so: the GEMM by compute, in the table's Why column. */
  {
    GArray *kernels = suanli_whatif_get_kernels (suanli_whatif_view_get_whatif (view));
    gboolean gemm = FALSE;

    for (guint i = 0; i < kernels->len; i++)
      {
        const SuanliWhatifKernel *kernel = &g_array_index (kernels, SuanliWhatifKernel, i);
        const char *name = suanli_trace_get_string (suanli_workspace_get_trace (fixture->workspace), kernel->name);

        g_assert_nonnull (kernel->reason);
        if (g_str_equal (name, "ampere_sgemm_128x64_tn"))
          {
            gemm = TRUE;
            g_assert_cmpint (kernel->work_class, ==, SUANLI_WORK_COMPUTE);
            g_assert_cmpfloat (kernel->factor, <, 1);
          }
      }
    g_assert_true (gemm);
  }

  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (view), "whatif.overlap-comm", NULL));
  overlapped = projected_step (view);
  g_test_message ("overlapped: %" G_GINT64_FORMAT " ns", overlapped);
  g_assert_cmpint (overlapped, <=, on_b200);

  /* The plan takes the B200s and the projected MFU. */
  g_assert_cmpfloat (suanli_whatif_get_figures (suanli_whatif_view_get_whatif (view))->projected_mfu, >, 0);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (view), "whatif.use-projection", NULL));
  root = suanli_plan_get_root (plan);
  g_assert_cmpstr (json_object_get_string_member (json_object_get_object_member (root, "system"), "accelerator"), ==, "nvidia-b200");
  g_assert_cmpfloat_with_epsilon (json_object_get_double_member (json_object_get_object_member (root, "assumptions"), "mfu"),
                                  suanli_whatif_get_figures (suanli_whatif_view_get_whatif (view))->projected_mfu, 1e-4);
}

/* How many of @table's rows show whole within its scrolled window. */
static guint
rows_in_view (GtkWidget *table)
{
  GtkWidget *list = suanli_test_find_widget (table, GTK_TYPE_LIST_VIEW);
  GtkWidget *scrolled = suanli_test_find_widget (table, GTK_TYPE_SCROLLED_WINDOW);
  guint shown = 0;

  g_assert_nonnull (list);
  g_assert_nonnull (scrolled);
  for (GtkWidget *row = gtk_widget_get_first_child (list); row != NULL; row = gtk_widget_get_next_sibling (row))
    {
      graphene_rect_t bounds;

      if (gtk_widget_get_mapped (row) && gtk_widget_compute_bounds (row, scrolled, &bounds) &&
          bounds.size.height > 0 && bounds.origin.y >= 0 &&
          bounds.origin.y + bounds.size.height <= gtk_widget_get_height (scrolled) + 0.5)
        shown++;
    }
  return shown;
}

/* The part of @widget inside the window, in pixels of height. */
static double
height_in_window (GtkWidget *widget,
                  GtkWidget *window)
{
  graphene_rect_t bounds;

  g_assert_true (gtk_widget_compute_bounds (widget, window, &bounds));
  return MIN (bounds.origin.y + bounds.size.height, gtk_widget_get_height (window)) - MAX (bounds.origin.y, 0);
}

static gboolean
shows_trace (GtkWidget     *widget,
             gconstpointer  trace)
{
  return SUANLI_IS_TIMELINE (widget) && suanli_timeline_get_trace (SUANLI_TIMELINE (widget)) == trace;
}

static const SuanliTestProfileSetUp default_size = { 1280, 820, FALSE };

/* At the window's default size, What If shows it all: the window keeps its height, both timelines
 * show their streams, and the scaled kernels show as rows, not only a header. */
static void
test_whatif_fits (Fixture       *fixture,
                  gconstpointer  data)
{
  GtkWidget *window = GTK_WIDGET (fixture->window);
  SuanliWhatifView *view = SUANLI_WHATIF_VIEW (suanli_profile_page_get_whatif_view (fixture->page));
  GtkWidget *table = suanli_test_find_widget (GTK_WIDGET (view), SUANLI_TYPE_STATS_TABLE);
  GtkWidget *timeline = NULL;
  guint rows;

  suanli_profile_page_show_view (fixture->page, "whatif");
  projected_step (view);
  suanli_test_settle (window);
  timeline = suanli_test_find_matching (GTK_WIDGET (view), shows_trace,
                                        suanli_whatif_get_projected (suanli_whatif_view_get_whatif (view)));
  g_assert_nonnull (timeline);
  rows = rows_in_view (table);
  g_test_message ("window %d × %d; kernel rows shown %u; kernels table %.0f px, timelines %.0f px", gtk_widget_get_width (window),
                  gtk_widget_get_height (window), rows, height_in_window (table, window), height_in_window (timeline, window));
  suanli_test_screenshot_styles (window, "profiler-whatif");
  g_assert_cmpint (gtk_widget_get_height (window), <=, default_size.height);
  g_assert_cmpuint (rows, >=, 3);
  /* The ruler and the two pinned streams of the projection, at least. */
  g_assert_cmpfloat (height_in_window (timeline, window), >=, 100);
}

static const SuanliTestProfileSetUp catalog_later = { 1180, 760, TRUE };

/* The trace opens before the catalog has loaded, as one given on the command line does: once the
 * catalog is in, What If knows what the trace ran on. */
static void
test_catalog_later (Fixture       *fixture,
                    gconstpointer  data)
{
  SuanliWhatifView *view = SUANLI_WHATIF_VIEW (suanli_profile_page_get_whatif_view (fixture->page));
  SuanliCatalog *catalog = suanli_workspace_get_catalog (fixture->workspace);
  g_autoptr(GPtrArray) problems = g_ptr_array_new_with_free_func (g_free);
  g_autofree char *unknown = NULL, *known = NULL;
  guint gpus = 0;

  g_assert_nonnull (suanli_trace_get_accelerator (suanli_workspace_get_trace (fixture->workspace), NULL, &gpus));
  unknown = g_strdup_printf (_("%s on %u × %s"), _("Measured"), gpus, "?");
  known = g_strdup_printf (_("%s on %u × %s"), _("Measured"), gpus, "H100 SXM");
  suanli_profile_page_show_view (fixture->page, "whatif");
  projected_step (view);
  g_assert_nonnull (suanli_test_find_label (GTK_WIDGET (view), unknown));

  suanli_catalog_load_builtin (catalog, problems);
  suanli_test_await_label (GTK_WIDGET (view), known);
  projected_step (view);
  g_assert_null (suanli_test_find_label (GTK_WIDGET (view), unknown));
}

int
main (int   argc,
      char *argv[])
{
  suanli_test_profile_init (&argc, &argv);
  g_test_add ("/profile-page/flame-graph", Fixture, NULL, suanli_test_profile_set_up, test_flame_graph, suanli_test_profile_tear_down);
  g_test_add ("/profile-page/tables", Fixture, NULL, suanli_test_profile_set_up, test_tables, suanli_test_profile_tear_down);
  g_test_add ("/profile-page/against-plan", Fixture, NULL, suanli_test_profile_set_up, test_against_plan, suanli_test_profile_tear_down);
  g_test_add ("/profile-page/flame-diff", Fixture, NULL, suanli_test_profile_set_up, test_flame_diff, suanli_test_profile_tear_down);
  g_test_add ("/profile-page/whatif", Fixture, NULL, suanli_test_profile_set_up, test_whatif, suanli_test_profile_tear_down);
  g_test_add ("/profile-page/catalog-later", Fixture, &catalog_later, suanli_test_profile_set_up, test_catalog_later,
              suanli_test_profile_tear_down);
  g_test_add ("/profile-page/whatif-fits", Fixture, &default_size, suanli_test_profile_set_up, test_whatif_fits,
              suanli_test_profile_tear_down);
  return suanli_test_profile_run ();
}
