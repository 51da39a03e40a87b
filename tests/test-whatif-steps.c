/* test-whatif-steps.c — the step What If projects: the launch queue's back-pressure on a GPU-bound
 * trace (a faster GPU shortens the step, a slower one lengthens it), the what-ifs that claim a
 * bound keeping it on every fixture and on traces made here, and one step (the mean of the periods
 * between the steps' starts) with class times that are shares of it
 *
 * The traces made here are Kineto JSON, read by the importer as a file would be.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>

#include "suanli-analysis.h"
#include "suanli-import.h"
#include "suanli-replay-graph.h"
#include "suanli-whatif.h"
#include "suanli-test-fixtures.h"
#include "suanli-test-import.h"

/* ---- a Kineto trace written here --------------------------------------------------------------- */

/* What a made trace's steps do; times in µs, as Kineto writes them. */
typedef struct
{
  guint   steps;
  guint   kernels;        /* per step */
  gint64  kernel_us;
  gint64  call_us;        /* a cudaLaunchKernel's own time */
  gint64  gap_us;         /* the host's work between two launches */
  gint64  before_us;      /* the host's work at a step's start, before its first launch */
  guint   nccl_every;     /* every n-th kernel an NCCL all-reduce on a second stream, 0: none */
  gboolean sync_at_end;   /* a cudaDeviceSynchronize ends each step (loss.item()) */
  guint   queue_depth;    /* launches the runtime holds, the one being made included */
} Shape;

/* The trace's JSON: one thread launching onto streams 7 (and 13 for NCCL), each launch blocked
 * while @shape->queue_depth − 1 launches have not ended, as the CUDA runtime does. */
static char *
write_trace (const Shape *shape)
{
  g_autoptr(GString) json = g_string_new ("{\"traceEvents\": [\n");
  guint total = shape->steps * shape->kernels;
  g_autofree gint64 *ends = g_new0 (gint64, total);
  gint64 now = 1000, stream_free[2] = { 0, 0 };
  guint k = 0;

  for (guint s = 0; s < shape->steps; s++)
    {
      gint64 step_start = now;

      now += shape->before_us;
      for (guint i = 0; i < shape->kernels; i++, k++)
        {
          gboolean nccl = shape->nccl_every > 0 && i % shape->nccl_every == shape->nccl_every - 1;
          guint lane = nccl ? 1 : 0;
          gint64 call_end = now + shape->call_us, start;

          if (k >= shape->queue_depth - 1)
            call_end = MAX (call_end, ends[k - (shape->queue_depth - 1)] + 1);
          start = MAX (now + 4, stream_free[lane]);
          ends[k] = start + (nccl ? 3 * shape->kernel_us : shape->kernel_us);
          stream_free[lane] = ends[k];
          g_string_append_printf (json,
                                  "{\"ph\": \"X\", \"cat\": \"cuda_runtime\", \"name\": \"cudaLaunchKernel\", \"pid\": 1, "
                                  "\"tid\": 1, \"ts\": %" G_GINT64_FORMAT ", \"dur\": %" G_GINT64_FORMAT ", \"args\": "
                                  "{\"correlation\": %u}},\n"
                                  "{\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"%s\", \"pid\": 0, \"tid\": %d, "
                                  "\"ts\": %" G_GINT64_FORMAT ", \"dur\": %" G_GINT64_FORMAT ", \"args\": {\"device\": 0, "
                                  "\"stream\": %d, \"correlation\": %u}},\n",
                                  now, call_end - now, k + 1,
                                  nccl ? "ncclKernel_AllReduce_RING_LL_Sum_float(ncclDevComm*, ncclWork*)"
                                       : "ampere_sgemm_128x64_tn",
                                  nccl ? 13 : 7, start, ends[k] - start, nccl ? 13 : 7, k + 1);
          now = call_end + shape->gap_us;
        }
      if (shape->sync_at_end)
        {
          gint64 done = MAX (now + 2, MAX (stream_free[0], stream_free[1]) + 2);

          g_string_append_printf (json,
                                  "{\"ph\": \"X\", \"cat\": \"cuda_runtime\", \"name\": \"cudaDeviceSynchronize\", "
                                  "\"pid\": 1, \"tid\": 1, \"ts\": %" G_GINT64_FORMAT ", \"dur\": %" G_GINT64_FORMAT "},\n",
                                  now, done - now);
          now = done + 1;
        }
      g_string_append_printf (json,
                              "{\"ph\": \"X\", \"cat\": \"user_annotation\", \"name\": \"ProfilerStep#%u\", \"pid\": 1, "
                              "\"tid\": 1, \"ts\": %" G_GINT64_FORMAT ", \"dur\": %" G_GINT64_FORMAT "},\n",
                              s + 1, step_start, now - step_start);
    }
  g_string_append (json, "{\"ph\": \"M\", \"name\": \"process_name\", \"pid\": 1, \"args\": {\"name\": \"python\"}}\n]}\n");
  return g_string_free (g_steal_pointer (&json), FALSE);
}

