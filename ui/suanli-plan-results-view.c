/* suanli-plan-results-view.c — the planner's results: whether the plan fits, the memory and step
 * bars, the figures' cards, the advice and the plan's issues
 *
 * The planner page resolves and estimates the plan and hands the results here on every change.
 * Every figure explains itself with its formula when clicked: a card's popover, or a bar's part.
 * An advice's Apply goes back to the page as the "apply-advice" signal.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <adwaita.h>
#include <glib/gi18n.h>

#include "suanli-advice.h"
#include "suanli-bar-area.h"
#include "suanli-plan-charts.h"
#include "suanli-plan-results-view.h"
#include "suanli-stacked-bar.h"
#include "suanli-units.h"

struct _SuanliPlanResultsView
{
  GtkWidget               parent_instance;

  /* What was last shown; the page owns the inputs and the estimate, which a bar's part explains
   * when clicked. */
  gboolean                valid;
  const SuanliPlanInputs *inputs;
  const SuanliEstimate   *estimate;
  SuanliCatalog          *catalog;
  GPtrArray              *advice;
  GPtrArray              *errors;
  GPtrArray              *warnings;
  SuanliStackedBar       *memory_bar;
  SuanliStackedBar       *step_bar;
  GtkWidget              *part_popover;   /* a bar part's explanation; parented to the bar it explains */

  /* Template children */
  GtkWidget              *results_box;
  GtkImage               *fit_icon;
  GtkLabel               *fit_label;
  GtkDrawingArea         *memory_area;
  GtkLabel               *step_label;
  GtkDrawingArea         *step_area;
  GtkFlowBox             *cards;
  GtkLabel               *advice_title;
  GtkListBox             *advice_list;
  GtkListBox             *issue_list;
};

G_DEFINE_FINAL_TYPE (SuanliPlanResultsView, suanli_plan_results_view, GTK_TYPE_WIDGET)

enum {
  APPLY_ADVICE,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

/* A figure's formula as its popover shows it. */
static GtkWidget *
explanation_label (const char *explanation)
{
  GtkWidget *text = gtk_label_new (explanation);

  gtk_label_set_wrap (GTK_LABEL (text), TRUE);
  gtk_label_set_max_width_chars (GTK_LABEL (text), 60);
  gtk_label_set_xalign (GTK_LABEL (text), 0);
  gtk_widget_add_css_class (text, "monospace");
  return text;
}

static void
add_card (SuanliPlanResultsView *self,
          const char            *figure,
          const char            *value,
          const char            *caption)
{
  GtkWidget *button = gtk_menu_button_new ();
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 2);
  GtkWidget *value_label = gtk_label_new (value);
  GtkWidget *caption_label = gtk_label_new (caption);
  GtkWidget *popover = gtk_popover_new ();
  g_autofree char *explanation = suanli_estimate_explain (self->inputs, self->estimate, figure);

  gtk_widget_add_css_class (value_label, "title-3");
  gtk_widget_add_css_class (caption_label, "caption");
  gtk_widget_add_css_class (caption_label, "dim-label");
  gtk_label_set_wrap (GTK_LABEL (caption_label), TRUE);
  gtk_box_append (GTK_BOX (box), value_label);
  gtk_box_append (GTK_BOX (box), caption_label);
  gtk_widget_set_margin_top (box, 6);
  gtk_widget_set_margin_bottom (box, 6);
  gtk_menu_button_set_child (GTK_MENU_BUTTON (button), box);
  gtk_menu_button_set_always_show_arrow (GTK_MENU_BUTTON (button), FALSE);
  gtk_widget_set_tooltip_text (button, _("How this is computed"));
  {
    /* Read out as the figure and its value, not as the button's type. */
    g_autofree char *spoken = g_strdup_printf ("%s: %s", caption, value);

    gtk_accessible_update_property (GTK_ACCESSIBLE (button), GTK_ACCESSIBLE_PROPERTY_LABEL, spoken, -1);
  }
  gtk_widget_set_name (button, figure);

