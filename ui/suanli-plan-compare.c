/* suanli-plan-compare.c — pinned plans and the current one side by side, figure by figure
 *
 * Training and serving plans are measured by different figures: a training plan by its step, its
 * MFU and what the whole run costs; a serving plan by the requests per second it completes and
 * what a million generated tokens cost and draw (the estimate's, at capacity). Each kind gets its own table with its own rows,
 * so that no serving plan shows "MFU 0%" and no figure is set against one that means something
 * else. In each table the values that differ from the reference (the current plan, else the
 * table's first) are bold, the better ones in the accent colour. A figure that cannot be known
 * (no price, no TDP, nothing fits) shows a dash, never 0.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>
#include <glib/gi18n.h>

#include "suanli-compare-view.h"
#include "suanli-plan-compare.h"
#include "suanli-units.h"

typedef enum {
  ROW_TEXT,
  ROW_LOWER_BETTER,
  ROW_HIGHER_BETTER,
} RowKind;

typedef struct
{
  const char *title;
  RowKind     kind;
} Row;

static const Row training_rows[] = {
  { N_("Accelerator"), ROW_TEXT }, { N_("GPUs"), ROW_LOWER_BETTER }, { N_("Memory per GPU"), ROW_LOWER_BETTER },
  { N_("Step"), ROW_LOWER_BETTER }, { N_("Tokens per second"), ROW_HIGHER_BETTER },
  { N_("Time to train"), ROW_LOWER_BETTER }, { N_("MFU"), ROW_HIGHER_BETTER }, { N_("Cost"), ROW_LOWER_BETTER },
  { N_("Energy"), ROW_LOWER_BETTER },
};

static const Row serving_rows[] = {
  { N_("Accelerator"), ROW_TEXT }, { N_("GPUs"), ROW_LOWER_BETTER }, { N_("Memory per GPU"), ROW_LOWER_BETTER },
  { N_("Time to first token"), ROW_LOWER_BETTER }, { N_("Time per output token"), ROW_LOWER_BETTER },
  { N_("Requests per second"), ROW_HIGHER_BETTER }, { N_("Output tokens per second"), ROW_HIGHER_BETTER },
  { N_("Cost per million tokens"), ROW_LOWER_BETTER }, { N_("Energy per million tokens"), ROW_LOWER_BETTER },
};

/* The rows every plan has: what it runs on and its memory. */
static char *
common_cell (const SuanliPlanInputs *in,
             const SuanliEstimate   *e,
             guint                   row,
             double                 *value)
{
  switch (row)
    {
    case 0:
      return g_strdup (in->accelerator_name);
    case 1:
      *value = in->gpus;
      return g_strdup_printf ("%g (t %g · p %g · d %g)", in->gpus, in->tensor, in->pipeline, in->data);
    default:
      {
        g_autofree char *total = suanli_format_gib (e->total);

        *value = e->total;
        return g_strdup_printf ("%s%s", total, e->fits ? "" : " ⚠");
      }
    }
}

static char *
money (double      amount,
       const char *currency)
{
  g_autofree char *number = suanli_format_large (amount);

  return g_strdup_printf ("%s %s", number, currency);
}

static char *
training_cell (const SuanliPlanInputs *in,
               const SuanliEstimate   *e,
               guint                   row,
               double                 *value)
{
  switch (row)
    {
    case 3:
      *value = e->step_time_s;
      return suanli_format_seconds (*value);
    case 4:
      *value = e->tokens_per_s;
      return suanli_format_large (*value);
    case 5:
      *value = e->time_to_train_s;
      return suanli_format_days (*value);
    case 6:
      *value = e->mfu;
      return g_strdup_printf ("%.0f%%", 100 * e->mfu);
    case 7:
      if (in->price_per_gpu_hour <= 0)
        return g_strdup (_("— (no price)"));
      *value = e->cost;
      return money (e->cost, in->currency);
    case 8:
      if (in->board_power <= 0)
        return g_strdup (_("— (no TDP)"));
      *value = e->energy_kwh;
      return suanli_format_energy_kwh (e->energy_kwh);
    default:
      return common_cell (in, e, row, value);
    }
}

static char *
serving_cell (const SuanliPlanInputs *in,
              const SuanliEstimate   *e,
              guint                   row,
              double                 *value)
{
  /* Taken at capacity, every replica busy; nothing to take when not one sequence fits. */
  gboolean serves = e->inference.capacity_rps > 0;

  switch (row)
    {
    case 3:
      *value = e->inference.ttft_s;
      return suanli_format_seconds (*value);
    case 4:
      *value = e->inference.tpot_s;
      return suanli_format_seconds (*value);
    case 5:
      if (!serves)
        return g_strdup (_("— (nothing fits)"));
      *value = e->inference.capacity_rps;
      return suanli_format_large (*value);
    case 6:
      if (!serves)
        return g_strdup ("—");
      *value = e->inference.capacity_rps * in->output_tokens;
      return suanli_format_large (*value);
    case 7:
      if (!serves)
        return g_strdup ("—");
      if (in->price_per_gpu_hour <= 0)
        return g_strdup (_("— (no price)"));
      *value = e->cost_per_million_tokens;
      return money (*value, in->currency);
    case 8:
      if (!serves)
        return g_strdup ("—");
      if (in->board_power <= 0)
        return g_strdup (_("— (no TDP)"));
      *value = e->kwh_per_million_tokens;
      return suanli_format_energy_kwh (*value);
    default:
      return common_cell (in, e, row, value);
    }
}

