/* bench-flame.c — a flame graph of a million nodes
 *
 * Folded stacks of 32 × 32 × 32 × 32 distinct paths (1.08 million nodes with their parents) are
 * read as a trace, aggregated into a SuanliFlame, laid out by SuanliFlamePainter (left-heavy) and
 * drawn into a 1920×1080 cairo image, whole and zoomed into one frame of the first level.
 * Prints the median layout time (aim ≤ 200 ms) and frame times (aim ≤ 16 ms).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <stdlib.h>

#include "suanli-bench.h"
#include "suanli-flame-painter.h"
#include "suanli-import-folded.h"

#define FAN     32
#define WIDTH   1920
#define HEIGHT  1080

typedef struct
{
  SuanliFlame        *flame;
  SuanliFlamePainter *painter;
  cairo_t            *cr;
} Run;

static void
lay_out (gpointer data)
{
  Run *run = data;

  g_clear_pointer (&run->painter, suanli_flame_painter_free);
  run->painter = suanli_flame_painter_new (run->flame, FALSE);
}

static void
draw (gpointer data)
{
  Run *run = data;
  SuanliChartStyle style = { FALSE, NULL, 9 };

  cairo_set_source_rgb (run->cr, 1, 1, 1);
  cairo_paint (run->cr);
  suanli_flame_painter_draw (run->painter, run->cr, &style, WIDTH, HEIGHT);
}

int
main (int    argc,
      char **argv)
{
  g_autoptr(GString) folded = g_string_new (NULL);
  g_autoptr(SuanliTrace) trace = suanli_trace_new ();
  g_autoptr(GInputStream) stream = NULL;
  g_autoptr(GError) error = NULL;
  cairo_surface_t *surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, WIDTH, HEIGHT);
  Run run = { NULL, NULL, cairo_create (surface) };
  SuanliImportStats stats = { 0 };
  gint64 start;

  for (guint a = 0; a < FAN; a++)
    for (guint b = 0; b < FAN; b++)
      for (guint c = 0; c < FAN; c++)
        for (guint d = 0; d < FAN; d++)
          g_string_append_printf (folded, "main;module_%u;layer_%u_%u;op_%u_%u %u\n", a, b, a, c, d, 1 + (a * 7 + d) % 13);
  stream = g_memory_input_stream_new_from_data (folded->str, (gssize) folded->len, NULL);
  start = g_get_monotonic_time ();
  if (!suanli_import_folded (trace, stream, "bench.folded", &stats, NULL, &error))
    g_error ("%s", error->message);
  g_print ("folded stacks: %.1f MB, %" G_GUINT64_FORMAT " stacks read in %.0f ms\n", folded->len / 1e6, stats.events,
           (g_get_monotonic_time () - start) / 1000.0);
  start = g_get_monotonic_time ();
  run.flame = suanli_flame_new (trace, SUANLI_FLAME_CPU, G_MININT64, G_MAXINT64);
  g_print ("flame: %u nodes, aggregated in %.0f ms\n", suanli_flame_get_n_nodes (run.flame),
           (g_get_monotonic_time () - start) / 1000.0);

  {
    g_autoptr(SuanliBench) layout = suanli_bench_new ("flame graph layout (left-heavy)", "ms");
    g_autoptr(SuanliBench) whole = suanli_bench_new ("flame graph frame, whole", "ms");
    g_autoptr(SuanliBench) zoomed = suanli_bench_new ("flame graph frame, zoomed into one module", "ms");

    suanli_bench_time (layout, 5, lay_out, &run);
    suanli_bench_report (layout);
    suanli_bench_time (whole, 9, draw, &run);
    suanli_bench_report (whole);
    /* The first child of "main": one of the 32 modules. */
    suanli_flame_painter_set_focus (run.painter, suanli_flame_get_node (run.flame,
                                                                        suanli_flame_get_node (run.flame, 0)->first_child)->first_child);
    suanli_bench_time (zoomed, 9, draw, &run);
    suanli_bench_report (zoomed);
  }
  if (g_getenv ("SUANLI_BENCH_FLAME_PNG") != NULL)
    cairo_surface_write_to_png (surface, g_getenv ("SUANLI_BENCH_FLAME_PNG"));

  g_clear_pointer (&run.painter, suanli_flame_painter_free);
  g_clear_object (&run.flame);
  suanli_import_stats_clear (&stats);
  cairo_destroy (run.cr);
  cairo_surface_destroy (surface);
  return EXIT_SUCCESS;
}
