/* suanli-plan-inputs.c — a plan checked and resolved against the catalog, ready to estimate
 *
 * Every value of the document is checked here, all at once: unknown keys, wrong types, values out
 * of range, catalog ids that name nothing, and combinations that cannot run (a tensor-parallel size
 * that does not divide the heads, a batch that does not split). Each problem names its field as a
 * dotted path. Missing values take the defaults documented in docs/plan-format.md.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>
#include <string.h>
#include <glib/gi18n.h>

#include "suanli-architecture.h"
#include "suanli-plan-hardware.h"
#include "suanli-plan-inputs.h"

#define GIB 1073741824.0

typedef struct
{
  SuanliCatalog *catalog;
  GPtrArray     *errors;
  GPtrArray     *warnings;
} Resolver;

static const char * const top_keys[] = {
  "schema", "name", "model", "workload", "precision", "parallelism", "techniques", "system", "assumptions", "traces", NULL
};
static const char * const model_keys[] = {
  "preset", "parameters", "active_parameters", "layers", "hidden", "heads", "kv_heads", "ffn_hidden", "vocab",
  "experts", "experts_per_token", "head_dim", "ffn_matrices", "expert_ffn_hidden", "shared_experts", "dense_layers",
  "q_lora_rank", "kv_lora_rank", "rope_head_dim", "sliding_window", "window_layers", "embedding_matrices", NULL
};

static const char * const workload_keys[] = {
  "mode", "seq_len", "global_batch", "micro_batch", "tokens", "dataset_tokens", "samples", "epochs", "lora_rank",
  "lora_targets", "prompt_tokens", "output_tokens", "batch", "requests_per_s", NULL
};
static const char * const precision_keys[] = { "compute", "weights", "kv_cache", "optimizer", "quant_group_size", NULL };
static const char * const parallelism_keys[] = {
  "tensor", "pipeline", "data", "expert", "virtual_stages", "sequence_parallel", "zero_stage", "offload",
  "schedule", NULL
};
static const char * const technique_keys[] = { "recompute", "flash_attention", "fused_kernels", NULL };
static const char * const system_keys[] = {
  "accelerator", "gpus_per_node", "nodes", "scale_up", "scale_out", "cloud_instance", "server", "cpu_memory_per_node_gib",
  NULL
};
static const char * const assumption_keys[] = {
  "mfu", "achieved_tflops", "compute_efficiency", "comm_efficiency", "memory_efficiency", "framework_overhead_gib",
  "pue", "price_per_gpu_hour", "grid_tco2_per_mwh", "goodput", "mfu_reference", "memory_model", "cny_per_usd", NULL
};

static const char * const mode_nicks[] = { "train", "finetune-lora", "finetune-qlora", "inference", "finetune", NULL };
static const char * const precision_nicks[] = { "fp32", "tf32", "bf16", "fp16", "fp8", "int8", "int4", NULL };
static const char * const optimizer_nicks[] = {
  "adamw", "adamw-8bit", "sgd", "adamw-no-master", "adamw-bf16", "adafactor", NULL
};
static const char * const lora_target_nicks[] = { "attention", "all-linear", NULL };
static const char * const memory_model_nicks[] = { "zero-paper", "deepspeed", "fsdp", NULL };
static const char * const offload_nicks[] = { "none", "optimizer", "optimizer+parameters", "nvme", NULL };
static const char * const schedule_nicks[] = { "1f1b", "dualpipe", NULL };
static const char * const recompute_nicks[] = { "none", "selective", "full", NULL };

void
suanli_plan_issue_free (SuanliPlanIssue *issue)
{
  if (issue == NULL)
    return;
  g_free (issue->field);
  g_free (issue->message);
  g_free (issue);
}

G_GNUC_PRINTF (3, 4)
static void
add_issue (GPtrArray  *issues,
           const char *field,
           const char *format,
           ...)
{
  SuanliPlanIssue *issue = g_new0 (SuanliPlanIssue, 1);
  va_list args;

  va_start (args, format);
  issue->field = g_strdup (field);
  issue->message = g_strdup_vprintf (format, args);
  va_end (args);
  g_ptr_array_add (issues, issue);
}

#define error(resolver, field, ...) add_issue ((resolver)->errors, field, __VA_ARGS__)
#define warning(resolver, field, ...) add_issue ((resolver)->warnings, field, __VA_ARGS__)

/* The keys of a plan's "model" section, NULL-terminated. */
const char * const *
suanli_plan_inputs_model_keys (void)
{
  return model_keys;
}

double
suanli_precision_bytes (SuanliPrecision precision)
{
  static const double bytes[] = { 4, 4, 2, 2, 1, 1, 0.5 };

  return bytes[precision];
}

const char *
suanli_precision_to_nick (SuanliPrecision precision)
{
  return precision_nicks[precision];
}

gboolean
suanli_plan_inputs_is_training (const SuanliPlanInputs *inputs)
{
  return inputs->mode != SUANLI_MODE_INFERENCE;
}

gboolean
suanli_plan_inputs_is_finetune (const SuanliPlanInputs *inputs)
{
  return inputs->mode == SUANLI_MODE_FINETUNE || suanli_plan_inputs_is_lora (inputs);
}

gboolean
suanli_plan_inputs_is_lora (const SuanliPlanInputs *inputs)
{
  return inputs->mode == SUANLI_MODE_LORA || inputs->mode == SUANLI_MODE_QLORA;
}

/* m = B / (b · d): micro-batches per optimizer step on each data-parallel rank. */
double
suanli_plan_inputs_micro_batches (const SuanliPlanInputs *inputs)
{
  return inputs->global_batch / (inputs->micro_batch * inputs->data);
}

/* Returns: (nullable): the section @name of @root, after checking it is an object of known keys. */
static JsonObject *
section (Resolver           *resolver,
         JsonObject         *root,
         const char         *name,
         const char * const *keys)
{
  JsonNode *node = json_object_get_member (root, name);
  JsonObject *object;
  g_autoptr(GList) members = NULL;

  if (node == NULL)
    return NULL;
  if (!JSON_NODE_HOLDS_OBJECT (node))
    {
      error (resolver, name, _("must be an object"));
      return NULL;
    }
  object = json_node_get_object (node);
  members = json_object_get_members (object);
  for (GList *l = members; l != NULL; l = l->next)
    if (!g_strv_contains (keys, l->data))
      {
        g_autofree char *field = g_strdup_printf ("%s.%s", name, (const char *) l->data);
        error (resolver, field, _("unknown key"));
      }
  return object;
}