static SuanliTrace *
import_shape (const Shape *shape)
{
  g_autofree char *json = write_trace (shape);
  g_autoptr(SuanliTestImport) imported = suanli_test_import_text (json);

  g_assert_no_error (imported->error);
  g_assert_true (imported->ok);
  return g_object_ref (imported->trace);
}

/* A system with every rate @scale times an A100's. */
static void
hardware_scaled (SuanliWhatifHardware *hardware,
                 double                scale)
{
  memset (hardware, 0, sizeof *hardware);
  g_snprintf (hardware->name, sizeof hardware->name, "%g× an A100", scale);
  hardware->flops[SUANLI_NUMBER_FP32] = 19.5e12 * scale;
  hardware->flops[SUANLI_NUMBER_TF32] = 156e12 * scale;
  hardware->flops[SUANLI_NUMBER_BF16] = 312e12 * scale;
  hardware->flops[SUANLI_NUMBER_FP16] = 312e12 * scale;
  hardware->memory_bandwidth = 2.0e12 * scale;
  hardware->link_bandwidth = 300e9 * scale;
}

static SuanliWhatif *
project (SuanliTrace *trace,
         double       scale,
         gboolean     overlap_comm,
         gboolean     no_host_gaps)
{
  SuanliWhatifOptions options;
  g_autoptr(GError) error = NULL;
  SuanliWhatif *whatif;

  suanli_whatif_options_init (&options);
  hardware_scaled (&options.measured, 1);
  hardware_scaled (&options.target, scale);
  options.overlap_comm = overlap_comm;
  options.no_host_gaps = no_host_gaps;
  whatif = suanli_whatif_new (trace, &options, &error);
  g_assert_no_error (error);
  return whatif;
}

/* A GPU-bound loop: 6 steps of 600 kernels of 100 µs, launched 8 µs apart, so that the queue of
 * 1,023 launches fills in the second step and every later launch waits for room. */
static const Shape gpu_bound = { 6, 600, 100, 5, 3, 0, 0, FALSE, SUANLI_REPLAY_LAUNCH_QUEUE_DEPTH };

/* Each step's replayed period (into @periods, when not NULL) and the step (the mean of the
 * periods) with every GPU node @factor times its measured time; with @launches_fixed the launches
 * that waited for room in the queue keep their measured, blocked, time: the replay without
 * back-pressure. */
static gint64
replay_scaled (SuanliReplayGraph *graph,
               double             factor,
               gboolean           launches_fixed,
               gint64            *periods)
{
  guint n = suanli_replay_graph_get_n_nodes (graph);
  const SuanliReplayNode *nodes = suanli_replay_graph_get_nodes (graph);
  g_autofree gint64 *durations = suanli_replay_graph_own_durations (graph);
  g_autofree gint64 *starts = g_new (gint64, n);
  g_autofree gint64 *ends = g_new (gint64, n);

  for (guint i = 0; i < n; i++)
    if (nodes[i].kind == SUANLI_REPLAY_GPU)
      durations[i] = (gint64) (durations[i] * factor);
    else if (launches_fixed && (nodes[i].flags & SUANLI_REPLAY_QUEUED))
      durations[i] = nodes[i].duration;
  suanli_replay_graph_run (graph, durations, NULL, starts, ends);
  if (periods != NULL)
    suanli_replay_graph_step_durations (graph, starts, ends, periods);
  return suanli_replay_graph_step_time (graph, starts, ends);
}

