/* suanli-search.c — finding configurations: hardware × GPU count × parallelism × ZeRO × recompute
 *
 * The job stays as the plan describes it; the search varies the system and how the job is laid out
 * on it. Each candidate is estimated directly on a copy of the resolved inputs (no JSON), kept if it
 * fits in memory and meets the constraints, and the Pareto front of time to train against cost is
 * marked: a configuration is dominated when another is no slower and no dearer, and better in one.
 * Prices, so that accelerators are compared like with like: an accelerator costs the user's price
 * for it, else its cheapest cloud offer in the catalog per GPU-hour; a cloud instance searched as
 * itself costs its list price. A price in another currency than the plan's is converted with the
 * plan's exchange rate (cny_per_usd, which the user sets); with no rate it is left out (and
 * counted), never mixed in. An
 * accelerator with no price is left out, never given the plan's own price; the caller can list
 * those with suanli_search_left_out. The plan's own price is not used: it would price one part
 * differently from the rest.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>
#include <string.h>
#include <glib/gi18n.h>

#include "suanli-plan-hardware.h"
#include "suanli-search.h"
#include "suanli-json-writer.h"

typedef struct
{
  SuanliItem *accelerator;
  SuanliItem *cloud;        /* or NULL */
  double      gpus_per_node;
  SuanliSearchPrice price;
  SuanliPlanLinks links;            /* the accelerator's wiring, and its cloud instance's; scale-out 0: the plan's */
} Offer;

/* Puts @accelerator's figures into @in; FALSE when the catalog lacks what an estimate needs. */
static gboolean
set_accelerator (SuanliPlanInputs *in,
                 SuanliItem       *accelerator)
{
  SuanliPlanMissing missing = suanli_plan_hardware_set_accelerator (in, accelerator);

  return !(missing & (SUANLI_PLAN_MISSING_PEAK | SUANLI_PLAN_MISSING_MEMORY)) &&
         (!(missing & SUANLI_PLAN_MISSING_MEMORY_BANDWIDTH) || suanli_plan_inputs_is_training (in));
}

/* Returns: (transfer full): an empty table of prices for SuanliSearchConstraints.prices. */
GHashTable *
suanli_search_prices_new (void)
{
  return g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
}

void
suanli_search_prices_set (GHashTable *prices,
                          const char *accelerator_id,
                          double      per_gpu_hour)
{
  g_return_if_fail (prices != NULL && accelerator_id != NULL);
  g_hash_table_insert (prices, g_strdup (accelerator_id), g_memdup2 (&per_gpu_hour, sizeof per_gpu_hour));
}

/* Adds one "ID=AMOUNT" (the CLI's --price) to @prices; FALSE with @error when it is not one. */
gboolean
suanli_search_prices_parse (GHashTable  *prices,
                            const char  *assignment,
                            GError     **error)
{
  const char *equals = strchr (assignment, '=');
  g_autofree char *id = equals != NULL ? g_strndup (assignment, equals - assignment) : NULL;
  char *end = NULL;
  double value = equals != NULL ? g_ascii_strtod (equals + 1, &end) : 0;

  if (id == NULL || *id == '\0' || end == equals + 1 || *end != '\0' || !isfinite (value) || value < 0)
    {
      g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                   _("“%s” is not ACCELERATOR=PRICE, a price per GPU-hour such as nvidia-h100-sxm=2.5"), assignment);
      return FALSE;
    }
  suanli_search_prices_set (prices, id, value);
  return TRUE;
}

/* Converts @value from the currency @from to @to (USD and CNY) at @cny_per_usd; FALSE when the
 * currencies differ and there is no rate, or one of them is neither. */
static gboolean
convert (double      value,
         const char *from,
         const char *to,
         double      cny_per_usd,
         double     *converted)
{
  if (g_str_equal (from, to))
    *converted = value;
  else if (cny_per_usd > 0 && g_str_equal (from, "USD") && g_str_equal (to, "CNY"))
    *converted = value * cny_per_usd;
  else if (cny_per_usd > 0 && g_str_equal (from, "CNY") && g_str_equal (to, "USD"))
    *converted = value / cny_per_usd;
  else
    return FALSE;
  return TRUE;
}

