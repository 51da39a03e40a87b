/* suanli-search-window.c — "Find Configurations": the search over the plan's hardware and layout
 *
 * The window reads the plan and never edits it: choosing a result emits "apply" with the result's
 * JSON merge patch, and whoever opened the window applies it (the planner page, through the plan,
 * so that it can be undone like any other change).
 *
 * Prices are the engine's (suanli-search.c): each accelerator's cheapest cloud offer in the
 * catalog, or the user's own price, kept in the "accelerator-prices" setting with its currency so
 * that a price given for a USD plan is never read as CNY. The engine never reads settings: the
 * window passes the prices in the plan's currency through the constraints.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>
#include <glib/gi18n.h>

#include "suanli-close-shortcuts.h"
#include "suanli-drawing-setup.h"
#include "suanli-plan-inputs.h"
#include "suanli-scatter-chart.h"
#include "suanli-search.h"
#include "suanli-search-window.h"
#include "suanli-units.h"

#define PRICES_KEY "accelerator-prices"
#define RATE_KEY "cny-per-usd"
#define MAX_ROWS 30

struct _SuanliSearchWindow
{
  AdwWindow           parent_instance;

  SuanliPlan         *plan;
  SuanliCatalog      *catalog;
  GSettings          *settings;
  SuanliPlanInputs    inputs;
  GArray             *results;
  GPtrArray          *accelerators;   /* of SuanliItem: those the plan's job can be estimated on */
  GHashTable         *prices;         /* the user's, in the plan's currency */
  GPtrArray          *price_spins;    /* of GtkSpinButton, one an accelerator */
  SuanliScatterChart *chart;
  gboolean            updating;       /* the window itself is setting its controls */

  GtkSpinButton      *budget;
  GtkSpinButton      *deadline;
  GtkSpinButton      *max_gpus;
  GtkSwitch          *cloud_only;
  AdwComboRow        *accelerator;
  GtkSpinButton      *gpus;
  AdwComboRow        *tensor;
  AdwComboRow        *pipeline;
  GtkSpinButton      *data;
  AdwComboRow        *zero;
  AdwComboRow        *recompute;
  AdwPreferencesGroup *prices_group;
  AdwExpanderRow     *prices_row;
  GtkLabel           *status;
  GtkWidget          *note;
  GtkLabel           *note_label;
  GtkListBox         *list;
  GtkWidget          *area;
};

enum { APPLY, N_SIGNALS };
static guint signals[N_SIGNALS];

G_DEFINE_FINAL_TYPE (SuanliSearchWindow, suanli_search_window, ADW_TYPE_WINDOW)

static const double tensor_choices[] = { 1, 2, 4, 8 };
static const double pipeline_choices[] = { 1, 2, 4, 8, 16 };
/* As a choice, and in a result's description. */
static const char * const recompute_choices[] = { N_("None"), N_("Selective"), N_("Full") };
static const char * const recompute_names[] = { N_("no recompute"), N_("selective recompute"), N_("full recompute") };

/* ---- prices ------------------------------------------------------------------------------- */

/* The exchange rate: the plan's own, else the user's from settings (0 there: none). */
static void
read_rate (SuanliSearchWindow *self)
{
  if (self->inputs.cny_per_usd == 0)
    self->inputs.cny_per_usd = g_settings_get_double (self->settings, RATE_KEY);
}

/* The user's prices in the plan's currency, from settings. */
static void
read_prices (SuanliSearchWindow *self)
{
  g_autoptr(GVariant) prices = g_settings_get_value (self->settings, PRICES_KEY);
  GVariantIter iter;
  const char *id, *currency;
  double price;

  g_hash_table_remove_all (self->prices);
  g_variant_iter_init (&iter, prices);
  while (g_variant_iter_next (&iter, "{&s(d&s)}", &id, &price, &currency))
    if (g_str_equal (currency, self->inputs.currency))
      suanli_search_prices_set (self->prices, id, price);
}

/* Keeps @price (0: none) as the user's for @id in the plan's currency; prices for other
 * accelerators stay as they are. */
static void
write_price (SuanliSearchWindow *self,
             const char         *id,
             double              price)
{
  g_autoptr(GVariant) old = g_settings_get_value (self->settings, PRICES_KEY);
  GVariantBuilder builder;
  GVariantIter iter;
  const char *key, *currency;
  double value;

  g_variant_builder_init (&builder, G_VARIANT_TYPE ("a{s(ds)}"));
  g_variant_iter_init (&iter, old);
  while (g_variant_iter_next (&iter, "{&s(d&s)}", &key, &value, &currency))
    if (!g_str_equal (key, id))
      g_variant_builder_add (&builder, "{s(ds)}", key, value, currency);
  if (price > 0)
    g_variant_builder_add (&builder, "{s(ds)}", id, price, self->inputs.currency);
  g_settings_set_value (self->settings, PRICES_KEY, g_variant_builder_end (&builder));
}

static char *
format_price (double      price,
              const char *currency)
{
  return g_strdup_printf (_("%.2f %s per GPU-hour"), price, currency);
}

/* Each accelerator's price as the search will use it, and the count of each kind in the
 * expander's subtitle. */
