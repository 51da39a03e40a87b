/* suanli-against-plan-view.c — the trace measured against the workspace's plan, or why not
 *
 * Under the profiler's summary: when the plan resolves and the trace is of its job (SuanliJobMatch
 * says whether the hardware is the plan's, SuanliPlanTie whether the user or the trace says the job
 * is, SuanliPlanComparison which figures and how), the step, MFU and the rest measured against
 * planned, with Use Measured MFU in Plan; on the plan's hardware but not known to be of its job,
 * This Trace Is of This Plan's Job; when the trace ran on other hardware, what each ran on, with
 * Plan for This Hardware and Open Another Plan…. The view follows the plan's edits and the plan
 * put in its place.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>
#include <glib/gi18n.h>

#include "suanli-against-plan-view.h"
#include "suanli-estimate.h"
#include "suanli-job-match.h"
#include "suanli-json-writer.h"
#include "suanli-plan-comparison.h"
#include "suanli-plan-inputs.h"
#include "suanli-plan-name.h"
#include "suanli-plan-trace-tie.h"
#include "suanli-profile-common.h"

struct _SuanliAgainstPlanView
{
  GtkWidget             parent_instance;

  GtkWidget            *box;
  GtkWidget            *plan_box;
  GtkLabel             *plan_label;
  GtkLabel             *plan_warning;
  GtkFlowBox           *plan_figures;
  GtkWidget            *job_box;         /* shown instead when the trace is of another job */
  GtkLabel             *job_label;
  GtkWidget            *plan_from_trace_button;
  GtkWidget            *tie_button;      /* shown when the trace ran on the plan's hardware, of a job not known */
  GtkWidget            *untie_button;    /* shown when the user tied the trace to the plan */

  SuanliWorkspace      *workspace;
  SuanliPlan           *watched_plan;    /* the workspace's plan, whose changes redo the comparison */
  SuanliTrace          *trace;           /* the trace shown, or NULL */
  SuanliTraceFigures   *figures;         /* the page's figures, or NULL; of the trace when they match it */
  char                 *plan_text;       /* the comparison shown, as text */
  double                measured_mfu;    /* what the last comparison implied; 0: none */
  char                 *trace_accelerator;   /* the catalog's id of what the trace ran on, or NULL */
  guint                 trace_gpus;          /* and how many */
  GtkFileChooserNative *plan_dialog;
};

G_DEFINE_FINAL_TYPE (SuanliAgainstPlanView, suanli_against_plan_view, GTK_TYPE_WIDGET)

/* One figure of the comparison: its name, the measured value with its difference, the planned one. */
static GtkWidget *
comparison_cell (const SuanliComparisonRow *row)
{
  GtkWidget *cell = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);
  GtkWidget *figure = gtk_label_new (row->figure);
  GtkWidget *measured = gtk_label_new (NULL);
  g_autofree char *planned_text = g_strdup_printf (_("%s planned"), row->planned);
  GtkWidget *planned = gtk_label_new (planned_text);
  g_autofree char *markup = NULL;

  gtk_widget_add_css_class (figure, "caption-heading");
  gtk_widget_add_css_class (figure, "dim-label");
  gtk_widget_add_css_class (planned, "caption");
  gtk_widget_add_css_class (planned, "dim-label");
  markup = g_markup_printf_escaped ("<b>%s</b> %s", row->measured, row->difference != NULL ? row->difference : "");
  gtk_label_set_markup (GTK_LABEL (measured), markup);
  gtk_box_append (GTK_BOX (cell), figure);
  gtk_box_append (GTK_BOX (cell), measured);
  gtk_box_append (GTK_BOX (cell), planned);
  for (GtkWidget *label = gtk_widget_get_first_child (cell); label != NULL; label = gtk_widget_get_next_sibling (label))
    gtk_label_set_xalign (GTK_LABEL (label), 0);
  if (row->detail != NULL)
    gtk_widget_set_tooltip_text (cell, row->detail);
  return cell;
}

