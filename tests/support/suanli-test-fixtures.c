/* suanli-test-fixtures.c — the real Kineto traces the repository carries in tests/data/kineto
 *
 * They are part of every checkout (tests/data/kineto/README.md says where they come from), so a
 * test that reads them never skips: a missing one is a broken checkout, and the test says so and
 * fails. meson hands the folder over in SUANLI_FIXTURES_DIR.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "suanli-test-fixtures.h"

/* The folder of the real traces; the test fails when it is not there. */
const char *
suanli_test_fixtures_dir (void)
{
  const char *directory = g_getenv ("SUANLI_FIXTURES_DIR");

  if (directory == NULL || !g_file_test (directory, G_FILE_TEST_IS_DIR))
    g_error ("the real Kineto traces are missing: SUANLI_FIXTURES_DIR (%s) should name tests/data/kineto",
             directory != NULL ? directory : "not set");
  return directory;
}

/* The path of the real trace @name; the test fails when it is not there.
 * Returns: (transfer full): the path. */
char *
suanli_test_fixture_path (const char *name)
{
  char *path = g_build_filename (suanli_test_fixtures_dir (), name, NULL);

  if (!g_file_test (path, G_FILE_TEST_IS_REGULAR))
    g_error ("the real Kineto trace %s is missing from tests/data/kineto", name);
  return path;
}
