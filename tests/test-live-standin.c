/* test-live-standin.c — live capture end to end on this machine: the real injection library in a
 * stand-in CUDA job (tests/cupti-job.c) on the stand-in libcupti (tests/fake-libcupti.c), driven
 * by `suanli-cli record` or its control socket, and read back with the real importer
 *
 * One case per behaviour issue 16 asks of the library (its faults 2 to 7), each run as a test of
 * its own (meson gives each its -p), so that one that hangs the library cannot hide the others.
 * The jobs are driven a line at a time on their standard input, and every wait is for a
 * condition (the job's answer, a record in the stream, the job's exit), never for a fixed time.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <errno.h>
#include <signal.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <unistd.h>
#include <glib.h>
#include <glib/gstdio.h>
#include <gio/gio.h>
#include <json-glib/json-glib.h>

#include "suanli-capture.h"
#include "suanli-import.h"
#include "suanli-inject.h"
#include "suanli-live-job.h"
#include "suanli-test-process.h"
#include "suanli-test-wait.h"

#define RUNTIME_CBIDS 523   /* CUPTI_RUNTIME_TRACE_CBID_SIZE in CUDA 13.0 */
#define DRIVER_CBIDS  807   /* CUPTI_DRIVER_TRACE_CBID_SIZE */

static char *runtime_dir;

/* ---- a capture stream, as the job sends it ------------------------------------------------------- */

typedef struct
{
  gsize               offset;          /* parsed up to here */
  gboolean            has_header;
  SuanliCaptureHeader header;
  GArray             *kernels;         /* SuanliCaptureKernel */
  GArray             *apis;            /* SuanliCaptureApi */
  GHashTable         *strings;         /* id → text */
  GHashTable         *stacks;          /* correlation → depth of its LAUNCH_STACK record */
  guint               drop_records;
  guint64             dropped;         /* the drop records' counts together */
  gboolean            ended;
  SuanliCaptureEnd    end;
} Stream;

static void
stream_init (Stream *stream)
{
  memset (stream, 0, sizeof *stream);
  stream->kernels = g_array_new (FALSE, TRUE, sizeof (SuanliCaptureKernel));
  stream->apis = g_array_new (FALSE, TRUE, sizeof (SuanliCaptureApi));
  stream->strings = g_hash_table_new_full (NULL, NULL, NULL, g_free);
  stream->stacks = g_hash_table_new (NULL, NULL);
}

