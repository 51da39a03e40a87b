/* bench-replay.c — the what-if replay of a trace of a million events
 *
 * A synthetic training job made in memory, as the importer would leave it: one CPU thread whose
 * steps (ProfilerStep#N) hold operators (cpu_op), each around a launch (cudaLaunchKernel, with its
 * flow) of a kernel on one of two streams, a cudaStreamWaitEvent between the streams now and then
 * with its cuda_sync record, and a cudaDeviceSynchronize closing each step: 1,000,000 events. Prints
 * the medians of building the dependency graph, of one replay of it, and of the whole projection
 * (suanli_whatif_new: graph, classes, two replays, the projected timeline). Aim: graph and replay
 * under a second.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "suanli-bench.h"
#include "suanli-import-links.h"
#include "suanli-replay-graph.h"
#include "suanli-whatif.h"

#define EVENTS          1000000
#define LAUNCHES_A_STEP 1000
#define WAIT_EVERY      50

typedef struct
{
  SuanliTrace       *trace;
  SuanliReplayGraph *graph;
} Run;

static guint32
add_slice (SuanliTrace *trace,
           guint        track,
           SuanliString name,
           SuanliString category,
           gint64       start,
           gint64       duration,
           const SuanliArg *args,
           guint        n_args)
{
  SuanliTrack *t = suanli_trace_get_track (trace, track);
  SuanliSlice slice = { start, duration, name, category, G_MAXUINT32, (guint16) n_args, 0, 0 };

  if (n_args > 0)
    slice.args = suanli_trace_add_args (trace, args, n_args);
  g_array_append_val (t->slices, slice);
  return t->slices->len - 1;
}

static SuanliTrace *
make_trace (void)
{
  SuanliTrace *trace = suanli_trace_new ();
  SuanliString cpu_op = suanli_trace_intern (trace, "cpu_op", -1), runtime = suanli_trace_intern (trace, "cuda_runtime", -1);
  SuanliString kernel = suanli_trace_intern (trace, "kernel", -1), sync = suanli_trace_intern (trace, "cuda_sync", -1);
  SuanliString names[] = { suanli_trace_intern (trace, "aten::addmm", -1), suanli_trace_intern (trace, "aten::add_", -1) };
  SuanliString kernels[] = { suanli_trace_intern (trace, "sm80_xmma_gemm_bf16bf16_bf16f32_f32_tn_n", -1),
                             suanli_trace_intern (trace, "void at::native::vectorized_elementwise_kernel<4>", -1) };
  SuanliString launch = suanli_trace_intern (trace, "cudaLaunchKernel", -1);
  SuanliString wait = suanli_trace_intern (trace, "cudaStreamWaitEvent", -1);
  SuanliString device_sync = suanli_trace_intern (trace, "cudaDeviceSynchronize", -1);
  SuanliString key_correlation = suanli_trace_intern (trace, "correlation", -1);
  SuanliString key_stream = suanli_trace_intern (trace, "stream", -1);
  SuanliString key_wait_on = suanli_trace_intern (trace, "wait_on_stream", -1);
  guint thread, streams[2];
  gint64 time = 0, gpu_free[2] = { 0, 0 }, correlation = 0;
  guint64 events = 0;

  suanli_trace_begin_group (trace, "synthetic.json");
  suanli_trace_ensure_track (trace, SUANLI_TRACK_THREAD, 1, 1, 0, &thread);
  suanli_trace_ensure_track (trace, SUANLI_TRACK_GPU_STREAM, 0, 7, 0, &streams[0]);
  suanli_trace_ensure_track (trace, SUANLI_TRACK_GPU_STREAM, 0, 8, 0, &streams[1]);
  for (guint step = 0; events < EVENTS; step++)
    {
      g_autofree char *step_name = g_strdup_printf ("ProfilerStep#%u", step);
      guint32 step_slice = add_slice (trace, thread, suanli_trace_intern (trace, step_name, -1), suanli_trace_intern (trace, "user_annotation", -1),
                                      time, 0, NULL, 0);
      gint64 step_start = time, last_end;

      events++;
      for (guint i = 0; i < LAUNCHES_A_STEP && events < EVENTS; i++)
        {
          guint s = i % 2;
          gint64 op_start = time + 2000, call_start = op_start + 1000, start;
          SuanliArg arg = { key_correlation, SUANLI_ARG_INT, { .i = ++correlation } };

          add_slice (trace, thread, names[s], cpu_op, op_start, 6000, NULL, 0);
          add_slice (trace, thread, launch, runtime, call_start, 4000, &arg, 1);
          start = MAX (call_start + 7000, gpu_free[s] + 1000);
          add_slice (trace, streams[s], kernels[s], kernel, start, s == 0 ? 30000 : 8000, &arg, 1);
          gpu_free[s] = start + (s == 0 ? 30000 : 8000);
          events += 3;
          time = op_start + 6000;
          if (i % WAIT_EVERY == WAIT_EVERY - 1)
            {
              SuanliArg call_arg = { key_correlation, SUANLI_ARG_INT, { .i = ++correlation } };
              SuanliArg record[] = { { key_stream, SUANLI_ARG_INT, { .i = 8 } }, { key_wait_on, SUANLI_ARG_INT, { .i = 7 } },
                                     call_arg };

              add_slice (trace, thread, wait, runtime, time + 500, 1000, &call_arg, 1);
              add_slice (trace, streams[1], suanli_trace_intern (trace, "Stream Wait Event", -1), sync, time + 600, 100, record, 3);
              events += 2;
              time += 1500;
            }
        }
      last_end = MAX (gpu_free[0], gpu_free[1]);
      add_slice (trace, thread, device_sync, runtime, time + 1000, MAX (last_end - time, 2000), NULL, 0);
      time = MAX (last_end, time + 2000) + 3000;
      g_array_index (suanli_trace_get_track (trace, thread)->slices, SuanliSlice, step_slice).duration = time - step_start;
      events++;
    }
  suanli_trace_finish (trace);
  /* Launches joined to their kernels by correlation, as the importer joins them. */
  suanli_import_link_correlations (trace, 0);
  return trace;
}