/* The launches of a GPU-bound trace wait for room in the queue, and so follow the GPU: with
 * kernels 2× faster a step in the middle of the run takes half its time, 2× slower twice; the
 * replay with the measured durations still gives every measured time. (The first steps fill the
 * queue, the last drains it: steps 4 and 5 are the steady ones.) */
static void
test_back_pressure (void)
{
  g_autoptr(SuanliTrace) trace = import_shape (&gpu_bound);
  g_autoptr(SuanliReplayGraph) graph = suanli_replay_graph_new (trace, 0);
  g_autoptr(SuanliWhatif) faster = NULL, slower = NULL;
  gint64 gpu_per_step = gpu_bound.kernels * gpu_bound.kernel_us * 1000;
  gint64 periods[6];

  g_assert_cmpuint (suanli_replay_graph_get_steps (graph)->len, ==, gpu_bound.steps);
  replay_scaled (graph, 1, FALSE, periods);
  /* The measured steps in the middle are the GPU's 60 ms: the host needs 4.8 ms for its launches. */
  g_assert_cmpint (periods[3], >=, gpu_per_step - 50000);
  g_assert_cmpint (periods[3], <=, gpu_per_step + 50000);

  replay_scaled (graph, 0.5, FALSE, periods);
  for (guint s = 3; s < 5; s++)
    {
      g_assert_cmpint (periods[s], >=, gpu_per_step / 2 - 50000);
      g_assert_cmpint (periods[s], <=, gpu_per_step / 2 + 50000);
    }
  replay_scaled (graph, 2, FALSE, periods);
  for (guint s = 3; s < 5; s++)
    {
      g_assert_cmpint (periods[s], >=, 2 * gpu_per_step - 50000);
      g_assert_cmpint (periods[s], <=, 2 * gpu_per_step + 50000);
    }

  /* What If's step follows the GPU too: onto a system 2× as fast, and onto one half as fast. */
  faster = project (trace, 2, FALSE, FALSE);
  slower = project (trace, 0.5, FALSE, FALSE);
  g_assert_cmpint (suanli_whatif_get_figures (faster)->replayed_ns, ==, suanli_whatif_get_figures (faster)->measured_ns);
  g_assert_cmpint (suanli_whatif_get_figures (faster)->measured_ns, >=, gpu_per_step);
  g_assert_cmpint (suanli_whatif_get_figures (faster)->measured_ns, <=, gpu_per_step * 101 / 100);
  g_assert_cmpint (suanli_whatif_get_figures (faster)->projected_ns, >=, gpu_per_step / 2);
  g_assert_cmpint (suanli_whatif_get_figures (faster)->projected_ns, <=, gpu_per_step / 2 * 101 / 100);
  g_assert_cmpint (suanli_whatif_get_figures (slower)->projected_ns, >=, gpu_per_step * 2);
  g_assert_cmpint (suanli_whatif_get_figures (slower)->projected_ns, <=, gpu_per_step * 2 * 101 / 100);
}

/* The launch calls of a GPU-bound trace replay to their measured times, waits for room included. */
static void
test_back_pressure_exact (void)
{
  g_autoptr(SuanliTrace) trace = import_shape (&gpu_bound);
  g_autoptr(SuanliReplayGraph) graph = suanli_replay_graph_new (trace, 0);
  guint n = suanli_replay_graph_get_n_nodes (graph);
  const SuanliReplayNode *nodes = suanli_replay_graph_get_nodes (graph);
  g_autofree gint64 *durations = suanli_replay_graph_own_durations (graph);
  g_autofree gint64 *starts = g_new (gint64, n);
  g_autofree gint64 *ends = g_new (gint64, n);
  guint queued = 0;

  suanli_replay_graph_run (graph, durations, NULL, starts, ends);
  for (guint i = 0; i < n; i++)
    {
      g_assert_cmpint (starts[i], ==, nodes[i].start);
      g_assert_cmpint (ends[i], ==, nodes[i].start + nodes[i].duration);
      queued += (nodes[i].flags & SUANLI_REPLAY_QUEUED) != 0;
    }
  g_assert_false (suanli_replay_graph_get_cycle (graph));
  g_assert_cmpuint (queued, ==, gpu_bound.steps * gpu_bound.kernels - (SUANLI_REPLAY_LAUNCH_QUEUE_DEPTH - 1));
}

/* ---- a real GPU-bound trace ------------------------------------------------------------------- */

