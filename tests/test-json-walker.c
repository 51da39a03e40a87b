/* test-json-walker.c — the JSON walker on its own: the records it makes and where it stops
 *
 * The importer's differential test (fuzz-replay-chrome-parsers) checks the walk against yajl end to
 * end; these check the walker's own promises: each token recorded with its kind and place, escaped
 * strings marked, every scalar spelled as JSON spells it, and the span and depth checks.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>

#include "suanli-json-walker.h"

/* A walk over "[" @elements "]", as the importer lays a window out: the records count from the
 * first byte after the '['. */
typedef struct
{
  SuanliJsonWalker *walker;
  char             *text;
  const char       *origin;
  SuanliJsonRecords records;
} Walk;

static void
walk_begin (Walk             *walk,
            const char       *elements,
            guint64           max_span,
            int               max_depth)
{
  gsize length = strlen (elements) + 2;
  SuanliJsonChecks checks = { max_span, max_depth };

  walk->walker = suanli_json_walker_new ();
  walk->text = g_malloc0 (length + SUANLI_JSON_PADDING);
  walk->text[0] = '[';
  memcpy (walk->text + 1, elements, length - 2);
  walk->text[length - 1] = ']';
  walk->origin = walk->text + 1;
  walk->records = (SuanliJsonRecords) { 0 };
  g_assert_true (suanli_json_walker_index (walk->walker, walk->text, length, walk->origin, &checks, &walk->records));
}

static void
walk_end (Walk *walk)
{
  suanli_json_walker_free (walk->walker);
  g_free (walk->text);
  g_free (walk->records.items);
}

static SuanliJsonStep
walk_step (Walk  *walk,
           guint *escaped)
{
  const char *after = NULL;
  guint escaped_here = 0;
  SuanliJsonStep step = suanli_json_walker_step (walk->walker, &after, &escaped_here);

  if (escaped != NULL)
    *escaped = escaped_here;
  return step;
}

/* The records' kinds as letters: { } [ ] k(ey) s(tring) n(umber) t f 0(null). */
static char *
kinds (const Walk *walk)
{
  static const char letters[] = "{}[]ksntf0";
  GString *text = g_string_new (NULL);

  for (guint i = 0; i < walk->records.n; i++)
    g_string_append_c (text, letters[walk->records.items[i].kind]);
  return g_string_free (text, FALSE);
}

static char *
record_text (const Walk *walk,
             guint       i)
{
  const SuanliJsonRecord *record = &walk->records.items[i];

  return g_strndup (walk->origin + record->at, record->length);
}

static void
test_records (void)
{
  Walk walk;
  guint escaped = 0;
  g_autofree char *first = NULL, *second = NULL, *ph = NULL, *x = NULL, *ts = NULL, *tab = NULL;

  walk_begin (&walk, "{\"ph\":\"X\", \"ts\": 1.5,\"a\":[true,false,null],\"s\":\"x\\ty\"},\n{\"k\":\"\\u0041\"}",
              G_MAXUINT64, 64);
  g_assert_cmpint (walk_step (&walk, &escaped), ==, SUANLI_JSON_WALKED);
  first = kinds (&walk);
  g_assert_cmpstr (first, ==, "{ksknk[tf0]ks}");
  g_assert_cmpuint (escaped, ==, 1);   /* the \t */
  ph = record_text (&walk, 1);
  x = record_text (&walk, 2);
  ts = record_text (&walk, 4);
  tab = record_text (&walk, 12);
  g_assert_cmpstr (ph, ==, "ph");
  g_assert_cmpstr (x, ==, "X");
  g_assert_cmpstr (ts, ==, "1.5");
  g_assert_cmpstr (tab, ==, "x\\ty");   /* as written, for the importer to decode */
  /* A string ends past its closing quote; a scalar where it ends; a closing bracket nowhere. */
  g_assert_cmpuint (walk.records.items[2].end, ==, strlen ("{\"ph\":\"X\""));
  g_assert_cmpuint (walk.records.items[4].end, ==, walk.records.items[4].at + 3);
  g_assert_cmpuint (walk.records.items[10].end, ==, 0);
  g_assert_false (walk.records.items[2].escaped);
  g_assert_true (walk.records.items[12].escaped);

  g_assert_cmpint (walk_step (&walk, &escaped), ==, SUANLI_JSON_WALKED);
  second = kinds (&walk);   /* the records go on from the last element's */
  g_assert_cmpstr (second, ==, "{ksknk[tf0]ks}{ks}");
  g_assert_cmpuint (escaped, ==, 1);   /* the backslash */
  g_assert_cmpint (walk_step (&walk, NULL), ==, SUANLI_JSON_END);
  walk_end (&walk);
}

/* A control character in a string: simdjson's index refuses the window (yajl then reads it, and
 * says where). */
