/* suanli-ranks-view.c — the ranks of a trace read from several files: a row per rank with its
 * steps and GPU time, stragglers marked, and which rank's flame graph to see against which
 *
 * Each file of a trace is a rank. A row tells the rank's steps, its median and slowest step, its
 * GPU busy, compute and communication time, and how it compares with the median rank; a straggler
 * is told by an icon and words, not by colour alone. Below, two drop-downs and Show Difference
 * ask for one rank's flame graph against another's: the view says so with its "compare" signal,
 * and the page's flame view shows it.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>

#include "suanli-drop-down-name.h"
#include "suanli-ranks-view.h"
#include "suanli-units.h"

/* The columns of the ranks table; the last says how the rank compares with the median one. */
enum { RANK_NUMBER, RANK_FILE, RANK_STEPS, RANK_MEDIAN, RANK_SLOWEST, RANK_BUSY, RANK_COMPUTE, RANK_COMM, RANK_AGAINST,
       N_RANK_COLUMNS };

static const struct { const char *title; float xalign; } rank_columns[N_RANK_COLUMNS] = {
  { N_("Rank"), 0 }, { N_("File"), 0 }, { N_("Steps"), 1 }, { N_("Median Step"), 1 }, { N_("Slowest Step"), 1 },
  { N_("GPU Busy"), 1 }, { N_("Compute"), 1 }, { N_("Communication"), 1 }, { N_("Against the Median"), 0 },
};

struct _SuanliRanksView
{
  GtkWidget     parent_instance;

  GtkWidget    *scroller;
  GtkLabel     *ranks_note;
  GtkBox       *ranks_header;
  GtkListBox   *ranks_list;
  GtkLabel     *rank_label;
  GtkDropDown  *rank_dropdown;
  GtkLabel     *baseline_rank_label;
  GtkDropDown  *baseline_rank_dropdown;
  GtkSizeGroup *rank_column_widths[N_RANK_COLUMNS];

  SuanliTrace  *trace;             /* the trace whose ranks are shown, or NULL */
  GArray       *ranks;             /* its SuanliRankStats, by group; NULL for fewer than two */
};

G_DEFINE_FINAL_TYPE (SuanliRanksView, suanli_ranks_view, GTK_TYPE_WIDGET)

enum {
  COMPARE,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

/* "Rank 3", or the file's name where the file gives no rank. */
static char *
rank_title (SuanliTrace           *trace,
            const SuanliRankStats *rank)
{
  if (rank->rank >= 0)
    return g_strdup_printf (_("Rank %d"), rank->rank);
  return g_path_get_basename (suanli_trace_get_string (trace, rank->name));
}

/* How @rank compares with the median rank: "+1.2%", or "Straggler: +23.4%" (with "GPU busy" when
 * the ranks were compared by busy time, having no steps). */
static char *
against_text (const SuanliRankStats *rank)
{
  gboolean busy = rank->measure == SUANLI_RANK_BY_BUSY;

  if (rank->reference_ns <= 0)
    return g_strdup ("–");
  if (rank->straggler)
    return busy ? g_strdup_printf (_("Straggler: +%.1f%% GPU busy"), 100 * rank->slower)
                : g_strdup_printf (_("Straggler: +%.1f%%"), 100 * rank->slower);
  return busy ? g_strdup_printf (_("%+.1f%% GPU busy"), 100 * rank->slower) : g_strdup_printf ("%+.1f%%", 100 * rank->slower);
}

/* A cell of the ranks table: @child lines up with its column through the column's size group. */
static GtkWidget *
rank_cell (SuanliRanksView *self,
           guint              column,
           GtkWidget         *child)
{
  if (GTK_IS_LABEL (child))
    {
      gtk_label_set_xalign (GTK_LABEL (child), rank_columns[column].xalign);
      if (column == RANK_FILE)
        gtk_label_set_ellipsize (GTK_LABEL (child), PANGO_ELLIPSIZE_MIDDLE);
      else if (rank_columns[column].xalign > 0)
        gtk_widget_add_css_class (child, "numeric");
    }
  gtk_widget_set_hexpand (child, column == RANK_FILE);
  gtk_size_group_add_widget (self->rank_column_widths[column], child);
  return child;
}

/* The last cell: a straggler is told by an icon and words, not by colour alone. */
static GtkWidget *
against_cell (const SuanliRankStats *rank)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  g_autofree char *text = against_text (rank);
  GtkWidget *label = gtk_label_new (text);

  if (rank->straggler)
    {
      GtkWidget *icon = gtk_image_new_from_icon_name ("dialog-warning-symbolic");

      gtk_widget_add_css_class (icon, "warning");
      gtk_box_append (GTK_BOX (box), icon);
      gtk_widget_add_css_class (label, "warning");
      gtk_widget_add_css_class (label, "heading");
    }
  else
    gtk_widget_add_css_class (label, "dim-label");
  gtk_box_append (GTK_BOX (box), label);
  return box;
}