#define MAX_COUNT    1e9    /* layers, heads, batches, GPUs, experts: far past any real plan */
#define MAX_QUANTITY 1e18   /* parameters, tokens, prices, rates */

typedef enum {
  POSITIVE,          /* > 0 */
  POSITIVE_INTEGER,  /* a whole number ≥ 1 */
  WHOLE_NUMBER,      /* a whole number ≥ 0 */
  NON_NEGATIVE,      /* ≥ 0 */
  FRACTION,          /* a share, from SUANLI_PLAN_MIN_SHARE to 1 */
} Range;

/* Reads a number member into @value, refusing one below @least (where the range's own floor means
 * nothing: a rate of 5e-324 TFLOP/s makes a step of infinite time); leaves @value alone when the
 * member is absent or bad. */
static gboolean
number_at_least (Resolver   *resolver,
                 JsonObject *object,
                 const char *section_name,
                 const char *key,
                 Range       range,
                 double      least,
                 double     *value)
{
  g_autofree char *field = g_strdup_printf ("%s.%s", section_name, key);
  JsonNode *node = object != NULL ? json_object_get_member (object, key) : NULL;
  GType type;
  double read;
  gboolean whole = range == POSITIVE_INTEGER || range == WHOLE_NUMBER;
  gboolean zero_allowed = range == NON_NEGATIVE || range == WHOLE_NUMBER;

  if (node == NULL)
    return FALSE;
  type = JSON_NODE_HOLDS_VALUE (node) ? json_node_get_value_type (node) : G_TYPE_INVALID;
  if (type != G_TYPE_INT64 && type != G_TYPE_DOUBLE)
    {
      error (resolver, field, _("must be a number"));
      return FALSE;
    }
  read = json_node_get_double (node);
  /* Past these a plan is no plan (a batch of 10¹⁸, 2³² experts) and products of its figures
   * overflow where they become counts: refused, naming the field. */
  if (isfinite (read) && read > (whole ? MAX_COUNT : MAX_QUANTITY))
    {
      error (resolver, field, _("must be at most %g, not %g"), whole ? MAX_COUNT : MAX_QUANTITY, read);
      return FALSE;
    }
  if (!isfinite (read) || (!zero_allowed && read <= 0) || (zero_allowed && read < 0))
    {
      error (resolver, field, zero_allowed ? _("must not be negative, not %g") : _("must be more than zero, not %g"), read);
      return FALSE;
    }
  if (whole && read != floor (read))
    {
      error (resolver, field, _("must be a whole number, not %g"), read);
      return FALSE;
    }
  if (range == FRACTION && (read > 1 || read < SUANLI_PLAN_MIN_SHARE))
    {
      error (resolver, field, _("must be a share from %g to 1, not %g"), SUANLI_PLAN_MIN_SHARE, read);
      return FALSE;
    }
  if (read < least)
    {
      error (resolver, field, _("must be at least %g, not %g"), least, read);
      return FALSE;
    }
  *value = read;
  return TRUE;
}

/* Reads a number member into @value; leaves @value alone when the member is absent or bad. */
static gboolean
number (Resolver   *resolver,
        JsonObject *object,
        const char *section_name,
        const char *key,
        Range       range,
        double     *value)
{
  return number_at_least (resolver, object, section_name, key, range, 0, value);
}

static gboolean
boolean (Resolver   *resolver,
         JsonObject *object,
         const char *section_name,
         const char *key,
         gboolean   *value)
{
  g_autofree char *field = g_strdup_printf ("%s.%s", section_name, key);
  JsonNode *node = object != NULL ? json_object_get_member (object, key) : NULL;

  if (node == NULL)
    return FALSE;
  if (!JSON_NODE_HOLDS_VALUE (node) || json_node_get_value_type (node) != G_TYPE_BOOLEAN)
    {
      error (resolver, field, _("must be true or false"));
      return FALSE;
    }
  *value = json_node_get_boolean (node);
  return TRUE;
}

/* Returns: (nullable): the string member, or NULL when absent, null, or not a string (reported). */
static const char *
string (Resolver   *resolver,
        JsonObject *object,
        const char *section_name,
        const char *key)
{
  g_autofree char *field = g_strdup_printf ("%s.%s", section_name, key);
  JsonNode *node = object != NULL ? json_object_get_member (object, key) : NULL;

  if (node == NULL || JSON_NODE_HOLDS_NULL (node))
    return NULL;
  if (!JSON_NODE_HOLDS_VALUE (node) || json_node_get_value_type (node) != G_TYPE_STRING)
    {
      error (resolver, field, _("must be a string"));
      return NULL;
    }
  return json_node_get_string (node);
}

static void
choice (Resolver           *resolver,
        JsonObject         *object,
        const char         *section_name,
        const char         *key,
        const char * const *nicks,
        int                *value)
{
  const char *nick = string (resolver, object, section_name, key);
  g_autofree char *field = g_strdup_printf ("%s.%s", section_name, key);
  g_autofree char *allowed = NULL;

  if (nick == NULL)
    return;
  for (int i = 0; nicks[i] != NULL; i++)
    if (g_str_equal (nicks[i], nick))
      {
        *value = i;
        return;
      }
  allowed = g_strjoinv (", ", (char **) nicks);
  error (resolver, field, _("must be one of %s, not “%s”"), allowed, nick);
}

/* Returns: (nullable) (transfer none): the catalog item @id of @kind, or NULL after reporting why. */
static SuanliItem *
catalog_item (Resolver       *resolver,
              const char     *field,
              const char     *id,
              SuanliItemKind  kind)
{
  SuanliItem *item = resolver->catalog != NULL ? suanli_catalog_lookup (resolver->catalog, id) : NULL;

  if (item == NULL)
    {
      error (resolver, field, _("no catalog item has the id “%s”"), id);
      return NULL;
    }
  if (suanli_item_get_kind (item) != kind)
    {
      error (resolver, field, _("“%s” is a %s, not a %s"), id, suanli_item_kind_to_nick (suanli_item_get_kind (item)),
             suanli_item_kind_to_nick (kind));
      return NULL;
    }
  return item;
}

static void
spec (SuanliItem *item,
      const char *key,
      double     *value)
{
  if (item != NULL)
    suanli_item_get_spec_value (item, key, value);
}

