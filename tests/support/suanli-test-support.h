/* suanli-test-support.h — helpers for the widget tests: frames, screenshots, finding widgets
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "suanli-test-fixtures.h"
#include "suanli-test-wait.h"

G_BEGIN_DECLS

void        suanli_test_init_gtk              (int         *argc,
                                               char      ***argv);
const char *suanli_test_language_tag          (void);
void        suanli_test_wait_for_frame        (GtkWidget   *widget);
void        suanli_test_settle                (GtkWidget   *widget);
void        suanli_test_await_label           (GtkWidget   *root,
                                               const char  *text);
void        suanli_test_await_no_label        (GtkWidget   *root,
                                               const char  *text);
void        suanli_test_await_unmapped        (GtkWidget   *widget);
char       *suanli_test_screenshot            (GtkWidget   *widget,
                                               const char  *name);
void        suanli_test_screenshot_styles     (GtkWidget   *widget,
                                               const char  *what);
GtkWidget  *suanli_test_find_label            (GtkWidget   *root,
                                               const char  *text);
typedef gboolean (*SuanliTestWidgetMatch) (GtkWidget     *widget,
                                          gconstpointer  data);

GtkWidget  *suanli_test_find_matching         (GtkWidget   *root,
                                               SuanliTestWidgetMatch matches,
                                               gconstpointer data);
GtkWidget  *suanli_test_find_named            (GtkWidget   *root,
                                               const char  *name);
GtkWidget  *suanli_test_find_widget           (GtkWidget   *root,
                                               GType        type);
GdkTexture *suanli_test_render                (GtkWidget   *widget);
guint32     suanli_test_pixel                 (GdkTexture  *texture,
                                               int          x,
                                               int          y);
void        suanli_test_click                 (GtkWidget   *widget,
                                               double       x,
                                               double       y);
void        suanli_test_point_at              (GtkWidget   *widget,
                                               double       x,
                                               double       y);
void        suanli_test_key                   (GtkWidget   *widget,
                                               const char  *keys);
void        suanli_test_drag                  (GtkWidget   *widget,
                                               double       x0,
                                               double       y0,
                                               double       x1,
                                               double       y1);
void        suanli_test_press                 (const char * const *keys);
void        suanli_test_scroll                (GtkWidget   *widget,
                                               double       x,
                                               double       y,
                                               int          clicks);
void        suanli_test_select_choice         (GtkWidget   *choice,
                                               const char  *title);
void        suanli_test_destroy_window        (GtkWindow   *window);
void        suanli_test_await_finalized       (gpointer     object);
char       *suanli_test_write_kineto_trace    (const char  *directory);

/* What suanli_test_write_kineto_trace() writes, for tests that point at it (times in µs). */
#define SUANLI_TEST_TRACE_SPAN_US   799000   /* the second step ends there */
#define SUANLI_TEST_TRACE_SPIKE_US  390000

G_END_DECLS