/* A cloud instance's price per GPU-hour: TRUE when it has one in @currency, or in another that
 * @cny_per_usd converts (@converted set); @other_currency set when it has one that cannot be. */
static gboolean
instance_price (SuanliItem *instance,
                const char *currency,
                double      cny_per_usd,
                double     *per_gpu_hour,
                gboolean   *converted,
                gboolean   *other_currency)
{
  const SuanliSpec *price = suanli_item_find_spec (instance, "price_per_hour");
  double accelerators = 0, value = 0;
  char unit_currency[8] = "";
  const char *slash;

  *other_currency = FALSE;
  *converted = FALSE;
  if (price == NULL || price->unit == NULL || !suanli_item_get_spec_value (instance, "accelerators", &accelerators) ||
      accelerators < 1 || !(price->value >= 0) || (slash = strchr (price->unit, '/')) == NULL ||
      (gsize) (slash - price->unit) >= sizeof unit_currency)
    return FALSE;
  memcpy (unit_currency, price->unit, slash - price->unit);
  if (!convert (price->value, unit_currency, currency, cny_per_usd, &value))
    {
      *other_currency = TRUE;
      return FALSE;
    }
  *converted = !g_str_equal (unit_currency, currency);
  *per_gpu_hour = value / accelerators;
  return TRUE;
}

/* What @accelerator costs per GPU-hour in @currency: the price in @prices (nullable) for its id,
 * else its cheapest cloud offer in @catalog; source NONE when neither. */
void
suanli_search_price_of (SuanliCatalog     *catalog,
                        GHashTable        *prices,
                        const char        *currency,
                        double             cny_per_usd,
                        SuanliItem        *accelerator,
                        SuanliSearchPrice *price)
{
  const char *id = suanli_item_get_id (accelerator);
  const double *mine = prices != NULL ? g_hash_table_lookup (prices, id) : NULL;
  guint n = g_list_model_get_n_items (G_LIST_MODEL (catalog));

  *price = (SuanliSearchPrice) { 0, SUANLI_SEARCH_PRICE_NONE, NULL, 0 };
  for (guint i = 0; i < n; i++)
    {
      g_autoptr(SuanliItem) item = g_list_model_get_item (G_LIST_MODEL (catalog), i);
      double per_gpu_hour = 0;
      gboolean other_currency = FALSE, converted = FALSE;

      if (suanli_item_get_kind (item) != SUANLI_ITEM_KIND_CLOUD_INSTANCE ||
          g_strcmp0 (suanli_item_get_part (item, "accelerator"), id) != 0)
        continue;
      if (instance_price (item, currency, cny_per_usd, &per_gpu_hour, &converted, &other_currency))
        {
          if (price->offer == NULL || per_gpu_hour < price->per_gpu_hour)
            {
              price->offer = item;   /* the catalog holds it */
              price->per_gpu_hour = per_gpu_hour;
              price->source = SUANLI_SEARCH_PRICE_OFFER;
              price->converted = converted;
            }
        }
      price->other_currency += other_currency;
    }
  if (mine != NULL)
    {
      price->per_gpu_hour = *mine;
      price->source = SUANLI_SEARCH_PRICE_USER;
      price->offer = NULL;
      price->converted = FALSE;
    }
}

static gboolean
estimable (const SuanliPlanInputs *base,
           SuanliItem             *accelerator)
{
  SuanliPlanInputs probe = *base;

  return set_accelerator (&probe, accelerator);
}

/* Returns: (transfer full): the catalog's accelerators (of SuanliItem) with the figures an
 * estimate of @base's job needs: what the search can try, priced or not. */
