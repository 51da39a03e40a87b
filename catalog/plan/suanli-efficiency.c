/* suanli-efficiency.c — the share of its dense peak a GPU reaches on a plan's work
 *
 * One figure for every plan (the planner's old 45 %) puts an 8B model on 8,192 GPUs and a 70B on 64
 * at the same rate, and FP8 at twice BF16's. Published runs say otherwise, so the share follows the
 * work each GPU is given:
 *   - matrix products: a ceiling per accelerator family and precision (what large products reach in
 *     real training), lowered when tensor parallelism or a small micro-batch leaves narrow matrices;
 *   - the memory-bound kernels between them (norms, activations, rotary embeddings, residual adds):
 *     time at the memory's bandwidth, a share that grows as the model narrows and as the
 *     accelerator's FLOPs outgrow its bandwidth, larger where they are not fused;
 *   - attention: its own ceiling, over the FLOPs a causal mask leaves (half of those counted, as
 *     Megatron, NeMo and PaLM count them), in BF16 even when the matrices run in FP8;
 *   - scale: past 1,024 GPUs, stragglers and synchronisation take a share that grows with each doubling
 *     (beyond the pipeline bubble, which the estimate adds itself).
 * The constants are fitted to the runs in tests/published/figures.json; docs/plan-format.md names
 * each source, and low/high are the spread of those runs around the model.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include "suanli-efficiency.h"

/* Below this width a matrix product loses about half its rate (NVIDIA, "Matrix Multiplication
 * Background User's Guide": efficiency rises with each dimension until the GPU's tiles fill). */
#define HALF_RATE_WIDTH 128.0
#define REFERENCE_WIDTH 8192.0
#define SCALE_FREE_GPUS 1024.0
#define SCALE_LOSS_PER_DOUBLING 0.02

typedef struct
{
  const char *prefix;        /* accelerator ids it covers */
  double      gemm_bf16;     /* share of the BF16 (or FP16) dense peak */
  double      gemm_fp8;      /* share of the FP8 dense peak */
  double      attention;     /* share of the BF16 peak over causal attention's FLOPs */
  const char *basis;
} Family;

/* Ampere reaches a larger share of its peak than Hopper in published runs (Korthikanti et al. 2022:
 * 56 % MFU on A100; Llama 3: 38–43 % on H100; TorchTitan's Llama 3.1 8B: 33–39 % on one or 16 nodes
 * of H100); FP8 does not double the achieved rate (NeMo's FP8 tables: 35–47 % of the FP8 peak on H100); AMD's MI300-series reaches a smaller share of a larger
 * peak in matrix products (SemiAnalysis, "MI300X vs H100 vs H200 Benchmark Part 1: Training", 2024).
 * Other NVIDIA parts take Hopper's figures: no published run says they differ. */
static const Family families[] = {
  { "nvidia-a100", 0.68, 0.68, 0.40, "Ampere: Korthikanti et al. 2022 (A100, 41–56 % MFU)" },
  { "nvidia-a800", 0.68, 0.68, 0.40, "Ampere: Korthikanti et al. 2022 (A100, 41–56 % MFU)" },
  { "amd-", 0.40, 0.34, 0.25, "AMD Instinct: SemiAnalysis MI300X training benchmarks (2024)" },
  { "", 0.58, 0.48, 0.40, "Hopper and later: Llama 3 (H100, 38–43 % MFU), TorchTitan (H100, 33–39 %), NeMo 24.07 FP8 tables (H100)" },
};

/* The spread of the published runs around the model (published ÷ modelled MFU), rounded outward:
 * see tests/published/figures.json and docs/plan-format.md. */
#define SPREAD_LOW  0.70
#define SPREAD_HIGH 1.23

static const Family *
family_of (const SuanliPlanInputs *in)
{
  for (guint i = 0; i < G_N_ELEMENTS (families); i++)
    if (g_str_has_prefix (in->accelerator_id, families[i].prefix))
      return &families[i];
  return &families[G_N_ELEMENTS (families) - 1];
}

