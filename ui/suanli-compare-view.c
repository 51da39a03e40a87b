/* suanli-compare-view.c — two to four catalog items side by side, spec by spec
 *
 * Rows are the specs any of the items has, in the kind's order. The spec's key says how its
 * values compare (SuanliSpecCompare): in a ranked row the best value is bold and in the accent
 * colour, every one of a tie; in a row where a ratio means something (throughput, bandwidth,
 * capacity, power, price) every other value shows its ratio to the first item's, naming it. A
 * count of a topology, a process node or a year is shown as it is. Values in different units
 * (USD/h and CNY/h) are neither ranked nor set in ratio; an unknown value says so, with no ratio.
 * Each column's heading has a button that takes that one item out, when the list is a
 * GListStore. The grid is rebuilt whenever the list changes.
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
  GHashTable        *best;   /* spec key → the best columns' bits | ROW_SHOWN */
};

G_DEFINE_FINAL_TYPE (SuanliCompareView, suanli_compare_view, GTK_TYPE_WIDGET)

/* In the best table, beside the best columns' bits: the row is shown. */
#define ROW_SHOWN (1u << 31)

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

/* The unit the items give @key in: NULL when none has it or when two give it in different units
 * (prices in USD and in CNY), which cannot be set against each other. */
static const char *
common_unit (GPtrArray  *items,
             const char *key)
{
  const char *unit = NULL;

  for (guint i = 0; i < items->len; i++)
    {
      const SuanliSpec *spec = suanli_item_find_spec (g_ptr_array_index (items, i), key);

      if (spec == NULL)
        continue;
      if (unit != NULL && g_strcmp0 (unit, spec->unit) != 0)
        return NULL;
      unit = spec->unit;
    }
  return unit;
}

/* The columns whose value of @spec_key is best, as bits (column i is bit i): every one of a tie,
 * none when the row is not ranked, its units differ or fewer than two items have the figure. */
static guint
find_best (GPtrArray           *items,
           const SuanliSpecKey *spec_key)
{
  gboolean lower = (spec_key->compare & SUANLI_SPEC_LOWER_BETTER) != 0;
  guint best = 0, with_value = 0;
  double best_value = 0;

  if ((spec_key->compare & SUANLI_SPEC_RANKED) == 0 || common_unit (items, spec_key->key) == NULL)
    return 0;
  for (guint i = 0; i < items->len; i++)
    {
      double value;

      if (!suanli_item_get_spec_value (g_ptr_array_index (items, i), spec_key->key, &value))
        continue;
      if (with_value == 0 || (lower ? value < best_value : value > best_value))
        {
          best = 1u << i;
          best_value = value;
        }
      else if (value == best_value)
        best |= 1u << i;
      with_value++;
    }
  return with_value >= 2 ? best : 0;
}

static void
on_remove_clicked (GtkButton *button,
                   gpointer   user_data)
{
  SuanliCompareView *self = user_data;
  SuanliItem *item = g_object_get_data (G_OBJECT (button), "item");
  guint position;

  if (G_IS_LIST_STORE (self->items) && g_list_store_find (G_LIST_STORE (self->items), item, &position))
    g_list_store_remove (G_LIST_STORE (self->items), position);
}

/* The column's heading: the item's name and, where the list can be changed, a button that takes
 * this one item out of the comparison. */
static GtkWidget *
column_heading (SuanliCompareView *self,
                SuanliItem        *item)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  GtkWidget *name = suanli_compare_cell_label (suanli_item_get_name (item), "heading", 0);
  GtkWidget *remove;
  g_autofree char *tooltip = NULL;

  gtk_widget_set_hexpand (name, TRUE);
  gtk_box_append (GTK_BOX (box), name);
  if (!G_IS_LIST_STORE (self->items))
    return box;
  remove = gtk_button_new_from_icon_name ("window-close-symbolic");
  /* Translators: the tooltip of the button over a column of the comparison, e.g. "Remove H200 SXM
   * from the comparison". */
  tooltip = g_strdup_printf (_("Remove %s from the comparison"), suanli_item_get_name (item));
  gtk_widget_set_tooltip_text (remove, tooltip);
  gtk_accessible_update_property (GTK_ACCESSIBLE (remove), GTK_ACCESSIBLE_PROPERTY_LABEL, tooltip, -1);
  gtk_widget_add_css_class (remove, "flat");
  gtk_widget_add_css_class (remove, "circular");
  gtk_widget_set_valign (remove, GTK_ALIGN_START);
  g_object_set_data_full (G_OBJECT (remove), "item", g_object_ref (item), g_object_unref);
  g_signal_connect (remove, "clicked", G_CALLBACK (on_remove_clicked), self);
  gtk_box_append (GTK_BOX (box), remove);
  return box;
}

