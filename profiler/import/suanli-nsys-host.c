/* suanli-nsys-host.c — an Nsight Systems export's CPU tables into the trace: CUDA runtime and
 * driver calls (with their launches' call chains), NVTX ranges and marks with their domains, OS
 * runtime calls and CUDA graph events on the rows of the threads that made them; then the
 * threads' and processes' names, and the session's start
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>
#include <glib/gi18n.h>

#include "suanli-nsys-tables.h"

/* Nsight Systems' event classes (ENUM_NSYS_EVENT_CLASS) for the CUDA API table's rows. */
#define EVENT_CLASS_CUDA_DRIVER 1

/* A frame Nsight Systems could not name: an address, or its mark for a stack it could not unwind. */
static gboolean
is_unnamed_frame (const char *symbol)
{
  return *symbol == '\0' || g_str_has_prefix (symbol, "0x") || g_str_has_prefix (symbol, "[Broken");
}

/**
 * nsys_format_callchain:
 * @table: CUDA_CALLCHAINS or SAMPLING_CALLCHAINS (id, symbol, module, stackDepth)
 * @api: (nullable): the API call the chain was taken in: the frames under its own (the CUDA
 *   libraries' insides) are left out
 *
 * Returns: (transfer full) (nullable): the call chain @id as "Call stack" text: outermost frame
 * first, one "function (library)" a line, unnamed frames left out; NULL when none is left.
 */
char *
nsys_format_callchain (NsysReader *reader,
                       const char *table,
                       gint64      id,
                       const char *api)
{
  g_autofree char *sql = g_strdup_printf ("SELECT symbol, module FROM %s WHERE id = ? ORDER BY stackDepth DESC", table);
  SuanliTrace *trace = nsys_reader_get_trace (reader);
  sqlite3_stmt *query = NULL;
  GString *text = g_string_new (NULL);

  nsys_reader_mark_read (reader, table);
  if (sqlite3_prepare_v2 (nsys_reader_get_db (reader), sql, -1, &query, NULL) == SQLITE_OK)
    {
      sqlite3_bind_int64 (query, 1, id);
      while (sqlite3_step (query) == SQLITE_ROW)
        {
          const char *symbol = sqlite3_column_type (query, 0) == SQLITE_INTEGER
                               ? suanli_trace_get_string (trace, nsys_reader_string (reader, sqlite3_column_int64 (query, 0)))
                               : "";
          g_autofree char *module = sqlite3_column_type (query, 1) == SQLITE_INTEGER
                                    ? g_path_get_basename (suanli_trace_get_string (
                                          trace, nsys_reader_string (reader, sqlite3_column_int64 (query, 1))))
                                    : NULL;

          if (is_unnamed_frame (symbol))
            continue;
          if (text->len > 0)
            g_string_append_c (text, '\n');
          g_string_append (text, symbol);
          if (module != NULL && *module != '\0' && strcmp (module, ".") != 0)
            g_string_append_printf (text, " (%s)", module);
          if (api != NULL && g_str_equal (symbol, api))
            break;
        }
    }
  sqlite3_finalize (query);
  if (text->len == 0)
    {
      g_string_free (text, TRUE);
      return NULL;
    }
  return g_string_free (text, FALSE);
}

/* A CPU sample: when, on which thread, and its call chain's id. */
typedef struct
{
  gint64 thread;
  gint64 time;
  gint64 id;
} Sample;

static int
compare_samples (gconstpointer a,
                 gconstpointer b)
{
  const Sample *x = a, *y = b;

  if (x->thread != y->thread)
    return x->thread < y->thread ? -1 : 1;
  return x->time < y->time ? -1 : x->time > y->time;
}

/* The CPU samples (COMPOSITE_EVENTS), by thread and time, when the export has their call chains. */
static GArray *
read_samples (NsysReader *reader)
{
  GArray *samples = g_array_new (FALSE, FALSE, sizeof (Sample));
  sqlite3_stmt *query = NULL;

  if (!nsys_reader_has_table (reader, "COMPOSITE_EVENTS") || !nsys_reader_has_table (reader, "SAMPLING_CALLCHAINS"))
    return samples;
  nsys_reader_mark_read (reader, "COMPOSITE_EVENTS");
  if (sqlite3_prepare_v2 (nsys_reader_get_db (reader), "SELECT globalTid, start, id FROM COMPOSITE_EVENTS", -1, &query,
                          NULL) == SQLITE_OK)
    while (sqlite3_step (query) == SQLITE_ROW)
      if (sqlite3_column_type (query, 0) == SQLITE_INTEGER && sqlite3_column_type (query, 1) == SQLITE_INTEGER &&
          sqlite3_column_type (query, 2) == SQLITE_INTEGER)
        {
          Sample sample = { sqlite3_column_int64 (query, 0), sqlite3_column_int64 (query, 1), sqlite3_column_int64 (query, 2) };

          g_array_append_val (samples, sample);
        }
  sqlite3_finalize (query);
  g_array_sort (samples, compare_samples);
  return samples;
}