  gtk_popover_set_child (GTK_POPOVER (popover), explanation_label (explanation));
  gtk_menu_button_set_popover (GTK_MENU_BUTTON (button), popover);

  gtk_flow_box_append (self->cards, button);
}

/* Each part of the memory and step bars, clicked (its segment or its legend entry), explains itself
 * with its formula, as the cards do. */
static void
bar_part_clicked (GtkGestureClick       *click,
                  int                    n_press,
                  double                 x,
                  double                 y,
                  SuanliPlanResultsView *self)
{
  GtkWidget *area = gtk_event_controller_get_widget (GTK_EVENT_CONTROLLER (click));
  cairo_rectangle_t where;
  const char *figure = suanli_stacked_bar_tag_at (g_object_get_data (G_OBJECT (area), "bar"), x, y, &where);
  g_autofree char *explanation = NULL;

  if (figure == NULL || !self->valid)
    return;
  explanation = suanli_estimate_explain (self->inputs, self->estimate, figure);
  if (explanation == NULL)
    return;
  g_clear_pointer (&self->part_popover, gtk_widget_unparent);
  self->part_popover = gtk_popover_new ();
  gtk_widget_set_name (self->part_popover, figure);
  gtk_popover_set_child (GTK_POPOVER (self->part_popover), explanation_label (explanation));
  gtk_widget_set_parent (self->part_popover, area);
  gtk_popover_set_pointing_to (GTK_POPOVER (self->part_popover),
                               &(GdkRectangle) { (int) where.x, (int) where.y, MAX (1, (int) where.width),
                                                 MAX (1, (int) where.height) });
  gtk_popover_popup (GTK_POPOVER (self->part_popover));
}

