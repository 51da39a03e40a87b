/* suanli-profile-page-private.h — the profiler page's fields, for the files that make it up
 *
 * suanli-profile-page.c shows the trace; suanli-profile-page-actions.c holds its actions and their
 * dialogs. Only these two include this header.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <adwaita.h>

#include "suanli-against-plan-view.h"
#include "suanli-bar-area.h"
#include "suanli-flame-view.h"
#include "suanli-page.h"
#include "suanli-profile-page.h"
#include "suanli-ranks-view.h"
#include "suanli-tables-view.h"
#include "suanli-timeline.h"
#include "suanli-trace-figures.h"
#include "suanli-whatif-view.h"

G_BEGIN_DECLS

struct _SuanliProfilePage
{
  SuanliPage            parent_instance;

  GtkStack             *stack;
  GtkLabel             *loading_label;
  GtkProgressBar       *progress;
  GtkLabel             *title_label;
  GtkLabel             *subtitle_label;
  GtkWidget            *warnings_button;
  GtkLabel             *warnings_label;
  GtkLabel             *summary_label;
  SuanliTimeline       *timeline;
  GtkLabel             *details_label;
  GtkWidget            *details_box;
  GtkWidget            *details_separator;
  GtkToggleButton      *summary_toggle;
  GtkRevealer          *summary_revealer;
  gboolean              summary_folded;  /* What If folded the summary away, to show it again after */
  GtkStack             *views;
  SuanliFlameView      *flame_view;
  SuanliTablesView     *tables_view;
  SuanliWhatifView     *whatif_view;
  GtkSearchEntry       *timeline_search;
  GtkLabel             *search_count_label;

  GCancellable         *loading;
  GPtrArray            *pending;         /* of GFile, gathered before a load */
  guint                 gather_source;
  GtkFileChooserNative *open_dialog;
  GtkFileChooserNative *export_dialog;
  GtkWindow            *live_dialog;     /* Live…, once opened; it lives as long as it is open */
  GtkMenuButton        *recent_button;
  GtkMenuButton        *empty_recent_button;
  GPtrArray            *loading_files;   /* of GFile: what the load in progress reads */
  GtkWidget            *jump_button;
  GtkDrawingArea       *breakdown_area;
  SuanliStackedBar     *breakdown;       /* where GPU time went, all GPUs together */
  SuanliTraceFigures   *figures;         /* of the trace shown, once worked out */
  guint                 working_out;     /* figures on their way from worker threads */
  GtkStackPage         *ranks_page;
  SuanliAgainstPlanView *against_plan_view;
  SuanliRanksView      *ranks_view;
};

void _suanli_profile_page_class_actions_init (GtkWidgetClass    *widget_class);
void _suanli_profile_page_actions_dispose    (SuanliProfilePage *self);

G_END_DECLS
