/* suanli-live-dialog.c — Live…: profilable jobs on this machine and on connected agents' nodes,
 * and capturing one or several of them into the profiler
 *
 * The jobs are those started with `suanli-cli run` (or with CUDA_INJECTION64_PATH set) that have
 * reached CUDA: this machine's, then each connected agent's in a group of its own. Capture
 * attaches to one job; Capture Selected to several at once (the ranks of one training run, say),
 * all into one trace with a group per job. Once the first has answered START the trace becomes the
 * workspace's and the profiler page shows it growing; Stop ends every capture, the page works its
 * figures out, and Save Capture… writes each stream as it came. An agent that cannot be reached,
 * or is lost mid-capture, says so in its group and in the status line; what came is kept.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>

#include "suanli-close-shortcuts.h"
#include "suanli-cuda-driver.h"
#include "suanli-agent-list.h"
#include "suanli-live-dialog.h"
#include "suanli-local-capture.h"
#include "suanli-remote-capture.h"

/* What the last asking of one agent gave. */
typedef struct
{
  GPtrArray *jobs;      /* of SuanliLiveJob; NULL while asking or after a failure */
  char      *failure;
} AgentState;

struct _SuanliLiveDialog
{
  AdwWindow             parent_instance;

  SuanliWorkspace      *workspace;
  SuanliAgentList      *agents;
  GHashTable           *agent_states;   /* address → AgentState */
  GPtrArray            *jobs;           /* of SuanliLiveJob (this machine's) */
  GHashTable           *selected;       /* "agent|pid" of the jobs ticked for Capture Selected */
  GPtrArray            *captures;       /* of SuanliLiveCapture, started together into one trace */
  guint                 ended;          /* of the captures */
  GString              *failures;       /* why captures failed or ended early, for the status line */
  GtkWidget            *groups;         /* a box of groups, one per source */
  GtkWidget            *empty;          /* shown when there are no jobs anywhere */
  GtkLabel             *status;
  GtkWidget            *capture_selected_button;
  GtkWidget            *stop_button;
  GtkWidget            *save_button;
  GtkFileChooserNative *save_dialog;
  guint                 tick;           /* updates the record count while capturing */
};

G_DEFINE_FINAL_TYPE (SuanliLiveDialog, suanli_live_dialog, ADW_TYPE_WINDOW)

static void rebuild (SuanliLiveDialog *self);

static void
agent_state_free (AgentState *state)
{
  g_clear_pointer (&state->jobs, g_ptr_array_unref);
  g_free (state->failure);
  g_free (state);
}

static void
set_status (SuanliLiveDialog *self,
            const char       *text)
{
  gtk_label_set_text (self->status, text);
}

static char *
job_key (const SuanliLiveJob *job)
{
  return g_strdup_printf ("%s|%d", job->agent != NULL ? job->agent : "", job->pid);
}

static gboolean
is_capturing (SuanliLiveDialog *self)
{
  for (guint i = 0; i < self->captures->len; i++)
    if (suanli_live_capture_is_running (g_ptr_array_index (self->captures, i)))
      return TRUE;
  return FALSE;
}

