/* suanli-advice.c — what to change in a plan, found by estimating each change
 *
 * Advice is a search, not a list of rules. Every change a user could make — parallelism, sharding,
 * offload, recomputation, adapters and quantized base weights, micro-batch, more GPUs, a bigger
 * accelerator from the catalog — is written as a JSON Merge Patch, applied to a copy of the plan,
 * resolved against the catalog and estimated. A plan that does not fit gets the changes that make it
 * fit first, the least slowing first, then those that bring it closest; when no single change is
 * enough, the smallest combination that is. A plan that fits gets the changes that make it faster.
 * Each suggestion carries the figures it leads to, so the page and the report can say what it does.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>
#include <glib/gi18n.h>

#include "suanli-advice.h"
#include "suanli-json-writer.h"
#include "suanli-plan-hardware.h"
#include "suanli-units.h"

/* Combinations are looked for among this many of the best memory-saving changes. */
#define COMBINATION_POOL 8
/* A change must gain this share of the time to train to be offered for speed. */
#define SPEED_GAIN 0.02
/* At most this many suggestions that make the plan fit, and this many that only bring it closer. */
#define MAX_FITTING 6
#define MAX_CLOSER 3

typedef struct
{
  SuanliPlan             *plan;
  SuanliCatalog          *catalog;
  const SuanliPlanInputs *in;
  const SuanliEstimate   *e;
  GPtrArray              *candidates;   /* of Candidate */
} Search;

/* An evaluated change, and the axis it moves: two changes of one axis do not combine. */
typedef struct
{
  SuanliAdvice *advice;
  const char   *axis;
  JsonNode     *patch;
} Candidate;

void
suanli_advice_free (SuanliAdvice *advice)
{
  if (advice == NULL)
    return;
  g_free (advice->text);
  g_free (advice->effect);
  g_free (advice->change);
  g_free (advice);
}

static void
candidate_free (Candidate *candidate)
{
  suanli_advice_free (candidate->advice);
  json_node_unref (candidate->patch);
  g_free (candidate);
}

/* A number for a merge patch written by hand (suanli_json_format_number): null, which removes the
 * member, where it is not finite. */
static const char *
json_number (char   *buffer,
             double  value)
{
  suanli_json_format_number (value, buffer);
  return buffer;
}

/* What a serving plan is ranked on: with a load to serve, the GPUs it takes (replicas needed × GPUs
 * per replica); without one, the time per output token. Splitting a model over more GPUs decodes
 * faster but leaves fewer replicas, so under a load it may cost more. */
static double
serving_cost (const SuanliPlanInputs *in,
              const SuanliEstimate   *e)
{
  if (in->requests_per_s > 0)
    return e->replicas_needed > 0 ? e->replicas_needed * in->tensor * in->pipeline : G_MAXDOUBLE;
  return e->inference.tpot_s;
}

/* Applies @patch to a copy of the plan and estimates it; FALSE when the result is not a valid plan. */
static gboolean
evaluate (Search       *search,
          JsonNode     *patch,
          SuanliAdvice *advice)
{
  g_autoptr(SuanliPlan) copy = suanli_plan_new ();
  g_autoptr(GPtrArray) errors = g_ptr_array_new_with_free_func ((GDestroyNotify) suanli_plan_issue_free);
  g_autoptr(GPtrArray) warnings = g_ptr_array_new_with_free_func ((GDestroyNotify) suanli_plan_issue_free);
  SuanliPlanInputs in;
  SuanliEstimate e;

  suanli_plan_replace (copy, search->plan);
  suanli_plan_apply_merge_patch (copy, patch);
  if (!suanli_plan_inputs_resolve (copy, search->catalog, &in, errors, warnings))
    return FALSE;
  suanli_estimate_compute (&in, &e);
  advice->fits_after = e.fits;
  advice->total_after = e.total;
  advice->capacity_after = e.capacity;
  if (suanli_plan_inputs_is_training (&in))
    {
      advice->step_after = e.step_time_s;
      advice->time_after = e.time_to_train_s;
      advice->cost_after = e.cost;
    }
  else
    {
      advice->step_after = e.inference.tpot_s;
      advice->time_after = serving_cost (&in, &e);
      advice->capacity_rps_after = e.inference.capacity_rps;
    }
  return TRUE;
}

