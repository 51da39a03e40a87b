/* test-whatif.c — the replay of a trace's dependency graph and the projections on it: small traces
 * made here whose answers are known, the real Kineto fixtures and a trace Debian's torch writes
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>
#include <glib/gstdio.h>

#include "suanli-import.h"
#include "suanli-replay-graph.h"
#include "suanli-whatif.h"
#include "suanli-work-classifier.h"
#include "suanli-test-fixtures.h"
#include "suanli-test-import.h"

/* ---- small traces made here -------------------------------------------------------------- */

/* A trace of one file: one CPU thread (pid 1, tid 1) and GPU streams of device 0. Slices are added
 * in time order per track, so that their indices survive the trace's sort; flows after. */
typedef struct
{
  SuanliTrace *trace;
  GArray      *links;     /* of guint32[4]: from track, from slice, to track, to slice */
} Builder;

static guint
track_of (Builder *b,
          gboolean gpu,
          gint64   tid)
{
  guint index;

  suanli_trace_ensure_track (b->trace, gpu ? SUANLI_TRACK_GPU_STREAM : SUANLI_TRACK_THREAD, gpu ? 0 : 1, tid, 0, &index);
  return index;
}

/* A trace with the thread and, where @stream is not NULL, stream 7. */
static void
builder_init (Builder *b,
              guint   *thread,
              guint   *stream)
{
  b->trace = suanli_trace_new ();
  b->links = g_array_new (FALSE, FALSE, sizeof (guint32) * 4);
  suanli_trace_begin_group (b->trace, "made.json");
  *thread = track_of (b, FALSE, 1);
  if (stream != NULL)
    *stream = track_of (b, TRUE, 7);
}

/* Adds a slice; @args are key, type ('i' or 's'), value … NULL. Returns its index on the track. */
static guint
add (Builder    *b,
     guint       track,
     const char *category,
     const char *name,
     gint64      start,
     gint64      duration,
     ...)
{
  SuanliTrack *t = suanli_trace_get_track (b->trace, track);
  SuanliSlice slice = { start, duration, suanli_trace_intern (b->trace, name, -1),
                        suanli_trace_intern (b->trace, category, -1), G_MAXUINT32, 0, 0, 0 };
  g_autoptr(GArray) args = g_array_new (FALSE, FALSE, sizeof (SuanliArg));
  const char *key;
  va_list list;

  va_start (list, duration);
  while ((key = va_arg (list, const char *)) != NULL)
    {
      SuanliArg arg = { suanli_trace_intern (b->trace, key, -1) };

      if (va_arg (list, int) == 's')
        {
          arg.type = SUANLI_ARG_STRING;
          arg.s = suanli_trace_intern (b->trace, va_arg (list, const char *), -1);
        }
      else
        {
          arg.type = SUANLI_ARG_INT;
          arg.i = va_arg (list, gint64);
        }
      g_array_append_val (args, arg);
    }
  va_end (list);
  if (args->len > 0)
    {
      slice.args = suanli_trace_add_args (b->trace, (const SuanliArg *) args->data, args->len);
      slice.n_args = args->len;
    }
  g_array_append_val (t->slices, slice);
  return t->slices->len - 1;
}

static void
add_link (Builder *b,
          guint    from_track,
          guint    from_slice,
          guint    to_track,
          guint    to_slice)
{
  guint32 ends[4] = { from_track, from_slice, to_track, to_slice };

  g_array_append_val (b->links, ends);
}

static SuanliTrace *
builder_finish (Builder *b)
{
  SuanliString ac2g = suanli_trace_intern (b->trace, "ac2g", -1);

  suanli_trace_finish (b->trace);
  for (guint i = 0; i < b->links->len; i++)
    {
      guint32 *ends = (guint32 *) (b->links->data + i * sizeof (guint32) * 4);
      SuanliFlow flow = { ends[0], ends[1], ends[2], ends[3], ac2g };

      suanli_trace_add_flow (b->trace, &flow);
    }
  g_array_unref (b->links);
  return b->trace;
}

/* A launch on the thread at @start (5 ns long) of a kernel on @stream_track at @kernel_start. */
static guint
launch (Builder    *b,
        guint       thread,
        gint64      start,
        guint       stream_track,
        const char *kernel,
        gint64      kernel_start,
        gint64      kernel_duration,
        guint      *call)
{
  guint c = add (b, thread, "cuda_runtime", "cudaLaunchKernel", start, 5, NULL);
  guint k = add (b, stream_track, "kernel", kernel, kernel_start, kernel_duration, NULL);

  add_link (b, thread, c, stream_track, k);
  if (call != NULL)
    *call = c;
  return k;
}

typedef struct
{
  SuanliReplayGraph *graph;
  gint64            *durations;
  gint64            *starts;
  gint64            *ends;
} Replay;

static void
replay_init (Replay      *r,
             SuanliTrace *trace)
{
  guint n;

  r->graph = suanli_replay_graph_new (trace, 0);
  n = suanli_replay_graph_get_n_nodes (r->graph);
  r->durations = suanli_replay_graph_own_durations (r->graph);
  r->starts = g_new (gint64, n);
  r->ends = g_new (gint64, n);
}

static void
replay_clear (Replay *r)
{
  suanli_replay_graph_free (r->graph);
  g_free (r->durations);
  g_free (r->starts);
  g_free (r->ends);
}

/* Replays with the node of (@track, @slice) given @duration, the others as measured. */
static void
replay_with (Replay       *r,
             guint         track,
             guint         slice,
             gint64        duration)
{
  g_autofree gint64 *own = suanli_replay_graph_own_durations (r->graph);

  if (track != G_MAXUINT)
    own[suanli_replay_graph_find_node (r->graph, track, slice)] = duration;
  memcpy (r->durations, own, sizeof (gint64) * suanli_replay_graph_get_n_nodes (r->graph));
  suanli_replay_graph_run (r->graph, r->durations, NULL, r->starts, r->ends);
}

static gint64
start_of (Replay *r,
          guint   track,
          guint   slice)
{
  guint32 n = suanli_replay_graph_find_node (r->graph, track, slice);

  g_assert_cmpuint (n, !=, G_MAXUINT32);
  return r->starts[n];
}

static gint64
end_of (Replay *r,
        guint   track,
        guint   slice)
{
  return r->ends[suanli_replay_graph_find_node (r->graph, track, slice)];
}

/* Every node replays to its measured times with the measured durations. */
static void
assert_exact (Replay *r)
{
  const SuanliReplayNode *nodes = suanli_replay_graph_get_nodes (r->graph);

  replay_with (r, G_MAXUINT, 0, 0);
  for (guint n = 0; n < suanli_replay_graph_get_n_nodes (r->graph); n++)
    {
      g_assert_cmpint (r->starts[n], ==, nodes[n].start);
      g_assert_cmpint (r->ends[n], ==, nodes[n].start + nodes[n].duration);
    }
}

/* A kernel queued behind a long one starts earlier when that one gets 2× faster, down to its
 * launch plus the typical launch delay; the stream edge holds it after its predecessor. */
