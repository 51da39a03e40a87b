/* suanli-drop-down-name.h — a drop-down's name, where a screen reader looks for it
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

void suanli_drop_down_set_accessible_name (GtkDropDown *drop_down,
                                           const char  *name);

G_END_DECLS