/* The architecture fields a plan's model and a catalog model carry, under the same names. */
static const struct { const char *key; gsize offset; Range range; } architecture_fields[] = {
  { "layers", G_STRUCT_OFFSET (SuanliPlanInputs, layers), POSITIVE_INTEGER },
  { "hidden", G_STRUCT_OFFSET (SuanliPlanInputs, hidden), POSITIVE_INTEGER },
  { "heads", G_STRUCT_OFFSET (SuanliPlanInputs, heads), POSITIVE_INTEGER },
  { "kv_heads", G_STRUCT_OFFSET (SuanliPlanInputs, kv_heads), POSITIVE_INTEGER },
  { "ffn_hidden", G_STRUCT_OFFSET (SuanliPlanInputs, ffn_hidden), POSITIVE_INTEGER },
  { "vocab", G_STRUCT_OFFSET (SuanliPlanInputs, vocab), POSITIVE_INTEGER },
  { "experts", G_STRUCT_OFFSET (SuanliPlanInputs, experts), POSITIVE_INTEGER },
  { "experts_per_token", G_STRUCT_OFFSET (SuanliPlanInputs, experts_per_token), POSITIVE_INTEGER },
  { "head_dim", G_STRUCT_OFFSET (SuanliPlanInputs, head_dim), POSITIVE_INTEGER },
  { "ffn_matrices", G_STRUCT_OFFSET (SuanliPlanInputs, ffn_matrices), POSITIVE_INTEGER },
  { "expert_ffn_hidden", G_STRUCT_OFFSET (SuanliPlanInputs, expert_ffn_hidden), POSITIVE_INTEGER },
  { "shared_experts", G_STRUCT_OFFSET (SuanliPlanInputs, shared_experts), WHOLE_NUMBER },
  { "dense_layers", G_STRUCT_OFFSET (SuanliPlanInputs, dense_layers), WHOLE_NUMBER },
  { "q_lora_rank", G_STRUCT_OFFSET (SuanliPlanInputs, q_lora_rank), WHOLE_NUMBER },
  { "kv_lora_rank", G_STRUCT_OFFSET (SuanliPlanInputs, kv_lora_rank), WHOLE_NUMBER },
  { "rope_head_dim", G_STRUCT_OFFSET (SuanliPlanInputs, rope_head_dim), WHOLE_NUMBER },
  { "sliding_window", G_STRUCT_OFFSET (SuanliPlanInputs, sliding_window), WHOLE_NUMBER },
  { "window_layers", G_STRUCT_OFFSET (SuanliPlanInputs, window_layers), WHOLE_NUMBER },
  { "embedding_matrices", G_STRUCT_OFFSET (SuanliPlanInputs, embedding_matrices), POSITIVE_INTEGER },
};

/* The plan's parameter count disagrees with its architecture by over 10 %: the count wins, for the
 * weights' FLOPs as for memory, and the warning names the field that would reconcile them: the
 * feed-forward's matrices when the other kind (plain or gated) matches the count, else the count. */
static void
parameters_mismatch (Resolver         *resolver,
                     SuanliPlanInputs *in,
                     double            implied,
                     gboolean          ffn_matrices_given)
{
  in->weight_flops_scale = in->parameters / implied;
  if (!ffn_matrices_given)
    {
      SuanliPlanInputs other = *in;
      double other_implied;

      other.ffn_matrices = in->ffn_matrices == 3 ? 2 : 3;
      other_implied = suanli_architecture_parameters (&other, other.experts);
      if (fabs (other_implied - in->parameters) <= 0.1 * in->parameters)
        {
          warning (resolver, "model.ffn_matrices",
                   other.ffn_matrices == 2
                   ? _("%.3g parameters, but a gated feed-forward (3 matrices, the default when ffn_hidden is given) "
                       "implies %.3g; a plain one, model.ffn_matrices = 2, implies %.3g: set it")
                   : _("%.3g parameters, but a plain feed-forward (2 matrices, the default without ffn_hidden) "
                       "implies %.3g; a gated one, model.ffn_matrices = 3, implies %.3g: set it"),
                   in->parameters, implied, other_implied);
          return;
        }
    }
  warning (resolver, "model.parameters",
           _("%.3g parameters, but the architecture implies %.3g; the estimate takes model.parameters, for the "
             "weights' FLOPs as for memory: correct the architecture, or remove model.parameters"),
           in->parameters, implied);
}

/* A preset's values, and the plan's own on top. A plan that changes the preset's architecture or
 * parameter count describes another model: it is named as a custom one, and its count follows its
 * architecture unless it gives one. */
static void
resolve_model_fields (Resolver         *resolver,
                      JsonObject       *model,
                      SuanliPlanInputs *in,
                      gboolean         *has_active)
{
  const char *preset = string (resolver, model, "model", "preset");
  SuanliItem *item = NULL;
  gboolean edited = FALSE, has_parameters;
  double before;

  if (preset != NULL)
    {
      item = catalog_item (resolver, "model.preset", preset, SUANLI_ITEM_KIND_MODEL);
      if (item != NULL)
        g_strlcpy (in->model_name, suanli_item_get_name (item), sizeof in->model_name);

      spec (item, "parameters", &in->parameters);
      spec (item, "active_parameters", &in->active_parameters);
      for (guint i = 0; i < G_N_ELEMENTS (architecture_fields); i++)
        spec (item, architecture_fields[i].key, (double *) ((char *) in + architecture_fields[i].offset));
    }

  before = in->parameters;
  has_parameters = number (resolver, model, "model", "parameters", POSITIVE, &in->parameters);
  edited |= has_parameters && in->parameters != before;
  before = in->active_parameters;
  *has_active = number (resolver, model, "model", "active_parameters", POSITIVE, &in->active_parameters);
  edited |= *has_active && in->active_parameters != before;
  for (guint i = 0; i < G_N_ELEMENTS (architecture_fields); i++)
    {
      double *value = (double *) ((char *) in + architecture_fields[i].offset);

      before = *value;
      if (number (resolver, model, "model", architecture_fields[i].key, architecture_fields[i].range, value))
        edited |= *value != before;
    }
  if (item != NULL && edited)
    {
      in->model_name[0] = '\0';
      if (!has_parameters)
        in->parameters = 0;
      if (!*has_active)
        in->active_parameters = 0;
    }
}

