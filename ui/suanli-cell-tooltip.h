/* suanli-cell-tooltip.h — the tooltip of a list's cell, set on every bind
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

void suanli_cell_set_tooltip (GtkWidget  *cell,
                              const char *text);

G_END_DECLS
