/* suanli-catalog-columns.c — the catalog table's columns for a kind: cells, tooltips and sorting
 *
 * The catalog page's table shows name and vendor, each spec some item of the kind has, derived
 * accelerator figures and disputed claims; each number column sorts by its value, with items
 * lacking it ranked last when read highest first.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>

#include "suanli-catalog-columns.h"
#include "suanli-cell-tooltip.h"

typedef enum {
  COLUMN_SPEC,
  COLUMN_FLOPS_PER_WATT,
  COLUMN_BYTES_PER_FLOP,
  COLUMN_CLAIMS,
} ColumnType;

typedef struct
{
  ColumnType  type;
  const char *key;   /* interned spec key for COLUMN_SPEC */
  const char *unit;  /* the unit its header names, or NULL */
  SuanliMemoryUnits memory_units;   /* how sizes read, as the setting was when the columns were made */
} Column;

/* A derived accelerator figure: BF16 TFLOP/s per watt, or bytes of memory traffic per FLOP. */
static gboolean
derived_value (SuanliItem *item,
               ColumnType  type,
               double     *value)
{
  double bf16 = 0, other = 0;

  if (!suanli_item_get_spec_value (item, "bf16_tflops", &bf16) || bf16 <= 0)
    return FALSE;
  if (type == COLUMN_FLOPS_PER_WATT)
    {
      if (!suanli_item_get_spec_value (item, "tdp", &other) || other <= 0)
        return FALSE;
      *value = bf16 / other;
      return TRUE;
    }
  if (!suanli_item_get_spec_value (item, "memory_bandwidth", &other))
    return FALSE;
  *value = other / bf16;   /* (TB/s) / (TFLOP/s) = bytes per FLOP */
  return TRUE;
}

static gboolean
column_value (SuanliItem   *item,
              const Column *column,
              double       *value)
{
  switch (column->type)
    {
    case COLUMN_SPEC:
      return suanli_item_get_spec_value (item, column->key, value);
    case COLUMN_CLAIMS:
      *value = suanli_item_count_disputed_claims (item);
      return *value > 0;
    default:
      return derived_value (item, column->type, value);
    }
}

static char *
column_text (SuanliItem   *item,
             const Column *column)
{
  double value = 0;

  if (!column_value (item, column, &value))
    {
      /* "unknown" where the catalog says no source gives the figure; "—" where it has none. */
      if (column->type == COLUMN_SPEC && suanli_item_find_unknown (item, column->key) != NULL)
        return g_strdup (_("unknown"));
      return g_strdup (column->type == COLUMN_CLAIMS ? "" : "—");
    }
  switch (column->type)
    {
    case COLUMN_SPEC:
      {
        const SuanliSpec *spec = suanli_item_find_spec (item, column->key);

        /* The header names the unit; sizes and counts, which scale, keep theirs. */
        if (g_strcmp0 (spec->unit, column->unit) == 0 && !g_str_equal (spec->unit, "B") &&
            !g_str_equal (spec->unit, "count") && !g_str_equal (spec->unit, "tokens"))
          return suanli_format_number (spec->value);
        /* A size in GB reads as its vendor states it (141 GB, not the 151 GB its bytes make). */
        return suanli_spec_format_short (spec, column->memory_units);
      }
    case COLUMN_CLAIMS:
      return g_strdup_printf ("⚠ %.0f", value);
    case COLUMN_FLOPS_PER_WATT:
      return g_strdup_printf ("%.2f", value);
    case COLUMN_BYTES_PER_FLOP:
    default:
      return g_strdup_printf ("%.4f", value);
    }
}

static void
setup_number_cell (GtkSignalListItemFactory *factory,
                   GtkListItem              *list_item,
                   gpointer                  user_data)
{
  GtkWidget *label = gtk_label_new (NULL);

  gtk_label_set_xalign (GTK_LABEL (label), 1);
  gtk_widget_add_css_class (label, "numeric");
  gtk_list_item_set_child (list_item, label);
}

