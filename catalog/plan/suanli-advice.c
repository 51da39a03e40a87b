/* suanli-advice.c — what to change in a plan, and what the change does
 *
 * Each rule looks at the resolved plan and its estimate and, when it applies, proposes one change
 * as a JSON Merge Patch, names the technique in the catalog, and states the figure the change
 * moves and which way; the tests apply every change and check that it does.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>
#include <glib/gi18n.h>

#include "suanli-advice.h"
#include "suanli-units.h"

void
suanli_advice_free (SuanliAdvice *advice)
{
  if (advice == NULL)
    return;
  g_free (advice->text);
  g_free (advice->change);
  g_free (advice);
}

static SuanliAdvice *
add (GPtrArray  *list,
     const char *id,
     const char *severity,
     const char *technique,
     const char *effect_figure,
     int         effect_direction,
     char       *change,
     char       *text)
{
  SuanliAdvice *advice = g_new0 (SuanliAdvice, 1);

  advice->id = id;
  advice->severity = severity;
  advice->technique = technique;
  advice->effect_figure = effect_figure;
  advice->effect_direction = effect_direction;
  advice->change = change;
  advice->text = text;
  g_ptr_array_add (list, advice);
  return advice;
}

static char *
gib (double bytes)
{
  return suanli_format_bytes ((guint64) MAX (0, bytes), SUANLI_MEMORY_UNITS_GIB);
}

/* A number as JSON writes it, whatever the locale's decimal separator. */
static const char *
json_number (char   *buffer,
             double  value)
{
  return g_ascii_formatd (buffer, G_ASCII_DTOSTR_BUF_SIZE, "%.17g", value);
}

/* The same change to tensor parallelism keeps t·p·d equal to the GPUs. */
static char *
tensor_patch (const SuanliPlanInputs *in,
              double                  tensor)
{
  char t[G_ASCII_DTOSTR_BUF_SIZE], d[G_ASCII_DTOSTR_BUF_SIZE];

  return g_strdup_printf ("{\"parallelism\": {\"tensor\": %s, \"data\": %s}}", json_number (t, tensor),
                          json_number (d, in->gpus / (tensor * in->pipeline)));
}

static void
training_advice (const SuanliPlanInputs *in,
                 const SuanliEstimate   *e,
                 GPtrArray              *list)
{
  g_autofree char *over = gib (e->total - e->capacity);
  char number[G_ASCII_DTOSTR_BUF_SIZE];

  if (!e->fits && e->activations > 0 && in->recompute != SUANLI_RECOMPUTE_FULL)
    {
      if (in->recompute == SUANLI_RECOMPUTE_NONE && !in->flash_attention)
        add (list, "recompute-selective", "info", "selective-recompute", "memory.activations", -1,
             g_strdup ("{\"techniques\": {\"recompute\": \"selective\"}}"),
             g_strdup_printf (_("%s over capacity: recompute attention (selective recomputation) to drop its "
                                "s² activations for a few per cent more compute"), over));
      else
        add (list, "recompute-full", "info", "gradient-checkpointing", "memory.activations", -1,
             g_strdup ("{\"techniques\": {\"recompute\": \"full\"}}"),
             g_strdup_printf (_("%s over capacity: full recomputation keeps only each layer's input, for about a "
                                "third more compute"), over));
    }
  if (!e->fits && in->data > 1 && in->zero_stage < 3)
    {
      static const char * const techniques[] = { "zero-1", "zero-2", "zero-3" };

      add (list, "zero-stage", "info", techniques[in->zero_stage], "memory.total", -1,
           g_strdup_printf ("{\"parallelism\": {\"zero_stage\": %d}}", in->zero_stage + 1),
           g_strdup_printf (_("%s over capacity: ZeRO stage %d shards more model state over the %g data-parallel "
                              "ranks"), over, in->zero_stage + 1, in->data));
    }
  if (!in->flash_attention && in->recompute != SUANLI_RECOMPUTE_FULL && e->activations > 0)
    add (list, "flash-attention", "info", "flashattention", "memory.activations", -1,
         g_strdup ("{\"techniques\": {\"flash_attention\": true}}"),
         g_strdup (_("FlashAttention never stores the s² attention scores: less activation memory, and usually "
                     "faster")));
  if (!e->fits && in->optimizer == SUANLI_OPTIMIZER_ADAMW && e->optimizer > 0)
    add (list, "adamw-8bit", "info", "8bit-optimizers", "memory.optimizer", -1,
         g_strdup ("{\"precision\": {\"optimizer\": \"adamw-8bit\"}}"),
         g_strdup_printf (_("%s over capacity: 8-bit Adam keeps its two moments in 8 bits, half the optimizer "
                            "memory"), over));
  if (!e->fits && in->zero_stage >= 1 && in->offload == SUANLI_OFFLOAD_NONE && e->optimizer > 0)
    add (list, "offload-optimizer", "info", "zero-offload", "memory.total", -1,
         g_strdup ("{\"parallelism\": {\"offload\": \"optimizer\"}}"),
         g_strdup_printf (_("%s over capacity: ZeRO-Offload moves the optimizer states to CPU memory, for slower "
                            "steps"), over));
  if (in->pipeline > 1 && in->virtual_stages == 1 && e->step_time_s > 0 && e->bubble_s / e->step_time_s > 0.1 &&
      fmod (in->layers, in->pipeline * 2) == 0)
    add (list, "interleave-pipeline", "info", "pipeline-parallelism", "training.bubble_s", -1,
         g_strdup ("{\"parallelism\": {\"virtual_stages\": 2}}"),
         g_strdup_printf (_("The pipeline idles %.0f%% of each step: two virtual stages per GPU halve the bubble"),
                          100 * e->bubble_s / e->step_time_s));
  if (in->tensor > in->gpus_per_node)
    add (list, "tensor-within-node", "warning", "tensor-parallelism", "training.tensor_parallel_s", -1,
         tensor_patch (in, in->gpus_per_node),
         g_strdup_printf (_("Tensor parallelism of %g spans nodes: keep it within the node's %g GPUs, where the "
                            "scale-up link is"), in->tensor, in->gpus_per_node));
  if (in->mode == SUANLI_MODE_TRAIN && in->tokens < 10 * in->parameters)
    add (list, "chinchilla-tokens", "warning", NULL, "training.time_to_train_s", +1,
         g_strdup_printf ("{\"workload\": {\"tokens\": %s}}", json_number (number, 20 * in->parameters)),
         g_strdup_printf (_("%.1f tokens per parameter: compute-optimal training (Chinchilla) uses about 20"),
                          in->tokens / in->parameters));
}

