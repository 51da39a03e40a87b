/* suanli-cli-plan.c — `suanli-cli plan FILE [--json]` and `suanli-cli plan new …`
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <stdio.h>
#include <glib/gi18n.h>

#include "suanli-catalog.h"
#include "suanli-cli.h"
#include "suanli-estimate-json.h"
#include "suanli-plan-name.h"
#include "suanli-search.h"
#include "suanli-units.h"

/* The standard catalog, its problems printed as warnings. */
SuanliCatalog *
suanli_cli_load_catalog (void)
{
  g_autoptr(GPtrArray) problems = g_ptr_array_new_with_free_func (g_free);
  SuanliCatalog *catalog = suanli_catalog_load_standard (NULL, problems, NULL);

  for (guint i = 0; i < problems->len; i++)
    g_printerr (_("warning: %s\n"), (const char *) g_ptr_array_index (problems, i));
  return catalog;
}

/**
 * suanli_cli_read_plan:
 * @status: (out): the exit status when the plan cannot be read: 2 for a file that is not a valid
 *   plan document, 1 for one that cannot be read
 *
 * Returns: (transfer full) (nullable): the plan in the file named on the command line, or NULL
 * with the error printed.
 */
SuanliPlan *
suanli_cli_read_plan (const char *argument,
                      int        *status)
{
  g_autoptr(GFile) file = g_file_new_for_commandline_arg (argument);
  g_autoptr(GError) error = NULL;
  SuanliPlan *plan = suanli_plan_new_from_file (file, &error);

  if (plan == NULL)
    {
      g_printerr ("%s\n", error->message);
      *status = g_error_matches (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA) ? SUANLI_EXIT_INVALID_INPUT
                                                                            : SUANLI_EXIT_USAGE_OR_IO;
    }
  return plan;
}

static void
print_issues (GPtrArray  *issues,
              const char *prefix)
{
  for (guint i = 0; i < issues->len; i++)
    {
      SuanliPlanIssue *issue = g_ptr_array_index (issues, i);
      g_printerr ("%s%s: %s\n", prefix, issue->field, issue->message);
    }
}

