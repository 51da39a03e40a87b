/* test-plan-name.c — a plan's name: derived from its model, mode and hardware until the user gives one
 *
 * Plans use the built-in catalog's parts; the names expected are written out as a user reads them.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "suanli-catalog.h"
#include "suanli-plan-name.h"
#include "suanli-test-estimate.h"

/* The name in effect for the plan @json, resolved against the built-in catalog (errors allowed). */
static char *
name_of (const char *json)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(SuanliPlan) plan = suanli_plan_new_from_data (json, -1, "test.suanli-plan", &error);
  g_autoptr(GPtrArray) errors = g_ptr_array_new_with_free_func ((GDestroyNotify) suanli_plan_issue_free);
  g_autoptr(GPtrArray) warnings = g_ptr_array_new_with_free_func ((GDestroyNotify) suanli_plan_issue_free);
  SuanliPlanInputs inputs;

  g_assert_no_error (error);
  suanli_plan_inputs_resolve (plan, suanli_test_estimate_catalog (), &inputs, errors, warnings);
  return suanli_plan_name_dup (plan, &inputs);
}

#define assert_name(json, expected) \
  G_STMT_START { g_autofree char *name_ = name_of (json); g_assert_cmpstr (name_, ==, (expected)); } G_STMT_END

static void
test_derived (void)
{
  /* The preset's catalog name, the mode, the GPU count and the accelerator's catalog name. */
  assert_name ("{\"model\": {\"preset\": \"llama-2-7b\"}, \"system\": {\"accelerator\": \"nvidia-h100-sxm\"}}",
               "Llama 2 7B training on 8 × H100 SXM");
  assert_name ("{\"model\": {\"preset\": \"llama-2-70b\"}, \"workload\": {\"mode\": \"finetune-lora\"},"
               " \"system\": {\"accelerator\": \"nvidia-h100-sxm\"}}",
               "Llama 2 70B LoRA on 8 × H100 SXM");
  assert_name ("{\"model\": {\"preset\": \"llama-2-70b\"}, \"workload\": {\"mode\": \"finetune-qlora\"},"
               " \"system\": {\"accelerator\": \"nvidia-h100-sxm\", \"gpus_per_node\": 1}}",
               "Llama 2 70B QLoRA on 1 × H100 SXM");
  assert_name ("{\"model\": {\"preset\": \"llama-2-70b\"}, \"workload\": {\"mode\": \"finetune\"},"
               " \"system\": {\"accelerator\": \"nvidia-h100-sxm\", \"nodes\": 2}}",
               "Llama 2 70B fine-tune on 16 × H100 SXM");
  assert_name ("{\"model\": {\"preset\": \"llama-2-70b\"}, \"workload\": {\"mode\": \"inference\"},"
               " \"system\": {\"accelerator\": \"nvidia-h200-sxm\", \"nodes\": 4}}",
               "Llama 2 70B inference on 32 × H200 SXM");
  /* Without a preset: the parameter count. */
  assert_name ("{\"model\": {\"parameters\": 70e9, \"layers\": 80, \"hidden\": 8192, \"heads\": 64},"
               " \"system\": {\"accelerator\": \"nvidia-h100-sxm\"}}",
               "70B model training on 8 × H100 SXM");
  assert_name ("{\"model\": {\"parameters\": 1.3e9, \"layers\": 24, \"hidden\": 2048, \"heads\": 16},"
               " \"system\": {\"accelerator\": \"nvidia-h100-sxm\"}}",
               "1.3B model training on 8 × H100 SXM");
  assert_name ("{\"model\": {\"parameters\": 125e6, \"layers\": 12, \"hidden\": 768, \"heads\": 12},"
               " \"system\": {\"accelerator\": \"nvidia-h100-sxm\"}}",
               "125M model training on 8 × H100 SXM");
  /* A blank name is no name: the plan follows. */
  assert_name ("{\"name\": \" \", \"model\": {\"preset\": \"llama-2-7b\"}, \"system\": {\"accelerator\": \"nvidia-h100-sxm\"}}",
               "Llama 2 7B training on 8 × H100 SXM");
}

/* What did not resolve is left out of the name, and an empty plan is just a plan. */
static void
test_partial (void)
{
  assert_name ("{\"model\": {\"preset\": \"llama-2-7b\"}, \"system\": {\"accelerator\": \"no-such-gpu\"}}",
               "Llama 2 7B training");
  assert_name ("{\"system\": {\"accelerator\": \"nvidia-h100-sxm\"}}", "Plan");
}

/* A name of the plan's own (as old files have) stays whatever the model and hardware. */
static void
test_edited (void)
{
  g_autoptr(SuanliPlan) plan = suanli_plan_new ();
  g_autoptr(GPtrArray) errors = g_ptr_array_new_with_free_func ((GDestroyNotify) suanli_plan_issue_free);
  g_autoptr(GPtrArray) warnings = g_ptr_array_new_with_free_func ((GDestroyNotify) suanli_plan_issue_free);
  g_autofree char *derived = NULL;
  g_autofree char *edited = NULL;
  g_autofree char *followed = NULL;
  g_autofree char *unresolved = NULL;
  SuanliPlanInputs inputs;

  g_assert_true (suanli_plan_apply_merge_patch_data (plan, "{\"model\": {\"preset\": \"llama-2-70b\"},"
                                                     " \"system\": {\"accelerator\": \"nvidia-h100-sxm\"}}", NULL));
  g_assert_false (suanli_plan_name_is_edited (plan));
  suanli_plan_inputs_resolve (plan, suanli_test_estimate_catalog (), &inputs, errors, warnings);
  derived = suanli_plan_name_dup (plan, &inputs);
  g_assert_cmpstr (derived, ==, "Llama 2 70B training on 8 × H100 SXM");

  assert_name ("{\"name\": \"Llama 2 7B on 8 × H100\", \"model\": {\"preset\": \"llama-2-70b\"},"
               " \"system\": {\"accelerator\": \"nvidia-h200-sxm\"}}", "Llama 2 7B on 8 × H100");
  g_assert_true (suanli_plan_apply_merge_patch_data (plan, "{\"name\": \"Fine-tune for Ann\"}", NULL));
  g_assert_true (suanli_plan_name_is_edited (plan));
  edited = suanli_plan_name_dup (plan, &inputs);
  g_assert_cmpstr (edited, ==, "Fine-tune for Ann");
  /* Without inputs (a plan that did not resolve), an edited name is still the plan's. */
  unresolved = suanli_plan_name_dup (plan, NULL);
  g_assert_cmpstr (unresolved, ==, "Fine-tune for Ann");

  /* Removing the name makes the plan follow again. */
  g_assert_true (suanli_plan_apply_merge_patch_data (plan, "{\"name\": null}", NULL));
  g_assert_false (suanli_plan_name_is_edited (plan));
  followed = suanli_plan_name_dup (plan, &inputs);
  g_assert_cmpstr (followed, ==, derived);
}

int
main (int argc, char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/plan-name/derived", test_derived);
  g_test_add_func ("/plan-name/partial", test_partial);
  g_test_add_func ("/plan-name/edited", test_edited);
  return g_test_run ();
}