static void
stream_clear (Stream *stream)
{
  g_clear_pointer (&stream->kernels, g_array_unref);
  g_clear_pointer (&stream->apis, g_array_unref);
  g_clear_pointer (&stream->strings, g_hash_table_unref);
  g_clear_pointer (&stream->stacks, g_hash_table_unref);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (Stream, stream_clear)

/* Keeps what the tests look at of @record; returns its size. */
static gsize
take_record (Stream                    *stream,
             const SuanliCaptureRecord *record)
{
  SuanliCaptureRecord head;

  memcpy (&head, record, sizeof head);
  switch (head.kind)
    {
    case SUANLI_CAPTURE_KERNEL:
      {
        SuanliCaptureKernel kernel;

        suanli_capture_copy_record (record, &kernel, sizeof kernel);
        g_array_append_val (stream->kernels, kernel);
        break;
      }
    case SUANLI_CAPTURE_API:
      {
        SuanliCaptureApi api;

        suanli_capture_copy_record (record, &api, sizeof api);
        g_array_append_val (stream->apis, api);
        break;
      }
    case SUANLI_CAPTURE_STRING:
      {
        SuanliCaptureString string;

        suanli_capture_copy_record (record, &string, sizeof string);
        if (string.length <= head.size - sizeof string)
          g_hash_table_replace (stream->strings, GUINT_TO_POINTER (string.id),
                                g_strndup ((const char *) record + sizeof string, string.length));
        break;
      }
    case SUANLI_CAPTURE_LAUNCH_STACK:
      {
        SuanliCaptureLaunchStack stack;

        suanli_capture_copy_record (record, &stack, sizeof stack);
        g_hash_table_replace (stream->stacks, GUINT_TO_POINTER (stack.correlation), GUINT_TO_POINTER (stack.depth));
        break;
      }
    case SUANLI_CAPTURE_DROPPED:
      {
        SuanliCaptureDropped dropped;

        suanli_capture_copy_record (record, &dropped, sizeof dropped);
        stream->drop_records++;
        stream->dropped += dropped.count;
        break;
      }
    case SUANLI_CAPTURE_END:
      suanli_capture_copy_record (record, &stream->end, sizeof stream->end);
      stream->ended = TRUE;
      break;
    default:
      break;
    }
  return head.size;
}

/* Reads the whole records among @bytes past what was read before (the devices after the header
 * are passed over by the size the header gives them). */
static void
stream_parse (Stream       *stream,
              const guint8 *bytes,
              gsize         length)
{
  SuanliCaptureStatus status;
  gsize used = 0;

  if (!stream->has_header)
    {
      status = suanli_capture_read_header (bytes, length, &stream->header, &used);
      if (status == SUANLI_CAPTURE_NEED_MORE)
        return;
      if (status != SUANLI_CAPTURE_OK)
        g_error ("the capture's header is damaged: %s", suanli_capture_status_message (status));
      stream->has_header = TRUE;
      stream->offset = used + (gsize) stream->header.n_devices * stream->header.device_size;
    }
  while (stream->offset < length)
    {
      const SuanliCaptureRecord *record;

      status = suanli_capture_next_record (bytes + stream->offset, length - stream->offset, &record);
      if (status == SUANLI_CAPTURE_NEED_MORE)
        return;
      if (status != SUANLI_CAPTURE_OK)
        g_error ("the capture stream is damaged at byte %" G_GSIZE_FORMAT ": %s", stream->offset,
                 suanli_capture_status_message (status));
      stream->offset += take_record (stream, record);
    }
}

static const char *
stream_string (Stream  *stream,
               guint32  id)
{
  return g_hash_table_lookup (stream->strings, GUINT_TO_POINTER (id));
}

/* Whether the kernel of @correlation came with its launch's stack (as addresses, or as text from
 * a writer before the module records). */
static gboolean
stream_has_stack (Stream                    *stream,
                  const SuanliCaptureKernel *kernel)
{
  return GPOINTER_TO_UINT (g_hash_table_lookup (stream->stacks, GUINT_TO_POINTER (kernel->correlation))) > 0 ||
         kernel->stack != SUANLI_CAPTURE_NO_STRING;
}

static void
stream_read_file (Stream     *stream,
                  const char *path)
{
  g_autofree char *contents = NULL;
  gsize length = 0;

  stream_init (stream);
  if (!g_file_get_contents (path, &contents, &length, NULL))
    g_error ("no capture was written to %s", path);
  stream_parse (stream, (const guint8 *) contents, length);
}

/* ---- a capture over the control socket, read on a thread of its own ------------------------------- */

typedef struct
{
  int         fd;
  GThread    *reader;
  GMutex      lock;
  GByteArray *bytes;
  gboolean    closed;   /* the job closed the connection */
  Stream      stream;   /* what the bytes say so far (on the test's thread) */
} Capture;

static gpointer
read_capture (gpointer data)
{
  Capture *capture = data;
  guint8 buffer[1 << 16];

  for (;;)
    {
      ssize_t got = recv (capture->fd, buffer, sizeof buffer, 0);

      if (got < 0 && errno == EINTR)
        continue;
      g_mutex_lock (&capture->lock);
      if (got > 0)
        g_byte_array_append (capture->bytes, buffer, (guint) got);
      else
        capture->closed = TRUE;
      g_mutex_unlock (&capture->lock);
      if (got <= 0)
        return NULL;
    }
}

/* START on @socket_path: the job's answer must be OK; NULL with why in @error when it is not. */
static Capture *
capture_start (const char *socket_path,
               GError    **error)
{
  int fd = suanli_live_start (socket_path, error);
  Capture *capture;

  if (fd < 0)
    return NULL;
  capture = g_new0 (Capture, 1);
  capture->fd = fd;
  capture->bytes = g_byte_array_new ();
  g_mutex_init (&capture->lock);
  stream_init (&capture->stream);
  capture->reader = g_thread_new ("capture", read_capture, capture);
  return capture;
}

/* Brings capture->stream up to what has come; returns whether the job has closed the stream. */
static gboolean
capture_update (Capture *capture)
{
  gboolean closed;

  g_mutex_lock (&capture->lock);
  stream_parse (&capture->stream, capture->bytes->data, capture->bytes->len);
  closed = capture->closed;
  g_mutex_unlock (&capture->lock);
  return closed;
}

static gboolean
capture_closed (gpointer data)
{
  return capture_update (data);
}

static void
capture_stop (Capture *capture)
{
  send (capture->fd, "STOP\n", 5, MSG_NOSIGNAL);
}

/* STOP, and the rest of the stream to its end. */
static void
capture_finish (Capture *capture)
{
  capture_stop (capture);
  suanli_test_await (capture_closed, capture);
}

static void
capture_save (Capture    *capture,
              const char *path)
{
  g_mutex_lock (&capture->lock);
  g_assert_true (g_file_set_contents (path, (const char *) capture->bytes->data, capture->bytes->len, NULL));
  g_mutex_unlock (&capture->lock);
}

static void
capture_free (Capture *capture)
{
  shutdown (capture->fd, SHUT_RDWR);
  g_thread_join (capture->reader);
  close (capture->fd);
  g_byte_array_unref (capture->bytes);
  g_mutex_clear (&capture->lock);
  stream_clear (&capture->stream);
  g_free (capture);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (Capture, capture_free)

/* A condition: the stream holds at least this many kernels. */
typedef struct
{
  Capture *capture;
  guint    kernels;
} KernelsSeen;

static gboolean
kernels_seen (gpointer data)
{
  KernelsSeen *seen = data;

  capture_update (seen->capture);
  return seen->capture->stream.kernels->len >= seen->kernels;
}

static gboolean
drops_reported (gpointer data)
{
  Capture *capture = data;

  capture_update (capture);
  return capture->stream.drop_records > 0;
}

/* ---- the stand-in job -------------------------------------------------------------------------------- */

typedef struct
{
  GSubprocess      *process;
  GDataInputStream *answers;
  GOutputStream    *commands;
  char             *pid;
  char             *socket_path;
  gboolean          exited;
} Job;

static void
job_free (Job *job)
{
  if (!job->exited)
    {
      g_subprocess_force_exit (job->process);
      g_subprocess_wait (job->process, NULL, NULL);
    }
  g_object_unref (job->answers);
  g_object_unref (job->process);
  g_free (job->pid);
  g_free (job->socket_path);
  g_free (job);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (Job, job_free)

typedef struct
{
  char    *line;
  gboolean done;
} LineRead;

static void
on_line (GObject      *source,
         GAsyncResult *result,
         gpointer      data)
{
  LineRead *read = data;

  read->line = g_data_input_stream_read_line_finish_utf8 (G_DATA_INPUT_STREAM (source), result, NULL, NULL);
  read->done = TRUE;
}

static gboolean
line_read (gpointer data)
{
  return ((LineRead *) data)->done;
}

/* The job's next line of JSON, parsed (the job must give one within the suite's patience). */
static JsonObject *
job_answer (Job *job)
{
  LineRead read = { NULL, FALSE };
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) error = NULL;
  g_autofree char *line = NULL;

  g_data_input_stream_read_line_async (job->answers, G_PRIORITY_DEFAULT, NULL, on_line, &read);
  suanli_test_await (line_read, &read);
  line = read.line;
  if (line == NULL)
    g_error ("the job ended without answering");
  if (!json_parser_load_from_data (parser, line, -1, &error))
    g_error ("the job answered %s, not JSON: %s", line, error->message);
  if (json_object_has_member (json_node_get_object (json_parser_get_root (parser)), "error"))
    g_error ("the job answered %s", line);
  return json_object_ref (json_node_get_object (json_parser_get_root (parser)));
}

static void
job_say (Job        *job,
         const char *command)
{
  g_autofree char *line = g_strconcat (command, "\n", NULL);

  g_assert_true (g_output_stream_write_all (job->commands, line, strlen (line), NULL, NULL, NULL));
  g_assert_true (g_output_stream_flush (job->commands, NULL, NULL));
}

static JsonObject *
job_ask (Job        *job,
         const char *command)
{
  job_say (job, command);
  return job_answer (job);
}

/* In the child: it dies with the test, so that a test that fails while a job hangs (the very
 * fault some cases look for) does not leave the job holding the suite's output open. */
static void
die_with_test (gpointer data)
{
  prctl (PR_SET_PDEATHSIG, SIGKILL);
}

/* An interactive cupti-job with @arguments and @environment (NAME=VALUE, NULL-terminated; either
 * may be NULL), the injection library in its CUDA_INJECTION64_PATH; back once it is past cuInit. */
static Job *
job_start (const char * const *arguments,
           const char * const *environment)
{
  g_autoptr(GSubprocessLauncher) launcher = g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDIN_PIPE |
                                                                      G_SUBPROCESS_FLAGS_STDOUT_PIPE);
  g_autoptr(GPtrArray) argv = g_ptr_array_new ();
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonObject) ready = NULL;
  Job *job = g_new0 (Job, 1);

  g_subprocess_launcher_set_child_setup (launcher, die_with_test, NULL, NULL);
  g_subprocess_launcher_setenv (launcher, "CUDA_INJECTION64_PATH", g_getenv ("SUANLI_INJECT_LIBRARY"), TRUE);
  for (guint i = 0; environment != NULL && environment[i] != NULL; i++)
    {
      g_auto(GStrv) pair = g_strsplit (environment[i], "=", 2);

      g_subprocess_launcher_setenv (launcher, pair[0], pair[1], TRUE);
    }
  g_ptr_array_add (argv, (char *) g_getenv ("SUANLI_CUPTI_JOB"));
  g_ptr_array_add (argv, "--interactive");
  for (guint i = 0; arguments != NULL && arguments[i] != NULL; i++)
    g_ptr_array_add (argv, (char *) arguments[i]);
  g_ptr_array_add (argv, NULL);
  job->process = g_subprocess_launcher_spawnv (launcher, (const char * const *) argv->pdata, &error);
  g_assert_no_error (error);
  job->answers = g_data_input_stream_new (g_subprocess_get_stdout_pipe (job->process));
  job->commands = g_subprocess_get_stdin_pipe (job->process);
  job->pid = g_strdup (g_subprocess_get_identifier (job->process));
  job->socket_path = g_strdup_printf ("%s/suanli/%s.sock", runtime_dir, job->pid);
  ready = job_answer (job);
  g_assert_true (json_object_get_boolean_member (ready, "ready"));
  g_assert_true (g_file_test (job->socket_path, G_FILE_TEST_EXISTS));
  return job;
}

