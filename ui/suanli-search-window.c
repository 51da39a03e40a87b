/* suanli-search-window.c — "Find Configurations": the search over the plan's hardware and layout
 *
 * The window reads the plan and never edits it: choosing a result emits "apply" with the result's
 * JSON merge patch, and whoever opened the window applies it (the planner page, through the plan,
 * so that it can be undone like any other change).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>
#include <glib/gi18n.h>

#include "suanli-chart-style.h"
#include "suanli-plan-inputs.h"
#include "suanli-scatter-chart.h"
#include "suanli-search.h"
#include "suanli-search-window.h"
#include "suanli-units.h"

struct _SuanliSearchWindow
{
  AdwWindow           parent_instance;

  SuanliPlan         *plan;
  SuanliCatalog      *catalog;
  SuanliPlanInputs    inputs;
  GArray             *results;
  SuanliScatterChart *chart;

  GtkSpinButton      *budget;
  GtkSpinButton      *deadline;
  GtkSpinButton      *max_gpus;
  GtkSwitch          *cloud_only;
  GtkLabel           *status;
  GtkListBox         *list;
  GtkWidget          *area;
};

enum { APPLY, N_SIGNALS };
static guint signals[N_SIGNALS];

G_DEFINE_FINAL_TYPE (SuanliSearchWindow, suanli_search_window, ADW_TYPE_WINDOW)

static void
draw_chart (GtkDrawingArea *area,
            cairo_t        *cr,
            int             width,
            int             height,
            gpointer        user_data)
{
  SuanliChartStyle style = { adw_style_manager_get_dark (adw_style_manager_get_default ()), NULL, 9 };

  suanli_scatter_chart_draw (user_data, cr, width, height, &style);
}

static void
apply_clicked (GtkButton *button,
               gpointer   user_data)
{
  SuanliSearchWindow *self = SUANLI_SEARCH_WINDOW (user_data);
  guint index = GPOINTER_TO_UINT (g_object_get_data (G_OBJECT (button), "index"));
  g_autofree char *patch = NULL;

  if (self->results == NULL || index >= self->results->len)
    return;
  patch = suanli_search_result_patch (&g_array_index (self->results, SuanliSearchResult, index));
  g_signal_emit (self, signals[APPLY], 0, patch);
}

/* Runs the search on the plan as it is now, and shows what it found. */
void
suanli_search_window_search (SuanliSearchWindow *self)
{
  SuanliSearchConstraints constraints = {
    gtk_spin_button_get_value (self->budget),
    gtk_spin_button_get_value (self->deadline) * 86400,
    gtk_spin_button_get_value (self->max_gpus),
    gtk_switch_get_active (self->cloud_only),
  };
  g_autoptr(GPtrArray) errors = g_ptr_array_new_with_free_func ((GDestroyNotify) suanli_plan_issue_free);
  g_autoptr(GPtrArray) warnings = g_ptr_array_new_with_free_func ((GDestroyNotify) suanli_plan_issue_free);
  GtkListBoxRow *row;
  guint evaluated = 0, shown = 0;

  g_return_if_fail (SUANLI_IS_SEARCH_WINDOW (self));

  g_clear_pointer (&self->results, g_array_unref);
  if (!suanli_plan_inputs_resolve (self->plan, self->catalog, &self->inputs, errors, warnings))
    return;
  self->results = suanli_search_run (&self->inputs, self->catalog, &constraints, &evaluated);

  suanli_scatter_chart_clear (self->chart);
  suanli_scatter_chart_set_axes (self->chart, _("Time to train (days)"), TRUE, self->inputs.currency, TRUE);
  while ((row = gtk_list_box_get_row_at_index (self->list, 0)) != NULL)
    gtk_list_box_remove (self->list, GTK_WIDGET (row));

  for (guint i = 0; i < self->results->len; i++)
    {
      SuanliSearchResult *r = &g_array_index (self->results, SuanliSearchResult, i);
      g_autofree char *label = g_strdup_printf ("%g × %s", r->gpus_per_node * r->nodes,
                                                *r->cloud_instance_id ? r->cloud_instance_id : r->accelerator_name);

      suanli_scatter_chart_add_point (self->chart, r->time_to_train_s / 86400, MAX (r->cost, 1e-3), NAN, label);
      suanli_scatter_chart_set_faded (self->chart, i, r->dominated);
      if (!r->dominated && shown < 30)
        {
          static const char * const recompute[] = { N_("no recompute"), N_("selective recompute"), N_("full recompute") };
          GtkWidget *item = adw_action_row_new ();
          GtkWidget *apply = gtk_button_new_with_mnemonic (_("_Apply"));
          g_autofree char *time = suanli_format_days (r->time_to_train_s);
          g_autofree char *cost = suanli_format_large (r->cost);
          g_autofree char *subtitle = g_strdup_printf (_("%s · %s %s · t %g, p %g, d %g · ZeRO %d · %s"), time, cost,
                                                       self->inputs.currency, r->tensor, r->pipeline, r->data,
                                                       r->zero_stage, _(recompute[r->recompute]));

          adw_preferences_row_set_title (ADW_PREFERENCES_ROW (item), label);
          adw_action_row_set_subtitle (ADW_ACTION_ROW (item), subtitle);
          gtk_widget_set_valign (apply, GTK_ALIGN_CENTER);
          g_object_set_data (G_OBJECT (apply), "index", GUINT_TO_POINTER (i));
          g_signal_connect (apply, "clicked", G_CALLBACK (apply_clicked), self);
          adw_action_row_add_suffix (ADW_ACTION_ROW (item), apply);
          gtk_list_box_append (self->list, item);
          shown++;
        }
    }
  {
    g_autofree char *text = g_strdup_printf (_("%u configurations evaluated; %u fit and meet the constraints; %u on "
                                               "the front of time against cost"),
                                             evaluated, self->results->len, shown);
    gtk_label_set_text (self->status, text);
  }
  gtk_widget_queue_draw (self->area);
}