static void
show_comparison (SuanliAgainstPlanView      *self,
                 const SuanliPlanComparison *comparison)
{
  GtkWidget *child;

  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self->plan_figures))) != NULL)
    gtk_flow_box_remove (self->plan_figures, child);
  g_clear_pointer (&self->plan_text, g_free);
  self->measured_mfu = 0;
  gtk_widget_set_visible (self->plan_box, comparison != NULL);
  if (comparison == NULL)
    return;
  self->plan_text = suanli_plan_comparison_to_text (comparison);
  self->measured_mfu = comparison->measured_mfu;
  gtk_label_set_text (self->plan_label, comparison->heading);
  gtk_label_set_text (self->plan_warning, comparison->warning != NULL ? comparison->warning : "");
  gtk_widget_set_visible (GTK_WIDGET (self->plan_warning), comparison->warning != NULL);
  for (guint i = 0; i < comparison->rows->len; i++)
    {
      gtk_flow_box_append (self->plan_figures, comparison_cell (&g_array_index (comparison->rows, SuanliComparisonRow, i)));
      /* The cells are read, not chosen: no tab stop each. */
      gtk_widget_set_focusable (gtk_widget_get_last_child (GTK_WIDGET (self->plan_figures)), FALSE);
    }
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "against-plan.use-measured", self->measured_mfu > 0 && self->measured_mfu <= 1);
}

/* The trace is of another job than the plan's (@match), or NULL: say what each ran on, and offer
 * a plan for the trace's hardware (when the catalog has it) or another plan. On the plan's
 * hardware (@unknown_job names the plan), say that nothing ties the trace to the plan's job and
 * offer to. */
static void
show_other_job (SuanliAgainstPlanView *self,
                const SuanliJobMatch  *match,
                const char            *unknown_job)
{
  g_clear_pointer (&self->trace_accelerator, g_free);
  self->trace_gpus = 0;
  gtk_widget_set_visible (self->job_box, match != NULL);
  gtk_widget_set_visible (self->plan_from_trace_button, match != NULL && unknown_job == NULL);
  gtk_widget_set_visible (self->tie_button, unknown_job != NULL);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "against-plan.plan-from-trace", FALSE);
  if (match == NULL)
    return;
  if (unknown_job != NULL)
    {
      g_autofree char *text = suanli_plan_trace_unknown_job (unknown_job);

      gtk_label_set_text (self->job_label, text);
      return;
    }
  if (match->accelerator != NULL)
    {
      self->trace_accelerator = g_strdup (suanli_item_get_id (match->accelerator));
      self->trace_gpus = match->gpus;
      gtk_label_set_text (self->job_label, match->why);
      gtk_widget_set_tooltip_text (self->plan_from_trace_button, _("Set the plan to the trace's accelerator and GPU count "
                                                                   "(undo in the planner)"));
    }
  else
    {
      g_autofree char *text = g_strdup_printf ("%s %s", match->why,
                                               match->ran_on != NULL ? _("A plan for it needs it in the catalog first.")
                                                                     : "");

      gtk_label_set_text (self->job_label, g_strchomp (text));
      gtk_widget_set_tooltip_text (self->plan_from_trace_button,
                                   match->ran_on != NULL ? _("The catalog has no such accelerator")
                                                         : _("The trace does not say what it ran on"));
    }
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "against-plan.plan-from-trace", self->trace_accelerator != NULL);
}

/* Measured against planned, when the workspace's plan resolves and the trace is of its job
 * (SuanliJobMatch says whether, SuanliPlanComparison which figures and how). */
static void
compare_with_plan (SuanliAgainstPlanView *self)
{
  SuanliTrace *trace = self->trace;
  SuanliWorkspace *workspace = self->workspace;
  g_autoptr(GPtrArray) errors = g_ptr_array_new_with_free_func ((GDestroyNotify) suanli_plan_issue_free);
  g_autoptr(GPtrArray) warnings = g_ptr_array_new_with_free_func ((GDestroyNotify) suanli_plan_issue_free);
  g_autoptr(SuanliPlanComparison) comparison = NULL;
  g_autoptr(SuanliJobMatch) match = NULL;
  g_autofree char *unknown_job = NULL;
  SuanliPlanTie tie = SUANLI_PLAN_TIE_UNKNOWN;
  SuanliPlanInputs inputs = { 0 };
  SuanliEstimate estimate = { 0 };

  if (trace != NULL && workspace != NULL && self->figures != NULL && self->figures->trace == trace)
    {
      SuanliPlan *plan = suanli_workspace_get_plan (workspace);
      SuanliCatalog *catalog = suanli_workspace_get_catalog (workspace);

      if (suanli_plan_inputs_resolve (plan, catalog, &inputs, errors, warnings))
        {
          g_autofree char *name = suanli_plan_name_dup (plan, &inputs);

          match = suanli_job_match_new (trace, catalog, name, &inputs);
          suanli_estimate_compute (&inputs, &estimate);
          if (match->same_job)
            tie = suanli_plan_trace_tie (plan, name, trace);
          if (tie != SUANLI_PLAN_TIE_UNKNOWN)
            comparison = suanli_plan_comparison_new (name, &inputs, &estimate, self->figures);
          else if (match->same_job)
            unknown_job = g_steal_pointer (&name);
        }
    }
  show_comparison (self, comparison);
  /* Only the user's tie is the user's to take back; a trace that names the plan stays compared. */
  gtk_widget_set_visible (self->untie_button, comparison != NULL && tie == SUANLI_PLAN_TIE_TIED);
  show_other_job (self, match != NULL && (!match->same_job || unknown_job != NULL) ? match : NULL, unknown_job);
}

