/* test-trace-fixtures.c — the real Kineto fixtures, imported and analysed
 *
 * Their figures were computed independently with Python's json and decimal modules and are
 * written here as literals.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>

#include "suanli-analysis.h"
#include "suanli-flame.h"
#include "suanli-import.h"
#include "suanli-test-fixtures.h"
#include "suanli-test-import.h"


/* ---- the real Kineto fixtures ------------------------------------------------------------- */

typedef struct
{
  const char *file;
  guint64     events;
  guint64     slices;
  gint64      device;      /* -1: no GPU */
  gint64      kernel_ns, busy_ns, comm_ns, memcpy_ns, memset_ns, idle_ns;
  guint64     kernels;     /* kernel slices */
  gint64      gpu_work_ns; /* durations of kernels, copies and memsets, summed */
  guint       warnings;    /* critical_path: its stream syncs overlap kernels on the stream's row */
  gint64      host_wait_ns, short_gap_ns, other_idle_ns;   /* gaps before work launched after they
                                                            * began; under 30 µs; the rest */
  guint64     launches;                       /* GPU work linked to a CPU launch */
  gint64      launch_median_ns;
  guint       steps;                          /* ProfilerStep#N on CPU threads */
  gint64      first_step_kernel_ns;
  guint64     first_step_kernels;
  guint64     nccl_kernels;
} Fixture;

/* Computed with Python from the files (decimal timestamps, unions of intervals per category; the
 * idle split, launches by correlation, steps and kernels inside them by the rules in
 * suanli-analysis.c, written again in Python). */
static const Fixture fixtures[] = {
  { "amd_trace__mi250_minitoy_train_ROCm6_2_kineto.json.gz", 220, 113, 2,
    110881, 149042, 0, 38161, 0, 8762845, 14, 149042, 0,
    8762845, 0, 0, 16, 13357, 2, 110881, 14, 0 },
  { "cpu_only__rank-34.Jul_15_10_52_41.1074.pt.trace.json.gz", 30, 16, -1, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 1, 0, 0, 0 },
  { "critical_path__simple_add__trace.json.gz", 1348, 838, 0,
    10670000, 49758000, 0, 39080000, 8000, 15975817000, 79, 49816000, 1,
    15975716000, 101000, 0, 98, 26000, 0, 0, 0, 0 },
  { "timeline_analysis__sampled_rank-0.json.gz", 4855, 4811, 0,
    547303000, 547656000, 396199000, 1297000, 28000, 675191000, 1154, 607844000, 0,
    362945000, 2708000, 309538000, 1204, 10846000, 2, 278511000, 577, 10 },
  { "triton_example__triton_example.json.gz", 71, 8, 0, 1760, 1760, 0, 0, 0, 0, 1, 1760, 0,
    0, 0, 0, 1, 45426, 1, 1760, 1, 0 },
};

static void
test_fixtures (void)
{
  for (guint i = 0; i < G_N_ELEMENTS (fixtures); i++)
    {
      const Fixture *expected = &fixtures[i];
      g_autofree char *path = suanli_test_fixture_path (expected->file);
      g_autoptr(GFile) file = g_file_new_for_path (path);
      g_autoptr(SuanliTrace) trace = suanli_trace_new ();
      g_autoptr(GArray) gpus = NULL;
      g_autoptr(GError) error = NULL;
      SuanliImportStats stats = { 0 };

      g_test_message ("%s", expected->file);
      g_assert_true (suanli_import_file (trace, file, &stats, NULL, &error));
      g_assert_no_error (error);
      g_assert_cmpuint (stats.events, ==, expected->events);
      g_assert_cmpuint (suanli_trace_get_n_slices (trace), ==, expected->slices);
      g_assert_cmpuint (suanli_trace_get_warnings (trace)->len, ==, expected->warnings);
      g_assert_cmpuint (GPOINTER_TO_SIZE (g_hash_table_lookup (stats.by_category, "kernel")), ==, expected->kernels);
      gpus = suanli_analysis_gpu_time (trace);
      if (expected->device < 0)
        g_assert_cmpuint (gpus->len, ==, 0);
      else
        {
          SuanliGpuTime *gpu = &g_array_index (gpus, SuanliGpuTime, 0);

          g_assert_cmpuint (gpus->len, ==, 1);
          g_assert_cmpint (gpu->device, ==, expected->device);
          g_assert_cmpint (gpu->kernel_ns, ==, expected->kernel_ns);
          g_assert_cmpint (gpu->busy_ns, ==, expected->busy_ns);
          g_assert_cmpint (gpu->comm_ns, ==, expected->comm_ns);
          g_assert_cmpint (gpu->memcpy_ns, ==, expected->memcpy_ns);
          g_assert_cmpint (gpu->memset_ns, ==, expected->memset_ns);
          g_assert_cmpint (gpu->idle_ns, ==, expected->idle_ns);
          g_assert_cmpint (gpu->host_wait_ns, ==, expected->host_wait_ns);
          g_assert_cmpint (gpu->short_gap_ns, ==, expected->short_gap_ns);
          g_assert_cmpint (gpu->other_idle_ns, ==, expected->other_idle_ns);
        }
      {
        g_autoptr(GArray) delays = suanli_analysis_launch_delays (trace);
        g_autoptr(GArray) steps = suanli_analysis_steps (trace);
        g_autoptr(GArray) collectives = suanli_analysis_collectives (trace);
        guint64 nccl_kernels = 0;

        g_assert_cmpuint (delays->len, ==, expected->launches > 0 ? 1 : 0);
        if (expected->launches > 0)
          {
            g_assert_cmpuint (g_array_index (delays, SuanliLaunchDelays, 0).count, ==, expected->launches);
            g_assert_cmpint (g_array_index (delays, SuanliLaunchDelays, 0).median_ns, ==, expected->launch_median_ns);
          }
        g_assert_cmpuint (steps->len, ==, expected->steps);
        if (expected->steps > 0)
          {
            g_assert_cmpint (g_array_index (steps, SuanliStepStats, 0).kernel_ns, ==, expected->first_step_kernel_ns);
            g_assert_cmpuint (g_array_index (steps, SuanliStepStats, 0).kernels, ==, expected->first_step_kernels);
          }
        for (guint c = 0; c < collectives->len; c++)
          nccl_kernels += g_array_index (collectives, SuanliCollectiveStats, c).count;
        g_assert_cmpuint (nccl_kernels, ==, expected->nccl_kernels);
      }
      {
        g_autoptr(SuanliFlame) flame = suanli_flame_new (trace, SUANLI_FLAME_GPU, G_MININT64, G_MAXINT64);

        /* Every kernel, copy and memset once, summed: Python's sum of their durations. */
        g_assert_cmpint (suanli_flame_get_node (flame, 0)->total, ==, expected->gpu_work_ns);
      }
      suanli_import_stats_clear (&stats);
    }
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/trace/fixtures", test_fixtures);
  return g_test_run ();
}
