/* test-inject-nvtx.c — NVTX ranges through the injection library: a job started with `suanli-cli
 * run` hands its NVTX calls to libsuanli-inject.so, which keeps an idle job free of libcupti
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>
#include <glib.h>
#include <gio/gio.h>
#include <glib/gstdio.h>

static char *runtime_dir;

/* Runs the NVTX stand-in under `suanli-cli run` with @input on its standard input; its answers. */
static char *
run_nvtx_job (const char *input)
{
  g_autoptr(GSubprocessLauncher) launcher =
    g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDIN_PIPE | G_SUBPROCESS_FLAGS_STDOUT_PIPE);
  g_autoptr(GSubprocess) job = NULL;
  g_autoptr(GError) error = NULL;
  char *output = NULL;

  g_subprocess_launcher_setenv (launcher, "SUANLI_QUIET", "1", TRUE);
  g_subprocess_launcher_unsetenv (launcher, "NVTX_INJECTION64_PATH");
  job = g_subprocess_launcher_spawn (launcher, &error, g_getenv ("SUANLI_CLI"), "run", "--",
                                     g_getenv ("SUANLI_NVTX_JOB"), NULL);
  g_assert_no_error (error);
  g_subprocess_communicate_utf8 (job, input, NULL, &output, NULL, &error);
  g_assert_no_error (error);
  g_subprocess_wait_check (job, NULL, &error);
  g_assert_no_error (error);
  g_test_message ("the job answered:\n%s", output);
  return output;
}

/* NVTX reaches the library's own handlers (they count the depth: NVTX without an injection answers
 * -2 to every push), and nothing loads libcupti into a job nobody captures. */
static void
test_idle_job_has_no_cupti (void)
{
  g_autofree char *output = run_nvtx_job ("push step\npush forward\npop\nmark checkpoint\n"
                                          "domain training backward\npop\nmaps\n");

  g_assert_nonnull (strstr (output, "pushed 0\npushed 1\npopped 1\nmarked\ndomain popped 1\npopped 0\n"));
  g_assert_nonnull (strstr (output, "no cupti\n"));
  g_assert_null (strstr (output, "cupti loaded"));
}

int
main (int    argc,
      char **argv)
{
  int status;

  g_test_init (&argc, &argv, NULL);
  runtime_dir = g_dir_make_tmp ("suanli-nvtx-XXXXXX", NULL);
  g_setenv ("XDG_RUNTIME_DIR", runtime_dir, TRUE);
  g_test_add_func ("/inject-nvtx/idle-job-has-no-cupti", test_idle_job_has_no_cupti);
  status = g_test_run ();
  g_rmdir (g_build_filename (runtime_dir, "suanli", NULL));
  g_rmdir (runtime_dir);
  return status;
}