static gboolean
job_exited (gpointer data)
{
  Job *job = data;

  if (!job->exited && g_subprocess_get_identifier (job->process) == NULL)
    job->exited = TRUE;
  return job->exited;
}

static void
on_job_exit (GObject      *source,
             GAsyncResult *result,
             gpointer      data)
{
  g_subprocess_wait_finish (G_SUBPROCESS (source), result, NULL);
}

/* Tells the job to exit and waits for it to be gone: its exit must not hang. Returns how long it took. */
static double
job_exit (Job *job)
{
  gint64 start = g_get_monotonic_time ();

  g_subprocess_wait_async (job->process, NULL, on_job_exit, NULL);
  job_say (job, "exit");
  suanli_test_await (job_exited, job);
  g_assert_true (g_subprocess_get_if_exited (job->process));
  g_assert_cmpint (g_subprocess_get_exit_status (job->process), ==, 0);
  return (double) (g_get_monotonic_time () - start) / G_USEC_PER_SEC;
}

static JsonObject *
job_fake_state (Job *job)
{
  g_autoptr(JsonObject) state = job_ask (job, "state");

  g_assert_true (json_object_has_member (state, "fake"));
  return json_object_ref (json_object_get_object_member (state, "fake"));
}

/* A condition: the stand-in libcupti in the job (a Job *) has a subscriber and kinds enabled. */
static gboolean
cupti_is_on (gpointer data)
{
  g_autoptr(JsonObject) state = job_fake_state (data);

  return json_object_get_boolean_member (state, "subscribed") && json_object_get_int_member (state, "kinds") != 0;
}

/* The paths of the libcupti copies mapped in the job. */
static GPtrArray *
job_cupti_mappings (Job *job)
{
  g_autofree char *maps_path = g_strdup_printf ("/proc/%s/maps", job->pid);
  g_autofree char *maps = NULL;
  g_auto(GStrv) lines = NULL;
  GPtrArray *paths = g_ptr_array_new_with_free_func (g_free);

  g_assert_true (g_file_get_contents (maps_path, &maps, NULL, NULL));
  lines = g_strsplit (maps, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      const char *path = strchr (lines[i], '/');

      if (path != NULL && strstr (path, "libcupti") != NULL &&
          !g_ptr_array_find_with_equal_func (paths, path, g_str_equal, NULL))
        g_ptr_array_add (paths, g_strdup (path));
    }
  return paths;
}

/* START refused: the job's words, from its ERROR answer. */
static char *
start_refused (Job *job)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(Capture) capture = capture_start (job->socket_path, &error);

  if (capture != NULL)
    g_error ("START was taken, and should have been refused");
  g_test_message ("START refused: %s", error->message);
  return g_strdup (error->message);
}

static Capture *
start_capture (Job *job)
{
  g_autoptr(GError) error = NULL;
  Capture *capture = capture_start (job->socket_path, &error);

  if (capture == NULL)
    g_error ("START was refused: %s", error->message);
  return capture;
}

/* START, @command to the job, then STOP and the stream to its end; the job's answer in @answer
 * (NULL: not wanted). */
static Capture *
capture_command (Job         *job,
                 const char  *command,
                 JsonObject **answer)
{
  Capture *capture = start_capture (job);
  JsonObject *said = job_ask (job, command);

  capture_finish (capture);
  if (answer != NULL)
    *answer = said;
  else
    json_object_unref (said);
  return capture;
}

