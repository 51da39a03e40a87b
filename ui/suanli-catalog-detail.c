/* suanli-catalog-detail.c — the catalog page's detail pane: the selected item, its sources and claims
 *
 * Name, vendor and year, Add to Compare and Use in Plan (the page's actions), the summary, each
 * spec with its source and confidence, the figures no source confirms, what a technique trades,
 * an item's parts, what the source articles say, links, and why an item has no source.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>

#include "suanli-catalog-detail.h"

struct _SuanliCatalogDetail
{
  GtkWidget          parent_instance;

  SuanliMemoryUnits  memory_units;   /* as the item shown was shown */

  /* Template children */
  GtkScrolledWindow *scroller;
  GtkBox            *box;
};

G_DEFINE_FINAL_TYPE (SuanliCatalogDetail, suanli_catalog_detail, GTK_TYPE_WIDGET)

static GtkWidget *
detail_label (const char *text,
              const char *style_class)
{
  GtkWidget *label = gtk_label_new (text);

  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_label_set_wrap (GTK_LABEL (label), TRUE);
  gtk_label_set_selectable (GTK_LABEL (label), TRUE);
  if (style_class != NULL)
    gtk_widget_add_css_class (label, style_class);
  return label;
}

static void
append_specs (SuanliCatalogDetail *self,
              SuanliItem          *item)
{
  GtkWidget *grid = gtk_grid_new ();

  gtk_grid_set_column_spacing (GTK_GRID (grid), 18);
  gtk_grid_set_row_spacing (GTK_GRID (grid), 4);
  for (guint i = 0; i < suanli_item_get_n_specs (item); i++)
    {
      const SuanliSpec *spec = suanli_item_get_spec_at (item, i);
      const SuanliSpecKey *key = suanli_item_kind_find_spec_key (suanli_item_get_kind (item), spec->key);
      g_autofree char *shown = suanli_spec_format_value (spec, self->memory_units);
      GtkWidget *source = detail_label (spec->source, "dim-label");

      if (spec->note.en != NULL)
        {
          g_autofree char *with_note = g_strdup_printf ("%s — %s", spec->source, suanli_text_get (&spec->note));
          gtk_label_set_text (GTK_LABEL (source), with_note);
        }
      gtk_widget_set_hexpand (source, TRUE);
      gtk_grid_attach (GTK_GRID (grid), detail_label (_(key->title), "dim-label"), 0, (int) i, 1, 1);
      gtk_grid_attach (GTK_GRID (grid), detail_label (shown, "numeric"), 1, (int) i, 1, 1);
      gtk_grid_attach (GTK_GRID (grid), source, 2, (int) i, 1, 1);
      gtk_grid_attach (GTK_GRID (grid), detail_label (suanli_confidence_get_title (spec->confidence), "caption"),
                       3, (int) i, 1, 1);
    }
  gtk_box_append (self->box, grid);
}

/* The figures no source confirms, each with why. */
static void
append_unknown (SuanliCatalogDetail *self,
                SuanliItem          *item)
{
  GtkWidget *grid = gtk_grid_new ();

  gtk_grid_set_column_spacing (GTK_GRID (grid), 18);
  gtk_grid_set_row_spacing (GTK_GRID (grid), 4);
  for (guint i = 0; i < suanli_item_get_n_unknown (item); i++)
    {
      const SuanliText *note;
      const char *key = suanli_item_get_unknown_at (item, i, &note);
      const SuanliSpecKey *spec_key = suanli_item_kind_find_spec_key (suanli_item_get_kind (item), key);
      GtkWidget *why = detail_label (suanli_text_get (note), "dim-label");

      gtk_widget_set_hexpand (why, TRUE);
      gtk_grid_attach (GTK_GRID (grid), detail_label (_(spec_key->title), "dim-label"), 0, (int) i, 1, 1);
      gtk_grid_attach (GTK_GRID (grid), detail_label (_("unknown"), NULL), 1, (int) i, 1, 1);
      gtk_grid_attach (GTK_GRID (grid), why, 2, (int) i, 1, 1);
    }
  gtk_box_append (self->box, grid);
}

