/* test-search.c — Find Configurations' engine: accelerators priced from their cloud offers or the
 * user's prices, never the plan's; fixed axes; what is left out, and names in what it shows
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>
#include <string.h>
#include <glib/gstdio.h>

#include "suanli-catalog.h"
#include "suanli-plan-inputs.h"
#include "suanli-search.h"

static SuanliCatalog *catalog;

/* A 7B pretraining job on H100s, the plan assuming 2.5 USD per GPU-hour: a price the search must
 * not give to every accelerator. */
#define PLAN_JSON "{\"model\": {\"preset\": \"llama-2-7b\"}, \"workload\": {\"global_batch\": 512, \"tokens\": 1e11}," \
                  " \"system\": {\"accelerator\": \"nvidia-h100-sxm\"}, \"assumptions\": {\"price_per_gpu_hour\": 2.5}}"

static void
resolve (SuanliCatalog    *with,
         const char       *json,
         SuanliPlanInputs *in)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(SuanliPlan) plan = suanli_plan_new_from_data (json, -1, "search", &error);
  g_autoptr(GPtrArray) errors = g_ptr_array_new_with_free_func ((GDestroyNotify) suanli_plan_issue_free);
  g_autoptr(GPtrArray) warnings = g_ptr_array_new_with_free_func ((GDestroyNotify) suanli_plan_issue_free);

  g_assert_no_error (error);
  g_assert_true (suanli_plan_inputs_resolve (plan, with, in, errors, warnings));
}

/* The cheapest offer per GPU-hour for @accelerator in the catalog, worked out here from the
 * instances' own specs; 0 when none is in USD. */
static double
cheapest_usd_offer (const char  *accelerator,
                    const char **instance)
{
  guint n = g_list_model_get_n_items (G_LIST_MODEL (catalog));
  double best = 0;

  for (guint i = 0; i < n; i++)
    {
      g_autoptr(SuanliItem) item = g_list_model_get_item (G_LIST_MODEL (catalog), i);
      const SuanliSpec *price = suanli_item_find_spec (item, "price_per_hour");
      double count = 0;

      if (suanli_item_get_kind (item) != SUANLI_ITEM_KIND_CLOUD_INSTANCE || price == NULL ||
          g_strcmp0 (suanli_item_get_part (item, "accelerator"), accelerator) != 0 ||
          g_strcmp0 (price->unit, "USD/h") != 0 || !suanli_item_get_spec_value (item, "accelerators", &count))
        continue;
      if (best == 0 || price->value / count < best)
        {
          best = price->value / count;
          *instance = suanli_item_get_id (item);
        }
    }
  return best;
}

static GArray *
search_one (const SuanliPlanInputs *in,
            const char             *accelerator,
            GHashTable             *prices)
{
  SuanliSearchConstraints constraints = { 0 };

  constraints.max_gpus = 64;
  constraints.accelerator = accelerator;
  constraints.prices = prices;
  return suanli_search_run (in, catalog, &constraints, NULL);
}

/* H100 is priced from the cheapest H100 instance (p5.48xlarge), each A100 from its own cheapest
 * instance: different prices per accelerator, each the catalog's, none the plan's 2.5. */