/* The first sample of @thread taken within [@start, @end]: the CPU stack while that call ran. */
static const Sample *
sample_within (GArray *samples,
               gint64  thread,
               gint64  start,
               gint64  end)
{
  guint low = 0, high = samples->len;
  const Sample *sample;

  while (low < high)
    {
      guint middle = low + (high - low) / 2;
      const Sample *at = &g_array_index (samples, Sample, middle);

      if (at->thread < thread || (at->thread == thread && at->time < start))
        low = middle + 1;
      else
        high = middle;
    }
  if (low == samples->len)
    return NULL;
  sample = &g_array_index (samples, Sample, low);
  return sample->thread == thread && sample->time <= end ? sample : NULL;
}

enum { API_START, API_END, API_CLASS, API_THREAD, API_CORRELATION, API_NAME, API_CALLCHAIN, N_API_COLUMNS };

static const NsysColumn api_columns[N_API_COLUMNS] = {
  { "start", NULL }, { "end", NULL }, { "eventClass", NULL }, { "globalTid", NULL }, { "correlationId", NULL },
  { "nameId", NULL }, { "callchainId", NULL },
};

typedef struct
{
  GHashTable *stacks;       /* correlation → "Call stack" */
  GHashTable *callchains;   /* CUDA_CALLCHAINS id → "Call stack" (0: none) */
  GHashTable *sampled;      /* SAMPLING_CALLCHAINS id → "Call stack" (0: none) */
  GHashTable *names;        /* a name as the export gives it → as shown */
  GArray     *samples;      /* of Sample */
} ApiContext;

/* Nsight Systems names API calls by the version of their entry point ("cudaMalloc_v3020",
 * "cudaLaunchKernel_v7000"); Kineto and CUDA's documentation by the function's name alone. */
static SuanliString
api_name (NsysReader   *reader,
          ApiContext   *context,
          SuanliString  name)
{
  SuanliTrace *trace = nsys_reader_get_trace (reader);
  gpointer found;
  const char *text, *suffix;
  gsize digits;

  if (g_hash_table_lookup_extended (context->names, GUINT_TO_POINTER (name), NULL, &found))
    return GPOINTER_TO_UINT (found);
  text = suanli_trace_get_string (trace, name);
  suffix = strrchr (text, '_');
  digits = suffix != NULL && suffix[1] == 'v' ? strspn (suffix + 2, "0123456789") : 0;
  found = GUINT_TO_POINTER (name);
  if (digits > 0 && suffix > text && suffix[2 + digits] == '\0')
    found = GUINT_TO_POINTER (suanli_trace_intern (trace, text, suffix - text));
  g_hash_table_insert (context->names, GUINT_TO_POINTER (name), found);
  return GPOINTER_TO_UINT (found);
}

static SuanliString
callchain_text (NsysReader *reader,
                GHashTable *cache,
                const char *table,
                gint64      id,
                const char *api)
{
  gpointer found;
  g_autofree char *text = NULL;
  SuanliString string = 0;

  if (g_hash_table_lookup_extended (cache, &id, NULL, &found))
    return GPOINTER_TO_UINT (found);
  text = nsys_format_callchain (reader, table, id, api);
  if (text != NULL)
    string = suanli_trace_intern (nsys_reader_get_trace (reader), text, -1);
  g_hash_table_insert (cache, g_memdup2 (&id, sizeof id), GUINT_TO_POINTER (string));
  return string;
}

/* The launch's CPU stack: its CUDA call chain (nsys --cudabacktrace), else a CPU sample taken while
 * the call ran, cut at the call itself. */
