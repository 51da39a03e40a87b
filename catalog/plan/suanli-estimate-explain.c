/* suanli-estimate-explain.c — every estimated figure, explained: formula, values, result, source
 *
 * Written only when asked (a popover, the report's appendix, `suanli-cli plan --explain`), so that
 * evaluating plans stays fast. The values substituted are the plan's resolved inputs and the
 * estimate's intermediate terms, so an explanation always agrees with the number it explains.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>
#include <glib/gi18n.h>

#include "suanli-architecture.h"
#include "suanli-estimate.h"
#include "suanli-plan-hardware.h"

#define ZERO_SOURCE "Rajbhandari et al., ZeRO: Memory Optimizations Toward Training Trillion Parameter Models (2020)"
#define ACTIVATION_SOURCE "Korthikanti et al., Reducing Activation Recomputation in Large Transformer Models (2022)"
#define FLOPS_SOURCE "Narayanan et al., Efficient Large-Scale Language Model Training on GPU Clusters (2021); Korthikanti et al. (2022)"
#define NCCL_SOURCE "NVIDIA nccl-tests, performance notes (ring all-reduce bus bandwidth)"
#define ARCHITECTURE_SOURCE "Counted from the weight matrices; for GPT layers 24h² + 4hs, Korthikanti et al. (2022); attention against the whole sequence as Narayanan et al. (2021) and PaLM (Chowdhery et al. 2022) count it"
#define EFFICIENCY_SOURCE "Korthikanti et al. (2022), Table 5 (A100); The Llama 3 Herd of Models (2024), Table 4 (H100); the NVIDIA NeMo Framework 24.07 performance summary (H100, FP8); the Llama 3.1 model card; TorchTitan's Llama 3.1 benchmarks on H100 (2024)"
#define ROOFLINE_SOURCE "Williams, Waterman & Patterson, Roofline (CACM 2009); Pope et al., Efficiently Scaling Transformer Inference (MLSys 2023): decoding reads every weight and the KV cache each step"

static const char * const figures[] = {
  "memory.weights", "memory.gradients", "memory.optimizer", "memory.activations", "memory.kv_cache",
  "memory.overhead", "memory.total",
  "training.model_flops_per_step", "training.hardware_flops_per_step", "training.step_time_s",
  "training.compute_s", "training.communication_s", "training.exposed_communication_s", "training.bubble_s",
  "training.offload_s",
  "training.tokens_per_s", "training.time_to_train_s", "training.mfu", "training.hfu", "training.gpu_hours",
  "training.energy_kwh", "training.cost", "training.co2_t",
  "inference.weights_per_gpu", "inference.kv_bytes_per_token", "inference.max_concurrent_sequences",
  "inference.ttft_s", "inference.tpot_s", "inference.tokens_per_s", "inference.capacity_rps",
  "inference.cost_per_million_tokens", "inference.kwh_per_million_tokens",
  NULL
};

/* The figures suanli_estimate_explain() knows, as "section.key" of the estimate's JSON. */
const char * const *
suanli_estimate_get_figures (void)
{
  return figures;
}

/* Whose accounting the model states follow, and how it differs from the others. */
static const char *
memory_model_note (const SuanliPlanInputs *in)
{
  if (suanli_plan_inputs_is_lora (in))
    return _("\nAdapters: the frozen base in its precision, the adapters in 16 bits with their optimizer.");
  switch (in->memory_model)
    {
    case SUANLI_MEMORY_MODEL_DEEPSPEED:
      return _("\nAccounting: DeepSpeed's estimators. Stages 1–2 keep the 16-bit weights whole and shard 18 bytes "
               "per parameter (16-bit and fp32 gradients, master copy, moments); stage 3 shards all 18 and holds "
               "the largest layer whole, 4 bytes per parameter. The ZeRO paper counts 16 and no gathered layer "
               "(estimate_zero2/zero3_model_states_mem_needs, DeepSpeed 0.14.3 and later).");
    case SUANLI_MEMORY_MODEL_FSDP:
      return _("\nAccounting: PyTorch FSDP. The sharded flat parameters are fp32 (they are the master copy) and "
               "gradients reduce-scatter into fp32 shards; full shard gathers the current layer and prefetches the "
               "next in 16 bits. The ZeRO paper counts 16-bit weights and gradients instead.");
    case SUANLI_MEMORY_MODEL_ZERO_PAPER:
    default:
      return _("\nAccounting: the ZeRO paper, (2 + 2 + K)·Ψ sharded by stage, no buffers. DeepSpeed's estimators "
               "add fp32 gradients and the gathered layer; FSDP keeps fp32 shards.");
    }
}