static double
gemm_ceiling (const SuanliPlanInputs *in,
              const Family           *family)
{
  return in->compute == SUANLI_PRECISION_FP8 ? family->gemm_fp8 : family->gemm_bf16;
}

/* The narrowest dimension of one GPU's matrix products: the hidden size, the attention and
 * feed-forward widths split by tensor parallelism, and the tokens of a micro-batch. A parameter
 * count that overrides the architecture's describes a model as deep but wider or narrower: a
 * layer's weights grow with the square of its width, so the widths follow the square root of the
 * ratio, as the weights' FLOPs follow the ratio itself. */
static double
narrowest_width (const SuanliPlanInputs *in,
                 double                  tokens)
{
  double ffn = in->experts > 1 ? in->expert_ffn_hidden : in->ffn_hidden;
  double scale = in->weight_flops_scale > 0 ? sqrt (in->weight_flops_scale) : 1;
  double width = scale * MIN (in->hidden, MIN (in->heads * in->head_dim / in->tensor, ffn / in->tensor));

  return MIN (width, tokens);
}

static double
width_factor (double width)
{
  double at = width / (width + HALF_RATE_WIDTH), reference = REFERENCE_WIDTH / (REFERENCE_WIDTH + HALF_RATE_WIDTH);

  return MIN (1, at / reference);
}

static double
scale_factor (const SuanliPlanInputs *in)
{
  if (in->gpus <= SCALE_FREE_GPUS)
    return 1;
  return MAX (0.5, 1 - SCALE_LOSS_PER_DOUBLING * log2 (in->gpus / SCALE_FREE_GPUS));
}

/* The memory-bound kernels between the matrix products. Per token and layer, the norms, rotary
 * embeddings, residual adds and gated activation of a Llama layer read and write about 110 × h bytes
 * when each is one fused kernel (forward and backward, in BF16: two norms 20h, rotary 10h, residual
 * adds 24h, SwiGLU over a 3.5h-wide feed-forward 56h), and the output layer's softmax over a 128K
 * vocabulary about 12h more a layer on a 32-layer model; the runs fit 160 (NON_MATRIX_BYTES_FUSED),
 * the rest being the casts and copies the count leaves out, as Megatron-LM, Transformer Engine and
 * torch.compile run them. Eager PyTorch runs each step as its own pass over memory, the norms in
 * FP32: about three times as many bytes, NON_MATRIX_BYTES_UNFUSED (TorchTitan's Llama 3.1 8B on 8
 * H100 ran 1.16 times as fast with torch.compile, which fuses them; the model gives 1.15). They stand
 * against the 72 h² FLOPs of a layer's matrix products in training, so their share falls as the
 * model widens (the 405B pays a quarter of the 8B's) and grows with the accelerator's FLOPs per byte
 * of bandwidth: about twice as much on H100 (989 TFLOP/s over 3.35 TB/s) as on A100 (312 over 2.04).
 * Ivanov et al., "Data Movement Is All You Need" (MLSys 2021), found training transformers bound by
 * this data movement, and 1.30 times as fast once it was cut (BERT, against PyTorch). */
#define NON_MATRIX_BYTES_FUSED   160.0
#define NON_MATRIX_BYTES_UNFUSED 450.0

/* Their time per FLOP of the matrix products, at the compute precision's peak. Without sequence
 * parallelism, tensor parallelism leaves each GPU the whole width of these kernels. */
static double
non_matrix_time (const SuanliPlanInputs *in)
{
  double scale = in->weight_flops_scale > 0 ? sqrt (in->weight_flops_scale) : 1;
  double width = scale * in->hidden;
  double replicated = in->tensor > 1 && !in->sequence_parallel ? in->tensor : 1;
  double bytes = in->fused_kernels ? NON_MATRIX_BYTES_FUSED : NON_MATRIX_BYTES_UNFUSED;
  double bandwidth = in->memory_bandwidth * in->memory_efficiency;

  if (width <= 0 || bandwidth <= 0 || in->peak_flops <= 0)
    return 0;
  return bytes * replicated / (72 * width) * in->peak_flops / bandwidth;
}