static void
print_human (SuanliPlan             *plan,
             const SuanliPlanInputs *in,
             const SuanliEstimate   *e,
             GPtrArray              *advice)
{
  g_autofree char *total = suanli_format_gib (e->total);
  g_autofree char *capacity = suanli_format_gib (e->capacity);
  g_autofree char *name = suanli_plan_name_dup (plan, in);
  const char *labels[] = { N_("weights"), N_("gradients"), N_("optimizer"), N_("activations"), N_("KV cache"),
                           N_("overhead") };
  double values[] = { e->weights, e->gradients, e->optimizer, e->activations, e->kv_cache, e->overhead };

  /* The name in effect first; a derived one already says the hardware, an edited one may not. */
  g_print ("%s\n", name);
  if (suanli_plan_name_is_edited (plan))
    g_print ("%g × %s\n", in->gpus, in->accelerator_name);
  g_print (e->total <= e->capacity ? _("Fits: %s of %s per GPU\n") : _("Does not fit: %s of %s per GPU\n"), total,
           capacity);
  if (!e->cpu_fits)
    {
      g_autofree char *offloaded = suanli_format_gib (e->cpu_offload_per_node * 1.5);
      g_autofree char *cpu = suanli_format_gib (in->cpu_memory_per_node);
      g_print (_("Does not fit in CPU memory: the offloaded states need %s per node (with a 1.5× margin), %s is there\n"),
               offloaded, cpu);
    }
  for (guint i = 0; i < G_N_ELEMENTS (values); i++)
    {
      g_autofree char *value = suanli_format_gib (values[i]);
      g_print ("  %-12s %s\n", _(labels[i]), value);
    }

  if (suanli_plan_inputs_is_training (in))
    {
      g_autofree char *step = suanli_format_seconds (e->step_time_s);
      g_autofree char *compute = suanli_format_seconds (e->compute_s);
      g_autofree char *comm = suanli_format_seconds (e->exposed_communication_s);
      g_autofree char *bubble = suanli_format_seconds (e->bubble_s);

      g_print (_("Step %s = compute %s + exposed communication %s + bubble %s\n"), step, compute, comm, bubble);
      if (e->offload_s > 0)
        {
          g_autofree char *offload = suanli_format_seconds (e->offload_s);

          g_print (_("  of it offload %s\n"), offload);
        }
      g_print (_("Time to train %.3g days (%.3g–%.3g) · %.4g GPU-hours (%.4g–%.4g)\n"), e->time_to_train_s / 86400,
               e->training_high.time_to_train_s / 86400, e->training_low.time_to_train_s / 86400, e->gpu_hours,
               e->training_high.gpu_hours, e->training_low.gpu_hours);
      g_print (_("Tokens/s %.4g (%.4g–%.4g) · MFU %.1f%%%s\n"), e->tokens_per_s, e->training_low.tokens_per_s,
               e->training_high.tokens_per_s, 100 * e->mfu,
               suanli_estimate_mfu_above_published (in, e) ? _(" (above any published run of its precision)") : "");
      if (in->price_per_gpu_hour > 0)
        g_print (_("Energy %.4g MWh · cost %.4g %s (%.4g–%.4g) · CO₂ %.3g t\n"), e->energy_kwh / 1000, e->cost,
                 in->currency, e->training_high.cost, e->training_low.cost, e->co2_t);
      else
        g_print (_("Energy %.4g MWh · no price to cost it · CO₂ %.3g t\n"), e->energy_kwh / 1000, e->co2_t);
    }
  else
    {
      const SuanliInferenceFigures *f = &e->inference;

      g_print (_("KV cache %.6g bytes per token · at most %.0f sequences of %g tokens per GPU\n"),
               f->kv_bytes_per_token, f->max_concurrent_sequences, in->prompt_tokens + in->output_tokens);
      g_print (_("Time to first token %.3g s (%.3g–%.3g) · per output token %.3g ms (%.3g–%.3g), %s bound\n"),
               f->ttft_s, e->inference_high.ttft_s, e->inference_low.ttft_s, f->tpot_s * 1e3,
               e->inference_high.tpot_s * 1e3, e->inference_low.tpot_s * 1e3,
               f->memory_bound ? _("memory") : _("compute"));
      g_print (_("Tokens/s %.4g (%.4g–%.4g)\n"), f->tokens_per_s, e->inference_low.tokens_per_s,
               e->inference_high.tokens_per_s);
      g_print (_("Capacity %.4g requests/s on %g replicas (batches of %.0f)\n"), f->capacity_rps, e->replicas,
               f->capacity_batch);
      if (e->replicas_needed > 0)
        g_print (_("%g requests/s need %g replicas of %g GPUs: %s\n"), in->requests_per_s, e->replicas_needed,
                 in->tensor * in->pipeline, e->replicas_needed <= e->replicas ? _("this system serves it")
                                                                            : _("more GPUs than this system has"));
    }

  for (guint i = 0; i < advice->len; i++)
    {
      SuanliAdvice *item = g_ptr_array_index (advice, i);
      g_print ("%s %s\n", g_str_equal (item->severity, "warning") ? "⚠" : "ⓘ", item->text);
      if (item->effect != NULL)
        g_print ("    → %s\n", item->effect);
    }
}

static const char * const recompute_names[] = { "none", "selective", "full" };

/* Prints @text left-aligned in @width columns of a terminal (not bytes: names hold "×", and a
 * Chinese character takes two columns). */
void
suanli_cli_print_padded (const char *text,
                         int         width)
{
  int columns = 0;

  for (const char *p = text; *p != '\0'; p = g_utf8_next_char (p))
    columns += g_unichar_iswide (g_utf8_get_char (p)) ? 2 : 1;
  g_print ("%s%*s", text, MAX (0, width - columns), "");
}

static const char *
price_origin (const SuanliSearchResult *r)
{
  switch (r->price_source)
    {
    case SUANLI_SEARCH_PRICE_USER:
      return _("your price");
    case SUANLI_SEARCH_PRICE_INSTANCE:
      return _("list price");
    case SUANLI_SEARCH_PRICE_OFFER:
      return r->price_from_name;
    case SUANLI_SEARCH_PRICE_NONE:
    default:
      return "";
    }
}

/* The Pareto front of time against cost, then how many others were found, and what was left out
 * for want of a price. Names, never ids. */
