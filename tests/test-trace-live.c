/* test-trace-live.c — loading off the main thread (progress, cancellation) and growing a finished
 * trace (what a live capture does)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <signal.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <glib/gstdio.h>

#include "suanli-import.h"
#include "suanli-trace-loader.h"

/* A Kineto-form trace of @n_kernels launches and kernels, written by hand. */
static GString *
generated_trace (guint n_kernels)
{
  GString *text = g_string_new ("{\"traceEvents\":[\n");

  for (guint i = 0; i < n_kernels; i++)
    g_string_append_printf (text,
                            "{\"ph\":\"X\",\"cat\":\"cuda_runtime\",\"name\":\"cudaLaunchKernel\",\"pid\":1,\"tid\":1,"
                            "\"ts\":%u,\"dur\":2,\"args\":{\"correlation\":%u}},\n"
                            "{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"k%u\",\"pid\":0,\"tid\":7,\"ts\":%u,\"dur\":5,"
                            "\"args\":{\"correlation\":%u}},\n",
                            i * 10, i, i % 7, i * 10 + 3, i);
  g_string_append (text, "{}]}\n");
  return text;
}

typedef struct
{
  GMainLoop   *loop;
  SuanliTrace *trace;
  GError      *error;
  guint        notified;
} Waiting;

static void
loaded (GObject      *source,
        GAsyncResult *result,
        gpointer      data)
{
  Waiting *waiting = data;

  waiting->trace = suanli_trace_loader_load_finish (SUANLI_TRACE_LOADER (source), result, &waiting->error);
  g_main_loop_quit (waiting->loop);
}

static void
fraction_changed (SuanliTraceLoader *loader,
                  GParamSpec        *pspec,
                  Waiting           *waiting)
{
  waiting->notified++;
}

static void
test_loader (void)
{
  g_autoptr(GString) text = generated_trace (20000);
  g_autofree char *directory = g_dir_make_tmp ("suanli-loader-XXXXXX", NULL);
  g_autofree char *plain = g_build_filename (directory, "rank0.json", NULL);
  g_autofree char *missing = g_build_filename (directory, "missing.json", NULL);
  g_autoptr(GFile) file = g_file_new_for_path (plain);
  g_autoptr(GFile) absent = g_file_new_for_path (missing);
  g_autoptr(GMainLoop) loop = g_main_loop_new (NULL, FALSE);
  g_autoptr(GError) error = NULL;

  g_assert_true (g_file_set_contents (plain, text->str, (gssize) text->len, &error));

  /* Two files, two groups: the same as reading them in turn on this thread. */
  {
    GFile *files[] = { file, file };
    g_autoptr(SuanliTraceLoader) loader = suanli_trace_loader_new (files, 2);
    g_autoptr(SuanliTrace) direct = suanli_trace_new ();
    SuanliImportStats stats = { 0 };
    Waiting waiting = { loop };

    g_assert_true (suanli_import_file (direct, file, &stats, NULL, &error));
    g_assert_true (suanli_import_file (direct, file, &stats, NULL, &error));
    g_signal_connect (loader, "notify::fraction", G_CALLBACK (fraction_changed), &waiting);
    suanli_trace_loader_load_async (loader, NULL, loaded, &waiting);
    g_main_loop_run (loop);
    g_assert_no_error (waiting.error);
    g_assert_nonnull (waiting.trace);
    g_assert_cmpuint (suanli_trace_get_n_slices (waiting.trace), ==, suanli_trace_get_n_slices (direct));
    g_assert_cmpuint (suanli_trace_get_n_slices (waiting.trace), ==, 80000);
    g_assert_cmpuint (suanli_trace_get_n_groups (waiting.trace), ==, 2);
    g_assert_cmpuint (suanli_trace_get_flows (waiting.trace)->len, ==, suanli_trace_get_flows (direct)->len);
    g_assert_cmpuint (suanli_trace_loader_get_stats (loader)->events, ==, stats.events);
    g_assert_cmpfloat (suanli_trace_loader_get_fraction (loader), ==, 1);
    g_assert_cmpuint (waiting.notified, >=, 1);
    g_object_unref (waiting.trace);
    suanli_import_stats_clear (&stats);
  }

  /* A file that cannot be read fails the load, naming it. */
  {
    GFile *files[] = { file, absent };
    g_autoptr(SuanliTraceLoader) loader = suanli_trace_loader_new (files, 2);
    Waiting waiting = { loop };

    suanli_trace_loader_load_async (loader, NULL, loaded, &waiting);
    g_main_loop_run (loop);
    g_assert_null (waiting.trace);
    g_assert_error (waiting.error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND);
    g_assert_nonnull (strstr (waiting.error->message, "missing.json"));
    g_clear_error (&waiting.error);
  }
  g_unlink (plain);
  g_rmdir (directory);
}

/* Writes the first half of a trace into a FIFO, waits until the test has cancelled the load, then
 * writes the rest: the worker cannot have finished before the cancellation. */
typedef struct
{
  const char *path;
  GString    *text;
  GMutex      mutex;
  GCond       cond;
  gboolean    half_written, cancelled;
} Writer;

static gpointer
write_slowly (gpointer data)
{
  Writer *writer = data;
  FILE *fifo = fopen (writer->path, "w");
  gsize half = writer->text->len / 2;

  g_assert_nonnull (fifo);
  g_assert_cmpuint (fwrite (writer->text->str, 1, half, fifo), ==, half);
  fflush (fifo);
  g_mutex_lock (&writer->mutex);
  writer->half_written = TRUE;
  g_cond_broadcast (&writer->cond);
  while (!writer->cancelled)
    g_cond_wait (&writer->cond, &writer->mutex);
  g_mutex_unlock (&writer->mutex);
  /* The reader may have stopped and closed its end: the rest then fails with EPIPE, harmlessly. */
  fwrite (writer->text->str + half, 1, writer->text->len - half, fifo);
  fclose (fifo);
  return NULL;
}

