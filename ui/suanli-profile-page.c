/* suanli-profile-page.c — the profiler page: a trace's summary and timeline
 *
 * Trace files are read by a SuanliTraceLoader on a worker thread while the page shows progress
 * and a Cancel button; the finished trace becomes the workspace's "trace", and whatever sets that
 * property (this page, a live capture later) gets it shown: a header with the files, span and
 * ranks, a one-line summary of where GPU time went, the timeline, and the details of the slice
 * last clicked. Files opened from the command line or the window's Open dialog arrive one by one;
 * those that arrive together are read together, as one trace with a group per file (rank).
 *
 * The other views are widgets of their own, which the page hands the trace and its figures: the
 * flame graph (SuanliFlameView), Kernels (SuanliTablesView), What If… (SuanliWhatifView), Ranks
 * for a trace of several (SuanliRanksView), and under the summary the trace against the plan
 * (SuanliAgainstPlanView). The page's other actions are in suanli-profile-page-actions.c.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <adwaita.h>
#include <glib/gi18n.h>

#include "suanli-against-plan-view.h"
#include "suanli-analysis.h"
#include "suanli-bar-area.h"
#include "suanli-catalog.h"
#include "suanli-device-match.h"
#include "suanli-flame-view.h"
#include "suanli-profile-common.h"
#include "suanli-profile-page-private.h"
#include "suanli-ranks-view.h"
#include "suanli-recent-menu.h"
#include "suanli-tables-view.h"
#include "suanli-timeline.h"
#include "suanli-trace-figures.h"
#include "suanli-trace-loader.h"
#include "suanli-track-index.h"
#include "suanli-units.h"
#include "suanli-whatif-view.h"

#define GATHER_MS      150     /* files opened within this long of each other are read together */
#define MAX_ARGS_SHOWN 12

G_DEFINE_FINAL_TYPE (SuanliProfilePage, suanli_profile_page, SUANLI_TYPE_PAGE)

static const char * const trace_suffixes[] = { ".json", ".json.gz", ".gz", ".folded", ".collapsed", NULL };

/* The recent-traces menus, rebuilt when a load finishes (and at the start). */
static void
update_recent_menus (SuanliProfilePage *self)
{
  g_autoptr(GMenuModel) menu = suanli_recent_menu_new (trace_suffixes, "profile.open-recent", "profile.none",
                                                       _("No recent traces"));

  gtk_menu_button_set_menu_model (self->recent_button, menu);
  gtk_menu_button_set_menu_model (self->empty_recent_button, menu);
}

static SuanliTrace *
workspace_trace (SuanliProfilePage *self)
{
  SuanliWorkspace *workspace = suanli_page_get_workspace (SUANLI_PAGE (self));

  return workspace != NULL ? suanli_workspace_get_trace (workspace) : NULL;
}

/* The files' full paths, one a line: the title shows their names only. */
static void
set_title_tooltip (SuanliProfilePage *self,
                   SuanliTrace       *trace)
{
  g_autoptr(GString) paths = g_string_new (NULL);

  for (guint g = 0; g < suanli_trace_get_n_groups (trace); g++)
    {
      if (g > 0)
        g_string_append_c (paths, '\n');
      g_string_append (paths, suanli_trace_get_string (trace, suanli_trace_get_group (trace, g)->name));
    }
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->title_label), paths->str);
}

static char *
subtitle_text (SuanliTrace *trace)
{
  gint64 first, last;
  g_autofree char *span = NULL;
  guint n_groups = suanli_trace_get_n_groups (trace);
  guint64 slices = suanli_trace_get_n_slices (trace);

  suanli_trace_get_time_range (trace, &first, &last);
  span = suanli_format_duration_ns (last - first);
  if (suanli_trace_get_partial (trace) != NULL)
    {
      /* Marked for as long as it is shown, not only in the toast when it opened. */
      char *partly = g_strdup_printf (_("%s · read partly"), span);

      g_free (span);
      span = partly;
    }
  if (n_groups > 1)
    return g_strdup_printf (ngettext ("%s · %u rank · %llu slice", "%s · %u ranks · %llu slices", (gulong) slices), span,
                            n_groups, (unsigned long long) slices);
  return g_strdup_printf (ngettext ("%s · %llu slice", "%s · %llu slices", (gulong) slices), span,
                          (unsigned long long) slices);
}

/* Where GPU time went, all GPUs together, as one bar of parts that add up to their spans:
 * communication, other kernels, copies and memsets alone, waiting for the host, other idle. */
static void
fill_breakdown (SuanliProfilePage *self,
                GArray            *gpus)
{
  double parts[5] = { 0 };
  static const struct { const char *context, *label; SuanliCategory category; } kinds[] = {
    /* The summary's compute counts what overlaps communication too; the bar's parts must not overlap. */
    { "GPU time", NC_("GPU time", "compute only"), SUANLI_CATEGORY_KERNEL },
    { "GPU time", NC_("GPU time", "communication"), SUANLI_CATEGORY_COMMUNICATION },
    { "GPU time", NC_("GPU time", "copies and memsets"), SUANLI_CATEGORY_MEMORY },
    { "GPU time", NC_("GPU time", "waiting for the host"), SUANLI_CATEGORY_IDLE },
    { "GPU time", NC_("GPU time", "other idle"), SUANLI_CATEGORY_OTHER },
  };
  double span = 0;

  suanli_stacked_bar_clear (self->breakdown);
  for (guint i = 0; i < gpus->len; i++)
    {
      SuanliGpuTime *gpu = &g_array_index (gpus, SuanliGpuTime, i);

      parts[0] += (double) (gpu->kernel_ns - gpu->comm_ns);
      parts[1] += (double) gpu->comm_ns;
      parts[2] += (double) (gpu->busy_ns - gpu->kernel_ns);
      parts[3] += (double) gpu->host_wait_ns;
      parts[4] += (double) (gpu->short_gap_ns + gpu->other_idle_ns);
      span += (double) gpu->span_ns;
    }
  for (guint k = 0; k < G_N_ELEMENTS (kinds) && span > 0; k++)
    {
      g_autofree char *share = g_strdup_printf ("%.0f%%", 100 * parts[k] / span);

      suanli_stacked_bar_add (self->breakdown, g_dpgettext2 (NULL, kinds[k].context, kinds[k].label), parts[k],
                              kinds[k].category, share);
    }
  gtk_widget_set_visible (GTK_WIDGET (self->breakdown_area), span > 0);
  gtk_widget_queue_draw (GTK_WIDGET (self->breakdown_area));
}