static char *
explain_memory (const SuanliPlanInputs *in,
                const SuanliEstimate   *e,
                const char             *key)
{
  double psi = suanli_estimate_parameters_per_gpu (in);
  const char *zero = in->zero_stage > 0 ? _(" ÷ data-parallel size (ZeRO shards it)") : "";

  if (g_str_equal (key, "weights"))
    return g_strdup_printf (_("weights = bytes per parameter × parameters per GPU (P ÷ (t·p))%s\n"
                              "= %.4g B for %.4g parameters (%g bytes each; 4- and 8-bit weights add a 16-bit scale "
                              "and zero-point per %g weights and keep the embeddings in 16 bits)\n= %.4g B%s\nSource: %s"),
                            in->zero_stage >= 3 ? zero : "", suanli_estimate_weight_bytes (in, psi), psi,
                            suanli_precision_bytes (in->weights), in->quant_group_size, e->weights,
                            memory_model_note (in), ZERO_SOURCE);
  if (!suanli_plan_inputs_is_training (in) && (g_str_equal (key, "optimizer") || g_str_equal (key, "gradients")))
    return g_strdup (_("0 B: serving keeps no gradients and no optimizer states"));
  if (g_str_equal (key, "gradients"))
    return g_strdup_printf (_("gradients = bytes per parameter × parameters per GPU%s\n= %.4g B%s%s\nSource: %s"),
                            in->zero_stage >= 2 ? zero : "", e->gradients,
                            in->offload != SUANLI_OFFLOAD_NONE ? _(" (offloaded with the optimizer: ZeRO-Offload steps on the host)") : "",
                            memory_model_note (in), ZERO_SOURCE);
  if (g_str_equal (key, "optimizer") && (in->offload != SUANLI_OFFLOAD_NONE || suanli_plan_inputs_is_lora (in)))
    {
      double trained = suanli_plan_inputs_is_lora (in) ? suanli_estimate_lora_parameters_per_gpu (in) : psi;
      double shards = in->zero_stage >= 1 ? in->data : 1;

      if (in->offload != SUANLI_OFFLOAD_NONE)
        return g_strdup_printf (_("optimizer = bytes per trained parameter × trained parameters per GPU%s\n"
                                  "in host memory (offloaded) = %g × %.4g%s = %.4g B\non the GPU = %.4g B%s\nSource: %s"),
                                in->zero_stage >= 1 ? zero : "", suanli_estimate_optimizer_bytes (in), trained,
                                in->zero_stage >= 1 ? " ÷ d" : "", suanli_estimate_optimizer_bytes (in) * trained / shards,
                                e->optimizer, memory_model_note (in), ZERO_SOURCE);
      return g_strdup_printf (_("optimizer = bytes per trained parameter × trained parameters per GPU (the adapters)%s\n"
                                "= %g × %.4g%s\n= %.4g B%s\nSource: %s"),
                              in->zero_stage >= 1 ? zero : "", suanli_estimate_optimizer_bytes (in), trained,
                              in->zero_stage >= 1 ? " ÷ d" : "", e->optimizer, memory_model_note (in), ZERO_SOURCE);
    }
  if (g_str_equal (key, "optimizer"))
    return g_strdup_printf (_("optimizer = %g bytes per parameter (moments, and an fp32 master copy unless the "
                              "optimizer updates the weights in place) × parameters per GPU%s\n= %g × %.4g%s\n"
                              "= %.4g B%s%s\nSource: %s"),
                            suanli_estimate_optimizer_bytes (in), in->zero_stage >= 1 ? zero : "",
                            suanli_estimate_optimizer_bytes (in), psi, in->zero_stage >= 1 ? " ÷ d" : "",
                            e->optimizer, in->offload != SUANLI_OFFLOAD_NONE ? _(" (offloaded: 0 on the GPU)") : "",
                            memory_model_note (in), ZERO_SOURCE);
  if (g_str_equal (key, "activations"))
    {
      if (!suanli_plan_inputs_is_training (in))
        return g_strdup_printf (_("prefill working set ≈ 4 × batch × prompt tokens × hidden × 2 bytes ÷ t\n= %.4g B"),
                                e->activations);
      return g_strdup_printf (_("activations = bytes per layer per micro-batch × (layers ÷ p) × micro-batches in "
                                "flight (min(m, p)) × interleaving factor\n"
                                "bytes per layer = s·b·h·(…) for %s recompute%s%s = %.4g B\n"
                                "= %.4g × %.4g\n= %.4g B\nSource: %s"),
                              in->recompute == SUANLI_RECOMPUTE_FULL ? _("full")
                              : in->recompute == SUANLI_RECOMPUTE_SELECTIVE ? _("selective") : _("no"),
                              in->sequence_parallel ? _(", sequence parallel") : "",
                              in->flash_attention ? _(", FlashAttention (no s² term)") : "",
                              suanli_estimate_activations_per_layer (in), suanli_estimate_activations_per_layer (in),
                              suanli_estimate_activation_multiplier (in), e->activations, ACTIVATION_SOURCE);
    }
  if (g_str_equal (key, "kv_cache") && suanli_plan_inputs_is_training (in))
    return g_strdup (_("KV cache = 0 B: training recomputes attention over each sequence and keeps no cache; the "
                       "keys and values it needs are activations, counted there"));
  if (g_str_equal (key, "kv_cache"))
    return g_strdup_printf (_("KV cache = batch × KV bytes per token on this GPU × (prompt + output tokens)\n"
                              "= %g × %.4g × %g\n= %.4g B"),
                            in->batch, suanli_estimate_kv_bytes_per_token_per_gpu (in),
                            in->prompt_tokens + in->output_tokens, e->kv_cache);
  if (g_str_equal (key, "overhead"))
    return g_strdup_printf (_("framework overhead (CUDA context, allocator, fragmentation) = %.4g B, an assumption "
                              "(typically 0.3–2 GB per GPU)"), e->overhead);
  return g_strdup_printf (_("total = weights + gradients + optimizer + activations + KV cache + overhead\n"
                            "= %.4g + %.4g + %.4g + %.4g + %.4g + %.4g\n= %.4g B of %.4g B: %s"),
                          e->weights, e->gradients, e->optimizer, e->activations, e->kv_cache, e->overhead, e->total,
                          e->capacity, e->fits ? _("fits") : _("does not fit"));
}

