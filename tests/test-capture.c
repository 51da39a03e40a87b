/* test-capture.c — the capture stream: every record kind there and back, streams cut at every byte,
 * and damage named by its offset
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>

#include "capture/suanli-capture.h"
#include "suanli-capture-decoder.h"
#include "suanli-import.h"
#include "suanli-test-capture.h"
#include "suanli-test-import.h"
#include "suanli-trace-format.h"

#define PID        4242
#define OFFSET_NS  1000000000000   /* CLOCK_REALTIME − CUPTI's clock in the test stream */

/* A stream built record by record, remembering where each whole record ends. */
typedef struct
{
  GByteArray *bytes;
  GArray     *ends;      /* of gsize: the stream's length after each record */
  guint       slices;    /* how many slices its records make */
} Stream;

static void
stream_append (Stream     *stream,
               const void *record,
               gsize       size,
               guint       slices)
{
  gsize end;

  g_byte_array_append (stream->bytes, record, (guint) size);
  end = stream->bytes->len;
  g_array_append_val (stream->ends, end);
  stream->slices += slices;
}

static void
add_string (Stream     *stream,
            guint32     id,
            const char *text)
{
  guint8 buffer[256];
  gsize size = suanli_capture_write_string (buffer, sizeof buffer, id, text, (guint32) strlen (text));

  g_assert_cmpuint (size, >, 0);
  g_assert_cmpuint (size % 8, ==, 0);
  stream_append (stream, buffer, size, 0);
}

/* One record of every kind, two devices, a kernel written by a newer writer (longer) and one by an
 * older (shorter), and a kind no reader knows. */
