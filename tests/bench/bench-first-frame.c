/* bench-first-frame.c — time from starting Suanli to its first painted frame
 *
 * The benchmark starts itself again as a child that runs the real application; the child writes
 * a line when the main window has painted its first frame, and exits. The time is taken in the
 * parent, from just before the spawn to that line, so it counts loading the program and its
 * libraries, GTK and libadwaita start-up, building the window and the first paint.
 *
 * Suanli's child then waits for the catalog, which starts loading after that first frame, and
 * writes a second line when a frame with the catalog's table in it has been painted: that time is
 * reported too, so that what start-up moved out of the first frame shows where it went.
 *
 * The reference is a bare AdwApplicationWindow of the same size started the same way, in the same
 * run and interleaved with Suanli's starts, so a busy machine slows both alike; the figure that
 * matters is the ratio of the medians (the aim: at most 1.3). Its size is the default of Suanli's
 * window-width and window-height keys, read here from the schema and passed on, so that the bare
 * child does not pay for GSettings and both draw as many pixels.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <adwaita.h>

#include "suanli-application.h"
#include "suanli-bench.h"
#include "suanli-i18n.h"

/* Under Xvfb on a shared machine one start varies by a third: with 9 of each the ratio moved by
 * ±0.15 from run to run, with 21 by about ±0.05. */
#define SAMPLES 21

static gboolean catalog_arrived;

static void
on_catalog_changed (GListModel *catalog,
                    guint       position,
                    guint       removed,
                    guint       added,
                    gpointer    user_data)
{
  catalog_arrived = g_list_model_get_n_items (catalog) > 0;
}

/* The bare window quits after its first frame; Suanli's after the first frame that follows the
 * catalog's arrival. */
