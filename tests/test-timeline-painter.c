/* test-timeline-painter.c — the timeline painter's search: counting and stepping through matches
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <locale.h>
#include <glib/gi18n.h>

#include "suanli-timeline-painter.h"
#include "suanli-trace-names.h"

static void
add_slice (SuanliTrack *track,
           SuanliTrace *trace,
           gint64       start,
           gint64       duration,
           const char  *name)
{
  SuanliSlice slice = { start, duration, suanli_trace_intern (trace, name, -1), 0, G_MAXUINT32, 0, 0, 0 };

  g_array_append_val (track->slices, slice);
}

/* Two threads: on the first, "Outer Match" with "inner match" nested at the same start (10), and a
 * match at 50; on the second, a match at 30 and one at 50 (a tie with the first thread's). */
static SuanliTrace *
make_trace (void)
{
  SuanliTrace *trace = suanli_trace_new ();
  SuanliTrack *first = suanli_trace_ensure_track (trace, SUANLI_TRACK_THREAD, 1, 1, 0, NULL);
  SuanliTrack *second;

  add_slice (first, trace, 0, 5, "other");
  add_slice (first, trace, 10, 20, "Outer Match");
  add_slice (first, trace, 10, 5, "inner match");
  add_slice (first, trace, 50, 5, "match at fifty");
  second = suanli_trace_ensure_track (trace, SUANLI_TRACK_THREAD, 1, 2, 0, NULL);
  add_slice (second, trace, 30, 5, "MATCH");
  add_slice (second, trace, 50, 5, "match too");
  add_slice (second, trace, 60, 5, "unrelated");
  suanli_trace_finish (trace);
  return trace;
}

static const char *
name_of (SuanliTrace *trace,
         guint        track,
         guint32      slice)
{
  return suanli_trace_get_string (trace, g_array_index (suanli_trace_get_track (trace, track)->slices, SuanliSlice, slice).name);
}

static void
test_search (void)
{
  g_autoptr(SuanliTrace) trace = make_trace ();
  g_autoptr(SuanliTimelinePainter) painter = suanli_timeline_painter_new (trace);
  guint track;
  guint32 slice;

  /* Case-insensitive; "other" and "unrelated" do not count. */
  g_assert_cmpuint (suanli_timeline_painter_set_search (painter, "match"), ==, 5);

  /* Forward from before everything: the outer slice of the two at 10, then on by start. */
  g_assert_true (suanli_timeline_painter_find_match (painter, -1, TRUE, &track, &slice));
  g_assert_cmpstr (name_of (trace, track, slice), ==, "Outer Match");
  g_assert_true (suanli_timeline_painter_find_match (painter, 10, TRUE, &track, &slice));
  g_assert_cmpstr (name_of (trace, track, slice), ==, "MATCH");
  /* A tie at 50: the first track's. */
  g_assert_true (suanli_timeline_painter_find_match (painter, 30, TRUE, &track, &slice));
  g_assert_cmpstr (name_of (trace, track, slice), ==, "match at fifty");
  g_assert_false (suanli_timeline_painter_find_match (painter, 50, TRUE, &track, &slice));

  /* Backward: the same matches in the other order, the outer one at 10 again. */
  g_assert_true (suanli_timeline_painter_find_match (painter, 60, FALSE, &track, &slice));
  g_assert_cmpstr (name_of (trace, track, slice), ==, "match at fifty");
  g_assert_true (suanli_timeline_painter_find_match (painter, 50, FALSE, &track, &slice));
  g_assert_cmpstr (name_of (trace, track, slice), ==, "MATCH");
  g_assert_true (suanli_timeline_painter_find_match (painter, 30, FALSE, &track, &slice));
  g_assert_cmpstr (name_of (trace, track, slice), ==, "Outer Match");
  g_assert_false (suanli_timeline_painter_find_match (painter, 10, FALSE, &track, &slice));

  /* Another search forgets the first; none at all finds nothing. */
  g_assert_cmpuint (suanli_timeline_painter_set_search (painter, "UNREL"), ==, 1);
  g_assert_cmpuint (suanli_timeline_painter_set_search (painter, ""), ==, 0);
  g_assert_false (suanli_timeline_painter_find_match (painter, -1, TRUE, &track, &slice));
}

/* Zoomed from the whole trace into 300 ns of one kernel: every tick's label differs from the
 * others, down to nanoseconds. */
