/* suanli-estimate.c — what a plan needs and takes: memory, time, throughput, energy, cost
 *
 * Pure functions of resolved inputs; no allocation, so a search can evaluate many plans quickly.
 * The formulas and their sources are in docs/estimation.md; suanli_estimate_explain()
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

#include "suanli-architecture.h"
#include "suanli-efficiency.h"
#include "suanli-estimate.h"
#include "suanli-plan-hardware.h"

/* Roofline estimates run ahead of the decoding speed serving engines reach: the low bound reads
 * memory at most 1/1.9 as fast, an assumption docs/estimation.md explains. */
#define ROOFLINE_OVERSTATEMENT 1.9
/* A collective's fixed cost per call, on top of its bandwidth term. */
#define COLLECTIVE_LATENCY_S 10e-6

/* Host transfers under offload: PCIe 4.0 x16 as DeepSpeed's offload reaches it, and an NVMe drive's
 * share per GPU; the CPU's Adam step, per parameter. Assumed figures, shown by --explain. */
#define HOST_LINK_BYTES_PER_S   25e9
#define NVME_BYTES_PER_S        3e9
#define CPU_ADAM_PARAMETERS_PER_S 2e9
/* QLoRA's NF4 with double-quantized constants: 0.127 bits of constants per parameter (Dettmers et
 * al. 2023, §3). Other 4- and 8-bit weights carry an fp16 scale and zero-point per group. */
#define NF4_CONSTANT_BYTES (0.127 / 8)

static gboolean
has_architecture (const SuanliPlanInputs *in)
{
  return suanli_architecture_is_known (in);
}

static gboolean
is_moe (const SuanliPlanInputs *in)
{
  return in->experts > 1;
}

static gboolean
is_lora (const SuanliPlanInputs *in)
{
  return suanli_plan_inputs_is_lora (in);
}

/* The share of the parameters that sit in routed experts: from the architecture when it is known,
 * else from the stated total and active counts. */
static double
routed_expert_share (const SuanliPlanInputs *in)
{
  if (!is_moe (in) || in->experts <= in->experts_per_token)
    return 0;
  if (has_architecture (in))
    return suanli_architecture_moe_layers (in) * in->experts * suanli_architecture_expert_parameters (in) /
           suanli_architecture_parameters (in, in->experts);
  return (in->parameters - in->active_parameters) / (in->experts - in->experts_per_token) * in->experts /
         in->parameters;
}

/* Ψ: model-state parameters on one GPU before ZeRO shards them. Tensor and pipeline parallelism
 * divide all of them; expert parallelism divides the routed experts as well. */
double
suanli_estimate_parameters_per_gpu (const SuanliPlanInputs *in)
{
  double experts = MIN (1, MAX (0, routed_expert_share (in))) * in->parameters;

  return (in->parameters - experts + experts / in->expert) / (in->tensor * in->pipeline);
}

/* Parameters LoRA trains on one GPU: r·(in + out) for each adapted matrix, the key and value
 * projections at their grouped-query width; all-linear adds the feed-forward's matrices. */
double
suanli_estimate_lora_parameters_per_gpu (const SuanliPlanInputs *in)
{
  double h = in->hidden, r = in->lora_rank, q = in->heads * in->head_dim, kv = in->kv_heads * in->head_dim;
  double adapters = in->layers * r * ((h + q) + 2 * (h + kv) + (q + h));

  if (in->lora_targets == SUANLI_LORA_ALL_LINEAR)
    {
      double moe_layers = suanli_architecture_moe_layers (in);

      adapters += (in->layers - moe_layers) * in->ffn_matrices * r * (h + in->ffn_hidden) +
                  moe_layers * (in->experts + in->shared_experts) * in->ffn_matrices * r * (h + in->expert_ffn_hidden);
    }
  return adapters / (in->tensor * in->pipeline);
}

/* Bytes of optimizer moments per trained parameter, and of its fp32 master copy. */
static double
moment_bytes (const SuanliPlanInputs *in)
{
  static const double bytes[] = {
    [SUANLI_OPTIMIZER_ADAMW] = 8, [SUANLI_OPTIMIZER_ADAMW_8BIT] = 2, [SUANLI_OPTIMIZER_SGD] = 4,
    [SUANLI_OPTIMIZER_ADAMW_NO_MASTER] = 8, [SUANLI_OPTIMIZER_ADAMW_BF16] = 4, [SUANLI_OPTIMIZER_ADAFACTOR] = 0,
  };

  return bytes[in->optimizer];
}

