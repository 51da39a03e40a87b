/* test-plan-limits.c — every numeric field of a plan at its limits: written, read back, estimated
 *
 * Each numeric field of `suanli-plan/1` (docs/plan-format.md) is set, one plan at a time, to its
 * least and greatest allowed value and to awkward ones inside (2e17 tokens, which json-glib 1.6
 * wrote as "2e+17.0"), and just outside its range. Every plan must be written as JSON that reads
 * back to the same bytes and values. Inside the range the field is not refused, and a plan that
 * resolves gives an estimate whose figures are finite and not negative, whose JSON (with advice)
 * parses, and whose text has no NaN, infinity or negative hours. Outside it the field is refused
 * by name. The sanitizer build runs this too: no overflowing casts on the way.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <float.h>
#include <math.h>
#include <string.h>
#include <sys/stat.h>
#include <glib/gstdio.h>

#include "suanli-advice.h"
#include "suanli-catalog.h"
#include "suanli-estimate-json.h"
#include "suanli-plan-inputs.h"
#include "suanli-units.h"

static SuanliCatalog *catalog;

#define END NAN   /* ends a list of values */

typedef struct
{
  const char *path;          /* "workload.tokens" */
  const char *mode;          /* the workload mode the field matters in */
  double      inside[5];     /* allowed: least, greatest, awkward ones; END-terminated */
  double      outside[3];    /* refused by name; END-terminated */
} Field;

#define POSITIVE          { DBL_TRUE_MIN, 1e18, 2e17, 0.1, END }, { 0, 1.0000000000000002e18, END }
#define POSITIVE_INTEGER  { 1, 1e9, 999999937, END }, { 0, 1e9 + 1, END }
#define WHOLE_NUMBER      { 0, 1e9, 7, END }, { -1, 1e9 + 1, END }
#define NON_NEGATIVE      { 0, 1e18, 2e17, END }, { -DBL_TRUE_MIN, 1.0000000000000002e18, END }
#define SHARE             { SUANLI_PLAN_MIN_SHARE, 1, 0.1, END }, { 0.0099999999999999985, 1.0000000000000002, END }

static const Field fields[] = {
  { "model.parameters", "train", POSITIVE },
  { "model.active_parameters", "train", POSITIVE },
  { "model.layers", "train", POSITIVE_INTEGER },
  { "model.hidden", "train", POSITIVE_INTEGER },
  { "model.heads", "train", POSITIVE_INTEGER },
  { "model.kv_heads", "train", POSITIVE_INTEGER },
  { "model.ffn_hidden", "train", POSITIVE_INTEGER },
  { "model.vocab", "train", POSITIVE_INTEGER },
  { "model.experts", "train", POSITIVE_INTEGER },
  { "model.experts_per_token", "train", POSITIVE_INTEGER },
  { "model.head_dim", "train", POSITIVE_INTEGER },
  { "model.ffn_matrices", "train", { 2, 3, END }, { 1, 4, END } },
  { "model.expert_ffn_hidden", "train", POSITIVE_INTEGER },
  { "model.shared_experts", "train", WHOLE_NUMBER },
  { "model.dense_layers", "train", WHOLE_NUMBER },
  { "model.q_lora_rank", "train", WHOLE_NUMBER },
  { "model.kv_lora_rank", "inference", WHOLE_NUMBER },
  { "model.rope_head_dim", "inference", WHOLE_NUMBER },
  { "model.sliding_window", "inference", WHOLE_NUMBER },
  { "model.window_layers", "inference", WHOLE_NUMBER },
  { "model.embedding_matrices", "train", { 1, 2, END }, { 0, 3, END } },
  { "workload.seq_len", "train", POSITIVE_INTEGER },
  { "workload.global_batch", "train", POSITIVE_INTEGER },
  { "workload.micro_batch", "train", POSITIVE_INTEGER },
  { "workload.dataset_tokens", "finetune", POSITIVE },
  { "workload.samples", "finetune", POSITIVE_INTEGER },
  { "workload.epochs", "finetune", POSITIVE },
  { "workload.tokens", "train", POSITIVE },
  { "workload.lora_rank", "finetune-lora", POSITIVE_INTEGER },
  { "workload.requests_per_s", "inference", POSITIVE },
  { "workload.prompt_tokens", "inference", POSITIVE_INTEGER },
  { "workload.output_tokens", "inference", POSITIVE_INTEGER },
  { "workload.batch", "inference", POSITIVE_INTEGER },
  { "precision.quant_group_size", "finetune-qlora", POSITIVE_INTEGER },
  { "parallelism.tensor", "train", POSITIVE_INTEGER },
  { "parallelism.pipeline", "train", POSITIVE_INTEGER },
  { "parallelism.data", "train", POSITIVE_INTEGER },
  { "parallelism.expert", "train", POSITIVE_INTEGER },
  { "parallelism.virtual_stages", "train", POSITIVE_INTEGER },
  { "parallelism.zero_stage", "train", { 0, 3, END }, { -1, 4, END } },
  { "system.gpus_per_node", "train", POSITIVE_INTEGER },
  { "system.nodes", "train", POSITIVE_INTEGER },
  { "system.cpu_memory_per_node_gib", "train", POSITIVE },
  { "assumptions.goodput", "train", SHARE },
  { "assumptions.mfu", "train", SHARE },
  { "assumptions.achieved_tflops", "train", { SUANLI_PLAN_MIN_TFLOPS, 1e18, 2e17, END },
    { 0.00099999999999999980, 1.0000000000000002e18, END } },
  { "assumptions.compute_efficiency", "train", SHARE },
  { "assumptions.comm_efficiency", "train", SHARE },
  { "assumptions.memory_efficiency", "inference", SHARE },
  { "assumptions.framework_overhead_gib", "train", NON_NEGATIVE },
  { "assumptions.pue", "train", { 1, 1e18, 1.1, END }, { 0.99, 1.0000000000000002e18, END } },
  { "assumptions.price_per_gpu_hour", "train", NON_NEGATIVE },
  { "assumptions.grid_tco2_per_mwh", "train", NON_NEGATIVE },
  { "assumptions.cny_per_usd", "train", POSITIVE },
};

