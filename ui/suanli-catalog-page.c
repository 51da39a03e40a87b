/* suanli-catalog-page.c — the catalog page: every part, tool and technique, searched, compared, charted
 *
 * One list feeds everything: the workspace's catalog, filtered by kind, search and facets
 * (GtkFilterListModel), sorted by the column view's sorter (GtkSortListModel), selected one at a
 * time. The table's columns are made for the kind shown; the chart draws the filtered items; the
 * detail pane shows the selected one. Items for comparison go to the workspace's selection, so
 * other pages see them too.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <adwaita.h>
#include <glib/gi18n.h>

#include "suanli-catalog-columns.h"
#include "suanli-catalog-detail.h"
#include "suanli-catalog-page-private.h"
#include "suanli-drop-down-name.h"

/* The memory facet's thresholds, in the order of its dropdown (marketed GB ≈ GiB for HBM). */
static const double memory_thresholds_gib[] = { 0, 24, 48, 80, 128 };

G_DEFINE_FINAL_TYPE (SuanliCatalogPage, suanli_catalog_page, SUANLI_TYPE_PAGE)

static void update_detail (SuanliCatalogPage *self);

/* ---- filtering ---------------------------------------------------------------------------- */

static gboolean
filter_item (gpointer object,
             gpointer user_data)
{
  SuanliCatalogPage *self = user_data;
  SuanliItem *item = object;
  guint vendor = gtk_drop_down_get_selected (self->vendor_dropdown);
  guint memory = gtk_drop_down_get_selected (self->memory_dropdown);

  if (self->searching)
    return suanli_item_matches (item, (const char * const *) self->search_terms);
  if (suanli_item_get_kind (item) != self->kind)
    return FALSE;
  if (vendor != GTK_INVALID_LIST_POSITION && vendor > 0 && vendor - 1 < self->vendors->len &&
      g_strcmp0 (suanli_item_get_vendor (item), g_ptr_array_index (self->vendors, vendor - 1)) != 0)
    return FALSE;
  if (self->kind == SUANLI_ITEM_KIND_ACCELERATOR)
    {
      double bytes = 0;

      if (memory != GTK_INVALID_LIST_POSITION && memory > 0 && memory < G_N_ELEMENTS (memory_thresholds_gib) &&
          (!suanli_item_get_spec_value (item, "memory_bytes", &bytes) ||
           bytes < memory_thresholds_gib[memory] * 1073741824.0 * 0.98))
        return FALSE;
      if (gtk_toggle_button_get_active (self->fp8_toggle) && !suanli_item_get_spec_value (item, "fp8_tflops", NULL))
        return FALSE;
    }
  return suanli_item_matches (item, (const char * const *) self->search_terms);
}

/* While searching, the item the query names comes first (the H20 for "H20", before the H200s
 * whose names begin with it), unless a column header asks for another order. */
static int
compare_relevance (gconstpointer a,
                   gconstpointer b,
                   gpointer      user_data)
{
  SuanliCatalogPage *self = user_data;
  guint rank_a, rank_b;

  if (!self->searching)
    return GTK_ORDERING_EQUAL;
  rank_a = suanli_item_match_rank ((SuanliItem *) a, (const char * const *) self->search_terms);
  rank_b = suanli_item_match_rank ((SuanliItem *) b, (const char * const *) self->search_terms);
  return rank_a < rank_b ? GTK_ORDERING_SMALLER : rank_a > rank_b ? GTK_ORDERING_LARGER : GTK_ORDERING_EQUAL;
}

/* "Loading the Catalog…" and its spinner show only when the catalog is slow to come (a folder on
 * a network mount). The built-in catalog is in before they would, so the page goes from blank to
 * the table without flashing them, and the first frame neither lays out their big bold title nor
 * loads the spinner's icon. */
#define SPINNER_DELAY_MS 300

static gboolean
start_spinner (gpointer user_data)
{
  SuanliCatalogPage *self = user_data;

  self->spinner_timeout = 0;
  adw_status_page_set_title (self->loading_status, _("Loading the Catalog…"));
  gtk_spinner_start (self->loading_spinner);
  return G_SOURCE_REMOVE;
}

