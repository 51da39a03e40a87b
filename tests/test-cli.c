/* test-cli.c — suanli-cli as a user runs it: its output, its diagnostics and its exit codes
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>
#include <fcntl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>
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
  g_auto(Run) trace_alone = { 0 };
  g_auto(Run) trace_help = { 0 };

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

  /* `trace` alone and `help trace` give the same arguments, whatif among them. */
  run_cli (&trace_alone, "", (const char *[]) { "trace", NULL });
  g_assert_cmpint (trace_alone.status, ==, 1);
  run_cli (&trace_help, "", (const char *[]) { "help", "trace", NULL });
  g_assert_cmpint (trace_help.status, ==, 0);
  g_assert_nonnull (strstr (trace_alone.err, "whatif TRACE --accelerator ID"));
  g_assert_nonnull (strstr (trace_help.out, "whatif TRACE --accelerator ID"));
  g_assert_nonnull (strstr (trace_help.out, strchr (trace_alone.err, ' ') + 1));
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
  g_autofree char *unwired = g_build_filename (directory, "unwired.json", NULL);
  g_autofree char *missing = g_build_filename (directory, "missing.json", NULL);
  g_auto(Run) list = { 0 };
  g_auto(Run) no_domain = { 0 };
  g_auto(Run) json = { 0 };
  g_auto(Run) show = { 0 };
  g_auto(Run) unknown = { 0 };
  g_auto(Run) valid = { 0 };
  g_auto(Run) invalid = { 0 };
  g_auto(Run) absent = { 0 };
  g_auto(Run) folder = { 0 };
  g_auto(Run) reread = { 0 };
  g_autofree char *reread_path = g_build_filename (directory, "listed.json", NULL);

  g_assert_true (g_file_set_contents (good,
    "{\"schema\": \"suanli-catalog/1\", \"items\": [{\"id\": \"my-box\", \"kind\": \"system\", \"vendor\": \"Us\",\n"
    " \"name\": \"Our Box\", \"parts\": {\"accelerator\": \"nvidia-h200-sxm\"},\n"
    " \"specs\": {\"scale_up_domain\": {\"value\": 8, \"unit\": \"count\", \"source\": \"Our guide (2025)\", \"confidence\": \"high\"}},\n"
    " \"summary\": {\"en\": \"Ours.\", \"zh_CN\": \"我们的。\"}}]}", -1, NULL));
  /* The same box, not saying how its accelerators are wired. */
  g_assert_true (g_file_set_contents (unwired,
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
  /* As the vendor states it, with the GiB the planner uses; an article's ms as ms. */
  g_assert_nonnull (strstr (show.out, "141 GB HBM3e (140\u202fGiB)"));
  g_assert_nonnull (strstr (show.out, "8.3\u202fms — "));
  g_assert_null (strstr (show.out, "151\u202fGB"));
  /* In Chinese the kind and the labels read in Chinese too. */
  {
    g_auto(SuanliTestRun) chinese = { 0 };

    run_cli (&chinese, "zh_CN", (const char *[]) { "catalog", "show", "nvidia-dgx-h200", NULL });
    g_assert_cmpint (chinese.status, ==, 0);
    g_assert_nonnull (strstr (chinese.out, "类别: 系统"));
    g_assert_nonnull (strstr (chinese.out, "最高约 10.2 kW"));
    g_assert_nonnull (strstr (chinese.out, "横向扩展网络"));
  }
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

  /* Every system states its scale-up domain: one that does not is invalid input. */
  run_cli (&no_domain, "", (const char *[]) { "catalog", "validate", unwired, NULL });
  g_assert_cmpint (no_domain.status, ==, 2);
  g_assert_true (g_str_has_prefix (no_domain.err, unwired));
  g_assert_nonnull (strstr (no_domain.err, "items[0] (my-box)"));
  g_assert_nonnull (strstr (no_domain.err, "scale_up_domain"));

  run_cli (&absent, "", (const char *[]) { "catalog", "validate", missing, NULL });
  g_assert_cmpint (absent.status, ==, 1);
  /* A folder is a failure to read (exit 1), not invalid input (exit 2). */
  run_cli (&folder, "", (const char *[]) { "catalog", "validate", directory, NULL });
  g_assert_cmpint (folder.status, ==, 1);
  g_assert_true (g_str_has_prefix (folder.err, directory));

  g_unlink (good);
  g_unlink (bad);
  g_unlink (unwired);
  g_unlink (reread_path);
  g_rmdir (directory);
}

/* 80,000 nested brackets (160 KB): refused with exit 2 and the place they nest too deep, as a
 * plan, as a catalog to validate and as a user catalog that `catalog list` loads. */
static void
test_nested_json (void)
{
  g_autofree char *directory = g_dir_make_tmp ("suanli-nested-XXXXXX", NULL);
  g_autofree char *folder = g_build_filename (directory, "suanli", "catalog", NULL);
  g_autofree char *plan = g_build_filename (directory, "deep.suanli-plan", NULL);
  g_autofree char *catalog = g_build_filename (folder, "deep.json", NULL);
  g_autofree char *saved_data_home = g_strdup (g_getenv ("XDG_DATA_HOME"));
  g_autofree char *parent = g_build_filename (directory, "suanli", NULL);
  GString *deep = g_string_new (NULL);
  g_auto(Run) planned = { 0 };
  g_auto(Run) validated = { 0 };
  g_auto(Run) listed = { 0 };
  g_auto(Run) endless = { 0 };

  for (guint i = 0; i < 80000; i++)
    g_string_append_c (deep, '[');
  for (guint i = 0; i < 80000; i++)
    g_string_append_c (deep, ']');
  g_assert_cmpint (g_mkdir_with_parents (folder, 0700), ==, 0);
  g_assert_true (g_file_set_contents (plan, deep->str, (gssize) deep->len, NULL));
  g_assert_true (g_file_set_contents (catalog, deep->str, (gssize) deep->len, NULL));
  g_string_free (deep, TRUE);

  run_cli (&planned, "", (const char *[]) { "plan", plan, NULL });
  g_assert_cmpint (planned.status, ==, 2);
  g_assert_true (g_str_has_prefix (planned.err, plan));
  g_assert_nonnull (strstr (planned.err, ":1:65: nested deeper than 64 arrays and objects (byte 64)"));

  /* A device has no size: its bytes are counted while read, and refused past a plan's limit. */
  run_cli (&endless, "", (const char *[]) { "plan", "/dev/zero", NULL });
  g_assert_cmpint (endless.status, ==, 2);
  g_assert_nonnull (strstr (endless.err, "/dev/zero: the file is larger than"));

  run_cli (&validated, "", (const char *[]) { "catalog", "validate", catalog, NULL });
  g_assert_cmpint (validated.status, ==, 2);
  g_assert_nonnull (strstr (validated.err, "deep.json:1:65: nested deeper"));

  /* In the user's catalog folder: the built-in catalog is still listed, the bad file named. */
  g_setenv ("XDG_DATA_HOME", directory, TRUE);
  run_cli (&listed, "", (const char *[]) { "catalog", "list", "--kind", "accelerator", NULL });
  g_setenv ("XDG_DATA_HOME", saved_data_home, TRUE);
  g_test_message ("catalog list: exit %d, %s", listed.status, listed.err);
  g_assert_true (listed.status == 0 || listed.status == 2);
  g_assert_nonnull (strstr (listed.out, "nvidia-h200-sxm"));
  g_assert_nonnull (strstr (listed.err, "deep.json:1:65: nested deeper"));

  g_unlink (plan);
  g_unlink (catalog);
  g_rmdir (folder);
  g_rmdir (parent);
  g_rmdir (directory);
}

/* Where the jobs' sockets are: a folder too long for a socket's path is refused, never cut; a
 * /tmp/suanli-UID that another user made first is refused for $HOME/.suanli-sockets. */
static void
test_socket_folder (void)
{
  g_autofree char *directory = g_dir_make_tmp ("suanli-sockets-XXXXXX", NULL);
  g_autofree char *long_runtime = g_strdup_printf ("%s/%s", directory, "a-folder-name-long-enough-that-a-socket-path-under-it-cannot-fit-in-sun-path");
  g_autofree char *taken = g_strdup_printf ("%s/suanli-%u", directory, (unsigned) getuid ());
  g_autofree char *fallback = g_build_filename (directory, ".suanli-sockets", NULL);
  g_autofree char *saved_runtime = g_strdup (g_getenv ("XDG_RUNTIME_DIR"));
  g_autofree char *saved_home = g_strdup (g_getenv ("HOME"));
  g_autofree char *saved_tmp = g_strdup (g_getenv ("TMPDIR"));
  g_auto(Run) too_long = { 0 };
  g_auto(Run) fell_back = { 0 };

  g_assert_cmpint (g_mkdir_with_parents (long_runtime, 0700), ==, 0);
  g_setenv ("XDG_RUNTIME_DIR", long_runtime, TRUE);
  run_cli (&too_long, "", (const char *[]) { "jobs", NULL });
  g_assert_cmpint (too_long.status, ==, 1);
  g_assert_nonnull (strstr (too_long.err, "is longer than a socket's path allows (91 bytes)"));

  if (getuid () == 0)
    {
      g_unsetenv ("XDG_RUNTIME_DIR");
      g_setenv ("TMPDIR", directory, TRUE);
      g_setenv ("HOME", directory, TRUE);
      g_assert_cmpint (g_mkdir (taken, 0700), ==, 0);
      g_assert_cmpint (chown (taken, 65534, 65534), ==, 0);   /* made first by another user */
      run_cli (&fell_back, "", (const char *[]) { "jobs", NULL });
      g_test_message ("%s", fell_back.err);
      g_assert_cmpint (fell_back.status, ==, 0);
      g_assert_nonnull (strstr (fell_back.err, "belongs to someone else"));
      g_assert_nonnull (strstr (fell_back.err, fallback));
      g_assert_true (g_file_test (fallback, G_FILE_TEST_IS_DIR));
      g_rmdir (fallback);
      g_rmdir (taken);
    }
  else
    g_test_message ("skipped the folder another user made first: making one needs root");
  suanli_test_put_env ("XDG_RUNTIME_DIR", saved_runtime);
  suanli_test_put_env ("HOME", saved_home);
  suanli_test_put_env ("TMPDIR", saved_tmp);
  g_rmdir (long_runtime);
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

/* Runs `suanli-cli plan FILE --json` on @document written to a file; returns its parsed root. */
static JsonObject *
plan_json (const char  *document,
           JsonParser  *parser)
{
  g_autofree char *directory = g_dir_make_tmp ("suanli-plan-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (directory, "model.suanli-plan", NULL);
  g_auto(Run) run = { 0 };

  g_assert_true (g_file_set_contents (path, document, -1, NULL));
  run_cli (&run, "", (const char *[]) { "plan", path, "--json", NULL });
  g_assert_cmpint (run.status, ==, 0);
  g_assert_true (json_parser_load_from_data (parser, run.out, -1, NULL));
  g_unlink (path);
  g_rmdir (directory);
  return json_node_get_object (json_parser_get_root (parser));
}

static double
figure (JsonObject *root,
        const char *section,
        const char *name)
{
  return json_object_get_double_member (json_object_get_object_member (root, section), name);
}

/* Whether @root warns about @field, with @text in the message. */
static gboolean
warns (JsonObject *root,
       const char *field,
       const char *text)
{
  JsonArray *warnings = json_object_get_array_member (root, "warnings");

  for (guint i = 0; i < json_array_get_length (warnings); i++)
    {
      JsonObject *warning = json_array_get_object_element (warnings, i);

      if (g_str_equal (json_object_get_string_member (warning, "field"), field) &&
          strstr (json_object_get_string_member (warning, "message"), text) != NULL)
        return TRUE;
    }
  return FALSE;
}

/* Every field that describes the model feeds every figure: a parameter count given over a preset
 * moves the step time, the tokens per second and the cost, not memory alone, and the plan no
 * longer bears the preset's name; a changed layer count moves the memory too. */
static void
test_plan_model_fields (void)
{
  static const char * const rest =
    "\"workload\": {\"seq_len\": 4096, \"global_batch\": 512, \"tokens\": 2e12},"
    " \"system\": {\"accelerator\": \"nvidia-h100-sxm\", \"nodes\": 8},"
    " \"assumptions\": {\"price_per_gpu_hour\": 2.5}}";
  g_autoptr(JsonParser) preset_parser = json_parser_new ();
  g_autoptr(JsonParser) count_parser = json_parser_new ();
  g_autoptr(JsonParser) layers_parser = json_parser_new ();
  g_autoptr(JsonParser) gpt_parser = json_parser_new ();
  g_autoptr(JsonParser) deepspeed_parser = json_parser_new ();
  g_autofree char *preset_plan = g_strconcat ("{\"model\": {\"preset\": \"llama-2-70b\"}, ", rest, NULL);
  g_autofree char *count_plan = g_strconcat ("{\"model\": {\"preset\": \"llama-2-70b\", \"parameters\": 13e9}, ",
                                             rest, NULL);
  g_autofree char *layers_plan = g_strconcat ("{\"model\": {\"preset\": \"llama-2-70b\", \"layers\": 40}, ", rest, NULL);
  JsonObject *preset = plan_json (preset_plan, preset_parser);
  JsonObject *count = plan_json (count_plan, count_parser);
  JsonObject *layers = plan_json (layers_plan, layers_parser);
  JsonObject *gpt, *deepspeed;

  g_assert_true (g_str_has_prefix (json_object_get_string_member (preset, "name"), "Llama 2 70B"));
  g_assert_true (g_str_has_prefix (json_object_get_string_member (count, "name"), "13B model"));
  g_assert_cmpfloat (figure (count, "memory", "weights"), <, figure (preset, "memory", "weights") / 4);
  g_assert_cmpfloat (figure (count, "training", "step_time_s"), <, figure (preset, "training", "step_time_s") / 3);
  g_assert_cmpfloat (figure (count, "training", "tokens_per_s"), >, figure (preset, "training", "tokens_per_s") * 3);
  g_assert_cmpfloat (figure (count, "training", "cost"), <, figure (preset, "training", "cost") / 3);
  g_assert_true (warns (count, "model.parameters", "model.parameters"));

  /* Half the layers: half the weights and close to half the step, named as the custom model it is. */
  g_assert_false (g_str_has_prefix (json_object_get_string_member (layers, "name"), "Llama 2 70B"));
  g_assert_cmpfloat (figure (layers, "memory", "weights"), <, figure (preset, "memory", "weights") * 0.55);
  g_assert_cmpfloat (figure (layers, "training", "step_time_s"), <, figure (preset, "training", "step_time_s") * 0.6);
  g_assert_false (warns (layers, "model.parameters", ""));

  /* GPT-3's plain feed-forward given as a width alone: the gated default implies 233B, and the
   * warning names the field that reconciles it with the 175B given. */
  gpt = plan_json ("{\"model\": {\"parameters\": 175e9, \"layers\": 96, \"hidden\": 12288, \"heads\": 96,"
                   " \"ffn_hidden\": 49152, \"vocab\": 50257}, \"system\": {\"accelerator\": \"nvidia-h100-sxm\"},"
                   " \"assumptions\": {\"price_per_gpu_hour\": 2}}", gpt_parser);
  g_assert_true (warns (gpt, "model.ffn_matrices", "model.ffn_matrices = 2"));

  /* DeepSpeed's ZeRO-3 term for the largest layer needs the architecture: said, not a silent 0. */
  deepspeed = plan_json ("{\"model\": {\"parameters\": 7e9}, \"parallelism\": {\"zero_stage\": 3},"
                         " \"system\": {\"accelerator\": \"nvidia-h100-sxm\"},"
                         " \"assumptions\": {\"memory_model\": \"deepspeed\", \"price_per_gpu_hour\": 2}}",
                         deepspeed_parser);
  g_assert_true (warns (deepspeed, "model.hidden", "largest layer"));
}

/* Plans at the edge of their ranges, through the real command: the text has no NaN, infinity or
 * negative figure ("Step -2562048 h" was an overflowing cast), and --json parses (json-glib 1.6
 * wrote "inf.0", "-nan.0" and "2e+18.0"). */
static void
test_plan_edges (void)
{
  static const char * const plans[] = {
    "{\"model\": {\"preset\": \"llama-2-7b\"}, \"workload\": {\"tokens\": 1e18},"
    " \"system\": {\"accelerator\": \"nvidia-h100-sxm\", \"gpus_per_node\": 1}}",
    "{\"model\": {\"preset\": \"llama-2-7b\", \"hidden\": 1e9}, \"workload\": {\"tokens\": 2e17},"
    " \"system\": {\"accelerator\": \"nvidia-h100-sxm\"}}",
    "{\"model\": {\"parameters\": 1e18}, \"workload\": {\"tokens\": 1e18},"
    " \"system\": {\"accelerator\": \"nvidia-h100-sxm\"}, \"assumptions\": {\"mfu\": 0.01, \"price_per_gpu_hour\": 1e18}}",
    "{\"model\": {\"preset\": \"llama-2-7b\"}, \"workload\": {\"mode\": \"inference\", \"requests_per_s\": 1e18,"
    " \"prompt_tokens\": 1e9}, \"system\": {\"accelerator\": \"nvidia-h100-sxm\"}}",
  };
  g_autofree char *directory = g_dir_make_tmp ("suanli-plan-edges-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (directory, "edge.suanli-plan", NULL);

  for (guint i = 0; i < G_N_ELEMENTS (plans); i++)
    {
      g_auto(Run) human = { 0 };
      g_auto(Run) json = { 0 };
      g_autoptr(JsonParser) parser = json_parser_new ();
      g_autoptr(GError) error = NULL;

      g_assert_true (g_file_set_contents (path, plans[i], -1, NULL));
      run_cli (&human, "", (const char *[]) { "plan", path, NULL });
      g_assert_cmpint (human.status, ==, 0);
      if (g_regex_match_simple ("(^|[^a-z])(nan|inf)([^a-z]|$)| -[0-9]", human.out, G_REGEX_CASELESS, 0))
        g_error ("plan %u reads:\n%s", i, human.out);
      run_cli (&json, "", (const char *[]) { "plan", path, "--json", NULL });
      g_assert_cmpint (json.status, ==, 0);
      if (!json_parser_load_from_data (parser, json.out, -1, &error))
        g_error ("plan %u: %s\n%s", i, error->message, json.out);
    }
  g_unlink (path);
  g_rmdir (directory);
}

/* The first line of @text, as a user reads it. */
static char *
first_line (const char *text)
{
  const char *end = strchr (text, '\n');

  return g_strndup (text, end != NULL ? (gsize) (end - text) : strlen (text));
}

/* `plan new` writes no name: the plan is named after its model and hardware, and `plan FILE`
 * says that name first, in the user's language. A name of the plan's own (old files) stays. */
static void
test_plan_name (void)
{
  g_autofree char *directory = g_dir_make_tmp ("suanli-plan-name-XXXXXX", NULL);
  g_autofree char *plan_path = g_build_filename (directory, "new.suanli-plan", NULL);
  g_autofree char *named_path = g_build_filename (directory, "named.suanli-plan", NULL);
  g_autofree char *data = NULL;
  g_autofree char *line = NULL;
  g_autofree char *chinese_line = NULL;
  g_autofree char *named_line = NULL;
  g_auto(Run) created = { 0 };
  g_auto(Run) human = { 0 };
  g_auto(Run) chinese = { 0 };
  g_auto(Run) named = { 0 };
  g_autoptr(JsonParser) parser = json_parser_new ();

  run_cli (&created, "", (const char *[]) { "plan", "new", "--preset", "llama-2-70b", "--accelerator",
                                            "nvidia-h100-sxm", "--gpus", "8", "-o", plan_path, NULL });
  g_assert_cmpint (created.status, ==, 0);
  g_assert_true (g_file_get_contents (plan_path, &data, NULL, NULL));
  g_assert_true (json_parser_load_from_data (parser, data, -1, NULL));
  g_assert_false (json_object_has_member (json_node_get_object (json_parser_get_root (parser)), "name"));

  run_cli (&human, "", (const char *[]) { "plan", plan_path, NULL });
  g_assert_cmpint (human.status, ==, 0);
  line = first_line (human.out);
  g_assert_cmpstr (line, ==, "Llama 2 70B training on 8 × H100 SXM");
  run_cli (&chinese, "zh_CN", (const char *[]) { "plan", plan_path, NULL });
  g_assert_cmpint (chinese.status, ==, 0);
  chinese_line = first_line (chinese.out);
  g_assert_cmpstr (chinese_line, ==, "Llama 2 70B 训练（8 × H100 SXM）");

  /* A file with a name of its own (written before names followed) keeps it; its hardware follows. */
  g_assert_true (g_file_set_contents (named_path,
    "{\"name\": \"llama-2-7b on 8 × nvidia-h100-sxm\", \"model\": {\"preset\": \"llama-2-70b\"},"
    " \"workload\": {\"mode\": \"finetune-lora\"}, \"system\": {\"accelerator\": \"nvidia-h100-sxm\"}}", -1, NULL));
  run_cli (&named, "", (const char *[]) { "plan", named_path, NULL });
  g_assert_cmpint (named.status, ==, 0);
  named_line = first_line (named.out);
  g_assert_cmpstr (named_line, ==, "llama-2-7b on 8 × nvidia-h100-sxm");
  g_assert_nonnull (strstr (named.out, "\n8 × H100 SXM\n"));

  g_unlink (plan_path);
  g_unlink (named_path);
  g_rmdir (directory);
}

/* A rank's file for the trace commands: two steps of @step_us on the CPU; on GPU 0 a 50 µs GEMM,
 * then an NCCL all-reduce of @comm_us in each step. No flows: the GPU work has no launching stack. */
static char *
write_rank_file (const char *directory,
                 int         rank,
                 guint       step_us,
                 guint       comm_us)
{
  g_autofree char *name = g_strdup_printf ("rank%d.json", rank);
  char *path = g_build_filename (directory, name, NULL);
  g_autofree char *text = g_strdup_printf (
    "{\"distributedInfo\": {\"rank\": %d}, \"traceEvents\": [\n"
    " {\"ph\": \"X\", \"cat\": \"user_annotation\", \"name\": \"ProfilerStep#1\", \"pid\": 1, \"tid\": 1, \"ts\": 0, \"dur\": %u},\n"
    " {\"ph\": \"X\", \"cat\": \"user_annotation\", \"name\": \"ProfilerStep#2\", \"pid\": 1, \"tid\": 1, \"ts\": 1000, \"dur\": %u},\n"
    " {\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"gemm\", \"pid\": 0, \"tid\": 7, \"ts\": 10, \"dur\": 50},\n"
    " {\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"ncclKernel_AllReduce\", \"pid\": 0, \"tid\": 7, \"ts\": 100, \"dur\": %u},\n"
    " {\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"ncclKernel_AllReduce\", \"pid\": 0, \"tid\": 7, \"ts\": 1100, \"dur\": %u}]}\n",
    rank, step_us, step_us, comm_us, comm_us);

  g_assert_true (g_file_set_contents (path, text, -1, NULL));
  return path;
}

/* A gzip bomb, made here with zlib: @text_bytes of JSON text, a few small events repeated, most of
 * them begins (B) that never end, which the importer holds until their end (a kilobyte each). */
static char *
write_gzip_bomb (const char *directory,
                 gsize       text_bytes)
{
  static const char events[] = "{\"ph\":\"B\",\"name\":\"aten::add\",\"pid\":1,\"tid\":1,\"ts\":0},\n"
                               "{\"ph\":\"X\",\"name\":\"k\",\"pid\":1,\"tid\":2,\"ts\":0,\"dur\":1},\n";
  g_autoptr(GZlibCompressor) compressor = g_zlib_compressor_new (G_ZLIB_COMPRESSOR_FORMAT_GZIP, 6);
  g_autoptr(GString) block = g_string_new (NULL);
  g_autoptr(GByteArray) gzip = g_byte_array_new ();
  g_autofree guint8 *out = g_malloc (1 << 16);
  char *path = g_build_filename (directory, "bomb.json.gz", NULL);
  g_autoptr(GError) error = NULL;
  gsize written = 0;

  while (block->len < (1 << 16))
    g_string_append (block, events);
  for (guint part = 0; part < 3; part++)
    {
      /* The head, the events, the tail; each converted until zlib has taken all of it. */
      const char *in = part == 0 ? "{\"traceEvents\": [\n" : part == 1 ? block->str : "{}]}\n";
      gsize in_length = strlen (in), repeats = part == 1 ? text_bytes / block->len : 1;

      for (gsize r = 0; r < repeats; r++)
        for (gsize taken = 0; taken < in_length || part == 2;)
          {
            gsize read = 0, made = 0;
            GConverterResult result = g_converter_convert (G_CONVERTER (compressor), in + taken, in_length - taken,
                                                           out, 1 << 16, part == 2 ? G_CONVERTER_INPUT_AT_END : 0,
                                                           &read, &made, &error);

            g_assert_no_error (error);
            taken += read;
            g_byte_array_append (gzip, out, (guint) made);
            if (result == G_CONVERTER_FINISHED)
              break;
          }
      written += in_length * repeats;
    }
  g_assert_cmpuint (written, >=, text_bytes / 2);
  g_assert_true (g_file_set_contents (path, (const char *) gzip->data, gzip->len, NULL));
  return path;
}

/* `trace summary` of a gzip bomb: a small gzip that inflates to 150 MB of events, which reading
 * them all would hold as 1.2 GB (begins waiting for their ends are a kilobyte each). With the
 * memory budget lowered to 64 MiB (the default is a quarter of the machine's, which a test cannot
 * fill) the reading stops there, keeps what it read, and says why and where; the process's peak
 * memory stays near the budget. */
static void
test_gzip_bomb (void)
{
  g_autofree char *directory = g_dir_make_tmp ("suanli-bomb-XXXXXX", NULL);
  g_autofree char *bomb = write_gzip_bomb (directory, 150 << 20);
  g_autofree char *out_path = g_build_filename (directory, "out", NULL);
  g_autofree char *err_path = g_build_filename (directory, "err", NULL);
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  const char *argv[] = { g_getenv ("SUANLI_CLI"), "trace", "summary", bomb, NULL };
  g_auto(GStrv) environment = g_environ_setenv (g_get_environ (), "SUANLI_TRACE_MAX_MEMORY", "67108864", TRUE);
  int out_fd = open (out_path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
  int err_fd = open (err_path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
  g_autoptr(GError) error = NULL;
  struct rusage usage = { 0 };
  GPid pid = 0;
  int status = 0;

  g_assert_nonnull (argv[0]);
  g_assert_cmpint (out_fd, >=, 0);
  g_assert_cmpint (err_fd, >=, 0);
  /* Its own rusage, from wait4: the peak memory of this one process. */
  g_assert_true (g_spawn_async_with_fds (NULL, (char **) argv, environment, G_SPAWN_DO_NOT_REAP_CHILD, NULL, NULL,
                                         &pid, -1, out_fd, err_fd, &error));
  g_assert_no_error (error);
  g_assert_cmpint (wait4 (pid, &status, 0, &usage), ==, pid);
  close (out_fd);
  close (err_fd);
  g_assert_true (g_file_get_contents (out_path, &out, NULL, NULL));
  g_assert_true (g_file_get_contents (err_path, &err, NULL, NULL));
  g_test_message ("peak memory %ld KiB; %s", usage.ru_maxrss, err);
  g_assert_true (WIFEXITED (status));
  g_assert_cmpint (WEXITSTATUS (status), ==, 0);
  g_assert_nonnull (strstr (err, "bomb.json.gz: stopped reading at byte "));
  g_assert_nonnull (strstr (err, "more than 64 MiB of memory (SUANLI_TRACE_MAX_MEMORY"));
  g_assert_nonnull (strstr (out, "Events "));
  /* Today's reading would take 1.2 GB; the budget and what runs around it (AddressSanitizer's
   * shadow and quarantine under the sanitizer build: 180 MB) stay well under this. */
  g_assert_cmpint (usage.ru_maxrss, <, 320 * 1024);
  g_assert_cmpint (g_remove (bomb), ==, 0);
  g_assert_cmpint (g_remove (out_path), ==, 0);
  g_assert_cmpint (g_remove (err_path), ==, 0);
  g_assert_cmpint (g_rmdir (directory), ==, 0);
}

/* Two ranks, the second 20% slower a step with 100 µs more all-reduce: the summary's table of
 * ranks and its JSON, and the flame of one rank against the other's as two-column folded stacks. */
static void
test_trace_ranks (void)
{
  g_autofree char *directory = g_dir_make_tmp ("suanli-ranks-XXXXXX", NULL);
  g_autofree char *rank0 = write_rank_file (directory, 0, 500, 100);
  g_autofree char *rank1 = write_rank_file (directory, 1, 600, 150);
  g_autofree char *folded = g_build_filename (directory, "ranks.folded", NULL);
  g_autofree char *row0 = NULL;
  g_autofree char *row1 = NULL;
  g_autofree char *written = NULL;
  g_auto(Run) text = { 0 };
  g_auto(Run) json = { 0 };
  g_auto(Run) single = { 0 };
  g_auto(Run) single_json = { 0 };
  g_auto(Run) diff = { 0 };
  g_auto(Run) to_file = { 0 };
  g_auto(Run) kept = { 0 };
  g_auto(Run) missing = { 0 };
  g_auto(Run) half = { 0 };
  g_autoptr(JsonParser) parser = json_parser_new ();
  JsonArray *ranks;
  JsonObject *slow;
  gint64 columns[2] = { 0, 0 };

  run_cli (&text, "", (const char *[]) { "trace", "summary", rank0, rank1, NULL });
  g_assert_cmpint (text.status, ==, 0);
  g_assert_nonnull (strstr (text.out, "Ranks ("));
  /* The table's rows end with the file; the straggler's says so in words. */
  {
    g_auto(GStrv) lines = g_strsplit (text.out, "\n", -1);

    for (guint i = 0; lines[i] != NULL; i++)
      {
        if (g_str_has_suffix (lines[i], "rank0.json"))
          row0 = g_strdup (lines[i]);
        if (strstr (lines[i], "rank1.json  ") != NULL)
          row1 = g_strdup (lines[i]);
      }
  }
  g_assert_nonnull (row0);
  g_assert_nonnull (row1);
  g_test_message ("%s\n%s", row0, row1);
  g_assert_true (g_str_has_prefix (row0, "  0 "));
  g_assert_nonnull (strstr (row0, " 500"));   /* median step, in µs */
  g_assert_nonnull (strstr (row1, " 600"));
  g_assert_nonnull (strstr (row1, "STRAGGLER: median step 20.0% above"));

  run_cli (&json, "", (const char *[]) { "trace", "summary", rank0, rank1, "--json", NULL });
  g_assert_cmpint (json.status, ==, 0);
  g_assert_true (json_parser_load_from_data (parser, json.out, -1, NULL));
  g_assert_cmpfloat (json_object_get_double_member (json_node_get_object (json_parser_get_root (parser)),
                                                    "straggler_threshold"), ==, 0.05);
  ranks = json_object_get_array_member (json_node_get_object (json_parser_get_root (parser)), "ranks");
  g_assert_cmpuint (json_array_get_length (ranks), ==, 2);
  g_assert_false (json_object_get_boolean_member (json_array_get_object_element (ranks, 0), "straggler"));
  g_assert_cmpint (json_object_get_int_member (json_array_get_object_element (ranks, 0), "comm_ns"), ==, 200000);
  slow = json_array_get_object_element (ranks, 1);
  g_assert_cmpint (json_object_get_int_member (slow, "rank"), ==, 1);
  g_assert_cmpint (json_object_get_int_member (slow, "steps"), ==, 2);
  g_assert_cmpint (json_object_get_int_member (slow, "median_step_ns"), ==, 600000);
  g_assert_cmpint (json_object_get_int_member (slow, "slowest_step_ns"), ==, 600000);
  g_assert_cmpint (json_object_get_int_member (slow, "comm_ns"), ==, 300000);
  g_assert_cmpint (json_object_get_int_member (slow, "compute_ns"), ==, 50000);
  g_assert_cmpint (json_object_get_int_member (slow, "busy_ns"), ==, 350000);
  g_assert_cmpstr (json_object_get_string_member (slow, "compared_by"), ==, "median_step");
  g_assert_cmpfloat_with_epsilon (json_object_get_double_member (slow, "slower"), 0.2, 1e-9);
  g_assert_true (json_object_get_boolean_member (slow, "straggler"));

  /* One file: no table, one row in the JSON. */
  run_cli (&single, "", (const char *[]) { "trace", "summary", rank0, NULL });
  g_assert_cmpint (single.status, ==, 0);
  g_assert_null (strstr (single.out, "Ranks ("));
  run_cli (&single_json, "", (const char *[]) { "trace", "summary", rank0, "--json", NULL });
  g_assert_true (json_parser_load_from_data (parser, single_json.out, -1, NULL));
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (json_node_get_object (json_parser_get_root (parser)),
                                                                         "ranks")),
                    ==, 1);

  /* Rank 1's GPU time against rank 0's: the baseline column sums to rank 0's 250 µs, the other to
   * rank 1's 350. */
  run_cli (&diff, "", (const char *[]) { "trace", "diff", rank0, rank1, "--rank", "1", "--against-rank", "0", "--gpu", NULL });
  g_assert_cmpint (diff.status, ==, 0);
  {
    g_auto(GStrv) lines = g_strsplit (diff.out, "\n", -1);

    for (guint i = 0; lines[i] != NULL && *lines[i] != '\0'; i++)
      {
        g_auto(GStrv) words = g_strsplit (strrchr (lines[i], ';') != NULL ? strrchr (lines[i], ';') : lines[i], " ", -1);

        g_assert_cmpuint (g_strv_length (words), ==, 3);
        columns[0] += g_ascii_strtoll (words[1], NULL, 10);
        columns[1] += g_ascii_strtoll (words[2], NULL, 10);
      }
  }
  g_assert_cmpint (columns[0], ==, 250000);
  g_assert_cmpint (columns[1], ==, 350000);
  g_assert_nonnull (strstr (diff.out, "ncclKernel_AllReduce 200000 300000\n"));

  run_cli (&to_file, "", (const char *[]) { "trace", "diff", rank0, rank1, "--rank", "1", "--against-rank", "0",
                                            "--folded", folded, NULL });
  g_assert_cmpint (to_file.status, ==, 0);
  g_assert_cmpstr (to_file.out, ==, "");
  g_assert_true (g_file_get_contents (folded, &written, NULL, NULL));
  g_assert_nonnull (strstr (written, "ProfilerStep#* 1000000 1200000\n"));   /* its two steps are one frame */
  g_clear_pointer (&written, g_free);
  run_cli (&kept, "", (const char *[]) { "trace", "diff", rank0, rank1, "--rank", "1", "--against-rank", "0",
                                         "--folded", folded, "--keep-step-numbers", NULL });
  g_assert_cmpint (kept.status, ==, 0);
  g_assert_true (g_file_get_contents (folded, &written, NULL, NULL));
  g_assert_nonnull (strstr (written, "ProfilerStep#1 500000 600000\n"));

  run_cli (&missing, "", (const char *[]) { "trace", "diff", rank0, rank1, "--rank", "5", "--against-rank", "0", NULL });
  g_assert_cmpint (missing.status, ==, 1);
  g_assert_nonnull (strstr (missing.err, "no rank 5"));
  g_assert_cmpstr (missing.out, ==, "");
  run_cli (&half, "", (const char *[]) { "trace", "diff", rank0, rank1, "--rank", "1", NULL });
  g_assert_cmpint (half.status, ==, 1);

  g_unlink (rank0);
  g_unlink (rank1);
  g_unlink (folded);
  g_rmdir (directory);
}

/* `plan FILE --search`: each accelerator at its own price, the axes it is told to keep, and lines
 * that name the hardware, never its ids. */
static void
test_plan_search (void)
{
  g_autofree char *directory = g_dir_make_tmp ("suanli-search-XXXXXX", NULL);
  g_autofree char *plan = g_build_filename (directory, "search.suanli-plan", NULL);
  const char *ids[] = { "aws-p5-48xlarge", "aws-p4d-24xlarge", "nvidia-h100-sxm", "nvidia-a100-40gb-sxm",
                        "nvidia-h200-sxm", "azure-nd96amsr-a100-v4" };
  g_auto(Run) cloud = { 0 };
  g_auto(Run) fixed = { 0 };
  g_auto(Run) json = { 0 };
  g_auto(Run) bad_price = { 0 };
  g_auto(Run) bad_accelerator = { 0 };
  g_auto(GStrv) lines = NULL;
  g_autoptr(JsonParser) parser = json_parser_new ();
  JsonArray *results;
  guint rows = 0;

  g_assert_true (g_file_set_contents (plan, "{\"model\": {\"preset\": \"llama-2-7b\"}, \"workload\": "
                                      "{\"global_batch\": 512, \"tokens\": 1e11}, \"system\": {\"accelerator\": "
                                      "\"nvidia-h100-sxm\"}, \"assumptions\": {\"price_per_gpu_hour\": 2.5}}", -1, NULL));

  /* On cloud instances: named, at their list prices. */
  run_cli (&cloud, "", (const char *[]) { "plan", plan, "--search", "--cloud-only", "--accelerator", "nvidia-h100-sxm",
                                          "--max-gpus", "64", NULL });
  g_assert_cmpint (cloud.status, ==, 0);
  g_assert_nonnull (strstr (cloud.out, "p5.48xlarge (64 × H100 SXM)"));
  for (guint i = 0; i < G_N_ELEMENTS (ids); i++)
    g_assert_null (strstr (cloud.out, ids[i]));

  /* Fixed: the H200 at the user's price rather than its offers'; 16 GPUs, TP 2, ZeRO 1. */
  run_cli (&fixed, "", (const char *[]) { "plan", plan, "--search", "--accelerator", "nvidia-h200-sxm", "--price",
                                          "nvidia-h200-sxm=3.10", "--price", "nvidia-h100-sxm=1", "--gpus", "16",
                                          "--tensor", "2", "--zero", "1", NULL });
  g_assert_cmpint (fixed.status, ==, 0);
  lines = g_strsplit (fixed.out, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    if (g_str_has_prefix (lines[i], "  16 × "))
      {
        g_assert_true (g_str_has_prefix (lines[i], "  16 × H200 SXM "));
        g_assert_nonnull (strstr (lines[i], "   2 "));   /* t */
        g_assert_nonnull (strstr (lines[i], "3.10  your price"));
        for (guint j = 0; j < G_N_ELEMENTS (ids); j++)
          g_assert_null (strstr (lines[i], ids[j]));
        rows++;
      }
  g_assert_cmpuint (rows, >=, 1);

  /* JSON: names and ids, each result's price and its source, what was left out. */
  run_cli (&json, "", (const char *[]) { "plan", plan, "--search", "--max-gpus", "64", "--json", NULL });
  g_assert_cmpint (json.status, ==, 0);
  g_assert_true (json_parser_load_from_data (parser, json.out, -1, NULL));
  results = json_object_get_array_member (json_node_get_object (json_parser_get_root (parser)), "results");
  g_assert_cmpuint (json_array_get_length (results), >, 0);
  for (guint i = 0; i < json_array_get_length (results); i++)
    {
      JsonObject *r = json_array_get_object_element (results, i);
      const char *accelerator = json_object_get_string_member (r, "accelerator");
      double price = json_object_get_double_member (r, "price_per_gpu_hour");

      g_assert_cmpstr (json_object_get_string_member (r, "price_source"), ==, "offer");
      if (g_str_equal (accelerator, "nvidia-h100-sxm"))
        {
          g_assert_cmpstr (json_object_get_string_member (r, "accelerator_name"), ==, "H100 SXM");
          g_assert_cmpstr (json_object_get_string_member (r, "price_from_name"), ==, "p5.48xlarge");
          g_assert_cmpfloat_with_epsilon (price, 55.04 / 8, 1e-9);
        }
      else if (g_str_equal (accelerator, "nvidia-a100-40gb-sxm"))
        {
          g_assert_cmpstr (json_object_get_string_member (r, "price_from_name"), ==, "p4d.24xlarge");
          g_assert_cmpfloat_with_epsilon (price, 21.9576 / 8, 1e-9);
        }
      g_assert_cmpfloat (price, !=, 2.5);
    }
  g_assert_nonnull (strstr (json.out, "\"name\" : \"Instinct MI325X\""));   /* left out: no offer */

  /* A price that is not ID=AMOUNT, an accelerator the catalog does not have. */
  run_cli (&bad_price, "", (const char *[]) { "plan", plan, "--search", "--price", "nvidia-h100-sxm", NULL });
  g_assert_cmpint (bad_price.status, ==, 1);
  g_assert_nonnull (strstr (bad_price.err, "--price"));
  run_cli (&bad_accelerator, "", (const char *[]) { "plan", plan, "--search", "--accelerator", "no-such-gpu", NULL });
  g_assert_cmpint (bad_accelerator.status, ==, 1);
  g_assert_nonnull (strstr (bad_accelerator.err, "no-such-gpu"));

  g_unlink (plan);
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
  g_test_add_func ("/cli/plan-search", test_plan_search);
  g_test_add_func ("/cli/plan-edges", test_plan_edges);
  g_test_add_func ("/cli/plan-model-fields", test_plan_model_fields);
  g_test_add_func ("/cli/plan-name", test_plan_name);
  g_test_add_func ("/cli/socket-folder", test_socket_folder);
  g_test_add_func ("/cli/nested-json", test_nested_json);
  g_test_add_func ("/cli/trace-ranks", test_trace_ranks);
  g_test_add_func ("/cli/gzip-bomb", test_gzip_bomb);
  g_test_add_func ("/cli/chinese", test_chinese);

  return g_test_run ();
}