/* This Trace Is of This Plan's Job, and its undoing: the plan's "traces" list the trace or not. */
static void
tie_action (GtkWidget  *widget,
            const char *action_name,
            GVariant   *parameter)
{
  SuanliAgainstPlanView *self = SUANLI_AGAINST_PLAN_VIEW (widget);
  gboolean tied = g_str_equal (action_name, "against-plan.tie");

  if (self->workspace == NULL || self->trace == NULL)
    return;
  suanli_plan_trace_set_tied (suanli_workspace_get_plan (self->workspace), self->trace, tied);
  suanli_profile_toast (widget, tied ? _("The plan now counts this trace as of its job (undo in the planner)")
                                     : _("The plan no longer counts this trace as of its job (undo in the planner)"));
}

/* The workspace's plan, watched for changes (or another plan set in its place). */
static void
watch_plan (SuanliAgainstPlanView *self)
{
  SuanliWorkspace *workspace = self->workspace;
  SuanliPlan *plan = workspace != NULL ? suanli_workspace_get_plan (workspace) : NULL;

  if (self->watched_plan != NULL)
    g_signal_handlers_disconnect_by_func (self->watched_plan, compare_with_plan, self);
  g_clear_object (&self->watched_plan);
  if (plan != NULL)
    {
      self->watched_plan = g_object_ref (plan);
      g_signal_connect_swapped (plan, "changed", G_CALLBACK (compare_with_plan), self);
    }
  compare_with_plan (self);
}

/* The workspace whose plan the trace is set against (once, by the page). */
void
suanli_against_plan_view_set_workspace (SuanliAgainstPlanView *self,
                                        SuanliWorkspace       *workspace)
{
  g_return_if_fail (SUANLI_IS_AGAINST_PLAN_VIEW (self));
  g_return_if_fail (self->workspace == NULL);

  self->workspace = g_object_ref (workspace);
  g_signal_connect_swapped (workspace, "plan-replaced", G_CALLBACK (watch_plan), self);
  /* A trace opened before the catalog loaded is matched again once it has. */
  g_signal_connect_swapped (suanli_workspace_get_catalog (workspace), "items-changed", G_CALLBACK (compare_with_plan), self);
  watch_plan (self);
}

/* The trace shown (NULL: none); it is compared once its figures come (set_figures). */
void
suanli_against_plan_view_set_trace (SuanliAgainstPlanView *self,
                                    SuanliTrace           *trace)
{
  g_return_if_fail (SUANLI_IS_AGAINST_PLAN_VIEW (self));

  g_set_object (&self->trace, trace);
}

/* The figures the comparison is made from (NULL: none), kept by the caller until it sets others:
 * they count when they are of the trace shown. The comparison is made again. */
void
suanli_against_plan_view_set_figures (SuanliAgainstPlanView *self,
                                      SuanliTraceFigures    *figures)
{
  g_return_if_fail (SUANLI_IS_AGAINST_PLAN_VIEW (self));

  self->figures = figures;
  compare_with_plan (self);
}

/* The comparison shown, as text, or NULL when none is shown. */
const char *
suanli_against_plan_view_get_text (SuanliAgainstPlanView *self)
{
  g_return_val_if_fail (SUANLI_IS_AGAINST_PLAN_VIEW (self), NULL);

  return gtk_widget_get_visible (self->plan_box) ? self->plan_text : NULL;
}

/* What the view says instead of a comparison when the trace is of another job, or NULL. */
const char *
suanli_against_plan_view_get_other_job (SuanliAgainstPlanView *self)
{
  g_return_val_if_fail (SUANLI_IS_AGAINST_PLAN_VIEW (self), NULL);

  return gtk_widget_get_visible (self->job_box) ? gtk_label_get_text (self->job_label) : NULL;
}

/* Plan for This Hardware: the plan keeps its model and workload, and takes the trace's accelerator
 * and GPU count (eight to a node when they split so); a split of the model the new count cannot
 * take is dropped for plain data parallelism. */
