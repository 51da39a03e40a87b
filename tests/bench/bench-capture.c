/* bench-capture.c — records per second from a producer through the injection library's queue,
 * writer and socket into the trace model, and how long one record takes to reach the collector
 *
 * The producer is the tests' generator in place of CUPTI; the rest is the library's own code.
 * Prints medians of three runs (aim: ≥ 2 million records a second), of 50 single records from push
 * to the collector's socket, and of 20 from push to the workbench's trace showing them (the live
 * view's latency, whose floor is the twice-a-second update).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>
#include <glib.h>
#include <glib/gstdio.h>

#include "suanli-bench.h"
#include "suanli-capture-decoder.h"
#include "suanli-inject.h"
#include "suanli-local-capture.h"

#define RECORDS 3000000

typedef struct
{
  SuanliInjectQueue *queue;
  pthread_t          thread;
  guint64            count;
  volatile gint      running;
  volatile gint      done;
} Producer;

static Producer producer;

static void *
produce (void *data)
{
  suanli_inject_queue_push_string (producer.queue, 1, "bench_kernel");
  for (guint64 i = 0; i < producer.count && g_atomic_int_get (&producer.running); i++)
    {
      SuanliCaptureKernel kernel = { { 0 } };

      suanli_capture_init_record (&kernel.record, SUANLI_CAPTURE_KERNEL, sizeof kernel);
      kernel.start = i * 1000, kernel.end = i * 1000 + 500, kernel.correlation = (guint32) i, kernel.name = 1;
      kernel.stream = 7 + (guint32) (i % 4);
      while (!suanli_inject_queue_try_push (producer.queue, &kernel, sizeof kernel))
        sched_yield ();
    }
  g_atomic_int_set (&producer.done, 1);
  return NULL;
}

static int
producer_start (SuanliInjectSource *source, SuanliInjectQueue *queue, SuanliCaptureHeader *header,
                SuanliCaptureDevice *devices, uint16_t *n_devices, uint16_t max_devices, char *error, size_t error_size)
{
  producer.queue = queue;
  g_atomic_int_set (&producer.running, 1);
  g_atomic_int_set (&producer.done, 0);
  *n_devices = 0;
  return producer.count > 0 ? pthread_create (&producer.thread, NULL, produce, NULL) : 0;
}

static int
producer_flush (SuanliInjectSource *source, char *why, size_t why_size)
{
  return -1;
}

static uint64_t
producer_stop (SuanliInjectSource *source)
{
  g_atomic_int_set (&producer.running, 0);
  if (producer.count > 0)
    pthread_join (producer.thread, NULL);
  return 0;
}

static SuanliInjectSource source = { producer_start, producer_flush, producer_stop, NULL };
static char *socket_path;

static int
start_capture (void)
{
  struct sockaddr_un address = { .sun_family = AF_UNIX };
  int fd = socket (AF_UNIX, SOCK_STREAM, 0);
  char ok[3];

  g_strlcpy (address.sun_path, socket_path, sizeof address.sun_path);
  if (connect (fd, (struct sockaddr *) &address, sizeof address) != 0 || send (fd, "START\n", 6, MSG_NOSIGNAL) != 6 ||
      recv (fd, ok, 3, MSG_WAITALL) != 3 || memcmp (ok, "OK\n", 3) != 0)
    g_error ("the capture did not start");
  return fd;
}

/* One capture of RECORDS records into a trace; returns records per second. */
static double
stream_once (void)
{
  g_autoptr(SuanliTrace) trace = suanli_trace_new ();
  g_autoptr(SuanliCaptureDecoder) decoder = suanli_capture_decoder_new (trace, "bench.suanli-capture");
  g_autofree guint8 *buffer = g_malloc (1 << 18);
  gint64 start = g_get_monotonic_time ();
  gboolean stopped = FALSE;
  int fd;

  producer.count = RECORDS;
  fd = start_capture ();
  for (;;)
    {
      ssize_t got;

      if (!stopped && g_atomic_int_get (&producer.done))
        {
          send (fd, "STOP\n", 5, MSG_NOSIGNAL);
          stopped = TRUE;
        }
      got = recv (fd, buffer, 1 << 18, 0);
      if (got <= 0)
        break;
      if (!suanli_capture_decoder_feed (decoder, buffer, (gsize) got, NULL))
        g_error ("the stream did not decode");
    }
  close (fd);
  suanli_capture_decoder_finish (decoder, NULL);
  if (suanli_trace_get_n_slices (trace) != RECORDS)
    g_error ("%" G_GUINT64_FORMAT " of %u records arrived", suanli_trace_get_n_slices (trace), RECORDS);
  return RECORDS / ((g_get_monotonic_time () - start) / 1e6);
}

/* ---- what the workbench sees: a record pushed, to the trace's "grown" that shows it ---------------- */

typedef struct
{
  GMainLoop   *loop;
  SuanliBench *bench;
  SuanliTrace *trace;
  gint64       pushed_at;     /* when the record now on its way was pushed; 0: none */
  guint64      shown;         /* slices the trace had at the last "grown" */
  guint        samples;
} ViewLatency;

