/* suanli-compare-window.h — the window a page opens to compare things side by side
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <adwaita.h>

G_BEGIN_DECLS

GtkWindow *suanli_compare_window_new (GtkWidget   *owner,
                                      GtkWindow  **slot,
                                      const char  *title,
                                      int          width,
                                      int          height,
                                      GtkWidget   *header_start,
                                      GtkWidget   *content);

G_END_DECLS