/* One rank's row; a screen reader hears the whole row as one sentence. */
static GtkWidget *
rank_row (SuanliRanksView       *self,
          SuanliTrace           *trace,
          const SuanliRankStats *rank)
{
  g_autofree char *title = rank_title (trace, rank);
  g_autofree char *file = g_path_get_basename (suanli_trace_get_string (trace, rank->name));
  g_autofree char *number = rank->rank >= 0 ? g_strdup_printf ("%d", rank->rank) : g_strdup ("–");
  g_autofree char *steps = g_strdup_printf ("%u", rank->steps);
  g_autofree char *median = rank->steps > 0 ? suanli_format_duration_ns (rank->median_step_ns) : g_strdup ("–");
  g_autofree char *slowest = rank->steps > 0 ? suanli_format_duration_ns (rank->slowest_step_ns) : g_strdup ("–");
  g_autofree char *busy = suanli_format_duration_ns (rank->busy_ns);
  g_autofree char *compute = suanli_format_duration_ns (rank->compute_ns);
  g_autofree char *comm = suanli_format_duration_ns (rank->comm_ns);
  g_autofree char *against = against_text (rank);
  g_autofree char *spoken = NULL;
  const char *cells[] = { number, file, steps, median, slowest, busy, compute, comm };
  GtkWidget *row = gtk_list_box_row_new ();
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 12);

  for (guint c = 0; c < G_N_ELEMENTS (cells); c++)
    gtk_box_append (GTK_BOX (box), rank_cell (self, c, gtk_label_new (cells[c])));
  gtk_box_append (GTK_BOX (box), rank_cell (self, RANK_AGAINST, against_cell (rank)));
  gtk_widget_set_margin_start (box, 12);
  gtk_widget_set_margin_end (box, 12);
  gtk_widget_set_margin_top (box, 8);
  gtk_widget_set_margin_bottom (box, 8);
  gtk_list_box_row_set_child (GTK_LIST_BOX_ROW (row), box);
  spoken = g_strdup_printf (ngettext ("%s (%s): %u step, median step %s, slowest step %s, GPU busy %s, compute %s, "
                                      "communication %s; against the median rank: %s",
                                      "%s (%s): %u steps, median step %s, slowest step %s, GPU busy %s, compute %s, "
                                      "communication %s; against the median rank: %s",
                                      rank->steps),
                            title, file, rank->steps, median, slowest, busy, compute, comm, against);
  gtk_accessible_update_property (GTK_ACCESSIBLE (row), GTK_ACCESSIBLE_PROPERTY_LABEL, spoken, -1);
  return row;
}

/**
 * suanli_ranks_view_set_ranks:
 * @trace: (nullable): the trace shown
 * @ranks: (nullable): its SuanliRankStats, by group
 *
 * Shows a row per rank, when there are two or more (see suanli_ranks_view_has_ranks). The
 * drop-downs start on the rank furthest above the median, against the one furthest below.
 */
void
suanli_ranks_view_set_ranks (SuanliRanksView *self,
                             SuanliTrace     *trace,
                             GArray          *ranks)
{
  g_autoptr(GtkStringList) titles = gtk_string_list_new (NULL);
  g_autofree char *note = NULL;
  guint slowest = 0, fastest = 0;
  GtkWidget *row;

  g_clear_pointer (&self->ranks, g_array_unref);
  while ((row = gtk_widget_get_first_child (GTK_WIDGET (self->ranks_list))) != NULL)
    gtk_list_box_remove (self->ranks_list, row);
  g_clear_object (&self->trace);
  if (ranks == NULL || ranks->len < 2 || trace == NULL)
    return;
  self->ranks = g_array_ref (ranks);
  self->trace = g_object_ref (trace);
  for (guint i = 0; i < ranks->len; i++)
    {
      SuanliRankStats *rank = &g_array_index (ranks, SuanliRankStats, i);
      g_autofree char *title = rank_title (trace, rank);

      gtk_list_box_append (self->ranks_list, rank_row (self, trace, rank));
      gtk_string_list_append (titles, title);
      if (rank->slower > g_array_index (ranks, SuanliRankStats, slowest).slower)
        slowest = i;
      if (rank->slower < g_array_index (ranks, SuanliRankStats, fastest).slower)
        fastest = i;
    }
  if (slowest == fastest)
    slowest = 1, fastest = 0;
  gtk_drop_down_set_model (self->rank_dropdown, G_LIST_MODEL (titles));
  gtk_drop_down_set_model (self->baseline_rank_dropdown, G_LIST_MODEL (titles));
  gtk_drop_down_set_selected (self->rank_dropdown, slowest);
  gtk_drop_down_set_selected (self->baseline_rank_dropdown, fastest);
  note = g_strdup_printf (_("Each file is a rank. A straggler's median step time is more than %.0f%% above the median "
                            "over the ranks (ranks without steps are compared by GPU busy time); at every collective "
                            "the others wait for it. Activate a rank to see its flame graph against another's."),
                          100 * SUANLI_STRAGGLER_THRESHOLD);
  gtk_label_set_text (self->ranks_note, note);
}

