/* suanli-flame-view.c — the profiler's flame graph with its choices, its search and its
 * comparison, worked out off the main thread
 *
 * Above the graph: CPU stacks or GPU time, icicle, time order, step numbers kept apart, colour by
 * kind, Compare With… (another trace, read here), the path to the frame zoomed into and how much
 * of the graph the page's search matches (the page's one search entry drives the timeline and this). The graph of the trace (restricted to the timeline's range, and as a difference
 * from another trace or from another rank) is worked out on a worker thread when the view is
 * first shown and again when one of those changes; the newest answer wins.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>

#include "suanli-flame.h"
#include "suanli-flame-graph.h"
#include "suanli-flame-view.h"
#include "suanli-profile-common.h"
#include "suanli-trace-loader.h"

struct _SuanliFlameView
{
  GtkWidget             parent_instance;

  GtkWidget            *box;
  SuanliFlameGraph     *flame_graph;
  GtkToggleButton      *gpu_toggle;
  GtkToggleButton      *icicle_toggle;
  GtkToggleButton      *category_toggle;
  GtkToggleButton      *time_order_toggle;
  GtkToggleButton      *steps_toggle;     /* frames differing by a step number kept apart */
  GtkButton            *compare_button;
  GtkLabel             *comparison_label;
  GtkLabel             *breadcrumb_label;
  GtkSpinner           *flame_spinner;
  GtkLabel             *match_label;
  char                 *search_text;      /* the page's search, which marks matching frames; NULL: none */

  SuanliTrace          *trace;            /* the trace shown, or NULL */
  gint64                from, to;         /* the range of it counted */
  char                 *wanted;           /* what the graph should show (see update) */
  char                 *shown;            /* and what it shows */
  SuanliTrace          *baseline;         /* another trace the graph is compared with, or NULL */
  guint                 compared_group;   /* the rank whose flame is shown against baseline_group's, or */
  guint                 baseline_group;   /* SUANLI_FLAME_ALL_GROUPS for both when ranks are not compared */
  GtkFileChooserNative *compare_dialog;
  GCancellable         *baseline_loading;
};

G_DEFINE_FINAL_TYPE (SuanliFlameView, suanli_flame_view, GTK_TYPE_WIDGET)

/* What a flame graph is worked out from, on a worker thread: the traces are finished and only
 * read there (a flame keeps the names it makes to itself). */
typedef struct
{
  SuanliTrace *trace;
  SuanliTrace *baseline;         /* or NULL */
  guint        group;            /* the group counted, or SUANLI_FLAME_ALL_GROUPS */
  guint        baseline_group;   /* the group @group is compared with, or SUANLI_FLAME_ALL_GROUPS */
  gboolean     gpu;
  SuanliFlameFlags flags;
  gint64       from, to;
  char        *key;
} FlameJob;

static void
flame_job_free (FlameJob *job)
{
  g_object_unref (job->trace);
  g_clear_object (&job->baseline);
  g_free (job->key);
  g_free (job);
}

static void
work_out_flame (GTask        *task,
                gpointer      source,
                gpointer      data,
                GCancellable *cancellable)
{
  FlameJob *job = data;
  SuanliFlameKind kind = job->gpu ? SUANLI_FLAME_GPU : SUANLI_FLAME_CPU;
  SuanliFlame *flame = suanli_flame_new_full (job->trace, kind, job->group, job->from, job->to, job->flags);
  g_autoptr(SuanliFlame) before = NULL;

  /* The difference from the other trace (all of it: its times are not this one's), or from
   * another rank of this trace (in the same range: the ranks share the trace's clock). */
  if (job->baseline != NULL)
    before = suanli_flame_new_full (job->baseline, kind, SUANLI_FLAME_ALL_GROUPS, G_MININT64, G_MAXINT64, job->flags);
  else if (job->baseline_group != SUANLI_FLAME_ALL_GROUPS)
    before = suanli_flame_new_full (job->trace, kind, job->baseline_group, job->from, job->to, job->flags);
  if (before != NULL)
    {
      SuanliFlame *diff = suanli_flame_new_diff (before, flame);

      g_object_unref (flame);
      flame = diff;
    }
  /* Laid out here too: for a million nodes that is a tenth of a second the main thread keeps. */
  g_task_return_pointer (task, suanli_flame_painter_new (flame, job->gpu), (GDestroyNotify) suanli_flame_painter_free);
  g_object_unref (flame);
}

