/* suanli-plan-page.c — the planner page: a configuration builder with live estimates and advice
 *
 * The page edits the workspace's plan. Every change — a field, an advice applied, a configuration
 * found, undo, a file opened — goes through the plan, which emits "changed"; the page then keeps
 * the previous document for undo, schedules an autosave, resolves and estimates (microseconds), and
 * redraws the results. The form, the charts and the explanations all read the same estimate.
 *
 * The page's actions (files, the report, advice, Pin and Compare, Find) and the dialogs they open
 * are in suanli-plan-page-actions.c, which shares the page's fields through
 * suanli-plan-page-private.h.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>
#include <adwaita.h>
#include <glib/gi18n.h>
#include <glib/gstdio.h>

#include "suanli-bar-area.h"
#include "suanli-plan-charts.h"
#include "suanli-plan-name.h"
#include "suanli-plan-page-private.h"
#include "suanli-units.h"

#define UNDO_LIMIT 200
#define AUTOSAVE_DELAY_MS 800

G_DEFINE_FINAL_TYPE (SuanliPlanPage, suanli_plan_page, SUANLI_TYPE_PAGE)

enum {
  PROP_0,
  PROP_PLAN_NAME,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static void refresh (SuanliPlanPage *self);

static void
pinned_free (Pinned *pinned)
{
  g_free (pinned->name);
  g_free (pinned);
}

/* ---- numbers as the cards show them ------------------------------------------------------- */