static void
work_out_figures (GTask        *task,
                  gpointer      source,
                  gpointer      data,
                  GCancellable *cancellable)
{
  g_task_return_pointer (task, suanli_trace_figures_new (data), (GDestroyNotify) suanli_trace_figures_free);
}

/* Where GPU time went, over every GPU, and the steps: one line above the timeline. */
static char *
summary_text (SuanliTraceFigures *figures)
{
  SuanliTrace *trace = figures->trace;
  GArray *gpus = figures->gpus, *steps = figures->steps, *kernels = figures->kernels;
  g_autoptr(GString) text = g_string_new (NULL);
  double span = 0, busy = 0, compute = 0, comm = 0, memcpy = 0, idle = 0, host = 0;

  for (guint i = 0; i < gpus->len; i++)
    {
      SuanliGpuTime *gpu = &g_array_index (gpus, SuanliGpuTime, i);

      span += gpu->span_ns, busy += gpu->busy_ns, compute += gpu->compute_ns, comm += gpu->comm_ns;
      memcpy += gpu->memcpy_ns, idle += gpu->idle_ns, host += gpu->host_wait_ns;
    }
  if (gpus->len == 0)
    g_string_append (text, _("No GPU activity in this trace."));
  else
    g_string_append_printf (text, ngettext ("%u GPU: busy %.0f%% · compute %.0f%% · communication %.0f%% · "
                                            "memcpy %.0f%% · idle %.0f%% (waiting for the host %.0f%%)",
                                            "%u GPUs: busy %.0f%% · compute %.0f%% · communication %.0f%% · "
                                            "memcpy %.0f%% · idle %.0f%% (waiting for the host %.0f%%)",
                                            gpus->len),
                            gpus->len, 100 * busy / MAX (span, 1), 100 * compute / MAX (span, 1), 100 * comm / MAX (span, 1),
                            100 * memcpy / MAX (span, 1), 100 * idle / MAX (span, 1), 100 * host / MAX (span, 1));
  if (steps->len > 0)
    {
      g_autofree char *step = suanli_format_duration_ns (suanli_analysis_step_time (steps));

      g_string_append (text, "  │  ");
      /* The mean of the steps' periods, as What If counts it (docs/trace-analysis.md, "The step"). */
      g_string_append_printf (text, ngettext ("%u step, %s per step", "%u steps, %s per step", steps->len),
                              steps->len, step);
    }
  if (kernels->len > 0)
    {
      SuanliKernelStats *top = &g_array_index (kernels, SuanliKernelStats, 0);
      const char *name = suanli_trace_get_string (trace, top->name);
      g_autofree char *shown = g_utf8_strlen (name, -1) > 48 ? g_utf8_substring (name, 0, 47) : g_strdup (name);
      g_autofree char *total = suanli_format_duration_ns (top->total_ns);

      g_string_append (text, "  │  ");
      g_string_append_printf (text, _("top kernel: %s%s (%s)"), shown, g_utf8_strlen (name, -1) > 48 ? "…" : "", total);
    }
  return g_string_free (g_steal_pointer (&text), FALSE);
}

/* The details line; a selectable label, but nothing selected until someone selects it. A screen
 * reader hears it as the timeline's description, since the selection is drawn, not a widget. */
static void
set_details (SuanliProfilePage *self,
             const char        *text)
{
  gtk_widget_set_visible (self->jump_button, FALSE);
  gtk_label_set_text (self->details_label, text);
  gtk_label_select_region (self->details_label, 0, 0);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->timeline), GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, text, -1);
}

static void on_timeline_search_changed (SuanliProfilePage *self);

/* The flame graph keeps to the range selected on the timeline, if any. */
static void
flame_follows_range (SuanliProfilePage *self)
{
  gint64 from, to;

  if (!suanli_timeline_get_range (self->timeline, &from, &to))
    from = G_MININT64, to = G_MAXINT64;
  suanli_flame_view_set_range (self->flame_view, from, to);
}

/* Shows or hides the summary at once: while it slid away the window would have to hold both it and
 * the view coming in, and would grow past its size to do so. */
static void
fold_summary (SuanliProfilePage *self,
              gboolean           shown)
{
  GtkRevealerTransitionType transition = gtk_revealer_get_transition_type (self->summary_revealer);

  gtk_revealer_set_transition_type (self->summary_revealer, GTK_REVEALER_TRANSITION_TYPE_NONE);
  gtk_toggle_button_set_active (self->summary_toggle, shown);
  gtk_revealer_set_transition_type (self->summary_revealer, transition);
}