/* The plan: Llama 2 7B on eight H100s in @mode, with @path set to @value (a double). */
static SuanliPlan *
edge_plan (const char *mode,
           const char *path,
           double      value)
{
  g_autoptr(SuanliPlan) plan = suanli_plan_new ();
  g_autoptr(JsonNode) patch = json_node_init_object (json_node_alloc (), json_object_new ());
  g_auto(GStrv) parts = g_strsplit (path, ".", 2);
  g_autofree char *base = g_strdup_printf ("{\"model\": {\"preset\": \"llama-2-7b\"},"
                                           " \"workload\": {\"mode\": \"%s\", \"seq_len\": 4096, \"global_batch\": 512},"
                                           " \"system\": {\"accelerator\": \"nvidia-h100-sxm\"},"
                                           " \"assumptions\": {\"price_per_gpu_hour\": 2.5}}", mode);
  JsonObject *section = json_object_new ();

  g_assert_true (suanli_plan_apply_merge_patch_data (plan, base, NULL));
  json_object_set_double_member (section, parts[1], value);
  json_object_set_object_member (json_node_get_object (patch), parts[0], section);
  suanli_plan_apply_merge_patch (plan, patch);
  return g_steal_pointer (&plan);
}

static double
member_value (SuanliPlan *plan,
              const char *path)
{
  g_auto(GStrv) parts = g_strsplit (path, ".", 2);

  return json_object_get_double_member (json_object_get_object_member (suanli_plan_get_root (plan), parts[0]),
                                        parts[1]);
}

/* The plan written, read back, and written again: the same bytes, the same value, valid JSON. */
static void
assert_round_trip (SuanliPlan *plan,
                   const char *path,
                   double      value)
{
  g_autofree char *text = suanli_plan_to_data (plan);
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) error = NULL;
  g_autoptr(SuanliPlan) back = NULL;
  g_autofree char *again = NULL;

  if (!json_parser_load_from_data (parser, text, -1, &error))
    g_error ("%s = %.17g was written as no JSON: %s\n%s", path, value, error->message, text);
  back = suanli_plan_new_from_data (text, -1, "edge.suanli-plan", &error);
  g_assert_no_error (error);
  again = suanli_plan_to_data (back);
  g_assert_cmpstr (again, ==, text);
  if (member_value (back, path) != value)
    g_error ("%s = %.17g read back as %.17g", path, value, member_value (back, path));
}

/* Text shown to a person: no NaN, no infinity, no negative figure, no "—" for a figure that exists
 * (a change may be negative: "(-18%)"). */