static void
test_queued_kernel (void)
{
  Builder b;
  g_autoptr(SuanliTrace) trace = NULL;
  guint thread, stream, k1, k2;
  Replay r;

  builder_init (&b, &thread, &stream);
  k1 = launch (&b, thread, 0, stream, "k1", 20, 100, NULL);      /* launch-bound: 20 after its launch */
  k2 = launch (&b, thread, 10, stream, "k2", 122, 50, NULL);     /* queued: 2 after k1's end */
  trace = builder_finish (&b);
  replay_init (&r, trace);
  assert_exact (&r);
  g_assert_cmpint (suanli_replay_graph_typical_delay (r.graph, SUANLI_REPLAY_EDGE_LAUNCH), ==, 20);
  g_assert_cmpint (suanli_replay_graph_typical_delay (r.graph, SUANLI_REPLAY_EDGE_STREAM), ==, 2);

  replay_with (&r, stream, k1, 50);
  g_assert_cmpint (start_of (&r, stream, k2), ==, 20 + 50 + 2);
  replay_with (&r, stream, k1, 5);
  /* No earlier than its launch (10) plus the typical launch delay (20). */
  g_assert_cmpint (start_of (&r, stream, k2), ==, 30);
  replay_clear (&r);
}

/* A kernel bound by its launch does not move when the work before it gets faster, and waits for
 * it when it gets slower. */
static void
test_launch_bound_kernel (void)
{
  Builder b;
  g_autoptr(SuanliTrace) trace = NULL;
  guint thread, stream, k1, k2;
  Replay r;

  builder_init (&b, &thread, &stream);
  k1 = launch (&b, thread, 0, stream, "k1", 20, 10, NULL);
  k2 = launch (&b, thread, 100, stream, "k2", 120, 10, NULL);
  trace = builder_finish (&b);
  replay_init (&r, trace);
  assert_exact (&r);

  replay_with (&r, stream, k1, 5);
  g_assert_cmpint (start_of (&r, stream, k2), ==, 120);
  replay_with (&r, stream, k1, 200);
  g_assert_cmpint (start_of (&r, stream, k2), ==, 220);
  replay_clear (&r);
}

/* cudaStreamSynchronize waits on its stream's last work (the cuda_sync record names the stream),
 * not on another stream's; the thread's next call follows it. */
static void
test_sync_waits_on_stream (void)
{
  Builder b;
  g_autoptr(SuanliTrace) trace = NULL;
  guint thread, s7, s8, k1, other, sync, next;
  Replay r;

  builder_init (&b, &thread, &s7);
  s8 = track_of (&b, TRUE, 8);
  k1 = launch (&b, thread, 0, s7, "k1", 10, 100, NULL);                     /* ends at 110 */
  other = add (&b, thread, "cuda_runtime", "cudaLaunchKernel", 6, 2, NULL);
  {
    guint k = add (&b, s8, "kernel", "long_other", 10, 1000, NULL);
    add_link (&b, thread, other, s8, k);
  }
  sync = add (&b, thread, "cuda_runtime", "cudaStreamSynchronize", 10, 102, "correlation", 'i', (gint64) 2, NULL);
  add (&b, s7, "cuda_sync", "Stream Sync", 10, 100, "cuda_sync_kind", 's', "Stream Sync", "stream", 'i', (gint64) 7,
       "correlation", 'i', (gint64) 2, NULL);
  next = add (&b, thread, "cuda_runtime", "cudaLaunchKernel", 115, 5, NULL);
  trace = builder_finish (&b);
  replay_init (&r, trace);
  assert_exact (&r);

  replay_with (&r, s7, k1, 50);   /* k1 ends at 60: the sync 2 after, as measured */
  g_assert_cmpint (end_of (&r, thread, sync), ==, 62);
  g_assert_cmpint (start_of (&r, thread, next), ==, 65);
  replay_with (&r, s7, k1, 200);
  g_assert_cmpint (end_of (&r, thread, sync), ==, 212);
  replay_clear (&r);
}

/* A synchronous cudaMemcpy: its copy starts after the call starts (and after the kernel before it
 * on the stream), and the call ends after the copy; no cycle, so a faster kernel shortens the call
 * (a cycle made the copy read its measured start). */
static void
test_blocking_copy (void)
{
  Builder b;
  g_autoptr(SuanliTrace) trace = NULL;
  guint thread, stream, k1, copy_call, copy, next;
  Replay r;

  builder_init (&b, &thread, &stream);
  k1 = launch (&b, thread, 10, stream, "k1", 20, 500, NULL);                        /* ends at 520 */
  copy_call = add (&b, thread, "cuda_runtime", "cudaMemcpy", 20, 520, NULL);        /* ends at 540 */
  copy = add (&b, stream, "gpu_memcpy", "Memcpy DtoH (Device -> Pageable)", 525, 10, NULL);
  add_link (&b, thread, copy_call, stream, copy);
  next = add (&b, thread, "cuda_runtime", "cudaLaunchKernel", 545, 5, NULL);
  trace = builder_finish (&b);
  replay_init (&r, trace);
  g_assert_false (suanli_replay_graph_get_cycle (r.graph));
  assert_exact (&r);

  replay_with (&r, stream, k1, 50);   /* k1 ends at 70, the copy 5 later, the call 5 after the copy */
  g_assert_cmpint (start_of (&r, stream, copy), ==, 75);
  g_assert_cmpint (end_of (&r, thread, copy_call), ==, 90);
  g_assert_cmpint (start_of (&r, thread, next), ==, 95);
  replay_with (&r, stream, k1, 1000);
  g_assert_cmpint (end_of (&r, thread, copy_call), ==, 1040);
  replay_clear (&r);
}

/* Contradictory records make a cycle: stream 8's b1 waits on stream 7's a1 (an event recorded, by
 * its record's correlation, after a1's launch) and a1 waits on b1. The cycle is broken by dropping
 * an edge, and a1 is replayed from its other predecessors (a0's end, its launch), never from b1's
 * measured end (which put it at its measured 45). */