static void
test_priced_from_offers (void)
{
  const char *accelerators[] = { "nvidia-h100-sxm", "nvidia-a100-40gb-sxm", "nvidia-a100-80gb-sxm" };
  double prices[G_N_ELEMENTS (accelerators)];
  SuanliPlanInputs in;

  resolve (catalog, PLAN_JSON, &in);
  g_assert_cmpfloat (in.price_per_gpu_hour, ==, 2.5);
  for (guint a = 0; a < G_N_ELEMENTS (accelerators); a++)
    {
      const char *instance = NULL;
      g_autoptr(GArray) results = search_one (&in, accelerators[a], NULL);
      SuanliItem *offer;

      prices[a] = cheapest_usd_offer (accelerators[a], &instance);
      g_assert_cmpfloat (prices[a], >, 0);
      offer = suanli_catalog_lookup (catalog, instance);
      g_assert_cmpuint (results->len, >, 0);
      for (guint i = 0; i < results->len; i++)
        {
          SuanliSearchResult *r = &g_array_index (results, SuanliSearchResult, i);

          g_assert_cmpstr (r->accelerator_id, ==, accelerators[a]);
          g_assert_cmpfloat_with_epsilon (r->price_per_gpu_hour, prices[a], 1e-12);
          g_assert_cmpint (r->price_source, ==, SUANLI_SEARCH_PRICE_OFFER);
          g_assert_cmpstr (r->price_from_id, ==, instance);
          g_assert_cmpstr (r->price_from_name, ==, suanli_item_get_name (offer));
          /* Cost is what the GPUs cost at that price for the time they run. */
          g_assert_cmpfloat (fabs (r->cost / (r->price_per_gpu_hour * r->gpus_per_node * r->nodes) -
                                   r->time_to_train_s / 3600), <, r->time_to_train_s / 3600 * 0.5);
        }
    }
  /* What the catalog says: p5.48xlarge 55.04 USD/h for 8 H100, p4d.24xlarge 21.9576 for 8 A100 40 GB. */
  g_assert_cmpfloat_with_epsilon (prices[0], 55.04 / 8, 1e-9);
  g_assert_cmpfloat_with_epsilon (prices[1], 21.9576 / 8, 1e-9);
  g_assert_cmpfloat (prices[0], !=, prices[1]);
  g_assert_cmpfloat (prices[1], !=, prices[2]);

  /* Searching everything: no result carries the plan's price. */
  {
    SuanliSearchConstraints constraints = { 0, 0, 64, FALSE };
    g_autoptr(GArray) results = suanli_search_run (&in, catalog, &constraints, NULL);

    g_assert_cmpuint (results->len, >, 0);
    for (guint i = 0; i < results->len; i++)
      g_assert_cmpfloat (g_array_index (results, SuanliSearchResult, i).price_per_gpu_hour, !=, 2.5);
  }
}

/* A price the user sets wins over the offers, and brings in an accelerator that has none. */
static void
test_user_prices (void)
{
  g_autoptr(GHashTable) prices = suanli_search_prices_new ();
  SuanliSearchConstraints constraints = { 0, 0, 64, FALSE, prices };
  g_autoptr(GPtrArray) before = NULL;
  g_autoptr(GPtrArray) after = NULL;
  g_autoptr(GArray) results = NULL;
  SuanliPlanInputs in;
  gboolean h100 = FALSE, mi325x = FALSE;

  resolve (catalog, PLAN_JSON, &in);
  before = suanli_search_left_out (&in, catalog, &constraints);
  g_assert_true (g_ptr_array_find (before, suanli_catalog_lookup (catalog, "amd-mi325x"), NULL));
  g_assert_false (g_ptr_array_find (before, suanli_catalog_lookup (catalog, "nvidia-h100-sxm"), NULL));

  g_assert_true (suanli_search_prices_parse (prices, "nvidia-h100-sxm=1.75", NULL));
  g_assert_true (suanli_search_prices_parse (prices, "amd-mi325x=3", NULL));
  results = suanli_search_run (&in, catalog, &constraints, NULL);
  for (guint i = 0; i < results->len; i++)
    {
      SuanliSearchResult *r = &g_array_index (results, SuanliSearchResult, i);

      if (g_str_equal (r->accelerator_id, "nvidia-h100-sxm"))
        {
          h100 = TRUE;
          g_assert_cmpfloat (r->price_per_gpu_hour, ==, 1.75);
          g_assert_cmpint (r->price_source, ==, SUANLI_SEARCH_PRICE_USER);
          g_assert_cmpstr (r->price_from_id, ==, "");
        }
      else if (g_str_equal (r->accelerator_id, "amd-mi325x"))
        {
          mi325x = TRUE;
          g_assert_cmpfloat (r->price_per_gpu_hour, ==, 3);
        }
      else
        g_assert_cmpint (r->price_source, ==, SUANLI_SEARCH_PRICE_OFFER);
    }
  g_assert_true (h100 && mi325x);
  after = suanli_search_left_out (&in, catalog, &constraints);
  g_assert_cmpuint (after->len, ==, before->len - 1);
  g_assert_false (g_ptr_array_find (after, suanli_catalog_lookup (catalog, "amd-mi325x"), NULL));

  /* What --price refuses. */
  {
    const char *bad[] = { "nvidia-h100-sxm", "nvidia-h100-sxm=", "=2", "nvidia-h100-sxm=-1", "nvidia-h100-sxm=2x",
                          "nvidia-h100-sxm=nan" };

    for (guint i = 0; i < G_N_ELEMENTS (bad); i++)
      {
        g_autoptr(GError) error = NULL;

        g_assert_false (suanli_search_prices_parse (prices, bad[i], &error));
        g_assert_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE);
      }
  }
}