static void
on_view_changed (SuanliProfilePage *self)
{
  const char *view = gtk_stack_get_visible_child_name (self->views);
  gboolean whatif = g_str_equal (view, "whatif");

  /* What If has its own figures and selects nothing to detail: the summary folds away while it is
   * in front (the eye button shows it again) and the details line goes, so that its timelines and
   * kernels fit the window. */
  gtk_widget_set_visible (self->details_box, !whatif);
  gtk_widget_set_visible (self->details_separator, !whatif);
  if (whatif && gtk_toggle_button_get_active (self->summary_toggle))
    {
      self->summary_folded = TRUE;
      fold_summary (self, FALSE);
    }
  else if (!whatif && self->summary_folded)
    {
      self->summary_folded = FALSE;
      fold_summary (self, TRUE);
    }
  /* The view in front takes the keyboard (and the details' text is not left selected). */
  if (g_strcmp0 (gtk_stack_get_visible_child_name (self->stack), "trace") == 0)
    gtk_widget_grab_focus (g_str_equal (view, "flame") ? GTK_WIDGET (self->flame_view)
                           : g_str_equal (view, "tables") ? GTK_WIDGET (self->tables_view)
                           : g_str_equal (view, "ranks") ? GTK_WIDGET (self->ranks_view)
                           : GTK_WIDGET (self->timeline));
}

/* The ranks of the trace shown (SuanliRankStats by group; NULL or one rank: no Ranks view). */
static void
show_ranks (SuanliProfilePage *self,
            SuanliTrace       *trace,
            GArray            *ranks)
{
  suanli_ranks_view_set_ranks (self->ranks_view, trace, ranks);
  gtk_stack_page_set_visible (self->ranks_page, suanli_ranks_view_has_ranks (self->ranks_view));
}

/* Show Difference in the Ranks view: the flame view shows it. */
static void
on_compare_ranks (SuanliProfilePage *self,
                  guint              group,
                  guint              baseline_group,
                  const char        *description)
{
  suanli_flame_view_compare_ranks (self->flame_view, group, baseline_group, description);
}

static void show_figures (SuanliProfilePage *self);

/* The figures of the trace shown arrive. */
static void
on_figures_worked_out (GObject      *source,
                       GAsyncResult *result,
                       gpointer      data)
{
  SuanliProfilePage *self = SUANLI_PROFILE_PAGE (source);
  SuanliTraceFigures *figures = g_task_propagate_pointer (G_TASK (result), NULL);

  self->working_out--;
  if (self->summary_label == NULL || figures->trace != suanli_timeline_get_trace (self->timeline))
    {
      suanli_trace_figures_free (figures);   /* the page is going, or shows another trace by now */
      return;
    }
  g_clear_pointer (&self->figures, suanli_trace_figures_free);
  self->figures = figures;
  show_figures (self);
}

/* What If… replays the trace on what it ran on (the catalog's accelerator its device names), so
 * that it can be projected onto another. */
static void
show_whatif (SuanliProfilePage *self,
             SuanliTrace       *trace)
{
  SuanliWorkspace *workspace = suanli_page_get_workspace (SUANLI_PAGE (self));
  SuanliCatalog *catalog = workspace != NULL ? suanli_workspace_get_catalog (workspace) : NULL;
  guint64 memory = 0;
  guint gpus = 0;
  const char *device = suanli_trace_get_accelerator (trace, &memory, &gpus);
  SuanliItem *measured = device != NULL && catalog != NULL ? suanli_device_match (catalog, device, memory) : NULL;

  suanli_whatif_view_set_trace (self->whatif_view, trace, catalog, measured != NULL ? suanli_item_get_id (measured) : NULL,
                                gpus);
}

/* The figures of the trace shown: the summary, its bar, the tables and the comparison. */
static void
show_figures (SuanliProfilePage *self)
{
  SuanliTraceFigures *figures = self->figures;
  g_autofree char *summary = NULL;

  summary = summary_text (figures);
  gtk_label_set_text (self->summary_label, summary);
  fill_breakdown (self, figures->gpus);
  suanli_tables_view_set_stats (self->tables_view, figures->trace, figures->kernels, figures->operators);
  {
    g_autoptr(GArray) ranks = suanli_analysis_ranks_from (figures->trace, figures->gpus, figures->steps);

    show_ranks (self, figures->trace, ranks);
  }
  suanli_against_plan_view_set_figures (self->against_plan_view, figures);
  show_whatif (self, figures->trace);
}

/* While a live capture grows the trace: its span and slice count under the title. */
static void
on_live_grown (SuanliProfilePage *self,
               SuanliTrace       *trace)
{
  g_autofree char *subtitle = subtitle_text (trace);

  gtk_label_set_text (self->subtitle_label, subtitle);
}

/* Every warning of reading the trace, behind the button beside its title. */
static void
show_warnings (SuanliProfilePage *self,
               SuanliTrace       *trace)
{
  GPtrArray *warnings = suanli_trace_get_warnings (trace);
  g_autoptr(GString) text = g_string_new (NULL);

  for (guint i = 0; i < warnings->len; i++)
    g_string_append_printf (text, "%s%s", i > 0 ? "\n" : "", (const char *) g_ptr_array_index (warnings, i));
  gtk_label_set_text (self->warnings_label, text->str);
  gtk_widget_set_visible (self->warnings_button, warnings->len > 0);
}

