/* suanli-whatif-view.c — "What If…": the trace's step replayed on other hardware and with other
 * choices, its figures and timeline beside the measured ones
 *
 * The choices sit in two rows above: the accelerator to project onto (the catalog's, its rates
 * turned into plain numbers by suanli-whatif-hardware), the GPU count, the precision, overlapped
 * communication, no host gaps, and one kernel or operator made faster. Each change replays the
 * trace's dependency graph again, off the main thread (a million events take under a second, too
 * long for a frame); the newest answer wins. Below: the step and its parts, measured, replayed and
 * projected; the notes the replay made; the two timelines, one above the other at the same scale;
 * and every kernel with its scale factor and the reason for it.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>

#include "suanli-drop-down-name.h"
#include "suanli-stat-row.h"
#include "suanli-stats-table.h"
#include "suanli-timeline.h"
#include "suanli-units.h"
#include "suanli-whatif-hardware.h"
#include "suanli-whatif-view.h"

/* How long after the last change (a keystroke in the kernel's name) the replay starts again. */
#define REPLAY_DELAY_MS 150

struct _SuanliWhatifView
{
  GtkWidget         parent_instance;

  GtkWidget        *box;
  GtkFlowBox       *choices;
  GtkDropDown      *target;
  GtkSpinButton    *gpus;
  GtkDropDown      *precision;
  GtkSpinner       *spinner;
  GtkEntry         *faster;
  GtkSpinButton    *factor;
  GtkGrid          *figures;
  GtkLabel         *notes;
  GtkLabel         *measured_caption;
  GtkLabel         *projected_caption;
  SuanliTimeline   *measured_timeline;
  SuanliTimeline   *projected_timeline;
  SuanliStatsTable *kernels_table;

  SuanliTrace      *trace;
  SuanliCatalog    *catalog;
  char             *measured_id;      /* the catalog's id of what the trace ran on, or NULL */
  guint             trace_gpus;
  GPtrArray        *target_ids;       /* the dropdown's accelerators, in its order */
  gboolean          overlap_comm;
  gboolean          no_host_gaps;
  gboolean          filling;          /* the choices are being set by code: no replay for each */

  SuanliWhatif     *whatif;           /* the answer shown, or NULL */
  guint             asked;            /* the number of the replay last asked for */
  guint             answered;         /* and of the one shown */
  guint             replay_source;
};

G_DEFINE_FINAL_TYPE (SuanliWhatifView, suanli_whatif_view, GTK_TYPE_WIDGET)

