/* suanli-report.c — a plan, its estimate and (when there is one) a trace, as a PDF report
 *
 * The report is drawn by the same painters as the screen (stacked bars, flame graph, timeline)
 * onto a cairo PDF surface, page by page through SuanliPageWriter: vectors and real text, with an
 * outline, page numbers and the document's metadata. It is written to a temporary file beside the
 * target and renamed over it only when complete, so a failure leaves nothing behind. The report
 * keeps copies of what it shows, so it may be written on a worker thread while the plan changes.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>
#include <cairo-pdf.h>
#include <glib/gi18n.h>
#include <glib/gstdio.h>
#include <json-glib/json-glib.h>

#include "suanli-advice.h"
#include "suanli-plan-charts.h"
#include "suanli-plan-name.h"
#include "suanli-atomic-file.h"
#include "suanli-report-private.h"
#include "suanli-table-rows.h"
#include "suanli-units.h"

typedef struct
{
  char            *name;
  SuanliPlanInputs inputs;
  SuanliEstimate   estimate;
} ReportComparison;

static void
comparison_free (ReportComparison *comparison)
{
  g_free (comparison->name);
  g_free (comparison);
}

/* ---- the report --------------------------------------------------------------------------- */

/* Every string in the plan's JSON that names a catalog item, once each, in the plan's order. */
static void
collect_item_ids (JsonNode      *node,
                  SuanliCatalog *catalog,
                  GPtrArray     *ids)
{
  if (JSON_NODE_HOLDS_OBJECT (node))
    {
      g_autoptr(GList) members = json_object_get_members (json_node_get_object (node));

      for (GList *l = members; l != NULL; l = l->next)
        collect_item_ids (json_object_get_member (json_node_get_object (node), l->data), catalog, ids);
    }
  else if (JSON_NODE_HOLDS_ARRAY (node))
    {
      JsonArray *array = json_node_get_array (node);

      for (guint i = 0; i < json_array_get_length (array); i++)
        collect_item_ids (json_array_get_element (array, i), catalog, ids);
    }
  else if (json_node_get_value_type (node) == G_TYPE_STRING)
    {
      const char *text = json_node_get_string (node);

      if (suanli_catalog_lookup (catalog, text) != NULL &&
          !g_ptr_array_find_with_equal_func (ids, text, g_str_equal, NULL))
        g_ptr_array_add (ids, g_strdup (text));
    }
}

/**
 * suanli_report_new:
 * @plan: a plan that resolved without errors into @inputs
 * @warnings: (element-type SuanliPlanIssue) (nullable): what resolving it warned of
 *
 * Returns: (transfer full): a report of the plan as it is now.
 */
SuanliReport *
suanli_report_new (SuanliPlan             *plan,
                   SuanliCatalog          *catalog,
                   const SuanliPlanInputs *inputs,
                   GPtrArray              *warnings)
{
  SuanliReport *self = g_new0 (SuanliReport, 1);
  GPtrArray *ids = g_ptr_array_new ();
  g_autoptr(JsonNode) root = json_node_init_object (json_node_alloc (), suanli_plan_get_root (plan));

  g_autofree char *plan_data = suanli_plan_to_data (plan);

  self->plan_name = suanli_plan_name_dup (plan, inputs);
  self->plan = suanli_plan_new_from_data (plan_data, -1, "plan", NULL);
  collect_item_ids (root, catalog, ids);
  g_ptr_array_add (ids, NULL);
  self->item_ids = (char **) g_ptr_array_free (ids, FALSE);
  self->catalog = g_object_ref (catalog);
  self->inputs = *inputs;
  suanli_estimate_compute (&self->inputs, &self->estimate);
  self->advice = suanli_advice_for (plan, catalog, &self->inputs, &self->estimate);
  self->warnings = g_ptr_array_new_with_free_func (g_free);
  for (guint i = 0; warnings != NULL && i < warnings->len; i++)
    {
      SuanliPlanIssue *issue = g_ptr_array_index (warnings, i);

      g_ptr_array_add (self->warnings, g_strdup_printf ("%s: %s", issue->field, issue->message));
    }
  self->comparisons = g_ptr_array_new_with_free_func ((GDestroyNotify) comparison_free);
  return self;
}

void
suanli_report_free (SuanliReport *self)
{
  g_free (self->plan_name);
  g_clear_object (&self->plan);
  g_strfreev (self->item_ids);
  g_object_unref (self->catalog);
  g_ptr_array_unref (self->advice);
  g_ptr_array_unref (self->warnings);
  g_ptr_array_unref (self->comparisons);
  g_clear_object (&self->trace);
  g_free (self->trace_name);
  g_free (self->font_warning);
  g_free (self);
}

void
suanli_report_set_paper (SuanliReport *self,
                         SuanliPaper   paper)
{
  self->paper = paper;
}

gboolean
suanli_paper_from_nick (const char  *nick,
                        SuanliPaper *paper)
{
  if (g_ascii_strcasecmp (nick, "a4") == 0)
    *paper = SUANLI_PAPER_A4;
  else if (g_ascii_strcasecmp (nick, "letter") == 0)
    *paper = SUANLI_PAPER_LETTER;
  else
    return FALSE;
  return TRUE;
}

/* A finished trace to add the profile's pages for; it is only read, and may be read elsewhere too. */
void
suanli_report_set_trace (SuanliReport *self,
                         SuanliTrace  *trace,
                         const char   *name)
{
  g_set_object (&self->trace, trace);
  g_free (self->trace_name);
  self->trace_name = g_strdup (name);
}