static void
show_trace (SuanliProfilePage *self)
{
  SuanliTrace *trace = workspace_trace (self);

  suanli_tables_view_set_stats (self->tables_view, trace, NULL, NULL);
  suanli_tables_view_hide_range (self->tables_view);
  /* The ranks compared were another trace's (or this one's before a capture into it ended). */
  show_ranks (self, trace, NULL);

  suanli_timeline_set_trace (self->timeline, trace);
  suanli_against_plan_view_set_trace (self->against_plan_view, trace);
  /* The search is run again in the trace now shown: its count is of this trace's slices. */
  on_timeline_search_changed (self);
  suanli_flame_view_set_trace (self->flame_view, trace);
  flame_follows_range (self);
  if (trace == NULL)
    {
      if (self->loading == NULL)
        gtk_stack_set_visible_child_name (self->stack, "empty");
      return;
    }
  {
    g_autofree char *title = suanli_profile_files_text (trace);
    g_autofree char *subtitle = subtitle_text (trace);

    gtk_label_set_text (self->title_label, title);
    set_title_tooltip (self, trace);
    gtk_label_set_text (self->subtitle_label, subtitle);
    show_warnings (self, trace);
    gtk_widget_set_visible (GTK_WIDGET (self->breakdown_area), FALSE);
    /* Shown again, with its figures, when a live capture into it ends. */
    g_signal_handlers_disconnect_by_func (trace, show_trace, self);
    g_signal_handlers_disconnect_by_func (trace, on_live_grown, self);
    if (suanli_trace_is_growing (trace))
      {
        g_signal_connect_object (trace, "notify::growing", G_CALLBACK (show_trace), self, G_CONNECT_SWAPPED);
        g_signal_connect_object (trace, "grown", G_CALLBACK (on_live_grown), self, G_CONNECT_SWAPPED);
        /* Nothing of an earlier trace's figures stays on show. */
        g_clear_pointer (&self->figures, suanli_trace_figures_free);
        suanli_against_plan_view_set_figures (self->against_plan_view, NULL);
        gtk_label_set_text (self->summary_label, _("Capturing live: the timeline grows as records come; the summary, "
                                                   "tables and flame graph follow when the capture stops."));
      }
    else if (self->figures != NULL && self->figures->trace == trace)
      show_figures (self);   /* worked out by the loader while it read the trace */
    else
      {
        g_autoptr(GTask) task = g_task_new (self, NULL, on_figures_worked_out, NULL);

        gtk_label_set_text (self->summary_label, _("Working out where the time went…"));
        self->working_out++;
        g_task_set_task_data (task, g_object_ref (trace), g_object_unref);
        g_task_run_in_thread (task, work_out_figures);
      }
  }
  set_details (self, _("Click a slice to see its details. Zoom with Ctrl+wheel or W and S, pan with A and D or by "
                       "dragging."));
  gtk_stack_set_visible_child_name (self->stack, "trace");
  gtk_widget_grab_focus (GTK_WIDGET (self->timeline));
}

/* The other end of the flows that touch the slice: what launched it, or what it launched. */
/* The CPU stack a launch was made from, outermost first: "ProfilerStep#2 › aten::linear ›
 * aten::addmm › cudaLaunchKernel", each the slice around the launch one depth up. */
static char *
launching_stack (SuanliTrace *trace,
                 guint        track,
                 guint32      slice_index)
{
  SuanliSlice *launch = &g_array_index (suanli_trace_get_track (trace, track)->slices, SuanliSlice, slice_index);
  SuanliTrackIndex *index = suanli_trace_get_track_index (trace, track);
  g_autoptr(GString) stack = g_string_new (NULL);

  for (guint depth = 0; depth < launch->depth; depth++)
    {
      guint32 around;

      if (suanli_track_index_find (index, depth, launch->start, 0, &around))
        g_string_append_printf (stack, "%s › ", suanli_trace_get_string (trace, g_array_index (suanli_trace_get_track (trace, track)->slices,
                                                                                                SuanliSlice, around).name));
    }
  g_string_append (stack, suanli_trace_get_string (trace, launch->name));
  return g_string_free (g_steal_pointer (&stack), FALSE);
}

static gboolean
append_flows (GString     *text,
              SuanliTrace *trace,
              guint        track,
              guint32      slice)
{
  gboolean linked = FALSE;

  GArray *flows = suanli_trace_get_flows (trace);
  guint launched = 0;

  for (guint f = 0; f < flows->len; f++)
    {
      SuanliFlow *flow = &g_array_index (flows, SuanliFlow, f);

      if (flow->to_track == track && flow->to_slice == slice)
        {
          g_autofree char *stack = launching_stack (trace, flow->from_track, flow->from_slice);

          g_string_append (text, " · ");
          g_string_append_printf (text, _("launched by %s"), stack);
          linked = TRUE;
        }
      else if (flow->from_track == track && flow->from_slice == slice)
        launched++;
    }
  if (launched > 0)
    {
      g_string_append (text, " · ");
      g_string_append_printf (text, ngettext ("launches %u GPU task", "launches %u GPU tasks", launched), launched);
    }
  return linked || launched > 0;
}

static void
on_timeline_search_changed (SuanliProfilePage *self)
{
  const char *text = gtk_editable_get_text (GTK_EDITABLE (self->timeline_search));
  guint64 count = suanli_timeline_search (self->timeline, text);
  g_autofree char *label = *text == '\0' ? g_strdup ("")
                                         : g_strdup_printf (ngettext ("%llu match", "%llu matches", (gulong) MIN (count, G_MAXULONG)),
                                                            (unsigned long long) count);

  gtk_label_set_text (self->search_count_label, label);
  /* One search for the timeline and the flame graph: it marks the frames that match too. */
  suanli_flame_view_search (self->flame_view, text);
  /* Typing a search shows a view it applies to: the flame graph stays, others give way to the timeline. */
  {
    GtkRoot *root = gtk_widget_get_root (GTK_WIDGET (self));
    GtkWidget *focus = root != NULL ? gtk_root_get_focus (root) : NULL;

    if (focus != NULL && (focus == GTK_WIDGET (self->timeline_search) ||
                          gtk_widget_is_ancestor (focus, GTK_WIDGET (self->timeline_search))) &&
        g_strcmp0 (gtk_stack_get_visible_child_name (self->views), "flame") != 0)
      gtk_stack_set_visible_child_name (self->views, "timeline");
  }
}

/* Enter (or Ctrl+G): the next match; Shift+Enter (or Ctrl+Shift+G): the one before. */
static void
on_timeline_search_activate (SuanliProfilePage *self)
{
  gtk_widget_activate_action (GTK_WIDGET (self->timeline), "timeline.next-match", NULL);
}

static void
on_timeline_search_previous (SuanliProfilePage *self)
{
  gtk_widget_activate_action (GTK_WIDGET (self->timeline), "timeline.previous-match", NULL);
}

/* A row picked in a table: its name is searched for (in the timeline and the flame graph), so
 * both show where it is. */
