/* bench-launch-stacks.c — records per second captured with launch stacks on, from the stand-in
 * job (tests/standins/cupti-job.c) with Debian's libtorch_cpu loaded and launching from 40 frames down
 *
 * The real injection library in the stand-in job on the stand-in libcupti, as test-live-standin
 * runs them: START over the control socket, LAUNCHES launches as fast as the job makes them, STOP,
 * and the stream read to its end record. Per run it prints the launches captured a second (each a
 * kernel record, an API record and its launch's stack), how many came with their stack and how
 * many records were dropped; then the medians of RUNS runs.
 *
 * Then what a launch costs the job's launching thread (issue 36: `record --stack-depth`): the same
 * job launching COST_LAUNCHES, idle, with PyTorch's profiler's CUPTI side (the Kineto stand-in:
 * CUPTI's records only, not torch.profiler's own recording of operators, which the stand-in does
 * not have), and captured with stacks of 0, 8 and 32 frames. It asserts nothing of time.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib.h>
#include <glib/gstdio.h>

#include "suanli-bench.h"
#include "suanli-test-standin-job.h"

#define LAUNCHES 200000
#define RUNS     3
#define COST_LAUNCHES 100000

typedef struct
{
  SuanliBench *rate;
  SuanliBench *with_stacks;
} Figures;

static void
capture_once (Figures *figures)
{
  static const char * const options[] = { "--torch", "--depth", "40", NULL };
  g_autoptr(SuanliTestJob) job = suanli_test_job_start (options, NULL);
  g_autoptr(SuanliTestCapture) capture = suanli_test_job_capture (job);
  g_autofree char *command = g_strdup_printf ("launch %d", LAUNCHES);
  gint64 start = g_get_monotonic_time ();
  guint stacked = 0;
  double seconds;

  suanli_test_job_do (job, command);

  suanli_test_capture_finish (capture);
  seconds = (double) (g_get_monotonic_time () - start) / G_USEC_PER_SEC;
  for (guint i = 0; i < capture->stream.kernels->len; i++)
    stacked += suanli_test_stream_has_stack (&capture->stream,
                                             &g_array_index (capture->stream.kernels, SuanliCaptureKernel, i));
  g_print ("  %u of %d launches captured in %.2f s (START to the end record), %u with their stack, %" G_GUINT64_FORMAT
           " records dropped%s\n",
           capture->stream.kernels->len, LAUNCHES, seconds, stacked, capture->stream.dropped,
           capture->stream.ended ? "" : ", no end record");
  suanli_bench_add (figures->rate, capture->stream.kernels->len / seconds);
  suanli_bench_add (figures->with_stacks, 100.0 * stacked / MAX (capture->stream.kernels->len, 1));
  suanli_test_job_exit (job);
}

/* µs a launch takes on the job's thread with @setting: "idle", "kineto", or a stack depth. */
static double
launch_cost (const char *setting)
{
  static const char * const options[] = { "--torch", "--depth", "40", NULL };
  g_autofree char *depth = g_strdup_printf ("SUANLI_STACK_DEPTH=%s", setting);
  gboolean capture = !g_str_equal (setting, "idle") && !g_str_equal (setting, "kineto");
  g_autoptr(SuanliTestJob) job = suanli_test_job_start (options, (const char *[]) { capture ? depth : NULL, NULL });
  g_autoptr(SuanliTestCapture) started = capture ? suanli_test_job_capture (job) : NULL;
  g_autofree char *command = g_strdup_printf ("launch %d", COST_LAUNCHES);
  gint64 start;
  double cost;

  if (g_str_equal (setting, "kineto"))
    suanli_test_job_do (job, "kineto-start");
  suanli_test_job_do (job, "launch 1000");   /* warm */
  start = g_get_monotonic_time ();
  suanli_test_job_do (job, command);
  cost = (double) (g_get_monotonic_time () - start) / COST_LAUNCHES;
  if (started != NULL)
    suanli_test_capture_finish (started);
  suanli_test_job_exit (job);
  return cost;
}

int
main (int    argc,
      char **argv)
{
  g_autofree char *runtime_dir = g_dir_make_tmp ("suanli-bench-stacks-XXXXXX", NULL);
  g_autofree char *sockets = g_build_filename (runtime_dir, "suanli", NULL);
  g_autoptr(SuanliBench) rate = suanli_bench_new ("launches captured a second with launch stacks on (libtorch_cpu "
                                                  "loaded, 40 frames deep)", "launches/s");
  g_autoptr(SuanliBench) with_stacks = suanli_bench_new ("of them with their launch's stack", "%");
  Figures figures = { rate, with_stacks };

  g_setenv ("XDG_RUNTIME_DIR", runtime_dir, TRUE);
  for (guint run = 0; run < RUNS; run++)
    capture_once (&figures);
  suanli_bench_report (rate);
  suanli_bench_report (with_stacks);
  {
    static const char * const settings[] = { "idle", "kineto", "0", "8", "32" };
    static const char * const names[] = {
      "a launch, not captured (libtorch_cpu loaded, 40 frames deep)",
      "a launch, PyTorch's profiler's CUPTI side collecting (the Kineto stand-in)",
      "a launch, captured, --stack-depth 0 (no stacks)", "a launch, captured, --stack-depth 8",
      "a launch, captured, stacks of 32 frames (the default)",
    };

    for (guint i = 0; i < G_N_ELEMENTS (settings); i++)
      {
        g_autoptr(SuanliBench) cost = suanli_bench_new (names[i], "µs");

        for (guint run = 0; run < RUNS; run++)
          suanli_bench_add (cost, launch_cost (settings[i]));
        suanli_bench_report (cost);
      }
  }
  g_rmdir (sockets);
  g_rmdir (runtime_dir);
  return 0;
}
