/* replay.c — runs every file of a saved fuzzing corpus through a fuzz target, without libFuzzer
 *
 * Each argument is a file or a folder of files. Prints a TAP line per file, so that meson (and
 * the sanitizer build in CI) shows which input failed.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <stdint.h>
#include <stdio.h>
#include <glib.h>

int LLVMFuzzerTestOneInput (const uint8_t *data,
                            size_t         size);

static guint tested;

static void
replay_file (const char *path)
{
  g_autofree char *contents = NULL;
  g_autoptr(GError) error = NULL;
  gsize length = 0;

  if (!g_file_get_contents (path, &contents, &length, &error))
    g_error ("%s", error->message);
  LLVMFuzzerTestOneInput ((const uint8_t *) contents, length);
  printf ("ok %u %s (%" G_GSIZE_FORMAT " bytes)\n", ++tested, path, length);
}

int
main (int   argc,
      char *argv[])
{
  for (int i = 1; i < argc; i++)
    {
      g_autoptr(GDir) dir = NULL;
      g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
      const char *name;

      if (!g_file_test (argv[i], G_FILE_TEST_IS_DIR))
        {
          replay_file (argv[i]);
          continue;
        }
      dir = g_dir_open (argv[i], 0, NULL);
      while ((name = g_dir_read_name (dir)) != NULL)
        g_ptr_array_add (names, g_build_filename (argv[i], name, NULL));
      g_ptr_array_sort (names, (GCompareFunc) g_strcmp0);   /* same order on every machine */
      for (guint n = 0; n < names->len; n++)
        replay_file (g_ptr_array_index (names, n));
    }
  if (tested == 0)
    {
      printf ("not ok 1 no corpus files found\n1..1\n");
      return 1;
    }
  printf ("1..%u\n", tested);
  return 0;
}