static void
test_control_character (void)
{
  SuanliJsonWalker *walker = suanli_json_walker_new ();
  SuanliJsonChecks checks = { G_MAXUINT64, 64 };
  SuanliJsonRecords records = { 0 };
  char text[8 + SUANLI_JSON_PADDING] = "[\"a\tb\"]";

  g_assert_false (suanli_json_walker_index (walker, text, strlen (text), text + 1, &checks, &records));
  suanli_json_walker_free (walker);
  g_free (records.items);
}

/* Numbers as JSON writes them walk; anything else a yajl would refuse stops the walk there. */
static void
test_scalars (void)
{
  const char *good[] = { "0", "-0", "12", "1.5", "-0.25E-3", "1e+5", "true", "false", "null",
                         "1682725897226757.250", "12345678", "123456789012345678901234567890.5e123456789" };
  const char *bad[] = { "01", "-", "1.", ".5", "1e", "+1", "tru", "nul", "True", "0x1", "1.5.2", "Infinity", "NaN",
                        "0123456789", "123456789x", "12345678.12345678.1", "1234567890123456e" };

  for (guint i = 0; i < G_N_ELEMENTS (good); i++)
    {
      Walk walk;
      g_autofree char *elements = g_strdup_printf ("%s,2", good[i]);

      walk_begin (&walk, elements, G_MAXUINT64, 64);
      g_assert_cmpint (walk_step (&walk, NULL), ==, SUANLI_JSON_WALKED);
      walk_end (&walk);
    }
  for (guint i = 0; i < G_N_ELEMENTS (bad); i++)
    {
      Walk walk;
      g_autofree char *elements = g_strdup_printf ("1,%s,2", bad[i]);

      g_test_message ("%s", bad[i]);
      walk_begin (&walk, elements, G_MAXUINT64, 64);
      g_assert_cmpint (walk_step (&walk, NULL), ==, SUANLI_JSON_WALKED);
      g_assert_cmpint (walk_step (&walk, NULL), ==, SUANLI_JSON_STOPPED);
      walk_end (&walk);
    }
}

/* The depth counts the objects and arrays open within one element; the span, the bytes from one
 * token's end to the next one's, from the origin for the first. */
static void
test_checks (void)
{
  Walk walk;

  walk_begin (&walk, "[[1]],[[[1]]]", G_MAXUINT64, 2);
  g_assert_cmpint (walk_step (&walk, NULL), ==, SUANLI_JSON_WALKED);
  g_assert_cmpint (walk_step (&walk, NULL), ==, SUANLI_JSON_STOPPED);
  walk_end (&walk);

  /* Past 64, a limit counts as 64. */
  {
    g_autofree char *open = g_strnfill (65, '['), *close = g_strnfill (65, ']');
    g_autofree char *deep = g_strdup_printf ("%s1%s,%s1%s", open + 1, close + 1, open, close);

    walk_begin (&walk, deep, G_MAXUINT64, 1000);
    g_assert_cmpint (walk_step (&walk, NULL), ==, SUANLI_JSON_WALKED);
    g_assert_cmpint (walk_step (&walk, NULL), ==, SUANLI_JSON_STOPPED);
    walk_end (&walk);
  }

  walk_begin (&walk, "1,      2,           3", 10, 64);
  g_assert_cmpint (walk_step (&walk, NULL), ==, SUANLI_JSON_WALKED);
  g_assert_cmpint (walk_step (&walk, NULL), ==, SUANLI_JSON_WALKED);    /* 8 bytes on */
  g_assert_cmpint (walk_step (&walk, NULL), ==, SUANLI_JSON_STOPPED);   /* 13 */
  walk_end (&walk);

  walk_begin (&walk, "          1", 10, 64);
  g_assert_cmpint (walk_step (&walk, NULL), ==, SUANLI_JSON_STOPPED);   /* 11 from the origin */
  walk_end (&walk);
}

/* An element is whole only when a token follows it: one cut short, or closed by the window's own
 * ']', is not walked. */
static void
test_cut_short (void)
{
  Walk walk;

  walk_begin (&walk, "{\"a\":1},{\"b\":", G_MAXUINT64, 64);
  g_assert_cmpint (walk_step (&walk, NULL), ==, SUANLI_JSON_WALKED);
  g_assert_cmpint (walk_step (&walk, NULL), ==, SUANLI_JSON_STOPPED);
  walk_end (&walk);

  walk_begin (&walk, "[1,2", G_MAXUINT64, 64);
  g_assert_cmpint (walk_step (&walk, NULL), ==, SUANLI_JSON_STOPPED);
  walk_end (&walk);

  walk_begin (&walk, "{\"a\" 1}", G_MAXUINT64, 64);
  g_assert_cmpint (walk_step (&walk, NULL), ==, SUANLI_JSON_STOPPED);
  walk_end (&walk);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/json-walker/records", test_records);
  g_test_add_func ("/json-walker/control-character", test_control_character);
  g_test_add_func ("/json-walker/scalars", test_scalars);
  g_test_add_func ("/json-walker/checks", test_checks);
  g_test_add_func ("/json-walker/cut-short", test_cut_short);
  return g_test_run ();
}
