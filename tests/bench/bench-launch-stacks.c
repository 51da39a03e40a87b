/* bench-launch-stacks.c — records per second captured with launch stacks on, from the stand-in
 * job (tests/standins/cupti-job.c) with Debian's libtorch_cpu loaded and launching from 40 frames down
 *
 * The real injection library in the stand-in job on the stand-in libcupti, as test-live-standin
 * runs them: START over the control socket, LAUNCHES launches as fast as the job makes them, STOP,
 * and the stream read to its end record. Per run it prints the launches captured a second (each a
 * kernel record, an API record and its launch's stack), how many came with their stack and how
 * many records were dropped; then the medians of RUNS runs. It asserts nothing of time.
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
  g_rmdir (sockets);
  g_rmdir (runtime_dir);
  return 0;
}