static char *
cell_text (const SuanliPlanCompareColumn *column,
           gboolean                       training,
           guint                          row,
           double                        *value)
{
  *value = NAN;
  if (column->inputs == NULL)
    return g_strdup ("—");
  return training ? training_cell (column->inputs, column->estimate, row, value)
                  : serving_cell (column->inputs, column->estimate, row, value);
}

/* The table of the plans @members (indices into @columns) of one kind; @reference is the index
 * in @members the others are set against. */
static GtkWidget *
table (const SuanliPlanCompareColumn *columns,
       GArray                        *members,
       guint                          reference,
       guint                          current,
       gboolean                       training)
{
  const Row *rows = training ? training_rows : serving_rows;
  guint n_rows = training ? G_N_ELEMENTS (training_rows) : G_N_ELEMENTS (serving_rows);
  GtkWidget *grid = gtk_grid_new ();

  gtk_grid_set_column_spacing (GTK_GRID (grid), 24);
  gtk_grid_set_row_spacing (GTK_GRID (grid), 8);
  for (guint c = 0; c < members->len; c++)
    {
      guint index = g_array_index (members, guint, c);

      gtk_grid_attach (GTK_GRID (grid), suanli_compare_cell_label (index == current ? _("Current") : columns[index].name, "heading", 0),
                       1 + c, 0, 1, 1);
    }
  for (guint r = 0; r < n_rows; r++)
    {
      const SuanliPlanCompareColumn *base = &columns[g_array_index (members, guint, reference)];
      double base_value;
      g_autofree char *base_text = cell_text (base, training, r, &base_value);

      gtk_grid_attach (GTK_GRID (grid), suanli_compare_cell_label (_(rows[r].title), "dim-label", 1), 0, 1 + r, 1, 1);
      for (guint c = 0; c < members->len; c++)
        {
          double value;
          g_autofree char *text = cell_text (&columns[g_array_index (members, guint, c)], training, r, &value);
          GtkWidget *cell = suanli_compare_cell_label (text, NULL, 0);

          if (c != reference && g_strcmp0 (text, base_text) != 0)
            {
              gboolean comparable = !isnan (value) && !isnan (base_value);
              gboolean better = comparable && (rows[r].kind == ROW_LOWER_BETTER ? value < base_value
                                               : rows[r].kind == ROW_HIGHER_BETTER && value > base_value);

              gtk_widget_add_css_class (cell, "heading");
              if (better)
                gtk_widget_add_css_class (cell, "compare-best");
              gtk_widget_set_name (cell, "different");
            }
          gtk_grid_attach (GTK_GRID (grid), cell, 1 + c, 1 + r, 1, 1);
        }
    }
  return grid;
}

/* Where @members holds @current, else its first. */
static guint
reference_of (GArray *members,
              guint   current)
{
  for (guint i = 0; i < members->len; i++)
    if (g_array_index (members, guint, i) == current)
      return i;
  return 0;
}

/**
 * suanli_plan_compare_new:
 * @columns: the plans, pinned ones first
 * @current: the index in @columns of the plan being edited: the one the others are set against
 *
 * Returns: (transfer floating): the comparison, one table for training plans and one for serving
 * plans, each headed by its kind when both are there
 */
GtkWidget *
suanli_plan_compare_new (const SuanliPlanCompareColumn *columns,
                         guint                          n_columns,
                         guint                          current)
{
  g_autoptr(GArray) training = g_array_new (FALSE, FALSE, sizeof (guint));
  g_autoptr(GArray) serving = g_array_new (FALSE, FALSE, sizeof (guint));
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 12);
  gboolean current_serves = FALSE;

  g_object_set (box, "margin-start", 18, "margin-end", 18, "margin-top", 18, "margin-bottom", 18, NULL);
  for (guint i = 0; i < n_columns; i++)
    if (columns[i].inputs != NULL)
      {
        gboolean serves = !suanli_plan_inputs_is_training (columns[i].inputs);

        g_array_append_val (serves ? serving : training, i);
        if (i == current)
          current_serves = serves;
      }
  /* A plan that does not resolve has no kind: it goes beside the pins, as dashes. */
  if (current < n_columns && columns[current].inputs == NULL)
    {
      current_serves = training->len == 0 && serving->len > 0;
      g_array_append_val (current_serves ? serving : training, current);
    }

  for (guint kind = 0; kind < 2; kind++)
    {
      gboolean serving_table = kind == 0 ? current_serves : !current_serves;
      GArray *members = serving_table ? serving : training;

      if (members->len == 0)
        continue;
      if (training->len > 0 && serving->len > 0)
        {
          GtkWidget *title = suanli_compare_cell_label (serving_table ? _("Serving") : _("Training and fine-tuning"), "title-4", 0);

          if (kind == 1)
            gtk_widget_set_margin_top (title, 18);
          gtk_box_append (GTK_BOX (box), title);
        }
      gtk_box_append (GTK_BOX (box), table (columns, members, reference_of (members, current), current, !serving_table));
    }
  if (training->len > 0 && serving->len > 0)
    gtk_box_append (GTK_BOX (box), suanli_compare_cell_label (_("Training and serving plans are tabled apart: their figures measure "
                                                 "different things."), "dim-label", 0));
  return box;
}