static void
update_content (SuanliCatalogPage *self)
{
  const char *visible;

  if (self->catalog == NULL || g_list_model_get_n_items (self->catalog) == 0)
    visible = "loading";
  else if (g_list_model_get_n_items (G_LIST_MODEL (self->filter_model)) == 0)
    visible = "empty";
  else
    visible = gtk_toggle_button_get_active (self->chart_toggle) ? "chart" : "table";
  gtk_stack_set_visible_child_name (self->content_stack, visible);

  /* GTK loads a status page's icon (here a 128-pixel SVG, through librsvg) even while the stack
   * does not show the page, so it gets it when it is first shown. */
  if (g_str_equal (visible, "empty") && adw_status_page_get_icon_name (self->empty_page) == NULL)
    adw_status_page_set_icon_name (self->empty_page, "system-search-symbolic");

  if (!g_str_equal (visible, "loading"))
    {
      g_clear_handle_id (&self->spinner_timeout, g_source_remove);
      gtk_spinner_stop (self->loading_spinner);
    }
  else if (self->spinner_timeout == 0 && !gtk_spinner_get_spinning (self->loading_spinner))
    {
      self->spinner_timeout = g_timeout_add (SPINNER_DELAY_MS, start_spinner, self);
    }
}

static void
refilter (SuanliCatalogPage *self)
{
  gtk_filter_changed (GTK_FILTER (self->filter), GTK_FILTER_CHANGE_DIFFERENT);
  update_content (self);
}

static void rebuild_columns (SuanliCatalogPage *self);
static void update_kind_counts (SuanliCatalogPage *self);

static void
on_search_changed (SuanliCatalogPage *self)
{
  gboolean searching;

  g_strfreev (self->search_terms);
  self->search_terms = suanli_item_fold_query (gtk_editable_get_text (GTK_EDITABLE (self->search_entry)));
  searching = self->search_terms[0] != NULL;
  if (searching != self->searching)
    {
      self->searching = searching;
      rebuild_columns (self);
    }
  refilter (self);
  gtk_sorter_changed (GTK_SORTER (self->relevance), GTK_SORTER_CHANGE_DIFFERENT);
  /* The best match is what Add to Compare and Use in Plan take, not a row kept from before that
   * merely still matches (the H200, whose summary names the H100, for "H100 SXM"). */
  if (self->searching)
    gtk_single_selection_set_selected (self->selection, 0);
  update_kind_counts (self);
}

static void
on_facet_changed (SuanliCatalogPage *self)
{
  if (!self->rebuilding)
    refilter (self);
}

/* ---- the kind list ------------------------------------------------------------------------ */

static void
update_kind_counts (SuanliCatalogPage *self)
{
  guint counts[SUANLI_N_ITEM_KINDS] = { 0 };
  guint n = self->catalog != NULL ? g_list_model_get_n_items (self->catalog) : 0;

  /* While searching, each kind counts its matches. */
  for (guint i = 0; i < n; i++)
    {
      g_autoptr(SuanliItem) item = g_list_model_get_item (self->catalog, i);

      if (!self->searching || suanli_item_matches (item, (const char * const *) self->search_terms))
        counts[suanli_item_get_kind (item)]++;
    }
  for (guint k = 0; k < SUANLI_N_ITEM_KINDS; k++)
    {
      GtkListBoxRow *row = gtk_list_box_get_row_at_index (self->kind_list, (int) k);
      GtkWidget *count = g_object_get_data (G_OBJECT (row), "count");
      g_autofree char *text = g_strdup_printf ("%u", counts[k]);

      gtk_label_set_text (GTK_LABEL (count), text);
      /* Before the catalog is in there is nothing to count: no column of zeros (nor their
       * layout in the first frame). */
      gtk_widget_set_visible (count, n > 0);
    }
}

/* Tab leaves the categories for what they show, as in a sidebar, instead of going down them one
 * by one (the arrow keys do that). */