enum {
  PROP_0,
  PROP_OVERLAP_COMM,
  PROP_NO_HOST_GAPS,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

enum {
  USE_PROJECTION,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

/* The precision dropdown's entries after "As measured", in its order. */
static const SuanliNumberFormat precisions[] = {
  SUANLI_NUMBER_FP32, SUANLI_NUMBER_TF32, SUANLI_NUMBER_BF16, SUANLI_NUMBER_FP16, SUANLI_NUMBER_FP8,
};

typedef struct
{
  SuanliTrace        *trace;
  SuanliWhatifOptions options;
  char               *faster;
  guint               number;
} ReplayJob;

static void
replay_job_free (ReplayJob *job)
{
  g_object_unref (job->trace);
  g_free (job->faster);
  g_free (job);
}

static void
work_out_replay (GTask        *task,
                 gpointer      source,
                 gpointer      data,
                 GCancellable *cancellable)
{
  ReplayJob *job = data;
  GError *error = NULL;
  SuanliWhatif *whatif;

  job->options.faster = job->faster;
  whatif = suanli_whatif_new (job->trace, &job->options, &error);
  if (whatif == NULL)
    g_task_return_error (task, error);
  else
    g_task_return_pointer (task, whatif, (GDestroyNotify) suanli_whatif_free);
}

static SuanliItem *
lookup (SuanliWhatifView *self,
        const char       *id)
{
  return self->catalog != NULL && id != NULL ? suanli_catalog_lookup (self->catalog, id) : NULL;
}

static const char *
target_id (SuanliWhatifView *self)
{
  guint selected = gtk_drop_down_get_selected (self->target);

  return self->target_ids != NULL && selected < self->target_ids->len ? g_ptr_array_index (self->target_ids, selected) : NULL;
}

static char *
hardware_caption (const char *what,
                  guint       gpus,
                  const char *name)
{
  /* TRANSLATORS: "Measured on 8 × A100 80GB SXM", "Projected on 1 × H100 SXM" */
  return g_strdup_printf (_("%s on %u × %s"), what, gpus, name);
}

static void
add_cell (SuanliWhatifView *self,
          const char       *text,
          int               column,
          int               row,
          gboolean          heading)
{
  GtkWidget *label = gtk_label_new (text);

  gtk_label_set_xalign (GTK_LABEL (label), column == 0 ? 0 : 1);
  gtk_widget_add_css_class (label, heading ? "heading" : "numeric");
  gtk_grid_attach (self->figures, label, column, row, 1, 1);
}

static char *
change_text (double before,
             double after)
{
  if (before <= 0 || after <= 0)
    return g_strdup ("—");
  /* TRANSLATORS: a change in percent, "−48%" or "+12%" */
  return g_strdup_printf (_("%+.0f%%"), (after / before - 1) * 100);
}

static void
add_duration_row (SuanliWhatifView *self,
                  int               row,
                  const char       *name,
                  gint64            measured,
                  gint64            replayed,
                  gint64            projected)
{
  g_autofree char *measured_text = suanli_format_duration_ns (measured);
  g_autofree char *replayed_text = replayed >= 0 ? suanli_format_duration_ns (replayed) : g_strdup ("");
  g_autofree char *projected_text = suanli_format_duration_ns (projected);
  g_autofree char *change = change_text (measured, projected);

  add_cell (self, name, 0, row, FALSE);
  add_cell (self, measured_text, 1, row, FALSE);
  add_cell (self, replayed_text, 2, row, FALSE);
  add_cell (self, projected_text, 3, row, FALSE);
  add_cell (self, change, 4, row, FALSE);
}

static char *
mfu_text (double mfu)
{
  return mfu > 0 ? g_strdup_printf ("%.1f%%", mfu * 100) : g_strdup (C_("mfu", "unknown"));
}

/* The step and its parts, measured, replayed with the measured durations, and projected. */
static void
show_figures (SuanliWhatifView *self)
{
  const SuanliWhatifFigures *figures = suanli_whatif_get_figures (self->whatif);
  g_autofree char *measured_mfu = mfu_text (figures->measured_mfu);
  g_autofree char *projected_mfu = mfu_text (figures->projected_mfu);
  g_autofree char *mfu_change = change_text (figures->measured_mfu, figures->projected_mfu);
  g_autofree char *mfu_name = g_strdup_printf (_("MFU (against %s)"), suanli_number_format_nick (figures->mfu_format));
  g_autofree char *step_name = figures->steps > 0 ? g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "Step (mean of %u)",
                                                                                  "Step (mean of %u)", figures->steps),
                                                                     figures->steps)
                                                  : g_strdup (_("Step (the whole trace)"));
  GtkWidget *child;

  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self->figures))) != NULL)
    gtk_grid_remove (self->figures, child);
  add_cell (self, "", 0, 0, TRUE);
  add_cell (self, _("Measured"), 1, 0, TRUE);
  add_cell (self, _("Replayed"), 2, 0, TRUE);
  add_cell (self, _("Projected"), 3, 0, TRUE);
  add_cell (self, _("Change"), 4, 0, TRUE);
  add_duration_row (self, 1, step_name, figures->measured_ns, figures->replayed_ns, figures->projected_ns);
  for (int c = 0; c < SUANLI_WORK_N_CLASSES; c++)
    add_duration_row (self, 2 + c, suanli_work_class_name (c), figures->measured_class_ns[c], -1,
                      figures->projected_class_ns[c]);
  add_cell (self, mfu_name, 0, 2 + SUANLI_WORK_N_CLASSES, FALSE);
  add_cell (self, measured_mfu, 1, 2 + SUANLI_WORK_N_CLASSES, FALSE);
  add_cell (self, projected_mfu, 3, 2 + SUANLI_WORK_N_CLASSES, FALSE);
  add_cell (self, mfu_change, 4, 2 + SUANLI_WORK_N_CLASSES, FALSE);
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->figures),
                               _("Replayed: the trace's dependency graph run again with the measured durations; it "
                                 "should come close to the measured step. Projected: the same graph with the durations "
                                 "scaled and the choices above applied. The parts are shares of the step: compute while any compute "
                                 "runs on the GPU, else memory, else communication, else host (the GPU waiting)."));
}

