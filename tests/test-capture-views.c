/* test-capture-views.c — what the views and suanli-cli show of a capture: kernel names it gets
 * mangled from CUPTI, seen demangled as Kineto shows them (by the timeline and its search, the flame
 * graph, the kernels table and `suanli-cli trace diff` against a Kineto trace of the same kernels);
 * and what `trace summary` says of where the capture starts and why it ended
 *
 * The mangled names are those of real PyTorch, cuDNN and NCCL kernels, whose demangled forms are
 * the names in Kineto traces (tests/data/kineto: HolisticTraceAnalysis's test traces).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>
#include <glib/gi18n.h>
#include <glib/gstdio.h>
#include <json-glib/json-glib.h>

#include "suanli-flame.h"
#include "suanli-import.h"
#include "suanli-local-capture.h"
#include "suanli-test-capture.h"
#include "suanli-test-fixtures.h"
#include "suanli-test-process.h"
#include "suanli-trace-figures.h"
#ifdef HAVE_PAINT
#include "suanli-timeline-painter.h"
#endif

typedef struct
{
  const char *mangled;
  const char *kineto;    /* as the Kineto trace names it */
  guint       count;     /* in the capture */
} Kernel;

static const Kernel kernels[] = {
  { "_ZN2at6native12_GLOBAL__N_121max_pool_forward_nchwIffEEviPKT_llliiiiiiiiiiPT0_Pl",
    "void at::native::(anonymous namespace)::max_pool_forward_nchw<float, float>(int, float const*, long, long, long, "
    "int, int, int, int, int, int, int, int, int, int, float*, long*)", 3 },
  { "_ZN5cudnn3ops16nchwToNhwcKernelIfffLb0ELb1EL21cudnnKernelDataType_t2EEEvNS0_18nchw2nhwc_params_tIT_EEPKS4_PT0_",
    "void cudnn::ops::nchwToNhwcKernel<float, float, float, false, true, (cudnnKernelDataType_t)2>"
    "(cudnn::ops::nchw2nhwc_params_t<float>, float const*, float*)", 2 },
  { "_ZN2at6native18elementwise_kernelILi128ELi2EZNS0_15gpu_kernel_implINS0_15CUDAFunctor_addIfEEEEvRNS_18TensorIterator"
    "BaseERKT_EUliE_EEviT1_",
    "void at::native::elementwise_kernel<128, 2, at::native::gpu_kernel_impl<at::native::CUDAFunctor_add<float> >"
    "(at::TensorIteratorBase&, at::native::CUDAFunctor_add<float> const&)::{lambda(int)#1}>(int, "
    "at::native::gpu_kernel_impl<at::native::CUDAFunctor_add<float> >(at::TensorIteratorBase&, "
    "at::native::CUDAFunctor_add<float> const&)::{lambda(int)#1})", 4 },
  /* Not C++: stays as it is. */
  { "ampere_sgemm_32x32_sliced1x4_tn", "ampere_sgemm_32x32_sliced1x4_tn", 1 },
};

/* Two more, checked as names only (their Kineto traces are other fixtures). */
static const Kernel others[] = {
  { "_ZN2at6native29vectorized_elementwise_kernelILi4ENS0_11FillFunctorIfEENS_6detail5ArrayIPcLi1EEEEEviT0_T1_",
    "void at::native::vectorized_elementwise_kernel<4, at::native::FillFunctor<float>, at::detail::Array<char*, 1> >"
    "(int, at::native::FillFunctor<float>, at::detail::Array<char*, 1>)", 1 },
  { "_Z42ncclKernel_SendRecv_RING_SIMPLE_Sum_int8_tP11ncclDevCommmP8ncclWork",
    "ncclKernel_SendRecv_RING_SIMPLE_Sum_int8_t(ncclDevComm*, unsigned long, ncclWork*)", 1 },
  /* Starts like C++ but is none: stays as it is. */
  { "_Znot_a_symbol", "_Znot_a_symbol", 1 },
};

static char *folder;   /* the test's own, for its files */

/* A capture of the kernels above, each launched by a cudaLaunchKernel on the job's main thread,
 * with @flags in its header and ended for @reason (@detail: why, in words). */