static gboolean
on_kind_list_key (GtkEventControllerKey *controller,
                  guint                  keyval,
                  guint                  keycode,
                  GdkModifierType        state,
                  SuanliCatalogPage     *self)
{
  if ((keyval != GDK_KEY_Tab && keyval != GDK_KEY_KP_Tab) || (state & GDK_MODIFIER_MASK & ~GDK_LOCK_MASK) != 0)
    return FALSE;
  if (g_str_equal (gtk_stack_get_visible_child_name (self->content_stack), "table"))
    return gtk_widget_grab_focus (GTK_WIDGET (self->column_view));
  return gtk_widget_child_focus (gtk_stack_get_visible_child (self->content_stack), GTK_DIR_TAB_FORWARD);
}

static void
build_kind_list (SuanliCatalogPage *self)
{
  for (guint k = 0; k < SUANLI_N_ITEM_KINDS; k++)
    {
      GtkWidget *box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 12);
      GtkWidget *title = gtk_label_new (suanli_item_kind_get_title (k));
      GtkWidget *count = gtk_label_new (NULL);
      GtkWidget *row = gtk_list_box_row_new ();

      gtk_label_set_xalign (GTK_LABEL (title), 0);
      gtk_widget_set_hexpand (title, TRUE);
      gtk_widget_add_css_class (count, "dim-label");
      gtk_widget_add_css_class (count, "count");
      gtk_box_append (GTK_BOX (box), title);
      gtk_box_append (GTK_BOX (box), count);
      gtk_list_box_row_set_child (GTK_LIST_BOX_ROW (row), box);
      g_object_set_data (G_OBJECT (row), "count", count);
      gtk_list_box_append (self->kind_list, row);
    }
}

/* ---- the table ---------------------------------------------------------------------------- */

static void
rebuild_columns (SuanliCatalogPage *self)
{
  suanli_catalog_columns_rebuild (self->column_view, self->catalog, self->kind, self->searching, self->memory_units,
                                  self->selection != NULL ? GTK_SELECTION_MODEL (self->selection) : NULL);
}

/* ---- facets and chart choices for the kind ------------------------------------------------ */

static int
compare_strings (gconstpointer a,
                 gconstpointer b)
{
  return g_utf8_collate (*(const char * const *) a, *(const char * const *) b);
}

static void
rebuild_vendors (SuanliCatalogPage *self)
{
  g_autoptr(GHashTable) seen = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr(GtkStringList) names = gtk_string_list_new (NULL);
  guint n = g_list_model_get_n_items (self->catalog);

  g_ptr_array_set_size (self->vendors, 0);
  for (guint i = 0; i < n; i++)
    {
      g_autoptr(SuanliItem) item = g_list_model_get_item (self->catalog, i);
      const char *vendor = suanli_item_get_vendor (item);

      if (suanli_item_get_kind (item) == self->kind && *vendor != '\0' && g_hash_table_add (seen, (gpointer) vendor))
        g_ptr_array_add (self->vendors, g_strdup (vendor));
    }
  g_ptr_array_sort (self->vendors, compare_strings);

  gtk_string_list_append (names, _("All vendors"));
  for (guint i = 0; i < self->vendors->len; i++)
    gtk_string_list_append (names, g_ptr_array_index (self->vendors, i));
  gtk_drop_down_set_model (self->vendor_dropdown, G_LIST_MODEL (names));
  gtk_drop_down_set_selected (self->vendor_dropdown, 0);
}

static guint
chart_key_position (SuanliCatalogPage *self,
                    const char        *key,
                    guint              fallback)
{
  guint position;

  if (g_ptr_array_find_with_equal_func (self->chart_keys, key, g_str_equal, &position))
    return position;
  return MIN (fallback, self->chart_keys->len > 0 ? self->chart_keys->len - 1 : 0);
}