static void
test_cycle_broken (void)
{
  Builder b;
  g_autoptr(SuanliTrace) trace = NULL;
  guint thread, s7, s8, a1;
  Replay r;

  builder_init (&b, &thread, &s7);
  s8 = track_of (&b, TRUE, 8);
  launch (&b, thread, 0, s7, "a0", 10, 10, NULL);
  add (&b, thread, "cuda_runtime", "cudaStreamWaitEvent", 5, 1, "correlation", 'i', (gint64) 100, NULL);
  add (&b, s8, "cuda_sync", "Stream Wait Event", 5, 1, "cuda_sync_kind", 's', "Stream Wait Event", "stream", 'i', (gint64) 8,
       "wait_on_stream", 'i', (gint64) 7, "wait_on_cuda_event_record_corr_id", 'i', (gint64) 200, "correlation", 'i',
       (gint64) 100, NULL);
  add (&b, s8, "cuda_sync", "Stream Wait Event", 6, 1, "cuda_sync_kind", 's', "Stream Wait Event", "stream", 'i', (gint64) 7,
       "wait_on_stream", 'i', (gint64) 8, "correlation", 'i', (gint64) 101, NULL);
  launch (&b, thread, 7, s8, "b1", 30, 10, NULL);
  add (&b, thread, "cuda_runtime", "cudaStreamWaitEvent", 13, 1, "correlation", 'i', (gint64) 101, NULL);
  a1 = launch (&b, thread, 20, s7, "a1", 45, 10, NULL);
  add (&b, thread, "cuda_runtime", "cudaEventRecord", 30, 1, "correlation", 'i', (gint64) 200, NULL);
  trace = builder_finish (&b);
  replay_init (&r, trace);
  g_assert_cmpuint (suanli_replay_graph_count_edges (r.graph, SUANLI_REPLAY_EDGE_EVENT), ==, 2);
  g_assert_true (suanli_replay_graph_get_cycle (r.graph));
  replay_with (&r, G_MAXUINT, 0, 0);
  /* After a0's end (20, typical stream delay 0) and its launch at 20 plus the typical launch delay 10. */
  g_assert_cmpint (start_of (&r, s7, a1), ==, 30);
  replay_clear (&r);
}

/* cudaStreamWaitEvent: stream 8's next work waits on stream 7's work before the wait. */
static void
test_stream_wait_event (void)
{
  Builder b;
  g_autoptr(SuanliTrace) trace = NULL;
  guint thread, s7, s8, k1, k2;
  Replay r;

  builder_init (&b, &thread, &s7);
  s8 = track_of (&b, TRUE, 8);
  k1 = launch (&b, thread, 0, s7, "k1", 10, 100, NULL);
  add (&b, thread, "cuda_runtime", "cudaStreamWaitEvent", 6, 1, "correlation", 'i', (gint64) 3, NULL);
  add (&b, s8, "cuda_sync", "Stream Wait Event", 6, 1, "cuda_sync_kind", 's', "Stream Wait Event", "stream", 'i', (gint64) 8,
       "wait_on_stream", 'i', (gint64) 7, "correlation", 'i', (gint64) 3, NULL);
  k2 = launch (&b, thread, 8, s8, "k2", 112, 10, NULL);
  trace = builder_finish (&b);
  replay_init (&r, trace);
  assert_exact (&r);
  g_assert_cmpuint (suanli_replay_graph_count_edges (r.graph, SUANLI_REPLAY_EDGE_EVENT), ==, 1);

  replay_with (&r, s7, k1, 50);
  g_assert_cmpint (start_of (&r, s8, k2), ==, 62);
  replay_with (&r, s7, k1, 300);
  g_assert_cmpint (start_of (&r, s8, k2), ==, 312);
  replay_clear (&r);
}

/* A wait without its cuda_sync record, in a trace that has records for others: the note counts it
 * and does not say the trace has no records. */
static void
test_unplaced_wait_note (void)
{
  Builder b;
  g_autoptr(SuanliTrace) trace = NULL;
  g_autoptr(SuanliWhatif) whatif = NULL;
  g_autoptr(GError) error = NULL;
  SuanliWhatifOptions options;
  guint thread, s7, s8;
  GPtrArray *notes;
  gboolean said = FALSE;

  builder_init (&b, &thread, &s7);
  s8 = track_of (&b, TRUE, 8);
  launch (&b, thread, 0, s7, "k1", 10, 100, NULL);
  add (&b, thread, "cuda_runtime", "cudaStreamWaitEvent", 6, 1, "correlation", 'i', (gint64) 3, NULL);
  add (&b, s8, "cuda_sync", "Stream Wait Event", 6, 1, "cuda_sync_kind", 's', "Stream Wait Event", "stream", 'i', (gint64) 8,
       "wait_on_stream", 'i', (gint64) 7, "correlation", 'i', (gint64) 3, NULL);
  add (&b, thread, "cuda_runtime", "cudaStreamWaitEvent", 7, 1, "correlation", 'i', (gint64) 4, NULL);
  launch (&b, thread, 8, s8, "k2", 112, 10, NULL);
  trace = builder_finish (&b);
  suanli_whatif_options_init (&options);
  whatif = suanli_whatif_new (trace, &options, &error);
  g_assert_no_error (error);
  notes = suanli_whatif_get_notes (whatif);
  for (guint i = 0; i < notes->len; i++)
    {
      const char *sentence = g_ptr_array_index (notes, i);

      g_assert_null (strstr (sentence, "the trace has no cuda_sync records"));
      said |= g_str_has_prefix (sentence, "1 stream waits on events have no cuda_sync record giving their streams");
    }
  g_assert_true (said);
}

/* A collective's successor on its stream waits for it; overlapped, it no longer does, but the
 * step still ends after the collective. */
static SuanliTrace *
collective_trace (guint *stream,
                  guint *nccl,
                  guint *after)
{
  Builder b;
  guint thread;

  builder_init (&b, &thread, NULL);
  *stream = track_of (&b, TRUE, 9);
  *nccl = launch (&b, thread, 0, *stream, "ncclDevKernel_AllReduce_Sum_f32_RING_LL(ncclDevKernelArgsStorage<4096ul>)", 10,
                  100, NULL);
  *after = launch (&b, thread, 5, *stream, "void at::native::vectorized_elementwise_kernel<4>", 111, 20, NULL);
  return builder_finish (&b);
}

static void
test_collective_successor (void)
{
  g_autoptr(SuanliTrace) trace = NULL;
  guint stream, nccl, after;
  Replay r;

  trace = collective_trace (&stream, &nccl, &after);
  replay_init (&r, trace);
  assert_exact (&r);
  replay_with (&r, stream, nccl, 200);
  g_assert_cmpint (start_of (&r, stream, after), ==, 211);
  replay_clear (&r);
}

/* Hardware with known rates: an "A100" and a system twice as fast in everything. */
static void
fill_hardware (SuanliWhatifHardware *hardware,
               const char           *name,
               double                scale)
{
  memset (hardware, 0, sizeof *hardware);
  g_strlcpy (hardware->name, name, sizeof hardware->name);
  hardware->flops[SUANLI_NUMBER_FP32] = 19.5e12 * scale;
  hardware->flops[SUANLI_NUMBER_TF32] = 156e12 * scale;
  hardware->flops[SUANLI_NUMBER_BF16] = 312e12 * scale;
  hardware->flops[SUANLI_NUMBER_FP16] = 312e12 * scale;
  hardware->memory_bandwidth = 2.0e12 * scale;
  hardware->link_bandwidth = 300e9 * scale;
}