static void
resolve_model (Resolver         *resolver,
               JsonObject       *root,
               SuanliPlanInputs *in)
{
  JsonObject *model = section (resolver, root, "model", model_keys);
  gboolean has_active, ffn_matrices_given;

  resolve_model_fields (resolver, model, in, &has_active);
  ffn_matrices_given = in->ffn_matrices != 0;
  in->weight_flops_scale = 1;

  /* What is not given follows the classic transformer: head size h/a, a plain 4h feed-forward of
   * two matrices (three, gated, once a width is given), separate input and output embeddings. */
  if (in->kv_heads == 0)
    in->kv_heads = in->heads;
  if (in->head_dim == 0 && in->heads > 0)
    in->head_dim = in->hidden / in->heads;
  if (in->ffn_matrices == 0)
    in->ffn_matrices = in->ffn_hidden > 0 ? 3 : 2;
  if (in->ffn_hidden == 0)
    in->ffn_hidden = 4 * in->hidden;
  if (in->expert_ffn_hidden == 0)
    in->expert_ffn_hidden = in->ffn_hidden;
  if (in->embedding_matrices == 0)
    in->embedding_matrices = 2;
  if (in->sliding_window > 0 && in->window_layers == 0)
    in->window_layers = in->layers;
  if (in->window_layers > in->layers)
    error (resolver, "model.window_layers", _("%g windowed layers is more than the %g layers"), in->window_layers,
           in->layers);
  if (in->dense_layers > in->layers)
    error (resolver, "model.dense_layers", _("%g dense layers is more than the %g layers"), in->dense_layers,
           in->layers);
  if (in->ffn_matrices != 2 && in->ffn_matrices != 3)
    error (resolver, "model.ffn_matrices", _("must be 2 (plain) or 3 (gated), not %g"), in->ffn_matrices);
  if (in->embedding_matrices != 1 && in->embedding_matrices != 2)
    error (resolver, "model.embedding_matrices", _("must be 1 (tied) or 2, not %g"), in->embedding_matrices);
  if (in->experts == 0)
    in->experts = 1;
  if (in->experts_per_token == 0)
    in->experts_per_token = MIN (in->experts, 2);
  if (in->experts > 1 && in->experts_per_token > in->experts)
    error (resolver, "model.experts_per_token", _("%g experts per token is more than the %g experts"),
           in->experts_per_token, in->experts);
  if (in->kv_heads > in->heads && in->heads > 0)
    error (resolver, "model.kv_heads", _("%g KV heads is more than the %g attention heads"), in->kv_heads, in->heads);

  if (suanli_architecture_is_known (in))
    {
      double implied = suanli_architecture_parameters (in, in->experts);

      if (in->parameters == 0)
        in->parameters = implied;
      else if (fabs (implied - in->parameters) > 0.1 * in->parameters)
        parameters_mismatch (resolver, in, implied, ffn_matrices_given);
      if (in->experts > 1 && !has_active && in->active_parameters == 0)
        in->active_parameters = suanli_architecture_parameters (in, in->experts_per_token) * in->parameters / implied;
    }
  if (in->parameters == 0)
    error (resolver, "model.parameters", _("missing: give the parameters, the architecture, or a preset"));
  if (in->active_parameters == 0)
    in->active_parameters = in->parameters;
  if (in->active_parameters > in->parameters)
    error (resolver, "model.active_parameters", _("%.3g active parameters is more than the %.3g in all"),
           in->active_parameters, in->parameters);
}

static void
resolve_workload (Resolver         *resolver,
                  JsonObject       *root,
                  SuanliPlanInputs *in)
{
  JsonObject *workload = section (resolver, root, "workload", workload_keys);
  int mode = SUANLI_MODE_TRAIN, targets = SUANLI_LORA_ATTENTION;
  double samples = 0;
  gboolean has_dataset;

  choice (resolver, workload, "workload", "mode", mode_nicks, &mode);
  in->mode = mode;
  in->seq_len = 2048;
  in->global_batch = 256;
  in->micro_batch = 1;
  in->lora_rank = 16;
  in->prompt_tokens = 1024;
  in->output_tokens = 256;
  in->batch = 1;
  /* A fine-tune reads a dataset, 100M tokens unless given, for three epochs (the default of
   * Hugging Face's Trainer, num_train_epochs = 3). */
  in->dataset_tokens = 1e8;
  in->epochs = 3;
  number (resolver, workload, "workload", "seq_len", POSITIVE_INTEGER, &in->seq_len);
  number (resolver, workload, "workload", "global_batch", POSITIVE_INTEGER, &in->global_batch);
  number (resolver, workload, "workload", "micro_batch", POSITIVE_INTEGER, &in->micro_batch);
  has_dataset = number (resolver, workload, "workload", "dataset_tokens", POSITIVE, &in->dataset_tokens);
  if (number (resolver, workload, "workload", "samples", POSITIVE_INTEGER, &samples))
    {
      if (has_dataset)
        error (resolver, "workload.samples", _("give either dataset_tokens or samples, not both"));
      in->dataset_tokens = samples * in->seq_len;
    }
  number (resolver, workload, "workload", "epochs", POSITIVE, &in->epochs);
  /* Pre-training defaults to Chinchilla's compute-optimal data; a fine-tune to its dataset's epochs. */
  in->tokens = suanli_plan_inputs_is_finetune (in) ? in->dataset_tokens * in->epochs : 20 * in->parameters;
  number (resolver, workload, "workload", "tokens", POSITIVE, &in->tokens);
  number (resolver, workload, "workload", "lora_rank", POSITIVE_INTEGER, &in->lora_rank);
  choice (resolver, workload, "workload", "lora_targets", lora_target_nicks, &targets);
  in->lora_targets = targets;
  number (resolver, workload, "workload", "requests_per_s", POSITIVE, &in->requests_per_s);
  number (resolver, workload, "workload", "prompt_tokens", POSITIVE_INTEGER, &in->prompt_tokens);
  number (resolver, workload, "workload", "output_tokens", POSITIVE_INTEGER, &in->output_tokens);
  number (resolver, workload, "workload", "batch", POSITIVE_INTEGER, &in->batch);
}

