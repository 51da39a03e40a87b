/* suanli-close-shortcuts.h — Escape and Ctrl+W close a secondary window
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

void suanli_close_shortcuts_add (GtkWindow *window);

G_END_DECLS