/* Another plan (a pinned one, say) to set beside this one. */
void
suanli_report_add_comparison (SuanliReport           *self,
                              const char             *name,
                              const SuanliPlanInputs *inputs,
                              const SuanliEstimate   *estimate)
{
  ReportComparison *comparison = g_new0 (ReportComparison, 1);

  comparison->name = g_strdup (name);
  comparison->inputs = *inputs;
  comparison->estimate = *estimate;
  g_ptr_array_add (self->comparisons, comparison);
}

/* Why Chinese text would print as boxes, or NULL: set by suanli_report_write(). */
const char *
suanli_report_get_font_warning (SuanliReport *self)
{
  return self->font_warning;
}

/* ---- figures as the report prints them ---------------------------------------------------- */

static gboolean
training (SuanliReport *self)
{
  return suanli_plan_inputs_is_training (&self->inputs);
}

/* "12.1 ms–21.2 ms": a range of durations, each in its unit. */
static char *
format_range_seconds (double low,
                      double high)
{
  g_autofree char *from = suanli_format_seconds (low);
  g_autofree char *to = suanli_format_seconds (high);

  return g_strdup_printf ("%s–%s", from, to);
}

static char *
format_range_large (double low,
                    double high)
{
  g_autofree char *from = suanli_format_large (low);
  g_autofree char *to = suanli_format_large (high);

  return g_strdup_printf ("%s–%s", from, to);
}

static char *
format_cost (double cost,
             const char *currency)
{
  if (!(cost > 0))
    return g_strdup (_("no price given"));
  return g_strdup_printf ("%.0f %s", cost, currency);
}

static char *
format_tokens_per_second (double tokens)
{
  g_autofree char *number = suanli_format_large (tokens);

  return g_strdup_printf (_("%s tokens/s"), number);
}

static char *
format_percent (double fraction)
{
  return g_strdup_printf ("%.1f%%", 100 * fraction);
}

/* "87.4 d (71.1–104 d)": a figure (@value) with the range the published runs behind the efficiency give it;
 * the figure alone when the plan gives its own efficiency. */
static char *
with_range (char *value,
            char *low,
            char *high)
{
  g_autofree char *figure = value, *from = low, *to = high;
  g_autofree char *range = suanli_format_range (from, to);

  if (g_str_equal (from, to))
    return g_steal_pointer (&figure);
  return g_strdup_printf ("%s (%s)", figure, range);
}

static char *
format_cost_range (const SuanliEstimate *e,
                   const char           *currency)
{
  if (!(e->cost > 0))
    return g_strdup (_("no price given"));
  if (e->training_high.cost == e->training_low.cost)
    return format_cost (e->cost, currency);
  return g_strdup_printf ("%.0f %s (%.0f–%.0f %s)", e->cost, currency, e->training_high.cost, e->training_low.cost,
                          currency);
}

/* A serving figure per million output tokens, "—" when nothing fits to serve. */
static char *
format_per_million (double      value,
                    const char *unit)
{
  g_autofree char *number = NULL;

  if (!(value > 0))
    return g_strdup ("—");
  number = suanli_format_significant (value, 3);
  return g_strdup_printf ("%s %s", number, unit);
}

static char *
format_mfu (SuanliReport *self)
{
  g_autofree char *mfu = format_percent (self->estimate.mfu);

  if (suanli_estimate_mfu_above_published (&self->inputs, &self->estimate))
    return g_strdup_printf (_("%s ⚠ above any published run of its precision"), mfu);
  return g_steal_pointer (&mfu);
}

/* Where the compute efficiency comes from, for the assumptions table. */
static char *
format_compute_efficiency (SuanliReport *self)
{
  const SuanliEfficiency *f = &self->estimate.efficiency;
  g_autofree char *share = format_percent (f->fraction);

  if (self->inputs.mfu > 0 || self->inputs.achieved_flops > 0)
    return g_strdup (_("set by the plan's MFU or achieved rate"));
  if (!f->modelled)
    return g_strdup_printf (_("%s of peak, the plan's own"), share);
  return g_strdup_printf (_("%s of peak, modelled from published runs (%.2f–%.2f× that rate)"), share, f->low, f->high);
}

/* A figure's name in the appendix, as its card or table names it. */
static const char *
figure_title (const char *figure)
{
  static const struct { const char *figure, *title; } titles[] = {
    { "memory.weights", N_("Weights") }, { "memory.gradients", N_("Gradients") },
    { "memory.optimizer", N_("Optimizer states") }, { "memory.activations", N_("Activations") },
    { "memory.kv_cache", N_("KV cache") }, { "memory.overhead", N_("Framework overhead") },
    { "memory.total", N_("Memory per GPU") },
    { "training.model_flops_per_step", N_("Model FLOPs per step") },
    { "training.hardware_flops_per_step", N_("Hardware FLOPs per step") },
    { "training.step_time_s", N_("Step time") }, { "training.compute_s", N_("Compute") },
    { "training.communication_s", N_("Communication") },
    { "training.exposed_communication_s", N_("Exposed communication") },
    { "training.bubble_s", N_("Pipeline bubble") }, { "training.offload_s", N_("Offload") },
    { "training.tokens_per_s", N_("Throughput") }, { "training.time_to_train_s", N_("Time to train") },
    { "training.mfu", N_("MFU") }, { "training.hfu", N_("HFU") }, { "training.gpu_hours", N_("GPU-hours") },
    { "training.energy_kwh", N_("Energy") }, { "training.cost", N_("Cost") }, { "training.co2_t", N_("CO₂") },
    { "inference.weights_per_gpu", N_("Weights per GPU") },
    { "inference.kv_bytes_per_token", N_("KV cache per token") },
    { "inference.max_concurrent_sequences", N_("Sequences at once per GPU") },
    { "inference.ttft_s", N_("Time to first token") }, { "inference.tpot_s", N_("Time per output token") },
    { "inference.tokens_per_s", N_("Throughput") }, { "inference.capacity_rps", N_("Requests per second") },
    { "inference.cost_per_million_tokens", N_("Cost per million tokens") },
    { "inference.kwh_per_million_tokens", N_("Energy per million tokens") },
  };

  for (guint i = 0; i < G_N_ELEMENTS (titles); i++)
    if (g_str_equal (titles[i].figure, figure))
      return _(titles[i].title);
  return figure;
}

