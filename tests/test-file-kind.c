/* test-file-kind.c — what kind of file the app is given: plan, catalog or trace, by its bytes
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>
#include <glib/gstdio.h>

#include "suanli-file-kind.h"

static GFile *
write_file (const char *directory,
            const char *name,
            const char *contents)
{
  g_autofree char *path = g_build_filename (directory, name, NULL);

  g_assert_true (g_file_set_contents (path, contents, -1, NULL));
  return g_file_new_for_path (path);
}

static void
assert_kind (const char        *directory,
             const char        *name,
             const char        *contents,
             SuanliFileKind     expected,
             SuanliTraceFormat  expected_format)
{
  g_autoptr(GFile) file = write_file (directory, name, contents);
  g_autoptr(GError) error = NULL;
  SuanliTraceFormat format = 99;

  g_assert_cmpint (suanli_file_kind_detect (file, &format, NULL, &error), ==, expected);
  g_assert_no_error (error);
  g_assert_cmpint (format, ==, expected_format);
  g_file_delete (file, NULL, NULL);
}

static void
test_file_kinds (void)
{
  g_autofree char *directory = g_dir_make_tmp ("suanli-kinds-XXXXXX", NULL);
  g_autoptr(GFile) missing = NULL;
  g_autoptr(GError) error = NULL;

  assert_kind (directory, "a.suanli-plan", "not even JSON", SUANLI_FILE_KIND_PLAN, SUANLI_TRACE_FORMAT_UNKNOWN);
  assert_kind (directory, "plan.json", "{ \"schema\" :\n \"suanli-plan/1\", \"name\": \"x\" }",
               SUANLI_FILE_KIND_PLAN, SUANLI_TRACE_FORMAT_UNKNOWN);
  assert_kind (directory, "mine.json", "{\"schema\":\"suanli-catalog/1\",\"items\":[]}",
               SUANLI_FILE_KIND_CATALOG, SUANLI_TRACE_FORMAT_UNKNOWN);
  /* A "schema" key that is not ours, or is only a prefix of ours, is not a plan. */
  assert_kind (directory, "other.json", "{\"schema\": \"suanli-pl\"}", SUANLI_FILE_KIND_UNKNOWN,
               SUANLI_TRACE_FORMAT_UNKNOWN);
  assert_kind (directory, "trace.json", "{\"traceEvents\": []}", SUANLI_FILE_KIND_TRACE,
               SUANLI_TRACE_FORMAT_CHROME_JSON);
  assert_kind (directory, "perf.folded", "main;work 10\n", SUANLI_FILE_KIND_TRACE, SUANLI_TRACE_FORMAT_FOLDED);
  assert_kind (directory, "empty", "", SUANLI_FILE_KIND_UNKNOWN, SUANLI_TRACE_FORMAT_UNKNOWN);

  missing = g_file_new_build_filename (directory, "missing.json", NULL);
  suanli_file_kind_detect (missing, NULL, NULL, &error);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND);

  g_assert_cmpint (g_rmdir (directory), ==, 0);
}

int
main (int argc, char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/file-kind/detect", test_file_kinds);

  return g_test_run ();
}