static SuanliString
launch_stack (NsysReader *reader,
              ApiContext *context,
              gint64      callchain,
              gint64      thread,
              gint64      start,
              gint64      duration,
              const char *api)
{
  const Sample *sample;

  if (callchain >= 0 && nsys_reader_has_table (reader, "CUDA_CALLCHAINS"))
    return callchain_text (reader, context->callchains, "CUDA_CALLCHAINS", callchain, NULL);
  sample = sample_within (context->samples, thread, start, start + duration);
  if (sample == NULL)
    return 0;
  return callchain_text (reader, context->sampled, "SAMPLING_CALLCHAINS", sample->id, api);
}

static void
read_api_call (NsysReader   *reader,
               sqlite3_stmt *row,
               gpointer      data)
{
  ApiContext *context = data;
  gint64 start, duration, event_class, thread, correlation, callchain;
  SuanliString name;
  SuanliArg args[1];
  NsysCategory category;

  if (!nsys_row_times (reader, row, API_START, API_END, &start, &duration) ||
      !nsys_row_int_or (reader, row, API_CLASS, -1, &event_class) || !nsys_row_int (reader, row, API_THREAD, &thread) ||
      !nsys_row_int_or (reader, row, API_CORRELATION, 0, &correlation) ||
      !nsys_row_int_or (reader, row, API_CALLCHAIN, -1, &callchain))
    return;
  name = api_name (reader, context, nsys_row_text (reader, row, G_MAXUINT, API_NAME));
  /* The table holds both APIs; the class says which, else the name (cu… is the driver's). */
  if (event_class >= 0)
    category = event_class == EVENT_CLASS_CUDA_DRIVER ? NSYS_CATEGORY_DRIVER : NSYS_CATEGORY_RUNTIME;
  else
    category = g_str_has_prefix (suanli_trace_get_string (nsys_reader_get_trace (reader), name), "cuda")
               ? NSYS_CATEGORY_RUNTIME : NSYS_CATEGORY_DRIVER;
  args[0] = nsys_reader_int_arg (reader, NSYS_ARG_CORRELATION, correlation);
  nsys_reader_add_slice (reader, nsys_reader_thread_track (reader, thread), start, duration, name, category, args,
                         correlation != 0 ? 1 : 0);
  if (correlation != 0)
    {
      SuanliString stack = launch_stack (reader, context, callchain, thread, start, duration,
                                         suanli_trace_get_string (nsys_reader_get_trace (reader), name));

      if (stack != 0)
        g_hash_table_insert (context->stacks, g_memdup2 (&correlation, sizeof correlation), GUINT_TO_POINTER (stack));
    }
}

/* The CUDA runtime and driver calls; each launch's CPU stack, where the export has one, into @stacks. */
gboolean
nsys_read_api_calls (NsysReader *reader,
                     GHashTable *stacks)
{
  ApiContext context = {
    stacks, g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, NULL),
    g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, NULL), g_hash_table_new (NULL, NULL), NULL,
  };
  gboolean read;

  context.samples = read_samples (reader);
  read = nsys_reader_read_table (reader, "CUPTI_ACTIVITY_KIND_RUNTIME", api_columns, N_API_COLUMNS, read_api_call,
                                 &context);
  g_hash_table_unref (context.callchains);
  g_hash_table_unref (context.sampled);
  g_hash_table_unref (context.names);
  g_array_unref (context.samples);
  return read;
}

enum { NVTX_START, NVTX_END, NVTX_TYPE, NVTX_TEXT, NVTX_TEXT_ID, NVTX_THREAD, NVTX_DOMAIN, N_NVTX_COLUMNS };

static const NsysColumn nvtx_columns[N_NVTX_COLUMNS] = {
  { "start", NULL }, { "end", NULL }, { "eventType", NULL }, { "text", NULL }, { "textId", NULL },
  { "globalTid", NULL }, { "domainId", NULL },
};

/* NVTX's event types (ENUM_NSYS_EVENT_TYPE), by the names the export's own enum table gives them;
 * the numbers are those of every version seen when it has none. */
typedef struct
{
  gint64      push_pop, start_end, mark, domain_create;
  GHashTable *domains;   /* domain id → SuanliString */
} NvtxContext;

