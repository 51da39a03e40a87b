/* suanli-catalog-page.c — the catalog page: accelerators, links, systems, cloud offers, models, tools and techniques
 *
 * Until its issue lands the page is its template's status page, saying what it will do.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "suanli-catalog-page.h"

struct _SuanliCatalogPage
{
  SuanliPage parent_instance;
};

G_DEFINE_FINAL_TYPE (SuanliCatalogPage, suanli_catalog_page, SUANLI_TYPE_PAGE)

static void
suanli_catalog_page_class_init (SuanliCatalogPageClass *klass)
{
  gtk_widget_class_set_template_from_resource (GTK_WIDGET_CLASS (klass),
                                               "/org/suanli/Suanli/ui/suanli-catalog-page.ui");
}

static void
suanli_catalog_page_init (SuanliCatalogPage *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
}

GtkWidget *
suanli_catalog_page_new (GObject *workspace)
{
  return g_object_new (SUANLI_TYPE_CATALOG_PAGE, "workspace", workspace, NULL);
}
