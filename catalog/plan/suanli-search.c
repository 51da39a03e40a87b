/* suanli-search.c — finding configurations: hardware × GPU count × parallelism × ZeRO × recompute
 *
 * The job stays as the plan describes it; the search varies the system and how the job is laid out
 * on it. Each candidate is estimated directly on a copy of the resolved inputs (no JSON), kept if it
 * fits in memory and meets the constraints, and the Pareto front of time to train against cost is
 * marked: a configuration is dominated when another is no slower and no dearer, and better in one.
 * Prices: a cloud instance's list price per GPU, else the plan's own price per GPU-hour.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>

#include "suanli-search.h"

typedef struct
{
  SuanliItem *accelerator;
  SuanliItem *cloud;        /* or NULL */
  double      gpus_per_node;
  double      price_per_gpu_hour;
  double      scale_out_bandwidth;   /* B/s per GPU; 0: the plan's */
  double      scale_up_bandwidth;    /* B/s; 0: the accelerator's own */
} Offer;

static double
link_bandwidth (SuanliCatalog *catalog,
                const char    *id)
{
  SuanliItem *link = id != NULL ? suanli_catalog_lookup (catalog, id) : NULL;
  double value = 0;

  if (link != NULL)
    suanli_item_get_spec_value (link, "bandwidth_per_direction", &value);
  return value * 1e9;
}

/* Puts @accelerator's figures into @in; FALSE when the catalog lacks what an estimate needs. */
static gboolean
set_accelerator (SuanliPlanInputs *in,
                 SuanliItem       *accelerator)
{
  double memory = 0, bandwidth = 0, tdp = 0, scale_up = 0;

  in->peak_flops = suanli_plan_inputs_peak_for (accelerator, in->compute);
  if (in->peak_flops <= 0 || !suanli_item_get_spec_value (accelerator, "memory_bytes", &memory))
    return FALSE;
  if (!suanli_item_get_spec_value (accelerator, "memory_bandwidth", &bandwidth) && !suanli_plan_inputs_is_training (in))
    return FALSE;
  suanli_item_get_spec_value (accelerator, "tdp", &tdp);
  in->memory_capacity = memory;
  in->memory_bandwidth = bandwidth * 1e12;
  in->board_power = tdp;
  in->scale_up_bandwidth = suanli_item_get_spec_value (accelerator, "scale_up_bandwidth", &scale_up) ? scale_up * 1e9
                                                                                                      : 31.5e9;
  g_strlcpy (in->accelerator_id, suanli_item_get_id (accelerator), sizeof in->accelerator_id);
  g_strlcpy (in->accelerator_name, suanli_item_get_name (accelerator), sizeof in->accelerator_name);
  return TRUE;
}

static GArray *
collect_offers (const SuanliPlanInputs        *base,
                SuanliCatalog                 *catalog,
                const SuanliSearchConstraints *constraints)
{
  GArray *offers = g_array_new (FALSE, TRUE, sizeof (Offer));
  guint n = g_list_model_get_n_items (G_LIST_MODEL (catalog));

  for (guint i = 0; i < n; i++)
    {
      g_autoptr(SuanliItem) item = g_list_model_get_item (G_LIST_MODEL (catalog), i);
      Offer offer = { NULL, NULL, 8, base->price_per_gpu_hour, 0, 0 };

      if (constraints->cloud_only && suanli_item_get_kind (item) == SUANLI_ITEM_KIND_CLOUD_INSTANCE)
        {
          const SuanliSpec *price = suanli_item_find_spec (item, "price_per_hour");
          double accelerators = 0;

          offer.accelerator = suanli_catalog_lookup (catalog, suanli_item_get_part (item, "accelerator"));
          if (price == NULL || offer.accelerator == NULL ||
              !suanli_item_get_spec_value (item, "accelerators", &accelerators) || accelerators < 1 ||
              g_strcmp0 (price->unit, "USD/h") != 0)
            continue;
          offer.cloud = item;
          offer.gpus_per_node = accelerators;
          offer.price_per_gpu_hour = price->value / accelerators;
          /* The instance's own links, as the plan would resolve them (suanli-plan-inputs.c). */
          offer.scale_up_bandwidth = link_bandwidth (catalog, suanli_item_get_part (item, "scale_up"));
          offer.scale_out_bandwidth = link_bandwidth (catalog, suanli_item_get_part (item, "scale_out"));
          if (offer.scale_out_bandwidth == 0)
            {
              double network = 0;

              suanli_item_get_spec_value (item, "network_bandwidth", &network);
              offer.scale_out_bandwidth = network / 8 * 1e9 / accelerators;
            }
        }
      else if (!constraints->cloud_only && suanli_item_get_kind (item) == SUANLI_ITEM_KIND_ACCELERATOR)
        offer.accelerator = item;
      else
        continue;
      g_array_append_val (offers, offer);
    }
  return offers;
}

