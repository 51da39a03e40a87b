/* suanli-plan-page-actions.c — the planner page's actions and the dialogs and windows they open
 *
 * Everything the page's buttons and keys do: undo and redo, Open, Save and Open Recent with their
 * file dialogs, Export Report (written on a worker thread), applying advice, Pin and Compare, and
 * Find Configurations. The page itself (suanli-plan-page.c) estimates the plan and shows it.
 *
 * The page calls this file (to install the actions, to update them, to let its dialogs go); this
 * file calls nothing of the page's, as no two files call each other (docs/architecture.md): it
 * reaches the page's fields through suanli-plan-page-private.h, and casts without
 * SUANLI_PLAN_PAGE (), whose type check would call into suanli-plan-page.c. The actions are the
 * page's own, so the widget they get is always a SuanliPlanPage.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <adwaita.h>
#include <glib/gi18n.h>

#include "suanli-compare-window.h"
#include "suanli-plan-compare.h"
#include "suanli-plan-name.h"
#include "suanli-plan-page-private.h"
#include "suanli-recent-menu.h"
#include "suanli-report.h"
#include "suanli-search-window.h"
#include "suanli-units.h"

#define PAGE(widget) ((SuanliPlanPage *) (widget))
#define MAX_PINNED 3

void
_suanli_plan_page_update_actions (SuanliPlanPage *self)
{
  g_autofree char *compare = g_strdup_printf (_("Compare (%u)"), self->pinned->len);

  gtk_widget_action_set_enabled (GTK_WIDGET (self), "plan.undo", self->undo->len > 0);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "plan.redo", self->redo->len > 0);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "plan.compare", self->pinned->len > 0);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "plan.pin", self->valid);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "plan.export-report", self->valid);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "plan.find", self->valid);
  /* Greyed out, the button says why. */
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->find_button),
                               !self->valid ? _("The plan has errors: mend the fields marked in red to search")
                               : !suanli_plan_inputs_is_training (&self->inputs)
                               ? _("Search accelerators, GPU counts and tensor parallelism that serve this plan's "
                                   "requests per second, cheapest an hour first")
                               : _("Search accelerators, GPU counts and parallelism for this job"));
  gtk_button_set_label (self->compare_button, compare);
  if (self->file != NULL)
    {
      g_autofree char *name = g_file_get_parse_name (self->file);
      gtk_label_set_text (self->file_label, name);
    }
  else
    gtk_label_set_text (self->file_label, _("Not saved"));
}

/* Puts the document @data back into the plan without recording it as a new change. */
static void
restore (SuanliPlanPage *self,
         const char     *data)
{
  g_autoptr(SuanliPlan) previous = suanli_plan_new_from_data (data, -1, "undo", NULL);

  if (previous == NULL)
    return;
  self->restoring = TRUE;
  suanli_plan_replace (self->plan, previous);
  self->restoring = FALSE;
}

static void
undo_action (GtkWidget  *widget,
             const char *action_name,
             GVariant   *parameter)
{
  SuanliPlanPage *self = PAGE (widget);
  GPtrArray *from = g_str_equal (action_name, "plan.undo") ? self->undo : self->redo;
  GPtrArray *to = from == self->undo ? self->redo : self->undo;
  g_autofree char *data = NULL;

  if (from->len == 0)
    return;
  data = g_ptr_array_steal_index (from, from->len - 1);
  g_ptr_array_add (to, g_strdup (self->snapshot));
  restore (self, data);
}

/* The toast overlay is the window's, above the page: its buttons cannot reach the page's actions by
 * name, so they call them. */
static void
undo_from_toast (SuanliPlanPage *self)
{
  gtk_widget_activate_action (GTK_WIDGET (self), "plan.undo", NULL);
}

static void
open_report_from_toast (AdwToast       *toast,
                        SuanliPlanPage *self)
{
  gtk_widget_activate_action (GTK_WIDGET (self), "plan.open-report", "s", g_object_get_data (G_OBJECT (toast), "uri"));
}

static void
show_toast (SuanliPlanPage *self,
            const char     *message)
{
  GtkWidget *overlay = gtk_widget_get_ancestor (GTK_WIDGET (self), ADW_TYPE_TOAST_OVERLAY);

  if (overlay != NULL)
    adw_toast_overlay_add_toast (ADW_TOAST_OVERLAY (overlay), adw_toast_new (message));
}