static void
resolve_precision (Resolver         *resolver,
                   JsonObject       *root,
                   SuanliPlanInputs *in)
{
  JsonObject *precision = section (resolver, root, "precision", precision_keys);
  int compute = SUANLI_PRECISION_BF16, weights = -1, kv_cache = -1, optimizer = SUANLI_OPTIMIZER_ADAMW;

  choice (resolver, precision, "precision", "compute", precision_nicks, &compute);
  choice (resolver, precision, "precision", "weights", precision_nicks, &weights);
  choice (resolver, precision, "precision", "kv_cache", precision_nicks, &kv_cache);
  choice (resolver, precision, "precision", "optimizer", optimizer_nicks, &optimizer);
  in->compute = compute;
  /* Training keeps weights in 16 bits even when it computes in FP8; QLoRA's base weights are 4-bit. */
  if (weights < 0)
    weights = in->mode == SUANLI_MODE_QLORA ? SUANLI_PRECISION_INT4
            : compute == SUANLI_PRECISION_FP8 && in->mode != SUANLI_MODE_INFERENCE ? SUANLI_PRECISION_BF16
            : compute;
  in->weights = weights;
  in->kv_cache = kv_cache >= 0 ? kv_cache : compute == SUANLI_PRECISION_FP32 ? SUANLI_PRECISION_FP32
                                          : SUANLI_PRECISION_BF16;
  in->optimizer = optimizer;
  in->quant_group_size = 128;
  number (resolver, precision, "precision", "quant_group_size", POSITIVE_INTEGER, &in->quant_group_size);
}

static void
resolve_parallelism (Resolver         *resolver,
                     JsonObject       *root,
                     SuanliPlanInputs *in)
{
  JsonObject *parallelism = section (resolver, root, "parallelism", parallelism_keys);
  double zero_stage = 0;
  int offload = SUANLI_OFFLOAD_NONE, schedule = SUANLI_SCHEDULE_1F1B;

  in->tensor = in->pipeline = in->expert = in->virtual_stages = 1;
  in->data = 0;
  number (resolver, parallelism, "parallelism", "tensor", POSITIVE_INTEGER, &in->tensor);
  number (resolver, parallelism, "parallelism", "pipeline", POSITIVE_INTEGER, &in->pipeline);
  number (resolver, parallelism, "parallelism", "data", POSITIVE_INTEGER, &in->data);
  number (resolver, parallelism, "parallelism", "expert", POSITIVE_INTEGER, &in->expert);
  number (resolver, parallelism, "parallelism", "virtual_stages", POSITIVE_INTEGER, &in->virtual_stages);
  boolean (resolver, parallelism, "parallelism", "sequence_parallel", &in->sequence_parallel);
  if (number (resolver, parallelism, "parallelism", "zero_stage", NON_NEGATIVE, &zero_stage) &&
      (zero_stage != floor (zero_stage) || zero_stage > 3))
    error (resolver, "parallelism.zero_stage", _("must be 0, 1, 2 or 3, not %g"), zero_stage);
  in->zero_stage = (int) CLAMP (zero_stage, 0, 3);
  choice (resolver, parallelism, "parallelism", "offload", offload_nicks, &offload);
  in->offload = offload;
  choice (resolver, parallelism, "parallelism", "schedule", schedule_nicks, &schedule);
  in->schedule = schedule;
}

static void
resolve_techniques (Resolver         *resolver,
                    JsonObject       *root,
                    SuanliPlanInputs *in)
{
  JsonObject *techniques = section (resolver, root, "techniques", technique_keys);
  int recompute = SUANLI_RECOMPUTE_NONE;

  choice (resolver, techniques, "techniques", "recompute", recompute_nicks, &recompute);
  in->recompute = recompute;
  in->flash_attention = TRUE;
  boolean (resolver, techniques, "techniques", "flash_attention", &in->flash_attention);
  in->fused_kernels = TRUE;
  boolean (resolver, techniques, "techniques", "fused_kernels", &in->fused_kernels);
}

/* Names the figure @key that @accelerator lacks ("Ascend 910C: no memory bandwidth in the
 * catalog"), with the catalog's reason when it marks the figure unknown; an error when the plan
 * cannot go on without it, else a warning (what it feeds is left out). */
static void
missing_figure (Resolver   *resolver,
                const char *field,
                SuanliItem *accelerator,
                const char *key,
                gboolean    needed)
{
  const SuanliSpecKey *spec_key = suanli_item_kind_find_spec_key (SUANLI_ITEM_KIND_ACCELERATOR, key);
  const SuanliText *why = suanli_item_find_unknown (accelerator, key);
  const char *name = suanli_item_get_name (accelerator);
  GPtrArray *issues = needed ? resolver->errors : resolver->warnings;
  g_autofree char *figure = NULL;

  if (g_str_equal (key, "memory_bytes"))
    figure = g_strdup (_("memory size"));
  else if (g_str_equal (key, "memory_bandwidth"))
    figure = g_strdup (_("memory bandwidth"));
  else if (g_str_equal (key, "tdp"))
    figure = g_strdup (_("TDP"));
  else
    /* Translators: "dense BF16 rate". */
    figure = g_strdup_printf (_("dense %s rate"), _(spec_key->title));

  if (why != NULL)
    /* Translators: "Ascend 910C: no memory bandwidth in the catalog (Huawei publishes none)". */
    add_issue (issues, field, _("%s: no %s in the catalog (%s)"), name, figure, suanli_text_get (why));
  else
    add_issue (issues, field, _("%s: no %s in the catalog"), name, figure);
  if (!needed && g_str_equal (key, "tdp"))
    add_issue (issues, field, _("without a TDP the plan has no energy or carbon estimate"));
}

static double
link_bandwidth (Resolver   *resolver,
                const char *field,
                const char *id)
{
  SuanliItem *link = catalog_item (resolver, field, id, SUANLI_ITEM_KIND_LINK);
  double bandwidth = 0;

  if (link != NULL && !suanli_plan_link_bandwidth (link, &bandwidth))
    error (resolver, field, _("the catalog gives no bandwidth for “%s”"), id);
  return bandwidth;
}

/* How the GPUs are wired: the catalog's topology of the accelerator and the cloud instance or
 * server it is in (suanli-plan-hardware.c), what the plan names over it, and the defaults it falls
 * back to. */
