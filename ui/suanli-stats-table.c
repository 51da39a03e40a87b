/* suanli-stats-table.c — a sortable table of named figures (kernels, operators) with CSV export
 *
 * A title, an "Export CSV…" button and a GtkColumnView: the name, then one column per figure,
 * each sortable (numbers by value, the name by text). Durations are shown with units and written
 * to CSV in nanoseconds, so a spreadsheet gets exact numbers; the CSV follows the order shown.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <adwaita.h>
#include <glib/gi18n.h>

#include "suanli-cell-tooltip.h"
#include "suanli-stat-row.h"
#include "suanli-stats-table.h"
#include "suanli-units.h"

struct _SuanliStatsTable
{
  GtkWidget             parent_instance;

  GtkWidget            *box;
  GtkLabel             *title;
  GtkColumnView        *view;
  GtkSortListModel     *sorted;
  GArray               *columns;        /* of SuanliStatColumn */
  GtkFileChooserNative *save_dialog;
};

G_DEFINE_FINAL_TYPE (SuanliStatsTable, suanli_stats_table, GTK_TYPE_WIDGET)

enum {
  ROW_SELECTED,
  ROW_ACTIVATED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

/* A row was selected: its name goes out, for the other views to show where it is. */
static void
on_selected (GtkSingleSelection *selection,
             GParamSpec         *pspec,
             SuanliStatsTable   *self)
{
  SuanliStatRow *row = gtk_single_selection_get_selected_item (selection);

  if (row != NULL)
    g_signal_emit (self, signals[ROW_SELECTED], 0, suanli_stat_row_get_name (row));
}

/* A row double-clicked (or Enter on it): its name goes out, for the timeline to show its slices. */
static void
on_activate (GtkColumnView    *view,
             guint             position,
             SuanliStatsTable *self)
{
  g_autoptr(SuanliStatRow) row = g_list_model_get_item (G_LIST_MODEL (gtk_column_view_get_model (view)), position);

  if (row != NULL)
    g_signal_emit (self, signals[ROW_ACTIVATED], 0, suanli_stat_row_get_name (row));
}

static char *
cell_text (SuanliStatKind kind,
           double         value)
{
  switch (kind)
    {
    case SUANLI_STAT_DURATION:
      return suanli_format_duration_ns ((gint64) value);
    case SUANLI_STAT_PERCENT:
      return g_strdup_printf ("%.1f%%", value);
    case SUANLI_STAT_FACTOR:
      return g_strdup_printf ("×%.3g", value);
    case SUANLI_STAT_COUNT:
    default:
      return g_strdup_printf ("%.0f", value);
    }
}

/* Whether column @index (-1: the name) holds text rather than a figure. */
static gboolean
is_text_column (SuanliStatsTable *self,
                int               index)
{
  return index < 0 || g_array_index (self->columns, SuanliStatColumn, index).kind == SUANLI_STAT_NOTE;
}

static void
setup_cell (GtkSignalListItemFactory *factory,
            GtkListItem              *item,
            gpointer                  data)
{
  SuanliStatsTable *self = g_object_get_data (G_OBJECT (factory), "table");
  GtkWidget *label = gtk_label_new (NULL);
  gboolean text = is_text_column (self, GPOINTER_TO_INT (data));

  gtk_label_set_xalign (GTK_LABEL (label), text ? 0.0 : 1.0);
  gtk_label_set_ellipsize (GTK_LABEL (label), PANGO_ELLIPSIZE_END);
  if (!text)
    gtk_widget_add_css_class (label, "numeric");
  gtk_list_item_set_child (item, label);
}

static void
bind_cell (GtkSignalListItemFactory *factory,
           GtkListItem              *item,
           gpointer                  data)
{
  SuanliStatsTable *self = g_object_get_data (G_OBJECT (factory), "table");
  SuanliStatRow *row = gtk_list_item_get_item (item);
  GtkLabel *label = GTK_LABEL (gtk_list_item_get_child (item));
  int index = GPOINTER_TO_INT (data);

  if (index < 0)
    {
      g_autofree char *tooltip = suanli_stat_row_get_note (row) != NULL
                                 ? g_strdup_printf ("%s\n%s", suanli_stat_row_get_name (row), suanli_stat_row_get_note (row))
                                 : g_strdup (suanli_stat_row_get_name (row));

      gtk_label_set_text (label, suanli_stat_row_get_name (row));
      suanli_cell_set_tooltip (GTK_WIDGET (label), tooltip);
    }
  else if (g_array_index (self->columns, SuanliStatColumn, index).kind == SUANLI_STAT_NOTE)
    {
      gtk_label_set_text (label, suanli_stat_row_get_note (row));
      suanli_cell_set_tooltip (GTK_WIDGET (label), suanli_stat_row_get_note (row));
    }
  else
    {
      g_autofree char *text = cell_text (g_array_index (self->columns, SuanliStatColumn, index).kind,
                                         suanli_stat_row_get_value (row, (guint) index));
      gtk_label_set_text (label, text);
    }
}

static int
compare_values (gconstpointer a,
                gconstpointer b,
                gpointer      data)
{
  double x = suanli_stat_row_get_value ((SuanliStatRow *) a, GPOINTER_TO_UINT (data));
  double y = suanli_stat_row_get_value ((SuanliStatRow *) b, GPOINTER_TO_UINT (data));

  return x < y ? GTK_ORDERING_SMALLER : x > y ? GTK_ORDERING_LARGER : GTK_ORDERING_EQUAL;
}

static int
compare_notes (gconstpointer a,
               gconstpointer b,
               gpointer      data)
{
  return g_strcmp0 (suanli_stat_row_get_note ((SuanliStatRow *) a), suanli_stat_row_get_note ((SuanliStatRow *) b));
}

static int
compare_names (gconstpointer a,
               gconstpointer b,
               gpointer      data)
{
  return g_strcmp0 (suanli_stat_row_get_name ((SuanliStatRow *) a), suanli_stat_row_get_name ((SuanliStatRow *) b));
}

static void
add_column (SuanliStatsTable *self,
            const char       *title,
            int               index)
{
  GtkListItemFactory *factory = gtk_signal_list_item_factory_new ();
  GtkColumnViewColumn *column = gtk_column_view_column_new (title, factory);
  GtkSorter *sorter = GTK_SORTER (gtk_custom_sorter_new (index < 0 ? compare_names
                                                         : is_text_column (self, index) ? compare_notes
                                                         : compare_values,
                                                         GINT_TO_POINTER (index), NULL));

  g_object_set_data (G_OBJECT (factory), "table", self);
  g_signal_connect (factory, "setup", G_CALLBACK (setup_cell), GINT_TO_POINTER (index));
  g_signal_connect (factory, "bind", G_CALLBACK (bind_cell), GINT_TO_POINTER (index));
  gtk_column_view_column_set_sorter (column, sorter);
  gtk_column_view_column_set_resizable (column, TRUE);
  gtk_column_view_column_set_expand (column, is_text_column (self, index));
  gtk_column_view_append_column (self->view, column);
  g_object_unref (sorter);
  g_object_unref (column);
}

/* The table's columns (after the name), and its title. */
void
suanli_stats_table_set_columns (SuanliStatsTable       *self,
                                const char             *title,
                                const SuanliStatColumn *columns,
                                guint                   n_columns)
{
  g_return_if_fail (n_columns <= SUANLI_STAT_ROW_N_VALUES);

  gtk_label_set_text (self->title, title);
  g_array_set_size (self->columns, 0);
  g_array_append_vals (self->columns, columns, n_columns);
  add_column (self, _("Name"), -1);
  for (guint i = 0; i < n_columns; i++)
    add_column (self, columns[i].title, (int) i);
}

/* @rows: a list of SuanliStatRow. */
void
suanli_stats_table_set_rows (SuanliStatsTable *self,
                             GListModel       *rows)
{
  gtk_sort_list_model_set_model (self->sorted, rows);
}

/* Selects the row named @name, as a click does. Returns: whether there is one. */
gboolean
suanli_stats_table_select (SuanliStatsTable *self,
                           const char       *name)
{
  GtkSingleSelection *selection = GTK_SINGLE_SELECTION (gtk_column_view_get_model (self->view));

  for (guint i = 0; i < g_list_model_get_n_items (G_LIST_MODEL (self->sorted)); i++)
    {
      g_autoptr(SuanliStatRow) row = g_list_model_get_item (G_LIST_MODEL (self->sorted), i);

      if (g_str_equal (suanli_stat_row_get_name (row), name))
        {
          gtk_single_selection_set_selected (selection, i);
          return TRUE;
        }
    }
  return FALSE;
}

guint
suanli_stats_table_get_n_rows (SuanliStatsTable *self)
{
  return g_list_model_get_n_items (G_LIST_MODEL (self->sorted));
}

/* A CSV field, quoted when it holds a comma, a quote or a line break. */
static void
append_field (GString    *csv,
              const char *text)
{
  if (strpbrk (text, ",\"\n\r") == NULL)
    {
      g_string_append (csv, text);
      return;
    }
  g_string_append_c (csv, '"');
  for (const char *at = text; *at != '\0'; at++)
    {
      if (*at == '"')
        g_string_append_c (csv, '"');
      g_string_append_c (csv, *at);
    }
  g_string_append_c (csv, '"');
}

/* Returns: (transfer full): the rows in the order shown, durations in nanoseconds. */
char *
suanli_stats_table_to_csv (SuanliStatsTable *self)
{
  g_autoptr(GString) csv = g_string_new (NULL);

  append_field (csv, _("Name"));
  for (guint c = 0; c < self->columns->len; c++)
    {
      const SuanliStatColumn *column = &g_array_index (self->columns, SuanliStatColumn, c);
      g_autofree char *header = column->kind == SUANLI_STAT_DURATION ? g_strdup_printf ("%s (ns)", column->title)
                                                                     : g_strdup (column->title);
      g_string_append_c (csv, ',');
      append_field (csv, header);
    }
  g_string_append (csv, "\r\n");
  for (guint i = 0; i < g_list_model_get_n_items (G_LIST_MODEL (self->sorted)); i++)
    {
      g_autoptr(SuanliStatRow) row = g_list_model_get_item (G_LIST_MODEL (self->sorted), i);

      append_field (csv, suanli_stat_row_get_name (row));
      for (guint c = 0; c < self->columns->len; c++)
        {
          SuanliStatKind kind = g_array_index (self->columns, SuanliStatColumn, c).kind;
          char number[G_ASCII_DTOSTR_BUF_SIZE];

          g_string_append_c (csv, ',');
          if (kind == SUANLI_STAT_NOTE)
            append_field (csv, suanli_stat_row_get_note (row) != NULL ? suanli_stat_row_get_note (row) : "");
          else
            g_string_append (csv, g_ascii_formatd (number, sizeof number,
                                                   kind == SUANLI_STAT_PERCENT ? "%.3f" : kind == SUANLI_STAT_FACTOR ? "%.6g" : "%.0f",
                                                   suanli_stat_row_get_value (row, c)));
        }
      g_string_append (csv, "\r\n");
    }
  return g_string_free (g_steal_pointer (&csv), FALSE);
}

static void
on_save_response (GtkNativeDialog  *dialog,
                  int               response,
                  SuanliStatsTable *self)
{
  g_autoptr(GFile) file = NULL;
  g_autofree char *csv = NULL;
  g_autoptr(GError) error = NULL;

  if (response != GTK_RESPONSE_ACCEPT)
    return;
  file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (dialog));
  csv = suanli_stats_table_to_csv (self);
  /* g_file_replace_contents writes a temporary file and renames it: the save is atomic. */
  if (!g_file_replace_contents (file, csv, strlen (csv), NULL, FALSE, G_FILE_CREATE_REPLACE_DESTINATION, NULL, NULL,
                                &error))
    {
      GtkWidget *overlay = gtk_widget_get_ancestor (GTK_WIDGET (self), ADW_TYPE_TOAST_OVERLAY);

      if (overlay != NULL)
        adw_toast_overlay_add_toast (ADW_TOAST_OVERLAY (overlay), adw_toast_new (error->message));
    }
}