static char *
write_capture (guint32          flags,
               SuanliEndReason  reason,
               const char      *detail)
{
  g_auto(SuanliTestCapture) capture = { 0 };
  g_autoptr(GError) error = NULL;
  char *path = g_build_filename (folder, "job.suanli-capture", NULL);
  guint32 launch, correlation = 1;
  guint64 time = 1000000;

  suanli_test_capture_init (&capture, flags);
  launch = suanli_test_capture_string (&capture, "cudaLaunchKernel");
  for (guint k = 0; k < G_N_ELEMENTS (kernels) + G_N_ELEMENTS (others); k++)
    {
      const Kernel *kernel = k < G_N_ELEMENTS (kernels) ? &kernels[k] : &others[k - G_N_ELEMENTS (kernels)];
      /* Each kernel's name is given once, and used by all its launches. */
      guint32 name = suanli_test_capture_string (&capture, kernel->mangled);

      for (guint i = 0; i < kernel->count; i++, correlation++, time += 200000)
        {
          SuanliCaptureApi api = { { 0 } };

          suanli_capture_init_record (&api.record, SUANLI_CAPTURE_API, sizeof api);
          api.start = time, api.end = time + 5000, api.correlation = correlation, api.callback_id = 211;
          api.thread = 4242, api.name = launch;
          g_byte_array_append (capture.bytes, (const guint8 *) &api, sizeof api);
          suanli_test_capture_kernel (&capture, correlation, name, time + 10000, time + 10000 + 20000 * (k + 1));
        }
    }
  suanli_test_capture_end (&capture, reason, detail != NULL ? suanli_test_capture_string (&capture, detail) : 0, 0);
  g_file_set_contents (path, (const char *) capture.bytes->data, capture.bytes->len, &error);
  g_assert_no_error (error);
  return path;
}

static SuanliTrace *
read_trace (const char *path)
{
  g_autoptr(SuanliTrace) trace = suanli_trace_new ();
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(GError) error = NULL;
  SuanliImportStats stats = { 0 };

  g_assert_true (suanli_import_file (trace, file, &stats, NULL, &error));
  g_assert_no_error (error);
  suanli_import_stats_clear (&stats);
  return g_steal_pointer (&trace);
}

/* The timeline's slices, the kernels table, the flame graph and the timeline's search. */
static void
test_views (void)
{
  g_autofree char *path = write_capture (SUANLI_CAPTURE_FROM_LAUNCH, SUANLI_END_STOPPED, NULL);
  g_autoptr(SuanliTrace) trace = read_trace (path);
  g_autoptr(SuanliTraceFigures) figures = suanli_trace_figures_new (trace);
  g_autoptr(SuanliFlame) flame = suanli_flame_new (trace, SUANLI_FLAME_GPU, G_MININT64, G_MAXINT64);
  SuanliTrack *stream = suanli_test_find_gpu_stream (trace);

  for (guint k = 0; k < G_N_ELEMENTS (kernels) + G_N_ELEMENTS (others); k++)
    {
      const Kernel *kernel = k < G_N_ELEMENTS (kernels) ? &kernels[k] : &others[k - G_N_ELEMENTS (kernels)];
      guint slices = 0, rows = 0, nodes = 0;

      /* The timeline: each of its slices by the name Kineto gives it, the mangled one beside. */
      for (guint s = 0; s < stream->slices->len; s++)
        {
          const SuanliSlice *slice = &g_array_index (stream->slices, SuanliSlice, s);

          if (!g_str_equal (suanli_trace_get_string (trace, slice->name), kernel->kineto))
            continue;
          slices++;
          if (g_str_equal (kernel->mangled, kernel->kineto))
            g_assert_null (suanli_test_find_string_arg (trace, slice, "mangled name"));
          else
            g_assert_cmpstr (suanli_test_find_string_arg (trace, slice, "mangled name"), ==, kernel->mangled);
        }
      g_assert_cmpuint (slices, ==, kernel->count);
      /* The kernels table. */
      for (guint r = 0; r < figures->kernels->len; r++)
        {
          SuanliKernelStats *row = &g_array_index (figures->kernels, SuanliKernelStats, r);

          if (g_str_equal (suanli_trace_get_string (trace, row->name), kernel->kineto))
            {
              g_assert_cmpuint (row->count, ==, kernel->count);
              rows++;
            }
        }
      g_assert_cmpuint (rows, ==, 1);
      /* The GPU flame graph: under the launch. */
      for (guint32 n = 1; n < suanli_flame_get_n_nodes (flame); n++)
        nodes += g_str_equal (suanli_flame_get_name (flame, n), kernel->kineto);
      g_assert_cmpuint (nodes, ==, 1);
    }
#ifdef HAVE_PAINT
  {
    SuanliTimelinePainter *painter = suanli_timeline_painter_new (trace);

    /* What people search for is what they read: the demangled name's parts. */
    g_assert_cmpuint (suanli_timeline_painter_set_search (painter, "max_pool_forward_nchw<float, float>"), ==, 3);
    g_assert_cmpuint (suanli_timeline_painter_set_search (painter, "CUDAFunctor_add<float>"), ==, 4);
    g_assert_cmpuint (suanli_timeline_painter_set_search (painter, "at::native::"), ==, 3 + 4 + 1);
    g_assert_cmpuint (suanli_timeline_painter_set_search (painter, "ncclKernel_SendRecv"), ==, 1);
    suanli_timeline_painter_free (painter);
  }
#endif
  g_unlink (path);
}