static void
update_prices (SuanliSearchWindow *self)
{
  guint offers = 0, mine = 0, none = 0;
  g_autofree char *summary = NULL;
  g_autofree char *description = NULL;

  self->updating = TRUE;
  for (guint i = 0; i < self->accelerators->len; i++)
    {
      SuanliItem *accelerator = g_ptr_array_index (self->accelerators, i);
      GtkSpinButton *spin = g_ptr_array_index (self->price_spins, i);
      GtkWidget *row = gtk_widget_get_ancestor (GTK_WIDGET (spin), ADW_TYPE_ACTION_ROW);
      GtkWidget *reset = g_object_get_data (G_OBJECT (spin), "reset");
      SuanliSearchPrice price;
      g_autofree char *figure = NULL;
      g_autofree char *subtitle = NULL;

      suanli_search_price_of (self->catalog, self->prices, self->inputs.currency, self->inputs.cny_per_usd,
                              accelerator, &price);
      figure = format_price (price.per_gpu_hour, self->inputs.currency);
      switch (price.source)
        {
        case SUANLI_SEARCH_PRICE_USER:
          subtitle = g_strdup_printf (_("Your price: %s"), figure);
          mine++;
          break;
        case SUANLI_SEARCH_PRICE_OFFER:
          if (price.converted)
            /* Translators: "3.10 USD per GPU-hour, from ecs.gn8v (converted at 7.1 CNY per USD)". */
            subtitle = g_strdup_printf (_("%s, from %s (converted at %g CNY per USD)"), figure,
                                        suanli_item_get_name (price.offer), self->inputs.cny_per_usd);
          else
            subtitle = g_strdup_printf (_("%s, from %s"), figure, suanli_item_get_name (price.offer));
          offers++;
          break;
        case SUANLI_SEARCH_PRICE_NONE:
        case SUANLI_SEARCH_PRICE_INSTANCE:
        default:
          subtitle = g_strdup_printf (_("No price in %s: left out of the search"), self->inputs.currency);
          none++;
          break;
        }
      adw_action_row_set_subtitle (ADW_ACTION_ROW (row), subtitle);
      gtk_widget_set_visible (reset, price.source == SUANLI_SEARCH_PRICE_USER);
      gtk_spin_button_set_value (spin, price.per_gpu_hour);
    }
  self->updating = FALSE;

  summary = g_strdup_printf (_("%u from cloud offers · %u yours · %u without a price"), offers, mine, none);
  adw_expander_row_set_subtitle (self->prices_row, summary);
  if (self->inputs.cny_per_usd > 0)
    description = g_strdup_printf (_("Per GPU-hour in %s: each accelerator’s cheapest cloud offer in the catalog, "
                                     "unless you set your own. Offers in another currency are converted at %g CNY "
                                     "per USD (Preferences). The plan’s own price is not used, so that every "
                                     "accelerator is priced the same way."),
                                   self->inputs.currency, self->inputs.cny_per_usd);
  else
    description = g_strdup_printf (_("Per GPU-hour in %s: each accelerator’s cheapest cloud offer in the catalog, "
                                     "unless you set your own. Offers in another currency are left out until you "
                                     "set an exchange rate in Preferences. The plan’s own price is not used, so "
                                     "that every accelerator is priced the same way."),
                                   self->inputs.currency);
  adw_preferences_group_set_description (self->prices_group, description);
}

static void
on_price_changed (GtkSpinButton *spin,
                  gpointer       user_data)
{
  SuanliSearchWindow *self = SUANLI_SEARCH_WINDOW (user_data);

  if (!self->updating)
    write_price (self, g_object_get_data (G_OBJECT (spin), "accelerator"), gtk_spin_button_get_value (spin));
}

static void
on_price_reset (GtkButton *button,
                gpointer   user_data)
{
  write_price (SUANLI_SEARCH_WINDOW (user_data), g_object_get_data (G_OBJECT (button), "accelerator"), 0);
}

static void
on_prices_setting_changed (GSettings  *settings,
                           const char *key,
                           gpointer    user_data)
{
  suanli_search_window_search (SUANLI_SEARCH_WINDOW (user_data));
}

static void
add_price_row (SuanliSearchWindow *self,
               SuanliItem         *accelerator)
{
  GtkWidget *row = adw_action_row_new ();
  GtkWidget *spin = gtk_spin_button_new_with_range (0, 10000, 0.01);
  GtkWidget *reset = gtk_button_new_from_icon_name ("edit-undo-symbolic");
  const char *id = suanli_item_get_id (accelerator);

  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), suanli_item_get_name (accelerator));
  gtk_spin_button_set_digits (GTK_SPIN_BUTTON (spin), 2);
  gtk_widget_set_valign (spin, GTK_ALIGN_CENTER);
  gtk_accessible_update_property (GTK_ACCESSIBLE (spin), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  suanli_item_get_name (accelerator), -1);
  g_object_set_data_full (G_OBJECT (spin), "accelerator", g_strdup (id), g_free);
  g_object_set_data (G_OBJECT (spin), "reset", reset);
  g_signal_connect (spin, "value-changed", G_CALLBACK (on_price_changed), self);
  gtk_widget_set_valign (reset, GTK_ALIGN_CENTER);
  gtk_widget_add_css_class (reset, "flat");
  gtk_widget_set_tooltip_text (reset, _("Use the catalog’s price"));
  gtk_accessible_update_property (GTK_ACCESSIBLE (reset), GTK_ACCESSIBLE_PROPERTY_LABEL, _("Use the catalog’s price"),
                                  -1);
  g_object_set_data_full (G_OBJECT (reset), "accelerator", g_strdup (id), g_free);
  g_signal_connect (reset, "clicked", G_CALLBACK (on_price_reset), self);
  adw_action_row_add_suffix (ADW_ACTION_ROW (row), reset);
  adw_action_row_add_suffix (ADW_ACTION_ROW (row), spin);
  adw_expander_row_add_row (self->prices_row, row);
  g_ptr_array_add (self->price_spins, spin);
}