static void
inference_advice (const SuanliPlanInputs *in,
                  const SuanliEstimate   *e,
                  GPtrArray              *list)
{
  g_autofree char *over = gib (e->total - e->capacity);

  if (!e->fits && (in->weights == SUANLI_PRECISION_BF16 || in->weights == SUANLI_PRECISION_FP16 ||
                   in->weights == SUANLI_PRECISION_FP32))
    add (list, "quantize-weights", "info", "int8-quantization", "inference.weights_per_gpu", -1,
         g_strdup ("{\"precision\": {\"weights\": \"int8\"}}"),
         g_strdup_printf (_("%s over capacity: 8-bit weights halve the weights' memory, usually within 1%% of the "
                            "accuracy"), over));
  if (!e->fits && in->tensor * 2 <= in->gpus_per_node && fmod (in->heads, in->tensor * 2) == 0 &&
      fmod (in->gpus, in->tensor * 2 * in->pipeline) == 0)
    add (list, "tensor-parallel-inference", "info", "tensor-parallelism", "inference.weights_per_gpu", -1,
         tensor_patch (in, in->tensor * 2),
         g_strdup_printf (_("%s over capacity: split the model over %g GPUs with tensor parallelism"), over,
                          in->tensor * 2));
  if ((in->kv_cache == SUANLI_PRECISION_BF16 || in->kv_cache == SUANLI_PRECISION_FP16) &&
      (!e->fits || e->kv_cache > 0.25 * e->capacity))
    add (list, "kv-cache-fp8", "info", "kv-cache", "inference.kv_bytes_per_token", -1,
         g_strdup ("{\"precision\": {\"kv_cache\": \"fp8\"}}"),
         g_strdup (_("An 8-bit KV cache holds twice the tokens in the same memory")));
}

/* Returns: (transfer full): the advice (of SuanliAdvice) for a valid plan, most important first. */
GPtrArray *
suanli_advice_for (const SuanliPlanInputs *inputs,
                   const SuanliEstimate   *estimate)
{
  GPtrArray *list = g_ptr_array_new_with_free_func ((GDestroyNotify) suanli_advice_free);

  g_return_val_if_fail (inputs != NULL && estimate != NULL, list);

  if (suanli_plan_inputs_is_training (inputs))
    training_advice (inputs, estimate, list);
  else
    inference_advice (inputs, estimate, list);
  return list;
}

/* Looks up a figure by its JSON path ("memory.total", "inference.tpot_s"). */
gboolean
suanli_estimate_get_figure (const SuanliEstimate *e,
                            const char           *figure,
                            double               *value)
{
  const struct { const char *name; double value; } table[] = {
    { "memory.weights", e->weights }, { "memory.gradients", e->gradients }, { "memory.optimizer", e->optimizer },
    { "memory.activations", e->activations }, { "memory.kv_cache", e->kv_cache }, { "memory.total", e->total },
    { "training.step_time_s", e->step_time_s }, { "training.bubble_s", e->bubble_s },
    { "training.tensor_parallel_s", e->tensor_parallel_s },
    { "training.exposed_communication_s", e->exposed_communication_s },
    { "training.time_to_train_s", e->time_to_train_s }, { "training.tokens_per_s", e->tokens_per_s },
    { "inference.weights_per_gpu", e->inference.weights_per_gpu },
    { "inference.kv_bytes_per_token", e->inference.kv_bytes_per_token },
    { "inference.tpot_s", e->inference.tpot_s },
  };

  for (guint i = 0; i < G_N_ELEMENTS (table); i++)
    if (g_str_equal (table[i].name, figure))
      {
        *value = table[i].value;
        return TRUE;
      }
  return FALSE;
}
