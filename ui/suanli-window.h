/* suanli-window.h — the main window: a view switcher over the catalog, planner and profiler
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <adwaita.h>

#include "suanli-workspace.h"

G_BEGIN_DECLS

#define SUANLI_TYPE_WINDOW (suanli_window_get_type ())

G_DECLARE_FINAL_TYPE (SuanliWindow, suanli_window, SUANLI, WINDOW, AdwApplicationWindow)

/* The names of the pages, for suanli_window_show_page() and the win.show-page action. */
#define SUANLI_PAGE_CATALOG  "catalog"
#define SUANLI_PAGE_PLANNER  "planner"
#define SUANLI_PAGE_PROFILER "profiler"

SuanliWindow    *suanli_window_new                   (GtkApplication  *application,
                                                      SuanliWorkspace *workspace);
SuanliWorkspace *suanli_window_get_workspace         (SuanliWindow    *self);
void             suanli_window_show_page             (SuanliWindow    *self,
                                                      const char      *name);
const char      *suanli_window_get_visible_page      (SuanliWindow    *self);
GtkWidget       *suanli_window_get_page              (SuanliWindow    *self,
                                                      const char      *name);
void             suanli_window_add_toast             (SuanliWindow    *self,
                                                      const char      *title);
void             suanli_window_open_trace            (SuanliWindow    *self,
                                                      GFile           *file);
gboolean         suanli_window_open_plan             (SuanliWindow    *self,
                                                      GFile           *file,
                                                      GError         **error);
void             suanli_window_add_toast_with_button (SuanliWindow    *self,
                                                      const char      *title,
                                                      const char      *button_label,
                                                      GCallback        clicked,
                                                      gpointer         data,
                                                      GDestroyNotify   destroy_data);

G_END_DECLS