static void
append_claims (SuanliCatalogDetail *self,
               SuanliItem          *item)
{
  for (guint i = 0; i < suanli_item_get_n_claims (item); i++)
    {
      const SuanliClaim *claim = suanli_item_get_claim_at (item, i);
      gboolean disputed = suanli_verdict_is_disputed (claim->verdict);
      GtkWidget *row = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 8);
      GtkWidget *icon = gtk_image_new_from_icon_name (disputed ? "dialog-warning-symbolic" : "dialog-information-symbolic");
      GtkWidget *text = gtk_box_new (GTK_ORIENTATION_VERTICAL, 2);
      g_autofree char *value = suanli_claim_format_figure (claim, claim->value);
      g_autofree char *heading = NULL;
      g_autofree char *quote = g_strdup_printf ("“%s” — %s", claim->quote, claim->seed);

      if (claim->has_correct_value)
        {
          g_autofree char *correct = suanli_claim_format_figure (claim, claim->correct_value);
          /* Translators: "1979 TFLOP/s: A sparse figure quoted as dense; right: 989 TFLOP/s". */
          heading = g_strdup_printf (_("%s: %s; right: %s"), value, suanli_verdict_get_title (claim->verdict), correct);
        }
      else
        heading = g_strdup_printf ("%s: %s", value, suanli_verdict_get_title (claim->verdict));

      gtk_widget_set_valign (icon, GTK_ALIGN_START);
      if (disputed)
        gtk_widget_add_css_class (icon, "claim-disputed");
      gtk_box_append (GTK_BOX (text), detail_label (heading, disputed ? "claim-disputed" : NULL));
      gtk_box_append (GTK_BOX (text), detail_label (quote, "dim-label"));
      gtk_box_append (GTK_BOX (text), detail_label (suanli_text_get (&claim->note), NULL));
      gtk_box_append (GTK_BOX (row), icon);
      gtk_box_append (GTK_BOX (row), text);
      gtk_box_append (self->box, row);
    }
}

/* Shows @item (nullable: nothing), its sizes in @memory_units; @plannable: whether it gets a Use in
 * Plan button (a plan names it). The buttons run the page's catalog.add-to-compare and
 * catalog.use-in-plan actions. */