static void
on_search_changed (SuanliFlameView *self)
{
  const char *text = self->search_text != NULL ? self->search_text : "";
  double share = suanli_flame_graph_search (self->flame_graph, text);
  g_autofree char *matched = *text != '\0' ? g_strdup_printf (_("%.1f%% matched"), 100 * share) : g_strdup ("");

  gtk_label_set_text (self->match_label, matched);
}

static void
on_flame_worked_out (GObject      *source,
                     GAsyncResult *result,
                     gpointer      data)
{
  SuanliFlameView *self = SUANLI_FLAME_VIEW (source);
  FlameJob *job = g_task_get_task_data (G_TASK (result));
  g_autoptr(SuanliFlamePainter) painter = g_task_propagate_pointer (G_TASK (result), NULL);

  if (self->flame_graph == NULL || g_strcmp0 (self->wanted, job->key) != 0)
    return;   /* the view is going, or something newer was asked for */
  g_free (self->shown);
  self->shown = g_strdup (job->key);
  suanli_flame_graph_set_painter (self->flame_graph, g_steal_pointer (&painter));
  suanli_flame_graph_set_icicle (self->flame_graph, gtk_toggle_button_get_active (self->icicle_toggle));
  suanli_flame_graph_set_time_order (self->flame_graph, gtk_toggle_button_get_active (self->time_order_toggle));
  suanli_flame_graph_set_by_category (self->flame_graph, gtk_toggle_button_get_active (self->category_toggle));
  on_search_changed (self);   /* the search, if any, marks the new graph too */
  gtk_spinner_stop (self->flame_spinner);
}

/* The flame graph is worked out (off the main thread) when it is first looked at, and again when
 * its kind, the range or the comparison changes. */
static void
update (SuanliFlameView *self)
{
  gboolean gpu = gtk_toggle_button_get_active (self->gpu_toggle);
  SuanliFlameFlags flags = gtk_toggle_button_get_active (self->steps_toggle) ? SUANLI_FLAME_KEEP_STEP_NUMBERS : 0;
  g_autofree char *key = NULL;
  g_autoptr(GTask) task = NULL;
  FlameJob *job;

  /* A trace still growing is read by no worker: its flame graph comes when the capture ends. */
  if (self->trace == NULL || suanli_trace_is_growing (self->trace) || !gtk_widget_get_mapped (GTK_WIDGET (self)))
    return;
  key = g_strdup_printf ("%p:%p:%u:%u:%d:%d:%" G_GINT64_FORMAT ":%" G_GINT64_FORMAT, (void *) self->trace,
                         (void *) self->baseline, self->compared_group, self->baseline_group, gpu, (int) flags,
                         self->from, self->to);
  if (g_strcmp0 (self->wanted, key) == 0)
    return;   /* shown, or on its way */
  g_free (self->wanted);
  self->wanted = g_strdup (key);
  job = g_new0 (FlameJob, 1);
  job->trace = g_object_ref (self->trace);
  job->baseline = self->baseline != NULL ? g_object_ref (self->baseline) : NULL;
  job->group = self->compared_group;
  job->baseline_group = self->baseline_group;
  job->gpu = gpu;
  job->flags = flags;
  job->from = self->from;
  job->to = self->to;
  job->key = g_steal_pointer (&key);
  task = g_task_new (self, NULL, on_flame_worked_out, NULL);
  g_task_set_task_data (task, job, (GDestroyNotify) flame_job_free);
  gtk_spinner_start (self->flame_spinner);
  g_task_run_in_thread (task, work_out_flame);
}

/* Shown (the page's stack brought the view to the front): the graph is worked out if it must be. */
static void
suanli_flame_view_map (GtkWidget *widget)
{
  GTK_WIDGET_CLASS (suanli_flame_view_parent_class)->map (widget);
  update (SUANLI_FLAME_VIEW (widget));
}

