/* test-inject-cupti.c — CUPTI activity buffers built by hand, walked by the real
 * cuptiActivityGetNextRecord, into the capture format and back out as a trace
 *
 * libcupti loads without a GPU; only starting a capture needs one. So the record conversion is
 * tested as CUPTI will hand records over, with CUDA 13's own structs.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <dlfcn.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>
#include <glib.h>

#include "suanli-capture-decoder.h"
#include "suanli-flame.h"
#include "suanli-inject-cupti.h"

#define PID 777

/* Appends a record to a CUPTI-style buffer: each record starts 8-byte aligned. */
static void
append (GByteArray *buffer,
        const void *record,
        gsize       size)
{
  static const guint8 zeros[8] = { 0 };

  g_byte_array_append (buffer, record, (guint) size);
  if (buffer->len % 8 != 0)
    g_byte_array_append (buffer, zeros, 8 - buffer->len % 8);
}

static GByteArray *
make_buffer (void)
{
  GByteArray *buffer = g_byte_array_new ();
  CUpti_ActivityAPI api;
  CUpti_ActivityKernel10 kernel;
  CUpti_ActivityMemcpy6 copy;
  CUpti_ActivityMemset4 set;
  CUpti_ActivityMarker2 start, end, mark;
  CUpti_ActivitySynchronization2 sync;

  memset (&api, 0, sizeof api);
  api.kind = CUPTI_ACTIVITY_KIND_RUNTIME;
  api.cbid = 211, api.start = 1000, api.end = 1400, api.processId = PID, api.threadId = PID, api.correlationId = 5;
  append (buffer, &api, sizeof api);

  memset (&kernel, 0, sizeof kernel);
  kernel.kind = CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL;
  kernel.start = 2000, kernel.end = 52000, kernel.deviceId = 0, kernel.contextId = 1, kernel.streamId = 7;
  kernel.gridX = 132, kernel.gridY = kernel.gridZ = 1, kernel.blockX = 256, kernel.blockY = kernel.blockZ = 1;
  kernel.registersPerThread = 96, kernel.staticSharedMemory = 1024, kernel.dynamicSharedMemory = 48 * 1024;
  kernel.correlationId = 5, kernel.name = "ampere_bf16_s16816gemm_bf16_128x128_ldg8_f2f_tn";
  append (buffer, &kernel, sizeof kernel);

  memset (&copy, 0, sizeof copy);
  copy.kind = CUPTI_ACTIVITY_KIND_MEMCPY;
  copy.copyKind = CUPTI_ACTIVITY_MEMCPY_KIND_DTOH, copy.bytes = 4 << 20, copy.start = 60000, copy.end = 64000;
  copy.deviceId = 0, copy.streamId = 7, copy.correlationId = 6;
  append (buffer, &copy, sizeof copy);

  memset (&set, 0, sizeof set);
  set.kind = CUPTI_ACTIVITY_KIND_MEMSET;
  set.bytes = 1024, set.start = 65000, set.end = 65500, set.deviceId = 0, set.streamId = 7, set.correlationId = 7;
  append (buffer, &set, sizeof set);

  memset (&start, 0, sizeof start);
  start.kind = CUPTI_ACTIVITY_KIND_MARKER;
  start.flags = CUPTI_ACTIVITY_FLAG_MARKER_START, start.timestamp = 500, start.id = 9;
  start.objectKind = CUPTI_ACTIVITY_OBJECT_THREAD, start.objectId.pt.processId = PID, start.objectId.pt.threadId = PID;
  start.name = "train_step";
  append (buffer, &start, sizeof start);
  end = start;
  end.flags = CUPTI_ACTIVITY_FLAG_MARKER_END, end.timestamp = 70000, end.name = NULL;
  append (buffer, &end, sizeof end);
  mark = start;
  mark.flags = CUPTI_ACTIVITY_FLAG_MARKER_INSTANTANEOUS, mark.timestamp = 900, mark.id = 10, mark.name = "checkpoint";
  append (buffer, &mark, sizeof mark);

  memset (&sync, 0, sizeof sync);
  sync.kind = CUPTI_ACTIVITY_KIND_SYNCHRONIZATION;
  sync.type = CUPTI_ACTIVITY_SYNCHRONIZATION_TYPE_STREAM_SYNCHRONIZE, sync.start = 66000, sync.end = 69000;
  sync.contextId = 0, sync.streamId = 7, sync.correlationId = 8;
  append (buffer, &sync, sizeof sync);
  return buffer;
}

/* Stands for the program's code that launches the kernel: its frame must be in the stack. */
__attribute__ ((noinline)) void launch_from_test_program (SuanliInjectQueue *queue,
                                                          uint32_t           correlation);

