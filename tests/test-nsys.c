/* test-nsys.c — Nsight Systems SQLite exports: the real ones in tests/data/nsys, each held to figures
 * computed by plain SQL over the same file; generated ones for the tables no real export here has
 * (call chains, NCCL, start/end NVTX ranges, graphs) and for hostile files
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>
#include <sqlite3.h>
#include <glib/gstdio.h>
#include <json-glib/json-glib.h>

#include "suanli-import.h"
#include "suanli-import-nsys.h"
#include "suanli-test-process.h"
#include "suanli-trace-loader.h"

static const char * const real_exports[] = {
  "nsys-2020.3-omp-offload.sqlite", "nsys-2020.5-kmeans.sqlite", "nsys-2021.2-crystal-osrt.sqlite", "nsys-2022.4-vecadd-streams.sqlite", "nsys-2023.1-tensorrt-nvtx.sqlite", "nsys-2023.3-reduce-sampling.sqlite",
  "nsys-2025.5-memset.sqlite", "nsys-2025.5-vectoradd.sqlite", "nsys-2026.1-streams.sqlite",
};

static char *
data_path (const char *name)
{
  return g_build_filename (g_getenv ("SUANLI_TEST_DATA_DIR"), "nsys", name, NULL);
}

static sqlite3 *
open_plain (const char *path)
{
  sqlite3 *db = NULL;
  g_autofree char *uri = g_strconcat ("file:", path, "?immutable=1", NULL);

  g_assert_cmpint (sqlite3_open_v2 (uri, &db, SQLITE_OPEN_READONLY | SQLITE_OPEN_URI, NULL), ==, SQLITE_OK);
  return db;
}

static gboolean
has_table (sqlite3    *db,
           const char *table)
{
  g_autofree char *sql = g_strdup_printf ("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = '%s'", table);
  sqlite3_stmt *query = NULL;
  gboolean found;

  g_assert_cmpint (sqlite3_prepare_v2 (db, sql, -1, &query, NULL), ==, SQLITE_OK);
  found = sqlite3_step (query) == SQLITE_ROW;
  sqlite3_finalize (query);
  return found;
}

static JsonObject *
summary_json (const char * const *files,
              JsonParser         *parser)
{
  g_auto(SuanliTestRun) run = { 0 };
  g_autoptr(GPtrArray) args = g_ptr_array_new ();

  g_ptr_array_add (args, (gpointer) "trace");
  g_ptr_array_add (args, (gpointer) "summary");
  for (guint i = 0; files[i] != NULL; i++)
    g_ptr_array_add (args, (gpointer) files[i]);
  g_ptr_array_add (args, (gpointer) "--json");
  g_ptr_array_add (args, NULL);
  suanli_test_run_cli (&run, "en", (const char * const *) args->pdata);
  g_assert_cmpint (run.status, ==, 0);
  g_assert_true (json_parser_load_from_data (parser, run.out, -1, NULL));
  return json_node_get_object (json_parser_get_root (parser));
}

static JsonObject *
gpu_of (JsonObject *summary,
        gint64      device)
{
  JsonArray *gpus = json_object_get_array_member (summary, "gpus");

  for (guint i = 0; i < json_array_get_length (gpus); i++)
    if (json_object_get_int_member (json_array_get_object_element (gpus, i), "device") == device)
      return json_array_get_object_element (gpus, i);
  return NULL;
}

/* Kernel count and total time per name, by SQL, against the summary's top kernels. */
static void
check_kernels (sqlite3    *db,
               JsonObject *summary)
{
  JsonArray *top = json_object_get_array_member (summary, "top_kernels");
  g_autoptr(GHashTable) expected = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  sqlite3_stmt *query = NULL;

  if (!has_table (db, "CUPTI_ACTIVITY_KIND_KERNEL"))
    {
      g_assert_cmpuint (json_array_get_length (top), ==, 0);
      return;
    }
  g_assert_cmpint (sqlite3_prepare_v2 (db, "SELECT s.value, count(*), sum(k.end - k.start) FROM CUPTI_ACTIVITY_KIND_KERNEL k "
                                           "JOIN StringIds s ON s.id = k.demangledName GROUP BY s.value", -1, &query, NULL),
                   ==, SQLITE_OK);
  while (sqlite3_step (query) == SQLITE_ROW)
    {
      gint64 *figures = g_new (gint64, 2);

      figures[0] = sqlite3_column_int64 (query, 1);
      figures[1] = sqlite3_column_int64 (query, 2);
      g_hash_table_insert (expected, g_strdup ((const char *) sqlite3_column_text (query, 0)), figures);
    }
  sqlite3_finalize (query);
  g_assert_cmpuint (json_array_get_length (top), >, 0);
  g_assert_cmpuint (json_array_get_length (top), <=, g_hash_table_size (expected));
  for (guint i = 0; i < json_array_get_length (top); i++)
    {
      JsonObject *kernel = json_array_get_object_element (top, i);
      const gint64 *figures = g_hash_table_lookup (expected, json_object_get_string_member (kernel, "name"));

      g_assert_nonnull (figures);
      g_assert_cmpint (json_object_get_int_member (kernel, "count"), ==, figures[0]);
      g_assert_cmpint (json_object_get_int_member (kernel, "total_ns"), ==, figures[1]);
    }
}