static void
test_overlap_comm (void)
{
  g_autoptr(SuanliTrace) trace = NULL;
  g_autoptr(SuanliWhatif) plain = NULL;
  g_autoptr(SuanliWhatif) overlapped = NULL;
  g_autoptr(GError) error = NULL;
  SuanliWhatifOptions options;
  SuanliTrace *projected;
  guint stream, nccl, after;
  gboolean seen = FALSE;

  trace = collective_trace (&stream, &nccl, &after);
  suanli_whatif_options_init (&options);
  fill_hardware (&options.measured, "A", 1);
  options.target = options.measured;
  plain = suanli_whatif_new (trace, &options, &error);
  g_assert_no_error (error);
  g_assert_cmpint (suanli_whatif_get_figures (plain)->measured_ns, ==, 131);
  g_assert_cmpint (suanli_whatif_get_figures (plain)->replayed_ns, ==, 131);
  g_assert_cmpint (suanli_whatif_get_figures (plain)->projected_ns, ==, 131);

  options.overlap_comm = TRUE;
  overlapped = suanli_whatif_new (trace, &options, &error);
  g_assert_no_error (error);
  /* The elementwise kernel starts after its launch (5 + the typical 10), no longer after the
   * all-reduce, yet the step ends with the all-reduce, at 110. */
  g_assert_cmpint (suanli_whatif_get_figures (overlapped)->projected_ns, ==, 110);
  projected = suanli_whatif_get_projected (overlapped);
  for (guint t = 0; t < suanli_trace_get_n_tracks (projected); t++)
    {
      SuanliTrack *track = suanli_trace_get_track (projected, t);

      for (guint s = 0; s < track->slices->len; s++)
        {
          SuanliSlice *slice = &g_array_index (track->slices, SuanliSlice, s);

          if (g_str_has_prefix (suanli_trace_get_string (projected, slice->name), "void at::native"))
            {
              g_assert_cmpint (slice->start, <, 110);
              seen = TRUE;
            }
        }
    }
  g_assert_true (seen);
}

/* Classes, formats, factors and reasons of known kernels on hardware twice as fast. */
static void
test_classes_and_factors (void)
{
  Builder b;
  g_autoptr(SuanliTrace) trace = NULL;
  g_autoptr(SuanliWhatif) whatif = NULL;
  g_autoptr(GError) error = NULL;
  SuanliWhatifOptions options;
  guint thread, stream, copies;
  GArray *kernels;
  struct { const char *name; SuanliWorkClass work_class; SuanliNumberFormat format; double factor; const char *word; } expected[] = {
    { "Memcpy HtoD (Pageable -> Device)", SUANLI_WORK_HOST, SUANLI_NUMBER_FP32, 1, "not scaled" },
    { "sm80_xmma_gemm_bf16bf16_bf16f32_f32_tn_n_tilesize96x64x64", SUANLI_WORK_COMPUTE, SUANLI_NUMBER_BF16, 0.5, "312 → 624 TFLOP/s" },
    { "ampere_sgemm_32x32_sliced1x4_tn", SUANLI_WORK_COMPUTE, SUANLI_NUMBER_FP32, 0.5, "FP32" },
    { "void at::native::vectorized_elementwise_kernel<4, at::native::FillFunctor<float>>", SUANLI_WORK_MEMORY,
      SUANLI_NUMBER_FP32, 0.5, "2.00 → 4.00 TB/s" },
    { "ncclDevKernel_AllReduce_Sum_bf16_RING_LL(ncclDevKernelArgsStorage<4096ul>)", SUANLI_WORK_COMMUNICATION,
      SUANLI_NUMBER_BF16, 0.5, "300 → 600 GB/s" },
  };

  builder_init (&b, &thread, &stream);
  copies = track_of (&b, TRUE, 8);
  for (guint i = 0; i < G_N_ELEMENTS (expected); i++)
    launch (&b, thread, (gint64) i * 1000, i == 0 ? copies : stream, expected[i].name, (gint64) i * 1000 + 10, 100, NULL);
  trace = builder_finish (&b);
  {
    /* The copy's category, not a kernel's. */
    SuanliTrack *track = suanli_trace_get_track (trace, copies);
    g_array_index (track->slices, SuanliSlice, 0).category = suanli_trace_intern (trace, "gpu_memcpy", -1);
  }
  suanli_whatif_options_init (&options);
  fill_hardware (&options.measured, "A", 1);
  fill_hardware (&options.target, "B", 2);
  whatif = suanli_whatif_new (trace, &options, &error);
  g_assert_no_error (error);
  kernels = suanli_whatif_get_kernels (whatif);
  g_assert_cmpuint (kernels->len, ==, G_N_ELEMENTS (expected));
  for (guint i = 0; i < G_N_ELEMENTS (expected); i++)
    {
      gboolean found = FALSE;

      for (guint k = 0; k < kernels->len; k++)
        {
          SuanliWhatifKernel *kernel = &g_array_index (kernels, SuanliWhatifKernel, k);

          if (!g_str_equal (suanli_trace_get_string (trace, kernel->name), expected[i].name))
            continue;
          found = TRUE;
          g_assert_cmpint (kernel->work_class, ==, expected[i].work_class);
          if (expected[i].work_class == SUANLI_WORK_COMPUTE)
            g_assert_cmpint (kernel->format, ==, expected[i].format);
          g_assert_cmpfloat_with_epsilon (kernel->factor, expected[i].factor, 1e-9);
          g_assert_cmpint (kernel->measured_ns, ==, 100);
          g_assert_nonnull (strstr (kernel->reason, expected[i].word));
        }
      g_assert_true (found);
    }
  /* Faster everywhere: the step is faster, not more than 2× (launches and host time stay). */
  g_assert_cmpint (suanli_whatif_get_figures (whatif)->projected_ns, <, suanli_whatif_get_figures (whatif)->measured_ns);
  g_assert_cmpint (suanli_whatif_get_figures (whatif)->replayed_ns, ==, suanli_whatif_get_figures (whatif)->measured_ns);
}

/* A rate the catalog does not give leaves the work unscaled and says which. */
static void
test_unknown_rate (void)
{
  Builder b;
  g_autoptr(SuanliTrace) trace = NULL;
  g_autoptr(SuanliWhatif) whatif = NULL;
  g_autoptr(GError) error = NULL;
  SuanliWhatifOptions options;
  SuanliWhatifKernel *kernel;
  guint thread, stream;

  builder_init (&b, &thread, &stream);
  launch (&b, thread, 0, stream, "sm90_xmma_gemm_e4m3e4m3_f32", 10, 100, NULL);
  trace = builder_finish (&b);
  suanli_whatif_options_init (&options);
  fill_hardware (&options.measured, "Old GPU", 1);
  fill_hardware (&options.target, "New GPU", 2);
  options.target.flops[SUANLI_NUMBER_FP8] = 1979e12;   /* the measured one has none */
  whatif = suanli_whatif_new (trace, &options, &error);
  g_assert_no_error (error);
  kernel = &g_array_index (suanli_whatif_get_kernels (whatif), SuanliWhatifKernel, 0);
  g_assert_cmpint (kernel->format, ==, SUANLI_NUMBER_FP8);
  g_assert_cmpfloat (kernel->factor, ==, 1);
  g_assert_nonnull (strstr (kernel->reason, "no FP8 rate for Old GPU"));
  /* The notes say how much time stayed as measured, and why (the step is not silently mixed). */
  {
    GPtrArray *notes = suanli_whatif_get_notes (whatif);
    gboolean said = FALSE;

    for (guint i = 0; i < notes->len; i++)
      said |= strstr (g_ptr_array_index (notes, i), "100 ns of compute per step was left as measured: a system has no "
                                                    "FP8 rate") != NULL;
    g_assert_true (said);
  }
}

