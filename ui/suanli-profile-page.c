/* suanli-profile-page.c — the profiler page: timeline, flame graph and tables of a trace
 *
 * Until its issue lands the page is its template's status page, saying what it will do.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "suanli-profile-page.h"

struct _SuanliProfilePage
{
  SuanliPage parent_instance;
};

G_DEFINE_FINAL_TYPE (SuanliProfilePage, suanli_profile_page, SUANLI_TYPE_PAGE)

static void
suanli_profile_page_class_init (SuanliProfilePageClass *klass)
{
  gtk_widget_class_set_template_from_resource (GTK_WIDGET_CLASS (klass),
                                               "/org/suanli/Suanli/ui/suanli-profile-page.ui");
}

static void
suanli_profile_page_init (SuanliProfilePage *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
}

GtkWidget *
suanli_profile_page_new (GObject *workspace)
{
  return g_object_new (SUANLI_TYPE_PROFILE_PAGE, "workspace", workspace, NULL);
}
