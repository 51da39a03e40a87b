/* suanli-plan-page.c — the planner page: a configuration builder with live estimates
 *
 * Until its issue lands the page is its template's status page, saying what it will do.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "suanli-plan-page.h"

struct _SuanliPlanPage
{
  SuanliPage parent_instance;
};

G_DEFINE_FINAL_TYPE (SuanliPlanPage, suanli_plan_page, SUANLI_TYPE_PAGE)

static void
suanli_plan_page_class_init (SuanliPlanPageClass *klass)
{
  gtk_widget_class_set_template_from_resource (GTK_WIDGET_CLASS (klass),
                                               "/org/suanli/Suanli/ui/suanli-plan-page.ui");
}

static void
suanli_plan_page_init (SuanliPlanPage *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
}

GtkWidget *
suanli_plan_page_new (GObject *workspace)
{
  return g_object_new (SUANLI_TYPE_PLAN_PAGE, "workspace", workspace, NULL);
}