/* ---- results ------------------------------------------------------------------------------ */

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
add_card (SuanliPlanPage *self,
          const char     *figure,
          const char     *value,
          const char     *caption)
{
  GtkWidget *button = gtk_menu_button_new ();
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 2);
  GtkWidget *value_label = gtk_label_new (value);
  GtkWidget *caption_label = gtk_label_new (caption);
  GtkWidget *popover = gtk_popover_new ();
  g_autofree char *explanation = suanli_estimate_explain (&self->inputs, &self->estimate, figure);

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
bar_part_clicked (GtkGestureClick *click,
                  int              n_press,
                  double           x,
                  double           y,
                  SuanliPlanPage  *self)
{
  GtkWidget *area = gtk_event_controller_get_widget (GTK_EVENT_CONTROLLER (click));
  cairo_rectangle_t where;
  const char *figure = suanli_stacked_bar_tag_at (g_object_get_data (G_OBJECT (area), "bar"), x, y, &where);
  g_autofree char *explanation = NULL;

  if (figure == NULL || !self->valid)
    return;
  explanation = suanli_estimate_explain (&self->inputs, &self->estimate, figure);
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
update_cards (SuanliPlanPage *self)
{
  const SuanliEstimate *e = &self->estimate;
  GtkWidget *child;

  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self->cards))) != NULL)
    gtk_flow_box_remove (self->cards, child);
  if (!self->valid)
    return;

  if (suanli_plan_inputs_is_training (&self->inputs))
    {
      g_autofree char *time = suanli_format_days (e->time_to_train_s);
      g_autofree char *tokens = suanli_format_large (e->tokens_per_s);
      g_autofree char *mfu = g_strdup_printf ("%.0f%%", 100 * e->mfu);
      g_autofree char *cost_value = suanli_format_large (e->cost);
      g_autofree char *cost = g_strdup_printf ("%s %s", cost_value, self->inputs.currency);
      g_autofree char *energy = suanli_format_energy_kwh (e->energy_kwh);
      g_autofree char *co2 = suanli_format_tonnes (e->co2_t);

      add_card (self, "training.time_to_train_s", time, _("Time to train"));
      add_card (self, "training.tokens_per_s", tokens, _("Tokens per second"));
      add_card (self, "training.mfu", mfu, _("MFU"));
      add_card (self, "training.cost", cost, _("Cost"));
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
          ? g_strdup_printf (_("Requests/s it serves (%g asked: %g of %g replicas)"), self->inputs.requests_per_s,
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
  gtk_widget_activate_action (GTK_WIDGET (user_data), "plan.apply-advice", "u",
                              GPOINTER_TO_UINT (g_object_get_data (G_OBJECT (button), "index")));
}

static void
update_lists (SuanliPlanPage *self)
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
              g_autofree char *line = g_markup_printf_escaped ("%s — “%s” (%s): %s", suanli_item_get_name (technique),
                                                               claim->quote, claim->seed,
                                                               suanli_verdict_get_title (claim->verdict));

              g_string_append_printf (subtitle, "%s%s", subtitle->len > 0 ? "\n" : "", line);
            }
          else if (technique != NULL)
            {
              g_autofree char *line = g_markup_escape_text (suanli_item_get_name (technique), -1);

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
update_bars (SuanliPlanPage *self)
{
  gboolean training = self->valid && suanli_plan_inputs_is_training (&self->inputs);

  suanli_stacked_bar_clear (self->memory_bar);
  suanli_stacked_bar_clear (self->step_bar);
  if (self->valid)
    suanli_plan_charts_fill_memory (self->memory_bar, &self->estimate);
  if (training)
    suanli_plan_charts_fill_step (self->step_bar, &self->estimate);
  gtk_widget_set_visible (GTK_WIDGET (self->step_area), training);
  gtk_widget_set_visible (GTK_WIDGET (self->step_label), training);
  gtk_widget_queue_draw (GTK_WIDGET (self->memory_area));
  gtk_widget_queue_draw (GTK_WIDGET (self->step_area));
}

static void
update_summary (SuanliPlanPage *self)
{
  const SuanliEstimate *e = &self->estimate;
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
    g_autofree char *cpu = suanli_format_gib (self->inputs.cpu_memory_per_node);

    if (!e->cpu_fits)
      fit = g_strdup_printf (_("Does not fit: the offloaded states need %s of CPU memory per node (with a 1.5× margin), "
                               "%s is there"), offloaded, cpu);
    else
      /* Translators: "Fits: 61.2 GiB of 140 GiB per GPU on 64 × H200 SXM". */
      fit = g_strdup_printf (e->fits ? _("Fits: %s of %s per GPU on %g × %s")
                                     : _("Does not fit: %s of %s per GPU on %g × %s"),
                             total, capacity, self->inputs.gpus, self->inputs.accelerator_name);
  }
  gtk_image_set_from_icon_name (self->fit_icon, e->fits ? "emblem-ok-symbolic" : "dialog-warning-symbolic");
  gtk_widget_remove_css_class (GTK_WIDGET (self->fit_icon), e->fits ? "warning" : "success");
  gtk_widget_add_css_class (GTK_WIDGET (self->fit_icon), e->fits ? "success" : "warning");
  gtk_label_set_text (self->fit_label, fit);

  if (suanli_plan_inputs_is_training (&self->inputs))
    {
      g_autofree char *step = suanli_format_seconds (e->step_time_s);
      g_autofree char *text = g_strdup_printf (_("Step %s"), step);
      gtk_label_set_text (self->step_label, text);
    }
}

/* The name follows the model and hardware until the user gives one; inputs that did not fully
 * resolve still name what they have. */
static void
update_name (SuanliPlanPage *self)
{
  g_autofree char *name = suanli_plan_name_dup (self->plan, &self->inputs);

  suanli_plan_name_row_sync (self->name_row, name, suanli_plan_name_is_edited (self->plan));
  if (g_strcmp0 (name, self->name) == 0)
    return;
  g_free (self->name);
  self->name = g_steal_pointer (&name);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_PLAN_NAME]);
}

/* Resolves and estimates the plan, then shows it. Microseconds: done on every change. */
static void
refresh (SuanliPlanPage *self)
{
  g_ptr_array_set_size (self->errors, 0);
  g_ptr_array_set_size (self->warnings, 0);
  g_clear_pointer (&self->advice, g_ptr_array_unref);

  self->valid = suanli_plan_inputs_resolve (self->plan, self->catalog, &self->inputs, self->errors, self->warnings);
  if (self->valid)
    {
      suanli_estimate_compute (&self->inputs, &self->estimate);
      self->advice = suanli_advice_for (self->plan, self->catalog, &self->inputs, &self->estimate);
    }
  else
    memset (&self->estimate, 0, sizeof self->estimate);

  suanli_plan_form_sync (self->form, self->valid ? &self->inputs : NULL, self->errors);
  update_name (self);
  update_summary (self);
  update_bars (self);
  update_cards (self);
  update_lists (self);
}