static void
export_action (GtkWidget  *widget,
               const char *action_name,
               GVariant   *parameter)
{
  SuanliStatsTable *self = SUANLI_STATS_TABLE (widget);
  GtkRoot *root = gtk_widget_get_root (widget);

  if (self->save_dialog == NULL)
    {
      self->save_dialog = gtk_file_chooser_native_new (_("Export CSV"), GTK_IS_WINDOW (root) ? GTK_WINDOW (root) : NULL,
                                                       GTK_FILE_CHOOSER_ACTION_SAVE, _("_Export"), _("_Cancel"));
      gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (self->save_dialog), TRUE);
      g_signal_connect (self->save_dialog, "response", G_CALLBACK (on_save_response), self);
    }
  {
    g_autofree char *name = g_strdup_printf ("%s.csv", gtk_label_get_text (self->title));
    gtk_file_chooser_set_current_name (GTK_FILE_CHOOSER (self->save_dialog), name);
  }
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (self->save_dialog));
}

static void
suanli_stats_table_dispose (GObject *object)
{
  SuanliStatsTable *self = SUANLI_STATS_TABLE (object);

  /* Taking the view apart changes its selection: nobody needs to hear of it now. */
  if (self->view != NULL && gtk_column_view_get_model (self->view) != NULL)
    g_signal_handlers_disconnect_by_func (gtk_column_view_get_model (self->view), on_selected, self);
  if (self->save_dialog != NULL)
    gtk_native_dialog_destroy (GTK_NATIVE_DIALOG (self->save_dialog));
  g_clear_object (&self->save_dialog);
  g_clear_pointer (&self->box, gtk_widget_unparent);
  G_OBJECT_CLASS (suanli_stats_table_parent_class)->dispose (object);
}