/* ---- results ------------------------------------------------------------------------------ */

static void
draw_chart (GtkDrawingArea *area,
            cairo_t        *cr,
            int             width,
            int             height,
            gpointer        user_data)
{
  SuanliChartStyle style = suanli_drawing_style ();

  suanli_scatter_chart_draw (user_data, cr, width, height, &style);
}

static char *
describe_price (SuanliSearchWindow       *self,
                const SuanliSearchResult *r)
{
  g_autofree char *figure = format_price (r->price_per_gpu_hour, self->inputs.currency);

  switch (r->price_source)
    {
    case SUANLI_SEARCH_PRICE_USER:
      return g_strdup_printf (_("%s, your price"), figure);
    case SUANLI_SEARCH_PRICE_OFFER:
      return g_strdup_printf (_("%s, from %s"), figure, r->price_from_name);
    case SUANLI_SEARCH_PRICE_INSTANCE:
    case SUANLI_SEARCH_PRICE_NONE:
    default:
      return g_strdup_printf (_("%s, list price"), figure);
    }
}

/* "37.3 days · 394 k USD": the two axes of the front; for serving, "23.1 requests/s · 63.3 USD an
 * hour · 2.98 USD per million tokens". */
static char *
describe_time_and_cost (SuanliSearchWindow       *self,
                        const SuanliSearchResult *r)
{
  g_autofree char *time = NULL;
  g_autofree char *cost = NULL;

  if (r->serving)
    return g_strdup_printf (_("%.3g requests/s · %.3g %s an hour · %.3g %s per million tokens"), r->requests_per_s,
                            r->cost_per_hour, self->inputs.currency, r->cost_per_million_tokens, self->inputs.currency);
  time = suanli_format_days (r->time_to_train_s);
  cost = suanli_format_large (r->cost);
  return g_strdup_printf ("%s · %s %s", time, cost, self->inputs.currency);
}

static gboolean
on_chart_tooltip (GtkWidget  *widget,
                  int         x,
                  int         y,
                  gboolean    keyboard,
                  GtkTooltip *tooltip,
                  gpointer    user_data)
{
  SuanliSearchWindow *self = SUANLI_SEARCH_WINDOW (user_data);
  int index = suanli_scatter_chart_hit (self->chart, x, y);
  SuanliSearchResult *r;
  g_autofree char *label = NULL;
  g_autofree char *figures = NULL;
  g_autofree char *price = NULL;
  g_autofree char *text = NULL;

  if (self->results == NULL || index < 0 || (guint) index >= self->results->len)
    return FALSE;
  r = &g_array_index (self->results, SuanliSearchResult, index);
  label = suanli_search_result_label (r);
  figures = describe_time_and_cost (self, r);
  price = describe_price (self, r);
  text = g_strdup_printf ("%s\n%s\n%s", label, figures, price);
  gtk_tooltip_set_text (tooltip, text);
  return TRUE;
}

static void
apply_clicked (GtkButton *button,
               gpointer   user_data)
{
  SuanliSearchWindow *self = SUANLI_SEARCH_WINDOW (user_data);
  guint index = GPOINTER_TO_UINT (g_object_get_data (G_OBJECT (button), "index"));
  g_autofree char *patch = NULL;

  if (self->results == NULL || index >= self->results->len)
    return;
  patch = suanli_search_result_patch (&g_array_index (self->results, SuanliSearchResult, index));
  if (patch == NULL)
    return;
  g_signal_emit (self, signals[APPLY], 0, patch);
}

static void
add_result_row (SuanliSearchWindow       *self,
                const SuanliSearchResult *r,
                guint                     index)
{
  GtkWidget *item = adw_action_row_new ();
  GtkWidget *apply = gtk_button_new_with_mnemonic (_("_Apply"));
  g_autofree char *label = suanli_search_result_label (r);
  g_autofree char *figures = describe_time_and_cost (self, r);
  g_autofree char *price = describe_price (self, r);
  g_autofree char *subtitle = r->serving
    ? g_strdup_printf (_("%s · t %g, %g replicas of %g sequences each\n%s"), figures, r->tensor, r->data, r->batch, price)
    : g_strdup_printf (_("%s · t %g, p %g, d %g · ZeRO %d · %s\n%s"), figures, r->tensor, r->pipeline, r->data,
                       r->zero_stage, _(recompute_names[r->recompute]), price);

  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (item), label);
  adw_action_row_set_subtitle (ADW_ACTION_ROW (item), subtitle);
  adw_action_row_set_subtitle_lines (ADW_ACTION_ROW (item), 2);
  gtk_widget_set_valign (apply, GTK_ALIGN_CENTER);
  g_object_set_data (G_OBJECT (apply), "index", GUINT_TO_POINTER (index));
  g_signal_connect (apply, "clicked", G_CALLBACK (apply_clicked), self);
  adw_action_row_add_suffix (ADW_ACTION_ROW (item), apply);
  gtk_list_box_append (self->list, item);
}