/* GPU busy: the union of every kernel, copy and memset per device, by SQL and a sweep. */
static void
check_busy (sqlite3    *db,
            JsonObject *summary)
{
  g_autoptr(GString) sql = g_string_new ("SELECT deviceId, start, end FROM (");
  const char *tables[] = { "CUPTI_ACTIVITY_KIND_KERNEL", "CUPTI_ACTIVITY_KIND_MEMCPY", "CUPTI_ACTIVITY_KIND_MEMSET" };
  sqlite3_stmt *query = NULL;
  gint64 device = G_MININT64, covered_to = 0, busy = 0;
  guint parts = 0;

  for (guint i = 0; i < G_N_ELEMENTS (tables); i++)
    if (has_table (db, tables[i]))
      g_string_append_printf (sql, "%sSELECT deviceId, start, end FROM %s", parts++ > 0 ? " UNION ALL " : "", tables[i]);
  if (parts == 0)
    return;
  g_string_append (sql, ") ORDER BY deviceId, start");
  g_assert_cmpint (sqlite3_prepare_v2 (db, sql->str, -1, &query, NULL), ==, SQLITE_OK);
  for (int code = sqlite3_step (query);; code = sqlite3_step (query))
    {
      gint64 row_device = code == SQLITE_ROW ? sqlite3_column_int64 (query, 0) : G_MAXINT64;

      if (row_device != device && device != G_MININT64)
        {
          JsonObject *gpu = gpu_of (summary, device);

          g_assert_nonnull (gpu);
          g_assert_cmpint (json_object_get_int_member (gpu, "busy_ns"), ==, busy);
          busy = 0;
          covered_to = G_MININT64;
        }
      if (code != SQLITE_ROW)
        break;
      device = row_device;
      {
        gint64 start = sqlite3_column_int64 (query, 1), end = sqlite3_column_int64 (query, 2);

        if (busy == 0 && covered_to <= 0)
          covered_to = start;
        start = MAX (start, covered_to);
        if (end > start)
          {
            busy += end - start;
            covered_to = end;
          }
      }
    }
  sqlite3_finalize (query);
}

/* Copies and bytes per direction and device, by SQL. */
static void
check_copies (sqlite3    *db,
              JsonObject *summary)
{
  sqlite3_stmt *query = NULL;

  if (!has_table (db, "CUPTI_ACTIVITY_KIND_MEMCPY"))
    return;
  g_assert_cmpint (sqlite3_prepare_v2 (db,
                                       "SELECT deviceId, CASE WHEN copyKind IN (1, 11) THEN 'HtoD' WHEN copyKind IN (2, 12) "
                                       "THEN 'DtoH' WHEN copyKind IN (8, 13) THEN 'DtoD' WHEN copyKind = 10 THEN 'PtoP' "
                                       "ELSE 'other' END, count(*), sum(bytes) FROM CUPTI_ACTIVITY_KIND_MEMCPY GROUP BY 1, 2",
                                       -1, &query, NULL), ==, SQLITE_OK);
  while (sqlite3_step (query) == SQLITE_ROW)
    {
      JsonObject *gpu = gpu_of (summary, sqlite3_column_int64 (query, 0));
      JsonObject *direction;

      g_assert_nonnull (gpu);
      direction = json_object_get_object_member (json_object_get_object_member (gpu, "memcpy"),
                                                 (const char *) sqlite3_column_text (query, 1));
      g_assert_nonnull (direction);
      g_assert_cmpint (json_object_get_int_member (direction, "count"), ==, sqlite3_column_int64 (query, 2));
      g_assert_cmpint (json_object_get_int_member (direction, "bytes"), ==, sqlite3_column_int64 (query, 3));
    }
  sqlite3_finalize (query);
}