/* What the compute efficiency is and where it came from, in one paragraph. */
static char *
efficiency_note (const SuanliPlanInputs *in,
                 const SuanliEstimate   *e)
{
  const SuanliEfficiency *f = &e->efficiency;

  if (in->mfu > 0)
    return g_strdup_printf (_("Efficiency: the plan's MFU, %.1f %% of the dense %s peak."), 100 * in->mfu,
                            suanli_precision_to_nick (in->mfu_reference));
  if (in->achieved_flops > 0)
    return g_strdup_printf (_("Efficiency: the plan's achieved rate, %.4g TFLOP/s per GPU."), in->achieved_flops / 1e12);
  if (!f->modelled)
    return g_strdup_printf (_("Efficiency: the plan's compute efficiency, %.1f %% of the dense peak."), 100 * f->fraction);
  if (f->capped)
    return g_strdup_printf (_("Efficiency: %.1f %% of the dense %s peak, modelled from published runs and held to the "
                              "highest MFU a published %s run reached (%.1f %%); the runs behind the model ran "
                              "%.2f–%.2f times its rate: the range.\nSource: %s"),
                            100 * f->fraction, suanli_precision_to_nick (in->compute), suanli_precision_to_nick (in->compute),
                            100 * suanli_efficiency_highest_published_mfu (in->compute), f->low, f->high, EFFICIENCY_SOURCE);
  return g_strdup_printf (_("Efficiency: %.1f %% of the dense %s peak, modelled from published runs: matrix products at "
                            "%.0f %% on this accelerator (%s) × %.3g for the narrowest matrix one GPU multiplies (%g "
                            "wide after tensor parallelism); the memory-bound kernels between them (norms, "
                            "activations, %s) add %.0f %% to their time; attention %.0f %% of the FLOPs, at %.0f %% of "
                            "the peak over the half a causal mask leaves; × %.3g for scale. The runs behind it ran "
                            "%.2f–%.2f times the model's rate: the range.\nSource: %s"),
                          100 * f->fraction, suanli_precision_to_nick (in->compute), 100 * f->gemm_ceiling, f->basis,
                          f->width_factor, f->width, in->fused_kernels ? _("fused") : _("each its own kernel"),
                          100 * f->non_matrix * f->gemm_ceiling * f->width_factor, 100 * f->attention_share,
                          100 * f->attention_ceiling, f->scale_factor, f->low, f->high, EFFICIENCY_SOURCE);
}

