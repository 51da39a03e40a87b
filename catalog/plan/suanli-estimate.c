/* suanli-estimate.c — what a plan needs and takes: memory, time, throughput, energy, cost
 *
 * Pure functions of resolved inputs; no allocation, so a search can evaluate many plans quickly.
 * The formulas and their sources are in shared/reference/estimation.md; suanli_estimate_explain()
 * writes each one out with the plan's values substituted, on demand.
 *
 * Conventions: bytes, seconds, FLOP. GB = 1e9 B, GiB = 2^30 B. "Per GPU" means the most loaded
 * GPU, which is on the first pipeline stage: it holds the most activations in flight.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include "suanli-estimate.h"

/* Roofline estimates overstate decoding speed 1.7–1.9x against real servers (estimation.md):
 * the low bound assumes the worse end. */
#define ROOFLINE_OVERSTATEMENT 1.9
/* A collective's fixed cost per call, on top of its bandwidth term. */
#define COLLECTIVE_LATENCY_S 10e-6

static gboolean
has_architecture (const SuanliPlanInputs *in)
{
  return in->layers > 0 && in->hidden > 0 && in->heads > 0;
}

static gboolean
is_moe (const SuanliPlanInputs *in)
{
  return in->experts > 1;
}

static gboolean
is_lora (const SuanliPlanInputs *in)
{
  return in->mode == SUANLI_MODE_LORA || in->mode == SUANLI_MODE_QLORA;
}

/* Ψ: model-state parameters on one GPU before ZeRO shards them. Tensor and pipeline parallelism
 * divide all of them; expert parallelism divides the experts' feed-forward weights as well. */
double
suanli_estimate_parameters_per_gpu (const SuanliPlanInputs *in)
{
  double per_expert, shared;

  if (!is_moe (in) || in->experts <= in->experts_per_token)
    return in->parameters / (in->tensor * in->pipeline);
  per_expert = (in->parameters - in->active_parameters) / (in->experts - in->experts_per_token);
  shared = in->parameters - in->experts * per_expert;
  return (shared + in->experts * per_expert / in->expert) / (in->tensor * in->pipeline);
}

/* Parameters LoRA trains on one GPU: rank-r adapters on the four attention projections of every
 * layer, 2·h·r each. */
double
suanli_estimate_lora_parameters_per_gpu (const SuanliPlanInputs *in)
{
  return 8 * in->layers * in->hidden * in->lora_rank / (in->tensor * in->pipeline);
}

/* Optimizer bytes per trained parameter, mixed precision (fp32 master copy included). */
double
suanli_estimate_optimizer_bytes (const SuanliPlanInputs *in)
{
  double bytes = in->optimizer == SUANLI_OPTIMIZER_ADAMW ? 12 : in->optimizer == SUANLI_OPTIMIZER_ADAMW_8BIT ? 6 : 8;

  /* Weights already in fp32 need no separate master copy. */
  if (suanli_precision_bytes (in->weights) >= 4)
    bytes -= 4;
  return bytes;
}

/* Bytes per activation value: 32-bit compute (FP32, TF32) keeps 32-bit activations, the rest 16. */
static double
activation_bytes (const SuanliPlanInputs *in)
{
  return in->compute == SUANLI_PRECISION_FP32 || in->compute == SUANLI_PRECISION_TF32 ? 4 : 2;
}

/* Activation bytes of one layer for one micro-batch (Korthikanti et al. 2022, Table 2); the table
 * counts 16-bit values. */
double
suanli_estimate_activations_per_layer (const SuanliPlanInputs *in)
{
  double s = in->seq_len, b = in->micro_batch, h = in->hidden, a = in->heads, t = in->tensor;
  double attention = in->flash_attention ? 0 : 5 * a * s / h;
  double factor;

  if (in->recompute == SUANLI_RECOMPUTE_FULL)
    factor = in->sequence_parallel ? 2 / t : 2;
  else if (in->sequence_parallel && t > 1)
    factor = 34 / t + (in->recompute == SUANLI_RECOMPUTE_SELECTIVE ? 0 : attention / t);
  else
    factor = 10 + 24 / t + (in->recompute == SUANLI_RECOMPUTE_SELECTIVE ? 0 : attention / t);
  return s * b * h * factor * (activation_bytes (in) / 2);
}

/* Micro-batches in flight on the first stage under 1F1B, and the interleaving factor. */
double
suanli_estimate_activation_multiplier (const SuanliPlanInputs *in)
{
  double m = suanli_plan_inputs_micro_batches (in), p = in->pipeline, v = in->virtual_stages;
  double in_flight = MIN (m, p);

  return (in->layers / p) * in_flight * (v >= 2 ? 1 + (p - 1) / (p * v) : 1);
}

