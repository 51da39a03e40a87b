/* suanli-page.h — what the catalog, planner and profiler pages have in common
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "suanli-workspace.h"

G_BEGIN_DECLS

#define SUANLI_TYPE_PAGE (suanli_page_get_type ())

G_DECLARE_DERIVABLE_TYPE (SuanliPage, suanli_page, SUANLI, PAGE, GtkWidget)

struct _SuanliPageClass
{
  GtkWidgetClass parent_class;
};

SuanliWorkspace *suanli_page_get_workspace (SuanliPage *self);

G_END_DECLS