typedef struct
{
  double      share;  /* how far the figure moves, as a share of it */
  const char *what;
} Lever;

static int
compare_levers (gconstpointer a,
                gconstpointer b)
{
  double x = ((const Lever *) a)->share, y = ((const Lever *) b)->share;

  return x < y ? 1 : x > y ? -1 : 0;
}

/* The two assumptions that move the time to train most, and by how much. */
static char *
what_moves_it (const SuanliPlanInputs *in,
               const SuanliEstimate   *e)
{
  gboolean given = !e->efficiency.modelled;
  Lever levers[] = {
    { given ? 1 : MAX (1 / e->efficiency.low - 1, 1 - 1 / e->efficiency.high),
      given ? _("the plan's own efficiency (the time follows it one for one)")
            : _("the efficiency (the published runs' spread)") },
    { 1 / in->goodput - 1, _("the goodput (restarts and downtime)") },
    { e->exposed_communication_s / e->step_time_s, _("the communication that does not overlap") },
    { e->bubble_s / e->step_time_s, _("the pipeline bubble") },
    { e->offload_s / e->step_time_s, _("the offload to the host") },
  };

  qsort (levers, G_N_ELEMENTS (levers), sizeof levers[0], compare_levers);
  return g_strdup_printf (_("Moves it most: %s, up to %.0f %%; then %s, %.0f %%."), levers[0].what, 100 * levers[0].share,
                          levers[1].what, 100 * levers[1].share);
}

/* A line flagging an MFU no published run of the plan's precision reached; else the MFU against the
 * peak of the precision the plan computes in, where that is not the one MFU is stated against. */
static char *
mfu_flag (const SuanliPlanInputs *in,
          const SuanliEstimate   *e)
{
  if (!suanli_estimate_mfu_above_published (in, e))
    {
      if (in->compute == in->mfu_reference)
        return g_strdup ("");
      return g_strdup_printf (_("\n= %.1f %% of the dense %s peak the plan computes in"),
                              100 * suanli_estimate_mfu_at_compute_peak (in, e), suanli_precision_to_nick (in->compute));
    }
  return g_strdup_printf (_("\n⚠ %.1f %% of the dense %s peak is above the highest MFU any published %s run reached "
                            "(%.1f %%)."),
                          100 * suanli_estimate_mfu_at_compute_peak (in, e), suanli_precision_to_nick (in->compute),
                          suanli_precision_to_nick (in->compute),
                          100 * suanli_efficiency_highest_published_mfu (in->compute));
}

