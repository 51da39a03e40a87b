/* test-live-dialog.c — Live… with a real suanli-agent on loopback: connecting remembers the agent
 * with its token in a file only its owner reads, two ranks on the agent's node captured together
 * land in one trace on the profiler page, and an agent lost mid-capture is reported while what came
 * is kept; screenshots of the dialog and of Connect to Agent
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <glib/gi18n.h>
#include <glib/gstdio.h>

#include "suanli-catalog.h"
#include "suanli-live-dialog.h"
#include "suanli-profile-page.h"
#include "suanli-test-agent.h"
#include "suanli-test-support.h"
#include "suanli-window.h"
#include "suanli-workspace.h"

static char *scratch;

typedef struct
{
  SuanliLiveDialog *dialog;
  guint             count;
  gint64            refreshed;   /* when the list was last asked for again (monotonic µs) */
} JobCount;

/* At least want->count jobs are listed. A job that started just now may answer the first listing
 * too late on a busy machine (as it would for a person, who refreshes): the list is asked for
 * again each second until it is there. */
static gboolean
listed (gpointer data)
{
  JobCount *want = data;
  gint64 now = g_get_monotonic_time ();

  if (suanli_live_dialog_get_n_jobs (want->dialog) >= want->count)
    return TRUE;
  if (want->refreshed == 0)
    want->refreshed = now;
  else if (now - want->refreshed > G_USEC_PER_SEC)
    {
      want->refreshed = now;
      suanli_live_dialog_refresh (want->dialog);
    }
  return FALSE;
}

static gboolean
all_ended (gpointer data)
{
  return suanli_live_dialog_get_n_captures (data) > 0 && !suanli_live_dialog_is_busy (data);
}

static gboolean
has_records (gpointer data)
{
  SuanliLiveCapture *capture = suanli_live_dialog_get_capture (data);

  return capture != NULL && suanli_live_capture_get_records (capture) > 1000;
}

static GtkWindow *
find_message_dialog (void)
{
  g_autoptr(GList) windows = gtk_window_list_toplevels ();

  for (GList *l = windows; l != NULL; l = l->next)
    if (ADW_IS_MESSAGE_DIALOG (l->data) && gtk_widget_get_visible (l->data))
      return l->data;
  return NULL;
}

static gboolean
message_dialog_shown (gpointer data)
{
  return find_message_dialog () != NULL;
}

/* With no job anywhere, the window says how to start one, its text whole (not cut to half a
 * line), under the profiler's icon. */
static void
check_empty_state (SuanliLiveDialog *dialog)
{
  GtkWidget *empty = suanli_test_find_named (GTK_WIDGET (dialog), "no-jobs");
  GtkWidget *description = suanli_test_find_named (GTK_WIDGET (dialog), "no-jobs-description");
  GtkWidget *icon;
  int natural = 0;

  g_assert_nonnull (empty);
  g_assert_true (gtk_widget_get_mapped (empty));
  g_assert_nonnull (description);
  gtk_widget_measure (description, GTK_ORIENTATION_VERTICAL, gtk_widget_get_width (description), NULL, &natural, NULL, NULL);
  g_test_message ("description %d px tall, needs %d", gtk_widget_get_height (description), natural);
  g_assert_cmpint (gtk_widget_get_height (description), >=, natural);
  g_assert_true (gtk_widget_is_ancestor (description, empty));
  icon = suanli_test_find_widget (empty, GTK_TYPE_IMAGE);
  g_assert_nonnull (icon);
  g_assert_cmpstr (gtk_image_get_icon_name (GTK_IMAGE (icon)), ==, "suanli-profiler-symbolic");
}