/* ---- undo, autosave, files ---------------------------------------------------------------- */

static GFile *
autosave_file (void)
{
  return g_file_new_build_filename (g_get_user_state_dir (), "suanli", "autosave.suanli-plan", NULL);
}

static gboolean
autosave (gpointer user_data)
{
  SuanliPlanPage *self = SUANLI_PLAN_PAGE (user_data);
  g_autoptr(GFile) file = autosave_file ();
  g_autoptr(GFile) directory = g_file_get_parent (file);
  g_autoptr(GError) error = NULL;

  self->autosave_id = 0;
  g_file_make_directory_with_parents (directory, NULL, NULL);
  if (!suanli_plan_save (self->plan, file, &error))
    g_message ("autosave: %s", error->message);
  return G_SOURCE_REMOVE;
}

static void
on_plan_changed (SuanliPlan *plan,
                 gpointer    user_data)
{
  SuanliPlanPage *self = SUANLI_PLAN_PAGE (user_data);

  if (!self->restoring)
    {
      g_ptr_array_add (self->undo, g_steal_pointer (&self->snapshot));
      if (self->undo->len > UNDO_LIMIT)
        g_ptr_array_remove_index (self->undo, 0);
      g_ptr_array_set_size (self->redo, 0);
    }
  g_free (self->snapshot);
  self->snapshot = suanli_plan_to_data (plan);

  if (self->autosave_id == 0)
    self->autosave_id = g_timeout_add (AUTOSAVE_DELAY_MS, autosave, self);
  refresh (self);
  _suanli_plan_page_update_actions (self);
}

static void
on_plan_file_changed (SuanliWorkspace *workspace,
                      GFile           *file,
                      gpointer         user_data)
{
  SuanliPlanPage *self = SUANLI_PLAN_PAGE (user_data);

  g_set_object (&self->file, file);
  _suanli_plan_page_update_actions (self);
}

/* ---- life cycle --------------------------------------------------------------------------- */

static void
on_catalog_changed (GListModel *catalog,
                    guint       position,
                    guint       removed,
                    guint       added,
                    gpointer    user_data)
{
  SuanliPlanPage *self = SUANLI_PLAN_PAGE (user_data);

  suanli_plan_form_set_plan (self->form, self->plan, self->catalog);
  refresh (self);
  _suanli_plan_page_update_actions (self);
}

static gboolean
plan_is_empty (SuanliPlan *plan)
{
  JsonObject *root = suanli_plan_get_root (plan);

  return json_object_get_size (root) == 0 || (json_object_get_size (root) == 1 && json_object_has_member (root, "schema"));
}

/**
 * suanli_plan_page_start_plan:
 *
 * Fills an empty @plan with a first plan to look at: the one left from last time, else a 7B model on
 * eight of the catalog's H100s, named after them until the user names it. The window does this at
 * its start, before the planner is built, so the other pages see the plan too.
 */
void
suanli_plan_page_start_plan (SuanliPlan *plan)
{
  g_autoptr(GFile) file = autosave_file ();
  g_autoptr(SuanliPlan) saved = NULL;
  g_autoptr(GError) error = NULL;

  if (!plan_is_empty (plan))
    return;
  saved = suanli_plan_new_from_file (file, &error);
  /* One that cannot be read (an older version wrote 2e17 as "2e+17.0") is put aside, not
   * overwritten by the next autosave, so that the user can still mend it. */
  if (saved == NULL && !g_error_matches (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND))
    {
      g_autofree char *path = g_file_get_path (file);
      g_autofree char *aside = g_strconcat (path, ".unreadable", NULL);

      g_message ("autosave: %s; kept as %s", error->message, aside);
      g_rename (path, aside);
    }
  if (saved != NULL)
    suanli_plan_replace (plan, saved);
  else
    suanli_plan_apply_merge_patch_data (plan,
                                        "{\"model\": {\"preset\": \"llama-2-7b\"},"
                                        " \"workload\": {\"seq_len\": 4096, \"global_batch\": 512, \"tokens\": 2e12},"
                                        " \"system\": {\"accelerator\": \"nvidia-h100-sxm\"},"
                                        " \"assumptions\": {\"price_per_gpu_hour\": 2.5}}", NULL);
}