static void
assert_readable (const char *what,
                 const char *path,
                 double      value,
                 char       *text)   /* (transfer full) */
{
  /* printf's "inf", "-nan"; not "ZeRO-Infinity". */
  if (g_regex_match_simple ("(^|[^a-z])(nan|inf)([^a-z]|$)", text, G_REGEX_CASELESS, 0) || text[0] == '-' ||
      strstr (text, "—") != NULL)
    g_error ("%s = %.17g: %s reads “%s”", path, value, what, text);
  g_free (text);
}

/* Every number in the estimate's JSON is finite (the writer refuses others) and not negative. */
static void
assert_figures (JsonNode   *node,
                const char *path,
                double      value,
                const char *where)
{
  if (JSON_NODE_HOLDS_OBJECT (node))
    {
      g_autoptr(GList) members = json_object_get_members (json_node_get_object (node));

      for (GList *l = members; l != NULL; l = l->next)
        {
          g_autofree char *inner = g_strdup_printf ("%s.%s", where, (const char *) l->data);
          assert_figures (json_object_get_member (json_node_get_object (node), l->data), path, value, inner);
        }
    }
  else if (JSON_NODE_HOLDS_ARRAY (node))
    {
      for (guint i = 0; i < json_array_get_length (json_node_get_array (node)); i++)
        {
          g_autofree char *inner = g_strdup_printf ("%s[%u]", where, i);
          assert_figures (json_array_get_element (json_node_get_array (node), i), path, value, inner);
        }
    }
  else if (JSON_NODE_HOLDS_VALUE (node) && (json_node_get_value_type (node) == G_TYPE_DOUBLE ||
                                            json_node_get_value_type (node) == G_TYPE_INT64))
    {
      double figure = json_node_get_double (node);

      if (!isfinite (figure) || figure < 0)
        g_error ("%s = %.17g: the estimate's %s is %.17g", path, value, where, figure);
    }
}

static void
assert_estimate (SuanliPlan             *plan,
                 const SuanliPlanInputs *in,
                 const char             *path,
                 double                  value)
{
  g_autoptr(GPtrArray) advice = NULL;
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) error = NULL;
  g_autofree char *json = NULL;
  SuanliEstimate e;

  suanli_estimate_compute (in, &e);
  advice = suanli_advice_for (plan, catalog, in, &e);
  json = suanli_estimate_to_json (in, &e, "edge", NULL, NULL, advice, &error);
  if (json == NULL)
    g_error ("%s = %.17g: the estimate is no JSON: %s", path, value, error->message);
  g_assert_true (json_parser_load_from_data (parser, json, -1, &error));
  assert_figures (json_parser_get_root (parser), path, value, "estimate");

  assert_readable ("total", path, value, suanli_format_gib (e.total));
  assert_readable ("capacity", path, value, suanli_format_gib (e.capacity));
  assert_readable ("weights", path, value, suanli_format_gib (e.weights));
  assert_readable ("activations", path, value, suanli_format_gib (e.activations));
  assert_readable ("KV cache", path, value, suanli_format_gib (e.kv_cache));
  assert_readable ("parameters", path, value, suanli_format_count (in->parameters));
  if (suanli_plan_inputs_is_training (in))
    {
      assert_readable ("step", path, value, suanli_format_seconds (e.step_time_s));
      assert_readable ("compute", path, value, suanli_format_seconds (e.compute_s));
      assert_readable ("communication", path, value, suanli_format_seconds (e.exposed_communication_s));
      assert_readable ("bubble", path, value, suanli_format_seconds (e.bubble_s));
      assert_readable ("offload", path, value, suanli_format_seconds (e.offload_s));
      assert_readable ("time to train", path, value, suanli_format_days (e.time_to_train_s));
      assert_readable ("energy", path, value, suanli_format_energy_kwh (e.energy_kwh));
      assert_readable ("CO2", path, value, suanli_format_tonnes (e.co2_t));
      assert_readable ("tokens/s", path, value, suanli_format_large (e.tokens_per_s));
      assert_readable ("MFU", path, value, g_strdup_printf ("%.1f%%", 100 * e.mfu));
    }
  else
    {
      assert_readable ("time to first token", path, value, suanli_format_seconds (e.inference.ttft_s));
      assert_readable ("time per output token", path, value, suanli_format_seconds (e.inference.tpot_s));
      assert_readable ("tokens/s", path, value, suanli_format_large (e.inference.tokens_per_s));
    }
  for (guint i = 0; i < advice->len; i++)
    {
      SuanliAdvice *item = g_ptr_array_index (advice, i);

      assert_readable ("advice", path, value, g_strdup (item->text));
      if (item->effect != NULL)
        assert_readable ("advice's effect", path, value, g_strdup (item->effect));
    }
}