static void
common_factors (const SuanliPlanInputs *in,
                double                  tokens,
                SuanliEfficiency       *out)
{
  const Family *family = family_of (in);

  memset (out, 0, sizeof *out);
  /* The plan's compute efficiency, MFU or achieved rate replaces the model and its range. */
  out->modelled = in->compute_efficiency <= 0 && in->mfu <= 0 && in->achieved_flops <= 0;
  out->basis = family->basis;
  out->gemm_ceiling = gemm_ceiling (in, family);
  out->non_matrix = non_matrix_time (in);
  /* Attention runs in BF16 under FP8 compute: half the FP8 peak's rate. */
  out->attention_ceiling = family->attention * (in->compute == SUANLI_PRECISION_FP8 ? 0.5 : 1) *
                           (in->flash_attention ? 1 : 0.6);
  out->width = in->hidden > 0 && in->heads > 0 ? narrowest_width (in, tokens) : REFERENCE_WIDTH;
  out->width_factor = width_factor (out->width);
  out->scale_factor = scale_factor (in);
  out->low = out->modelled ? SPREAD_LOW : 1;
  out->high = out->modelled ? SPREAD_HIGH : 1;
}

/* @model_flops_per_token and @hardware_flops_per_token: as the estimate counts them (hardware with
 * what recomputation redoes); @attention_flops_per_token: the part of @hardware_flops_per_token in attention's scores and
 * values, counted over the whole sequence; a causal mask leaves half of it to run. */
void
suanli_efficiency_for_training (const SuanliPlanInputs *in,
                                double                  model_flops_per_token,
                                double                  hardware_flops_per_token,
                                double                  attention_flops_per_token,
                                SuanliEfficiency       *out)
{
  double gemm_rate, attention_rate, time, most;

  common_factors (in, in->micro_batch * in->seq_len, out);
  if (in->compute_efficiency > 0)
    {
      out->fraction = in->compute_efficiency;
      return;
    }
  out->attention_share = hardware_flops_per_token > 0 ? attention_flops_per_token / hardware_flops_per_token : 0;
  gemm_rate = out->gemm_ceiling * out->width_factor;
  attention_rate = out->attention_ceiling;
  time = (1 - out->attention_share) * (1 / gemm_rate + out->non_matrix) + out->attention_share / 2 / attention_rate;
  out->fraction = MIN (1, out->scale_factor / time);
  /* Never more than any published run of the precision reached: on a few GPUs, with nothing to
   * wait for, the fitted ceilings would otherwise promise it. */
  most = suanli_efficiency_highest_published_mfu (in->compute) * hardware_flops_per_token / MAX (model_flops_per_token, 1);
  out->capped = out->fraction > most;
  out->fraction = MIN (out->fraction, most);
}

/* Prefill: the prompt's matrix products, one forward pass, at the same ceilings. */
void
suanli_efficiency_for_prefill (const SuanliPlanInputs *in,
                               SuanliEfficiency       *out)
{
  common_factors (in, in->batch * in->prompt_tokens, out);
  out->scale_factor = 1;
  out->fraction = in->compute_efficiency > 0 ? in->compute_efficiency
                                              : 1 / (1 / (out->gemm_ceiling * out->width_factor) + out->non_matrix);
}

/* The highest MFU a published run reached, against the dense peak of @precision: BF16 56.3 %
 * (Korthikanti et al. 2022, 1T-parameter GPT on A100); FP8 47.1 % (NeMo 25.02 performance summary,
 * GPT-3 175B on DGX-H100: 932 model TFLOP/s of 1,979). Lower precisions have no published run. */
double
suanli_efficiency_highest_published_mfu (SuanliPrecision precision)
{
  return precision == SUANLI_PRECISION_FP8 ? 0.471 : 0.563;
}