static void
suanli_plan_page_constructed (GObject *object)
{
  SuanliPlanPage *self = SUANLI_PLAN_PAGE (object);
  SuanliWorkspace *workspace = suanli_page_get_workspace (SUANLI_PAGE (self));

  G_OBJECT_CLASS (suanli_plan_page_parent_class)->constructed (object);

  self->plan = workspace != NULL ? g_object_ref (suanli_workspace_get_plan (workspace)) : suanli_plan_new ();
  self->catalog = workspace != NULL ? g_object_ref (suanli_workspace_get_catalog (workspace)) : suanli_catalog_new ();

  /* The form's choices come from the catalog: build it once the catalog is there. */
  if (g_list_model_get_n_items (G_LIST_MODEL (self->catalog)) > 0)
    suanli_plan_form_set_plan (self->form, self->plan, self->catalog);
  suanli_plan_name_row_set_plan (self->name_row, self->plan);
  self->restoring = TRUE;
  suanli_plan_page_start_plan (self->plan);
  self->restoring = FALSE;
  self->snapshot = suanli_plan_to_data (self->plan);
  g_signal_connect (self->plan, "changed", G_CALLBACK (on_plan_changed), self);
  if (workspace != NULL)
    {
      g_set_object (&self->file, suanli_workspace_get_plan_file (workspace));
      g_signal_connect_object (workspace, "plan-file-changed", G_CALLBACK (on_plan_file_changed), self, 0);
    }
  /* The catalog may still be loading: the form's choices and the estimate follow it. */
  g_signal_connect (self->catalog, "items-changed", G_CALLBACK (on_catalog_changed), self);
  refresh (self);
  _suanli_plan_page_update_actions (self);
}

static void
suanli_plan_page_dispose (GObject *object)
{
  SuanliPlanPage *self = SUANLI_PLAN_PAGE (object);

  if (self->autosave_id != 0)
    {
      g_source_remove (self->autosave_id);
      autosave (self);
    }
  if (self->plan != NULL)
    g_signal_handlers_disconnect_by_data (self->plan, self);
  if (self->catalog != NULL)
    g_signal_handlers_disconnect_by_data (self->catalog, self);
  _suanli_plan_page_actions_dispose (self);
  g_clear_pointer (&self->part_popover, gtk_widget_unparent);
  gtk_widget_dispose_template (GTK_WIDGET (self), SUANLI_TYPE_PLAN_PAGE);
  g_clear_object (&self->plan);
  g_clear_object (&self->catalog);
  g_clear_object (&self->file);

  G_OBJECT_CLASS (suanli_plan_page_parent_class)->dispose (object);
}

static void
suanli_plan_page_finalize (GObject *object)
{
  SuanliPlanPage *self = SUANLI_PLAN_PAGE (object);

  g_free (self->snapshot);
  g_free (self->name);
  g_ptr_array_unref (self->undo);
  g_ptr_array_unref (self->redo);
  g_ptr_array_unref (self->errors);
  g_ptr_array_unref (self->warnings);
  g_clear_pointer (&self->advice, g_ptr_array_unref);
  g_ptr_array_unref (self->pinned);
  suanli_stacked_bar_free (self->memory_bar);
  suanli_stacked_bar_free (self->step_bar);

  G_OBJECT_CLASS (suanli_plan_page_parent_class)->finalize (object);
}