static int
compare_by_time (gconstpointer a,
                 gconstpointer b)
{
  const SuanliSearchResult *x = a, *y = b;

  if (x->time_to_train_s != y->time_to_train_s)
    return x->time_to_train_s < y->time_to_train_s ? -1 : 1;
  return (x->cost > y->cost) - (x->cost < y->cost);
}

/* Keeps one result per (offer, GPU count) on the front's side: the cheapest layout of each time.
 * Without this a front would list every ZeRO stage that ties. */
static void
keep_distinct (GArray *results)
{
  GArray *kept = g_array_new (FALSE, FALSE, sizeof (SuanliSearchResult));

  g_array_sort (results, compare_by_time);
  for (guint i = 0; i < results->len; i++)
    {
      SuanliSearchResult *r = &g_array_index (results, SuanliSearchResult, i);
      gboolean duplicate = kept->len > 0 &&
        g_array_index (kept, SuanliSearchResult, kept->len - 1).time_to_train_s == r->time_to_train_s &&
        g_array_index (kept, SuanliSearchResult, kept->len - 1).cost == r->cost;

      if (!duplicate)
        g_array_append_val (kept, *r);
    }
  g_array_set_size (results, 0);
  g_array_append_vals (results, kept->data, kept->len);
  g_array_unref (kept);
}

/* With @results sorted by time, then cost, and no exact twins: one sweep. A result is on the front
 * when it is cheaper than everything at least as fast. */
static void
mark_dominated (GArray *results)
{
  double cheapest = INFINITY;

  for (guint i = 0; i < results->len; i++)
    {
      SuanliSearchResult *r = &g_array_index (results, SuanliSearchResult, i);

      r->dominated = !(r->cost < cheapest);
      cheapest = MIN (cheapest, r->cost);
    }
}

/* Returns: (transfer full): the configurations (of SuanliSearchResult) that fit and meet
 * @constraints, sorted by time to train, the dominated ones marked. Training plans only. */