/* What `suanli-cli trace summary --json` says of @path, all of it. */
static char *
summary_of (const char *path)
{
  g_auto(SuanliTestRun) summary = { 0 };

  suanli_test_run_cli (&summary, "en", (const char *[]) { "trace", "summary", "--json", path, NULL });
  g_test_message ("summary: %s", summary.out);
  g_assert_cmpint (summary.status, ==, 0);
  return g_steal_pointer (&summary.out);
}

static guint
kernels_named (Stream     *stream,
               const char *name)
{
  guint n = 0;

  for (guint i = 0; i < stream->kernels->len; i++)
    if (g_strcmp0 (stream_string (stream, g_array_index (stream->kernels, SuanliCaptureKernel, i).name), name) == 0)
      n++;
  return n;
}

static char *
temporary_path (const char *name)
{
  return g_build_filename (runtime_dir, name, NULL);
}

/* ---- fault 2: launch mode captures from the first launch, attach mode from START ------------------- */

static void
test_launch_mode (void)
{
  g_autofree char *output = temporary_path ("launch.suanli-capture");
  g_autofree char *report_path = temporary_path ("launch.json");
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_auto(SuanliTestRun) record = { 0 };
  g_auto(Stream) stream = { 0 };
  g_autofree char *summary = NULL;
  JsonObject *per_name;
  GList *names;

  /* The job launches 3,000 kernels the moment InitializeInjection returns, then exits. */
  suanli_test_run_cli (&record, "en", (const char *[]) { "record", "-o", output, "--", g_getenv ("SUANLI_CUPTI_JOB"),
                                                        "--launches", "3000", "--report", report_path, NULL });
  g_test_message ("record: %s", record.err);
  g_assert_cmpint (record.status, ==, 0);
  stream_read_file (&stream, output);
  g_assert_true (stream.header.flags & SUANLI_CAPTURE_FROM_LAUNCH);
  g_assert_true (json_parser_load_from_file (parser, report_path, NULL));
  per_name = json_object_get_object_member (json_node_get_object (json_parser_get_root (parser)), "per_name");
  names = json_object_get_members (per_name);
  for (GList *name = names; name != NULL; name = name->next)
    {
      g_test_message ("%s: %u of %" G_GINT64_FORMAT, (const char *) name->data, kernels_named (&stream, name->data),
                      json_object_get_int_member (per_name, name->data));
      g_assert_cmpint (kernels_named (&stream, name->data), ==, json_object_get_int_member (per_name, name->data));
    }
  g_list_free (names);
  g_assert_cmpuint (stream.kernels->len, ==, 3000);
  summary = summary_of (output);
  g_assert_null (strstr (summary, "START"));
  g_unlink (output);
  g_unlink (report_path);
}

static void
test_attach_mode (void)
{
  g_autoptr(Job) job = job_start (NULL, NULL);
  g_autofree char *output = temporary_path ("attached.suanli-capture");
  g_autoptr(GSubprocessLauncher) launcher = g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_NONE);
  g_autoptr(GSubprocess) record = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonObject) before = job_ask (job, "launch 100");
  g_autoptr(JsonObject) during = NULL;
  g_auto(Stream) stream = { 0 };
  g_autofree char *summary = NULL;

  g_subprocess_launcher_set_child_setup (launcher, die_with_test, NULL, NULL);
  record = g_subprocess_launcher_spawn (launcher, &error, g_getenv ("SUANLI_CLI"), "record", "--attach", job->pid, "-o", output,
                                        NULL);
  g_assert_no_error (error);
  suanli_test_await (cupti_is_on, job);
  during = job_ask (job, "launch 300");
  g_subprocess_send_signal (record, SIGINT);
  g_assert_true (g_subprocess_wait_check (record, NULL, &error));
  g_assert_no_error (error);
  stream_read_file (&stream, output);
  g_assert_false (stream.header.flags & SUANLI_CAPTURE_FROM_LAUNCH);
  g_assert_cmpuint (stream.kernels->len, ==, 300);
  summary = summary_of (output);
  g_assert_nonnull (strstr (summary, "START"));
  job_exit (job);
  g_unlink (output);
}

/* ---- fault 3: no record dropped at 100,000 launches a second from deep stacks, libtorch loaded ------ */

static void
test_no_drops_deep_stacks (void)
{
  g_autoptr(Job) job = job_start ((const char *[]) { "--torch", "--depth", "40", "--rate", "100000", NULL }, NULL);
  g_autoptr(JsonObject) launched = NULL;
  g_autoptr(Capture) capture = capture_command (job, "launch 300000", &launched);
  g_autofree char *output = temporary_path ("deep.suanli-capture");
  g_autoptr(SuanliTrace) trace = suanli_trace_new ();
  g_autoptr(GFile) file = NULL;
  g_autoptr(GError) error = NULL;
  SuanliImportStats stats = { 0 };
  guint kernels = 0, without = 0;
  const char *example = NULL;

  g_assert_cmpint (json_object_get_int_member (launched, "launched"), ==, 300000);
  g_assert_cmpint (json_object_get_int_member (launched, "dropped"), ==, 0);
  g_assert_true (capture->stream.ended);
  g_assert_cmpuint (capture->stream.drop_records, ==, 0);
  g_assert_cmpuint (capture->stream.end.dropped, ==, 0);
  g_assert_cmpuint (capture->stream.kernels->len, ==, 300000);

  /* Every kernel has its launch's stack, named down to the job's own functions. */
  capture_save (capture, output);
  file = g_file_new_for_path (output);
  g_assert_true (suanli_import_file (trace, file, &stats, NULL, &error));
  g_assert_no_error (error);
  suanli_import_stats_clear (&stats);
  for (guint t = 0; t < suanli_trace_get_n_tracks (trace); t++)
    {
      SuanliTrack *track = suanli_trace_get_track (trace, t);

      for (guint s = 0; track->kind == SUANLI_TRACK_GPU_STREAM && s < track->slices->len; s++)
        {
          const SuanliSlice *slice = &g_array_index (track->slices, SuanliSlice, s);
          const SuanliArg *args = suanli_trace_get_args (trace, slice);
          const char *stack = NULL;

          for (guint a = 0; a < slice->n_args; a++)
            if (g_str_equal (suanli_trace_get_string (trace, args[a].key), "Call stack"))
              stack = suanli_trace_get_string (trace, args[a].s);
          kernels++;
          if (stack == NULL || strstr (stack, "cupti_job_descend") == NULL)
            without++;
          else
            example = stack;
        }
    }
  g_test_message ("%u kernels, %u without a stack naming cupti_job_descend; one stack:\n%s", kernels, without,
                  example != NULL ? example : "(none)");
  g_assert_cmpuint (kernels, ==, 300000);
  g_assert_cmpuint (without, ==, 0);
  job_exit (job);
  g_unlink (output);
}