static void
rebuild_chart_choices (SuanliCatalogPage *self)
{
  g_autoptr(GtkStringList) titles = gtk_string_list_new (NULL);
  g_autoptr(GtkStringList) sizes = gtk_string_list_new (NULL);
  const SuanliSpecKey *keys;
  guint n_keys = 0;
  gboolean accelerators = self->kind == SUANLI_ITEM_KIND_ACCELERATOR;

  g_ptr_array_set_size (self->chart_keys, 0);
  keys = suanli_item_kind_get_spec_keys (self->kind, &n_keys);
  gtk_string_list_append (sizes, _("None"));
  for (guint k = 0; k < n_keys; k++)
    if (suanli_catalog_kind_has_spec (self->catalog, self->kind, keys[k].key))
      {
        g_ptr_array_add (self->chart_keys, (gpointer) keys[k].key);
        gtk_string_list_append (titles, _(keys[k].title));
        gtk_string_list_append (sizes, _(keys[k].title));
      }
  gtk_drop_down_set_model (self->x_dropdown, G_LIST_MODEL (titles));
  gtk_drop_down_set_model (self->y_dropdown, G_LIST_MODEL (titles));
  gtk_drop_down_set_model (self->size_dropdown, G_LIST_MODEL (sizes));
  /* Accelerators open on the chart people compare them by: bandwidth across, BF16 up, memory as bubbles. */
  gtk_drop_down_set_selected (self->x_dropdown, chart_key_position (self, accelerators ? "memory_bandwidth" : "", 1));
  gtk_drop_down_set_selected (self->y_dropdown, chart_key_position (self, accelerators ? "bf16_tflops" : "", 0));
  gtk_drop_down_set_selected (self->size_dropdown,
                              accelerators ? chart_key_position (self, "memory_bytes", 0) + 1 : 0);
}

static const char *
selected_chart_key (SuanliCatalogPage *self,
                    GtkDropDown       *dropdown,
                    guint              offset)
{
  guint position = gtk_drop_down_get_selected (dropdown);

  if (position == GTK_INVALID_LIST_POSITION || position < offset || position - offset >= self->chart_keys->len)
    return NULL;
  return g_ptr_array_index (self->chart_keys, position - offset);
}

static void
on_chart_changed (SuanliCatalogPage *self)
{
  gboolean bars = gtk_toggle_button_get_active (self->bars_toggle);
  gboolean logarithmic = gtk_check_button_get_active (self->log_check);

  if (self->rebuilding)
    return;
  gtk_widget_set_visible (GTK_WIDGET (self->x_dropdown), !bars);
  gtk_widget_set_visible (GTK_WIDGET (self->x_label), !bars);
  gtk_widget_set_visible (GTK_WIDGET (self->size_dropdown), !bars);
  gtk_widget_set_visible (GTK_WIDGET (self->size_label), !bars);
  suanli_chart_view_set_mode (self->chart_view, bars ? SUANLI_CHART_BARS : SUANLI_CHART_SCATTER);
  suanli_chart_view_set_logarithmic (self->chart_view, logarithmic, logarithmic);
  suanli_chart_view_set_specs (self->chart_view, selected_chart_key (self, self->x_dropdown, 0),
                               selected_chart_key (self, self->y_dropdown, 0),
                               selected_chart_key (self, self->size_dropdown, 1));
}

static void
on_view_toggled (SuanliCatalogPage *self)
{
  update_content (self);
}

/* ---- showing a kind ----------------------------------------------------------------------- */

static void
show_kind (SuanliCatalogPage *self,
           SuanliItemKind     kind)
{
  gboolean accelerators = kind == SUANLI_ITEM_KIND_ACCELERATOR;

  self->kind = kind;
  self->rebuilding = TRUE;
  gtk_widget_set_visible (GTK_WIDGET (self->memory_dropdown), accelerators);
  gtk_widget_set_visible (GTK_WIDGET (self->fp8_toggle), accelerators);
  rebuild_vendors (self);
  rebuild_chart_choices (self);
  rebuild_columns (self);
  self->rebuilding = FALSE;
  refilter (self);
  on_chart_changed (self);
  gtk_single_selection_set_selected (self->selection, 0);
  update_detail (self);
}