static void
update_cards (SuanliPlanResultsView *self)
{
  const SuanliEstimate *e = self->estimate;
  GtkWidget *child;

  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self->cards))) != NULL)
    gtk_flow_box_remove (self->cards, child);
  if (!self->valid)
    return;

  if (suanli_plan_inputs_is_training (self->inputs))
    {
      g_autofree char *time = suanli_format_days (e->time_to_train_s);
      g_autofree char *fastest = suanli_format_days (e->training_high.time_to_train_s);
      g_autofree char *slowest = suanli_format_days (e->training_low.time_to_train_s);
      g_autofree char *time_range = suanli_format_range (fastest, slowest);
      g_autofree char *time_caption = g_strdup_printf (_("Time to train, about %s"), time);
      g_autofree char *tokens = suanli_format_large (e->tokens_per_s);
      g_autofree char *tokens_low = suanli_format_large (e->training_low.tokens_per_s);
      g_autofree char *tokens_high = suanli_format_large (e->training_high.tokens_per_s);
      g_autofree char *tokens_range = suanli_format_range (tokens_low, tokens_high);
      g_autofree char *tokens_caption = g_strdup_printf (_("Tokens per second (%s)"), tokens_range);
      gboolean above = suanli_estimate_mfu_above_published (self->inputs, e);
      g_autofree char *mfu = g_strdup_printf (above ? "⚠ %.0f%%" : "%.0f%%", 100 * e->mfu);
      g_autofree char *energy = suanli_format_energy_kwh (e->energy_kwh);
      g_autofree char *co2 = suanli_format_tonnes (e->co2_t);

      add_card (self, "training.time_to_train_s", time_range, time_caption);
      add_card (self, "training.tokens_per_s", tokens, tokens_caption);
      add_card (self, "training.mfu", mfu, above ? _("MFU, above any published run of its precision") : _("MFU"));
      if (self->inputs->price_per_gpu_hour > 0)
        {
          g_autofree char *low = suanli_format_large (e->training_high.cost);
          g_autofree char *high = suanli_format_large (e->training_low.cost);
          g_autofree char *range = suanli_format_range (low, high);
          g_autofree char *cost = g_strdup_printf ("%s %s", range, self->inputs->currency);
          g_autofree char *nominal = suanli_format_large (e->cost);
          g_autofree char *caption = g_strdup_printf (_("Cost, about %s %s"), nominal, self->inputs->currency);

          add_card (self, "training.cost", cost, caption);
        }
      else
        add_card (self, "training.cost", "—", _("Cost: no price given"));
      add_card (self, "training.energy_kwh", energy, _("Energy"));
      add_card (self, "training.co2_t", co2, _("CO₂"));
    }
  else
    {
      const SuanliInferenceFigures *f = &e->inference;
      g_autofree char *ttft = suanli_format_seconds (f->ttft_s);
      g_autofree char *tpot = suanli_format_seconds (f->tpot_s);
      g_autofree char *tokens = suanli_format_large (f->tokens_per_s);
      g_autofree char *sequences = g_strdup_printf ("%.0f", f->max_concurrent_sequences);
      g_autofree char *ttft_range = NULL, *tpot_range = NULL, *tokens_range = NULL;
      g_autofree char *low = NULL, *high = NULL;

      low = suanli_format_seconds (e->inference_high.ttft_s);
      high = suanli_format_seconds (e->inference_low.ttft_s);
      ttft_range = g_strdup_printf (_("Time to first token (%s–%s)"), low, high);
      g_free (low);
      g_free (high);
      low = suanli_format_seconds (e->inference_high.tpot_s);
      high = suanli_format_seconds (e->inference_low.tpot_s);
      tpot_range = g_strdup_printf (_("Per output token, %s bound (%s–%s)"),
                                    f->memory_bound ? _("memory") : _("compute"), low, high);
      g_free (low);
      g_free (high);
      low = suanli_format_large (e->inference_low.tokens_per_s);
      high = suanli_format_large (e->inference_high.tokens_per_s);
      tokens_range = g_strdup_printf (_("Tokens per second (%s–%s)"), low, high);

      add_card (self, "inference.ttft_s", ttft, ttft_range);
      add_card (self, "inference.tpot_s", tpot, tpot_range);
      add_card (self, "inference.tokens_per_s", tokens, tokens_range);
      add_card (self, "inference.max_concurrent_sequences", sequences, _("Sequences that fit per GPU"));
      {
        g_autofree char *capacity = suanli_format_large (f->capacity_rps);
        g_autofree char *caption = e->replicas_needed > 0
          ? g_strdup_printf (_("Requests/s it serves (%g asked: %g of %g replicas)"), self->inputs->requests_per_s,
                             e->replicas_needed, e->replicas)
          : g_strdup (_("Requests/s it serves"));

        add_card (self, "inference.capacity_rps", capacity, caption);
      }
    }
}

static void
apply_advice_clicked (GtkButton *button,
                      gpointer   user_data)
{
  g_signal_emit (user_data, signals[APPLY_ADVICE], 0, GPOINTER_TO_UINT (g_object_get_data (G_OBJECT (button), "index")));
}

/* The technique's name in the user's language; the catalog's (English) for one advice does not name. */
static const char *
technique_name (SuanliAdvice *advice,
                SuanliItem   *technique)
{
  const char *title = suanli_advice_technique_title (advice->technique);

  return title != NULL ? title : suanli_item_get_name (technique);
}

