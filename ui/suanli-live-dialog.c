/* suanli-live-dialog.c — Live…: this machine's profilable jobs, and capturing one into the profiler
 *
 * The jobs are those started with `suanli-cli run` (or with CUDA_INJECTION64_PATH set) that have
 * reached CUDA. Capture attaches to one: once it has answered START, a new trace becomes the
 * workspace's, and the profiler page shows it growing; Stop ends the capture, the page works its
 * figures out, and Save Capture… writes the stream as it came.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>

#include "suanli-live-dialog.h"
#include "suanli-local-capture.h"

struct _SuanliLiveDialog
{
  AdwWindow          parent_instance;

  GObject           *workspace;
  GPtrArray         *jobs;           /* of SuanliLiveJob */
  SuanliLiveCapture *capture;
  GtkWidget         *job_list;       /* a GtkListBox */
  GtkWidget         *empty;          /* shown when there are no jobs */
  GtkLabel          *status;
  GtkWidget         *stop_button;
  GtkWidget         *save_button;
  GtkFileChooserNative *save_dialog;
  guint              tick;           /* updates the record count while capturing */
};

G_DEFINE_FINAL_TYPE (SuanliLiveDialog, suanli_live_dialog, ADW_TYPE_WINDOW)

static void
set_status (SuanliLiveDialog *self,
            const char       *text)
{
  gtk_label_set_text (self->status, text);
}

static const SuanliLiveJob *
find_job (SuanliLiveDialog *self,
          int               pid)
{
  for (guint i = 0; self->jobs != NULL && i < self->jobs->len; i++)
    if (((SuanliLiveJob *) g_ptr_array_index (self->jobs, i))->pid == pid)
      return g_ptr_array_index (self->jobs, i);
  return NULL;
}

static void
on_capture_clicked (GtkButton        *button,
                    SuanliLiveDialog *self)
{
  suanli_live_dialog_capture (self, GPOINTER_TO_INT (g_object_get_data (G_OBJECT (button), "pid")));
}

/* The job's state, for people. */
static const char *
state_title (const char *state)
{
  if (g_str_equal (state, "idle"))
    return C_("job state", "idle");
  if (g_str_equal (state, "capturing"))
    return C_("job state", "capturing");
  return C_("job state", "not attachable");
}

static GtkWidget *
job_row (SuanliLiveDialog    *self,
         const SuanliLiveJob *job)
{
  GtkWidget *row = adw_action_row_new ();
  GtkWidget *button = gtk_button_new_with_mnemonic (_("_Capture"));
  g_autofree char *title = g_markup_escape_text (*job->command != '\0' ? job->command : _("(no command line)"), -1);
  g_autofree char *rank = job->rank >= 0 ? g_strdup_printf (_(" · rank %d of %d"), job->rank, job->world_size) : g_strdup ("");
  g_autofree char *subtitle = g_strdup_printf (_("pid %d on %s%s · %s"), job->pid, job->host, rank,
                                               state_title (job->state));
  g_autofree char *escaped = g_markup_escape_text (subtitle, -1);

  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), title);
  adw_action_row_set_subtitle (ADW_ACTION_ROW (row), escaped);
  adw_action_row_set_title_lines (ADW_ACTION_ROW (row), 2);
  gtk_widget_set_valign (button, GTK_ALIGN_CENTER);
  gtk_widget_add_css_class (button, "suggested-action");
  gtk_widget_set_sensitive (button, g_str_equal (job->state, "idle") &&
                            (self->capture == NULL || !suanli_live_capture_is_running (self->capture)));
  g_object_set_data (G_OBJECT (button), "pid", GINT_TO_POINTER (job->pid));
  g_signal_connect (button, "clicked", G_CALLBACK (on_capture_clicked), self);
  adw_action_row_add_suffix (ADW_ACTION_ROW (row), button);
  return row;
}

