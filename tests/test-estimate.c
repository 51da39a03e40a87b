/* test-estimate.c — the estimation engine against values computed by hand and published examples
 *
 * Expected values are literals worked out in the comments (or in the cited paper), never computed by
 * the code under test. Plans use the built-in catalog's parts.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include "suanli-advice.h"
#include "suanli-catalog.h"
#include "suanli-estimate-json.h"
#include "suanli-plan-hardware.h"
#include "suanli-search.h"
#include "suanli-test-estimate.h"

/* Rajbhandari et al. (2020), Figure 1: Ψ = 7.5B parameters, N_d = 64, K = 12:
 * stage 0: 16Ψ = 120 GB; 1: 4Ψ + 12Ψ/64 = 31.4 GB; 2: 2Ψ + 14Ψ/64 = 16.6 GB; 3: 16Ψ/64 = 1.88 GB. */
static void
test_zero_published_example (void)
{
  const double expected[] = { 120000000000.0, 31406250000.0, 16640625000.0, 1875000000.0 };

  for (int stage = 0; stage <= 3; stage++)
    {
      g_autofree char *json = g_strdup_printf (
        "{\"model\": {\"parameters\": 7.5e9}, \"workload\": {\"tokens\": 150e9},"
        " \"parallelism\": {\"zero_stage\": %d},"
        " \"system\": {\"accelerator\": \"nvidia-h100-sxm\", \"gpus_per_node\": 8, \"nodes\": 8}}", stage);
      SuanliPlanInputs in;
      SuanliEstimate e;

      suanli_test_estimate_valid (json, &in, &e);
      g_assert_cmpfloat (in.data, ==, 64);
      assert_close (e.weights + e.gradients + e.optimizer, expected[stage]);
    }
}

/* GPT-3 175B (L 96, h 12288, a 96, plain 4h feed-forward, V 50257, s 2048), 300B tokens on 1024 GPUs
 * at 140 TFLOP/s achieved, full recomputation, B = 1536. Forward per token, from the matrices:
 * 24·h²·L = 347,892,350,976, attention counted against the whole sequence as the paper counts it,
 * 4·h·L·s = 9,663,676,416, logits 2·h·V = 1,235,116,032: 358,791,143,424. Hardware FLOPs per token
 * = 3 × forward + the layers' forward again = 1,433,929,457,664; per step × 1536 × 2048 =
 * 4.510752045e18; step = 4.510752045e18 / (1024 × 140e12) = 31.4645092425 s; time = 300e9 / (1536 ×
 * 2048 / 31.4645092425) = 3,000,689.43 s = 34.73 days ("about 34 days", Narayanan et al. 2021, §5.1,
 * who count no downtime: goodput 1). GPU-hours = 1024 × 3,000,689.43 / 3600 = 853,529.44. */
static void
test_gpt3_published_example (void)
{
  SuanliPlanInputs in;
  SuanliEstimate e;

  suanli_test_estimate_valid ("{\"model\": {\"preset\": \"gpt-3-175b\"},"
                  " \"workload\": {\"seq_len\": 2048, \"global_batch\": 1536, \"tokens\": 300e9},"
                  " \"parallelism\": {\"tensor\": 8, \"pipeline\": 16},"
                  " \"techniques\": {\"recompute\": \"full\"},"
                  " \"system\": {\"accelerator\": \"nvidia-a100-80gb-sxm\", \"gpus_per_node\": 8, \"nodes\": 128},"
                  " \"assumptions\": {\"achieved_tflops\": 140, \"price_per_gpu_hour\": 2, \"goodput\": 1}}", &in, &e);
  suanli_test_assert_relative (e.hardware_flops_per_step, 4.510752044998e18, 1e-9, "hardware FLOPs");
  /* Model FLOPs: 3 × forward × 1536 × 2048 = 3.385978038e18. */
  suanli_test_assert_relative (e.model_flops_per_step, 3.385978038063e18, 1e-9, "model FLOPs");
  suanli_test_assert_relative (e.step_time_s, 31.4645092425, 1e-9, "step time");
  suanli_test_assert_relative (e.time_to_train_s, 3000689.434286, 1e-9, "time to train");
  suanli_test_assert_relative (e.time_to_train_s / 86400, 34.730202, 1e-6, "days");
  suanli_test_assert_relative (e.gpu_hours, 853529.439086, 1e-9, "GPU-hours");
  /* MFU against the A100's 312 TFLOP/s BF16: 3.386e18 / (31.4645 × 1024 × 312e12) = 0.33683. */
  suanli_test_assert_relative (e.mfu, 0.336828339152, 1e-9, "MFU");
  /* Cost: 853,529.44 GPU-hours × 2 = 1,707,058.88. Energy: × 0.4 kW × PUE 1.1 = 375,552.95 kWh. */
  suanli_test_assert_relative (e.cost, 1707058.878171, 1e-9, "cost");
  suanli_test_assert_relative (e.energy_kwh, 375552.953198, 1e-9, "energy");
  /* CO2: 375.553 MWh × 0.385 t/MWh = 144.588 t. */
  suanli_test_assert_relative (e.co2_t, 144.587887, 1e-6, "CO2");
  /* An achieved rate is the plan's own figure: the estimate carries no range around it. */
  g_assert_false (e.efficiency.modelled);
  g_assert_cmpfloat (e.training_low.time_to_train_s, ==, e.time_to_train_s);
  g_assert_cmpfloat (e.training_high.time_to_train_s, ==, e.time_to_train_s);
}

/* Llama-2-70B: L 80, 8 KV heads, head size 8192/64 = 128, fp16: 2 × 80 × 8 × 128 × 2 = 327,680 B
 * = 320 KiB per token; 4096 tokens take 1,342,177,280 B = 1.25 GiB. */
static void
test_llama2_kv_cache (void)
{
  SuanliPlanInputs in;
  SuanliEstimate e;

  suanli_test_estimate_valid ("{\"model\": {\"preset\": \"llama-2-70b\"},"
                  " \"workload\": {\"mode\": \"inference\", \"prompt_tokens\": 3072, \"output_tokens\": 1024},"
                  " \"precision\": {\"compute\": \"fp16\", \"kv_cache\": \"fp16\"},"
                  " \"parallelism\": {\"tensor\": 8},"
                  " \"system\": {\"accelerator\": \"nvidia-h100-sxm\", \"gpus_per_node\": 8}}", &in, &e);
  g_assert_cmpfloat (e.inference.kv_bytes_per_token, ==, 327680);
  g_assert_cmpfloat (e.inference.kv_bytes_per_token * 4096, ==, 1342177280.0);
  /* Over 8-way tensor parallelism each GPU holds one of the 8 KV heads: 327,680 / 8 × 4096 per sequence. */
  g_assert_cmpfloat (e.kv_cache, ==, 327680.0 / 8 * 4096);
}

/* Activations per layer per micro-batch (Korthikanti et al. 2022, Table 2), s = 2048, b = 1,
 * h = 1024, a = 16, 2 layers, so s·b·h = 2,097,152 and 5·a·s/h = 160:
 *   none, no FlashAttention:   2,097,152 × (34 + 160) × 2 layers = 813,694,976
 *   selective:                 2,097,152 × 34 × 2 = 142,606,336
 *   full:                      2 × 2,097,152 × 2 = 8,388,608
 *   none with FlashAttention:  2,097,152 × 34 × 2 = 142,606,336
 *   t = 2, none, no FlashAttention: 2,097,152 × (10 + 24/2 + 160/2) × 2 = 427,819,008
 *   t = 2, sequence parallel, selective: 2,097,152 × 34/2 × 2 = 71,303,168 */
static void
test_activations (void)
{
  const struct { const char *extra; int tensor; double expected; } cases[] = {
    { "\"recompute\": \"none\", \"flash_attention\": false", 1, 813694976.0 },
    { "\"recompute\": \"selective\", \"flash_attention\": false", 1, 142606336.0 },
    { "\"recompute\": \"full\", \"flash_attention\": false", 1, 8388608.0 },
    { "\"recompute\": \"none\", \"flash_attention\": true", 1, 142606336.0 },
    { "\"recompute\": \"none\", \"flash_attention\": false", 2, 427819008.0 },
    { "\"recompute\": \"selective\"", -2, 71303168.0 },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      int tensor = ABS (cases[i].tensor);
      g_autofree char *json = g_strdup_printf (
        "{\"model\": {\"parameters\": 3e7, \"layers\": 2, \"hidden\": 1024, \"heads\": 16, \"vocab\": 32000},"
        " \"workload\": {\"seq_len\": 2048, \"global_batch\": 8, \"micro_batch\": 1},"
        " \"techniques\": {%s}, \"parallelism\": {\"tensor\": %d, \"sequence_parallel\": %s},"
        " \"system\": {\"accelerator\": \"nvidia-h100-sxm\", \"gpus_per_node\": %d}}",
        cases[i].extra, tensor, cases[i].tensor < 0 ? "true" : "false", tensor);
      SuanliPlanInputs in;
      SuanliEstimate e;

      suanli_test_estimate_valid (json, &in, &e);
      assert_close (e.activations, cases[i].expected);
    }
}