static char *
explain_training (const SuanliPlanInputs *in,
                  const SuanliEstimate   *e,
                  const char             *key)
{
  double n = in->gpus, peak = in->peak_flops;

  if (g_str_equal (key, "model_flops_per_step"))
    {
      if (!suanli_architecture_is_known (in))
        return g_strdup_printf (_("model FLOPs per step = %g × active parameters × tokens (no architecture given)\n"
                                  "= %g × %.4g × %g × %g\n= %.4g FLOP\nSource: %s"),
                                suanli_plan_inputs_is_lora (in) ? 4.0 : 6.0, suanli_plan_inputs_is_lora (in) ? 4.0 : 6.0,
                                in->active_parameters, in->global_batch, in->seq_len, e->model_flops_per_step,
                                FLOPS_SOURCE);
      return g_strdup_printf (_("model FLOPs per step = %s × forward FLOPs per token × B × s\n"
                                "forward per token = 2 × weights it passes (%.4g: attention, its feed-forward or "
                                "routed experts) + attention against the whole sequence, as budgets count it (%.4g) + "
                                "logits 2·h·V (%.4g)\n"
                                "= %.4g FLOP per token × %g × %g\n= %.4g FLOP\nSource: %s"),
                              suanli_plan_inputs_is_lora (in) ? _("2 (LoRA: no weight gradients for the base)") : "3",
                              suanli_architecture_matrix_parameters (in),
                              suanli_architecture_attention_score_flops (in, suanli_architecture_counted_attention_keys (in, in->seq_len)),
                              suanli_architecture_logit_flops_per_token (in),
                              suanli_architecture_forward_flops_per_token (in, in->seq_len), in->global_batch,
                              in->seq_len, e->model_flops_per_step, ARCHITECTURE_SOURCE);
    }
  if (g_str_equal (key, "hardware_flops_per_step"))
    return g_strdup_printf (_("hardware FLOPs per step = model FLOPs plus what recomputation redoes (selective: the "
                              "attention scores' forward again; full: every layer's forward again)\n= %.4g FLOP\n"
                              "Source: %s"), e->hardware_flops_per_step, FLOPS_SOURCE);
  if (g_str_equal (key, "offload_s"))
    return g_strdup_printf (_("offload per step = 16-bit gradients down and weights up over the host link (25 GB/s "
                              "assumed; NVMe 3 GB/s per GPU), weights again for forward and backward when they are "
                              "offloaded, and the CPU's optimizer step (2e9 parameters/s per GPU assumed); not "
                              "overlapped\n= %.4g s"), e->offload_s);
  if (g_str_equal (key, "compute_s"))
    {
      g_autofree char *note = efficiency_note (in, e);

      return g_strdup_printf (_("compute = hardware FLOPs ÷ (GPUs × dense peak × efficiency)\n"
                                "= %.4g ÷ (%g × %.4g × %.3g)\n= %.4g s\n%s"),
                              e->hardware_flops_per_step, n, peak, e->efficiency.fraction, e->compute_s, note);
    }
  if (g_str_equal (key, "communication_s") || g_str_equal (key, "exposed_communication_s"))
    return g_strdup_printf (_("communication per step: data-parallel all-reduce %.4g s (overlaps the backward pass), "
                              "tensor-parallel all-reduces %.4g s, pipeline sends %.4g s, expert all-to-all %.4g s; "
                              "a ring all-reduce of S bytes over n ranks takes 2·(n−1)/n·S/bandwidth\n"
                              "total %.4g s, of it exposed %.4g s\nSource: %s"),
                            e->data_parallel_s, e->tensor_parallel_s, e->pipeline_s, e->expert_s, e->communication_s,
                            e->exposed_communication_s, NCCL_SOURCE);
  if (g_str_equal (key, "bubble_s") && in->schedule == SUANLI_SCHEDULE_DUALPIPE)
    return g_strdup_printf (_("pipeline bubble under DualPipe = (p/2 − 1) ÷ (3 × m) of the pipeline's work\n"
                              "= (%g/2 − 1) ÷ (3 × %g) …\n= %.4g s\nSource: DeepSeek-AI, DeepSeek-V3 Technical "
                              "Report (2024), Table 2"),
                            in->pipeline, suanli_plan_inputs_micro_batches (in), e->bubble_s);
  if (g_str_equal (key, "bubble_s"))
    return g_strdup_printf (_("pipeline bubble = (p − 1) ÷ (v × m) of the pipeline's work\n"
                              "= (%g − 1) ÷ (%g × %g) …\n= %.4g s\nSource: %s"),
                            in->pipeline, in->virtual_stages, suanli_plan_inputs_micro_batches (in), e->bubble_s,
                            FLOPS_SOURCE);
  if (g_str_equal (key, "step_time_s"))
    {
      if (in->mfu > 0)
        return g_strdup_printf (_("step time = model FLOPs ÷ (GPUs × dense peak × MFU)\n= %.4g ÷ (%g × %.4g × %g)\n"
                                  "= %.4g s (the breakdown is scaled to it)"),
                                e->model_flops_per_step, n, peak, in->mfu, e->step_time_s);
      if (in->achieved_flops > 0)
        return g_strdup_printf (_("step time = hardware FLOPs ÷ (GPUs × achieved FLOP/s)\n= %.4g ÷ (%g × %.4g)\n"
                                  "= %.4g s (the breakdown is scaled to it)"),
                                e->hardware_flops_per_step, n, in->achieved_flops, e->step_time_s);
      return g_strdup_printf (_("step time = compute + exposed communication + pipeline bubble\n"
                                "= %.4g + %.4g + %.4g\n= %.4g s"),
                              e->compute_s, e->exposed_communication_s, e->bubble_s, e->step_time_s);
    }
  if (g_str_equal (key, "tokens_per_s"))
    return g_strdup_printf (_("tokens/s = global batch × sequence length ÷ step time\n= %g × %g ÷ %.4g\n= %.4g"),
                            in->global_batch, in->seq_len, e->step_time_s, e->tokens_per_s);
  if (g_str_equal (key, "time_to_train_s"))
    {
      g_autofree char *note = efficiency_note (in, e);
      g_autofree char *levers = what_moves_it (in, e);

      return g_strdup_printf (_("time to train = tokens ÷ tokens/s ÷ goodput (restarts and downtime)%s\n"
                                "= %.4g ÷ %.4g ÷ %g\n= %.4g s (%.3g days; range %.3g–%.3g days)\n%s\n"
                                "Goodput: %.0f %% of the wall-clock time trains (Llama 3 kept over 90 %%).\n%s"),
                              suanli_plan_inputs_is_finetune (in) ? _("; a fine-tune's tokens = dataset × epochs") : "",
                              in->tokens, e->tokens_per_s, in->goodput, e->time_to_train_s, e->time_to_train_s / 86400,
                              e->training_high.time_to_train_s / 86400, e->training_low.time_to_train_s / 86400, note,
                              100 * in->goodput, levers);
    }
  if (g_str_equal (key, "mfu"))
    {
      g_autofree char *flag = mfu_flag (in, e);

      return g_strdup_printf (_("MFU = model FLOPs ÷ (step time × GPUs × dense %s peak)\n= %.4g ÷ (%.4g × %g × %.4g)\n"
                                "= %.3g, stated against %s as papers state it%s"),
                              suanli_precision_to_nick (in->mfu_reference), e->model_flops_per_step, e->step_time_s, n,
                              in->reference_flops, e->mfu, suanli_precision_to_nick (in->mfu_reference), flag);
    }
  if (g_str_equal (key, "hfu"))
    return g_strdup_printf (_("HFU = hardware FLOPs (what recomputation redoes included) ÷ (step time × GPUs × dense "
                              "%s peak)\n= %.4g ÷ (%.4g × %g × %.4g)\n= %.3g: the share of the peak the GPUs spend, "
                              "useful or not"),
                            suanli_precision_to_nick (in->compute), e->hardware_flops_per_step, e->step_time_s, n,
                            in->peak_flops, e->hfu);
  if (g_str_equal (key, "gpu_hours"))
    return g_strdup_printf (_("GPU-hours = GPUs × time to train ÷ 3600\n= %g × %.4g ÷ 3600\n= %.4g (range %.4g–%.4g)"),
                            n, e->time_to_train_s, e->gpu_hours, e->training_high.gpu_hours, e->training_low.gpu_hours);
  if (g_str_equal (key, "energy_kwh"))
    return g_strdup_printf (_("energy = GPU-hours × board power × PUE\n= %.4g × %g kW × %g\n= %.4g kWh"),
                            e->gpu_hours, in->board_power / 1000, in->pue, e->energy_kwh);
  if (g_str_equal (key, "cost"))
    return g_strdup_printf (_("cost = GPU-hours × price per GPU-hour\n= %.4g × %g %s\n= %.4g %s (range %.4g–%.4g)"),
                            e->gpu_hours, in->price_per_gpu_hour, in->currency, e->cost, in->currency,
                            e->training_high.cost, e->training_low.cost);
  return g_strdup_printf (_("CO₂ = energy (MWh) × grid intensity\n= %.4g × %g t/MWh\n= %.4g t"),
                          e->energy_kwh / 1000, in->grid_tco2_per_mwh, e->co2_t);
}