GPtrArray *
suanli_search_accelerators (const SuanliPlanInputs *base,
                            SuanliCatalog          *catalog)
{
  GPtrArray *accelerators = g_ptr_array_new_with_free_func (g_object_unref);
  guint n = g_list_model_get_n_items (G_LIST_MODEL (catalog));

  for (guint i = 0; i < n; i++)
    {
      g_autoptr(SuanliItem) item = g_list_model_get_item (G_LIST_MODEL (catalog), i);

      if (suanli_item_get_kind (item) == SUANLI_ITEM_KIND_ACCELERATOR && estimable (base, item))
        g_ptr_array_add (accelerators, g_object_ref (item));
    }
  return accelerators;
}

/* The systems to search, each with its price; @left_out (nullable) gets those the search would try
 * but for a price in the plan's currency. */
static GArray *
collect_offers (const SuanliPlanInputs        *base,
                SuanliCatalog                 *catalog,
                const SuanliSearchConstraints *constraints,
                GPtrArray                     *left_out)
{
  GArray *offers = g_array_new (FALSE, TRUE, sizeof (Offer));
  guint n = g_list_model_get_n_items (G_LIST_MODEL (catalog));

  for (guint i = 0; i < n; i++)
    {
      g_autoptr(SuanliItem) item = g_list_model_get_item (G_LIST_MODEL (catalog), i);
      Offer offer = { NULL, NULL, 8, { 0 }, { 0 } };

      if (constraints->cloud_only && suanli_item_get_kind (item) == SUANLI_ITEM_KIND_CLOUD_INSTANCE)
        {
          double accelerators = 0;
          gboolean other_currency = FALSE;

          offer.accelerator = suanli_catalog_lookup (catalog, suanli_item_get_part (item, "accelerator"));
          if (offer.accelerator == NULL || !suanli_item_get_spec_value (item, "accelerators", &accelerators) ||
              (constraints->accelerator != NULL && g_strcmp0 (suanli_item_get_id (offer.accelerator),
                                                              constraints->accelerator) != 0) ||
              !estimable (base, offer.accelerator))
            continue;
          if (!instance_price (item, base->currency, base->cny_per_usd, &offer.price.per_gpu_hour,
                               &offer.price.converted, &other_currency))
            {
              if (left_out != NULL)
                g_ptr_array_add (left_out, g_object_ref (item));
              continue;
            }
          offer.price.source = SUANLI_SEARCH_PRICE_INSTANCE;
          offer.price.offer = item;
          offer.cloud = item;
          offer.gpus_per_node = accelerators;
          suanli_plan_hardware_links (catalog, offer.accelerator, item, accelerators, &offer.links);
        }
      else if (!constraints->cloud_only && suanli_item_get_kind (item) == SUANLI_ITEM_KIND_ACCELERATOR)
        {
          if ((constraints->accelerator != NULL &&
               g_strcmp0 (suanli_item_get_id (item), constraints->accelerator) != 0) || !estimable (base, item))
            continue;
          suanli_search_price_of (catalog, constraints->prices, base->currency, base->cny_per_usd, item,
                                  &offer.price);
          if (offer.price.source == SUANLI_SEARCH_PRICE_NONE)
            {
              if (left_out != NULL)
                g_ptr_array_add (left_out, g_object_ref (item));
              continue;
            }
          offer.accelerator = item;
          suanli_plan_hardware_links (catalog, item, NULL, base->gpus_per_node, &offer.links);
        }
      else
        continue;
      g_array_append_val (offers, offer);
    }
  return offers;
}

/* Returns: (transfer full): what the search with @constraints leaves out for want of a price in
 * the plan's currency (of SuanliItem): accelerators, or with cloud_only, cloud instances. */
GPtrArray *
suanli_search_left_out (const SuanliPlanInputs        *base,
                        SuanliCatalog                 *catalog,
                        const SuanliSearchConstraints *constraints)
{
  GPtrArray *left_out = g_ptr_array_new_with_free_func (g_object_unref);

  g_array_unref (collect_offers (base, catalog, constraints, left_out));
  return left_out;
}

/* −1, 0 or 1 as @a is below, equal to or above @b. */
static int
order (double a,
       double b)
{
  return (a > b) - (a < b);
}