/* Host gaps removed: the launch-bound kernels run back to back, after launches of no time. */
static void
test_no_host_gaps (void)
{
  Builder b;
  g_autoptr(SuanliTrace) trace = NULL;
  g_autoptr(SuanliWhatif) whatif = NULL;
  g_autoptr(GError) error = NULL;
  SuanliWhatifOptions options;
  guint thread, stream;

  builder_init (&b, &thread, &stream);
  launch (&b, thread, 0, stream, "k1", 20, 10, NULL);
  launch (&b, thread, 100, stream, "k2", 120, 10, NULL);
  trace = builder_finish (&b);
  suanli_whatif_options_init (&options);
  options.no_host_gaps = TRUE;
  whatif = suanli_whatif_new (trace, &options, &error);
  g_assert_no_error (error);
  g_assert_cmpint (suanli_whatif_get_figures (whatif)->measured_ns, ==, 130);
  /* The typical stream gap is 0 here (no kernel was bound by the one before it). */
  g_assert_cmpint (suanli_whatif_get_figures (whatif)->projected_ns, ==, 20);
}

/* CUDA graphs never make a step slower: a launch bound by a short delay (2) keeps it, though the
 * typical stream gap (50) is longer (every launch at 50 made this step 240, not 212). */
static void
test_no_host_gaps_never_slower (void)
{
  Builder b;
  g_autoptr(SuanliTrace) trace = NULL;
  g_autoptr(SuanliWhatif) plain = NULL, graphs = NULL;
  g_autoptr(GError) error = NULL;
  SuanliWhatifOptions options;
  guint thread, stream;

  builder_init (&b, &thread, &stream);
  launch (&b, thread, 0, stream, "k1", 2, 10, NULL);        /* launch-bound, 2 after its launch */
  launch (&b, thread, 5, stream, "k2", 62, 10, NULL);       /* queued, 50 after k1 */
  launch (&b, thread, 10, stream, "k3", 122, 10, NULL);     /* queued, 50 after k2 */
  launch (&b, thread, 200, stream, "k4", 202, 10, NULL);    /* launch-bound again, ends at 212 */
  trace = builder_finish (&b);
  suanli_whatif_options_init (&options);
  plain = suanli_whatif_new (trace, &options, &error);
  g_assert_no_error (error);
  options.no_host_gaps = TRUE;
  graphs = suanli_whatif_new (trace, &options, &error);
  g_assert_no_error (error);
  g_assert_cmpint (suanli_whatif_get_figures (plain)->projected_ns, ==, 212);
  g_assert_cmpint (suanli_whatif_get_figures (graphs)->projected_ns, <=, suanli_whatif_get_figures (plain)->projected_ns);
  /* k1 at 2 as measured; k2 and k3 50 after the one before; k4 50 after k3 (182), not at its launch. */
  g_assert_cmpint (suanli_whatif_get_figures (graphs)->projected_ns, ==, 192);
}

/* With steps, only the host time inside them goes: removing the gap between two steps would start
 * step 2 while step 1's long kernel still runs, and its kernel would wait (1000, not 100). */
static void
test_no_host_gaps_in_steps (void)
{
  Builder b;
  g_autoptr(SuanliTrace) trace = NULL;
  g_autoptr(SuanliWhatif) plain = NULL, graphs = NULL;
  g_autoptr(GError) error = NULL;
  SuanliWhatifOptions options;
  guint thread, stream;

  builder_init (&b, &thread, &stream);
  add (&b, thread, "user_annotation", "ProfilerStep#1", 0, 100, NULL);
  launch (&b, thread, 10, stream, "k1", 20, 1000, NULL);
  add (&b, thread, "user_annotation", "ProfilerStep#2", 2000, 100, NULL);
  launch (&b, thread, 2010, stream, "k2", 2020, 10, NULL);
  trace = builder_finish (&b);
  suanli_whatif_options_init (&options);
  plain = suanli_whatif_new (trace, &options, &error);
  g_assert_no_error (error);
  options.no_host_gaps = TRUE;
  graphs = suanli_whatif_new (trace, &options, &error);
  g_assert_no_error (error);
  g_assert_cmpint (suanli_whatif_get_figures (plain)->projected_ns, ==, 1050);   /* periods of 2000 and 100 */
  g_assert_cmpint (suanli_whatif_get_figures (graphs)->projected_ns, <=, suanli_whatif_get_figures (plain)->projected_ns);
}

/* Another precision, another GPU count and an operator made faster, on the same hardware. */
static void
test_precision_count_and_operator (void)
{
  Builder b;
  g_autoptr(SuanliTrace) trace = NULL;
  g_autoptr(SuanliWhatif) whatif = NULL;
  g_autoptr(GError) error = NULL;
  SuanliWhatifOptions options;
  guint thread, stream, comms;
  GArray *kernels;

  builder_init (&b, &thread, &stream);
  comms = track_of (&b, TRUE, 9);
  launch (&b, thread, 0, stream, "ampere_sgemm_128x64_nn", 10, 100000, NULL);
  launch (&b, thread, 200000, stream, "void at::native::vectorized_elementwise_kernel<4, at::native::AddFunctor<float>>", 200010,
          100000, NULL);
  launch (&b, thread, 400000, comms, "ncclDevKernel_AllReduce_Sum_f32_RING_LL(ncclDevKernelArgsStorage<4096ul>)", 400010, 100000,
          NULL);
  /* An elementwise kernel launched under aten::linear. */
  add (&b, thread, "cpu_op", "aten::linear", 599990, 20, NULL);
  launch (&b, thread, 600000, stream, "void at::native::unrolled_elementwise_kernel<bias>", 600010, 100000, NULL);
  trace = builder_finish (&b);
  suanli_whatif_options_init (&options);
  fill_hardware (&options.measured, "A", 1);
  options.target = options.measured;
  options.measured.count = 8;
  options.target.count = 16;
  options.precision = SUANLI_NUMBER_BF16;
  options.faster = "linear";
  options.faster_factor = 4;
  whatif = suanli_whatif_new (trace, &options, &error);
  g_assert_no_error (error);
  kernels = suanli_whatif_get_kernels (whatif);
  for (guint k = 0; k < kernels->len; k++)
    {
      SuanliWhatifKernel *kernel = &g_array_index (kernels, SuanliWhatifKernel, k);
      const char *name = suanli_trace_get_string (trace, kernel->name);

      if (g_str_has_prefix (name, "ampere_sgemm"))
        g_assert_cmpfloat_with_epsilon (kernel->factor, 19.5 / 312, 1e-3);   /* FP32 → BF16's rate */
      else if (strstr (name, "AddFunctor") != NULL)
        {
          g_assert_cmpfloat_with_epsilon (kernel->factor, 0.5, 1e-9);         /* 4 → 2 bytes per element */
          g_assert_nonnull (strstr (kernel->reason, "4 → 2 bytes per element"));
        }
      else if (g_str_has_prefix (name, "nccl"))
        {
          /* All-reduce's bus factor 2·7/8 → 2·15/16. */
          g_assert_cmpfloat_with_epsilon (kernel->factor, (30.0 / 16) / (14.0 / 8), 1e-3);
          g_assert_nonnull (strstr (kernel->reason, "8 → 16 GPUs"));
        }
      else
        {
          /* Under aten::linear: 4× faster, and its format taken to be the step's (FP32 → BF16). */
          g_assert_cmpfloat_with_epsilon (kernel->factor, 0.5 / 4, 1e-3);
          g_assert_nonnull (strstr (kernel->reason, "launched under “linear”"));
        }
    }
}

