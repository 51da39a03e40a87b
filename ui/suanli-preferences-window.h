/* suanli-preferences-window.h — Preferences, backed by GSettings
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <adwaita.h>

G_BEGIN_DECLS

#define SUANLI_TYPE_PREFERENCES_WINDOW (suanli_preferences_window_get_type ())

G_DECLARE_FINAL_TYPE (SuanliPreferencesWindow, suanli_preferences_window, SUANLI, PREFERENCES_WINDOW,
                      AdwPreferencesWindow)

SuanliPreferencesWindow *suanli_preferences_window_new (GtkWindow *parent);

G_END_DECLS