static double
current_time (const Search *search)
{
  return suanli_plan_inputs_is_training (search->in) ? search->e->time_to_train_s
                                                     : serving_cost (search->in, search->e);
}

/* Whether an evaluated change is worth offering: for a plan over capacity, it must need less memory;
 * for one that fits, it must still fit and be faster. */
static gboolean
worth_offering (const Search       *search,
                const SuanliAdvice *advice)
{
  if (!search->e->fits)
    return advice->fits_after ||
           advice->total_after - advice->capacity_after < search->e->total - search->e->capacity - 1048576;
  /* A serving plan with no load given is ranked on its time per output token; a change is a
   * speed-up only if the same GPUs still serve as many requests. Splitting a model that fits on one
   * GPU (an 8B over 8) decodes each token sooner but leaves a fraction of the replicas: that is
   * latency bought with throughput, not speed. */
  if (!suanli_plan_inputs_is_training (search->in) && search->in->requests_per_s == 0 &&
      advice->capacity_rps_after < search->e->inference.capacity_rps * (1 - SPEED_GAIN))
    return FALSE;
  return advice->fits_after && advice->time_after < current_time (search) * (1 - SPEED_GAIN);
}

/* Estimates the change @patch (JSON) and keeps it when it is worth offering. Takes @text. */
static void
offer (Search     *search,
       const char *axis,
       const char *id,
       const char *technique,
       const char *patch,
       char       *text)
{
  g_autoptr(JsonNode) node = json_from_string (patch, NULL);
  SuanliAdvice *advice = g_new0 (SuanliAdvice, 1);
  Candidate *candidate;

  g_return_if_fail (node != NULL);
  advice->id = id;
  advice->severity = "info";
  advice->technique = technique;
  advice->change = g_strdup (patch);
  advice->text = text;
  advice->changes = 1;
  advice->effect_figure = search->e->fits ? "training.time_to_train_s" : "memory.over";
  advice->effect_direction = -1;
  if (!suanli_plan_inputs_is_training (search->in) && search->e->fits)
    advice->effect_figure = "inference.tpot_s";
  if (!evaluate (search, node, advice) || !worth_offering (search, advice))
    {
      suanli_advice_free (advice);
      return;
    }
  candidate = g_new0 (Candidate, 1);
  candidate->advice = advice;
  candidate->axis = axis;
  candidate->patch = g_steal_pointer (&node);
  g_ptr_array_add (search->candidates, candidate);
}

/* Tensor parallelism of @tensor, the data-parallel size derived from the GPUs that are left. */
static void
offer_tensor (Search *search,
              double  tensor)
{
  const SuanliPlanInputs *in = search->in;
  char t[SUANLI_JSON_NUMBER_SIZE];
  g_autofree char *patch = g_strdup_printf ("{\"parallelism\": {\"tensor\": %s, \"data\": null%s}}",
                                            json_number (t, tensor),
                                            suanli_plan_inputs_is_training (in) ? ", \"sequence_parallel\": true" : "");

  offer (search, "tensor", "tensor-parallel", "tensor-parallelism", patch,
         suanli_plan_inputs_is_training (in)
           ? g_strdup_printf (_("Split each layer over %g GPUs with tensor parallelism, with sequence parallelism"), tensor)
           : g_strdup_printf (_("Split the model over %g GPUs with tensor parallelism"), tensor));
}