/* Without a CUDA driver the window says local jobs cannot be captured; with one it does not. */
static void
test_no_cuda_driver (void)
{
  g_autoptr(SuanliCatalog) catalog = suanli_catalog_new ();
  g_autoptr(SuanliWorkspace) workspace = suanli_workspace_new (catalog);
  const char *drivers[] = { "libsuanli-no-such-driver.so.1", "libglib-2.0.so.0" };

  for (guint i = 0; i < G_N_ELEMENTS (drivers); i++)
    {
      SuanliLiveDialog *dialog;
      GtkWidget *warning;

      g_setenv ("SUANLI_CUDA_DRIVER", drivers[i], TRUE);
      dialog = g_object_ref (suanli_live_dialog_new (NULL, workspace));
      gtk_window_present (GTK_WINDOW (dialog));
      suanli_test_wait_for_frame (GTK_WIDGET (dialog));
      warning = suanli_test_find_named (GTK_WIDGET (dialog), "no-cuda-driver");
      if (i == 0)
        {
          g_assert_nonnull (warning);
          g_assert_true (gtk_widget_get_mapped (warning));
          g_assert_nonnull (strstr (gtk_label_get_text (GTK_LABEL (warning)), drivers[0]));
          check_empty_state (dialog);
        }
      else
        g_assert_null (warning);
      suanli_test_destroy_window (GTK_WINDOW (dialog));
    }
  g_unsetenv ("SUANLI_CUDA_DRIVER");
}

