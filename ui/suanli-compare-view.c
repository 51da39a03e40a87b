/* suanli-compare-view.c — two to four catalog items side by side, spec by spec
 *
 * Rows are the specs any of the items has, in the kind's order; the best value of a row is bold
 * and in the accent colour (lower is better for power, price, process node and accuracy loss); every
 * other value shows its ratio to the first item's. The grid is rebuilt whenever the list changes.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>

#include "suanli-compare-view.h"
#include "suanli-model-follow.h"

struct _SuanliCompareView
{
  GtkWidget          parent_instance;

  GListModel        *items;
  GtkWidget         *grid;
  GtkWidget         *empty;
  SuanliMemoryUnits  memory_units;
  GHashTable        *best;   /* spec key → best column + 1 */
};

G_DEFINE_FINAL_TYPE (SuanliCompareView, suanli_compare_view, GTK_TYPE_WIDGET)

gboolean
suanli_spec_key_lower_is_better (const char *key)
{
  static const char * const keys[] = { "tdp", "power", "price_per_hour", "process", "accuracy_loss", NULL };

  return g_strv_contains (keys, key);
}

/* A cell of a comparison table: wrapped at 28 characters, aligned at @xalign, styled
 * @style_class ("heading", "dim-label", or NULL). The planner's Compare Plans uses it too. */
GtkWidget *
suanli_compare_cell_label (const char *text,
                           const char *style_class,
                           float       xalign)
{
  GtkWidget *label = gtk_label_new (text);

  gtk_label_set_xalign (GTK_LABEL (label), xalign);
  gtk_label_set_wrap (GTK_LABEL (label), TRUE);
  gtk_label_set_max_width_chars (GTK_LABEL (label), 28);
  if (style_class != NULL)
    gtk_widget_add_css_class (label, style_class);
  return label;
}

/* The column whose value of @key is best, or -1 when fewer than two items have it. */
static int
find_best (GPtrArray  *items,
           const char *key)
{
  int best = -1, with_value = 0;
  double best_value = 0;

  for (guint i = 0; i < items->len; i++)
    {
      double value;

      if (!suanli_item_get_spec_value (g_ptr_array_index (items, i), key, &value))
        continue;
      with_value++;
      if (best < 0 || (suanli_spec_key_lower_is_better (key) ? value < best_value : value > best_value))
        {
          best = (int) i;
          best_value = value;
        }
    }
  return with_value >= 2 ? best : -1;
}

static void
rebuild (SuanliCompareView *self)
{
  g_autoptr(GPtrArray) items = g_ptr_array_new_with_free_func (g_object_unref);
  GtkGrid *grid = GTK_GRID (self->grid);
  GtkWidget *child;
  const SuanliSpecKey *keys;
  guint n_keys = 0, n, row = 2;

  while ((child = gtk_widget_get_first_child (self->grid)) != NULL)
    gtk_grid_remove (grid, child);
  g_hash_table_remove_all (self->best);

  n = self->items != NULL ? MIN (g_list_model_get_n_items (self->items), SUANLI_COMPARE_MAX_ITEMS) : 0;
  for (guint i = 0; i < n; i++)
    g_ptr_array_add (items, g_list_model_get_item (self->items, i));
  gtk_widget_set_visible (self->empty, n == 0);
  gtk_widget_set_visible (self->grid, n > 0);
  if (n == 0)
    return;

  for (guint i = 0; i < n; i++)
    {
      SuanliItem *item = g_ptr_array_index (items, i);

      gtk_grid_attach (grid, suanli_compare_cell_label (suanli_item_get_name (item), "heading", 0), 1 + i, 0, 1, 1);
      gtk_grid_attach (grid, suanli_compare_cell_label (suanli_item_get_vendor (item), "dim-label", 0), 1 + i, 1, 1, 1);
    }

  /* The first item's kind sets the row order; specs of other kinds follow in their own order. */
  for (guint k = 0; k < SUANLI_N_ITEM_KINDS; k++)
    {
      SuanliItemKind kind = k == 0 ? suanli_item_get_kind (g_ptr_array_index (items, 0)) : k - 1;

      if (k > 0 && kind == suanli_item_get_kind (g_ptr_array_index (items, 0)))
        continue;
      keys = suanli_item_kind_get_spec_keys (kind, &n_keys);
      for (guint s = 0; s < n_keys; s++)
        {
          const char *key = keys[s].key;
          gboolean any = FALSE;
          double first = 0;
          gboolean has_first;
          int best;

          if (g_hash_table_contains (self->best, key))
            continue;
          for (guint i = 0; i < n; i++)
            any |= suanli_item_get_spec_value (g_ptr_array_index (items, i), key, NULL) &&
                   suanli_item_get_kind (g_ptr_array_index (items, i)) == kind;
          if (!any)
            continue;

          best = find_best (items, key);
          g_hash_table_insert (self->best, (gpointer) key, GINT_TO_POINTER (best + 1));
          gtk_grid_attach (grid, suanli_compare_cell_label (_(keys[s].title), "dim-label", 1), 0, row, 1, 1);
          has_first = suanli_item_get_spec_value (g_ptr_array_index (items, 0), key, &first);
          for (guint i = 0; i < n; i++)
            {
              const SuanliSpec *spec = suanli_item_find_spec (g_ptr_array_index (items, i), key);
              GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);
              g_autofree char *value = NULL;

              const SuanliText *why = spec == NULL ? suanli_item_find_unknown (g_ptr_array_index (items, i), key) : NULL;

              if (why != NULL)
                {
                  /* Marked unknown in the catalog: no source confirms a figure; the note says why. */
                  gtk_box_append (GTK_BOX (box), suanli_compare_cell_label (_("unknown"), "dim-label", 0));
                  gtk_widget_set_tooltip_text (box, suanli_text_get (why));
                }
              else if (spec == NULL)
                gtk_box_append (GTK_BOX (box), suanli_compare_cell_label ("—", "dim-label", 0));
              else
                {
                  value = suanli_format_quantity (spec->value, spec->unit, self->memory_units);
                  gtk_box_append (GTK_BOX (box), suanli_compare_cell_label (value, (int) i == best ? "compare-best" : NULL, 0));
                  if (i > 0 && has_first && first != 0)
                    {
                      g_autofree char *ratio = g_strdup_printf ("×%.2f", spec->value / first);
                      gtk_box_append (GTK_BOX (box), suanli_compare_cell_label (ratio, "caption", 0));
                      gtk_widget_add_css_class (gtk_widget_get_last_child (box), "dim-label");
                    }
                }
              gtk_grid_attach (grid, box, 1 + i, row, 1, 1);
            }
          row++;
        }
    }
}