/* HTA's ns_resolution_trace: a V100 kept 98% busy by a training loop whose launches (two threads:
 * the forward's and autograd's) block on a full launch queue. Figures from the file with Python's
 * json and decimal modules: steps 103 and 104 start 95,728.456 and 95,584.644 µs apart, hold
 * 94,584.175 and 94,473.642 µs of GPU work, and their cudaLaunchKernel calls longer than 20 µs
 * take 49,226.218 and 48,959.541 µs. */
#define REAL_GPU_BOUND "ns_resolution_trace__rank-0.Apr_03_18_51_38.1102.pt.trace.json.gz"
#define REAL_GPU_BOUND_STEPS 5

/* The GPU's work in the projection against the measured: summed over every kernel name. */
static double
gpu_work_ratio (SuanliWhatif *whatif)
{
  GArray *kernels = suanli_whatif_get_kernels (whatif);
  gint64 measured = 0, projected = 0;

  for (guint i = 0; i < kernels->len; i++)
    {
      const SuanliWhatifKernel *kernel = &g_array_index (kernels, SuanliWhatifKernel, i);

      if (kernel->work_class == SUANLI_WORK_HOST)
        continue;
      measured += kernel->measured_ns;
      projected += kernel->projected_ns;
    }
  g_assert_cmpint (measured, >, 0);
  return (double) projected / measured;
}

/* On a real GPU-bound trace the step follows the GPU's work, both ways: with every kernel 0.5×,
 * 0.6× or 0.8× its time (faster) and 1.25×, 1.5× or 2× (slower) the replayed step is within 5%
 * of the measured step times the factor, where the replay with the blocked launches kept as host
 * time is more than 5% slower when faster. What If's step onto a system 2× as fast and one half as
 * fast is within 5% of the measured step times its GPU work's ratio. */
static void
test_real_gpu_bound (void)
{
  static const double factors[] = { 0.5, 0.6, 0.8, 1.25, 1.5, 2 };
  static const double scales[] = { 2, 0.5 };
  g_autofree char *path = g_build_filename (suanli_test_fixtures_dir (), REAL_GPU_BOUND, NULL);
  g_autoptr(SuanliTrace) trace = suanli_test_load_file (path);
  g_autoptr(SuanliReplayGraph) graph = suanli_replay_graph_new (trace, 0);
  gint64 periods[REAL_GPU_BOUND_STEPS], measured;

  g_assert_cmpuint (suanli_replay_graph_get_steps (graph)->len, ==, REAL_GPU_BOUND_STEPS);
  replay_scaled (graph, 1, FALSE, periods);
  g_assert_cmpint (periods[2], ==, 95728456);
  g_assert_cmpint (periods[3], ==, 95584644);
  measured = replay_scaled (graph, 1, FALSE, NULL);

  for (guint f = 0; f < G_N_ELEMENTS (factors); f++)
    {
      gint64 step = replay_scaled (graph, factors[f], FALSE, NULL);
      gint64 fixed = replay_scaled (graph, factors[f], TRUE, NULL);
      double expected = measured * factors[f];

      g_test_message ("kernels ×%g: step %" G_GINT64_FORMAT " → %" G_GINT64_FORMAT " ns, expected %.0f, blocked "
                      "launches kept %" G_GINT64_FORMAT, factors[f], measured, step, expected, fixed);
      g_assert_cmpfloat (step, >=, expected * 0.95);
      g_assert_cmpfloat (step, <=, expected * 1.05);
      if (factors[f] < 1)
        g_assert_cmpfloat (fixed, >, expected * 1.05);
    }

  for (guint k = 0; k < G_N_ELEMENTS (scales); k++)
    {
      g_autoptr(SuanliWhatif) whatif = project (trace, scales[k], FALSE, FALSE);
      const SuanliWhatifFigures *figures = suanli_whatif_get_figures (whatif);
      double expected = figures->measured_ns * gpu_work_ratio (whatif);

      g_test_message ("onto %g× the rates: step %" G_GINT64_FORMAT " → %" G_GINT64_FORMAT " ns, GPU work ×%.3f, "
                      "expected %.0f", scales[k], figures->measured_ns, figures->projected_ns, gpu_work_ratio (whatif),
                      expected);
      g_assert_cmpint (figures->measured_ns, ==, measured);
      g_assert_cmpint (figures->replayed_ns, ==, figures->measured_ns);
      g_assert_cmpfloat (figures->projected_ns, >=, expected * 0.95);
      g_assert_cmpfloat (figures->projected_ns, <=, expected * 1.05);
    }
}