/* Makes @file the one Save writes, here and for the workspace's other pages. */
static void
set_file (SuanliPlanPage *self,
          GFile          *file)
{
  SuanliWorkspace *workspace = suanli_page_get_workspace (SUANLI_PAGE (self));

  g_set_object (&self->file, file);
  if (workspace != NULL)
    suanli_workspace_set_plan_file (workspace, file);
  _suanli_plan_page_update_actions (self);
}

/* Opens @file into the workspace's plan (undoable). On error the plan, and the file Save writes,
 * are left as they were: Save must never write the plan shown over a file that failed to open. */
gboolean
_suanli_plan_page_load_file (SuanliPlanPage  *self,
                             GFile           *file,
                             GError         **error)
{
  g_autoptr(SuanliPlan) loaded = NULL;
  g_autofree char *uri = NULL;

  loaded = suanli_plan_new_from_file (file, error);
  if (loaded == NULL)
    return FALSE;
  suanli_plan_replace (self->plan, loaded);
  set_file (self, file);
  uri = g_file_get_uri (file);
  gtk_recent_manager_add_item (gtk_recent_manager_get_default (), uri);
  return TRUE;
}

gboolean
_suanli_plan_page_save_file (SuanliPlanPage  *self,
                             GFile           *file,
                             GError         **error)
{
  g_autofree char *uri = NULL;

  if (!suanli_plan_save (self->plan, file, error))
    return FALSE;
  set_file (self, file);
  uri = g_file_get_uri (file);
  gtk_recent_manager_add_item (gtk_recent_manager_get_default (), uri);
  return TRUE;
}

static void
on_dialog_response (GtkNativeDialog *dialog,
                    int              response,
                    gpointer         user_data)
{
  SuanliPlanPage *self = PAGE (user_data);
  gboolean saving = gtk_file_chooser_get_action (GTK_FILE_CHOOSER (dialog)) == GTK_FILE_CHOOSER_ACTION_SAVE;
  g_autoptr(GFile) file = NULL;
  g_autoptr(GError) error = NULL;

  if (response != GTK_RESPONSE_ACCEPT)
    return;
  file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (dialog));
  if (!(saving ? _suanli_plan_page_save_file (self, file, &error) : _suanli_plan_page_load_file (self, file, &error)))
    {
      g_autofree char *message = g_strdup_printf (saving ? _("Cannot save the plan: %s") : _("Cannot open the plan: %s"),
                                                  error->message);
      show_toast (self, message);
    }
}

/* "Llama 2 70B LoRA on 8 × H100 SXM.pdf": the plan's name as a file name. */
static char *
suggested_file_name (SuanliPlanPage *self,
                     const char     *extension)
{
  char *name = g_strconcat (self->name, extension, NULL);

  return g_strdelimit (name, "/\\", '-');
}

static void
choose_file (SuanliPlanPage       *self,
             GtkFileChooserAction  action)
{
  GtkWindow *parent = GTK_WINDOW (gtk_widget_get_root (GTK_WIDGET (self)));
  g_autoptr(GtkFileFilter) filter = gtk_file_filter_new ();
  g_autofree char *name = suggested_file_name (self, ".suanli-plan");

  if (self->dialog != NULL)
    gtk_native_dialog_destroy (GTK_NATIVE_DIALOG (self->dialog));
  g_clear_object (&self->dialog);
  self->dialog = gtk_file_chooser_native_new (action == GTK_FILE_CHOOSER_ACTION_SAVE ? _("Save Plan") : _("Open Plan"),
                                              parent, action,
                                              action == GTK_FILE_CHOOSER_ACTION_SAVE ? _("_Save") : _("_Open"),
                                              _("_Cancel"));
  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (self->dialog), TRUE);
  gtk_file_filter_set_name (filter, _("Plans"));
  gtk_file_filter_add_pattern (filter, "*.suanli-plan");
  gtk_file_chooser_add_filter (GTK_FILE_CHOOSER (self->dialog), filter);
  if (action == GTK_FILE_CHOOSER_ACTION_SAVE)
    gtk_file_chooser_set_current_name (GTK_FILE_CHOOSER (self->dialog), name);
  g_signal_connect (self->dialog, "response", G_CALLBACK (on_dialog_response), self);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (self->dialog));
}