static gboolean
is_starting (SuanliLiveDialog *self)
{
  for (guint i = 0; i < self->captures->len; i++)
    if (g_object_get_data (g_ptr_array_index (self->captures, i), "starting") != NULL)
      return TRUE;
  return FALSE;
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

static void update_buttons (SuanliLiveDialog *self);

/* ---- capturing ------------------------------------------------------------------------------ */

static void
show_summary (SuanliLiveDialog *self)
{
  g_autoptr(GString) text = g_string_new (NULL);
  guint64 records = 0;

  for (guint i = 0; i < self->captures->len; i++)
    records += suanli_live_capture_get_records (g_ptr_array_index (self->captures, i));
  g_string_printf (text, ngettext ("Captured %llu records from %u job.",
                                      "Captured %llu records from %u jobs.", self->captures->len),
                   (unsigned long long) records, self->captures->len);
  if (self->failures->len > 0)
    g_string_append_printf (text, " %s", self->failures->str);
  set_status (self, text->str);
}

static gboolean
show_progress (gpointer data)
{
  SuanliLiveDialog *self = data;
  g_autofree char *text = NULL;
  guint64 records = 0;
  guint running = 0;

  if (!is_capturing (self))
    return G_SOURCE_CONTINUE;
  for (guint i = 0; i < self->captures->len; i++)
    {
      SuanliLiveCapture *capture = g_ptr_array_index (self->captures, i);

      records += suanli_live_capture_get_records (capture);
      running += suanli_live_capture_is_running (capture);
    }
  text = g_strdup_printf (ngettext ("Capturing %u job: %llu records so far",
                                       "Capturing %u jobs: %llu records so far", running),
                          running, (unsigned long long) records);
  if (self->failures->len > 0)
    {
      g_autofree char *with_failures = g_strdup_printf ("%s. %s", text, self->failures->str);

      set_status (self, with_failures);
    }
  else
    set_status (self, text);
  return G_SOURCE_CONTINUE;
}

static void
on_ended (SuanliLiveCapture *capture,
          GError            *error,
          SuanliLiveDialog  *self)
{
  if (error != NULL)
    g_string_append_printf (self->failures, _("%s ended early: %s. The %llu records that came are kept. "),
                            suanli_live_capture_get_name (capture), error->message,
                            (unsigned long long) suanli_live_capture_get_records (capture));
  self->ended++;
  if (is_capturing (self) || is_starting (self))
    {
      show_progress (self);
      return;
    }
  show_summary (self);
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
  SuanliTrace *trace = suanli_live_capture_get_trace (capture);

  g_object_set_data (G_OBJECT (capture), "starting", NULL);
  if (!suanli_live_capture_start_finish (capture, result, &error))
    {
      g_string_append_printf (self->failures, "%s. ", error->message);
      g_ptr_array_remove (self->captures, capture);
      if (!is_capturing (self) && !is_starting (self))
        {
          set_status (self, self->failures->str);
          suanli_live_dialog_refresh (self);
        }
      return;
    }
  /* Only now is the trace the workspace's: it is growing from here on, and the page knows it. */
  if (self->workspace != NULL)
    suanli_workspace_set_trace (self->workspace, trace);
  gtk_widget_set_visible (self->stop_button, TRUE);
  gtk_widget_set_sensitive (self->save_button, FALSE);
  update_buttons (self);
  show_progress (self);
}

/**
 * suanli_live_dialog_capture_jobs:
 * @jobs: (element-type SuanliLiveJob): listed jobs, of this machine or of connected agents
 *
 * Starts capturing all of @jobs into one new trace. Returns: whether it started (no capture is
 * running already); the jobs' answers come later, in the status line.
 */
gboolean
suanli_live_dialog_capture_jobs (SuanliLiveDialog *self,
                                 GPtrArray        *jobs)
{
  g_autoptr(SuanliTrace) trace = NULL;

  if (jobs->len == 0 || is_capturing (self) || is_starting (self))
    return FALSE;
  trace = suanli_trace_new ();
  g_ptr_array_set_size (self->captures, 0);
  g_string_truncate (self->failures, 0);
  self->ended = 0;
  for (guint i = 0; i < jobs->len; i++)
    {
      const SuanliLiveJob *job = g_ptr_array_index (jobs, i);
      SuanliAgentClient *client = job->agent != NULL ? suanli_agent_list_find (self->agents, job->agent) : NULL;
      SuanliLiveCapture *capture;

      if (job->agent != NULL && client == NULL)
        continue;   /* its agent was removed since it was listed */
      capture = client != NULL ? suanli_remote_capture_new (client, trace, job) : suanli_local_capture_new (trace, job);
      g_ptr_array_add (self->captures, capture);
      g_object_set_data (G_OBJECT (capture), "starting", GINT_TO_POINTER (TRUE));
      g_signal_connect_object (capture, "ended", G_CALLBACK (on_ended), self, 0);
      suanli_live_capture_start_async (capture, NULL, on_started, g_object_ref (self));
    }
  set_status (self, ngettext ("Asking the job to start capturing…",
                                 "Asking the jobs to start capturing…", jobs->len));
  update_buttons (self);
  return self->captures->len > 0;
}

static const SuanliLiveJob *
find_job (SuanliLiveDialog *self,
          const char       *key)
{
  GHashTableIter iter;
  AgentState *state;

  for (guint i = 0; self->jobs != NULL && i < self->jobs->len; i++)
    {
      g_autofree char *candidate = job_key (g_ptr_array_index (self->jobs, i));

      if (g_str_equal (candidate, key))
        return g_ptr_array_index (self->jobs, i);
    }
  g_hash_table_iter_init (&iter, self->agent_states);
  while (g_hash_table_iter_next (&iter, NULL, (gpointer *) &state))
    for (guint i = 0; state->jobs != NULL && i < state->jobs->len; i++)
      {
        g_autofree char *candidate = job_key (g_ptr_array_index (state->jobs, i));

        if (g_str_equal (candidate, key))
          return g_ptr_array_index (state->jobs, i);
      }
  return NULL;
}

/**
 * suanli_live_dialog_capture:
 * @pid: a listed job's on this machine
 *
 * Starts capturing that job (what its row's Capture does). Returns: whether there is such a job and
 * no capture is running already; the answer to START comes later, in the status line.
 */
gboolean
suanli_live_dialog_capture (SuanliLiveDialog *self,
                            int               pid)
{
  g_autofree char *key = g_strdup_printf ("|%d", pid);
  const SuanliLiveJob *job = find_job (self, key);
  g_autoptr(GPtrArray) jobs = g_ptr_array_new ();

  if (job == NULL)
    return FALSE;
  g_ptr_array_add (jobs, (gpointer) job);
  return suanli_live_dialog_capture_jobs (self, jobs);
}

/**
 * suanli_live_dialog_select:
 * @agent: (nullable): the job's agent's address; NULL for a job on this machine
 *
 * Ticks or unticks a listed job for Capture Selected. Returns: whether there is such a job.
 */
gboolean
suanli_live_dialog_select (SuanliLiveDialog *self,
                           const char       *agent,
                           int               pid,
                           gboolean          selected)
{
  g_autofree char *key = g_strdup_printf ("%s|%d", agent != NULL ? agent : "", pid);

  if (find_job (self, key) == NULL)
    return FALSE;
  if (selected)
    g_hash_table_add (self->selected, g_steal_pointer (&key));
  else
    g_hash_table_remove (self->selected, key);
  rebuild (self);
  return TRUE;
}

/* Captures the ticked jobs together (Capture Selected). */
gboolean
suanli_live_dialog_capture_selected (SuanliLiveDialog *self)
{
  g_autoptr(GPtrArray) jobs = g_ptr_array_new ();
  GHashTableIter iter;
  const char *key;

  g_hash_table_iter_init (&iter, self->selected);
  while (g_hash_table_iter_next (&iter, (gpointer *) &key, NULL))
    {
      const SuanliLiveJob *job = find_job (self, key);

      if (job != NULL && g_str_equal (job->state, "idle"))
        g_ptr_array_add (jobs, (gpointer) job);
    }
  return suanli_live_dialog_capture_jobs (self, jobs);
}

void
suanli_live_dialog_stop (SuanliLiveDialog *self)
{
  if (!is_capturing (self))
    return;
  for (guint i = 0; i < self->captures->len; i++)
    suanli_live_capture_stop (g_ptr_array_index (self->captures, i));
  set_status (self, _("Stopping: the jobs are sending what they still hold…"));
}

/* Returns: (transfer none) (nullable): the first of the captures started together. */
SuanliLiveCapture *
suanli_live_dialog_get_capture (SuanliLiveDialog *self)
{
  return self->captures->len > 0 ? g_ptr_array_index (self->captures, 0) : NULL;
}

/* Whether captures are starting or running. */
gboolean
suanli_live_dialog_is_busy (SuanliLiveDialog *self)
{
  return is_capturing (self) || is_starting (self);
}

guint
suanli_live_dialog_get_n_captures (SuanliLiveDialog *self)
{
  return self->captures->len;
}

const char *
suanli_live_dialog_get_status (SuanliLiveDialog *self)
{
  return gtk_label_get_text (self->status);
}

/* ---- the lists ------------------------------------------------------------------------------ */

static void
on_capture_clicked (GtkButton        *button,
                    SuanliLiveDialog *self)
{
  const SuanliLiveJob *job = find_job (self, g_object_get_data (G_OBJECT (button), "job"));
  g_autoptr(GPtrArray) jobs = g_ptr_array_new ();

  if (job == NULL)
    return;
  g_ptr_array_add (jobs, (gpointer) job);
  suanli_live_dialog_capture_jobs (self, jobs);
}

static void
on_tick_toggled (GtkCheckButton   *check,
                 SuanliLiveDialog *self)
{
  const char *key = g_object_get_data (G_OBJECT (check), "job");

  if (gtk_check_button_get_active (check))
    g_hash_table_add (self->selected, g_strdup (key));
  else
    g_hash_table_remove (self->selected, key);
  update_buttons (self);
}

static GtkWidget *
job_row (SuanliLiveDialog    *self,
         const SuanliLiveJob *job)
{
  GtkWidget *row = adw_action_row_new ();
  GtkWidget *button = gtk_button_new_with_mnemonic (_("_Capture"));
  GtkWidget *tick = gtk_check_button_new ();
  g_autofree char *key = job_key (job);
  g_autofree char *title = g_markup_escape_text (*job->command != '\0' ? job->command : _("(no command line)"), -1);
  g_autofree char *rank = job->rank >= 0 ? g_strdup_printf (_(" · rank %d of %d"), job->rank, job->world_size) : g_strdup ("");
  g_autofree char *subtitle = g_strdup_printf (_("pid %d on %s%s · %s"), job->pid, job->host, rank,
                                               state_title (job->state));
  g_autofree char *escaped = g_markup_escape_text (subtitle, -1);
  g_autofree char *tick_label = g_strdup_printf (_("Select pid %d on %s for Capture Selected"), job->pid, job->host);
  gboolean idle = g_str_equal (job->state, "idle");

  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), title);
  adw_action_row_set_subtitle (ADW_ACTION_ROW (row), escaped);
  adw_action_row_set_title_lines (ADW_ACTION_ROW (row), 1);
  adw_action_row_set_subtitle_lines (ADW_ACTION_ROW (row), 1);
  if (job->pid_namespace != NULL && *job->pid_namespace != '\0')
    {
      /* Jobs in containers: the pid is their namespace's. */
      g_autofree char *where = g_strdup_printf (_("%s\nPID namespace %s"), job->command, job->pid_namespace);

      gtk_widget_set_tooltip_text (row, where);
    }

  gtk_widget_set_valign (tick, GTK_ALIGN_CENTER);
  gtk_widget_set_sensitive (tick, idle);
  gtk_check_button_set_active (GTK_CHECK_BUTTON (tick), idle && g_hash_table_contains (self->selected, key));
  gtk_accessible_update_property (GTK_ACCESSIBLE (tick), GTK_ACCESSIBLE_PROPERTY_LABEL, tick_label, -1);
  g_object_set_data_full (G_OBJECT (tick), "job", g_strdup (key), g_free);
  g_signal_connect (tick, "toggled", G_CALLBACK (on_tick_toggled), self);
  adw_action_row_add_prefix (ADW_ACTION_ROW (row), tick);

  gtk_widget_set_valign (button, GTK_ALIGN_CENTER);
  gtk_widget_set_sensitive (button, idle && !is_capturing (self) && !is_starting (self));
  g_object_set_data_full (G_OBJECT (button), "job", g_steal_pointer (&key), g_free);
  g_signal_connect (button, "clicked", G_CALLBACK (on_capture_clicked), self);
  adw_action_row_add_suffix (ADW_ACTION_ROW (row), button);
  return row;
}