GArray *
suanli_search_run (const SuanliPlanInputs        *base,
                   SuanliCatalog                 *catalog,
                   const SuanliSearchConstraints *constraints,
                   guint                         *evaluated)
{
  static const double tensors[] = { 1, 2, 4, 8 };
  static const double pipelines[] = { 1, 2, 4, 8, 16 };
  static const SuanliRecompute recomputes[] = { SUANLI_RECOMPUTE_NONE, SUANLI_RECOMPUTE_SELECTIVE, SUANLI_RECOMPUTE_FULL };
  GArray *results = g_array_new (FALSE, TRUE, sizeof (SuanliSearchResult));
  g_autoptr(GArray) offers = collect_offers (base, catalog, constraints);
  double max_gpus = constraints->max_gpus > 0 ? constraints->max_gpus : 1024;
  guint count = 0;

  if (!suanli_plan_inputs_is_training (base))
    return results;

  for (guint o = 0; o < offers->len; o++)
    {
      Offer *offer = &g_array_index (offers, Offer, o);
      SuanliPlanInputs in = *base;

      if (!set_accelerator (&in, offer->accelerator))
        continue;
      in.offload = SUANLI_OFFLOAD_NONE;
      /* Off a cloud instance, the network is the plan's own link, or the default a plan without
       * one resolves to (suanli-plan-inputs.c). */
      if (offer->cloud == NULL && base->scale_out_from_cloud)
        in.scale_out_bandwidth = 50e9;
      in.gpus_per_node = offer->gpus_per_node;
      in.price_per_gpu_hour = offer->price_per_gpu_hour;
      if (offer->scale_up_bandwidth > 0)
        in.scale_up_bandwidth = offer->scale_up_bandwidth;
      if (offer->scale_out_bandwidth > 0)
        in.scale_out_bandwidth = offer->scale_out_bandwidth;
      for (double nodes = 1; nodes * in.gpus_per_node <= max_gpus; nodes *= 2)
        for (guint t = 0; t < G_N_ELEMENTS (tensors); t++)
          for (guint p = 0; p < G_N_ELEMENTS (pipelines); p++)
            {
              double gpus = nodes * in.gpus_per_node, tensor = tensors[t], pipeline = pipelines[p];

              if (tensor > in.gpus_per_node || fmod (in.heads, tensor) != 0 || pipeline > in.layers ||
                  fmod (in.layers, pipeline) != 0 || fmod (gpus, tensor * pipeline) != 0)
                continue;
              in.nodes = nodes;
              in.gpus = gpus;
              in.tensor = tensor;
              in.pipeline = pipeline;
              in.virtual_stages = 1;
              in.data = gpus / (tensor * pipeline);
              if (fmod (in.global_batch, in.micro_batch * in.data) != 0)
                continue;
              for (int zero = 0; zero <= 3; zero++)
                for (guint r = 0; r < G_N_ELEMENTS (recomputes); r++)
                  {
                    SuanliEstimate e;
                    SuanliSearchResult result = { 0 };

                    in.zero_stage = zero;
                    in.recompute = recomputes[r];
                    suanli_estimate_compute (&in, &e);
                    count++;
                    if (!e.fits || (constraints->deadline_s > 0 && e.time_to_train_s > constraints->deadline_s) ||
                        (constraints->budget > 0 && e.cost > constraints->budget))
                      continue;
                    g_strlcpy (result.accelerator_id, in.accelerator_id, sizeof result.accelerator_id);
                    g_strlcpy (result.accelerator_name, in.accelerator_name, sizeof result.accelerator_name);
                    if (offer->cloud != NULL)
                      g_strlcpy (result.cloud_instance_id, suanli_item_get_id (offer->cloud),
                                 sizeof result.cloud_instance_id);
                    result.gpus_per_node = in.gpus_per_node;
                    result.nodes = nodes;
                    result.tensor = tensor;
                    result.pipeline = pipeline;
                    result.data = in.data;
                    result.zero_stage = zero;
                    result.recompute = recomputes[r];
                    result.time_to_train_s = e.time_to_train_s;
                    result.cost = e.cost;
                    result.memory_total = e.total;
                    result.price_per_gpu_hour = in.price_per_gpu_hour;
                    result.memory_capacity = e.capacity;
                    g_array_append_val (results, result);
                  }
            }
    }

  keep_distinct (results);
  mark_dominated (results);
  if (evaluated != NULL)
    *evaluated = count;
  return results;
}

/* Returns: (transfer full): the merge patch that makes a plan use @result's configuration: its
 * system, layout and, since the search priced it, its price (an instance's own price needs the
 * plan's assumed price cleared, which would override it). Offload is switched off: the search
 * varies ZeRO, and offloading needs it. */