static void
on_row_selected (SuanliProfilePage *self,
                 const char        *name)
{
  if (self->timeline_search == NULL)
    return;   /* the page is being taken apart */
  gtk_editable_set_text (GTK_EDITABLE (self->timeline_search), name);
  on_timeline_search_changed (self);   /* the flame graph's too */
}

/* A kernel or operator double-clicked in a table: its slices on the timeline, the whole trace in
 * view so that every one shows (what does not match steps back), the next one selected and its
 * row scrolled to. */
static void
on_row_activated (SuanliProfilePage *self,
                  const char        *name)
{
  on_row_selected (self, name);
  gtk_stack_set_visible_child_name (self->views, "timeline");
  gtk_widget_activate_action (GTK_WIDGET (self->timeline), "timeline.reset", NULL);
  gtk_widget_activate_action (GTK_WIDGET (self->timeline), "timeline.next-match", NULL);
}

/* The range's tables are shown: the details say what it holds. */
static void
on_range_shown (SuanliProfilePage *self,
                gint64             from,
                gint64             to,
                guint64            n_slices)
{
  SuanliTrace *trace = self->timeline != NULL ? suanli_timeline_get_trace (self->timeline) : NULL;
  g_autofree char *length = NULL;
  g_autofree char *start = NULL;
  g_autofree char *summary = NULL;
  gint64 first, last;

  if (trace == NULL)
    return;   /* the page is going (its range's worker outlived it) */
  length = suanli_format_duration_ns (to - from);
  suanli_trace_get_time_range (trace, &first, &last);
  start = suanli_format_duration_ns (from - first);
  summary = g_strdup_printf (ngettext ("Range of %s from %s: %llu slice (its statistics are under Kernels; "
                                       "Escape forgets the range)",
                                       "Range of %s from %s: %llu slices (their statistics are under Kernels; "
                                       "Escape forgets the range)",
                                       (gulong) MIN (n_slices, G_MAXULONG)),
                             length, start, (unsigned long long) n_slices);
  set_details (self, summary);
}

/* A range dragged on the ruler: the tables and the flame graph keep to it, and a table of every
 * name in it appears (worked out off the main thread). */
static void
on_range_changed (SuanliProfilePage *self)
{
  SuanliTrace *trace = suanli_timeline_get_trace (self->timeline);
  gint64 from, to;

  if (trace == NULL || suanli_trace_is_growing (trace))
    return;
  if (!suanli_timeline_get_range (self->timeline, &from, &to))
    {
      if (self->figures != NULL && self->figures->trace == trace)
        suanli_tables_view_set_stats (self->tables_view, trace, self->figures->kernels, self->figures->operators);
      suanli_tables_view_hide_range (self->tables_view);
      set_details (self, "");
    }
  else
    suanli_tables_view_show_range (self->tables_view, trace, from, to);
  flame_follows_range (self);
}

static void
on_slice_selected (SuanliProfilePage *self,
                   guint              track_index,
                   guint              slice_index)
{
  SuanliTrace *trace = suanli_timeline_get_trace (self->timeline);
  SuanliTrack *track = suanli_trace_get_track (trace, track_index);
  SuanliSlice *slice = &g_array_index (track->slices, SuanliSlice, slice_index);
  const SuanliArg *args = suanli_trace_get_args (trace, slice);
  /* Times with the precision the zoom shows (a pixel's worth), not to the nanosecond zoomed out;
   * a duration to at least four digits. */
  gint64 resolution = suanli_timeline_get_resolution (self->timeline);
  g_autofree char *duration = suanli_format_duration_to (slice->duration, MAX (MIN (resolution, slice->duration / 1000), 1));
  g_autoptr(GString) text = g_string_new (suanli_trace_get_string (trace, slice->name));
  const char *category = suanli_trace_get_string (trace, slice->category);
  gboolean linked;
  gint64 first, last;

  suanli_trace_get_time_range (trace, &first, &last);
  {
    g_autofree char *start = suanli_format_duration_to (slice->start - first, resolution);
    g_autofree char *end = suanli_format_duration_to (slice->start + slice->duration - first, resolution);

    g_string_append_printf (text, " · %s", duration);
    if (*category != '\0')
      g_string_append_printf (text, " · %s", category);
    g_string_append_printf (text, " · ");
    g_string_append_printf (text, _("from %s to %s"), start, end);
  }
  linked = append_flows (text, trace, track_index, slice_index);
  for (guint i = 0; i < slice->n_args && i < MAX_ARGS_SHOWN; i++)
    {
      g_autofree char *arg = suanli_trace_format_arg (trace, &args[i]);

      g_string_append (text, i == 0 ? "\n" : " · ");
      g_string_append (text, arg);
    }
  set_details (self, text->str);
  gtk_widget_set_visible (self->jump_button, linked);
}

static void
on_fraction (SuanliTraceLoader *loader,
             GParamSpec        *pspec,
             SuanliProfilePage *self)
{
  gtk_progress_bar_set_fraction (self->progress, suanli_trace_loader_get_fraction (loader));
}

