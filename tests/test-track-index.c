/* test-track-index.c — drawing a track at any zoom: whole slices, the longest per column, clicks
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "suanli-track-index.h"

#define N_TINY 10000
#define SPIKE  4321

typedef struct
{
  guint    visits;
  guint    merged;
  guint32  last_index;
  gboolean spike_seen;
  gint64   last_start;
  gboolean ordered;
} Visits;

static void
count_visit (guint32            slice_index,
             const SuanliSlice *slice,
             gboolean           merged,
             gint64             bucket_start,
             gpointer           data)
{
  Visits *visits = data;

  visits->visits++;
  visits->merged += merged;
  visits->spike_seen |= slice->duration == 9;
  visits->ordered &= slice->start >= visits->last_start;
  visits->last_start = slice->start;
  visits->last_index = slice_index;
}

/* depth 0: one long slice [0, 1000) then N_TINY slices of 1 ns every 10 ns from 2000, one of them
 * (SPIKE) 9 ns long; depth 1: one slice inside the long one. */
static SuanliTrace *
make_trace (SuanliTrack **track_out)
{
  SuanliTrace *trace = suanli_trace_new ();
  SuanliTrack *track = suanli_trace_ensure_track (trace, SUANLI_TRACK_THREAD, 1, 1, 0, NULL);
  SuanliString name = suanli_trace_intern (trace, "s", -1);
  SuanliSlice slice = { 0, 1000, name, 0, G_MAXUINT32, 0, 0, 0 };

  g_array_append_val (track->slices, slice);
  slice.start = 100, slice.duration = 50;
  g_array_append_val (track->slices, slice);
  for (guint i = 0; i < N_TINY; i++)
    {
      slice.start = 2000 + 10 * (gint64) i;
      slice.duration = i == SPIKE ? 9 : 1;
      g_array_append_val (track->slices, slice);
    }
  suanli_trace_finish (trace);
  *track_out = track;
  return trace;
}

static void
test_visit (void)
{
  SuanliTrack *track;
  g_autoptr(SuanliTrace) trace = make_trace (&track);
  g_autoptr(SuanliTrackIndex) index = suanli_track_index_new (track);
  Visits all = { 0, 0, 0, FALSE, G_MININT64, TRUE };
  Visits zoomed_out = { 0, 0, 0, FALSE, G_MININT64, TRUE };
  Visits window = { 0, 0, 0, FALSE, G_MININT64, TRUE };

  g_assert_cmpuint (suanli_trace_get_n_tracks (trace), ==, 1);
  g_assert_cmpuint (suanli_track_index_n_depths (index), ==, 2);

  /* At 1 ns per column every slice shows on its own. */
  suanli_track_index_visit (index, 0, 0, 200000, 1, count_visit, &all);
  g_assert_cmpuint (all.visits, ==, N_TINY + 1);
  g_assert_cmpuint (all.merged, ==, 0);
  g_assert_true (all.ordered);

  /* At 1000 ns per column: the long slice, then one per column of 100 tiny ones, and the column
   * holding the spike shows the spike. */
  suanli_track_index_visit (index, 0, 0, 200000, 1000, count_visit, &zoomed_out);
  g_assert_cmpuint (zoomed_out.visits, ==, 1 + N_TINY / 100);
  g_assert_cmpuint (zoomed_out.merged, ==, N_TINY / 100);
  g_assert_true (zoomed_out.spike_seen);
  g_assert_true (zoomed_out.ordered);

  /* A window from the middle of the long slice: it is still drawn (it reaches into the window). */
  suanli_track_index_visit (index, 0, 500, 2005, 1, count_visit, &window);
  g_assert_cmpuint (window.visits, ==, 2);
  suanli_track_index_visit (index, 1, 0, 200000, 1, count_visit, &window);
  g_assert_cmpuint (window.visits, ==, 3);
  g_assert_cmpuint (window.last_index, ==, 1);
}

static void
test_find (void)
{
  SuanliTrack *track;
  g_autoptr(SuanliTrace) trace = make_trace (&track);
  g_autoptr(SuanliTrackIndex) index = suanli_track_index_new (track);
  guint32 found = G_MAXUINT32;

  g_assert_cmpuint (suanli_trace_get_n_slices (trace), ==, N_TINY + 2);
  g_assert_true (suanli_track_index_find (index, 0, 500, 0, &found));
  g_assert_cmpuint (found, ==, 0);
  g_assert_true (suanli_track_index_find (index, 1, 120, 0, &found));
  g_assert_cmpuint (found, ==, 1);
  /* Between the long slice and the first tiny one: nothing, unless the slack reaches one. */
  g_assert_false (suanli_track_index_find (index, 0, 1500, 0, &found));
  g_assert_true (suanli_track_index_find (index, 0, 1995, 6, &found));
  g_assert_cmpuint (found, ==, 2);
  /* Inside the tiny ones: the nearest. */
  g_assert_true (suanli_track_index_find (index, 0, 2000 + 10 * 50 + 3, 4, &found));
  g_assert_cmpuint (found, ==, 2 + 50);
  g_assert_false (suanli_track_index_find (index, 2, 0, 0, &found));
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/track-index/visit", test_visit);
  g_test_add_func ("/track-index/find", test_find);
  return g_test_run ();
}
