/* suanli-profile-page.h — the profiler page: timeline, flame graph and tables of a trace
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "suanli-page.h"

G_BEGIN_DECLS

#define SUANLI_TYPE_PROFILE_PAGE (suanli_profile_page_get_type ())

G_DECLARE_FINAL_TYPE (SuanliProfilePage, suanli_profile_page, SUANLI, PROFILE_PAGE, SuanliPage)

GtkWidget *suanli_profile_page_new (GObject *workspace);

G_END_DECLS
