/* suanli-test-wait.h — waiting for a condition, never for a fixed time
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef gboolean (*SuanliTestCondition) (gpointer data);

guint    suanli_test_patience_ms (void);
gboolean suanli_test_wait_until  (SuanliTestCondition  condition,
                                  gpointer             data,
                                  guint                timeout_ms);
void     suanli_test_await_at    (SuanliTestCondition  condition,
                                  gpointer             data,
                                  const char          *what,
                                  const char          *file,
                                  int                  line,
                                  const char          *function);

/* Runs the main loop until @condition (data) holds; fails the test, naming the condition, when it
 * has not held within suanli_test_patience_ms(). */
gboolean suanli_test_file_exists (gpointer path);

#define suanli_test_await(condition, data) \
  suanli_test_await_at ((SuanliTestCondition) (condition), (data), #condition, __FILE__, __LINE__, G_STRFUNC)

G_END_DECLS