static void
build (gpointer data)
{
  Run *run = data;

  g_clear_pointer (&run->graph, suanli_replay_graph_free);
  run->graph = suanli_replay_graph_new (run->trace, 0);
}

static void
replay (gpointer data)
{
  Run *run = data;
  guint n = suanli_replay_graph_get_n_nodes (run->graph);
  g_autofree gint64 *durations = suanli_replay_graph_own_durations (run->graph);
  g_autofree gint64 *starts = g_new (gint64, n);
  g_autofree gint64 *ends = g_new (gint64, n);

  suanli_replay_graph_run (run->graph, durations, NULL, starts, ends);
}

static void
project (gpointer data)
{
  Run *run = data;
  SuanliWhatifOptions options;
  g_autoptr(SuanliWhatif) whatif = NULL;

  suanli_whatif_options_init (&options);
  options.measured.flops[SUANLI_NUMBER_BF16] = 312e12;
  options.measured.memory_bandwidth = 2.039e12;
  options.target.flops[SUANLI_NUMBER_BF16] = 989e12;
  options.target.memory_bandwidth = 3.35e12;
  whatif = suanli_whatif_new (run->trace, &options, NULL);
  g_assert_nonnull (whatif);
}

int
main (int    argc,
      char **argv)
{
  g_autoptr(SuanliBench) build_bench = suanli_bench_new ("build the graph of 1 M events", "ms");
  g_autoptr(SuanliBench) replay_bench = suanli_bench_new ("replay it once", "ms");
  g_autoptr(SuanliBench) project_bench = suanli_bench_new ("project it (graph, classes, two replays, timeline)", "ms");
  gint64 made = g_get_monotonic_time ();
  Run run = { make_trace (), NULL };

  g_print ("made %" G_GUINT64_FORMAT " slices in %.0f ms\n", suanli_trace_get_n_slices (run.trace),
           (g_get_monotonic_time () - made) / 1e3);
  suanli_bench_time (build_bench, 5, build, &run);
  g_print ("%u nodes\n", suanli_replay_graph_get_n_nodes (run.graph));
  suanli_bench_time (replay_bench, 5, replay, &run);
  suanli_bench_time (project_bench, 3, project, &run);
  suanli_bench_report (build_bench);
  suanli_bench_report (replay_bench);
  suanli_bench_report (project_bench);
  suanli_replay_graph_free (run.graph);
  g_object_unref (run.trace);
  return 0;
}
