/* test-plan-trace-tie.c — a trace is compared with a plan only when the user or the trace says it is
 * of the plan's job
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gstdio.h>

#include "suanli-import.h"
#include "suanli-plan-inputs.h"
#include "suanli-plan-trace-tie.h"

#define PLAN "{\"name\": \"Seven B\", \"model\": {\"preset\": \"llama-2-7b\"}," \
             " \"system\": {\"accelerator\": \"nvidia-h100-sxm\", \"gpus_per_node\": 8}}"

/* A small Chrome trace, written to a file of its own and read back; @extra is one more event. */
static SuanliTrace *
read_trace (const char *name,
            const char *extra)
{
  g_autofree char *directory = g_dir_make_tmp ("suanli-tie-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (directory, name, NULL);
  g_autofree char *text = g_strdup_printf ("{\"traceEvents\": ["
                                           "{\"ph\":\"X\",\"cat\":\"user_annotation\",\"name\":\"ProfilerStep#1\",\"pid\":1,\"tid\":1,\"ts\":0,\"dur\":900},"
                                           "{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"sm90_gemm\",\"pid\":0,\"tid\":7,\"ts\":20,\"dur\":500}%s%s]}",
                                           extra != NULL ? "," : "", extra != NULL ? extra : "");
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(SuanliTrace) trace = suanli_trace_new ();
  g_autoptr(GError) error = NULL;
  SuanliImportStats stats = { 0 };

  g_assert_true (g_file_set_contents (path, text, -1, NULL));
  g_assert_true (suanli_import_file (trace, file, &stats, NULL, &error));
  g_assert_no_error (error);
  g_unlink (path);
  g_rmdir (directory);
  return g_steal_pointer (&trace);
}

static SuanliPlan *
read_plan (const char *text)
{
  g_autoptr(GError) error = NULL;
  SuanliPlan *plan = suanli_plan_new_from_data (text, -1, "test.suanli-plan", &error);

  g_assert_no_error (error);
  return plan;
}

/* The fields @plan's resolution finds errors in, ", " between them. */
static char *
error_fields (SuanliPlan *plan)
{
  g_autoptr(SuanliCatalog) catalog = suanli_catalog_new ();
  g_autoptr(GPtrArray) problems = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GPtrArray) errors = g_ptr_array_new_with_free_func ((GDestroyNotify) suanli_plan_issue_free);
  g_autoptr(GPtrArray) warnings = g_ptr_array_new_with_free_func ((GDestroyNotify) suanli_plan_issue_free);
  GString *fields = g_string_new (NULL);
  SuanliPlanInputs inputs;

  suanli_catalog_load_builtin (catalog, problems);
  suanli_plan_inputs_resolve (plan, catalog, &inputs, errors, warnings);
  for (guint i = 0; i < errors->len; i++)
    g_string_append_printf (fields, "%s%s", i > 0 ? ", " : "", ((SuanliPlanIssue *) g_ptr_array_index (errors, i))->field);
  return g_string_free (fields, FALSE);
}

/* The same hardware says nothing about the job: an unmarked trace is not compared until the user
 * ties it, the tie is kept in the plan's file, and untying takes it out again. */