static void
on_remove_agent (GtkButton        *button,
                 SuanliLiveDialog *self)
{
  const char *address = g_object_get_data (G_OBJECT (button), "agent");
  g_autoptr(GError) error = NULL;
  g_autofree char *gone = g_strdup (address);

  if (!suanli_agent_list_remove (self->agents, gone, &error))
    set_status (self, error->message);
  g_hash_table_remove (self->agent_states, gone);
  rebuild (self);
}

static GtkWidget *
message_row (const char *text)
{
  GtkWidget *row = adw_action_row_new ();
  g_autofree char *escaped = g_markup_escape_text (text, -1);

  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), escaped);
  adw_action_row_set_title_lines (ADW_ACTION_ROW (row), 3);
  gtk_widget_add_css_class (row, "dim-label");
  return row;
}

/* A titled list of one source's jobs, as a preferences group looks: a heading (and an optional
 * button beside it) over a boxed list. The list is the box's "list" data. */
static GtkWidget *
source_group (const char *title,
              GtkWidget  *suffix)
{
  GtkWidget *group = gtk_box_new (GTK_ORIENTATION_VERTICAL, 6);
  GtkWidget *heading = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  GtkWidget *label = gtk_label_new (title);
  GtkWidget *list = gtk_list_box_new ();

  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_label_set_ellipsize (GTK_LABEL (label), PANGO_ELLIPSIZE_END);
  gtk_widget_set_hexpand (label, TRUE);
  gtk_widget_add_css_class (label, "heading");
  gtk_box_append (GTK_BOX (heading), label);
  if (suffix != NULL)
    gtk_box_append (GTK_BOX (heading), suffix);
  gtk_list_box_set_selection_mode (GTK_LIST_BOX (list), GTK_SELECTION_NONE);
  gtk_widget_add_css_class (list, "boxed-list");
  gtk_box_append (GTK_BOX (group), heading);
  gtk_box_append (GTK_BOX (group), list);
  g_object_set_data (G_OBJECT (group), "list", list);
  return group;
}