/* A row activated: its rank is the one to compare. */
static void
on_rank_activated (SuanliRanksView *self,
                   GtkListBoxRow   *row)
{
  gtk_drop_down_set_selected (self->rank_dropdown, (guint) gtk_list_box_row_get_index (row));
  gtk_widget_grab_focus (GTK_WIDGET (self->rank_dropdown));
}

/* Show Difference: the first drop-down's rank against the second's. */
static void
compare_action (GtkWidget  *widget,
                const char *action_name,
                GVariant   *parameter)
{
  SuanliRanksView *self = SUANLI_RANKS_VIEW (widget);
  guint group = gtk_drop_down_get_selected (self->rank_dropdown);
  guint baseline_group = gtk_drop_down_get_selected (self->baseline_rank_dropdown);
  g_autofree char *current = NULL;
  g_autofree char *before = NULL;
  g_autofree char *description = NULL;

  if (self->ranks == NULL || group >= self->ranks->len || baseline_group >= self->ranks->len)
    return;
  current = rank_title (self->trace, &g_array_index (self->ranks, SuanliRankStats, group));
  before = rank_title (self->trace, &g_array_index (self->ranks, SuanliRankStats, baseline_group));
  description = g_strdup_printf (_("%s against %s"), current, before);
  g_signal_emit (self, signals[COMPARE], 0, group, baseline_group, description);
}

/* Whether there are ranks to show: two or more. */
gboolean
suanli_ranks_view_has_ranks (SuanliRanksView *self)
{
  g_return_val_if_fail (SUANLI_IS_RANKS_VIEW (self), FALSE);

  return self->ranks != NULL;
}

/* The view takes the keyboard through its list. */
static gboolean
suanli_ranks_view_grab_focus (GtkWidget *widget)
{
  return gtk_widget_grab_focus (GTK_WIDGET (SUANLI_RANKS_VIEW (widget)->ranks_list));
}

static void
suanli_ranks_view_dispose (GObject *object)
{
  SuanliRanksView *self = SUANLI_RANKS_VIEW (object);

  g_clear_pointer (&self->ranks, g_array_unref);
  g_clear_object (&self->trace);
  for (guint c = 0; c < N_RANK_COLUMNS; c++)
    g_clear_object (&self->rank_column_widths[c]);
  gtk_widget_dispose_template (GTK_WIDGET (self), SUANLI_TYPE_RANKS_VIEW);
  G_OBJECT_CLASS (suanli_ranks_view_parent_class)->dispose (object);
}

static void
suanli_ranks_view_class_init (SuanliRanksViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = suanli_ranks_view_dispose;
  widget_class->grab_focus = suanli_ranks_view_grab_focus;
  signals[COMPARE] = g_signal_new ("compare", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                                   G_TYPE_NONE, 3, G_TYPE_UINT, G_TYPE_UINT, G_TYPE_STRING);
  gtk_widget_class_install_action (widget_class, "ranks.compare", NULL, compare_action);
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_template_from_resource (widget_class, "/org/suanli/Suanli/ui/suanli-ranks-view.ui");
  gtk_widget_class_bind_template_child (widget_class, SuanliRanksView, scroller);
  gtk_widget_class_bind_template_child (widget_class, SuanliRanksView, ranks_note);
  gtk_widget_class_bind_template_child (widget_class, SuanliRanksView, ranks_header);
  gtk_widget_class_bind_template_child (widget_class, SuanliRanksView, ranks_list);
  gtk_widget_class_bind_template_child (widget_class, SuanliRanksView, rank_label);
  gtk_widget_class_bind_template_child (widget_class, SuanliRanksView, rank_dropdown);
  gtk_widget_class_bind_template_child (widget_class, SuanliRanksView, baseline_rank_label);
  gtk_widget_class_bind_template_child (widget_class, SuanliRanksView, baseline_rank_dropdown);
  gtk_widget_class_bind_template_callback (widget_class, on_rank_activated);
}

/* The ranks table's heading row; its columns line up with the rows' through size groups. */
static void
suanli_ranks_view_init (SuanliRanksView *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  for (guint c = 0; c < N_RANK_COLUMNS; c++)
    {
      GtkWidget *heading = gtk_label_new (_(rank_columns[c].title));

      self->rank_column_widths[c] = gtk_size_group_new (GTK_SIZE_GROUP_HORIZONTAL);
      gtk_widget_add_css_class (heading, "caption-heading");
      gtk_widget_add_css_class (heading, "dim-label");
      gtk_box_append (self->ranks_header, rank_cell (self, c, heading));
    }
  /* (the labels' text without their mnemonics' underlines) */
  suanli_drop_down_set_accessible_name (self->rank_dropdown, gtk_label_get_text (self->rank_label));
  suanli_drop_down_set_accessible_name (self->baseline_rank_dropdown, gtk_label_get_text (self->baseline_rank_label));
}

GtkWidget *
suanli_ranks_view_new (void)
{
  return g_object_new (SUANLI_TYPE_RANKS_VIEW, NULL);
}