/* "12 accelerators without a price were left out": the note above the results, or none. */
static void
update_note (SuanliSearchWindow            *self,
             const SuanliSearchConstraints *constraints)
{
  g_autoptr(GPtrArray) left_out = suanli_search_left_out (&self->inputs, self->catalog, constraints);
  g_autofree char *text = NULL;

  gtk_widget_set_visible (self->note, left_out->len > 0);
  if (left_out->len == 0)
    return;
  if (constraints->cloud_only)
    text = g_strdup_printf (ngettext ("%u cloud instance without a price in %s was left out: an exchange rate "
                                      "in Preferences converts other currencies.",
                                      "%u cloud instances without a price in %s were left out: an exchange rate "
                                      "in Preferences converts other currencies.",
                                      left_out->len),
                            left_out->len, self->inputs.currency);
  else
    text = g_strdup_printf (ngettext ("%u accelerator without a price in %s was left out: set a price for it under "
                                      "Prices to compare it.",
                                      "%u accelerators without a price in %s were left out: set a price for them "
                                      "under Prices to compare them.", left_out->len),
                            left_out->len, self->inputs.currency);
  gtk_label_set_text (self->note_label, text);
}

static double
choice (AdwComboRow  *row,
        const double *values)
{
  guint selected = adw_combo_row_get_selected (row);

  return selected == 0 || selected == GTK_INVALID_LIST_POSITION ? 0 : values[selected - 1];
}

/* A bit mask with the bit of the choice, or 0 for "Any". */
static guint
choice_bit (AdwComboRow *row)
{
  guint selected = adw_combo_row_get_selected (row);

  return selected == 0 || selected == GTK_INVALID_LIST_POSITION ? 0 : 1u << (selected - 1);
}

/* A serving plan has no deadline, ZeRO stage or recomputation to search, and its budget is what
 * the GPUs cost an hour: the rows say so. */
static void
show_serving_controls (SuanliSearchWindow *self,
                       gboolean            serving)
{
  GtkWidget *budget_row = gtk_widget_get_ancestor (GTK_WIDGET (self->budget), ADW_TYPE_ACTION_ROW);

  gtk_widget_set_sensitive (gtk_widget_get_ancestor (GTK_WIDGET (self->deadline), ADW_TYPE_ACTION_ROW), !serving);
  gtk_widget_set_sensitive (GTK_WIDGET (self->zero), !serving);
  gtk_widget_set_sensitive (GTK_WIDGET (self->recompute), !serving);
  if (budget_row != NULL)
    adw_action_row_set_subtitle (ADW_ACTION_ROW (budget_row),
                                 serving ? _("For serving: the most all the GPUs may cost an hour") : "");
}

/* Runs the search on the plan as it is now, with the window's constraints, and shows what it
 * found. */