static void
on_after_paint (GdkFrameClock *clock,
                gpointer       user_data)
{
  GApplication *application = G_APPLICATION (user_data);
  static gboolean first_painted;

  if (!first_painted)
    {
      first_painted = TRUE;
      fputs ("first-frame\n", stdout);
      fflush (stdout);
      if (SUANLI_IS_APPLICATION (application))
        return;
    }
  else if (!catalog_arrived)
    return;
  else
    {
      fputs ("catalog-shown\n", stdout);
      fflush (stdout);
    }
  g_signal_handlers_disconnect_by_data (clock, user_data);
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

static int bare_width, bare_height;

/* The reference: libadwaita's own window, nothing in it, as big as Suanli's first one. */
static void
on_bare_activate (GApplication *application)
{
  GtkWidget *window = adw_application_window_new (GTK_APPLICATION (application));

  gtk_window_set_default_size (GTK_WINDOW (window), bare_width, bare_height);
  adw_application_window_set_content (ADW_APPLICATION_WINDOW (window), adw_status_page_new ());
  gtk_window_present (GTK_WINDOW (window));
}

static int
run_bare_child (void)
{
  g_autoptr(AdwApplication) application = adw_application_new ("org.suanli.SuanliBareWindow", G_APPLICATION_NON_UNIQUE);
  char *argv[] = { (char *) "bare", NULL };

  g_signal_connect (application, "activate", G_CALLBACK (on_bare_activate), NULL);
  g_signal_connect (application, "window-added", G_CALLBACK (on_window_added), NULL);
  return g_application_run (G_APPLICATION (application), 1, argv);
}

static void
connect_catalog (SuanliApplication *application,
                 gpointer           user_data)
{
  g_signal_connect (suanli_application_get_catalog (application), "items-changed", G_CALLBACK (on_catalog_changed),
                    NULL);
}

static int
run_child (void)
{
  g_autoptr(SuanliApplication) application = NULL;
  char *argv[] = { (char *) "suanli", NULL };

  suanli_i18n_init ();
  application = suanli_application_new (G_APPLICATION_NON_UNIQUE);
  g_signal_connect (application, "window-added", G_CALLBACK (on_window_added), NULL);
  g_signal_connect (application, "startup", G_CALLBACK (connect_catalog), NULL);
  return g_application_run (G_APPLICATION (application), 1, argv);
}

/* The default of an integer key of Suanli's schema. */
static int
default_of (const char *key)
{
  GSettingsSchemaSource *source = g_settings_schema_source_get_default ();
  g_autoptr(GSettingsSchema) schema = NULL;
  g_autoptr(GSettingsSchemaKey) schema_key = NULL;
  g_autoptr(GVariant) value = NULL;

  g_assert_nonnull (source);
  schema = g_settings_schema_source_lookup (source, APPLICATION_ID, TRUE);
  g_assert_nonnull (schema);
  schema_key = g_settings_schema_get_key (schema, key);
  value = g_settings_schema_key_get_default_value (schema_key);
  return g_variant_get_int32 (value);
}

/* Milliseconds from spawning @argv0 with @mode (and the bare window's size) to its first painted
 * frame; with @catalog_ms, also to the frame that shows the catalog. */
static double
time_to_first_frame (const char *argv0,
                     const char *mode,
                     double     *catalog_ms)
{
  g_autofree char *width = g_strdup_printf ("%d", bare_width);
  g_autofree char *height = g_strdup_printf ("%d", bare_height);
  g_autoptr(GSubprocess) child = NULL;
  g_autoptr(GDataInputStream) lines = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *line = NULL;
  gint64 start = g_get_monotonic_time ();
  double elapsed;

  child = g_subprocess_new (G_SUBPROCESS_FLAGS_STDOUT_PIPE, &error, argv0, mode, width, height, NULL);
  g_assert_no_error (error);
  lines = g_data_input_stream_new (g_subprocess_get_stdout_pipe (child));
  line = g_data_input_stream_read_line_utf8 (lines, NULL, NULL, &error);
  elapsed = (g_get_monotonic_time () - start) / 1000.0;
  g_assert_no_error (error);
  g_assert_cmpstr (line, ==, "first-frame");
  if (catalog_ms != NULL)
    {
      g_free (line);
      line = g_data_input_stream_read_line_utf8 (lines, NULL, NULL, &error);
      *catalog_ms = (g_get_monotonic_time () - start) / 1000.0;
      g_assert_no_error (error);
      g_assert_cmpstr (line, ==, "catalog-shown");
    }
  g_assert_true (g_subprocess_wait_check (child, NULL, &error));
  return elapsed;
}

int
main (int   argc,
      char *argv[])
{
  g_autoptr(SuanliBench) suanli = NULL;
  g_autoptr(SuanliBench) catalog = NULL;
  g_autoptr(SuanliBench) bare = NULL;
  double catalog_ms;

  if (argc > 1 && g_str_equal (argv[1], "--child"))
    return run_child ();
  if (argc > 3 && g_str_equal (argv[1], "--bare-child"))
    {
      bare_width = atoi (argv[2]);
      bare_height = atoi (argv[3]);
      return run_bare_child ();
    }

  bare_width = default_of ("window-width");
  bare_height = default_of ("window-height");
  g_print ("window size: %d x %d\n", bare_width, bare_height);

  suanli = suanli_bench_new ("Suanli: time to first frame", "ms");
  catalog = suanli_bench_new ("Suanli: time to the first frame with the catalog's table", "ms");
  bare = suanli_bench_new ("a bare AdwApplicationWindow: time to first frame", "ms");
  /* The first starts warm the page cache; they are shown but not counted. */
  g_print ("cold starts (not counted): Suanli %.1f ms, bare window %.1f ms\n",
           time_to_first_frame (argv[0], "--child", &catalog_ms), time_to_first_frame (argv[0], "--bare-child", NULL));
  for (guint i = 0; i < SAMPLES; i++)
    {
      suanli_bench_add (suanli, time_to_first_frame (argv[0], "--child", &catalog_ms));
      suanli_bench_add (catalog, catalog_ms);
      suanli_bench_add (bare, time_to_first_frame (argv[0], "--bare-child", NULL));
    }
  suanli_bench_report (suanli);
  suanli_bench_report (catalog);
  suanli_bench_report (bare);
  g_print ("first frame: Suanli takes %.2fx a bare libadwaita window (median against median; aim: at most 1.3)\n",
           suanli_bench_median (suanli) / suanli_bench_median (bare));
  return 0;
}
