/* test-count-lines.c — the importer's newline count against a byte-by-byte one
 *
 * Lines are only seen in errors ("at line 41,207"), so a miscount would go unnoticed until a user
 * looks for the line named. The count reads sixteen bytes at a time and sums its columns every
 * 255 blocks; these buffers reach each of its edges: every length from 0 to 80 at every offset
 * from an aligned start, runs of newlines long enough to fill a column's byte (255 blocks and more),
 * and random text with newlines rare, common and everywhere.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>

#include "suanli-import-chrome-private.h"

static guint64
count_bytewise (const guchar *buffer,
                gsize         length)
{
  guint64 lines = 0;

  for (gsize i = 0; i < length; i++)
    lines += buffer[i] == '\n';
  return lines;
}

static void
test_short_buffers (void)
{
  guchar buffer[128];

  for (gsize i = 0; i < sizeof buffer; i++)
    buffer[i] = i % 3 == 0 ? '\n' : 'x';
  for (gsize offset = 0; offset < 16; offset++)
    for (gsize length = 0; length <= 80; length++)
      g_assert_cmpuint (chrome_count_lines (buffer + offset, length), ==, count_bytewise (buffer + offset, length));
}

static void
test_all_newlines (void)
{
  /* 255 blocks fill a column's byte; one more block, or a byte more, must carry on counting. */
  gsize sizes[] = { 255 * 16 - 1, 255 * 16, 255 * 16 + 1, 256 * 16, 3 * 255 * 16 + 7, 100000 };

  for (guint s = 0; s < G_N_ELEMENTS (sizes); s++)
    {
      guchar *buffer = g_malloc (sizes[s]);

      memset (buffer, '\n', sizes[s]);
      g_assert_cmpuint (chrome_count_lines (buffer, sizes[s]), ==, sizes[s]);
      g_free (buffer);
    }
}

static void
test_random_text (void)
{
  GRand *rand = g_rand_new_with_seed (7);
  const guint densities[] = { 1, 30, 250, 100000 };   /* a newline in so many bytes, on average */

  for (guint d = 0; d < G_N_ELEMENTS (densities); d++)
    for (guint round = 0; round < 20; round++)
      {
        gsize length = (gsize) g_rand_int_range (rand, 0, 20000);
        guchar *buffer = g_malloc (length + 1);

        for (gsize i = 0; i < length; i++)
          buffer[i] = g_rand_int_range (rand, 0, (gint32) densities[d]) == 0 ? '\n' : (guchar) g_rand_int_range (rand, 0, 256);
        g_assert_cmpuint (chrome_count_lines (buffer, length), ==, count_bytewise (buffer, length));
        g_free (buffer);
      }
  g_rand_free (rand);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/count-lines/short-buffers", test_short_buffers);
  g_test_add_func ("/count-lines/all-newlines", test_all_newlines);
  g_test_add_func ("/count-lines/random-text", test_random_text);
  return g_test_run ();
}
