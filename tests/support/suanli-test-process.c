/* suanli-test-process.c — running the built command-line tools (and poppler's) from a test
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <gio/gio.h>

#include "suanli-test-process.h"

void
suanli_test_run_clear (SuanliTestRun *run)
{
  g_clear_pointer (&run->out, g_free);
  g_clear_pointer (&run->err, g_free);
}

/* Runs @argv (NULL-terminated, found on PATH) in C.UTF-8 with @language ("" for untranslated), and
 * waits for it to exit. */
void
suanli_test_run (SuanliTestRun      *run,
                 const char         *language,
                 const char * const *argv)
{
  g_autoptr(GSubprocessLauncher) launcher = g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDOUT_PIPE |
                                                                      G_SUBPROCESS_FLAGS_STDERR_PIPE);
  g_autoptr(GSubprocess) process = NULL;
  g_autoptr(GError) error = NULL;

  g_subprocess_launcher_setenv (launcher, "LANGUAGE", language, TRUE);
  g_subprocess_launcher_setenv (launcher, "LC_ALL", "C.UTF-8", TRUE);
  process = g_subprocess_launcher_spawnv (launcher, argv, &error);
  g_assert_no_error (error);
  g_subprocess_communicate_utf8 (process, NULL, NULL, &run->out, &run->err, &error);
  g_assert_no_error (error);
  g_assert_true (g_subprocess_get_if_exited (process));
  run->status = g_subprocess_get_exit_status (process);
}

/* Runs the built suanli-cli (SUANLI_CLI) with @args (NULL-terminated). */
void
suanli_test_run_cli (SuanliTestRun      *run,
                     const char         *language,
                     const char * const *args)
{
  g_autoptr(GPtrArray) argv = g_ptr_array_new ();
  const char *cli = g_getenv ("SUANLI_CLI");

  g_assert_nonnull (cli);
  g_ptr_array_add (argv, (char *) cli);
  for (guint i = 0; args[i] != NULL; i++)
    g_ptr_array_add (argv, (char *) args[i]);
  g_ptr_array_add (argv, NULL);
  suanli_test_run (run, language, (const char * const *) argv->pdata);
}

/* Sets the variable @name of this process's environment (which the tools run inherit) to @value,
 * or unsets it when @value is NULL: puts back what a test saved. */
void
suanli_test_put_env (const char *name,
                     const char *value)
{
  if (value != NULL)
    g_setenv (name, value, TRUE);
  else
    g_unsetenv (name);
}

/* What `suanli-cli trace summary --json` says of @path, all of it (it must say it). */
char *
suanli_test_summary_json (const char *path)
{
  g_auto(SuanliTestRun) summary = { 0 };

  suanli_test_run_cli (&summary, "en", (const char *[]) { "trace", "summary", "--json", path, NULL });
  g_test_message ("summary: %s", summary.out);
  g_assert_cmpint (summary.status, ==, 0);
  return g_steal_pointer (&summary.out);
}
