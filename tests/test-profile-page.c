/* test-profile-page.c — the profiler page in a real window under Xvfb: loading with progress,
 * the summary, zooming and panning the timeline, selecting a slice, and a one-pixel spike
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
#include "suanli-test-support.h"
#include "suanli-timeline.h"
#include "suanli-timeline-painter.h"
#include "suanli-units.h"
#include "suanli-whatif-view.h"
#include "suanli-window.h"
#include "suanli-workspace.h"

typedef struct
{
  SuanliWorkspace   *workspace;
  SuanliWindow      *window;
  SuanliProfilePage *page;
  SuanliTimeline    *timeline;
  char              *directory;
} Fixture;

static gboolean
loaded (gpointer data)
{
  Fixture *fixture = data;

  return !suanli_profile_page_is_loading (fixture->page) && suanli_workspace_get_trace (fixture->workspace) != NULL;
}

static void
fixture_set_up (Fixture       *fixture,
                gconstpointer  data)
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
  suanli_test_await (loaded, fixture);
  suanli_test_wait_for_frame (GTK_WIDGET (fixture->window));
  g_unlink (path);
}

static void
fixture_tear_down (Fixture       *fixture,
                   gconstpointer  data)
{
  suanli_test_destroy_window (GTK_WINDOW (fixture->window));
  g_assert_finalize_object (fixture->workspace);
  g_rmdir (fixture->directory);
  g_free (fixture->directory);
}

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
  g_autofree char *median = suanli_format_duration_ns (399000000);
  g_autofree char *steps = g_strdup_printf (ngettext ("%u step, %s per step", "%u steps, median %s per step", 2), 2,
                                            median);

  g_test_message ("summary: %s", summary);
  /* The GPU-time bar under it. */
  g_assert_true (gtk_widget_get_visible (suanli_test_find_widget (GTK_WIDGET (fixture->page), GTK_TYPE_DRAWING_AREA)));
  g_assert_nonnull (strstr (summary, gpu));
  g_assert_nonnull (strstr (summary, steps));
  g_assert_nonnull (strstr (summary, "ampere_sgemm_128x64_tn"));
}

/* The time window's span, in ns. */
static gint64
span (Fixture *fixture)
{
  gint64 from, to;

  suanli_timeline_get_window (fixture->timeline, &from, &to);
  return to - from;
}

static SuanliAgainstPlanView *
against_plan (Fixture *fixture)
{
  return SUANLI_AGAINST_PLAN_VIEW (suanli_profile_page_get_against_plan_view (fixture->page));
}

static SuanliTablesView *
tables_view (Fixture *fixture)
{
  return SUANLI_TABLES_VIEW (suanli_profile_page_get_tables_view (fixture->page));
}

static SuanliFlameView *
flame_view (Fixture *fixture)
{
  return SUANLI_FLAME_VIEW (suanli_profile_page_get_flame_view (fixture->page));
}

static gboolean
flame_ready (gpointer data)
{
  return suanli_flame_view_is_ready (SUANLI_FLAME_VIEW (data));
}

/* The flame graph is worked out on a worker thread: wait for it. */
static void
wait_for_flame (Fixture *fixture)
{
  suanli_test_await (flame_ready, flame_view (fixture));
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
  suanli_test_await (loaded, fixture);
  g_assert_true (suanli_workspace_get_trace (fixture->workspace) == before);
  g_assert_true (suanli_timeline_get_trace (fixture->timeline) == before);
  g_assert_cmpint (span (fixture), <, (gint64) SUANLI_TEST_TRACE_SPAN_US * 1000);   /* still zoomed */
  g_unlink (path);
}

static void
test_zoom_and_pan (Fixture       *fixture,
                   gconstpointer  data)
{
  gint64 full = span (fixture), from, to, zoomed_from;

  g_assert_cmpint (full, ==, (gint64) SUANLI_TEST_TRACE_SPAN_US * 1000);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (fixture->timeline), "timeline.zoom-in", NULL));
  g_assert_cmpint (span (fixture), <, full);
  g_assert_cmpint (span (fixture), ==, (gint64) (full / 1.5));
  suanli_timeline_get_window (fixture->timeline, &zoomed_from, &to);
  g_assert_cmpint (zoomed_from, >, 0);   /* zoomed around the middle */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (fixture->timeline), "timeline.pan-right", NULL));
  suanli_timeline_get_window (fixture->timeline, &from, &to);
  g_assert_cmpint (from, >, zoomed_from);
  g_assert_cmpint (to - from, ==, (gint64) (full / 1.5));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (fixture->timeline), "timeline.pan-left", NULL));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (fixture->timeline), "timeline.pan-left", NULL));
  suanli_timeline_get_window (fixture->timeline, &from, &to);
  g_assert_cmpint (from, <, zoomed_from);
  /* Zooming out never goes past the whole trace, and W/S keys reach the same actions. */
  for (guint i = 0; i < 10; i++)
    g_assert_true (gtk_widget_activate_action (GTK_WIDGET (fixture->timeline), "timeline.zoom-out", NULL));
  g_assert_cmpint (span (fixture), ==, full);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (fixture->timeline), "timeline.reset", NULL));
  g_assert_cmpint (span (fixture), ==, full);
}