static void
update_lists (SuanliPlanResultsView *self)
{
  GtkListBoxRow *row;

  while ((row = gtk_list_box_get_row_at_index (self->advice_list, 0)) != NULL)
    gtk_list_box_remove (self->advice_list, GTK_WIDGET (row));
  while ((row = gtk_list_box_get_row_at_index (self->issue_list, 0)) != NULL)
    gtk_list_box_remove (self->issue_list, GTK_WIDGET (row));

  for (guint i = 0; self->advice != NULL && i < self->advice->len; i++)
    {
      SuanliAdvice *advice = g_ptr_array_index (self->advice, i);
      SuanliItem *technique = advice->technique != NULL ? suanli_catalog_lookup (self->catalog, advice->technique)
                                                        : NULL;
      GtkWidget *item = adw_action_row_new ();
      GtkWidget *icon = gtk_image_new_from_icon_name (g_str_equal (advice->severity, "warning")
                                                        ? "dialog-warning-symbolic" : "dialog-information-symbolic");
      GtkWidget *apply = gtk_button_new_with_mnemonic (_("_Apply"));
      g_autofree char *title = g_markup_escape_text (advice->text, -1);

      adw_preferences_row_set_title (ADW_PREFERENCES_ROW (item), title);
      if (technique != NULL || advice->effect != NULL)
        {
          GString *subtitle = g_string_new (NULL);

          /* What the estimator says the change does, then the technique, and what a source article
           * claims for it, with the catalog's verdict. */
          if (advice->effect != NULL)
            {
              g_autofree char *effect = g_markup_escape_text (advice->effect, -1);

              g_string_append_printf (subtitle, "<b>%s</b>", effect);
            }
          if (technique != NULL && suanli_item_get_n_claims (technique) > 0)
            {
              const SuanliClaim *claim = suanli_item_get_claim_at (technique, 0);
              g_autofree char *line = g_markup_printf_escaped ("%s — “%s” (%s): %s", technique_name (advice, technique),
                                                               claim->quote, claim->seed,
                                                               suanli_verdict_get_title (claim->verdict));

              g_string_append_printf (subtitle, "%s%s", subtitle->len > 0 ? "\n" : "", line);
            }
          else if (technique != NULL)
            {
              g_autofree char *line = g_markup_escape_text (technique_name (advice, technique), -1);

              g_string_append_printf (subtitle, "%s%s", subtitle->len > 0 ? "\n" : "", line);
            }
          adw_action_row_set_subtitle (ADW_ACTION_ROW (item), subtitle->str);
          adw_action_row_set_subtitle_lines (ADW_ACTION_ROW (item), 3);
          g_string_free (subtitle, TRUE);
        }
      adw_action_row_set_title_lines (ADW_ACTION_ROW (item), 3);
      adw_action_row_add_prefix (ADW_ACTION_ROW (item), icon);
      gtk_widget_set_valign (apply, GTK_ALIGN_CENTER);
      g_object_set_data (G_OBJECT (apply), "index", GUINT_TO_POINTER (i));
      g_signal_connect (apply, "clicked", G_CALLBACK (apply_advice_clicked), self);
      adw_action_row_add_suffix (ADW_ACTION_ROW (item), apply);
      gtk_list_box_append (self->advice_list, item);
    }
  gtk_widget_set_visible (GTK_WIDGET (self->advice_title), self->advice != NULL && self->advice->len > 0);
  gtk_widget_set_visible (GTK_WIDGET (self->advice_list), self->advice != NULL && self->advice->len > 0);

  for (int pass = 0; pass < 2; pass++)
    {
      GPtrArray *issues = pass == 0 ? self->errors : self->warnings;

      for (guint i = 0; i < issues->len; i++)
        {
          SuanliPlanIssue *issue = g_ptr_array_index (issues, i);
          GtkWidget *item = adw_action_row_new ();
          GtkWidget *icon = gtk_image_new_from_icon_name (pass == 0 ? "dialog-error-symbolic"
                                                                    : "dialog-warning-symbolic");
          g_autofree char *title = g_markup_escape_text (issue->message, -1);

          g_autofree char *field = g_markup_escape_text (issue->field, -1);

          adw_preferences_row_set_title (ADW_PREFERENCES_ROW (item), title);
          adw_action_row_set_subtitle (ADW_ACTION_ROW (item), field);
          adw_action_row_set_title_lines (ADW_ACTION_ROW (item), 3);
          gtk_widget_add_css_class (icon, pass == 0 ? "error" : "warning");
          adw_action_row_add_prefix (ADW_ACTION_ROW (item), icon);
          gtk_list_box_append (self->issue_list, item);
        }
    }
  gtk_widget_set_visible (GTK_WIDGET (self->issue_list), self->errors->len + self->warnings->len > 0);
}