static void
print_search (GArray     *results,
              guint       evaluated,
              const char *currency,
              GPtrArray  *left_out,
              gboolean    cloud_only)
{
  g_autofree char *per_gpu_hour = g_strdup_printf (_("%s/GPU-h"), currency);
  g_autofree char *per_hour = g_strdup_printf (_("%s/h"), currency);
  g_autofree char *per_million = g_strdup_printf (_("%s/M tok"), currency);
  gboolean serving = results->len > 0 && g_array_index (results, SuanliSearchResult, 0).serving;
  guint front = 0;

  if (serving)
    g_print (_("%u configurations evaluated, %u fit and meet the constraints. The front of requests per second "
               "against cost per hour:\n"), evaluated, results->len);
  else
    g_print (_("%u configurations evaluated, %u fit and meet the constraints. The front of time against cost:\n"),
             evaluated, results->len);
  g_print ("  ");
  suanli_cli_print_padded (_("configuration"), 36);
  if (serving)
    g_print (" %3s %5s %6s %10s %10s %10s %10s  %s\n", "t", "d", _("batch"), _("req/s"), per_hour, per_million,
             per_gpu_hour, _("price from"));
  else
    {
      g_print (" %3s %3s %5s %4s ", "t", "p", "d", "ZeRO");
      suanli_cli_print_padded (_("recompute"), 9);
      g_print (" %10s %14s %10s  %s\n", _("days"), currency, per_gpu_hour, _("price from"));
    }
  for (guint i = 0; i < results->len; i++)
    {
      SuanliSearchResult *r = &g_array_index (results, SuanliSearchResult, i);
      g_autofree char *label = NULL;

      if (r->dominated)
        continue;
      front++;
      label = suanli_search_result_label (r);
      g_print ("  ");
      suanli_cli_print_padded (label, 36);
      if (serving)
        g_print (" %3g %5g %6g %10.2f %10.2f %10.3f %10.2f  %s\n", r->tensor, r->data, r->batch, r->requests_per_s,
                 r->cost_per_hour, r->cost_per_million_tokens, r->price_per_gpu_hour, price_origin (r));
      else
        g_print (" %3g %3g %5g %4d %-9s %10.1f %14.0f %10.2f  %s\n", r->tensor, r->pipeline, r->data, r->zero_stage,
                 recompute_names[r->recompute], r->time_to_train_s / 86400, r->cost, r->price_per_gpu_hour,
                 price_origin (r));
    }
  g_print (ngettext ("%u configuration on the front\n", "%u configurations on the front\n", front), front);
  if (left_out->len > 0)
    {
      g_autoptr(GString) names = g_string_new (NULL);

      for (guint i = 0; i < left_out->len; i++)
        g_string_append_printf (names, "%s%s", i > 0 ? ", " : "",
                                suanli_item_get_name (g_ptr_array_index (left_out, i)));
      if (cloud_only)
        g_print (ngettext ("%u cloud instance without a price in %s was left out (assumptions.cny_per_usd converts "
                           "between USD and CNY): %s\n",
                           "%u cloud instances without a price in %s were left out (assumptions.cny_per_usd converts "
                           "between USD and CNY): %s\n",
                           left_out->len),
                 left_out->len, currency, names->str);
      else
        g_print (ngettext ("%u accelerator without a price in %s was left out (give one with --price ID=AMOUNT): %s\n",
                           "%u accelerators without a price in %s were left out (give them one with --price "
                           "ID=AMOUNT): %s\n", left_out->len),
                 left_out->len, currency, names->str);
    }
}

/* --search and the options that shape it. */
typedef struct
{
  double   budget;
  double   deadline_days;
  int      max_gpus;
  gboolean cloud_only;
  char   **prices;       /* of "ID=AMOUNT" */
  char    *accelerator;
  int      gpus;
  int      tensor;
  int      pipeline;
  int      data;
  int      zero_stage;   /* -1: any */
  char    *recompute;    /* NULL: any */
} SearchOptions;

