/* test-drawing-widgets.c — the widgets that draw themselves share one set-up: focus, tooltips,
 * room and a label for screen readers (suanli-drawing-setup.c)
 *
 * Their redraw on a dark/light switch is not asserted: the switch changes the CSS, which redraws
 * every widget anyway, so a test cannot tell the set-up's own redraw from it.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>

#include "suanli-chart-view.h"
#include "suanli-flame-graph.h"
#include "suanli-test-support.h"
#include "suanli-timeline.h"

static GtkWidget *
show_in_window (GtkWidget *widget)
{
  GtkWidget *window = gtk_window_new ();

  gtk_window_set_default_size (GTK_WINDOW (window), 400, 300);
  gtk_window_set_child (GTK_WINDOW (window), widget);
  gtk_window_present (GTK_WINDOW (window));
  suanli_test_wait_for_frame (widget);
  return window;
}

/* The flame graph and the timeline: reached with the keyboard, taking all the room they get,
 * answering tooltips, and named for screen readers. */
static void
assert_navigable_drawing (GtkWidget  *widget,
                          const char *label)
{
  GtkWidget *window = show_in_window (widget);

  g_assert_true (gtk_widget_get_focusable (widget));
  g_assert_true (gtk_widget_get_has_tooltip (widget));
  g_assert_true (gtk_widget_get_hexpand (widget) && gtk_widget_get_vexpand (widget));
  gtk_test_accessible_assert_property (GTK_ACCESSIBLE (widget), GTK_ACCESSIBLE_PROPERTY_LABEL, label);
  gtk_window_destroy (GTK_WINDOW (window));
}

static void
test_flame_graph (void)
{
  assert_navigable_drawing (suanli_flame_graph_new (), _("Flame graph"));
}

static void
test_timeline (void)
{
  assert_navigable_drawing (suanli_timeline_new (), _("Timeline"));
}

/* The catalog's chart answers tooltips, and neither takes focus nor expands of itself. */
static void
test_chart_view (void)
{
  GtkWidget *chart = suanli_chart_view_new ();
  GtkWidget *window = show_in_window (chart);

  g_assert_false (gtk_widget_get_focusable (chart));
  g_assert_true (gtk_widget_get_has_tooltip (chart));
  g_assert_false (gtk_widget_get_hexpand_set (chart) || gtk_widget_get_vexpand_set (chart));
  gtk_window_destroy (GTK_WINDOW (window));
}

int
main (int   argc,
      char *argv[])
{
  /* The test accessibility backend keeps what the widgets tell a screen reader, to be read back. */
  g_setenv ("GTK_A11Y", "test", TRUE);
  suanli_test_init_gtk (&argc, &argv);

  g_test_add_func ("/drawing-widgets/flame-graph", test_flame_graph);
  g_test_add_func ("/drawing-widgets/timeline", test_timeline);
  g_test_add_func ("/drawing-widgets/chart-view", test_chart_view);
  return g_test_run ();
}
