/* bench-trace.c — importing a large Kineto trace: speed against the bare JSON parse, and memory
 *
 * Generates a Kineto-form trace whose event mix copies the timeline_analysis fixture (CPU
 * operators with arguments, runtime launches with correlation ids, GPU kernels on several streams,
 * memcpy and memset, ac2g flow pairs), 100 MB by default (SUANLI_BENCH_TRACE_MB sets it), then
 * prints, measured in the same run (each round times every body once, in turn; figures are medians):
 *   - yajl's bare parse of the same bytes, with callbacks that do nothing (the ceiling the import
 *     was held to) and with no callbacks at all;
 *   - simdjson's bare walk of the same bytes, in windows as the import walks them (its reference now);
 *   - Suanli's import: MB/s, events/s, its share of the bare parse, and the growth of peak RSS;
 *   - the same on the real Kineto fixtures (SUANLI_FIXTURES_DIR), inflated into memory, the parse and
 *     the import taking turns pass by pass, their share also from CPU time;
 *   - opening the trace in the workbench (bench-trace-open, SUANLI_BENCH_TRACE_OPEN: the real window)
 *     against `suanli-cli trace summary` (SUANLI_CLI) of the same file: time and peak memory, with
 *     the size of the timeline's indexes that the workbench makes besides;
 *   - the same trace gzipped: Suanli's import of the .gz against the plain file (target: at least
 *     80% of its speed), and inflating alone with zlib (GIO's) and with the importer's ISA-L stream;
 *   - json-glib's parser and Python's json.load as peers (files up to 200 MB);
 *   - the summary (GPU time with the idle split, top kernels, CPU operators, launch delays, steps and
 *     collectives) and both flame graphs of the loaded trace.
 * SUANLI_BENCH_TRACE_KEEP=1 keeps the generated file and prints its path.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define _GNU_SOURCE   /* memrchr */
#include "config.h"

#include <malloc.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <glib/gstdio.h>
#include <json-glib/json-glib.h>
#include <yajl/yajl_parse.h>

#include "suanli-analysis.h"
#include "suanli-bench.h"
#include "suanli-flame.h"
#include "suanli-import.h"
#include "suanli-inflate-stream.h"
#include "suanli-json-walker.h"
#include "suanli-track-index.h"

#define CHUNK (64 * 1024)
/* The windows of simdjson's bare walk, as large as the import's. */
#define WALK_WINDOW (128 * 1024)

/* One training step's worth of events, written with fprintf; returns bytes written. */
static gsize
write_step (FILE   *out,
            guint   step,
            gint64 *clock_us,
            guint  *correlation)
{
  static const char *operators[] = { "aten::linear", "aten::matmul", "aten::add", "aten::layer_norm",
                                     "aten::softmax", "aten::gelu", "aten::embedding_bag", "aten::cat" };
  static const char *kernels[] = {
    "void cutlass::Kernel<cutlass_80_tensorop_s1688gemm_128x64_32x6_nt_align1>(cutlass_80_tensorop_s1688gemm_128x64_32x6_nt_align1::Params)",
    "void at::native::vectorized_elementwise_kernel<4, at::native::CUDAFunctor_add<float>, at::detail::Array<char*, 3> >(int, at::native::CUDAFunctor_add<float>, at::detail::Array<char*, 3>)",
    "void at::native::(anonymous namespace)::CatArrayBatchedCopy<float, unsigned int, 1, 128, 1>(float*, at::native::(anonymous namespace)::CatArrInputTensorMetadata<float, unsigned int, 128, 1>, at::native::(anonymous namespace)::TensorSizeStride<unsigned int, 4u>, int, unsigned int)",
    "ncclKernel_AllReduce_RING_LL_Sum_float(ncclDevComm*, unsigned long, ncclWork*)",
  };
  gsize written = 0;
  gint64 t = *clock_us;

  written += fprintf (out, ",\n{\"ph\": \"X\", \"cat\": \"user_annotation\", \"name\": \"ProfilerStep#%u\", \"pid\": 2200, "
                      "\"tid\": 2200, \"ts\": %" G_GINT64_FORMAT ".000, \"dur\": 4000.500, \"args\": {\"External id\": %u}}",
                      step, t, step);
  for (guint i = 0; i < 60; i++)
    {
      const char *op = operators[i % G_N_ELEMENTS (operators)];
      const char *kernel = kernels[i % G_N_ELEMENTS (kernels)];
      guint id = (*correlation)++;
      gint64 start = t + 10 + i * 60;

      written += fprintf (out,
        ",\n{\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"%s\", \"pid\": 2200, \"tid\": 2200, \"ts\": %" G_GINT64_FORMAT ".250, "
        "\"dur\": 40.750, \"args\": {\"External id\": %u, \"Record function id\": 0, \"Ev Idx\": %u, "
        "\"Input Dims\": [[512, 1024], [1024, 1024]], \"Input type\": [\"float\", \"float\"], \"Sequence number\": %u, "
        "\"Fwd thread id\": 0}}"
        ",\n{\"ph\": \"X\", \"cat\": \"cuda_runtime\", \"name\": \"cudaLaunchKernel\", \"pid\": 2200, \"tid\": 2200, "
        "\"ts\": %" G_GINT64_FORMAT ".500, \"dur\": 6.125, \"args\": {\"cbid\": 211, \"correlation\": %u, \"External id\": %u}}"
        ",\n{\"ph\": \"s\", \"id\": %u, \"pid\": 2200, \"tid\": 2200, \"ts\": %" G_GINT64_FORMAT ".500, \"cat\": \"ac2g\", "
        "\"name\": \"ac2g\"}"
        ",\n{\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"%s\", \"pid\": 0, \"tid\": %u, \"ts\": %" G_GINT64_FORMAT ".875, "
        "\"dur\": 45.250, \"args\": {\"queued\": 0, \"device\": 0, \"context\": 1, \"stream\": %u, \"correlation\": %u, "
        "\"registers per thread\": 128, \"shared memory\": 49152, \"blocks per SM\": 1.62963, \"warps per SM\": 12.2, "
        "\"grid\": [176, 1, 1], \"block\": [256, 1, 1], \"est. achieved occupancy %%\": 50}}"
        ",\n{\"ph\": \"f\", \"id\": %u, \"pid\": 0, \"tid\": %u, \"ts\": %" G_GINT64_FORMAT ".875, \"cat\": \"ac2g\", "
        "\"name\": \"ac2g\", \"bp\": \"e\"}",
        op, start, id, i, id,
        start + 20, id, id,
        id, start + 20,
        kernel, 7 + i % 3 * 6, start + 30, 7 + i % 3 * 6, id,
        id, 7 + i % 3 * 6, start + 30);
    }
  written += fprintf (out,
    ",\n{\"ph\": \"X\", \"cat\": \"gpu_memcpy\", \"name\": \"Memcpy HtoD (Pageable -> Device)\", \"pid\": 0, \"tid\": 7, "
    "\"ts\": %" G_GINT64_FORMAT ".000, \"dur\": 120.000, \"args\": {\"device\": 0, \"context\": 1, \"stream\": 7, "
    "\"correlation\": %u, \"bytes\": 4194304, \"memory bandwidth (GB/s)\": 34.9}}"
    ",\n{\"ph\": \"X\", \"cat\": \"gpu_memset\", \"name\": \"Memset (Device)\", \"pid\": 0, \"tid\": 7, "
    "\"ts\": %" G_GINT64_FORMAT ".000, \"dur\": 3.000, \"args\": {\"device\": 0, \"stream\": 7, \"bytes\": 4096}}",
    t + 3700, (*correlation)++, t + 3850);
  *clock_us = t + 4100;
  return written;
}