/* Pipeline of 2 stages, 4 layers, 8 micro-batches: the first stage holds L/p = 2 layers for
 * min(m, p) = 2 micro-batches = 4 layers' worth; two virtual stages multiply by
 * 1 + (2 − 1)/(2 × 2) = 1.25. With selective recompute and FlashAttention one layer is 2,097,152 × 34
 * = 71,303,168 B: 285,212,672 B, and 356,515,840 B interleaved. Bubble: (p − 1)/(v·m) = 1/8, 1/16. */
static void
test_pipeline (void)
{
  for (int virtual_stages = 1; virtual_stages <= 2; virtual_stages++)
    {
      g_autofree char *json = g_strdup_printf (
        "{\"model\": {\"parameters\": 6e7, \"layers\": 4, \"hidden\": 1024, \"heads\": 16, \"vocab\": 32000},"
        " \"workload\": {\"seq_len\": 2048, \"global_batch\": 8, \"micro_batch\": 1},"
        " \"techniques\": {\"recompute\": \"selective\"},"
        " \"parallelism\": {\"pipeline\": 2, \"virtual_stages\": %d},"
        " \"system\": {\"accelerator\": \"nvidia-h100-sxm\", \"gpus_per_node\": 2}}", virtual_stages);
      SuanliPlanInputs in;
      SuanliEstimate e;

      suanli_test_estimate_valid (json, &in, &e);
      assert_close (e.activations, virtual_stages == 1 ? 285212672.0 : 356515840.0);
      /* The bubble is its fraction of the pipeline's work (compute plus tensor-parallel traffic, none here). */
      assert_close (e.bubble_s / e.compute_s, virtual_stages == 1 ? 1.0 / 8 : 1.0 / 16);
    }
}

/* FLOPs per step, B = 8, s = 2048, L = 2, h = 1024, 16 heads, V = 32000, plain 4h feed-forward.
 * Forward per token: matrices 24·h²·L = 50,331,648; attention counted against the whole sequence, as
 * Megatron, NeMo and PaLM count it (24h² + 4hs per layer), 4·h·L·s = 16,777,216; logits 2·h·V =
 * 65,536,000; in all 132,644,864. Per step (× B·s = 16,384):
 *   model = 3 × forward = 6,519,760,355,328
 *   selective = model + the attention once more = 6,794,638,262,272
 *   full = model + the layers' forward (matrices and attention) again = 7,619,271,983,104 */
static void
test_flops (void)
{
  const char *modes[] = { "none", "selective", "full" };
  const double expected[] = { 6519760355328.0, 6794638262272.0, 7619271983104.0 };

  for (guint i = 0; i < G_N_ELEMENTS (modes); i++)
    {
      g_autofree char *json = g_strdup_printf (
        "{\"model\": {\"layers\": 2, \"hidden\": 1024, \"heads\": 16, \"vocab\": 32000},"
        " \"workload\": {\"seq_len\": 2048, \"global_batch\": 8},"
        " \"techniques\": {\"recompute\": \"%s\"},"
        " \"system\": {\"accelerator\": \"nvidia-h100-sxm\", \"gpus_per_node\": 1}}", modes[i]);
      SuanliPlanInputs in;
      SuanliEstimate e;

      suanli_test_estimate_valid (json, &in, &e);
      assert_close (e.model_flops_per_step, 6519760355328.0);
      assert_close (e.hardware_flops_per_step, expected[i]);
    }
}

/* Decoding 7e9 parameters (L 32, h 4096, 32 heads, 8 KV heads, gated feed-forward of 14336) in bf16
 * on one H100 (3.35 TB/s, 989 TFLOP/s), batch 1, 1000 prompt and 200 output tokens, memory
 * efficiency 0.8, compute 0.45:
 *   KV per token = 2 × 32 × 8 × 128 × 2 = 131,072 B
 *   bytes per step = 7e9 × 2 + 131,072 × (1000 + 200/2) = 14,144,179,200
 *   memory time = 14,144,179,200 / (3.35e12 × 0.8) = 5.277678806 ms; compute 0.033 ms: memory bound;
 *   189.477 tokens/s
 *   prefill per token: matrices 2 × 32 × (2·4096·4096 + 2·4096·1024 + 3·4096·14336) = 13,958,643,712,
 *   causal attention 32 × 2 × 32 × 256 × 1001/2 = 262,406,144, logits 2 × 4096 × 32000 = 262,144,000:
 *   14,483,193,856; time to first token = 14,483,193,856 × 1000 / (989e12 × 0.45) = 32.543 ms */
static void
test_decode (void)
{
  SuanliPlanInputs in;
  SuanliEstimate e;

  suanli_test_estimate_valid ("{\"model\": {\"parameters\": 7e9, \"layers\": 32, \"hidden\": 4096, \"heads\": 32,"
                  "  \"kv_heads\": 8, \"ffn_hidden\": 14336, \"vocab\": 32000},"
                  " \"workload\": {\"mode\": \"inference\", \"prompt_tokens\": 1000, \"output_tokens\": 200},"
                  " \"system\": {\"accelerator\": \"nvidia-h100-sxm\", \"gpus_per_node\": 1},"
                  " \"assumptions\": {\"compute_efficiency\": 0.45}}", &in, &e);
  g_assert_cmpfloat (e.inference.kv_bytes_per_token, ==, 131072);
  assert_close (e.inference.tpot_s, 5.277678805970e-03);
  assert_close (e.inference.tokens_per_s, 189.4772373925);
  assert_close (e.inference.ttft_s, 3.254284654758e-02);
  g_assert_true (e.inference.memory_bound);
  /* The bounds bracket the nominal figure. */
  g_assert_cmpfloat (e.inference_high.tokens_per_s, >, e.inference.tokens_per_s);
  g_assert_cmpfloat (e.inference_low.tokens_per_s, <, e.inference.tokens_per_s);
  /* The weights take 14 GB of the H100's 85,520,809,984 B. */
  g_assert_cmpfloat (e.weights, ==, 14e9);
}

/* Offloaded states must fit the node's CPU memory (with a 1.5x margin). 7.5e9 parameters on 8 GPUs,
 * ZeRO-1, AdamW: each rank moves its partition of the optimizer (12 × 7.5e9 / 8) and of the gradients
 * it steps with (2 × 7.5e9 / 8), 13.125e9 B; × 8 GPUs = 105e9 B per node; × 1.5 = 157.5e9 B, which
 * 152 GiB (163,208,757,248 B) holds and 144 GiB (154,618,822,656 B) does not. */
static void
test_offload_needs_cpu_memory (void)
{
  for (int gib = 144; gib <= 152; gib += 8)
    {
      g_autofree char *json = g_strdup_printf (
        "{\"model\": {\"parameters\": 7.5e9}, \"workload\": {\"tokens\": 150e9},"
        " \"parallelism\": {\"zero_stage\": 1, \"offload\": \"optimizer\"},"
        " \"system\": {\"accelerator\": \"nvidia-h100-sxm\", \"cpu_memory_per_node_gib\": %d}}", gib);
      SuanliPlanInputs in;
      SuanliEstimate e;

      suanli_test_estimate_valid (json, &in, &e);
      g_assert_cmpfloat (e.optimizer, ==, 0);
      g_assert_cmpfloat (e.gradients, ==, 0);
      assert_close (e.cpu_offload_per_node, 105e9);
      g_assert_cmpint (e.cpu_fits, ==, gib == 152);
      g_assert_cmpint (e.fits, ==, gib == 152);
    }
}

/* JSON has no NaN: a plan that writes one is not JSON, and the error says where. */
static void
test_nan_is_not_json (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(SuanliPlan) plan = suanli_plan_new_from_data ("{\n  \"model\": {\"parameters\": NaN}}", -1, "nan.suanli-plan",
                                                          &error);

  g_assert_null (plan);
  g_assert_true (g_str_has_prefix (error->message, "nan.suanli-plan:2:"));
}

static GPtrArray *
new_issues (void)
{
  return g_ptr_array_new_with_free_func ((GDestroyNotify) suanli_plan_issue_free);
}

static gboolean
has_error (GPtrArray  *errors,
           const char *field,
           const char *words)
{
  for (guint i = 0; i < errors->len; i++)
    {
      SuanliPlanIssue *issue = g_ptr_array_index (errors, i);

      if (g_str_equal (issue->field, field) && (words == NULL || strstr (issue->message, words) != NULL))
        return TRUE;
    }
  return FALSE;
}

static void
assert_invalid (const char *patch,
                const char *field,
                const char *words)
{
  g_autofree char *json = g_strdup_printf (
    "{\"model\": {\"preset\": \"llama-2-7b\"}, \"workload\": {\"global_batch\": 64},"
    " \"system\": {\"accelerator\": \"nvidia-h100-sxm\", \"gpus_per_node\": 8}%s}", patch);
  g_autoptr(GPtrArray) errors = new_issues ();
  SuanliPlanInputs in;
  SuanliEstimate e;

  g_assert_false (suanli_test_resolve (json, &in, &e, errors));
  if (!has_error (errors, field, words))
    {
      for (guint i = 0; i < errors->len; i++)
        g_printerr ("%s: %s\n", ((SuanliPlanIssue *) g_ptr_array_index (errors, i))->field,
                    ((SuanliPlanIssue *) g_ptr_array_index (errors, i))->message);
      g_error ("no error on %s saying “%s” for %s", field, words ? words : "", patch);
    }
}