static void
offer_parallelism (Search *search)
{
  const SuanliPlanInputs *in = search->in;
  char number[SUANLI_JSON_NUMBER_SIZE];

  for (double t = in->tensor * 2; t <= in->gpus_per_node; t *= 2)
    offer_tensor (search, t);
  if (!suanli_plan_inputs_is_training (in))
    return;
  for (double p = in->pipeline * 2; p <= MIN (16, in->layers); p *= 2)
    {
      g_autofree char *patch = g_strdup_printf ("{\"parallelism\": {\"pipeline\": %s, \"data\": null}}",
                                                json_number (number, p));

      offer (search, "pipeline", "pipeline-parallel", "pipeline-parallelism", patch,
             g_strdup_printf (_("Split the layers into %g pipeline stages"), p));
    }
  if (in->tensor > 1 && !in->sequence_parallel)
    offer (search, "sequence", "sequence-parallel", "sequence-parallelism",
           "{\"parallelism\": {\"sequence_parallel\": true}}",
           g_strdup (_("Sequence parallelism: shard the activations outside attention over the tensor-parallel GPUs")));
  for (double ep = in->expert * 2; in->experts > 1 && ep <= MIN (in->experts, in->data * in->expert); ep *= 2)
    {
      g_autofree char *patch = g_strdup_printf ("{\"parallelism\": {\"expert\": %s}}", json_number (number, ep));

      offer (search, "expert", "expert-parallel", "expert-parallelism", patch,
             g_strdup_printf (_("Spread the experts over %g GPUs with expert parallelism"), ep));
    }
  if (in->pipeline > 1 && in->virtual_stages == 1 && fmod (in->layers, in->pipeline * 2) == 0)
    offer (search, "interleave", "interleave-pipeline", "pipeline-parallelism",
           "{\"parallelism\": {\"virtual_stages\": 2}}",
           g_strdup (_("Two virtual stages per GPU (interleaved 1F1B) halve the pipeline bubble")));
}

static char *
zero_text (int    stage,
           double data)
{
  if (stage == 1)
    return g_strdup_printf (_("ZeRO stage 1: shard the optimizer states over the %g data-parallel GPUs"), data);
  if (stage == 2)
    return g_strdup_printf (_("ZeRO stage 2: shard the optimizer states and gradients over the %g data-parallel GPUs"),
                            data);
  return g_strdup_printf (_("ZeRO stage 3: shard the optimizer states, gradients and weights over the %g "
                            "data-parallel GPUs"), data);
}

static void
offer_sharding (Search *search)
{
  static const char * const techniques[] = { NULL, "zero-1", "zero-2", "zero-3" };
  const SuanliPlanInputs *in = search->in;

  if (in->data <= 1)
    return;
  for (int stage = in->zero_stage + 1; stage <= 3; stage++)
    {
      g_autofree char *patch = g_strdup_printf ("{\"parallelism\": {\"zero_stage\": %d}}", stage);

      offer (search, "sharding", "zero-stage", techniques[stage], patch, zero_text (stage, in->data));
    }
  if (in->memory_model != SUANLI_MEMORY_MODEL_FSDP)
    offer (search, "sharding", "fsdp", "fsdp",
           "{\"parallelism\": {\"zero_stage\": 3}, \"assumptions\": {\"memory_model\": \"fsdp\"}}",
           g_strdup_printf (_("PyTorch FSDP (full shard): shard everything over the %g data-parallel GPUs"), in->data));
}

static void
offer_offload (Search *search)
{
  const SuanliPlanInputs *in = search->in;
  int stage = MAX (1, in->zero_stage);
  g_autofree char *optimizer = g_strdup_printf ("{\"parallelism\": {\"zero_stage\": %d, \"offload\": \"optimizer\"}}", stage);

  if (in->offload == SUANLI_OFFLOAD_NONE)
    offer (search, "offload", "offload-optimizer", "zero-offload", optimizer,
           g_strdup (_("ZeRO-Offload: keep the optimizer states and gradients in CPU memory and step there")));
  if (in->offload != SUANLI_OFFLOAD_OPTIMIZER_PARAMETERS && in->offload != SUANLI_OFFLOAD_NVME)
    offer (search, "offload", "offload-parameters", "zero-infinity",
           "{\"parallelism\": {\"zero_stage\": 3, \"offload\": \"optimizer+parameters\"}}",
           g_strdup (_("ZeRO-3 with the weights offloaded to CPU memory too")));
  if (in->offload != SUANLI_OFFLOAD_NVME)
    offer (search, "offload", "offload-nvme", "zero-infinity",
           "{\"parallelism\": {\"zero_stage\": 3, \"offload\": \"nvme\"}}",
           g_strdup (_("ZeRO-Infinity: offload the model states to NVMe")));
}