static void
on_loaded (GObject      *source,
           GAsyncResult *result,
           gpointer      data)
{
  g_autoptr(SuanliProfilePage) self = data;
  SuanliTraceLoader *loader = SUANLI_TRACE_LOADER (source);
  g_autoptr(GError) error = NULL;
  g_autoptr(SuanliTrace) trace = suanli_trace_loader_load_finish (loader, result, &error);
  gboolean current = self->loading != NULL && g_task_get_cancellable (G_TASK (result)) == self->loading;

  if (!current)
    return;   /* a newer load replaced this one */
  g_clear_object (&self->loading);
  if (trace == NULL)
    {
      if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        suanli_profile_toast (GTK_WIDGET (self), error->message);
      /* The file dialog lists what it hands over among the recent files; one that cannot be
       * opened is not one to come back to. */
      for (guint i = 0; self->loading_files != NULL && i < self->loading_files->len; i++)
        {
          g_autofree char *uri = g_file_get_uri (g_ptr_array_index (self->loading_files, i));

          gtk_recent_manager_remove_item (gtk_recent_manager_get_default (), uri, NULL);
        }
      show_trace (self);   /* back to what was shown before */
      return;
    }
  for (guint i = 0; self->loading_files != NULL && i < self->loading_files->len; i++)
    {
      g_autofree char *uri = g_file_get_uri (g_ptr_array_index (self->loading_files, i));
      gtk_recent_manager_add_item (gtk_recent_manager_get_default (), uri);
    }
  update_recent_menus (self);
  /* A file read only partly (else an importer's first warning) is said at once; all of them, slices
   * that overlap too, are behind the button beside the title. */
  if (suanli_trace_get_headline_warning (trace) != NULL)
    suanli_profile_toast (GTK_WIDGET (self), suanli_trace_get_headline_warning (trace));
  /* The loader worked the figures out as it read: shown with the trace, not a frame later. */
  g_clear_pointer (&self->figures, suanli_trace_figures_free);
  self->figures = suanli_trace_loader_steal_figures (loader);
  suanli_workspace_set_trace (suanli_page_get_workspace (SUANLI_PAGE (self)), trace);
}

/**
 * suanli_profile_page_open_files:
 *
 * Reads @files as one trace (a group per file) off the main thread, showing progress; when done,
 * the trace replaces the workspace's. A load in progress is cancelled first.
 */
void
suanli_profile_page_open_files (SuanliProfilePage *self,
                                GFile * const     *files,
                                guint              n_files)
{
  g_autoptr(SuanliTraceLoader) loader = NULL;
  g_autofree char *label = NULL;

  g_return_if_fail (SUANLI_IS_PROFILE_PAGE (self));
  if (n_files == 0)
    return;
  if (self->loading != NULL)
    g_cancellable_cancel (self->loading);
  g_clear_object (&self->loading);
  self->loading = g_cancellable_new ();
  loader = suanli_trace_loader_new (files, n_files);
  g_clear_pointer (&self->loading_files, g_ptr_array_unref);
  self->loading_files = g_ptr_array_new_with_free_func (g_object_unref);
  for (guint i = 0; i < n_files; i++)
    g_ptr_array_add (self->loading_files, g_object_ref (files[i]));
  if (n_files == 1)
    {
      g_autofree char *name = g_file_get_basename (files[0]);
      label = g_strdup_printf (_("Reading “%s”…"), name);
    }
  else
    label = g_strdup_printf (ngettext ("Reading %u file…", "Reading %u files…", n_files), n_files);
  gtk_label_set_text (self->loading_label, label);
  gtk_progress_bar_set_fraction (self->progress, 0);
  gtk_stack_set_visible_child_name (self->stack, "loading");
  g_signal_connect_object (loader, "notify::fraction", G_CALLBACK (on_fraction), self, 0);
  suanli_trace_loader_load_async (loader, self->loading, on_loaded, g_object_ref (self));
}

static gboolean
open_pending (gpointer data)
{
  SuanliProfilePage *self = data;
  g_autoptr(GPtrArray) files = g_steal_pointer (&self->pending);

  self->gather_source = 0;
  self->pending = g_ptr_array_new_with_free_func (g_object_unref);
  suanli_profile_page_open_files (self, (GFile * const *) files->pdata, files->len);
  return G_SOURCE_REMOVE;
}

/* Adds @file to those to read; files added within GATHER_MS of each other are read together. */
void
suanli_profile_page_add_file (SuanliProfilePage *self,
                              GFile             *file)
{
  g_ptr_array_add (self->pending, g_object_ref (file));
  g_clear_handle_id (&self->gather_source, g_source_remove);
  self->gather_source = g_timeout_add (GATHER_MS, open_pending, self);
}

gboolean
suanli_profile_page_is_loading (SuanliProfilePage *self)
{
  return self->loading != NULL || self->gather_source != 0 || self->working_out > 0 ||
         suanli_tables_view_is_working (self->tables_view);
}

GtkWidget *
suanli_profile_page_get_timeline (SuanliProfilePage *self)
{
  return GTK_WIDGET (self->timeline);
}

/* Returns: (transfer none): the trace against the plan, under the summary. */
GtkWidget *
suanli_profile_page_get_against_plan_view (SuanliProfilePage *self)
{
  return GTK_WIDGET (self->against_plan_view);
}

/* Returns: (transfer none): the Kernels view, of the trace's (or the range's) tables. */
GtkWidget *
suanli_profile_page_get_tables_view (SuanliProfilePage *self)
{
  return GTK_WIDGET (self->tables_view);
}

/* Returns: (transfer none): the Ranks view (shown for a trace of several ranks). */
GtkWidget *
suanli_profile_page_get_ranks_view (SuanliProfilePage *self)
{
  return GTK_WIDGET (self->ranks_view);
}

/* Returns: (transfer none): the flame graph's view, in front after show_view ("flame"). */
GtkWidget *
suanli_profile_page_get_flame_view (SuanliProfilePage *self)
{
  return GTK_WIDGET (self->flame_view);
}

/* Shows the "timeline" or the "flame" graph. */
void
suanli_profile_page_show_view (SuanliProfilePage *self,
                               const char        *view)
{
  gtk_stack_set_visible_child_name (self->views, view);
}

/* Returns: (transfer none): What If…, the view that replays the trace on other hardware. */
GtkWidget *
suanli_profile_page_get_whatif_view (SuanliProfilePage *self)
{
  return GTK_WIDGET (self->whatif_view);
}

const char *
suanli_profile_page_get_details (SuanliProfilePage *self)
{
  return gtk_label_get_text (self->details_label);
}