static void
show_notes (SuanliWhatifView *self)
{
  GPtrArray *notes = suanli_whatif_get_notes (self->whatif);
  g_autoptr(GString) text = g_string_new (NULL);

  if (self->measured_id == NULL)
    g_string_append (text, _("The catalog knows no accelerator this trace names, so its kernels keep their durations; "
                             "only the choices that need no rates apply."));
  for (guint i = 0; notes != NULL && i < notes->len; i++)
    {
      if (text->len > 0)
        g_string_append_c (text, '\n');
      g_string_append (text, g_ptr_array_index (notes, i));
    }
  gtk_label_set_text (self->notes, text->str);
}

static void
show_kernels (SuanliWhatifView *self)
{
  GArray *kernels = suanli_whatif_get_kernels (self->whatif);
  g_autoptr(GListStore) rows = g_list_store_new (SUANLI_TYPE_STAT_ROW);

  for (guint i = 0; i < kernels->len; i++)
    {
      const SuanliWhatifKernel *kernel = &g_array_index (kernels, SuanliWhatifKernel, i);
      double values[] = { kernel->count, kernel->measured_ns, kernel->projected_ns, kernel->factor, 0 };
      g_autoptr(SuanliStatRow) row = suanli_stat_row_new (suanli_trace_get_string (self->trace, kernel->name),
                                                          values, G_N_ELEMENTS (values));

      /* The reason starts with the class: "compute-bound (“gemm” in the name), …". */
      suanli_stat_row_set_note (row, kernel->reason != NULL ? kernel->reason : suanli_work_class_name (kernel->work_class));
      g_list_store_append (rows, row);
    }
  suanli_stats_table_set_rows (self->kernels_table, G_LIST_MODEL (rows));
}

/* The GPU's streams under the ruler: with the threads above them they would be out of sight in a
 * timeline this short, and they are what the projection changes most. */
static void
pin_streams (SuanliTimeline *timeline)
{
  SuanliTrace *trace = suanli_timeline_get_trace (timeline);

  for (guint t = 0; trace != NULL && t < suanli_trace_get_n_tracks (trace); t++)
    {
      SuanliTrack *track = suanli_trace_get_track (trace, t);

      if (track->kind == SUANLI_TRACK_GPU_STREAM && track->slices->len > 0)
        suanli_timeline_set_pinned (timeline, t, TRUE);
    }
}

/* The two timelines at one scale: each from its own start, as long as the longer of the two. */
static void
show_timelines (SuanliWhatifView *self)
{
  SuanliTrace *projected = suanli_whatif_get_projected (self->whatif);
  gint64 measured_first = 0, measured_last = 0, projected_first = 0, projected_last = 0, span;
  SuanliItem *measured_item = lookup (self, self->measured_id), *target_item = lookup (self, target_id (self));
  g_autofree char *measured = hardware_caption (_("Measured"), MAX (self->trace_gpus, 1),
                                                measured_item != NULL ? suanli_item_get_name (measured_item) : "?");
  g_autofree char *target = hardware_caption (_("Projected"), (guint) gtk_spin_button_get_value_as_int (self->gpus),
                                              target_item != NULL ? suanli_item_get_name (target_item) : "?");

  gtk_label_set_text (self->measured_caption, measured);
  gtk_label_set_text (self->projected_caption, target);
  if (suanli_timeline_get_trace (self->measured_timeline) != self->trace)
    {
      suanli_timeline_set_trace (self->measured_timeline, self->trace);
      pin_streams (self->measured_timeline);
    }
  suanli_timeline_set_trace (self->projected_timeline, projected);
  pin_streams (self->projected_timeline);
  suanli_trace_get_time_range (self->trace, &measured_first, &measured_last);
  if (projected != NULL)
    suanli_trace_get_time_range (projected, &projected_first, &projected_last);
  span = MAX (MAX (measured_last - measured_first, projected_last - projected_first), 1);
  suanli_timeline_set_window (self->measured_timeline, measured_first, measured_first + span);
  if (projected != NULL)
    suanli_timeline_set_window (self->projected_timeline, projected_first, projected_first + span);
}

