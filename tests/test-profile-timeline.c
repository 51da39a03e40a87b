/* test-profile-timeline.c — the profiler page's timeline in a real window under Xvfb: zooming and
 * panning, selecting, pinning, the keyboard, a one-pixel spike, flow arrows, the ruler, and search
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

static void
test_zoom_and_pan (Fixture       *fixture,
                   gconstpointer  data)
{
  gint64 full = suanli_test_profile_span (fixture), from, to, zoomed_from;

  g_assert_cmpint (full, ==, (gint64) SUANLI_TEST_TRACE_SPAN_US * 1000);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (fixture->timeline), "timeline.zoom-in", NULL));
  g_assert_cmpint (suanli_test_profile_span (fixture), <, full);
  g_assert_cmpint (suanli_test_profile_span (fixture), ==, (gint64) (full / 1.5));
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
  g_assert_cmpint (suanli_test_profile_span (fixture), ==, full);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (fixture->timeline), "timeline.reset", NULL));
  g_assert_cmpint (suanli_test_profile_span (fixture), ==, full);
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
  /* The second step's GEMM (440–540 ms): its details name it and what launched it, with the CPU
   * stack the launch was made from. */
  int timeline_height = gtk_widget_get_height (GTK_WIDGET (fixture->timeline));
  double y = suanli_test_profile_find_row (fixture, suanli_test_profile_x_of (fixture, 490000), "ampere_sgemm_128x64_tn");
  const char *details = suanli_profile_page_get_details (fixture->page);
  g_autofree char *launched = g_strdup_printf (_("launched by %s"),
                                               "ProfilerStep#2 › aten::linear › aten::addmm › cudaLaunchKernel");
  gint64 from, to;

  g_assert_cmpfloat (y, >, 0);
  g_test_message ("details: %s", details);
  {
    /* With the precision the whole trace's zoom needs (a pixel is hundreds of µs): 100.0 ms, from
     * 440.0 ms to 540.0 ms, not nine decimals. */
    gint64 resolution = suanli_timeline_get_resolution (fixture->timeline);
    g_autofree char *duration = suanli_format_duration_to (100000000, MIN (resolution, 100000));
    g_autofree char *prefix = g_strdup_printf ("ampere_sgemm_128x64_tn · %s", duration);
    g_autofree char *start = suanli_format_duration_to (440000000, resolution);
    g_autofree char *end = suanli_format_duration_to (540000000, resolution);
    g_autofree char *span_text = g_strdup_printf (_("from %s to %s"), start, end);

    g_test_message ("resolution %" G_GINT64_FORMAT " ns", resolution);
    g_assert_cmpint (resolution, >, 100000);
    g_assert_true (g_str_has_prefix (details, prefix));
    g_assert_nonnull (strstr (details, span_text));
    g_assert_nonnull (strstr (duration, "100.0"));
    g_assert_null (strstr (details, "100.000000"));
    g_assert_null (strstr (details, "440.000000"));
  }
  /* The details panel never covers the selection: once it shows the details, the kernel is still
   * in view where it was clicked. */
  {
    guint track;
    guint32 slice;

    suanli_test_settle (GTK_WIDGET (fixture->window));
    g_test_message ("timeline %d px high before, %d after", timeline_height, gtk_widget_get_height (GTK_WIDGET (fixture->timeline)));
    g_assert_cmpfloat (y, <, gtk_widget_get_height (GTK_WIDGET (fixture->timeline)) - SUANLI_TIMELINE_LANE_HEIGHT / 2.0);
    g_assert_true (suanli_timeline_slice_at (fixture->timeline, suanli_test_profile_x_of (fixture, 490000), y, &track, &slice));
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
  g_assert_cmpfloat (suanli_test_profile_find_row (fixture, suanli_test_profile_x_of (fixture, 480000), "aten::addmm"), >, 0);
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
  double x = suanli_test_profile_x_of (fixture, 490000);
  double y = suanli_test_profile_find_row (fixture, x, "ampere_sgemm_128x64_tn");
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
  double x = suanli_test_profile_x_of (fixture, SUANLI_TEST_TRACE_SPIKE_US);
  double y = suanli_test_profile_find_row (fixture, x, "tiny_spike");
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
  launch_y = suanli_test_profile_find_row (fixture, suanli_test_profile_x_of (fixture, 427000), "cudaLaunchKernel");
  kernel_y = suanli_test_profile_find_row (fixture, suanli_test_profile_x_of (fixture, 490000), "ampere_sgemm_128x64_tn");
  g_assert_cmpfloat (launch_y, >, 0);
  g_assert_cmpfloat (kernel_y, >, launch_y);
  with_arrow = suanli_test_render (GTK_WIDGET (fixture->timeline));
  suanli_timeline_select (fixture->timeline, 0, 0);   /* a slice without flows, out of this view */
  without = suanli_test_render (GTK_WIDGET (fixture->timeline));

  /* Halfway from the launch's start to the kernel's, the arrow crosses the rows between them. */
  middle_x = (suanli_test_profile_x_of (fixture, 425000) + suanli_test_profile_x_of (fixture, 440000)) / 2;
  top = (int) launch_y - SUANLI_TIMELINE_LANE_HEIGHT, bottom = (int) kernel_y + SUANLI_TIMELINE_LANE_HEIGHT;
  g_test_message ("arrow column %.0f: %u pixels changed", middle_x,
                  changed_in_column (with_arrow, without, (int) middle_x, top, bottom));
  g_assert_cmpuint (changed_in_column (with_arrow, without, (int) middle_x, top, bottom), >, 0);
  /* Before the launch, nothing changed: the difference is the arrow's. */
  g_assert_cmpuint (changed_in_column (with_arrow, without, (int) suanli_test_profile_x_of (fixture, 405000), top, bottom), ==, 0);
}