static void
test_bad_plans (void)
{
  assert_invalid (", \"parallelism\": {\"tensor\": 0}", "parallelism.tensor", "more than zero");
  assert_invalid (", \"parallelism\": {\"tensor\": -2}", "parallelism.tensor", "more than zero");
  assert_invalid (", \"parallelism\": {\"tensor\": \"8\"}", "parallelism.tensor", "must be a number");
  assert_invalid (", \"parallelism\": {\"tensor\": 1.5}", "parallelism.tensor", "whole number");
  assert_invalid (", \"parallelism\": {\"tensor\": 3, \"data\": 1}", "parallelism.tensor", NULL);
  assert_invalid (", \"parallelism\": {\"tensor\": 8}, \"model\": {\"preset\": \"llama-2-7b\", \"heads\": 12, \"kv_heads\": 12}",
                  "parallelism.tensor", "heads");
  assert_invalid (", \"parallelism\": {\"pipeline\": 8}, \"model\": {\"preset\": \"llama-2-7b\", \"layers\": 4}",
                  "parallelism.pipeline", "layers");
  assert_invalid (", \"workload\": {\"global_batch\": 60}", "workload.global_batch", "do not split");
  assert_invalid (", \"parallelism\": {\"data\": 4}", "parallelism.data", "8 GPUs");
  assert_invalid (", \"model\": {\"preset\": \"no-such-model\"}", "model.preset", "no catalog item");
  assert_invalid (", \"system\": {\"accelerator\": \"llama-2-7b\"}", "system.accelerator", "is a model");
  assert_invalid (", \"colour\": \"green\"", "colour", "unknown key");
  assert_invalid (", \"workload\": {\"batch_size\": 4}", "workload.batch_size", "unknown key");
  assert_invalid (", \"workload\": {\"mode\": \"pretrain\"}", "workload.mode", "must be one of");
  assert_invalid (", \"precision\": {\"compute\": \"fp8\"}, \"system\": {\"accelerator\": \"nvidia-a100-80gb-sxm\"}",
                  "precision.compute", "A100 80GB SXM: no dense FP8 rate in the catalog");
  assert_invalid (", \"parallelism\": {\"zero_stage\": 4}", "parallelism.zero_stage", NULL);
  assert_invalid (", \"parallelism\": {\"offload\": \"optimizer+parameters\", \"zero_stage\": 2}",
                  "parallelism.offload", "stage 3");
  assert_invalid (", \"assumptions\": {\"mfu\": 1.5}", "assumptions.mfu", "share from 0.01 to 1");
  assert_invalid (", \"assumptions\": {\"comm_efficiency\": 5e-324}", "assumptions.comm_efficiency", "share from 0.01 to 1");
  /* Absurd sizes are refused by name, before any product of them overflows. */
  assert_invalid (", \"workload\": {\"global_batch\": 1e18}", "workload.global_batch", "at most 1e+09");
  assert_invalid (", \"model\": {\"preset\": \"llama-2-7b\", \"experts\": 4294967296}", "model.experts", "at most");
  assert_invalid (", \"model\": {\"parameters\": 1e30}", "model.parameters", "at most 1e+18");
  assert_invalid (", \"techniques\": {\"flash_attention\": \"yes\"}", "techniques.flash_attention", "true or false");
  assert_invalid (", \"schema\": 1", "schema", "suanli-plan/1");
  /* Inference needs the architecture for its KV cache: parameters alone are not enough. */
  assert_invalid (", \"model\": {\"parameters\": 7e9}, \"workload\": {\"mode\": \"inference\"}", "model.layers",
                  "architecture");
}

static void
test_truncated_plan (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(SuanliPlan) plan = suanli_plan_new_from_data ("{\"model\": {\"preset\": \"llama-2-7b\"},\n \"system\": {",
                                                          -1, "cut.suanli-plan", &error);

  g_assert_null (plan);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA);
  g_assert_true (g_str_has_prefix (error->message, "cut.suanli-plan:2:"));
}

/* Random valid plans: the estimator's invariants hold and every output is finite. */
static void
test_properties (void)
{
  g_autoptr(GRand) rand = g_rand_new_with_seed (20261129);
  const char *accelerators[] = { "nvidia-h100-sxm", "nvidia-h200-sxm", "nvidia-a100-80gb-sxm", "amd-mi300x" };
  const char *models[] = { "llama-2-7b", "llama-2-13b", "llama-2-70b", "llama-3-8b", "gpt-3-175b", "mixtral-8x7b" };

  for (guint round = 0; round < 300; round++)
    {
      const char *model = models[g_rand_int_range (rand, 0, G_N_ELEMENTS (models))];
      const char *accelerator = accelerators[g_rand_int_range (rand, 0, G_N_ELEMENTS (accelerators))];
      int nodes = 1 << g_rand_int_range (rand, 0, 4), zero = g_rand_int_range (rand, 0, 4);
      int tensor = 1 << g_rand_int_range (rand, 0, 3);
      double tokens = 1e9 * g_rand_int_range (rand, 1, 2000);
      SuanliPlanInputs in, in_double;
      SuanliEstimate e, e_more_data, e_double, e_selective;
      g_autofree char *base = g_strdup_printf (
        "\"model\": {\"preset\": \"%s\"}, \"parallelism\": {\"tensor\": %d, \"zero_stage\": %d},"
        " \"workload\": {\"global_batch\": 1024, \"seq_len\": %d, \"tokens\": %.6g}",
        model, tensor, zero, 1024 << g_rand_int_range (rand, 0, 3), tokens);
      g_autofree char *plan = g_strdup_printf ("{%s, \"system\": {\"accelerator\": \"%s\", \"nodes\": %d}}", base,
                                               accelerator, nodes);
      g_autofree char *more_data = g_strdup_printf ("{%s, \"system\": {\"accelerator\": \"%s\", \"nodes\": %d}}",
                                                    base, accelerator, nodes * 2);
      g_autofree char *doubled = g_strdup_printf (
        "{\"model\": {\"preset\": \"%s\"}, \"parallelism\": {\"tensor\": %d, \"zero_stage\": %d},"
        " \"workload\": {\"global_batch\": 1024, \"tokens\": %.6g}, \"system\": {\"accelerator\": \"%s\", \"nodes\": %d}}",
        model, tensor, zero, 2 * tokens, accelerator, nodes);
      g_autofree char *selective = g_strdup_printf (
        "{%s, \"techniques\": {\"recompute\": \"selective\"}, \"system\": {\"accelerator\": \"%s\", \"nodes\": %d}}",
        base, accelerator, nodes);
      g_autofree char *json_e = NULL;
      const double *fields;

      suanli_test_estimate_valid (plan, &in, &e);
      suanli_test_estimate_valid (more_data, &in_double, &e_more_data);

      /* ZeRO-3 model states per GPU never grow with more data-parallel GPUs. */
      if (zero == 3)
        g_assert_cmpfloat (e_more_data.weights + e_more_data.gradients + e_more_data.optimizer, <=,
                           e.weights + e.gradients + e.optimizer);
      /* Twice the tokens, twice the time (the same plan otherwise, at the default sequence length). */
      {
        SuanliPlanInputs in_single;
        SuanliEstimate e_single;
        g_autofree char *single = g_strdup_printf (
          "{\"model\": {\"preset\": \"%s\"}, \"parallelism\": {\"tensor\": %d, \"zero_stage\": %d},"
          " \"workload\": {\"global_batch\": 1024, \"tokens\": %.6g}, \"system\": {\"accelerator\": \"%s\", \"nodes\": %d}}",
          model, tensor, zero, tokens, accelerator, nodes);

        suanli_test_estimate_valid (single, &in_single, &e_single);
        suanli_test_estimate_valid (doubled, &in_double, &e_double);
        suanli_test_assert_relative (e_double.time_to_train_s, 2 * e_single.time_to_train_s, 1e-12, "doubled time");
      }
      /* Selective recomputation never raises activation memory. */
      suanli_test_estimate_valid (selective, &in, &e_selective);
      g_assert_cmpfloat (e_selective.activations, <=, e.activations);

      /* Every output is finite. */
      fields = (const double *) &e;
      for (guint i = 0; i < offsetof (SuanliEstimate, inference) / sizeof (double); i++)
        if (i * sizeof (double) != offsetof (SuanliEstimate, fits) &&
            i * sizeof (double) < offsetof (SuanliEstimate, fits))
          g_assert_true (isfinite (fields[i]));
      json_e = suanli_estimate_to_json (&in, &e, NULL, NULL, NULL, NULL, NULL);
      g_assert_null (strstr (json_e, ": nan"));
      g_assert_null (strstr (json_e, ": -nan"));
      g_assert_null (strstr (json_e, ": inf"));
      g_assert_null (strstr (json_e, ": -inf"));
    }
}