static void
test_tie (void)
{
  g_autoptr(SuanliPlan) plan = read_plan (PLAN);
  g_autoptr(SuanliTrace) alexnet = read_trace ("alexnet.json", NULL);
  g_autoptr(SuanliTrace) again = read_trace ("alexnet.json", NULL);
  g_autoptr(SuanliTrace) other = read_trace ("other.json", NULL);
  g_autoptr(SuanliPlan) reread = NULL;
  g_autofree char *fingerprint = suanli_plan_trace_fingerprint (alexnet);
  g_autofree char *again_fingerprint = suanli_plan_trace_fingerprint (again);
  g_autofree char *other_fingerprint = suanli_plan_trace_fingerprint (other);
  g_autofree char *data = NULL;
  g_autofree char *fields = NULL;

  /* The same file read twice is the same trace; another file name is another. */
  g_assert_cmpstr (fingerprint, ==, again_fingerprint);
  g_assert_cmpstr (fingerprint, !=, other_fingerprint);
  g_assert_cmpuint (strlen (fingerprint), ==, 16);

  g_assert_cmpint (suanli_plan_trace_tie (plan, "Seven B", alexnet), ==, SUANLI_PLAN_TIE_UNKNOWN);
  suanli_plan_trace_set_tied (plan, alexnet, TRUE);
  g_assert_cmpint (suanli_plan_trace_tie (plan, "Seven B", alexnet), ==, SUANLI_PLAN_TIE_TIED);
  g_assert_cmpint (suanli_plan_trace_tie (plan, "Seven B", again), ==, SUANLI_PLAN_TIE_TIED);
  g_assert_cmpint (suanli_plan_trace_tie (plan, "Seven B", other), ==, SUANLI_PLAN_TIE_UNKNOWN);
  /* Tied twice is listed once. */
  suanli_plan_trace_set_tied (plan, alexnet, TRUE);
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (suanli_plan_get_root (plan), "traces")), ==, 1);

  /* Saved and read back: still tied, and a valid plan. */
  data = suanli_plan_to_data (plan);
  g_test_message ("%s", data);
  g_assert_nonnull (strstr (data, "\"file\" : \"alexnet.json\""));
  reread = read_plan (data);
  g_assert_cmpint (suanli_plan_trace_tie (reread, "Seven B", alexnet), ==, SUANLI_PLAN_TIE_TIED);
  fields = error_fields (reread);
  g_assert_cmpstr (fields, ==, "");

  /* Untied: the member goes, and the plan reads as one never tied. */
  suanli_plan_trace_set_tied (reread, alexnet, FALSE);
  g_assert_cmpint (suanli_plan_trace_tie (reread, "Seven B", alexnet), ==, SUANLI_PLAN_TIE_UNKNOWN);
  g_assert_false (json_object_has_member (suanli_plan_get_root (reread), "traces"));
}

/* A trace that names the plan ("suanli.plan=" and its name, as an NVTX mark or a range) is of its
 * job without asking; one that names another plan is not. */
static void
test_mark (void)
{
  g_autoptr(SuanliPlan) plan = read_plan (PLAN);
  g_autoptr(SuanliTrace) marked = read_trace ("marked.json", "{\"ph\":\"i\",\"s\":\"t\",\"name\":\"suanli.plan=Seven B\","
                                                             "\"pid\":1,\"tid\":1,\"ts\":5}");
  g_autoptr(SuanliTrace) range = read_trace ("range.json", "{\"ph\":\"X\",\"cat\":\"user_annotation\","
                                                           "\"name\":\"suanli.plan=Seven B\",\"pid\":1,\"tid\":1,\"ts\":1,\"dur\":2}");

  g_assert_cmpint (suanli_plan_trace_tie (plan, "Seven B", marked), ==, SUANLI_PLAN_TIE_MARKED);
  g_assert_cmpint (suanli_plan_trace_tie (plan, "Seven B", range), ==, SUANLI_PLAN_TIE_MARKED);
  g_assert_cmpint (suanli_plan_trace_tie (plan, "Seven", marked), ==, SUANLI_PLAN_TIE_UNKNOWN);
  g_assert_cmpint (suanli_plan_trace_tie (plan, "Llama 2 7B training", marked), ==, SUANLI_PLAN_TIE_UNKNOWN);
}

/* A plan's "traces" that is not a list of fingerprints is an error naming the field. */
static void
test_bad_traces (void)
{
  static const struct { const char *traces; const char *fields; } cases[] = {
    { "3", "traces" },
    { "[{\"file\": \"a.json\"}]", "traces[0].fingerprint" },
    { "[{\"fingerprint\": \"0123456789abcdef\"}, \"b\"]", "traces[1].fingerprint" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *text = g_strdup_printf ("{\"model\": {\"preset\": \"llama-2-7b\"}, \"system\": {\"accelerator\": \"nvidia-h100-sxm\"},"
                                               " \"traces\": %s}", cases[i].traces);
      g_autoptr(SuanliPlan) plan = read_plan (text);
      g_autofree char *fields = error_fields (plan);

      g_assert_cmpstr (fields, ==, cases[i].fields);
    }
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/plan-trace-tie/tie", test_tie);
  g_test_add_func ("/plan-trace-tie/mark", test_mark);
  g_test_add_func ("/plan-trace-tie/bad-traces", test_bad_traces);
  return g_test_run ();
}
