/* suanli-test-profile-page.h — the profiler page in a real window, with the tests' Kineto trace
 * loaded, and what its tests look at
 *
 * Shared by the profiler page's ui tests (test-profile-page.c, test-profile-timeline.c,
 * test-profile-views.c).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "suanli-against-plan-view.h"
#include "suanli-flame-view.h"
#include "suanli-profile-page.h"
#include "suanli-tables-view.h"
#include "suanli-timeline.h"
#include "suanli-window.h"
#include "suanli-workspace.h"

G_BEGIN_DECLS

typedef struct
{
  SuanliWorkspace   *workspace;
  SuanliWindow      *window;
  SuanliProfilePage *page;
  SuanliTimeline    *timeline;
  char              *directory;
} SuanliTestProfileFixture;

/* The planner autosaves its plan; the plans these tests set must not reach the other tests'
 * windows (or their screenshots), so each program keeps its state in a folder of its own, made
 * (and set as XDG_STATE_HOME) before GTK starts, and removed when the tests have run. */
void                   suanli_test_profile_init           (int                      *argc,
                                                           char                   ***argv);
int                    suanli_test_profile_run            (void);

/* A window on the profiler page, the tests' Kineto trace loaded. */
void                   suanli_test_profile_set_up         (SuanliTestProfileFixture *fixture,
                                                           gconstpointer             data);
void                   suanli_test_profile_tear_down      (SuanliTestProfileFixture *fixture,
                                                           gconstpointer             data);
/* Whether @data, a SuanliTestProfileFixture, has a trace loaded. */
gboolean               suanli_test_profile_loaded         (gpointer                  data);

/* The time window's span, in ns. */
gint64                 suanli_test_profile_span           (SuanliTestProfileFixture *fixture);
SuanliAgainstPlanView *suanli_test_profile_against_plan   (SuanliTestProfileFixture *fixture);
SuanliTablesView      *suanli_test_profile_tables_view    (SuanliTestProfileFixture *fixture);
SuanliFlameView       *suanli_test_profile_flame_view     (SuanliTestProfileFixture *fixture);
/* Whether @data, a SuanliFlameView, has worked out its graph. */
gboolean               suanli_test_flame_ready            (gpointer                  data);
/* The flame graph is worked out on a worker thread: wait for it. */
void                   suanli_test_profile_wait_for_flame (SuanliTestProfileFixture *fixture);
void                   suanli_test_profile_show_gpu_flame (SuanliTestProfileFixture *fixture);
/* The x of @time_us on the timeline as it is now. */
double                 suanli_test_profile_x_of           (SuanliTestProfileFixture *fixture,
                                                           double                    time_us);
/* Looks down the column at @x for a slice named @name, and selects it as a click does; its y, or -1. */
double                 suanli_test_profile_find_row       (SuanliTestProfileFixture *fixture,
                                                           double                    x,
                                                           const char               *name);
/* Whether @widget is an entry whose placeholder is @placeholder (a const char *). */
gboolean               suanli_test_has_placeholder        (GtkWidget                *widget,
                                                           gconstpointer             placeholder);
/* The search entry whose placeholder is @placeholder, under @root. */
GtkWidget             *suanli_test_find_search_entry      (GtkWidget                *root,
                                                           const char               *placeholder);

G_END_DECLS