static void
file_action (GtkWidget  *widget,
             const char *action_name,
             GVariant   *parameter)
{
  SuanliPlanPage *self = PAGE (widget);
  g_autoptr(GError) error = NULL;

  if (g_str_equal (action_name, "plan.open"))
    choose_file (self, GTK_FILE_CHOOSER_ACTION_OPEN);
  else if (g_str_equal (action_name, "plan.save") && self->file != NULL)
    {
      if (!_suanli_plan_page_save_file (self, self->file, &error))
        {
          g_autofree char *message = g_strdup_printf (_("Cannot save the plan: %s"), error->message);
          show_toast (self, message);
        }
    }
  else
    choose_file (self, GTK_FILE_CHOOSER_ACTION_SAVE);
}

/* ---- report ------------------------------------------------------------------------------- */

typedef struct
{
  SuanliReport *report;
  GFile        *file;
  guint         pages;
} ReportJob;

static void
report_job_free (ReportJob *job)
{
  suanli_report_free (job->report);
  g_object_unref (job->file);
  g_free (job);
}

static void
write_report (GTask        *task,
              gpointer      source,
              gpointer      data,
              GCancellable *cancellable)
{
  ReportJob *job = data;
  g_autofree char *path = g_file_get_path (job->file);
  GError *error = NULL;

  if (path == NULL)
    g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED, _("Reports are written to local files only"));
  else if (!suanli_report_write (job->report, path, &job->pages, &error))
    g_task_return_error (task, error);
  else
    g_task_return_boolean (task, TRUE);
}

static void
on_report_written (GObject      *source,
                   GAsyncResult *result,
                   gpointer      data)
{
  SuanliPlanPage *self = PAGE (source);
  ReportJob *job = g_task_get_task_data (G_TASK (result));
  g_autoptr(GError) error = NULL;
  GtkWidget *overlay = gtk_widget_get_ancestor (GTK_WIDGET (self), ADW_TYPE_TOAST_OVERLAY);

  self->exporting--;
  if (self->export_toast != NULL && self->exporting == 0)
    adw_toast_dismiss (self->export_toast);
  if (self->exporting == 0)
    g_clear_object (&self->export_toast);
  if (!g_task_propagate_boolean (G_TASK (result), &error))
    {
      g_autofree char *message = g_strdup_printf (_("Cannot export the report: %s"), error->message);

      show_toast (self, message);
      return;
    }
  if (suanli_report_get_font_warning (job->report) != NULL)
    show_toast (self, suanli_report_get_font_warning (job->report));
  if (overlay != NULL)
    {
      g_autofree char *name = g_file_get_basename (job->file);
      g_autofree char *title = g_strdup_printf (ngettext ("Report written: %s, %u page", "Report written: %s, %u pages",
                                                          job->pages), name, job->pages);
      g_autofree char *uri = g_file_get_uri (job->file);
      AdwToast *toast = adw_toast_new (title);

      adw_toast_set_button_label (toast, _("_Open"));
      g_object_set_data_full (G_OBJECT (toast), "uri", g_steal_pointer (&uri), g_free);
      g_signal_connect_object (toast, "button-clicked", G_CALLBACK (open_report_from_toast), self, 0);
      adw_toast_overlay_add_toast (ADW_TOAST_OVERLAY (overlay), toast);
    }
}

/* Writes the plan as it is now as a PDF report on a worker thread, with the pinned plans beside
 * it and the workspace's trace, if any; a toast says when it is done (with "Open") or why not.
 * Returns: whether it started (the plan must be valid).
 */