static void
test_ruler (void)
{
  g_autoptr(SuanliTrace) trace = make_trace ();
  SuanliTrack *track = suanli_trace_get_track (trace, 0);
  g_autoptr(SuanliTimelinePainter) painter = NULL;
  const SuanliTimelineView views[] = { { 0, 1000000000, 0 }, { 250000000, 250000300, 0 }, { 250000000, 250000030, 0 } };
  const char *first_labels[] = { "0 ms", "250.00000 ms", "250.000000 ms" };

  /* A second of trace: its first slice at 0, its last ending at 1 s. */
  add_slice (track, trace, 1000000000 - 5, 5, "last");
  suanli_trace_finish (trace);
  painter = suanli_timeline_painter_new (trace);
  for (guint v = 0; v < G_N_ELEMENTS (views); v++)
    {
      g_auto(GStrv) labels = suanli_timeline_painter_ruler_labels (painter, 1200, &views[v]);
      g_autofree char *joined = g_strjoinv (" | ", labels);

      g_test_message ("%s", joined);
      g_assert_cmpuint (g_strv_length (labels), >=, 3);
      {
        g_auto(GStrv) parts = g_strsplit (labels[0], "\u202f", -1);
        g_autofree char *plain = g_strjoinv (" ", parts);

        g_assert_cmpstr (plain, ==, first_labels[v]);
      }
      for (guint i = 1; labels[i] != NULL; i++)
        g_assert_cmpstr (labels[i], !=, labels[i - 1]);
    }
}

/* The painter's frame of @trace drawn on a transparent image @width wide: what it left alone
 * stays transparent. */
static cairo_surface_t *
draw_frame (SuanliTimelinePainter    *painter,
            int                       width,
            const SuanliTimelineView *view)
{
  cairo_surface_t *surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, width, 200);
  cairo_t *cr = cairo_create (surface);
  SuanliChartStyle style = { FALSE, NULL, 0 };

  suanli_timeline_painter_draw (painter, cr, &style, width, 200, view);
  cairo_destroy (cr);
  cairo_surface_flush (surface);
  return surface;
}

static guint32
pixel (cairo_surface_t *surface,
       int              x,
       int              y)
{
  const guint32 *row = (const guint32 *) (cairo_image_surface_get_data (surface) + y * cairo_image_surface_get_stride (surface));

  return row[x];
}

static gboolean
painted (cairo_surface_t *surface,
         int              x,
         int              y)
{
  return (pixel (surface, x, y) >> 24) != 0;
}

/* The y, on the image, of the middle of @track's first lane. */
static int
lane_middle (SuanliTimelinePainter *painter,
             guint                  track)
{
  double y;

  g_assert_true (suanli_timeline_painter_track_y (painter, track, &y));
  return (int) (SUANLI_TIMELINE_RULER_HEIGHT + y + 2 + SUANLI_TIMELINE_LANE_HEIGHT / 2);
}

/* Zoomed out over a thread busy end to end (a 700 ns slice every microsecond, thousands to a pixel
 * column), every column of its lane is drawn: a column stands at its own pixel even when its
 * longest slice starts in the next one. Widths that do not divide the time evenly included. */
static void
test_zoomed_out_columns (void)
{
  g_autoptr(SuanliTrace) trace = suanli_trace_new ();
  SuanliTrack *track = suanli_trace_ensure_track (trace, SUANLI_TRACK_THREAD, 1, 1, 0, NULL);
  const int widths[] = { 1180, 1177, 1013, 1391 };
  guint all_empty = 0;

  for (gint64 i = 0; i < 1000000; i++)
    add_slice (track, trace, i * 1000, i % 7 == 3 ? 800 : 700, "step");
  suanli_trace_finish (trace);
  for (guint w = 0; w < G_N_ELEMENTS (widths); w++)
    {
      g_autoptr(SuanliTimelinePainter) painter = suanli_timeline_painter_new (trace);
      SuanliTimelineView view = { 0, 1000000000, 0 };
      cairo_surface_t *surface = draw_frame (painter, widths[w], &view);
      int y = lane_middle (painter, 0);
      guint empty = 0;

      for (int x = (int) SUANLI_TIMELINE_GUTTER_WIDTH; x < widths[w] - 1; x++)
        empty += !painted (surface, x, y);
      g_test_message ("width %d: %u empty columns", widths[w], empty);
      all_empty += empty;
      cairo_surface_destroy (surface);
    }
  g_assert_cmpuint (all_empty, ==, 0);
}

/* A queue-length counter that reaches 10 once per pixel column, its first sample in each being 0:
 * every column is drawn to the top of the row, not at the bottom. */
