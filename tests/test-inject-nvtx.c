/* test-inject-nvtx.c — NVTX ranges through the injection library: a job started with `suanli-cli
 * run` hands its NVTX calls to libsuanli-inject.so, which keeps an idle job free of libcupti
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>
#include <glib.h>
#include <gio/gio.h>
#include <glib/gstdio.h>
#include <json-glib/json-glib.h>

static char *runtime_dir;

/* Runs the NVTX stand-in under `suanli-cli run` with @input on its standard input; its answers. */
static char *
run_nvtx_job (const char *input)
{
  g_autoptr(GSubprocessLauncher) launcher =
    g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDIN_PIPE | G_SUBPROCESS_FLAGS_STDOUT_PIPE);
  g_autoptr(GSubprocess) job = NULL;
  g_autoptr(GError) error = NULL;
  char *output = NULL;

  g_subprocess_launcher_setenv (launcher, "SUANLI_QUIET", "1", TRUE);
  g_subprocess_launcher_unsetenv (launcher, "NVTX_INJECTION64_PATH");
  job = g_subprocess_launcher_spawn (launcher, &error, g_getenv ("SUANLI_CLI"), "run", "--",
                                     g_getenv ("SUANLI_NVTX_JOB"), NULL);
  g_assert_no_error (error);
  g_subprocess_communicate_utf8 (job, input, NULL, &output, NULL, &error);
  g_assert_no_error (error);
  g_subprocess_wait_check (job, NULL, &error);
  g_assert_no_error (error);
  g_test_message ("the job answered:\n%s", output);
  return output;
}

/* NVTX reaches the library's own handlers (they count the depth: NVTX without an injection answers
 * -2 to every push), and nothing loads libcupti into a job nobody captures. */
static void
test_idle_job_has_no_cupti (void)
{
  g_autofree char *output = run_nvtx_job ("push step\npush forward\npop\nmark checkpoint\n"
                                          "domain training backward\npop\nmaps\n");

  g_assert_nonnull (strstr (output, "pushed 0\npushed 1\npopped 1\nmarked\ndomain popped 1\npopped 0\n"));
  g_assert_nonnull (strstr (output, "no cupti\n"));
  g_assert_null (strstr (output, "cupti loaded"));
}

/* The ranges of a trace in Chrome's format: name → [start, end] in µs, and the marks' names. */
static void
read_ranges (const char  *json_path,
             GHashTable  *ranges,
             GHashTable  *marks)
{
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) error = NULL;
  JsonNode *root;
  JsonArray *events;

  g_assert_true (json_parser_load_from_file (parser, json_path, &error));
  g_assert_no_error (error);
  root = json_parser_get_root (parser);
  events = JSON_NODE_HOLDS_ARRAY (root) ? json_node_get_array (root)
                                        : json_object_get_array_member (json_node_get_object (root), "traceEvents");
  for (guint i = 0; i < json_array_get_length (events); i++)
    {
      JsonObject *event = json_array_get_object_element (events, i);
      const char *phase = json_object_get_string_member_with_default (event, "ph", "");
      const char *name = json_object_get_string_member_with_default (event, "name", "");

      if (g_str_equal (phase, "X"))
        {
          double *span = g_new (double, 2);

          span[0] = json_object_get_double_member (event, "ts");
          span[1] = span[0] + json_object_get_double_member (event, "dur");
          g_hash_table_insert (ranges, g_strdup (name), span);
        }
      else if (g_str_equal (phase, "i") || g_str_equal (phase, "I"))
        g_hash_table_add (marks, g_strdup (name));
    }
}

/* While a capture runs (here from the job's launch, with the stand-in libcupti behind START), the
 * job's NVTX ranges and marks are in it, nested as they were pushed, in their domain too. */
static void
test_ranges_captured (void)
{
  g_autoptr(GSubprocessLauncher) launcher =
    g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDIN_PIPE | G_SUBPROCESS_FLAGS_STDOUT_PIPE);
  g_autofree char *answers = NULL;
  g_autofree char *capture = g_build_filename (runtime_dir, "nvtx.suanli-capture", NULL);
  g_autofree char *converted = g_build_filename (runtime_dir, "nvtx.json", NULL);
  g_autoptr(GHashTable) ranges = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  g_autoptr(GHashTable) marks = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_autoptr(GSubprocess) record = NULL;
  g_autoptr(GSubprocess) convert = NULL;
  g_autoptr(GError) error = NULL;
  const double *step, *forward;

  g_subprocess_launcher_setenv (launcher, "SUANLI_QUIET", "1", TRUE);
  g_subprocess_launcher_setenv (launcher, "SUANLI_CUPTI_PATH", g_getenv ("FAKE_CUPTI_LIBRARY"), TRUE);
  g_subprocess_launcher_unsetenv (launcher, "NVTX_INJECTION64_PATH");
  record = g_subprocess_launcher_spawn (launcher, &error, g_getenv ("SUANLI_CLI"), "record", "-o", capture, "--",
                                        g_getenv ("SUANLI_NVTX_JOB"), NULL);
  g_assert_no_error (error);
  g_subprocess_communicate_utf8 (record, "push step\npush forward\npop\nmark checkpoint\n"
                                         "domain training backward\npop\n", NULL, &answers, NULL, &error);
  g_assert_no_error (error);
  /* record hands the job its own standard input and output */
  g_assert_nonnull (strstr (answers, "pushed 0\npushed 1\npopped 1\n"));
  g_assert_true (g_subprocess_wait_check (record, NULL, &error));
  convert = g_subprocess_new (G_SUBPROCESS_FLAGS_NONE, &error, g_getenv ("SUANLI_CLI"), "trace", "convert", capture,
                              converted, NULL);
  g_assert_no_error (error);
  g_assert_true (g_subprocess_wait_check (convert, NULL, &error));
  read_ranges (converted, ranges, marks);
  step = g_hash_table_lookup (ranges, "step");
  forward = g_hash_table_lookup (ranges, "forward");
  g_assert_nonnull (step);
  g_assert_nonnull (forward);
  g_assert_nonnull (g_hash_table_lookup (ranges, "backward"));
  g_assert_true (g_hash_table_contains (marks, "checkpoint"));
  /* forward was pushed inside step */
  g_assert_cmpfloat (forward[0], >=, step[0]);
  g_assert_cmpfloat (forward[1], <=, step[1]);
  g_unlink (capture);
  g_unlink (converted);
}

int
main (int    argc,
      char **argv)
{
  int status;

  g_test_init (&argc, &argv, NULL);
  runtime_dir = g_dir_make_tmp ("suanli-nvtx-XXXXXX", NULL);
  g_setenv ("XDG_RUNTIME_DIR", runtime_dir, TRUE);
  g_test_add_func ("/inject-nvtx/idle-job-has-no-cupti", test_idle_job_has_no_cupti);
  g_test_add_func ("/inject-nvtx/ranges-captured", test_ranges_captured);
  status = g_test_run ();
  {
    g_autofree char *sockets = g_build_filename (runtime_dir, "suanli", NULL);

    g_rmdir (sockets);
    g_rmdir (runtime_dir);
    g_free (runtime_dir);
  }
  return status;
}
