/* suanli-ranks-view.h — the ranks of a trace read from several files: a row per rank with its
 * steps and GPU time, stragglers marked, and which rank's flame graph to see against which
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "suanli-analysis.h"

G_BEGIN_DECLS

#define SUANLI_TYPE_RANKS_VIEW (suanli_ranks_view_get_type ())

G_DECLARE_FINAL_TYPE (SuanliRanksView, suanli_ranks_view, SUANLI, RANKS_VIEW, GtkWidget)

/* The view's signal:
 *
 *  "compare"  void (*) (SuanliRanksView *view, guint group, guint baseline_group, const char *description,
 *                       gpointer user_data)
 *             Show Difference: rank @group's flame graph against @baseline_group's (groups of the
 *             trace), told as @description ("Rank 3 against Rank 1"). */

GtkWidget *suanli_ranks_view_new       (void);
void       suanli_ranks_view_set_ranks (SuanliRanksView *self,
                                        SuanliTrace     *trace,
                                        GArray          *ranks);
gboolean   suanli_ranks_view_has_ranks (SuanliRanksView *self);

G_END_DECLS