/* A Kineto trace of the same kernels, as PyTorch's profiler writes one (the parts diff reads). */
static char *
write_kineto (void)
{
  g_autoptr(GString) json = g_string_new ("{\"schemaVersion\": 1, \"traceEvents\": [\n");
  g_autoptr(GError) error = NULL;
  char *path = g_build_filename (folder, "kineto.json", NULL);
  gint64 time = 1000;

  for (guint k = 0; k < G_N_ELEMENTS (kernels); k++)
    for (guint i = 0; i < kernels[k].count; i++, time += 100)
      {
        g_autofree char *name = g_strescape (kernels[k].kineto, NULL);

        g_string_append_printf (json,
                                "%s{\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"%s\", \"pid\": 0, \"tid\": 7, "
                                "\"ts\": %" G_GINT64_FORMAT ", \"dur\": 20, \"args\": {\"device\": 0, \"stream\": 7}}\n",
                                time == 1000 ? "" : ",", name, time);
      }
  g_string_append (json, "]}\n");
  g_file_set_contents (path, json->str, (gssize) json->len, &error);
  g_assert_no_error (error);
  return path;
}

/* Each kernel of the Kineto trace is found in the capture under its name: in both, not only in
 * one. */
static void
check_diff (const char *capture,
            const char *kineto,
            guint       expected_b_count_of_first)
{
  const char *args[] = { "trace", "diff", capture, kineto, "--json", NULL };
  g_auto(SuanliTestRun) run = { 0 };
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) error = NULL;
  JsonArray *rows;

  suanli_test_run_cli (&run, "", args);
  g_assert_cmpint (run.status, ==, 0);
  g_assert_true (json_parser_load_from_data (parser, run.out, -1, &error));
  g_assert_no_error (error);
  rows = json_object_get_array_member (json_node_get_object (json_parser_get_root (parser)), "kernels");
  for (guint k = 0; k < G_N_ELEMENTS (kernels); k++)
    {
      gboolean found = FALSE;

      for (guint r = 0; r < json_array_get_length (rows); r++)
        {
          JsonObject *row = json_array_get_object_element (rows, r);

          if (!g_str_equal (json_object_get_string_member (row, "name"), kernels[k].kineto))
            continue;
          found = TRUE;
          g_assert_cmpint (json_object_get_int_member (row, "a_count"), ==, kernels[k].count);
          g_assert_cmpint (json_object_get_int_member (row, "b_count"), >, 0);
          if (k == 0 && expected_b_count_of_first > 0)
            g_assert_cmpint (json_object_get_int_member (row, "b_count"), ==, expected_b_count_of_first);
        }
      g_assert_true (found);
    }
  /* No mangled name is left over on the capture's side alone, but the one that is none. */
  for (guint r = 0; r < json_array_get_length (rows); r++)
    {
      const char *name = json_object_get_string_member (json_array_get_object_element (rows, r), "name");

      g_assert_true (!g_str_has_prefix (name, "_Z") || g_str_equal (name, "_Znot_a_symbol"));
    }
}