static gint64
event_type (NsysReader *reader,
            const char *name,
            gint64      fallback)
{
  sqlite3_stmt *query = NULL;
  gint64 id = fallback;

  if (!nsys_reader_has_table (reader, "ENUM_NSYS_EVENT_TYPE"))
    return fallback;
  if (sqlite3_prepare_v2 (nsys_reader_get_db (reader), "SELECT id FROM ENUM_NSYS_EVENT_TYPE WHERE name = ?", -1, &query,
                          NULL) == SQLITE_OK)
    {
      sqlite3_bind_text (query, 1, name, -1, SQLITE_STATIC);
      if (sqlite3_step (query) == SQLITE_ROW && sqlite3_column_type (query, 0) == SQLITE_INTEGER)
        id = sqlite3_column_int64 (query, 0);
    }
  sqlite3_finalize (query);
  return id;
}

/* The domains' names, from their NvtxDomainCreate events. */
static void
read_domains (NsysReader  *reader,
              NvtxContext *context)
{
  sqlite3_stmt *query = NULL;

  if (!nsys_reader_has_column (reader, "NVTX_EVENTS", "domainId") || !nsys_reader_has_column (reader, "NVTX_EVENTS", "text"))
    return;
  if (sqlite3_prepare_v2 (nsys_reader_get_db (reader),
                          "SELECT domainId, text FROM NVTX_EVENTS WHERE eventType = ? AND text IS NOT NULL", -1, &query,
                          NULL) == SQLITE_OK)
    {
      sqlite3_bind_int64 (query, 1, context->domain_create);
      while (sqlite3_step (query) == SQLITE_ROW)
        if (sqlite3_column_type (query, 0) == SQLITE_INTEGER && sqlite3_column_type (query, 1) == SQLITE_TEXT)
          {
            gint64 id = sqlite3_column_int64 (query, 0);
            g_autofree char *name = g_utf8_make_valid ((const char *) sqlite3_column_text (query, 1),
                                                       sqlite3_column_bytes (query, 1));

            g_hash_table_insert (context->domains, g_memdup2 (&id, sizeof id),
                                 GUINT_TO_POINTER (suanli_trace_intern (nsys_reader_get_trace (reader), name, -1)));
          }
    }
  sqlite3_finalize (query);
}

static void
read_nvtx_event (NsysReader   *reader,
                 sqlite3_stmt *row,
                 gpointer      data)
{
  NvtxContext *context = data;
  SuanliTrace *trace = nsys_reader_get_trace (reader);
  gint64 start, end, duration, type, thread, domain_id;
  SuanliString name, domain;
  SuanliArg args[1];
  SuanliTrack *track;

  if (!nsys_row_int (reader, row, NVTX_TYPE, &type))
    return;
  if (type != context->push_pop && type != context->start_end && type != context->mark)
    return;   /* domain and category names, thread names: no event of their own */
  if (!nsys_row_int (reader, row, NVTX_START, &start) || !nsys_row_int_or (reader, row, NVTX_THREAD, 0, &thread) ||
      !nsys_row_int_or (reader, row, NVTX_DOMAIN, 0, &domain_id))
    return;
  name = nsys_row_text (reader, row, NVTX_TEXT, NVTX_TEXT_ID);
  domain = GPOINTER_TO_UINT (g_hash_table_lookup (context->domains, &domain_id));
  if (type == context->mark)
    {
      SuanliInstant instant = { nsys_reader_time (reader, start), name, nsys_reader_category (reader, NSYS_CATEGORY_NVTX) };

      if (!nsys_row_times (reader, row, NVTX_START, NVTX_START, &start, &duration))
        return;
      g_array_append_val (nsys_reader_thread_track (reader, thread)->instants, instant);
      nsys_reader_count (reader, NSYS_CATEGORY_NVTX);
      return;
    }
  /* A range never ended (the application stopped first) is shown as long as its start. */
  if (!nsys_row_int_or (reader, row, NVTX_END, start, &end))
    return;
  if (!nsys_row_times (reader, row, NVTX_START, sqlite3_column_type (row, NVTX_END + 1) == SQLITE_NULL ? NVTX_START : NVTX_END,
                       &start, &duration))
    return;
  args[0] = nsys_reader_string_arg (reader, NSYS_ARG_DOMAIN, domain);
  /* Push/pop ranges nest on their thread; start/end ranges may span threads and overlap, so they
   * take a row of their own per process and domain, as Kineto's async events do. */
  if (type == context->push_pop)
    track = nsys_reader_thread_track (reader, thread);
  else
    {
      g_autofree char *row_name = domain != 0 ? g_strdup_printf ("NVTX %s", suanli_trace_get_string (trace, domain))
                                              : g_strdup ("NVTX");

      track = suanli_trace_ensure_track (trace, SUANLI_TRACK_ASYNC, NSYS_PID (thread), domain_id,
                                         suanli_trace_intern (trace, row_name, -1), NULL);
    }
  nsys_reader_add_slice (reader, track, start, duration, name, NSYS_CATEGORY_NVTX, args, domain != 0 ? 1 : 0);
}