gboolean
_suanli_plan_page_export_report (SuanliPlanPage *self,
                                 GFile          *file,
                                 SuanliPaper     paper)
{
  SuanliWorkspace *workspace = suanli_page_get_workspace (SUANLI_PAGE (self));
  SuanliTrace *trace = NULL;
  g_autoptr(GTask) task = NULL;
  ReportJob *job;
  GtkWidget *overlay = gtk_widget_get_ancestor (GTK_WIDGET (self), ADW_TYPE_TOAST_OVERLAY);

  if (!self->valid)
    return FALSE;
  job = g_new0 (ReportJob, 1);
  job->file = g_object_ref (file);
  job->report = suanli_report_new (self->plan, self->catalog, &self->inputs, self->warnings);
  suanli_report_set_paper (job->report, paper);
  for (guint i = 0; i < self->pinned->len; i++)
    {
      Pinned *pinned = g_ptr_array_index (self->pinned, i);
      g_autofree char *name = g_strdelimit (g_strdup (pinned->name), "\n", ' ');

      suanli_report_add_comparison (job->report, name, &pinned->inputs, &pinned->estimate);
    }
  if (workspace != NULL)
    trace = suanli_workspace_get_trace (workspace);
  if (trace != NULL && suanli_trace_get_n_groups (trace) > 0)
    {
      g_autofree char *name = g_path_get_basename (suanli_trace_get_string (trace, suanli_trace_get_group (trace, 0)->name));

      suanli_report_set_trace (job->report, trace, name);
    }
  self->exporting++;
  if (overlay != NULL && self->export_toast == NULL)
    {
      self->export_toast = adw_toast_new (_("Writing the report…"));
      adw_toast_set_timeout (self->export_toast, 0);
      adw_toast_overlay_add_toast (ADW_TOAST_OVERLAY (overlay), g_object_ref (self->export_toast));
    }
  task = g_task_new (self, NULL, on_report_written, NULL);
  g_task_set_task_data (task, job, (GDestroyNotify) report_job_free);
  g_task_run_in_thread (task, write_report);
  return TRUE;
}

static void
on_report_dialog_response (GtkNativeDialog *dialog,
                           int              response,
                           gpointer         user_data)
{
  SuanliPlanPage *self = PAGE (user_data);
  const char *paper_nick = gtk_file_chooser_get_choice (GTK_FILE_CHOOSER (dialog), "paper");
  g_autoptr(GFile) file = NULL;
  SuanliPaper paper = SUANLI_PAPER_A4;

  if (response != GTK_RESPONSE_ACCEPT)
    return;
  file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (dialog));
  if (paper_nick != NULL)
    suanli_paper_from_nick (paper_nick, &paper);
  _suanli_plan_page_export_report (self, file, paper);
}

/* Export Report…: where to, and on which paper. */
static void
export_report_action (GtkWidget  *widget,
                      const char *action_name,
                      GVariant   *parameter)
{
  SuanliPlanPage *self = PAGE (widget);
  g_autoptr(GtkFileFilter) filter = gtk_file_filter_new ();
  g_autofree char *name = NULL;
  const char *papers[] = { "a4", "letter", NULL };
  const char *paper_labels[] = { _("A4"), _("Letter"), NULL };

  if (!self->valid)
    return;
  if (self->report_dialog != NULL)
    gtk_native_dialog_destroy (GTK_NATIVE_DIALOG (self->report_dialog));
  g_clear_object (&self->report_dialog);
  self->report_dialog = gtk_file_chooser_native_new (_("Export Report"), GTK_WINDOW (gtk_widget_get_root (widget)),
                                                     GTK_FILE_CHOOSER_ACTION_SAVE, _("_Export"), _("_Cancel"));
  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (self->report_dialog), TRUE);
  gtk_file_filter_set_name (filter, _("PDF documents"));
  gtk_file_filter_add_mime_type (filter, "application/pdf");
  gtk_file_chooser_add_filter (GTK_FILE_CHOOSER (self->report_dialog), filter);
  gtk_file_chooser_add_choice (GTK_FILE_CHOOSER (self->report_dialog), "paper", _("Paper"), papers, paper_labels);
  gtk_file_chooser_set_choice (GTK_FILE_CHOOSER (self->report_dialog), "paper", "a4");
  name = suggested_file_name (self, ".pdf");
  gtk_file_chooser_set_current_name (GTK_FILE_CHOOSER (self->report_dialog), name);
  g_signal_connect (self->report_dialog, "response", G_CALLBACK (on_report_dialog_response), self);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (self->report_dialog));
}

/* The toast's Open: the report in the desktop's PDF viewer. */
static void
open_report_action (GtkWidget  *widget,
                    const char *action_name,
                    GVariant   *parameter)
{
  gtk_show_uri (GTK_WINDOW (gtk_widget_get_root (widget)), g_variant_get_string (parameter, NULL), GDK_CURRENT_TIME);
}

static void
open_recent_action (GtkWidget  *widget,
                    const char *action_name,
                    GVariant   *parameter)
{
  SuanliPlanPage *self = PAGE (widget);
  g_autoptr(GFile) file = g_file_new_for_uri (g_variant_get_string (parameter, NULL));
  g_autoptr(GError) error = NULL;

  if (!_suanli_plan_page_load_file (self, file, &error))
    {
      g_autofree char *message = g_strdup_printf (_("Cannot open the plan: %s"), error->message);
      show_toast (self, message);
    }
}

