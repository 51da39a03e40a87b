/* bench-estimate.c — plan evaluations per second on one core
 *
 * Two figures: the estimate alone (what a configuration search repeats for every candidate, the
 * inputs resolved once and varied in place), and resolve + estimate + advice from a plan document
 * (what the planner does on every edit).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "suanli-advice.h"
#include "suanli-bench.h"
#include "suanli-catalog.h"
#include "suanli-search.h"

#define EVALUATIONS 200000
#define FULL_EVALUATIONS 2000

typedef struct
{
  SuanliPlanInputs inputs;
  double           checksum;
} Search;

/* Varies parallelism, ZeRO and recomputation the way a search would, estimating each. */
static void
estimate_many (gpointer data)
{
  Search *search = data;
  SuanliEstimate estimate;
  SuanliPlanInputs in = search->inputs;

  for (guint i = 0; i < EVALUATIONS; i++)
    {
      in.tensor = 1 << (i % 4);
      in.pipeline = 1 << ((i / 4) % 3);
      in.data = in.gpus / (in.tensor * in.pipeline);
      in.zero_stage = (i / 12) % 4;
      in.recompute = (i / 48) % 3;
      suanli_estimate_compute (&in, &estimate);
      search->checksum += estimate.step_time_s + estimate.total;
    }
}

typedef struct
{
  SuanliCatalog *catalog;
  SuanliPlan    *plan;
} Full;

typedef struct
{
  SuanliPlanInputs inputs;
  SuanliCatalog   *catalog;
  GHashTable      *prices;
  guint            evaluated;
  guint            found;
} Search2;

/* The planner's "Find configurations": every accelerator in the catalog, up to 1024 GPUs, each
 * given a price so that none is left out. */
static void
search_all (gpointer data)
{
  Search2 *search = data;
  SuanliSearchConstraints constraints = { 0, 0, 1024, FALSE, search->prices };
  g_autoptr(GArray) results = suanli_search_run (&search->inputs, search->catalog, &constraints, &search->evaluated);

  search->found = results->len;
}

static void
resolve_many (gpointer data)
{
  Full *full = data;

  for (guint i = 0; i < FULL_EVALUATIONS; i++)
    {
      g_autoptr(GPtrArray) errors = g_ptr_array_new_with_free_func ((GDestroyNotify) suanli_plan_issue_free);
      g_autoptr(GPtrArray) warnings = g_ptr_array_new_with_free_func ((GDestroyNotify) suanli_plan_issue_free);
      g_autoptr(GPtrArray) advice = NULL;
      SuanliPlanInputs in;
      SuanliEstimate estimate;

      g_assert_true (suanli_plan_inputs_resolve (full->plan, full->catalog, &in, errors, warnings));
      suanli_estimate_compute (&in, &estimate);
      advice = suanli_advice_for (full->plan, full->catalog, &in, &estimate);
    }
}

int
main (int   argc,
      char *argv[])
{
  g_autoptr(GPtrArray) problems = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GPtrArray) errors = g_ptr_array_new_with_free_func ((GDestroyNotify) suanli_plan_issue_free);
  g_autoptr(GPtrArray) warnings = g_ptr_array_new_with_free_func ((GDestroyNotify) suanli_plan_issue_free);
  g_autoptr(SuanliCatalog) catalog = suanli_catalog_new ();
  g_autoptr(SuanliPlan) plan = NULL;
  g_autoptr(SuanliBench) alone = suanli_bench_new ("estimate alone, 200,000 evaluations", "ms");
  g_autoptr(SuanliBench) full = suanli_bench_new ("resolve + estimate + advice, 2,000 evaluations", "ms");
  Search search = { 0 };
  Full full_data;

  suanli_catalog_load_builtin (catalog, problems);
  plan = suanli_plan_new_from_data ("{\"model\": {\"preset\": \"llama-2-70b\"},"
                                    " \"workload\": {\"seq_len\": 4096, \"global_batch\": 1024},"
                                    " \"system\": {\"accelerator\": \"nvidia-h100-sxm\", \"nodes\": 16}}",
                                    -1, "bench", NULL);
  g_assert_true (suanli_plan_inputs_resolve (plan, catalog, &search.inputs, errors, warnings));

  suanli_bench_time (alone, 7, estimate_many, &search);
  suanli_bench_report (alone);
  g_print ("estimate alone: %.0f plan evaluations per second on one core (median)\n",
           EVALUATIONS / (suanli_bench_median (alone) / 1000));

  full_data.catalog = catalog;
  full_data.plan = plan;
  suanli_bench_time (full, 7, resolve_many, &full_data);
  suanli_bench_report (full);
  g_print ("from the document: %.0f plan evaluations per second (median)\n",
           FULL_EVALUATIONS / (suanli_bench_median (full) / 1000));
  {
    g_autoptr(SuanliBench) searching = suanli_bench_new ("full configuration search", "ms");
    g_autoptr(GHashTable) prices = suanli_search_prices_new ();
    g_autoptr(GPtrArray) accelerators = suanli_search_accelerators (&search.inputs, catalog);
    Search2 search2 = { search.inputs, catalog, prices, 0, 0 };

    for (guint i = 0; i < accelerators->len; i++)
      suanli_search_prices_set (prices, suanli_item_get_id (g_ptr_array_index (accelerators, i)), 2.5);
    suanli_bench_time (searching, 7, search_all, &search2);
    suanli_bench_report (searching);
    g_print ("the search evaluates %u configurations; %u fit\n", search2.evaluated, search2.found);
  }
  g_print ("(checksum %g)\n", search.checksum);
  return 0;
}