static void
bind_number_cell (GtkSignalListItemFactory *factory,
                  GtkListItem              *list_item,
                  gpointer                  user_data)
{
  const Column *column = g_object_get_data (G_OBJECT (factory), "column");
  SuanliItem *item = gtk_list_item_get_item (list_item);
  GtkWidget *label = gtk_list_item_get_child (list_item);
  g_autofree char *text = column_text (item, column);

  gtk_label_set_text (GTK_LABEL (label), text);
  if (column->type == COLUMN_CLAIMS)
    {
      gtk_widget_add_css_class (label, "claim-disputed");
      suanli_cell_set_tooltip (label, *text ? _("The source articles misquote this item") : NULL);
    }
  else if (column->type == COLUMN_SPEC)
    {
      const SuanliSpec *spec = suanli_item_find_spec (item, column->key);
      g_autofree char *tooltip = spec != NULL ? g_strdup_printf ("%.15g %s — %s (%s)", spec->value, spec->unit,
                                                                 spec->source,
                                                                 suanli_confidence_get_title (spec->confidence))
                                              : NULL;
      suanli_cell_set_tooltip (label, tooltip);
    }
}

static void
setup_text_cell (GtkSignalListItemFactory *factory,
                 GtkListItem              *list_item,
                 gpointer                  user_data)
{
  GtkWidget *label = gtk_label_new (NULL);

  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_label_set_ellipsize (GTK_LABEL (label), PANGO_ELLIPSIZE_END);
  gtk_list_item_set_child (list_item, label);
}

static void
bind_text_cell (GtkSignalListItemFactory *factory,
                GtkListItem              *list_item,
                gpointer                  user_data)
{
  SuanliItem *item = gtk_list_item_get_item (list_item);
  const char *property = g_object_get_data (G_OBJECT (factory), "property");
  GtkWidget *label = gtk_list_item_get_child (list_item);

  gtk_label_set_text (GTK_LABEL (label), g_str_equal (property, "name") ? suanli_item_get_name (item)
                                         : g_str_equal (property, "kind") ? suanli_item_kind_get_title (suanli_item_get_kind (item))
                                         : suanli_item_get_vendor (item));
}

/* The kind of an item as the sidebar names it, for the Kind column's sorter. */
static char *
kind_title_of (SuanliItem *item)
{
  return g_strdup (item != NULL ? suanli_item_kind_get_title (suanli_item_get_kind (item)) : "");
}

/* Items without the value count as the smallest: ranked highest first (the usual way to read a
 * spec column), they come last. GTK 4.8's column sorter does not tell a column which way it sorts,
 * so ascending shows them first. */
static int
compare_column (gconstpointer a,
                gconstpointer b,
                gpointer      user_data)
{
  const Column *column = user_data;
  double x = 0, y = 0;
  gboolean has_x = column_value ((SuanliItem *) a, column, &x);
  gboolean has_y = column_value ((SuanliItem *) b, column, &y);

  if (has_x != has_y)
    return has_x ? GTK_ORDERING_LARGER : GTK_ORDERING_SMALLER;
  return x < y ? GTK_ORDERING_SMALLER : x > y ? GTK_ORDERING_LARGER : GTK_ORDERING_EQUAL;
}

static void
add_text_column (GtkColumnView *view,
                 const char    *title,
                 const char    *property,
                 gboolean       expand)
{
  GtkListItemFactory *factory = gtk_signal_list_item_factory_new ();
  GtkExpression *expression = g_str_equal (property, "kind")
    ? gtk_cclosure_expression_new (G_TYPE_STRING, NULL, 0, NULL, G_CALLBACK (kind_title_of), NULL, NULL)
    : gtk_property_expression_new (SUANLI_TYPE_ITEM, NULL, property);
  GtkColumnViewColumn *column = gtk_column_view_column_new (title, factory);

  g_object_set_data (G_OBJECT (factory), "property", (gpointer) g_intern_string (property));
  g_signal_connect (factory, "setup", G_CALLBACK (setup_text_cell), NULL);
  g_signal_connect (factory, "bind", G_CALLBACK (bind_text_cell), NULL);
  gtk_column_view_column_set_sorter (column, GTK_SORTER (gtk_string_sorter_new (expression)));
  gtk_column_view_column_set_expand (column, expand);
  gtk_column_view_column_set_resizable (column, TRUE);
  if (expand)
    gtk_column_view_column_set_fixed_width (column, 170);
  gtk_column_view_append_column (view, column);
  g_object_unref (column);
}