/* Lists the jobs again. */
void
suanli_live_dialog_refresh (SuanliLiveDialog *self)
{
  g_autoptr(GError) error = NULL;
  GtkWidget *child;

  while ((child = gtk_widget_get_first_child (self->job_list)) != NULL)
    gtk_list_box_remove (GTK_LIST_BOX (self->job_list), child);
  g_clear_pointer (&self->jobs, g_ptr_array_unref);
  self->jobs = suanli_live_list_jobs (&error);
  if (self->jobs == NULL)
    {
      set_status (self, error->message);
      self->jobs = g_ptr_array_new ();
    }
  for (guint i = 0; i < self->jobs->len; i++)
    gtk_list_box_append (GTK_LIST_BOX (self->job_list), job_row (self, g_ptr_array_index (self->jobs, i)));
  gtk_widget_set_visible (self->job_list, self->jobs->len > 0);
  gtk_widget_set_visible (self->empty, self->jobs->len == 0);
}

guint
suanli_live_dialog_get_n_jobs (SuanliLiveDialog *self)
{
  return self->jobs != NULL ? self->jobs->len : 0;
}

static gboolean
show_progress (gpointer data)
{
  SuanliLiveDialog *self = data;
  g_autofree char *text = NULL;

  if (self->capture == NULL || !suanli_live_capture_is_running (self->capture))
    return G_SOURCE_CONTINUE;
  text = g_strdup_printf (_("Capturing: %llu records so far"),
                          (unsigned long long) suanli_live_capture_get_records (self->capture));
  set_status (self, text);
  return G_SOURCE_CONTINUE;
}

static void
on_ended (SuanliLiveCapture *capture,
          GError            *error,
          SuanliLiveDialog  *self)
{
  g_autofree char *text = NULL;

  if (error != NULL)
    text = g_strdup_printf (_("The capture ended early: %s. The %llu records that came are kept."), error->message,
                            (unsigned long long) suanli_live_capture_get_records (capture));
  else
    text = g_strdup_printf (_("Captured %llu records."), (unsigned long long) suanli_live_capture_get_records (capture));
  set_status (self, text);
  gtk_widget_set_visible (self->stop_button, FALSE);
  gtk_widget_set_sensitive (self->save_button, TRUE);
  suanli_live_dialog_refresh (self);
}

static void
on_started (GObject      *source,
            GAsyncResult *result,
            gpointer      data)
{
  g_autoptr(SuanliLiveDialog) self = data;
  SuanliLiveCapture *capture = SUANLI_LIVE_CAPTURE (source);
  g_autoptr(GError) error = NULL;

  if (!suanli_live_capture_start_finish (capture, result, &error))
    {
      set_status (self, error->message);
      if (self->capture == capture)
        g_clear_object (&self->capture);
      suanli_live_dialog_refresh (self);
      return;
    }
  /* Only now is the trace the workspace's: it is growing from here on, and the page knows it. */
  if (self->workspace != NULL)
    g_object_set (self->workspace, "trace", suanli_live_capture_get_trace (capture), NULL);
  gtk_widget_set_visible (self->stop_button, TRUE);
  gtk_widget_set_sensitive (self->save_button, FALSE);
  show_progress (self);
}

/**
 * suanli_live_dialog_capture:
 * @pid: a listed job's
 *
 * Starts capturing that job (what the row's Capture does). Returns: whether there is such a job and
 * no capture is running already; the answer to START comes later, in the status line.
 */
gboolean
suanli_live_dialog_capture (SuanliLiveDialog *self,
                            int               pid)
{
  const SuanliLiveJob *job = find_job (self, pid);
  g_autoptr(SuanliTrace) trace = NULL;

  if (job == NULL || (self->capture != NULL && suanli_live_capture_is_running (self->capture)))
    return FALSE;
  trace = suanli_trace_new ();
  g_clear_object (&self->capture);
  self->capture = suanli_local_capture_new (trace, job);
  g_signal_connect_object (self->capture, "ended", G_CALLBACK (on_ended), self, 0);
  set_status (self, _("Asking the job to start capturing…"));
  suanli_live_capture_start_async (self->capture, NULL, on_started, g_object_ref (self));
  return TRUE;
}