static const char *
mode_title (SuanliMode mode)
{
  switch (mode)
    {
    case SUANLI_MODE_TRAIN:
      return _("training");
    case SUANLI_MODE_LORA:
      return _("LoRA fine-tuning");
    case SUANLI_MODE_QLORA:
      return _("QLoRA fine-tuning");
    case SUANLI_MODE_INFERENCE:
    default:
      return _("inference");
    }
}

/* ---- sections ----------------------------------------------------------------------------- */

static void
write_cover (SuanliReport     *self,
             SuanliPageWriter *writer)
{
  g_autoptr(GDateTime) now = g_date_time_new_now_local ();
  g_autofree char *date = g_date_time_format (now, "%Y-%m-%d");
  g_autofree char *system = g_strdup_printf (_("%g × %s, %s"), self->inputs.gpus, self->inputs.accelerator_name,
                                             mode_title (self->inputs.mode));
  g_autofree char *made = g_strdup_printf (_("Made with Suanli %s on %s"), PACKAGE_VERSION, date);

  suanli_page_writer_space (writer, 160);
  suanli_page_writer_text (writer, _("Configuration report"), SUANLI_TEXT_BODY);
  suanli_page_writer_text (writer, self->plan_name, SUANLI_TEXT_TITLE);
  suanli_page_writer_space (writer, 8);
  suanli_page_writer_text (writer, system, SUANLI_TEXT_BODY);
  suanli_page_writer_space (writer, 24);
  suanli_page_writer_text (writer, made, SUANLI_TEXT_SMALL);
  if (self->font_warning != NULL)
    suanli_page_writer_text (writer, self->font_warning, SUANLI_TEXT_SMALL);
  suanli_page_writer_new_page (writer);
}

/* Warnings first, then the rest, in the advice's own order. */
static GPtrArray *
advice_by_severity (SuanliReport *self)
{
  GPtrArray *sorted = g_ptr_array_new ();

  for (int pass = 0; pass < 2; pass++)
    for (guint i = 0; i < self->advice->len; i++)
      {
        SuanliAdvice *advice = g_ptr_array_index (self->advice, i);

        if (g_str_equal (advice->severity, "warning") == (pass == 0))
          g_ptr_array_add (sorted, advice);
      }
  return sorted;
}

/* Requests per second at capacity, and what a million output tokens cost and draw there. */
static void
write_serving_rows (SuanliReport *self,
                    GPtrArray    *rows)
{
  const SuanliEstimate *e = &self->estimate;

  suanli_table_row_take (rows, 2, g_strdup (_("Requests per second")),
                         e->inference.capacity_rps > 0 ? suanli_format_large (e->inference.capacity_rps) : g_strdup ("—"));
  suanli_table_row_take (rows, 2, g_strdup (_("Cost per million tokens")),
                         self->inputs.price_per_gpu_hour > 0
                           ? format_per_million (e->cost_per_million_tokens, self->inputs.currency)
                           : g_strdup (_("no price given")));
  suanli_table_row_take (rows, 2, g_strdup (_("Energy per million tokens")),
                         format_per_million (e->kwh_per_million_tokens, "kWh"));
}

static void
write_summary (SuanliReport     *self,
               SuanliPageWriter *writer)
{
  const SuanliEstimate *e = &self->estimate;
  g_autoptr(GPtrArray) rows = suanli_table_rows_new ();
  g_autoptr(GPtrArray) advice = advice_by_severity (self);
  g_autofree char *total = suanli_format_gib (e->total);
  g_autofree char *capacity = suanli_format_gib (e->capacity);
  g_autofree char *fit = g_strdup_printf (e->fits ? _("Fits: %s of %s per GPU") : _("Does not fit: %s of %s per GPU"),
                                          total, capacity);
  static const char * const headers[] = { N_("Figure"), N_("Value") };
  const char *translated[] = { _(headers[0]), _(headers[1]) };
  static const double widths[] = { 0.4, 0.6 };

  suanli_page_writer_heading (writer, _("Summary"), 1);
  suanli_page_writer_text (writer, fit, SUANLI_TEXT_BODY);
  if (training (self))
    {
      suanli_table_row_take (rows, 2, g_strdup (_("Time to train")),
                             with_range (suanli_format_days (e->time_to_train_s),
                                         suanli_format_days (e->training_high.time_to_train_s),
                                         suanli_format_days (e->training_low.time_to_train_s)));
      suanli_table_row_take (rows, 2, g_strdup (_("Step time")), suanli_format_seconds (e->step_time_s));
      suanli_table_row_take (rows, 2, g_strdup (_("Throughput")),
                             with_range (format_tokens_per_second (e->tokens_per_s),
                                         suanli_format_large (e->training_low.tokens_per_s),
                                         suanli_format_large (e->training_high.tokens_per_s)));
      suanli_table_row_take (rows, 2, g_strdup (_("MFU")), format_mfu (self));
      suanli_table_row_take (rows, 2, g_strdup (_("Cost")), format_cost_range (e, self->inputs.currency));
      suanli_table_row_take (rows, 2, g_strdup (_("Energy")), suanli_format_energy_kwh (e->energy_kwh));
      suanli_table_row_take (rows, 2, g_strdup (_("GPU-hours")),
                             with_range (suanli_format_large (e->gpu_hours), suanli_format_large (e->training_high.gpu_hours),
                                         suanli_format_large (e->training_low.gpu_hours)));
    }
  else
    {
      suanli_table_row_take (rows, 2, g_strdup (_("Throughput")),
                             format_tokens_per_second (e->inference.tokens_per_s));
      suanli_table_row_take (rows, 2, g_strdup (_("Time to first token")), suanli_format_seconds (e->inference.ttft_s));
      suanli_table_row_take (rows, 2, g_strdup (_("Time per output token")), suanli_format_seconds (e->inference.tpot_s));
      write_serving_rows (self, rows);
    }
  suanli_page_writer_table (writer, translated, widths, 2, rows);
  if (advice->len > 0)
    {
      suanli_page_writer_heading (writer, _("What matters most"), 2);
      for (guint i = 0; i < advice->len && i < 3; i++)
        {
          SuanliAdvice *item = g_ptr_array_index (advice, i);
          g_autofree char *line = g_strdup_printf ("%s %s%s%s", g_str_equal (item->severity, "warning") ? "⚠" : "•",
                                                   item->text, item->effect != NULL ? " → " : "",
                                                   item->effect != NULL ? item->effect : "");

          suanli_page_writer_text (writer, line, SUANLI_TEXT_BODY);
        }
    }
}