static gsize
generate_trace (const char *path,
                gsize       target_bytes,
                guint64    *events)
{
  FILE *out = fopen (path, "w");
  gint64 clock_us = G_GINT64_CONSTANT (1682725897226747);
  guint correlation = 1000;
  gsize written = 0;

  g_assert_nonnull (out);
  written += fprintf (out, "{\n\"schemaVersion\": 1,\n\"distributedInfo\": {\"backend\": \"nccl\", \"rank\": 0, "
                      "\"world_size\": 8},\n\"traceEvents\": [\n{\"ph\": \"M\", \"name\": \"process_name\", "
                      "\"pid\": 0, \"tid\": 0, \"args\": {\"name\": \"GPU 0\"}}");
  *events = 1;
  for (guint step = 0; written < target_bytes; step++)
    {
      written += write_step (out, step, &clock_us, &correlation);
      *events += 1 + 60 * 5 + 2;
    }
  written += fprintf (out, "\n],\n\"traceName\": \"bench.json\"\n}\n");
  g_assert_cmpint (fclose (out), ==, 0);
  return written;
}

/* ---- peak memory ---------------------------------------------------------------------------- */

static gint64
status_kib (const char *field)
{
  g_autofree char *status = NULL;
  const char *line;

  if (!g_file_get_contents ("/proc/self/status", &status, NULL, NULL) || (line = strstr (status, field)) == NULL)
    return -1;
  return g_ascii_strtoll (line + strlen (field), NULL, 10);
}

/* Resets the peak-RSS mark (Linux: writing 5 to clear_refs) and returns the RSS now. */
static gint64
reset_peak (void)
{
  g_file_set_contents ("/proc/self/clear_refs", "5", 1, NULL);
  return status_kib ("VmRSS:");
}

/* ---- the measured bodies ------------------------------------------------------------------ */

typedef struct
{
  const char  *path;
  guint64      events;
  SuanliTrace *trace;
} Run;

static void
bare_parse (gpointer data)
{
  Run *run = data;
  FILE *in = fopen (run->path, "rb");
  g_autofree guchar *buffer = g_malloc (CHUNK);
  yajl_handle parser = yajl_alloc (NULL, NULL, NULL);
  size_t length;

  while ((length = fread (buffer, 1, CHUNK, in)) > 0)
    g_assert_cmpint (yajl_parse (parser, buffer, length), ==, yajl_status_ok);
  g_assert_cmpint (yajl_complete_parse (parser), ==, yajl_status_ok);
  yajl_free (parser);
  fclose (in);
}

static int
ignore_null (void *ctx)
{
  return 1;
}

static int
ignore_boolean (void *ctx,
                int   value)
{
  return 1;
}

static int
ignore_text (void                *ctx,
             const unsigned char *text,
             size_t               length)
{
  return 1;
}

static int
ignore_number (void       *ctx,
               const char *text,
               size_t      length)
{
  return 1;
}

/* The callbacks the importer sets, doing nothing: yajl then does what it does for the importer
 * (strings with escapes decoded, keys and numbers handed over), and nothing else is done. */
static const yajl_callbacks ignoring = {
  ignore_null, ignore_boolean, NULL, NULL, ignore_number, ignore_text,
  ignore_null, ignore_text, ignore_null, ignore_null, ignore_null,
};

static void
parse_bytes (const guchar *bytes,
             gsize         length)
{
  yajl_handle parser = yajl_alloc (&ignoring, NULL, NULL);

  for (gsize at = 0; at < length; at += CHUNK)
    g_assert_cmpint (yajl_parse (parser, bytes + at, MIN ((gsize) CHUNK, length - at)), ==, yajl_status_ok);
  g_assert_cmpint (yajl_complete_parse (parser), ==, yajl_status_ok);
  yajl_free (parser);
}

static void
callback_parse (gpointer data)
{
  Run *run = data;
  FILE *in = fopen (run->path, "rb");
  g_autofree guchar *buffer = g_malloc (CHUNK);
  yajl_handle parser = yajl_alloc (&ignoring, NULL, NULL);
  size_t length;

  while ((length = fread (buffer, 1, CHUNK, in)) > 0)
    g_assert_cmpint (yajl_parse (parser, buffer, length), ==, yajl_status_ok);
  g_assert_cmpint (yajl_complete_parse (parser), ==, yajl_status_ok);
  yajl_free (parser);
  fclose (in);
}