static char *
explain_inference (const SuanliPlanInputs *in,
                   const SuanliEstimate   *e,
                   const char             *key)
{
  const SuanliInferenceFigures *f = &e->inference;

  if (g_str_equal (key, "weights_per_gpu"))
    return g_strdup_printf (_("weights per GPU = parameters × bytes per weight ÷ (t·p), 4- and 8-bit weights with a "
                              "16-bit scale and zero-point per %g weights and the embeddings left in 16 bits\n"
                              "= %.4g parameters at %g bytes ÷ (%g × %g)\n= %.4g B"),
                            in->quant_group_size, in->parameters, suanli_precision_bytes (in->weights), in->tensor,
                            in->pipeline, f->weights_per_gpu);
  if (g_str_equal (key, "kv_bytes_per_token"))
    {
      if (in->kv_lora_rank > 0)
        return g_strdup_printf (_("KV bytes per token = layers × (latent rank + rotary key size) × bytes (multi-head "
                                  "latent attention caches one latent per layer)\n= %g × (%g + %g) × %g\n= %.6g B"),
                                in->layers, in->kv_lora_rank, in->rope_head_dim, suanli_precision_bytes (in->kv_cache),
                                f->kv_bytes_per_token);
      return g_strdup_printf (_("KV bytes per token = 2 × layers × KV heads × head size × bytes%s\n"
                                "= 2 × %g × %g × %g × %g\n= %.6g B"),
                              in->sliding_window > 0 ? _(" (windowed layers keep only the last window of tokens)") : "",
                              in->layers, in->kv_heads, in->head_dim, suanli_precision_bytes (in->kv_cache),
                              f->kv_bytes_per_token);
    }
  if (g_str_equal (key, "max_concurrent_sequences"))
    return g_strdup_printf (_("sequences = (GPU memory − weights − overhead − prefill buffers) ÷ KV bytes per "
                              "sequence on one GPU at full length\n= %.4g sequences"), f->max_concurrent_sequences);
  if (g_str_equal (key, "ttft_s"))
    return g_strdup_printf (_("time to first token = prefill + tensor-parallel all-reduces\n"
                              "prefill = forward FLOPs of the prompt (its weights and causal attention) × batch ÷ (t × "
                              "peak × efficiency) = %.4g s at %.3g of the peak\n"
                              "all-reduces = 2 × layers × ring all-reduce of batch × prompt tokens × hidden × 2 bytes "
                              "over t = %g = %.4g s\n= %.4g + %.4g\n= %.4g s, %s dominates (bounds %.4g–%.4g s)"),
                            f->ttft_compute_s, e->efficiency.fraction, in->tensor, f->ttft_comm_s, f->ttft_compute_s,
                            f->ttft_comm_s, f->ttft_s,
                            f->ttft_comm_s > f->ttft_compute_s ? _("the all-reduce") : _("the prefill"),
                            e->inference_high.ttft_s, e->inference_low.ttft_s);
  if (g_str_equal (key, "tpot_s"))
    return g_strdup_printf (_("time per output token = max(bytes read per step ÷ (HBM bandwidth × efficiency), "
                              "2 × active parameters × batch ÷ (t × peak × efficiency)) + tensor-parallel "
                              "all-reduces\n= %.4g s, %s bound (bounds %.4g–%.4g s)\nSource: %s"),
                            f->tpot_s, f->memory_bound ? _("memory") : _("compute"), e->inference_high.tpot_s,
                            e->inference_low.tpot_s, ROOFLINE_SOURCE);
  if (g_str_equal (key, "capacity_rps"))
    return g_strdup_printf (_("capacity = replicas ÷ (prefill of one request + output tokens × decode step at the "
                              "largest batch that fits ÷ that batch)\n= %g ÷ (… + %g × %.4g s ÷ %g)\n"
                              "= %.4g requests/s%s"),
                            e->replicas, in->output_tokens, f->capacity_step_s, f->capacity_batch, f->capacity_rps,
                            e->replicas_needed > 0 ? _("; the load asked for needs more replicas when it exceeds this") : "");
  if (g_str_equal (key, "cost_per_million_tokens"))
    return g_strdup_printf (_("cost per million output tokens = GPUs × price per GPU-hour ÷ (capacity × output tokens × "
                              "3600 ÷ 10⁶), every GPU busy\n= %g × %g %s ÷ (%.4g × %g × 3600 ÷ 10⁶)\n= %.4g %s"),
                            in->gpus, in->price_per_gpu_hour, in->currency, f->capacity_rps, in->output_tokens,
                            e->cost_per_million_tokens, in->currency);
  if (g_str_equal (key, "kwh_per_million_tokens"))
    return g_strdup_printf (_("energy per million output tokens = GPUs × board power × PUE ÷ (capacity × output tokens "
                              "× 3600 ÷ 10⁶), every GPU busy\n= %g × %g kW × %g ÷ (%.4g × %g × 3600 ÷ 10⁶)\n= %.4g kWh"),
                            in->gpus, in->board_power / 1000, in->pue, f->capacity_rps, in->output_tokens,
                            e->kwh_per_million_tokens);
  return g_strdup_printf (_("tokens/s = batch ÷ time per output token\n= %g ÷ %.4g\n= %.4g (bounds %.4g–%.4g)"),
                          in->batch, f->tpot_s, f->tokens_per_s, e->inference_low.tokens_per_s,
                          e->inference_high.tokens_per_s);
}