/* Every advice item's change, applied, moves its figure the way it says. */
static void
test_advice_effects (void)
{
  const char *plans[] = {
    /* too big for 8 H100s: recompute, ZeRO, 8-bit Adam, offload, FlashAttention, Chinchilla */
    "{\"model\": {\"preset\": \"llama-2-70b\"}, \"workload\": {\"seq_len\": 4096, \"tokens\": 1e11},"
    " \"techniques\": {\"flash_attention\": false}, \"system\": {\"accelerator\": \"nvidia-h100-sxm\"}}",
    "{\"model\": {\"preset\": \"llama-2-70b\"}, \"parallelism\": {\"zero_stage\": 1},"
    " \"system\": {\"accelerator\": \"nvidia-h100-sxm\", \"nodes\": 2}}",
    /* a deep pipeline with few micro-batches: interleave */
    "{\"model\": {\"preset\": \"llama-2-13b\"}, \"workload\": {\"global_batch\": 8},"
    " \"parallelism\": {\"pipeline\": 4, \"tensor\": 2}, \"system\": {\"accelerator\": \"nvidia-h100-sxm\"}}",
    /* tensor parallelism across nodes */
    "{\"model\": {\"preset\": \"llama-2-70b\"}, \"parallelism\": {\"tensor\": 16, \"zero_stage\": 3},"
    " \"system\": {\"accelerator\": \"nvidia-h100-sxm\", \"nodes\": 4}}",
    /* a full fine-tune whose activations overflow: recompute, FlashAttention, smaller micro-batches */
    "{\"model\": {\"preset\": \"llama-2-7b\"}, \"workload\": {\"mode\": \"finetune\", \"seq_len\": 4096,"
    " \"micro_batch\": 8, \"global_batch\": 64}, \"parallelism\": {\"zero_stage\": 3},"
    " \"techniques\": {\"flash_attention\": false}, \"system\": {\"accelerator\": \"nvidia-h100-sxm\"}}",
    /* model states just over: 8-bit Adam, ZeRO-1, FSDP, LoRA */
    "{\"model\": {\"preset\": \"llama-2-13b\"}, \"workload\": {\"mode\": \"finetune\"},"
    " \"system\": {\"accelerator\": \"nvidia-h100-sxm\", \"gpus_per_node\": 2}}",
    /* a mixture of experts whose experts overflow: expert parallelism */
    "{\"model\": {\"preset\": \"mixtral-8x7b\"}, \"workload\": {\"mode\": \"finetune\"},"
    " \"parallelism\": {\"zero_stage\": 1}, \"system\": {\"accelerator\": \"nvidia-h100-sxm\"}}",
    /* big micro-batches: smaller ones */
    "{\"model\": {\"preset\": \"llama-2-13b\"}, \"workload\": {\"mode\": \"finetune\", \"micro_batch\": 16,"
    " \"global_batch\": 128}, \"parallelism\": {\"zero_stage\": 3}, \"system\": {\"accelerator\": \"nvidia-h100-sxm\"}}",
    /* full fine-tuning of 70B with everything sharded: LoRA, 8-bit Adam, more GPUs */
    "{\"model\": {\"preset\": \"llama-2-70b\"}, \"workload\": {\"mode\": \"finetune\", \"seq_len\": 1024},"
    " \"parallelism\": {\"zero_stage\": 3}, \"techniques\": {\"recompute\": \"full\"},"
    " \"system\": {\"accelerator\": \"nvidia-h100-sxm\", \"gpus_per_node\": 8}}",
    /* LoRA over tensor parallelism on small parts: sequence parallelism, an 8-bit base */
    "{\"model\": {\"preset\": \"llama-2-70b\"}, \"workload\": {\"mode\": \"finetune-lora\", \"seq_len\": 1024},"
    " \"parallelism\": {\"tensor\": 4}, \"system\": {\"accelerator\": \"nvidia-a100-40gb-sxm\", \"gpus_per_node\": 4}}",
    /* inference that does not fit one GPU: quantize, split, 8-bit KV cache */
    "{\"model\": {\"preset\": \"llama-2-70b\"}, \"workload\": {\"mode\": \"inference\", \"batch\": 16},"
    " \"system\": {\"accelerator\": \"nvidia-h100-sxm\"}}",
  };
  const char *expected[] = {
    "recompute-selective", "recompute-full", "zero-stage", "flash-attention", "offload-optimizer",
    "offload-parameters", "offload-nvme", "tensor-parallel", "pipeline-parallel", "interleave-pipeline",
    "tensor-within-node", "chinchilla-tokens", "quantize-int8", "quantize-int4", "kv-cache-fp8", "batch",
    "bigger-accelerator", "lora", "qlora", "combination", "expert-parallel", "micro-batch", "more-gpus", "adamw-8bit",
    "sequence-parallel", "lora-int8",
  };
  g_autoptr(GHashTable) seen = g_hash_table_new (g_str_hash, g_str_equal);

  for (guint p = 0; p < G_N_ELEMENTS (plans); p++)
    {
      SuanliPlanInputs in;
      SuanliEstimate e;
      g_autoptr(GPtrArray) advice = NULL;

      g_autoptr(SuanliPlan) original = suanli_plan_new_from_data (plans[p], -1, "advice", NULL);

      suanli_test_estimate_valid (plans[p], &in, &e);
      advice = suanli_advice_for (original, suanli_test_estimate_catalog (), &in, &e);
      for (guint i = 0; i < advice->len; i++)
        {
          SuanliAdvice *item = g_ptr_array_index (advice, i);
          g_autoptr(GError) error = NULL;
          g_autoptr(SuanliPlan) plan = suanli_plan_new_from_data (plans[p], -1, "advice", &error);
          g_autoptr(GPtrArray) errors = new_issues ();
          g_autoptr(GPtrArray) warnings = new_issues ();
          SuanliPlanInputs after_in;
          SuanliEstimate after;
          double before_value = 0, after_value = 0;

          g_hash_table_add (seen, (gpointer) item->id);
          g_assert_true (suanli_plan_apply_merge_patch_data (plan, item->change, &error));
          g_assert_no_error (error);
          g_assert_true (suanli_plan_inputs_resolve (plan, suanli_test_estimate_catalog (), &after_in, errors, warnings));
          suanli_estimate_compute (&after_in, &after);
          g_assert_true (suanli_estimate_get_figure (&e, item->effect_figure, &before_value));
          g_assert_true (suanli_estimate_get_figure (&after, item->effect_figure, &after_value));
          if (item->effect_direction < 0 ? !(after_value < before_value) : !(after_value > before_value))
            g_error ("advice %s (%s): %s went from %g to %g", item->id, item->change, item->effect_figure,
                     before_value, after_value);
          if (item->technique != NULL)
            g_assert_nonnull (suanli_catalog_lookup (suanli_test_estimate_catalog (), item->technique));
          /* What the advice says the change leads to is what the change leads to. */
          if (item->effect != NULL)
            {
              g_assert_cmpint (item->fits_after, ==, after.fits);
              assert_close (item->total_after, after.total);
            }
        }
    }
  for (guint i = 0; i < G_N_ELEMENTS (expected); i++)
    if (!g_hash_table_contains (seen, expected[i]))
      {
        g_autoptr(GList) keys = g_hash_table_get_keys (seen);
        for (GList *l = keys; l != NULL; l = l->next)
          g_printerr ("seen: %s\n", (const char *) l->data);
        g_error ("no test plan produced the advice “%s”", expected[i]);
      }
}

/* The question users bring: fine-tune Llama 2 70B with LoRA on 8 × H100. It does not fit; the
 * first suggestion makes it fit, and the suggestions include sharding, tensor parallelism and QLoRA;
 * nothing about Chinchilla (a fine-tune is not pre-training), and the time is hours, not years. */
static void
test_advice_lora_70b (void)
{
  const char *json = "{\"model\": {\"preset\": \"llama-2-70b\"}, \"workload\": {\"mode\": \"finetune-lora\"},"
                     " \"system\": {\"accelerator\": \"nvidia-h100-sxm\", \"gpus_per_node\": 8}}";
  g_autoptr(SuanliPlan) plan = suanli_plan_new_from_data (json, -1, "lora", NULL);
  g_autoptr(GPtrArray) advice = NULL;
  g_autoptr(GHashTable) ids = g_hash_table_new (g_str_hash, g_str_equal);
  SuanliPlanInputs in;
  SuanliEstimate e;
  SuanliAdvice *first;

  suanli_test_estimate_valid (json, &in, &e);
  g_assert_false (e.fits);
  /* 100M tokens × 3 epochs. */
  g_assert_cmpfloat (in.tokens, ==, 3e8);
  g_assert_cmpfloat (e.time_to_train_s, <, 2 * 86400);
  advice = suanli_advice_for (plan, suanli_test_estimate_catalog (), &in, &e);
  g_assert_cmpuint (advice->len, >=, 3);
  first = g_ptr_array_index (advice, 0);
  g_assert_true (first->fits_after);
  g_assert_cmpuint (first->changes, ==, 1);
  for (guint i = 0; i < advice->len; i++)
    {
      SuanliAdvice *item = g_ptr_array_index (advice, i);

      g_hash_table_add (ids, (gpointer) item->id);
      g_assert_nonnull (item->effect);
      /* Ranked: what fits first, the fastest of those first. */
      if (i > 0)
        {
          SuanliAdvice *previous = g_ptr_array_index (advice, i - 1);

          g_assert_true (previous->fits_after || !item->fits_after);
          if (previous->fits_after && item->fits_after)
            g_assert_cmpfloat (previous->time_after, <=, item->time_after);
        }
    }
  g_assert_true (g_hash_table_contains (ids, "zero-stage"));
  g_assert_true (g_hash_table_contains (ids, "tensor-parallel"));
  g_assert_true (g_hash_table_contains (ids, "qlora"));
  g_assert_true (g_hash_table_contains (ids, "fsdp"));
  g_assert_false (g_hash_table_contains (ids, "chinchilla-tokens"));
}

