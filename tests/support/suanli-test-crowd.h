/* suanli-test-crowd.h — strangers crowding a suanli-agent from loopback, for the tests and benches
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef struct _SuanliTestCrowd SuanliTestCrowd;

int              suanli_test_connect_loopback (guint            port);
gboolean         suanli_test_ask_bare         (guint            port,
                                               const char      *path);
guint64          suanli_test_process_rss      (int              pid);

SuanliTestCrowd *suanli_test_crowd_start      (guint            port,
                                               guint            silent,
                                               gboolean         asking);
guint            suanli_test_crowd_asked      (SuanliTestCrowd *crowd);
guint            suanli_test_crowd_reopened   (SuanliTestCrowd *crowd);
void             suanli_test_crowd_stop       (SuanliTestCrowd *crowd);

G_END_DECLS
