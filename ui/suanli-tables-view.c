/* suanli-tables-view.c — the profiler's Kernels view: the trace's GPU kernels and CPU
 * operators, and every name in the range selected on the timeline
 *
 * The kernels take two thirds of the height and the operators the rest, until someone drags the
 * handle between them. A range asked for (show_range) is worked out on a worker thread: the
 * kernels and operators inside it, and a table of every slice name in it above them; the view
 * then says "range-shown". A row picked in any table is told with "row-selected", one
 * double-clicked with "row-activated".
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>

#include "suanli-analysis.h"
#include "suanli-stat-row.h"
#include "suanli-stats-table.h"
#include "suanli-tables-view.h"

struct _SuanliTablesView
{
  GtkWidget         parent_instance;

  GtkWidget        *paned;
  SuanliStatsTable *range_table;
  SuanliStatsTable *kernels_table;
  SuanliStatsTable *operators_table;
  gboolean          split_set;     /* the next position change is the view's own */
  gboolean          dragged;       /* the user has moved the tables' handle */

  gboolean          has_range;     /* a range is asked for: */
  SuanliTrace      *range_trace;   /* of this trace, */
  gint64            from, to;      /* this one */
  guint             working;       /* ranges on their way from worker threads */
};

G_DEFINE_FINAL_TYPE (SuanliTablesView, suanli_tables_view, GTK_TYPE_WIDGET)