/* ---- fault 4: which libcupti ------------------------------------------------------------------------ */

/* A job that loaded none: SUANLI_CUPTI_PATH is the one, before any other on the machine. */
static void
test_cupti_path_first (void)
{
  g_autofree char *setting = g_strdup_printf ("SUANLI_CUPTI_PATH=%s", g_getenv ("FAKE_CUPTI_LIBRARY"));
  g_autoptr(Job) job = job_start ((const char *[]) { "--no-cupti", NULL }, (const char *[]) { setting, NULL });
  g_autoptr(Capture) capture = capture_command (job, "launch 50", NULL);
  g_autoptr(GPtrArray) mapped = job_cupti_mappings (job);

  g_assert_cmpuint (capture->stream.kernels->len, ==, 50);
  for (guint i = 0; i < mapped->len; i++)
    g_test_message ("mapped: %s", (const char *) g_ptr_array_index (mapped, i));
  g_assert_cmpuint (mapped->len, ==, 1);
  g_assert_cmpstr (g_ptr_array_index (mapped, 0), ==, g_getenv ("FAKE_CUPTI_LIBRARY"));
  job_exit (job);
}

/* The job's own copy is used, and no second one is loaded, whatever else there is to find. */
static void
test_loaded_copy_used (void)
{
  g_autofree char *folder = temporary_path ("second-cupti");
  g_autofree char *copy = g_build_filename (folder, "libcupti.so.13", NULL);
  g_autofree char *setting = g_strdup_printf ("SUANLI_CUPTI_PATH=%s", copy);
  g_autofree char *contents = NULL;
  gsize length;
  g_autoptr(Job) job = NULL;
  g_autoptr(Capture) capture = NULL;
  g_autoptr(GPtrArray) mapped = NULL;

  g_assert_cmpint (g_mkdir_with_parents (folder, 0700), ==, 0);
  g_assert_true (g_file_get_contents (g_getenv ("FAKE_CUPTI_LIBRARY"), &contents, &length, NULL));
  g_assert_true (g_file_set_contents (copy, contents, (gssize) length, NULL));
  job = job_start (NULL, (const char *[]) { setting, NULL });
  capture = capture_command (job, "launch 50", NULL);
  mapped = job_cupti_mappings (job);
  g_assert_cmpuint (capture->stream.kernels->len, ==, 50);
  for (guint i = 0; i < mapped->len; i++)
    g_test_message ("mapped: %s", (const char *) g_ptr_array_index (mapped, i));
  g_assert_cmpuint (mapped->len, ==, 1);
  g_assert_cmpstr (g_ptr_array_index (mapped, 0), ==, g_getenv ("FAKE_CUPTI_LIBRARY"));
  job_exit (job);
  g_unlink (copy);
  g_rmdir (folder);
}

/* None loaded, none to be found (the toolkit's folders pointed at an empty one; this machine's own
 * /usr/local/cuda is not to be used when CUDA_HOME says otherwise): a clear START error. */
static void
test_no_cupti_to_find (void)
{
  g_autofree char *empty = temporary_path ("no-cuda");
  g_autofree char *missing = g_build_filename (empty, "lib64", "libcupti.so.13", NULL);
  g_autofree char *setting = g_strdup_printf ("SUANLI_CUPTI_PATH=%s", missing);
  g_autofree char *home = g_strdup_printf ("CUDA_HOME=%s", empty);
  g_autofree char *cuda_path = g_strdup_printf ("CUDA_PATH=%s", empty);
  g_autoptr(Job) job = NULL;
  g_autofree char *refusal = NULL;
  g_autoptr(GPtrArray) mapped = NULL;

  g_assert_cmpint (g_mkdir_with_parents (empty, 0700), ==, 0);
  job = job_start ((const char *[]) { "--no-cupti", NULL }, (const char *[]) { setting, home, cuda_path, NULL });
  refusal = start_refused (job);
  g_assert_nonnull (strstr (refusal, "libcupti"));
  g_assert_nonnull (strstr (refusal, missing));
  mapped = job_cupti_mappings (job);
  g_assert_cmpuint (mapped->len, ==, 0);
  job_exit (job);
  g_rmdir (empty);
}

/* ---- fault 5: Kineto in the same job ------------------------------------------------------------------ */

/* Kineto holds CUPTI when a capture starts: refused, and Kineto's capture goes on undisturbed. */
static void
kineto_first (const char *name)
{
  g_autoptr(Job) job = job_start ((const char *[]) { "--kineto-init", name != NULL ? "--kineto-name" : NULL, name, NULL },
                                  NULL);
  g_autoptr(JsonObject) started = job_ask (job, "kineto-start");
  g_autofree char *refusal = start_refused (job);
  g_autoptr(JsonObject) launched = job_ask (job, "launch 500");
  g_autoptr(JsonObject) state = job_fake_state (job);
  g_autoptr(JsonObject) stopped = job_ask (job, "kineto-stop");
  JsonObject *kineto = json_object_get_object_member (stopped, "kineto");

  g_assert_nonnull (strstr (refusal, "MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED"));
  if (name != NULL)
    {
      g_autofree char *holder = g_strdup_printf ("CUPTI for %s", name);

      g_assert_nonnull (strstr (refusal, holder));
    }
  /* Kineto's subscriber and buffers are still its own, and it got every kernel and launch. */
  g_assert_true (json_object_get_boolean_member (state, "subscribed"));
  g_assert_true (json_object_get_boolean_member (state, "kineto_owns_buffers"));
  g_assert_cmpint (json_object_get_int_member (state, "finalized"), ==, 0);
  g_assert_cmpint (json_object_get_int_member (kineto, "kernels"), ==, 500);
  g_assert_cmpint (json_object_get_int_member (kineto, "api_records"), ==, 500);
  g_assert_cmpint (json_object_get_int_member (kineto, "unknown_buffers"), ==, 0);
  job_exit (job);
}

