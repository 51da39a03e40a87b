/* test-trace-folded.c — the importer of folded stacks (Brendan Gregg's format), rule by rule
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>

#include "suanli-import.h"
#include "suanli-import-folded.h"
#include "suanli-test-import.h"
#include "suanli-test-samples.h"

static void
assert_slice (SuanliTrace *trace,
              SuanliTrack *track,
              guint        index,
              const char  *name,
              gint64       start,
              gint64       duration,
              guint        depth)
{
  SuanliSlice *slice = suanli_test_slice_at (track, index);

  g_assert_cmpstr (suanli_trace_get_string (trace, slice->name), ==, name);
  g_assert_cmpint (slice->start, ==, start);
  g_assert_cmpint (slice->duration, ==, duration);
  g_assert_cmpuint (slice->depth, ==, depth);
}

static void
test_folded_layout (void)
{
  /* Stacks laid end to end, a count wide, sharing frames while their prefixes match. */
  g_autoptr(SuanliTestImport) imported = suanli_test_import_folded (suanli_test_folded_sample, sizeof suanli_test_folded_sample - 1);
  SuanliTrack *track;

  g_assert_no_error (imported->error);
  g_assert_true (imported->ok);
  g_assert_cmpstr (suanli_trace_get_metadata (imported->trace, "unit"), ==, "samples");
  g_assert_cmpuint (suanli_trace_get_n_tracks (imported->trace), ==, 1);
  track = suanli_trace_get_track (imported->trace, 0);
  g_assert_cmpuint (track->slices->len, ==, 6);
  assert_slice (imported->trace, track, 0, "main", 0, 200, 0);
  assert_slice (imported->trace, track, 1, "parse", 0, 150, 1);
  assert_slice (imported->trace, track, 2, "lex", 0, 120, 2);
  assert_slice (imported->trace, track, 3, "tokens", 120, 30, 2);
  assert_slice (imported->trace, track, 4, "eval", 150, 50, 1);
  assert_slice (imported->trace, track, 5, "other_[k]", 200, 7, 0);
  g_assert_cmpuint (imported->stats.events, ==, 5);
  g_assert_true (suanli_test_has_warning (imported->trace, "test.folded: 1 line is not a stack and a count, ignored (line 4)"));
}

static void
test_folded_differential (void)
{
  /* Two count columns: "before" and "after", a group each. */
  g_autoptr(SuanliTestImport) imported = suanli_test_import_folded ("a;b 3 5\na;c 1 0\nd 0 2\n", 22);
  SuanliTrack *before, *after;

  g_assert_true (imported->ok);
  g_assert_cmpuint (suanli_trace_get_n_groups (imported->trace), ==, 2);
  g_assert_cmpstr (suanli_trace_get_string (imported->trace, suanli_trace_get_group (imported->trace, 1)->name), ==,
                   "test.folded (after)");
  before = suanli_trace_get_track (imported->trace, 0);
  after = suanli_trace_get_track (imported->trace, 1);
  g_assert_cmpuint (before->group, ==, 0);
  g_assert_cmpuint (after->group, ==, 1);
  assert_slice (imported->trace, before, 0, "a", 0, 4, 0);
  assert_slice (imported->trace, before, 2, "c", 3, 1, 1);
  assert_slice (imported->trace, after, 0, "a", 0, 5, 0);
  assert_slice (imported->trace, after, 2, "d", 5, 2, 0);
  g_assert_cmpuint (after->slices->len, ==, 3);
}

static void
test_folded_utf16 (void)
{
  /* "a;é 7\n" in UTF-16 with a byte-order mark, little- and big-endian. */
  static const guint8 le[] = { 0xff, 0xfe, 'a', 0, ';', 0, 0xe9, 0, ' ', 0, '7', 0, '\n', 0 };
  static const guint8 be[] = { 0xfe, 0xff, 0, 'a', 0, ';', 0, 0xe9, 0, ' ', 0, '7', 0, '\n' };
  const guint8 *forms[] = { le, be };

  for (guint i = 0; i < 2; i++)
    {
      g_autoptr(SuanliTestImport) imported = suanli_test_import_folded ((const char *) forms[i], sizeof le);
      SuanliTrack *track;

      g_assert_no_error (imported->error);
      track = suanli_trace_get_track (imported->trace, 0);
      assert_slice (imported->trace, track, 1, "é", 0, 7, 1);
    }

  /* A lone surrogate stops the decoding: the stacks before it are kept, with a warning. */
  {
    static const guint8 broken[] = { 0xff, 0xfe, 'a', 0, ';', 0, 'b', 0, ' ', 0, '3', 0, '\n', 0,
                                     0x00, 0xd8, 'x', 0, ' ', 0, '1', 0, '\n', 0 };
    g_autoptr(SuanliTestImport) imported = suanli_test_import_folded ((const char *) broken, sizeof broken);

    g_assert_no_error (imported->error);
    g_assert_true (imported->ok);
    assert_slice (imported->trace, suanli_trace_get_track (imported->trace, 0), 1, "b", 0, 3, 1);
    g_assert_true (suanli_test_has_warning (imported->trace, "where reading failed"));
  }
}

static void
test_folded_deep_and_bad (void)
{
  /* 300 frames: slices keep 8-bit depths, so the last ones fold into one frame that says so. */
  g_autoptr(GString) deep = g_string_new (NULL);
  g_autoptr(SuanliTestImport) imported = NULL;
  SuanliTrack *track;

  for (guint i = 0; i < 300; i++)
    g_string_append_printf (deep, "%sf%u", i == 0 ? "" : ";", i);
  g_string_append (deep, " 9\n");
  imported = suanli_test_import_folded (deep->str, deep->len);
  g_assert_true (imported->ok);
  track = suanli_trace_get_track (imported->trace, 0);
  g_assert_cmpuint (track->slices->len, ==, 255);
  g_assert_cmpuint (track->max_depth, ==, 254);
  g_assert_cmpstr (suanli_test_slice_name (imported->trace, track, 254), ==, "… 46 more frames");

  /* Lines that look like stacks at first and then are not: nothing valid is an error that counts them. */
  {
    g_autoptr(SuanliTestImport) bad = suanli_test_import_folded ("a;b 1\n", 6);
    g_assert_true (bad->ok);
  }
  {
    g_autoptr(SuanliTestImport) bad = suanli_test_import_folded ("a;b 1x\na;b\n", 12);
    g_assert_false (bad->ok);
  }
}

static void
test_folded_every_prefix (void)
{
  suanli_test_import_every_prefix (suanli_import_stream, "test.folded", suanli_test_folded_sample,
                                   sizeof suanli_test_folded_sample - 1, 6);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/trace/folded/layout", test_folded_layout);
  g_test_add_func ("/trace/folded/differential", test_folded_differential);
  g_test_add_func ("/trace/folded/utf16", test_folded_utf16);
  g_test_add_func ("/trace/folded/deep-and-bad", test_folded_deep_and_bad);
  g_test_add_func ("/trace/folded/every-prefix", test_folded_every_prefix);
  return g_test_run ();
}