static void
write_item (SuanliReport     *self,
            SuanliPageWriter *writer,
            SuanliItem       *item)
{
  static const char * const spec_headers[] = { N_("Spec"), N_("Value"), N_("Source"), N_("Confidence") };
  static const double spec_widths[] = { 0.2, 0.22, 0.42, 0.16 };
  static const char * const claim_headers[] = { N_("Article"), N_("Claim"), N_("Value"), N_("Verdict") };
  static const double claim_widths[] = { 0.22, 0.46, 0.14, 0.18 };
  const char *specs[G_N_ELEMENTS (spec_headers)], *claims[G_N_ELEMENTS (claim_headers)];
  g_autoptr(GPtrArray) rows = suanli_table_rows_new ();
  g_autofree char *title = g_strdup_printf ("%s %s", suanli_item_get_vendor (item), suanli_item_get_name (item));

  for (guint i = 0; i < G_N_ELEMENTS (spec_headers); i++)
    specs[i] = _(spec_headers[i]), claims[i] = _(claim_headers[i]);
  suanli_page_writer_heading (writer, title, 2);
  if (suanli_text_get (suanli_item_get_summary (item)) != NULL)
    suanli_page_writer_text (writer, suanli_text_get (suanli_item_get_summary (item)), SUANLI_TEXT_SMALL);
  for (guint i = 0; i < suanli_item_get_n_specs (item); i++)
    {
      const SuanliSpec *spec = suanli_item_get_spec_at (item, i);
      const SuanliSpecKey *key = suanli_item_kind_find_spec_key (suanli_item_get_kind (item), spec->key);

      /* The spec's label as the catalog page shows it, not its key. */
      suanli_table_row_take (rows, 4, g_strdup (key != NULL ? _(key->title) : spec->key), suanli_spec_format_value (spec, SUANLI_MEMORY_UNITS_GIB),
                             g_strdup (spec->source),
                             g_strdup (suanli_confidence_get_title (spec->confidence)));
    }
  if (rows->len > 0)
    suanli_page_writer_table (writer, specs, spec_widths, G_N_ELEMENTS (spec_headers), rows);
  g_ptr_array_set_size (rows, 0);
  for (guint i = 0; i < suanli_item_get_n_claims (item); i++)
    {
      const SuanliClaim *claim = suanli_item_get_claim_at (item, i);

      const char *note = suanli_text_get (&claim->note);

      /* The quote stays verbatim, in its article's language; what it means and why the verdict is
       * given in the report's language beside it. */
      suanli_table_row_take (rows, 4, g_strdup (claim->seed),
                             note != NULL ? g_strdup_printf ("“%s”\n%s", claim->quote, note) : g_strdup (claim->quote),
                             suanli_claim_format_figure (claim, claim->value),
                             g_strdup (suanli_verdict_get_title (claim->verdict)));
    }
  if (rows->len > 0)
    suanli_page_writer_table (writer, claims, claim_widths, G_N_ELEMENTS (claim_headers), rows);
}

static void
write_system (SuanliReport     *self,
              SuanliPageWriter *writer)
{
  suanli_page_writer_heading (writer, _("System"), 1);
  suanli_page_writer_text (writer, _("The catalog items the plan uses, with every figure, where it comes from and how "
                                     "sure it is; and what the source articles claimed about them, checked."),
                           SUANLI_TEXT_SMALL);
  for (guint i = 0; self->item_ids[i] != NULL; i++)
    write_item (self, writer, suanli_catalog_lookup (self->catalog, self->item_ids[i]));
}

/* The choices that make a plan fit or not, each stated: optimizer, offload, sharding details, the
 * fine-tune's data or the load to serve, and whose memory accounting the figures follow. */