static void
test_kineto_first (void)
{
  kineto_first (NULL);   /* Kineto as it is: cuptiSubscribe, no name */
}

static void
test_kineto_first_named (void)
{
  kineto_first ("PyTorch Profiler");   /* a holder that gave cuptiSubscribe_v2 its name */
}

/* torch.profiler starts while a capture runs: the capture ends with what it had, saying why, and
 * Kineto gets all that came after. */
static void
test_kineto_during_capture (void)
{
  g_autoptr(Job) job = job_start (NULL, NULL);
  g_autoptr(Capture) capture = start_capture (job);
  g_autoptr(JsonObject) before = job_ask (job, "launch 400");
  KernelsSeen seen = { capture, 400 };
  g_autoptr(JsonObject) started = NULL;
  g_autoptr(JsonObject) after = NULL;
  g_autoptr(JsonObject) stopped = NULL;
  g_autofree char *output = temporary_path ("taken.suanli-capture");
  g_autofree char *summary = NULL;
  g_autofree char *lowered = NULL;
  JsonObject *kineto;

  suanli_test_await (kernels_seen, &seen);
  started = job_ask (job, "kineto-start");
  after = job_ask (job, "launch 600");
  stopped = job_ask (job, "kineto-stop");
  kineto = json_object_get_object_member (stopped, "kineto");
  g_assert_cmpint (json_object_get_int_member (kineto, "kernels"), ==, 600);
  g_assert_cmpint (json_object_get_int_member (kineto, "api_records"), ==, 600);
  capture_finish (capture);
  g_assert_true (capture->stream.ended);
  g_assert_cmpuint (capture->stream.end.reason, ==, SUANLI_END_CUPTI_TAKEN);
  g_assert_cmpuint (capture->stream.kernels->len, ==, 400);
  capture_save (capture, output);
  summary = summary_of (output);
  lowered = g_ascii_strdown (summary, -1);
  g_assert_true (strstr (lowered, "cupti") != NULL && (strstr (lowered, "took") != NULL || strstr (lowered, "taken") != NULL));
  job_exit (job);
  g_unlink (output);
}

/* ---- fault 6: teardown and exit ------------------------------------------------------------------------ */

static void
assert_idle (JsonObject *state,
             JsonObject *before)
{
  g_assert_false (json_object_get_boolean_member (state, "subscribed"));
  g_assert_cmpint (json_object_get_int_member (state, "runtime_callbacks"), ==, 0);
  g_assert_cmpint (json_object_get_int_member (state, "driver_callbacks"), ==, 0);
  g_assert_cmpint (json_object_get_int_member (state, "kinds"), ==, json_object_get_int_member (before, "kinds"));
  g_assert_cmpint (json_object_get_int_member (state, "runtime_api_records"), ==, 0);
  g_assert_cmpint (json_object_get_int_member (state, "driver_api_records"), ==, 0);
  g_assert_false (json_object_get_boolean_member (state, "callbacks_registered"));
  g_assert_cmpint (json_object_get_int_member (state, "buffers_held"), ==, 0);
}

static void
test_teardown (void)
{
  g_autoptr(Job) job = job_start (NULL, NULL);
  g_autoptr(JsonObject) before = job_fake_state (job);
  g_autoptr(JsonObject) after_first = NULL;
  g_autoptr(JsonObject) after_second = NULL;

  g_assert_cmpint (json_object_get_int_member (before, "kinds"), ==, 0);
  g_assert_false (json_object_get_boolean_member (before, "callbacks_registered"));
  for (guint round = 0; round < 2; round++)
    {
      g_autoptr(Capture) capture = capture_command (job, round == 0 ? "launch 100" : "launch 50", NULL);

      g_assert_true (capture->stream.ended);
      g_assert_cmpuint (capture->stream.kernels->len, ==, round == 0 ? 100 : 50);
      if (round == 0)
        after_first = job_fake_state (job);
      else
        after_second = job_fake_state (job);
    }
  assert_idle (after_first, before);
  assert_idle (after_second, before);
  g_assert_cmpint (json_object_get_int_member (after_first, "finalized"), >=, 1);
  g_assert_cmpint (json_object_get_int_member (after_second, "finalized"), >,
                   json_object_get_int_member (after_first, "finalized"));
  job_exit (job);
}

/* A collector that stops reading: the job still exits. */
static void
test_exit_collector_stalled (void)
{
  g_autoptr(Job) job = job_start (NULL, NULL);
  g_autoptr(GError) error = NULL;
  int fd = suanli_live_start (job->socket_path, &error);
  g_autoptr(JsonObject) launched = NULL;

  g_assert_no_error (error);
  launched = job_ask (job, "launch 200000");   /* far more than the socket takes unread */
  g_test_message ("the job exited %.2f s after it was told to, its collector reading nothing", job_exit (job));
  close (fd);
}

/* cuptiActivityFlushAll never returns (a device that does not answer): the job still exits. */
static void
test_exit_flush_hangs (void)
{
  g_autoptr(Job) job = job_start (NULL, NULL);
  g_autoptr(Capture) capture = start_capture (job);
  g_autoptr(JsonObject) launched = job_ask (job, "launch 100");
  g_autoptr(JsonObject) hanging = job_ask (job, "flush-hang");

  g_test_message ("the job exited %.2f s after it was told to, CUPTI's flush hanging", job_exit (job));
  suanli_test_await (capture_closed, capture);
}

/* ---- fault 7: the smaller faults ------------------------------------------------------------------------ */

