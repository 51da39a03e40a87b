/* suanli-recent-menu.h — a menu of recently used files of some kinds
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

GMenuModel *suanli_recent_menu_new (const char * const *suffixes,
                                    const char         *action,
                                    const char         *none_action,
                                    const char         *none_label);

G_END_DECLS
