/* test-cli.c — suanli-cli as a user runs it: its output, its diagnostics and its exit codes
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>
#include <glib/gstdio.h>
#include <gio/gio.h>
#include <json-glib/json-glib.h>

#include "suanli-test-process.h"

typedef SuanliTestRun Run;
G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (Run, suanli_test_run_clear)

#define run_cli suanli_test_run_cli

static void
test_version_and_help (void)
{
  g_auto(Run) version = { 0 };
  g_auto(Run) help = { 0 };
  g_auto(Run) command_help = { 0 };

  run_cli (&version, "", (const char *[]) { "--version", NULL });
  g_assert_cmpint (version.status, ==, 0);
  g_assert_cmpstr (version.out, ==, "suanli-cli " PACKAGE_VERSION "\n");

  run_cli (&help, "", (const char *[]) { "--help", NULL });
  g_assert_cmpint (help.status, ==, 0);
  g_assert_nonnull (strstr (help.out, "Usage:"));
  g_assert_nonnull (strstr (help.out, "identify"));
  g_assert_cmpstr (help.err, ==, "");

  run_cli (&command_help, "", (const char *[]) { "identify", "--help", NULL });
  g_assert_cmpint (command_help.status, ==, 0);
  g_assert_nonnull (strstr (command_help.out, "suanli-cli identify"));
}

static void
test_usage_errors (void)
{
  g_auto(Run) nothing = { 0 };
  g_auto(Run) unknown = { 0 };
  g_auto(Run) no_files = { 0 };

  /* Usage errors exit 1, say why on stderr and print nothing on stdout. */
  run_cli (&nothing, "", (const char *[]) { NULL });
  g_assert_cmpint (nothing.status, ==, 1);
  g_assert_nonnull (strstr (nothing.err, "Usage:"));
  g_assert_cmpstr (nothing.out, ==, "");

  run_cli (&unknown, "", (const char *[]) { "frobnicate", NULL });
  g_assert_cmpint (unknown.status, ==, 1);
  g_assert_nonnull (strstr (unknown.err, "unknown command “frobnicate”"));
  g_assert_cmpstr (unknown.out, ==, "");

  run_cli (&no_files, "", (const char *[]) { "identify", NULL });
  g_assert_cmpint (no_files.status, ==, 1);
}

static void
test_identify (void)
{
  g_autofree char *directory = g_dir_make_tmp ("suanli-cli-XXXXXX", NULL);
  g_autofree char *trace = g_build_filename (directory, "steps.json", NULL);
  g_autofree char *junk = g_build_filename (directory, "junk.bin", NULL);
  g_autofree char *missing = g_build_filename (directory, "missing.json", NULL);
  g_auto(Run) good = { 0 };
  g_auto(Run) invalid = { 0 };
  g_auto(Run) unreadable = { 0 };
  g_autofree char *expected = NULL;

  g_assert_true (g_file_set_contents (trace, "[{\"ph\": \"X\"}]", -1, NULL));
  g_assert_true (g_file_set_contents (junk, "\x7f" "ELF", -1, NULL));

  run_cli (&good, "", (const char *[]) { "identify", trace, NULL });
  g_assert_cmpint (good.status, ==, 0);
  expected = g_strdup_printf ("%s: Trace, Chrome trace JSON (PyTorch, Kineto)\n", trace);
  g_assert_cmpstr (good.out, ==, expected);

  /* Invalid input exits 2 and names the file; the good file is still reported. */
  run_cli (&invalid, "", (const char *[]) { "identify", trace, junk, NULL });
  g_assert_cmpint (invalid.status, ==, 2);
  g_assert_nonnull (strstr (invalid.out, trace));
  g_assert_true (g_str_has_prefix (invalid.err, junk));

  /* An unreadable file is an I/O error, and that outranks invalid input. */
  run_cli (&unreadable, "", (const char *[]) { "identify", junk, missing, NULL });
  g_assert_cmpint (unreadable.status, ==, 1);
  g_assert_nonnull (strstr (unreadable.err, missing));

  g_assert_cmpint (g_unlink (trace), ==, 0);
  g_assert_cmpint (g_unlink (junk), ==, 0);
  g_assert_cmpint (g_rmdir (directory), ==, 0);
}

