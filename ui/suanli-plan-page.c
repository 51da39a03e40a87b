/* suanli-plan-page.c — the planner page: a configuration builder with live estimates and advice
 *
 * The page edits the workspace's plan. Every change — a field, an advice applied, a configuration
 * found, undo, a file opened — goes through the plan, which emits "changed"; the page then keeps
 * the previous document for undo, schedules an autosave, resolves and estimates (microseconds), and
 * hands the results to its SuanliPlanResultsView (the fit, the bars, the cards, advice and issues).
 * The form, the charts and the explanations all read the same estimate.
 *
 * The page's actions (files, the report, advice, Pin and Compare, Find) and the dialogs they open
 * are in suanli-plan-page-actions.c, which shares the page's fields through
 * suanli-plan-page-private.h.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <adwaita.h>
#include <glib/gstdio.h>

#include "suanli-plan-name.h"
#include "suanli-plan-page-private.h"

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

/* An advice's Apply, in the results: the page's action applies it (and offers to undo it). */
static void
on_apply_advice (SuanliPlanPage *self,
                 guint           index)
{
  gtk_widget_activate_action (GTK_WIDGET (self), "plan.apply-advice", "u", index);
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
  suanli_plan_results_view_show (self->results_view, self->valid, &self->inputs, &self->estimate, self->catalog,
                                 self->advice, self->errors, self->warnings);
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
  _suanli_plan_page_dismiss_applied (self);

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

/* Leaving the planner: its toasts about the plan stay with it. */
static void
suanli_plan_page_unmap (GtkWidget *widget)
{
  _suanli_plan_page_dismiss_applied (SUANLI_PLAN_PAGE (widget));
  GTK_WIDGET_CLASS (suanli_plan_page_parent_class)->unmap (widget);
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
  widget_class->unmap = suanli_plan_page_unmap;

  /* The plan's name in effect (the window's title shows it). */
  properties[PROP_PLAN_NAME] =
    g_param_spec_string ("plan-name", NULL, NULL, NULL, G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY |
                         G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  g_type_ensure (SUANLI_TYPE_PLAN_FORM);
  g_type_ensure (SUANLI_TYPE_PLAN_NAME_ROW);
  g_type_ensure (SUANLI_TYPE_PLAN_RESULTS_VIEW);
  gtk_widget_class_set_template_from_resource (widget_class, "/org/suanli/Suanli/ui/suanli-plan-page.ui");
  gtk_widget_class_bind_template_child (widget_class, SuanliPlanPage, name_row);
  gtk_widget_class_bind_template_child (widget_class, SuanliPlanPage, form);
  gtk_widget_class_bind_template_child (widget_class, SuanliPlanPage, recent_button);
  gtk_widget_class_bind_template_child (widget_class, SuanliPlanPage, file_label);
  gtk_widget_class_bind_template_child (widget_class, SuanliPlanPage, compare_button);
  gtk_widget_class_bind_template_child (widget_class, SuanliPlanPage, find_button);
  gtk_widget_class_bind_template_child (widget_class, SuanliPlanPage, results_view);

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
  g_signal_connect_object (self->results_view, "apply-advice", G_CALLBACK (on_apply_advice), self, G_CONNECT_SWAPPED);

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