static void
plan_from_trace_action (GtkWidget  *widget,
                        const char *action_name,
                        GVariant   *parameter)
{
  SuanliAgainstPlanView *self = SUANLI_AGAINST_PLAN_VIEW (widget);
  SuanliWorkspace *workspace = self->workspace;
  SuanliPlan *plan = workspace != NULL ? suanli_workspace_get_plan (workspace) : NULL;
  g_autoptr(GPtrArray) errors = g_ptr_array_new_with_free_func ((GDestroyNotify) suanli_plan_issue_free);
  g_autoptr(GPtrArray) warnings = g_ptr_array_new_with_free_func ((GDestroyNotify) suanli_plan_issue_free);
  g_autoptr(JsonBuilder) builder = json_builder_new ();
  g_autoptr(JsonNode) patch = NULL;
  SuanliPlanInputs inputs = { 0 };
  guint gpus = self->trace_gpus, per_node = gpus > 8 && gpus % 8 == 0 ? 8 : gpus;
  gboolean split_fits = TRUE;
  g_autofree char *done = NULL;

  if (plan == NULL || self->trace_accelerator == NULL || gpus == 0)
    return;
  if (suanli_plan_inputs_resolve (plan, suanli_workspace_get_catalog (workspace), &inputs, errors, warnings))
    split_fits = fmod ((double) gpus, MAX (1, inputs.tensor * inputs.pipeline)) == 0;
  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "system");
  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "accelerator");
  json_builder_add_string_value (builder, self->trace_accelerator);
  json_builder_set_member_name (builder, "gpus_per_node");
  json_builder_add_int_value (builder, per_node);
  json_builder_set_member_name (builder, "nodes");
  json_builder_add_int_value (builder, gpus / per_node);
  json_builder_set_member_name (builder, "cloud_instance");   /* its GPUs are another accelerator's */
  json_builder_add_null_value (builder);
  json_builder_end_object (builder);
  if (!split_fits)
    {
      json_builder_set_member_name (builder, "parallelism");
      json_builder_begin_object (builder);
      for (const char * const *key = (const char * const[]) { "tensor", "pipeline", "data", "virtual_stages", NULL };
           *key != NULL; key++)
        {
          json_builder_set_member_name (builder, *key);
          json_builder_add_null_value (builder);
        }
      json_builder_end_object (builder);
    }
  json_builder_end_object (builder);
  patch = json_builder_get_root (builder);
  suanli_plan_apply_merge_patch (plan, patch);
  done = g_strdup_printf (_("The plan now runs on the trace's %u GPUs (undo in the planner)"), gpus);
  suanli_profile_toast (GTK_WIDGET (self), done);
}

/* Opens @file as the workspace's plan, to set the trace against. */
gboolean
suanli_against_plan_view_open_plan (SuanliAgainstPlanView  *self,
                                    GFile                  *file,
                                    GError                **error)
{
  SuanliWorkspace *workspace = self->workspace;
  g_autoptr(SuanliPlan) loaded = suanli_plan_new_from_file (file, error);
  g_autofree char *uri = NULL;

  g_return_val_if_fail (SUANLI_IS_AGAINST_PLAN_VIEW (self), FALSE);

  if (loaded == NULL || workspace == NULL)
    return FALSE;
  suanli_plan_replace (suanli_workspace_get_plan (workspace), loaded);
  /* The planner's Save now writes this file, not the one it showed before. */
  suanli_workspace_set_plan_file (workspace, file);
  uri = g_file_get_uri (file);
  gtk_recent_manager_add_item (gtk_recent_manager_get_default (), uri);
  return TRUE;
}

/* Open Another Plan…'s answer; what goes wrong goes to a toast. */
static void
on_plan_response (GtkNativeDialog       *dialog,
                  int                    response,
                  SuanliAgainstPlanView *self)
{
  suanli_profile_use_chosen_file (dialog, response, GTK_WIDGET (self),
                                  (SuanliProfileFileUse) suanli_against_plan_view_open_plan);
}

static void
open_plan_action (GtkWidget  *widget,
                  const char *action_name,
                  GVariant   *parameter)
{
  SuanliAgainstPlanView *self = SUANLI_AGAINST_PLAN_VIEW (widget);

  if (self->plan_dialog == NULL)
    {
      g_autoptr(GtkFileFilter) plans = gtk_file_filter_new ();

      self->plan_dialog = suanli_profile_file_dialog_new (widget, _("Open Plan"), GTK_FILE_CHOOSER_ACTION_OPEN, _("_Open"),
                                                          FALSE, G_CALLBACK (on_plan_response), self);
      gtk_file_filter_set_name (plans, _("Plans"));
      gtk_file_filter_add_pattern (plans, "*.suanli-plan");
      gtk_file_chooser_add_filter (GTK_FILE_CHOOSER (self->plan_dialog), plans);
    }
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (self->plan_dialog));
}

