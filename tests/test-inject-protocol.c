/* test-inject-protocol.c — the injection library's control and writer code end to end over its real
 * socket, with the CUPTI source replaced by a generator: a million records arrive whole and in
 * order; a collector that stops reading makes the producer drop and count, never wait
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <poll.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>
#include <glib.h>
#include <glib/gstdio.h>

#include "suanli-capture-decoder.h"
#include "suanli-import.h"
#include "suanli-inject.h"
#include "suanli-test-generator.h"
#include "suanli-test-wait.h"
#include "suanli-local-capture.h"

#define RECORDS 1000000

static SuanliTestGenerator generator;
static SuanliInjectSource *source;
static char *socket_path;

/* ---- a collector ------------------------------------------------------------------------------- */

/* The last capture has ended (its generator thread joined): the generator may be set up again. */
static gboolean
library_is_idle (gpointer data)
{
  return suanli_inject_control_state () == SUANLI_INJECT_IDLE;
}

static gboolean
generator_is_done (gpointer data)
{
  return g_atomic_int_get (&generator.done);
}

static void
wait_until_idle (void)
{
  suanli_test_await (library_is_idle, NULL);
}

static int
connect_and_start (void)
{
  struct sockaddr_un address = { .sun_family = AF_UNIX };
  int fd = socket (AF_UNIX, SOCK_STREAM, 0);
  char ok[3];

  g_strlcpy (address.sun_path, socket_path, sizeof address.sun_path);
  g_assert_cmpint (connect (fd, (struct sockaddr *) &address, sizeof address), ==, 0);
  g_assert_cmpint (send (fd, "START\n", 6, MSG_NOSIGNAL), ==, 6);
  g_assert_cmpint (recv (fd, ok, 3, MSG_WAITALL), ==, 3);
  g_assert_cmpint (memcmp (ok, "OK\n", 3), ==, 0);
  return fd;
}

static void
test_million_records (void)
{
  g_autoptr(SuanliTrace) trace = suanli_trace_new ();
  g_autoptr(SuanliCaptureDecoder) decoder = suanli_capture_decoder_new (trace, "generated.suanli-capture");
  g_autoptr(GError) error = NULL;
  g_autofree guint8 *buffer = g_malloc (1 << 16);
  gboolean stopped = FALSE;
  gint64 started = g_get_monotonic_time ();
  guint64 bytes = 0;
  int fd;

  generator.count = RECORDS;
  generator.wait_when_full = TRUE;
  fd = connect_and_start ();
  for (;;)
    {
      struct pollfd readable = { fd, POLLIN, 0 };
      ssize_t got;

      if (!stopped && g_atomic_int_get (&generator.done))
        {
          /* Everything is made: STOP, and the rest and the end record follow. */
          g_assert_cmpint (send (fd, "STOP\n", 5, MSG_NOSIGNAL), ==, 5);
          stopped = TRUE;
        }
      if (poll (&readable, 1, 100) == 0)
        continue;
      got = recv (fd, buffer, 1 << 16, 0);
      g_assert_cmpint (got, >=, 0);
      if (got == 0)
        break;
      bytes += (guint64) got;
      g_assert_true (suanli_capture_decoder_feed (decoder, buffer, (gsize) got, &error));
      g_assert_no_error (error);
    }
  close (fd);
  g_assert_true (suanli_capture_decoder_finish (decoder, &error));
  g_assert_no_error (error);
  g_test_message ("%u records, %.1f MB, in %.2f s", RECORDS, bytes / 1e6, (g_get_monotonic_time () - started) / 1e6);

  /* All of them, once each, in the order made, and the end record: nothing dropped. */
  g_assert_true (suanli_capture_decoder_has_ended (decoder));
  g_assert_cmpuint (suanli_capture_decoder_get_dropped (decoder), ==, 0);
  g_assert_cmpuint (suanli_capture_decoder_get_records (decoder), ==, RECORDS + 2);   /* and the string and the end */
  {
    SuanliTrack *stream = NULL;

    for (guint t = 0; t < suanli_trace_get_n_tracks (trace); t++)
      if (suanli_trace_get_track (trace, t)->kind == SUANLI_TRACK_GPU_STREAM)
        stream = suanli_trace_get_track (trace, t);
    g_assert_nonnull (stream);
    g_assert_cmpuint (stream->slices->len, ==, RECORDS);
    for (guint i = 0; i < stream->slices->len; i++)
      {
        const SuanliSlice *slice = &g_array_index (stream->slices, SuanliSlice, i);
        gint64 correlation = 0;

        g_assert_true (suanli_trace_find_arg_int (trace, slice, "correlation", &correlation));
        if (correlation != (gint64) i + 1 || slice->start != (gint64) i * 1000 + 1000)
          g_error ("record %u arrived as correlation %" G_GINT64_FORMAT " at %" G_GINT64_FORMAT, i, correlation,
                   slice->start);
      }
  }
  g_assert_cmpint (suanli_inject_control_state (), ==, SUANLI_INJECT_IDLE);
}