static Stream *
make_stream (void)
{
  Stream *stream = g_new0 (Stream, 1);
  SuanliCaptureHeader header;
  SuanliCaptureDevice devices[2] = { { 0 } };

  stream->bytes = g_byte_array_new ();
  stream->ends = g_array_new (FALSE, FALSE, sizeof (gsize));
  suanli_capture_init_header (&header, 2);
  header.pid = PID;
  header.rank = 3;
  header.local_rank = 3;
  header.world_size = 8;
  header.cupti_version = 130001;
  header.clock_offset_ns = OFFSET_NS;
  g_strlcpy (header.host, "gpu-node-7", sizeof header.host);
  g_byte_array_append (stream->bytes, (const guint8 *) &header, sizeof header);
  for (guint i = 0; i < 2; i++)
    {
      devices[i].id = i;
      devices[i].sm_count = 132;
      devices[i].memory_bytes = G_GUINT64_CONSTANT (150754820096);
      g_strlcpy (devices[i].name, "NVIDIA H200", sizeof devices[i].name);
      g_byte_array_append (stream->bytes, (const guint8 *) &devices[i], sizeof devices[i]);
    }
  {
    gsize end = stream->bytes->len;   /* the header and devices: no records yet */

    g_array_append_val (stream->ends, end);
  }

  add_string (stream, 1, "sm90_gemm_bf16");
  add_string (stream, 2, "cudaLaunchKernel");
  add_string (stream, 3, "forward");
  add_string (stream, 4, "loss scale");
  {
    SuanliCaptureApi api = { { 0 } };

    suanli_capture_init_record (&api.record, SUANLI_CAPTURE_API, sizeof api);
    api.start = 1000, api.end = 1500, api.correlation = 77, api.callback_id = 211, api.thread = PID + 1;
    api.domain = SUANLI_API_RUNTIME, api.name = 2;
    stream_append (stream, &api, sizeof api, 1);
  }
  {
    SuanliCaptureKernel kernel = { { 0 } };

    suanli_capture_init_record (&kernel.record, SUANLI_CAPTURE_KERNEL, sizeof kernel);
    kernel.start = 2000, kernel.end = 102000, kernel.correlation = 77, kernel.device = 1, kernel.context = 1;
    kernel.stream = 7;
    kernel.name = 1, kernel.grid[0] = 132, kernel.grid[1] = kernel.grid[2] = 1, kernel.block[0] = 384;
    kernel.block[1] = kernel.block[2] = 1, kernel.registers_per_thread = 168, kernel.shared_memory = 232448;
    stream_append (stream, &kernel, sizeof kernel, 1);
  }
  {
    /* From a newer writer: 16 bytes more at the end, which this reader does not know. */
    guint8 newer[sizeof (SuanliCaptureKernel) + 16];
    SuanliCaptureKernel kernel = { { 0 } };

    suanli_capture_init_record (&kernel.record, SUANLI_CAPTURE_KERNEL, sizeof newer);
    kernel.start = 200000, kernel.end = 250000, kernel.device = 1, kernel.stream = 7, kernel.name = 1;
    memset (newer, 0xab, sizeof newer);
    memcpy (newer, &kernel, sizeof kernel);
    stream_append (stream, newer, sizeof newer, 1);
  }
  {
    /* From an older writer, without the last two fields: they read as zero. */
    SuanliCaptureKernel kernel = { { 0 } };
    gsize older = offsetof (SuanliCaptureKernel, stack);

    suanli_capture_init_record (&kernel.record, SUANLI_CAPTURE_KERNEL, (guint32) older);
    kernel.start = 300000, kernel.end = 310000, kernel.device = 0, kernel.stream = 13, kernel.name = 1;
    stream_append (stream, &kernel, older, 1);
  }
  {
    SuanliCaptureMemcpy copy = { { 0 } };

    suanli_capture_init_record (&copy.record, SUANLI_CAPTURE_MEMCPY, sizeof copy);
    copy.start = 400000, copy.end = 420000, copy.bytes = 1 << 26, copy.device = 1, copy.stream = 7;
    copy.copy_kind = SUANLI_COPY_HTOD;
    stream_append (stream, &copy, sizeof copy, 1);
  }
  {
    SuanliCaptureMemset set = { { 0 } };

    suanli_capture_init_record (&set.record, SUANLI_CAPTURE_MEMSET, sizeof set);
    set.start = 430000, set.end = 431000, set.bytes = 4096, set.device = 1, set.stream = 7;
    stream_append (stream, &set, sizeof set, 1);
  }
  {
    SuanliCaptureSync sync = { { 0 } };

    suanli_capture_init_record (&sync.record, SUANLI_CAPTURE_SYNC, sizeof sync);
    sync.start = 440000, sync.end = 450000, sync.type = 3, sync.context = 1, sync.stream = 7;
    stream_append (stream, &sync, sizeof sync, 1);
  }
  {
    SuanliCaptureNvtx range = { { 0 } };
    SuanliCaptureNvtx mark = { { 0 } };

    suanli_capture_init_record (&range.record, SUANLI_CAPTURE_NVTX_RANGE, sizeof range);
    range.start = 500, range.end = 600000, range.thread = PID + 1, range.name = 3;
    stream_append (stream, &range, sizeof range, 1);
    suanli_capture_init_record (&mark.record, SUANLI_CAPTURE_NVTX_MARK, sizeof mark);
    mark.start = mark.end = 550000, mark.thread = PID + 1, mark.name = 4;
    stream_append (stream, &mark, sizeof mark, 0);
  }
  {
    SuanliCaptureCounter counter = { { 0 } };

    suanli_capture_init_record (&counter.record, SUANLI_CAPTURE_COUNTER, sizeof counter);
    counter.time = 460000, counter.value = 61.5, counter.name = 4, counter.device = 1;
    stream_append (stream, &counter, sizeof counter, 0);
  }
  {
    SuanliCaptureOverhead overhead = { { 0 } };

    suanli_capture_init_record (&overhead.record, SUANLI_CAPTURE_OVERHEAD, sizeof overhead);
    overhead.start = 700000, overhead.end = 701000, overhead.thread = PID + 2;
    stream_append (stream, &overhead, sizeof overhead, 1);
  }
  {
    /* A kind from a newer writer: skipped by its size. */
    guint8 unknown[40] = { 0 };
    SuanliCaptureRecord head;

    suanli_capture_init_record (&head, 999, sizeof unknown);
    memcpy (unknown, &head, sizeof head);
    stream_append (stream, unknown, sizeof unknown, 0);
  }
  {
    SuanliCaptureDropped dropped = { { 0 } };
    SuanliCaptureEnd end = { { 0 } };

    suanli_capture_init_record (&dropped.record, SUANLI_CAPTURE_DROPPED, sizeof dropped);
    dropped.count = 12, dropped.reason = SUANLI_DROPPED_SLOW_READER;
    stream_append (stream, &dropped, sizeof dropped, 0);
    suanli_capture_init_record (&end.record, SUANLI_CAPTURE_END, sizeof end);
    end.records = 16, end.dropped = 12;
    stream_append (stream, &end, sizeof end, 0);
  }
  return stream;
}