/* Data parallelism on one GPU: the collective costs nothing (its bus factor 2(n−1)/n is 0 at n = 1). */
static void
test_one_gpu (void)
{
  g_autoptr(SuanliTrace) trace = NULL;
  g_autoptr(SuanliWhatif) whatif = NULL;
  g_autoptr(GError) error = NULL;
  SuanliWhatifOptions options;
  guint stream, nccl, after;
  GArray *kernels;
  gboolean seen = FALSE;

  trace = collective_trace (&stream, &nccl, &after);
  suanli_whatif_options_init (&options);
  fill_hardware (&options.measured, "A", 1);
  options.target = options.measured;
  options.measured.count = 8;
  options.target.count = 1;
  whatif = suanli_whatif_new (trace, &options, &error);
  g_assert_no_error (error);
  kernels = suanli_whatif_get_kernels (whatif);
  for (guint k = 0; k < kernels->len; k++)
    {
      SuanliWhatifKernel *kernel = &g_array_index (kernels, SuanliWhatifKernel, k);

      if (kernel->work_class != SUANLI_WORK_COMMUNICATION)
        continue;
      g_assert_cmpint (kernel->projected_ns, ==, 0);
      g_assert_nonnull (strstr (kernel->reason, "8 → 1 GPU: a collective over one GPU moves nothing"));
      seen = TRUE;
    }
  g_assert_true (seen);
  g_assert_cmpint (suanli_whatif_get_figures (whatif)->projected_class_ns[SUANLI_WORK_COMMUNICATION], ==, 0);
  g_assert_cmpint (suanli_whatif_get_figures (whatif)->projected_ns, <, suanli_whatif_get_figures (whatif)->measured_ns);
}

/* A factor outside SUANLI_WHATIF_FASTER_MIN … MAX is held to it (1e-300 overflowed llround). */
static void
test_faster_bounds (void)
{
  Builder b;
  g_autoptr(SuanliTrace) trace = NULL;
  guint thread, stream;
  double factors[] = { 1e-300, 1e300 };
  gint64 expected[] = { 100000000, 0 };

  builder_init (&b, &thread, &stream);
  launch (&b, thread, 0, stream, "ampere_sgemm_128x64_nn", 10, 100000, NULL);
  trace = builder_finish (&b);
  for (guint i = 0; i < G_N_ELEMENTS (factors); i++)
    {
      g_autoptr(SuanliWhatif) whatif = NULL;
      g_autoptr(GError) error = NULL;
      SuanliWhatifOptions options;
      SuanliWhatifKernel *kernel;

      suanli_whatif_options_init (&options);
      fill_hardware (&options.measured, "A", 1);
      options.target = options.measured;
      options.faster = "sgemm";
      options.faster_factor = factors[i];
      whatif = suanli_whatif_new (trace, &options, &error);
      g_assert_no_error (error);
      kernel = &g_array_index (suanli_whatif_get_kernels (whatif), SuanliWhatifKernel, 0);
      /* 1000× slower: 100 µs → 100 ms; a million times faster: 100 µs → 0.1 ns, 0. */
      g_assert_cmpint (kernel->projected_ns, ==, expected[i]);
      g_assert_cmpint (suanli_whatif_get_figures (whatif)->projected_ns, >=, 0);
    }
}

/* Formats of tensor-core kernels whose names say so in letters, FP8 before BF16. */
static void
test_format_words (void)
{
  struct { const char *name; SuanliNumberFormat format; } expected[] = {
    { "void cutlass::Kernel<cutlass_80_tensorop_s1688gemm_128x128_32x3_nn_align4>(cutlass_80_tensorop_s1688gemm_128x128_32x3_nn_align4::Params)",
      SUANLI_NUMBER_TF32 },
    { "ampere_s16816gemm_128x128_ldg8_stages_64x3_nn", SUANLI_NUMBER_TF32 },
    { "sm90_xmma_gemm_e4m3bf16_e4m3f32_f32_tn_n_tilesize128x128x128_cublas", SUANLI_NUMBER_FP8 },
    { "void nvjet_hsh_256x128_64x4_1x2_h_bz_coopA_NTN(CUtensorMap)", SUANLI_NUMBER_FP16 },
    { "turing_fp16_s1688gemm_fp16_128x128_ldg8_f2f_tn", SUANLI_NUMBER_FP16 },
    { "ampere_bf16_s16816gemm_bf16_128x128_ldg8_f2f_stages_64x3_tn", SUANLI_NUMBER_BF16 },
    { "volta_h884gemm_64x64_ldg8_nn", SUANLI_NUMBER_FP16 },
  };

  for (guint i = 0; i < G_N_ELEMENTS (expected); i++)
    {
      SuanliNumberFormat format = SUANLI_NUMBER_N_FORMATS;

      g_assert_true (suanli_number_format_from_text (expected[i].name, &format, NULL));
      g_assert_cmpint (format, ==, expected[i].format);
    }
}

/* A compute kernel whose name gives no format takes the step's main known one (BF16 here), and
 * its reason says so; FP32 only when no compute kernel's format is known. */
static void
test_assumed_format (void)
{
  for (guint with_bf16 = 0; with_bf16 < 2; with_bf16++)
    {
      Builder b;
      g_autoptr(SuanliTrace) trace = NULL;
      g_autoptr(SuanliWhatif) whatif = NULL;
      g_autoptr(GError) error = NULL;
      SuanliWhatifOptions options;
      guint thread, stream;
      GArray *kernels;
      gboolean seen = FALSE;

      builder_init (&b, &thread, &stream);
      if (with_bf16)
        launch (&b, thread, 0, stream, "sm80_xmma_gemm_bf16bf16_bf16f32_f32_tn_n_tilesize96x64x64", 10, 1000, NULL);
      launch (&b, thread, 2000, stream, "cutlass_gemm_kernel_256x128", 2010, 100, NULL);
      trace = builder_finish (&b);
      suanli_whatif_options_init (&options);
      fill_hardware (&options.measured, "A", 1);
      fill_hardware (&options.target, "B", 2);
      whatif = suanli_whatif_new (trace, &options, &error);
      g_assert_no_error (error);
      kernels = suanli_whatif_get_kernels (whatif);
      for (guint k = 0; k < kernels->len; k++)
        {
          SuanliWhatifKernel *kernel = &g_array_index (kernels, SuanliWhatifKernel, k);

          if (!g_str_equal (suanli_trace_get_string (trace, kernel->name), "cutlass_gemm_kernel_256x128"))
            continue;
          seen = TRUE;
          g_assert_cmpint (kernel->format, ==, with_bf16 ? SUANLI_NUMBER_BF16 : SUANLI_NUMBER_FP32);
          g_assert_nonnull (strstr (kernel->reason, with_bf16 ? "BF16 (assumed: the step's main compute format"
                                                               : "FP32 (assumed: neither the name"));
        }
      g_assert_true (seen);
    }
}