static void
on_kind_selected (GtkListBox    *list,
                  GtkListBoxRow *row,
                  gpointer       user_data)
{
  SuanliCatalogPage *self = SUANLI_CATALOG_PAGE (user_data);

  if (row != NULL && (SuanliItemKind) gtk_list_box_row_get_index (row) != self->kind)
    {
      /* Choosing a kind ends a search of the whole catalog: the kind is what is wanted then. */
      if (self->searching)
        gtk_editable_set_text (GTK_EDITABLE (self->search_entry), "");
      show_kind (self, gtk_list_box_row_get_index (row));
    }
}

static void
on_catalog_changed (GListModel *model,
                    guint       position,
                    guint       removed,
                    guint       added,
                    gpointer    user_data)
{
  SuanliCatalogPage *self = SUANLI_CATALOG_PAGE (user_data);

  update_kind_counts (self);
  show_kind (self, self->kind);
}

/* ---- the detail pane ---------------------------------------------------------------------- */

static void
update_detail (SuanliCatalogPage *self)
{
  SuanliItem *item = suanli_catalog_page_get_selected_item (self);
  g_autofree char *patch = item != NULL ? _suanli_catalog_plan_patch (item) : NULL;

  suanli_catalog_detail_show (self->detail_view, item, self->memory_units, patch != NULL);
}

static void
on_selection_changed (SuanliCatalogPage *self)
{
  update_detail (self);
  suanli_chart_view_set_selected (self->chart_view, suanli_catalog_page_get_selected_item (self));
}

/* Under the chart: how many items it leaves out, and why. */
static void
on_chart_left_out (SuanliCatalogPage *self)
{
  const char *text = suanli_chart_view_get_left_out (self->chart_view);

  gtk_label_set_text (self->chart_left_out, text != NULL ? text : "");
  gtk_widget_set_visible (GTK_WIDGET (self->chart_left_out), text != NULL);
}

static void
on_chart_item_activated (SuanliCatalogPage *self,
                         SuanliItem        *item)
{
  suanli_catalog_page_select_item (self, item);
}

/* ---- settings ----------------------------------------------------------------------------- */

static void
on_memory_units_changed (SuanliCatalogPage *self)
{
  g_autofree char *nick = g_settings_get_string (self->settings, "memory-units");

  self->memory_units = suanli_memory_units_from_nick (nick);
  suanli_chart_view_set_memory_units (self->chart_view, self->memory_units);
  if (self->catalog != NULL && !self->rebuilding)
    {
      rebuild_columns (self);
      update_detail (self);
    }
}

/* ---- life cycle --------------------------------------------------------------------------- */

