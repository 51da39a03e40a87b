/* bench-timeline.c — drawing a timeline of 10 million slices
 *
 * A synthetic trace of 10 million slices over 64 CPU tracks (nested four deep, 10 s long) is
 * drawn by SuanliTimelinePainter into a 1920×1080 cairo image, as the timeline widget draws it:
 * fully zoomed out, at 1% and at 0.01% of the range (in the middle). Prints the median frame
 * time of each (aim ≤ 16 ms), and the time to build the painter (the per-track indexes).
 * SUANLI_BENCH_TIMELINE_SLICES changes the count.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <stdlib.h>

#include "suanli-bench.h"
#include "suanli-timeline-painter.h"
#include "suanli-track-index.h"

#define TRACKS   64
#define SPAN_NS  (G_GINT64_CONSTANT (10) * 1000000000)
#define WIDTH    1920
#define HEIGHT   1080
#define FRAMES   9

typedef struct
{
  SuanliTimelinePainter *painter;
  cairo_t               *cr;
  SuanliTimelineView     view;
} Frame;

/* Per track, units of four nested slices (depths 0–3) end to end, with a little jitter. */
static SuanliTrace *
make_trace (guint64 n_slices)
{
  SuanliTrace *trace = suanli_trace_new ();
  SuanliString names[8];
  SuanliString category = suanli_trace_intern (trace, "cpu_op", -1);
  guint64 units = MAX (n_slices / (TRACKS * 4), 1);
  gint64 unit_ns = SPAN_NS / (gint64) units;
  GRand *rand = g_rand_new_with_seed (7);

  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    {
      g_autofree char *name = g_strdup_printf ("aten::op_%u", i);
      names[i] = suanli_trace_intern (trace, name, -1);
    }
  for (guint t = 0; t < TRACKS; t++)
    {
      SuanliTrack *track = suanli_trace_ensure_track (trace, SUANLI_TRACK_THREAD, 1 + t / 8, t, 0, NULL);

      g_array_set_size (track->slices, 0);
      for (guint64 u = 0; u < units; u++)
        {
          gint64 start = (gint64) u * unit_ns;
          gint64 duration = unit_ns - 1 - g_rand_int_range (rand, 0, (gint32) MAX (unit_ns / 4, 1));

          for (guint depth = 0; depth < 4; depth++)
            {
              SuanliSlice slice = { start, MAX (duration, 1), names[(u + depth) % 8], category, G_MAXUINT32, 0, 0, 0 };

              g_array_append_val (track->slices, slice);
              start += duration / 8;
              duration = duration * 3 / 4;
            }
        }
    }
  g_rand_free (rand);
  suanli_trace_finish (trace);
  return trace;
}

static void
draw (gpointer data)
{
  Frame *frame = data;
  SuanliChartStyle style = { FALSE, NULL, 9 };

  cairo_set_source_rgb (frame->cr, 1, 1, 1);
  cairo_paint (frame->cr);
  suanli_timeline_painter_draw (frame->painter, frame->cr, &style, WIDTH, HEIGHT, &frame->view);
}

static void
build (gpointer data)
{
  Frame *frame = data;

  g_clear_pointer (&frame->painter, suanli_timeline_painter_free);
}

int
main (int    argc,
      char **argv)
{
  const char *count = g_getenv ("SUANLI_BENCH_TIMELINE_SLICES");
  guint64 n_slices = count != NULL ? g_ascii_strtoull (count, NULL, 10) : 10000000;
  g_autoptr(SuanliTrace) trace = NULL;
  cairo_surface_t *surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, WIDTH, HEIGHT);
  Frame frame = { NULL, cairo_create (surface) };
  static const struct { const char *name; double fraction; } zooms[] = {
    { "timeline frame, fully zoomed out", 1.0 },
    { "timeline frame, 1% of the range", 0.01 },
    { "timeline frame, 0.01% of the range", 0.0001 },
  };
  gint64 t0 = g_get_monotonic_time ();

  trace = make_trace (n_slices);
  g_print ("synthetic trace: %" G_GUINT64_FORMAT " slices on %u tracks, made in %.0f ms\n",
           suanli_trace_get_n_slices (trace), suanli_trace_get_n_tracks (trace),
           (g_get_monotonic_time () - t0) / 1000.0);

  {
    /* What the loader's worker does after reading, off the main thread. */
    g_autoptr(SuanliBench) bench = suanli_bench_new ("track indexes (on the loader's worker)", "ms");

    for (guint i = 0; i < 3; i++)
      {
        gint64 start = g_get_monotonic_time ();

        for (guint t = 0; t < suanli_trace_get_n_tracks (trace); t++)
          suanli_track_index_free (suanli_track_index_new (suanli_trace_get_track (trace, t)));
        suanli_bench_add (bench, (g_get_monotonic_time () - start) / 1000.0);
      }
    suanli_bench_report (bench);
  }
  suanli_trace_index_tracks (trace);
  {
    /* What is left for the main thread when the trace arrives. */
    g_autoptr(SuanliBench) bench = suanli_bench_new ("painter set-up (main thread)", "ms");

    for (guint i = 0; i < 3; i++)
      {
        gint64 start = g_get_monotonic_time ();

        build (&frame);
        frame.painter = suanli_timeline_painter_new (trace);
        suanli_bench_add (bench, (g_get_monotonic_time () - start) / 1000.0);
      }
    suanli_bench_report (bench);
  }

  for (guint z = 0; z < G_N_ELEMENTS (zooms); z++)
    {
      g_autoptr(SuanliBench) bench = suanli_bench_new (zooms[z].name, "ms");
      gint64 span = (gint64) ((double) SPAN_NS * zooms[z].fraction);

      frame.view.from = SPAN_NS / 2 - span / 2;
      frame.view.to = frame.view.from + span;
      frame.view.scroll_y = 0;
      suanli_bench_time (bench, FRAMES, draw, &frame);
      suanli_bench_report (bench);
    }
  {
    /* Ctrl+F: counting the matches of a name that one slice in eight has, then Enter (the next
     * match after the middle of the trace), on the main thread. */
    g_autoptr(SuanliBench) counting = suanli_bench_new ("search, count the matches (1 slice in 8)", "ms");
    g_autoptr(SuanliBench) next = suanli_bench_new ("search, next match after the middle", "ms");
    guint64 matches = 0;

    for (guint i = 0; i < FRAMES; i++)
      {
        gint64 start = g_get_monotonic_time ();
        guint track;
        guint32 slice;

        matches = suanli_timeline_painter_set_search (frame.painter, i % 2 ? "OP_3" : "op_3");
        suanli_bench_add (counting, (g_get_monotonic_time () - start) / 1000.0);
        start = g_get_monotonic_time ();
        if (!suanli_timeline_painter_find_match (frame.painter, SPAN_NS / 2, TRUE, &track, &slice))
          g_error ("no match after the middle");
        suanli_bench_add (next, (g_get_monotonic_time () - start) / 1000.0);
      }
    g_print ("%" G_GUINT64_FORMAT " matches\n", matches);
    suanli_bench_report (counting);
    suanli_bench_report (next);
  }
  if (g_getenv ("SUANLI_BENCH_TIMELINE_PNG") != NULL)
    cairo_surface_write_to_png (surface, g_getenv ("SUANLI_BENCH_TIMELINE_PNG"));

  build (&frame);
  cairo_destroy (frame.cr);
  cairo_surface_destroy (surface);
  return EXIT_SUCCESS;
}
