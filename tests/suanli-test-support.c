/* suanli-test-support.c — helpers for the widget tests: frames, screenshots, finding widgets
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>
#include <adwaita.h>

#include "suanli-i18n.h"
#include "suanli-test-support.h"

/* GLib's test set-up, gettext bound to the build's translations, and libadwaita. */
void
suanli_test_init_gtk (int    *argc,
                      char ***argv)
{
  suanli_i18n_init ();
  g_test_init (argc, argv, NULL);
  gtk_init ();
  adw_init ();
  /* What GtkApplication does for the application: its icons live in its resources. */
  gtk_icon_theme_add_resource_path (gtk_icon_theme_get_for_display (gdk_display_get_default ()),
                                    "/org/suanli/Suanli/icons");
}

/* "zh_CN" when the test runs with LANGUAGE=zh_CN (as meson sets it), else "en": the last part of
 * every screenshot's name. */
const char *
suanli_test_language_tag (void)
{
  const char *language = g_getenv ("LANGUAGE");

  return language != NULL && g_str_has_prefix (language, "zh") ? "zh_CN" : "en";
}

void
suanli_test_iterate (guint milliseconds)
{
  gint64 end = g_get_monotonic_time () + (gint64) milliseconds * 1000;

  while (g_get_monotonic_time () < end)
    {
      if (!g_main_context_iteration (NULL, FALSE))
        g_usleep (1000);
    }
}

/* Runs the main loop until @predicate holds or @timeout_ms passes; returns whether it held. */
gboolean
suanli_test_wait_until (gboolean (*predicate) (gpointer data),
                        gpointer  data,
                        guint     timeout_ms)
{
  gint64 end = g_get_monotonic_time () + (gint64) timeout_ms * 1000;

  while (!predicate (data))
    {
      if (g_get_monotonic_time () >= end)
        return FALSE;
      if (!g_main_context_iteration (NULL, FALSE))
        g_usleep (1000);
    }
  return TRUE;
}

static void
on_after_paint (GdkFrameClock *clock,
                gpointer       user_data)
{
  *(gboolean *) user_data = TRUE;
}

static gboolean
flag_is_set (gpointer data)
{
  return *(gboolean *) data;
}

static gboolean
widget_is_mapped (gpointer data)
{
  return gtk_widget_get_mapped (GTK_WIDGET (data));
}

/* Waits until @widget's window has painted a frame since this call (at most ten seconds). */
void
suanli_test_wait_for_frame (GtkWidget *widget)
{
  GdkFrameClock *clock;
  gboolean painted = FALSE;
  gulong handler;

  g_assert_true (suanli_test_wait_until (widget_is_mapped, widget, 10000));
  clock = gtk_widget_get_frame_clock (widget);
  g_assert_nonnull (clock);
  handler = g_signal_connect (clock, "after-paint", G_CALLBACK (on_after_paint), &painted);
  gtk_widget_queue_draw (widget);
  g_assert_true (suanli_test_wait_until (flag_is_set, &painted, 10000));
  g_signal_handler_disconnect (clock, handler);
}

/* Renders @widget as it is on screen to $SUANLI_SCREENSHOT_DIR/@name.png, through the widget's
 * own renderer (gtk_widget_paintable_new → GtkSnapshot → gsk_renderer_render_texture). Returns
 * the path written, or NULL when SUANLI_SCREENSHOT_DIR is unset (the widget is rendered all the
 * same, so that path is tested everywhere). */
char *
suanli_test_screenshot (GtkWidget  *widget,
                        const char *name)
{
  const char *directory = g_getenv ("SUANLI_SCREENSHOT_DIR");
  g_autoptr(GdkPaintable) paintable = NULL;
  g_autoptr(GtkSnapshot) snapshot = NULL;
  g_autoptr(GskRenderNode) node = NULL;
  g_autoptr(GdkTexture) texture = NULL;
  g_autofree char *filename = NULL;
  g_autofree char *path = NULL;
  GskRenderer *renderer;
  int width, height;

  /* Let transitions (a switcher's highlight, a revealer) finish: a screenshot shows the end state.
   * Turning animations off instead trips a libadwaita 1.2 size warning in preferences windows. */
  suanli_test_iterate (400);
  suanli_test_wait_for_frame (widget);
  width = gtk_widget_get_width (widget);
  height = gtk_widget_get_height (widget);
  g_assert_cmpint (width, >, 0);
  g_assert_cmpint (height, >, 0);

  paintable = gtk_widget_paintable_new (widget);
  snapshot = gtk_snapshot_new ();
  gdk_paintable_snapshot (paintable, GDK_SNAPSHOT (snapshot), width, height);
  node = gtk_snapshot_free_to_node (g_steal_pointer (&snapshot));
  g_assert_nonnull (node);

  renderer = gtk_native_get_renderer (gtk_widget_get_native (widget));
  texture = gsk_renderer_render_texture (renderer, node, &GRAPHENE_RECT_INIT (0, 0, width, height));

  g_assert_nonnull (texture);
  if (directory == NULL || *directory == '\0')
    return NULL;

  g_mkdir_with_parents (directory, 0755);
  filename = g_strconcat (name, ".png", NULL);
  path = g_build_filename (directory, filename, NULL);
  g_assert_true (gdk_texture_save_to_png (texture, path));
  g_test_message ("screenshot: %s", path);
  return g_steal_pointer (&path);
}

/* The first GtkLabel under @root (depth first) whose text contains @text, or NULL. */
GtkWidget *
suanli_test_find_label (GtkWidget  *root,
                        const char *text)
{
  if (GTK_IS_LABEL (root) && strstr (gtk_label_get_text (GTK_LABEL (root)), text) != NULL)
    return root;

  for (GtkWidget *child = gtk_widget_get_first_child (root); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found = suanli_test_find_label (child, text);

      if (found != NULL)
        return found;
    }
  return NULL;
}