static void
suanli_stats_table_finalize (GObject *object)
{
  g_array_unref (SUANLI_STATS_TABLE (object)->columns);
  G_OBJECT_CLASS (suanli_stats_table_parent_class)->finalize (object);
}

static void
suanli_stats_table_class_init (SuanliStatsTableClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = suanli_stats_table_dispose;
  object_class->finalize = suanli_stats_table_finalize;
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_install_action (widget_class, "stats-table.export", NULL, export_action);
  /* A row was selected (by the user: the first row a new list shows is not announced). */
  signals[ROW_SELECTED] = g_signal_new ("row-selected", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL,
                                        NULL, G_TYPE_NONE, 1, G_TYPE_STRING);
  signals[ROW_ACTIVATED] = g_signal_new ("row-activated", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL,
                                         NULL, G_TYPE_NONE, 1, G_TYPE_STRING);
}

static void
suanli_stats_table_init (SuanliStatsTable *self)
{
  GtkWidget *header = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  GtkWidget *button = gtk_button_new_with_mnemonic (_("Export _CSV…"));
  GtkWidget *scrolled = gtk_scrolled_window_new ();

  self->columns = g_array_new (FALSE, FALSE, sizeof (SuanliStatColumn));
  self->box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);
  self->title = GTK_LABEL (gtk_label_new (NULL));
  gtk_widget_add_css_class (GTK_WIDGET (self->title), "heading");
  gtk_widget_set_hexpand (GTK_WIDGET (self->title), TRUE);
  gtk_label_set_xalign (self->title, 0);
  gtk_actionable_set_action_name (GTK_ACTIONABLE (button), "stats-table.export");
  gtk_widget_set_margin_start (header, 12);
  gtk_widget_set_margin_end (header, 12);
  gtk_widget_set_margin_top (header, 6);
  gtk_widget_set_margin_bottom (header, 6);
  gtk_box_append (GTK_BOX (header), GTK_WIDGET (self->title));
  gtk_box_append (GTK_BOX (header), button);

  self->view = GTK_COLUMN_VIEW (gtk_column_view_new (NULL));
  {
    /* The selection owns the sorted model; the view holds the selection. */
    g_autoptr(GtkSingleSelection) selection = NULL;

    self->sorted = gtk_sort_list_model_new (NULL, g_object_ref (gtk_column_view_get_sorter (self->view)));
    selection = gtk_single_selection_new (G_LIST_MODEL (self->sorted));
    gtk_single_selection_set_autoselect (selection, FALSE);
    gtk_single_selection_set_can_unselect (selection, TRUE);
    g_signal_connect (selection, "notify::selected-item", G_CALLBACK (on_selected), self);
    gtk_column_view_set_model (self->view, GTK_SELECTION_MODEL (selection));
  }
  gtk_column_view_set_show_column_separators (self->view, TRUE);
  g_signal_connect (self->view, "activate", G_CALLBACK (on_activate), self);
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scrolled), GTK_WIDGET (self->view));
  gtk_widget_set_vexpand (scrolled, TRUE);
  gtk_box_append (GTK_BOX (self->box), header);
  gtk_box_append (GTK_BOX (self->box), scrolled);
  gtk_widget_set_parent (self->box, GTK_WIDGET (self));
}

GtkWidget *
suanli_stats_table_new (void)
{
  return g_object_new (SUANLI_TYPE_STATS_TABLE, NULL);
}
