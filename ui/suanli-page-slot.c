/* suanli-page-slot.c — a page's place in the window, the page itself built when first needed
 *
 * The window's stack holds one slot per page. A slot builds its page the first time it is shown
 * (or when something asks for the page: a file to open, a test), so starting the app builds, styles
 * and measures only the page on screen: a page that is not built costs nothing. "page-built" says
 * when it is there.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "suanli-page-slot.h"

struct _SuanliPageSlot
{
  GtkWidget          parent_instance;

  SuanliPageBuilder  build;
  SuanliWorkspace   *workspace;
  GtkWidget         *page;
};

G_DEFINE_FINAL_TYPE (SuanliPageSlot, suanli_page_slot, GTK_TYPE_WIDGET)

enum {
  SIGNAL_PAGE_BUILT,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

static void
suanli_page_slot_map (GtkWidget *widget)
{
  /* Built before the slot maps its children: the page is mapped with it. */
  suanli_page_slot_get_page (SUANLI_PAGE_SLOT (widget));
  GTK_WIDGET_CLASS (suanli_page_slot_parent_class)->map (widget);
}

static gboolean
suanli_page_slot_grab_focus (GtkWidget *widget)
{
  GtkWidget *page = suanli_page_slot_get_page (SUANLI_PAGE_SLOT (widget));

  return gtk_widget_grab_focus (page);
}

static void
suanli_page_slot_dispose (GObject *object)
{
  SuanliPageSlot *self = SUANLI_PAGE_SLOT (object);

  g_clear_pointer (&self->page, gtk_widget_unparent);
  g_clear_object (&self->workspace);

  G_OBJECT_CLASS (suanli_page_slot_parent_class)->dispose (object);
}

static void
suanli_page_slot_class_init (SuanliPageSlotClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = suanli_page_slot_dispose;
  widget_class->map = suanli_page_slot_map;
  widget_class->grab_focus = suanli_page_slot_grab_focus;

  /**
   * SuanliPageSlot::page-built:
   * @page: the page, just built
   */
  signals[SIGNAL_PAGE_BUILT] = g_signal_new ("page-built", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL,
                                             NULL, G_TYPE_NONE, 1, GTK_TYPE_WIDGET);
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
}

static void
suanli_page_slot_init (SuanliPageSlot *self)
{
  gtk_widget_set_hexpand (GTK_WIDGET (self), TRUE);
  gtk_widget_set_vexpand (GTK_WIDGET (self), TRUE);
}

GtkWidget *
suanli_page_slot_new (SuanliPageBuilder  build,
                      SuanliWorkspace   *workspace)
{
  SuanliPageSlot *self = g_object_new (SUANLI_TYPE_PAGE_SLOT, NULL);

  g_return_val_if_fail (build != NULL, NULL);

  self->build = build;
  self->workspace = workspace != NULL ? g_object_ref (workspace) : NULL;
  return GTK_WIDGET (self);
}

/* Returns: (transfer none): the page, built now if it was not yet. */
GtkWidget *
suanli_page_slot_get_page (SuanliPageSlot *self)
{
  g_return_val_if_fail (SUANLI_IS_PAGE_SLOT (self), NULL);

  if (self->page == NULL)
    {
      self->page = self->build (self->workspace);
      gtk_widget_set_parent (self->page, GTK_WIDGET (self));
      g_signal_emit (self, signals[SIGNAL_PAGE_BUILT], 0, self->page);
    }
  return self->page;
}

/* Returns: (transfer none) (nullable): the page if it has been built, without building it. */
GtkWidget *
suanli_page_slot_peek_page (SuanliPageSlot *self)
{
  g_return_val_if_fail (SUANLI_IS_PAGE_SLOT (self), NULL);

  return self->page;
}
