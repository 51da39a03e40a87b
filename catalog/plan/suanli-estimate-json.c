/* suanli-estimate-json.c — an estimate as `suanli-estimate/1` JSON, the CLI's output contract
 *
 * The names are fixed (tools outside the project read them). An invalid plan has "valid": false,
 * every error, and null figures. A figure that is NaN or infinite is not written: the whole
 * document is refused with an error naming it (suanli-json-writer).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "suanli-estimate-json.h"
#include "suanli-json-writer.h"

static void
number (JsonBuilder *builder,
        const char  *name,
        double       value)
{
  json_builder_set_member_name (builder, name);
  suanli_json_builder_add_number (builder, value);
}

static void
issues (JsonBuilder *builder,
        const char  *name,
        GPtrArray   *list)
{
  json_builder_set_member_name (builder, name);
  json_builder_begin_array (builder);
  for (guint i = 0; list != NULL && i < list->len; i++)
    {
      SuanliPlanIssue *issue = g_ptr_array_index (list, i);

      json_builder_begin_object (builder);
      json_builder_set_member_name (builder, "field");
      json_builder_add_string_value (builder, issue->field);
      json_builder_set_member_name (builder, "message");
      json_builder_add_string_value (builder, issue->message);
      json_builder_end_object (builder);
    }
  json_builder_end_array (builder);
}

static void
training_range (JsonBuilder               *builder,
                const char                *name,
                const SuanliTrainingRange *range)
{
  json_builder_set_member_name (builder, name);
  json_builder_begin_object (builder);
  number (builder, "step_time_s", range->step_time_s);
  number (builder, "tokens_per_s", range->tokens_per_s);
  number (builder, "time_to_train_s", range->time_to_train_s);
  number (builder, "mfu", range->mfu);
  number (builder, "gpu_hours", range->gpu_hours);
  number (builder, "energy_kwh", range->energy_kwh);
  number (builder, "cost", range->cost);
  number (builder, "co2_t", range->co2_t);
  json_builder_end_object (builder);
}

/* Where the compute efficiency came from: "model" with its factors, or "plan". */
static void
efficiency (JsonBuilder            *builder,
            const SuanliEfficiency *f)
{
  json_builder_set_member_name (builder, "efficiency");
  json_builder_begin_object (builder);
  number (builder, "fraction", f->fraction);
  json_builder_set_member_name (builder, "from");
  json_builder_add_string_value (builder, f->modelled ? "model" : "plan");
  if (f->modelled)
    {
      number (builder, "low", f->fraction * f->low);
      number (builder, "high", MIN (1, f->fraction * f->high));
      number (builder, "gemm_ceiling", f->gemm_ceiling);
      number (builder, "width", f->width);
      number (builder, "width_factor", f->width_factor);
      number (builder, "non_matrix", f->non_matrix);
      number (builder, "attention_share", f->attention_share);
      number (builder, "attention_ceiling", f->attention_ceiling);
      number (builder, "scale_factor", f->scale_factor);
    }
  json_builder_end_object (builder);
}

static void
inference_figures (JsonBuilder                  *builder,
                   const SuanliInferenceFigures *f,
                   gboolean                      with_bounds,
                   const SuanliEstimate         *e)
{
  json_builder_begin_object (builder);
  number (builder, "weights_per_gpu", f->weights_per_gpu);
  number (builder, "kv_bytes_per_token", f->kv_bytes_per_token);
  number (builder, "max_concurrent_sequences", f->max_concurrent_sequences);
  number (builder, "ttft_s", f->ttft_s);
  number (builder, "tpot_s", f->tpot_s);
  number (builder, "tokens_per_s", f->tokens_per_s);
  json_builder_set_member_name (builder, "bound");
  json_builder_add_string_value (builder, f->memory_bound ? "memory" : "compute");
  number (builder, "expert_read_fraction", f->expert_read_fraction);
  number (builder, "capacity_batch", f->capacity_batch);
  number (builder, "capacity_rps", f->capacity_rps);
  if (with_bounds)
    {
      efficiency (builder, &e->efficiency);
      number (builder, "replicas", e->replicas);
      number (builder, "replicas_needed", e->replicas_needed);
      number (builder, "cost_per_million_tokens", e->cost_per_million_tokens);
      number (builder, "kwh_per_million_tokens", e->kwh_per_million_tokens);
      json_builder_set_member_name (builder, "low");
      inference_figures (builder, &e->inference_low, FALSE, e);
      json_builder_set_member_name (builder, "high");
      inference_figures (builder, &e->inference_high, FALSE, e);
    }
  json_builder_end_object (builder);
}

static void
null_member (JsonBuilder *builder,
             const char  *name)
{
  json_builder_set_member_name (builder, name);
  json_builder_add_null_value (builder);
}

/* @estimate and @advice are only read when @errors is empty; @name is the plan's name in effect,
 * or NULL. Returns: (transfer full) (nullable): the document, or NULL with @error naming a figure
 * that is not finite. */