/* CUPTI runs out of buffers (a stream's kernels cannot finish, so no buffer comes back): the drops
 * are reported while capturing, and counted once. */
static void
test_drops_reported (void)
{
  g_autoptr(Job) job = job_start (NULL, NULL);
  g_autoptr(Capture) capture = start_capture (job);
  g_autoptr(JsonObject) held = job_ask (job, "hold 9");
  g_autoptr(JsonObject) launched = job_ask (job, "launch-until-dropped 9");
  g_autoptr(JsonObject) released = NULL;
  g_autoptr(JsonObject) state = NULL;
  gint64 dropped, kernels_dropped;

  g_test_message ("%" G_GINT64_FORMAT " launches until the stand-in dropped records",
                  json_object_get_int_member (launched, "launched"));
  g_assert_cmpint (json_object_get_int_member (launched, "dropped"), >, 0);
  suanli_test_await (drops_reported, capture);   /* before STOP */
  released = job_ask (job, "release 9");
  state = job_fake_state (job);
  dropped = json_object_get_int_member (state, "records_dropped");
  kernels_dropped = json_object_get_int_member (state, "kernels_dropped");
  capture_finish (capture);
  g_test_message ("the stand-in dropped %" G_GINT64_FORMAT " records (%" G_GINT64_FORMAT " kernels); the capture's drop "
                  "records say %" G_GUINT64_FORMAT ", its end %" G_GUINT64_FORMAT,
                  dropped, kernels_dropped, capture->stream.dropped, capture->stream.end.dropped);
  g_assert_true (capture->stream.ended);
  g_assert_cmpuint (capture->stream.dropped, ==, (guint64) dropped);
  g_assert_cmpuint (capture->stream.end.dropped, ==, (guint64) dropped);
  g_assert_cmpuint (capture->stream.kernels->len, ==, json_object_get_int_member (launched, "launched") - kernels_dropped);
  job_exit (job);
}

static void
test_zero_timestamps (void)
{
  g_autoptr(Job) job = job_start (NULL, (const char *[]) { "FAKE_CUPTI_ZERO_TIMESTAMPS=4", NULL });
  g_autoptr(Capture) capture = capture_command (job, "launch 400", NULL);
  guint zeros = 0;

  for (guint i = 0; i < capture->stream.kernels->len; i++)
    {
      const SuanliCaptureKernel *kernel = &g_array_index (capture->stream.kernels, SuanliCaptureKernel, i);

      zeros += kernel->start == 0 || kernel->end == 0;
    }
  g_assert_cmpuint (zeros, ==, 0);
  g_assert_cmpuint (capture->stream.kernels->len, ==, 300);   /* every fourth had no times */
  job_exit (job);
}

static void
test_thread_ids (void)
{
  g_autoptr(Job) job = job_start ((const char *[]) { "--threads", "3", NULL }, NULL);
  g_autoptr(Capture) capture = capture_command (job, "launch 300", NULL);
  g_autoptr(JsonObject) state = job_ask (job, "state");
  JsonArray *threads = json_object_get_array_member (state, "threads");
  g_autoptr(GHashTable) seen = g_hash_table_new (NULL, NULL);

  g_assert_cmpuint (capture->stream.apis->len, >=, 300);
  for (guint i = 0; i < capture->stream.apis->len; i++)
    {
      guint32 thread = g_array_index (capture->stream.apis, SuanliCaptureApi, i).thread;
      gboolean known = FALSE;

      for (guint t = 0; t < json_array_get_length (threads); t++)
        known = known || json_array_get_int_element (threads, t) == thread;
      if (!known)
        g_error ("an API call on thread %u, which is none of the job's (its OS thread ids)", thread);
      g_hash_table_add (seen, GUINT_TO_POINTER (thread));
    }
  g_assert_cmpuint (g_hash_table_size (seen), ==, 3);   /* the three launching threads */
  job_exit (job);
}

static void
test_api_names (void)
{
  g_autoptr(Job) job = job_start (NULL, NULL);
  g_autoptr(Capture) capture = start_capture (job);
  g_autoptr(JsonObject) runtime = job_ask (job, "launch 10 cudaLaunchKernel");
  g_autoptr(JsonObject) driver = job_ask (job, "launch 10 cuLaunchKernel");
  g_autoptr(JsonObject) state = job_fake_state (job);
  guint runtime_named = 0, driver_named = 0;

  /* Only the callbacks that matter: not whole domains. */
  g_assert_cmpint (json_object_get_int_member (state, "runtime_callbacks"), <, RUNTIME_CBIDS / 2);
  g_assert_cmpint (json_object_get_int_member (state, "driver_callbacks"), <, DRIVER_CBIDS / 2);
  capture_finish (capture);
  for (guint i = 0; i < capture->stream.apis->len; i++)
    {
      const SuanliCaptureApi *api = &g_array_index (capture->stream.apis, SuanliCaptureApi, i);
      const char *name = stream_string (&capture->stream, api->name);

      g_assert_nonnull (name);
      if (api->domain == SUANLI_API_RUNTIME && (g_str_equal (name, "cudaLaunchKernel") ||
                                                g_str_equal (name, "cudaLaunchKernel_v7000")))
        runtime_named++;
      else if (api->domain == SUANLI_API_DRIVER && g_str_equal (name, "cuLaunchKernel"))
        driver_named++;
      else
        g_error ("an API call named \"%s\" (callback id %u)", name, api->callback_id);
    }
  g_assert_cmpuint (runtime_named, ==, 10);
  g_assert_cmpuint (driver_named, ==, 10);
  job_exit (job);
}