/* Accelerators with neither an offer nor a price are left out, listed, and in no result; the
 * search can try the rest. */
static void
test_unpriced_left_out (void)
{
  SuanliSearchConstraints constraints = { 0, 0, 64, FALSE };
  g_autoptr(GPtrArray) left_out = NULL;
  g_autoptr(GPtrArray) all = NULL;
  g_autoptr(GArray) results = NULL;
  SuanliPlanInputs in;

  resolve (catalog, PLAN_JSON, &in);
  all = suanli_search_accelerators (&in, catalog);
  left_out = suanli_search_left_out (&in, catalog, &constraints);
  results = suanli_search_run (&in, catalog, &constraints, NULL);
  g_assert_cmpuint (left_out->len, >, 0);
  g_assert_cmpuint (left_out->len, <, all->len);
  for (guint i = 0; i < left_out->len; i++)
    {
      SuanliItem *item = g_ptr_array_index (left_out, i);
      SuanliSearchPrice price;

      g_assert_true (g_ptr_array_find (all, item, NULL));
      suanli_search_price_of (catalog, NULL, "USD", 0, item, &price);
      g_assert_cmpint (price.source, ==, SUANLI_SEARCH_PRICE_NONE);
      for (guint j = 0; j < results->len; j++)
        g_assert_cmpstr (g_array_index (results, SuanliSearchResult, j).accelerator_id, !=, suanli_item_get_id (item));
    }
  /* A fixed accelerator without a price gives nothing, and says why. */
  {
    g_autoptr(GArray) none = search_one (&in, "amd-mi325x", NULL);
    g_autoptr(GPtrArray) why = NULL;

    constraints.accelerator = "amd-mi325x";
    why = suanli_search_left_out (&in, catalog, &constraints);
    g_assert_cmpuint (none->len, ==, 0);
    g_assert_cmpuint (why->len, ==, 1);
    g_assert_cmpstr (suanli_item_get_id (g_ptr_array_index (why, 0)), ==, "amd-mi325x");
  }
}

/* Every fixed axis holds in every result, and a fixed GPU count below a node's is one smaller node. */
static void
test_fixed_axes (void)
{
  SuanliSearchConstraints constraints = { 0 };
  g_autoptr(GArray) results = NULL;
  g_autoptr(GArray) small = NULL;
  g_autoptr(GArray) cloud = NULL;
  SuanliPlanInputs in;

  resolve (catalog, PLAN_JSON, &in);
  constraints.accelerator = "nvidia-a100-80gb-sxm";
  constraints.gpus = 32;
  constraints.tensor = 2;
  constraints.pipeline = 2;
  constraints.zero_stages = 1u << 1;
  constraints.recomputes = 1u << SUANLI_RECOMPUTE_SELECTIVE;
  results = suanli_search_run (&in, catalog, &constraints, NULL);
  g_assert_cmpuint (results->len, ==, 1);
  for (guint i = 0; i < results->len; i++)
    {
      SuanliSearchResult *r = &g_array_index (results, SuanliSearchResult, i);

      g_assert_cmpstr (r->accelerator_id, ==, "nvidia-a100-80gb-sxm");
      g_assert_cmpfloat (r->gpus_per_node * r->nodes, ==, 32);
      g_assert_cmpfloat (r->tensor, ==, 2);
      g_assert_cmpfloat (r->pipeline, ==, 2);
      g_assert_cmpfloat (r->data, ==, 8);
      g_assert_cmpint (r->zero_stage, ==, 1);
      g_assert_cmpint (r->recompute, ==, SUANLI_RECOMPUTE_SELECTIVE);
    }

  /* Data parallelism alone fixed; 4 GPUs on one node. */
  memset (&constraints, 0, sizeof constraints);
  constraints.gpus = 4;
  constraints.data = 2;
  small = suanli_search_run (&in, catalog, &constraints, NULL);
  g_assert_cmpuint (small->len, >, 0);
  for (guint i = 0; i < small->len; i++)
    {
      SuanliSearchResult *r = &g_array_index (small, SuanliSearchResult, i);

      g_assert_cmpfloat (r->gpus_per_node, ==, 4);
      g_assert_cmpfloat (r->nodes, ==, 1);
      g_assert_cmpfloat (r->data, ==, 2);
      g_assert_cmpfloat (r->tensor * r->pipeline, ==, 2);
    }

  /* Instances come whole: 16 GPUs is two 8-GPU instances or one 16-GPU one; 4 is none. */
  memset (&constraints, 0, sizeof constraints);
  constraints.cloud_only = TRUE;
  constraints.gpus = 4;
  {
    g_autoptr(GArray) none = suanli_search_run (&in, catalog, &constraints, NULL);

    g_assert_cmpuint (none->len, ==, 0);
  }
  constraints.gpus = 16;
  cloud = suanli_search_run (&in, catalog, &constraints, NULL);
  g_assert_cmpuint (cloud->len, >, 0);
  for (guint i = 0; i < cloud->len; i++)
    {
      SuanliSearchResult *r = &g_array_index (cloud, SuanliSearchResult, i);

      g_assert_cmpstr (r->cloud_instance_id, !=, "");
      g_assert_cmpfloat (r->gpus_per_node * r->nodes, ==, 16);
      g_assert_cmpint (r->price_source, ==, SUANLI_SEARCH_PRICE_INSTANCE);
    }
}