void
suanli_search_window_search (SuanliSearchWindow *self)
{
  SuanliSearchConstraints constraints = { 0 };
  g_autoptr(GPtrArray) errors = g_ptr_array_new_with_free_func ((GDestroyNotify) suanli_plan_issue_free);
  g_autoptr(GPtrArray) warnings = g_ptr_array_new_with_free_func ((GDestroyNotify) suanli_plan_issue_free);
  GtkListBoxRow *row;
  guint evaluated = 0, shown = 0, selected;
  gboolean serving;

  g_return_if_fail (SUANLI_IS_SEARCH_WINDOW (self));

  g_clear_pointer (&self->results, g_array_unref);
  suanli_scatter_chart_clear (self->chart);
  while ((row = gtk_list_box_get_row_at_index (self->list, 0)) != NULL)
    gtk_list_box_remove (self->list, GTK_WIDGET (row));
  gtk_widget_queue_draw (self->area);
  if (!suanli_plan_inputs_resolve (self->plan, self->catalog, &self->inputs, errors, warnings))
    {
      gtk_label_set_text (self->status, _("The plan has errors: correct them in the planner to search."));
      gtk_widget_set_visible (self->note, FALSE);
      return;
    }
  read_rate (self);
  read_prices (self);
  update_prices (self);

  selected = adw_combo_row_get_selected (self->accelerator);
  constraints.budget = gtk_spin_button_get_value (self->budget);
  constraints.deadline_s = gtk_spin_button_get_value (self->deadline) * 86400;
  constraints.max_gpus = gtk_spin_button_get_value (self->max_gpus);
  constraints.cloud_only = gtk_switch_get_active (self->cloud_only);
  constraints.prices = self->prices;
  constraints.accelerator = selected > 0 && selected <= self->accelerators->len
                            ? suanli_item_get_id (g_ptr_array_index (self->accelerators, selected - 1)) : NULL;
  constraints.gpus = gtk_spin_button_get_value (self->gpus);
  constraints.tensor = choice (self->tensor, tensor_choices);
  constraints.pipeline = choice (self->pipeline, pipeline_choices);
  constraints.data = gtk_spin_button_get_value (self->data);
  constraints.zero_stages = choice_bit (self->zero);
  constraints.recomputes = choice_bit (self->recompute);

  self->results = suanli_search_run (&self->inputs, self->catalog, &constraints, &evaluated);
  serving = !suanli_plan_inputs_is_training (&self->inputs);
  show_serving_controls (self, serving);
  {
    g_autofree char *per_hour = g_strdup_printf (_("%s an hour"), self->inputs.currency);

    if (serving)
      suanli_scatter_chart_set_axes (self->chart, _("Requests per second"), TRUE, per_hour, TRUE);
    else
      suanli_scatter_chart_set_axes (self->chart, _("Time to train (days)"), TRUE, self->inputs.currency, TRUE);
  }
  for (guint i = 0; i < self->results->len; i++)
    {
      SuanliSearchResult *r = &g_array_index (self->results, SuanliSearchResult, i);
      g_autofree char *label = suanli_search_result_label (r);

      if (serving)
        suanli_scatter_chart_add_point (self->chart, r->requests_per_s, MAX (r->cost_per_hour, 1e-3), NAN, label);
      else
        suanli_scatter_chart_add_point (self->chart, r->time_to_train_s / 86400, MAX (r->cost, 1e-3), NAN, label);
      suanli_scatter_chart_set_faded (self->chart, i, r->dominated);
      if (!r->dominated && shown < MAX_ROWS)
        {
          add_result_row (self, r, i);
          shown++;
        }
    }
  {
    g_autofree char *text = serving
      ? g_strdup_printf (_("%u serving configurations evaluated; %u fit and meet the constraints; %u on the front of "
                           "requests per second against cost an hour"), evaluated, self->results->len, shown)
      : g_strdup_printf (_("%u configurations evaluated; %u fit and meet the constraints; %u on "
                           "the front of time against cost"),
                         evaluated, self->results->len, shown);
    gtk_label_set_text (self->status, text);
  }
  update_note (self, &constraints);
}

/* ---- controls ----------------------------------------------------------------------------- */

static void
on_control_changed (SuanliSearchWindow *self)
{
  if (!self->updating && self->plan != NULL)
    suanli_search_window_search (self);
}

static GtkSpinButton *
spin_row (GtkWidget  *group,
          const char *name,
          const char *title,
          const char *subtitle,
          double      value,
          double      max,
          double      step)
{
  GtkWidget *row = adw_action_row_new ();
  GtkWidget *spin = gtk_spin_button_new_with_range (0, max, step);

  gtk_spin_button_set_value (GTK_SPIN_BUTTON (spin), value);
  gtk_widget_set_valign (spin, GTK_ALIGN_CENTER);
  gtk_widget_set_name (spin, name);
  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), title);
  if (subtitle != NULL)
    adw_action_row_set_subtitle (ADW_ACTION_ROW (row), subtitle);
  adw_action_row_add_suffix (ADW_ACTION_ROW (row), spin);
  adw_action_row_set_activatable_widget (ADW_ACTION_ROW (row), spin);
  adw_preferences_group_add (ADW_PREFERENCES_GROUP (group), row);
  return GTK_SPIN_BUTTON (spin);
}

/* A combo row of "Any" and @n @values (or @names, when not NULL). */
static AdwComboRow *
choice_row (GtkWidget           *group,
            const char          *name,
            const char          *title,
            const double        *values,
            const char * const  *names,
            guint                n)
{
  GtkWidget *row = adw_combo_row_new ();
  g_autoptr(GtkStringList) model = gtk_string_list_new (NULL);

  gtk_string_list_append (model, _("Any"));
  for (guint i = 0; i < n; i++)
    {
      g_autofree char *text = names != NULL ? g_strdup (_(names[i]))
                                            : g_strdup_printf ("%g", values[i]);

      gtk_string_list_append (model, text);
    }
  adw_combo_row_set_model (ADW_COMBO_ROW (row), G_LIST_MODEL (model));
  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), title);
  gtk_widget_set_name (row, name);
  adw_preferences_group_add (ADW_PREFERENCES_GROUP (group), row);
  return ADW_COMBO_ROW (row);
}

static void
connect_controls (SuanliSearchWindow *self)
{
  GtkSpinButton *spins[] = { self->budget, self->deadline, self->max_gpus, self->gpus, self->data };
  AdwComboRow *combos[] = { self->accelerator, self->tensor, self->pipeline, self->zero, self->recompute };

  for (guint i = 0; i < G_N_ELEMENTS (spins); i++)
    g_signal_connect_swapped (spins[i], "value-changed", G_CALLBACK (on_control_changed), self);
  for (guint i = 0; i < G_N_ELEMENTS (combos); i++)
    g_signal_connect_swapped (combos[i], "notify::selected", G_CALLBACK (on_control_changed), self);
  g_signal_connect_swapped (self->cloud_only, "notify::active", G_CALLBACK (on_control_changed), self);
}