static double
master_bytes (const SuanliPlanInputs *in,
              double                  weight_bytes)
{
  gboolean keeps_master = in->optimizer != SUANLI_OPTIMIZER_ADAMW_NO_MASTER && in->optimizer != SUANLI_OPTIMIZER_ADAMW_BF16;

  /* Weights already in fp32 need no separate master copy. */
  return keeps_master && weight_bytes < 4 ? 4 : 0;
}

/* Optimizer bytes per trained parameter (K in the ZeRO paper): moments and master copy. */
double
suanli_estimate_optimizer_bytes (const SuanliPlanInputs *in)
{
  return moment_bytes (in) + master_bytes (in, suanli_precision_bytes (in->weights));
}

/* Bytes of @parameters of the model's weights: 16-bit and wider as they are; 4- and 8-bit with
 * their group constants, and with the embeddings (in and out), which quantizers leave in 16 bits. */
double
suanli_estimate_weight_bytes (const SuanliPlanInputs *in,
                              double                  parameters)
{
  double bytes = suanli_precision_bytes (in->weights), constants, kept;

  if (bytes >= 2)
    return parameters * bytes;
  constants = in->mode == SUANLI_MODE_QLORA && in->weights == SUANLI_PRECISION_INT4 ? NF4_CONSTANT_BYTES
                                                                                    : 4 / in->quant_group_size;
  kept = has_architecture (in) ? MIN (1, suanli_architecture_embedding_parameters (in) / in->parameters) : 0;
  return parameters * ((1 - kept) * (bytes + constants) + kept * 2);
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

/* Model states on one GPU, split into what offload can move to the host and what stays. */
typedef struct
{
  double weights, weights_resident;
  double gradients, gradients_resident;
  double optimizer;
} ModelStates;

/* The ZeRO paper (Rajbhandari et al. 2020): weights and gradients in the weights' precision, K
 * optimizer bytes; stage 1 shards the optimizer over data parallelism, 2 the gradients, 3 the
 * weights. */
static void
states_zero_paper (const SuanliPlanInputs *in,
                   double                  psi,
                   ModelStates            *m)
{
  double wb = suanli_precision_bytes (in->weights), d = in->data;

  m->weights = wb * psi / (in->zero_stage >= 3 ? d : 1);
  m->gradients = wb * psi / (in->zero_stage >= 2 ? d : 1);
  m->optimizer = suanli_estimate_optimizer_bytes (in) * psi / (in->zero_stage >= 1 ? d : 1);
}

/* DeepSpeed's estimators (estimate_zero2/zero3_model_states_mem_needs, DeepSpeed ≥ 0.14.3):
 * stages 1–2 keep the 16-bit weights whole and shard 18 bytes of the rest (16-bit and fp32
 * gradients, master copy and moments); stage 3 shards all 18 and gathers the largest layer whole,
 * its weights and gradients, 4 bytes per parameter. */
static void
states_deepspeed (const SuanliPlanInputs *in,
                  double                  psi,
                  ModelStates            *m)
{
  double wb = suanli_precision_bytes (in->weights), d = in->data, k = suanli_estimate_optimizer_bytes (in);
  double largest = has_architecture (in) ? suanli_architecture_largest_layer (in) / in->tensor : 0;

  if (in->zero_stage >= 3)
    {
      m->weights = wb * psi / d;
      m->weights_resident = wb * largest;
      m->gradients = wb * psi / d;
      m->gradients_resident = wb * largest;
      m->optimizer = (k + 2) * psi / d;
    }
  else
    {
      double shards = in->zero_stage >= 1 ? d : 1;

      m->weights_resident = wb * psi;
      m->gradients = wb * psi / shards;
      m->optimizer = (k + 4) * psi / shards;
    }
}

/* PyTorch FSDP with bf16 mixed precision: the sharded flat parameters are fp32 (they are the master
 * copy), gradients reduce-scatter into fp32 shards; FULL_SHARD (stage 3) gathers the current unit and
 * prefetches the next, SHARD_GRAD_OP (stages 1–2) keeps the 16-bit weights whole between forward and
 * backward; NO_SHARD (stage 0) is DDP. A unit is one transformer layer. */
static void
states_fsdp (const SuanliPlanInputs *in,
             double                  psi,
             ModelStates            *m)
{
  double wb = suanli_precision_bytes (in->weights), d = in->zero_stage >= 1 ? in->data : 1;
  double unit = psi / MAX (1, in->layers / in->pipeline);

  m->weights = 4 * psi / d;
  m->gradients = 4 * psi / d;
  m->optimizer = moment_bytes (in) * psi / d;
  m->gradients_resident = in->zero_stage >= 1 ? wb * unit : 0;
  m->weights_resident = in->zero_stage >= 3 ? 2 * wb * unit : in->zero_stage >= 1 ? wb * psi : 0;
}

/* LoRA: the frozen base in its precision (sharded by ZeRO-3 only), the adapters in 16 bits with
 * their gradients and an fp32 master copy in the optimizer whatever the base's precision. */
static void
states_lora (const SuanliPlanInputs *in,
             double                  psi,
             ModelStates            *m)
{
  double adapters = suanli_estimate_lora_parameters_per_gpu (in), d = in->data;

  m->weights = (suanli_estimate_weight_bytes (in, psi) + 2 * adapters) / (in->zero_stage >= 3 ? d : 1);
  m->gradients = 2 * adapters / (in->zero_stage >= 2 ? d : 1);
  m->optimizer = (moment_bytes (in) + master_bytes (in, 2)) * adapters / (in->zero_stage >= 1 ? d : 1);
}

/* What offload keeps in the node's CPU memory: the bytes moved, DeepSpeed's own figures when the
 * memory follows DeepSpeed (they count pinned fp32 buffers per process). */
static double
host_bytes_per_node (const SuanliPlanInputs *in,
                     double                  psi,
                     double                  moved_per_gpu)
{
  if (in->memory_model != SUANLI_MEMORY_MODEL_DEEPSPEED || is_lora (in))
    return moved_per_gpu * in->gpus_per_node;
  if (in->zero_stage <= 2)
    return psi * MAX (4 * in->data, 16) * in->gpus_per_node / in->data;
  return (in->offload == SUANLI_OFFLOAD_OPTIMIZER ? 16 : 18) * psi * in->gpus_per_node / in->data;
}

static void
training_memory (const SuanliPlanInputs *in,
                 SuanliEstimate         *out)
{
  double psi = suanli_estimate_parameters_per_gpu (in), moved = 0;
  ModelStates m = { 0 };

  if (is_lora (in))
    states_lora (in, psi, &m);
  else if (in->memory_model == SUANLI_MEMORY_MODEL_DEEPSPEED)
    states_deepspeed (in, psi, &m);
  else if (in->memory_model == SUANLI_MEMORY_MODEL_FSDP)
    states_fsdp (in, psi, &m);
  else
    states_zero_paper (in, psi, &m);

  /* ZeRO-Offload moves the optimizer's states and the gradients it steps with to the host (Ren et al.
   * 2021); parameter offload (ZeRO-Infinity, FSDP's CPUOffload) moves the weights' shards as well. */
  if (in->offload != SUANLI_OFFLOAD_NONE)
    {
      /* Each rank steps its own partition on the host, whatever the stage shards on the GPU. */
      moved += m.optimizer + m.gradients / (in->zero_stage >= 2 || in->memory_model == SUANLI_MEMORY_MODEL_FSDP ? 1 : in->data);
      m.optimizer = m.gradients = 0;
    }
  if (in->offload == SUANLI_OFFLOAD_OPTIMIZER_PARAMETERS || in->offload == SUANLI_OFFLOAD_NVME)
    {
      moved += m.weights;
      m.weights = 0;
    }
  /* DualPipe feeds its stages from both ends of the pipeline: each GPU holds two stages' weights
   * (DeepSeek-V3 report, Table 2: parameters ×2). */
  if (in->schedule == SUANLI_SCHEDULE_DUALPIPE)
    m.weights *= 2, m.weights_resident *= 2;
  out->weights = m.weights + m.weights_resident;
  out->gradients = m.gradients + m.gradients_resident;
  out->optimizer = m.optimizer;
  /* NVMe offload keeps it on disk, not in CPU memory. */
  out->cpu_offload_per_node = in->offload == SUANLI_OFFLOAD_NVME ? 0 : moved > 0 ? host_bytes_per_node (in, psi, moved) : 0;

  out->activations = has_architecture (in) ? suanli_estimate_activations_per_layer (in) * suanli_estimate_activation_multiplier (in) : 0;
  out->kv_cache = 0;
}

/* Training FLOPs per token. With the architecture: forward, then the backward's input gradients and
 * weight gradients at the forward's cost each (LoRA computes no weight gradients for its frozen base,
 * only 6 per adapter parameter); full recomputation runs every layer's forward again, selective only
 * the attention scores. Without it: 6·P (Kaplan et al. 2020), 8·P recomputing, LoRA 4·P. */
double
suanli_estimate_training_flops_per_token (const SuanliPlanInputs *in,
                                          gboolean                hardware)
{
  double forward, logits, passes = is_lora (in) ? 2 : 3, flops;

  if (!has_architecture (in))
    {
      flops = passes * 2 * in->active_parameters;
      if (hardware && in->recompute == SUANLI_RECOMPUTE_FULL)
        flops += 2 * in->active_parameters;
      return flops;
    }
  forward = suanli_architecture_forward_flops_per_token (in, in->seq_len);
  logits = suanli_architecture_logit_flops_per_token (in);
  flops = passes * forward;
  if (is_lora (in))
    flops += 6 * suanli_estimate_lora_parameters_per_gpu (in) * in->tensor * in->pipeline;
  if (hardware && in->recompute == SUANLI_RECOMPUTE_FULL)
    flops += forward - logits;
  else if (hardware && in->recompute == SUANLI_RECOMPUTE_SELECTIVE)
    flops += suanli_architecture_attention_score_flops (in, suanli_architecture_counted_attention_keys (in, in->seq_len));
  return flops;
}

/* The part of suanli_estimate_training_flops_per_token (hardware) in attention's scores and values:
 * forward, backward (twice the forward) and what recomputation redoes. */
static double
training_attention_flops_per_token (const SuanliPlanInputs *in)
{
  double forward, passes = is_lora (in) ? 2 : 3;

  if (!has_architecture (in))
    return 0;
  forward = suanli_architecture_attention_score_flops (in, suanli_architecture_counted_attention_keys (in, in->seq_len));
  return forward * (passes + (in->recompute != SUANLI_RECOMPUTE_NONE ? 1 : 0));
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

/* What a group of @span GPUs reaches on its fabric, at @efficiency. */
static double
fabric_bandwidth (const SuanliPlanInputs *in,
                  double                  span,
                  double                  efficiency)
{
  double bandwidth = 0;

  suanli_plan_hardware_fabric (in, span, &bandwidth);
  return bandwidth * efficiency;
}

static double
group_bandwidth (const SuanliPlanInputs *in,
                 double                  span)
{
  return fabric_bandwidth (in, span, in->comm_efficiency);
}

/* Seconds a step waits on offload: gradients down and updated weights up over the host link (or
 * to NVMe), each GPU its shard, and the CPU's optimizer step on that shard; weights offloaded too
 * come back for the forward and the backward. Nothing of it overlaps here. */
static double
offload_time (const SuanliPlanInputs *in)
{
  double shard, bytes, link;

  if (in->offload == SUANLI_OFFLOAD_NONE)
    return 0;
  shard = (is_lora (in) ? suanli_estimate_lora_parameters_per_gpu (in) : suanli_estimate_parameters_per_gpu (in)) /
          (in->zero_stage >= 1 ? in->data : 1);
  bytes = 2 * 2 * shard;
  if (in->offload != SUANLI_OFFLOAD_OPTIMIZER)
    bytes += 2 * suanli_estimate_weight_bytes (in, suanli_estimate_parameters_per_gpu (in) / in->data);
  link = in->offload == SUANLI_OFFLOAD_NVME ? NVME_BYTES_PER_S : HOST_LINK_BYTES_PER_S;
  return bytes / link + shard / CPU_ADAM_PARAMETERS_PER_S;
}

/* The data-parallel exchange that compute does not hide: it overlaps the backward passes (two
 * thirds of the compute); the rest waits. */
static double
exposed_data_parallel_s (const SuanliEstimate *out)
{
  return MAX (0, out->data_parallel_s - out->compute_s * 2.0 / 3.0);
}

/* Pipeline sends and expert all-to-alls: exposed under 1F1B; DualPipe runs a forward and a backward
 * chunk of two micro-batches together, so each chunk's communication hides behind the other's
 * compute (DeepSeek-AI, DeepSeek-V3 Technical Report, 2024, §3.2.1): only what outlasts the
 * compute waits. */
static double
exposed_pipeline_expert_s (const SuanliPlanInputs *in,
                           const SuanliEstimate   *out)
{
  double communication = out->pipeline_s + out->expert_s;

  if (in->schedule == SUANLI_SCHEDULE_DUALPIPE)
    return MAX (0, communication - out->compute_s);
  return communication;
}

/* The share of the pipeline's work it sits idle. 1F1B: (p − 1)/(v·m). DualPipe: (p/2 − 1) slots of
 * one forward-and-backward chunk plus one input-gradient chunk less three weight-gradient chunks
 * (DeepSeek-V3 report, Table 2), a third of 1F1B's forward-and-backward slot when the forward, the
 * input gradients and the weight gradients cost the same. */
static double
bubble_fraction (const SuanliPlanInputs *in,
                 double                  micro_batches)
{
  double p = in->pipeline;

  if (in->schedule == SUANLI_SCHEDULE_DUALPIPE)
    return MAX (0, p / 2 - 1) / (3 * micro_batches);
  return (p - 1) / (in->virtual_stages * micro_batches);
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
  double bottom_up, scale, all_reduces_per_layer;

  out->model_flops_per_step = suanli_estimate_training_flops_per_token (in, FALSE) * in->global_batch * in->seq_len;
  out->hardware_flops_per_step = suanli_estimate_training_flops_per_token (in, TRUE) * in->global_batch * in->seq_len;
  out->compute_s = out->hardware_flops_per_step / (in->gpus * in->peak_flops * out->efficiency.fraction);

  /* Data parallel: one gradient all-reduce a step; ZeRO-3 moves 3Ψ instead of 2Ψ. */
  out->data_parallel_s = ring_all_reduce_s (gradient_bytes, d, group_bandwidth (in, t * p * d));
  /* ZeRO-3 all-gathers the weights for the forward and again for the backward, and reduce-scatters
   * the gradients: 3Ψ where an all-reduce moves 2Ψ; under LoRA the weights are the frozen base. */
  if (in->zero_stage == 3 && d > 1)
    out->data_parallel_s = (d - 1) / d *
                             (2 * suanli_estimate_weight_bytes (in, suanli_estimate_parameters_per_gpu (in)) + gradient_bytes) /
                             group_bandwidth (in, t * p * d) + 3 * COLLECTIVE_LATENCY_S;
  /* Tensor parallel: two all-reduces per layer forward and two backward (two more to recompute). */
  all_reduces_per_layer = in->recompute == SUANLI_RECOMPUTE_FULL ? 6 : 4;
  out->tensor_parallel_s = t > 1 && has_architecture (in)
    ? m * layers_per_stage * all_reduces_per_layer * ring_all_reduce_s (activation_size, t, group_bandwidth (in, t))
    : 0;
  /* Pipeline: each micro-batch's activations forward and their gradients back, at each boundary. */
  out->pipeline_s = p > 1 && has_architecture (in)
    ? 2 * m * (activation_size / group_bandwidth (in, t * p) + COLLECTIVE_LATENCY_S) : 0;
  /* Experts: two all-to-alls per layer forward (dispatch, combine) and two backward over the
   * expert-parallel group. Under FP8 compute the forward's dispatch and the backward's gradients into
   * the down-projection travel in FP8, the other two in 16 bits (DeepSeek-V3 report, §3.3.2). */
  out->expert_s = is_moe (in) && in->expert > 1 && has_architecture (in)
    ? m * layers_per_stage * 4 * ((in->expert - 1) / in->expert * activation_size * in->experts_per_token *
                                  (in->compute == SUANLI_PRECISION_FP8 ? 0.75 : 1) /
                                  group_bandwidth (in, t * in->expert) + COLLECTIVE_LATENCY_S)
    : 0;
  out->communication_s = out->data_parallel_s + out->tensor_parallel_s + out->pipeline_s + out->expert_s;

  out->exposed_communication_s = exposed_data_parallel_s (out) + out->tensor_parallel_s +
                                 exposed_pipeline_expert_s (in, out);
  out->bubble_s = bubble_fraction (in, m) * (out->compute_s + out->tensor_parallel_s + out->expert_s);
  out->offload_s = offload_time (in);
  bottom_up = out->compute_s + out->exposed_communication_s + out->bubble_s + out->offload_s;

  if (in->mfu > 0)
    out->step_time_s = out->model_flops_per_step / (in->gpus * in->reference_flops * in->mfu);
  else if (in->achieved_flops > 0)
    out->step_time_s = out->hardware_flops_per_step / (in->gpus * in->achieved_flops);
  else
    out->step_time_s = bottom_up;

  /* An end-to-end assumption fixes the step; its parts keep their bottom-up shares. */
  scale = bottom_up > 0 ? out->step_time_s / bottom_up : 1;
  out->compute_s *= scale;
  out->exposed_communication_s *= scale;
  out->bubble_s *= scale;
  out->offload_s *= scale;
  out->communication_s *= scale;
  out->data_parallel_s *= scale;
  out->tensor_parallel_s *= scale;
  out->pipeline_s *= scale;
  out->expert_s *= scale;

  out->tokens_per_s = in->global_batch * in->seq_len / out->step_time_s;
  /* Wall-clock time: restarts and downtime take (1 − goodput) of it. */
  out->time_to_train_s = in->tokens / out->tokens_per_s / in->goodput;
  out->mfu = out->model_flops_per_step / (out->step_time_s * in->gpus * in->reference_flops);
  out->hfu = out->hardware_flops_per_step / (out->step_time_s * in->gpus * in->peak_flops);
  out->gpu_hours = in->gpus * out->time_to_train_s / 3600;
  out->energy_kwh = out->gpu_hours * in->board_power / 1000 * in->pue;
  out->cost = out->gpu_hours * in->price_per_gpu_hour;
  out->co2_t = out->energy_kwh / 1000 * in->grid_tco2_per_mwh;
}

/* KV-cache bytes one token of one sequence leaves on one GPU: its stage's layers, and its share of
 * the KV heads, never less than one head. Latent attention caches one latent per layer, whole on
 * every tensor-parallel rank. */
double
suanli_estimate_kv_bytes_per_token_per_gpu (const SuanliPlanInputs *in)
{
  double per_layer = suanli_architecture_kv_elements_per_token_per_layer (in);

  if (in->kv_lora_rank == 0)
    per_layer = 2 * MAX (1, in->kv_heads / in->tensor) * in->head_dim;
  return (in->layers / in->pipeline) * per_layer * suanli_precision_bytes (in->kv_cache);
}

/* The KV cache of one sequence of @context tokens on one GPU: windowed layers keep the last W. */
double
suanli_estimate_kv_bytes_per_sequence_per_gpu (const SuanliPlanInputs *in,
                                               double                  context)
{
  double share = in->window_layers / in->layers;
  double kept = in->sliding_window > 0 ? MIN (context, in->sliding_window) : context;

  return suanli_estimate_kv_bytes_per_token_per_gpu (in) * ((1 - share) * context + share * kept);
}

/* The routed experts one decode step of @tokens tokens reads: each token picks k of E, so an expert
 * goes unread with probability (1 − k/E)^tokens. */
static double
expert_read_fraction (const SuanliPlanInputs *in,
                      double                  tokens)
{
  if (!is_moe (in) || in->experts <= in->experts_per_token)
    return 1;
  return 1 - pow (1 - in->experts_per_token / in->experts, tokens);
}

/* One decode step of @batch sequences: its time, and whether memory bandwidth bounds it. */
static double
decode_step_s (const SuanliPlanInputs *in,
               double                  batch,
               double                  compute_efficiency,
               double                  memory_efficiency,
               double                  comm_efficiency,
               double                  *read_fraction,
               gboolean               *memory_bound)
{
  double t = in->tensor, context = in->prompt_tokens + in->output_tokens / 2;
  double weights = suanli_estimate_weight_bytes (in, in->parameters) / t;
  double experts = routed_expert_share (in), fraction = expert_read_fraction (in, batch);
  double per_token = has_architecture (in)
    ? 2 * suanli_architecture_matrix_parameters (in) + suanli_architecture_logit_flops_per_token (in) +
      suanli_architecture_attention_score_flops (in, suanli_architecture_decode_keys (in, context))
    : 2 * in->active_parameters;
  double read, memory_s, compute_s, comm_s;

  /* Every weight but the unread experts', and the batch's KV cache. The pipeline's stages run one
   * after another for one token, so the whole model counts. */
  read = weights * (1 - experts + experts * fraction) +
         batch * suanli_estimate_kv_bytes_per_sequence_per_gpu (in, context) * in->pipeline;
  memory_s = read / (in->memory_bandwidth * memory_efficiency);
  compute_s = per_token * batch / (t * in->peak_flops * compute_efficiency);
  comm_s = t > 1 ? 2 * in->layers * ring_all_reduce_s (batch * in->hidden * 2, t, fabric_bandwidth (in, t, comm_efficiency)) : 0;
  if (read_fraction != NULL)
    *read_fraction = fraction;
  if (memory_bound != NULL)
    *memory_bound = memory_s >= compute_s;
  return MAX (memory_s, compute_s) + comm_s;
}

/* Prefill of @batch prompts: compute bound, attention over the causal prompt included. */
static double
prefill_s (const SuanliPlanInputs *in,
           double                  batch,
           double                  compute_efficiency,
           double                  comm_efficiency,
           double                 *compute_s,
           double                 *comm_s)
{
  double t = in->tensor, h = in->hidden;
  double per_token = 2 * in->active_parameters;
  double comm;

  /* Prefill runs under the causal mask: each prompt token attends to the tokens before it. */
  if (has_architecture (in))
    per_token = suanli_architecture_forward_flops_per_token (in, in->prompt_tokens) -
                suanli_architecture_attention_score_flops (in, suanli_architecture_counted_attention_keys (in, in->prompt_tokens)) +
                suanli_architecture_attention_score_flops (in, suanli_architecture_attention_context (in, in->prompt_tokens));
  comm = t > 1 ? 2 * in->layers * ring_all_reduce_s (batch * in->prompt_tokens * h * 2, t,
                                                     fabric_bandwidth (in, t, comm_efficiency)) : 0;

  if (compute_s != NULL)
    *compute_s = per_token * in->prompt_tokens * batch / (t * in->peak_flops * compute_efficiency);
  if (comm_s != NULL)
    *comm_s = comm;
  return per_token * in->prompt_tokens * batch / (t * in->peak_flops * compute_efficiency) + comm;
}

static void
inference_figures (const SuanliPlanInputs *in,
                   double                  compute_efficiency,
                   double                  memory_efficiency,
                   double                  comm_efficiency,
                   double                  free_memory,
                   SuanliInferenceFigures *out)
{
  double context = in->prompt_tokens + in->output_tokens, replicas = in->gpus / (in->tensor * in->pipeline);
  double per_request;

  out->weights_per_gpu = suanli_estimate_weight_bytes (in, in->parameters) / (in->tensor * in->pipeline);
  out->kv_bytes_per_token = in->layers * suanli_architecture_kv_elements_per_token_per_layer (in) *
                            suanli_precision_bytes (in->kv_cache);
  out->max_concurrent_sequences = MAX (0, floor (free_memory / suanli_estimate_kv_bytes_per_sequence_per_gpu (in, context)));

  out->ttft_s = prefill_s (in, in->batch, compute_efficiency, comm_efficiency, &out->ttft_compute_s, &out->ttft_comm_s);
  out->tpot_s = decode_step_s (in, in->batch, compute_efficiency, memory_efficiency, comm_efficiency,
                               &out->expert_read_fraction, &out->memory_bound);
  out->tokens_per_s = in->batch / out->tpot_s;

  /* Capacity, continuous batching at the largest batch that fits: each request costs its prefill
   * and a batch's share of its decode steps. */
  out->capacity_batch = MIN (out->max_concurrent_sequences, 65536);
  if (out->capacity_batch < 1)
    return;
  out->capacity_step_s = decode_step_s (in, out->capacity_batch, compute_efficiency, memory_efficiency,
                                        comm_efficiency, NULL, NULL);
  per_request = prefill_s (in, 1, compute_efficiency, comm_efficiency, NULL, NULL) +
                in->output_tokens * out->capacity_step_s / out->capacity_batch;
  out->capacity_rps = replicas / per_request;
}

static void
inference (const SuanliPlanInputs *in,
           SuanliEstimate         *out)
{
  double weights, context = in->prompt_tokens + in->output_tokens, free_memory, compute;

  weights = suanli_estimate_weight_bytes (in, suanli_estimate_parameters_per_gpu (in));
  /* Prefill's working set: a few hidden-size buffers per prompt token, split by tensor parallelism. */
  out->activations = has_architecture (in) ? 4 * in->batch * in->prompt_tokens * in->hidden * 2 / in->tensor : 0;
  out->weights = weights;
  out->kv_cache = in->batch * suanli_estimate_kv_bytes_per_sequence_per_gpu (in, context);
  free_memory = in->memory_capacity - weights - in->framework_overhead - out->activations;

  suanli_efficiency_for_prefill (in, &out->efficiency);
  compute = out->efficiency.fraction;
  inference_figures (in, compute, in->memory_efficiency, in->comm_efficiency, free_memory, &out->inference);
  /* High: the roofline for memory and links, compute at the top of the published runs' spread. Low:
   * the roofline's known overstatement, the bottom of the spread, and less of the links. */
  inference_figures (in, MIN (1, compute * out->efficiency.high), 1, 1, free_memory, &out->inference_high);
  inference_figures (in, compute * MIN (out->efficiency.low, 0.6), MIN (in->memory_efficiency, 1 / ROOFLINE_OVERSTATEMENT),
                     in->comm_efficiency * 0.6, free_memory, &out->inference_low);
  out->replicas = in->gpus / (in->tensor * in->pipeline);
  if (in->requests_per_s > 0 && out->inference.capacity_rps > 0)
    out->replicas_needed = ceil (in->requests_per_s / (out->inference.capacity_rps / out->replicas));
  /* Every GPU busy at capacity: what an hour of them costs and draws, over the tokens it puts out. */
  if (out->inference.capacity_rps > 0 && in->output_tokens > 0)
    {
      double million_tokens_per_hour = out->inference.capacity_rps * in->output_tokens * 3600 / 1e6;

      out->cost_per_million_tokens = in->gpus * in->price_per_gpu_hour / million_tokens_per_hour;
      out->kwh_per_million_tokens = in->gpus * in->board_power / 1000 * in->pue / million_tokens_per_hour;
    }
}

/* The MFU against the dense peak of the precision the plan computes in (not the one MFU is stated
 * against): what published runs of that precision are compared on. */
double
suanli_estimate_mfu_at_compute_peak (const SuanliPlanInputs *in,
                                     const SuanliEstimate   *e)
{
  if (e->step_time_s <= 0 || in->peak_flops <= 0)
    return 0;
  return e->model_flops_per_step / (e->step_time_s * in->gpus * in->peak_flops);
}

/* Whether the plan's MFU is above the highest any published run of its precision reached. */
gboolean
suanli_estimate_mfu_above_published (const SuanliPlanInputs *in,
                                     const SuanliEstimate   *e)
{
  return suanli_plan_inputs_is_training (in) &&
         suanli_estimate_mfu_at_compute_peak (in, e) > suanli_efficiency_highest_published_mfu (in->compute) * (1 + 1e-9);
}

/* A bound of the training estimate's range: the published runs behind the efficiency model ran
 * @factor times as fast as the model says at their extremes, so the whole step scales by it. */
static void
training_range (const SuanliEstimate *e,
                double                factor,
                SuanliTrainingRange  *range)
{
  range->step_time_s = e->step_time_s / factor;
  range->tokens_per_s = e->tokens_per_s * factor;
  range->time_to_train_s = e->time_to_train_s / factor;
  range->mfu = e->mfu * factor;
  range->gpu_hours = e->gpu_hours / factor;
  range->energy_kwh = e->energy_kwh / factor;
  range->cost = e->cost / factor;
  range->co2_t = e->co2_t / factor;
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
      suanli_efficiency_for_training (inputs, suanli_estimate_training_flops_per_token (inputs, FALSE),
                                      suanli_estimate_training_flops_per_token (inputs, TRUE),
                                      training_attention_flops_per_token (inputs), &estimate->efficiency);
      training_time (inputs, estimate);
      training_range (estimate, estimate->efficiency.low, &estimate->training_low);
      training_range (estimate, estimate->efficiency.high, &estimate->training_high);
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