/* The x of @time_us on the timeline as it is now. */
static double
x_of (Fixture *fixture,
      double   time_us)
{
  gint64 from, to;
  double width = gtk_widget_get_width (GTK_WIDGET (fixture->timeline)) - SUANLI_TIMELINE_GUTTER_WIDTH;

  suanli_timeline_get_window (fixture->timeline, &from, &to);
  return SUANLI_TIMELINE_GUTTER_WIDTH + (time_us * 1000 - (double) from) * width / (double) (to - from);
}

/* Looks down the column at @x for a slice named @name, and selects it as a click does; its y, or -1. */
static double
find_row (Fixture    *fixture,
          double      x,
          const char *name)
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

/* The name of the selected slice. */
static const char *
selected_name (Fixture *fixture)
{
  SuanliTrace *trace = suanli_timeline_get_trace (fixture->timeline);
  guint track;
  guint32 slice;

  g_assert_true (suanli_timeline_get_selected (fixture->timeline, &track, &slice));
  return suanli_trace_get_string (trace, g_array_index (suanli_trace_get_track (trace, track)->slices, SuanliSlice, slice).name);
}

static void
test_select (Fixture       *fixture,
             gconstpointer  data)
{
  /* The second step's GEMM (440–540 ms): its details name it and what launched it. */
  int timeline_height = gtk_widget_get_height (GTK_WIDGET (fixture->timeline));
  double y = find_row (fixture, x_of (fixture, 490000), "ampere_sgemm_128x64_tn");
  const char *details = suanli_profile_page_get_details (fixture->page);
  g_autofree char *launched = g_strdup_printf (_("launched by %s"), "cudaLaunchKernel");
  gint64 from, to;

  g_assert_cmpfloat (y, >, 0);
  g_test_message ("details: %s", details);
  {
    /* To the nanosecond: 100.000000 ms, from 440.000000 ms to 540.000000 ms. */
    g_autofree char *duration = suanli_format_duration_to (100000000, 1);
    g_autofree char *prefix = g_strdup_printf ("ampere_sgemm_128x64_tn · %s", duration);
    g_autofree char *start = suanli_format_duration_to (440000000, 1);
    g_autofree char *end = suanli_format_duration_to (540000000, 1);
    g_autofree char *span_text = g_strdup_printf (_("from %s to %s"), start, end);

    g_assert_true (g_str_has_prefix (details, prefix));
    g_assert_nonnull (strstr (details, span_text));
    g_assert_nonnull (strstr (duration, "100.000000"));
  }
  /* The details panel never covers the selection: once it shows the details, the kernel is still
   * in view where it was clicked. */
  {
    guint track;
    guint32 slice;

    suanli_test_settle (GTK_WIDGET (fixture->window));
    g_test_message ("timeline %d px high before, %d after", timeline_height, gtk_widget_get_height (GTK_WIDGET (fixture->timeline)));
    g_assert_cmpfloat (y, <, gtk_widget_get_height (GTK_WIDGET (fixture->timeline)) - SUANLI_TIMELINE_LANE_HEIGHT / 2.0);
    g_assert_true (suanli_timeline_slice_at (fixture->timeline, x_of (fixture, 490000), y, &track, &slice));
    g_assert_cmpstr (suanli_trace_get_string (suanli_timeline_get_trace (fixture->timeline),
                                              g_array_index (suanli_trace_get_track (suanli_timeline_get_trace (fixture->timeline),
                                                                                     track)->slices, SuanliSlice, slice).name),
                     ==, "ampere_sgemm_128x64_tn");
  }
  g_assert_nonnull (strstr (details, launched));
  g_assert_nonnull (strstr (details, "correlation=11"));

  /* J (or the details' button) goes to the launch, and back. */
  g_assert_true (gtk_widget_is_visible (suanli_test_find_label (GTK_WIDGET (fixture->page), _("Go to Linked (J)"))));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (fixture->page), "profile.jump", NULL));
  g_assert_cmpstr (selected_name (fixture), ==, "cudaLaunchKernel");
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (fixture->timeline), "timeline.jump-to-linked", NULL));
  g_assert_cmpstr (selected_name (fixture), ==, "ampere_sgemm_128x64_tn");

  /* F zooms to it. */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (fixture->timeline), "timeline.zoom-to-selection", NULL));
  suanli_timeline_get_window (fixture->timeline, &from, &to);
  g_assert_cmpint (from, <, 440000000);
  g_assert_cmpint (from, >, 400000000);
  g_assert_cmpint (to, >, 540000000);
  g_assert_cmpint (to, <, 580000000);
}

static void
test_keyboard (Fixture       *fixture,
               gconstpointer  data)
{
  /* From the second step's addmm: Up to linear, Up to the step, Down to linear, ] to the next
   * slice on linear's lane, [ back. */
  g_assert_cmpfloat (find_row (fixture, x_of (fixture, 480000), "aten::addmm"), >, 0);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (fixture->timeline), "timeline.parent-slice", NULL));
  g_assert_cmpstr (selected_name (fixture), ==, "aten::linear");
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (fixture->timeline), "timeline.parent-slice", NULL));
  g_assert_cmpstr (selected_name (fixture), ==, "ProfilerStep#2");
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (fixture->timeline), "timeline.child-slice", NULL));
  g_assert_cmpstr (selected_name (fixture), ==, "aten::linear");
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (fixture->timeline), "timeline.next-slice", NULL));
  g_assert_cmpstr (selected_name (fixture), ==, "record_param_comms");
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (fixture->timeline), "timeline.previous-slice", NULL));
  g_assert_cmpstr (selected_name (fixture), ==, "aten::linear");
  g_assert_nonnull (strstr (suanli_profile_page_get_details (fixture->page), "aten::linear"));
}