static void
test_diff (void)
{
  g_autofree char *capture = write_capture (SUANLI_CAPTURE_FROM_LAUNCH, SUANLI_END_STOPPED, NULL);
  g_autofree char *kineto = write_kineto ();
  g_autofree char *fixture = suanli_test_fixture_path ("critical_path__simple_add__trace.json.gz");

  check_diff (capture, kineto, kernels[0].count);
  /* Against the real trace of those kernels. */
  check_diff (capture, fixture, 6);
  g_unlink (capture);
  g_unlink (kineto);
}

/* `trace summary FILE --json`, parsed. */
static JsonNode *
summary_json (const char *path)
{
  const char *args[] = { "trace", "summary", path, "--json", NULL };
  g_auto(SuanliTestRun) run = { 0 };
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) error = NULL;

  suanli_test_run_cli (&run, "", args);
  g_assert_cmpint (run.status, ==, 0);
  g_assert_true (json_parser_load_from_data (parser, run.out, -1, &error));
  g_assert_no_error (error);
  return json_node_copy (json_parser_get_root (parser));
}

/* Where a capture starts (the job's start, or START when the collector attached) and why it ended
 * early, in the summary's words and JSON; the workbench shows the trace's first warning, so why it
 * ended comes first. */
static void
test_summary (void)
{
  static const char taken[] = "PyTorch's profiler called cuptiSubscribe";
  static const char failed[] = "cuptiActivityFlushAll failed: CUPTI_ERROR_UNKNOWN";
  const struct { guint32 flags; SuanliEndReason reason; const char *detail, *said, *warning; } cases[] = {
    { SUANLI_CAPTURE_FROM_LAUNCH, SUANLI_END_STOPPED, NULL, "Captured from the job's start\n", NULL },
    { SUANLI_CAPTURE_FROM_LAUNCH, SUANLI_END_JOB_EXIT, NULL, "Captured from the job's start\n", NULL },
    { 0, SUANLI_END_CUPTI_TAKEN, taken,
      "Captured from START (attached to a running job: earlier work is not in it)\n",
      "job.suanli-capture: The capture ended early: another CUPTI client (PyTorch's profiler, Nsight) took CUPTI "
      "over: PyTorch's profiler called cuptiSubscribe. What came before is kept." },
    { SUANLI_CAPTURE_FROM_LAUNCH, SUANLI_END_ERROR, failed, "Captured from the job's start\n",
      "job.suanli-capture: The capture ended early: CUPTI failed: cuptiActivityFlushAll failed: CUPTI_ERROR_UNKNOWN. "
      "What came before is kept." },
    { SUANLI_CAPTURE_FROM_LAUNCH, SUANLI_END_CUPTI_TAKEN, NULL, "Captured from the job's start\n",
      "job.suanli-capture: The capture ended early: another CUPTI client (PyTorch's profiler, Nsight) took CUPTI "
      "over. What came before is kept." },
  };

  for (guint c = 0; c < G_N_ELEMENTS (cases); c++)
    {
      g_autofree char *path = write_capture (cases[c].flags, cases[c].reason, cases[c].detail);
      const char *args[] = { "trace", "summary", path, NULL };
      g_auto(SuanliTestRun) run = { 0 };
      g_autoptr(JsonNode) json = summary_json (path);
      JsonObject *summary = json_node_get_object (json);
      JsonArray *warnings = json_object_get_array_member (summary, "warnings");
      JsonArray *captures = json_object_get_array_member (summary, "captures");
      gboolean attached = !(cases[c].flags & SUANLI_CAPTURE_FROM_LAUNCH);

      suanli_test_run_cli (&run, "", args);
      g_assert_cmpint (run.status, ==, 0);
      g_assert_nonnull (strstr (run.out, cases[c].said));
      g_assert_cmpuint (json_array_get_length (captures), ==, 1);
      g_assert_cmpstr (json_object_get_string_member (json_array_get_object_element (captures, 0), "from"), ==,
                       attached ? "start" : "launch");
      g_assert_cmpuint (json_array_get_length (warnings), ==, (cases[c].warning != NULL) + attached);
      if (cases[c].warning != NULL)
        {
          /* (Each warning names its file, by its path.) */
          g_assert_true (g_str_has_suffix (json_array_get_string_element (warnings, 0), cases[c].warning));
          g_assert_nonnull (strstr (run.err, cases[c].warning));
        }
      if (attached)
        g_assert_true (g_str_has_suffix (json_array_get_string_element (warnings, json_array_get_length (warnings) - 1),
                                         "job.suanli-capture: Captured from START (attached to a running job: earlier "
                                         "work is not in it)"));
      g_unlink (path);
    }
}