static gboolean
superscript_exponent (const GMatchInfo *match,
                      GString          *result,
                      gpointer          user_data)
{
  static const char * const superscripts[] = { "⁰", "¹", "²", "³", "⁴", "⁵", "⁶", "⁷", "⁸", "⁹" };
  g_autofree char *mantissa = g_match_info_fetch (match, 1);
  g_autofree char *sign = g_match_info_fetch (match, 2);
  g_autofree char *digits = g_match_info_fetch (match, 3);

  g_string_append_printf (result, "%s × 10%s", mantissa, g_str_equal (sign, "-") ? "⁻" : "");
  for (const char *d = digits; *d != '\0'; d++)
    g_string_append (result, superscripts[*d - '0']);
  return FALSE;
}

/* printf's 1.23e+18 as people write it, 1.23 × 10¹⁸: the explanations are read, not parsed. */
static char *
readable_exponents (char *text)
{
  static GRegex *exponent;
  char *readable;

  if (g_once_init_enter (&exponent))
    g_once_init_leave (&exponent, g_regex_new ("([0-9]+(?:\\.[0-9]+)?)e([+-])0*([0-9]+)", G_REGEX_OPTIMIZE, 0, NULL));
  readable = g_regex_replace_eval (exponent, text, -1, 0, 0, superscript_exponent, NULL, NULL);
  g_free (text);
  return readable;
}