static void
offer_techniques (Search *search)
{
  const SuanliPlanInputs *in = search->in;

  if (in->recompute == SUANLI_RECOMPUTE_NONE)
    offer (search, "recompute", "recompute-selective", "selective-recompute",
           "{\"techniques\": {\"recompute\": \"selective\"}}",
           g_strdup (_("Selective recomputation: recompute attention in the backward pass instead of storing it")));
  if (in->recompute != SUANLI_RECOMPUTE_FULL)
    offer (search, "recompute", "recompute-full", "gradient-checkpointing", "{\"techniques\": {\"recompute\": \"full\"}}",
           g_strdup (_("Full recomputation: keep only each layer's input, recompute the rest in the backward pass")));
  if (!in->flash_attention)
    offer (search, "flash", "flash-attention", "flashattention", "{\"techniques\": {\"flash_attention\": true}}",
           g_strdup (_("FlashAttention: never store the s² attention scores")));
  if (in->optimizer == SUANLI_OPTIMIZER_ADAMW)
    offer (search, "optimizer", "adamw-8bit", "8bit-optimizers", "{\"precision\": {\"optimizer\": \"adamw-8bit\"}}",
           g_strdup (_("8-bit AdamW: keep the two moments in 8 bits")));
  if (in->micro_batch > 1)
    {
      char number[SUANLI_JSON_NUMBER_SIZE];
      g_autofree char *patch = g_strdup_printf ("{\"workload\": {\"micro_batch\": %s}}",
                                                json_number (number, floor (in->micro_batch / 2)));

      offer (search, "micro-batch", "micro-batch", "gradient-accumulation", patch,
             g_strdup_printf (_("Micro-batches of %g sequences, more of them per step"), floor (in->micro_batch / 2)));
    }
}

/* Adapters instead of full training, and a smaller base for adapters. */
static void
offer_adapters (Search *search)
{
  const SuanliPlanInputs *in = search->in;

  if (in->mode == SUANLI_MODE_FINETUNE)
    offer (search, "adapters", "lora", "lora", "{\"workload\": {\"mode\": \"finetune-lora\"}}",
           g_strdup (_("LoRA: freeze the base model and train small adapters")));
  if (in->mode == SUANLI_MODE_FINETUNE || in->mode == SUANLI_MODE_LORA)
    offer (search, "adapters", "qlora", "qlora",
           "{\"workload\": {\"mode\": \"finetune-qlora\"}, \"precision\": {\"weights\": null}}",
           g_strdup (_("QLoRA: adapters on a 4-bit (NF4) base model")));
  if (in->mode == SUANLI_MODE_LORA && suanli_precision_bytes (in->weights) >= 2)
    offer (search, "base-weights", "lora-int8", "int8-quantization", "{\"precision\": {\"weights\": \"int8\"}}",
           g_strdup (_("Keep the frozen base in 8 bits")));
}