char *
suanli_estimate_to_json (const SuanliPlanInputs *in,
                         const SuanliEstimate   *e,
                         const char             *name,
                         GPtrArray              *errors,
                         GPtrArray              *warnings,
                         GPtrArray              *advice,
                         GError                **error)
{
  g_autoptr(JsonBuilder) builder = json_builder_new ();
  gboolean valid = errors == NULL || errors->len == 0;

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "schema");
  json_builder_add_string_value (builder, "suanli-estimate/1");
  json_builder_set_member_name (builder, "name");
  if (name != NULL)
    json_builder_add_string_value (builder, name);
  else
    json_builder_add_null_value (builder);
  json_builder_set_member_name (builder, "valid");
  json_builder_add_boolean_value (builder, valid);
  issues (builder, "errors", errors);
  issues (builder, "warnings", warnings);

  if (!valid)
    {
      null_member (builder, "gpus");
      null_member (builder, "memory");
      null_member (builder, "training");
      null_member (builder, "inference");
      json_builder_set_member_name (builder, "advice");
      json_builder_begin_array (builder);
      json_builder_end_array (builder);
      goto done;
    }

  number (builder, "gpus", in->gpus);
  json_builder_set_member_name (builder, "memory");
  json_builder_begin_object (builder);
  number (builder, "weights", e->weights);
  number (builder, "gradients", e->gradients);
  number (builder, "optimizer", e->optimizer);
  number (builder, "activations", e->activations);
  number (builder, "kv_cache", e->kv_cache);
  number (builder, "overhead", e->overhead);
  number (builder, "total", e->total);
  number (builder, "capacity", e->capacity);
  json_builder_set_member_name (builder, "fits");
  json_builder_add_boolean_value (builder, e->fits);
  number (builder, "cpu_offload_per_node", e->cpu_offload_per_node);
  json_builder_set_member_name (builder, "cpu_fits");
  json_builder_add_boolean_value (builder, e->cpu_fits);
  json_builder_end_object (builder);

  if (suanli_plan_inputs_is_training (in))
    {
      json_builder_set_member_name (builder, "training");
      json_builder_begin_object (builder);
      number (builder, "model_flops_per_step", e->model_flops_per_step);
      number (builder, "hardware_flops_per_step", e->hardware_flops_per_step);
      number (builder, "step_time_s", e->step_time_s);
      number (builder, "compute_s", e->compute_s);
      number (builder, "communication_s", e->communication_s);
      number (builder, "exposed_communication_s", e->exposed_communication_s);
      number (builder, "bubble_s", e->bubble_s);
      number (builder, "offload_s", e->offload_s);
      number (builder, "tokens_per_s", e->tokens_per_s);
      number (builder, "time_to_train_s", e->time_to_train_s);
      number (builder, "mfu", e->mfu);
      number (builder, "hfu", e->hfu);
      number (builder, "gpu_hours", e->gpu_hours);
      number (builder, "energy_kwh", e->energy_kwh);
      number (builder, "cost", e->cost);
      number (builder, "co2_t", e->co2_t);
      json_builder_set_member_name (builder, "mfu_above_published");
      json_builder_add_boolean_value (builder, suanli_estimate_mfu_above_published (in, e));
      efficiency (builder, &e->efficiency);
      training_range (builder, "low", &e->training_low);
      training_range (builder, "high", &e->training_high);
      json_builder_end_object (builder);
      null_member (builder, "inference");
    }
  else
    {
      null_member (builder, "training");
      json_builder_set_member_name (builder, "inference");
      inference_figures (builder, &e->inference, TRUE, e);
    }

  json_builder_set_member_name (builder, "advice");
  json_builder_begin_array (builder);
  for (guint i = 0; advice != NULL && i < advice->len; i++)
    {
      SuanliAdvice *item = g_ptr_array_index (advice, i);
      g_autoptr(JsonNode) change = json_from_string (item->change, NULL);

      json_builder_begin_object (builder);
      json_builder_set_member_name (builder, "id");
      json_builder_add_string_value (builder, item->id);
      json_builder_set_member_name (builder, "severity");
      json_builder_add_string_value (builder, item->severity);
      json_builder_set_member_name (builder, "text");
      json_builder_add_string_value (builder, item->text);
      json_builder_set_member_name (builder, "technique");
      if (item->technique != NULL)
        json_builder_add_string_value (builder, item->technique);
      else
        json_builder_add_null_value (builder);
      json_builder_set_member_name (builder, "change");
      json_builder_add_value (builder, g_steal_pointer (&change));
      if (item->effect != NULL)
        {
          json_builder_set_member_name (builder, "effect");
          json_builder_add_string_value (builder, item->effect);
          json_builder_set_member_name (builder, "changes");
          json_builder_add_int_value (builder, item->changes);
          json_builder_set_member_name (builder, "after");
          json_builder_begin_object (builder);
          json_builder_set_member_name (builder, "fits");
          json_builder_add_boolean_value (builder, item->fits_after);
          number (builder, "total", item->total_after);
          number (builder, "capacity", item->capacity_after);
          number (builder, "step_s", item->step_after);
          number (builder, "time_s", item->time_after);
          number (builder, "cost", item->cost_after);
          json_builder_end_object (builder);
        }
      json_builder_end_object (builder);
    }
  json_builder_end_array (builder);

done:
  json_builder_end_object (builder);
  return suanli_json_write_builder (builder, TRUE, error);
}