/* Which fabric a group of @span GPUs (@what: "tensor parallelism of 8") talks over, and why:
 * a group larger than the scale-up domain is costed on the slower fabric. */
static void
append_fabric (GString                *text,
               const SuanliPlanInputs *in,
               const char             *what,
               double                  span)
{
  double bandwidth = 0, domain = in->scale_up_domain > 0 ? in->scale_up_domain : in->gpus_per_node;

  switch (suanli_plan_hardware_fabric (in, span, &bandwidth))
    {
    case SUANLI_FABRIC_SCALE_UP:
      /* Translators: "Tensor parallelism of 8 stays within the scale-up domain of H200 SXM (8 GPUs): …". */
      g_string_append_printf (text, _("\n%s stays within the scale-up domain of %s (%g GPUs): %.4g GB/s per "
                                      "direction per GPU over all its links."),
                              what, in->accelerator_name, domain, bandwidth / 1e9);
      break;
    case SUANLI_FABRIC_HOST_LINK:
      g_string_append_printf (text, _("\n%s spans more than the scale-up domain of %s (%g GPUs), so it is costed "
                                      "on the slower host link between domains: %.4g GB/s per direction per GPU, "
                                      "not the scale-up fabric's %.4g."),
                              what, in->accelerator_name, domain, bandwidth / 1e9, in->scale_up_bandwidth / 1e9);
      break;
    case SUANLI_FABRIC_SCALE_OUT:
      g_string_append_printf (text, _("\n%s spans more than one node of %g GPUs, so it is costed on the scale-out "
                                      "network: %.4g GB/s per direction per GPU."),
                              what, in->gpus_per_node, bandwidth / 1e9);
      break;
    }
}

/* The fabrics a communication figure's collectives run over. */
static char *
with_fabrics (char                   *text,
              const SuanliPlanInputs *in,
              const char             *figure)
{
  GString *out = g_string_new (text);
  gboolean training = g_str_has_prefix (figure, "training.");

  g_free (text);
  if (in->tensor > 1)
    {
      /* Translators: "Tensor parallelism of 8". */
      g_autofree char *what = g_strdup_printf (_("Tensor parallelism of %g"), in->tensor);

      append_fabric (out, in, what, in->tensor);
    }
  if (training && in->data > 1)
    {
      g_autofree char *what = g_strdup_printf (_("Data parallelism of %g"), in->data);

      append_fabric (out, in, what, in->tensor * in->pipeline * in->data);
    }
  return g_string_free (out, FALSE);
}

/* Returns: (transfer full) (nullable): how @figure ("memory.activations", see
 * suanli_estimate_get_figures()) was computed, or NULL for an unknown figure. */
char *
suanli_estimate_explain (const SuanliPlanInputs *inputs,
                         const SuanliEstimate   *estimate,
                         const char             *figure)
{
  g_return_val_if_fail (inputs != NULL && estimate != NULL && figure != NULL, NULL);

  if (!g_strv_contains (figures, figure))
    return NULL;
  if (g_str_has_prefix (figure, "memory."))
    return readable_exponents (explain_memory (inputs, estimate, figure + strlen ("memory.")));
  if (g_str_equal (figure, "training.communication_s") || g_str_equal (figure, "training.exposed_communication_s"))
    return readable_exponents (with_fabrics (explain_training (inputs, estimate, figure + strlen ("training.")),
                                             inputs, figure));
  if (g_str_has_prefix (figure, "training."))
    return readable_exponents (explain_training (inputs, estimate, figure + strlen ("training.")));
  if (g_str_equal (figure, "inference.ttft_s") || g_str_equal (figure, "inference.tpot_s"))
    return readable_exponents (with_fabrics (explain_inference (inputs, estimate, figure + strlen ("inference.")),
                                             inputs, figure));
  return readable_exponents (explain_inference (inputs, estimate, figure + strlen ("inference.")));
}