enum {
  ROW_SELECTED,
  ROW_ACTIVATED,
  RANGE_SHOWN,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

/**
 * suanli_tables_view_set_stats:
 * @kernel_stats: (nullable): SuanliKernelStats of @trace, or NULL for none
 * @operator_stats: (nullable): SuanliOperatorStats of @trace, or NULL for none
 *
 * Kernels and CPU operators into the tables.
 */
void
suanli_tables_view_set_stats (SuanliTablesView *self,
                              SuanliTrace      *trace,
                              GArray           *kernel_stats,
                              GArray           *operator_stats)
{
  g_autoptr(GListStore) kernels = g_list_store_new (SUANLI_TYPE_STAT_ROW);
  g_autoptr(GListStore) operators = g_list_store_new (SUANLI_TYPE_STAT_ROW);
  double all = 0;

  for (guint i = 0; kernel_stats != NULL && i < kernel_stats->len; i++)
    all += (double) g_array_index (kernel_stats, SuanliKernelStats, i).total_ns;
  for (guint i = 0; kernel_stats != NULL && i < kernel_stats->len; i++)
    {
      SuanliKernelStats *k = &g_array_index (kernel_stats, SuanliKernelStats, i);
      double values[] = { (double) k->count, (double) k->total_ns, (double) k->total_ns / (double) MAX (k->count, 1),
                          (double) k->min_ns, (double) k->max_ns, 100.0 * (double) k->total_ns / MAX (all, 1) };
      g_autoptr(SuanliStatRow) row = suanli_stat_row_new (suanli_trace_get_string (trace, k->name), values,
                                                          G_N_ELEMENTS (values));
      g_list_store_append (kernels, row);
    }
  for (guint i = 0; operator_stats != NULL && i < operator_stats->len; i++)
    {
      SuanliOperatorStats *o = &g_array_index (operator_stats, SuanliOperatorStats, i);
      double values[] = { (double) o->count, (double) o->self_ns, (double) o->total_ns, (double) o->max_ns };
      g_autoptr(SuanliStatRow) row = suanli_stat_row_new (suanli_trace_get_string (trace, o->name), values,
                                                          G_N_ELEMENTS (values));
      g_list_store_append (operators, row);
    }
  suanli_stats_table_set_rows (self->kernels_table, G_LIST_MODEL (kernels));
  suanli_stats_table_set_rows (self->operators_table, G_LIST_MODEL (operators));
}

/* The kernels take two thirds of the tables' height and the operators the rest, until someone
 * drags the handle: by default a paned gives its first child no more than it asks for. */
static void
on_tables_resized (SuanliTablesView *self,
                   GParamSpec       *pspec,
                   GtkPaned         *paned)
{
  int most = 0;

  g_object_get (paned, "max-position", &most, NULL);
  if (!self->dragged && most > 0)
    {
      self->split_set = TRUE;
      gtk_paned_set_position (paned, most * 2 / 3);
    }
}

/* A position set by anything else than on_tables_resized is the user's drag. */
static void
on_tables_position (SuanliTablesView *self,
                    GParamSpec       *pspec,
                    GtkPaned         *paned)
{
  if (!self->split_set)
    self->dragged = TRUE;
  self->split_set = FALSE;
}

/* Every slice that overlaps [@from, @to), by name: count, and the time inside the range (total,
 * least, mean, most). */
static GListStore *
range_rows (SuanliTrace *trace,
            gint64       from,
            gint64       to,
            guint64     *n_slices)
{
  g_autoptr(GHashTable) by_name = g_hash_table_new (NULL, NULL);
  g_autoptr(GArray) figures = g_array_new (FALSE, FALSE, sizeof (double) * 4);   /* count, total, min, max */
  g_autoptr(GArray) names = g_array_new (FALSE, FALSE, sizeof (SuanliString));
  GListStore *rows = g_list_store_new (SUANLI_TYPE_STAT_ROW);

  *n_slices = 0;
  for (guint t = 0; t < suanli_trace_get_n_tracks (trace); t++)
    {
      GArray *slices = suanli_trace_get_track (trace, t)->slices;

      for (guint i = 0; i < slices->len; i++)
        {
          SuanliSlice *slice = &g_array_index (slices, SuanliSlice, i);
          gint64 inside = suanli_analysis_overlap (slice, from, to);
          gpointer found;
          double *entry;

          if (slice->start >= to)
            break;   /* sorted by start: nothing after it overlaps */
          if (inside == 0 && (slice->start < from || slice->start >= to))
            continue;
          found = g_hash_table_lookup (by_name, GUINT_TO_POINTER (slice->name + 1));
          if (found == NULL)
            {
              double fresh[4] = { 0, 0, G_MAXDOUBLE, 0 };

              g_array_append_vals (figures, fresh, 1);
              g_array_append_val (names, slice->name);
              found = GUINT_TO_POINTER (figures->len);
              g_hash_table_insert (by_name, GUINT_TO_POINTER (slice->name + 1), found);
            }
          entry = (double *) (figures->data + (GPOINTER_TO_UINT (found) - 1) * sizeof (double) * 4);
          entry[0]++, entry[1] += (double) inside;
          entry[2] = MIN (entry[2], (double) inside), entry[3] = MAX (entry[3], (double) inside);
          (*n_slices)++;
        }
    }
  for (guint i = 0; i < names->len; i++)
    {
      double *entry = (double *) (figures->data + i * sizeof (double) * 4);
      double values[] = { entry[0], entry[1], entry[2], entry[1] / entry[0], entry[3] };
      g_autoptr(SuanliStatRow) row = suanli_stat_row_new (suanli_trace_get_string (trace, g_array_index (names, SuanliString, i)),
                                                          values, G_N_ELEMENTS (values));
      g_list_store_append (rows, row);
    }
  return rows;
}

/* What a selected range shows, worked out on a worker thread. */
typedef struct
{
  SuanliTrace *trace;
  gint64       from, to;
  GArray      *kernels;      /* of SuanliKernelStats */
  GArray      *operators;    /* of SuanliOperatorStats */
  GListStore  *rows;         /* of SuanliStatRow: every name in the range */
  guint64      n_slices;
} RangeJob;

static void
range_job_free (RangeJob *job)
{
  g_object_unref (job->trace);
  g_clear_pointer (&job->kernels, g_array_unref);
  g_clear_pointer (&job->operators, g_array_unref);
  g_clear_object (&job->rows);
  g_free (job);
}

static void
work_out_range (GTask        *task,
                gpointer      source,
                gpointer      data,
                GCancellable *cancellable)
{
  RangeJob *job = data;

  job->kernels = suanli_analysis_top_kernels_in (job->trace, job->from, job->to);
  job->operators = suanli_analysis_cpu_operators_in (job->trace, job->from, job->to);
  job->rows = range_rows (job->trace, job->from, job->to, &job->n_slices);
  g_task_return_boolean (task, TRUE);
}

static void
on_range_worked_out (GObject      *source,
                     GAsyncResult *result,
                     gpointer      data)
{
  SuanliTablesView *self = SUANLI_TABLES_VIEW (source);
  RangeJob *job = g_task_get_task_data (G_TASK (result));

  self->working--;
  /* Only if the view still is to show this trace's range, and is not going. */
  if (self->range_table == NULL || !self->has_range || self->range_trace != job->trace || self->from != job->from ||
      self->to != job->to)
    return;
  suanli_tables_view_set_stats (self, job->trace, job->kernels, job->operators);
  suanli_stats_table_set_rows (self->range_table, G_LIST_MODEL (job->rows));
  gtk_widget_set_visible (GTK_WIDGET (self->range_table), TRUE);
  g_signal_emit (self, signals[RANGE_SHOWN], 0, job->from, job->to, job->n_slices);
}

/* Works out what [@from, @to) of @trace holds, off the main thread; the tables show it (and
 * "range-shown" is emitted) unless another range is asked for, or none, before it is ready. */
void
suanli_tables_view_show_range (SuanliTablesView *self,
                               SuanliTrace      *trace,
                               gint64            from,
                               gint64            to)
{
  g_autoptr(GTask) task = g_task_new (self, NULL, on_range_worked_out, NULL);
  RangeJob *job = g_new0 (RangeJob, 1);

  g_return_if_fail (SUANLI_IS_TABLES_VIEW (self));

  self->has_range = TRUE;
  g_set_object (&self->range_trace, trace);
  self->from = from;
  self->to = to;
  job->trace = g_object_ref (trace);
  job->from = from;
  job->to = to;
  g_task_set_task_data (task, job, (GDestroyNotify) range_job_free);
  self->working++;
  g_task_run_in_thread (task, work_out_range);
}

/* No range: the range's table goes (the caller sets the whole trace's stats back). */
void
suanli_tables_view_hide_range (SuanliTablesView *self)
{
  g_return_if_fail (SUANLI_IS_TABLES_VIEW (self));

  self->has_range = FALSE;
  g_clear_object (&self->range_trace);
  gtk_widget_set_visible (GTK_WIDGET (self->range_table), FALSE);
}

/* Whether a range is still being worked out. */
gboolean
suanli_tables_view_is_working (SuanliTablesView *self)
{
  g_return_val_if_fail (SUANLI_IS_TABLES_VIEW (self), FALSE);

  return self->working > 0;
}

/* Returns: (transfer none): the SuanliStatsTable of GPU kernels. */
GtkWidget *
suanli_tables_view_get_kernels (SuanliTablesView *self)
{
  return GTK_WIDGET (self->kernels_table);
}

/* Returns: (transfer none): the SuanliStatsTable of CPU operators. */
GtkWidget *
suanli_tables_view_get_operators (SuanliTablesView *self)
{
  return GTK_WIDGET (self->operators_table);
}

/* Returns: (transfer none): the SuanliStatsTable of every name in the range, hidden without one. */
GtkWidget *
suanli_tables_view_get_range (SuanliTablesView *self)
{
  return GTK_WIDGET (self->range_table);
}

static void
on_row_selected (SuanliTablesView *self,
                 const char       *name)
{
  g_signal_emit (self, signals[ROW_SELECTED], 0, name);
}

static void
on_row_activated (SuanliTablesView *self,
                  const char       *name)
{
  g_signal_emit (self, signals[ROW_ACTIVATED], 0, name);
}

/* The view takes the keyboard through its kernels. */
static gboolean
suanli_tables_view_grab_focus (GtkWidget *widget)
{
  return gtk_widget_grab_focus (GTK_WIDGET (SUANLI_TABLES_VIEW (widget)->kernels_table));
}

static void
suanli_tables_view_dispose (GObject *object)
{
  SuanliTablesView *self = SUANLI_TABLES_VIEW (object);

  g_clear_object (&self->range_trace);
  gtk_widget_dispose_template (GTK_WIDGET (self), SUANLI_TYPE_TABLES_VIEW);
  G_OBJECT_CLASS (suanli_tables_view_parent_class)->dispose (object);
}

static void
suanli_tables_view_class_init (SuanliTablesViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = suanli_tables_view_dispose;
  widget_class->grab_focus = suanli_tables_view_grab_focus;
  signals[ROW_SELECTED] = g_signal_new ("row-selected", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                                        G_TYPE_NONE, 1, G_TYPE_STRING);
  signals[ROW_ACTIVATED] = g_signal_new ("row-activated", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                                         G_TYPE_NONE, 1, G_TYPE_STRING);
  signals[RANGE_SHOWN] = g_signal_new ("range-shown", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                                       G_TYPE_NONE, 3, G_TYPE_INT64, G_TYPE_INT64, G_TYPE_UINT64);
  g_type_ensure (SUANLI_TYPE_STATS_TABLE);
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_template_from_resource (widget_class, "/org/suanli/Suanli/ui/suanli-tables-view.ui");
  gtk_widget_class_bind_template_child (widget_class, SuanliTablesView, paned);
  gtk_widget_class_bind_template_child (widget_class, SuanliTablesView, range_table);
  gtk_widget_class_bind_template_child (widget_class, SuanliTablesView, kernels_table);
  gtk_widget_class_bind_template_child (widget_class, SuanliTablesView, operators_table);
  gtk_widget_class_bind_template_callback (widget_class, on_tables_resized);
  gtk_widget_class_bind_template_callback (widget_class, on_tables_position);
  gtk_widget_class_bind_template_callback (widget_class, on_row_selected);
  gtk_widget_class_bind_template_callback (widget_class, on_row_activated);
}

static void
suanli_tables_view_init (SuanliTablesView *self)
{
  const SuanliStatColumn kernel_columns[] = {
    { _("Count"), SUANLI_STAT_COUNT }, { _("Total"), SUANLI_STAT_DURATION }, { _("Mean"), SUANLI_STAT_DURATION },
    { _("Min"), SUANLI_STAT_DURATION }, { _("Max"), SUANLI_STAT_DURATION }, { _("Share"), SUANLI_STAT_PERCENT },
  };
  const SuanliStatColumn operator_columns[] = {
    { _("Count"), SUANLI_STAT_COUNT }, { _("Self"), SUANLI_STAT_DURATION }, { _("Total"), SUANLI_STAT_DURATION },
    { _("Max"), SUANLI_STAT_DURATION },
  };
  const SuanliStatColumn range_columns[] = {
    { _("Count"), SUANLI_STAT_COUNT }, { _("Total"), SUANLI_STAT_DURATION }, { _("Min"), SUANLI_STAT_DURATION },
    { _("Mean"), SUANLI_STAT_DURATION }, { _("Max"), SUANLI_STAT_DURATION },
  };

  gtk_widget_init_template (GTK_WIDGET (self));
  suanli_stats_table_set_columns (self->range_table, _("Selected Range"), range_columns, G_N_ELEMENTS (range_columns));
  suanli_stats_table_set_columns (self->kernels_table, _("GPU Kernels"), kernel_columns, G_N_ELEMENTS (kernel_columns));
  suanli_stats_table_set_columns (self->operators_table, _("CPU Operators"), operator_columns,
                                  G_N_ELEMENTS (operator_columns));
}

GtkWidget *
suanli_tables_view_new (void)
{
  return g_object_new (SUANLI_TYPE_TABLES_VIEW, NULL);
}