static void
update_bars (SuanliPlanResultsView *self)
{
  gboolean training = self->valid && suanli_plan_inputs_is_training (self->inputs);

  suanli_stacked_bar_clear (self->memory_bar);
  suanli_stacked_bar_clear (self->step_bar);
  if (self->valid)
    suanli_plan_charts_fill_memory (self->memory_bar, self->estimate);
  if (training)
    suanli_plan_charts_fill_step (self->step_bar, self->estimate);
  gtk_widget_set_visible (GTK_WIDGET (self->step_area), training);
  gtk_widget_set_visible (GTK_WIDGET (self->step_label), training);
  gtk_widget_queue_draw (GTK_WIDGET (self->memory_area));
  gtk_widget_queue_draw (GTK_WIDGET (self->step_area));
}

static void
update_summary (SuanliPlanResultsView *self)
{
  const SuanliEstimate *e = self->estimate;
  g_autofree char *fit = NULL;

  if (!self->valid)
    {
      gtk_image_set_from_icon_name (self->fit_icon, "dialog-error-symbolic");
      gtk_label_set_text (self->fit_label, _("The plan has errors: see the marked fields"));
      return;
    }
  {
    g_autofree char *total = suanli_format_gib (e->total);
    g_autofree char *capacity = suanli_format_gib (e->capacity);

    g_autofree char *offloaded = suanli_format_gib (e->cpu_offload_per_node * 1.5);
    g_autofree char *cpu = suanli_format_gib (self->inputs->cpu_memory_per_node);

    if (!e->cpu_fits)
      fit = g_strdup_printf (_("Does not fit: the offloaded states need %s of CPU memory per node (with a 1.5× margin), "
                               "%s is there"), offloaded, cpu);
    else
      /* Translators: "Fits: 61.2 GiB of 140 GiB per GPU on 64 × H200 SXM". */
      fit = g_strdup_printf (e->fits ? _("Fits: %s of %s per GPU on %g × %s")
                                     : _("Does not fit: %s of %s per GPU on %g × %s"),
                             total, capacity, self->inputs->gpus, self->inputs->accelerator_name);
  }
  gtk_image_set_from_icon_name (self->fit_icon, e->fits ? "emblem-ok-symbolic" : "dialog-warning-symbolic");
  gtk_widget_remove_css_class (GTK_WIDGET (self->fit_icon), e->fits ? "warning" : "success");
  gtk_widget_add_css_class (GTK_WIDGET (self->fit_icon), e->fits ? "success" : "warning");
  gtk_label_set_text (self->fit_label, fit);

  if (suanli_plan_inputs_is_training (self->inputs))
    {
      g_autofree char *step = suanli_format_seconds (e->step_time_s);
      g_autofree char *text = g_strdup_printf (_("Step %s"), step);
      gtk_label_set_text (self->step_label, text);
    }
}


/* Shows the plan's results: @inputs and @estimate are the page's and must last as long as the
 * view; when the plan is not @valid, only its issues show. */
void
suanli_plan_results_view_show (SuanliPlanResultsView  *self,
                               gboolean                valid,
                               const SuanliPlanInputs *inputs,
                               const SuanliEstimate   *estimate,
                               SuanliCatalog          *catalog,
                               GPtrArray              *advice,
                               GPtrArray              *errors,
                               GPtrArray              *warnings)
{
  g_return_if_fail (SUANLI_IS_PLAN_RESULTS_VIEW (self));

  self->valid = valid;
  self->inputs = inputs;
  self->estimate = estimate;
  g_set_object (&self->catalog, catalog);
  g_clear_pointer (&self->advice, g_ptr_array_unref);
  self->advice = advice != NULL ? g_ptr_array_ref (advice) : NULL;
  g_clear_pointer (&self->errors, g_ptr_array_unref);
  self->errors = g_ptr_array_ref (errors);
  g_clear_pointer (&self->warnings, g_ptr_array_unref);
  self->warnings = g_ptr_array_ref (warnings);

  update_summary (self);
  update_bars (self);
  update_cards (self);
  update_lists (self);
}