static void
update_actions (SuanliWhatifView *self)
{
  const SuanliWhatifFigures *figures = self->whatif != NULL ? suanli_whatif_get_figures (self->whatif) : NULL;
  gboolean usable = figures != NULL && target_id (self) != NULL && figures->projected_mfu > 0 && figures->projected_mfu <= 1;

  gtk_widget_action_set_enabled (GTK_WIDGET (self), "whatif.use-projection", usable);
}

static void
on_replayed (GObject      *source,
             GAsyncResult *result,
             gpointer      data)
{
  SuanliWhatifView *self = SUANLI_WHATIF_VIEW (source);
  ReplayJob *job = g_task_get_task_data (G_TASK (result));
  g_autoptr(GError) error = NULL;
  SuanliWhatif *whatif = g_task_propagate_pointer (G_TASK (result), &error);

  if (job->number != self->asked || job->trace != self->trace)
    {
      g_clear_pointer (&whatif, suanli_whatif_free);
      return;   /* something newer was asked for */
    }
  gtk_spinner_stop (self->spinner);
  self->answered = job->number;
  g_clear_pointer (&self->whatif, suanli_whatif_free);
  if (whatif == NULL)
    {
      gtk_label_set_text (self->notes, error->message);
      update_actions (self);
      return;
    }
  self->whatif = whatif;
  show_figures (self);
  show_notes (self);
  show_kernels (self);
  show_timelines (self);
  update_actions (self);
}

static void
fill_hardware (SuanliWhatifView     *self,
               const char           *id,
               guint                 gpus,
               SuanliWhatifHardware *hardware)
{
  SuanliItem *item = lookup (self, id);

  memset (hardware, 0, sizeof *hardware);
  if (item != NULL)
    suanli_whatif_hardware_from_item (self->catalog, item, hardware);
  hardware->count = gpus;
}

static gboolean
replay (gpointer data)
{
  SuanliWhatifView *self = data;
  g_autoptr(GTask) task = NULL;
  ReplayJob *job;
  guint precision = gtk_drop_down_get_selected (self->precision);
  const char *faster = gtk_editable_get_text (GTK_EDITABLE (self->faster));

  self->replay_source = 0;
  if (self->trace == NULL || suanli_trace_is_growing (self->trace))
    return G_SOURCE_REMOVE;
  job = g_new0 (ReplayJob, 1);
  suanli_whatif_options_init (&job->options);
  job->trace = g_object_ref (self->trace);
  fill_hardware (self, self->measured_id, self->trace_gpus, &job->options.measured);
  /* Without a target the what-ifs apply on the measured hardware. */
  fill_hardware (self, target_id (self) != NULL ? target_id (self) : self->measured_id,
                 (guint) gtk_spin_button_get_value_as_int (self->gpus), &job->options.target);
  job->options.overlap_comm = self->overlap_comm;
  job->options.no_host_gaps = self->no_host_gaps;
  job->faster = *faster != '\0' ? g_strdup (faster) : NULL;
  job->options.faster_factor = job->faster != NULL ? gtk_spin_button_get_value (self->factor) : 1;
  job->options.precision = precision > 0 && precision <= G_N_ELEMENTS (precisions) ? (int) precisions[precision - 1] : -1;
  job->number = ++self->asked;
  task = g_task_new (self, NULL, on_replayed, NULL);
  g_task_set_task_data (task, job, (GDestroyNotify) replay_job_free);
  gtk_spinner_start (self->spinner);
  g_task_run_in_thread (task, work_out_replay);
  return G_SOURCE_REMOVE;
}