static void
training_memory (const SuanliPlanInputs *in,
                 SuanliEstimate         *out)
{
  double psi = suanli_estimate_parameters_per_gpu (in), nd = in->data, offloaded = 0;
  double weight_bytes = suanli_precision_bytes (in->weights);
  double trained = psi;

  if (is_lora (in))
    {
      /* The frozen base in its precision; the adapters in 16 bits, with an fp32 master copy in the
       * optimizer whatever the base's precision. */
      trained = suanli_estimate_lora_parameters_per_gpu (in);
      out->weights = psi * weight_bytes + 2 * trained;
      out->gradients = 2 * trained;
      out->optimizer = (in->optimizer == SUANLI_OPTIMIZER_ADAMW ? 12 : in->optimizer == SUANLI_OPTIMIZER_ADAMW_8BIT ? 6 : 8) *
                       trained;
    }
  else
    {
      out->weights = weight_bytes * psi;
      out->gradients = weight_bytes * psi;
      out->optimizer = suanli_estimate_optimizer_bytes (in) * psi;
    }

  /* ZeRO shards optimizer states (1), then gradients (2), then parameters (3) over data parallelism. */
  if (in->zero_stage >= 1)
    out->optimizer /= nd;
  if (in->zero_stage >= 2)
    out->gradients /= nd;
  if (in->zero_stage >= 3)
    out->weights /= nd;

  if (in->offload != SUANLI_OFFLOAD_NONE)
    {
      offloaded += out->optimizer;
      out->optimizer = 0;
    }
  if (in->offload == SUANLI_OFFLOAD_OPTIMIZER_PARAMETERS || in->offload == SUANLI_OFFLOAD_NVME)
    {
      offloaded += out->weights;
      out->weights = 0;
    }
  /* NVMe offload keeps it on disk, not in CPU memory. */
  out->cpu_offload_per_node = in->offload == SUANLI_OFFLOAD_NVME ? 0 : offloaded * in->gpus_per_node;

  out->activations = has_architecture (in) ? suanli_estimate_activations_per_layer (in) * suanli_estimate_activation_multiplier (in) : 0;
  out->kv_cache = 0;
}

/* Model FLOPs per step (Korthikanti et al. 2022) when the architecture is known, else 6·P·tokens
 * (active parameters for a mixture of experts); hardware FLOPs add what recomputation redoes. */
static void
training_flops (const SuanliPlanInputs *in,
                double                 *model,
                double                 *hardware)
{
  double B = in->global_batch, s = in->seq_len, L = in->layers, h = in->hidden, V = in->vocab;
  double tokens = B * s;

  if (is_moe (in) || !has_architecture (in))
    {
      *model = 6 * in->active_parameters * tokens;
      *hardware = in->recompute == SUANLI_RECOMPUTE_FULL ? 8 * in->active_parameters * tokens : *model;
    }
  else
    {
      *model = 72 * B * s * L * h * h * (1 + s / (6 * h) + V / (12 * L * h));
      if (in->recompute == SUANLI_RECOMPUTE_FULL)
        *hardware = 96 * B * s * L * h * h * (1 + s / (6 * h) + V / (16 * L * h));
      else if (in->recompute == SUANLI_RECOMPUTE_SELECTIVE)
        *hardware = 72 * B * s * L * h * h * (1 + s / (3 * h) + V / (12 * L * h));
      else
        *hardware = *model;
    }
  /* LoRA computes no weight gradients for the frozen base: forward 2·P·T plus backward 2·P·T. */
  if (is_lora (in))
    {
      *model *= 4.0 / 6.0;
      *hardware *= 4.0 / 6.0;
    }
}

static double
ring_all_reduce_s (double bytes,
                   double ranks,
                   double bandwidth)
{
  if (ranks <= 1 || bytes <= 0)
    return 0;
  return 2 * (ranks - 1) / ranks * bytes / bandwidth + COLLECTIVE_LATENCY_S;
}

/* The bandwidth a group of @span consecutive GPUs talks over: the scale-up link inside a node,
 * the scale-out network once it spans nodes. */
static double
group_bandwidth (const SuanliPlanInputs *in,
                 double                  span)
{
  double bandwidth = span <= in->gpus_per_node ? in->scale_up_bandwidth : in->scale_out_bandwidth;

  return bandwidth * in->comm_efficiency;
}