/* The recent-plans menu, rebuilt when it opens. */
void
_suanli_plan_page_update_recent_menu (SuanliPlanPage *self)
{
  static const char * const plans[] = { ".suanli-plan", NULL };
  g_autoptr(GMenuModel) menu = suanli_recent_menu_new (plans, "plan.open-recent", "plan.none", _("No recent plans"));

  gtk_menu_button_set_menu_model (self->recent_button, menu);
}

/* ---- advice ------------------------------------------------------------------------------- */

/* The "Applied" toast goes once its Undo would take back another change than its own (the plan
 * changed again) or once the planner is left: it is about this page. */
void
_suanli_plan_page_dismiss_applied (SuanliPlanPage *self)
{
  if (self->applied_toast != NULL)
    adw_toast_dismiss (self->applied_toast);
  g_clear_object (&self->applied_toast);
}

static void
apply_advice_action (GtkWidget  *widget,
                     const char *action_name,
                     GVariant   *parameter)
{
  SuanliPlanPage *self = PAGE (widget);
  guint index = g_variant_get_uint32 (parameter);
  g_autofree char *change = NULL;
  g_autofree char *text = NULL;
  g_autoptr(GError) error = NULL;
  GtkWidget *overlay;

  if (self->advice == NULL || index >= self->advice->len)
    return;
  change = g_strdup (((SuanliAdvice *) g_ptr_array_index (self->advice, index))->change);
  text = g_strdup (((SuanliAdvice *) g_ptr_array_index (self->advice, index))->text);
  if (!suanli_plan_apply_merge_patch_data (self->plan, change, &error))
    {
      g_critical ("advice change: %s", error->message);
      return;
    }
  /* One click undoes it: the toast's button, or Ctrl+Z. */
  overlay = gtk_widget_get_ancestor (GTK_WIDGET (self), ADW_TYPE_TOAST_OVERLAY);
  if (overlay != NULL)
    {
      g_autofree char *escaped = g_markup_escape_text (text, -1);
      g_autofree char *title = g_strdup_printf (_("Applied: %s"), escaped);
      AdwToast *toast = adw_toast_new (title);

      adw_toast_set_button_label (toast, _("_Undo"));
      g_signal_connect_object (toast, "button-clicked", G_CALLBACK (undo_from_toast), self, G_CONNECT_SWAPPED);
      g_set_object (&self->applied_toast, toast);
      adw_toast_overlay_add_toast (ADW_TOAST_OVERLAY (overlay), toast);
    }
}

/* ---- pin and compare ---------------------------------------------------------------------- */

static void
pin_action (GtkWidget  *widget,
            const char *action_name,
            GVariant   *parameter)
{
  SuanliPlanPage *self = PAGE (widget);
  Pinned *pinned;

  if (!self->valid)
    return;
  pinned = g_new0 (Pinned, 1);
  pinned->inputs = self->inputs;
  pinned->estimate = self->estimate;
  /* The plan's name; a name the user gave may not say the system, which tells pins of one plan apart. */
  pinned->name = suanli_plan_name_is_edited (self->plan)
                   ? g_strdup_printf ("%s\n%g × %s", self->name, self->inputs.gpus, self->inputs.accelerator_name)
                   : g_strdup (self->name);
  /* Compare has room for the current plan and MAX_PINNED pins: the oldest goes, and the user is
   * told which. */
  if (self->pinned->len >= MAX_PINNED)
    {
      Pinned *oldest = g_ptr_array_index (self->pinned, 0);
      g_autofree char *name = g_strdelimit (g_strdup (oldest->name), "\n", ' ');
      g_autofree char *escaped = g_markup_escape_text (name, -1);
      g_autofree char *message = g_strdup_printf (ngettext ("Pinned. Compare keeps %d pin: “%s” was unpinned",
                                                            "Pinned. Compare keeps %d pins: the oldest, “%s”, was unpinned",
                                                            MAX_PINNED),
                                                  MAX_PINNED, escaped);

      show_toast (self, message);
      g_ptr_array_remove_index (self->pinned, 0);
    }
  g_ptr_array_add (self->pinned, pinned);
  _suanli_plan_page_update_actions (self);
}