const char *
suanli_profile_page_get_summary (SuanliProfilePage *self)
{
  return gtk_label_get_text (self->summary_label);
}

static void
on_open_response (GtkNativeDialog   *dialog,
                  int                response,
                  SuanliProfilePage *self)
{
  g_autoptr(GPtrArray) array = NULL;

  if (response != GTK_RESPONSE_ACCEPT)
    return;
  array = suanli_profile_chosen_files (dialog);
  suanli_profile_page_open_files (self, (GFile * const *) array->pdata, array->len);
}

static void
open_action (GtkWidget  *widget,
             const char *action_name,
             GVariant   *parameter)
{
  SuanliProfilePage *self = SUANLI_PROFILE_PAGE (widget);

  if (self->open_dialog == NULL)
    {
      g_autoptr(GtkFileFilter) traces = gtk_file_filter_new ();
      g_autoptr(GtkFileFilter) everything = gtk_file_filter_new ();

      self->open_dialog = suanli_profile_file_dialog_new (widget, _("Open Traces"), GTK_FILE_CHOOSER_ACTION_OPEN, _("_Open"),
                                                          TRUE, G_CALLBACK (on_open_response), self);
      gtk_file_filter_set_name (traces, _("Traces"));
      for (const char * const *pattern = (const char * const[]) { "*.json", "*.json.gz", "*.gz", "*.folded", "*.suanli-capture",
                                                                  "*.collapsed", "*.txt", "*.sqlite", "*.nsys-rep",
                                                                  "*.qdrep", NULL };
           *pattern != NULL; pattern++)
        gtk_file_filter_add_pattern (traces, *pattern);
      gtk_file_filter_set_name (everything, _("All Files"));
      gtk_file_filter_add_pattern (everything, "*");
      gtk_file_chooser_add_filter (GTK_FILE_CHOOSER (self->open_dialog), traces);
      gtk_file_chooser_add_filter (GTK_FILE_CHOOSER (self->open_dialog), everything);
    }
  {
    /* In a folder, not on Recent (where a path typed after Ctrl+L opens nothing): the last
     * trace's, or the home folder. */
    g_autoptr(GFile) folder = self->loading_files != NULL && self->loading_files->len > 0
                                ? g_file_get_parent (g_ptr_array_index (self->loading_files, 0)) : NULL;

    suanli_profile_set_dialog_folder (self->open_dialog, folder);
  }
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (self->open_dialog));
}

static void
open_recent_action (GtkWidget  *widget,
                    const char *action_name,
                    GVariant   *parameter)
{
  g_autoptr(GFile) file = g_file_new_for_uri (g_variant_get_string (parameter, NULL));

  suanli_profile_page_open_files (SUANLI_PROFILE_PAGE (widget), &file, 1);
}

/* Files dropped on the page open as one trace. */
static gboolean
on_drop (GtkDropTarget     *target,
         const GValue      *value,
         double             x,
         double             y,
         SuanliProfilePage *self)
{
  GSList *list = g_value_get_boxed (value);
  g_autoptr(GPtrArray) files = g_ptr_array_new ();

  for (GSList *l = list; l != NULL; l = l->next)
    g_ptr_array_add (files, l->data);
  suanli_profile_page_open_files (self, (GFile * const *) files->pdata, files->len);
  return files->len > 0;
}

/* The catalog finished loading (a trace given on the command line opens before it has): what the
 * trace ran on can now be found in it. */
static void
on_catalog_changed (SuanliProfilePage *self)
{
  if (self->figures != NULL)
    show_whatif (self, self->figures->trace);
}