static void
use_measured_action (GtkWidget  *widget,
                     const char *action_name,
                     GVariant   *parameter)
{
  SuanliAgainstPlanView *self = SUANLI_AGAINST_PLAN_VIEW (widget);
  SuanliWorkspace *workspace = self->workspace;
  g_autofree char *data = NULL;
  char number[SUANLI_JSON_NUMBER_SIZE];

  if (!(self->measured_mfu >= SUANLI_PLAN_MIN_SHARE) || self->measured_mfu > 1)
    {
      suanli_profile_toast (GTK_WIDGET (self), _("The measured step implies no usable MFU"));
      return;
    }
  /* Four decimals: more than a measurement says. */
  suanli_json_format_number (round (self->measured_mfu * 1e4) / 1e4, number);
  data = g_strdup_printf ("{\"assumptions\": {\"mfu\": %s}}", number);
  if (workspace != NULL && suanli_plan_apply_merge_patch_data (suanli_workspace_get_plan (workspace), data, NULL))
    suanli_profile_toast (GTK_WIDGET (self), _("The plan now assumes the measured MFU"));
}

static void
suanli_against_plan_view_dispose (GObject *object)
{
  SuanliAgainstPlanView *self = SUANLI_AGAINST_PLAN_VIEW (object);

  if (self->workspace != NULL)
    {
      g_signal_handlers_disconnect_by_func (self->workspace, watch_plan, self);
      g_signal_handlers_disconnect_by_func (suanli_workspace_get_catalog (self->workspace), compare_with_plan, self);
    }
  if (self->watched_plan != NULL)
    g_signal_handlers_disconnect_by_func (self->watched_plan, compare_with_plan, self);
  g_clear_object (&self->watched_plan);
  g_clear_object (&self->workspace);
  g_clear_object (&self->trace);
  self->figures = NULL;
  suanli_profile_file_dialog_destroy (&self->plan_dialog);
  gtk_widget_dispose_template (GTK_WIDGET (self), SUANLI_TYPE_AGAINST_PLAN_VIEW);
  G_OBJECT_CLASS (suanli_against_plan_view_parent_class)->dispose (object);
}

static void
suanli_against_plan_view_finalize (GObject *object)
{
  SuanliAgainstPlanView *self = SUANLI_AGAINST_PLAN_VIEW (object);

  g_free (self->plan_text);
  g_free (self->trace_accelerator);
  G_OBJECT_CLASS (suanli_against_plan_view_parent_class)->finalize (object);
}

static void
suanli_against_plan_view_class_init (SuanliAgainstPlanViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = suanli_against_plan_view_dispose;
  object_class->finalize = suanli_against_plan_view_finalize;
  gtk_widget_class_install_action (widget_class, "against-plan.use-measured", NULL, use_measured_action);
  gtk_widget_class_install_action (widget_class, "against-plan.plan-from-trace", NULL, plan_from_trace_action);
  gtk_widget_class_install_action (widget_class, "against-plan.open-plan", NULL, open_plan_action);
  gtk_widget_class_install_action (widget_class, "against-plan.tie", NULL, tie_action);
  gtk_widget_class_install_action (widget_class, "against-plan.untie", NULL, tie_action);
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_template_from_resource (widget_class, "/org/suanli/Suanli/ui/suanli-against-plan-view.ui");
  gtk_widget_class_bind_template_child (widget_class, SuanliAgainstPlanView, box);
  gtk_widget_class_bind_template_child (widget_class, SuanliAgainstPlanView, plan_box);
  gtk_widget_class_bind_template_child (widget_class, SuanliAgainstPlanView, plan_label);
  gtk_widget_class_bind_template_child (widget_class, SuanliAgainstPlanView, plan_warning);
  gtk_widget_class_bind_template_child (widget_class, SuanliAgainstPlanView, plan_figures);
  gtk_widget_class_bind_template_child (widget_class, SuanliAgainstPlanView, job_box);
  gtk_widget_class_bind_template_child (widget_class, SuanliAgainstPlanView, job_label);
  gtk_widget_class_bind_template_child (widget_class, SuanliAgainstPlanView, plan_from_trace_button);
  gtk_widget_class_bind_template_child (widget_class, SuanliAgainstPlanView, tie_button);
  gtk_widget_class_bind_template_child (widget_class, SuanliAgainstPlanView, untie_button);
}

static void
suanli_against_plan_view_init (SuanliAgainstPlanView *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
}

GtkWidget *
suanli_against_plan_view_new (void)
{
  return g_object_new (SUANLI_TYPE_AGAINST_PLAN_VIEW, NULL);
}