static void
write_job_choices (GPtrArray              *rows,
                   const SuanliPlanInputs *in)
{
  static const char * const optimizers[] = {
    [SUANLI_OPTIMIZER_ADAMW] = N_("AdamW (fp32, master weights)"), [SUANLI_OPTIMIZER_ADAMW_8BIT] = N_("8-bit AdamW"),
    [SUANLI_OPTIMIZER_SGD] = N_("SGD with momentum"), [SUANLI_OPTIMIZER_ADAMW_NO_MASTER] = N_("AdamW (fp32, no master weights)"),
    [SUANLI_OPTIMIZER_ADAMW_BF16] = N_("AdamW (bf16 states)"), [SUANLI_OPTIMIZER_ADAFACTOR] = N_("Adafactor"),
  };
  static const char * const offloads[] = {
    N_("None"), N_("Optimizer to CPU"), N_("Optimizer and parameters to CPU"), N_("To NVMe"),
  };
  static const char * const memory_models[] = { N_("ZeRO paper"), N_("DeepSpeed's estimators"), N_("PyTorch FSDP") };

  if (!suanli_plan_inputs_is_training (in))
    {
      suanli_table_row_take (rows, 2, g_strdup (_("KV cache precision")), g_strdup (suanli_precision_to_nick (in->kv_cache)));
      if (in->requests_per_s > 0)
        suanli_table_row_take (rows, 2, g_strdup (_("Requests per second to serve")), suanli_format_large (in->requests_per_s));
      return;
    }
  if (suanli_plan_inputs_is_finetune (in))
    {
      g_autofree char *dataset = suanli_format_count (in->dataset_tokens);
      g_autofree char *epochs = suanli_format_significant (in->epochs, 3);

      suanli_table_row_take (rows, 2, g_strdup (_("Dataset, epochs")), g_strdup_printf (_("%s tokens × %s"), dataset, epochs));
    }
  if (suanli_plan_inputs_is_lora (in))
    suanli_table_row_take (rows, 2, g_strdup (_("LoRA rank, targets")),
                           g_strdup_printf ("%g, %s", in->lora_rank, in->lora_targets == SUANLI_LORA_ALL_LINEAR
                                                                       ? _("All linear layers") : _("Attention projections")));
  suanli_table_row_take (rows, 2, g_strdup (_("Optimizer")), g_strdup (_(optimizers[in->optimizer])));
  suanli_table_row_take (rows, 2, g_strdup (_("Offload")), g_strdup (_(offloads[in->offload])));
  suanli_table_row_take (rows, 2, g_strdup (_("Sequence parallel, virtual stages")),
                         g_strdup_printf ("%s, %g", in->sequence_parallel ? _("yes") : _("no"), in->virtual_stages));
  suanli_table_row_take (rows, 2, g_strdup (_("Memory accounting")), g_strdup (_(memory_models[in->memory_model])));
  suanli_table_row_take (rows, 2, g_strdup (_("Goodput")), format_percent (in->goodput));
}

static void
write_job (SuanliReport     *self,
           SuanliPageWriter *writer)
{
  const SuanliPlanInputs *in = &self->inputs;
  g_autoptr(GPtrArray) rows = suanli_table_rows_new ();
  static const char * const recompute[] = { N_("none"), N_("selective"), N_("full") };
  static const char * const headers[] = { N_("Setting"), N_("Value") };
  const char *translated[] = { _(headers[0]), _(headers[1]) };
  static const double widths[] = { 0.4, 0.6 };

  suanli_page_writer_heading (writer, _("Job and assumptions"), 1);
  suanli_table_row_take (rows, 2, g_strdup (_("Job")), g_strdup (mode_title (in->mode)));
  suanli_table_row_take (rows, 2, g_strdup (_("Parameters")), suanli_format_count (in->parameters));
  suanli_table_row_take (rows, 2, g_strdup (_("Layers, hidden size, heads")),
                         g_strdup_printf ("%g, %g, %g", in->layers, in->hidden, in->heads));
  if (suanli_plan_inputs_is_training (in))
    {
      suanli_table_row_take (rows, 2, g_strdup (_("Sequence length, global batch, micro-batch")),
                             g_strdup_printf ("%g, %g, %g", in->seq_len, in->global_batch, in->micro_batch));
      suanli_table_row_take (rows, 2, g_strdup (_("Training tokens")), suanli_format_count (in->tokens));
    }
  else
    suanli_table_row_take (rows, 2, g_strdup (_("Prompt and output tokens, batch")),
                           g_strdup_printf ("%g, %g, %g", in->prompt_tokens, in->output_tokens, in->batch));
  suanli_table_row_take (rows, 2, g_strdup (_("Precision: compute, weights")),
                         g_strdup_printf ("%s, %s", suanli_precision_to_nick (in->compute), suanli_precision_to_nick (in->weights)));
  suanli_table_row_take (rows, 2, g_strdup (_("GPUs")),
                         g_strdup_printf (_("%g (%g per node × %g nodes)"), in->gpus, in->gpus_per_node, in->nodes));
  suanli_table_row_take (rows, 2, g_strdup (_("Parallelism: tensor, pipeline, data, expert")),
                         g_strdup_printf ("%g, %g, %g, %g", in->tensor, in->pipeline, in->data, in->expert));
  suanli_table_row_take (rows, 2, g_strdup (_("ZeRO stage, recomputation, FlashAttention")),
                         g_strdup_printf ("%d, %s, %s", in->zero_stage, _(recompute[in->recompute]),
                                          in->flash_attention ? _("yes") : _("no")));
  write_job_choices (rows, in);
  suanli_table_row_take (rows, 2, g_strdup (_("Peak dense FLOP/s per GPU")),
                         g_strdup_printf (_("%.4g TFLOP/s"), in->peak_flops / 1e12));
  if (in->mfu > 0)
    suanli_table_row_take (rows, 2, g_strdup (_("Assumed MFU")), format_percent (in->mfu));
  if (in->achieved_flops > 0)
    suanli_table_row_take (rows, 2, g_strdup (_("Assumed achieved FLOP/s per GPU")),
                           g_strdup_printf (_("%.4g TFLOP/s"), in->achieved_flops / 1e12));
  suanli_table_row_take (rows, 2, g_strdup (_("Compute efficiency")), format_compute_efficiency (self));
  suanli_table_row_take (rows, 2, g_strdup (_("Efficiency: communication, memory")),
                         g_strdup_printf ("%.2f, %.2f", in->comm_efficiency, in->memory_efficiency));
  suanli_table_row_take (rows, 2, g_strdup (_("Framework overhead per GPU")), suanli_format_gib (in->framework_overhead));
  suanli_table_row_take (rows, 2, g_strdup (_("PUE, grid carbon intensity")),
                         g_strdup_printf (_("%.2f, %.3g t CO₂ per MWh"), in->pue, in->grid_tco2_per_mwh));
  suanli_table_row_take (rows, 2, g_strdup (_("Price per GPU-hour")),
                         in->price_per_gpu_hour > 0 ? g_strdup_printf ("%.2f %s", in->price_per_gpu_hour, in->currency)
                                                    : g_strdup (_("not given")));
  suanli_page_writer_table (writer, translated, widths, 2, rows);
  for (guint i = 0; i < self->warnings->len; i++)
    {
      g_autofree char *line = g_strdup_printf ("⚠ %s", (const char *) g_ptr_array_index (self->warnings, i));

      suanli_page_writer_text (writer, line, SUANLI_TEXT_SMALL);
    }
}