void
suanli_live_dialog_stop (SuanliLiveDialog *self)
{
  if (self->capture != NULL)
    {
      suanli_live_capture_stop (self->capture);
      set_status (self, _("Stopping: the job is sending what it still holds…"));
    }
}

SuanliLiveCapture *
suanli_live_dialog_get_capture (SuanliLiveDialog *self)
{
  return self->capture;
}

const char *
suanli_live_dialog_get_status (SuanliLiveDialog *self)
{
  return gtk_label_get_text (self->status);
}

static void
on_save_response (GtkNativeDialog  *dialog,
                  int               response,
                  SuanliLiveDialog *self)
{
  g_autoptr(GFile) file = NULL;
  g_autoptr(GError) error = NULL;

  if (response != GTK_RESPONSE_ACCEPT || self->capture == NULL)
    return;
  file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (dialog));
  if (!suanli_live_capture_save (self->capture, file, &error))
    set_status (self, error->message);
  else
    {
      g_autofree char *name = g_file_get_basename (file);
      g_autofree char *text = g_strdup_printf (_("Saved as %s."), name);

      set_status (self, text);
    }
}

static void
on_save_clicked (SuanliLiveDialog *self)
{
  if (self->save_dialog == NULL)
    {
      self->save_dialog = gtk_file_chooser_native_new (_("Save Capture"), GTK_WINDOW (self), GTK_FILE_CHOOSER_ACTION_SAVE,
                                                       _("_Save"), _("_Cancel"));
      gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (self->save_dialog), TRUE);
      gtk_file_chooser_set_current_name (GTK_FILE_CHOOSER (self->save_dialog), "capture.suanli-capture");
      g_signal_connect (self->save_dialog, "response", G_CALLBACK (on_save_response), self);
    }
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (self->save_dialog));
}

static void
suanli_live_dialog_dispose (GObject *object)
{
  SuanliLiveDialog *self = SUANLI_LIVE_DIALOG (object);

  g_clear_handle_id (&self->tick, g_source_remove);
  if (self->capture != NULL)
    {
      g_signal_handlers_disconnect_by_data (self->capture, self);
      /* Closing the window does not end a capture the page is showing: stop it properly. */
      suanli_live_capture_stop (self->capture);
    }
  g_clear_object (&self->capture);
  if (self->save_dialog != NULL)
    gtk_native_dialog_destroy (GTK_NATIVE_DIALOG (self->save_dialog));
  g_clear_object (&self->save_dialog);
  g_clear_pointer (&self->jobs, g_ptr_array_unref);
  g_clear_object (&self->workspace);
  G_OBJECT_CLASS (suanli_live_dialog_parent_class)->dispose (object);
}

static void
suanli_live_dialog_class_init (SuanliLiveDialogClass *klass)
{
  G_OBJECT_CLASS (klass)->dispose = suanli_live_dialog_dispose;
}