static void
resolve_links (Resolver         *resolver,
               SuanliItem       *accelerator,
               SuanliItem       *container,
               const char       *scale_up_id,
               const char       *scale_out_id,
               SuanliPlanInputs *in)
{
  SuanliPlanLinks links = { 0 };

  if (accelerator != NULL || container != NULL)
    suanli_plan_hardware_links (resolver->catalog, accelerator, container, in->gpus_per_node, &links);
  /* A scale-up link the plan names replaces the catalog's figure, in the same domain. */
  if (scale_up_id != NULL)
    links.scale_up_bandwidth = link_bandwidth (resolver, "system.scale_up", scale_up_id);
  if (scale_out_id != NULL)
    links.scale_out_bandwidth = link_bandwidth (resolver, "system.scale_out", scale_out_id);
  if (links.scale_up_bandwidth == 0 && in->gpus_per_node > 1)
    warning (resolver, "system.scale_up", _("no scale-up link known: PCIe 4.0 x16 (31.5 GB/s) assumed"));
  else if (links.scale_up_domain == 0 && accelerator != NULL && in->gpus_per_node > 1)
    {
      const SuanliText *why = suanli_item_find_unknown (accelerator, "scale_up_domain");

      /* Translators: "MTT S4000: no scale-up domain in the catalog (…): its 120 GB/s taken to join
       * all 8 GPUs of a node". */
      if (why != NULL)
        warning (resolver, "system.scale_up", _("%s: no scale-up domain in the catalog (%s): its %.4g GB/s taken to "
                                                 "join all %g GPUs of a node"),
                 suanli_item_get_name (accelerator), suanli_text_get (why), links.scale_up_bandwidth / 1e9,
                 in->gpus_per_node);
      else
        warning (resolver, "system.scale_up", _("%s: no scale-up domain in the catalog: its %.4g GB/s taken to join "
                                                 "all %g GPUs of a node"),
                 suanli_item_get_name (accelerator), links.scale_up_bandwidth / 1e9, in->gpus_per_node);
    }
  suanli_plan_hardware_set_links (in, &links);
  if (in->scale_out_bandwidth == 0)
    {
      in->scale_out_bandwidth = SUANLI_PLAN_DEFAULT_SCALE_OUT_BANDWIDTH;
      if (in->nodes > 1)
        warning (resolver, "system.scale_out", _("no scale-out link known: InfiniBand NDR (50 GB/s per GPU) assumed"));
    }
}

/* Returns: (nullable) (transfer none): the accelerator, when the catalog has it. */
static SuanliItem *
resolve_system (Resolver         *resolver,
                JsonObject       *root,
                SuanliPlanInputs *in)
{
  JsonObject *system = section (resolver, root, "system", system_keys);
  const char *accelerator_id = string (resolver, system, "system", "accelerator");
  const char *cloud_id = string (resolver, system, "system", "cloud_instance");
  const char *scale_up_id = string (resolver, system, "system", "scale_up");
  const char *scale_out_id = string (resolver, system, "system", "scale_out");
  const char *server_id = string (resolver, system, "system", "server");
  SuanliItem *cloud = cloud_id != NULL ? catalog_item (resolver, "system.cloud_instance", cloud_id,
                                                       SUANLI_ITEM_KIND_CLOUD_INSTANCE) : NULL;
  SuanliItem *server = server_id != NULL ? catalog_item (resolver, "system.server", server_id, SUANLI_ITEM_KIND_SYSTEM)
                                         : NULL;
  /* What the accelerators are in: its count is a node, its parts and wiring the plan's. */
  SuanliItem *container = cloud != NULL ? cloud : server;
  SuanliItem *accelerator = NULL;
  double cpu_memory_gib = 0, per_instance = 0;

  if (cloud != NULL && server != NULL)
    error (resolver, "system.server", _("give a cloud instance or a server, not both"));
  in->gpus_per_node = 8;
  in->nodes = 1;
  if (container != NULL)
    {
      spec (container, "accelerators", &in->gpus_per_node);
      if (accelerator_id == NULL)
        accelerator_id = suanli_item_get_part (container, "accelerator");
    }
  number (resolver, system, "system", "gpus_per_node", POSITIVE_INTEGER, &in->gpus_per_node);
  number (resolver, system, "system", "nodes", POSITIVE_INTEGER, &in->nodes);
  in->gpus = in->gpus_per_node * in->nodes;

  if (accelerator_id == NULL && server != NULL)
    error (resolver, "system.accelerator", _("the catalog names no accelerator for “%s”: give one"), server_id);
  else if (accelerator_id == NULL)
    error (resolver, "system.accelerator", _("missing: give a catalog accelerator or a cloud instance"));
  else
    accelerator = catalog_item (resolver, "system.accelerator", accelerator_id, SUANLI_ITEM_KIND_ACCELERATOR);
  if (accelerator != NULL)
    {
      SuanliPlanMissing missing = suanli_plan_hardware_set_accelerator (in, accelerator);

      if (missing & SUANLI_PLAN_MISSING_PEAK)
        missing_figure (resolver, "precision.compute", accelerator, suanli_plan_hardware_peak_key (in->compute), TRUE);
      if (missing & SUANLI_PLAN_MISSING_MEMORY)
        missing_figure (resolver, "system.accelerator", accelerator, "memory_bytes", TRUE);
      if (missing & SUANLI_PLAN_MISSING_MEMORY_BANDWIDTH)
        missing_figure (resolver, "system.accelerator", accelerator, "memory_bandwidth",
                        in->mode == SUANLI_MODE_INFERENCE);
      if (missing & SUANLI_PLAN_MISSING_TDP)
        missing_figure (resolver, "system.accelerator", accelerator, "tdp", FALSE);
    }

  resolve_links (resolver, accelerator, container, scale_up_id, scale_out_id, in);

  in->cpu_memory_per_node = 1024 * GIB;
  if (container != NULL)
    spec (container, "cpu_memory_bytes", &in->cpu_memory_per_node);
  if (number (resolver, system, "system", "cpu_memory_per_node_gib", POSITIVE, &cpu_memory_gib))
    in->cpu_memory_per_node = cpu_memory_gib * GIB;

  g_strlcpy (in->currency, "USD", sizeof in->currency);
  in->scale_out_explicit = scale_out_id != NULL;
  if (cloud != NULL && suanli_item_get_spec_value (cloud, "price_per_hour", &per_instance))
    {
      const SuanliSpec *price = suanli_item_find_spec (cloud, "price_per_hour");
      double accelerators = 0;

      spec (cloud, "accelerators", &accelerators);
      in->price_per_gpu_hour = per_instance / MAX (accelerators, 1);
      g_strlcpy (in->currency, g_str_has_prefix (price->unit, "CNY") ? "CNY" : "USD", sizeof in->currency);
    }
  return accelerator;
}