static void
stream_free (Stream *stream)
{
  g_byte_array_unref (stream->bytes);
  g_array_unref (stream->ends);
  g_free (stream);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (Stream, stream_free)

static SuanliTrack *
find_track (SuanliTrace    *trace,
            SuanliTrackKind kind,
            gint64          pid,
            gint64          tid)
{
  for (guint t = 0; t < suanli_trace_get_n_tracks (trace); t++)
    {
      SuanliTrack *track = suanli_trace_get_track (trace, t);

      if (track->kind == kind && track->pid == pid && track->tid == tid)
        return track;
    }
  return NULL;
}

static const char *
name_at (SuanliTrace *trace,
         SuanliTrack *track,
         guint        index)
{
  g_assert_cmpuint (index, <, track->slices->len);
  return suanli_trace_get_string (trace, g_array_index (track->slices, SuanliSlice, index).name);
}

/* Feeds @length bytes of @stream in pieces of @piece, then finishes. */
static SuanliTrace *
decode (const guint8 *data,
        gsize         length,
        gsize         piece,
        GError      **error)
{
  g_autoptr(SuanliTrace) trace = suanli_trace_new ();
  g_autoptr(SuanliCaptureDecoder) decoder = suanli_capture_decoder_new (trace, "test.suanli-capture");

  for (gsize at = 0; at < length; at += piece)
    if (!suanli_capture_decoder_feed (decoder, data + at, MIN (piece, length - at), error))
      return NULL;
  if (!suanli_capture_decoder_finish (decoder, error))
    return NULL;
  return g_steal_pointer (&trace);
}

static void
check_round_trip (SuanliTrace *trace)
{
  SuanliTrack *stream7 = find_track (trace, SUANLI_TRACK_GPU_STREAM, 1, 7);
  SuanliTrack *stream13 = find_track (trace, SUANLI_TRACK_GPU_STREAM, 0, 13);
  SuanliTrack *thread = find_track (trace, SUANLI_TRACK_THREAD, PID, PID + 1);
  SuanliTrack *overhead = find_track (trace, SUANLI_TRACK_THREAD, PID, PID + 2);
  const SuanliSlice *kernel;
  gint64 value;

  g_assert_nonnull (stream7);
  g_assert_nonnull (stream13);
  g_assert_nonnull (thread);
  g_assert_nonnull (overhead);
  /* The header's devices and world size: what the capture ran on. */
  {
    guint64 memory = 0;
    guint count = 0;

    g_assert_cmpstr (suanli_trace_get_accelerator (trace, &memory, &count), ==, "NVIDIA H200");
    g_assert_cmpuint (memory, ==, G_GUINT64_CONSTANT (150754820096));
    g_assert_cmpuint (count, ==, 8);
  }
  /* Stream 7 of GPU 1, by start: the kernel, the newer writer's kernel, the copy, the memset, the sync. */
  g_assert_cmpuint (stream7->slices->len, ==, 5);
  g_assert_cmpstr (name_at (trace, stream7, 0), ==, "sm90_gemm_bf16");
  kernel = &g_array_index (stream7->slices, SuanliSlice, 0);
  g_assert_cmpint (kernel->start, ==, OFFSET_NS + 2000);
  g_assert_cmpint (kernel->duration, ==, 100000);
  g_assert_cmpstr (suanli_trace_get_string (trace, kernel->category), ==, "kernel");
  g_assert_true (suanli_trace_find_arg_int (trace, kernel, "registers per thread", &value));
  g_assert_cmpint (value, ==, 168);
  g_assert_true (suanli_trace_find_arg_int (trace, kernel, "shared memory", &value));
  g_assert_cmpint (value, ==, 232448);
  g_assert_cmpstr (name_at (trace, stream7, 1), ==, "sm90_gemm_bf16");
  g_assert_cmpint (g_array_index (stream7->slices, SuanliSlice, 1).duration, ==, 50000);
  g_assert_cmpstr (name_at (trace, stream7, 2), ==, "Memcpy HtoD");
  g_assert_true (suanli_trace_find_arg_int (trace, &g_array_index (stream7->slices, SuanliSlice, 2), "bytes", &value));
  g_assert_cmpint (value, ==, 1 << 26);
  g_assert_cmpstr (name_at (trace, stream7, 3), ==, "Memset (Device)");
  g_assert_cmpstr (name_at (trace, stream7, 4), ==, "Stream Sync");
  /* The older writer's kernel, on GPU 0's stream 13. */
  g_assert_cmpuint (stream13->slices->len, ==, 1);
  g_assert_cmpint (g_array_index (stream13->slices, SuanliSlice, 0).duration, ==, 10000);

  /* The thread: the NVTX range around the launch, and the mark. */
  g_assert_cmpuint (thread->slices->len, ==, 2);
  g_assert_cmpstr (name_at (trace, thread, 0), ==, "forward");
  g_assert_cmpstr (name_at (trace, thread, 1), ==, "cudaLaunchKernel");
  g_assert_cmpuint (g_array_index (thread->slices, SuanliSlice, 1).depth, ==, 1);
  g_assert_cmpuint (thread->instants->len, ==, 1);
  g_assert_cmpstr (name_at (trace, overhead, 0), ==, "CUPTI overhead");

  /* The launch reaches its kernel by correlation. */
  g_assert_cmpuint (suanli_trace_get_flows (trace)->len, ==, 1);
  {
    SuanliFlow *flow = &g_array_index (suanli_trace_get_flows (trace), SuanliFlow, 0);

    g_assert_true (suanli_trace_get_track (trace, flow->from_track) == thread);
    g_assert_true (suanli_trace_get_track (trace, flow->to_track) == stream7);
    g_assert_cmpuint (flow->to_slice, ==, 0);
  }

  /* The counter, the rank and the devices' names; the drops as a warning. */
  {
    SuanliTrack *counter = NULL;

    for (guint t = 0; t < suanli_trace_get_n_tracks (trace); t++)
      if (suanli_trace_get_track (trace, t)->kind == SUANLI_TRACK_COUNTER)
        counter = suanli_trace_get_track (trace, t);
    g_assert_nonnull (counter);
    g_assert_cmpuint (counter->samples->len, ==, 1);
    g_assert_cmpfloat (g_array_index (counter->samples, SuanliSample, 0).value, ==, 61.5);
  }
  g_assert_cmpint (suanli_trace_get_group (trace, 0)->rank, ==, 3);
  g_assert_cmpint (suanli_trace_get_group (trace, 0)->world_size, ==, 8);
  g_assert_cmpstr (suanli_trace_get_string (trace, suanli_trace_ensure_process (trace, 1)->name), ==, "NVIDIA H200");
  g_assert_true (suanli_test_has_warning (trace, "12 records were dropped"));
}

static void
test_round_trip (void)
{
  g_autoptr(Stream) stream = make_stream ();
  g_autoptr(GError) error = NULL;
  g_autoptr(SuanliTrace) whole = decode (stream->bytes->data, stream->bytes->len, stream->bytes->len, &error);
  g_autoptr(SuanliTrace) bytewise = NULL;

  g_assert_no_error (error);
  g_assert_nonnull (whole);
  check_round_trip (whole);
  g_assert_false (suanli_test_has_warning (whole, "cut off"));

  /* A byte at a time, as a slow socket would bring it: the same trace. */
  bytewise = decode (stream->bytes->data, stream->bytes->len, 1, &error);
  g_assert_no_error (error);
  check_round_trip (bytewise);
}

/* The stream cut after every byte: up to the header it is not yet a capture; after, every whole
 * record before the cut is there, and the cut is reported unless it falls between records. */
/* A stream that has brought nothing yet may hand over no buffer at all (a GByteArray still empty):
 * that is "more to come", never a pointer read (UndefinedBehaviorSanitizer caught memcmp (NULL)). */
static void
test_header_from_nothing (void)
{
  SuanliCaptureHeader header;
  size_t consumed = 0;

  g_assert_cmpint (suanli_capture_read_header (NULL, 0, &header, &consumed), ==, SUANLI_CAPTURE_NEED_MORE);
  g_assert_cmpuint (consumed, ==, 0);
}

static void
test_every_truncation (void)
{
  g_autoptr(Stream) stream = make_stream ();
  gsize header_end = g_array_index (stream->ends, gsize, 0);

  for (gsize length = 0; length <= stream->bytes->len; length++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(SuanliTrace) trace = decode (stream->bytes->data, length, 4096, &error);
      guint whole = 0;
      gboolean between = FALSE;

      if (length < header_end - 2 * sizeof (SuanliCaptureDevice))
        {
          /* Inside the header: an error that names the byte. */
          g_assert_null (trace);
          g_assert_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA);
          g_assert_nonnull (strstr (error->message, "at byte 0"));
          continue;
        }
      g_assert_no_error (error);
      g_assert_nonnull (trace);
      for (guint r = 0; r < stream->ends->len; r++)
        {
          gsize end = g_array_index (stream->ends, gsize, r);

          between = between || end == length;
          whole += end <= length;
        }
      if (whole == 0)
        g_assert_cmpuint (suanli_trace_get_n_slices (trace), ==, 0);   /* the devices are cut */
      else
        {
          /* The same slices as the stream cut right after its last whole record. */
          g_autoptr(SuanliTrace) expected = decode (stream->bytes->data, g_array_index (stream->ends, gsize, whole - 1),
                                                    4096, NULL);

          g_assert_cmpuint (suanli_trace_get_n_slices (trace), ==, suanli_trace_get_n_slices (expected));
        }
      if (length >= header_end && !between)
        g_assert_true (suanli_test_has_warning (trace, "ends inside a record"));
    }
}