static void
on_set_prices_clicked (SuanliSearchWindow *self)
{
  adw_expander_row_set_expanded (self->prices_row, TRUE);
  gtk_widget_grab_focus (GTK_WIDGET (self->prices_row));
}

static GtkWidget *
build_controls (SuanliSearchWindow *self)
{
  static const double zero_stages[] = { 0, 1, 2, 3 };
  GtkWidget *left, *group, *cloud_row, *cloud_switch, *scrolled;

  left = gtk_box_new (GTK_ORIENTATION_VERTICAL, 18);
  g_object_set (left, "margin-start", 12, "margin-end", 12, "margin-top", 12, "margin-bottom", 12, NULL);

  group = adw_preferences_group_new ();
  adw_preferences_group_set_title (ADW_PREFERENCES_GROUP (group), _("Constraints"));
  adw_preferences_group_set_description (ADW_PREFERENCES_GROUP (group),
                                         _("The job stays as planned; the search varies the hardware, the GPU count, "
                                           "tensor and pipeline parallelism, ZeRO and recomputation. 0 means no limit."));
  self->budget = spin_row (group, "budget", _("Budget"), NULL, 0, 1e12, 1000);
  self->deadline = spin_row (group, "deadline", _("Deadline (days)"), NULL, 0, 3650, 1);
  self->max_gpus = spin_row (group, "max-gpus", _("Most GPUs"), NULL, 1024, 65536, 8);
  cloud_row = adw_action_row_new ();
  cloud_switch = gtk_switch_new ();
  gtk_widget_set_valign (cloud_switch, GTK_ALIGN_CENTER);
  gtk_widget_set_name (cloud_switch, "cloud-only");
  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (cloud_row), _("Cloud instances only, at their prices"));
  adw_action_row_add_suffix (ADW_ACTION_ROW (cloud_row), cloud_switch);
  adw_action_row_set_activatable_widget (ADW_ACTION_ROW (cloud_row), cloud_switch);
  adw_preferences_group_add (ADW_PREFERENCES_GROUP (group), cloud_row);
  self->cloud_only = GTK_SWITCH (cloud_switch);
  gtk_box_append (GTK_BOX (left), group);

  group = adw_preferences_group_new ();
  adw_preferences_group_set_title (ADW_PREFERENCES_GROUP (group), _("Fixed"));
  adw_preferences_group_set_description (ADW_PREFERENCES_GROUP (group),
                                         _("Fix what you have decided; “Any” and 0 leave it to the search."));
  self->accelerator = choice_row (group, "accelerator", _("Accelerator"), NULL, NULL, 0);
  self->gpus = spin_row (group, "gpus", _("GPUs"), NULL, 0, 65536, 8);
  self->tensor = choice_row (group, "tensor", _("Tensor parallel"), tensor_choices, NULL,
                             G_N_ELEMENTS (tensor_choices));
  self->pipeline = choice_row (group, "pipeline", _("Pipeline parallel"), pipeline_choices, NULL,
                               G_N_ELEMENTS (pipeline_choices));
  self->data = spin_row (group, "data", _("Data parallel"), NULL, 0, 65536, 1);
  self->zero = choice_row (group, "zero", _("ZeRO stage"), zero_stages, NULL, G_N_ELEMENTS (zero_stages));
  self->recompute = choice_row (group, "recompute", _("Recomputation"), NULL, recompute_choices,
                                G_N_ELEMENTS (recompute_choices));
  gtk_box_append (GTK_BOX (left), group);

  group = adw_preferences_group_new ();
  adw_preferences_group_set_title (ADW_PREFERENCES_GROUP (group), _("Prices"));
  self->prices_group = ADW_PREFERENCES_GROUP (group);
  self->prices_row = ADW_EXPANDER_ROW (adw_expander_row_new ());
  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (self->prices_row), _("Price per GPU-hour"));
  gtk_widget_set_name (GTK_WIDGET (self->prices_row), "prices");
  adw_preferences_group_add (ADW_PREFERENCES_GROUP (group), GTK_WIDGET (self->prices_row));
  gtk_box_append (GTK_BOX (left), group);

  scrolled = gtk_scrolled_window_new ();
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scrolled), left);
  gtk_scrolled_window_set_policy (GTK_SCROLLED_WINDOW (scrolled), GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC);
  return scrolled;
}