static void
training_time (const SuanliPlanInputs *in,
               SuanliEstimate         *out)
{
  double m = suanli_plan_inputs_micro_batches (in), p = in->pipeline, t = in->tensor, d = in->data;
  double activation_size = in->micro_batch * in->seq_len * in->hidden * activation_bytes (in);
  /* Gradients travel in the trained weights' precision; LoRA's adapters are 16-bit. */
  double gradient_bytes = is_lora (in) ? 2 * suanli_estimate_lora_parameters_per_gpu (in)
                                       : suanli_precision_bytes (in->weights) * suanli_estimate_parameters_per_gpu (in);
  double layers_per_stage = in->layers / p;
  double bottom_up, scale, overlap, all_reduces_per_layer;

  training_flops (in, &out->model_flops_per_step, &out->hardware_flops_per_step);
  out->compute_s = out->hardware_flops_per_step / (in->gpus * in->peak_flops * in->compute_efficiency);

  /* Data parallel: one gradient all-reduce a step; ZeRO-3 moves 3Ψ instead of 2Ψ. */
  out->data_parallel_s = ring_all_reduce_s (gradient_bytes, d, group_bandwidth (in, t * p * d));
  if (in->zero_stage == 3)
    out->data_parallel_s *= 1.5;
  /* Tensor parallel: two all-reduces per layer forward and two backward (two more to recompute). */
  all_reduces_per_layer = in->recompute == SUANLI_RECOMPUTE_FULL ? 6 : 4;
  out->tensor_parallel_s = t > 1 && has_architecture (in)
    ? m * layers_per_stage * all_reduces_per_layer * ring_all_reduce_s (activation_size, t, group_bandwidth (in, t))
    : 0;
  /* Pipeline: each micro-batch's activations forward and their gradients back, at each boundary. */
  out->pipeline_s = p > 1 && has_architecture (in)
    ? 2 * m * (activation_size / group_bandwidth (in, t * p) + COLLECTIVE_LATENCY_S) : 0;
  /* Experts: two all-to-alls per layer forward and two backward over the expert-parallel group. */
  out->expert_s = is_moe (in) && in->expert > 1 && has_architecture (in)
    ? m * layers_per_stage * 4 * ((in->expert - 1) / in->expert * activation_size * in->experts_per_token /
                                  group_bandwidth (in, t * in->expert) + COLLECTIVE_LATENCY_S)
    : 0;
  out->communication_s = out->data_parallel_s + out->tensor_parallel_s + out->pipeline_s + out->expert_s;

  /* The gradient all-reduce overlaps the backward pass (two thirds of the compute); the rest waits. */
  overlap = out->compute_s * 2.0 / 3.0;
  out->exposed_communication_s = MAX (0, out->data_parallel_s - overlap) + out->tensor_parallel_s +
                                 out->pipeline_s + out->expert_s;
  /* 1F1B bubble: (p − 1)/(v·m) of the pipeline's work, idle. */
  out->bubble_s = (p - 1) / (in->virtual_stages * m) * (out->compute_s + out->tensor_parallel_s + out->expert_s);
  bottom_up = out->compute_s + out->exposed_communication_s + out->bubble_s;

  if (in->mfu > 0)
    out->step_time_s = out->model_flops_per_step / (in->gpus * in->peak_flops * in->mfu);
  else if (in->achieved_flops > 0)
    out->step_time_s = out->hardware_flops_per_step / (in->gpus * in->achieved_flops);
  else
    out->step_time_s = bottom_up;

  /* An end-to-end assumption fixes the step; its parts keep their bottom-up shares. */
  scale = bottom_up > 0 ? out->step_time_s / bottom_up : 1;
  out->compute_s *= scale;
  out->exposed_communication_s *= scale;
  out->bubble_s *= scale;
  out->communication_s *= scale;
  out->data_parallel_s *= scale;
  out->tensor_parallel_s *= scale;
  out->pipeline_s *= scale;
  out->expert_s *= scale;

  out->tokens_per_s = in->global_batch * in->seq_len / out->step_time_s;
  out->time_to_train_s = in->tokens / out->tokens_per_s;
  out->mfu = out->model_flops_per_step / (out->step_time_s * in->gpus * in->peak_flops);
  out->hfu = out->hardware_flops_per_step / (out->step_time_s * in->gpus * in->peak_flops);
  out->gpu_hours = in->gpus * out->time_to_train_s / 3600;
  out->energy_kwh = out->gpu_hours * in->board_power / 1000 * in->pue;
  out->cost = out->gpu_hours * in->price_per_gpu_hour;
  out->co2_t = out->energy_kwh / 1000 * in->grid_tco2_per_mwh;
}

/* KV-cache bytes per token of one sequence on one GPU: its layers, and its share of the KV heads,
 * never less than one head. */
double
suanli_estimate_kv_bytes_per_token_per_gpu (const SuanliPlanInputs *in)
{
  double head_dim = in->hidden / in->heads;

  return 2 * (in->layers / in->pipeline) * MAX (1, in->kv_heads / in->tensor) * head_dim *
         suanli_precision_bytes (in->kv_cache);
}

