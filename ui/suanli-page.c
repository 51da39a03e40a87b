/* suanli-page.c — what the catalog, planner and profiler pages have in common
 *
 * A page is a bin around the content its template builds, and holds the window's workspace
 * (ui/suanli-workspace.h): it reads the workspace by its getters and follows it by its signals.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "suanli-page.h"

typedef struct
{
  SuanliWorkspace *workspace;
} SuanliPagePrivate;

G_DEFINE_ABSTRACT_TYPE_WITH_PRIVATE (SuanliPage, suanli_page, GTK_TYPE_WIDGET)

enum {
  PROP_0,
  PROP_WORKSPACE,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static void
suanli_page_dispose (GObject *object)
{
  SuanliPage *self = SUANLI_PAGE (object);
  SuanliPagePrivate *priv = suanli_page_get_instance_private (self);
  GtkWidget *child;

  /* Templates of subclasses own their children; unparent whatever is left. */
  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self))) != NULL)
    gtk_widget_unparent (child);
  g_clear_object (&priv->workspace);

  G_OBJECT_CLASS (suanli_page_parent_class)->dispose (object);
}

static void
suanli_page_get_property (GObject    *object,
                          guint       prop_id,
                          GValue     *value,
                          GParamSpec *pspec)
{
  SuanliPage *self = SUANLI_PAGE (object);

  switch (prop_id)
    {
    case PROP_WORKSPACE:
      g_value_set_object (value, suanli_page_get_workspace (self));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
suanli_page_set_property (GObject      *object,
                          guint         prop_id,
                          const GValue *value,
                          GParamSpec   *pspec)
{
  SuanliPage *self = SUANLI_PAGE (object);
  SuanliPagePrivate *priv = suanli_page_get_instance_private (self);

  switch (prop_id)
    {
    case PROP_WORKSPACE:
      priv->workspace = g_value_dup_object (value);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
suanli_page_class_init (SuanliPageClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = suanli_page_dispose;
  object_class->get_property = suanli_page_get_property;
  object_class->set_property = suanli_page_set_property;

  /* The window's workspace: what every page shows (ui/suanli-workspace.c). */
  properties[PROP_WORKSPACE] =
    g_param_spec_object ("workspace", NULL, NULL, SUANLI_TYPE_WORKSPACE,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);

  g_object_class_install_properties (object_class, N_PROPS, properties);

  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
}

static void
suanli_page_init (SuanliPage *self)
{
}

/* Returns: (transfer none): the workspace this page shows. */
/* Returns: (transfer none) (nullable): the page's workspace. */
SuanliWorkspace *
suanli_page_get_workspace (SuanliPage *self)
{
  SuanliPagePrivate *priv;

  g_return_val_if_fail (SUANLI_IS_PAGE (self), NULL);

  priv = suanli_page_get_instance_private (self);
  return priv->workspace;
}