static void
draw_bar (cairo_t  *cr,
          double    width,
          double    height,
          gpointer  data)
{
  SuanliChartStyle style = { FALSE, NULL, 8 };

  suanli_stacked_bar_draw (data, cr, width, &style);
}

static void
write_memory_and_step (SuanliReport     *self,
                       SuanliPageWriter *writer)
{
  const SuanliEstimate *e = &self->estimate;
  g_autoptr(SuanliStackedBar) bar = suanli_stacked_bar_new ();

  suanli_page_writer_heading (writer, _("Memory per GPU"), 1);
  {
    g_autofree char *total = suanli_format_gib (e->total);
    g_autofree char *capacity = suanli_format_gib (e->capacity);
    g_autofree char *line = g_strdup_printf (_("On the most loaded GPU: %s of %s."), total, capacity);

    suanli_page_writer_text (writer, line, SUANLI_TEXT_BODY);
  }
  suanli_plan_charts_fill_memory (bar, e);
  suanli_page_writer_drawing (writer, 64, draw_bar, bar);
  if (!training (self))
    return;
  suanli_page_writer_heading (writer, _("Step time"), 1);
  suanli_plan_charts_fill_step (bar, e);
  suanli_page_writer_drawing (writer, 64, draw_bar, bar);
  {
    g_autoptr(GPtrArray) rows = suanli_table_rows_new ();
    static const char * const headers[] = { N_("Communication"), N_("Per step") };
    const char *translated[] = { _(headers[0]), _(headers[1]) };
    static const double widths[] = { 0.6, 0.4 };

    suanli_table_row_take (rows, 2, g_strdup (_("data parallel")), suanli_format_seconds (e->data_parallel_s));
    suanli_table_row_take (rows, 2, g_strdup (_("tensor parallel")), suanli_format_seconds (e->tensor_parallel_s));
    suanli_table_row_take (rows, 2, g_strdup (_("pipeline")), suanli_format_seconds (e->pipeline_s));
    suanli_table_row_take (rows, 2, g_strdup (_("expert parallel")), suanli_format_seconds (e->expert_s));
    suanli_table_row_take (rows, 2, g_strdup (_("all of it, overlapped or not")), suanli_format_seconds (e->communication_s));
    suanli_table_row_take (rows, 2, g_strdup (_("exposed: not hidden behind compute")),
                           suanli_format_seconds (e->exposed_communication_s));
    suanli_page_writer_table (writer, translated, widths, 2, rows);
  }
}

static void
write_inference (SuanliReport     *self,
                 SuanliPageWriter *writer)
{
  const SuanliEstimate *e = &self->estimate;
  g_autoptr(GPtrArray) rows = suanli_table_rows_new ();
  static const char * const headers[] = { N_("Figure"), N_("Expected"), N_("Range") };
  const char *translated[] = { _(headers[0]), _(headers[1]), _(headers[2]) };
  static const double widths[] = { 0.4, 0.25, 0.35 };

  if (training (self))
    return;
  suanli_page_writer_heading (writer, _("Inference"), 1);
  suanli_table_row_take (rows, 3, g_strdup (_("Time to first token")), suanli_format_seconds (e->inference.ttft_s),
                         format_range_seconds (e->inference_high.ttft_s, e->inference_low.ttft_s));
  suanli_table_row_take (rows, 3, g_strdup (_("Time per output token")), suanli_format_seconds (e->inference.tpot_s),
                         format_range_seconds (e->inference_high.tpot_s, e->inference_low.tpot_s));
  suanli_table_row_take (rows, 3, g_strdup (_("Throughput")), format_tokens_per_second (e->inference.tokens_per_s),
                         format_range_large (e->inference_low.tokens_per_s, e->inference_high.tokens_per_s));
  suanli_table_row_take (rows, 3, g_strdup (_("KV cache per token")), suanli_format_gib (e->inference.kv_bytes_per_token),
                         NULL);
  suanli_table_row_take (rows, 3, g_strdup (_("Sequences at once per GPU")),
                         g_strdup_printf ("%.0f", e->inference.max_concurrent_sequences), NULL);
  suanli_table_row_take (rows, 3, g_strdup (_("Bound by")),
                         g_strdup (e->inference.memory_bound ? _("memory bandwidth") : _("compute")), NULL);
  suanli_page_writer_table (writer, translated, widths, 3, rows);
}