static void
test_pin (Fixture       *fixture,
          gconstpointer  data)
{
  double x = x_of (fixture, 490000);
  double y = find_row (fixture, x, "ampere_sgemm_128x64_tn");
  double strip = SUANLI_TIMELINE_RULER_HEIGHT + 8;
  guint gemm_track, track;
  guint32 slice;
  g_autofree char *name = g_strdup_printf ("profiler-pinned-light-%s", suanli_test_language_tag ());

  g_assert_cmpfloat (y, >, 0);
  g_assert_true (suanli_timeline_get_selected (fixture->timeline, &gemm_track, &slice));
  /* Just under the ruler: the global markers' header, no slice. */
  g_assert_false (suanli_timeline_slice_at (fixture->timeline, x, strip, &track, &slice));

  /* P pins the selected slice's stream under the ruler. */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (fixture->timeline), "timeline.toggle-pin", NULL));
  g_assert_true (suanli_timeline_slice_at (fixture->timeline, x, strip, &track, &slice));
  g_assert_cmpuint (track, ==, gemm_track);
  g_free (suanli_test_screenshot (GTK_WIDGET (fixture->window), name));

  /* Clicking its name unpins it. */
  g_assert_true (suanli_timeline_select_at (fixture->timeline, 20, strip));
  g_assert_false (suanli_timeline_slice_at (fixture->timeline, x, strip, &track, &slice));
}

static void
test_spike_visible (Fixture       *fixture,
                    gconstpointer  data)
{
  /* Fully zoomed out, 100 ns is a thousandth of a pixel: it still gets its column. */
  double x = x_of (fixture, SUANLI_TEST_TRACE_SPIKE_US);
  double y = find_row (fixture, x, "tiny_spike");
  g_autoptr(GdkTexture) texture = NULL;
  guint32 spike, beside;

  g_assert_cmpfloat (y, >, 0);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (fixture->timeline), "timeline.reset", NULL));
  suanli_timeline_select (fixture->timeline, 0, 0);   /* away from the spike, so no outline is drawn on it */
  texture = suanli_test_render (GTK_WIDGET (fixture->timeline));
  spike = suanli_test_pixel (texture, (int) x, (int) y);
  beside = suanli_test_pixel (texture, (int) x + 6, (int) y);
  g_test_message ("spike pixel %08x, beside it %08x", spike, beside);
  g_assert_cmpuint (spike, !=, beside);
}

/* Pixels that differ between two renders of the same size in column @x, from @top to @bottom. */
static guint
changed_in_column (GdkTexture *a,
                   GdkTexture *b,
                   int         x,
                   int         top,
                   int         bottom)
{
  guint changed = 0;

  for (int y = MAX (top, 0); y < MIN (bottom, gdk_texture_get_height (a)); y++)
    changed += suanli_test_pixel (a, x, y) != suanli_test_pixel (b, x, y);
  return changed;
}

static void
test_flow_arrows (Fixture       *fixture,
                  gconstpointer  data)
{
  g_autoptr(GdkTexture) with_arrow = NULL;
  g_autoptr(GdkTexture) without = NULL;
  double launch_y, kernel_y, middle_x;
  int top, bottom;

  /* The second step's GEMM launch (425 ms) and the GEMM (440–540 ms), zoomed in so the arrow
   * between them is long. */
  suanli_timeline_set_window (fixture->timeline, 400000000, 560000000);
  launch_y = find_row (fixture, x_of (fixture, 427000), "cudaLaunchKernel");
  kernel_y = find_row (fixture, x_of (fixture, 490000), "ampere_sgemm_128x64_tn");
  g_assert_cmpfloat (launch_y, >, 0);
  g_assert_cmpfloat (kernel_y, >, launch_y);
  with_arrow = suanli_test_render (GTK_WIDGET (fixture->timeline));
  suanli_timeline_select (fixture->timeline, 0, 0);   /* a slice without flows, out of this view */
  without = suanli_test_render (GTK_WIDGET (fixture->timeline));

  /* Halfway from the launch's start to the kernel's, the arrow crosses the rows between them. */
  middle_x = (x_of (fixture, 425000) + x_of (fixture, 440000)) / 2;
  top = (int) launch_y - SUANLI_TIMELINE_LANE_HEIGHT, bottom = (int) kernel_y + SUANLI_TIMELINE_LANE_HEIGHT;
  g_test_message ("arrow column %.0f: %u pixels changed", middle_x,
                  changed_in_column (with_arrow, without, (int) middle_x, top, bottom));
  g_assert_cmpuint (changed_in_column (with_arrow, without, (int) middle_x, top, bottom), >, 0);
  /* Before the launch, nothing changed: the difference is the arrow's. */
  g_assert_cmpuint (changed_in_column (with_arrow, without, (int) x_of (fixture, 405000), top, bottom), ==, 0);
}