/* Classes from the function's name, not its template arguments; batch norms and gemv are memory work. */
static void
test_class_words (void)
{
  struct { const char *name; SuanliWorkClass work_class; } expected[] = {
    { "void gemv2T_kernel_val<int, int, __nv_bfloat16, __nv_bfloat16, float, float, 128, 16, 4, 4, false, false, "
      "cublasGemvParamsEx<int, cublasGemvTensorStridedBatched<__nv_bfloat16 const>>>(cublasGemvParamsEx<int>, float, float)",
      SUANLI_WORK_MEMORY },
    { "void gemvx::kernel<int, int, __nv_bfloat16, __nv_bfloat16, float, float, false, true, true, false, 7, false, "
      "cublasGemvParamsEx<int>>(cublasGemvParamsEx<int>)", SUANLI_WORK_MEMORY },
    { "void cudnn::bn_fw_tr_1C11_kernel_NCHW<float, float, int, 512, true, 1>", SUANLI_WORK_MEMORY },
    { "void at::native::elementwise_kernel_with_index<int, cudnn_frontend_thing>", SUANLI_WORK_MEMORY },
    { "void at::native::some_kernel<float, cublas_helper>", SUANLI_WORK_MEMORY },
    { "void cutlass::Kernel<cutlass_80_tensorop_s1688gemm_128x128_32x3_nn_align4>", SUANLI_WORK_COMPUTE },
    { "flash_fwd_kernel<Flash_fwd_kernel_traits<128, 128, 64, 4, false, false, cutlass::bfloat16_t>>(Flash_fwd_params)",
      SUANLI_WORK_COMPUTE },
  };
  Builder b;
  g_autoptr(SuanliTrace) trace = NULL;
  g_autoptr(SuanliWorkClassifier) classifier = NULL;
  guint thread, stream;
  SuanliTrack *track;

  builder_init (&b, &thread, &stream);
  for (guint i = 0; i < G_N_ELEMENTS (expected); i++)
    launch (&b, thread, (gint64) i * 100, stream, expected[i].name, (gint64) i * 100 + 10, 50, NULL);
  trace = builder_finish (&b);
  classifier = suanli_work_classifier_new (trace, 0);
  track = suanli_trace_get_track (trace, stream);
  for (guint i = 0; i < G_N_ELEMENTS (expected); i++)
    {
      const SuanliWorkClassification *c =
        suanli_work_classifier_classify (classifier, &g_array_index (track->slices, SuanliSlice, i), NULL);

      g_test_message ("%s: %s", expected[i].name, c->why);
      g_assert_cmpint (c->work_class, ==, expected[i].work_class);
    }
}

/* ---- real traces -------------------------------------------------------------------------- */

/* With nothing changed, the projected timeline is the measured one: the file's threads and
 * streams, every slice at its measured time (nodes replayed, the rest through the time maps). */
static void
assert_same_times (SuanliTrace *trace,
                   guint        group,
                   SuanliTrace *projected)
{
  guint copied = 0;

  g_assert_nonnull (projected);
  for (guint t = 0; t < suanli_trace_get_n_tracks (trace); t++)
    {
      SuanliTrack *track = suanli_trace_get_track (trace, t);
      SuanliTrack *copy = NULL;

      if (track->group != group || (track->kind != SUANLI_TRACK_THREAD && track->kind != SUANLI_TRACK_GPU_STREAM))
        continue;
      for (guint u = 0; u < suanli_trace_get_n_tracks (projected) && copy == NULL; u++)
        {
          SuanliTrack *candidate = suanli_trace_get_track (projected, u);

          if (candidate->kind == track->kind && candidate->pid == track->pid && candidate->tid == track->tid)
            copy = candidate;
        }
      g_assert_nonnull (copy);
      g_assert_cmpuint (copy->slices->len, ==, track->slices->len);
      for (guint s = 0; s < track->slices->len; s++)
        {
          SuanliSlice *a = &g_array_index (track->slices, SuanliSlice, s);
          SuanliSlice *b = &g_array_index (copy->slices, SuanliSlice, s);

          g_assert_cmpint (b->start, ==, a->start);
          g_assert_cmpint (b->duration, ==, a->duration);
          g_assert_cmpstr (suanli_trace_get_string (projected, b->name), ==, suanli_trace_get_string (trace, a->name));
        }
      copied++;
    }
  g_assert_cmpuint (suanli_trace_get_n_tracks (projected), ==, copied);

  /* The flows between them, in order, joining the same slices. */
  {
    GArray *flows = suanli_trace_get_flows (trace), *copies = suanli_trace_get_flows (projected);
    guint k = 0;

    for (guint f = 0; f < flows->len; f++)
      {
        SuanliFlow *flow = &g_array_index (flows, SuanliFlow, f);
        SuanliTrack *from = suanli_trace_get_track (trace, flow->from_track), *to = suanli_trace_get_track (trace, flow->to_track);
        SuanliFlow *copy;

        if (from->group != group || to->group != group || from->kind == SUANLI_TRACK_COUNTER ||
            from->kind == SUANLI_TRACK_ASYNC || to->kind == SUANLI_TRACK_COUNTER || to->kind == SUANLI_TRACK_ASYNC)
          continue;
        g_assert_cmpuint (k, <, copies->len);
        copy = &g_array_index (copies, SuanliFlow, k++);
        g_assert_cmpint (g_array_index (suanli_trace_get_track (projected, copy->to_track)->slices, SuanliSlice,
                                        copy->to_slice).start,
                         ==, g_array_index (to->slices, SuanliSlice, flow->to_slice).start);
        g_assert_cmpint (g_array_index (suanli_trace_get_track (projected, copy->from_track)->slices, SuanliSlice,
                                        copy->from_slice).start,
                         ==, g_array_index (from->slices, SuanliSlice, flow->from_slice).start);
      }
    g_assert_cmpuint (k, ==, copies->len);
  }
}