static void
test_damage (void)
{
  g_autoptr(Stream) stream = make_stream ();
  g_autoptr(GError) error = NULL;
  g_autoptr(SuanliTrace) trace = NULL;
  gsize at = g_array_index (stream->ends, gsize, 3);   /* after the header and three strings */
  SuanliCaptureRecord broken;

  /* Not a capture at all. */
  trace = decode ((const guint8 *) "SUANLIXX and then some more bytes than a header", 48, 48, &error);
  g_assert_null (trace);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA);
  g_assert_nonnull (strstr (error->message, "no SUANLICP magic"));
  g_clear_error (&error);

  /* A record whose size cannot be: the error says at which byte; the records before it were read. */
  suanli_capture_init_record (&broken, SUANLI_CAPTURE_KERNEL, 3);
  memcpy (stream->bytes->data + at, &broken, sizeof broken);
  {
    g_autoptr(SuanliTrace) partial = suanli_trace_new ();
    g_autoptr(SuanliCaptureDecoder) decoder = suanli_capture_decoder_new (partial, "broken.suanli-capture");
    g_autofree char *where = g_strdup_printf ("at byte %" G_GSIZE_FORMAT ":", at);

    g_assert_false (suanli_capture_decoder_feed (decoder, stream->bytes->data, stream->bytes->len, &error));
    g_assert_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA);
    g_test_message ("%s", error->message);
    g_assert_nonnull (strstr (error->message, where));
    g_assert_cmpuint (suanli_capture_decoder_get_records (decoder), ==, 3);
  }
}