static GtkWidget *
build_results (SuanliSearchWindow *self)
{
  GtkWidget *right, *header, *button, *status, *note, *note_label, *note_button, *icon, *list, *scrolled, *results;

  right = gtk_box_new (GTK_ORIENTATION_VERTICAL, 12);
  g_object_set (right, "margin-start", 12, "margin-end", 12, "margin-top", 12, "margin-bottom", 12, NULL);

  header = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 12);
  status = gtk_label_new (NULL);
  gtk_label_set_wrap (GTK_LABEL (status), TRUE);
  gtk_label_set_xalign (GTK_LABEL (status), 0);
  gtk_widget_set_hexpand (status, TRUE);
  gtk_widget_add_css_class (status, "dim-label");
  self->status = GTK_LABEL (status);
  gtk_box_append (GTK_BOX (header), status);
  button = gtk_button_new_with_mnemonic (_("_Search"));
  gtk_widget_add_css_class (button, "suggested-action");
  gtk_widget_add_css_class (button, "pill");
  gtk_widget_set_valign (button, GTK_ALIGN_CENTER);
  g_signal_connect_swapped (button, "clicked", G_CALLBACK (suanli_search_window_search), self);
  gtk_box_append (GTK_BOX (header), button);
  gtk_box_append (GTK_BOX (right), header);

  /* What was left out, and the way to bring it in. */
  note = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 12);
  gtk_widget_add_css_class (note, "card");
  note_label = gtk_label_new (NULL);
  gtk_label_set_wrap (GTK_LABEL (note_label), TRUE);
  gtk_label_set_xalign (GTK_LABEL (note_label), 0);
  gtk_widget_set_hexpand (note_label, TRUE);
  g_object_set (note_label, "margin-start", 12, "margin-top", 8, "margin-bottom", 8, NULL);
  icon = gtk_image_new_from_icon_name ("dialog-information-symbolic");
  gtk_widget_set_margin_start (icon, 12);
  gtk_box_append (GTK_BOX (note), icon);
  gtk_box_append (GTK_BOX (note), note_label);
  note_button = gtk_button_new_with_mnemonic (_("Set _Prices…"));
  gtk_widget_set_valign (note_button, GTK_ALIGN_CENTER);
  gtk_widget_set_margin_end (note_button, 12);
  g_signal_connect_swapped (note_button, "clicked", G_CALLBACK (on_set_prices_clicked), self);
  gtk_box_append (GTK_BOX (note), note_button);
  gtk_widget_set_visible (note, FALSE);
  self->note = note;
  self->note_label = GTK_LABEL (note_label);
  gtk_box_append (GTK_BOX (right), note);

  self->area = gtk_drawing_area_new ();
  gtk_widget_set_hexpand (self->area, TRUE);
  gtk_widget_set_size_request (self->area, -1, 300);
  gtk_drawing_area_set_draw_func (GTK_DRAWING_AREA (self->area), draw_chart, self->chart, NULL);
  gtk_widget_set_has_tooltip (self->area, TRUE);
  g_signal_connect (self->area, "query-tooltip", G_CALLBACK (on_chart_tooltip), self);
  gtk_box_append (GTK_BOX (right), self->area);

  list = gtk_list_box_new ();
  gtk_list_box_set_selection_mode (GTK_LIST_BOX (list), GTK_SELECTION_NONE);
  gtk_widget_add_css_class (list, "boxed-list");
  gtk_widget_set_name (list, "results");
  gtk_widget_set_valign (list, GTK_ALIGN_START);
  self->list = GTK_LIST_BOX (list);
  results = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);
  gtk_box_append (GTK_BOX (results), list);
  scrolled = gtk_scrolled_window_new ();
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scrolled), results);
  gtk_scrolled_window_set_policy (GTK_SCROLLED_WINDOW (scrolled), GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC);
  gtk_widget_set_vexpand (scrolled, TRUE);
  gtk_box_append (GTK_BOX (right), scrolled);
  return right;
}

/* ---- life cycle --------------------------------------------------------------------------- */

static void
suanli_search_window_dispose (GObject *object)
{
  SuanliSearchWindow *self = SUANLI_SEARCH_WINDOW (object);

  if (self->settings != NULL)
    g_signal_handlers_disconnect_by_data (self->settings, self);
  g_clear_object (&self->settings);
  g_clear_object (&self->plan);
  g_clear_object (&self->catalog);

  G_OBJECT_CLASS (suanli_search_window_parent_class)->dispose (object);
}

static void
suanli_search_window_finalize (GObject *object)
{
  SuanliSearchWindow *self = SUANLI_SEARCH_WINDOW (object);

  g_clear_pointer (&self->results, g_array_unref);
  g_clear_pointer (&self->accelerators, g_ptr_array_unref);
  g_hash_table_unref (self->prices);
  g_ptr_array_unref (self->price_spins);
  suanli_scatter_chart_free (self->chart);

  G_OBJECT_CLASS (suanli_search_window_parent_class)->finalize (object);
}

static void
suanli_search_window_class_init (SuanliSearchWindowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = suanli_search_window_dispose;
  object_class->finalize = suanli_search_window_finalize;

  /**
   * SuanliSearchWindow::apply:
   * @patch: the JSON merge patch that makes the plan use the chosen configuration
   */
  signals[APPLY] = g_signal_new ("apply", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                                 G_TYPE_NONE, 1, G_TYPE_STRING);
}