static void
test_remote_ranks (void)
{
  g_autoptr(SuanliCatalog) catalog = suanli_catalog_new ();
  g_autoptr(GPtrArray) problems = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(SuanliWorkspace) workspace = NULL;
  /* Two ranks that live 8 s: long enough to be listed and captured on a busy machine (screenshots
   * and all), short enough that their captures end by themselves. */
  GSubprocess *ranks[2] = { suanli_test_start_job (20000, 8, 0), suanli_test_start_job (20000, 8, 1) };
  GSubprocess *long_job = NULL;
  SuanliTestAgent agent = { 0 };
  SuanliWindow *window;
  SuanliProfilePage *page;
  SuanliLiveDialog *dialog;
  GtkWindow *connect_dialog;
  g_autoptr(SuanliTrace) trace = NULL;
  g_autofree char *agents_file = g_build_filename (g_get_user_config_dir (), "suanli", "agents", NULL);
  g_autofree char *agents_text = NULL;
  g_autofree char *name = NULL;
  JobCount want = { 0 };
  GStatBuf info;

  suanli_test_start_agent (&agent, NULL);
  suanli_catalog_load_builtin (catalog, problems);
  workspace = suanli_workspace_new (catalog);
  window = g_object_ref (suanli_window_new (NULL, workspace));
  gtk_window_set_default_size (GTK_WINDOW (window), 1180, 760);
  gtk_window_present (GTK_WINDOW (window));
  suanli_window_show_page (window, SUANLI_PAGE_PROFILER);
  page = SUANLI_PROFILE_PAGE (suanli_window_get_page (window, SUANLI_PAGE_PROFILER));
  dialog = SUANLI_LIVE_DIALOG (suanli_profile_page_open_live (page));

  /* Connect to Agent… as people see it. */
  g_signal_emit_by_name (suanli_test_find_named (GTK_WIDGET (dialog), "connect-agent"), "clicked");
  suanli_test_await (message_dialog_shown, NULL);
  connect_dialog = find_message_dialog ();
  suanli_test_wait_for_frame (GTK_WIDGET (connect_dialog));
  name = g_strdup_printf ("profiler-connect-agent-light-%s", suanli_test_language_tag ());
  g_free (suanli_test_screenshot (GTK_WIDGET (connect_dialog), name));
  gtk_window_close (connect_dialog);

  /* The fake jobs are this machine's too: listed here and under the agent. */
  g_assert_true (suanli_live_dialog_connect_agent (dialog, agent.address, agent.token));
  want.dialog = dialog;
  want.count = 4;
  suanli_test_await (listed, &want);
  g_assert_cmpint (g_stat (agents_file, &info), ==, 0);
  g_assert_cmpint (info.st_mode & 0777, ==, 0600);
  g_assert_true (g_file_get_contents (agents_file, &agents_text, NULL, NULL));
  g_assert_nonnull (strstr (agents_text, agent.token));

  for (guint i = 0; i < 2; i++)
    g_assert_true (suanli_live_dialog_select (dialog, agent.address, atoi (g_subprocess_get_identifier (ranks[i])),
                                              TRUE));
  suanli_test_wait_for_frame (GTK_WIDGET (dialog));
  g_free (name);
  name = g_strdup_printf ("profiler-live-agents-light-%s", suanli_test_language_tag ());
  g_free (suanli_test_screenshot (GTK_WIDGET (dialog), name));

  g_assert_true (suanli_live_dialog_capture_selected (dialog));
  suanli_test_await (all_ended, dialog);
  g_assert_cmpuint (suanli_live_dialog_get_n_captures (dialog), ==, 2);
  g_assert_nonnull (suanli_workspace_get_trace (workspace));
  trace = g_object_ref (suanli_workspace_get_trace (workspace));
  g_assert_false (suanli_trace_is_growing (trace));
  g_assert_cmpuint (suanli_trace_get_n_groups (trace), ==, 2);
  g_assert_cmpint (suanli_trace_get_group (trace, 0)->rank + suanli_trace_get_group (trace, 1)->rank, ==, 1);
  g_assert_cmpuint (suanli_test_count_kernels (trace, 0), ==, 20000);
  g_assert_cmpuint (suanli_test_count_kernels (trace, 1), ==, 20000);
  g_test_message ("%s", suanli_live_dialog_get_status (dialog));
  suanli_test_wait_for_frame (GTK_WIDGET (window));
  g_free (name);
  name = g_strdup_printf ("profiler-live-ranks-light-%s", suanli_test_language_tag ());
  g_free (suanli_test_screenshot (GTK_WIDGET (window), name));

  /* The agent lost mid-capture: said so, and what came is kept. The ranks' jobs have ended by now;
   * the new one is listed here and under the agent. */
  suanli_test_stop_job (ranks[0]);
  suanli_test_stop_job (ranks[1]);
  long_job = suanli_test_start_job (2000000, 30, 0);
  want.count = 2;
  want.refreshed = 0;
  suanli_live_dialog_refresh (dialog);
  suanli_test_await (listed, &want);
  g_assert_true (suanli_live_dialog_select (dialog, agent.address, atoi (g_subprocess_get_identifier (long_job)), TRUE));
  g_assert_true (suanli_live_dialog_capture_selected (dialog));
  suanli_test_await (has_records, dialog);
  g_subprocess_force_exit (agent.process);
  suanli_test_await (all_ended, dialog);
  g_test_message ("%s", suanli_live_dialog_get_status (dialog));
  g_assert_nonnull (strstr (suanli_live_dialog_get_status (dialog), agent.address));
  g_assert_cmpuint (suanli_live_capture_get_records (suanli_live_dialog_get_capture (dialog)), >, 1000);
  suanli_test_wait_for_frame (GTK_WIDGET (dialog));
  g_free (name);
  name = g_strdup_printf ("profiler-live-agent-lost-light-%s", suanli_test_language_tag ());
  g_free (suanli_test_screenshot (GTK_WIDGET (dialog), name));

  g_subprocess_wait (agent.process, NULL, NULL);
  g_clear_object (&agent.process);
  suanli_test_stop_agent (&agent);
  suanli_test_stop_job (long_job);
  gtk_window_destroy (GTK_WINDOW (dialog));
  suanli_test_destroy_window (GTK_WINDOW (window));
}

int
main (int   argc,
      char *argv[])
{
  g_autofree char *config = NULL;
  int status;

  /* Folders of the test's own for the jobs' sockets, the agent's token and the agents file. */
  scratch = g_dir_make_tmp ("suanli-live-XXXXXX", NULL);
  config = g_build_filename (scratch, "config", NULL);
  g_setenv ("XDG_RUNTIME_DIR", scratch, TRUE);
  g_setenv ("XDG_CONFIG_HOME", config, TRUE);
  g_setenv ("SUANLI_QUIET", "1", TRUE);
  suanli_test_init_gtk (&argc, &argv);
  g_test_add_func ("/live-dialog/no-cuda-driver", test_no_cuda_driver);
  g_test_add_func ("/live-dialog/remote-ranks", test_remote_ranks);
  status = g_test_run ();
  suanli_test_remove_tree (scratch);
  return status;
}