static void
group_add (GtkWidget *group,
           GtkWidget *row)
{
  gtk_list_box_append (GTK_LIST_BOX (g_object_get_data (G_OBJECT (group), "list")), row);
}

static GtkWidget *
agent_group (SuanliLiveDialog  *self,
             SuanliAgentClient *client,
             guint             *n_jobs)
{
  const char *address = suanli_agent_client_get_address (client);
  AgentState *state = g_hash_table_lookup (self->agent_states, address);
  GtkWidget *remove = gtk_button_new_from_icon_name ("user-trash-symbolic");
  g_autofree char *title = g_strdup_printf (_("Agent %s"), address);
  g_autofree char *remove_label = g_strdup_printf (_("Forget the Agent at %s"), address);
  GtkWidget *group = source_group (title, remove);

  gtk_widget_add_css_class (remove, "flat");
  gtk_widget_set_tooltip_text (remove, remove_label);
  gtk_accessible_update_property (GTK_ACCESSIBLE (remove), GTK_ACCESSIBLE_PROPERTY_LABEL, remove_label, -1);
  g_object_set_data_full (G_OBJECT (remove), "agent", g_strdup (address), g_free);
  g_signal_connect (remove, "clicked", G_CALLBACK (on_remove_agent), self);

  if (state == NULL || (state->jobs == NULL && state->failure == NULL))
    group_add (group, message_row (_("Asking the agent for its jobs…")));
  else if (state->failure != NULL)
    {
      g_autofree char *text = g_strdup_printf (_("Not connected: %s"), state->failure);

      group_add (group, message_row (text));
    }
  else if (state->jobs->len == 0)
    group_add (group, message_row (_("No profilable jobs on this node")));
  else
    for (guint i = 0; i < state->jobs->len; i++)
      group_add (group, job_row (self, g_ptr_array_index (state->jobs, i)));
  *n_jobs += state != NULL && state->jobs != NULL ? state->jobs->len : 0;
  return group;
}

/* Builds the groups again from what is known: this machine's jobs, then each agent's. */
static void
rebuild (SuanliLiveDialog *self)
{
  GtkWidget *child;
  guint n_jobs = self->jobs->len;

  while ((child = gtk_widget_get_first_child (self->groups)) != NULL)
    gtk_box_remove (GTK_BOX (self->groups), child);
  if (self->jobs->len > 0 || suanli_agent_list_get_n (self->agents) > 0)
    {
      GtkWidget *local = source_group (_("This Computer"), NULL);

      if (self->jobs->len == 0)
        group_add (local, message_row (_("No profilable jobs here")));
      for (guint i = 0; i < self->jobs->len; i++)
        group_add (local, job_row (self, g_ptr_array_index (self->jobs, i)));
      gtk_box_append (GTK_BOX (self->groups), local);
    }
  for (guint i = 0; i < suanli_agent_list_get_n (self->agents); i++)
    gtk_box_append (GTK_BOX (self->groups), agent_group (self, suanli_agent_list_get (self->agents, i), &n_jobs));
  gtk_widget_set_visible (self->groups, gtk_widget_get_first_child (self->groups) != NULL);
  gtk_widget_set_visible (self->empty, gtk_widget_get_first_child (self->groups) == NULL);
  update_buttons (self);
}