static void
suanli_import (gpointer data)
{
  Run *run = data;
  g_autoptr(GFile) file = g_file_new_for_path (run->path);
  g_autoptr(GError) error = NULL;
  SuanliImportStats stats = { 0 };

  g_clear_object (&run->trace);
  run->trace = suanli_trace_new ();
  g_assert_true (suanli_import_file (run->trace, file, &stats, NULL, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (stats.events, ==, run->events);
  suanli_import_stats_clear (&stats);
}

/* The importer as it read before simdjson: yajl alone, on one thread (SUANLI_TRACE_PARSER). */
static void
suanli_import_yajl (gpointer data)
{
  g_setenv ("SUANLI_TRACE_PARSER", "yajl", TRUE);
  suanli_import (data);
  g_unsetenv ("SUANLI_TRACE_PARSER");
}

/* simdjson's windows on this thread alone (SUANLI_IMPORT_THREADS=1): the one-core figure. */
static void
suanli_import_one_thread (gpointer data)
{
  g_setenv ("SUANLI_IMPORT_THREADS", "1", TRUE);
  suanli_import (data);
  g_unsetenv ("SUANLI_IMPORT_THREADS");
}

/* Reads on into @data, up to its @size; FALSE at the stream's end. */
static gboolean
read_on (GInputStream *stream,
         guchar       *data,
         gsize        *length,
         gsize         size)
{
  gssize got = g_input_stream_read (stream, data + *length, size - *length, NULL, NULL);

  g_assert_cmpint (got, >=, 0);
  *length += (gsize) got;
  return got > 0;
}

/* simdjson's bare walk of a trace, as the import walks it: its events array in windows of the
 * bytes read up to the last newline, each indexed by simdjson and its elements' tokens checked and
 * recorded by the walker, the records then dropped; an element a window cuts short begins the
 * next. What the import does past that (the callbacks, the events, the trace) is what it is held
 * to this walk for. Returns the number of events walked. */
static guint64
walk_stream (GInputStream *stream)
{
  SuanliJsonWalker *walker = suanli_json_walker_new ();
  SuanliJsonRecords records = { 0 };
  SuanliJsonChecks checks = { G_MAXUINT64, 64 };
  gsize size = 2 * WALK_WINDOW, length = 0, window;
  guchar *base = g_malloc (size + SUANLI_JSON_PADDING + 2), *data = base + 1;
  const char *events = NULL;
  gboolean more = TRUE;
  guint64 events_walked = 0;

  /* The events array's '[', in the first reads. */
  while (events == NULL && more && length < size)
    {
      more = read_on (stream, data, &length, size);
      events = g_strstr_len ((char *) data, (gssize) length, "\"traceEvents\"");
      events = events != NULL ? memchr (events, '[', length - (gsize) (events - (const char *) data)) : NULL;
    }
  g_assert_nonnull (events);
  length -= (gsize) (events + 1 - (const char *) data);
  memmove (data, events + 1, length);
  for (;;)
    {
      const char *after = (const char *) data;
      guchar *newline, kept;
      gsize consumed = 0;
      guint escaped, walked = 0;

      if (more && length < size)
        more = read_on (stream, data, &length, size);
      newline = more ? memrchr (data, '\n', length) : NULL;
      window = newline != NULL ? (gsize) (newline + 1 - data) : length;
      base[0] = '[';
      kept = data[window];
      data[window] = ']';
      records.n = 0;
      if (suanli_json_walker_index (walker, (const char *) base, window + 2, (const char *) data, &checks, &records))
        while (suanli_json_walker_step (walker, &after, &escaped) == SUANLI_JSON_WALKED)
          walked++;
      data[window] = kept;
      if (walked > 0)
        consumed = (gsize) (after - (const char *) data);
      while (consumed < length && g_ascii_isspace (data[consumed]))
        consumed++;
      if (consumed < length && data[consumed] == ']')
        {
          events_walked += walked;
          break;   /* the array's end */
        }
      if (walked == 0)
        {
          /* An element longer than the window: more bytes, in a larger buffer. */
          g_assert_true (more);
          size *= 2;
          base = g_realloc (base, size + SUANLI_JSON_PADDING + 2);
          data = base + 1;
          continue;
        }
      events_walked += walked;
      consumed += consumed < length && data[consumed] == ',';
      length -= consumed;
      memmove (data, data + consumed, length);
    }
  g_free (base);
  g_free (records.items);
  suanli_json_walker_free (walker);
  return events_walked;
}

/* The reference the import is held to: the file read and walked bare by simdjson. */
static void
bare_walk (gpointer data)
{
  Run *run = data;
  g_autoptr(GFile) file = g_file_new_for_path (run->path);
  g_autoptr(GFileInputStream) stream = g_file_read (file, NULL, NULL);

  g_assert_nonnull (stream);
  g_assert_cmpuint (walk_stream (G_INPUT_STREAM (stream)), ==, run->events);
}

static void
json_glib_parse (gpointer data)
{
  Run *run = data;
  g_autoptr(JsonParser) parser = json_parser_new ();

  g_assert_true (json_parser_load_from_file (parser, run->path, NULL));
}

static void
summarize (gpointer data)
{
  Run *run = data;
  g_autoptr(GArray) gpus = suanli_analysis_gpu_time (run->trace);
  g_autoptr(GArray) kernels = suanli_analysis_top_kernels (run->trace);
  g_autoptr(GArray) operators = suanli_analysis_cpu_operators (run->trace);
  g_autoptr(GArray) delays = suanli_analysis_launch_delays (run->trace);
  g_autoptr(GArray) steps = suanli_analysis_steps (run->trace);
  g_autoptr(GArray) collectives = suanli_analysis_collectives (run->trace);

  g_assert_cmpuint (gpus->len, ==, 1);
  g_assert_cmpuint (kernels->len, ==, 4);
  g_assert_cmpuint (delays->len, ==, 1);
  /* The generated mix copies the fixture's: operators, ProfilerStep#N and NCCL kernels. */
  g_assert_cmpuint (operators->len, >, 0);
  g_assert_cmpuint (steps->len, >, 0);
  g_assert_cmpuint (collectives->len, >, 0);
}

static void
flames (gpointer data)
{
  Run *run = data;
  g_autoptr(SuanliFlame) cpu = suanli_flame_new (run->trace, SUANLI_FLAME_CPU, G_MININT64, G_MAXINT64);
  g_autoptr(SuanliFlame) gpu = suanli_flame_new (run->trace, SUANLI_FLAME_GPU, G_MININT64, G_MAXINT64);

  g_assert_cmpint (suanli_flame_get_node (gpu, 0)->total, >, 0);
  g_assert_cmpint (suanli_flame_get_node (cpu, 0)->total, >, 0);
}

static void
python_json_load (const char *path,
                  double      megabytes)
{
  const char *script = "import json, resource, sys, time\n"
                       "start = time.perf_counter()\n"
                       "with open(sys.argv[1], 'rb') as f: json.load(f)\n"
                       "print(time.perf_counter() - start, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)\n";
  const char *argv[] = { "/usr/bin/python3", "-c", script, path, NULL };
  g_autofree char *output = NULL;
  int status = 0;

  if (!g_file_test (argv[0], G_FILE_TEST_IS_EXECUTABLE) ||
      !g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_DEFAULT, NULL, NULL, &output, NULL, &status, NULL) ||
      status != 0)
    {
      g_print ("python json.load: not measured (no /usr/bin/python3)\n");
      return;
    }
  {
    double seconds = g_ascii_strtod (output, NULL);
    double max_kib = g_ascii_strtod (strchr (output, ' ') + 1, NULL);

    g_print ("python json.load: %.1f MB/s, peak RSS %.0f MB (%.2fx the file), one sample\n", megabytes / seconds,
             max_kib / 1024, max_kib / 1024 / megabytes);
  }
}

/* Times each body once per round, in turn, so that every round's figures share the machine's
 * state of the moment (the machine is shared): medians come from @benches. */
static void
time_rounds (guint         rounds,
             guint         n,
             SuanliBench **benches,
             void        (**bodies) (gpointer data),
             gpointer      data)
{
  for (guint r = 0; r < rounds; r++)
    for (guint b = 0; b < n; b++)
      {
        gint64 start = g_get_monotonic_time ();

        bodies[b] (data);
        suanli_bench_add (benches[b], (double) (g_get_monotonic_time () - start) / 1000.0);
      }
}

/* ---- the real Kineto fixtures, inflated into memory -------------------------------------- */

typedef struct
{
  GPtrArray *texts;    /* of GBytes: each fixture's JSON */
  guint      repeats;  /* each is read this many times per sample */
  gsize      bytes;    /* all of them once */
} Fixtures;

/* One pass over the fixtures: each parsed bare. */
static void
fixtures_parse (Fixtures *fixtures)
{
  for (guint i = 0; i < fixtures->texts->len; i++)
    {
      gsize length;
      const guchar *bytes = g_bytes_get_data (g_ptr_array_index (fixtures->texts, i), &length);

      parse_bytes (bytes, length);
    }
}

/* One pass over the fixtures: each walked bare by simdjson, from memory. */
static void
fixtures_walk (Fixtures *fixtures)
{
  for (guint i = 0; i < fixtures->texts->len; i++)
    {
      g_autoptr(GInputStream) stream = g_memory_input_stream_new_from_bytes (g_ptr_array_index (fixtures->texts, i));

      g_assert_cmpuint (walk_stream (stream), >, 0);
    }
}

/* One pass over the fixtures: each imported into a trace of its own, made and freed. */
static void
fixtures_import (Fixtures *fixtures)
{
  for (guint i = 0; i < fixtures->texts->len; i++)
    {
      g_autoptr(SuanliTrace) trace = suanli_trace_new ();
      g_autoptr(GInputStream) input = g_memory_input_stream_new_from_bytes (g_ptr_array_index (fixtures->texts, i));
      g_autoptr(GError) error = NULL;
      SuanliImportStats stats = { 0 };

      g_assert_true (suanli_import_stream (trace, input, "fixture", &stats, NULL, &error));
      suanli_import_stats_clear (&stats);
    }
}

/* The CPU time of this process, in ms: the time it ran, not the time it waited for a core. */
static double
cpu_ms (void)
{
  struct timespec now;

  g_assert_cmpint (clock_gettime (CLOCK_PROCESS_CPUTIME_ID, &now), ==, 0);
  return (double) now.tv_sec * 1e3 + (double) now.tv_nsec / 1e6;
}

/* The real traces: Kineto's, dense with arguments. Skipped when SUANLI_FIXTURES_DIR is not set. */
static void
bench_fixtures (void)
{
  const char *directory = g_getenv ("SUANLI_FIXTURES_DIR");
  g_autoptr(GDir) dir = directory != NULL ? g_dir_open (directory, 0, NULL) : NULL;
  g_autoptr(SuanliBench) parse_bench = suanli_bench_new ("fixtures: bare yajl parse (callbacks)", "ms");
  g_autoptr(SuanliBench) import_bench = suanli_bench_new ("fixtures: Suanli import, yajl alone (as before simdjson)", "ms");
  g_autoptr(SuanliBench) walk_bench = suanli_bench_new ("fixtures: bare simdjson walk", "ms");
  g_autoptr(SuanliBench) one_bench = suanli_bench_new ("fixtures: Suanli import, simdjson windows, one thread", "ms");
  g_autoptr(SuanliBench) threads_bench = suanli_bench_new ("fixtures: Suanli import, simdjson windows, threads as the machine has", "ms");
  g_autoptr(SuanliBench) share_bench = suanli_bench_new ("fixtures: bare parse CPU time over import CPU time, per round", "%");
  g_autoptr(GPtrArray) texts = g_ptr_array_new_with_free_func ((GDestroyNotify) g_bytes_unref);
  Fixtures fixtures = { texts, 1, 0 };
  const char *name;

  if (dir == NULL)
    {
      g_print ("fixtures: not measured (SUANLI_FIXTURES_DIR not set)\n");
      return;
    }
  while ((name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *path = g_build_filename (directory, name, NULL);
      g_autoptr(GFile) file = g_file_new_for_path (path);
      g_autoptr(GInputStream) raw = G_INPUT_STREAM (g_file_read (file, NULL, NULL));
      g_autoptr(GZlibDecompressor) gunzip = g_zlib_decompressor_new (G_ZLIB_COMPRESSOR_FORMAT_GZIP);
      g_autoptr(GInputStream) input = NULL;
      g_autoptr(GOutputStream) output = g_memory_output_stream_new_resizable ();

      if (raw == NULL || !g_str_has_suffix (name, ".json.gz"))
        continue;
      input = g_converter_input_stream_new (raw, G_CONVERTER (gunzip));
      g_assert_cmpint (g_output_stream_splice (output, input, G_OUTPUT_STREAM_SPLICE_CLOSE_TARGET, NULL, NULL), >, 0);
      g_ptr_array_add (texts, g_memory_output_stream_steal_as_bytes (G_MEMORY_OUTPUT_STREAM (output)));
      fixtures.bytes += g_bytes_get_size (g_ptr_array_index (texts, texts->len - 1));
    }
  if (fixtures.bytes == 0)
    return;
  /* About 50 MB a sample, so that a sample is long against the clock's grain. */
  fixtures.repeats = MAX (1, (guint) (50e6 / (double) fixtures.bytes));
  /* A round's sample of each is the sum of its passes, the two taking turns pass by pass (a few ms
   * each), so that both meet the same load of the shared machine. Its share is taken from CPU time
   * as well, which leaves out the time either waited for a core. */
  for (guint round = 0; round < 7; round++)
    {
      double parse_ms = 0, import_ms = 0, parse_cpu = 0, import_cpu = 0, walk_ms = 0, one_ms = 0, threads_ms = 0;

      for (guint r = 0; r < fixtures.repeats; r++)
        {
          gint64 wall = g_get_monotonic_time ();
          double cpu = cpu_ms ();

          fixtures_parse (&fixtures);
          parse_ms += (double) (g_get_monotonic_time () - wall) / 1000.0;
          parse_cpu += cpu_ms () - cpu;
          wall = g_get_monotonic_time ();
          cpu = cpu_ms ();
          g_setenv ("SUANLI_TRACE_PARSER", "yajl", TRUE);
          fixtures_import (&fixtures);
          g_unsetenv ("SUANLI_TRACE_PARSER");
          import_ms += (double) (g_get_monotonic_time () - wall) / 1000.0;
          import_cpu += cpu_ms () - cpu;
          wall = g_get_monotonic_time ();
          fixtures_walk (&fixtures);
          walk_ms += (double) (g_get_monotonic_time () - wall) / 1000.0;
          wall = g_get_monotonic_time ();
          g_setenv ("SUANLI_IMPORT_THREADS", "1", TRUE);
          fixtures_import (&fixtures);
          g_unsetenv ("SUANLI_IMPORT_THREADS");
          one_ms += (double) (g_get_monotonic_time () - wall) / 1000.0;
          wall = g_get_monotonic_time ();
          fixtures_import (&fixtures);
          threads_ms += (double) (g_get_monotonic_time () - wall) / 1000.0;
        }
      suanli_bench_add (parse_bench, parse_ms);
      suanli_bench_add (import_bench, import_ms);
      suanli_bench_add (share_bench, 100 * parse_cpu / import_cpu);
      suanli_bench_add (walk_bench, walk_ms);
      suanli_bench_add (one_bench, one_ms);
      suanli_bench_add (threads_bench, threads_ms);
    }
  suanli_bench_report (parse_bench);
  suanli_bench_report (import_bench);
  suanli_bench_report (share_bench);
  suanli_bench_report (walk_bench);
  suanli_bench_report (one_bench);
  suanli_bench_report (threads_bench);
  g_print ("fixtures: simdjson windows on one thread %.1f MB/s, %.2fx the yajl-only import (target at least 3x), at "
           "%.0f%% of simdjson's bare walk (%.1f MB/s; aim 50%%); on the machine's threads %.2fx the yajl-only import\n",
           fixtures.bytes * fixtures.repeats / 1e6 / (suanli_bench_median (one_bench) / 1000),
           suanli_bench_median (import_bench) / suanli_bench_median (one_bench),
           100 * suanli_bench_median (walk_bench) / suanli_bench_median (one_bench),
           fixtures.bytes * fixtures.repeats / 1e6 / (suanli_bench_median (walk_bench) / 1000),
           suanli_bench_median (import_bench) / suanli_bench_median (threads_bench));
  g_print ("fixtures (%u real Kineto traces, %.1f MB, each read %u times a sample): the yajl-only import %.1f MB/s, "
           "%.0f%% of the bare yajl parse (%.1f MB/s)\n", texts->len, fixtures.bytes / 1e6, fixtures.repeats,
           fixtures.bytes * fixtures.repeats / 1e6 / (suanli_bench_median (import_bench) / 1000),
           100 * suanli_bench_median (parse_bench) / suanli_bench_median (import_bench),
           fixtures.bytes * fixtures.repeats / 1e6 / (suanli_bench_median (parse_bench) / 1000));
  g_print ("fixtures: the yajl-only import at %.0f%% of the bare yajl parse, median of the per-round shares of CPU time "
           "(the target before simdjson: at least 60%%). The share is the time of yajl's parse of the inflated bytes with callbacks that do nothing, "
           "over the time of Suanli's import of the same bytes from memory, to a finished trace (tracks sorted and "
           "nested, flows bound, launches linked to their kernels, queue counters; the trace made and freed); "
           "100%% would be an import that costs nothing past parsing.\n", suanli_bench_median (share_bench));
}

/* ---- gzip: the same trace compressed ------------------------------------------------------ */

/* Writes @path gzipped (zlib, level 6, as gzip does by default) to a new temporary file. */
static char *
gzip_file (const char *path)
{
  g_autoptr(GFile) in = g_file_new_for_path (path);
  g_autofree char *gz_path = g_strconcat (path, ".gz", NULL);
  g_autoptr(GFile) out = g_file_new_for_path (gz_path);
  g_autoptr(GInputStream) input = G_INPUT_STREAM (g_file_read (in, NULL, NULL));
  g_autoptr(GOutputStream) file = G_OUTPUT_STREAM (g_file_replace (out, NULL, FALSE, G_FILE_CREATE_NONE, NULL, NULL));
  g_autoptr(GZlibCompressor) compressor = g_zlib_compressor_new (G_ZLIB_COMPRESSOR_FORMAT_GZIP, 6);
  g_autoptr(GOutputStream) output = g_converter_output_stream_new (file, G_CONVERTER (compressor));

  g_assert_cmpint (g_output_stream_splice (output, input, G_OUTPUT_STREAM_SPLICE_CLOSE_TARGET, NULL, NULL), >, 0);
  return g_steal_pointer (&gz_path);
}

/* Reads @input to its end and drops the bytes. */
static void
drain (GInputStream *input)
{
  g_autofree guchar *buffer = g_malloc (1 << 20);
  gssize got;

  while ((got = g_input_stream_read (input, buffer, 1 << 20, NULL, NULL)) > 0)
    ;
  g_assert_cmpint (got, ==, 0);
}

static void
zlib_inflate (gpointer data)
{
  Run *run = data;
  g_autoptr(GFile) file = g_file_new_for_path (run->path);
  g_autoptr(GInputStream) raw = G_INPUT_STREAM (g_file_read (file, NULL, NULL));
  g_autoptr(GZlibDecompressor) gunzip = g_zlib_decompressor_new (G_ZLIB_COMPRESSOR_FORMAT_GZIP);
  g_autoptr(GInputStream) input = g_converter_input_stream_new (raw, G_CONVERTER (gunzip));

  drain (input);
}

static void
isal_inflate (gpointer data)
{
  Run *run = data;
  g_autoptr(GFile) file = g_file_new_for_path (run->path);
  g_autoptr(GInputStream) raw = G_INPUT_STREAM (g_file_read (file, NULL, NULL));
  g_autoptr(GInputStream) input = suanli_inflate_stream_new (raw, NULL);

  drain (input);
}

static void
bench_gzip (Run *plain)
{
  g_autoptr(SuanliBench) plain_bench = suanli_bench_new ("gzip: Suanli import of the plain file", "ms");
  g_autoptr(SuanliBench) gz_bench = suanli_bench_new ("gzip: Suanli import of the .gz", "ms");
  g_autoptr(SuanliBench) zlib_bench = suanli_bench_new ("gzip: inflate alone, zlib", "ms");
  g_autoptr(SuanliBench) isal_bench = suanli_bench_new ("gzip: inflate alone, ISA-L on its thread", "ms");
  SuanliBench *benches[] = { plain_bench, gz_bench, zlib_bench, isal_bench };
  g_autofree char *gz_path = gzip_file (plain->path);
  Run gz = { gz_path, plain->events, NULL };
  Run *runs[] = { plain, &gz, &gz, &gz };
  void (*bodies[]) (gpointer) = { suanli_import, suanli_import, zlib_inflate, isal_inflate };
  struct stat st;

  g_assert_cmpint (g_stat (gz_path, &st), ==, 0);
  for (guint round = 0; round < 3; round++)
    for (guint b = 0; b < G_N_ELEMENTS (bodies); b++)
      {
        gint64 start = g_get_monotonic_time ();

        bodies[b] (runs[b]);
        suanli_bench_add (benches[b], (double) (g_get_monotonic_time () - start) / 1000.0);
      }
  g_clear_object (&plain->trace);
  g_clear_object (&gz.trace);
  for (guint b = 0; b < G_N_ELEMENTS (benches); b++)
    suanli_bench_report (benches[b]);
  g_print ("gzip (%.1f MB compressed): the .gz imports at %.0f%% of the plain file's speed (target at least 80%%); "
           "inflating alone, ISA-L on its thread is %.1fx zlib\n", (double) st.st_size / 1e6,
           100 * suanli_bench_median (plain_bench) / suanli_bench_median (gz_bench),
           suanli_bench_median (zlib_bench) / suanli_bench_median (isal_bench));
  g_unlink (gz_path);
}

/* ---- the workbench against the command line ---------------------------------------------- */

/* Runs @argv to its end with its output read; returns the wall time in ms, and its peak RSS (KiB)
 * in @max_kib, from wait4(). GLib spawns with vfork semantics, so the child's peak starts from this
 * process's high-water mark: it is brought down to the RSS of now first (a few MB, with the trace
 * freed), which the baseline run of a tiny trace then takes away. */
static double
run_child (const char * const *argv,
           char              **output,
           glong              *max_kib)
{
  GPid pid;
  int out = -1, status = 0;
  struct rusage usage;
  gint64 start;
  g_autoptr(GError) error = NULL;
  g_autoptr(GIOChannel) channel = NULL;
  double elapsed;

  malloc_trim (0);
  reset_peak ();
  start = g_get_monotonic_time ();
  g_assert_true (g_spawn_async_with_pipes (NULL, (char **) argv, NULL, G_SPAWN_DO_NOT_REAP_CHILD | G_SPAWN_STDERR_TO_DEV_NULL,
                                           NULL, NULL, &pid, NULL, &out, NULL, &error));
  g_assert_no_error (error);
  channel = g_io_channel_unix_new (out);
  g_io_channel_set_close_on_unref (channel, TRUE);
  g_assert_cmpint (g_io_channel_read_to_end (channel, output, NULL, &error), ==, G_IO_STATUS_NORMAL);
  g_assert_cmpint (wait4 (pid, &status, 0, &usage), ==, pid);
  elapsed = (double) (g_get_monotonic_time () - start) / 1000.0;
  g_spawn_close_pid (pid);
  g_assert_true (WIFEXITED (status) && WEXITSTATUS (status) == 0);
  *max_kib = usage.ru_maxrss;
  return elapsed;
}

typedef struct
{
  const char  *cli;
  const char  *opener;
  const char  *path;
  const char  *tiny;          /* a trace of a few events: the CLI's memory apart from any trace */
  SuanliBench *cli_ms, *cli_mb, *open_ms, *open_mb, *ratio;
  SuanliBench *cli_yajl_ms, *cli_yajl_mb, *open_yajl_ms;   /* the same with yajl alone */
  double       cli_base_kib;
  double       open_base_kib; /* the workbench's growth showing the tiny trace: its views, not the trace */
} Opening;

static void
measure_cli (Opening     *opening,
             SuanliBench *ms,
             SuanliBench *mb)
{
  const char *argv[] = { opening->cli, "trace", "summary", opening->path, NULL };
  g_autofree char *output = NULL;
  glong max_kib = 0;
  double elapsed = run_child (argv, &output, &max_kib);

  suanli_bench_add (ms, elapsed);
  suanli_bench_add (mb, ((double) max_kib - opening->cli_base_kib) / 1024);
}

static void
cli_summary (gpointer data)
{
  Opening *opening = data;

  measure_cli (opening, opening->cli_ms, opening->cli_mb);
}

/* The command line as it read before simdjson (SUANLI_TRACE_PARSER=yajl, passed to the child). */
static void
cli_summary_yajl (gpointer data)
{
  Opening *opening = data;

  g_setenv ("SUANLI_TRACE_PARSER", "yajl", TRUE);
  measure_cli (opening, opening->cli_yajl_ms, opening->cli_yajl_mb);
  g_unsetenv ("SUANLI_TRACE_PARSER");
}

/* Runs the workbench's opener on @path: the milliseconds to the painted trace, and the growth of
 * peak RSS over the window before (KiB). */
static double
run_opener (const Opening *opening,
            const char    *path,
            double        *growth_kib)
{
  const char *argv[] = { opening->opener, path, NULL };
  g_autofree char *output = NULL;
  glong max_kib = 0;
  double open_ms, before_kib, peak_kib;
  const char *line;
  char *end = NULL;

  run_child (argv, &output, &max_kib);
  /* Its figures are the last line; GLib's test set-up may print lines starting with # before. */
  g_strchomp (output);
  line = strrchr (output, '\n') != NULL ? strrchr (output, '\n') + 1 : output;
  open_ms = g_ascii_strtod (line, &end);
  before_kib = g_ascii_strtod (end, &end);
  peak_kib = g_ascii_strtod (end, NULL);
  g_assert_cmpfloat (open_ms, >, 0);
  *growth_kib = peak_kib - before_kib;
  return open_ms;
}

static void
workbench_open (gpointer data)
{
  Opening *opening = data;
  double growth_kib, open_ms = run_opener (opening, opening->path, &growth_kib);

  suanli_bench_add (opening->open_ms, open_ms);
  /* Less what showing any trace costs (the views built, their first frames), as the CLI's figure is
   * less what it takes apart from any trace. */
  suanli_bench_add (opening->open_mb, (growth_kib - opening->open_base_kib) / 1024);
  /* This round's ratio: the CLI ran just before. */
  suanli_bench_add (opening->ratio, open_ms / suanli_bench_last (opening->cli_ms));
}

static void
workbench_open_yajl (gpointer data)
{
  Opening *opening = data;
  double growth_kib;

  g_setenv ("SUANLI_TRACE_PARSER", "yajl", TRUE);
  suanli_bench_add (opening->open_yajl_ms, run_opener (opening, opening->path, &growth_kib));
  g_unsetenv ("SUANLI_TRACE_PARSER");
}

static void
bench_opening (const char *path,
               double      file_mb,
               double      index_mb)
{
  g_autoptr(SuanliBench) cli_ms = suanli_bench_new ("suanli-cli trace summary", "ms");
  g_autoptr(SuanliBench) cli_mb = suanli_bench_new ("suanli-cli trace summary: peak RSS growth", "MB");
  g_autoptr(SuanliBench) open_ms = suanli_bench_new ("opening in the workbench", "ms");
  g_autoptr(SuanliBench) open_mb = suanli_bench_new ("opening in the workbench: peak RSS growth", "MB");
  g_autoptr(SuanliBench) ratio = suanli_bench_new ("workbench time over the CLI's, per round", "x");
  g_autoptr(SuanliBench) cli_yajl_ms = suanli_bench_new ("suanli-cli trace summary, yajl alone", "ms");
  g_autoptr(SuanliBench) cli_yajl_mb = suanli_bench_new ("suanli-cli trace summary, yajl alone: peak RSS growth", "MB");
  g_autoptr(SuanliBench) open_yajl_ms = suanli_bench_new ("opening in the workbench, yajl alone", "ms");
  Opening opening = { g_getenv ("SUANLI_CLI"), g_getenv ("SUANLI_BENCH_TRACE_OPEN"), path, NULL,
                      cli_ms, cli_mb, open_ms, open_mb, ratio, cli_yajl_ms, cli_yajl_mb, open_yajl_ms, 0, 0 };
  void (*bodies[]) (gpointer) = { cli_summary_yajl, workbench_open_yajl, cli_summary, workbench_open };
  g_autofree char *tiny = NULL;
  g_autofree char *output = NULL;
  glong tiny_kib = 0;
  guint rounds = file_mb > 300 ? 1 : 3;
  int fd;

  if (opening.cli == NULL || opening.opener == NULL)
    {
      g_print ("workbench against the CLI: not measured (SUANLI_CLI or SUANLI_BENCH_TRACE_OPEN not set)\n");
      return;
    }
  fd = g_file_open_tmp ("suanli-bench-tiny-XXXXXX.json", &tiny, NULL);
  g_assert_cmpint (fd, >=, 0);
  close (fd);
  g_assert_true (g_file_set_contents (tiny, "[{\"ph\": \"X\", \"name\": \"a\", \"pid\": 1, \"tid\": 1, \"ts\": 1, "
                                            "\"dur\": 2}]", -1, NULL));
  {
    const char *argv[] = { opening.cli, "trace", "summary", tiny, NULL };

    run_child (argv, &output, &tiny_kib);
    opening.cli_base_kib = (double) tiny_kib;
    run_opener (&opening, tiny, &opening.open_base_kib);
  }
  g_unlink (tiny);

  for (guint r = 0; r < rounds; r++)
    for (guint b = 0; b < G_N_ELEMENTS (bodies); b++)
      bodies[b] (&opening);
  suanli_bench_report (cli_yajl_ms);
  suanli_bench_report (cli_ms);
  suanli_bench_report (open_yajl_ms);
  suanli_bench_report (open_ms);
  suanli_bench_report (ratio);
  suanli_bench_report (cli_yajl_mb);
  suanli_bench_report (cli_mb);
  suanli_bench_report (open_mb);
  g_print ("simdjson windows against yajl alone: trace summary in %.2fx less time (target 3x on the 4 GB trace), peak "
           "RSS growth %.0f MB against %.0f MB; the workbench draws the trace in %.2fx less time (target 3x on a 1 GB "
           "trace)\n", suanli_bench_median (cli_yajl_ms) / suanli_bench_median (cli_ms), suanli_bench_median (cli_mb),
           suanli_bench_median (cli_yajl_mb), suanli_bench_median (open_yajl_ms) / suanli_bench_median (open_ms));
  g_print ("workbench opens in %.2fx the CLI's time (median of per-round ratios; target at most 1.5x)\n",
           suanli_bench_median (ratio));
  g_print ("the workbench's growth showing a one-event trace (its views, subtracted below as the CLI's own is): %.1f MB\n",
           opening.open_base_kib / 1024);
  g_print ("workbench peak RSS growth %.0f MB against the CLI's %.0f MB + the timeline's indexes %.0f MB = %.0f MB "
           "(%.2fx the file; CLI alone %.2fx)\n", suanli_bench_median (open_mb), suanli_bench_median (cli_mb), index_mb,
           suanli_bench_median (cli_mb) + index_mb, suanli_bench_median (open_mb) / file_mb,
           suanli_bench_median (cli_mb) / file_mb);
}

/* The bytes of the timeline's drawing indexes of @trace, in MB. */
static double
index_megabytes (SuanliTrace *trace)
{
  gsize bytes = 0;

  for (guint t = 0; t < suanli_trace_get_n_tracks (trace); t++)
    bytes += suanli_track_index_get_size (suanli_trace_get_track_index (trace, t));
  return (double) bytes / (1024 * 1024);
}

int
main (int   argc,
      char *argv[])
{
  const char *size_text = g_getenv ("SUANLI_BENCH_TRACE_MB");
  gsize megabytes = size_text != NULL ? (gsize) g_ascii_strtoull (size_text, NULL, 10) : 100;
  g_autoptr(SuanliBench) bare_bench = suanli_bench_new ("bare yajl parse, no callbacks", "ms");
  g_autoptr(SuanliBench) callback_bench = suanli_bench_new ("bare yajl parse, callbacks that do nothing", "ms");
  g_autoptr(SuanliBench) walk_bench = suanli_bench_new ("bare simdjson walk (the file read, the events walked in windows)", "ms");
  g_autoptr(SuanliBench) yajl_bench = suanli_bench_new ("Suanli import, yajl alone (as before simdjson)", "ms");
  g_autoptr(SuanliBench) one_bench = suanli_bench_new ("Suanli import, simdjson windows, one thread", "ms");
  g_autoptr(SuanliBench) import_bench = suanli_bench_new ("Suanli import, simdjson windows, threads as the machine has", "ms");
  g_autoptr(SuanliBench) glib_bench = suanli_bench_new ("json-glib parse", "ms");
  g_autoptr(SuanliBench) summary_bench = suanli_bench_new ("summary of the loaded trace", "ms");
  g_autoptr(SuanliBench) flame_bench = suanli_bench_new ("CPU and GPU flame graphs of the loaded trace", "ms");
  SuanliBench *benches[] = { bare_bench, callback_bench, walk_bench, yajl_bench, one_bench, import_bench };
  void (*bodies[]) (gpointer) = { bare_parse, callback_parse, bare_walk, suanli_import_yajl, suanli_import_one_thread,
                                  suanli_import };
  g_autofree char *path = NULL;
  Run run = { NULL, 0, NULL };
  double file_mb, callback_ms, import_ms, index_mb;
  gint64 before_kib, peak_kib;
  guint samples;
  int fd;

  fd = g_file_open_tmp ("suanli-bench-trace-XXXXXX.json", &path, NULL);
  g_assert_cmpint (fd, >=, 0);
  close (fd);
  run.path = path;
  file_mb = generate_trace (path, megabytes * 1000 * 1000, &run.events) / 1e6;
  samples = file_mb > 300 ? 1 : 3;
  g_print ("generated Kineto-like trace: %.1f MB, %" G_GUINT64_FORMAT " events\n", file_mb, run.events);

  /* The first imports, alone, for peak memory (yajl's first, then the windows'); then the timed rounds. */
  before_kib = reset_peak ();
  suanli_import_yajl (&run);
  g_clear_object (&run.trace);
  peak_kib = status_kib ("VmHWM:");
  g_print ("the yajl-only import's peak RSS growth: %.0f MB (%.2fx the file)\n", (peak_kib - before_kib) / 1024.0,
           (peak_kib - before_kib) / 1024.0 / file_mb);
  malloc_trim (0);
  before_kib = reset_peak ();
  suanli_import (&run);
  peak_kib = status_kib ("VmHWM:");
  g_print ("Suanli import peak RSS growth: %.0f MB (%.2fx the file); RSS before %.0f MB\n",
           (peak_kib - before_kib) / 1024.0, (peak_kib - before_kib) / 1024.0 / file_mb, before_kib / 1024.0);
  time_rounds (samples, G_N_ELEMENTS (bodies), benches, bodies, &run);
  for (guint b = 0; b < G_N_ELEMENTS (benches); b++)
    suanli_bench_report (benches[b]);
  callback_ms = suanli_bench_median (callback_bench);
  import_ms = suanli_bench_median (yajl_bench);
  g_print ("simdjson windows: one thread %.1f MB/s, %.2fx the yajl-only import (target at least 3x); %u threads "
           "%.1f MB/s, %.2fx; the one-thread import at %.0f%% of simdjson's bare walk, %.1f MB/s (aim 50%%)\n",
           file_mb / (suanli_bench_median (one_bench) / 1000), import_ms / suanli_bench_median (one_bench),
           g_get_num_processors () > 1 ? 2 : 1, file_mb / (suanli_bench_median (import_bench) / 1000),
           import_ms / suanli_bench_median (import_bench),
           100 * suanli_bench_median (walk_bench) / suanli_bench_median (one_bench),
           file_mb / (suanli_bench_median (walk_bench) / 1000));
  g_print ("bare yajl parse %.1f MB/s (%.1f MB/s without callbacks); the yajl-only import %.1f MB/s, %.2f M events/s: "
           "%.0f%% of the bare yajl parse (%.0f%% of the one without callbacks)\n",
           file_mb / (callback_ms / 1000), file_mb / (suanli_bench_median (bare_bench) / 1000),
           file_mb / (import_ms / 1000), run.events / (import_ms / 1000) / 1e6, 100 * callback_ms / import_ms,
           100 * suanli_bench_median (bare_bench) / import_ms);
  g_print ("loaded: %" G_GUINT64_FORMAT " slices on %u tracks, %u flows\n", suanli_trace_get_n_slices (run.trace),
           suanli_trace_get_n_tracks (run.trace), suanli_trace_get_flows (run.trace)->len);

  suanli_bench_time (summary_bench, 5, summarize, &run);
  suanli_bench_report (summary_bench);
  suanli_bench_time (flame_bench, 3, flames, &run);
  suanli_bench_report (flame_bench);
  index_mb = index_megabytes (run.trace);
  g_clear_object (&run.trace);

  bench_gzip (&run);
  bench_fixtures ();
  bench_opening (path, file_mb, index_mb);

  if (file_mb <= 200 && g_getenv ("SUANLI_BENCH_TRACE_NO_PEERS") == NULL)
    {
      before_kib = reset_peak ();
      suanli_bench_time (glib_bench, 1, json_glib_parse, &run);
      peak_kib = status_kib ("VmHWM:");
      g_print ("json-glib parse: %.1f MB/s, peak RSS growth %.0f MB (%.2fx the file), one sample\n",
               file_mb / (suanli_bench_median (glib_bench) / 1000), (peak_kib - before_kib) / 1024.0,
               (peak_kib - before_kib) / 1024.0 / file_mb);
      python_json_load (path, file_mb);
    }

  /* SUANLI_BENCH_TRACE_KEEP=1 leaves the file, to try it in the app or under a profiler. */
  if (g_getenv ("SUANLI_BENCH_TRACE_KEEP") != NULL)
    g_print ("kept %s\n", path);
  else
    g_unlink (path);
  return 0;
}
