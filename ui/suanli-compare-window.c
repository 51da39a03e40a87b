/* suanli-compare-window.c — the window a page opens to compare things side by side
 *
 * The catalog's comparison of items and the planner's comparison of pinned plans are the same
 * kind of window: over the page's own window, closed with Escape or Ctrl+W, a header bar above a
 * scrolled comparison. The page keeps it in a slot that empties itself when the window goes.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "suanli-close-shortcuts.h"
#include "suanli-compare-window.h"

/**
 * suanli_compare_window_new:
 * @owner: the page opening it; the window stays over the page's window
 * @slot: where the page keeps the window, set now and cleared when the window is destroyed
 * @title: the window's title
 * @width: @height: its default size
 * @header_start: (nullable): a widget packed at the start of the header bar
 * @content: the comparison, scrolled
 *
 * Returns: (transfer none): the window, not yet presented
 */
GtkWindow *
suanli_compare_window_new (GtkWidget   *owner,
                           GtkWindow  **slot,
                           const char  *title,
                           int          width,
                           int          height,
                           GtkWidget   *header_start,
                           GtkWidget   *content)
{
  GtkWindow *window = GTK_WINDOW (adw_window_new ());
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);
  GtkWidget *header = adw_header_bar_new ();
  GtkWidget *scrolled = gtk_scrolled_window_new ();

  suanli_close_shortcuts_add (window);
  gtk_window_set_title (window, title);
  gtk_window_set_default_size (window, width, height);
  gtk_window_set_transient_for (window, GTK_WINDOW (gtk_widget_get_root (owner)));
  *slot = window;
  g_object_add_weak_pointer (G_OBJECT (window), (gpointer *) slot);

  if (header_start != NULL)
    adw_header_bar_pack_start (ADW_HEADER_BAR (header), header_start);
  gtk_box_append (GTK_BOX (box), header);
  gtk_widget_set_vexpand (scrolled, TRUE);
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scrolled), content);
  gtk_box_append (GTK_BOX (box), scrolled);
  adw_window_set_content (ADW_WINDOW (window), box);
  return window;
}
