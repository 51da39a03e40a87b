/* suanli-close-shortcuts.c — Escape and Ctrl+W close a secondary window
 *
 * Compare, Find Configurations, Live and the other windows a page opens close the way GNOME's
 * dialogs do. The main window keeps Escape for its views (the timeline forgets a range with it).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "suanli-close-shortcuts.h"

void
suanli_close_shortcuts_add (GtkWindow *window)
{
  GtkEventController *controller = gtk_shortcut_controller_new ();

  g_return_if_fail (GTK_IS_WINDOW (window));

  /* Managed: a window's own widgets (a search entry, a popover) see Escape first. */
  gtk_shortcut_controller_set_scope (GTK_SHORTCUT_CONTROLLER (controller), GTK_SHORTCUT_SCOPE_MANAGED);
  gtk_shortcut_controller_add_shortcut (GTK_SHORTCUT_CONTROLLER (controller),
                                        gtk_shortcut_new (gtk_shortcut_trigger_parse_string ("Escape|<Control>w"),
                                                          gtk_named_action_new ("window.close")));
  gtk_widget_add_controller (GTK_WIDGET (window), controller);
}