static void
offer_quantized_weights (Search *search)
{
  const SuanliPlanInputs *in = search->in;

  if (suanli_precision_bytes (in->weights) >= 2)
    offer (search, "weights", "quantize-int8", "int8-quantization", "{\"precision\": {\"weights\": \"int8\"}}",
           g_strdup (_("8-bit weights: half the weights' memory, usually at little cost in accuracy")));
  if (suanli_precision_bytes (in->weights) >= 1)
    offer (search, "weights", "quantize-int4", "int4-quantization", "{\"precision\": {\"weights\": \"int4\"}}",
           g_strdup (_("4-bit weights (GPTQ or AWQ, groups of 128): a quarter of the 16-bit memory")));
  if (in->kv_cache == SUANLI_PRECISION_BF16 || in->kv_cache == SUANLI_PRECISION_FP16)
    offer (search, "kv-cache", "kv-cache-fp8", "kv-cache", "{\"precision\": {\"kv_cache\": \"fp8\"}}",
           g_strdup (_("An 8-bit KV cache: twice the tokens in the same memory")));
  if (in->batch > 1)
    {
      char number[SUANLI_JSON_NUMBER_SIZE];
      g_autofree char *patch = g_strdup_printf ("{\"workload\": {\"batch\": %s}}", json_number (number, floor (in->batch / 2)));

      offer (search, "batch", "batch", "continuous-batching", patch,
             g_strdup_printf (_("Batches of %g sequences"), floor (in->batch / 2)));
    }
}

/* Twice the nodes: more data-parallel GPUs to shard over. */
static void
offer_more_gpus (Search *search)
{
  char number[SUANLI_JSON_NUMBER_SIZE];
  g_autofree char *patch = g_strdup_printf ("{\"system\": {\"nodes\": %s}, \"parallelism\": {\"data\": null}}",
                                            json_number (number, search->in->nodes * 2));

  offer (search, "gpus", "more-gpus", "data-parallelism", patch,
         g_strdup_printf (_("Twice the GPUs: %g nodes of %g"), search->in->nodes * 2, search->in->gpus_per_node));
}

/* Most useful first: what makes the plan fit (on the hardware at hand, then on more or bigger
 * parts; the least slowing first), then what brings it closest; for a plan that fits, the fastest. */
static int
compare_candidates (gconstpointer a,
                    gconstpointer b)
{
  const Candidate *cx = *(Candidate **) a, *cy = *(Candidate **) b;
  const SuanliAdvice *x = cx->advice, *y = cy->advice;
  gboolean x_hardware = g_str_equal (cx->axis, "accelerator") || g_str_equal (cx->axis, "gpus");
  gboolean y_hardware = g_str_equal (cy->axis, "accelerator") || g_str_equal (cy->axis, "gpus");

  if (x->fits_after != y->fits_after)
    return x->fits_after ? -1 : 1;
  /* The hardware at hand before buying more. */
  if (x_hardware != y_hardware)
    return x_hardware ? 1 : -1;
  if (x->fits_after)
    return x->time_after < y->time_after ? -1 : x->time_after > y->time_after;
  return x->total_after - x->capacity_after < y->total_after - y->capacity_after ? -1
       : x->total_after - x->capacity_after > y->total_after - y->capacity_after;
}

/* The best accelerator of the catalog with more memory than this one, the same count of them. */
static void
offer_bigger_accelerator (Search *search)
{
  const SuanliPlanInputs *in = search->in;
  guint n = g_list_model_get_n_items (G_LIST_MODEL (search->catalog)), before = search->candidates->len;
  Candidate *best = NULL;

  for (guint i = 0; i < n; i++)
    {
      g_autoptr(SuanliItem) item = g_list_model_get_item (G_LIST_MODEL (search->catalog), i);
      g_autofree char *patch = NULL;
      double memory = 0;

      if (suanli_item_get_kind (item) != SUANLI_ITEM_KIND_ACCELERATOR ||
          !suanli_item_get_spec_value (item, "memory_bytes", &memory) || memory <= in->memory_capacity ||
          suanli_plan_hardware_peak_for (item, in->compute) == 0)
        continue;
      patch = g_strdup_printf ("{\"system\": {\"accelerator\": \"%s\", \"cloud_instance\": null}}", suanli_item_get_id (item));
      offer (search, "accelerator", "bigger-accelerator", NULL, patch,
             g_strdup_printf (_("A bigger accelerator: %g × %s"), in->gpus, suanli_item_get_name (item)));
    }
  /* Keep the one that does most: fits, then fastest. */
  for (guint i = before; i < search->candidates->len; i++)
    {
      Candidate *c = g_ptr_array_index (search->candidates, i);

      if (best == NULL || compare_candidates (&c, &best) < 0)
        best = c;
    }
  for (guint i = search->candidates->len; i > before; i--)
    if (g_ptr_array_index (search->candidates, i - 1) != best)
      g_ptr_array_remove_index (search->candidates, i - 1);
}