static void
update_buttons (SuanliLiveDialog *self)
{
  gtk_widget_set_sensitive (self->capture_selected_button, g_hash_table_size (self->selected) > 0 &&
                            !is_capturing (self) && !is_starting (self));
}

static void
on_agent_jobs (GObject      *source,
               GAsyncResult *result,
               gpointer      data)
{
  g_autoptr(SuanliLiveDialog) self = data;
  SuanliAgentClient *client = SUANLI_AGENT_CLIENT (source);
  g_autoptr(GError) error = NULL;
  GPtrArray *jobs = suanli_agent_client_list_jobs_finish (client, result, &error);
  AgentState *state = g_new0 (AgentState, 1);

  state->jobs = jobs;
  state->failure = jobs == NULL ? g_strdup (error->message) : NULL;
  if (suanli_agent_list_find (self->agents, suanli_agent_client_get_address (client)) == client)
    {
      g_hash_table_replace (self->agent_states, g_strdup (suanli_agent_client_get_address (client)), state);
      rebuild (self);
    }
  else
    agent_state_free (state);   /* forgotten while it was being asked */
}

/* Lists the jobs again: this machine's at once, each agent's when it answers. */
void
suanli_live_dialog_refresh (SuanliLiveDialog *self)
{
  g_autoptr(GError) error = NULL;

  g_clear_pointer (&self->jobs, g_ptr_array_unref);
  self->jobs = suanli_live_list_jobs (&error);
  if (self->jobs == NULL)
    {
      set_status (self, error->message);
      self->jobs = g_ptr_array_new ();
    }
  for (guint i = 0; i < suanli_agent_list_get_n (self->agents); i++)
    suanli_agent_client_list_jobs_async (suanli_agent_list_get (self->agents, i), NULL, on_agent_jobs,
                                         g_object_ref (self));
  rebuild (self);
}

/* Jobs listed: this machine's and the connected agents'. */
guint
suanli_live_dialog_get_n_jobs (SuanliLiveDialog *self)
{
  GHashTableIter iter;
  AgentState *state;
  guint count = self->jobs != NULL ? self->jobs->len : 0;

  g_hash_table_iter_init (&iter, self->agent_states);
  while (g_hash_table_iter_next (&iter, NULL, (gpointer *) &state))
    count += state->jobs != NULL ? state->jobs->len : 0;
  return count;
}

/* ---- agents --------------------------------------------------------------------------------- */

typedef struct
{
  SuanliLiveDialog  *self;
  SuanliAgentClient *client;
  char              *token;
} Connection;

static void
connection_free (Connection *connection)
{
  g_object_unref (connection->self);
  g_object_unref (connection->client);
  g_free (connection->token);
  g_free (connection);
}

static void
on_connected (GObject      *source,
              GAsyncResult *result,
              gpointer      data)
{
  Connection *connection = data;
  SuanliLiveDialog *self = connection->self;
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) jobs = suanli_agent_client_list_jobs_finish (connection->client, result, &error);
  const char *address = suanli_agent_client_get_address (connection->client);

  if (jobs == NULL)
    set_status (self, error->message);
  else if (!suanli_agent_list_add (self->agents, connection->client, connection->token, &error))
    set_status (self, error->message);
  else
    {
      AgentState *state = g_new0 (AgentState, 1);
      g_autofree char *text = g_strdup_printf (ngettext ("Connected to %s: %u job.",
                                                            "Connected to %s: %u jobs.", jobs->len),
                                               address, jobs->len);

      state->jobs = g_steal_pointer (&jobs);
      g_hash_table_replace (self->agent_states, g_strdup (address), state);
      set_status (self, text);
      rebuild (self);
    }
  connection_free (connection);
}

/**
 * suanli_live_dialog_connect_agent:
 * @address: "host", "host:port" or a URL
 * @token: the agent's token
 *
 * Asks the agent for its jobs; when it answers, it is remembered (its token in the agents file,
 * readable by this user only) and its jobs are listed. Returns: whether @address can be an agent's.
 */
gboolean
suanli_live_dialog_connect_agent (SuanliLiveDialog *self,
                                  const char       *address,
                                  const char       *token)
{
  g_autoptr(GError) error = NULL;
  SuanliAgentClient *client = suanli_agent_client_new (address, token, &error);
  Connection *connection;
  g_autofree char *text = NULL;

  if (client == NULL)
    {
      set_status (self, error->message);
      return FALSE;
    }
  connection = g_new0 (Connection, 1);
  connection->self = g_object_ref (self);
  connection->client = client;
  connection->token = g_strstrip (g_strdup (token));
  text = g_strdup_printf (_("Connecting to %s…"), suanli_agent_client_get_address (client));
  set_status (self, text);
  suanli_agent_client_list_jobs_async (client, NULL, on_connected, connection);
  return TRUE;
}