static GtkSpinButton *
constraint_row (GtkWidget  *group,
                const char *title,
                double      value,
                double      max,
                double      step)
{
  GtkWidget *row = adw_action_row_new ();
  GtkWidget *spin = gtk_spin_button_new_with_range (0, max, step);

  gtk_spin_button_set_value (GTK_SPIN_BUTTON (spin), value);
  gtk_widget_set_valign (spin, GTK_ALIGN_CENTER);
  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), title);
  adw_action_row_add_suffix (ADW_ACTION_ROW (row), spin);
  adw_preferences_group_add (ADW_PREFERENCES_GROUP (group), row);
  return GTK_SPIN_BUTTON (spin);
}

static void
suanli_search_window_dispose (GObject *object)
{
  SuanliSearchWindow *self = SUANLI_SEARCH_WINDOW (object);

  g_clear_object (&self->plan);
  g_clear_object (&self->catalog);

  G_OBJECT_CLASS (suanli_search_window_parent_class)->dispose (object);
}

static void
suanli_search_window_finalize (GObject *object)
{
  SuanliSearchWindow *self = SUANLI_SEARCH_WINDOW (object);

  g_clear_pointer (&self->results, g_array_unref);
  suanli_scatter_chart_free (self->chart);

  G_OBJECT_CLASS (suanli_search_window_parent_class)->finalize (object);
}

static void
suanli_search_window_class_init (SuanliSearchWindowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = suanli_search_window_dispose;
  object_class->finalize = suanli_search_window_finalize;

  /**
   * SuanliSearchWindow::apply:
   * @patch: the JSON merge patch that makes the plan use the chosen configuration
   */
  signals[APPLY] = g_signal_new ("apply", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                                 G_TYPE_NONE, 1, G_TYPE_STRING);
}