static void
write_cost (SuanliReport     *self,
            SuanliPageWriter *writer)
{
  const SuanliEstimate *e = &self->estimate;
  g_autoptr(GPtrArray) rows = suanli_table_rows_new ();
  static const char * const headers[] = { N_("Figure"), N_("Value") };
  const char *translated[] = { _(headers[0]), _(headers[1]) };
  static const double widths[] = { 0.4, 0.6 };

  if (!training (self))
    {
      suanli_page_writer_heading (writer, _("Serving cost and energy"), 1);
      write_serving_rows (self, rows);
      suanli_page_writer_table (writer, translated, widths, 2, rows);
      return;
    }
  suanli_page_writer_heading (writer, _("Cost, energy and CO₂"), 1);
  suanli_table_row_take (rows, 2, g_strdup (_("GPU-hours")),
                         with_range (suanli_format_large (e->gpu_hours), suanli_format_large (e->training_high.gpu_hours),
                                     suanli_format_large (e->training_low.gpu_hours)));
  suanli_table_row_take (rows, 2, g_strdup (_("Cost")), format_cost_range (e, self->inputs.currency));
  suanli_table_row_take (rows, 2, g_strdup (_("Energy, with the data centre's PUE")),
                         suanli_format_energy_kwh (e->energy_kwh));
  suanli_table_row_take (rows, 2, g_strdup (_("CO₂")), suanli_format_tonnes (e->co2_t));
  suanli_page_writer_table (writer, translated, widths, 2, rows);
}

static void
write_advice (SuanliReport     *self,
              SuanliPageWriter *writer)
{
  g_autoptr(GPtrArray) advice = advice_by_severity (self);

  if (advice->len == 0)
    return;
  suanli_page_writer_heading (writer, _("Advice"), 1);
  for (guint i = 0; i < advice->len; i++)
    {
      SuanliAdvice *item = g_ptr_array_index (advice, i);
      g_autofree char *line = g_strdup_printf ("%s %s", g_str_equal (item->severity, "warning") ? "⚠" : "•", item->text);

      suanli_page_writer_text (writer, line, SUANLI_TEXT_BODY);
      if (item->effect != NULL)
        {
          g_autofree char *effect = g_strdup_printf ("   → %s", item->effect);

          suanli_page_writer_text (writer, effect, SUANLI_TEXT_SMALL);
        }
    }
}

/* One column of the comparison: a row per figure. */
static char *
comparison_cell (const SuanliPlanInputs *in,
                 const SuanliEstimate   *e,
                 guint                   row)
{
  gboolean train = suanli_plan_inputs_is_training (in);

  switch (row)
    {
    case 0:
      return g_strdup_printf ("%g × %s", in->gpus, in->accelerator_name);
    case 1:
      {
        g_autofree char *total = suanli_format_gib (e->total);

        return g_strdup_printf ("%s%s", total, e->fits ? "" : " ⚠");
      }
    case 2:
      return suanli_format_seconds (train ? e->step_time_s : e->inference.tpot_s);
    case 3:
      return suanli_format_large (train ? e->tokens_per_s : e->inference.tokens_per_s);
    case 4:
      return train ? suanli_format_days (e->time_to_train_s) : suanli_format_seconds (e->inference.ttft_s);
    case 5:
      return train ? format_percent (e->mfu) : g_strdup ("—");
    case 6:
    default:
      if (!train)
        return in->price_per_gpu_hour > 0 ? format_per_million (e->cost_per_million_tokens, in->currency)
                                          : g_strdup (_("no price given"));
      return format_cost (e->cost, in->currency);
    }
}

static void
write_comparisons (SuanliReport     *self,
                   SuanliPageWriter *writer)
{
  static const char * const figures[] = {
    N_("System"), N_("Memory per GPU"), N_("Step, or time per output token"), N_("Tokens/s"),
    N_("Time to train, or to first token"), N_("MFU"), N_("Cost"),
  };
  guint n_columns = MIN (self->comparisons->len, 4) + 2;
  g_autofree const char **headers = g_new0 (const char *, n_columns);
  g_autofree double *widths = g_new0 (double, n_columns);
  g_autoptr(GPtrArray) rows = suanli_table_rows_new ();

  if (self->comparisons->len == 0)
    return;
  suanli_page_writer_heading (writer, _("Compared with pinned plans"), 1);
  headers[0] = "";
  headers[1] = self->plan_name;
  widths[0] = 0.22;
  for (guint c = 1; c < n_columns; c++)
    {
      widths[c] = 0.78 / (n_columns - 1);
      if (c >= 2)
        headers[c] = ((ReportComparison *) g_ptr_array_index (self->comparisons, c - 2))->name;
    }
  for (guint r = 0; r < G_N_ELEMENTS (figures); r++)
    {
      char **row = g_new0 (char *, n_columns + 1);

      row[0] = g_strdup (_(figures[r]));
      row[1] = comparison_cell (&self->inputs, &self->estimate, r);
      for (guint c = 2; c < n_columns; c++)
        {
          ReportComparison *other = g_ptr_array_index (self->comparisons, c - 2);

          row[c] = comparison_cell (&other->inputs, &other->estimate, r);
        }
      g_ptr_array_add (rows, row);
    }
  suanli_page_writer_table (writer, headers, widths, n_columns, rows);
}

static void
write_appendix (SuanliReport     *self,
                SuanliPageWriter *writer)
{
  const char * const *figures = suanli_estimate_get_figures ();

  suanli_page_writer_heading (writer, _("Appendix: how each figure was worked out"), 1);
  suanli_page_writer_text (writer, _("Every formula used, with this plan's values, and the work it comes from."),
                           SUANLI_TEXT_SMALL);
  for (guint i = 0; figures[i] != NULL; i++)
    {
      g_autofree char *explanation = NULL;

      if (g_str_has_prefix (figures[i], training (self) ? "inference." : "training."))
        continue;
      /* Serving keeps no gradients and no optimizer: nothing to work out. */
      if (!training (self) && (g_str_equal (figures[i], "memory.gradients") || g_str_equal (figures[i], "memory.optimizer")))
        continue;
      explanation = suanli_estimate_explain (&self->inputs, &self->estimate, figures[i]);
      if (explanation == NULL)
        continue;
      suanli_page_writer_heading (writer, figure_title (figures[i]), 2);
      suanli_page_writer_text (writer, explanation, SUANLI_TEXT_MONOSPACE);
    }
}