static void
test_stack_every_path (void)
{
  static const char * const launch_paths[] = {
    "cudaLaunchKernel", "cudaLaunchKernel_ptsz", "cudaLaunchKernelExC", "cudaLaunchKernelExC_ptsz",
    "cudaLaunchCooperativeKernel", "cudaLaunchCooperativeKernel_ptsz", "cuLaunchKernel", "cuLaunchKernel_ptsz",
    "cuLaunchKernelEx", "cuLaunchKernelEx_ptsz", "cuLaunchCooperativeKernel", "cuLaunchCooperativeKernel_ptsz",
  };
  static const char * const graph_paths[] = { "cudaGraphLaunch", "cuGraphLaunch" };
  g_autoptr(Job) job = job_start (NULL, NULL);
  g_autoptr(Capture) capture = start_capture (job);
  guint without[G_N_ELEMENTS (launch_paths) + G_N_ELEMENTS (graph_paths)] = { 0 };
  guint missing = 0;

  /* Each path on a stream of its own, 100 + its index. */
  for (guint p = 0; p < G_N_ELEMENTS (launch_paths) + G_N_ELEMENTS (graph_paths); p++)
    {
      g_autofree char *command = p < G_N_ELEMENTS (launch_paths)
                                   ? g_strdup_printf ("launch 5 %s %u", launch_paths[p], 100 + p)
                                   : g_strdup_printf ("graph 3 %s %u", graph_paths[p - G_N_ELEMENTS (launch_paths)], 100 + p);
      g_autoptr(JsonObject) done = job_ask (job, command);
    }
  capture_finish (capture);
  g_assert_cmpuint (capture->stream.kernels->len, ==, 5 * G_N_ELEMENTS (launch_paths) + 3 * G_N_ELEMENTS (graph_paths));
  for (guint i = 0; i < capture->stream.kernels->len; i++)
    {
      const SuanliCaptureKernel *kernel = &g_array_index (capture->stream.kernels, SuanliCaptureKernel, i);

      g_assert_cmpuint (kernel->stream - 100, <, G_N_ELEMENTS (without));
      if (!stream_has_stack (&capture->stream, kernel))
        without[kernel->stream - 100]++;
    }
  for (guint p = 0; p < G_N_ELEMENTS (without); p++)
    if (without[p] > 0)
      {
        g_test_message ("%s: %u kernels without their launch's stack",
                        p < G_N_ELEMENTS (launch_paths) ? launch_paths[p] : graph_paths[p - G_N_ELEMENTS (launch_paths)],
                        without[p]);
        missing += without[p];
      }
  g_assert_cmpuint (missing, ==, 0);
  job_exit (job);
}

static void
test_graph_nodes (void)
{
  g_autoptr(Job) job = job_start (NULL, NULL);
  g_autoptr(JsonObject) graph = NULL;
  g_autoptr(Capture) capture = capture_command (job, "graph 5", &graph);
  JsonArray *nodes = json_object_get_array_member (graph, "nodes");
  guint found = 0;

  for (guint i = 0; i < capture->stream.kernels->len; i++)
    {
      const SuanliCaptureKernel *kernel = &g_array_index (capture->stream.kernels, SuanliCaptureKernel, i);

      g_assert_cmpint (kernel->graph, ==, json_object_get_int_member (graph, "graph"));
      g_assert_cmpint (kernel->correlation, ==, json_object_get_int_member (graph, "correlation"));
      for (guint n = 0; n < json_array_get_length (nodes); n++)
        found += (gint64) kernel->graph_node == json_array_get_int_element (nodes, n);
    }
  g_assert_cmpuint (capture->stream.kernels->len, ==, 5);
  g_assert_cmpuint (found, ==, 5);
  job_exit (job);
}

static void
test_newer_cupti_refused (void)
{
  g_autoptr(Job) job = job_start (NULL, (const char *[]) { "FAKE_CUPTI_VERSION=140000", NULL });
  g_autofree char *refusal = start_refused (job);
  g_autoptr(JsonObject) state = job_fake_state (job);

  g_assert_nonnull (strstr (refusal, "CUPTI"));
  g_assert_true (strstr (refusal, "140000") != NULL || strstr (refusal, "14.0") != NULL);
  /* Refused before anything was switched on. */
  g_assert_false (json_object_get_boolean_member (state, "subscribed"));
  g_assert_cmpint (json_object_get_int_member (state, "kinds"), ==, 0);
  g_assert_false (json_object_get_boolean_member (state, "callbacks_registered"));
  job_exit (job);
}

int
main (int    argc,
      char **argv)
{
  int status;

  g_test_init (&argc, &argv, NULL);
  runtime_dir = g_dir_make_tmp ("suanli-standin-XXXXXX", NULL);
  g_setenv ("XDG_RUNTIME_DIR", runtime_dir, TRUE);
  g_test_add_func ("/live-standin/launch-mode", test_launch_mode);
  g_test_add_func ("/live-standin/attach-mode", test_attach_mode);
  g_test_add_func ("/live-standin/no-drops-deep-stacks", test_no_drops_deep_stacks);
  g_test_add_func ("/live-standin/cupti-path-first", test_cupti_path_first);
  g_test_add_func ("/live-standin/loaded-copy-used", test_loaded_copy_used);
  g_test_add_func ("/live-standin/no-cupti-to-find", test_no_cupti_to_find);
  g_test_add_func ("/live-standin/kineto-first", test_kineto_first);
  g_test_add_func ("/live-standin/kineto-first-named", test_kineto_first_named);
  g_test_add_func ("/live-standin/kineto-during-capture", test_kineto_during_capture);
  g_test_add_func ("/live-standin/teardown", test_teardown);
  g_test_add_func ("/live-standin/exit-collector-stalled", test_exit_collector_stalled);
  g_test_add_func ("/live-standin/exit-flush-hangs", test_exit_flush_hangs);
  g_test_add_func ("/live-standin/drops-reported", test_drops_reported);
  g_test_add_func ("/live-standin/zero-timestamps", test_zero_timestamps);
  g_test_add_func ("/live-standin/thread-ids", test_thread_ids);
  g_test_add_func ("/live-standin/api-names", test_api_names);
  g_test_add_func ("/live-standin/stack-every-path", test_stack_every_path);
  g_test_add_func ("/live-standin/graph-nodes", test_graph_nodes);
  g_test_add_func ("/live-standin/newer-cupti-refused", test_newer_cupti_refused);
  status = g_test_run ();
  {
    g_autofree char *folder = g_build_filename (runtime_dir, "suanli", NULL);

    g_rmdir (folder);
    g_rmdir (runtime_dir);
  }
  return status;
}