/* Training results: the fastest first, of equal time the cheapest. Serving: the cheapest an hour
 * first, of equal cost the one that serves more. */
static int
compare_results (gconstpointer a,
                 gconstpointer b)
{
  const SuanliSearchResult *x = a, *y = b;
  double first_x = x->serving ? x->cost_per_hour : x->time_to_train_s;
  double first_y = y->serving ? y->cost_per_hour : y->time_to_train_s;

  if (first_x != first_y)
    return order (first_x, first_y);
  return x->serving ? order (y->requests_per_s, x->requests_per_s) : order (x->cost, y->cost);
}

/* Keeps one result per (offer, GPU count) on the front's side: the cheapest layout of each time.
 * Without this a front would list every ZeRO stage that ties. */
static void
keep_distinct (GArray *results)
{
  GArray *kept = g_array_new (FALSE, FALSE, sizeof (SuanliSearchResult));

  g_array_sort (results, compare_results);
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

/* The node counts to try on @offer: doublings up to the most GPUs, or the one layout of a fixed
 * GPU count (a bare accelerator may then fill fewer GPUs than a node has; an instance may not). */
static GArray *
node_counts (const Offer                   *offer,
             const SuanliSearchConstraints *constraints,
             double                        *gpus_per_node)
{
  GArray *counts = g_array_new (FALSE, FALSE, sizeof (double));
  double max_gpus = constraints->max_gpus > 0 ? constraints->max_gpus : 1024;

  *gpus_per_node = offer->gpus_per_node;
  if (constraints->gpus > 0)
    {
      double nodes = constraints->gpus / offer->gpus_per_node;

      if (offer->cloud == NULL && constraints->gpus < offer->gpus_per_node)
        {
          *gpus_per_node = constraints->gpus;
          nodes = 1;
        }
      if (nodes == floor (nodes))
        g_array_append_val (counts, nodes);
      return counts;
    }
  for (double nodes = 1; nodes * offer->gpus_per_node <= max_gpus; nodes *= 2)
    g_array_append_val (counts, nodes);
  return counts;
}

/* @value, or when @fixed is not 0, whether @value is it. */
static gboolean
allowed (double fixed,
         double value)
{
  return fixed == 0 || fixed == value;
}

static gboolean
allowed_bit (guint mask,
             guint bit)
{
  return mask == 0 || (mask & (1u << bit)) != 0;
}

/* @base's job on @offer: its accelerator, wiring and price in @in, and the node counts to try;
 * FALSE when the catalog lacks what an estimate needs. */
static gboolean
offer_inputs (const SuanliPlanInputs        *base,
              const Offer                   *offer,
              const SuanliSearchConstraints *constraints,
              SuanliPlanInputs              *in,
              GArray                       **node_choices)
{
  *in = *base;
  if (!set_accelerator (in, offer->accelerator))
    return FALSE;
  in->offload = SUANLI_OFFLOAD_NONE;
  /* The network is the candidate's cloud instance's, else the plan's own link, else the default
   * a plan without one resolves to (suanli-plan-inputs.c): never the one that came with the
   * plan's cloud instance or server. */
  if (offer->cloud != NULL || !base->scale_out_explicit)
    in->scale_out_bandwidth = SUANLI_PLAN_DEFAULT_SCALE_OUT_BANDWIDTH;
  *node_choices = node_counts (offer, constraints, &in->gpus_per_node);
  in->price_per_gpu_hour = offer->price.per_gpu_hour;
  suanli_plan_hardware_set_links (in, &offer->links);
  return TRUE;
}

/* What every result says whatever the job: the hardware, its price and where that came from, the
 * layout of @in and the memory of its estimate @e. */
static void
fill_result (const Offer            *offer,
             const SuanliPlanInputs *in,
             const SuanliEstimate   *e,
             SuanliSearchResult     *result)
{
  g_strlcpy (result->accelerator_id, in->accelerator_id, sizeof result->accelerator_id);
  g_strlcpy (result->accelerator_name, in->accelerator_name, sizeof result->accelerator_name);
  if (offer->cloud != NULL)
    {
      g_strlcpy (result->cloud_instance_id, suanli_item_get_id (offer->cloud), sizeof result->cloud_instance_id);
      g_strlcpy (result->cloud_instance_name, suanli_item_get_name (offer->cloud), sizeof result->cloud_instance_name);
    }
  if (offer->price.offer != NULL)
    {
      g_strlcpy (result->price_from_id, suanli_item_get_id (offer->price.offer), sizeof result->price_from_id);
      g_strlcpy (result->price_from_name, suanli_item_get_name (offer->price.offer), sizeof result->price_from_name);
    }
  result->price_source = offer->price.source;
  result->gpus_per_node = in->gpus_per_node;
  result->nodes = in->nodes;
  result->tensor = in->tensor;
  result->pipeline = in->pipeline;
  result->data = in->data;
  result->memory_total = e->total;
  result->memory_capacity = e->capacity;
  result->price_per_gpu_hour = in->price_per_gpu_hour;
}

/* Sorted by hourly cost: a serving result is on the front when it serves more requests per second
 * than everything that costs no more an hour; twins (same cost and rate) keep the first. */
static void
mark_serving_front (GArray *results)
{
  double most = 0;

  g_array_sort (results, compare_results);
  for (guint i = 0; i < results->len; i++)
    {
      SuanliSearchResult *r = &g_array_index (results, SuanliSearchResult, i);

      r->dominated = !(r->requests_per_s > most);
      most = MAX (most, r->requests_per_s);
    }
}

/* A serving plan: each offer at each GPU count, the model split over 1, 2, 4 or 8 GPUs by tensor
 * parallelism (or the fixed degree) and replicated over the rest, each replica decoding the largest
 * batch that fits. Kept when it fits, serves the plan's requests per second (when it gives them) and
 * costs no more an hour than the budget. Returns the configurations evaluated. */
static guint
search_serving (const SuanliPlanInputs        *base,
                GArray                        *offers,
                const SuanliSearchConstraints *constraints,
                GArray                        *results)
{
  static const double tensors[] = { 1, 2, 4, 8 };
  double pipeline = constraints->pipeline > 0 ? constraints->pipeline : 1;
  guint count = 0;

  for (guint o = 0; o < offers->len; o++)
    {
      const Offer *offer = &g_array_index (offers, Offer, o);
      g_autoptr(GArray) node_choices = NULL;
      SuanliPlanInputs in;

      if (!offer_inputs (base, offer, constraints, &in, &node_choices))
        continue;
      for (guint k = 0; k < node_choices->len; k++)
        for (guint t = 0; t < (constraints->tensor > 0 ? 1 : G_N_ELEMENTS (tensors)); t++)
          {
            double tensor = constraints->tensor > 0 ? constraints->tensor : tensors[t];
            double gpus = g_array_index (node_choices, double, k) * in.gpus_per_node;
            SuanliEstimate e;
            SuanliSearchResult result = { 0 };

            if (tensor > in.gpus_per_node || fmod (in.heads, tensor) != 0 || (in.layers > 0 && fmod (in.layers, pipeline) != 0) ||
                fmod (gpus, tensor * pipeline) != 0 || !allowed (constraints->data, gpus / (tensor * pipeline)))
              continue;
            in.nodes = g_array_index (node_choices, double, k);
            in.gpus = gpus;
            in.tensor = tensor;
            in.pipeline = pipeline;
            in.data = gpus / (tensor * pipeline);
            suanli_estimate_compute (&in, &e);
            count++;
            if (!e.fits || e.inference.capacity_rps <= 0 ||
                (in.requests_per_s > 0 && e.inference.capacity_rps < in.requests_per_s) ||
                (constraints->budget > 0 && gpus * in.price_per_gpu_hour > constraints->budget))
              continue;
            fill_result (offer, &in, &e, &result);
            result.serving = TRUE;
            result.requests_per_s = e.inference.capacity_rps;
            result.batch = e.inference.capacity_batch;
            result.cost_per_hour = gpus * in.price_per_gpu_hour;
            result.cost_per_million_tokens = e.cost_per_million_tokens;
            g_array_append_val (results, result);
          }
    }
  mark_serving_front (results);
  return count;
}

/* Returns: (transfer full): the configurations (of SuanliSearchResult) that fit and meet
 * @constraints, the dominated ones marked: for training, sorted by time to train, the front of
 * time against cost; for serving (search_serving), by cost an hour, the front of requests per
 * second against it. */
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
  g_autoptr(GArray) offers = NULL;
  guint count = 0;

  if (evaluated != NULL)
    *evaluated = 0;
  offers = collect_offers (base, catalog, constraints, NULL);
  if (!suanli_plan_inputs_is_training (base))
    {
      count = search_serving (base, offers, constraints, results);
      if (evaluated != NULL)
        *evaluated = count;
      return results;
    }

  for (guint o = 0; o < offers->len; o++)
    {
      Offer *offer = &g_array_index (offers, Offer, o);
      SuanliPlanInputs in;
      g_autoptr(GArray) node_choices = NULL;
      /* A fixed tensor or pipeline degree is tried even where the usual choices stop. */
      double tensor_choices[G_N_ELEMENTS (tensors)], pipeline_choices[G_N_ELEMENTS (pipelines)];
      guint n_tensors = constraints->tensor > 0 ? 1 : G_N_ELEMENTS (tensors);
      guint n_pipelines = constraints->pipeline > 0 ? 1 : G_N_ELEMENTS (pipelines);

      memcpy (tensor_choices, tensors, sizeof tensors);
      memcpy (pipeline_choices, pipelines, sizeof pipelines);
      if (constraints->tensor > 0)
        tensor_choices[0] = constraints->tensor;
      if (constraints->pipeline > 0)
        pipeline_choices[0] = constraints->pipeline;
      if (!offer_inputs (base, offer, constraints, &in, &node_choices))
        continue;
      for (guint k = 0; k < node_choices->len; k++)
        for (guint t = 0; t < n_tensors; t++)
          for (guint p = 0; p < n_pipelines; p++)
            {
              double nodes = g_array_index (node_choices, double, k);
              double gpus = nodes * in.gpus_per_node, tensor = tensor_choices[t], pipeline = pipeline_choices[p];

              if (tensor > in.gpus_per_node || fmod (in.heads, tensor) != 0 || pipeline > in.layers ||
                  fmod (in.layers, pipeline) != 0 || fmod (gpus, tensor * pipeline) != 0 ||
                  !allowed (constraints->data, gpus / (tensor * pipeline)))
                continue;
              in.nodes = nodes;
              in.gpus = gpus;
              in.tensor = tensor;
              in.pipeline = pipeline;
              in.virtual_stages = 1;
              in.schedule = SUANLI_SCHEDULE_1F1B;
              in.data = gpus / (tensor * pipeline);
              if (fmod (in.global_batch, in.micro_batch * in.data) != 0)
                continue;
              for (int zero = 0; zero <= 3; zero++)
                for (guint r = 0; r < G_N_ELEMENTS (recomputes); r++)
                  {
                    SuanliEstimate e;
                    SuanliSearchResult result = { 0 };

                    if (!allowed_bit (constraints->zero_stages, zero) ||
                        !allowed_bit (constraints->recomputes, recomputes[r]))
                      continue;
                    in.zero_stage = zero;
                    in.recompute = recomputes[r];
                    suanli_estimate_compute (&in, &e);
                    count++;
                    if (!e.fits || (constraints->deadline_s > 0 && e.time_to_train_s > constraints->deadline_s) ||
                        (constraints->budget > 0 && e.cost > constraints->budget))
                      continue;
                    fill_result (offer, &in, &e, &result);
                    result.zero_stage = zero;
                    result.recompute = recomputes[r];
                    result.time_to_train_s = e.time_to_train_s;
                    result.cost = e.cost;
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

/* Returns: (transfer full): how a result reads: "16 × H100 SXM", or on cloud instances
 * "2 × p5.48xlarge (16 × H100 SXM)". Names, never ids. */
char *
suanli_search_result_label (const SuanliSearchResult *result)
{
  double gpus = result->gpus_per_node * result->nodes;

  if (*result->cloud_instance_id != '\0')
    return g_strdup_printf (_("%g × %s (%g × %s)"), result->nodes, result->cloud_instance_name, gpus,
                            result->accelerator_name);
  return g_strdup_printf ("%g × %s", gpus, result->accelerator_name);
}

/* The merge patch that makes a plan use @result's configuration: its system, layout and, since the
 * search priced it, its price (an instance's own price needs the plan's assumed price cleared,
 * which would override it). Offload is switched off: the search varies ZeRO, and offloading needs
 * it. */
static JsonNode *
result_patch_node (const SuanliSearchResult *result)
{
  static const char * const recompute[] = { "none", "selective", "full" };
  g_autoptr(JsonBuilder) builder = json_builder_new ();
  gboolean cloud = *result->cloud_instance_id != '\0';

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "system");
  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, cloud ? "cloud_instance" : "accelerator");
  json_builder_add_string_value (builder, cloud ? result->cloud_instance_id : result->accelerator_id);
  json_builder_set_member_name (builder, cloud ? "accelerator" : "cloud_instance");
  json_builder_add_null_value (builder);
  /* A server's own wiring would not be the candidate's. */
  json_builder_set_member_name (builder, "server");
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
  if (!result->serving)
    {
      json_builder_set_member_name (builder, "zero_stage");
      json_builder_add_int_value (builder, result->zero_stage);
      json_builder_set_member_name (builder, "virtual_stages");
      json_builder_add_int_value (builder, 1);
      json_builder_set_member_name (builder, "offload");
      json_builder_add_string_value (builder, "none");
      /* The search lays pipelines out as 1F1B: a DualPipe plan's stages may not suit DualPipe. */
      json_builder_set_member_name (builder, "schedule");
      json_builder_add_null_value (builder);
    }
  json_builder_end_object (builder);

  if (!result->serving)
    {
      json_builder_set_member_name (builder, "techniques");
      json_builder_begin_object (builder);
      json_builder_set_member_name (builder, "recompute");
      json_builder_add_string_value (builder, recompute[result->recompute]);
      json_builder_end_object (builder);
    }

  json_builder_set_member_name (builder, "assumptions");
  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "price_per_gpu_hour");
  if (cloud)
    json_builder_add_null_value (builder);
  else
    json_builder_add_double_value (builder, result->price_per_gpu_hour);
  json_builder_end_object (builder);
  json_builder_end_object (builder);
  return json_builder_get_root (builder);
}

/* Returns: (transfer full) (nullable): @result's merge patch (result_patch_node) as JSON text, or
 * NULL where its price is not finite. */
char *
suanli_search_result_patch (const SuanliSearchResult *result)
{
  g_autoptr(JsonNode) patch = result_patch_node (result);

  return suanli_json_write (patch, FALSE, NULL);
}

static const char *
price_source_name (SuanliSearchPriceSource source)
{
  static const char * const names[] = { "none", "user", "offer", "instance" };

  return names[source];
}

static void
add_string_or_null (JsonBuilder *builder,
                    const char  *member,
                    const char  *value)
{
  json_builder_set_member_name (builder, member);
  if (value != NULL && *value != '\0')
    json_builder_add_string_value (builder, value);
  else
    json_builder_add_null_value (builder);
}

/* What a result is ranked on: time to train and its cost, or for serving, the requests per second,
 * the batch each replica decodes, the cost an hour and per million tokens. */
static void
add_figures (JsonBuilder              *builder,
             const SuanliSearchResult *r)
{
  const struct { const char *member; double value; } training[] = {
    { "time_to_train_s", r->time_to_train_s }, { "cost", r->cost },
  }, serving[] = {
    { "requests_per_s", r->requests_per_s }, { "batch", r->batch }, { "cost_per_hour", r->cost_per_hour },
    { "cost_per_million_tokens", r->cost_per_million_tokens },
  };

  for (guint i = 0; i < (r->serving ? G_N_ELEMENTS (serving) : G_N_ELEMENTS (training)); i++)
    {
      json_builder_set_member_name (builder, r->serving ? serving[i].member : training[i].member);
      json_builder_add_double_value (builder, r->serving ? serving[i].value : training[i].value);
    }
}

/* Returns: (transfer full) (nullable): `suanli-search/1` JSON: the front first, each result with
 * its names (its ids beside them), its price and where that came from, and its merge patch (the
 * layout); then what was left out for want of a price in @currency (@left_out of SuanliItem,
 * nullable). NULL, with @error naming it, where a figure is not finite. */
char *
suanli_search_to_json (GArray     *results,
                       guint       evaluated,
                       const char *currency,
                       GPtrArray  *left_out,
                       GError    **error)
{
  g_autoptr(JsonBuilder) builder = json_builder_new ();

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "schema");
  json_builder_add_string_value (builder, "suanli-search/1");
  json_builder_set_member_name (builder, "evaluated");
  json_builder_add_int_value (builder, evaluated);
  json_builder_set_member_name (builder, "currency");
  json_builder_add_string_value (builder, currency);
  json_builder_set_member_name (builder, "results");
  json_builder_begin_array (builder);
  for (int pass = 0; pass < 2; pass++)
    for (guint i = 0; i < results->len; i++)
      {
        SuanliSearchResult *r = &g_array_index (results, SuanliSearchResult, i);
        g_autofree char *label = NULL;

        if (r->dominated != (pass == 1))
          continue;
        label = suanli_search_result_label (r);
        json_builder_begin_object (builder);
        json_builder_set_member_name (builder, "label");
        json_builder_add_string_value (builder, label);
        json_builder_set_member_name (builder, "accelerator");
        json_builder_add_string_value (builder, r->accelerator_id);
        json_builder_set_member_name (builder, "accelerator_name");
        json_builder_add_string_value (builder, r->accelerator_name);
        add_string_or_null (builder, "cloud_instance", r->cloud_instance_id);
        add_string_or_null (builder, "cloud_instance_name", r->cloud_instance_name);
        json_builder_set_member_name (builder, "gpus");
        json_builder_add_int_value (builder, (gint64) (r->gpus_per_node * r->nodes));
        add_figures (builder, r);
        json_builder_set_member_name (builder, "price_per_gpu_hour");
        json_builder_add_double_value (builder, r->price_per_gpu_hour);
        json_builder_set_member_name (builder, "price_source");
        json_builder_add_string_value (builder, price_source_name (r->price_source));
        add_string_or_null (builder, "price_from", r->price_from_id);
        add_string_or_null (builder, "price_from_name", r->price_from_name);
        json_builder_set_member_name (builder, "dominated");
        json_builder_add_boolean_value (builder, r->dominated);
        json_builder_set_member_name (builder, "change");
        json_builder_add_value (builder, result_patch_node (r));
        json_builder_end_object (builder);
      }
  json_builder_end_array (builder);
  json_builder_set_member_name (builder, "left_out_without_price");
  json_builder_begin_array (builder);
  for (guint i = 0; left_out != NULL && i < left_out->len; i++)
    {
      SuanliItem *item = g_ptr_array_index (left_out, i);

      json_builder_begin_object (builder);
      json_builder_set_member_name (builder, "id");
      json_builder_add_string_value (builder, suanli_item_get_id (item));
      json_builder_set_member_name (builder, "name");
      json_builder_add_string_value (builder, suanli_item_get_name (item));
      json_builder_end_object (builder);
    }
  json_builder_end_array (builder);
  json_builder_end_object (builder);
  return suanli_json_write_builder (builder, TRUE, error);
}
