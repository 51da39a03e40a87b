/* suanli-drop-down-name.c — a drop-down's name, where a screen reader looks for it
 *
 * GTK 4.8 reads a drop-down to a screen reader by the toggle button inside it, which it leaves
 * nameless even when the drop-down has a label or is a label's mnemonic widget: the drop-down and
 * its button both get the name.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "suanli-drop-down-name.h"

void
suanli_drop_down_set_accessible_name (GtkDropDown *drop_down,
                                      const char  *name)
{
  gtk_accessible_update_property (GTK_ACCESSIBLE (drop_down), GTK_ACCESSIBLE_PROPERTY_LABEL, name, -1);
  for (GtkWidget *child = gtk_widget_get_first_child (GTK_WIDGET (drop_down)); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    if (GTK_IS_TOGGLE_BUTTON (child))
      gtk_accessible_update_property (GTK_ACCESSIBLE (child), GTK_ACCESSIBLE_PROPERTY_LABEL, name, -1);
}