/* A collector that stops reading: the producer keeps going at its own pace, dropping what does not
 * fit and counting it, and the capture ends when the collector goes. */
static void
test_collector_stalls_and_dies (void)
{
  int fd;

  generator.count = 4 * RECORDS;
  generator.wait_when_full = FALSE;
  fd = connect_and_start ();
  /* Reading nothing: the socket's buffer and then the queue fill. The producer still finishes. */
  suanli_test_await (generator_is_done, NULL);
  g_test_message ("the producer made %u records; the queue refused %" G_GUINT64_FORMAT, 4 * RECORDS, generator.refused);
  g_assert_cmpuint (generator.refused, >, 0);

  /* The collector dies: the capture ends, the library is idle and attachable again. */
  close (fd);
  wait_until_idle ();
  g_assert_cmpuint (suanli_inject_control_dropped (), >=, generator.refused);
  {
    /* And a new collector gets a new capture. */
    int again;

    generator.count = 10;
    again = connect_and_start ();
    close (again);
  }
}

/* A collector that reads slowly and then sends STOP: what it gets still decodes, every record whole.
 * (STOP once wrote its end record after half a kernel record left behind by the writer.) */
static void
test_slow_collector_stops (void)
{
  g_autoptr(SuanliTrace) trace = suanli_trace_new ();
  g_autoptr(SuanliCaptureDecoder) decoder = suanli_capture_decoder_new (trace, "slow.suanli-capture");
  g_autoptr(GError) error = NULL;
  guint8 buffer[4096];
  gint64 stop_at = g_get_monotonic_time () + G_USEC_PER_SEC / 2;
  gboolean stopped = FALSE;
  int fd;

  wait_until_idle ();
  generator.count = 2 * RECORDS;
  generator.wait_when_full = FALSE;
  generator.pause_every = 0;
  fd = connect_and_start ();
  for (;;)
    {
      ssize_t got;

      if (!stopped && g_get_monotonic_time () >= stop_at)
        {
          g_assert_cmpint (send (fd, "STOP\n", 5, MSG_NOSIGNAL), ==, 5);
          stopped = TRUE;
        }
      got = recv (fd, buffer, sizeof buffer, 0);
      if (got <= 0)
        break;
      g_assert_true (suanli_capture_decoder_feed (decoder, buffer, (gsize) got, &error));
      g_assert_no_error (error);
      /* 4 KiB every 5 ms, before STOP and after: the 4 MiB queue takes longer to empty than STOP
       * waits for the writer. */
      g_usleep (5000);
    }
  close (fd);
  g_assert_true (suanli_capture_decoder_finish (decoder, &error));
  g_assert_no_error (error);
  g_test_message ("%" G_GUINT64_FORMAT " records read, %" G_GUINT64_FORMAT " reported dropped, ended: %d",
                  suanli_capture_decoder_get_records (decoder), suanli_capture_decoder_get_dropped (decoder),
                  suanli_capture_decoder_has_ended (decoder));
  /* Ended properly, with the drops counted, or cut between whole records: never mid-record. */
  g_assert_true (suanli_capture_decoder_has_ended (decoder));
  g_assert_cmpuint (suanli_capture_decoder_get_dropped (decoder), >, 0);
}

