/* bench-nsys.c — importing a large Nsight Systems SQLite export, against a bare SELECT of the same
 * columns through libsqlite3 in the same run
 *
 * Generates an export laid out as Nsight Systems writes one (StringIds, CUPTI_ACTIVITY_KIND_RUNTIME,
 * CUPTI_ACTIVITY_KIND_KERNEL, TARGET_INFO_GPU): SUANLI_BENCH_NSYS_EVENTS kernels and as many
 * launches (10,000,000 each makes about 1.3 GB; 1,000,000 by default, for a shared machine), then
 * prints, each the median of SUANLI_BENCH_NSYS_ROUNDS rounds (1 by default):
 *   - the bare SELECT: every row of both tables stepped and each column the importer reads taken;
 *   - Suanli's import of the file (suanli_import_file): rows/s, MB/s, its share of the SELECT's
 *     speed, and the trace's memory per slice.
 * SUANLI_BENCH_NSYS_KEEP=1 keeps the generated file and prints its path.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <stdio.h>
#include <sqlite3.h>
#include <glib/gstdio.h>

#include "suanli-bench.h"
#include "suanli-import.h"

#define N_NAMES 200

static void
exec (sqlite3    *db,
      const char *sql)
{
  char *message = NULL;

  if (sqlite3_exec (db, sql, NULL, NULL, &message) != SQLITE_OK)
    g_error ("%s", message);
}

static void
generate (const char *path,
          guint64     events)
{
  sqlite3 *db = NULL;
  sqlite3_stmt *runtime = NULL, *kernel = NULL, *string = NULL;
  gint64 tid = (G_GINT64_CONSTANT (4242) << 24) | 4243;

  g_assert_cmpint (sqlite3_open (path, &db), ==, SQLITE_OK);
  exec (db, "PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF;"
            "CREATE TABLE StringIds (id INTEGER NOT NULL PRIMARY KEY, value TEXT NOT NULL);"
            "CREATE TABLE TARGET_INFO_SESSION_START_TIME (utcEpochNs INTEGER, utcTime TEXT, localTime TEXT);"
            "CREATE TABLE TARGET_INFO_GPU (vmId INTEGER NOT NULL, id INTEGER NOT NULL, name TEXT, totalMemory INTEGER,"
            " smCount INTEGER);"
            "CREATE TABLE CUPTI_ACTIVITY_KIND_RUNTIME (start INTEGER NOT NULL, end INTEGER NOT NULL,"
            " eventClass INTEGER NOT NULL, globalTid INTEGER, correlationId INTEGER, nameId INTEGER NOT NULL,"
            " returnValue INTEGER NOT NULL, callchainId INTEGER);"
            "CREATE TABLE CUPTI_ACTIVITY_KIND_KERNEL (start INTEGER NOT NULL, end INTEGER NOT NULL,"
            " deviceId INTEGER NOT NULL, contextId INTEGER NOT NULL, streamId INTEGER NOT NULL, correlationId INTEGER,"
            " globalPid INTEGER, demangledName INTEGER NOT NULL, shortName INTEGER NOT NULL, mangledName INTEGER,"
            " launchType INTEGER, cacheConfig INTEGER, registersPerThread INTEGER NOT NULL, gridX INTEGER NOT NULL,"
            " gridY INTEGER NOT NULL, gridZ INTEGER NOT NULL, blockX INTEGER NOT NULL, blockY INTEGER NOT NULL,"
            " blockZ INTEGER NOT NULL, staticSharedMemory INTEGER NOT NULL, dynamicSharedMemory INTEGER NOT NULL,"
            " localMemoryPerThread INTEGER NOT NULL, localMemoryTotal INTEGER NOT NULL, gridId INTEGER NOT NULL,"
            " sharedMemoryExecuted INTEGER, graphNodeId INTEGER, sharedMemoryLimitConfig INTEGER);"
            "INSERT INTO TARGET_INFO_SESSION_START_TIME VALUES (1700000000000000000, '', '');"
            "INSERT INTO TARGET_INFO_GPU VALUES (0, 0, 'NVIDIA H100 80GB HBM3', 85520809984, 132);"
            "BEGIN;");
  sqlite3_prepare_v2 (db, "INSERT INTO StringIds VALUES (?, ?)", -1, &string, NULL);
  for (guint i = 0; i <= N_NAMES; i++)
    {
      g_autofree char *name = i == 0 ? g_strdup ("cudaLaunchKernel_v7000")
                                     : g_strdup_printf ("void gemm_kernel_%u<float, 128, 64>(const float *, float *, int)", i);

      sqlite3_bind_int (string, 1, (int) i);
      sqlite3_bind_text (string, 2, name, -1, SQLITE_TRANSIENT);
      sqlite3_step (string);
      sqlite3_reset (string);
    }
  sqlite3_prepare_v2 (db, "INSERT INTO CUPTI_ACTIVITY_KIND_RUNTIME VALUES (?, ?, 0, ?, ?, 0, 0, NULL)", -1, &runtime, NULL);
  sqlite3_prepare_v2 (db, "INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL VALUES (?, ?, 0, 1, ?, ?, 4242, ?, ?, NULL, 1, 0, 64,"
                          " ?, 1, 1, 256, 1, 1, 0, 4096, 0, 0, ?, NULL, NULL, NULL)", -1, &kernel, NULL);
  for (guint64 i = 0; i < events; i++)
    {
      gint64 launch = (gint64) i * 1000;
      guint name = 1 + (guint) (i % N_NAMES);

      sqlite3_bind_int64 (runtime, 1, launch);
      sqlite3_bind_int64 (runtime, 2, launch + 300);
      sqlite3_bind_int64 (runtime, 3, tid);
      sqlite3_bind_int64 (runtime, 4, (gint64) i + 1);
      sqlite3_step (runtime);
      sqlite3_reset (runtime);
      sqlite3_bind_int64 (kernel, 1, launch + 5000);
      sqlite3_bind_int64 (kernel, 2, launch + 5800);
      sqlite3_bind_int64 (kernel, 3, 7 + (gint64) (i % 4));
      sqlite3_bind_int64 (kernel, 4, (gint64) i + 1);
      sqlite3_bind_int (kernel, 5, (int) name);
      sqlite3_bind_int (kernel, 6, (int) name);
      sqlite3_bind_int64 (kernel, 7, 1 + (gint64) (i % 64) * 16);
      sqlite3_bind_int64 (kernel, 8, (gint64) i);
      sqlite3_step (kernel);
      sqlite3_reset (kernel);
    }
  sqlite3_finalize (string);
  sqlite3_finalize (runtime);
  sqlite3_finalize (kernel);
  exec (db, "COMMIT;");
  sqlite3_close (db);
}

typedef struct
{
  const char *path;
  guint64     rows;
  guint64     slices;
  guint64     memory;
  gint64      checksum;
} Run;

/* Every row of both tables, each column the importer reads taken: SQLite's own speed. */
static void
bare_select (gpointer data)
{
  static const char * const queries[] = {
    "SELECT rowid, start, end, eventClass, globalTid, correlationId, nameId, callchainId FROM CUPTI_ACTIVITY_KIND_RUNTIME",
    "SELECT rowid, start, end, deviceId, streamId, correlationId, demangledName, shortName, registersPerThread, gridX, "
    "gridY, gridZ, blockX, blockY, blockZ, staticSharedMemory, dynamicSharedMemory, graphNodeId, NULL "
    "FROM CUPTI_ACTIVITY_KIND_KERNEL",
  };
  Run *run = data;
  g_autofree char *uri = g_strconcat ("file:", run->path, "?immutable=1", NULL);
  sqlite3 *db = NULL;

  run->rows = 0;
  g_assert_cmpint (sqlite3_open_v2 (uri, &db, SQLITE_OPEN_READONLY | SQLITE_OPEN_URI, NULL), ==, SQLITE_OK);
  for (guint q = 0; q < G_N_ELEMENTS (queries); q++)
    {
      sqlite3_stmt *query = NULL;

      g_assert_cmpint (sqlite3_prepare_v2 (db, queries[q], -1, &query, NULL), ==, SQLITE_OK);
      while (sqlite3_step (query) == SQLITE_ROW)
        {
          for (int c = 0; c < sqlite3_column_count (query); c++)
            run->checksum += sqlite3_column_int64 (query, c);
          run->rows++;
        }
      sqlite3_finalize (query);
    }
  sqlite3_close (db);
}