gboolean
nsys_read_nvtx (NsysReader *reader)
{
  NvtxContext context;
  gboolean read;

  if (!nsys_reader_has_table (reader, "NVTX_EVENTS"))
    return TRUE;
  context.push_pop = event_type (reader, "NvtxPushPopRange", 59);
  context.start_end = event_type (reader, "NvtxStartEndRange", 60);
  context.mark = event_type (reader, "NvtxMark", 34);
  context.domain_create = event_type (reader, "NvtxDomainCreate", 75);
  context.domains = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, NULL);
  read_domains (reader, &context);
  read = nsys_reader_read_table (reader, "NVTX_EVENTS", nvtx_columns, N_NVTX_COLUMNS, read_nvtx_event, &context);
  g_hash_table_unref (context.domains);
  return read;
}

enum { CALL_START, CALL_END, CALL_THREAD, CALL_NAME, CALL_GRAPH_NODE, CALL_GRAPH, N_CALL_COLUMNS };

static const NsysColumn call_columns[N_CALL_COLUMNS] = {
  { "start", NULL }, { "end", NULL }, { "globalTid", NULL }, { "nameId", NULL }, { "graphNodeId", NULL },
  { "graphId", NULL },
};

/* A call on a CPU thread, of the category @data points to. */
static void
read_host_call (NsysReader   *reader,
                sqlite3_stmt *row,
                gpointer      data)
{
  NsysCategory category = *(const NsysCategory *) data;
  gint64 start, duration, thread, node, graph;
  SuanliArg args[2];
  guint n = 0;

  if (!nsys_row_times (reader, row, CALL_START, CALL_END, &start, &duration) ||
      !nsys_row_int (reader, row, CALL_THREAD, &thread) || !nsys_row_int_or (reader, row, CALL_GRAPH_NODE, 0, &node) ||
      !nsys_row_int_or (reader, row, CALL_GRAPH, 0, &graph))
    return;
  if (graph != 0)
    args[n++] = nsys_reader_int_arg (reader, NSYS_ARG_GRAPH, graph);
  if (node != 0)
    args[n++] = nsys_reader_int_arg (reader, NSYS_ARG_GRAPH_NODE, node);
  nsys_reader_add_slice (reader, nsys_reader_thread_track (reader, thread), start, duration,
                         nsys_row_text (reader, row, G_MAXUINT, CALL_NAME), category, args, n);
}

gboolean
nsys_read_os_runtime (NsysReader *reader)
{
  static const NsysCategory category = NSYS_CATEGORY_OS_RUNTIME;

  return nsys_reader_read_table (reader, "OSRT_API", call_columns, N_CALL_COLUMNS, read_host_call, (gpointer) &category);
}

/* CUDA graph events: their creation, instantiation and nodes' capture on the CPU (the graph's
 * kernels are in the kernel table, with their graph node). */
gboolean
nsys_read_graph_events (NsysReader *reader)
{
  static const NsysCategory category = NSYS_CATEGORY_GRAPH;

  return nsys_reader_read_table (reader, "CUDA_GRAPH_NODE_EVENTS", call_columns, N_CALL_COLUMNS, read_host_call,
                                 (gpointer) &category) &&
         nsys_reader_read_table (reader, "CUDA_GRAPH_EVENTS", call_columns, N_CALL_COLUMNS, read_host_call,
                                 (gpointer) &category);
}

enum { THREAD_NAME, THREAD_ID, N_THREAD_COLUMNS };
static const NsysColumn thread_columns[N_THREAD_COLUMNS] = { { "nameId", NULL }, { "globalTid", NULL } };

enum { PROCESS_GLOBAL, PROCESS_PID, PROCESS_NAME, N_PROCESS_COLUMNS };
static const NsysColumn process_columns[N_PROCESS_COLUMNS] = {
  { "globalPid", NULL }, { "pid", NULL }, { "name", NULL },
};