/* The view takes the keyboard through its graph. */
static gboolean
suanli_flame_view_grab_focus (GtkWidget *widget)
{
  return gtk_widget_grab_focus (GTK_WIDGET (SUANLI_FLAME_VIEW (widget)->flame_graph));
}

/* In a stack (the page's views), the view comes to the front. */
static void
bring_to_front (SuanliFlameView *self)
{
  GtkWidget *parent = gtk_widget_get_parent (GTK_WIDGET (self));

  if (GTK_IS_STACK (parent))
    gtk_stack_set_visible_child (GTK_STACK (parent), GTK_WIDGET (self));
}

/* Whether the graph shows what was last asked for (it is worked out off the main thread). */
gboolean
suanli_flame_view_is_ready (SuanliFlameView *self)
{
  g_return_val_if_fail (SUANLI_IS_FLAME_VIEW (self), FALSE);

  return self->wanted == NULL || g_strcmp0 (self->shown, self->wanted) == 0;
}

/* Returns: (transfer none): the SuanliFlameGraph. */
GtkWidget *
suanli_flame_view_get_graph (SuanliFlameView *self)
{
  g_return_val_if_fail (SUANLI_IS_FLAME_VIEW (self), NULL);

  return GTK_WIDGET (self->flame_graph);
}

static void
on_kind_toggled (SuanliFlameView *self)
{
  update (self);
}

static void
on_category_toggled (SuanliFlameView *self)
{
  suanli_flame_graph_set_by_category (self->flame_graph, gtk_toggle_button_get_active (self->category_toggle));
}

static void
on_time_order_toggled (SuanliFlameView *self)
{
  suanli_flame_graph_set_time_order (self->flame_graph, gtk_toggle_button_get_active (self->time_order_toggle));
}

static void
on_icicle_toggled (SuanliFlameView *self)
{
  suanli_flame_graph_set_icicle (self->flame_graph, gtk_toggle_button_get_active (self->icicle_toggle));
}

static void
on_focus_changed (SuanliFlameView *self)
{
  g_autofree char *path = suanli_flame_graph_describe_focus (self->flame_graph);

  gtk_label_set_text (self->breadcrumb_label, path);
}

/* What the graph is compared with: another trace (@baseline), or one rank of this trace against
 * another (@group against @baseline_group, told as @description); neither when @baseline is NULL
 * and the groups are SUANLI_FLAME_ALL_GROUPS. The caller works the graph out again. */
static void
set_comparison (SuanliFlameView *self,
                SuanliTrace     *baseline,
                guint            group,
                guint            baseline_group,
                const char      *description)
{
  g_autofree char *text = NULL;

  g_set_object (&self->baseline, baseline);
  self->compared_group = group;
  self->baseline_group = baseline_group;
  if (baseline != NULL)
    {
      g_autofree char *files = suanli_profile_files_text (baseline);

      text = g_strdup_printf (_("against “%s”"), files);
    }
  else if (baseline_group != SUANLI_FLAME_ALL_GROUPS)
    text = g_strdup (description);
  gtk_button_set_label (self->compare_button, text != NULL ? _("Stop Comparing") : _("Compare With…"));
  gtk_label_set_text (self->comparison_label, text != NULL ? text : "");
  gtk_widget_set_visible (GTK_WIDGET (self->comparison_label), text != NULL);
}

/**
 * suanli_flame_view_set_baseline:
 * @baseline: (nullable): another trace to compare the graph with, or NULL to stop
 *
 * The graph then shows this trace's time coloured by how it differs from @baseline's; the view
 * comes to the front.
 */
void
suanli_flame_view_set_baseline (SuanliFlameView *self,
                                SuanliTrace     *baseline)
{
  g_return_if_fail (SUANLI_IS_FLAME_VIEW (self));

  set_comparison (self, baseline, SUANLI_FLAME_ALL_GROUPS, SUANLI_FLAME_ALL_GROUPS, NULL);
  bring_to_front (self);
  update (self);
}

/* The flame graph of rank @group against @baseline_group's (groups of the trace shown), told as
 * @description ("Rank 3 against Rank 1"); the view comes to the front. */