/* Serving Llama 3 8B on 8 × H100, one replica per GPU: splitting the model over more GPUs decodes
 * each token sooner but serves fewer requests on the same GPUs, so it is no speed-up; quantized
 * weights are (faster and more requests). Every technique advice names has a title of its own. */
static void
test_advice_serving_speed (void)
{
  const char *json = "{\"model\": {\"preset\": \"llama-3-8b\"}, \"workload\": {\"mode\": \"inference\"},"
                     " \"system\": {\"accelerator\": \"nvidia-h100-sxm\", \"gpus_per_node\": 8}}";
  g_autoptr(SuanliPlan) plan = suanli_plan_new_from_data (json, -1, "serving", NULL);
  g_autoptr(GPtrArray) advice = NULL;
  gboolean quantized = FALSE;
  SuanliPlanInputs in;
  SuanliEstimate e;

  suanli_test_estimate_valid (json, &in, &e);
  g_assert_true (e.fits);
  advice = suanli_advice_for (plan, suanli_test_estimate_catalog (), &in, &e);
  for (guint i = 0; i < advice->len; i++)
    {
      SuanliAdvice *item = g_ptr_array_index (advice, i);

      g_assert_cmpstr (item->id, !=, "tensor-parallel");
      g_assert_cmpfloat (item->capacity_rps_after, >=, e.inference.capacity_rps * 0.98);
      quantized |= g_str_equal (item->id, "quantize-int4");
      if (item->technique != NULL)
        g_assert_nonnull (suanli_advice_technique_title (item->technique));
    }
  g_assert_true (quantized);
  g_assert_cmpstr (suanli_advice_technique_title ("zero-offload"), ==, "CPU offload (ZeRO-Offload)");
  g_assert_null (suanli_advice_technique_title ("no-such-technique"));
}

/* When no single change is enough, the smallest combination that is: full fine-tuning of Llama 2 70B
 * on one node of A100 40GB. */
static void
test_advice_combination (void)
{
  const char *json = "{\"model\": {\"preset\": \"llama-2-70b\"}, \"workload\": {\"mode\": \"finetune\", \"seq_len\": 4096},"
                     " \"system\": {\"accelerator\": \"nvidia-a100-40gb-sxm\", \"gpus_per_node\": 8}}";
  g_autoptr(SuanliPlan) plan = suanli_plan_new_from_data (json, -1, "full", NULL);
  g_autoptr(GPtrArray) advice = NULL;
  g_autoptr(GPtrArray) errors = new_issues ();
  g_autoptr(GPtrArray) warnings = new_issues ();
  SuanliPlanInputs in, after_in;
  SuanliEstimate e, after;
  SuanliAdvice *first;

  suanli_test_estimate_valid (json, &in, &e);
  advice = suanli_advice_for (plan, suanli_test_estimate_catalog (), &in, &e);
  g_assert_cmpuint (advice->len, >, 0);
  first = g_ptr_array_index (advice, 0);
  for (guint i = 1; i < advice->len; i++)
    g_assert_false (((SuanliAdvice *) g_ptr_array_index (advice, i))->fits_after);
  g_assert_cmpstr (first->id, ==, "combination");
  g_assert_cmpuint (first->changes, >=, 2);
  g_assert_true (suanli_plan_apply_merge_patch_data (plan, first->change, NULL));
  g_assert_true (suanli_plan_inputs_resolve (plan, suanli_test_estimate_catalog (), &after_in, errors, warnings));
  suanli_estimate_compute (&after_in, &after);
  g_assert_true (after.fits);
}

static void
test_explanations (void)
{
  SuanliPlanInputs in;
  SuanliEstimate e;
  const char * const *figures = suanli_estimate_get_figures ();

  suanli_test_estimate_valid ("{\"model\": {\"preset\": \"llama-2-7b\"}, \"system\": {\"accelerator\": \"nvidia-h100-sxm\"},"
                  " \"parallelism\": {\"zero_stage\": 1}}", &in, &e);
  for (guint i = 0; figures[i] != NULL; i++)
    {
      g_autofree char *text = suanli_estimate_explain (&in, &e, figures[i]);

      g_assert_nonnull (text);
      g_assert_cmpuint (strlen (text), >, 20);
    }
  {
    g_autofree char *optimizer = suanli_estimate_explain (&in, &e, "memory.optimizer");
    /* The ZeRO-1 optimizer: 12 bytes × P/(t·p), divided over the 8 data-parallel ranks, with its source. */
    g_assert_nonnull (strstr (optimizer, "12 ×"));
    g_assert_nonnull (strstr (optimizer, "÷ d"));
    g_assert_nonnull (strstr (optimizer, "Rajbhandari"));
  }
  g_assert_null (suanli_estimate_explain (&in, &e, "memory.nonsense"));
}

static void
test_json_output (void)
{
  SuanliPlanInputs in;
  SuanliEstimate e;
  g_autoptr(GPtrArray) advice = NULL;
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autofree char *json = NULL;
  JsonObject *root, *memory;
  const char *json_plan = "{\"model\": {\"preset\": \"llama-2-7b\"}, \"system\": {\"accelerator\": \"nvidia-h100-sxm\"}}";
  g_autoptr(SuanliPlan) plan = NULL;

  suanli_test_estimate_valid (json_plan, &in, &e);
  plan = suanli_plan_new_from_data (json_plan, -1, "json", NULL);
  advice = suanli_advice_for (plan, suanli_test_estimate_catalog (), &in, &e);
  json = suanli_estimate_to_json (&in, &e, "Seven", NULL, NULL, advice, NULL);
  g_assert_true (json_parser_load_from_data (parser, json, -1, NULL));
  root = json_node_get_object (json_parser_get_root (parser));
  g_assert_cmpstr (json_object_get_string_member (root, "schema"), ==, "suanli-estimate/1");
  g_assert_cmpstr (json_object_get_string_member (root, "name"), ==, "Seven");
  g_assert_true (json_object_get_boolean_member (root, "valid"));
  g_assert_cmpint (json_object_get_int_member (root, "gpus"), ==, 8);
  memory = json_object_get_object_member (root, "memory");
  g_assert_cmpint (json_object_get_int_member (memory, "capacity"), ==, 85520809984);
  g_assert_true (json_object_has_member (json_object_get_object_member (root, "training"), "time_to_train_s"));
  g_assert_true (json_object_get_null_member (root, "inference"));
}

/* The search's front is non-dominated, every other result is dominated by some result, and each
 * result's change, applied to the plan, gives back its time and cost and fits. */
static void
search_front (gboolean cloud_only)
{
  const char *json = "{\"model\": {\"preset\": \"llama-2-13b\"}, \"workload\": {\"global_batch\": 512, \"tokens\": 3e11},"
                     " \"system\": {\"accelerator\": \"nvidia-h100-sxm\"}, \"assumptions\": {\"price_per_gpu_hour\": 2}}";
  SuanliSearchConstraints constraints = { 0, 0, 256, cloud_only };
  g_autoptr(GArray) results = NULL;
  SuanliPlanInputs in;
  SuanliEstimate e;
  guint evaluated = 0, front = 0;

  suanli_test_estimate_valid (json, &in, &e);
  results = suanli_search_run (&in, suanli_test_estimate_catalog (), &constraints, &evaluated);
  g_assert_cmpuint (evaluated, >, 100);
  g_assert_cmpuint (results->len, >, 0);

  for (guint i = 0; i < results->len; i++)
    {
      SuanliSearchResult *a = &g_array_index (results, SuanliSearchResult, i);
      gboolean dominated = FALSE;

      for (guint j = 0; j < results->len; j++)
        {
          SuanliSearchResult *b = &g_array_index (results, SuanliSearchResult, j);

          if (i != j && b->time_to_train_s <= a->time_to_train_s && b->cost <= a->cost &&
              (b->time_to_train_s < a->time_to_train_s || b->cost < a->cost))
            dominated = TRUE;
        }
      g_assert_cmpint (dominated, ==, a->dominated);
      g_assert_cmpint (*a->cloud_instance_id != '\0', ==, cloud_only);
      front += !a->dominated;
    }
  g_assert_cmpuint (front, >=, 1);

  for (guint i = 0; i < results->len; i += MAX (1, results->len / 20))
    {
      SuanliSearchResult *r = &g_array_index (results, SuanliSearchResult, i);
      g_autofree char *patch = suanli_search_result_patch (r);
      g_autoptr(GError) error = NULL;
      g_autoptr(SuanliPlan) plan = suanli_plan_new_from_data (json, -1, "search", &error);
      g_autoptr(GPtrArray) errors = new_issues ();
      g_autoptr(GPtrArray) warnings = new_issues ();
      SuanliPlanInputs after_in;
      SuanliEstimate after;

      g_assert_true (suanli_plan_apply_merge_patch_data (plan, patch, &error));
      g_assert_true (suanli_plan_inputs_resolve (plan, suanli_test_estimate_catalog (), &after_in, errors, warnings));
      suanli_estimate_compute (&after_in, &after);
      g_assert_true (after.fits);
      assert_close (after.time_to_train_s, r->time_to_train_s);
      assert_close (after.cost, r->cost);
    }
}