/* A job's control socket that answers one START with @stream (what a job whose capture another
 * CUPTI client took over sends), then closes. */
typedef struct
{
  int         listener;
  GByteArray *stream;
} Job;

static gpointer
serve_start (gpointer data)
{
  Job *job = data;
  int fd = accept (job->listener, NULL, NULL);
  char line[16] = { 0 };

  g_assert_cmpint (fd, >=, 0);
  g_assert_cmpint (recv (fd, line, 6, MSG_WAITALL), ==, 6);
  g_assert_cmpstr (line, ==, "START\n");
  g_assert_cmpint (send (fd, "OK\n", 3, MSG_NOSIGNAL), ==, 3);
  g_assert_cmpint (send (fd, job->stream->data, job->stream->len, MSG_NOSIGNAL), ==, (gssize) job->stream->len);
  close (fd);
  return NULL;
}

static void
on_started (GObject      *source,
            GAsyncResult *result,
            gpointer      data)
{
  g_autoptr(GError) error = NULL;

  g_assert_true (suanli_live_capture_start_finish (SUANLI_LIVE_CAPTURE (source), result, &error));
  g_assert_no_error (error);
}

static void
on_ended (SuanliLiveCapture *capture,
          GError            *error,
          char             **why)
{
  *why = g_strdup (error != NULL ? error->message : "");
}

/* A live capture whose job says another CUPTI client took CUPTI over ends with that as why it
 * ended early: what Live… says of it ("… ended early: …"). */
static void
test_live_ended_early (void)
{
  static const char detail[] = "PyTorch's profiler called cuptiSubscribe";
  g_auto(SuanliTestCapture) capture = { 0 };
  g_autofree char *path = g_build_filename (folder, "job.sock", NULL);
  g_autoptr(SuanliTrace) trace = suanli_trace_new ();
  SuanliLiveJob job = { .pid = 4242, .host = (char *) "test-host", .socket_path = path, .rank = -1 };
  struct sockaddr_un address = { .sun_family = AF_UNIX };
  g_autoptr(SuanliLiveCapture) live = NULL;
  g_autofree char *why = NULL;
  Job served = { socket (AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0), NULL };
  GThread *thread;

  suanli_test_capture_init (&capture, 0);
  suanli_test_capture_kernel (&capture, 1, suanli_test_capture_string (&capture, "_Z18suanli_long_kernelxPi"), 1000, 2000);
  suanli_test_capture_end (&capture, SUANLI_END_CUPTI_TAKEN, suanli_test_capture_string (&capture, detail), 0);
  served.stream = capture.bytes;
  g_strlcpy (address.sun_path, path, sizeof address.sun_path);
  g_assert_cmpint (bind (served.listener, (struct sockaddr *) &address, sizeof address), ==, 0);
  g_assert_cmpint (listen (served.listener, 1), ==, 0);
  thread = g_thread_new ("job", serve_start, &served);

  live = suanli_local_capture_new (trace, &job);
  g_signal_connect (live, "ended", G_CALLBACK (on_ended), &why);
  suanli_live_capture_start_async (live, NULL, on_started, NULL);
  while (why == NULL)
    g_main_context_iteration (NULL, TRUE);
  g_thread_join (thread);
  close (served.listener);
  g_unlink (path);
  {
    g_autofree char *expected = g_strdup_printf (_("another CUPTI client (PyTorch's profiler, Nsight) took CUPTI over: %s"),
                                                 detail);

    g_assert_cmpstr (why, ==, expected);
  }
  g_assert_cmpuint (suanli_trace_get_n_slices (trace), ==, 1);   /* what came is kept */
}

int
main (int    argc,
      char **argv)
{
  g_autoptr(GError) error = NULL;
  int status;

  g_test_init (&argc, &argv, NULL);
  folder = g_dir_make_tmp ("test-capture-views-XXXXXX", &error);
  g_assert_no_error (error);
  g_test_add_func ("/capture-views/views", test_views);
  g_test_add_func ("/capture-views/diff", test_diff);
  g_test_add_func ("/capture-views/summary", test_summary);
  g_test_add_func ("/capture-views/live-ended-early", test_live_ended_early);
  status = g_test_run ();
  g_rmdir (folder);
  g_free (folder);
  return status;
}