static void
inference_figures (const SuanliPlanInputs *in,
                   double                  compute_efficiency,
                   double                  memory_efficiency,
                   double                  comm_efficiency,
                   double                  free_memory,
                   SuanliInferenceFigures *out)
{
  double t = in->tensor, batch = in->batch, h = in->hidden;
  double kv_token = suanli_estimate_kv_bytes_per_token_per_gpu (in);
  double context = in->prompt_tokens + in->output_tokens;
  double bandwidth = in->scale_up_bandwidth * comm_efficiency;
  double read_per_step, memory_s, compute_s, comm_s, prefill_comm_s;

  out->weights_per_gpu = in->parameters * suanli_precision_bytes (in->weights) / (t * in->pipeline);
  out->kv_bytes_per_token = 2 * in->layers * in->kv_heads * (h / in->heads) * suanli_precision_bytes (in->kv_cache);
  out->max_concurrent_sequences = MAX (0, floor (free_memory / (kv_token * context)));

  /* Prefill is compute bound; decoding reads every weight and the batch's KV cache each step. The
   * pipeline's stages run one after another for one token, so the whole model counts. */
  prefill_comm_s = t > 1 ? 2 * in->layers * ring_all_reduce_s (batch * in->prompt_tokens * h * 2, t, bandwidth) : 0;
  out->ttft_s = 2 * in->active_parameters * in->prompt_tokens * batch / (t * in->peak_flops * compute_efficiency) +
                prefill_comm_s;
  read_per_step = in->parameters * suanli_precision_bytes (in->weights) / t +
                  batch * kv_token * in->pipeline * (in->prompt_tokens + in->output_tokens / 2);
  memory_s = read_per_step / (in->memory_bandwidth * memory_efficiency);
  compute_s = 2 * in->active_parameters * batch / (t * in->peak_flops * compute_efficiency);
  comm_s = t > 1 ? 2 * in->layers * ring_all_reduce_s (batch * h * 2, t, bandwidth) : 0;
  out->tpot_s = MAX (memory_s, compute_s) + comm_s;
  out->tokens_per_s = batch / out->tpot_s;
  out->memory_bound = memory_s >= compute_s;
}

static void
inference (const SuanliPlanInputs *in,
           SuanliEstimate         *out)
{
  double weights, context = in->prompt_tokens + in->output_tokens, free_memory;

  weights = in->parameters * suanli_precision_bytes (in->weights) / (in->tensor * in->pipeline);
  /* Prefill's working set: a few hidden-size buffers per prompt token, split by tensor parallelism. */
  out->activations = has_architecture (in) ? 4 * in->batch * in->prompt_tokens * in->hidden * 2 / in->tensor : 0;
  out->weights = weights;
  out->kv_cache = in->batch * suanli_estimate_kv_bytes_per_token_per_gpu (in) * context;
  free_memory = in->memory_capacity - weights - in->framework_overhead - out->activations;

  inference_figures (in, in->compute_efficiency, in->memory_efficiency, in->comm_efficiency, free_memory,
                     &out->inference);
  /* High: the roofline itself. Low: the roofline's known overstatement, and less of everything. */
  inference_figures (in, 1, 1, 1, free_memory, &out->inference_high);
  inference_figures (in, in->compute_efficiency * 0.6, MIN (in->memory_efficiency, 1 / ROOFLINE_OVERSTATEMENT),
                     in->comm_efficiency * 0.6, free_memory, &out->inference_low);
}

/* Fills @estimate from valid @inputs (see suanli_plan_inputs_resolve()). */
void
suanli_estimate_compute (const SuanliPlanInputs *inputs,
                         SuanliEstimate         *estimate)
{
  g_return_if_fail (inputs != NULL && estimate != NULL);

  memset (estimate, 0, sizeof *estimate);
  if (suanli_plan_inputs_is_training (inputs))
    {
      training_memory (inputs, estimate);
      training_time (inputs, estimate);
    }
  else
    inference (inputs, estimate);

  estimate->overhead = inputs->framework_overhead;
  estimate->total = estimate->weights + estimate->gradients + estimate->optimizer + estimate->activations +
                    estimate->kv_cache + estimate->overhead;
  estimate->capacity = inputs->memory_capacity;
  /* Offloaded states must fit in the node's CPU memory too; DeepSpeed's estimators keep a 1.5x margin. */
  estimate->cpu_fits = estimate->cpu_offload_per_node * 1.5 <= inputs->cpu_memory_per_node;
  estimate->fits = estimate->total <= estimate->capacity && estimate->cpu_fits;
}