/* A real drag along the ruler (through the X server) selects that stretch of time. */
static void
test_ruler_drag (Fixture       *fixture,
                 gconstpointer  data)
{
  SuanliStatsTable *range = SUANLI_STATS_TABLE (suanli_tables_view_get_range (suanli_test_profile_tables_view (fixture)));
  double x0 = suanli_test_profile_x_of (fixture, 100000), x1 = suanli_test_profile_x_of (fixture, 300000);
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
  suanli_test_await (suanli_test_profile_loaded, fixture);
  g_assert_true (gtk_widget_get_visible (GTK_WIDGET (range)));
}

static void
test_search (Fixture       *fixture,
             gconstpointer  data)
{
  GtkWidget *entry = suanli_test_find_search_entry (GTK_WIDGET (fixture->page), _("Search slices (Ctrl+F)"));
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
    suanli_test_await (suanli_test_profile_loaded, fixture);
    g_assert_null (suanli_test_find_label (GTK_WIDGET (fixture->page), four));
    g_assert_nonnull (suanli_test_find_label (GTK_WIDGET (fixture->page), none));
    g_unlink (path);
  }
}

/* Whether the selected slice is drawn somewhere down the column at @x. */
static gboolean
selection_on_screen (Fixture *fixture,
                     double   x)
{
  guint track, found_track;
  guint32 slice, found_slice;

  g_assert_true (suanli_timeline_get_selected (fixture->timeline, &track, &slice));
  for (double y = SUANLI_TIMELINE_RULER_HEIGHT; y < gtk_widget_get_height (GTK_WIDGET (fixture->timeline)); y += 3)
    if (suanli_timeline_slice_at (fixture->timeline, x, y, &found_track, &found_slice) && found_track == track &&
        found_slice == slice)
      return TRUE;
  return FALSE;
}

/* Enter on a match on a thread far below the rows in view scrolls down to it. */
static void
test_search_scrolls (Fixture       *fixture,
                     gconstpointer  data)
{
  g_autofree char *path = g_build_filename (fixture->directory, "threads.json", NULL);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(GString) json = g_string_new ("[");
  GtkWidget *entry = suanli_test_find_search_entry (GTK_WIDGET (fixture->page), _("Search slices (Ctrl+F)"));
  double x = gtk_widget_get_width (GTK_WIDGET (fixture->timeline)) * 0.75;

  for (int tid = 1; tid <= 80; tid++)
    g_string_append_printf (json, "%s{\"ph\":\"X\",\"name\":\"%s\",\"pid\":1,\"tid\":%d,\"ts\":0,\"dur\":1000}",
                            tid > 1 ? "," : "", tid == 80 ? "needle" : "hay", tid);
  g_string_append (json, "]");
  g_assert_true (g_file_set_contents (path, json->str, -1, NULL));
  suanli_profile_page_open_files (fixture->page, &file, 1);
  suanli_test_await (suanli_test_profile_loaded, fixture);
  suanli_test_wait_for_frame (GTK_WIDGET (fixture->timeline));

  gtk_editable_set_text (GTK_EDITABLE (entry), "needle");
  g_assert_cmpuint (suanli_timeline_search (fixture->timeline, "needle"), ==, 1);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (fixture->timeline), "timeline.next-match", NULL));
  g_assert_cmpstr (selected_name (fixture), ==, "needle");
  g_assert_true (selection_on_screen (fixture, x));
  g_unlink (path);
}

int
main (int   argc,
      char *argv[])
{
  suanli_test_profile_init (&argc, &argv);
  g_test_add ("/profile-page/zoom-and-pan", Fixture, NULL, suanli_test_profile_set_up, test_zoom_and_pan, suanli_test_profile_tear_down);
  g_test_add ("/profile-page/select", Fixture, NULL, suanli_test_profile_set_up, test_select, suanli_test_profile_tear_down);
  g_test_add ("/profile-page/spike-visible", Fixture, NULL, suanli_test_profile_set_up, test_spike_visible, suanli_test_profile_tear_down);
  g_test_add ("/profile-page/flow-arrows", Fixture, NULL, suanli_test_profile_set_up, test_flow_arrows, suanli_test_profile_tear_down);
  g_test_add ("/profile-page/ruler-drag", Fixture, NULL, suanli_test_profile_set_up, test_ruler_drag, suanli_test_profile_tear_down);
  g_test_add ("/profile-page/pin", Fixture, NULL, suanli_test_profile_set_up, test_pin, suanli_test_profile_tear_down);
  g_test_add ("/profile-page/keyboard", Fixture, NULL, suanli_test_profile_set_up, test_keyboard, suanli_test_profile_tear_down);
  g_test_add ("/profile-page/search", Fixture, NULL, suanli_test_profile_set_up, test_search, suanli_test_profile_tear_down);
  g_test_add ("/profile-page/search-scrolls", Fixture, NULL, suanli_test_profile_set_up, test_search_scrolls,
              suanli_test_profile_tear_down);
  return suanli_test_profile_run ();
}