/* Copies @patch's members into @into, objects merged member by member, nulls kept (they remove
 * members of the plan when the whole is applied). */
static void
merge_patch (JsonObject *into,
             JsonObject *patch)
{
  g_autoptr(GList) members = json_object_get_members (patch);

  for (GList *l = members; l != NULL; l = l->next)
    {
      JsonNode *value = json_object_get_member (patch, l->data);
      JsonNode *existing = json_object_get_member (into, l->data);

      if (JSON_NODE_HOLDS_OBJECT (value) && existing != NULL && JSON_NODE_HOLDS_OBJECT (existing))
        merge_patch (json_node_get_object (existing), json_node_get_object (value));
      else
        json_object_set_member (into, l->data, json_node_copy (value));
    }
}

/* Estimates @parts together; keeps them in @best when they fit faster than what it holds. */
static void
try_combination (Search     *search,
                 Candidate **parts,
                 guint       n_parts,
                 Candidate **best)
{
  g_autoptr(JsonNode) patch = json_node_init_object (json_node_alloc (), json_object_new ());
  g_autoptr(GString) text = g_string_new (NULL);
  SuanliAdvice *advice;

  for (guint i = 0; i < n_parts; i++)
    for (guint j = i + 1; j < n_parts; j++)
      if (g_str_equal (parts[i]->axis, parts[j]->axis))
        return;
  advice = g_new0 (SuanliAdvice, 1);
  for (guint i = 0; i < n_parts; i++)
    {
      merge_patch (json_node_get_object (patch), json_node_get_object (parts[i]->patch));
      /* TRANSLATORS: joins the changes of a combination: "ZeRO stage 3: … + Full recomputation: …" */
      g_string_append (text, i == 0 ? "" : _(" + "));
      g_string_append (text, parts[i]->advice->text);
    }
  if (!evaluate (search, patch, advice) || !advice->fits_after ||
      (*best != NULL && advice->time_after >= (*best)->advice->time_after))
    {
      suanli_advice_free (advice);
      return;
    }
  advice->id = "combination";
  advice->severity = "info";
  advice->changes = n_parts;
  advice->effect_figure = "memory.over";
  advice->effect_direction = -1;
  advice->change = suanli_json_write (patch, FALSE, NULL);
  advice->text = g_string_free (g_steal_pointer (&text), FALSE);
  if (*best != NULL)
    candidate_free (*best);
  *best = g_new0 (Candidate, 1);
  (*best)->axis = "combination";
  (*best)->patch = g_steal_pointer (&patch);
  (*best)->advice = advice;
}

/* When no single change fits: the smallest combination of the best memory savers, of different
 * axes, that does; of those, the fastest. */
static Candidate *
find_combination (Search *search)
{
  guint pool = MIN (search->candidates->len, COMBINATION_POOL);
  Candidate **c = (Candidate **) search->candidates->pdata;
  Candidate *best = NULL;

  for (guint i = 0; i < pool; i++)
    for (guint j = i + 1; j < pool; j++)
      try_combination (search, (Candidate *[]) { c[i], c[j] }, 2, &best);
  for (guint i = 0; i < pool && best == NULL; i++)
    for (guint j = i + 1; j < pool; j++)
      for (guint k = j + 1; k < pool; k++)
        try_combination (search, (Candidate *[]) { c[i], c[j], c[k] }, 3, &best);
  return best;
}

static char *
format_change (double after,
               double before)
{
  return before > 0 ? g_strdup_printf ("%+.0f%%", 100 * (after / before - 1)) : g_strdup ("");
}