static void
search_options_clear (SearchOptions *options)
{
  g_strfreev (options->prices);
  g_free (options->accelerator);
  g_free (options->recompute);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (SearchOptions, search_options_clear)

static int
run_search (SearchOptions    *options,
            SuanliPlanInputs *inputs,
            SuanliCatalog    *catalog,
            gboolean          json)
{
  g_autoptr(GHashTable) prices = suanli_search_prices_new ();
  SuanliSearchConstraints constraints = {
    options->budget, options->deadline_days * 86400, options->max_gpus, options->cloud_only, prices,
    options->accelerator, options->gpus, options->tensor, options->pipeline, options->data,
    options->zero_stage >= 0 ? 1u << options->zero_stage : 0, 0,
  };
  g_autoptr(GArray) results = NULL;
  g_autoptr(GPtrArray) left_out = NULL;
  g_autoptr(GError) error = NULL;
  guint evaluated = 0;

  for (guint i = 0; options->prices != NULL && options->prices[i] != NULL; i++)
    if (!suanli_search_prices_parse (prices, options->prices[i], &error))
      {
        g_printerr ("suanli-cli plan --price: %s\n", error->message);
        return SUANLI_EXIT_USAGE_OR_IO;
      }
  if (options->accelerator != NULL &&
      (suanli_catalog_lookup (catalog, options->accelerator) == NULL ||
       suanli_item_get_kind (suanli_catalog_lookup (catalog, options->accelerator)) != SUANLI_ITEM_KIND_ACCELERATOR))
    {
      g_printerr (_("suanli-cli plan --accelerator: no accelerator “%s” in the catalog\n"), options->accelerator);
      return SUANLI_EXIT_USAGE_OR_IO;
    }
  if (options->zero_stage > 3)
    {
      g_printerr (_("suanli-cli plan --zero: a ZeRO stage is 0 to 3, not %d\n"), options->zero_stage);
      return SUANLI_EXIT_USAGE_OR_IO;
    }
  if (options->recompute != NULL)
    {
      guint r = 0;

      while (r < G_N_ELEMENTS (recompute_names) && g_strcmp0 (recompute_names[r], options->recompute) != 0)
        r++;
      if (r == G_N_ELEMENTS (recompute_names))
        {
          g_printerr (_("suanli-cli plan --recompute: none, selective or full, not “%s”\n"), options->recompute);
          return SUANLI_EXIT_USAGE_OR_IO;
        }
      constraints.recomputes = 1u << r;
    }
  results = suanli_search_run (inputs, catalog, &constraints, &evaluated);
  left_out = suanli_search_left_out (inputs, catalog, &constraints);
  if (json)
    {
      g_autoptr(GError) write_error = NULL;
      g_autofree char *text = suanli_search_to_json (results, evaluated, inputs->currency, left_out, &write_error);

      if (text == NULL)
        {
          g_printerr ("suanli-cli plan --search: %s\n", write_error->message);
          return SUANLI_EXIT_INVALID_INPUT;
        }
      g_print ("%s\n", text);
    }
  else
    print_search (results, evaluated, inputs->currency, left_out, options->cloud_only);
  return SUANLI_EXIT_DONE;
}

static int
run_estimate (int    argc,
              char **argv)
{
  gboolean json = FALSE, search = FALSE;
  g_auto(SearchOptions) options = { 0, 0, 0, FALSE, NULL, NULL, 0, 0, 0, 0, -1, NULL };
  g_autofree char *explain = NULL;
  const GOptionEntry entries[] = {
    { "search", 0, 0, G_OPTION_ARG_NONE, &search, N_("Find configurations for the plan's job: hardware, GPUs, "
                                                     "parallelism, ZeRO and recomputation"), NULL },
    { "budget", 0, 0, G_OPTION_ARG_DOUBLE, &options.budget, N_("With --search: the most it may cost"),
      N_("AMOUNT") },
    { "deadline-days", 0, 0, G_OPTION_ARG_DOUBLE, &options.deadline_days, N_("With --search: the longest it may "
                                                                            "take"), N_("DAYS") },
    { "max-gpus", 0, 0, G_OPTION_ARG_INT, &options.max_gpus, N_("With --search: the most GPUs (1024)"), N_("N") },
    { "cloud-only", 0, 0, G_OPTION_ARG_NONE, &options.cloud_only, N_("With --search: only cloud instances, at "
                                                                     "their prices"), NULL },
    { "price", 0, 0, G_OPTION_ARG_STRING_ARRAY, &options.prices, N_("With --search: an accelerator's price per "
                                                                    "GPU-hour, in the plan's currency, instead of "
                                                                    "its cheapest cloud offer (repeatable)"),
      N_("ID=AMOUNT") },
    { "accelerator", 0, 0, G_OPTION_ARG_STRING, &options.accelerator, N_("With --search: only this accelerator"),
      N_("ID") },
    { "gpus", 0, 0, G_OPTION_ARG_INT, &options.gpus, N_("With --search: exactly N GPUs"), N_("N") },
    { "tensor", 0, 0, G_OPTION_ARG_INT, &options.tensor, N_("With --search: tensor parallelism N"), N_("N") },
    { "pipeline", 0, 0, G_OPTION_ARG_INT, &options.pipeline, N_("With --search: pipeline parallelism N"), N_("N") },
    { "data", 0, 0, G_OPTION_ARG_INT, &options.data, N_("With --search: data parallelism N"), N_("N") },
    { "zero", 0, 0, G_OPTION_ARG_INT, &options.zero_stage, N_("With --search: ZeRO stage N (0–3)"), N_("N") },
    { "recompute", 0, 0, G_OPTION_ARG_STRING, &options.recompute, N_("With --search: none, selective or full"),
      N_("MODE") },
    { "json", 0, 0, G_OPTION_ARG_NONE, &json, N_("Print the estimate as suanli-estimate/1 JSON"), NULL },
    { "explain", 0, 0, G_OPTION_ARG_STRING, &explain, N_("Explain one figure, e.g. memory.activations"),
      N_("FIGURE") },
    { NULL }
  };
  g_autoptr(GOptionContext) context = g_option_context_new (N_("FILE"));
  g_autoptr(GPtrArray) errors = g_ptr_array_new_with_free_func ((GDestroyNotify) suanli_plan_issue_free);
  g_autoptr(GPtrArray) warnings = g_ptr_array_new_with_free_func ((GDestroyNotify) suanli_plan_issue_free);
  g_autoptr(GPtrArray) advice = NULL;
  g_autoptr(SuanliCatalog) catalog = NULL;
  g_autoptr(SuanliPlan) plan = NULL;
  g_autoptr(GError) error = NULL;
  int status = SUANLI_EXIT_DONE;
  SuanliPlanInputs inputs;
  SuanliEstimate estimate = { 0 };
  gboolean valid;

  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);
  if (!g_option_context_parse (context, &argc, &argv, &error) || argc != 2)
    {
      g_printerr ("suanli-cli plan: %s\n", error != NULL ? error->message : _("give one plan file"));
      return SUANLI_EXIT_USAGE_OR_IO;
    }

  plan = suanli_cli_read_plan (argv[1], &status);
  if (plan == NULL)
    return status;

  catalog = suanli_cli_load_catalog ();
  valid = suanli_plan_inputs_resolve (plan, catalog, &inputs, errors, warnings);
  if (valid)
    {
      suanli_estimate_compute (&inputs, &estimate);
      advice = suanli_advice_for (plan, catalog, &inputs, &estimate);
    }

  if (search && valid)
    {
      status = run_search (&options, &inputs, catalog, json);
      if (status != SUANLI_EXIT_DONE)
        return status;
    }
  else if (json)
    {
      g_autofree char *name = suanli_plan_name_dup (plan, &inputs);
      g_autoptr(GError) write_error = NULL;
      g_autofree char *text = suanli_estimate_to_json (&inputs, &estimate, name, errors, warnings, advice,
                                                       &write_error);

      if (text == NULL)
        {
          g_printerr ("suanli-cli plan: %s\n", write_error->message);
          return SUANLI_EXIT_INVALID_INPUT;
        }
      g_print ("%s\n", text);
    }
  else if (valid && explain != NULL)
    {
      g_autofree char *text = suanli_estimate_explain (&inputs, &estimate, explain);

      if (text == NULL)
        {
          g_autofree char *known = g_strjoinv (", ", (char **) suanli_estimate_get_figures ());
          g_printerr (_("suanli-cli plan: no figure “%s” (%s)\n"), explain, known);
          return SUANLI_EXIT_USAGE_OR_IO;
        }
      g_print ("%s\n", text);
    }
  else if (valid)
    print_human (plan, &inputs, &estimate, advice);

  print_issues (warnings, _("warning: "));
  print_issues (errors, "");
  return valid ? SUANLI_EXIT_DONE : SUANLI_EXIT_INVALID_INPUT;
}