static void
suanli_search_window_init (SuanliSearchWindow *self)
{
  GtkWidget *box, *paned;

  self->chart = suanli_scatter_chart_new ();
  self->prices = suanli_search_prices_new ();
  self->price_spins = g_ptr_array_new ();
  gtk_window_set_title (GTK_WINDOW (self), _("Find Configurations"));
  gtk_window_set_default_size (GTK_WINDOW (self), 1180, 760);
  suanli_close_shortcuts_add (GTK_WINDOW (self));

  paned = gtk_paned_new (GTK_ORIENTATION_HORIZONTAL);
  gtk_paned_set_start_child (GTK_PANED (paned), build_controls (self));
  gtk_paned_set_end_child (GTK_PANED (paned), build_results (self));
  gtk_paned_set_shrink_start_child (GTK_PANED (paned), FALSE);
  gtk_paned_set_position (GTK_PANED (paned), 440);
  gtk_widget_set_vexpand (paned, TRUE);
  box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);
  gtk_box_append (GTK_BOX (box), adw_header_bar_new ());
  gtk_box_append (GTK_BOX (box), paned);
  adw_window_set_content (ADW_WINDOW (self), box);
}

/* The accelerators the plan's job can be estimated on, as choices and as prices. */
static void
fill_accelerators (SuanliSearchWindow *self)
{
  GtkStringList *model = GTK_STRING_LIST (adw_combo_row_get_model (self->accelerator));

  self->accelerators = suanli_search_accelerators (&self->inputs, self->catalog);
  for (guint i = 0; i < self->accelerators->len; i++)
    {
      SuanliItem *accelerator = g_ptr_array_index (self->accelerators, i);

      gtk_string_list_append (model, suanli_item_get_name (accelerator));
      add_price_row (self, accelerator);
    }
}

/* A window searching for configurations of @plan's job, the plan resolved against @catalog; it
 * runs a first search with no limits but 1024 GPUs, and again whenever a control changes. */
SuanliSearchWindow *
suanli_search_window_new (GtkWindow     *parent,
                          SuanliPlan    *plan,
                          SuanliCatalog *catalog)
{
  SuanliSearchWindow *self;
  g_autoptr(GPtrArray) errors = g_ptr_array_new_with_free_func ((GDestroyNotify) suanli_plan_issue_free);
  g_autoptr(GPtrArray) warnings = g_ptr_array_new_with_free_func ((GDestroyNotify) suanli_plan_issue_free);

  g_return_val_if_fail (SUANLI_IS_PLAN (plan), NULL);
  g_return_val_if_fail (SUANLI_IS_CATALOG (catalog), NULL);

  self = g_object_new (SUANLI_TYPE_SEARCH_WINDOW, "transient-for", parent, NULL);
  self->plan = g_object_ref (plan);
  self->catalog = g_object_ref (catalog);
  self->settings = g_settings_new (APPLICATION_ID);
  g_signal_connect (self->settings, "changed::" PRICES_KEY, G_CALLBACK (on_prices_setting_changed), self);
  g_signal_connect (self->settings, "changed::" RATE_KEY, G_CALLBACK (on_prices_setting_changed), self);
  self->updating = TRUE;
  suanli_plan_inputs_resolve (plan, catalog, &self->inputs, errors, warnings);
  read_rate (self);
  fill_accelerators (self);
  self->updating = FALSE;
  connect_controls (self);
  suanli_search_window_search (self);
  return self;
}

/* Returns: (transfer none) (nullable): the last search's results (of SuanliSearchResult). */
GArray *
suanli_search_window_get_results (SuanliSearchWindow *self)
{
  g_return_val_if_fail (SUANLI_IS_SEARCH_WINDOW (self), NULL);
  return self->results;
}

/* Returns: (transfer none) (nullable): the control named @name: "budget", "deadline", "max-gpus",
 * "cloud-only", "accelerator", "gpus", "tensor", "pipeline", "data", "zero", "recompute", "prices"
 * or "results" (the list of the front), for tests and accessibility checks. */
GtkWidget *
suanli_search_window_get_control (SuanliSearchWindow *self,
                                  const char         *name)
{
  GtkWidget *controls[] = {
    GTK_WIDGET (self->budget), GTK_WIDGET (self->deadline), GTK_WIDGET (self->max_gpus),
    GTK_WIDGET (self->cloud_only), GTK_WIDGET (self->accelerator), GTK_WIDGET (self->gpus),
    GTK_WIDGET (self->tensor), GTK_WIDGET (self->pipeline), GTK_WIDGET (self->data), GTK_WIDGET (self->zero),
    GTK_WIDGET (self->recompute), GTK_WIDGET (self->prices_row), GTK_WIDGET (self->list),
  };

  g_return_val_if_fail (SUANLI_IS_SEARCH_WINDOW (self), NULL);
  for (guint i = 0; i < G_N_ELEMENTS (controls); i++)
    if (g_strcmp0 (gtk_widget_get_name (controls[i]), name) == 0)
      return controls[i];
  return NULL;
}

/* Returns: (transfer none) (nullable): the price field of the accelerator @id in Prices. */
GtkWidget *
suanli_search_window_get_price_field (SuanliSearchWindow *self,
                                      const char         *id)
{
  g_return_val_if_fail (SUANLI_IS_SEARCH_WINDOW (self), NULL);
  for (guint i = 0; i < self->price_spins->len; i++)
    if (g_strcmp0 (g_object_get_data (g_ptr_array_index (self->price_spins, i), "accelerator"), id) == 0)
      return g_ptr_array_index (self->price_spins, i);
  return NULL;
}