/* A real drag along the ruler (through the X server) selects that stretch of time. */
static void
test_ruler_drag (Fixture       *fixture,
                 gconstpointer  data)
{
  SuanliStatsTable *range = SUANLI_STATS_TABLE (suanli_tables_view_get_range (tables_view (fixture)));
  double x0 = x_of (fixture, 100000), x1 = x_of (fixture, 300000);
  gint64 ns_per_pixel, from, to;

  {
    gint64 window_from, window_to;

    suanli_timeline_get_window (fixture->timeline, &window_from, &window_to);
    ns_per_pixel = (window_to - window_from) / (gtk_widget_get_width (GTK_WIDGET (fixture->timeline)) - SUANLI_TIMELINE_GUTTER_WIDTH);
  }
  g_assert_false (suanli_timeline_get_range (fixture->timeline, &from, &to));
  suanli_test_drag (GTK_WIDGET (fixture->timeline), x0, SUANLI_TIMELINE_RULER_HEIGHT / 2.0, x1, SUANLI_TIMELINE_RULER_HEIGHT / 2.0);
  g_assert_true (suanli_timeline_get_range (fixture->timeline, &from, &to));
  g_test_message ("dragged range %" G_GINT64_FORMAT "–%" G_GINT64_FORMAT " ns, %" G_GINT64_FORMAT " ns a pixel",
                  from, to, ns_per_pixel);
  g_assert_cmpint (llabs (from - 100000000), <=, 2 * ns_per_pixel);
  g_assert_cmpint (llabs (to - 300000000), <=, 2 * ns_per_pixel);
  suanli_test_await (loaded, fixture);
  g_assert_true (gtk_widget_get_visible (GTK_WIDGET (range)));
}

/* The search entry whose placeholder is @placeholder, under @root. */
static gboolean
has_placeholder (GtkWidget     *widget,
                 gconstpointer  placeholder)
{
  g_autofree char *text = NULL;

  if (!GTK_IS_SEARCH_ENTRY (widget))
    return FALSE;
  g_object_get (widget, "placeholder-text", &text, NULL);
  return g_strcmp0 (text, placeholder) == 0;
}

static GtkWidget *
find_search_entry (GtkWidget  *root,
                   const char *placeholder)
{
  return suanli_test_find_matching (root, has_placeholder, placeholder);
}

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
  SuanliFlameGraph *graph = SUANLI_FLAME_GRAPH (suanli_flame_view_get_graph (flame_view (fixture)));
  GtkWidget *search = find_search_entry (GTK_WIDGET (fixture->page), _("Search frames"));
  GtkWidget *gpu = suanli_test_find_label (GTK_WIDGET (fixture->page), _("GPU Time"));
  g_autofree char *matched = g_strdup_printf (_("%.1f%% matched"), 100.0 * 240 / 798);
  g_autofree char *name = g_strdup_printf ("profiler-flame-light-%s", suanli_test_language_tag ());
  SuanliFlame *flame;
  g_autofree char *path = NULL;

  /* Worked out when first shown: the CPU stacks, two steps of 399 ms. */
  g_assert_null (suanli_flame_graph_get_flame (graph));
  suanli_profile_page_show_view (fixture->page, "flame");
  wait_for_flame (fixture);
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
  wait_for_flame (fixture);
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
  wait_for_flame (fixture);
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

  /* Search: aten::addmm is 2 × 120 ms of the 798. */
  gtk_editable_set_text (GTK_EDITABLE (search), "ADDMM");
  /* The search entry reports a change a moment later: wait for its result. */
  suanli_test_await_label (GTK_WIDGET (fixture->page), matched);
  g_free (suanli_test_screenshot (GTK_WIDGET (fixture->window), name));

  /* GPU time by launching stack: every kernel, copy and the spike. */
  g_assert_nonnull (gpu);
  gtk_toggle_button_set_active (GTK_TOGGLE_BUTTON (gtk_widget_get_ancestor (gpu, GTK_TYPE_TOGGLE_BUTTON)), TRUE);
  wait_for_flame (fixture);
  flame = suanli_flame_graph_get_flame (graph);
  g_assert_cmpint (suanli_flame_get_node (flame, 0)->total, ==, 420000100);
  /* Both steps' GEMMs under the one merged step's stack: 2 × 100 ms. */
  g_assert_cmpint (suanli_flame_get_node (flame, flame_node (flame, "ampere_sgemm_128x64_tn"))->total, ==, 200000000);
  g_assert_nonnull (strstr (suanli_flame_get_name (flame, suanli_flame_get_node (flame, flame_node (flame, "ampere_sgemm_128x64_tn"))->parent),
                            "cudaLaunchKernel"));
}