static void
test_search_front (void)
{
  search_front (TRUE);
  search_front (FALSE);
}

/* A plan on a cloud instance, with optimizer offload: every configuration found, applied, is a
 * valid plan that gives back the search's time and cost. */
static void
test_search_patches_apply (void)
{
  /* From a cloud instance, and from a server whose own wiring the candidate must not keep. */
  const char *plans[] = {
    "{\"model\": {\"preset\": \"llama-2-7b\"}, \"workload\": {\"global_batch\": 256, \"tokens\": 1e11},"
    " \"parallelism\": {\"zero_stage\": 1, \"offload\": \"optimizer\"},"
    " \"system\": {\"cloud_instance\": \"aws-p4d-24xlarge\"}}",
    "{\"model\": {\"preset\": \"llama-2-7b\"}, \"workload\": {\"global_batch\": 256, \"tokens\": 1e11},"
    " \"parallelism\": {\"zero_stage\": 1}, \"system\": {\"server\": \"huawei-atlas-800t-a2\"}}",
  };

  for (guint p = 0; p < G_N_ELEMENTS (plans); p++)
    {
      const char *json = plans[p];
      SuanliSearchConstraints constraints = { 0, 0, 64, FALSE };
      g_autoptr(GArray) results = NULL;
      SuanliPlanInputs in;
      SuanliEstimate e;

      suanli_test_estimate_valid (json, &in, &e);
      results = suanli_search_run (&in, suanli_test_estimate_catalog (), &constraints, NULL);
      g_assert_cmpuint (results->len, >, 0);
      for (guint i = 0; i < results->len; i += MAX (1, results->len / 40))
        {
          SuanliSearchResult *r = &g_array_index (results, SuanliSearchResult, i);
          g_autofree char *patch = suanli_search_result_patch (r);
          g_autoptr(SuanliPlan) plan = suanli_plan_new_from_data (json, -1, "search", NULL);
          g_autoptr(GPtrArray) errors = new_issues ();
          g_autoptr(GPtrArray) warnings = new_issues ();
          SuanliPlanInputs after_in;
          SuanliEstimate after;

          g_assert_true (suanli_plan_apply_merge_patch_data (plan, patch, NULL));
          if (!suanli_plan_inputs_resolve (plan, suanli_test_estimate_catalog (), &after_in, errors, warnings))
            g_error ("%s makes an invalid plan: %s", patch, ((SuanliPlanIssue *) g_ptr_array_index (errors, 0))->message);
          suanli_estimate_compute (&after_in, &after);
          assert_close (after.time_to_train_s, r->time_to_train_s);
          assert_close (after.cost, r->cost);
        }
    }
}

/* A training job and an inference job on every accelerator of the built-in catalog: each is
 * estimated, or refused with errors that all name the accelerator and the figure it lacks
 * ("Ascend 910C: no memory bandwidth in the catalog"), never with an error that does not say why. */
static void
test_every_accelerator (void)
{
  /* Each job is its text before and after the accelerator's id. */
  const char *jobs[][2] = {
    { "{\"model\": {\"preset\": \"llama-2-7b\"}, \"workload\": {\"mode\": \"train\", \"global_batch\": 512,"
      " \"tokens\": 1e11}, \"parallelism\": {\"zero_stage\": 3}, \"system\": {\"accelerator\": \"",
      "\", \"gpus_per_node\": 8, \"nodes\": 1}}" },
    { "{\"model\": {\"preset\": \"llama-2-7b\"}, \"workload\": {\"mode\": \"inference\", \"prompt_tokens\": 1024,"
      " \"output_tokens\": 256, \"batch\": 1}, \"precision\": {\"compute\": \"bf16\", \"weights\": \"int4\"},"
      " \"system\": {\"accelerator\": \"", "\", \"gpus_per_node\": 1}}" },
  };
  guint n = g_list_model_get_n_items (G_LIST_MODEL (suanli_test_estimate_catalog ())), accelerators = 0, planned = 0, refused = 0;

  for (guint i = 0; i < n; i++)
    {
      g_autoptr(SuanliItem) item = g_list_model_get_item (G_LIST_MODEL (suanli_test_estimate_catalog ()), i);
      const char *name = suanli_item_get_name (item);

      if (suanli_item_get_kind (item) != SUANLI_ITEM_KIND_ACCELERATOR)
        continue;
      accelerators++;
      for (guint j = 0; j < G_N_ELEMENTS (jobs); j++)
        {
          g_autofree char *json = g_strconcat (jobs[j][0], suanli_item_get_id (item), jobs[j][1], NULL);
          g_autoptr(GPtrArray) errors = g_ptr_array_new_with_free_func ((GDestroyNotify) suanli_plan_issue_free);
          SuanliPlanInputs in;
          SuanliEstimate e;

          if (suanli_test_resolve (json, &in, &e, errors))
            {
              if (j == 0)
                g_assert_true (isfinite (e.time_to_train_s) && e.time_to_train_s > 0);
              else
                g_assert_true (isfinite (e.inference.tokens_per_s) && e.inference.tokens_per_s > 0);
              planned++;
              continue;
            }
          g_assert_cmpuint (errors->len, >, 0);
          for (guint k = 0; k < errors->len; k++)
            {
              const SuanliPlanIssue *issue = g_ptr_array_index (errors, k);

              g_test_message ("%s, %s job: %s: %s", suanli_item_get_id (item), j == 0 ? "training" : "inference",
                              issue->field, issue->message);
              if (!g_str_has_prefix (issue->message, name) || strstr (issue->message, " in the catalog") == NULL)
                g_error ("%s (%s job) failed without naming the missing figure: %s: %s", suanli_item_get_id (item),
                         j == 0 ? "training" : "inference", issue->field, issue->message);
            }
          refused++;
        }
    }
  g_test_message ("%u accelerators: %u jobs planned, %u refused with the missing figure named", accelerators,
                  planned, refused);
  g_assert_cmpuint (accelerators, >=, 45);
  g_assert_cmpuint (planned, >, refused);

  /* The message the issue asks for, with the catalog's reason after it. */
  {
    g_autoptr(GPtrArray) errors = g_ptr_array_new_with_free_func ((GDestroyNotify) suanli_plan_issue_free);
    g_autofree char *json = g_strconcat (jobs[1][0], "cambricon-mlu590", jobs[1][1], NULL);
    SuanliPlanInputs in;
    SuanliEstimate e;
    gboolean named = FALSE;

    g_assert_false (suanli_test_resolve (json, &in, &e, errors));
    for (guint k = 0; k < errors->len; k++)
      named |= g_str_has_prefix (((SuanliPlanIssue *) g_ptr_array_index (errors, k))->message,
                                 "MLU590: no memory bandwidth in the catalog (Cambricon publishes no datasheet");
    g_assert_true (named);
  }

  /* Cambricon's launch figures make the MLU370-X8 plannable: 96 TFLOP/s BF16, 614.4 GB/s. */
  {
    g_autoptr(GPtrArray) errors = g_ptr_array_new_with_free_func ((GDestroyNotify) suanli_plan_issue_free);
    g_autofree char *json = g_strconcat (jobs[1][0], "cambricon-mlu370", jobs[1][1], NULL);
    SuanliPlanInputs in;
    SuanliEstimate e;

    g_assert_true (suanli_test_resolve (json, &in, &e, errors));
    g_assert_cmpfloat (in.peak_flops, ==, 96e12);
    assert_close (in.memory_bandwidth, 614.4e9);
  }
}