static gboolean
push_one (gpointer data)
{
  ViewLatency *run = data;
  SuanliCaptureKernel kernel = { { 0 } };

  if (run->pushed_at != 0)
    return G_SOURCE_CONTINUE;   /* the last one is not shown yet */
  suanli_capture_init_record (&kernel.record, SUANLI_CAPTURE_KERNEL, sizeof kernel);
  kernel.start = (guint64) g_get_real_time () * 1000, kernel.end = kernel.start + 1000;
  run->pushed_at = g_get_monotonic_time ();
  suanli_inject_queue_push (producer.queue, &kernel, sizeof kernel);
  return G_SOURCE_CONTINUE;
}

static void
on_grown (SuanliTrace *trace,
          gpointer     data)
{
  ViewLatency *run = data;
  guint64 slices = suanli_trace_get_n_slices (trace);

  if (run->pushed_at == 0 || slices <= run->shown)
    return;
  run->shown = slices;
  suanli_bench_add (run->bench, (g_get_monotonic_time () - run->pushed_at) / 1000.0);
  run->pushed_at = 0;
  if (++run->samples == 20)
    g_main_loop_quit (run->loop);
}

static void
on_started (GObject      *object,
            GAsyncResult *result,
            gpointer      data)
{
  if (!suanli_live_capture_start_finish (SUANLI_LIVE_CAPTURE (object), result, NULL))
    g_error ("the live capture did not start");
}

static void
measure_view_latency (SuanliBench *bench)
{
  g_autoptr(GPtrArray) jobs = suanli_live_list_jobs (NULL);
  g_autoptr(SuanliTrace) trace = suanli_trace_new ();
  g_autoptr(SuanliLiveCapture) capture = NULL;
  g_autoptr(GMainLoop) loop = g_main_loop_new (NULL, FALSE);
  ViewLatency run = { loop, bench, trace, 0, 0, 0 };
  guint pusher;

  for (guint i = 0; jobs != NULL && i < jobs->len && capture == NULL; i++)
    if (((SuanliLiveJob *) g_ptr_array_index (jobs, i))->pid == getpid ())
      capture = suanli_local_capture_new (trace, g_ptr_array_index (jobs, i));
  if (capture == NULL)
    g_error ("this process is not listed as a job");
  producer.count = 0;
  g_signal_connect (trace, "grown", G_CALLBACK (on_grown), &run);
  suanli_live_capture_start_async (capture, NULL, on_started, NULL);
  pusher = g_timeout_add (37, push_one, &run);   /* out of step with the view's updates */
  g_main_loop_run (loop);
  g_source_remove (pusher);
  suanli_live_capture_stop (capture);
  while (suanli_live_capture_is_running (capture))
    g_main_context_iteration (NULL, TRUE);
}

int
main (int    argc,
      char **argv)
{
  g_autofree char *runtime_dir = g_dir_make_tmp ("suanli-bench-capture-XXXXXX", NULL);
  g_autoptr(SuanliBench) rate = suanli_bench_new ("records per second, producer to trace model", "records/s");
  g_autoptr(SuanliBench) latency = suanli_bench_new ("one record, pushed to received by the collector", "us");

  g_setenv ("XDG_RUNTIME_DIR", runtime_dir, TRUE);
  g_setenv ("SUANLI_QUIET", "1", TRUE);
  if (suanli_inject_control_start (&source, 16 << 20) != 0)
    g_error ("the control socket did not start");
  socket_path = g_strdup_printf ("%s/suanli/%d.sock", runtime_dir, (int) getpid ());

  for (guint i = 0; i < 3; i++)
    suanli_bench_add (rate, stream_once ());
  suanli_bench_report (rate);

  /* Latency: single records into an idle capture, each timed from push to recv. */
  {
    int fd;
    char buffer[4096];

    producer.count = 0;
    fd = start_capture ();
    for (guint i = 0; i < 50; i++)
      {
        SuanliCaptureKernel kernel = { { 0 } };
        struct pollfd readable = { fd, POLLIN, 0 };
        gint64 pushed;

        g_usleep (5000);
        while (recv (fd, buffer, sizeof buffer, MSG_DONTWAIT) > 0)
          ;   /* the header, first time round */
        suanli_capture_init_record (&kernel.record, SUANLI_CAPTURE_KERNEL, sizeof kernel);
        pushed = g_get_monotonic_time ();
        suanli_inject_queue_push (producer.queue, &kernel, sizeof kernel);
        poll (&readable, 1, 1000);
        suanli_bench_add (latency, (double) (g_get_monotonic_time () - pushed));
      }
    close (fd);
  }
  suanli_bench_report (latency);
  {
    g_autoptr(SuanliBench) view = suanli_bench_new ("one record, pushed to shown in the growing trace", "ms");

    measure_view_latency (view);
    suanli_bench_report (view);
  }
  suanli_inject_control_stop ();
  {
    g_autofree char *folder = g_build_filename (runtime_dir, "suanli", NULL);

    g_rmdir (folder);
    g_rmdir (runtime_dir);
  }
  g_free (socket_path);
  return EXIT_SUCCESS;
}