static void
test_search (Fixture       *fixture,
             gconstpointer  data)
{
  GtkWidget *entry = find_search_entry (GTK_WIDGET (fixture->page), _("Search slices (Ctrl+F)"));
  g_autofree char *four = g_strdup_printf (ngettext ("%llu match", "%llu matches", 4), 4ULL);
  g_autofree char *name = g_strdup_printf ("profiler-search-light-%s", suanli_test_language_tag ());

  /* Ctrl+F's action puts the keyboard in the search entry. */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (fixture->page), "profile.search", NULL));
  g_assert_true (gtk_widget_has_focus (entry) || gtk_widget_is_ancestor (gtk_root_get_focus (gtk_widget_get_root (entry)), entry));

  /* Two aten::linear and two aten::addmm; the count, then Enter and Shift+Enter step by time. */
  g_assert_cmpuint (suanli_timeline_search (fixture->timeline, "ATEN::"), ==, 4);
  gtk_editable_set_text (GTK_EDITABLE (entry), "aten::");
  suanli_test_await_label (GTK_WIDGET (fixture->page), four);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (fixture->timeline), "timeline.next-match", NULL));
  g_assert_cmpstr (selected_name (fixture), ==, "aten::linear");
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (fixture->timeline), "timeline.next-match", NULL));
  g_assert_cmpstr (selected_name (fixture), ==, "aten::addmm");
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (fixture->page), "profile.previous-match", NULL));
  g_assert_cmpstr (selected_name (fixture), ==, "aten::linear");
  g_free (suanli_test_screenshot (GTK_WIDGET (fixture->window), name));
  g_assert_cmpuint (suanli_timeline_search (fixture->timeline, "no such slice"), ==, 0);

  /* Another trace opened: the search is run again in it (a trace without aten:: has no match). */
  {
    g_autofree char *path = g_build_filename (fixture->directory, "other.json", NULL);
    g_autoptr(GFile) file = g_file_new_for_path (path);
    g_autofree char *none = g_strdup_printf (ngettext ("%llu match", "%llu matches", 0), 0ULL);

    g_assert_true (g_file_set_contents (path, "[{\"ph\":\"X\",\"name\":\"step\",\"pid\":1,\"tid\":1,\"ts\":0,\"dur\":5}]",
                                        -1, NULL));
    gtk_editable_set_text (GTK_EDITABLE (entry), "aten::");
    suanli_test_await_label (GTK_WIDGET (fixture->page), four);
    suanli_profile_page_open_files (fixture->page, &file, 1);
    suanli_test_await (loaded, fixture);
    g_assert_null (suanli_test_find_label (GTK_WIDGET (fixture->page), four));
    g_assert_nonnull (suanli_test_find_label (GTK_WIDGET (fixture->page), none));
    g_unlink (path);
  }
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
    GtkWidget *kernels = suanli_tables_view_get_kernels (tables_view (fixture));
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
  SuanliStatsTable *range = SUANLI_STATS_TABLE (suanli_tables_view_get_range (tables_view (fixture)));
  SuanliStatsTable *kernels = SUANLI_STATS_TABLE (suanli_tables_view_get_kernels (tables_view (fixture)));
  SuanliFlameGraph *graph = SUANLI_FLAME_GRAPH (suanli_flame_view_get_graph (flame_view (fixture)));
  g_autofree char *name = g_strdup_printf ("profiler-range-light-%s", suanli_test_language_tag ());
  g_autofree char *range_csv = NULL;
  g_autofree char *kernels_csv = NULL;
  gint64 from, to;

  /* The first 100 ms: the step, linear, addmm, a launch and the GEMM, for the part inside. */
  g_assert_false (gtk_widget_get_visible (GTK_WIDGET (range)));
  suanli_timeline_set_range (fixture->timeline, 0, 100000000);
  suanli_test_await (loaded, fixture);   /* the range's figures come from a worker */
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
  wait_for_flame (fixture);
  g_assert_cmpint (suanli_flame_get_node (suanli_flame_graph_get_flame (graph), 0)->total, ==, 100000000);

  /* Escape forgets it: everything again. */
  suanli_profile_page_show_view (fixture->page, "timeline");
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (fixture->timeline), "timeline.clear-range", NULL));
  g_assert_false (gtk_widget_get_visible (GTK_WIDGET (range)));
  g_assert_cmpuint (suanli_stats_table_get_n_rows (kernels), ==, 3);
  suanli_profile_page_show_view (fixture->page, "flame");
  wait_for_flame (fixture);
  g_assert_cmpint (suanli_flame_get_node (suanli_flame_graph_get_flame (graph), 0)->total, ==, 798000000);
}

static void
test_tables (Fixture       *fixture,
             gconstpointer  data)
{
  SuanliStatsTable *kernels = SUANLI_STATS_TABLE (suanli_tables_view_get_kernels (tables_view (fixture)));
  SuanliStatsTable *operators = SUANLI_STATS_TABLE (suanli_tables_view_get_operators (tables_view (fixture)));
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
    SuanliFlameGraph *graph = SUANLI_FLAME_GRAPH (suanli_flame_view_get_graph (flame_view (fixture)));

    g_assert_nonnull (suanli_test_find_label (GTK_WIDGET (fixture->page), two));
    g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (find_search_entry (GTK_WIDGET (fixture->page),
                                                                             _("Search frames")))), ==,
                     "ampere_sgemm_128x64_tn");
    suanli_profile_page_show_view (fixture->page, "flame");
    gtk_toggle_button_set_active (GTK_TOGGLE_BUTTON (gtk_widget_get_ancestor (suanli_test_find_label (GTK_WIDGET (fixture->page),
                                                                                                       _("GPU Time")),
                                                                              GTK_TYPE_TOGGLE_BUTTON)),
                                  TRUE);
    wait_for_flame (fixture);
    /* Both GEMMs, 200 of the GPU flame's 420 ms. */
    g_assert_cmpfloat_with_epsilon (suanli_flame_graph_search (graph, "ampere_sgemm_128x64_tn"), 200.0 / 420.0001, 1e-6);
  }
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
  wait_for_flame (fixture);
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