/* A training plan of @model on @gpus of @accelerator, @assumptions appended to its assumptions. */
static void
efficiency_plan (const char       *model,
                 double            gpus,
                 double            tensor,
                 double            seq_len,
                 const char       *compute,
                 const char       *accelerator,
                 const char       *assumptions,
                 SuanliPlanInputs *in,
                 SuanliEstimate   *e)
{
  g_autofree char *json = g_strdup_printf (
    "{\"model\": {\"preset\": \"%s\"},"
    " \"workload\": {\"seq_len\": %g, \"global_batch\": %g, \"tokens\": 1e12},"
    " \"parallelism\": {\"tensor\": %g},"
    " \"precision\": {\"compute\": \"%s\"},"
    " \"system\": {\"accelerator\": \"%s\", \"gpus_per_node\": 8, \"nodes\": %g},"
    " \"assumptions\": {\"price_per_gpu_hour\": 2%s}}",
    model, seq_len, gpus * 2, tensor, compute, accelerator, gpus / 8, assumptions);

  suanli_test_estimate_valid (json, in, e);
}

/* The efficiency follows the work (issue 33): FP8 does not double the achieved rate, tensor
 * parallelism narrows the matrices, attention weighs more at long sequence, thousands of GPUs lose
 * a share, AMD's parts reach less of their peak; the plan's own figure overrides all of it. */
static void
test_efficiency_follows_work (void)
{
  SuanliPlanInputs in;
  SuanliEstimate bf16, fp8, wide, narrow, few, many, shorter, longer, amd, given;

  efficiency_plan ("llama-2-7b", 8, 1, 4096, "bf16", "nvidia-h100-sxm", "", &in, &bf16);
  efficiency_plan ("llama-2-7b", 8, 1, 4096, "fp8", "nvidia-h100-sxm", "", &in, &fp8);
  g_assert_true (bf16.efficiency.modelled);
  /* NeMo's FP8 runs reach 1.2–1.8 times a BF16 run's rate, never twice. */
  g_assert_cmpfloat (fp8.tokens_per_s / bf16.tokens_per_s, >, 1.2);
  g_assert_cmpfloat (fp8.tokens_per_s / bf16.tokens_per_s, <, 1.8);
  g_assert_cmpfloat (suanli_estimate_mfu_at_compute_peak (&in, &fp8), <=, suanli_efficiency_highest_published_mfu (SUANLI_PRECISION_FP8));

  efficiency_plan ("llama-3-8b", 8, 1, 4096, "fp8", "nvidia-h100-sxm", "", &in, &wide);
  efficiency_plan ("llama-3-8b", 8, 8, 4096, "fp8", "nvidia-h100-sxm", "", &in, &narrow);
  g_assert_cmpfloat (narrow.efficiency.width, ==, 512);
  g_assert_cmpfloat (narrow.efficiency.fraction, <, wide.efficiency.fraction);

  efficiency_plan ("llama-3-8b", 8, 1, 2048, "fp8", "nvidia-h100-sxm", "", &in, &shorter);
  efficiency_plan ("llama-3-8b", 8, 1, 32768, "fp8", "nvidia-h100-sxm", "", &in, &longer);
  g_assert_cmpfloat (longer.efficiency.attention_share, >, 2 * shorter.efficiency.attention_share);
  g_assert_cmpfloat (longer.efficiency.fraction, !=, shorter.efficiency.fraction);

  efficiency_plan ("llama-3-8b", 1024, 1, 4096, "fp8", "nvidia-h100-sxm", "", &in, &few);
  efficiency_plan ("llama-3-8b", 8192, 1, 4096, "fp8", "nvidia-h100-sxm", "", &in, &many);
  g_assert_cmpfloat (few.efficiency.scale_factor, ==, 1);
  assert_close (many.efficiency.scale_factor, 0.94);
  g_assert_cmpfloat (many.efficiency.fraction, <, few.efficiency.fraction);

  efficiency_plan ("llama-3-8b", 8, 1, 4096, "fp8", "amd-mi300x", "", &in, &amd);
  g_assert_cmpfloat (amd.efficiency.fraction, <, wide.efficiency.fraction);

  /* On a few A100s with nothing to wait for, BF16 would pass the best published BF16 run: held to it. */
  efficiency_plan ("llama-3-8b", 8, 1, 4096, "bf16", "nvidia-a100-80gb-sxm", "", &in, &given);
  g_assert_true (given.efficiency.capped);
  g_assert_cmpfloat (suanli_estimate_mfu_at_compute_peak (&in, &given), <=, 0.563 + 1e-9);

  /* The range is the published runs' spread: 0.70–1.23 times the model's rate. */
  assert_close (wide.training_low.time_to_train_s, wide.time_to_train_s / 0.70);
  assert_close (wide.training_high.time_to_train_s, wide.time_to_train_s / 1.23);
  assert_close (wide.training_high.cost, wide.cost / 1.23);
  g_assert_cmpfloat (wide.training_low.gpu_hours, >, wide.gpu_hours);

  efficiency_plan ("llama-3-8b", 8, 1, 4096, "bf16", "nvidia-h100-sxm", ", \"compute_efficiency\": 0.45", &in, &given);
  g_assert_false (given.efficiency.modelled);
  g_assert_cmpfloat (given.efficiency.fraction, ==, 0.45);
  g_assert_cmpfloat (given.training_low.time_to_train_s, ==, given.time_to_train_s);
}

/* A 4,096-wide model on one node of H100 in BF16 (TorchTitan's Llama 3.1 8B runs: 33.7–39.0 % MFU)
 * is no longer held at the best published BF16 MFU: the memory-bound kernels between its matrix
 * products cost it a share that the 16,384-wide 405B does not pay, twice as much on H100 (989 TFLOP/s
 * over 3.35 TB/s) as on A100 (312 over 2.04), and more again when each runs as its own kernel. */
static void
test_efficiency_small_bf16_plan (void)
{
  SuanliPlanInputs in, in_a100;
  SuanliEstimate fused, unfused, a100, wide;

  efficiency_plan ("llama-3-8b", 8, 1, 8192, "bf16", "nvidia-h100-sxm", "", &in, &fused);
  g_assert_false (fused.efficiency.capped);
  g_assert_cmpfloat (fused.mfu, <, 0.56);
  g_assert_cmpfloat (fused.mfu, >, 0.45);
  g_assert_cmpfloat (fused.efficiency.non_matrix, >, 0);

  suanli_test_estimate_valid ("{\"model\": {\"preset\": \"llama-3-8b\"},"
                              " \"workload\": {\"seq_len\": 8192, \"global_batch\": 16, \"tokens\": 1e12},"
                              " \"techniques\": {\"fused_kernels\": false},"
                              " \"system\": {\"accelerator\": \"nvidia-h100-sxm\", \"gpus_per_node\": 8, \"nodes\": 1},"
                              " \"assumptions\": {\"price_per_gpu_hour\": 2}}", &in, &unfused);
  /* TorchTitan: torch.compile, which fuses them, ran 1.16 times as fast (6,667 against 5,762 tokens/s). */
  g_assert_cmpfloat (fused.tokens_per_s / unfused.tokens_per_s, >, 1.1);
  g_assert_cmpfloat (fused.tokens_per_s / unfused.tokens_per_s, <, 1.25);

  efficiency_plan ("llama-3-8b", 8, 1, 8192, "bf16", "nvidia-a100-80gb-sxm", "", &in_a100, &a100);
  g_assert_cmpfloat (fused.efficiency.non_matrix, >, 1.8 * a100.efficiency.non_matrix);

  efficiency_plan ("llama-3-1-405b", 8, 1, 8192, "bf16", "nvidia-h100-sxm", "", &in, &wide);
  assert_close (wide.efficiency.non_matrix * 4, fused.efficiency.non_matrix);
}

/* An MFU above any published run of its precision is flagged; the model's own never is. */
static void
test_mfu_above_published (void)
{
  SuanliPlanInputs in;
  SuanliEstimate e;

  efficiency_plan ("llama-2-7b", 8, 1, 4096, "fp8", "nvidia-h100-sxm", ", \"compute_efficiency\": 0.9", &in, &e);
  g_assert_true (suanli_estimate_mfu_above_published (&in, &e));
  efficiency_plan ("llama-2-7b", 8, 1, 4096, "fp8", "nvidia-h100-sxm", "", &in, &e);
  g_assert_false (suanli_estimate_mfu_above_published (&in, &e));
  efficiency_plan ("llama-2-7b", 8, 1, 4096, "bf16", "nvidia-h100-sxm", ", \"mfu\": 0.6", &in, &e);
  g_assert_true (suanli_estimate_mfu_above_published (&in, &e));
}

/* The time tile's explanation names the efficiency and its source, the goodput and what moves the
 * figure most; the MFU's flags one above any published run; time to first token shows its
 * tensor-parallel all-reduce beside the prefill and names the larger. */