/* A choice changed: the replay runs again shortly (once for a burst of keystrokes), when shown. */
static void
schedule_replay (SuanliWhatifView *self)
{
  if (self->filling || !gtk_widget_get_mapped (GTK_WIDGET (self)))
    return;
  g_clear_handle_id (&self->replay_source, g_source_remove);
  self->replay_source = g_timeout_add (REPLAY_DELAY_MS, replay, self);
}

static void
on_choice_changed (SuanliWhatifView *self)
{
  schedule_replay (self);
}

static void
on_map (GtkWidget *widget)
{
  SuanliWhatifView *self = SUANLI_WHATIF_VIEW (widget);

  GTK_WIDGET_CLASS (suanli_whatif_view_parent_class)->map (widget);
  if (self->answered != self->asked || self->whatif == NULL)
    schedule_replay (self);
}

/* The accelerators the catalog can project onto: those with a compute rate. */
static void
fill_targets (SuanliWhatifView *self)
{
  g_autoptr(GtkStringList) names = gtk_string_list_new (NULL);
  guint n = self->catalog != NULL ? g_list_model_get_n_items (G_LIST_MODEL (self->catalog)) : 0;
  guint selected = GTK_INVALID_LIST_POSITION;

  g_clear_pointer (&self->target_ids, g_ptr_array_unref);
  self->target_ids = g_ptr_array_new_with_free_func (g_free);
  for (guint i = 0; i < n; i++)
    {
      g_autoptr(SuanliItem) item = g_list_model_get_item (G_LIST_MODEL (self->catalog), i);

      if (suanli_item_get_kind (item) != SUANLI_ITEM_KIND_ACCELERATOR ||
          !(suanli_item_get_spec_value (item, "bf16_tflops", NULL) || suanli_item_get_spec_value (item, "fp16_tflops", NULL)))
        continue;
      if (g_strcmp0 (suanli_item_get_id (item), self->measured_id) == 0)
        selected = self->target_ids->len;
      g_ptr_array_add (self->target_ids, g_strdup (suanli_item_get_id (item)));
      gtk_string_list_append (names, suanli_item_get_name (item));
    }
  gtk_drop_down_set_model (self->target, G_LIST_MODEL (names));
  gtk_drop_down_set_selected (self->target, selected != GTK_INVALID_LIST_POSITION ? selected : 0);
}

/* @measured_accelerator: the catalog's id of what @trace ran on, or NULL when it names none the
 * catalog knows; @gpus: how many. The target starts as the measured accelerator, so the view
 * first shows the replay itself. */
void
suanli_whatif_view_set_trace (SuanliWhatifView *self,
                              SuanliTrace      *trace,
                              SuanliCatalog    *catalog,
                              const char       *measured_accelerator,
                              guint             gpus)
{
  g_return_if_fail (SUANLI_IS_WHATIF_VIEW (self));

  self->filling = TRUE;
  g_set_object (&self->trace, trace);
  g_set_object (&self->catalog, catalog);
  g_free (self->measured_id);
  self->measured_id = g_strdup (measured_accelerator);
  self->trace_gpus = MAX (gpus, 1);
  fill_targets (self);
  gtk_spin_button_set_value (self->gpus, self->trace_gpus);
  g_clear_pointer (&self->whatif, suanli_whatif_free);
  self->answered = ++self->asked;   /* a replay on its way is of the old trace */
  suanli_timeline_set_trace (self->measured_timeline, trace);
  pin_streams (self->measured_timeline);
  suanli_timeline_set_trace (self->projected_timeline, NULL);
  gtk_label_set_text (self->notes, "");
  update_actions (self);
  self->filling = FALSE;
  if (trace != NULL)
    {
      self->answered = 0;
      schedule_replay (self);
    }
}

/* Chooses the accelerator to project onto, by its catalog id. Returns: whether it is offered. */
gboolean
suanli_whatif_view_set_target (SuanliWhatifView *self,
                               const char       *accelerator)
{
  for (guint i = 0; self->target_ids != NULL && i < self->target_ids->len; i++)
    if (g_str_equal (g_ptr_array_index (self->target_ids, i), accelerator))
      {
        gtk_drop_down_set_selected (self->target, i);
        return TRUE;
      }
  return FALSE;
}