char *
suanli_search_result_patch (const SuanliSearchResult *result)
{
  static const char * const recompute[] = { "none", "selective", "full" };
  g_autoptr(JsonBuilder) builder = json_builder_new ();
  g_autoptr(JsonGenerator) generator = json_generator_new ();
  g_autoptr(JsonNode) root = NULL;
  gboolean cloud = *result->cloud_instance_id != '\0';

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "system");
  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, cloud ? "cloud_instance" : "accelerator");
  json_builder_add_string_value (builder, cloud ? result->cloud_instance_id : result->accelerator_id);
  json_builder_set_member_name (builder, cloud ? "accelerator" : "cloud_instance");
  json_builder_add_null_value (builder);
  json_builder_set_member_name (builder, "scale_up");
  json_builder_add_null_value (builder);
  if (cloud)
    {
      json_builder_set_member_name (builder, "scale_out");
      json_builder_add_null_value (builder);
    }
  json_builder_set_member_name (builder, "gpus_per_node");
  json_builder_add_int_value (builder, (gint64) result->gpus_per_node);
  json_builder_set_member_name (builder, "nodes");
  json_builder_add_int_value (builder, (gint64) result->nodes);
  json_builder_end_object (builder);

  json_builder_set_member_name (builder, "parallelism");
  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "tensor");
  json_builder_add_int_value (builder, (gint64) result->tensor);
  json_builder_set_member_name (builder, "pipeline");
  json_builder_add_int_value (builder, (gint64) result->pipeline);
  json_builder_set_member_name (builder, "data");
  json_builder_add_int_value (builder, (gint64) result->data);
  json_builder_set_member_name (builder, "zero_stage");
  json_builder_add_int_value (builder, result->zero_stage);
  json_builder_set_member_name (builder, "virtual_stages");
  json_builder_add_int_value (builder, 1);
  json_builder_set_member_name (builder, "offload");
  json_builder_add_string_value (builder, "none");
  json_builder_end_object (builder);

  json_builder_set_member_name (builder, "techniques");
  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "recompute");
  json_builder_add_string_value (builder, recompute[result->recompute]);
  json_builder_end_object (builder);

  json_builder_set_member_name (builder, "assumptions");
  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "price_per_gpu_hour");
  if (cloud)
    json_builder_add_null_value (builder);
  else
    json_builder_add_double_value (builder, result->price_per_gpu_hour);
  json_builder_end_object (builder);
  json_builder_end_object (builder);

  root = json_builder_get_root (builder);
  json_generator_set_root (generator, root);
  return json_generator_to_data (generator, NULL);
}

/* Returns: (transfer full): `suanli-search/1` JSON: the front first, each with its merge patch. */
char *
suanli_search_to_json (GArray *results,
                       guint   evaluated)
{
  g_autoptr(JsonBuilder) builder = json_builder_new ();
  g_autoptr(JsonGenerator) generator = json_generator_new ();
  g_autoptr(JsonNode) root = NULL;

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "schema");
  json_builder_add_string_value (builder, "suanli-search/1");
  json_builder_set_member_name (builder, "evaluated");
  json_builder_add_int_value (builder, evaluated);
  json_builder_set_member_name (builder, "results");
  json_builder_begin_array (builder);
  for (int pass = 0; pass < 2; pass++)
    for (guint i = 0; i < results->len; i++)
      {
        SuanliSearchResult *r = &g_array_index (results, SuanliSearchResult, i);
        g_autofree char *patch = NULL;

        if (r->dominated != (pass == 1))
          continue;
        patch = suanli_search_result_patch (r);
        json_builder_begin_object (builder);
        json_builder_set_member_name (builder, "accelerator");
        json_builder_add_string_value (builder, r->accelerator_id);
        json_builder_set_member_name (builder, "cloud_instance");
        if (*r->cloud_instance_id)
          json_builder_add_string_value (builder, r->cloud_instance_id);
        else
          json_builder_add_null_value (builder);
        json_builder_set_member_name (builder, "gpus");
        json_builder_add_int_value (builder, (gint64) (r->gpus_per_node * r->nodes));
        json_builder_set_member_name (builder, "time_to_train_s");
        json_builder_add_double_value (builder, r->time_to_train_s);
        json_builder_set_member_name (builder, "cost");
        json_builder_add_double_value (builder, r->cost);
        json_builder_set_member_name (builder, "dominated");
        json_builder_add_boolean_value (builder, r->dominated);
        json_builder_set_member_name (builder, "change");
        json_builder_add_value (builder, json_from_string (patch, NULL));
        json_builder_end_object (builder);
      }
  json_builder_end_array (builder);
  json_builder_end_object (builder);
  root = json_builder_get_root (builder);
  json_generator_set_root (generator, root);
  json_generator_set_pretty (generator, TRUE);
  return json_generator_to_data (generator, NULL);
}
