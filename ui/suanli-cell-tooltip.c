/* suanli-cell-tooltip.c — the tooltip of a list's cell, set on every bind
 *
 * gtk_widget_set_tooltip_text() on a visible widget asks the display where the pointer is, so
 * that a tooltip already open can follow the new text. Under X11 that is a round trip to the
 * server, and a list binds a cell for every visible row and column each time its model changes:
 * filling the catalog's table spent most of its half second waiting on them. A cell's tooltip is
 * kept here instead and handed to GTK when it asks for it (GtkWidget::query-tooltip), which costs
 * nothing until the pointer rests on the cell.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "suanli-cell-tooltip.h"

#define TOOLTIP_KEY "suanli-cell-tooltip"

static gboolean
on_query_tooltip (GtkWidget  *cell,
                  int         x,
                  int         y,
                  gboolean    keyboard_mode,
                  GtkTooltip *tooltip,
                  gpointer    user_data)
{
  const char *text = g_object_get_data (G_OBJECT (cell), TOOLTIP_KEY);

  if (text == NULL)
    return FALSE;
  gtk_tooltip_set_text (tooltip, text);
  return TRUE;
}

/* Sets the text @cell shows as its tooltip, and gives screen readers as its description; %NULL
 * or "" for none. */
void
suanli_cell_set_tooltip (GtkWidget  *cell,
                         const char *text)
{
  gboolean has_text = text != NULL && *text != '\0';

  g_return_if_fail (GTK_IS_WIDGET (cell));

  if (g_signal_handler_find (cell, G_SIGNAL_MATCH_FUNC, 0, 0, NULL, on_query_tooltip, NULL) == 0)
    g_signal_connect (cell, "query-tooltip", G_CALLBACK (on_query_tooltip), NULL);
  g_object_set_data_full (G_OBJECT (cell), TOOLTIP_KEY, has_text ? g_strdup (text) : NULL, g_free);
  gtk_widget_set_has_tooltip (cell, has_text);
  if (has_text)
    gtk_accessible_update_property (GTK_ACCESSIBLE (cell), GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, text, -1);
  else
    gtk_accessible_reset_property (GTK_ACCESSIBLE (cell), GTK_ACCESSIBLE_PROPERTY_DESCRIPTION);
}