/* Each real export: the summary's figures are SQL's, exactly, and the file is left as it was. */
static void
test_real_exports (void)
{
  for (guint i = 0; i < G_N_ELEMENTS (real_exports); i++)
    {
      g_autofree char *path = data_path (real_exports[i]);
      g_autofree char *before = NULL, *after = NULL;
      gsize before_length = 0, after_length = 0;
      GStatBuf before_stat, after_stat;
      g_autoptr(JsonParser) parser = json_parser_new ();
      const char *files[] = { path, NULL };
      JsonObject *summary;
      sqlite3 *db;

      g_test_message ("%s", real_exports[i]);
      g_assert_true (g_file_get_contents (path, &before, &before_length, NULL));
      g_assert_cmpint (g_stat (path, &before_stat), ==, 0);
      summary = summary_json (files, parser);
      db = open_plain (path);
      check_kernels (db, summary);
      check_busy (db, summary);
      check_copies (db, summary);
      sqlite3_close (db);
      g_assert_true (g_file_get_contents (path, &after, &after_length, NULL));
      g_assert_cmpint (g_stat (path, &after_stat), ==, 0);
      g_assert_cmpmem (before, before_length, after, after_length);
      g_assert_cmpint (before_stat.st_mtime, ==, after_stat.st_mtime);
    }
}

static SuanliTrace *
import (const char *path,
        GError    **error)
{
  g_autoptr(SuanliTrace) trace = suanli_trace_new ();
  g_autoptr(GFile) file = g_file_new_for_path (path);
  SuanliImportStats stats = { 0 };
  gboolean read = suanli_import_file (trace, file, &stats, NULL, error);

  suanli_import_stats_clear (&stats);
  return read ? g_steal_pointer (&trace) : NULL;
}

static const char *
warnings_text (SuanliTrace *trace)
{
  static char *joined;
  GPtrArray *warnings = suanli_trace_get_warnings (trace);
  g_autoptr(GString) text = g_string_new (NULL);

  for (guint i = 0; i < warnings->len; i++)
    g_string_append_printf (text, "%s\n", (const char *) g_ptr_array_index (warnings, i));
  g_free (joined);
  joined = g_strdup (text->str);
  return joined;
}

/* TensorRT with NVTX: the ranges on the thread, in their domain; the GPU named from TARGET_INFO_GPU;
 * launches joined to their kernels; the tables not shown named in a warning that is not toasted. */
static void
test_nvtx_and_hardware (void)
{
  g_autofree char *path = data_path ("nsys-2023.1-tensorrt-nvtx.sqlite");
  g_autoptr(GError) error = NULL;
  g_autoptr(SuanliTrace) trace = import (path, &error);
  SuanliGroup *group;
  guint nvtx = 0;

  g_assert_no_error (error);
  group = suanli_trace_get_group (trace, 0);
  g_assert_cmpstr (suanli_trace_get_string (trace, group->device), ==, "NVIDIA GeForce RTX 3090");
  g_assert_cmpuint (group->device_memory, ==, 25438126080);
  for (guint t = 0; t < suanli_trace_get_n_tracks (trace); t++)
    {
      SuanliTrack *track = suanli_trace_get_track (trace, t);

      for (guint s = 0; s < track->slices->len; s++)
        {
          SuanliSlice *slice = &g_array_index (track->slices, SuanliSlice, s);

          if (!g_str_equal (suanli_trace_get_string (trace, slice->category), "user_annotation"))
            continue;
          g_assert_cmpint (track->kind, ==, SUANLI_TRACK_THREAD);
          g_assert_cmpstr (suanli_trace_find_arg_string (trace, slice, "domain"), ==, "TensorRT");
          nvtx++;
        }
    }
  g_assert_cmpuint (nvtx, ==, 59);
  /* 36 kernels and 4 copies, each launched by a runtime call of the same correlation. */
  g_assert_cmpuint (suanli_trace_get_flows (trace)->len, ==, 40);
  g_assert_nonnull (strstr (warnings_text (trace), "SCHED_EVENTS (628)"));
  /* Listed among the warnings, not said at once on opening: nearly every export has such tables. */
  g_assert_null (suanli_trace_get_headline_warning (trace));
}

/* The exports of 2020 and 2021 describe their GPUs in TARGET_INFO_CUDA_GPU (deviceId, globalMemorySize,
 * numMultiprocessors; 2020.3 gives the memory in MiB), where 2020.5 also has a TARGET_INFO_GPU with
 * neither memory nor SMs; 2021.2 has only TARGET_INFO_GPU, with today's columns. */
