/* bench-report.c — writing a PDF report of ten pages or more, with its charts, flame graph and timeline
 *
 * Prints the median time to write it (aim: under 1 s), its pages and its size.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <stdlib.h>
#include <glib/gstdio.h>

#include "suanli-bench.h"
#include "suanli-catalog.h"
#include "suanli-report.h"

#define STEPS   20
#define KERNELS 400   /* per step */

/* A trace of STEPS training steps: per step a CPU operator per kernel, its launch, and the kernel on
 * one of 64 names, with an all-reduce at the end. */
static SuanliTrace *
make_trace (void)
{
  SuanliTrace *trace = suanli_trace_new ();
  SuanliString category = suanli_trace_intern (trace, "cpu_op", -1);
  SuanliString kernel_category = suanli_trace_intern (trace, "kernel", -1);
  SuanliString step_category = suanli_trace_intern (trace, "user_annotation", -1);
  SuanliTrack *cpu = suanli_trace_ensure_track (trace, SUANLI_TRACK_THREAD, 100, 100, 0, NULL);
  SuanliTrack *gpu = suanli_trace_ensure_track (trace, SUANLI_TRACK_GPU_STREAM, 0, 7, 0, NULL);
  SuanliString names[64], operators[8], allreduce = suanli_trace_intern (trace, "ncclDevKernel_AllReduce_Sum_bf16_RING_LL", -1);

  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    {
      g_autofree char *name = g_strdup_printf ("sm90_xmma_gemm_bf16bf16_bf16f32_f32_tn_n_tilesize%ux%u_kernel", 64 + i, 128);
      names[i] = suanli_trace_intern (trace, name, -1);
    }
  for (guint i = 0; i < G_N_ELEMENTS (operators); i++)
    {
      g_autofree char *name = g_strdup_printf ("aten::op_%u", i);
      operators[i] = suanli_trace_intern (trace, name, -1);
    }
  for (guint s = 0; s < STEPS; s++)
    {
      gint64 base = (gint64) s * 100000000;
      g_autofree char *step_name = g_strdup_printf ("ProfilerStep#%u", s + 1);
      SuanliSlice step = { base, 99000000, suanli_trace_intern (trace, step_name, -1), step_category, G_MAXUINT32, 0, 0, 0 };

      g_array_append_val (cpu->slices, step);
      for (guint k = 0; k < KERNELS; k++)
        {
          SuanliSlice op = { base + 10000 + (gint64) k * 200000, 150000, operators[k % 8], category, G_MAXUINT32, 0, 0, 0 };
          SuanliSlice kernel = { base + 50000 + (gint64) k * 200000, 180000, names[(k * 7) % 64], kernel_category,
                                 G_MAXUINT32, 0, 0, 0 };

          g_array_append_val (cpu->slices, op);
          g_array_append_val (gpu->slices, kernel);
        }
      {
        SuanliSlice reduce = { base + 85000000, 10000000, allreduce, kernel_category, G_MAXUINT32, 0, 0, 0 };

        g_array_append_val (gpu->slices, reduce);
      }
    }
  suanli_trace_finish (trace);
  return trace;
}

typedef struct
{
  SuanliReport *report;
  char         *path;
  guint         pages;
} Run;

static void
write_report (gpointer data)
{
  Run *run = data;
  g_autoptr(GError) error = NULL;

  if (!suanli_report_write (run->report, run->path, &run->pages, &error))
    g_error ("%s", error->message);
}

int
main (int    argc,
      char **argv)
{
  g_autoptr(GPtrArray) problems = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GPtrArray) errors = g_ptr_array_new_with_free_func ((GDestroyNotify) suanli_plan_issue_free);
  g_autoptr(GPtrArray) warnings = g_ptr_array_new_with_free_func ((GDestroyNotify) suanli_plan_issue_free);
  g_autoptr(SuanliCatalog) catalog = suanli_catalog_new ();
  g_autoptr(SuanliPlan) plan = suanli_plan_new_from_data (
    "{\"schema\": \"suanli-plan/1\", \"name\": \"Seventy B on 256\", \"model\": {\"preset\": \"llama-2-70b\"},"
    " \"system\": {\"accelerator\": \"nvidia-h100-sxm\", \"gpus_per_node\": 8, \"nodes\": 32},"
    " \"parallelism\": {\"tensor\": 8, \"pipeline\": 4, \"zero_stage\": 1}, \"techniques\": {\"recompute\": \"selective\"},"
    " \"assumptions\": {\"price_per_gpu_hour\": 2.5}}", -1, "bench.suanli-plan", NULL);
  g_autoptr(SuanliTrace) trace = make_trace ();
  g_autoptr(SuanliBench) bench = suanli_bench_new ("report of a training plan with a trace", "ms");
  g_autofree char *directory = g_dir_make_tmp ("suanli-bench-report-XXXXXX", NULL);
  Run run = { NULL, g_build_filename (directory, "report.pdf", NULL), 0 };
  SuanliPlanInputs inputs;
  GStatBuf info;

  suanli_catalog_load_builtin (catalog, problems);
  g_assert (plan != NULL);
  if (!suanli_plan_inputs_resolve (plan, catalog, &inputs, errors, warnings))
    g_error ("the benchmark's plan does not resolve");
  run.report = suanli_report_new (plan, catalog, &inputs, warnings);
  /* Two pinned plans beside it: the same on H200 and on 64 GPUs fewer. */
  for (guint i = 0; i < 2; i++)
    {
      SuanliPlanInputs other = inputs;
      SuanliEstimate estimate;

      other.gpus = inputs.gpus / (i + 1);
      other.data = inputs.data / (i + 1);
      suanli_estimate_compute (&other, &estimate);
      suanli_report_add_comparison (run.report, i == 0 ? "Same" : "Half the GPUs", &other, &estimate);
    }
  suanli_report_set_trace (run.report, trace, "bench-rank0.json");
  g_print ("trace: %u steps, %" G_GUINT64_FORMAT " slices\n", STEPS, suanli_trace_get_n_slices (trace));
  suanli_bench_time (bench, 5, write_report, &run);
  g_assert (g_stat (run.path, &info) == 0);
  g_print ("%u pages, %.0f kB\n", run.pages, info.st_size / 1e3);
  suanli_bench_report (bench);
  g_unlink (run.path);
  g_rmdir (directory);
  g_free (run.path);
  suanli_report_free (run.report);
  return EXIT_SUCCESS;
}