/* The cell of column @column in @spec_key's row: the value (bold when @best), "unknown" with the
 * catalog's reason as its tooltip, or a dash; under a value, where the row has ratios, its ratio
 * to the first item's value, naming that item. */
static GtkWidget *
value_cell (SuanliCompareView   *self,
            GPtrArray           *items,
            const SuanliSpecKey *spec_key,
            guint                column,
            gboolean             best)
{
  SuanliItem *item = g_ptr_array_index (items, column);
  const SuanliSpec *spec = suanli_item_find_spec (item, spec_key->key);
  const SuanliSpec *first = suanli_item_find_spec (g_ptr_array_index (items, 0), spec_key->key);
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);
  g_autofree char *value = NULL;
  g_autofree char *times = NULL;
  g_autofree char *ratio = NULL;
  const SuanliText *why;

  if (spec == NULL)
    {
      /* Marked unknown in the catalog: no source confirms a figure; the note says why. */
      why = suanli_item_find_unknown (item, spec_key->key);
      gtk_box_append (GTK_BOX (box), suanli_compare_cell_label (why != NULL ? _("unknown") : "—", "dim-label", 0));
      if (why != NULL)
        gtk_widget_set_tooltip_text (box, suanli_text_get (why));
      return box;
    }
  value = suanli_spec_format_short (spec, self->memory_units);
  gtk_box_append (GTK_BOX (box), suanli_compare_cell_label (value, best ? "compare-best" : NULL, 0));
  if (column == 0 || (spec_key->compare & SUANLI_SPEC_RATIO) == 0 || first == NULL || first->value == 0 ||
      g_strcmp0 (first->unit, spec->unit) != 0)
    return box;
  times = g_strdup_printf ("%.2f", spec->value / first->value);
  /* Translators: a value's ratio to the first item's, e.g. "×1.43 vs H100 SXM". */
  ratio = g_strdup_printf (_("×%s vs %s"), times, suanli_item_get_name (g_ptr_array_index (items, 0)));
  gtk_box_append (GTK_BOX (box), suanli_compare_cell_label (ratio, "caption", 0));
  gtk_widget_add_css_class (gtk_widget_get_last_child (box), "dim-label");
  return box;
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

      gtk_grid_attach (grid, column_heading (self, item), 1 + i, 0, 1, 1);
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
          guint best;

          if (g_hash_table_contains (self->best, key))
            continue;
          for (guint i = 0; i < n; i++)
            any |= suanli_item_get_spec_value (g_ptr_array_index (items, i), key, NULL) &&
                   suanli_item_get_kind (g_ptr_array_index (items, i)) == kind;
          if (!any)
            continue;

          best = find_best (items, &keys[s]);
          /* The row's bit says the row is shown, even with no best. */
          g_hash_table_insert (self->best, (gpointer) key, GUINT_TO_POINTER (best | ROW_SHOWN));
          gtk_grid_attach (grid, suanli_compare_cell_label (_(keys[s].title), "dim-label", 1), 0, row, 1, 1);
          for (guint i = 0; i < n; i++)
            gtk_grid_attach (grid, value_cell (self, items, &keys[s], i, (best & (1u << i)) != 0), 1 + i, row, 1, 1);
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

/* The first column marked best for @key, or -1 (for tests). */
int
suanli_compare_view_get_best_column (SuanliCompareView *self,
                                     const char        *key)
{
  guint best;

  g_return_val_if_fail (SUANLI_IS_COMPARE_VIEW (self), -1);

  best = GPOINTER_TO_UINT (g_hash_table_lookup (self->best, key)) & ~ROW_SHOWN;
  for (int i = 0; i < SUANLI_COMPARE_MAX_ITEMS; i++)
    if ((best & (1u << i)) != 0)
      return i;
  return -1;
}

/* Whether @column is marked best for @key: every column of a tie is (for tests). */
gboolean
suanli_compare_view_is_best (SuanliCompareView *self,
                             const char        *key,
                             guint              column)
{
  g_return_val_if_fail (SUANLI_IS_COMPARE_VIEW (self), FALSE);

  return column < 31 && (GPOINTER_TO_UINT (g_hash_table_lookup (self->best, key)) & (1u << column)) != 0;
}