static void
test_older_gpu_tables (void)
{
  static const struct { const char *file, *gpu; guint64 memory; const char *labels; } exports[] = {
    { "nsys-2020.3-omp-offload.sqlite", "Tesla V100-PCIE-32GB", (guint64) 32510 << 20, "80 SMs, 32 GiB" },
    { "nsys-2020.5-kmeans.sqlite", "NVIDIA GeForce RTX 3080", 10495524864, "68 SMs, 10 GiB" },
    { "nsys-2021.2-crystal-osrt.sqlite", "Quadro RTX 6000", 25365381120, "72 SMs, 24 GiB" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (exports); i++)
    {
      g_autofree char *path = data_path (exports[i].file);
      g_autoptr(GError) error = NULL;
      g_autoptr(SuanliTrace) trace = import (path, &error);
      SuanliGroup *group;
      SuanliProcess *gpu;

      g_test_message ("%s", exports[i].file);
      g_assert_no_error (error);
      g_assert_null (strstr (warnings_text (trace), "left out"));
      group = suanli_trace_get_group (trace, 0);
      g_assert_cmpstr (suanli_trace_get_string (trace, group->device), ==, exports[i].gpu);
      g_assert_cmpuint (group->device_memory, ==, exports[i].memory);
      gpu = suanli_trace_ensure_process (trace, 0);
      g_assert_cmpstr (suanli_trace_get_string (trace, gpu->labels), ==, exports[i].labels);
    }
}

/* An export made here, as Nsight Systems lays its tables out, for what no real one above has. */
static char *
make_export (const char *sql)
{
  g_autofree char *dir = g_dir_make_tmp ("suanli-nsys-XXXXXX", NULL);
  char *path = g_build_filename (dir, "generated.sqlite", NULL);
  sqlite3 *db = NULL;
  char *message = NULL;

  g_assert_cmpint (sqlite3_open (path, &db), ==, SQLITE_OK);
  if (sqlite3_exec (db, sql, NULL, NULL, &message) != SQLITE_OK)
    g_error ("%s", message);
  sqlite3_close (db);
  return path;
}

#define SCHEMA \
  "CREATE TABLE StringIds (id INTEGER NOT NULL PRIMARY KEY, value TEXT NOT NULL);" \
  "CREATE TABLE TARGET_INFO_SESSION_START_TIME (utcEpochNs INTEGER, utcTime TEXT, localTime TEXT);" \
  "CREATE TABLE TARGET_INFO_GPU (vmId INTEGER, id INTEGER NOT NULL, name TEXT, totalMemory INTEGER, smCount INTEGER);" \
  "CREATE TABLE CUPTI_ACTIVITY_KIND_RUNTIME (start INTEGER NOT NULL, end INTEGER NOT NULL, eventClass INTEGER NOT NULL," \
  " globalTid INTEGER, correlationId INTEGER, nameId INTEGER NOT NULL, returnValue INTEGER NOT NULL, callchainId INTEGER);" \
  "CREATE TABLE CUDA_CALLCHAINS (id INTEGER NOT NULL, symbol INTEGER NOT NULL, module INTEGER NOT NULL," \
  " stackDepth INTEGER NOT NULL, PRIMARY KEY (id, stackDepth));" \
  "CREATE TABLE CUPTI_ACTIVITY_KIND_KERNEL (start INTEGER NOT NULL, end INTEGER NOT NULL, deviceId INTEGER," \
  " contextId INTEGER NOT NULL, streamId INTEGER NOT NULL, correlationId INTEGER, globalPid INTEGER," \
  " demangledName INTEGER NOT NULL, shortName INTEGER NOT NULL, registersPerThread INTEGER NOT NULL," \
  " gridX INTEGER NOT NULL, gridY INTEGER NOT NULL, gridZ INTEGER NOT NULL, blockX INTEGER NOT NULL," \
  " blockY INTEGER NOT NULL, blockZ INTEGER NOT NULL, staticSharedMemory INTEGER NOT NULL," \
  " dynamicSharedMemory INTEGER NOT NULL, graphNodeId INTEGER, graphId INTEGER);" \
  "CREATE TABLE NVTX_EVENTS (start INTEGER NOT NULL, end INTEGER, eventType INTEGER NOT NULL, rangeId INTEGER," \
  " category INTEGER, color INTEGER, text TEXT, globalTid INTEGER, endGlobalTid INTEGER, textId INTEGER, domainId INTEGER);" \
  "CREATE TABLE CUDA_GRAPH_NODE_EVENTS (start INTEGER NOT NULL, end INTEGER NOT NULL, nameId INTEGER NOT NULL," \
  " globalTid INTEGER, graphNodeId INTEGER NOT NULL, originalGraphNodeId INTEGER);" \
  "CREATE TABLE ThreadNames (nameId INTEGER NOT NULL, priority INTEGER, globalTid INTEGER);" \
  "CREATE TABLE PROCESSES (globalPid INTEGER, pid INTEGER, name TEXT);" \
  "CREATE TABLE GPU_METRICS (timestamp INTEGER, typeId INTEGER, metricId INTEGER, value INTEGER);"

/* Thread 101 of process 100, as Nsight Systems serializes it. */
#define TID "((100 << 24) | 101)"

#define ROWS \
  "INSERT INTO StringIds VALUES (1, 'cudaLaunchKernel_v7000'), (2, 'ncclDevKernel_AllReduce_Sum_f32_RING_LL(ncclDevComm *)')," \
  " (3, 'gemm'), (4, 'train_step'), (5, 'libtrainer.so'), (6, 'main'), (7, '/usr/lib/libtrainer.so'), (8, 'worker')," \
  " (9, 'cudaGraphInstantiate'), (10, 'cuLaunchKernel');" \
  "INSERT INTO TARGET_INFO_SESSION_START_TIME VALUES (1700000000000000000, '', '');" \
  "INSERT INTO TARGET_INFO_GPU VALUES (0, 0, 'NVIDIA H100 80GB HBM3', 85520809984, 132);" \
  "INSERT INTO CUPTI_ACTIVITY_KIND_RUNTIME VALUES (1000, 2000, 0, " TID ", 7, 1, 0, 1)," \
  " (3000, 4000, 1, " TID ", 8, 10, 0, NULL);" \
  "INSERT INTO CUDA_CALLCHAINS VALUES (1, 1, 7, 0), (1, 4, 7, 1), (1, 6, 7, 2);" \
  "INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL VALUES (5000, 9000, 0, 1, 7, 7, 100, 2, 2, 32, 8, 1, 1, 256, 1, 1, 0, 0, NULL, NULL)," \
  " (9000, 10000, 0, 1, 7, 8, 100, 3, 3, 64, 4, 4, 1, 128, 1, 1, 1024, 0, 55, 3);" \
  "INSERT INTO NVTX_EVENTS VALUES (0, NULL, 75, NULL, NULL, NULL, 'trainer', " TID ", NULL, NULL, 5)," \
  " (500, 2500, 59, NULL, NULL, NULL, 'forward', " TID ", NULL, NULL, 5)," \
  " (600, 5000, 60, 1, NULL, NULL, 'batch', " TID ", " TID ", NULL, 5)," \
  " (700, 6000, 60, 2, NULL, NULL, 'prefetch', " TID ", " TID ", NULL, 5)," \
  " (800, NULL, 34, NULL, NULL, NULL, 'checkpoint', " TID ", NULL, NULL, 0);" \
  "INSERT INTO CUDA_GRAPH_NODE_EVENTS VALUES (100, 400, 9, " TID ", 55, NULL);" \
  "INSERT INTO ThreadNames VALUES (8, 0, " TID ");" \
  "INSERT INTO PROCESSES VALUES (100 << 24, 100, 'python3');" \
  "INSERT INTO GPU_METRICS VALUES (1, 1, 1, 1);"

static SuanliSlice *
find_slice (SuanliTrace  *trace,
            const char   *name,
            SuanliTrack **track_out)
{
  for (guint t = 0; t < suanli_trace_get_n_tracks (trace); t++)
    {
      SuanliTrack *track = suanli_trace_get_track (trace, t);

      for (guint s = 0; s < track->slices->len; s++)
        if (g_str_equal (suanli_trace_get_string (trace, g_array_index (track->slices, SuanliSlice, s).name), name))
          {
            if (track_out != NULL)
              *track_out = track;
            return &g_array_index (track->slices, SuanliSlice, s);
          }
    }
  return NULL;
}

/* A launch's CPU stack from a CPU sample taken while its call ran (no --cudabacktrace there): on
 * the copy it launched, outermost frame first, down to the call. */
static void
test_sampled_launch_stack (void)
{
  g_autofree char *path = data_path ("nsys-2025.5-vectoradd.sqlite");
  g_autoptr(GError) error = NULL;
  g_autoptr(SuanliTrace) trace = import (path, &error);
  SuanliSlice *copy;

  g_assert_no_error (error);
  copy = find_slice (trace, "Memcpy DtoH (Device -> Pageable)", NULL);
  g_assert_nonnull (copy);
  g_assert_cmpstr (suanli_trace_find_arg_string (trace, copy, "Call stack"), ==,
                   "_start (vecAdd)\n__libc_start_main (libc.so.6)\nmain (vecAdd)\nrunVectorAddTest(int) (vecAdd)\n"
                   "cudaMemcpy (vecAdd)");
}

/* The tables no real export here has: call chains on the kernels they launched (for the flame
 * graph), an NCCL kernel, start/end NVTX ranges and marks, graph events, driver calls, names. */
static void
test_generated_tables (void)
{
  g_autofree char *path = make_export (SCHEMA ROWS);
  g_autoptr(GError) error = NULL;
  g_autoptr(SuanliTrace) trace = import (path, &error);
  SuanliTrack *track = NULL;
  SuanliSlice *slice;
  gboolean marked = FALSE;

  g_assert_no_error (error);
  /* Versioned entry points shown by name; the class tells the driver's calls. */
  slice = find_slice (trace, "cudaLaunchKernel", &track);
  g_assert_nonnull (slice);
  g_assert_cmpint (slice->start, ==, 1700000000000001000);
  g_assert_cmpstr (suanli_trace_get_string (trace, track->name), ==, "worker");
  g_assert_cmpint (track->pid, ==, 100);
  g_assert_cmpint (track->tid, ==, 101);
  slice = find_slice (trace, "cuLaunchKernel", NULL);
  g_assert_cmpstr (suanli_trace_get_string (trace, slice->category), ==, "cuda_driver");
  /* The launch's call chain, outermost first, on its kernel. */
  slice = find_slice (trace, "ncclDevKernel_AllReduce_Sum_f32_RING_LL(ncclDevComm *)", &track);
  g_assert_nonnull (slice);
  g_assert_cmpint (track->kind, ==, SUANLI_TRACK_GPU_STREAM);
  g_assert_cmpstr (suanli_trace_find_arg_string (trace, slice, "Call stack"), ==,
                   "main (libtrainer.so)\ntrain_step (libtrainer.so)\ncudaLaunchKernel_v7000 (libtrainer.so)");
  g_assert_cmpstr (suanli_trace_find_arg_string (trace, slice, "grid"), ==, "[8, 1, 1]");
  slice = find_slice (trace, "gemm", NULL);
  g_assert_cmpstr (suanli_trace_find_arg_string (trace, slice, "Call stack"), ==, NULL);
  {
    gint64 node = 0;

    g_assert_true (suanli_trace_find_arg_int (trace, slice, "graph node", &node));
    g_assert_cmpint (node, ==, 55);
  }
  g_assert_cmpstr (suanli_trace_get_string (trace, find_slice (trace, "cudaGraphInstantiate", NULL)->category), ==,
                   "cuda_graph");
  /* Push/pop on the thread; start/end ranges on a row of their own; the mark an instant. */
  find_slice (trace, "forward", &track);
  g_assert_cmpint (track->kind, ==, SUANLI_TRACK_THREAD);
  slice = find_slice (trace, "batch", &track);
  g_assert_cmpint (track->kind, ==, SUANLI_TRACK_ASYNC);
  g_assert_cmpstr (suanli_trace_get_string (trace, track->name), ==, "NVTX trainer");
  g_assert_cmpstr (suanli_trace_find_arg_string (trace, slice, "domain"), ==, "trainer");
  g_assert_nonnull (find_slice (trace, "prefetch", NULL));
  for (guint t = 0; t < suanli_trace_get_n_tracks (trace); t++)
    for (guint i = 0; i < suanli_trace_get_track (trace, t)->instants->len; i++)
      marked |= g_str_equal (suanli_trace_get_string (trace, g_array_index (suanli_trace_get_track (trace, t)->instants,
                                                                            SuanliInstant, i).name), "checkpoint");
  g_assert_true (marked);
  g_assert_cmpstr (suanli_trace_get_string (trace, suanli_trace_get_group (trace, 0)->device), ==, "NVIDIA H100 80GB HBM3");
  g_assert_nonnull (strstr (warnings_text (trace), "GPU_METRICS (1)"));
  g_assert_cmpuint (suanli_trace_get_flows (trace)->len, ==, 2);
}

/* The same through the command line: the NCCL kernel is communication, the flame graph by launching
 * stack has the call chain's frames, and the export converts to Chrome JSON. */
static void
test_generated_commands (void)
{
  g_autofree char *path = make_export (SCHEMA ROWS);
  g_autofree char *dir = g_path_get_dirname (path);
  g_autofree char *folded = g_build_filename (dir, "gpu.folded", NULL);
  g_autofree char *chrome = g_build_filename (dir, "out.json", NULL);
  g_autoptr(JsonParser) parser = json_parser_new ();
  const char *files[] = { path, NULL };
  JsonObject *summary = summary_json (files, parser);
  g_auto(SuanliTestRun) convert = { 0 };
  g_auto(SuanliTestRun) to_chrome = { 0 };
  g_autofree char *stacks = NULL;
  g_autoptr(JsonParser) reread = json_parser_new ();

  g_assert_cmpint (json_object_get_int_member (gpu_of (summary, 0), "comm_ns"), ==, 4000);
  suanli_test_run_cli (&convert, "en", (const char *[]) { "trace", "convert", path, folded, "--gpu", NULL });
  g_assert_cmpint (convert.status, ==, 0);
  g_assert_true (g_file_get_contents (folded, &stacks, NULL, NULL));
  g_assert_nonnull (strstr (stacks, "main (libtrainer.so);train_step (libtrainer.so)"));
  suanli_test_run_cli (&to_chrome, "en", (const char *[]) { "trace", "convert", path, chrome, NULL });
  g_assert_cmpint (to_chrome.status, ==, 0);
  g_assert_true (json_parser_load_from_file (reread, chrome, NULL));
}

/* identify: an export by its tables, a report answered with the command that exports it. */
static void
test_identify (void)
{
  g_autofree char *report = data_path ("nsys-2026.1-streams.nsys-rep");
  g_autofree char *export = data_path ("nsys-2026.1-streams.sqlite");
  g_autofree char *other = make_export ("CREATE TABLE notes (text TEXT);");
  g_autofree char *expected = NULL;
  g_autofree char *export_stem = g_strndup (report, strlen (report) - strlen (".nsys-rep"));
  g_auto(SuanliTestRun) run = { 0 };
  g_auto(SuanliTestRun) plain = { 0 };

  suanli_test_run_cli (&run, "en", (const char *[]) { "identify", report, export, NULL });
  g_assert_cmpint (run.status, ==, 0);
  expected = g_strdup_printf ("nsys export --type sqlite -o %s.sqlite %s\n", export_stem, report);
  g_assert_nonnull (strstr (run.out, expected));
  g_assert_nonnull (strstr (run.out, "nsys-2026.1-streams.sqlite: Trace, Nsight Systems SQLite export"));
  suanli_test_run_cli (&plain, "en", (const char *[]) { "identify", other, NULL });
  g_assert_cmpint (plain.status, ==, 2);
}

/* A file that only starts like SQLite and a cut export (a real one's first page, then zeros):
 * identify names each once, then what is wrong with it. */
static void
check_identify_names_once (const char *fake,
                           const char *cut)
{
  g_auto(SuanliTestRun) run = { 0 };
  g_autofree char *expected = NULL;

  suanli_test_run_cli (&run, "en", (const char *[]) { "identify", fake, cut, NULL });
  g_assert_cmpint (run.status, ==, 1);
  expected = g_strdup_printf ("%s: not an SQLite database (file is not a database)\n"
                              "%s: SQLite cannot read it: database disk image is malformed\n", fake, cut);
  g_assert_cmpstr (run.err, ==, expected);
}

/* Hostile files: each a clear error, or a warning naming the table and row; never a crash. */
static void
test_hostile (void)
{
  g_autofree char *dir = g_dir_make_tmp ("suanli-nsys-XXXXXX", NULL);
  g_autofree char *fake = g_build_filename (dir, "fake.sqlite", NULL);
  g_autofree char *corrupt = g_build_filename (dir, "corrupt.sqlite", NULL);
  g_autofree char *cut = g_build_filename (dir, "cut.sqlite", NULL);
  g_autofree char *real = data_path ("nsys-2022.4-vecadd-streams.sqlite");
  g_autofree char *bad_rows = make_export (
    SCHEMA ROWS "INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL VALUES ('soon', 9000, 0, 1, 7, 9, 100, 3, 3, 64, 4, 4, 1, 128, 1, 1,"
    " 0, 0, NULL, NULL), (9000, 9500, NULL, 1, 7, 9, 100, 3, 3, 64, 4, 4, 1, 128, 1, 1, 0, 0, NULL, NULL);");
  g_autofree char *not_export = make_export ("CREATE TABLE notes (text TEXT);");
  g_autofree char *empty = make_export ("CREATE TABLE StringIds (id INTEGER PRIMARY KEY, value TEXT);");
  g_autofree char *contents = NULL;
  gsize length = 0;
  g_autoptr(GError) error = NULL;
  g_autoptr(SuanliTrace) trace = NULL;
  static const char not_a_database[] = "SQLite format 3\0and then nothing of a database";

  g_assert_true (g_file_set_contents (fake, not_a_database, sizeof not_a_database, NULL));
  trace = import (fake, &error);
  g_assert_null (trace);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA);
  g_assert_nonnull (strstr (error->message, "fake.sqlite"));
  g_clear_error (&error);

  trace = import (not_export, &error);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA);
  g_assert_nonnull (strstr (error->message, "not an Nsight Systems export"));
  g_clear_error (&error);

  trace = import (empty, &error);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA);
  g_assert_nonnull (strstr (error->message, "holds no trace"));
  g_clear_error (&error);

  /* Text in start and a NULL device: those rows left out, named; the others kept. */
  trace = import (bad_rows, &error);
  g_assert_no_error (error);
  g_assert_nonnull (strstr (warnings_text (trace),
                            "CUPTI_ACTIVITY_KIND_KERNEL: 2 rows were left out; the first, row 3, has text where column start "
                            "holds an integer"));
  g_assert_nonnull (find_slice (trace, "gemm", NULL));
  g_clear_object (&trace);

  g_assert_true (g_file_get_contents (real, &contents, &length, NULL));
  memset (contents + 4096, 0, 100);
  g_assert_true (g_file_set_contents (cut, contents, 4096 + 100, NULL));
  check_identify_names_once (fake, cut);
  g_free (contents);

  /* Pages overwritten in the middle: an error or a warning that names the table, never a crash. */
  g_assert_true (g_file_get_contents (real, &contents, &length, NULL));
  for (gsize at = length / 3; at < length / 3 + 40000 && at < length; at++)
    contents[at] = (char) (at * 131);
  g_assert_true (g_file_set_contents (corrupt, contents, (gssize) length, NULL));
  trace = import (corrupt, &error);
  if (trace == NULL)
    g_assert_nonnull (strstr (error->message, "corrupt.sqlite"));
  else
    g_assert_nonnull (strstr (warnings_text (trace), "row"));
  g_clear_error (&error);
  g_clear_object (&trace);
  g_remove (fake);
  g_remove (corrupt);
  g_remove (cut);
  g_rmdir (dir);
}