/* ---- writing ------------------------------------------------------------------------------ */

typedef struct
{
  int     fd;
  int     error;   /* errno of the first failed write, or 0 */
} Sink;

static cairo_status_t
write_to_sink (void                *closure,
               const unsigned char *data,
               unsigned int         length)
{
  Sink *sink = closure;

  while (length > 0 && sink->error == 0)
    {
      ssize_t written = write (sink->fd, data, length);

      if (written < 0 && errno == EINTR)
        continue;
      if (written <= 0)
        {
          sink->error = written < 0 ? errno : EIO;
          break;
        }
      data += written;
      length -= (unsigned int) written;
    }
  return sink->error == 0 ? CAIRO_STATUS_SUCCESS : CAIRO_STATUS_WRITE_ERROR;
}

static void
set_metadata (SuanliReport    *self,
              cairo_surface_t *surface)
{
  g_autoptr(GDateTime) now = g_date_time_new_now_local ();
  g_autofree char *date = g_date_time_format_iso8601 (now);
  g_autofree char *title = g_strdup_printf (_("%s — configuration report"), self->plan_name);
  g_autofree char *subject = g_strdup_printf (_("%s on %g × %s: memory, time, cost and energy"),
                                              mode_title (self->inputs.mode), self->inputs.gpus,
                                              self->inputs.accelerator_name);
  g_autofree char *creator = g_strdup_printf ("Suanli %s", PACKAGE_VERSION);
  const char *author = g_get_real_name ();

  cairo_pdf_surface_set_metadata (surface, CAIRO_PDF_METADATA_TITLE, title);
  cairo_pdf_surface_set_metadata (surface, CAIRO_PDF_METADATA_AUTHOR,
                                  author != NULL && !g_str_equal (author, "Unknown") ? author : g_get_user_name ());
  cairo_pdf_surface_set_metadata (surface, CAIRO_PDF_METADATA_SUBJECT, subject);
  cairo_pdf_surface_set_metadata (surface, CAIRO_PDF_METADATA_CREATOR, creator);
  cairo_pdf_surface_set_metadata (surface, CAIRO_PDF_METADATA_CREATE_DATE, date);
}

static guint
draw_report (SuanliReport    *self,
             cairo_surface_t *surface,
             double           width,
             double           height)
{
  g_autofree char *footer = g_strdup_printf ("%s · %s", self->plan_name, _("Suanli configuration report"));
  g_autoptr(SuanliPageWriter) writer = suanli_page_writer_new (surface, width, height, footer);

  suanli_page_writer_set_language (writer, suanli_text_prefers_chinese () ? "zh-cn" : "en");

  /* Chinese headings with no font that has them would print as boxes: say so instead. */
  g_clear_pointer (&self->font_warning, g_free);
  if (suanli_page_writer_count_missing_glyphs (writer, "算力配置报告") > 0)
    self->font_warning = g_strdup (_("No font with Chinese characters was found: Chinese text in this report shows as "
                                     "boxes. Install one (fonts-noto-cjk on Debian) and export again."));
  set_metadata (self, surface);
  write_cover (self, writer);
  write_summary (self, writer);
  write_system (self, writer);
  write_job (self, writer);
  write_memory_and_step (self, writer);
  write_inference (self, writer);
  write_cost (self, writer);
  write_advice (self, writer);
  write_comparisons (self, writer);
  if (self->trace != NULL)
    suanli_report_write_trace (self, writer);
  write_appendix (self, writer);
  return suanli_page_writer_finish (writer);
}

/**
 * suanli_report_write:
 * @path: where the PDF goes; replaced only once the whole report is written
 * @n_pages: (out) (optional): how many pages it has
 *
 * Returns: whether the report was written; if not, nothing is left at @path or beside it, and
 * @error says why.
 */
gboolean
suanli_report_write (SuanliReport  *self,
                     const char    *path,
                     guint         *n_pages,
                     GError       **error)
{
  g_autofree char *shown = g_filename_display_name (path);
  double width = self->paper == SUANLI_PAPER_LETTER ? 612 : 595.276;
  double height = self->paper == SUANLI_PAPER_LETTER ? 792 : 841.89;
  SuanliAtomicFile *file = suanli_atomic_file_new (path, error);
  cairo_surface_t *surface;
  cairo_status_t status;
  Sink sink = { -1, 0 };
  guint pages;

  if (file == NULL)
    return FALSE;
  sink.fd = suanli_atomic_file_get_fd (file);
  surface = cairo_pdf_surface_create_for_stream (write_to_sink, &sink, width, height);
  pages = draw_report (self, surface, width, height);
  cairo_surface_finish (surface);
  status = cairo_surface_status (surface);
  cairo_surface_destroy (surface);
  if (sink.error != 0 || status != CAIRO_STATUS_SUCCESS)
    {
      suanli_atomic_file_abandon (file);
      if (sink.error != 0)
        g_set_error (error, G_IO_ERROR, g_io_error_from_errno (sink.error), _("Cannot write %s: %s"), shown,
                     g_strerror (sink.error));
      else
        g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED, _("Cannot draw the report: %s"), cairo_status_to_string (status));
      return FALSE;
    }
  if (!suanli_atomic_file_commit (file, error))
    return FALSE;
  if (n_pages != NULL)
    *n_pages = pages;
  return TRUE;
}