static void
test_catalog (void)
{
  g_autofree char *directory = g_dir_make_tmp ("suanli-cli-XXXXXX", NULL);
  g_autofree char *good = g_build_filename (directory, "good.json", NULL);
  g_autofree char *bad = g_build_filename (directory, "bad.json", NULL);
  g_autofree char *missing = g_build_filename (directory, "missing.json", NULL);
  g_auto(Run) list = { 0 };
  g_auto(Run) json = { 0 };
  g_auto(Run) show = { 0 };
  g_auto(Run) unknown = { 0 };
  g_auto(Run) valid = { 0 };
  g_auto(Run) invalid = { 0 };
  g_auto(Run) absent = { 0 };
  g_auto(Run) reread = { 0 };
  g_autofree char *reread_path = g_build_filename (directory, "listed.json", NULL);

  g_assert_true (g_file_set_contents (good,
    "{\"schema\": \"suanli-catalog/1\", \"items\": [{\"id\": \"my-box\", \"kind\": \"system\", \"vendor\": \"Us\",\n"
    " \"name\": \"Our Box\", \"parts\": {\"accelerator\": \"nvidia-h200-sxm\"},\n"
    " \"summary\": {\"en\": \"Ours.\", \"zh_CN\": \"我们的。\"}}]}", -1, NULL));
  g_assert_true (g_file_set_contents (bad,
    "{\"schema\": \"suanli-catalog/1\", \"items\": [{\"id\": \"my-gpu\", \"kind\": \"accelerator\",\n"
    " \"vendor\": \"Us\", \"name\": \"G\", \"summary\": {\"en\": \"x\", \"zh_CN\": \"x\"},\n"
    " \"specs\": {\"tdp\": {\"value\": \"700\", \"unit\": \"W\", \"source\": \"Our sheet (2025)\", \"confidence\": \"high\"}}}]}",
    -1, NULL));

  run_cli (&list, "", (const char *[]) { "catalog", "list", "--kind", "accelerator", NULL });
  g_assert_cmpint (list.status, ==, 0);
  g_assert_nonnull (strstr (list.out, "nvidia-h200-sxm"));
  g_assert_null (strstr (list.out, "llama-2-70b"));

  /* --json prints a catalog document that validates as one. */
  run_cli (&json, "", (const char *[]) { "catalog", "list", "--kind", "model", "--json", NULL });
  g_assert_cmpint (json.status, ==, 0);
  g_assert_nonnull (strstr (json.out, "\"schema\" : \"suanli-catalog/1\""));
  g_assert_nonnull (strstr (json.out, "\"kv_heads\""));
  g_assert_true (g_file_set_contents (reread_path, json.out, -1, NULL));
  run_cli (&reread, "", (const char *[]) { "catalog", "validate", reread_path, NULL });
  g_assert_cmpint (reread.status, ==, 0);

  run_cli (&show, "", (const char *[]) { "catalog", "show", "nvidia-h200-sxm", NULL });
  g_assert_cmpint (show.status, ==, 0);
  g_assert_nonnull (strstr (show.out, "A sparse figure quoted as dense"));
  run_cli (&unknown, "", (const char *[]) { "catalog", "show", "no-such-item", NULL });
  g_assert_cmpint (unknown.status, ==, 2);

  run_cli (&valid, "", (const char *[]) { "catalog", "validate", good, NULL });
  g_assert_cmpint (valid.status, ==, 0);
  g_assert_nonnull (strstr (valid.out, "1 item, valid"));

  /* Invalid input: exit 2, and the error names the file, line and column. */
  run_cli (&invalid, "", (const char *[]) { "catalog", "validate", bad, NULL });
  g_assert_cmpint (invalid.status, ==, 2);
  g_assert_true (g_str_has_prefix (invalid.err, bad));
  g_assert_nonnull (strstr (invalid.err, ":3:"));
  g_assert_nonnull (strstr (invalid.err, "must be a number, not a string"));

  run_cli (&absent, "", (const char *[]) { "catalog", "validate", missing, NULL });
  g_assert_cmpint (absent.status, ==, 1);

  g_unlink (good);
  g_unlink (bad);
  g_unlink (reread_path);
  g_rmdir (directory);
}

