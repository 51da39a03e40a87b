/* bench-trace-open.c — opening one trace in the workbench, as a user does, for bench-trace
 *
 * Run by bench-trace as a child, with a trace file: builds the real window on the profiler page,
 * waits for its first frame, then opens the file there and waits until the page has read it, worked
 * out its figures and painted it. Prints one line: the milliseconds from asking to the painted
 * trace, the RSS before (KiB), the peak RSS while opening (KiB), and the milliseconds until the
 * trace was read (handed to the workspace) and until its figures were worked out.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <adwaita.h>

#include "suanli-catalog.h"
#include "suanli-i18n.h"
#include "suanli-profile-page.h"
#include "suanli-test-support.h"
#include "suanli-window.h"
#include "suanli-workspace.h"

typedef struct
{
  SuanliWorkspace   *workspace;
  SuanliProfilePage *page;
} Opening;

static gboolean
read_in (gpointer data)
{
  return suanli_workspace_get_trace (((Opening *) data)->workspace) != NULL;
}

static gboolean
opened (gpointer data)
{
  Opening *opening = data;

  return !suanli_profile_page_is_loading (opening->page) && suanli_workspace_get_trace (opening->workspace) != NULL;
}

static gint64
status_kib (const char *field)
{
  g_autofree char *status = NULL;
  const char *line;

  if (!g_file_get_contents ("/proc/self/status", &status, NULL, NULL) || (line = strstr (status, field)) == NULL)
    return -1;
  return g_ascii_strtoll (line + strlen (field), NULL, 10);
}

int
main (int   argc,
      char *argv[])
{
  g_autoptr(SuanliCatalog) catalog = suanli_catalog_new ();
  g_autoptr(GPtrArray) problems = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GFile) file = NULL;
  SuanliWindow *window;
  Opening opening = { NULL, NULL };
  gint64 start, before_kib;
  double elapsed_ms, read_ms, figures_ms;

  if (argc != 2)
    {
      g_printerr ("usage: bench-trace-open TRACE\n");
      return 2;
    }
  suanli_test_init_gtk (&argc, &argv);
  suanli_catalog_load_builtin (catalog, problems);
  opening.workspace = suanli_workspace_new (catalog);
  window = suanli_window_new (NULL, opening.workspace);
  gtk_window_set_default_size (GTK_WINDOW (window), 1280, 820);
  gtk_window_present (GTK_WINDOW (window));
  suanli_window_show_page (window, SUANLI_PAGE_PROFILER);
  opening.page = SUANLI_PROFILE_PAGE (suanli_window_get_page (window, SUANLI_PAGE_PROFILER));
  suanli_test_wait_for_frame (GTK_WIDGET (window));

  /* The peak is reset (Linux: 5 to clear_refs) so that it is this opening's. */
  g_file_set_contents ("/proc/self/clear_refs", "5", 1, NULL);
  before_kib = status_kib ("VmRSS:");
  file = g_file_new_for_path (argv[1]);
  start = g_get_monotonic_time ();
  suanli_profile_page_open_files (opening.page, &file, 1);
  /* No patience limit: a big trace may take minutes on a slow machine. */
  g_assert_true (suanli_test_wait_until (read_in, &opening, G_MAXUINT));
  read_ms = (double) (g_get_monotonic_time () - start) / 1000.0;
  g_assert_true (suanli_test_wait_until (opened, &opening, G_MAXUINT));
  figures_ms = (double) (g_get_monotonic_time () - start) / 1000.0;
  suanli_test_wait_for_frame (GTK_WIDGET (window));
  elapsed_ms = (double) (g_get_monotonic_time () - start) / 1000.0;
  printf ("%.3f %" G_GINT64_FORMAT " %" G_GINT64_FORMAT " %.3f %.3f\n", elapsed_ms, before_kib, status_kib ("VmHWM:"),
          read_ms, figures_ms);
  fflush (stdout);
  /* Taking the window apart is no part of opening it. */
  _exit (0);
}