/* ---- bounds ------------------------------------------------------------------------------------ */

/* "No host gaps" and "overlapped communication" are never slower than the projection without them,
 * alone or together, and no step is projected as 0. */
static void
assert_bounds (SuanliTrace *trace,
               const char  *name)
{
  static const double scales[] = { 1, 3, 0.5 };

  for (guint s = 0; s < G_N_ELEMENTS (scales); s++)
    {
      g_autoptr(SuanliWhatif) plain = project (trace, scales[s], FALSE, FALSE);
      g_autoptr(SuanliWhatif) graphs = project (trace, scales[s], FALSE, TRUE);
      g_autoptr(SuanliWhatif) overlap = project (trace, scales[s], TRUE, FALSE);
      g_autoptr(SuanliWhatif) both = project (trace, scales[s], TRUE, TRUE);
      gint64 base = suanli_whatif_get_figures (plain)->projected_ns;

      g_test_message ("%s at %g×: %" G_GINT64_FORMAT " ns, no host gaps %" G_GINT64_FORMAT ", overlapped %" G_GINT64_FORMAT
                      ", both %" G_GINT64_FORMAT, name, scales[s], base, suanli_whatif_get_figures (graphs)->projected_ns,
                      suanli_whatif_get_figures (overlap)->projected_ns, suanli_whatif_get_figures (both)->projected_ns);
      g_assert_cmpint (base, >, 0);
      g_assert_cmpint (suanli_whatif_get_figures (graphs)->projected_ns, >, 0);
      g_assert_cmpint (suanli_whatif_get_figures (graphs)->projected_ns, <=, base);
      g_assert_cmpint (suanli_whatif_get_figures (overlap)->projected_ns, >, 0);
      g_assert_cmpint (suanli_whatif_get_figures (overlap)->projected_ns, <=, base);
      g_assert_cmpint (suanli_whatif_get_figures (both)->projected_ns, <=,
                       MIN (suanli_whatif_get_figures (graphs)->projected_ns, suanli_whatif_get_figures (overlap)->projected_ns));
    }
}