/* Replayed within 2% of measured (here: exactly) on every file of @trace. */
static void
assert_replays (SuanliTrace *trace,
                const char  *name)
{
  for (guint g = 0; g < MAX (suanli_trace_get_n_groups (trace), 1); g++)
    {
      g_autoptr(SuanliWhatif) whatif = NULL;
      g_autoptr(GError) error = NULL;
      SuanliWhatifOptions options;
      const SuanliWhatifFigures *figures;

      suanli_whatif_options_init (&options);
      options.group = g;
      whatif = suanli_whatif_new (trace, &options, &error);
      g_assert_no_error (error);
      figures = suanli_whatif_get_figures (whatif);
      g_test_message ("%s: measured %" G_GINT64_FORMAT " ns, replayed %" G_GINT64_FORMAT " ns, %u steps", name,
                      figures->measured_ns, figures->replayed_ns, figures->steps);
      g_assert_cmpint (figures->measured_ns, >, 0);
      g_assert_cmpint (llabs (figures->replayed_ns - figures->measured_ns) * 50, <=, figures->measured_ns);
      g_assert_cmpint (figures->projected_ns, ==, figures->replayed_ns);
      g_assert_cmpuint (suanli_whatif_get_group (whatif), ==, g);
      assert_same_times (trace, g, suanli_whatif_get_projected (whatif));
    }
}

static void
test_fixtures (void)
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

      if (!g_str_has_suffix (name, ".json.gz") && !g_str_has_suffix (name, ".json"))
        continue;
      trace = suanli_test_load_file (path);
      assert_replays (trace, name);
      {
        /* The replay is exact because of its edges, not for want of them: GPU work is launched. */
        g_autoptr(SuanliReplayGraph) graph = suanli_replay_graph_new (trace, 0);

        g_test_message ("%s: %" G_GUINT64_FORMAT " launch, %" G_GUINT64_FORMAT " stream, %" G_GUINT64_FORMAT " event, %"
                        G_GUINT64_FORMAT " sync edges", name,
                        suanli_replay_graph_count_edges (graph, SUANLI_REPLAY_EDGE_LAUNCH),
                        suanli_replay_graph_count_edges (graph, SUANLI_REPLAY_EDGE_STREAM),
                        suanli_replay_graph_count_edges (graph, SUANLI_REPLAY_EDGE_EVENT),
                        suanli_replay_graph_count_edges (graph, SUANLI_REPLAY_EDGE_SYNC));
        g_assert_false (suanli_replay_graph_get_cycle (graph));
        if (suanli_replay_graph_has_gpu (graph))
          g_assert_cmpuint (suanli_replay_graph_count_edges (graph, SUANLI_REPLAY_EDGE_LAUNCH), >, 0);
      }
      seen++;
    }
  g_assert_cmpuint (seen, >, 0);
}

/* Debian's torch writes a CPU trace with ProfilerStep#N (the legacy form, as tests/scripts/check-torch-trace.py
 * makes them); its host chain replays to its measured step. */
static void
test_torch_trace (void)
{
  static const char script[] =
    "import sys, torch\n"
    "from torch.profiler import ProfilerActivity, profile, record_function, schedule\n"
    "torch.manual_seed(0)\n"
    "model = torch.nn.Sequential(torch.nn.Linear(64, 128), torch.nn.ReLU(), torch.nn.Linear(128, 10))\n"
    "optimizer = torch.optim.SGD(model.parameters(), lr=0.01)\n"
    "inputs = torch.randn(32, 64)\n"
    "with profile(activities=[ProfilerActivity.CPU], record_shapes=True, with_flops=True,\n"
    "             schedule=schedule(wait=0, warmup=1, active=3, repeat=1),\n"
    "             on_trace_ready=lambda done: done.export_chrome_trace(sys.argv[1])) as profiler:\n"
    "    for _ in range(4):\n"
    "        with record_function('train_step'):\n"
    "            optimizer.zero_grad()\n"
    "            model(inputs).square().mean().backward()\n"
    "            optimizer.step()\n"
    "        profiler.step()\n";
  g_autofree char *directory = g_dir_make_tmp ("suanli-whatif-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (directory, "torch.json", NULL);
  g_autofree char *errors = NULL;
  g_autoptr(SuanliTrace) trace = NULL;
  g_autoptr(GError) error = NULL;
  const char *argv[] = { "/usr/bin/python3", "-c", script, path, NULL };
  int status = 0;

  if (!g_file_test (argv[0], G_FILE_TEST_IS_EXECUTABLE) ||
      !g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_STDOUT_TO_DEV_NULL, NULL, NULL, NULL, &errors, &status, &error) ||
      !g_spawn_check_wait_status (status, NULL) || !g_file_test (path, G_FILE_TEST_EXISTS))
    {
      g_test_skip ("Debian's python3-torch did not write a trace (is it installed?)");
      g_rmdir (directory);
      return;
    }
  trace = suanli_test_load_file (path);
  {
    g_autoptr(SuanliWhatif) whatif = NULL;
    SuanliWhatifOptions options;

    suanli_whatif_options_init (&options);
    whatif = suanli_whatif_new (trace, &options, &error);
    g_assert_no_error (error);
    g_assert_cmpuint (suanli_whatif_get_figures (whatif)->steps, ==, 3);
  }
  assert_replays (trace, "torch");
  g_unlink (path);
  g_rmdir (directory);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/whatif/replay/queued-kernel", test_queued_kernel);
  g_test_add_func ("/whatif/replay/launch-bound-kernel", test_launch_bound_kernel);
  g_test_add_func ("/whatif/replay/sync-waits-on-stream", test_sync_waits_on_stream);
  g_test_add_func ("/whatif/replay/stream-wait-event", test_stream_wait_event);
  g_test_add_func ("/whatif/replay/blocking-copy", test_blocking_copy);
  g_test_add_func ("/whatif/replay/cycle-broken", test_cycle_broken);
  g_test_add_func ("/whatif/unplaced-wait-note", test_unplaced_wait_note);
  g_test_add_func ("/whatif/replay/collective-successor", test_collective_successor);
  g_test_add_func ("/whatif/overlap-comm", test_overlap_comm);
  g_test_add_func ("/whatif/classes-and-factors", test_classes_and_factors);
  g_test_add_func ("/whatif/unknown-rate", test_unknown_rate);
  g_test_add_func ("/whatif/no-host-gaps", test_no_host_gaps);
  g_test_add_func ("/whatif/no-host-gaps-never-slower", test_no_host_gaps_never_slower);
  g_test_add_func ("/whatif/no-host-gaps-in-steps", test_no_host_gaps_in_steps);
  g_test_add_func ("/whatif/precision-count-and-operator", test_precision_count_and_operator);
  g_test_add_func ("/whatif/one-gpu", test_one_gpu);
  g_test_add_func ("/whatif/faster-bounds", test_faster_bounds);
  g_test_add_func ("/whatif/format-words", test_format_words);
  g_test_add_func ("/whatif/assumed-format", test_assumed_format);
  g_test_add_func ("/whatif/class-words", test_class_words);
  g_test_add_func ("/whatif/fixtures", test_fixtures);
  g_test_add_func ("/whatif/torch-trace", test_torch_trace);
  return g_test_run ();
}