/* A collector that takes 4 KiB every 5 ms (at most 800 KB/s) until the library is done with it,
 * then what is left in the socket at once, to the stream's end, decoding all it gets. */
typedef struct
{
  int                  fd;
  gint                 done;      /* the library has stopped (atomic) */
  SuanliCaptureDecoder *decoder;
} SlowCollector;

static gpointer
read_slowly (gpointer data)
{
  SlowCollector *collector = data;
  guint8 buffer[4096];
  ssize_t got;

  while ((got = recv (collector->fd, buffer, sizeof buffer, 0)) > 0)
    {
      g_assert_true (suanli_capture_decoder_feed (collector->decoder, buffer, (gsize) got, NULL));
      if (!g_atomic_int_get (&collector->done))
        g_usleep (5000);   /* the collector's pace, not a wait for anything */
    }
  return NULL;
}

/* Three quarters of the library's 4 MiB queue are taken: the collector is behind. */
static gboolean
queue_is_full (gpointer data)
{
  return generator.queue != NULL && suanli_inject_queue_used (generator.queue) >= (3u << 20);
}

static gboolean
made_all_or_queue_is_full (gpointer data)
{
  return generator_is_done (NULL) || queue_is_full (NULL);
}

static gpointer
stop_library (gpointer done)
{
  suanli_inject_control_stop ();
  g_atomic_int_set ((gint *) done, 1);
  return NULL;
}

static gboolean
is_done (gpointer done)
{
  return g_atomic_int_get ((gint *) done);
}

/* The job's exit stops the library for good, so each exit runs in a process of its own (this test
 * program again, with only that test). Returns whether the test's body is to run here. */
static gboolean
exit_runs_here (void)
{
  if (g_test_subprocess ())
    return TRUE;
  g_test_trap_subprocess (NULL, 0, G_TEST_SUBPROCESS_INHERIT_STDERR);
  g_test_trap_assert_passed ();
  return FALSE;
}

/* Connects a slow collector, has the generator make @count records, and makes the job exit once
 * it has made them all or the queue is three quarters full. Returns how long the exit took, in
 * seconds. (Its figures go to stderr: the parent reads this process's stdout.) */
static double
exit_under_slow_collector (SuanliCaptureDecoder *decoder,
                           guint                 count)
{
  SlowCollector collector = { -1, 0, decoder };
  GThread *reader, *stopper;
  gint64 exit_began;
  double took;

  wait_until_idle ();
  generator.count = count;
  generator.wait_when_full = TRUE;   /* fills the queue, then waits for room: a job still running */
  generator.pause_every = 0;
  collector.fd = connect_and_start ();
  reader = g_thread_new ("slow-collector", read_slowly, &collector);
  suanli_test_await (made_all_or_queue_is_full, NULL);
  exit_began = g_get_monotonic_time ();
  stopper = g_thread_new ("exit", stop_library, &collector.done);
  suanli_test_await (is_done, &collector.done);
  took = (g_get_monotonic_time () - exit_began) / 1e6;
  g_thread_join (stopper);
  /* The library has hung up: the collector reads to the end. */
  g_thread_join (reader);
  close (collector.fd);
  g_printerr ("%" G_GUINT64_FORMAT " records came of the %u made; the end record %s; the exit took %.2f s\n",
              suanli_capture_decoder_get_records (decoder), count,
              suanli_capture_decoder_has_ended (decoder) ? "came" : "did not come", took);
  g_assert_cmpint (suanli_inject_control_state (), ==, SUANLI_INJECT_INERT);
  return took;
}