static void
suanli_profile_page_constructed (GObject *object)
{
  SuanliProfilePage *self = SUANLI_PROFILE_PAGE (object);
  SuanliWorkspace *workspace = suanli_page_get_workspace (SUANLI_PAGE (self));

  G_OBJECT_CLASS (suanli_profile_page_parent_class)->constructed (object);
  g_signal_connect_object (workspace, "trace-replaced", G_CALLBACK (show_trace), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (suanli_workspace_get_catalog (workspace), "items-changed", G_CALLBACK (on_catalog_changed), self,
                           G_CONNECT_SWAPPED);
  show_trace (self);
  suanli_against_plan_view_set_workspace (self->against_plan_view, suanli_page_get_workspace (SUANLI_PAGE (self)));
}

static void
suanli_profile_page_dispose (GObject *object)
{
  SuanliProfilePage *self = SUANLI_PROFILE_PAGE (object);

  if (self->loading != NULL)
    g_cancellable_cancel (self->loading);
  g_clear_object (&self->loading);
  g_clear_handle_id (&self->gather_source, g_source_remove);
  g_clear_pointer (&self->pending, g_ptr_array_unref);
  g_clear_pointer (&self->loading_files, g_ptr_array_unref);
  suanli_profile_file_dialog_destroy (&self->open_dialog);
  _suanli_profile_page_actions_dispose (self);
  gtk_widget_dispose_template (GTK_WIDGET (self), SUANLI_TYPE_PROFILE_PAGE);
  G_OBJECT_CLASS (suanli_profile_page_parent_class)->dispose (object);
}

/* The bar outlives the drawing area that draws it (the template is taken apart in dispose). */
static void
suanli_profile_page_finalize (GObject *object)
{
  g_clear_pointer (&SUANLI_PROFILE_PAGE (object)->breakdown, suanli_stacked_bar_free);
  g_clear_pointer (&SUANLI_PROFILE_PAGE (object)->figures, suanli_trace_figures_free);
  G_OBJECT_CLASS (suanli_profile_page_parent_class)->finalize (object);
}

static void
suanli_profile_page_class_init (SuanliProfilePageClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->constructed = suanli_profile_page_constructed;
  object_class->dispose = suanli_profile_page_dispose;
  object_class->finalize = suanli_profile_page_finalize;
  g_type_ensure (SUANLI_TYPE_TIMELINE);
  g_type_ensure (SUANLI_TYPE_AGAINST_PLAN_VIEW);
  g_type_ensure (SUANLI_TYPE_FLAME_VIEW);
  g_type_ensure (SUANLI_TYPE_RANKS_VIEW);
  g_type_ensure (SUANLI_TYPE_TABLES_VIEW);
  g_type_ensure (SUANLI_TYPE_WHATIF_VIEW);
  gtk_widget_class_set_template_from_resource (widget_class, "/org/suanli/Suanli/ui/suanli-profile-page.ui");
  _suanli_profile_page_class_actions_init (widget_class);
  gtk_widget_class_bind_template_child (widget_class, SuanliProfilePage, stack);
  gtk_widget_class_bind_template_child (widget_class, SuanliProfilePage, loading_label);
  gtk_widget_class_bind_template_child (widget_class, SuanliProfilePage, progress);
  gtk_widget_class_bind_template_child (widget_class, SuanliProfilePage, title_label);
  gtk_widget_class_bind_template_child (widget_class, SuanliProfilePage, subtitle_label);
  gtk_widget_class_bind_template_child (widget_class, SuanliProfilePage, warnings_button);
  gtk_widget_class_bind_template_child (widget_class, SuanliProfilePage, warnings_label);
  gtk_widget_class_bind_template_child (widget_class, SuanliProfilePage, summary_label);
  gtk_widget_class_bind_template_child (widget_class, SuanliProfilePage, timeline);
  gtk_widget_class_bind_template_child (widget_class, SuanliProfilePage, details_label);
  gtk_widget_class_bind_template_child (widget_class, SuanliProfilePage, details_box);
  gtk_widget_class_bind_template_child (widget_class, SuanliProfilePage, details_separator);
  gtk_widget_class_bind_template_child (widget_class, SuanliProfilePage, summary_toggle);
  gtk_widget_class_bind_template_child (widget_class, SuanliProfilePage, summary_revealer);
  gtk_widget_class_bind_template_child (widget_class, SuanliProfilePage, views);
  gtk_widget_class_bind_template_child (widget_class, SuanliProfilePage, flame_view);
  gtk_widget_class_bind_template_callback (widget_class, on_range_changed);
  gtk_widget_class_bind_template_callback (widget_class, on_row_selected);
  gtk_widget_class_bind_template_callback (widget_class, on_row_activated);
  gtk_widget_class_bind_template_child (widget_class, SuanliProfilePage, timeline_search);
  gtk_widget_class_bind_template_child (widget_class, SuanliProfilePage, search_count_label);
  gtk_widget_class_bind_template_callback (widget_class, on_timeline_search_changed);
  gtk_widget_class_bind_template_callback (widget_class, on_timeline_search_activate);
  gtk_widget_class_bind_template_callback (widget_class, on_timeline_search_previous);
  gtk_widget_class_bind_template_child (widget_class, SuanliProfilePage, jump_button);
  gtk_widget_class_bind_template_child (widget_class, SuanliProfilePage, breakdown_area);
  gtk_widget_class_install_action (widget_class, "profile.open-recent", "s", open_recent_action);
  gtk_widget_class_install_action (widget_class, "profile.none", NULL, NULL);
  gtk_widget_class_bind_template_child (widget_class, SuanliProfilePage, recent_button);
  gtk_widget_class_bind_template_child (widget_class, SuanliProfilePage, empty_recent_button);
  gtk_widget_class_bind_template_child (widget_class, SuanliProfilePage, whatif_view);
  gtk_widget_class_bind_template_callback (widget_class, on_slice_selected);
  gtk_widget_class_bind_template_callback (widget_class, on_view_changed);
  gtk_widget_class_install_action (widget_class, "profile.open", NULL, open_action);
  gtk_widget_class_bind_template_child (widget_class, SuanliProfilePage, ranks_page);
  gtk_widget_class_bind_template_child (widget_class, SuanliProfilePage, tables_view);
  gtk_widget_class_bind_template_callback (widget_class, on_range_shown);
  gtk_widget_class_bind_template_child (widget_class, SuanliProfilePage, against_plan_view);
  gtk_widget_class_bind_template_child (widget_class, SuanliProfilePage, ranks_view);
  gtk_widget_class_bind_template_callback (widget_class, on_compare_ranks);
}

static void
suanli_profile_page_init (SuanliProfilePage *self)
{
  GtkDropTarget *drop = gtk_drop_target_new (GDK_TYPE_FILE_LIST, GDK_ACTION_COPY);

  gtk_widget_init_template (GTK_WIDGET (self));
  self->pending = g_ptr_array_new_with_free_func (g_object_unref);
  self->breakdown = suanli_stacked_bar_new ();
  gtk_drawing_area_set_draw_func (self->breakdown_area, suanli_bar_area_draw, self->breakdown, NULL);
  update_recent_menus (self);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "profile.none", FALSE);
  {
    /* Shift+Enter in the search entry steps back, before the entry takes Enter for itself. */
    GtkEventController *shortcuts = gtk_shortcut_controller_new ();

    gtk_event_controller_set_propagation_phase (shortcuts, GTK_PHASE_CAPTURE);
    gtk_shortcut_controller_add_shortcut (GTK_SHORTCUT_CONTROLLER (shortcuts),
                                          gtk_shortcut_new (gtk_keyval_trigger_new (GDK_KEY_Return, GDK_SHIFT_MASK),
                                                            gtk_named_action_new ("profile.previous-match")));
    gtk_widget_add_controller (GTK_WIDGET (self->timeline_search), shortcuts);
  }
  g_signal_connect (drop, "drop", G_CALLBACK (on_drop), self);
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (drop));
}

GtkWidget *
suanli_profile_page_new (SuanliWorkspace *workspace)
{
  return g_object_new (SUANLI_TYPE_PROFILE_PAGE, "workspace", workspace, NULL);
}