/* A table larger than the memory budget: the reading stops at a named row and keeps what it read. */
static void
test_budget (void)
{
  g_autoptr(GString) sql = g_string_new (SCHEMA);
  g_autofree char *path = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(SuanliTrace) trace = NULL;

  g_string_append (sql, "INSERT INTO StringIds VALUES (1, 'cudaLaunchKernel');"
                        "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 200000) "
                        "INSERT INTO CUPTI_ACTIVITY_KIND_RUNTIME SELECT i * 10, i * 10 + 5, 0, " TID ", i, 1, 0, NULL FROM n;");
  path = make_export (sql->str);
  g_setenv ("SUANLI_TRACE_MAX_MEMORY", "1000000", TRUE);
  trace = import (path, &error);
  g_unsetenv ("SUANLI_TRACE_MAX_MEMORY");
  g_assert_no_error (error);
  g_assert_nonnull (strstr (warnings_text (trace), "stopped reading at table CUPTI_ACTIVITY_KIND_RUNTIME, row "));
  g_assert_cmpuint (suanli_trace_get_n_slices (trace), >, 0);
  g_assert_cmpuint (suanli_trace_get_n_slices (trace), <, 200000);
}

static void
on_loaded (GObject      *source,
           GAsyncResult *result,
           gpointer      data)
{
  GAsyncResult **out = data;

  *out = g_object_ref (result);
}