/* Whether @issues name @path with a range's complaint ("must …"). */
static gboolean
refuses_range (GPtrArray  *issues,
               const char *path)
{
  for (guint i = 0; i < issues->len; i++)
    {
      SuanliPlanIssue *issue = g_ptr_array_index (issues, i);

      if (g_str_equal (issue->field, path) && g_str_has_prefix (issue->message, "must"))
        return TRUE;
    }
  return FALSE;
}

static void
test_edges (void)
{
  guint plans = 0, estimated = 0;

  for (guint f = 0; f < G_N_ELEMENTS (fields); f++)
    for (int outside = 0; outside < 2; outside++)
      {
        const double *values = outside ? fields[f].outside : fields[f].inside;

        for (guint v = 0; !isnan (values[v]); v++)
          {
            g_autoptr(SuanliPlan) plan = edge_plan (fields[f].mode, fields[f].path, values[v]);
            g_autoptr(GPtrArray) errors = g_ptr_array_new_with_free_func ((GDestroyNotify) suanli_plan_issue_free);
            g_autoptr(GPtrArray) warnings = g_ptr_array_new_with_free_func ((GDestroyNotify) suanli_plan_issue_free);
            SuanliPlanInputs in;
            gboolean valid;

            plans++;
            assert_round_trip (plan, fields[f].path, values[v]);
            valid = suanli_plan_inputs_resolve (plan, catalog, &in, errors, warnings);
            if (outside)
              {
                if (!refuses_range (errors, fields[f].path))
                  g_error ("%s = %.17g is outside its range but not refused", fields[f].path, values[v]);
                continue;
              }
            if (refuses_range (errors, fields[f].path))
              g_error ("%s = %.17g is inside its range but refused", fields[f].path, values[v]);
            if (valid)
              {
                assert_estimate (plan, &in, fields[f].path, values[v]);
                estimated++;
              }
          }
      }
  g_test_message ("%u edge plans, %u of them estimated", plans, estimated);
  g_assert_cmpuint (plans, >=, 250);
  g_assert_cmpuint (estimated, >=, 100);
}

/* A save keeps the mode of the file it replaces, as trace convert does. */
static void
test_save_keeps_mode (void)
{
  g_autofree char *directory = g_dir_make_tmp ("suanli-plan-mode-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (directory, "private.suanli-plan", NULL);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(SuanliPlan) plan = edge_plan ("train", "workload.tokens", 2e17);
  g_autoptr(GError) error = NULL;
  struct stat info;

  g_assert_true (g_file_set_contents (path, "{}", -1, NULL));
  g_assert_cmpint (g_chmod (path, 0600), ==, 0);
  g_assert_true (suanli_plan_save (plan, file, &error));
  g_assert_no_error (error);
  g_assert_cmpint (g_stat (path, &info), ==, 0);
  g_assert_cmpint (info.st_mode & 0777, ==, 0600);
  g_unlink (path);
  g_rmdir (directory);
}

/* What JSON cannot hold never gets into a plan: 1e999 reads as infinity and is refused by name. */
static void
test_infinity_refused (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(SuanliPlan) plan = suanli_plan_new_from_data ("{\"workload\": {\"tokens\": 1e999}}", -1, "inf.suanli-plan",
                                                          &error);

  g_assert_null (plan);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA);
  g_assert_cmpstr (error->message, ==, "inf.suanli-plan: workload.tokens: infinity is not a number JSON can hold");
  g_clear_error (&error);

  plan = suanli_plan_new ();
  g_assert_false (suanli_plan_apply_merge_patch_data (plan, "{\"assumptions\": {\"pue\": -1e400}}", &error));
  g_assert_cmpstr (error->message, ==, "assumptions.pue: -infinity is not a number JSON can hold");
  g_assert_false (json_object_has_member (suanli_plan_get_root (plan), "assumptions"));
}

int
main (int   argc,
      char *argv[])
{
  g_autoptr(GPtrArray) problems = g_ptr_array_new_with_free_func (g_free);
  int status;

  g_test_init (&argc, &argv, NULL);
  catalog = suanli_catalog_new ();
  suanli_catalog_load_builtin (catalog, problems);
  g_test_add_func ("/plan-limits/edges", test_edges);
  g_test_add_func ("/plan-limits/save-keeps-mode", test_save_keeps_mode);
  g_test_add_func ("/plan-limits/infinity-refused", test_infinity_refused);
  status = g_test_run ();
  g_object_unref (catalog);
  return status;
}