static void
suanli_search_window_init (SuanliSearchWindow *self)
{
  GtkWidget *box, *paned, *group, *left, *button, *scrolled, *status, *cloud_row, *cloud_switch, *list;

  self->chart = suanli_scatter_chart_new ();
  gtk_window_set_title (GTK_WINDOW (self), _("Find Configurations"));
  gtk_window_set_default_size (GTK_WINDOW (self), 1100, 720);

  left = gtk_box_new (GTK_ORIENTATION_VERTICAL, 12);
  g_object_set (left, "margin-start", 12, "margin-end", 12, "margin-top", 12, "margin-bottom", 12, NULL);
  group = adw_preferences_group_new ();
  adw_preferences_group_set_title (ADW_PREFERENCES_GROUP (group), _("Constraints"));
  adw_preferences_group_set_description (ADW_PREFERENCES_GROUP (group),
                                         _("The job stays as planned; the search varies the hardware, the GPU count, "
                                           "tensor and pipeline parallelism, ZeRO and recomputation. 0 means no limit."));
  self->budget = constraint_row (group, _("Budget"), 0, 1e12, 1000);
  self->deadline = constraint_row (group, _("Deadline (days)"), 0, 3650, 1);
  self->max_gpus = constraint_row (group, _("Most GPUs"), 1024, 65536, 8);
  cloud_row = adw_action_row_new ();
  cloud_switch = gtk_switch_new ();
  gtk_widget_set_valign (cloud_switch, GTK_ALIGN_CENTER);
  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (cloud_row), _("Cloud instances only, at their prices"));
  adw_action_row_add_suffix (ADW_ACTION_ROW (cloud_row), cloud_switch);
  adw_preferences_group_add (ADW_PREFERENCES_GROUP (group), cloud_row);
  self->cloud_only = GTK_SWITCH (cloud_switch);
  gtk_box_append (GTK_BOX (left), group);
  button = gtk_button_new_with_mnemonic (_("_Search"));
  gtk_widget_add_css_class (button, "suggested-action");
  gtk_widget_add_css_class (button, "pill");
  gtk_widget_set_halign (button, GTK_ALIGN_CENTER);
  g_signal_connect_swapped (button, "clicked", G_CALLBACK (suanli_search_window_search), self);
  gtk_box_append (GTK_BOX (left), button);
  status = gtk_label_new (NULL);
  gtk_label_set_wrap (GTK_LABEL (status), TRUE);
  gtk_widget_add_css_class (status, "dim-label");
  self->status = GTK_LABEL (status);
  gtk_box_append (GTK_BOX (left), status);
  list = gtk_list_box_new ();
  gtk_list_box_set_selection_mode (GTK_LIST_BOX (list), GTK_SELECTION_NONE);
  gtk_widget_add_css_class (list, "boxed-list");
  self->list = GTK_LIST_BOX (list);
  gtk_box_append (GTK_BOX (left), list);
  scrolled = gtk_scrolled_window_new ();
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scrolled), left);
  gtk_scrolled_window_set_policy (GTK_SCROLLED_WINDOW (scrolled), GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC);

  self->area = gtk_drawing_area_new ();
  gtk_widget_set_hexpand (self->area, TRUE);
  gtk_drawing_area_set_draw_func (GTK_DRAWING_AREA (self->area), draw_chart, self->chart, NULL);

  paned = gtk_paned_new (GTK_ORIENTATION_HORIZONTAL);
  gtk_paned_set_start_child (GTK_PANED (paned), scrolled);
  gtk_paned_set_end_child (GTK_PANED (paned), self->area);
  gtk_paned_set_position (GTK_PANED (paned), 480);
  gtk_widget_set_vexpand (paned, TRUE);
  box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);
  gtk_box_append (GTK_BOX (box), adw_header_bar_new ());
  gtk_box_append (GTK_BOX (box), paned);
  adw_window_set_content (ADW_WINDOW (self), box);
}

/* A window searching for configurations of @plan's job, the plan resolved against @catalog; it
 * runs a first search with no limits but 1024 GPUs. */
SuanliSearchWindow *
suanli_search_window_new (GtkWindow     *parent,
                          SuanliPlan    *plan,
                          SuanliCatalog *catalog)
{
  SuanliSearchWindow *self;

  g_return_val_if_fail (SUANLI_IS_PLAN (plan), NULL);
  g_return_val_if_fail (SUANLI_IS_CATALOG (catalog), NULL);

  self = g_object_new (SUANLI_TYPE_SEARCH_WINDOW, "transient-for", parent, NULL);
  self->plan = g_object_ref (plan);
  self->catalog = g_object_ref (catalog);
  suanli_search_window_search (self);
  return self;
}

/* Returns: (transfer none) (nullable): the last search's results (of SuanliSearchResult). */
GArray *
suanli_search_window_get_results (SuanliSearchWindow *self)
{
  g_return_val_if_fail (SUANLI_IS_SEARCH_WINDOW (self), NULL);
  return self->results;
}
