/* bench-first-frame.c — time from starting Suanli to its first painted frame
 *
 * The benchmark starts itself again as a child that runs the real application; the child writes
 * a line when the main window has painted its first frame, and exits. The time is taken in the
 * parent, from just before the spawn to that line, so it counts loading the program and its
 * libraries, GTK and libadwaita start-up, building the window and the first paint.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <stdio.h>
#include <adwaita.h>

#include "suanli-application.h"
#include "suanli-bench.h"
#include "suanli-i18n.h"

#define SAMPLES 9

static void
on_after_paint (GdkFrameClock *clock,
                gpointer       user_data)
{
  GApplication *application = G_APPLICATION (user_data);

  g_signal_handlers_disconnect_by_data (clock, user_data);
  fputs ("first-frame\n", stdout);
  fflush (stdout);
  g_application_quit (application);
}

static void
on_window_mapped (GtkWidget *window,
                  gpointer   user_data)
{
  g_signal_connect (gtk_widget_get_frame_clock (window), "after-paint", G_CALLBACK (on_after_paint), user_data);
}

static void
on_window_added (GtkApplication *application,
                 GtkWindow      *window,
                 gpointer        user_data)
{
  g_signal_connect (window, "map", G_CALLBACK (on_window_mapped), application);
}

static int
run_child (void)
{
  g_autoptr(SuanliApplication) application = NULL;
  char *argv[] = { (char *) "suanli", NULL };

  suanli_i18n_init ();
  application = suanli_application_new (G_APPLICATION_NON_UNIQUE);
  g_signal_connect (application, "window-added", G_CALLBACK (on_window_added), NULL);
  return g_application_run (G_APPLICATION (application), 1, argv);
}

int
main (int   argc,
      char *argv[])
{
  g_autoptr(SuanliBench) bench = NULL;

  if (argc > 1 && g_str_equal (argv[1], "--child"))
    return run_child ();

  bench = suanli_bench_new ("time to first frame", "ms");
  for (guint i = 0; i < SAMPLES + 1; i++)
    {
      g_autoptr(GSubprocess) child = NULL;
      g_autoptr(GDataInputStream) lines = NULL;
      g_autoptr(GError) error = NULL;
      g_autofree char *line = NULL;
      gint64 start = g_get_monotonic_time ();
      double elapsed;

      child = g_subprocess_new (G_SUBPROCESS_FLAGS_STDOUT_PIPE, &error, argv[0], "--child", NULL);
      g_assert_no_error (error);
      lines = g_data_input_stream_new (g_subprocess_get_stdout_pipe (child));
      line = g_data_input_stream_read_line_utf8 (lines, NULL, NULL, &error);
      elapsed = (g_get_monotonic_time () - start) / 1000.0;
      g_assert_no_error (error);
      g_assert_cmpstr (line, ==, "first-frame");
      g_assert_true (g_subprocess_wait_check (child, NULL, &error));

      /* The first start warms the page cache; it is shown but not counted. */
      if (i == 0)
        g_print ("cold start (not counted): %.1f ms\n", elapsed);
      else
        suanli_bench_add (bench, elapsed);
    }
  suanli_bench_report (bench);
  return 0;
}