void
suanli_catalog_detail_show (SuanliCatalogDetail *self,
                            SuanliItem          *item,
                            SuanliMemoryUnits    memory_units,
                            gboolean             plannable)
{
  static const char * const trade_titles[SUANLI_N_TRADES] = { N_("Memory"), N_("Speed"), N_("Accuracy") };
  GtkWidget *child, *header, *title_box, *buttons, *button;
  g_autofree char *subtitle = NULL;

  g_return_if_fail (SUANLI_IS_CATALOG_DETAIL (self));

  self->memory_units = memory_units;
  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self->box))) != NULL)
    gtk_box_remove (self->box, child);
  if (item == NULL)
    return;

  header = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 12);
  title_box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 2);
  gtk_widget_set_hexpand (title_box, TRUE);
  gtk_box_append (GTK_BOX (title_box), detail_label (suanli_item_get_name (item), "title-2"));
  subtitle = suanli_item_get_year (item) != 0
               ? g_strdup_printf ("%s · %d", suanli_item_get_vendor (item), suanli_item_get_year (item))
               : g_strdup (suanli_item_get_vendor (item));
  gtk_box_append (GTK_BOX (title_box), detail_label (subtitle, "dim-label"));
  gtk_box_append (GTK_BOX (header), title_box);
  buttons = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  gtk_widget_set_valign (buttons, GTK_ALIGN_START);
  button = gtk_button_new_with_mnemonic (_("_Add to Compare"));
  gtk_actionable_set_action_name (GTK_ACTIONABLE (button), "catalog.add-to-compare");
  gtk_box_append (GTK_BOX (buttons), button);
  if (plannable)
    {
      button = gtk_button_new_with_mnemonic (_("_Use in Plan"));
      gtk_widget_add_css_class (button, "suggested-action");
      gtk_actionable_set_action_name (GTK_ACTIONABLE (button), "catalog.use-in-plan");
      gtk_box_append (GTK_BOX (buttons), button);
    }
  gtk_box_append (GTK_BOX (header), buttons);
  gtk_box_append (self->box, header);

  gtk_box_append (self->box, detail_label (suanli_text_get (suanli_item_get_summary (item)), NULL));

  if (suanli_item_get_n_specs (item) > 0)
    {
      gtk_box_append (self->box, detail_label (_("Specifications"), "heading"));
      append_specs (self, item);
    }
  if (suanli_item_get_n_unknown (item) > 0)
    {
      gtk_box_append (self->box, detail_label (_("Not known"), "heading"));
      append_unknown (self, item);
    }
  if (suanli_item_get_trade (item, SUANLI_TRADE_MEMORY)->en != NULL)
    {
      gtk_box_append (self->box, detail_label (_("What it trades"), "heading"));
      for (guint i = 0; i < SUANLI_N_TRADES; i++)
        {
          g_autofree char *line = g_strdup_printf ("%s: %s", _(trade_titles[i]),
                                                   suanli_text_get (suanli_item_get_trade (item, i)));
          gtk_box_append (self->box, detail_label (line, NULL));
        }
    }
  if (g_hash_table_size (suanli_item_get_parts (item)) > 0)
    {
      GHashTableIter iter;
      gpointer role, id;

      gtk_box_append (self->box, detail_label (_("Parts"), "heading"));
      g_hash_table_iter_init (&iter, suanli_item_get_parts (item));
      while (g_hash_table_iter_next (&iter, &role, &id))
        {
          g_autofree char *line = g_strdup_printf ("%s: %s", (const char *) role, (const char *) id);
          gtk_box_append (self->box, detail_label (line, NULL));
        }
    }
  if (suanli_item_get_n_claims (item) > 0)
    {
      gtk_box_append (self->box, detail_label (_("What the source articles say"), "heading"));
      append_claims (self, item);
    }
  for (guint i = 0; i < suanli_item_get_n_links (item); i++)
    {
      const char *title, *url;

      suanli_item_get_link_at (item, i, &title, &url);
      button = gtk_link_button_new_with_label (url, title);
      gtk_widget_set_halign (button, GTK_ALIGN_START);
      gtk_box_append (self->box, button);
    }
  if (suanli_item_get_no_source (item)->en != NULL)
    {
      /* Translators: why an item has no source, e.g. "No source: a general technique…". */
      g_autofree char *line = g_strdup_printf (_("No source: %s"), suanli_text_get (suanli_item_get_no_source (item)));

      gtk_box_append (self->box, detail_label (line, "dim-label"));
    }
}

static void
suanli_catalog_detail_dispose (GObject *object)
{
  gtk_widget_dispose_template (GTK_WIDGET (object), SUANLI_TYPE_CATALOG_DETAIL);
  G_OBJECT_CLASS (suanli_catalog_detail_parent_class)->dispose (object);
}

static void
suanli_catalog_detail_class_init (SuanliCatalogDetailClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = suanli_catalog_detail_dispose;

  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_template_from_resource (widget_class, "/org/suanli/Suanli/ui/suanli-catalog-detail.ui");
  gtk_widget_class_bind_template_child (widget_class, SuanliCatalogDetail, scroller);
  gtk_widget_class_bind_template_child (widget_class, SuanliCatalogDetail, box);
}

static void
suanli_catalog_detail_init (SuanliCatalogDetail *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
}

GtkWidget *
suanli_catalog_detail_new (void)
{
  return g_object_new (SUANLI_TYPE_CATALOG_DETAIL, NULL);
}