static void
suanli_catalog_page_constructed (GObject *object)
{
  SuanliCatalogPage *self = SUANLI_CATALOG_PAGE (object);
  SuanliWorkspace *workspace = suanli_page_get_workspace (SUANLI_PAGE (self));
  GtkSorter *sorter;
  GtkMultiSorter *order;

  G_OBJECT_CLASS (suanli_catalog_page_parent_class)->constructed (object);

  /* The workspace's catalog and its compare list. */
  if (workspace != NULL)
    {
      self->catalog = g_object_ref (G_LIST_MODEL (suanli_workspace_get_catalog (workspace)));
      self->compare_items = g_object_ref (suanli_selection_get_items (suanli_workspace_get_selection (workspace)));
    }
  if (self->catalog == NULL)
    self->catalog = G_LIST_MODEL (g_list_store_new (SUANLI_TYPE_ITEM));
  if (self->compare_items == NULL)
    self->compare_items = g_list_store_new (SUANLI_TYPE_ITEM);

  self->filter = gtk_custom_filter_new (filter_item, self, NULL);
  self->filter_model = gtk_filter_list_model_new (g_object_ref (self->catalog), g_object_ref (GTK_FILTER (self->filter)));
  sorter = gtk_column_view_get_sorter (self->column_view);
  self->relevance = gtk_custom_sorter_new (compare_relevance, self, NULL);
  order = gtk_multi_sorter_new ();
  if (sorter != NULL)
    gtk_multi_sorter_append (order, g_object_ref (sorter));
  gtk_multi_sorter_append (order, g_object_ref (GTK_SORTER (self->relevance)));
  self->sort_model = gtk_sort_list_model_new (g_object_ref (G_LIST_MODEL (self->filter_model)), GTK_SORTER (order));
  self->selection = gtk_single_selection_new (g_object_ref (G_LIST_MODEL (self->sort_model)));
  gtk_single_selection_set_can_unselect (self->selection, FALSE);
  gtk_column_view_set_model (self->column_view, GTK_SELECTION_MODEL (self->selection));
  g_signal_connect_swapped (self->selection, "notify::selected-item", G_CALLBACK (on_selection_changed), self);
  suanli_chart_view_set_items (self->chart_view, G_LIST_MODEL (self->filter_model));
  suanli_chart_view_set_compared (self->chart_view, G_LIST_MODEL (self->compare_items));

  g_signal_connect (self->catalog, "items-changed", G_CALLBACK (on_catalog_changed), self);
  if (self->compare_items != NULL)
    g_signal_connect_swapped (self->compare_items, "items-changed", G_CALLBACK (_suanli_catalog_page_update_compare), self);

  build_kind_list (self);
  {
    GtkEventController *keys = gtk_event_controller_key_new ();

    /* Capture: before the list moves its focus from row to row on Tab. */
    gtk_event_controller_set_propagation_phase (keys, GTK_PHASE_CAPTURE);
    g_signal_connect (keys, "key-pressed", G_CALLBACK (on_kind_list_key), self);
    gtk_widget_add_controller (GTK_WIDGET (self->kind_list), keys);
  }
  update_kind_counts (self);
  on_memory_units_changed (self);
  gtk_list_box_select_row (self->kind_list, gtk_list_box_get_row_at_index (self->kind_list, 0));
  show_kind (self, SUANLI_ITEM_KIND_ACCELERATOR);
  _suanli_catalog_page_update_compare (self);
}

static void
suanli_catalog_page_dispose (GObject *object)
{
  SuanliCatalogPage *self = SUANLI_CATALOG_PAGE (object);

  if (self->catalog != NULL)
    g_signal_handlers_disconnect_by_data (self->catalog, self);
  if (self->compare_items != NULL)
    g_signal_handlers_disconnect_by_data (self->compare_items, self);
  g_clear_handle_id (&self->spinner_timeout, g_source_remove);
  _suanli_catalog_page_actions_dispose (self);
  if (self->column_view != NULL)
    gtk_column_view_set_model (self->column_view, NULL);
  gtk_widget_dispose_template (GTK_WIDGET (self), SUANLI_TYPE_CATALOG_PAGE);
  g_clear_object (&self->selection);
  g_clear_object (&self->sort_model);
  g_clear_object (&self->filter_model);
  g_clear_object (&self->filter);
  g_clear_object (&self->relevance);
  g_clear_object (&self->catalog);
  g_clear_object (&self->compare_items);
  g_clear_object (&self->settings);

  G_OBJECT_CLASS (suanli_catalog_page_parent_class)->dispose (object);
}

static void
suanli_catalog_page_finalize (GObject *object)
{
  SuanliCatalogPage *self = SUANLI_CATALOG_PAGE (object);

  g_strfreev (self->search_terms);
  g_ptr_array_unref (self->vendors);
  g_ptr_array_unref (self->chart_keys);

  G_OBJECT_CLASS (suanli_catalog_page_parent_class)->finalize (object);
}