static void
test_plan (void)
{
  g_autofree char *directory = g_dir_make_tmp ("suanli-plan-XXXXXX", NULL);
  g_autofree char *plan_path = g_build_filename (directory, "mine.suanli-plan", NULL);
  g_autofree char *bad_path = g_build_filename (directory, "bad.suanli-plan", NULL);
  g_autofree char *cut_path = g_build_filename (directory, "cut.suanli-plan", NULL);
  g_autofree char *missing_path = g_build_filename (directory, "missing.suanli-plan", NULL);
  g_auto(Run) created = { 0 };
  g_auto(Run) human = { 0 };
  g_auto(Run) json = { 0 };
  g_auto(Run) invalid = { 0 };
  g_auto(Run) cut = { 0 };
  g_auto(Run) missing = { 0 };
  g_auto(Run) unknown_preset = { 0 };
  g_auto(Run) explain = { 0 };
  g_autoptr(JsonParser) parser = json_parser_new ();
  JsonObject *root;

  run_cli (&created, "", (const char *[]) { "plan", "new", "--preset", "llama-2-7b", "--accelerator",
                                            "nvidia-h100-sxm", "--gpus", "16", "-o", plan_path, NULL });
  g_assert_cmpint (created.status, ==, 0);
  g_assert_true (g_file_test (plan_path, G_FILE_TEST_EXISTS));

  run_cli (&human, "", (const char *[]) { "plan", plan_path, NULL });
  g_assert_cmpint (human.status, ==, 0);
  g_assert_nonnull (strstr (human.out, "16 × H100 SXM"));
  g_assert_nonnull (strstr (human.out, "per GPU"));

  /* --json: the suanli-estimate/1 contract, parsed as a program would. */
  run_cli (&json, "", (const char *[]) { "plan", plan_path, "--json", NULL });
  g_assert_cmpint (json.status, ==, 0);
  g_assert_true (json_parser_load_from_data (parser, json.out, -1, NULL));
  root = json_node_get_object (json_parser_get_root (parser));
  g_assert_cmpstr (json_object_get_string_member (root, "schema"), ==, "suanli-estimate/1");
  g_assert_true (json_object_get_boolean_member (root, "valid"));
  g_assert_cmpint (json_object_get_int_member (root, "gpus"), ==, 16);
  g_assert_true (json_object_has_member (json_object_get_object_member (root, "memory"), "fits"));

  run_cli (&explain, "", (const char *[]) { "plan", plan_path, "--explain", "memory.optimizer", NULL });
  g_assert_cmpint (explain.status, ==, 0);
  g_assert_nonnull (strstr (explain.out, "Rajbhandari"));

  /* An invalid plan: valid false, every error with its field, exit 2. */
  g_assert_true (g_file_set_contents (bad_path,
    "{\"model\": {\"preset\": \"llama-2-7b\"}, \"parallelism\": {\"tensor\": 0, \"pipeline\": \"2\"},"
    " \"system\": {\"accelerator\": \"no-such-gpu\"}, \"extra\": 1}", -1, NULL));
  run_cli (&invalid, "", (const char *[]) { "plan", bad_path, "--json", NULL });
  g_assert_cmpint (invalid.status, ==, 2);
  g_assert_nonnull (strstr (invalid.out, "\"valid\" : false"));
  g_assert_nonnull (strstr (invalid.out, "\"field\" : \"parallelism.tensor\""));
  g_assert_nonnull (strstr (invalid.out, "\"field\" : \"parallelism.pipeline\""));
  g_assert_nonnull (strstr (invalid.out, "\"field\" : \"system.accelerator\""));
  g_assert_nonnull (strstr (invalid.out, "\"field\" : \"extra\""));
  g_assert_nonnull (strstr (invalid.err, "parallelism.tensor: "));

  /* Truncated JSON: exit 2, and where. */
  g_assert_true (g_file_set_contents (cut_path, "{\"model\": {\"preset\":\n", -1, NULL));
  run_cli (&cut, "", (const char *[]) { "plan", cut_path, NULL });
  g_assert_cmpint (cut.status, ==, 2);
  g_assert_nonnull (strstr (cut.err, "cut.suanli-plan:2:"));

  run_cli (&missing, "", (const char *[]) { "plan", missing_path, NULL });
  g_assert_cmpint (missing.status, ==, 1);

  run_cli (&unknown_preset, "", (const char *[]) { "plan", "new", "--preset", "llama-9", "--accelerator",
                                                   "nvidia-h100-sxm", "--gpus", "8", NULL });
  g_assert_cmpint (unknown_preset.status, ==, 2);
  g_assert_nonnull (strstr (unknown_preset.err, "model.preset"));

  g_unlink (plan_path);
  g_unlink (bad_path);
  g_unlink (cut_path);
  g_rmdir (directory);
}

static void
test_chinese (void)
{
  g_auto(Run) help = { 0 };

  run_cli (&help, "zh_CN", (const char *[]) { "--help", NULL });
  g_assert_cmpint (help.status, ==, 0);
  g_assert_nonnull (strstr (help.out, "用法："));
  g_assert_nonnull (strstr (help.out, "识别每个文件的类型"));
}

int
main (int argc, char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/cli/version-and-help", test_version_and_help);
  g_test_add_func ("/cli/usage-errors", test_usage_errors);
  g_test_add_func ("/cli/identify", test_identify);
  g_test_add_func ("/cli/catalog", test_catalog);
  g_test_add_func ("/cli/plan", test_plan);
  g_test_add_func ("/cli/chinese", test_chinese);

  return g_test_run ();
}