/* What the estimator says the change does, in a line: memory, then step and time, then cost. */
static char *
describe_effect (const Search       *search,
                 const SuanliAdvice *advice)
{
  const SuanliPlanInputs *in = search->in;
  const SuanliEstimate *e = search->e;
  g_autofree char *total = suanli_format_gib (advice->total_after);
  g_autofree char *capacity = suanli_format_gib (advice->capacity_after);
  g_autofree char *step = suanli_format_seconds (advice->step_after);
  g_autofree char *step_change = format_change (advice->step_after, suanli_plan_inputs_is_training (in) ? e->step_time_s
                                                                                                      : e->inference.tpot_s);
  GString *line = g_string_new (NULL);

  if (advice->fits_after)
    g_string_append_printf (line, _("Fits: %s of %s per GPU"), total, capacity);
  else
    g_string_append_printf (line, _("Still over: %s of %s per GPU"), total, capacity);
  if (suanli_plan_inputs_is_training (in))
    {
      g_autofree char *days = suanli_format_days (advice->time_after);

      g_string_append_printf (line, _(" · step %s (%s) · %s to train"), step, step_change, days);
      if (in->price_per_gpu_hour > 0)
        {
          g_autofree char *cost = suanli_format_large (advice->cost_after);
          g_autofree char *cost_change = format_change (advice->cost_after, e->cost);

          g_string_append_printf (line, _(" · %s %s (%s)"), cost, in->currency, cost_change);
        }
    }
  else
    {
      g_autofree char *capacity_rps = suanli_format_large (advice->capacity_rps_after);

      g_string_append_printf (line, _(" · %s per output token (%s)"), step, step_change);
      g_string_append_printf (line, _(" · serves %s requests/s"), capacity_rps);
    }
  return g_string_free (line, FALSE);
}

static SuanliAdvice *
add_warning (GPtrArray  *list,
             const char *id,
             const char *technique,
             const char *effect_figure,
             int         effect_direction,
             char       *change,
             char       *text)
{
  SuanliAdvice *advice = g_new0 (SuanliAdvice, 1);

  advice->id = id;
  advice->severity = "warning";
  advice->technique = technique;
  advice->effect_figure = effect_figure;
  advice->effect_direction = effect_direction;
  advice->change = change;
  advice->text = text;
  advice->changes = 1;
  g_ptr_array_add (list, advice);
  return advice;
}

/* What is wrong with the plan whatever its memory: shown first. */
static void
warnings_for (const SuanliPlanInputs *in,
              GPtrArray              *list)
{
  char number[SUANLI_JSON_NUMBER_SIZE];

  if (in->tensor > in->gpus_per_node)
    add_warning (list, "tensor-within-node", "tensor-parallelism", "training.tensor_parallel_s", -1,
                 g_strdup_printf ("{\"parallelism\": {\"tensor\": %s, \"data\": null}}", json_number (number, in->gpus_per_node)),
                 g_strdup_printf (_("Tensor parallelism of %g spans nodes: keep it within the node's %g GPUs, where the "
                                    "scale-up link is"), in->tensor, in->gpus_per_node));
  /* Chinchilla's rule is about pre-training a model from scratch; a fine-tune's data is its dataset. */
  if (in->mode == SUANLI_MODE_TRAIN && in->tokens < 10 * in->parameters)
    add_warning (list, "chinchilla-tokens", NULL, "training.time_to_train_s", +1,
                 g_strdup_printf ("{\"workload\": {\"tokens\": %s}}", json_number (number, 20 * in->parameters)),
                 g_strdup_printf (_("%.1f tokens per parameter: compute-optimal pre-training (Chinchilla) uses about 20"),
                                  in->tokens / in->parameters));
}

/* Returns: (transfer full): the advice (of SuanliAdvice) for a valid plan, most important first:
 * warnings, then the changes the estimator found, each with what it does. */