static void
test_explanations_name_what_they_hinge_on (void)
{
  SuanliPlanInputs in;
  SuanliEstimate e;
  g_autofree char *time = NULL, *mfu = NULL, *ttft = NULL;

  efficiency_plan ("llama-2-7b", 8, 1, 4096, "bf16", "nvidia-h100-sxm", "", &in, &e);
  time = suanli_estimate_explain (&in, &e, "training.time_to_train_s");
  g_assert_nonnull (strstr (time, "Efficiency: "));
  g_assert_nonnull (strstr (time, "modelled from published runs"));
  g_assert_nonnull (strstr (time, "Source: "));
  g_assert_nonnull (strstr (time, "Goodput: 90 %"));
  g_assert_nonnull (strstr (time, "Moves it most: the efficiency"));
  g_assert_nonnull (strstr (time, "range "));

  efficiency_plan ("llama-2-7b", 8, 1, 4096, "fp8", "nvidia-h100-sxm", ", \"compute_efficiency\": 0.9", &in, &e);
  mfu = suanli_estimate_explain (&in, &e, "training.mfu");
  g_assert_nonnull (strstr (mfu, "above the highest MFU any published fp8 run reached (47.1 %)"));

  suanli_test_estimate_valid ("{\"model\": {\"preset\": \"llama-2-70b\"},"
                  " \"workload\": {\"mode\": \"inference\", \"prompt_tokens\": 2048, \"batch\": 8},"
                  " \"parallelism\": {\"tensor\": 8},"
                  " \"system\": {\"accelerator\": \"nvidia-h100-pcie\", \"gpus_per_node\": 8}}", &in, &e);
  ttft = suanli_estimate_explain (&in, &e, "inference.ttft_s");
  g_assert_cmpfloat (e.inference.ttft_comm_s, >, 0);
  assert_close (e.inference.ttft_compute_s + e.inference.ttft_comm_s, e.inference.ttft_s);
  g_assert_nonnull (strstr (ttft, "tensor-parallel all-reduces"));
  g_assert_nonnull (strstr (ttft, e.inference.ttft_comm_s > e.inference.ttft_compute_s ? "the all-reduce dominates"
                                                                                       : "the prefill dominates"));
}

/* A parameter count that overrides the preset's moves the efficiency too (issue 33): the widths
 * follow the square root of the ratio, as a layer's weights grow with the square of its width. */
static void
test_parameter_count_moves_efficiency (void)
{
  static const char plan[] =
    "{\"model\": {\"preset\": \"llama-2-70b\"%s}, \"workload\": {\"seq_len\": 4096, \"global_batch\": 64,"
    " \"tokens\": 1e12}, \"parallelism\": {\"tensor\": 8},"
    " \"system\": {\"accelerator\": \"nvidia-h100-sxm\", \"gpus_per_node\": 8, \"nodes\": 1}}";
  g_autofree char *preset = g_strdup_printf (plan, "");
  g_autofree char *smaller = g_strdup_printf (plan, ", \"parameters\": 7e9");
  SuanliPlanInputs in_preset, in_smaller;
  SuanliEstimate e_preset, e_smaller;

  suanli_test_estimate_valid (preset, &in_preset, &e_preset);
  suanli_test_estimate_valid (smaller, &in_smaller, &e_smaller);
  g_assert_true (e_smaller.efficiency.modelled);
  assert_close (e_smaller.efficiency.width, e_preset.efficiency.width * sqrt (in_smaller.weight_flops_scale));
  g_assert_cmpfloat (e_smaller.efficiency.width_factor, <, e_preset.efficiency.width_factor);
  g_assert_cmpfloat (e_smaller.efficiency.fraction, <, e_preset.efficiency.fraction);
  g_assert_cmpfloat (e_smaller.mfu, <, e_preset.mfu);
}

/* DeepSeek-V3's own layout on 2,048 H800 at @compute under @schedule. */
static void
deepseek_plan (const char       *schedule,
               const char       *compute,
               SuanliPlanInputs *in,
               SuanliEstimate   *e)
{
  g_autofree char *json = g_strdup_printf (
    "{\"model\": {\"preset\": \"deepseek-v3\"},"
    " \"workload\": {\"seq_len\": 4096, \"global_batch\": 15360, \"tokens\": 14.8e12},"
    " \"parallelism\": {\"pipeline\": 16, \"expert\": 64, \"zero_stage\": 1, \"schedule\": \"%s\"},"
    " \"precision\": {\"compute\": \"%s\"},"
    " \"system\": {\"accelerator\": \"nvidia-h800-sxm\", \"gpus_per_node\": 8, \"nodes\": 256}}", schedule, compute);

  suanli_test_estimate_valid (json, in, e);
}

/* DualPipe hides the expert all-to-alls and the pipeline's sends behind compute, shrinks the
 * bubble to (p/2 − 1)/(3m) and holds two stages' weights (DeepSeek-V3 report, §3.2.1, Table 2);
 * FP8 sends half of the four all-to-alls in FP8 (§3.3.2). */
static void
test_dualpipe_overlaps_experts (void)
{
  SuanliPlanInputs in;
  SuanliEstimate one_f_one_b, dualpipe, bf16;
  g_autofree char *bubble = NULL;
  double m;

  deepseek_plan ("1f1b", "fp8", &in, &one_f_one_b);
  deepseek_plan ("dualpipe", "fp8", &in, &dualpipe);
  m = suanli_plan_inputs_micro_batches (&in);
  g_assert_cmpfloat (one_f_one_b.expert_s, >, one_f_one_b.compute_s);
  assert_close (one_f_one_b.exposed_communication_s - one_f_one_b.tensor_parallel_s,
                one_f_one_b.pipeline_s + one_f_one_b.expert_s + MAX (0, one_f_one_b.data_parallel_s - one_f_one_b.compute_s * 2 / 3));
  /* Only what outlasts the compute waits. */
  assert_close (dualpipe.exposed_communication_s,
                dualpipe.pipeline_s + dualpipe.expert_s - dualpipe.compute_s + MAX (0, dualpipe.data_parallel_s - dualpipe.compute_s * 2 / 3));
  assert_close (dualpipe.bubble_s, (16.0 / 2 - 1) / (3 * m) * (dualpipe.compute_s + dualpipe.expert_s));
  assert_close (one_f_one_b.bubble_s, 15 / m * (one_f_one_b.compute_s + one_f_one_b.expert_s));
  bubble = suanli_estimate_explain (&in, &dualpipe, "training.bubble_s");
  g_assert_nonnull (strstr (bubble, "(p/2 − 1) ÷ (3 × m)"));
  assert_close (dualpipe.weights, 2 * one_f_one_b.weights);
  g_assert_cmpfloat (dualpipe.gpu_hours, <, 0.7 * one_f_one_b.gpu_hours);

  deepseek_plan ("1f1b", "bf16", &in, &bf16);
  suanli_test_assert_relative (one_f_one_b.expert_s, 0.75 * bf16.expert_s, 1e-3, "FP8 all-to-alls");

  assert_invalid (", \"parallelism\": {\"pipeline\": 1, \"schedule\": \"dualpipe\"}", "parallelism.schedule",
                  "even number of pipeline stages");
  assert_invalid (", \"parallelism\": {\"pipeline\": 2, \"virtual_stages\": 2, \"schedule\": \"dualpipe\"}",
                  "parallelism.schedule", "two directions");
}

int
main (int argc, char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/estimate/zero-published-example", test_zero_published_example);
  g_test_add_func ("/estimate/gpt3-published-example", test_gpt3_published_example);
  g_test_add_func ("/estimate/llama2-kv-cache", test_llama2_kv_cache);
  g_test_add_func ("/estimate/activations", test_activations);
  g_test_add_func ("/estimate/pipeline", test_pipeline);
  g_test_add_func ("/estimate/flops", test_flops);
  g_test_add_func ("/estimate/decode", test_decode);
  g_test_add_func ("/estimate/nan-is-not-json", test_nan_is_not_json);
  g_test_add_func ("/estimate/offload-needs-cpu-memory", test_offload_needs_cpu_memory);
  g_test_add_func ("/estimate/bad-plans", test_bad_plans);
  g_test_add_func ("/estimate/truncated-plan", test_truncated_plan);
  g_test_add_func ("/estimate/properties", test_properties);
  g_test_add_func ("/estimate/advice-effects", test_advice_effects);
  g_test_add_func ("/estimate/advice-lora-70b", test_advice_lora_70b);
  g_test_add_func ("/estimate/advice-combination", test_advice_combination);
  g_test_add_func ("/estimate/advice-serving-speed", test_advice_serving_speed);
  g_test_add_func ("/estimate/explanations", test_explanations);
  g_test_add_func ("/estimate/search-front", test_search_front);
  g_test_add_func ("/estimate/search-patches-apply", test_search_patches_apply);
  g_test_add_func ("/estimate/json-output", test_json_output);
  g_test_add_func ("/estimate/every-accelerator", test_every_accelerator);
  g_test_add_func ("/estimate/efficiency-follows-work", test_efficiency_follows_work);
  g_test_add_func ("/estimate/efficiency-small-bf16-plan", test_efficiency_small_bf16_plan);
  g_test_add_func ("/estimate/mfu-above-published", test_mfu_above_published);
  g_test_add_func ("/estimate/explanations-name-what-they-hinge-on", test_explanations_name_what_they_hinge_on);
  g_test_add_func ("/estimate/parameter-count-moves-efficiency", test_parameter_count_moves_efficiency);
  g_test_add_func ("/estimate/dualpipe-overlaps-experts", test_dualpipe_overlaps_experts);

  return g_test_run ();
}