static int
run_new (int    argc,
         char **argv)
{
  g_autofree char *preset = NULL;
  g_autofree char *accelerator = NULL;
  g_autofree char *output = NULL;
  int gpus = 8;
  const GOptionEntry entries[] = {
    { "preset", 0, 0, G_OPTION_ARG_STRING, &preset, N_("The model, a catalog id"), N_("MODEL") },
    { "accelerator", 0, 0, G_OPTION_ARG_STRING, &accelerator, N_("The accelerator, a catalog id"), N_("ID") },
    { "gpus", 0, 0, G_OPTION_ARG_INT, &gpus, N_("How many accelerators (8 per node)"), N_("N") },
    { "output", 'o', 0, G_OPTION_ARG_FILENAME, &output, N_("Write the plan here instead of to standard output"),
      N_("FILE") },
    { NULL }
  };
  g_autoptr(GOptionContext) context = g_option_context_new (NULL);
  g_autoptr(GPtrArray) errors = g_ptr_array_new_with_free_func ((GDestroyNotify) suanli_plan_issue_free);
  g_autoptr(GPtrArray) warnings = g_ptr_array_new_with_free_func ((GDestroyNotify) suanli_plan_issue_free);
  g_autoptr(SuanliCatalog) catalog = NULL;
  g_autoptr(SuanliPlan) plan = suanli_plan_new ();
  g_autoptr(GError) error = NULL;
  g_autofree char *patch = NULL;
  SuanliPlanInputs inputs;
  int per_node;

  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);
  if (!g_option_context_parse (context, &argc, &argv, &error) || argc != 1 || preset == NULL ||
      accelerator == NULL || gpus < 1)
    {
      g_printerr (_("Usage: suanli-cli plan new --preset MODEL --accelerator ID --gpus N [-o FILE]\n"));
      return SUANLI_EXIT_USAGE_OR_IO;
    }

  per_node = MIN (gpus, 8);
  if (gpus % per_node != 0)
    {
      g_printerr (_("suanli-cli plan new: %d GPUs do not fill nodes of 8\n"), gpus);
      return SUANLI_EXIT_INVALID_INPUT;
    }
  /* No name: the plan is named after its model and hardware until the user names it. */
  patch = g_strdup_printf ("{\"model\": {\"preset\": \"%s\"}, "
                           "\"system\": {\"accelerator\": \"%s\", \"gpus_per_node\": %d, \"nodes\": %d}}",
                           preset, accelerator, per_node, gpus / per_node);
  if (!suanli_plan_apply_merge_patch_data (plan, patch, &error))
    {
      g_printerr ("suanli-cli plan new: %s\n", error->message);
      return SUANLI_EXIT_INVALID_INPUT;
    }

  /* Only ids the catalog knows make a plan. */
  catalog = suanli_cli_load_catalog ();
  suanli_plan_inputs_resolve (plan, catalog, &inputs, errors, warnings);
  for (guint i = 0; i < errors->len; i++)
    {
      SuanliPlanIssue *issue = g_ptr_array_index (errors, i);

      if (g_str_equal (issue->field, "model.preset") || g_str_equal (issue->field, "system.accelerator"))
        {
          g_printerr ("%s: %s\n", issue->field, issue->message);
          return SUANLI_EXIT_INVALID_INPUT;
        }
    }

  if (output == NULL)
    {
      g_autofree char *data = suanli_plan_to_data (plan);
      g_print ("%s", data);
    }
  else
    {
      g_autoptr(GFile) file = g_file_new_for_commandline_arg (output);

      if (!suanli_plan_save (plan, file, &error))
        {
          g_printerr ("%s: %s\n", output, error->message);
          return SUANLI_EXIT_USAGE_OR_IO;
        }
    }
  return SUANLI_EXIT_DONE;
}

int
suanli_cli_plan (int    argc,
                 char **argv)
{
  if (argc >= 2 && g_str_equal (argv[1], "new"))
    return run_new (argc - 1, argv + 1);
  return run_estimate (argc, argv);
}