/* A *.suanli-capture file is told apart by its first bytes and read by suanli_import_file. */
static void
test_import_file (void)
{
  g_autoptr(Stream) stream = make_stream ();
  g_autoptr(GFileIOStream) io = NULL;
  g_autoptr(GFile) file = g_file_new_tmp ("test-XXXXXX.suanli-capture", &io, NULL);
  g_autoptr(SuanliTrace) trace = suanli_trace_new ();
  g_autoptr(GError) error = NULL;
  SuanliImportStats stats = { 0 };

  g_assert_nonnull (file);
  g_assert_true (g_output_stream_write_all (g_io_stream_get_output_stream (G_IO_STREAM (io)), stream->bytes->data,
                                            stream->bytes->len, NULL, NULL, &error));
  g_assert_true (g_io_stream_close (G_IO_STREAM (io), NULL, &error));
  g_assert_cmpint (suanli_trace_format_sniff (stream->bytes->data, stream->bytes->len), ==, SUANLI_TRACE_FORMAT_CAPTURE);
  g_assert_true (suanli_import_file (trace, file, &stats, NULL, &error));
  g_assert_no_error (error);
  check_round_trip (trace);
  g_assert_cmpuint (stats.events, ==, 17);   /* the unknown kind is not counted */
  g_assert_cmpuint (GPOINTER_TO_SIZE (g_hash_table_lookup (stats.by_category, "kernel")), ==, 3);
  suanli_import_stats_clear (&stats);
  g_file_delete (file, NULL, NULL);
}