static void
resolve_assumptions (Resolver         *resolver,
                     JsonObject       *root,
                     SuanliItem       *accelerator,
                     SuanliPlanInputs *in)
{
  JsonObject *assumptions = section (resolver, root, "assumptions", assumption_keys);
  double achieved = 0, overhead = 1.5;
  int memory_model = SUANLI_MEMORY_MODEL_ZERO_PAPER, reference = SUANLI_PRECISION_BF16;

  /* 0: modelled from the work (suanli-efficiency.c) unless the plan gives one. */
  in->compute_efficiency = 0;
  in->comm_efficiency = 0.75;
  in->memory_efficiency = 0.8;
  in->pue = 1.1;
  in->grid_tco2_per_mwh = 0.385;
  /* Llama 3's 54-day run spent over 90 % of its time training (Llama Team 2024, §3.3.4). */
  in->goodput = 0.9;
  number (resolver, assumptions, "assumptions", "goodput", FRACTION, &in->goodput);
  choice (resolver, assumptions, "assumptions", "memory_model", memory_model_nicks, &memory_model);
  in->memory_model = memory_model;
  choice (resolver, assumptions, "assumptions", "mfu_reference", precision_nicks, &reference);
  in->mfu_reference = reference;
  if (accelerator != NULL)
    {
      in->reference_flops = suanli_plan_hardware_peak_for (accelerator, in->mfu_reference);
      if (in->reference_flops == 0 && in->peak_flops != 0)
        missing_figure (resolver, "assumptions.mfu_reference", accelerator, suanli_plan_hardware_peak_key (in->mfu_reference), TRUE);
    }
  number (resolver, assumptions, "assumptions", "mfu", FRACTION, &in->mfu);
  if (number_at_least (resolver, assumptions, "assumptions", "achieved_tflops", POSITIVE, SUANLI_PLAN_MIN_TFLOPS,
                       &achieved))
    in->achieved_flops = achieved * 1e12;
  number (resolver, assumptions, "assumptions", "compute_efficiency", FRACTION, &in->compute_efficiency);
  number (resolver, assumptions, "assumptions", "comm_efficiency", FRACTION, &in->comm_efficiency);
  number (resolver, assumptions, "assumptions", "memory_efficiency", FRACTION, &in->memory_efficiency);
  number (resolver, assumptions, "assumptions", "framework_overhead_gib", NON_NEGATIVE, &overhead);
  in->framework_overhead = overhead * GIB;
  /* A PUE is at least 1: the IT load is part of the facility's. */
  number_at_least (resolver, assumptions, "assumptions", "pue", POSITIVE, 1, &in->pue);
  number (resolver, assumptions, "assumptions", "price_per_gpu_hour", NON_NEGATIVE, &in->price_per_gpu_hour);
  number (resolver, assumptions, "assumptions", "grid_tco2_per_mwh", NON_NEGATIVE, &in->grid_tco2_per_mwh);
  number (resolver, assumptions, "assumptions", "cny_per_usd", POSITIVE, &in->cny_per_usd);

  if (in->mfu > 0 && in->achieved_flops > 0)
    error (resolver, "assumptions.achieved_tflops", _("give either mfu or achieved_tflops, not both"));
  if (in->achieved_flops > in->peak_flops && in->peak_flops > 0)
    warning (resolver, "assumptions.achieved_tflops", _("%g TFLOP/s is above the %s's dense peak of %g"),
             in->achieved_flops / 1e12, in->accelerator_name, in->peak_flops / 1e12);
  if (in->price_per_gpu_hour == 0 && suanli_plan_inputs_is_training (in))
    warning (resolver, "assumptions.price_per_gpu_hour", _("no price: give a cloud instance or a price per GPU-hour"));
}