void
suanli_flame_view_compare_ranks (SuanliFlameView *self,
                                 guint            group,
                                 guint            baseline_group,
                                 const char      *description)
{
  g_return_if_fail (SUANLI_IS_FLAME_VIEW (self));

  set_comparison (self, NULL, group, baseline_group, description);
  bring_to_front (self);
  update (self);
}

/* Shows @trace (or nothing), all of it; ranks compared were another trace's. */
void
suanli_flame_view_set_trace (SuanliFlameView *self,
                             SuanliTrace     *trace)
{
  g_return_if_fail (SUANLI_IS_FLAME_VIEW (self));

  g_set_object (&self->trace, trace);
  self->from = G_MININT64;
  self->to = G_MAXINT64;
  if (self->baseline_group != SUANLI_FLAME_ALL_GROUPS)
    set_comparison (self, NULL, SUANLI_FLAME_ALL_GROUPS, SUANLI_FLAME_ALL_GROUPS, NULL);
  suanli_flame_graph_set_flame (self->flame_graph, NULL, FALSE);
  g_clear_pointer (&self->shown, g_free);
  g_clear_pointer (&self->wanted, g_free);
  update (self);
}

/* Restricts the graph to [@from, @to) of the trace (G_MININT64 and G_MAXINT64: all of it). */
void
suanli_flame_view_set_range (SuanliFlameView *self,
                             gint64           from,
                             gint64           to)
{
  g_return_if_fail (SUANLI_IS_FLAME_VIEW (self));

  self->from = from;
  self->to = to;
  update (self);
}

/* Marks the frames matching @text: the page's search, one for the timeline and the flame graph. */
void
suanli_flame_view_search (SuanliFlameView *self,
                          const char      *text)
{
  g_return_if_fail (SUANLI_IS_FLAME_VIEW (self));

  g_free (self->search_text);
  self->search_text = g_strdup (text);
  on_search_changed (self);
}

static void
on_baseline_loaded (GObject      *source,
                    GAsyncResult *result,
                    gpointer      data)
{
  g_autoptr(SuanliFlameView) self = data;
  g_autoptr(GError) error = NULL;
  g_autoptr(SuanliTrace) trace = suanli_trace_loader_load_finish (SUANLI_TRACE_LOADER (source), result, &error);

  if (self->baseline_loading == NULL || g_task_get_cancellable (G_TASK (result)) != self->baseline_loading)
    return;
  g_clear_object (&self->baseline_loading);
  if (trace == NULL)
    {
      if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        suanli_profile_toast (GTK_WIDGET (self), error->message);
      return;
    }
  suanli_flame_view_set_baseline (self, trace);
}

static void
on_compare_response (GtkNativeDialog *dialog,
                     int              response,
                     SuanliFlameView *self)
{
  g_autoptr(GPtrArray) array = NULL;
  g_autoptr(SuanliTraceLoader) loader = NULL;

  if (response != GTK_RESPONSE_ACCEPT)
    return;
  array = suanli_profile_chosen_files (dialog);
  if (self->baseline_loading != NULL)
    g_cancellable_cancel (self->baseline_loading);
  g_clear_object (&self->baseline_loading);
  self->baseline_loading = g_cancellable_new ();
  loader = suanli_trace_loader_new ((GFile * const *) array->pdata, array->len);
  suanli_trace_loader_load_async (loader, self->baseline_loading, on_baseline_loaded, g_object_ref (self));
}

/* Compare With… asks for the other trace; while comparing (with a trace or between ranks), the
 * same button stops it. */
static void
compare_action (GtkWidget  *widget,
                const char *action_name,
                GVariant   *parameter)
{
  SuanliFlameView *self = SUANLI_FLAME_VIEW (widget);

  if (self->baseline != NULL || self->baseline_group != SUANLI_FLAME_ALL_GROUPS)
    {
      suanli_flame_view_set_baseline (self, NULL);
      return;
    }
  if (self->compare_dialog == NULL)
    self->compare_dialog = suanli_profile_file_dialog_new (widget, _("Compare With Another Trace"),
                                                           GTK_FILE_CHOOSER_ACTION_OPEN, _("_Compare"), TRUE,
                                                           G_CALLBACK (on_compare_response), self);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (self->compare_dialog));
}