static void
on_connect_response (AdwMessageDialog *dialog,
                     const char       *response,
                     SuanliLiveDialog *self)
{
  GtkEditable *address = g_object_get_data (G_OBJECT (dialog), "address");
  GtkEditable *token = g_object_get_data (G_OBJECT (dialog), "token");

  if (g_str_equal (response, "connect"))
    suanli_live_dialog_connect_agent (self, gtk_editable_get_text (address), gtk_editable_get_text (token));
}

static void
on_connect_fields_changed (GtkEditable      *field,
                           AdwMessageDialog *dialog)
{
  GtkEditable *address = g_object_get_data (G_OBJECT (dialog), "address");
  GtkEditable *token = g_object_get_data (G_OBJECT (dialog), "token");

  adw_message_dialog_set_response_enabled (dialog, "connect", *gtk_editable_get_text (address) != '\0' &&
                                           *gtk_editable_get_text (token) != '\0');
}

/* Connect to Agent…: its address and token. */
static void
on_connect_clicked (SuanliLiveDialog *self)
{
  GtkWidget *dialog = adw_message_dialog_new (GTK_WINDOW (self), _("Connect to Agent"),
                                              _("Run “suanli-agent” on the GPU node. Its token is in "
                                                "~/.config/suanli/agent-token there. Off the node's "
                                                "loopback the agent serves HTTPS only."));
  GtkWidget *fields = adw_preferences_group_new ();
  GtkWidget *address = adw_entry_row_new ();
  GtkWidget *token = adw_password_entry_row_new ();

  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (address), _("Address (host:port)"));
  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (token), _("Token"));
  adw_preferences_group_add (ADW_PREFERENCES_GROUP (fields), address);
  adw_preferences_group_add (ADW_PREFERENCES_GROUP (fields), token);
  adw_message_dialog_set_extra_child (ADW_MESSAGE_DIALOG (dialog), fields);
  adw_message_dialog_add_responses (ADW_MESSAGE_DIALOG (dialog), "cancel", _("_Cancel"), "connect", _("C_onnect"), NULL);
  adw_message_dialog_set_response_appearance (ADW_MESSAGE_DIALOG (dialog), "connect", ADW_RESPONSE_SUGGESTED);
  adw_message_dialog_set_default_response (ADW_MESSAGE_DIALOG (dialog), "connect");
  adw_message_dialog_set_close_response (ADW_MESSAGE_DIALOG (dialog), "cancel");
  adw_message_dialog_set_response_enabled (ADW_MESSAGE_DIALOG (dialog), "connect", FALSE);
  g_object_set_data (G_OBJECT (dialog), "address", address);
  g_object_set_data (G_OBJECT (dialog), "token", token);
  g_signal_connect (address, "changed", G_CALLBACK (on_connect_fields_changed), dialog);
  g_signal_connect (token, "changed", G_CALLBACK (on_connect_fields_changed), dialog);
  g_signal_connect (dialog, "response", G_CALLBACK (on_connect_response), self);
  gtk_window_present (GTK_WINDOW (dialog));
}

/* ---- saving --------------------------------------------------------------------------------- */

/* Where capture @index of several goes: "NAME-2.suanli-capture" beside the chosen "NAME…". */
static GFile *
nth_file (GFile *chosen,
          guint  index,
          guint  count)
{
  g_autofree char *name = NULL, *stem = NULL, *numbered = NULL;
  g_autoptr(GFile) parent = NULL;
  const char *dot;

  if (count == 1)
    return g_object_ref (chosen);
  name = g_file_get_basename (chosen);
  dot = g_str_has_suffix (name, ".suanli-capture") ? name + strlen (name) - strlen (".suanli-capture") : NULL;
  stem = dot != NULL ? g_strndup (name, (gsize) (dot - name)) : g_strdup (name);
  numbered = g_strdup_printf ("%s-%u.suanli-capture", stem, index + 1);
  parent = g_file_get_parent (chosen);
  return g_file_get_child (parent, numbered);
}