GPtrArray *
suanli_advice_for (SuanliPlan             *plan,
                   SuanliCatalog          *catalog,
                   const SuanliPlanInputs *inputs,
                   const SuanliEstimate   *estimate)
{
  GPtrArray *list = g_ptr_array_new_with_free_func ((GDestroyNotify) suanli_advice_free);
  Search search = { plan, catalog, inputs, estimate,
                    g_ptr_array_new_with_free_func ((GDestroyNotify) candidate_free) };
  Candidate *combination = NULL;

  g_return_val_if_fail (SUANLI_IS_PLAN (plan) && inputs != NULL && estimate != NULL, list);

  warnings_for (inputs, list);
  offer_parallelism (&search);
  if (suanli_plan_inputs_is_training (inputs))
    {
      offer_sharding (&search);
      offer_offload (&search);
      offer_techniques (&search);
      offer_adapters (&search);
      if (!estimate->fits)
        offer_more_gpus (&search);
    }
  else
    offer_quantized_weights (&search);
  if (catalog != NULL && !estimate->fits)
    offer_bigger_accelerator (&search);

  g_ptr_array_sort (search.candidates, compare_candidates);
  if (!estimate->fits && (search.candidates->len == 0 ||
                          !((Candidate *) g_ptr_array_index (search.candidates, 0))->advice->fits_after))
    combination = find_combination (&search);
  if (combination != NULL)
    g_ptr_array_insert (search.candidates, 0, combination);

  for (guint i = 0, fitting = 0, closer = 0; i < search.candidates->len; i++)
    {
      Candidate *candidate = g_ptr_array_index (search.candidates, i);
      SuanliAdvice *advice;

      if (candidate->advice->fits_after ? fitting++ >= MAX_FITTING : closer++ >= MAX_CLOSER)
        continue;
      advice = g_steal_pointer (&candidate->advice);
      advice->effect = describe_effect (&search, advice);
      g_ptr_array_add (list, advice);
    }
  g_ptr_array_unref (search.candidates);
  return list;
}

/* The techniques advice names, by catalog id, in the user's language: the catalog's own names are
 * the sources' English. */
static const struct { const char *id; const char *title; } technique_titles[] = {
  { "8bit-optimizers", N_("8-bit optimizers (8-bit Adam)") },
  { "continuous-batching", N_("Continuous batching") },
  { "data-parallelism", N_("Data parallelism") },
  { "expert-parallelism", N_("Expert parallelism") },
  { "flashattention", N_("FlashAttention") },
  { "fsdp", N_("FSDP (Fully Sharded Data Parallel)") },
  { "gradient-accumulation", N_("Gradient accumulation") },
  { "gradient-checkpointing", N_("Gradient checkpointing (full activation recomputation)") },
  { "int4-quantization", N_("INT4 (4-bit) weight quantization") },
  { "int8-quantization", N_("INT8 quantization") },
  { "kv-cache", N_("KV cache") },
  { "lora", N_("LoRA (low-rank adaptation)") },
  { "pipeline-parallelism", N_("Pipeline parallelism") },
  { "qlora", N_("QLoRA") },
  { "selective-recompute", N_("Selective activation recomputation") },
  { "sequence-parallelism", N_("Sequence parallelism") },
  { "tensor-parallelism", N_("Tensor parallelism") },
  { "zero-1", N_("ZeRO-1 (optimizer states sharded)") },
  { "zero-2", N_("ZeRO-2 (optimizer states and gradients sharded)") },
  { "zero-3", N_("ZeRO-3 (optimizer states, gradients and weights sharded)") },
  { "zero-infinity", N_("NVMe offload (ZeRO-Infinity)") },
  { "zero-offload", N_("CPU offload (ZeRO-Offload)") },
};

/* Returns: (nullable): the name of the technique @technique (a catalog id) in the user's
 * language, or NULL for one advice does not name. */
const char *
suanli_advice_technique_title (const char *technique)
{
  for (guint i = 0; technique != NULL && i < G_N_ELEMENTS (technique_titles); i++)
    if (g_str_equal (technique_titles[i].id, technique))
      return _(technique_titles[i].title);
  return NULL;
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
    { "memory.over", e->total - e->capacity },
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
