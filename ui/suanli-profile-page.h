/* suanli-profile-page.h — the profiler page: a trace's summary and timeline
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "suanli-page.h"
#include "suanli-trace.h"

G_BEGIN_DECLS

#define SUANLI_TYPE_PROFILE_PAGE (suanli_profile_page_get_type ())

G_DECLARE_FINAL_TYPE (SuanliProfilePage, suanli_profile_page, SUANLI, PROFILE_PAGE, SuanliPage)

GtkWidget *suanli_profile_page_new        (SuanliWorkspace    *workspace);
void       suanli_profile_page_open_files (SuanliProfilePage  *self,
                                           GFile * const      *files,
                                           guint               n_files);
void       suanli_profile_page_add_file   (SuanliProfilePage  *self,
                                           GFile              *file);
gboolean   suanli_profile_page_is_loading (SuanliProfilePage  *self);
gboolean   suanli_profile_page_export_view (SuanliProfilePage *self,
                                            GFile             *file,
                                            GError           **error);
GtkWidget *suanli_profile_page_get_timeline (SuanliProfilePage *self);
GtkWidget *suanli_profile_page_get_flame_view (SuanliProfilePage *self);
GtkWidget *suanli_profile_page_get_against_plan_view (SuanliProfilePage *self);
GtkWidget *suanli_profile_page_get_ranks_view (SuanliProfilePage *self);
GtkWidget *suanli_profile_page_get_tables_view (SuanliProfilePage *self);
GtkWidget *suanli_profile_page_get_whatif_view (SuanliProfilePage *self);
void       suanli_profile_page_show_view  (SuanliProfilePage  *self,
                                           const char         *view);
const char *suanli_profile_page_get_details (SuanliProfilePage *self);
const char *suanli_profile_page_get_summary (SuanliProfilePage *self);

GtkWindow          *suanli_profile_page_open_live (SuanliProfilePage *self);

G_END_DECLS