static void
suanli_live_dialog_init (SuanliLiveDialog *self)
{
  GtkWidget *content = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);
  GtkWidget *header = adw_header_bar_new ();
  GtkWidget *refresh = gtk_button_new_from_icon_name ("view-refresh-symbolic");
  GtkWidget *body = gtk_box_new (GTK_ORIENTATION_VERTICAL, 12);
  GtkWidget *scrolled = gtk_scrolled_window_new ();
  GtkWidget *actions = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 12);
  GtkWidget *explanation = gtk_label_new (_("Jobs started with “suanli-cli run -- COMMAND” appear here once they use "
                                            "CUDA. Capturing records their kernels, copies, API calls and NVTX ranges "
                                            "through CUPTI; the timeline grows as they come."));

  gtk_window_set_title (GTK_WINDOW (self), _("Live Capture"));
  gtk_window_set_default_size (GTK_WINDOW (self), 640, 460);
  gtk_widget_set_tooltip_text (refresh, _("List the Jobs Again"));
  gtk_accessible_update_property (GTK_ACCESSIBLE (refresh), GTK_ACCESSIBLE_PROPERTY_LABEL, _("List the Jobs Again"), -1);
  g_signal_connect_swapped (refresh, "clicked", G_CALLBACK (suanli_live_dialog_refresh), self);
  adw_header_bar_pack_start (ADW_HEADER_BAR (header), refresh);
  gtk_box_append (GTK_BOX (content), header);

  gtk_widget_set_margin_start (body, 18);
  gtk_widget_set_margin_end (body, 18);
  gtk_widget_set_margin_top (body, 12);
  gtk_widget_set_margin_bottom (body, 18);
  gtk_label_set_wrap (GTK_LABEL (explanation), TRUE);
  gtk_label_set_xalign (GTK_LABEL (explanation), 0);
  gtk_widget_add_css_class (explanation, "dim-label");
  gtk_box_append (GTK_BOX (body), explanation);

  self->job_list = gtk_list_box_new ();
  gtk_list_box_set_selection_mode (GTK_LIST_BOX (self->job_list), GTK_SELECTION_NONE);
  gtk_widget_add_css_class (self->job_list, "boxed-list");
  self->empty = adw_status_page_new ();
  adw_status_page_set_icon_name (ADW_STATUS_PAGE (self->empty), "media-record-symbolic");
  adw_status_page_set_title (ADW_STATUS_PAGE (self->empty), _("No Profilable Jobs"));
  adw_status_page_set_description (ADW_STATUS_PAGE (self->empty),
                                   _("Start one with “suanli-cli run -- python train.py”, then list the jobs again."));
  {
    GtkWidget *stack = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);

    gtk_box_append (GTK_BOX (stack), self->job_list);
    gtk_box_append (GTK_BOX (stack), self->empty);
    gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scrolled), stack);
  }
  gtk_scrolled_window_set_policy (GTK_SCROLLED_WINDOW (scrolled), GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC);
  gtk_widget_set_vexpand (scrolled, TRUE);
  gtk_box_append (GTK_BOX (body), scrolled);

  self->status = GTK_LABEL (gtk_label_new (""));
  gtk_label_set_wrap (self->status, TRUE);
  gtk_label_set_xalign (self->status, 0);
  gtk_widget_set_hexpand (GTK_WIDGET (self->status), TRUE);
  self->stop_button = gtk_button_new_with_mnemonic (_("_Stop"));
  gtk_widget_add_css_class (self->stop_button, "destructive-action");
  gtk_widget_set_visible (self->stop_button, FALSE);
  g_signal_connect_swapped (self->stop_button, "clicked", G_CALLBACK (suanli_live_dialog_stop), self);
  self->save_button = gtk_button_new_with_mnemonic (_("Save _Capture…"));
  gtk_widget_set_sensitive (self->save_button, FALSE);
  g_signal_connect_swapped (self->save_button, "clicked", G_CALLBACK (on_save_clicked), self);
  gtk_box_append (GTK_BOX (actions), GTK_WIDGET (self->status));
  gtk_box_append (GTK_BOX (actions), self->stop_button);
  gtk_box_append (GTK_BOX (actions), self->save_button);
  gtk_box_append (GTK_BOX (body), actions);
  gtk_box_append (GTK_BOX (content), body);
  adw_window_set_content (ADW_WINDOW (self), content);
  self->tick = g_timeout_add (500, show_progress, self);
}

/* Returns: (transfer none): a Live… window over @parent, its jobs listed. */
SuanliLiveDialog *
suanli_live_dialog_new (GtkWindow *parent,
                        GObject   *workspace)
{
  SuanliLiveDialog *self = g_object_new (SUANLI_TYPE_LIVE_DIALOG, "transient-for", parent, "modal", FALSE, NULL);

  self->workspace = workspace != NULL ? g_object_ref (workspace) : NULL;
  suanli_live_dialog_refresh (self);
  return self;
}