static void
test_counter_largest (void)
{
  g_autoptr(SuanliTrace) trace = suanli_trace_new ();
  SuanliTrack *counter = suanli_trace_ensure_track (trace, SUANLI_TRACK_COUNTER, 1, 1,
                                                    suanli_trace_intern (trace, "queue", -1), NULL);
  g_autoptr(SuanliTimelinePainter) painter = NULL;
  SuanliTimelineView view = { 0, 1000000, 0 };
  cairo_surface_t *surface;
  int top;
  guint low = 0;

  for (gint64 t = 0; t < 1000000; t += 10)
    {
      SuanliSample sample = { t, t % 1000 == 500 ? 10 : 0 };

      g_array_append_val (counter->samples, sample);
    }
  suanli_trace_finish (trace);
  painter = suanli_timeline_painter_new (trace);
  /* 1000 ns to a pixel column. */
  surface = draw_frame (painter, (int) SUANLI_TIMELINE_GUTTER_WIDTH + 1000, &view);
  top = lane_middle (painter, 0) - (int) SUANLI_TIMELINE_LANE_HEIGHT / 2 + 8;
  for (int x = (int) SUANLI_TIMELINE_GUTTER_WIDTH + 1; x < (int) SUANLI_TIMELINE_GUTTER_WIDTH + 999; x++)
    low += !painted (surface, x, top);
  g_test_message ("%u columns below the largest", low);
  g_assert_cmpuint (low, ==, 0);
  cairo_surface_destroy (surface);
}

/* The selected slice's flow comes from a launch scrolled off to the left: its arrow stays right of
 * the track labels, which look as they do with nothing selected. */
static void
test_flow_outside_labels (void)
{
  g_autoptr(SuanliTrace) trace = suanli_trace_new ();
  guint cpu_index, gpu_index;
  SuanliTrack *cpu = suanli_trace_ensure_track (trace, SUANLI_TRACK_THREAD, 1, 1, 0, &cpu_index);
  SuanliTrack *gpu = suanli_trace_ensure_track (trace, SUANLI_TRACK_GPU_STREAM, 2, 7, 0, &gpu_index);
  g_autoptr(SuanliTimelinePainter) painter = NULL;
  SuanliTimelineView view = { 1000, 2000, 0 };
  cairo_surface_t *plain, *selected;
  SuanliFlow flow = { 0, 0, 1, 0, 0 };
  guint differ = 0;

  add_slice (cpu, trace, 0, 10, "cudaLaunchKernel");
  add_slice (gpu, trace, 1500, 100, "gemm");
  flow.from_track = cpu_index, flow.to_track = gpu_index;
  suanli_trace_add_flow (trace, &flow);
  suanli_trace_finish (trace);
  painter = suanli_timeline_painter_new (trace);
  plain = draw_frame (painter, 800, &view);
  suanli_timeline_painter_set_selected (painter, gpu_index, 0);
  selected = draw_frame (painter, 800, &view);
  for (int y = (int) SUANLI_TIMELINE_RULER_HEIGHT; y < 200; y++)
    for (int x = 0; x < (int) SUANLI_TIMELINE_GUTTER_WIDTH; x++)
      differ += pixel (plain, x, y) != pixel (selected, x, y);
  g_assert_cmpuint (differ, ==, 0);
  cairo_surface_destroy (plain);
  cairo_surface_destroy (selected);
}

/* The rows' names Kineto and the analyses write in English read in Chinese; a user's own do not
 * change. */
static void
test_names_translated (void)
{
  const char *localedir = g_getenv ("SUANLI_LOCALEDIR");
  const char *cases[][2] = {
    { "stream 7 ", "流 7" },
    { "Stream 7 queue length", "流 7 队列长度" },
    { "Spans", "区间" },
    { "Device 0", "设备 0" },
    { "GPU 0 memory allocated", "GPU 0 已分配显存" },
    { "CPU memory reserved", "CPU 已预留显存" },
    { "stream of tokens", "stream of tokens" },
    { "Device 0:1 memory allocated", "Device 0:1 memory allocated" },
  };

  if (localedir == NULL)
    {
      g_test_skip ("SUANLI_LOCALEDIR is not set");
      return;
    }
  g_setenv ("LANGUAGE", "zh_CN", TRUE);
  setlocale (LC_ALL, "");
  bindtextdomain (GETTEXT_PACKAGE, localedir);
  bind_textdomain_codeset (GETTEXT_PACKAGE, "UTF-8");
  textdomain (GETTEXT_PACKAGE);
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *shown = suanli_trace_name_for_display (cases[i][0]);

      g_assert_cmpstr (shown, ==, cases[i][1]);
    }
  g_setenv ("LANGUAGE", "en", TRUE);
  setlocale (LC_ALL, "");
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/timeline-painter/search", test_search);
  g_test_add_func ("/timeline-painter/ruler", test_ruler);
  g_test_add_func ("/timeline-painter/zoomed-out-columns", test_zoomed_out_columns);
  g_test_add_func ("/timeline-painter/counter-largest", test_counter_largest);
  g_test_add_func ("/timeline-painter/flow-outside-labels", test_flow_outside_labels);
  g_test_add_func ("/timeline-painter/names-translated", test_names_translated);
  return g_test_run ();
}
