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

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/timeline-painter/search", test_search);
  return g_test_run ();
}