static void
suanli_plan_results_view_dispose (GObject *object)
{
  SuanliPlanResultsView *self = SUANLI_PLAN_RESULTS_VIEW (object);

  g_clear_pointer (&self->part_popover, gtk_widget_unparent);
  gtk_widget_dispose_template (GTK_WIDGET (self), SUANLI_TYPE_PLAN_RESULTS_VIEW);
  g_clear_object (&self->catalog);
  g_clear_pointer (&self->advice, g_ptr_array_unref);
  g_clear_pointer (&self->errors, g_ptr_array_unref);
  g_clear_pointer (&self->warnings, g_ptr_array_unref);

  G_OBJECT_CLASS (suanli_plan_results_view_parent_class)->dispose (object);
}

static void
suanli_plan_results_view_finalize (GObject *object)
{
  SuanliPlanResultsView *self = SUANLI_PLAN_RESULTS_VIEW (object);

  suanli_stacked_bar_free (self->memory_bar);
  suanli_stacked_bar_free (self->step_bar);

  G_OBJECT_CLASS (suanli_plan_results_view_parent_class)->finalize (object);
}

static void
suanli_plan_results_view_class_init (SuanliPlanResultsViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = suanli_plan_results_view_dispose;
  object_class->finalize = suanli_plan_results_view_finalize;

  signals[APPLY_ADVICE] = g_signal_new ("apply-advice", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL,
                                        NULL, G_TYPE_NONE, 1, G_TYPE_UINT);

  gtk_widget_class_set_template_from_resource (widget_class, "/org/suanli/Suanli/ui/suanli-plan-results-view.ui");
  gtk_widget_class_bind_template_child (widget_class, SuanliPlanResultsView, results_box);
  gtk_widget_class_bind_template_child (widget_class, SuanliPlanResultsView, fit_icon);
  gtk_widget_class_bind_template_child (widget_class, SuanliPlanResultsView, fit_label);
  gtk_widget_class_bind_template_child (widget_class, SuanliPlanResultsView, memory_area);
  gtk_widget_class_bind_template_child (widget_class, SuanliPlanResultsView, step_label);
  gtk_widget_class_bind_template_child (widget_class, SuanliPlanResultsView, step_area);
  gtk_widget_class_bind_template_child (widget_class, SuanliPlanResultsView, cards);
  gtk_widget_class_bind_template_child (widget_class, SuanliPlanResultsView, advice_title);
  gtk_widget_class_bind_template_child (widget_class, SuanliPlanResultsView, advice_list);
  gtk_widget_class_bind_template_child (widget_class, SuanliPlanResultsView, issue_list);
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
}

static void
suanli_plan_results_view_init (SuanliPlanResultsView *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));

  self->memory_bar = suanli_stacked_bar_new ();
  self->step_bar = suanli_stacked_bar_new ();
  gtk_drawing_area_set_draw_func (self->memory_area, suanli_bar_area_draw, self->memory_bar, NULL);
  gtk_drawing_area_set_draw_func (self->step_area, suanli_bar_area_draw, self->step_bar, NULL);
  for (guint i = 0; i < 2; i++)
    {
      GtkGesture *click = gtk_gesture_click_new ();
      GtkWidget *area = GTK_WIDGET (i == 0 ? self->memory_area : self->step_area);

      g_object_set_data (G_OBJECT (area), "bar", i == 0 ? self->memory_bar : self->step_bar);
      g_signal_connect (click, "released", G_CALLBACK (bar_part_clicked), self);
      gtk_widget_add_controller (area, GTK_EVENT_CONTROLLER (click));
      gtk_widget_set_tooltip_text (area, _("Click a part to see how it is computed"));
    }
}

GtkWidget *
suanli_plan_results_view_new (void)
{
  return g_object_new (SUANLI_TYPE_PLAN_RESULTS_VIEW, NULL);
}
