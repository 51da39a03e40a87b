/* test-flow-starts.c — the table of flow starts waiting for their ends, on its own
 *
 * The importer's outputs on the fixtures and the fuzz corpus check it end to end; this checks the
 * table's own promise under what those rarely reach: thousands of starts waiting at once (it grows
 * while full runs wrap around its end), starts put again under a key that waits (the later one
 * wins), ends with no start, and keys that differ only in their category, name or the last byte
 * of a long id. A GHashTable of the keys as text is the reference.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>

#include "suanli-import-chrome-private.h"

static void
random_key (GRand *rand,
            Event *event)
{
  static const char *const ids[] = { "1", "2", "17", "0x7f3a", "", "a-long-id-that-fills-most-of-the-sixty-four-bytes-0000000000", };
  const char *base = ids[g_rand_int_range (rand, 0, G_N_ELEMENTS (ids))];

  memset (event, 0, sizeof *event);
  event->category = (SuanliString) g_rand_int_range (rand, 1, 4);
  event->name = (SuanliString) g_rand_int_range (rand, 1, 4);
  /* Most keys differ in a number appended; some only in the last byte of the longest id. */
  g_snprintf (event->id, sizeof event->id, "%s%u", base, g_rand_int_range (rand, 0, 3000));
  g_assert_cmpuint (strlen (event->id), <, sizeof event->id);
}

static char *
model_key (const Event *event)
{
  return g_strdup_printf ("%u:%u:%s", event->category, event->name, event->id);
}

static void
test_against_a_hash_table (void)
{
  g_autoptr(GRand) rand = g_rand_new_with_seed (38);
  g_autoptr(GHashTable) model = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  ChromeFlowStarts *starts = chrome_flow_starts_new ();
  guint most = 0;

  for (guint step = 0; step < 400000; step++)
    {
      Event event;
      g_autofree char *key = NULL;
      FlowEnd end = { g_rand_int (rand), FALSE, (gint64) step }, taken = { 0 };
      /* Phases: putting more than taking, then taking more, twice over, so that the table grows,
       * empties and fills again. */
      gboolean put = g_rand_double (rand) < ((step / 100000) % 2 == 0 ? 0.7 : 0.3);

      random_key (rand, &event);
      key = model_key (&event);
      if (put)
        {
          gboolean fresh = !g_hash_table_contains (model, key);

          g_assert_cmpint (chrome_flow_starts_put (starts, &event, &end), ==, fresh);
          g_hash_table_replace (model, g_steal_pointer (&key), g_memdup2 (&end, sizeof end));
        }
      else
        {
          FlowEnd *expected = g_hash_table_lookup (model, key);

          g_assert_cmpint (chrome_flow_starts_take (starts, &event, &taken), ==, expected != NULL);
          if (expected != NULL)
            {
              g_assert_cmpuint (taken.track, ==, expected->track);
              g_assert_cmpint (taken.time, ==, expected->time);
              g_hash_table_remove (model, key);
            }
        }
      most = MAX (most, g_hash_table_size (model));
    }
  /* Every start left is still there, and taking it empties the table. */
  {
    GHashTableIter iter;
    gpointer key, value;

    g_hash_table_iter_init (&iter, model);
    while (g_hash_table_iter_next (&iter, &key, &value))
      {
        Event event = { 0 };
        FlowEnd taken;
        char **parts = g_strsplit (key, ":", 3);

        event.category = (SuanliString) g_ascii_strtoull (parts[0], NULL, 10);
        event.name = (SuanliString) g_ascii_strtoull (parts[1], NULL, 10);
        g_strlcpy (event.id, parts[2], sizeof event.id);
        g_strfreev (parts);
        g_assert_true (chrome_flow_starts_take (starts, &event, &taken));
        g_assert_cmpint (taken.time, ==, ((FlowEnd *) value)->time);
        g_assert_false (chrome_flow_starts_take (starts, &event, &taken));
      }
  }
  g_assert_cmpuint (most, >, 10000);
  chrome_flow_starts_free (starts);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/flow-starts/against-a-hash-table", test_against_a_hash_table);
  return g_test_run ();
}