static void
add_number_column (GtkColumnView     *view,
                   SuanliMemoryUnits  memory_units,
                   const char        *title,
                   ColumnType         type,
                   const char        *key,
                   const char        *unit)
{
  gboolean unit_in_header = unit != NULL && !g_str_equal (unit, "B") && !g_str_equal (unit, "count") &&
                            !g_str_equal (unit, "tokens") && !g_str_equal (unit, "year");
  g_autofree char *header = unit_in_header ? g_strdup_printf ("%s %s", title, unit) : g_strdup (title);
  GtkListItemFactory *factory = gtk_signal_list_item_factory_new ();
  GtkColumnViewColumn *column = gtk_column_view_column_new (header, factory);
  Column *data = g_new0 (Column, 1);

  data->type = type;
  data->key = key != NULL ? g_intern_string (key) : NULL;
  data->unit = unit != NULL ? g_intern_string (unit) : NULL;
  data->memory_units = memory_units;
  g_object_set_data_full (G_OBJECT (factory), "column", data, g_free);
  g_signal_connect (factory, "setup", G_CALLBACK (setup_number_cell), NULL);
  g_signal_connect (factory, "bind", G_CALLBACK (bind_number_cell), NULL);
  gtk_column_view_column_set_sorter (column, GTK_SORTER (gtk_custom_sorter_new (compare_column, data, NULL)));
  gtk_column_view_column_set_resizable (column, TRUE);
  gtk_column_view_append_column (view, column);
  g_object_unref (column);
}

/* Whether some item of @kind in @catalog has the spec @key: the table and the chart offer only those. */
gboolean
suanli_catalog_kind_has_spec (GListModel     *catalog,
                              SuanliItemKind  kind,
                              const char     *key)
{
  guint n = g_list_model_get_n_items (catalog);

  for (guint i = 0; i < n; i++)
    {
      g_autoptr(SuanliItem) item = g_list_model_get_item (catalog, i);

      if (suanli_item_get_kind (item) == kind && suanli_item_get_spec_value (item, key, NULL))
        return TRUE;
    }
  return FALSE;
}

/* Puts the columns for @kind into @view: name, vendor, each spec some item of the kind has, then for
 * accelerators TFLOP/s per watt and bytes per FLOP, then disputed claims.
 * While @searching, the results are of every kind: name, kind, vendor and claims. @view shows
 * @model (nullable) again once they are in. */
void
suanli_catalog_columns_rebuild (GtkColumnView     *view,
                                GListModel        *catalog,
                                SuanliItemKind     kind,
                                gboolean           searching,
                                SuanliMemoryUnits  memory_units,
                                GtkSelectionModel *model)
{
  GListModel *columns = gtk_column_view_get_columns (view);
  const SuanliSpecKey *keys;
  guint n_keys = 0;

  /* Without a model, adding a column binds no cells: they are made once, when it comes back. */
  gtk_column_view_set_model (view, NULL);

  while (g_list_model_get_n_items (columns) > 0)
    {
      g_autoptr(GtkColumnViewColumn) column = g_list_model_get_item (columns, 0);
      gtk_column_view_remove_column (view, column);
    }

  add_text_column (view, _("Name"), "name", TRUE);
  /* A search covers the whole catalog: its results are of every kind, so no kind's specs. */
  if (searching)
    {
      add_text_column (view, _("Kind"), "kind", FALSE);
      add_text_column (view, _("Vendor"), "vendor", FALSE);
      add_number_column (view, memory_units, _("Claims"), COLUMN_CLAIMS, NULL, NULL);
      if (model != NULL)
        gtk_column_view_set_model (view, model);
      return;
    }
  add_text_column (view, _("Vendor"), "vendor", FALSE);
  keys = suanli_item_kind_get_spec_keys (kind, &n_keys);
  for (guint k = 0; k < n_keys; k++)
    if (suanli_catalog_kind_has_spec (catalog, kind, keys[k].key))
      add_number_column (view, memory_units, _(keys[k].title), COLUMN_SPEC, keys[k].key, keys[k].units[0]);
  if (kind == SUANLI_ITEM_KIND_ACCELERATOR)
    {
      /* Translators: BF16 TFLOP/s per watt of board power. */
      add_number_column (view, memory_units, _("TF/s per W"), COLUMN_FLOPS_PER_WATT, NULL, NULL);
      /* Translators: memory bandwidth over compute, in bytes per FLOP. */
      add_number_column (view, memory_units, _("Bytes/FLOP"), COLUMN_BYTES_PER_FLOP, NULL, NULL);
    }
  add_number_column (view, memory_units, _("Claims"), COLUMN_CLAIMS, NULL, NULL);
  if (model != NULL)
    gtk_column_view_set_model (view, model);
}