static void
test_against_plan (Fixture       *fixture,
                   gconstpointer  data)
{
  SuanliPlan *plan = suanli_workspace_get_plan (fixture->workspace);
  g_autoptr(SuanliPlan) seven_b = suanli_plan_new_from_data ("{\"name\": \"Seven B\", \"model\": {\"preset\": \"llama-2-7b\"},"
                                                             " \"system\": {\"accelerator\": \"nvidia-h100-sxm\","
                                                             " \"gpus_per_node\": 8}}", -1, "seven-b.suanli-plan", NULL);
  g_autofree char *measured = suanli_format_duration_ns (399000000);
  g_autofree char *name = g_strdup_printf ("profiler-plan-light-%s", suanli_test_language_tag ());
  JsonObject *assumptions;
  double mfu;

  /* (The planner starts every window with a plan; this one replaces it.) */
  g_assert_nonnull (seven_b);
  suanli_plan_replace (plan, seven_b);
  g_assert_nonnull (suanli_against_plan_view_get_text (against_plan (fixture)));
  g_test_message ("%s", suanli_against_plan_view_get_text (against_plan (fixture)));
  g_assert_nonnull (strstr (suanli_against_plan_view_get_text (against_plan (fixture)), measured));
  g_assert_nonnull (strstr (suanli_against_plan_view_get_text (against_plan (fixture)), "Seven B"));
  /* Peak memory from the trace's memory events (36 GiB reserved at most), and throughput from the
   * FLOPs of its two matrix products over the 520 ms from the first one's start to the last one's end. */
  {
    g_autofree char *reserved = suanli_format_bytes (38654705664, SUANLI_MEMORY_UNITS_GIB);
    g_autofree char *throughput = g_strdup_printf (_("%.1f TFLOP/s"), 2 * 274877906944.0 / 0.520 / 1e12);
    const char *text = suanli_against_plan_view_get_text (against_plan (fixture));

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
  gtk_widget_activate_action (GTK_WIDGET (against_plan (fixture)), "against-plan.use-measured", NULL);
  g_assert_null (json_object_get_member (suanli_plan_get_root (plan), "assumptions"));

  /* With 16 sequences a step, it is plausible; writing it closes the loop: the plan's step is then
   * the measured one. */
  g_assert_true (suanli_plan_apply_merge_patch_data (plan, "{\"workload\": {\"global_batch\": 16}}", NULL));
  g_test_message ("%s", suanli_against_plan_view_get_text (against_plan (fixture)));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (against_plan (fixture)), "against-plan.use-measured", NULL));
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
    g_assert_cmpfloat_with_epsilon (estimate.step_time_s, 0.399, 0.399 * 1e-3);
  }
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
  suanli_test_await (loaded, fixture);
  suanli_test_wait_for_frame (GTK_WIDGET (fixture->window));
  g_unlink (path);
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
  /* The generated trace is of 8 × H100: compared. */
  g_assert_nonnull (suanli_against_plan_view_get_text (against_plan (fixture)));
  g_assert_null (suanli_against_plan_view_get_other_job (against_plan (fixture)));

  /* One V100: no comparison, what it ran on, and the catalog's lack said plainly where it lacks it. */
  open_trace_on (fixture, "Tesla V100-SXM2-32GB", 34089730048, 1);
  other = suanli_against_plan_view_get_other_job (against_plan (fixture));
  g_test_message ("%s", other);
  g_assert_null (suanli_against_plan_view_get_text (against_plan (fixture)));
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
  g_assert_null (suanli_against_plan_view_get_text (against_plan (fixture)));
  g_assert_nonnull (strstr (suanli_against_plan_view_get_other_job (against_plan (fixture)), "8 × NVIDIA H100 80GB HBM3"));

  /* Two A100s: Plan for This Hardware takes their model and count (tensor 8 cannot split 2 GPUs:
   * dropped), and then the two are compared. */
  open_trace_on (fixture, "NVIDIA A100-SXM4-80GB", 85198045184, 2);
  g_assert_null (suanli_against_plan_view_get_text (against_plan (fixture)));
  g_assert_true (gtk_widget_is_sensitive (make));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (against_plan (fixture)), "against-plan.plan-from-trace", NULL));
  {
    JsonObject *system = json_object_get_object_member (suanli_plan_get_root (plan), "system");

    g_assert_cmpstr (json_object_get_string_member (system, "accelerator"), ==, "nvidia-a100-80gb-sxm");
    g_assert_cmpint (json_object_get_int_member (system, "gpus_per_node"), ==, 2);
    g_assert_cmpint (json_object_get_int_member (system, "nodes"), ==, 1);
  }
  g_assert_null (suanli_against_plan_view_get_other_job (against_plan (fixture)));
  g_assert_nonnull (suanli_against_plan_view_get_text (against_plan (fixture)));

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
    g_assert_nonnull (suanli_against_plan_view_get_other_job (against_plan (fixture)));
    g_assert_true (g_file_set_contents (path, "{\"name\": \"Eight H100\", \"model\": {\"preset\": \"llama-2-7b\"},"
                                              " \"system\": {\"accelerator\": \"nvidia-h100-sxm\", \"gpus_per_node\": 8}}",
                                        -1, NULL));
    /* The planner shows, and saves to, another file first. */
    g_assert_true (suanli_plan_page_save_file (planner, earlier, &error));
    g_assert_true (g_file_get_contents (earlier_path, &earlier_text, NULL, NULL));

    g_assert_true (suanli_against_plan_view_open_plan (against_plan (fixture), file, &error));
    g_assert_no_error (error);
    /* The planner's Save now writes this plan to this file, never over the one it showed before. */
    g_assert_true (g_file_equal (suanli_plan_page_get_file (planner), file));
    g_assert_true (gtk_widget_activate_action (GTK_WIDGET (planner), "plan.save", NULL));
    g_assert_true (g_file_get_contents (earlier_path, &earlier_after, NULL, NULL));
    g_assert_cmpstr (earlier_after, ==, earlier_text);
    g_unlink (earlier_path);
    g_assert_null (suanli_against_plan_view_get_other_job (against_plan (fixture)));
    g_assert_nonnull (strstr (suanli_against_plan_view_get_text (against_plan (fixture)), "Eight H100"));
    suanli_test_screenshot_styles (GTK_WIDGET (fixture->window), "profiler-same-job");
    g_unlink (path);
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
  SuanliFlameGraph *graph = SUANLI_FLAME_GRAPH (suanli_flame_view_get_graph (flame_view (fixture)));
  g_autofree char *name = g_strdup_printf ("profiler-flame-diff-light-%s", suanli_test_language_tag ());
  SuanliImportStats stats = { 0 };
  SuanliFlame *flame;
  const SuanliFlameNode *linear;

  g_assert_true (suanli_import_stream (baseline, stream, "before.json", &stats, NULL, NULL));
  suanli_flame_view_set_baseline (flame_view (fixture), baseline);
  wait_for_flame (fixture);
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
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (flame_view (fixture)), "flame.compare", NULL));
  wait_for_flame (fixture);
  g_assert_false (suanli_flame_is_differential (suanli_flame_graph_get_flame (graph)));
  suanli_import_stats_clear (&stats);
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
  SuanliFlameGraph *graph = SUANLI_FLAME_GRAPH (suanli_flame_view_get_graph (flame_view (fixture)));
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
  suanli_test_await (loaded, fixture);
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
  wait_for_flame (fixture);
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
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (flame_view (fixture)), "flame.compare", NULL));
  wait_for_flame (fixture);
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
  find_row (fixture, x_of (fixture, 490000), "ampere_sgemm_128x64_tn");
  g_free (suanli_test_screenshot (GTK_WIDGET (fixture->window), name));
  adw_style_manager_set_color_scheme (adw_style_manager_get_default (), ADW_COLOR_SCHEME_DEFAULT);

  /* Deep: 400 ns at the GEMM's start, the ruler in tens of nanoseconds; the GEMM selected, its
   * details to the nanosecond under the timeline. */
  suanli_timeline_set_window (fixture->timeline, 439999800, 440000200);
  g_assert_cmpfloat (find_row (fixture, x_of (fixture, 440000), "ampere_sgemm_128x64_tn"), >, 0);
  suanli_test_screenshot_styles (GTK_WIDGET (fixture->window), "profiler-deep-zoom");
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