/* Opens the comparison of the pinned plans with the current one (suanli-plan-compare.c). */
GtkWindow *
_suanli_plan_page_open_compare (SuanliPlanPage *self)
{
  g_autofree SuanliPlanCompareColumn *columns = g_new0 (SuanliPlanCompareColumn, self->pinned->len + 1);
  guint current = self->pinned->len;

  if (self->compare_window != NULL)
    gtk_window_destroy (self->compare_window);
  for (guint c = 0; c < self->pinned->len; c++)
    {
      Pinned *pinned = g_ptr_array_index (self->pinned, c);

      columns[c] = (SuanliPlanCompareColumn) { pinned->name, &pinned->inputs, &pinned->estimate };
    }
  columns[current] = (SuanliPlanCompareColumn) { self->name, self->valid ? &self->inputs : NULL,
                                                 self->valid ? &self->estimate : NULL };
  suanli_compare_window_new (GTK_WIDGET (self), &self->compare_window, _("Compare Plans"), 860, 640, NULL,
                             suanli_plan_compare_new (columns, current + 1, current));
  gtk_window_present (self->compare_window);
  return self->compare_window;
}

static void
compare_action (GtkWidget  *widget,
                const char *action_name,
                GVariant   *parameter)
{
  _suanli_plan_page_open_compare (PAGE (widget));
}

/* ---- find configurations ------------------------------------------------------------------ */

static void
on_search_apply (SuanliSearchWindow *window,
                 const char         *patch,
                 gpointer            user_data)
{
  suanli_plan_apply_merge_patch_data (PAGE (user_data)->plan, patch, NULL);
}

/* Opens "Find configurations"; the configuration the user applies comes back as a merge patch. */
GtkWindow *
_suanli_plan_page_open_search (SuanliPlanPage *self)
{
  if (self->search_window != NULL)
    gtk_window_destroy (self->search_window);
  self->search_window = GTK_WINDOW (suanli_search_window_new (GTK_WINDOW (gtk_widget_get_root (GTK_WIDGET (self))),
                                                              self->plan, self->catalog));
  g_object_add_weak_pointer (G_OBJECT (self->search_window), (gpointer *) &self->search_window);
  g_signal_connect_object (self->search_window, "apply", G_CALLBACK (on_search_apply), self, 0);
  gtk_window_present (self->search_window);
  return self->search_window;
}

static void
find_action (GtkWidget  *widget,
             const char *action_name,
             GVariant   *parameter)
{
  _suanli_plan_page_open_search (PAGE (widget));
}

void
_suanli_plan_page_class_actions_init (GtkWidgetClass *widget_class)
{
  gtk_widget_class_install_action (widget_class, "plan.undo", NULL, undo_action);
  gtk_widget_class_install_action (widget_class, "plan.redo", NULL, undo_action);
  gtk_widget_class_install_action (widget_class, "plan.open", NULL, file_action);
  gtk_widget_class_install_action (widget_class, "plan.save", NULL, file_action);
  gtk_widget_class_install_action (widget_class, "plan.save-as", NULL, file_action);
  gtk_widget_class_install_action (widget_class, "plan.open-recent", "s", open_recent_action);
  gtk_widget_class_install_action (widget_class, "plan.apply-advice", "u", apply_advice_action);
  gtk_widget_class_install_action (widget_class, "plan.pin", NULL, pin_action);
  gtk_widget_class_install_action (widget_class, "plan.compare", NULL, compare_action);
  gtk_widget_class_install_action (widget_class, "plan.find", NULL, find_action);
  gtk_widget_class_install_action (widget_class, "plan.export-report", NULL, export_report_action);
  gtk_widget_class_install_action (widget_class, "plan.open-report", "s", open_report_action);
}

/* Lets the dialogs and windows the actions opened go, with the page. */
void
_suanli_plan_page_actions_dispose (SuanliPlanPage *self)
{
  g_signal_handlers_disconnect_by_data (gtk_recent_manager_get_default (), self);
  if (self->dialog != NULL)
    gtk_native_dialog_destroy (GTK_NATIVE_DIALOG (self->dialog));
  g_clear_object (&self->dialog);
  if (self->report_dialog != NULL)
    gtk_native_dialog_destroy (GTK_NATIVE_DIALOG (self->report_dialog));
  g_clear_object (&self->report_dialog);
  g_clear_object (&self->export_toast);
  g_clear_object (&self->applied_toast);
  if (self->compare_window != NULL)
    gtk_window_destroy (self->compare_window);
  if (self->search_window != NULL)
    gtk_window_destroy (self->search_window);
}