static void
test_loader_cancel (void)
{
  g_autoptr(GString) text = generated_trace (20000);
  g_autofree char *directory = g_dir_make_tmp ("suanli-loader-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (directory, "live.json", NULL);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(GMainLoop) loop = g_main_loop_new (NULL, FALSE);
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  g_autoptr(SuanliTraceLoader) loader = suanli_trace_loader_new (&file, 1);
  Writer writer = { path, text };
  Waiting waiting = { loop };
  GThread *thread;

  g_assert_cmpint (mkfifo (path, 0600), ==, 0);
  g_mutex_init (&writer.mutex);
  g_cond_init (&writer.cond);
  thread = g_thread_new ("writer", write_slowly, &writer);
  suanli_trace_loader_load_async (loader, cancellable, loaded, &waiting);

  g_mutex_lock (&writer.mutex);
  while (!writer.half_written)
    g_cond_wait (&writer.cond, &writer.mutex);
  g_cancellable_cancel (cancellable);
  writer.cancelled = TRUE;
  g_cond_broadcast (&writer.cond);
  g_mutex_unlock (&writer.mutex);

  g_main_loop_run (loop);
  g_thread_join (thread);
  g_assert_null (waiting.trace);
  g_assert_error (waiting.error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_clear_error (&waiting.error);
  g_mutex_clear (&writer.mutex);
  g_cond_clear (&writer.cond);
  g_unlink (path);
  g_rmdir (directory);
}

static void
count_grown (SuanliTrace *trace,
             guint       *grown)
{
  (*grown)++;
}

static SuanliSlice
slice (SuanliTrace *trace,
       const char  *name,
       gint64       start,
       gint64       duration)
{
  SuanliSlice made = { start, duration, suanli_trace_intern (trace, name, -1), 0, G_MAXUINT32, 0, 0, 0 };

  return made;
}

static const char *
name_at (SuanliTrace *trace,
         SuanliTrack *track,
         guint        index)
{
  return suanli_trace_get_string (trace, g_array_index (track->slices, SuanliSlice, index).name);
}

static guint
depth_at (SuanliTrack *track,
          guint        index)
{
  return g_array_index (track->slices, SuanliSlice, index).depth;
}

static void
test_grown (void)
{
  g_autoptr(SuanliTrace) trace = suanli_trace_new ();
  SuanliTrack *track = suanli_trace_ensure_track (trace, SUANLI_TRACK_THREAD, 1, 1, 0, NULL);
  guint grown = 0;
  SuanliSlice items[3];

  g_signal_connect (trace, "grown", G_CALLBACK (count_grown), &grown);
  items[0] = slice (trace, "step", 0, 100);
  items[1] = slice (trace, "forward", 10, 30);
  items[2] = slice (trace, "backward", 50, 40);
  g_array_append_vals (track->slices, items, 3);
  suanli_trace_finish (trace);
  g_assert_cmpuint (grown, ==, 0);

  /* New items after the old ones: a child of the open step, and a new step with a child. */
  items[0] = slice (trace, "optimizer", 92, 6);
  items[1] = slice (trace, "step", 100, 50);
  items[2] = slice (trace, "forward", 105, 10);
  g_array_append_vals (track->slices, items, 3);
  suanli_trace_finish_appended (trace);
  g_assert_cmpuint (grown, ==, 1);
  g_assert_cmpuint (track->slices->len, ==, 6);
  g_assert_cmpstr (name_at (trace, track, 3), ==, "optimizer");
  g_assert_cmpuint (depth_at (track, 3), ==, 1);
  g_assert_cmpuint (depth_at (track, 4), ==, 0);
  g_assert_cmpuint (depth_at (track, 5), ==, 1);
  g_assert_cmpuint (track->max_depth, ==, 1);

  /* One out of order (inside the first forward): the whole track is sorted and nested again. */
  items[0] = slice (trace, "matmul", 12, 5);
  g_array_append_vals (track->slices, items, 1);
  suanli_trace_finish_appended (trace);
  g_assert_cmpuint (grown, ==, 2);
  g_assert_cmpstr (name_at (trace, track, 2), ==, "matmul");
  g_assert_cmpuint (depth_at (track, 2), ==, 2);
  g_assert_cmpuint (track->max_depth, ==, 2);
  for (guint i = 1; i < track->slices->len; i++)
    g_assert_cmpint (g_array_index (track->slices, SuanliSlice, i - 1).start, <=,
                     g_array_index (track->slices, SuanliSlice, i).start);

  /* A new track made after the finish counts as new from its first item. */
  {
    SuanliTrack *stream = suanli_trace_ensure_track (trace, SUANLI_TRACK_GPU_STREAM, 0, 7, 0, NULL);

    items[0] = slice (trace, "gemm", 20, 5);
    items[1] = slice (trace, "relu", 8, 2);
    g_array_append_vals (stream->slices, items, 2);
    suanli_trace_finish_appended (trace);
    g_assert_cmpstr (name_at (trace, stream, 0), ==, "relu");
    g_assert_cmpuint (suanli_trace_get_n_slices (trace), ==, 9);
  }
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  signal (SIGPIPE, SIG_IGN);   /* the FIFO's writer outlives its reader in the cancel test */
  g_test_add_func ("/trace-live/loader", test_loader);
  g_test_add_func ("/trace-live/loader-cancel", test_loader_cancel);
  g_test_add_func ("/trace-live/grown", test_grown);
  return g_test_run ();
}