/* The job exits while a slow collector is capturing, with 4 MiB queued: the library gives up on
 * the rest within its exit bound (3 s, in which this collector takes about 2.5 MB) instead of
 * sending all of it, a send at a time, each with its own bound (that held a 3 s job for 19 s). */
static void
test_slow_collector_at_exit (void)
{
  g_autoptr(SuanliTrace) trace = suanli_trace_new ();
  g_autoptr(SuanliCaptureDecoder) decoder = suanli_capture_decoder_new (trace, "exit.suanli-capture");

  if (!exit_runs_here ())
    return;
  exit_under_slow_collector (decoder, 4 * RECORDS);
  g_assert_false (suanli_capture_decoder_has_ended (decoder));
  g_assert_cmpuint (suanli_capture_decoder_get_records (decoder), <, 4 * RECORDS);
}

/* A short job exits with 750 KB queued for a collector that is slow but keeps reading (as `record`
 * is on a loaded machine): it takes more than the 300 ms the exit once allowed for everything,
 * and gets every record and the end record. */
static void
test_slow_collector_gets_all_at_exit (void)
{
  g_autoptr(SuanliTrace) trace = suanli_trace_new ();
  g_autoptr(SuanliCaptureDecoder) decoder = suanli_capture_decoder_new (trace, "short.suanli-capture");
  guint count = 8000;

  if (!exit_runs_here ())
    return;
  exit_under_slow_collector (decoder, count);
  g_assert_true (suanli_capture_decoder_has_ended (decoder));
  g_assert_cmpuint (suanli_capture_decoder_get_records (decoder), ==, count + 2);   /* and the string and the end */
  g_assert_cmpuint (suanli_trace_get_n_slices (trace), ==, count);
}

/* ---- the workbench's side: SuanliLiveCapture on a main loop -------------------------------------- */

typedef struct
{
  GMainLoop *loop;
  guint      grown;          /* "grown" while the stream ran */
  gboolean   ended;
  GError    *error;
  gboolean   started;
} LiveRun;

static void
on_grown (SuanliTrace *trace,
          gpointer     data)
{
  LiveRun *run = data;

  run->grown++;
}

static void
on_ended (SuanliLiveCapture *capture,
          GError            *error,
          gpointer           data)
{
  LiveRun *run = data;

  run->ended = TRUE;
  run->error = error != NULL ? g_error_copy (error) : NULL;
  g_main_loop_quit (run->loop);
}

static void
on_started (GObject      *object,
            GAsyncResult *result,
            gpointer      data)
{
  LiveRun *run = data;

  run->started = suanli_live_capture_start_finish (SUANLI_LIVE_CAPTURE (object), result, &run->error);
  g_assert_no_error (run->error);
}

static gboolean
stop_when_made (gpointer data)
{
  SuanliLiveCapture *capture = data;

  if (!g_atomic_int_get (&generator.done))
    return G_SOURCE_CONTINUE;
  suanli_live_capture_stop (capture);
  return G_SOURCE_REMOVE;
}

static gboolean
give_up (gpointer loop)
{
  g_main_loop_quit (loop);
  return G_SOURCE_REMOVE;
}

/* The profiler page's way in: the job is listed, attached, and its records grow the trace while the
 * capture runs; at the end everything is there, and Save writes a file that opens the same. */