static void
on_save_response (GtkNativeDialog  *dialog,
                  int               response,
                  SuanliLiveDialog *self)
{
  g_autoptr(GFile) file = NULL;
  g_autoptr(GString) saved = g_string_new (NULL);

  if (response != GTK_RESPONSE_ACCEPT || self->captures->len == 0)
    return;
  file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (dialog));
  for (guint i = 0; i < self->captures->len; i++)
    {
      g_autoptr(GFile) target = nth_file (file, i, self->captures->len);
      g_autoptr(GError) error = NULL;
      g_autofree char *name = g_file_get_basename (target);

      if (!suanli_live_capture_save (g_ptr_array_index (self->captures, i), target, &error))
        {
          set_status (self, error->message);
          return;
        }
      g_string_append_printf (saved, "%s%s", saved->len > 0 ? ", " : "", name);
    }
  {
    g_autofree char *text = g_strdup_printf (_("Saved as %s."), saved->str);

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

/* ---- the window ----------------------------------------------------------------------------- */

static void
suanli_live_dialog_dispose (GObject *object)
{
  SuanliLiveDialog *self = SUANLI_LIVE_DIALOG (object);

  g_clear_handle_id (&self->tick, g_source_remove);
  for (guint i = 0; self->captures != NULL && i < self->captures->len; i++)
    {
      SuanliLiveCapture *capture = g_ptr_array_index (self->captures, i);

      g_signal_handlers_disconnect_by_data (capture, self);
      /* Closing the window does not end a capture the page is showing: stop it properly. */
      suanli_live_capture_stop (capture);
    }
  g_clear_pointer (&self->captures, g_ptr_array_unref);
  if (self->save_dialog != NULL)
    gtk_native_dialog_destroy (GTK_NATIVE_DIALOG (self->save_dialog));
  g_clear_object (&self->save_dialog);
  g_clear_pointer (&self->jobs, g_ptr_array_unref);
  g_clear_pointer (&self->agent_states, g_hash_table_unref);
  g_clear_pointer (&self->selected, g_hash_table_unref);
  g_clear_object (&self->agents);
  g_clear_object (&self->workspace);
  if (self->failures != NULL)
    g_string_free (self->failures, TRUE);
  self->failures = NULL;
  G_OBJECT_CLASS (suanli_live_dialog_parent_class)->dispose (object);
}

static void
suanli_live_dialog_class_init (SuanliLiveDialogClass *klass)
{
  G_OBJECT_CLASS (klass)->dispose = suanli_live_dialog_dispose;
}

static GtkWidget *
header_bar (SuanliLiveDialog *self)
{
  GtkWidget *header = adw_header_bar_new ();
  GtkWidget *refresh = gtk_button_new_from_icon_name ("view-refresh-symbolic");
  GtkWidget *connect = gtk_button_new_with_mnemonic (_("Connect to _Agent…"));

  gtk_widget_set_name (connect, "connect-agent");   /* for the tests */
  gtk_widget_set_tooltip_text (refresh, _("List the Jobs Again"));
  gtk_accessible_update_property (GTK_ACCESSIBLE (refresh), GTK_ACCESSIBLE_PROPERTY_LABEL, _("List the Jobs Again"), -1);
  g_signal_connect_swapped (refresh, "clicked", G_CALLBACK (suanli_live_dialog_refresh), self);
  adw_header_bar_pack_start (ADW_HEADER_BAR (header), refresh);
  gtk_widget_set_tooltip_text (connect, _("List the profilable jobs of another node through its suanli-agent"));
  g_signal_connect_swapped (connect, "clicked", G_CALLBACK (on_connect_clicked), self);
  adw_header_bar_pack_end (ADW_HEADER_BAR (header), connect);
  return header;
}

/* The status line over the buttons: a long message (an agent's error) wraps on its own row. */
static GtkWidget *
footer (SuanliLiveDialog *self)
{
  GtkWidget *footer = gtk_box_new (GTK_ORIENTATION_VERTICAL, 12);
  GtkWidget *actions = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 12);

  self->status = GTK_LABEL (gtk_label_new (""));
  gtk_label_set_wrap (self->status, TRUE);
  gtk_label_set_xalign (self->status, 0);
  gtk_label_set_selectable (self->status, TRUE);
  self->capture_selected_button = gtk_button_new_with_mnemonic (_("Capture Se_lected"));
  gtk_widget_set_tooltip_text (self->capture_selected_button,
                               _("Capture the ticked jobs together, into one trace with a group for each"));
  gtk_widget_add_css_class (self->capture_selected_button, "suggested-action");
  g_signal_connect_swapped (self->capture_selected_button, "clicked", G_CALLBACK (suanli_live_dialog_capture_selected),
                            self);
  self->stop_button = gtk_button_new_with_mnemonic (_("_Stop"));
  gtk_widget_add_css_class (self->stop_button, "destructive-action");
  gtk_widget_set_visible (self->stop_button, FALSE);
  g_signal_connect_swapped (self->stop_button, "clicked", G_CALLBACK (suanli_live_dialog_stop), self);
  self->save_button = gtk_button_new_with_mnemonic (_("Save _Capture…"));
  gtk_widget_set_sensitive (self->save_button, FALSE);
  g_signal_connect_swapped (self->save_button, "clicked", G_CALLBACK (on_save_clicked), self);
  gtk_widget_set_halign (actions, GTK_ALIGN_END);
  gtk_box_append (GTK_BOX (actions), self->capture_selected_button);
  gtk_box_append (GTK_BOX (actions), self->stop_button);
  gtk_box_append (GTK_BOX (actions), self->save_button);
  gtk_box_append (GTK_BOX (footer), GTK_WIDGET (self->status));
  gtk_box_append (GTK_BOX (footer), actions);
  return footer;
}

/* What the window says with no job anywhere. Not an AdwStatusPage: that scrolls inside this
 * window's scrolled list, which gave it the height of its title alone and cut its text. */