/* Whether the answer shown is that of the choices shown. */
gboolean
suanli_whatif_view_is_ready (SuanliWhatifView *self)
{
  return self->whatif != NULL && self->answered == self->asked && self->replay_source == 0;
}

/* Returns: (transfer none) (nullable): the replay shown. */
SuanliWhatif *
suanli_whatif_view_get_whatif (SuanliWhatifView *self)
{
  return self->whatif;
}

static void
use_projection_action (GtkWidget  *widget,
                       const char *action_name,
                       GVariant   *parameter)
{
  SuanliWhatifView *self = SUANLI_WHATIF_VIEW (widget);
  const SuanliWhatifFigures *figures = self->whatif != NULL ? suanli_whatif_get_figures (self->whatif) : NULL;

  if (figures == NULL || target_id (self) == NULL || figures->projected_mfu <= 0)
    return;
  g_signal_emit (self, signals[USE_PROJECTION], 0, target_id (self),
                 (guint) gtk_spin_button_get_value_as_int (self->gpus), figures->projected_mfu);
}

static void
suanli_whatif_view_get_property (GObject    *object,
                                 guint       prop_id,
                                 GValue     *value,
                                 GParamSpec *pspec)
{
  SuanliWhatifView *self = SUANLI_WHATIF_VIEW (object);

  switch (prop_id)
    {
    case PROP_OVERLAP_COMM:
      g_value_set_boolean (value, self->overlap_comm);
      break;
    case PROP_NO_HOST_GAPS:
      g_value_set_boolean (value, self->no_host_gaps);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
suanli_whatif_view_set_property (GObject      *object,
                                 guint         prop_id,
                                 const GValue *value,
                                 GParamSpec   *pspec)
{
  SuanliWhatifView *self = SUANLI_WHATIF_VIEW (object);
  gboolean *field;

  switch (prop_id)
    {
    case PROP_OVERLAP_COMM:
      field = &self->overlap_comm;
      break;
    case PROP_NO_HOST_GAPS:
      field = &self->no_host_gaps;
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      return;
    }
  if (*field == g_value_get_boolean (value))
    return;
  *field = g_value_get_boolean (value);
  g_object_notify_by_pspec (object, pspec);
  schedule_replay (self);
}

static void
suanli_whatif_view_dispose (GObject *object)
{
  SuanliWhatifView *self = SUANLI_WHATIF_VIEW (object);

  g_clear_handle_id (&self->replay_source, g_source_remove);
  g_clear_pointer (&self->box, gtk_widget_unparent);
  g_clear_pointer (&self->whatif, suanli_whatif_free);
  g_clear_object (&self->trace);
  g_clear_object (&self->catalog);
  G_OBJECT_CLASS (suanli_whatif_view_parent_class)->dispose (object);
}

static void
suanli_whatif_view_finalize (GObject *object)
{
  SuanliWhatifView *self = SUANLI_WHATIF_VIEW (object);

  g_free (self->measured_id);
  g_clear_pointer (&self->target_ids, g_ptr_array_unref);
  G_OBJECT_CLASS (suanli_whatif_view_parent_class)->finalize (object);
}

static void
suanli_whatif_view_class_init (SuanliWhatifViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = suanli_whatif_view_dispose;
  object_class->finalize = suanli_whatif_view_finalize;
  object_class->get_property = suanli_whatif_view_get_property;
  object_class->set_property = suanli_whatif_view_set_property;
  widget_class->map = on_map;

  properties[PROP_OVERLAP_COMM] = g_param_spec_boolean ("overlap-comm", NULL, NULL, FALSE,
                                                        G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_NO_HOST_GAPS] = g_param_spec_boolean ("no-host-gaps", NULL, NULL, FALSE,
                                                        G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);
  signals[USE_PROJECTION] = g_signal_new ("use-projection", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL,
                                          NULL, G_TYPE_NONE, 3, G_TYPE_STRING, G_TYPE_UINT, G_TYPE_DOUBLE);

  gtk_widget_class_install_property_action (widget_class, "whatif.overlap-comm", "overlap-comm");
  gtk_widget_class_install_property_action (widget_class, "whatif.no-host-gaps", "no-host-gaps");
  gtk_widget_class_install_action (widget_class, "whatif.use-projection", NULL, use_projection_action);
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_template_from_resource (widget_class, "/org/suanli/Suanli/ui/suanli-whatif-view.ui");
  gtk_widget_class_bind_template_child (widget_class, SuanliWhatifView, box);
  gtk_widget_class_bind_template_child (widget_class, SuanliWhatifView, choices);
  gtk_widget_class_bind_template_child (widget_class, SuanliWhatifView, target);
  gtk_widget_class_bind_template_child (widget_class, SuanliWhatifView, gpus);
  gtk_widget_class_bind_template_child (widget_class, SuanliWhatifView, precision);
  gtk_widget_class_bind_template_child (widget_class, SuanliWhatifView, spinner);
  gtk_widget_class_bind_template_child (widget_class, SuanliWhatifView, faster);
  gtk_widget_class_bind_template_child (widget_class, SuanliWhatifView, factor);
  gtk_widget_class_bind_template_child (widget_class, SuanliWhatifView, figures);
  gtk_widget_class_bind_template_child (widget_class, SuanliWhatifView, notes);
  gtk_widget_class_bind_template_child (widget_class, SuanliWhatifView, measured_caption);
  gtk_widget_class_bind_template_child (widget_class, SuanliWhatifView, projected_caption);
  gtk_widget_class_bind_template_child (widget_class, SuanliWhatifView, measured_timeline);
  gtk_widget_class_bind_template_child (widget_class, SuanliWhatifView, projected_timeline);
  gtk_widget_class_bind_template_child (widget_class, SuanliWhatifView, kernels_table);
  gtk_widget_class_bind_template_callback (widget_class, on_choice_changed);
}

static void
suanli_whatif_view_init (SuanliWhatifView *self)
{
  const SuanliStatColumn columns[] = {
    { _("Count"), SUANLI_STAT_COUNT },
    { _("Measured"), SUANLI_STAT_DURATION },
    { _("Projected"), SUANLI_STAT_DURATION },
    { _("Factor"), SUANLI_STAT_FACTOR },
    { _("Why"), SUANLI_STAT_NOTE },
  };
  g_autoptr(GtkStringList) formats = gtk_string_list_new (NULL);

  g_type_ensure (SUANLI_TYPE_TIMELINE);
  g_type_ensure (SUANLI_TYPE_STATS_TABLE);
  gtk_widget_init_template (GTK_WIDGET (self));
  gtk_string_list_append (formats, _("As measured"));
  for (guint i = 0; i < G_N_ELEMENTS (precisions); i++)
    {
      g_autofree char *upper = g_ascii_strup (suanli_number_format_nick (precisions[i]), -1);
      gtk_string_list_append (formats, upper);
    }
  gtk_drop_down_set_model (self->precision, G_LIST_MODEL (formats));
  suanli_drop_down_set_accessible_name (self->target, _("Project onto"));
  suanli_drop_down_set_accessible_name (self->precision, _("Precision"));
  gtk_drop_down_set_expression (self->target, gtk_property_expression_new (GTK_TYPE_STRING_OBJECT, NULL, "string"));
  /* The choices wrap on a narrow window; the flow box's own children are no tab stops. */
  for (GtkWidget *child = gtk_widget_get_first_child (GTK_WIDGET (self->choices)); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    gtk_widget_set_focusable (child, FALSE);
  suanli_stats_table_set_columns (self->kernels_table, _("Kernels, Scaled"), columns, G_N_ELEMENTS (columns));
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "whatif.use-projection", FALSE);
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->spinner), _("Replaying…"));
}

GtkWidget *
suanli_whatif_view_new (void)
{
  return g_object_new (SUANLI_TYPE_WHATIF_VIEW, NULL);
}
