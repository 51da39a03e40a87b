/* test-timeline-painter.c — the timeline painter's search: counting and stepping through matches
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "suanli-timeline-painter.h"

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

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/timeline-painter/search", test_search);
  g_test_add_func ("/timeline-painter/ruler", test_ruler);
  return g_test_run ();
}
