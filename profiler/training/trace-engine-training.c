/* trace-engine-training.c — the workload the trace engine's optimized build is trained on
 *
 * The build compiles the trace engine (the JSON walk, the importers, the figures) twice: once
 * instrumented, linked into this program, which reads each trace it is given as `suanli-cli trace
 * summary` would (on one thread, then on the machine's) and so records which branches run and how
 * often; then optimized with that record (GCC's profile-guided optimization), which lays out and
 * inlines the code for the paths real traces take. See build-aux/train-trace-engine.sh.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <gio/gio.h>

#include "suanli-analysis.h"
#include "suanli-import.h"
#include "suanli-trace-figures.h"

/* One reading of @path and its figures; FALSE (with a message) where the trace is not read. */
static gboolean
read_once (const char *path)
{
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(SuanliTrace) trace = suanli_trace_new ();
  g_autoptr(GError) error = NULL;
  g_autoptr(SuanliTraceFigures) figures = NULL;
  g_autoptr(GArray) ranks = NULL;
  SuanliImportStats stats = { 0 };
  gboolean read = suanli_import_file (trace, file, &stats, NULL, &error);

  suanli_import_stats_clear (&stats);
  if (!read)
    {
      g_printerr ("trace-engine-training: %s: %s\n", path, error->message);
      return FALSE;
    }
  figures = suanli_trace_figures_new (trace);
  ranks = suanli_analysis_ranks_from (trace, figures->gpus, figures->steps);
  return TRUE;
}

int
main (int    argc,
      char **argv)
{
  if (argc < 2)
    {
      g_printerr ("usage: trace-engine-training TRACE…\n");
      return 2;
    }
  for (const char *threads = "1"; threads != NULL; threads = g_str_equal (threads, "1") ? "2" : NULL)
    {
      g_setenv ("SUANLI_IMPORT_THREADS", threads, TRUE);
      for (int i = 1; i < argc; i++)
        if (!read_once (argv[i]))
          return 1;
    }
  return 0;
}