static void
suanli_catalog_page_class_init (SuanliCatalogPageClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->constructed = suanli_catalog_page_constructed;
  object_class->dispose = suanli_catalog_page_dispose;
  object_class->finalize = suanli_catalog_page_finalize;

  g_type_ensure (SUANLI_TYPE_CHART_VIEW);
  g_type_ensure (SUANLI_TYPE_CATALOG_DETAIL);
  gtk_widget_class_set_template_from_resource (widget_class, "/org/suanli/Suanli/ui/suanli-catalog-page.ui");
  gtk_widget_class_bind_template_child (widget_class, SuanliCatalogPage, kind_list);
  gtk_widget_class_bind_template_child (widget_class, SuanliCatalogPage, search_entry);
  gtk_widget_class_bind_template_child (widget_class, SuanliCatalogPage, vendor_dropdown);
  gtk_widget_class_bind_template_child (widget_class, SuanliCatalogPage, memory_dropdown);
  gtk_widget_class_bind_template_child (widget_class, SuanliCatalogPage, fp8_toggle);
  gtk_widget_class_bind_template_child (widget_class, SuanliCatalogPage, table_toggle);
  gtk_widget_class_bind_template_child (widget_class, SuanliCatalogPage, chart_toggle);
  gtk_widget_class_bind_template_child (widget_class, SuanliCatalogPage, compare_button);
  gtk_widget_class_bind_template_child (widget_class, SuanliCatalogPage, content_stack);
  gtk_widget_class_bind_template_child (widget_class, SuanliCatalogPage, loading_status);
  gtk_widget_class_bind_template_child (widget_class, SuanliCatalogPage, empty_page);
  gtk_widget_class_bind_template_child (widget_class, SuanliCatalogPage, loading_spinner);
  gtk_widget_class_bind_template_child (widget_class, SuanliCatalogPage, column_view);
  gtk_widget_class_bind_template_child (widget_class, SuanliCatalogPage, detail_view);
  gtk_widget_class_bind_template_child (widget_class, SuanliCatalogPage, bars_toggle);
  gtk_widget_class_bind_template_child (widget_class, SuanliCatalogPage, x_label);
  gtk_widget_class_bind_template_child (widget_class, SuanliCatalogPage, x_dropdown);
  gtk_widget_class_bind_template_child (widget_class, SuanliCatalogPage, y_dropdown);
  gtk_widget_class_bind_template_child (widget_class, SuanliCatalogPage, size_label);
  gtk_widget_class_bind_template_child (widget_class, SuanliCatalogPage, size_dropdown);
  gtk_widget_class_bind_template_child (widget_class, SuanliCatalogPage, log_check);
  gtk_widget_class_bind_template_child (widget_class, SuanliCatalogPage, chart_view);
  gtk_widget_class_bind_template_child (widget_class, SuanliCatalogPage, chart_left_out);
  gtk_widget_class_bind_template_callback (widget_class, on_kind_selected);
  gtk_widget_class_bind_template_callback (widget_class, on_search_changed);
  gtk_widget_class_bind_template_callback (widget_class, on_facet_changed);
  gtk_widget_class_bind_template_callback (widget_class, on_view_toggled);
  gtk_widget_class_bind_template_callback (widget_class, on_chart_changed);
  gtk_widget_class_bind_template_callback (widget_class, on_chart_item_activated);
  gtk_widget_class_bind_template_callback (widget_class, on_chart_left_out);

  _suanli_catalog_page_class_actions_init (widget_class);
}

static void
suanli_catalog_page_init (SuanliCatalogPage *self)
{
  GtkEventController *shortcuts;

  gtk_widget_init_template (GTK_WIDGET (self));
  suanli_drop_down_set_accessible_name (self->vendor_dropdown, _("Vendor"));
  suanli_drop_down_set_accessible_name (self->memory_dropdown, _("Minimum memory"));
  suanli_drop_down_set_accessible_name (self->x_dropdown, _("X axis"));
  suanli_drop_down_set_accessible_name (self->y_dropdown, _("Y axis"));
  suanli_drop_down_set_accessible_name (self->size_dropdown, _("Bubble size"));

  self->vendors = g_ptr_array_new_with_free_func (g_free);
  self->chart_keys = g_ptr_array_new ();
  self->search_terms = g_new0 (char *, 1);

  /* Ctrl+F searches wherever the focus is on the page; typing starts a search too. */
  shortcuts = gtk_shortcut_controller_new ();
  gtk_shortcut_controller_set_scope (GTK_SHORTCUT_CONTROLLER (shortcuts), GTK_SHORTCUT_SCOPE_MANAGED);
  gtk_shortcut_controller_add_shortcut (GTK_SHORTCUT_CONTROLLER (shortcuts),
                                        gtk_shortcut_new (gtk_shortcut_trigger_parse_string ("<Control>f"),
                                                          gtk_named_action_new ("catalog.search")));
  gtk_widget_add_controller (GTK_WIDGET (self), shortcuts);
  gtk_search_entry_set_key_capture_widget (self->search_entry, GTK_WIDGET (self));
  /* The table follows typing within 100 ms of the last key (GTK waits 150 by default). */
  gtk_search_entry_set_search_delay (self->search_entry, 50);

  self->settings = g_settings_new (APPLICATION_ID);
  g_signal_connect_object (self->settings, "changed::memory-units", G_CALLBACK (on_memory_units_changed), self,
                           G_CONNECT_SWAPPED);
}