/* The generated trace (H100s, two 399 ms steps whose CPU side is the longest path) replayed as it
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
  g_assert_cmpint (figures->measured_ns, ==, 399000000);
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
  /* The step is the CPU's 399 ms: slower GPUs lengthen it, faster ones cannot shorten it. */
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
  suanli_test_screenshot_styles (GTK_WIDGET (fixture->window), "profiler-whatif");

  /* The plan takes the B200s and the projected MFU. */
  g_assert_cmpfloat (suanli_whatif_get_figures (suanli_whatif_view_get_whatif (view))->projected_mfu, >, 0);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (view), "whatif.use-projection", NULL));
  root = suanli_plan_get_root (plan);
  g_assert_cmpstr (json_object_get_string_member (json_object_get_object_member (root, "system"), "accelerator"), ==, "nvidia-b200");
  g_assert_cmpfloat_with_epsilon (json_object_get_double_member (json_object_get_object_member (root, "assumptions"), "mfu"),
                                  suanli_whatif_get_figures (suanli_whatif_view_get_whatif (view))->projected_mfu, 1e-4);
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
  suanli_test_await (loaded, fixture);
  warnings = suanli_trace_get_warnings (suanli_workspace_get_trace (fixture->workspace));
  g_assert_cmpuint (warnings->len, ==, 2);
  g_assert_true (g_str_has_suffix (g_ptr_array_index (warnings, 0), warning));
  g_assert_true (g_str_has_suffix (g_ptr_array_index (warnings, 1),
                                   _("Captured from START (attached to a running job: earlier work is not in it)")));
  toast = g_strdup_printf (ngettext ("%s (and %u more warning)", "%s (and %u more warnings)", 1),
                           (const char *) g_ptr_array_index (warnings, 0), 1);
  suanli_test_await_label (GTK_WIDGET (fixture->window), toast);
  g_assert_cmpuint (suanli_timeline_search (fixture->timeline, "suanli_long_kernel(long long, int*)"), ==, 1);
  g_assert_cmpuint (suanli_timeline_search (fixture->timeline, "_Z18"), ==, 0);
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
  suanli_test_await (loaded, fixture);
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
  g_autofree char *state = g_dir_make_tmp ("suanli-profile-state-XXXXXX", NULL);
  g_autofree char *runtime = g_dir_make_tmp ("suanli-profile-runtime-XXXXXX", NULL);
  int status;

  /* The planner autosaves its plan; the plans these tests set must not reach the other tests'
   * windows (or their screenshots), so this program keeps its state apart. */
  g_setenv ("XDG_STATE_HOME", state, TRUE);
  /* This process is also a profilable job, for Live…: the library's control code, a generator for CUPTI. */
  g_setenv ("XDG_RUNTIME_DIR", runtime, TRUE);
  g_setenv ("SUANLI_QUIET", "1", TRUE);
  g_assert_cmpint (suanli_inject_control_start (suanli_test_generator_source (&live_generator), 4 << 20), ==, 0);
  suanli_test_init_gtk (&argc, &argv);
  g_test_add ("/profile-page/summary", Fixture, NULL, fixture_set_up, test_summary, fixture_tear_down);
  g_test_add ("/profile-page/recent", Fixture, NULL, fixture_set_up, test_recent, fixture_tear_down);
  g_test_add ("/profile-page/bad-file", Fixture, NULL, fixture_set_up, test_bad_file, fixture_tear_down);
  g_test_add ("/profile-page/zoom-and-pan", Fixture, NULL, fixture_set_up, test_zoom_and_pan, fixture_tear_down);
  g_test_add ("/profile-page/select", Fixture, NULL, fixture_set_up, test_select, fixture_tear_down);
  g_test_add ("/profile-page/spike-visible", Fixture, NULL, fixture_set_up, test_spike_visible, fixture_tear_down);
  g_test_add ("/profile-page/flow-arrows", Fixture, NULL, fixture_set_up, test_flow_arrows, fixture_tear_down);
  g_test_add ("/profile-page/ruler-drag", Fixture, NULL, fixture_set_up, test_ruler_drag, fixture_tear_down);
  g_test_add ("/profile-page/pin", Fixture, NULL, fixture_set_up, test_pin, fixture_tear_down);
  g_test_add ("/profile-page/keyboard", Fixture, NULL, fixture_set_up, test_keyboard, fixture_tear_down);
  g_test_add ("/profile-page/flame-graph", Fixture, NULL, fixture_set_up, test_flame_graph, fixture_tear_down);
  g_test_add ("/profile-page/search", Fixture, NULL, fixture_set_up, test_search, fixture_tear_down);
  g_test_add ("/profile-page/layout", Fixture, NULL, fixture_set_up, test_layout, fixture_tear_down);
  g_test_add ("/profile-page/tables", Fixture, NULL, fixture_set_up, test_tables, fixture_tear_down);
  g_test_add ("/profile-page/range", Fixture, NULL, fixture_set_up, test_range, fixture_tear_down);
  g_test_add ("/profile-page/export", Fixture, NULL, fixture_set_up, test_export, fixture_tear_down);
  g_test_add ("/profile-page/against-plan", Fixture, NULL, fixture_set_up, test_against_plan, fixture_tear_down);
  g_test_add ("/profile-page/other-job", Fixture, NULL, fixture_set_up, test_other_job, fixture_tear_down);
  g_test_add ("/profile-page/capture-warnings", Fixture, NULL, fixture_set_up, test_capture_warnings, fixture_tear_down);
  g_test_add ("/profile-page/flame-diff", Fixture, NULL, fixture_set_up, test_flame_diff, fixture_tear_down);
  g_test_add ("/profile-page/ranks", Fixture, NULL, fixture_set_up, test_ranks, fixture_tear_down);
  g_test_add ("/profile-page/live", Fixture, NULL, fixture_set_up, test_live, fixture_tear_down);
  g_test_add ("/profile-page/whatif", Fixture, NULL, fixture_set_up, test_whatif, fixture_tear_down);
  g_test_add ("/profile-page/screenshots", Fixture, NULL, fixture_set_up, test_screenshots, fixture_tear_down);
  status = g_test_run ();
  suanli_inject_control_stop ();
  {
    g_autofree char *autosave = g_build_filename (state, "suanli", "autosave.suanli-plan", NULL);
    g_autofree char *folder = g_build_filename (state, "suanli", NULL);

    g_autofree char *sockets = g_build_filename (runtime, "suanli", NULL);

    g_unlink (autosave);
    g_rmdir (folder);
    g_rmdir (state);
    g_rmdir (sockets);
    g_rmdir (runtime);
  }
  return status;
}