/* Combinations that cannot run, once each value is known to be sane on its own. */
static void
check_combinations (Resolver         *resolver,
                    SuanliPlanInputs *in)
{
  double model_parallel = in->tensor * in->pipeline, host_link = 0;

  if (in->gpus > 0 && fmod (in->gpus, model_parallel) != 0)
    error (resolver, "parallelism.tensor", _("tensor × pipeline = %g does not divide the %g GPUs"), model_parallel,
           in->gpus);
  else if (in->data == 0)
    in->data = MAX (1, floor (in->gpus / model_parallel));
  else if (in->tensor * in->pipeline * in->data != in->gpus)
    error (resolver, "parallelism.data", _("tensor × pipeline × data = %g, but the system has %g GPUs"),
           in->tensor * in->pipeline * in->data, in->gpus);

  if (in->heads > 0 && fmod (in->heads, in->tensor) != 0)
    error (resolver, "parallelism.tensor", _("%g does not divide the model's %g attention heads"), in->tensor,
           in->heads);
  if (in->layers > 0 && in->pipeline > in->layers)
    error (resolver, "parallelism.pipeline", _("%g pipeline stages for %g layers"), in->pipeline, in->layers);
  else if (in->layers > 0 && fmod (in->layers, in->pipeline * in->virtual_stages) != 0)
    warning (resolver, "parallelism.pipeline", _("%g layers do not split evenly into %g stages"), in->layers,
             in->pipeline * in->virtual_stages);
  if (in->virtual_stages > 1 && in->pipeline == 1)
    error (resolver, "parallelism.virtual_stages", _("interleaving needs more than one pipeline stage"));
  if (in->schedule == SUANLI_SCHEDULE_DUALPIPE && (in->pipeline < 2 || fmod (in->pipeline, 2) != 0))
    error (resolver, "parallelism.schedule", _("DualPipe needs an even number of pipeline stages, not %g"),
           in->pipeline);
  else if (in->schedule == SUANLI_SCHEDULE_DUALPIPE && in->virtual_stages > 1)
    error (resolver, "parallelism.schedule", _("DualPipe runs its own two directions: leave virtual_stages at 1"));
  if (in->expert > 1 && in->experts <= 1)
    error (resolver, "parallelism.expert", _("expert parallelism needs a mixture-of-experts model"));
  else if (in->experts > 1 && fmod (in->experts, in->expert) != 0)
    error (resolver, "parallelism.expert", _("%g does not divide the %g experts"), in->expert, in->experts);
  if (in->tensor > in->gpus_per_node && in->tensor > in->scale_up_domain)
    warning (resolver, "parallelism.tensor", _("tensor parallelism across nodes: its all-reduces go over the "
                                               "scale-out network"));
  else if (suanli_plan_hardware_fabric (in, in->tensor, &host_link) == SUANLI_FABRIC_HOST_LINK)
    /* Translators: "tensor parallelism of 8 spans more than the 2 GPUs of H100 PCIe's scale-up domain: …". */
    warning (resolver, "parallelism.tensor", _("tensor parallelism of %g spans more than the %g GPUs of %s's "
                                               "scale-up domain: its all-reduces cross the host link (%.4g GB/s "
                                               "per direction, not %.4g)"),
             in->tensor, in->scale_up_domain, in->accelerator_name, host_link / 1e9, in->scale_up_bandwidth / 1e9);
  if (in->sequence_parallel && in->tensor == 1)
    warning (resolver, "parallelism.sequence_parallel", _("sequence parallelism does nothing without tensor "
                                                          "parallelism"));
  if ((in->offload == SUANLI_OFFLOAD_OPTIMIZER_PARAMETERS || in->offload == SUANLI_OFFLOAD_NVME) &&
      in->zero_stage < 3)
    error (resolver, "parallelism.offload", _("offloading parameters needs ZeRO stage 3"));
  if (in->offload != SUANLI_OFFLOAD_NONE && in->zero_stage == 0)
    error (resolver, "parallelism.offload", _("offloading needs ZeRO (stage 1 or more)"));

  /* DeepSpeed's ZeRO-3 figure holds the largest layer whole: a parameter count alone does not say
   * which layer that is, nor how large. */
  if (suanli_plan_inputs_is_training (in) && in->memory_model == SUANLI_MEMORY_MODEL_DEEPSPEED &&
      in->zero_stage >= 3 && !suanli_architecture_is_known (in))
    warning (resolver, "model.hidden", _("DeepSpeed's ZeRO-3 estimate adds the largest layer, gathered whole; "
                                         "without the architecture (layers, hidden size, heads) it is unknown "
                                         "and left out, so weights and gradients are low"));
  if (suanli_plan_inputs_is_training (in) && in->data > 0 &&
      fmod (in->global_batch, in->micro_batch * in->data) != 0)
    error (resolver, "workload.global_batch", _("%g sequences do not split into micro-batches of %g on %g "
                                                "data-parallel ranks"),
           in->global_batch, in->micro_batch, in->data);
  if (in->mode == SUANLI_MODE_TRAIN && in->tokens < 5 * in->parameters)
    warning (resolver, "workload.tokens", _("%.3g tokens is %.1f per parameter, far below the ~20 that is "
                                            "compute-optimal (Chinchilla)"),
             in->tokens, in->tokens / in->parameters);
  if (in->mode == SUANLI_MODE_INFERENCE && (in->layers == 0 || in->hidden == 0 || in->heads == 0))
    error (resolver, "model.layers", _("inference needs the architecture (layers, hidden size, heads) for its KV "
                                       "cache: give them or a preset that has them"));
  if ((in->mode == SUANLI_MODE_TRAIN || in->mode == SUANLI_MODE_FINETUNE) &&
      (in->weights == SUANLI_PRECISION_INT8 || in->weights == SUANLI_PRECISION_INT4))
    error (resolver, "precision.weights", _("training needs 16- or 32-bit weights; use QLoRA for 4-bit weights"));
}

/* "traces": the traces the user tied to the plan's job (bridge/suanli-plan-trace-tie.c), each an
 * object with a string "fingerprint". */
static void
resolve_traces (Resolver   *resolver,
                JsonObject *root)
{
  JsonNode *node = json_object_get_member (root, "traces");
  JsonArray *traces;

  if (node == NULL || JSON_NODE_HOLDS_NULL (node))
    return;
  if (!JSON_NODE_HOLDS_ARRAY (node))
    {
      error (resolver, "traces", _("expected a list of traces"));
      return;
    }
  traces = json_node_get_array (node);
  for (guint i = 0; i < json_array_get_length (traces); i++)
    {
      JsonNode *entry = json_array_get_element (traces, i);
      JsonNode *fingerprint = JSON_NODE_HOLDS_OBJECT (entry)
                              ? json_object_get_member (json_node_get_object (entry), "fingerprint") : NULL;

      if (fingerprint == NULL || !JSON_NODE_HOLDS_VALUE (fingerprint) || json_node_get_value_type (fingerprint) != G_TYPE_STRING)
        {
          g_autofree char *field = g_strdup_printf ("traces[%u].fingerprint", i);

          error (resolver, field, _("expected a string"));
        }
    }
}

/* Checks @plan and resolves it against @catalog into @inputs. Problems go to @errors and @warnings
 * (of SuanliPlanIssue); returns whether there were no errors. */
gboolean
suanli_plan_inputs_resolve (SuanliPlan       *plan,
                            SuanliCatalog    *catalog,
                            SuanliPlanInputs *inputs,
                            GPtrArray        *errors,
                            GPtrArray        *warnings)
{
  Resolver resolver = { catalog, errors, warnings };
  JsonObject *root;
  g_autoptr(GList) members = NULL;
  const char *schema;
  guint errors_before = errors->len;
  SuanliItem *accelerator;

  g_return_val_if_fail (SUANLI_IS_PLAN (plan), FALSE);

  memset (inputs, 0, sizeof *inputs);
  root = suanli_plan_get_root (plan);
  members = json_object_get_members (root);
  for (GList *l = members; l != NULL; l = l->next)
    if (!g_strv_contains (top_keys, l->data))
      error (&resolver, l->data, _("unknown key"));
  resolve_traces (&resolver, root);
  if (json_object_has_member (root, "schema"))
    {
      JsonNode *node = json_object_get_member (root, "schema");

      schema = JSON_NODE_HOLDS_VALUE (node) && json_node_get_value_type (node) == G_TYPE_STRING
               ? json_node_get_string (node) : "";
      if (!g_str_equal (schema, SUANLI_PLAN_SCHEMA))
        error (&resolver, "schema", _("this version reads “%s”, not “%s”"), SUANLI_PLAN_SCHEMA, schema);
    }

  resolve_model (&resolver, root, inputs);
  resolve_workload (&resolver, root, inputs);
  resolve_precision (&resolver, root, inputs);
  resolve_parallelism (&resolver, root, inputs);
  resolve_techniques (&resolver, root, inputs);
  accelerator = resolve_system (&resolver, root, inputs);
  resolve_assumptions (&resolver, root, accelerator, inputs);
  if (errors->len == errors_before)
    check_combinations (&resolver, inputs);
  if (inputs->data == 0)
    inputs->data = 1;
  return errors->len == errors_before;
}