static void
test_bounds_on_fixtures (void)
{
  const char *directory = suanli_test_fixtures_dir ();
  g_autoptr(GDir) dir = g_dir_open (directory, 0, NULL);
  const char *name;
  guint seen = 0;

  g_assert_nonnull (dir);
  while ((name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *path = g_build_filename (directory, name, NULL);
      g_autoptr(SuanliTrace) trace = NULL;

      if (!g_str_has_suffix (name, ".json.gz"))
        continue;
      trace = suanli_test_load_file (path);
      assert_bounds (trace, name);
      seen++;
    }
  g_assert_cmpuint (seen, ==, 6);
}

/* Traces made here, host-bound and GPU-bound, with and without collectives and a sync at each
 * step's end; among them the pipelined one where removing the host's time inside the steps let
 * the CPU run ahead of the GPU, and each step (counted to its GPU work's end) grew. */
static void
test_bounds_on_made_traces (void)
{
  static const Shape shapes[] = {
    { 4, 3, 1000, 5, 20, 100, 0, FALSE, SUANLI_REPLAY_LAUNCH_QUEUE_DEPTH },   /* the CPU runs ahead of the GPU */
    { 5, 40, 20, 5, 60, 500, 0, TRUE, SUANLI_REPLAY_LAUNCH_QUEUE_DEPTH },     /* host-bound, synchronised */
    { 5, 40, 200, 5, 10, 50, 4, TRUE, SUANLI_REPLAY_LAUNCH_QUEUE_DEPTH },     /* GPU-bound with collectives */
    { 4, 30, 300, 5, 10, 50, 3, FALSE, 16 },                                  /* a short queue, always full */
    { 4, 600, 100, 5, 3, 0, 0, FALSE, SUANLI_REPLAY_LAUNCH_QUEUE_DEPTH },     /* GPU-bound, the queue full */
  };

  for (guint s = 0; s < G_N_ELEMENTS (shapes); s++)
    {
      g_autoptr(SuanliTrace) trace = import_shape (&shapes[s]);
      g_autofree char *name = g_strdup_printf ("made trace %u", s);

      assert_bounds (trace, name);
    }
}

/* ---- one step ---------------------------------------------------------------------------------- */

/* The step is the mean of the periods between the steps' starts (the last until every step has
 * ended), the same in the summary's steps and in What If; the classes add up to it. */
static void
assert_one_step (SuanliTrace *trace,
                 const char  *name)
{
  g_autoptr(GArray) steps = suanli_analysis_steps (trace);
  g_autoptr(SuanliWhatif) whatif = project (trace, 1, FALSE, FALSE);
  const SuanliWhatifFigures *figures = suanli_whatif_get_figures (whatif);
  gint64 summed = 0, classes = 0, projected_classes = 0;

  if (figures->steps == 0)
    return;
  for (guint i = 0; i < steps->len; i++)
    summed += g_array_index (steps, SuanliStepStats, i).duration_ns;
  g_test_message ("%s: %u steps, the summary's step %" G_GINT64_FORMAT " ns, What If's %" G_GINT64_FORMAT, name,
                  steps->len, suanli_analysis_step_time (steps), figures->measured_ns);
  g_assert_cmpuint (steps->len, ==, figures->steps);
  g_assert_cmpint (suanli_analysis_step_time (steps), ==, figures->measured_ns);
  g_assert_cmpint (summed / steps->len, ==, figures->measured_ns);
  for (guint k = 0; k < SUANLI_WORK_N_CLASSES; k++)
    {
      g_assert_cmpint (figures->measured_class_ns[k], <=, figures->measured_ns);
      classes += figures->measured_class_ns[k];
      projected_classes += figures->projected_class_ns[k];
    }
  /* Each share is rounded down on its own. */
  g_assert_cmpint (classes, <=, figures->measured_ns);
  g_assert_cmpint (classes, >=, figures->measured_ns - SUANLI_WORK_N_CLASSES);
  g_assert_cmpint (projected_classes, <=, figures->projected_ns);
  g_assert_cmpint (projected_classes, >=, figures->projected_ns - SUANLI_WORK_N_CLASSES);
}

static void
test_one_step (void)
{
  const char *directory = suanli_test_fixtures_dir ();
  g_autoptr(GDir) dir = g_dir_open (directory, 0, NULL);
  g_autoptr(SuanliTrace) made = import_shape (&gpu_bound);
  g_autoptr(GArray) steps = suanli_analysis_steps (made);
  const char *name;

  while ((name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *path = g_build_filename (directory, name, NULL);
      g_autoptr(SuanliTrace) trace = NULL;

      if (!g_str_has_suffix (name, ".json.gz"))
        continue;
      trace = suanli_test_load_file (path);
      assert_one_step (trace, name);
    }
  assert_one_step (made, "made trace");

  /* The made trace's steps take the trace's time, not more: a step runs to the next one's start. */
  {
    SuanliStepStats *first = &g_array_index (steps, SuanliStepStats, 0);
    SuanliStepStats *last = &g_array_index (steps, SuanliStepStats, steps->len - 1);
    gint64 gpu_total = gpu_bound.steps * gpu_bound.kernels * gpu_bound.kernel_us * 1000;

    g_assert_cmpint (first->duration_ns, ==, g_array_index (steps, SuanliStepStats, 1).start - first->start);
    g_assert_cmpint (last->start + last->duration_ns - first->start, >=, gpu_total);
    g_assert_cmpint (last->start + last->duration_ns - first->start, <=, gpu_total * 101 / 100);
    g_assert_cmpint (suanli_analysis_step_time (steps), <=, gpu_total / gpu_bound.steps * 101 / 100);
  }
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/whatif/steps/back-pressure", test_back_pressure);
  g_test_add_func ("/whatif/steps/back-pressure-exact", test_back_pressure_exact);
  g_test_add_func ("/whatif/steps/real-gpu-bound", test_real_gpu_bound);
  g_test_add_func ("/whatif/steps/bounds-on-fixtures", test_bounds_on_fixtures);
  g_test_add_func ("/whatif/steps/bounds-on-made-traces", test_bounds_on_made_traces);
  g_test_add_func ("/whatif/steps/one-step", test_one_step);
  return g_test_run ();
}