/* The job's drop records count its drops as they happen; its end record gives the total, with
 * those it could not report (its queue was full then too). A relay's own drops (suanli-agent's)
 * are in no end record. Each is counted once, and said once, by reason. */
static void
test_drops_counted_once (void)
{
  const struct { guint64 slow, cupti, relay; gboolean ends; guint64 end, total; const char *said[3]; } cases[] = {
    /* Every drop reported while capturing, and the end's total of them. */
    { 5, 3, 0, TRUE, 8, 8, { "5 records were dropped because the collector did not keep up",
                             "3 records were dropped by CUPTI (its buffers were full)" } },
    /* 7 drops the job's queue could not report: the end has them. */
    { 5, 0, 0, TRUE, 12, 12, { "12 records were dropped because the collector did not keep up" } },
    /* And 4 more on the way, by the agent. */
    { 5, 0, 4, TRUE, 12, 16, { "12 records were dropped because the collector did not keep up",
                               "4 records were dropped by suanli-agent because the workbench did not keep up" } },
    /* Cut off before the end: what the drop records said. */
    { 5, 1, 0, FALSE, 0, 6, { "5 records were dropped because the collector did not keep up",
                              "1 record was dropped by CUPTI (its buffers were full)" } },
    /* None. */
    { 0, 0, 0, TRUE, 0, 0, { NULL } },
  };

  for (guint c = 0; c < G_N_ELEMENTS (cases); c++)
    {
      g_auto(SuanliTestCapture) capture = { 0 };
      g_autoptr(SuanliTrace) trace = suanli_trace_new ();
      g_autoptr(SuanliCaptureDecoder) decoder = suanli_capture_decoder_new (trace, "drops.suanli-capture");
      g_autoptr(GError) error = NULL;
      guint n_said = 0;

      suanli_test_capture_init (&capture, SUANLI_CAPTURE_FROM_LAUNCH);
      /* In pieces, as a job sends them while capturing. */
      suanli_test_capture_dropped (&capture, 2, SUANLI_DROPPED_SLOW_READER);
      if (cases[c].relay > 0)
        suanli_test_capture_dropped (&capture, cases[c].relay, SUANLI_DROPPED_BY_RELAY);
      if (cases[c].slow > 2)
        suanli_test_capture_dropped (&capture, cases[c].slow - 2, SUANLI_DROPPED_SLOW_READER);
      if (cases[c].cupti > 0)
        suanli_test_capture_dropped (&capture, cases[c].cupti, SUANLI_DROPPED_BY_CUPTI);
      if (cases[c].slow == 0)
        g_byte_array_set_size (capture.bytes, sizeof (SuanliCaptureHeader));   /* no drop record at all */
      if (cases[c].ends)
        suanli_test_capture_end (&capture, SUANLI_END_STOPPED, 0, cases[c].end);
      g_assert_true (suanli_capture_decoder_feed (decoder, capture.bytes->data, capture.bytes->len, &error));
      g_assert_true (suanli_capture_decoder_finish (decoder, &error));
      g_assert_no_error (error);
      g_assert_cmpuint (suanli_capture_decoder_get_dropped (decoder), ==, cases[c].total);
      for (guint i = 0; i < G_N_ELEMENTS (cases[c].said) && cases[c].said[i] != NULL; i++, n_said++)
        g_assert_true (suanli_test_has_warning (trace, cases[c].said[i]));
      g_assert_cmpuint (suanli_trace_get_warnings (trace)->len, ==, n_said + !cases[c].ends);
    }
}

/* A kernel launched from a CUDA graph keeps its node (CUPTI's graphNodeId) as an argument. A header
 * from before the from-launch flag (120 bytes) reads as a capture from START, a kernel whose writer
 * sent its launch stack as text keeps that text, and one longer than any can be is left out. */