/* A plan in CNY is priced in CNY only: the USD offers are left out, not mixed in. */
static void
test_currency_not_mixed (void)
{
  const char *extra = "{\"schema\": \"suanli-catalog/1\", \"items\": [{\"id\": \"test-cny-h100-8\", \"kind\": "
                      "\"cloud-instance\", \"vendor\": \"Test Cloud\", \"name\": \"CNY H100 × 8\", "
                      "\"summary\": {\"en\": \"A made-up instance priced in yuan.\","
                      " \"zh_CN\": \"虚构的人民币标价实例。\"}, \"specs\": {"
                      "\"accelerators\": {\"value\": 8, \"unit\": \"count\", \"source\": \"Test price list (2025)\","
                      " \"confidence\": \"high\"},"
                      "\"price_per_hour\": {\"value\": 200, \"unit\": \"CNY/h\", \"source\": \"Test price list (2025)\","
                      " \"confidence\": \"high\"}},"
                      "\"parts\": {\"accelerator\": \"nvidia-h100-sxm\"}}]}";
  g_autofree char *directory = g_dir_make_tmp ("suanli-search-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (directory, "cny.json", NULL);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(GPtrArray) problems = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(SuanliCatalog) with_cny = suanli_catalog_new ();
  SuanliSearchConstraints constraints = { 0, 0, 64, FALSE };
  g_autoptr(GArray) bare = NULL;
  g_autoptr(GArray) cloud = NULL;
  g_autoptr(GPtrArray) left_out = NULL;
  g_autoptr(GPtrArray) left_out_cloud = NULL;
  SuanliPlanInputs in;
  SuanliSearchPrice price;

  g_assert_true (g_file_set_contents (path, extra, -1, NULL));
  suanli_catalog_load_builtin (with_cny, problems);
  g_assert_true (suanli_catalog_load_file (with_cny, file, problems, NULL));
  for (guint i = 0; i < problems->len; i++)
    g_printerr ("%s\n", (char *) g_ptr_array_index (problems, i));
  g_assert_cmpuint (problems->len, ==, 0);
  resolve (with_cny, "{\"model\": {\"preset\": \"llama-2-7b\"},"
                     " \"workload\": {\"global_batch\": 512, \"tokens\": 1e11},"
                     " \"system\": {\"cloud_instance\": \"test-cny-h100-8\"}}", &in);
  g_assert_cmpstr (in.currency, ==, "CNY");

  suanli_search_price_of (with_cny, NULL, "CNY", 0, suanli_catalog_lookup (with_cny, "nvidia-h100-sxm"), &price);
  g_assert_cmpint (price.source, ==, SUANLI_SEARCH_PRICE_OFFER);
  g_assert_cmpfloat (price.per_gpu_hour, ==, 25);
  g_assert_false (price.converted);
  g_assert_cmpuint (price.other_currency, >=, 1);   /* p5.48xlarge, in USD */

  bare = suanli_search_run (&in, with_cny, &constraints, NULL);
  g_assert_cmpuint (bare->len, >, 0);
  for (guint i = 0; i < bare->len; i++)
    {
      g_assert_cmpstr (g_array_index (bare, SuanliSearchResult, i).accelerator_id, ==, "nvidia-h100-sxm");
      g_assert_cmpfloat (g_array_index (bare, SuanliSearchResult, i).price_per_gpu_hour, ==, 25);
    }
  left_out = suanli_search_left_out (&in, with_cny, &constraints);
  g_assert_true (g_ptr_array_find (left_out, suanli_catalog_lookup (with_cny, "nvidia-a100-40gb-sxm"), NULL));

  constraints.cloud_only = TRUE;
  cloud = suanli_search_run (&in, with_cny, &constraints, NULL);
  g_assert_cmpuint (cloud->len, >, 0);
  for (guint i = 0; i < cloud->len; i++)
    g_assert_cmpstr (g_array_index (cloud, SuanliSearchResult, i).cloud_instance_id, ==, "test-cny-h100-8");
  left_out_cloud = suanli_search_left_out (&in, with_cny, &constraints);
  g_assert_true (g_ptr_array_find (left_out_cloud, suanli_catalog_lookup (with_cny, "aws-p5-48xlarge"), NULL));

  /* With a rate, the USD offers are converted, not left out: p4d.24xlarge's 8 × A100 at
   * 21.9576 USD/h is 21.9576 / 8 × 7 CNY per GPU-hour. */
  in.cny_per_usd = 7;
  suanli_search_price_of (with_cny, NULL, "CNY", in.cny_per_usd,
                          suanli_catalog_lookup (with_cny, "nvidia-a100-40gb-sxm"), &price);
  g_assert_cmpint (price.source, ==, SUANLI_SEARCH_PRICE_OFFER);
  g_assert_true (price.converted);
  g_assert_cmpfloat_with_epsilon (price.per_gpu_hour, 21.9576 / 8 * 7, 1e-9);
  g_clear_pointer (&left_out_cloud, g_ptr_array_unref);
  left_out_cloud = suanli_search_left_out (&in, with_cny, &constraints);
  g_assert_false (g_ptr_array_find (left_out_cloud, suanli_catalog_lookup (with_cny, "aws-p5-48xlarge"), NULL));
  constraints.cloud_only = FALSE;
  g_clear_pointer (&left_out, g_ptr_array_unref);
  left_out = suanli_search_left_out (&in, with_cny, &constraints);
  g_assert_false (g_ptr_array_find (left_out, suanli_catalog_lookup (with_cny, "nvidia-a100-40gb-sxm"), NULL));

  g_unlink (path);
  g_rmdir (directory);
}

/* What people read names the hardware; the JSON keeps the ids beside the names. */
static void
test_names_not_ids (void)
{
  SuanliSearchConstraints constraints = { 0, 0, 64, TRUE };
  g_autoptr(GArray) results = NULL;
  g_autoptr(GPtrArray) left_out = NULL;
  g_autofree char *json = NULL;
  SuanliPlanInputs in;

  resolve (catalog, PLAN_JSON, &in);
  results = suanli_search_run (&in, catalog, &constraints, NULL);
  left_out = suanli_search_left_out (&in, catalog, &constraints);
  g_assert_cmpuint (results->len, >, 0);
  for (guint i = 0; i < results->len; i++)
    {
      SuanliSearchResult *r = &g_array_index (results, SuanliSearchResult, i);
      g_autofree char *label = suanli_search_result_label (r);

      g_assert_null (strstr (label, r->cloud_instance_id));
      g_assert_null (strstr (label, r->accelerator_id));
      g_assert_nonnull (strstr (label, r->cloud_instance_name));
      g_assert_nonnull (strstr (label, r->accelerator_name));
    }
  json = suanli_search_to_json (results, 1, in.currency, left_out, NULL);
  g_assert_nonnull (strstr (json, "\"cloud_instance_name\" : \"p5.48xlarge\""));
  g_assert_nonnull (strstr (json, "\"cloud_instance\" : \"aws-p5-48xlarge\""));
  g_assert_nonnull (strstr (json, "\"accelerator_name\" : \"H100 SXM\""));
  g_assert_nonnull (strstr (json, "\"currency\" : \"USD\""));
}

/* Estimated on the same figures: a plan on a catalog system and the search's candidate for that
 * system with the same layout take the same time (tensor-parallel, so that the links count). Both map the catalog to the estimator's inputs
 * in one place (suanli-plan-hardware.c); this keeps them from drifting apart. Over every
 * accelerator on one node, with the user's price, and every cloud instance on two. */
static void
test_agrees_with_plan (void)
{
  guint n = g_list_model_get_n_items (G_LIST_MODEL (catalog)), compared = 0, clouds = 0;

  for (guint i = 0; i < n; i++)
    {
      g_autoptr(SuanliItem) item = g_list_model_get_item (G_LIST_MODEL (catalog), i);
      gboolean cloud = suanli_item_get_kind (item) == SUANLI_ITEM_KIND_CLOUD_INSTANCE;
      g_autofree char *json = NULL;
      g_autoptr(SuanliPlan) plan = NULL;
      g_autoptr(GPtrArray) errors = g_ptr_array_new_with_free_func ((GDestroyNotify) suanli_plan_issue_free);
      g_autoptr(GPtrArray) warnings = g_ptr_array_new_with_free_func ((GDestroyNotify) suanli_plan_issue_free);
      g_autoptr(GHashTable) prices = suanli_search_prices_new ();
      g_autoptr(GArray) results = NULL;
      SuanliSearchConstraints constraints = { 0 };
      SuanliPlanInputs in;
      SuanliEstimate e;
      gboolean found = FALSE;

      if (!cloud && suanli_item_get_kind (item) != SUANLI_ITEM_KIND_ACCELERATOR)
        continue;
      json = g_strdup_printf ("{\"model\": {\"preset\": \"llama-2-7b\"}, \"workload\": {\"global_batch\": 512,"
                              " \"tokens\": 1e11}, \"parallelism\": {\"tensor\": 8}, \"system\": {\"%s\": \"%s\", \"nodes\": %d}}",
                              cloud ? "cloud_instance" : "accelerator", suanli_item_get_id (item), cloud ? 2 : 1);
      plan = suanli_plan_new_from_data (json, -1, "agrees", NULL);
      g_assert_nonnull (plan);
      /* Accelerators without the figures a training estimate needs, and instances whose links
       * the catalog does not give, are refused by the plan: nothing to compare. */
      if (!suanli_plan_inputs_resolve (plan, catalog, &in, errors, warnings))
        continue;
      suanli_estimate_compute (&in, &e);

      constraints.accelerator = in.accelerator_id;
      constraints.cloud_only = cloud;
      constraints.gpus = in.gpus;
      constraints.tensor = in.tensor;
      constraints.pipeline = in.pipeline;
      constraints.zero_stages = 1u << in.zero_stage;
      constraints.recomputes = 1u << in.recompute;
      suanli_search_prices_set (prices, in.accelerator_id, 1);
      constraints.prices = prices;
      results = suanli_search_run (&in, catalog, &constraints, NULL);
      for (guint r = 0; r < results->len; r++)
        {
          SuanliSearchResult *result = &g_array_index (results, SuanliSearchResult, r);

          if (cloud && g_strcmp0 (result->cloud_instance_id, suanli_item_get_id (item)) != 0)
            continue;
          if (result->gpus_per_node != in.gpus_per_node)
            continue;
          g_assert_cmpfloat (result->time_to_train_s, ==, e.time_to_train_s);
          found = TRUE;
        }
      /* The search keeps only what fits, and leaves out what has no price in the plan's currency. */
      if (e.fits)
        {
          g_autoptr(GPtrArray) left_out = suanli_search_left_out (&in, catalog, &constraints);

          g_assert_true (found || g_ptr_array_find (left_out, item, NULL));
          compared += found;
          clouds += found && cloud;
        }
    }
  g_test_message ("%u systems compared, %u of them cloud instances", compared, clouds);
  g_assert_cmpuint (compared, >=, 10);
  g_assert_cmpuint (clouds, >=, 4);
}

/* A serving plan is searched for configurations that serve it (issue 33): each result meets the
 * plan's requests per second, the front is of requests per second against cost an hour, and a
 * result's patch makes a valid serving plan that serves what the search said. */
static void
test_serving (void)
{
  static const char json[] =
    "{\"model\": {\"preset\": \"llama-2-70b\"}, \"workload\": {\"mode\": \"inference\", \"prompt_tokens\": 1024,"
    " \"output_tokens\": 256, \"requests_per_s\": 5}, \"system\": {\"accelerator\": \"nvidia-h100-sxm\"}}";
  g_autoptr(GArray) results = NULL;
  g_autoptr(SuanliPlan) plan = suanli_plan_new_from_data (json, -1, "serving", NULL);
  g_autoptr(GPtrArray) errors = g_ptr_array_new_with_free_func ((GDestroyNotify) suanli_plan_issue_free);
  g_autoptr(GPtrArray) warnings = g_ptr_array_new_with_free_func ((GDestroyNotify) suanli_plan_issue_free);
  g_autofree char *patch = NULL;
  const SuanliSearchResult *first = NULL;
  SuanliPlanInputs in;
  SuanliEstimate e;
  guint front = 0;

  resolve (catalog, json, &in);
  results = search_one (&in, NULL, NULL);
  g_assert_cmpuint (results->len, >, 0);
  for (guint i = 0; i < results->len; i++)
    {
      const SuanliSearchResult *a = &g_array_index (results, SuanliSearchResult, i);

      g_assert_true (a->serving);
      g_assert_cmpfloat (a->requests_per_s, >=, 5);
      g_assert_cmpfloat (a->memory_total, <=, a->memory_capacity);
      g_assert_cmpfloat (a->cost_per_million_tokens, >, 0);
      g_assert_true (i == 0 || a->cost_per_hour >= g_array_index (results, SuanliSearchResult, i - 1).cost_per_hour);
      for (guint j = 0; j < results->len && !a->dominated; j++)
        {
          const SuanliSearchResult *b = &g_array_index (results, SuanliSearchResult, j);

          g_assert_false (b->cost_per_hour <= a->cost_per_hour && b->requests_per_s >= a->requests_per_s &&
                          (b->cost_per_hour < a->cost_per_hour || b->requests_per_s > a->requests_per_s));
        }
      if (!a->dominated && first == NULL)
        first = a;
      front += !a->dominated;
    }
  g_assert_cmpuint (front, >=, 2);

  patch = suanli_search_result_patch (first);
  g_assert_nonnull (patch);
  g_assert_null (strstr (patch, "zero_stage"));
  g_assert_true (suanli_plan_apply_merge_patch_data (plan, patch, NULL));
  g_assert_true (suanli_plan_inputs_resolve (plan, catalog, &in, errors, warnings));
  suanli_estimate_compute (&in, &e);
  g_assert_cmpfloat (in.tensor, ==, first->tensor);
  g_assert_cmpfloat_with_epsilon (e.inference.capacity_rps, first->requests_per_s, first->requests_per_s * 1e-9);
}

int
main (int argc, char *argv[])
{
  g_autoptr(GPtrArray) problems = g_ptr_array_new_with_free_func (g_free);
  int status;

  g_test_init (&argc, &argv, NULL);
  catalog = suanli_catalog_new ();
  suanli_catalog_load_builtin (catalog, problems);
  g_assert_cmpuint (problems->len, ==, 0);

  g_test_add_func ("/search/priced-from-offers", test_priced_from_offers);
  g_test_add_func ("/search/user-prices", test_user_prices);
  g_test_add_func ("/search/unpriced-left-out", test_unpriced_left_out);
  g_test_add_func ("/search/fixed-axes", test_fixed_axes);
  g_test_add_func ("/search/currency-not-mixed", test_currency_not_mixed);
  g_test_add_func ("/search/names-not-ids", test_names_not_ids);
  g_test_add_func ("/search/agrees-with-plan", test_agrees_with_plan);
  g_test_add_func ("/search/serving", test_serving);

  status = g_test_run ();
  g_object_unref (catalog);
  return status;
}