static void
zoom_out_action (GtkWidget  *widget,
                 const char *action_name,
                 GVariant   *parameter)
{
  gtk_widget_activate_action (GTK_WIDGET (SUANLI_FLAME_VIEW (widget)->flame_graph), "flame-graph.zoom-out", NULL);
}

static void
suanli_flame_view_dispose (GObject *object)
{
  SuanliFlameView *self = SUANLI_FLAME_VIEW (object);

  suanli_profile_file_dialog_destroy (&self->compare_dialog);
  if (self->baseline_loading != NULL)
    g_cancellable_cancel (self->baseline_loading);
  g_clear_object (&self->baseline_loading);
  g_clear_object (&self->baseline);
  g_clear_object (&self->trace);
  gtk_widget_dispose_template (GTK_WIDGET (self), SUANLI_TYPE_FLAME_VIEW);
  G_OBJECT_CLASS (suanli_flame_view_parent_class)->dispose (object);
}

static void
suanli_flame_view_finalize (GObject *object)
{
  SuanliFlameView *self = SUANLI_FLAME_VIEW (object);

  g_free (self->wanted);
  g_free (self->shown);
  g_free (self->search_text);
  G_OBJECT_CLASS (suanli_flame_view_parent_class)->finalize (object);
}

static void
suanli_flame_view_class_init (SuanliFlameViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = suanli_flame_view_dispose;
  object_class->finalize = suanli_flame_view_finalize;
  widget_class->map = suanli_flame_view_map;
  widget_class->grab_focus = suanli_flame_view_grab_focus;
  gtk_widget_class_install_action (widget_class, "flame.compare", NULL, compare_action);
  gtk_widget_class_install_action (widget_class, "flame.zoom-out", NULL, zoom_out_action);
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  g_type_ensure (SUANLI_TYPE_FLAME_GRAPH);
  gtk_widget_class_set_template_from_resource (widget_class, "/org/suanli/Suanli/ui/suanli-flame-view.ui");
  gtk_widget_class_bind_template_child (widget_class, SuanliFlameView, box);
  gtk_widget_class_bind_template_child (widget_class, SuanliFlameView, flame_graph);
  gtk_widget_class_bind_template_child (widget_class, SuanliFlameView, gpu_toggle);
  gtk_widget_class_bind_template_child (widget_class, SuanliFlameView, icicle_toggle);
  gtk_widget_class_bind_template_child (widget_class, SuanliFlameView, category_toggle);
  gtk_widget_class_bind_template_child (widget_class, SuanliFlameView, time_order_toggle);
  gtk_widget_class_bind_template_child (widget_class, SuanliFlameView, steps_toggle);
  gtk_widget_class_bind_template_child (widget_class, SuanliFlameView, compare_button);
  gtk_widget_class_bind_template_child (widget_class, SuanliFlameView, comparison_label);
  gtk_widget_class_bind_template_child (widget_class, SuanliFlameView, breadcrumb_label);
  gtk_widget_class_bind_template_child (widget_class, SuanliFlameView, flame_spinner);
  gtk_widget_class_bind_template_child (widget_class, SuanliFlameView, match_label);
  gtk_widget_class_bind_template_callback (widget_class, on_kind_toggled);
  gtk_widget_class_bind_template_callback (widget_class, on_category_toggled);
  gtk_widget_class_bind_template_callback (widget_class, on_time_order_toggled);
  gtk_widget_class_bind_template_callback (widget_class, on_icicle_toggled);
  gtk_widget_class_bind_template_callback (widget_class, on_focus_changed);
}

static void
suanli_flame_view_init (SuanliFlameView *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  self->from = G_MININT64;
  self->to = G_MAXINT64;
  self->compared_group = SUANLI_FLAME_ALL_GROUPS;
  self->baseline_group = SUANLI_FLAME_ALL_GROUPS;
}

GtkWidget *
suanli_flame_view_new (void)
{
  return g_object_new (SUANLI_TYPE_FLAME_VIEW, NULL);
}