static void
suanli_compare_view_dispose (GObject *object)
{
  SuanliCompareView *self = SUANLI_COMPARE_VIEW (object);

  suanli_model_follow (&self->items, NULL, NULL, self);
  g_clear_pointer (&self->grid, gtk_widget_unparent);
  g_clear_pointer (&self->empty, gtk_widget_unparent);
  g_clear_pointer (&self->best, g_hash_table_unref);

  G_OBJECT_CLASS (suanli_compare_view_parent_class)->dispose (object);
}

static void
suanli_compare_view_class_init (SuanliCompareViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = suanli_compare_view_dispose;
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BOX_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "compareview");
}

static void
suanli_compare_view_init (SuanliCompareView *self)
{
  self->best = g_hash_table_new (g_str_hash, g_str_equal);
  self->grid = gtk_grid_new ();
  gtk_grid_set_column_spacing (GTK_GRID (self->grid), 24);
  gtk_grid_set_row_spacing (GTK_GRID (self->grid), 8);
  gtk_widget_set_margin_start (self->grid, 18);
  gtk_widget_set_margin_end (self->grid, 18);
  gtk_widget_set_margin_top (self->grid, 18);
  gtk_widget_set_margin_bottom (self->grid, 18);
  gtk_widget_set_parent (self->grid, GTK_WIDGET (self));

  self->empty = gtk_label_new (_("Add two to four items to compare them"));
  gtk_widget_add_css_class (self->empty, "dim-label");
  gtk_widget_set_hexpand (self->empty, TRUE);
  gtk_widget_set_parent (self->empty, GTK_WIDGET (self));
  rebuild (self);
}

GtkWidget *
suanli_compare_view_new (void)
{
  return g_object_new (SUANLI_TYPE_COMPARE_VIEW, NULL);
}

void
suanli_compare_view_set_items (SuanliCompareView *self,
                               GListModel        *items)
{
  g_return_if_fail (SUANLI_IS_COMPARE_VIEW (self));

  suanli_model_follow (&self->items, items, G_CALLBACK (rebuild), self);
  rebuild (self);
}

void
suanli_compare_view_set_memory_units (SuanliCompareView *self,
                                      SuanliMemoryUnits  units)
{
  g_return_if_fail (SUANLI_IS_COMPARE_VIEW (self));

  self->memory_units = units;
  rebuild (self);
}

/* The column marked best for @key, or -1 (for tests). */
int
suanli_compare_view_get_best_column (SuanliCompareView *self,
                                     const char        *key)
{
  g_return_val_if_fail (SUANLI_IS_COMPARE_VIEW (self), -1);

  return GPOINTER_TO_INT (g_hash_table_lookup (self->best, key)) - 1;
}