__attribute__ ((noinline)) void
launch_from_test_program (SuanliInjectQueue *queue,
                          uint32_t           correlation)
{
  suanli_inject_push_launch_stack (queue, correlation);
  __asm__ volatile ("" ::: "memory");   /* not a tail call: this frame stays on the stack */
}

static void
test_decode (void)
{
  g_autoptr(GByteArray) buffer = make_buffer ();
  g_autoptr(SuanliTrace) trace = suanli_trace_new ();
  g_autoptr(SuanliCaptureDecoder) decoder = suanli_capture_decoder_new (trace, "cupti.suanli-capture");
  g_autoptr(GError) error = NULL;
  SuanliInjectQueue queue;
  SuanliCaptureHeader header;
  char message[256];
  const guint8 *bytes;
  gsize length, records;

  if (suanli_inject_cupti_load (message, sizeof message) != 0)
    g_error ("libcupti did not load: %s", message);
  g_assert_cmpint (suanli_inject_queue_init (&queue, 1 << 20), ==, 0);
  /* As in a capture: the job's modules at START, the stack at the launch, the kernel's record later. */
  suanli_inject_send_new_modules (&queue);
  launch_from_test_program (&queue, 5);   /* the kernel's correlation id: its launch's CPU stack */
  records = suanli_inject_cupti_decode_buffer (buffer->data, buffer->len, &queue);
  g_assert_cmpuint (records, ==, 8);

  /* The queue's bytes after a header are a capture stream. */
  suanli_capture_init_header (&header, 0);
  header.pid = PID;
  g_assert_true (suanli_capture_decoder_feed (decoder, &header, sizeof header, &error));
  while ((length = suanli_inject_queue_peek (&queue, &bytes)) > 0)
    {
      g_assert_true (suanli_capture_decoder_feed (decoder, bytes, length, &error));
      suanli_inject_queue_consume (&queue, length);
    }
  g_assert_true (suanli_capture_decoder_finish (decoder, &error));
  g_assert_no_error (error);
  suanli_inject_queue_destroy (&queue);

  {
    SuanliTrack *stream = NULL, *thread = NULL;
    const SuanliSlice *kernel;
    gint64 value;

    for (guint t = 0; t < suanli_trace_get_n_tracks (trace); t++)
      {
        SuanliTrack *track = suanli_trace_get_track (trace, t);

        if (track->kind == SUANLI_TRACK_GPU_STREAM && track->tid == 7)
          stream = track;
        if (track->kind == SUANLI_TRACK_THREAD && track->tid == PID)
          thread = track;
      }
    g_assert_nonnull (stream);
    g_assert_nonnull (thread);
    /* Kernel, copy, memset and sync on stream 7, in time order. */
    g_assert_cmpuint (stream->slices->len, ==, 4);
    kernel = &g_array_index (stream->slices, SuanliSlice, 0);
    g_assert_cmpstr (suanli_trace_get_string (trace, kernel->name), ==, "ampere_bf16_s16816gemm_bf16_128x128_ldg8_f2f_tn");
    g_assert_cmpint (kernel->duration, ==, 50000);
    g_assert_true (suanli_trace_find_arg_int (trace, kernel, "shared memory", &value));
    g_assert_cmpint (value, ==, 1024 + 48 * 1024);
    g_assert_true (suanli_trace_find_arg_int (trace, kernel, "registers per thread", &value));
    g_assert_cmpint (value, ==, 96);
    /* Where it was launched from: the program's frames, outermost first, the profiler's left out. */
    {
      const SuanliArg *args = suanli_trace_get_args (trace, kernel);
      const char *stack = NULL;

      for (guint a = 0; a < kernel->n_args; a++)
        if (g_str_equal (suanli_trace_get_string (trace, args[a].key), "Call stack"))
          stack = suanli_trace_get_string (trace, args[a].s);
      g_assert_nonnull (stack);
      g_test_message ("launch stack:\n%s", stack);
      g_assert_true (g_str_has_suffix (stack, "launch_from_test_program (test-inject-cupti)"));
      g_assert_nonnull (strstr (stack, "main (test-inject-cupti)\n"));
      g_assert_null (strstr (stack, "suanli_inject_"));
    }
    /* The GPU flame graph puts the kernel under those frames, inside the NVTX range. */
    {
      g_autoptr(SuanliFlame) flame = suanli_flame_new (trace, SUANLI_FLAME_GPU, G_MININT64, G_MAXINT64);
      guint32 launcher = 0;

      for (guint32 n = 1; n < suanli_flame_get_n_nodes (flame); n++)
        if (g_str_equal (suanli_flame_get_name (flame, n), "launch_from_test_program (test-inject-cupti)"))
          launcher = n;
      g_assert_cmpuint (launcher, !=, 0);
      g_assert_cmpstr (suanli_flame_get_name (flame, suanli_flame_get_node (flame, launcher)->first_child), ==,
                       "ampere_bf16_s16816gemm_bf16_128x128_ldg8_f2f_tn");
      g_assert_cmpint (suanli_flame_get_node (flame, launcher)->total, ==, 50000);
      {
        /* Up from the launcher: the program's frames, then the NVTX range, then the thread. */
        guint32 at = launcher;
        gboolean in_range = FALSE;

        while ((at = suanli_flame_get_node (flame, at)->parent) != 0)
          in_range = in_range || g_str_equal (suanli_flame_get_name (flame, at), "train_step");
        g_assert_true (in_range);
      }
    }
    g_assert_cmpstr (suanli_trace_get_string (trace, g_array_index (stream->slices, SuanliSlice, 1).name), ==, "Memcpy DtoH");
    g_assert_cmpstr (suanli_trace_get_string (trace, g_array_index (stream->slices, SuanliSlice, 2).name), ==,
                     "Memset (Device)");
    g_assert_cmpstr (suanli_trace_get_string (trace, g_array_index (stream->slices, SuanliSlice, 3).name), ==, "Stream Sync");
    /* The NVTX range (start and end records paired) around the launch, and the mark. */
    g_assert_cmpuint (thread->slices->len, ==, 2);
    g_assert_cmpstr (suanli_trace_get_string (trace, g_array_index (thread->slices, SuanliSlice, 0).name), ==, "train_step");
    g_assert_cmpint (g_array_index (thread->slices, SuanliSlice, 0).duration, ==, 69500);
    g_assert_cmpuint (g_array_index (thread->slices, SuanliSlice, 1).depth, ==, 1);
    g_assert_cmpuint (thread->instants->len, ==, 1);
    /* The launch reaches its kernel. */
    g_assert_cmpuint (suanli_trace_get_flows (trace)->len, ==, 1);
  }
}