/* Through the loader the views use: on its thread, with its fraction reaching 1; several exports,
 * one group (rank) each; cancelled, an error and no trace. */
static void
test_loader (void)
{
  g_autofree char *a = data_path ("nsys-2026.1-streams.sqlite");
  g_autofree char *b = data_path ("nsys-2022.4-vecadd-streams.sqlite");
  g_autoptr(GFile) first = g_file_new_for_path (a);
  g_autoptr(GFile) second = g_file_new_for_path (b);
  GFile *files[] = { first, second };
  g_autoptr(SuanliTraceLoader) loader = suanli_trace_loader_new (files, 2);
  g_autoptr(SuanliTraceLoader) cancelled = suanli_trace_loader_new (files, 2);
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  GAsyncResult *result = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(SuanliTrace) trace = NULL;
  g_autoptr(SuanliTrace) none = NULL;

  suanli_trace_loader_load_async (loader, NULL, on_loaded, &result);
  while (result == NULL)
    g_main_context_iteration (NULL, TRUE);
  trace = suanli_trace_loader_load_finish (loader, result, &error);
  g_clear_object (&result);
  g_assert_no_error (error);
  g_assert_cmpuint (suanli_trace_get_n_groups (trace), ==, 2);
  g_assert_cmpfloat (suanli_trace_loader_get_fraction (loader), ==, 1.0);
  g_assert_cmpstr (suanli_trace_get_string (trace, suanli_trace_get_group (trace, 1)->device), ==, "Tesla T4");

  g_cancellable_cancel (cancellable);
  suanli_trace_loader_load_async (cancelled, cancellable, on_loaded, &result);
  while (result == NULL)
    g_main_context_iteration (NULL, TRUE);
  none = suanli_trace_loader_load_finish (cancelled, result, &error);
  g_clear_object (&result);
  g_assert_null (none);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/nsys/real-exports", test_real_exports);
  g_test_add_func ("/nsys/nvtx-and-hardware", test_nvtx_and_hardware);
  g_test_add_func ("/nsys/older-gpu-tables", test_older_gpu_tables);
  g_test_add_func ("/nsys/sampled-launch-stack", test_sampled_launch_stack);
  g_test_add_func ("/nsys/generated-tables", test_generated_tables);
  g_test_add_func ("/nsys/generated-commands", test_generated_commands);
  g_test_add_func ("/nsys/identify", test_identify);
  g_test_add_func ("/nsys/hostile", test_hostile);
  g_test_add_func ("/nsys/budget", test_budget);
  g_test_add_func ("/nsys/loader", test_loader);
  return g_test_run ();
}