static void
import (gpointer data)
{
  Run *run = data;
  g_autoptr(SuanliTrace) trace = suanli_trace_new ();
  g_autoptr(GFile) file = g_file_new_for_path (run->path);
  g_autoptr(GError) error = NULL;
  SuanliImportStats stats = { 0 };

  if (!suanli_import_file (trace, file, &stats, NULL, &error))
    g_error ("%s", error->message);
  run->slices = suanli_trace_get_n_slices (trace);
  run->memory = suanli_trace_get_memory_size (trace);
  suanli_import_stats_clear (&stats);
}

static guint64
env_number (const char *name,
            guint64     fallback)
{
  const char *text = g_getenv (name);

  return text != NULL && *text != '\0' ? g_ascii_strtoull (text, NULL, 10) : fallback;
}

int
main (void)
{
  guint64 events = env_number ("SUANLI_BENCH_NSYS_EVENTS", 1000000);
  guint rounds = (guint) MAX (env_number ("SUANLI_BENCH_NSYS_ROUNDS", 1), 1);
  g_autofree char *dir = g_dir_make_tmp ("bench-nsys-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "bench.sqlite", NULL);
  g_autoptr(SuanliBench) select_time = suanli_bench_new ("bare SELECT", "ms");
  g_autoptr(SuanliBench) import_time = suanli_bench_new ("import", "ms");
  Run run = { path, 0, 0, 0, 0 };
  GStatBuf info;
  gint64 started = g_get_monotonic_time ();
  double megabytes, select_rate, import_rate, select_seconds, import_seconds;

  generate (path, events);
  g_assert_cmpint (g_stat (path, &info), ==, 0);
  megabytes = (double) info.st_size / 1e6;
  printf ("export: %" G_GUINT64_FORMAT " kernels and %" G_GUINT64_FORMAT " launches, %.0f MB, written in %.1f s\n",
          events, events, megabytes, (double) (g_get_monotonic_time () - started) / 1e6);
  for (guint r = 0; r < rounds; r++)
    {
      suanli_bench_time (select_time, 1, bare_select, &run);
      suanli_bench_time (import_time, 1, import, &run);
    }
  select_seconds = suanli_bench_median (select_time) / 1000;
  import_seconds = suanli_bench_median (import_time) / 1000;
  select_rate = (double) run.rows / select_seconds;
  import_rate = (double) run.rows / import_seconds;
  suanli_bench_report (select_time);
  suanli_bench_report (import_time);
  printf ("bare SELECT: %.2f M rows/s, %.0f MB/s\n", select_rate / 1e6, megabytes / select_seconds);
  printf ("import:      %.2f M rows/s, %.0f MB/s, %.0f%% of the bare SELECT's speed; %" G_GUINT64_FORMAT
          " slices, %.0f bytes of trace per slice\n",
          import_rate / 1e6, megabytes / import_seconds, 100 * import_rate / select_rate, run.slices,
          run.slices > 0 ? (double) run.memory / (double) run.slices : 0);
  if (g_strcmp0 (g_getenv ("SUANLI_BENCH_NSYS_KEEP"), "1") == 0)
    printf ("kept: %s\n", path);
  else
    {
      g_unlink (path);
      g_rmdir (dir);
    }
  return 0;
}