typedef struct
{
  guint       group;
  GHashTable *threads;     /* "pid:tid" → SuanliTrack, the group's CPU rows */
  GHashTable *processes;   /* pid → 1, the processes with CPU rows and no GPU's */
} NameContext;

static void
read_thread_name (NsysReader   *reader,
                  sqlite3_stmt *row,
                  gpointer      data)
{
  NameContext *context = data;
  gint64 thread;
  g_autofree char *key = NULL;
  SuanliTrack *track;

  if (!nsys_row_int (reader, row, THREAD_ID, &thread))
    return;
  key = g_strdup_printf ("%" G_GINT64_FORMAT ":%" G_GINT64_FORMAT, (gint64) NSYS_PID (thread), (gint64) NSYS_TID (thread));
  track = g_hash_table_lookup (context->threads, key);
  if (track != NULL)
    track->name = nsys_row_text (reader, row, G_MAXUINT, THREAD_NAME);
}

static void
read_process_name (NsysReader   *reader,
                   sqlite3_stmt *row,
                   gpointer      data)
{
  NameContext *context = data;
  gint64 global, pid;

  if (!nsys_row_int_or (reader, row, PROCESS_GLOBAL, 0, &global) || !nsys_row_int_or (reader, row, PROCESS_PID, -1, &pid))
    return;
  if (pid < 0)
    pid = NSYS_PID (global);
  if (g_hash_table_contains (context->processes, &pid))
    suanli_trace_ensure_process (nsys_reader_get_trace (reader), pid)->name =
      nsys_row_text (reader, row, PROCESS_NAME, G_MAXUINT);
}

/* Names the group's threads (ThreadNames) and processes (PROCESSES): only those with rows, of the
 * machine's hundreds the export lists. */
void
nsys_read_names (NsysReader *reader)
{
  SuanliTrace *trace = nsys_reader_get_trace (reader);
  guint group = suanli_trace_get_n_groups (trace) - 1;
  NameContext context = {
    group, g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL),
    g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, NULL),
  };
  g_autoptr(GHashTable) devices = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, NULL);

  for (guint t = 0; t < suanli_trace_get_n_tracks (trace); t++)
    {
      SuanliTrack *track = suanli_trace_get_track (trace, t);

      if (track->group != group)
        continue;
      if (track->kind == SUANLI_TRACK_GPU_STREAM)
        g_hash_table_add (devices, g_memdup2 (&track->pid, sizeof track->pid));
      else if (track->kind == SUANLI_TRACK_THREAD)
        {
          g_hash_table_insert (context.threads,
                               g_strdup_printf ("%" G_GINT64_FORMAT ":%" G_GINT64_FORMAT, track->pid, track->tid), track);
          g_hash_table_add (context.processes, g_memdup2 (&track->pid, sizeof track->pid));
        }
    }
  {
    GHashTableIter iter;
    gpointer device;

    g_hash_table_iter_init (&iter, devices);
    while (g_hash_table_iter_next (&iter, &device, NULL))
      g_hash_table_remove (context.processes, device);
  }
  nsys_reader_read_table (reader, "ThreadNames", thread_columns, N_THREAD_COLUMNS, read_thread_name, &context);
  nsys_reader_read_table (reader, "PROCESSES", process_columns, N_PROCESS_COLUMNS, read_process_name, &context);
  g_hash_table_unref (context.threads);
  g_hash_table_unref (context.processes);
}

enum { SESSION_UTC, N_SESSION_COLUMNS };
static const NsysColumn session_columns[N_SESSION_COLUMNS] = { { "utcEpochNs", NULL } };

static void
read_session_start (NsysReader   *reader,
                    sqlite3_stmt *row,
                    gpointer      data)
{
  gint64 utc;

  /* A start no clock gives is left as 0: the times stay relative to the session. */
  if (nsys_row_int (reader, row, SESSION_UTC, &utc) && utc > 0 && utc < (G_GINT64_CONSTANT (1) << 61))
    nsys_reader_set_time_origin (reader, utc);
}

/* The session's start in UTC, so that several exports (one per rank) line up on one clock. */
void
nsys_read_session_start (NsysReader *reader)
{
  nsys_reader_read_table (reader, "TARGET_INFO_SESSION_START_TIME", session_columns, N_SESSION_COLUMNS,
                          read_session_start, NULL);
}