/* The header's devices come from the driver the job has loaded: none without one; with one (here a
 * stand-in with known figures), every device with its name, SMs, clocks, memory and capability. */
static void
test_devices (void)
{
  SuanliCaptureDevice devices[4];
  void *driver;

  g_assert_cmpuint (suanli_inject_query_devices (devices, G_N_ELEMENTS (devices)), ==, 0);
  driver = dlopen (g_getenv ("SUANLI_FAKE_CUDA"), RTLD_NOW | RTLD_LOCAL);   /* as cudart loads it */
  g_assert_nonnull (driver);
  g_assert_cmpuint (suanli_inject_query_devices (devices, G_N_ELEMENTS (devices)), ==, 2);
  g_assert_cmpuint (suanli_inject_query_devices (devices, 1), ==, 1);   /* no more than asked */
  suanli_inject_query_devices (devices, G_N_ELEMENTS (devices));
  g_assert_cmpstr (devices[1].name, ==, "Test GPU 1");
  g_assert_cmpuint (devices[1].id, ==, 1);
  g_assert_cmpuint (devices[0].sm_count, ==, 132);
  g_assert_cmpuint (devices[0].core_clock_khz, ==, 1980000);
  g_assert_cmpuint (devices[0].memory_clock_khz, ==, 3201000);
  g_assert_cmpuint (devices[0].compute_capability, ==, 90);
  g_assert_cmpuint (devices[0].memory_bytes, ==, G_GUINT64_CONSTANT (150754820096));
  dlclose (driver);
}

/* A forked child's records carry its own thread id, not the one its parent's thread cached. */
static void
test_forked_thread_id (void)
{
  guint32 parent = suanli_inject_thread_id ();
  pid_t child;
  int status = 0;

  g_assert_cmpuint (parent, ==, (guint32) syscall (SYS_gettid));
  child = fork ();
  if (child == 0)
    _exit (suanli_inject_thread_id () == (guint32) syscall (SYS_gettid) && suanli_inject_thread_id () != parent ? 0 : 1);
  g_assert_cmpint (child, >, 0);
  g_assert_cmpint (waitpid (child, &status, 0), ==, child);
  g_assert_true (WIFEXITED (status));
  g_assert_cmpint (WEXITSTATUS (status), ==, 0);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/inject-cupti/decode", test_decode);
  g_test_add_func ("/inject-cupti/devices", test_devices);
  g_test_add_func ("/inject-cupti/forked-thread-id", test_forked_thread_id);
  return g_test_run ();
}
