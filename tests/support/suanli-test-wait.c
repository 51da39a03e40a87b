/* suanli-test-wait.c — waiting for a condition, never for a fixed time
 *
 * A test that waits a fixed time for a timer, a thread or another process passes on an idle
 * machine and fails on a busy one. These wait for the thing itself: the condition is checked
 * between iterations of the default main context (so timers, idles and GTK's frames run), with one
 * generous limit for the whole suite. On a machine busier still, SUANLI_TEST_PATIENCE_S raises it.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <stdlib.h>

#include "suanli-test-wait.h"

#define DEFAULT_PATIENCE_S 60

/* How long any one wait may take before the test fails, in milliseconds. */
guint
suanli_test_patience_ms (void)
{
  const char *text = g_getenv ("SUANLI_TEST_PATIENCE_S");
  long seconds = text != NULL ? strtol (text, NULL, 10) : 0;

  return (guint) (seconds > 0 && seconds < 3600 ? seconds : DEFAULT_PATIENCE_S) * 1000;
}

/* Runs the main loop until @condition holds or @timeout_ms passes; returns whether it held. */
gboolean
suanli_test_wait_until (SuanliTestCondition condition,
                        gpointer            data,
                        guint               timeout_ms)
{
  gint64 end = g_get_monotonic_time () + (gint64) timeout_ms * 1000;

  while (!condition (data))
    {
      if (g_get_monotonic_time () >= end)
        return FALSE;
      if (!g_main_context_iteration (NULL, FALSE))
        g_usleep (1000);
    }
  return TRUE;
}

/* A condition: the file at @path (a char *) exists, a job's control socket say. */
gboolean
suanli_test_file_exists (gpointer path)
{
  return g_file_test (path, G_FILE_TEST_EXISTS);
}

void
suanli_test_await_at (SuanliTestCondition  condition,
                      gpointer             data,
                      const char          *what,
                      const char          *file,
                      int                  line,
                      const char          *function)
{
  guint patience = suanli_test_patience_ms ();
  g_autofree char *message = NULL;

  if (suanli_test_wait_until (condition, data, patience))
    return;
  message = g_strdup_printf ("waited %u s for %s, which never held", patience / 1000, what);
  g_assertion_message (G_LOG_DOMAIN, file, line, function, message);
}