static void
test_live_capture (void)
{
  g_autoptr(GPtrArray) jobs = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(SuanliTrace) trace = suanli_trace_new ();
  g_autoptr(SuanliLiveCapture) capture = NULL;
  g_autoptr(GMainLoop) loop = g_main_loop_new (NULL, FALSE);
  LiveRun run = { loop, 0, FALSE, NULL, FALSE };
  SuanliLiveJob *self_job = NULL;

  jobs = suanli_live_list_jobs (&error);
  g_assert_no_error (error);
  for (guint i = 0; i < jobs->len; i++)
    if (((SuanliLiveJob *) g_ptr_array_index (jobs, i))->pid == getpid ())
      self_job = g_ptr_array_index (jobs, i);
  g_assert_nonnull (self_job);
  g_assert_cmpstr (self_job->state, ==, "idle");

  wait_until_idle ();
  /* 300,000 records over about 2 s, in bursts: the trace must grow several times meanwhile. */
  generator.count = 300000;
  generator.wait_when_full = TRUE;
  generator.pause_every = 15000;
  capture = suanli_local_capture_new (trace, self_job);
  g_signal_connect (trace, "grown", G_CALLBACK (on_grown), &run);
  g_signal_connect (capture, "ended", G_CALLBACK (on_ended), &run);
  suanli_live_capture_start_async (capture, NULL, on_started, &run);
  g_timeout_add (50, stop_when_made, capture);
  g_timeout_add_seconds (60, give_up, loop);
  g_main_loop_run (loop);

  g_assert_true (run.started);
  g_assert_true (run.ended);
  g_assert_no_error (run.error);
  g_test_message ("the trace grew %u times while the capture ran", run.grown);
  g_assert_cmpuint (run.grown, >=, 2);
  generator.pause_every = 0;
  g_assert_cmpuint (suanli_trace_get_n_slices (trace), ==, 300000);
  g_assert_false (suanli_live_capture_is_running (capture));

  /* Save: the stream as it came, which opens as the same trace. */
  {
    g_autoptr(GFileIOStream) io = NULL;
    g_autoptr(GFile) file = g_file_new_tmp ("saved-XXXXXX.suanli-capture", &io, NULL);
    g_autoptr(SuanliTrace) reopened = suanli_trace_new ();
    SuanliImportStats stats = { 0 };

    g_io_stream_close (G_IO_STREAM (io), NULL, NULL);
    g_assert_true (suanli_live_capture_save (capture, file, &error));
    g_assert_no_error (error);
    g_assert_true (suanli_import_file (reopened, file, &stats, NULL, &error));
    g_assert_no_error (error);
    g_assert_cmpuint (suanli_trace_get_n_slices (reopened), ==, 300000);
    suanli_import_stats_clear (&stats);
    g_file_delete (file, NULL, NULL);
  }
}

int
main (int    argc,
      char **argv)
{
  g_autofree char *runtime_dir = g_dir_make_tmp ("suanli-protocol-XXXXXX", NULL);
  int status;

  g_test_init (&argc, &argv, NULL);
  g_setenv ("XDG_RUNTIME_DIR", runtime_dir, TRUE);
  g_setenv ("SUANLI_QUIET", "1", TRUE);
  g_assert_cmpint (suanli_inject_control_start (source = suanli_test_generator_source (&generator), 4 << 20), ==, 0);
  socket_path = g_strdup_printf ("%s/suanli/%d.sock", runtime_dir, (int) getpid ());
  g_test_add_func ("/inject/million-records", test_million_records);
  g_test_add_func ("/inject/collector-stalls-and-dies", test_collector_stalls_and_dies);
  g_test_add_func ("/inject/slow-collector-stops", test_slow_collector_stops);
  g_test_add_func ("/inject/live-capture", test_live_capture);
  g_test_add_func ("/inject/slow-collector-at-exit", test_slow_collector_at_exit);
  g_test_add_func ("/inject/slow-collector-gets-all-at-exit", test_slow_collector_gets_all_at_exit);
  status = g_test_run ();
  if (suanli_inject_control_state () != SUANLI_INJECT_INERT)
    suanli_inject_control_stop ();
  g_assert_false (g_file_test (socket_path, G_FILE_TEST_EXISTS));   /* the socket goes with the library */
  {
    g_autofree char *folder = g_build_filename (runtime_dir, "suanli", NULL);

    g_rmdir (folder);
    g_rmdir (runtime_dir);
  }
  g_free (socket_path);
  return status;
}