static GtkWidget *
empty_state (void)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 12);
  GtkWidget *icon = gtk_image_new_from_icon_name ("suanli-profiler-symbolic");
  GtkWidget *title = gtk_label_new (_("No Profilable Jobs"));
  GtkWidget *description = gtk_label_new (_("Start one with “suanli-cli run -- python train.py”, or connect to the agent "
                                            "of a GPU node, then list the jobs again."));

  gtk_widget_set_name (box, "no-jobs");
  gtk_widget_set_name (description, "no-jobs-description");
  gtk_widget_set_valign (box, GTK_ALIGN_CENTER);
  gtk_widget_set_vexpand (box, TRUE);
  gtk_widget_set_margin_top (box, 24);
  gtk_widget_set_margin_bottom (box, 24);
  gtk_image_set_pixel_size (GTK_IMAGE (icon), 96);
  gtk_widget_add_css_class (icon, "dim-label");
  gtk_widget_add_css_class (title, "title-2");
  gtk_label_set_wrap (GTK_LABEL (title), TRUE);
  gtk_label_set_justify (GTK_LABEL (description), GTK_JUSTIFY_CENTER);
  gtk_label_set_wrap (GTK_LABEL (description), TRUE);
  gtk_label_set_wrap_mode (GTK_LABEL (description), PANGO_WRAP_WORD_CHAR);
  gtk_label_set_max_width_chars (GTK_LABEL (description), 60);
  gtk_box_append (GTK_BOX (box), icon);
  gtk_box_append (GTK_BOX (box), title);
  gtk_box_append (GTK_BOX (box), description);
  return box;
}

static void
suanli_live_dialog_init (SuanliLiveDialog *self)
{
  GtkWidget *content = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);
  GtkWidget *body = gtk_box_new (GTK_ORIENTATION_VERTICAL, 12);
  GtkWidget *scrolled = gtk_scrolled_window_new ();
  GtkWidget *stack = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);
  GtkWidget *explanation = gtk_label_new (_("Jobs started with “suanli-cli run -- COMMAND” appear here once they use "
                                            "CUDA: this computer's, and those of the nodes whose agents you connect "
                                            "to. Capturing records their kernels, copies, API calls and NVTX ranges "
                                            "through CUPTI; the timeline grows as they come."));

  suanli_close_shortcuts_add (GTK_WINDOW (self));
  self->agents = suanli_agent_list_new (NULL);
  self->agent_states = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, (GDestroyNotify) agent_state_free);
  self->selected = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  self->captures = g_ptr_array_new_with_free_func (g_object_unref);
  self->failures = g_string_new (NULL);
  self->jobs = g_ptr_array_new ();

  gtk_window_set_title (GTK_WINDOW (self), _("Live Capture"));
  gtk_window_set_default_size (GTK_WINDOW (self), 680, 520);
  gtk_box_append (GTK_BOX (content), header_bar (self));

  gtk_widget_set_margin_start (body, 18);
  gtk_widget_set_margin_end (body, 18);
  gtk_widget_set_margin_top (body, 12);
  gtk_widget_set_margin_bottom (body, 18);
  gtk_label_set_wrap (GTK_LABEL (explanation), TRUE);
  gtk_label_set_xalign (GTK_LABEL (explanation), 0);
  gtk_widget_add_css_class (explanation, "dim-label");
  gtk_box_append (GTK_BOX (body), explanation);
  {
    g_autofree char *library = NULL;

    /* Without a driver no local job ever appears: say so, and what still works. */
    if (!suanli_cuda_driver_is_present (&library))
      {
        g_autofree char *text = g_strdup_printf (_("This computer has no CUDA driver (%s not found): jobs here cannot "
                                                   "be captured. Connect to the agent of a node that has GPUs."), library);
        GtkWidget *warning = gtk_label_new (text);

        gtk_widget_set_name (warning, "no-cuda-driver");
        gtk_label_set_wrap (GTK_LABEL (warning), TRUE);
        gtk_label_set_xalign (GTK_LABEL (warning), 0);
        gtk_widget_add_css_class (warning, "warning");
        gtk_box_append (GTK_BOX (body), warning);
      }
  }

  self->groups = gtk_box_new (GTK_ORIENTATION_VERTICAL, 18);
  self->empty = empty_state ();
  gtk_box_append (GTK_BOX (stack), self->groups);
  gtk_box_append (GTK_BOX (stack), self->empty);
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scrolled), stack);
  gtk_scrolled_window_set_policy (GTK_SCROLLED_WINDOW (scrolled), GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC);
  gtk_widget_set_vexpand (scrolled, TRUE);
  gtk_box_append (GTK_BOX (body), scrolled);
  gtk_box_append (GTK_BOX (body), footer (self));
  gtk_box_append (GTK_BOX (content), body);
  adw_window_set_content (ADW_WINDOW (self), content);
  self->tick = g_timeout_add (500, show_progress, self);
}

/* Returns: (transfer none): a Live… window over @parent, its jobs listed (the remembered agents'
 * as they answer). */
SuanliLiveDialog *
suanli_live_dialog_new (GtkWindow       *parent,
                        SuanliWorkspace *workspace)
{
  SuanliLiveDialog *self = g_object_new (SUANLI_TYPE_LIVE_DIALOG, "transient-for", parent, "modal", FALSE, NULL);
  g_autoptr(GError) error = NULL;

  self->workspace = workspace != NULL ? g_object_ref (workspace) : NULL;
  if (!suanli_agent_list_load (self->agents, &error))
    set_status (self, error->message);
  suanli_live_dialog_refresh (self);
  return self;
}