static void
test_graph_node_and_old_header (void)
{
  g_auto(SuanliTestCapture) capture = { 0 };
  g_autoptr(SuanliTrace) trace = NULL;
  SuanliCaptureKernel kernel = { { 0 } };
  SuanliTrack *stream = NULL;
  guint16 old_size = SUANLI_CAPTURE_HEADER_V1_SIZE;
  gint64 value;

  suanli_test_capture_init (&capture, SUANLI_CAPTURE_FROM_LAUNCH);
  /* Written as the first release wrote it: without flags, a header of 120 bytes. */
  memcpy (capture.bytes->data + offsetof (SuanliCaptureHeader, header_size), &old_size, sizeof old_size);
  g_byte_array_remove_range (capture.bytes, SUANLI_CAPTURE_HEADER_V1_SIZE,
                             sizeof (SuanliCaptureHeader) - SUANLI_CAPTURE_HEADER_V1_SIZE);
  suanli_capture_init_record (&kernel.record, SUANLI_CAPTURE_KERNEL, sizeof kernel);
  kernel.start = 1000, kernel.end = 2000, kernel.stream = 7, kernel.graph = 3;
  kernel.graph_node = G_GUINT64_CONSTANT (0x1234567890);
  kernel.name = suanli_test_capture_string (&capture, "_Z18suanli_long_kernelxPi");
  g_byte_array_append (capture.bytes, (const guint8 *) &kernel, sizeof kernel);
  kernel.start = 3000, kernel.end = 4000, kernel.graph = 0, kernel.graph_node = 0;
  kernel.stack = suanli_test_capture_string (&capture, "main (train)\n_ZN5torch6launchEv (libtorch_cuda.so)");
  g_byte_array_append (capture.bytes, (const guint8 *) &kernel, sizeof kernel);
  /* No kernel runs for 200 days: damage, left out (a few such would overflow the sums of time). */
  kernel.end = kernel.start + G_GUINT64_CONSTANT (200) * 24 * 3600 * 1000000000;
  g_byte_array_append (capture.bytes, (const guint8 *) &kernel, sizeof kernel);
  /* Nor one past the times a trace holds (2^61 ns, in 2043), which its Chrome JSON would not read back. */
  kernel.start = (G_GUINT64_CONSTANT (1) << 61) + 1000, kernel.end = kernel.start + 1000;
  g_byte_array_append (capture.bytes, (const guint8 *) &kernel, sizeof kernel);
  suanli_test_capture_end (&capture, SUANLI_END_STOPPED, 0, 0);
  trace = suanli_test_capture_decode (&capture);
  stream = find_track (trace, SUANLI_TRACK_GPU_STREAM, 0, 7);
  g_assert_nonnull (stream);
  g_assert_cmpuint (stream->slices->len, ==, 2);
  g_assert_cmpstr (name_at (trace, stream, 0), ==, "suanli_long_kernel(long long, int*)");
  g_assert_cmpstr (suanli_test_find_string_arg (trace, &g_array_index (stream->slices, SuanliSlice, 0), "mangled name"),
                   ==, "_Z18suanli_long_kernelxPi");
  g_assert_true (suanli_trace_find_arg_int (trace, &g_array_index (stream->slices, SuanliSlice, 0), "graph id", &value));
  g_assert_cmpint (value, ==, 3);
  g_assert_true (suanli_trace_find_arg_int (trace, &g_array_index (stream->slices, SuanliSlice, 0), "graph node", &value));
  g_assert_cmpint (value, ==, G_GINT64_CONSTANT (0x1234567890));
  g_assert_false (suanli_trace_find_arg_int (trace, &g_array_index (stream->slices, SuanliSlice, 1), "graph node", &value));
  g_assert_cmpstr (suanli_test_find_string_arg (trace, &g_array_index (stream->slices, SuanliSlice, 1), "Call stack"), ==,
                   "main (train)\n_ZN5torch6launchEv (libtorch_cuda.so)");
  g_assert_cmpint (suanli_trace_get_group (trace, 0)->capture, ==, SUANLI_GROUP_CAPTURED_FROM_START);
  g_assert_true (suanli_test_has_warning (trace, "Captured from START (attached to a running job: earlier work is not in it)"));
  g_assert_true (suanli_test_has_warning (trace, "2 records with times no clock gives were left out"));
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/capture/drops-counted-once", test_drops_counted_once);
  g_test_add_func ("/capture/graph-node-and-old-header", test_graph_node_and_old_header);
  g_test_add_func ("/capture/round-trip", test_round_trip);
  g_test_add_func ("/capture/every-truncation", test_every_truncation);
  g_test_add_func ("/capture/header-from-nothing", test_header_from_nothing);
  g_test_add_func ("/capture/damage", test_damage);
  g_test_add_func ("/capture/import-file", test_import_file);
  return g_test_run ();
}