GtkWidget *
suanli_catalog_page_new (SuanliWorkspace *workspace)
{
  return g_object_new (SUANLI_TYPE_CATALOG_PAGE, "workspace", workspace, NULL);
}

void
suanli_catalog_page_show_kind (SuanliCatalogPage *self,
                               SuanliItemKind     kind)
{
  g_return_if_fail (SUANLI_IS_CATALOG_PAGE (self));
  g_return_if_fail (kind < SUANLI_N_ITEM_KINDS);

  gtk_list_box_select_row (self->kind_list, gtk_list_box_get_row_at_index (self->kind_list, (int) kind));
}

void
suanli_catalog_page_set_search (SuanliCatalogPage *self,
                                const char        *text)
{
  g_return_if_fail (SUANLI_IS_CATALOG_PAGE (self));

  gtk_editable_set_text (GTK_EDITABLE (self->search_entry), text);
  /* The entry reports changes after a delay; apply this one now. */
  on_search_changed (self);
}

/* Returns: (transfer none): the items shown, in the table's order. */
GListModel *
suanli_catalog_page_get_visible_items (SuanliCatalogPage *self)
{
  g_return_val_if_fail (SUANLI_IS_CATALOG_PAGE (self), NULL);

  return G_LIST_MODEL (self->sort_model);
}

/* Returns: (transfer none) (nullable) */
SuanliItem *
suanli_catalog_page_get_selected_item (SuanliCatalogPage *self)
{
  g_return_val_if_fail (SUANLI_IS_CATALOG_PAGE (self), NULL);

  return self->selection != NULL ? gtk_single_selection_get_selected_item (self->selection) : NULL;
}

/* Selects @item in the table (and the chart) and scrolls it into view; FALSE when it is not shown. */
gboolean
suanli_catalog_page_select_item (SuanliCatalogPage *self,
                                 SuanliItem        *item)
{
  GListModel *model;

  g_return_val_if_fail (SUANLI_IS_CATALOG_PAGE (self), FALSE);

  model = G_LIST_MODEL (self->sort_model);
  for (guint i = 0; i < g_list_model_get_n_items (model); i++)
    {
      g_autoptr(SuanliItem) candidate = g_list_model_get_item (model, i);

      if (candidate != item)
        continue;
      gtk_single_selection_set_selected (self->selection, i);
      /* GTK 4.8 has no gtk_column_view_scroll_to(); the inner list view's action does it. */
      {
        GtkWidget *list_view = gtk_widget_get_first_child (GTK_WIDGET (self->column_view));

        for (; list_view != NULL; list_view = gtk_widget_get_next_sibling (list_view))
          if (GTK_IS_LIST_VIEW (list_view))
            gtk_widget_activate_action (list_view, "list.scroll-to-item", "u", i);
      }
      return TRUE;
    }
  return FALSE;
}

void
suanli_catalog_page_show_chart (SuanliCatalogPage *self,
                                gboolean           chart)
{
  g_return_if_fail (SUANLI_IS_CATALOG_PAGE (self));

  gtk_toggle_button_set_active (chart ? self->chart_toggle : self->table_toggle, TRUE);
  update_content (self);
}

/* Opens (or presents) the compare window over the workspace's compare list. Returns: (transfer none) */
GtkWindow *
suanli_catalog_page_open_compare (SuanliCatalogPage *self)
{
  g_return_val_if_fail (SUANLI_IS_CATALOG_PAGE (self), NULL);

  return _suanli_catalog_page_present_compare (self);
}