static void
suanli_plan_page_get_property (GObject    *object,
                               guint       prop_id,
                               GValue     *value,
                               GParamSpec *pspec)
{
  SuanliPlanPage *self = SUANLI_PLAN_PAGE (object);

  switch (prop_id)
    {
    case PROP_PLAN_NAME:
      g_value_set_string (value, self->name);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
suanli_plan_page_class_init (SuanliPlanPageClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->constructed = suanli_plan_page_constructed;
  object_class->dispose = suanli_plan_page_dispose;
  object_class->finalize = suanli_plan_page_finalize;
  object_class->get_property = suanli_plan_page_get_property;

  /* The plan's name in effect (the window's title shows it). */
  properties[PROP_PLAN_NAME] =
    g_param_spec_string ("plan-name", NULL, NULL, NULL, G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY |
                         G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  g_type_ensure (SUANLI_TYPE_PLAN_FORM);
  g_type_ensure (SUANLI_TYPE_PLAN_NAME_ROW);
  gtk_widget_class_set_template_from_resource (widget_class, "/org/suanli/Suanli/ui/suanli-plan-page.ui");
  gtk_widget_class_bind_template_child (widget_class, SuanliPlanPage, name_row);
  gtk_widget_class_bind_template_child (widget_class, SuanliPlanPage, form);
  gtk_widget_class_bind_template_child (widget_class, SuanliPlanPage, recent_button);
  gtk_widget_class_bind_template_child (widget_class, SuanliPlanPage, file_label);
  gtk_widget_class_bind_template_child (widget_class, SuanliPlanPage, compare_button);
  gtk_widget_class_bind_template_child (widget_class, SuanliPlanPage, fit_icon);
  gtk_widget_class_bind_template_child (widget_class, SuanliPlanPage, fit_label);
  gtk_widget_class_bind_template_child (widget_class, SuanliPlanPage, memory_area);
  gtk_widget_class_bind_template_child (widget_class, SuanliPlanPage, step_label);
  gtk_widget_class_bind_template_child (widget_class, SuanliPlanPage, step_area);
  gtk_widget_class_bind_template_child (widget_class, SuanliPlanPage, cards);
  gtk_widget_class_bind_template_child (widget_class, SuanliPlanPage, advice_title);
  gtk_widget_class_bind_template_child (widget_class, SuanliPlanPage, advice_list);
  gtk_widget_class_bind_template_child (widget_class, SuanliPlanPage, issue_list);

  _suanli_plan_page_class_actions_init (widget_class);
}

static void
suanli_plan_page_init (SuanliPlanPage *self)
{
  GtkEventController *shortcuts = gtk_shortcut_controller_new ();
  const struct { const char *trigger, *action; } keys[] = {
    { "<Control>z", "plan.undo" }, { "<Control><Shift>z", "plan.redo" }, { "<Control>s", "plan.save" },
    { "<Control><Shift>s", "plan.save-as" }, { "<Control>p", "plan.export-report" },
  };

  gtk_widget_init_template (GTK_WIDGET (self));

  self->undo = g_ptr_array_new_with_free_func (g_free);
  self->redo = g_ptr_array_new_with_free_func (g_free);
  self->errors = g_ptr_array_new_with_free_func ((GDestroyNotify) suanli_plan_issue_free);
  self->warnings = g_ptr_array_new_with_free_func ((GDestroyNotify) suanli_plan_issue_free);
  self->pinned = g_ptr_array_new_with_free_func ((GDestroyNotify) pinned_free);
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

  gtk_shortcut_controller_set_scope (GTK_SHORTCUT_CONTROLLER (shortcuts), GTK_SHORTCUT_SCOPE_MANAGED);
  for (guint i = 0; i < G_N_ELEMENTS (keys); i++)
    gtk_shortcut_controller_add_shortcut (GTK_SHORTCUT_CONTROLLER (shortcuts),
                                          gtk_shortcut_new (gtk_shortcut_trigger_parse_string (keys[i].trigger),
                                                            gtk_named_action_new (keys[i].action)));
  gtk_widget_add_controller (GTK_WIDGET (self), shortcuts);
  g_signal_connect_swapped (gtk_recent_manager_get_default (), "changed", G_CALLBACK (_suanli_plan_page_update_recent_menu),
                            self);
  _suanli_plan_page_update_recent_menu (self);
}

GtkWidget *
suanli_plan_page_new (SuanliWorkspace *workspace)
{
  return g_object_new (SUANLI_TYPE_PLAN_PAGE, "workspace", workspace, NULL);
}

const SuanliEstimate *
suanli_plan_page_get_estimate (SuanliPlanPage *self)
{
  g_return_val_if_fail (SUANLI_IS_PLAN_PAGE (self), NULL);
  return &self->estimate;
}

/* The plan's name in effect: its own, or made from its model and hardware. */
const char *
suanli_plan_page_get_plan_name (SuanliPlanPage *self)
{
  g_return_val_if_fail (SUANLI_IS_PLAN_PAGE (self), NULL);
  return self->name;
}

gboolean
suanli_plan_page_is_valid (SuanliPlanPage *self)
{
  g_return_val_if_fail (SUANLI_IS_PLAN_PAGE (self), FALSE);
  return self->valid;
}

/* Returns: (transfer none) (nullable): the current advice (of SuanliAdvice). */
GPtrArray *
suanli_plan_page_get_advice (SuanliPlanPage *self)
{
  g_return_val_if_fail (SUANLI_IS_PLAN_PAGE (self), NULL);
  return self->advice;
}

GtkWidget *
suanli_plan_page_get_editor (SuanliPlanPage *self,
                             const char     *field)
{
  g_return_val_if_fail (SUANLI_IS_PLAN_PAGE (self), NULL);
  return suanli_plan_form_get_editor (self->form, field);
}

/* Opens @file into the workspace's plan (undoable). On error the plan, and the file Save writes,
 * are left as they were: Save must never write the plan shown over a file that failed to open. */
gboolean
suanli_plan_page_load_file (SuanliPlanPage  *self,
                            GFile           *file,
                            GError         **error)
{
  g_return_val_if_fail (SUANLI_IS_PLAN_PAGE (self), FALSE);
  return _suanli_plan_page_load_file (self, file, error);
}

/* Returns: (transfer none) (nullable): the file Save writes, shown under the plan's name. */
GFile *
suanli_plan_page_get_file (SuanliPlanPage *self)
{
  g_return_val_if_fail (SUANLI_IS_PLAN_PAGE (self), NULL);
  return self->file;
}

gboolean
suanli_plan_page_save_file (SuanliPlanPage  *self,
                            GFile           *file,
                            GError         **error)
{
  g_return_val_if_fail (SUANLI_IS_PLAN_PAGE (self), FALSE);
  return _suanli_plan_page_save_file (self, file, error);
}

/**
 * suanli_plan_page_export_report:
 * @file: where the PDF goes
 *
 * Writes the plan as it is now as a PDF report on a worker thread, with the pinned plans beside
 * it and the workspace's trace, if any; a toast says when it is done (with "Open") or why not.
 * Returns: whether it started (the plan must be valid).
 */
gboolean
suanli_plan_page_export_report (SuanliPlanPage *self,
                                GFile          *file,
                                SuanliPaper     paper)
{
  g_return_val_if_fail (SUANLI_IS_PLAN_PAGE (self), FALSE);
  return _suanli_plan_page_export_report (self, file, paper);
}

/* Whether a report is being written. */
gboolean
suanli_plan_page_is_exporting (SuanliPlanPage *self)
{
  return self->exporting > 0;
}

/* Opens the comparison of the pinned plans with the current one. */
GtkWindow *
suanli_plan_page_open_compare (SuanliPlanPage *self)
{
  g_return_val_if_fail (SUANLI_IS_PLAN_PAGE (self), NULL);
  return _suanli_plan_page_open_compare (self);
}

/* Opens "Find configurations". */
GtkWindow *
suanli_plan_page_open_search (SuanliPlanPage *self)
{
  g_return_val_if_fail (SUANLI_IS_PLAN_PAGE (self), NULL);
  return _suanli_plan_page_open_search (self);
}
