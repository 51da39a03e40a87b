/* suanli-nsys-gpu.c — an Nsight Systems export's GPU tables into the trace: kernels, copies,
 * memsets and synchronisations on their device's stream rows (pid = device, tid = stream), with
 * Kineto's categories, names and arguments; and the GPUs themselves from TARGET_INFO_GPU
 * (TARGET_INFO_CUDA_GPU before 2021.2)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>

#include "suanli-nsys-tables.h"

enum {
  KERNEL_START, KERNEL_END, KERNEL_DEVICE, KERNEL_STREAM, KERNEL_CORRELATION, KERNEL_NAME, KERNEL_SHORT_NAME,
  KERNEL_REGISTERS, KERNEL_GRID_X, KERNEL_GRID_Y, KERNEL_GRID_Z, KERNEL_BLOCK_X, KERNEL_BLOCK_Y, KERNEL_BLOCK_Z,
  KERNEL_STATIC_SHARED, KERNEL_DYNAMIC_SHARED, KERNEL_GRAPH_NODE, KERNEL_GRAPH, N_KERNEL_COLUMNS
};

static const NsysColumn kernel_columns[N_KERNEL_COLUMNS] = {
  { "start", NULL }, { "end", NULL }, { "deviceId", NULL }, { "streamId", NULL }, { "correlationId", NULL },
  { "demangledName", NULL }, { "shortName", NULL }, { "registersPerThread", NULL },
  { "gridX", NULL }, { "gridY", NULL }, { "gridZ", NULL }, { "blockX", NULL }, { "blockY", NULL }, { "blockZ", NULL },
  { "staticSharedMemory", NULL }, { "dynamicSharedMemory", NULL }, { "graphNodeId", NULL }, { "graphId", NULL },
};

typedef struct
{
  GHashTable *stacks;
  GHashTable *dimensions;   /* "[x, y, z]" by its three numbers → SuanliString: launches repeat */
} KernelContext;

/* Three sizes as Kineto writes them, "[x, y, z]", made once per distinct triple. */
static SuanliString
dimensions (NsysReader    *reader,
            KernelContext *context,
            gint64         x,
            gint64         y,
            gint64         z)
{
  gint64 key[3] = { x, y, z };
  g_autofree char *text = NULL;
  gpointer found;
  SuanliString string;

  found = g_hash_table_lookup (context->dimensions, key);
  if (found != NULL)
    return GPOINTER_TO_UINT (found);
  text = g_strdup_printf ("[%" G_GINT64_FORMAT ", %" G_GINT64_FORMAT ", %" G_GINT64_FORMAT "]", x, y, z);
  string = suanli_trace_intern (nsys_reader_get_trace (reader), text, -1);
  g_hash_table_insert (context->dimensions, g_memdup2 (key, sizeof key), GUINT_TO_POINTER (string));
  return string;
}

static guint
triple_hash (gconstpointer key)
{
  const gint64 *v = key;

  return (guint) ((v[0] * 1000003) ^ (v[1] * 10007) ^ v[2]);
}

static gboolean
triple_equal (gconstpointer a,
              gconstpointer b)
{
  const gint64 *x = a, *y = b;

  return x[0] == y[0] && x[1] == y[1] && x[2] == y[2];
}

/* The launch's CPU stack, where the host's tables gave one. */
static guint
add_stack (NsysReader *reader,
           GHashTable *stacks,
           gint64      correlation,
           SuanliArg  *args,
           guint       n)
{
  gpointer stack = stacks != NULL ? g_hash_table_lookup (stacks, &correlation) : NULL;

  if (stack == NULL)
    return n;
  args[n] = nsys_reader_string_arg (reader, NSYS_ARG_CALL_STACK, GPOINTER_TO_UINT (stack));
  return n + 1;
}

static void
read_kernel (NsysReader   *reader,
             sqlite3_stmt *row,
             gpointer      data)
{
  KernelContext *context = data;
  gint64 start, duration, device, stream, correlation, registers, grid[3], block[3], shared[2], node, graph;
  SuanliString name;
  SuanliArg args[11];
  guint n = 0;

  if (!nsys_row_times (reader, row, KERNEL_START, KERNEL_END, &start, &duration) ||
      !nsys_row_int (reader, row, KERNEL_DEVICE, &device) || !nsys_row_int (reader, row, KERNEL_STREAM, &stream) ||
      !nsys_row_int_or (reader, row, KERNEL_CORRELATION, 0, &correlation) ||
      !nsys_row_int_or (reader, row, KERNEL_REGISTERS, 0, &registers) ||
      !nsys_row_int_or (reader, row, KERNEL_GRAPH_NODE, 0, &node) || !nsys_row_int_or (reader, row, KERNEL_GRAPH, 0, &graph))
    return;
  for (guint i = 0; i < 3; i++)
    if (!nsys_row_int_or (reader, row, KERNEL_GRID_X + i, 0, &grid[i]) ||
        !nsys_row_int_or (reader, row, KERNEL_BLOCK_X + i, 0, &block[i]))
      return;
  if (!nsys_row_int_or (reader, row, KERNEL_STATIC_SHARED, 0, &shared[0]) ||
      !nsys_row_int_or (reader, row, KERNEL_DYNAMIC_SHARED, 0, &shared[1]))
    return;
  /* The name with its templates and arguments, as Kineto shows it; the short one where it has none. */
  name = nsys_row_text (reader, row, G_MAXUINT, KERNEL_NAME);
  if (name == 0)
    name = nsys_row_text (reader, row, G_MAXUINT, KERNEL_SHORT_NAME);
  args[n++] = nsys_reader_int_arg (reader, NSYS_ARG_CORRELATION, correlation);
  args[n++] = nsys_reader_int_arg (reader, NSYS_ARG_DEVICE, device);
  args[n++] = nsys_reader_int_arg (reader, NSYS_ARG_STREAM, stream);
  args[n++] = nsys_reader_string_arg (reader, NSYS_ARG_GRID, dimensions (reader, context, grid[0], grid[1], grid[2]));
  args[n++] = nsys_reader_string_arg (reader, NSYS_ARG_BLOCK, dimensions (reader, context, block[0], block[1], block[2]));
  args[n++] = nsys_reader_int_arg (reader, NSYS_ARG_REGISTERS, registers);
  args[n++] = nsys_reader_int_arg (reader, NSYS_ARG_SHARED_MEMORY, shared[0] + shared[1]);
  if (graph != 0)
    args[n++] = nsys_reader_int_arg (reader, NSYS_ARG_GRAPH, graph);
  if (node != 0)
    args[n++] = nsys_reader_int_arg (reader, NSYS_ARG_GRAPH_NODE, node);
  n = add_stack (reader, context->stacks, correlation, args, n);
  nsys_reader_add_slice (reader, nsys_reader_stream_track (reader, device, stream), start, duration, name,
                         NSYS_CATEGORY_KERNEL, args, n);
}

gboolean
nsys_read_kernels (NsysReader *reader,
                   GHashTable *stacks)
{
  KernelContext context = { stacks, g_hash_table_new_full (triple_hash, triple_equal, g_free, NULL) };
  gboolean read = nsys_reader_read_table (reader, "CUPTI_ACTIVITY_KIND_KERNEL", kernel_columns, N_KERNEL_COLUMNS,
                                          read_kernel, &context);

  g_hash_table_unref (context.dimensions);
  return read;
}

enum {
  COPY_START, COPY_END, COPY_DEVICE, COPY_STREAM, COPY_CORRELATION, COPY_BYTES, COPY_KIND, COPY_SOURCE_KIND,
  COPY_DESTINATION_KIND, COPY_GRAPH_NODE, N_COPY_COLUMNS
};

static const NsysColumn copy_columns[N_COPY_COLUMNS] = {
  { "start", NULL }, { "end", NULL }, { "deviceId", NULL }, { "streamId", NULL }, { "correlationId", NULL },
  { "bytes", NULL }, { "copyKind", NULL }, { "srcKind", NULL }, { "dstKind", NULL }, { "graphNodeId", NULL },
};

/* CUPTI's CUpti_ActivityMemcpyKind (ENUM_CUDA_MEMCPY_OPER), named as Kineto names copies; the
 * analyses tell the direction from the name. */
static const char *
copy_name (gint64 kind)
{
  static const char * const names[] = {
    "Memcpy", "Memcpy HtoD", "Memcpy DtoH", "Memcpy HtoA", "Memcpy AtoH", "Memcpy AtoA", "Memcpy AtoD", "Memcpy DtoA",
    "Memcpy DtoD", "Memcpy HtoH", "Memcpy PtoP", "Memcpy HtoD (unified memory)", "Memcpy DtoH (unified memory)",
    "Memcpy DtoD (unified memory)",
  };

  return kind >= 0 && kind < (gint64) G_N_ELEMENTS (names) ? names[kind] : names[0];
}

typedef struct
{
  GHashTable *stacks;
  GPtrArray  *memory_kinds;   /* of char *, by id */
} CopyContext;

/* Nsight Systems' ENUM_CUDA_MEM_KIND: the export's own table, else the names its exports of 2022 to
 * 2026 give (not CUPTI's numbering). */
static GPtrArray *
memory_kinds (NsysReader *reader)
{
  static const char * const known[] = {
    "Pageable", "Pinned", "Device", "Array", "Managed", "Device Static", "Managed Static",
  };
  GPtrArray *kinds = g_ptr_array_new_with_free_func (g_free);
  sqlite3_stmt *query = NULL;

  if (nsys_reader_has_table (reader, "ENUM_CUDA_MEM_KIND") &&
      sqlite3_prepare_v2 (nsys_reader_get_db (reader), "SELECT id, label FROM ENUM_CUDA_MEM_KIND", -1, &query, NULL) == SQLITE_OK)
    while (sqlite3_step (query) == SQLITE_ROW)
      {
        gint64 id = sqlite3_column_int64 (query, 0);

        if (id < 0 || id >= 64 || sqlite3_column_type (query, 1) != SQLITE_TEXT ||
            g_ascii_strcasecmp ((const char *) sqlite3_column_text (query, 1), "Unknown") == 0)
          continue;
        if ((guint) id >= kinds->len)
          g_ptr_array_set_size (kinds, (guint) id + 1);
        g_free (g_ptr_array_index (kinds, id));
        g_ptr_array_index (kinds, id) = g_utf8_make_valid ((const char *) sqlite3_column_text (query, 1), -1);
      }
  sqlite3_finalize (query);
  if (kinds->len == 0)
    for (guint i = 0; i < G_N_ELEMENTS (known); i++)
      g_ptr_array_add (kinds, g_strdup (known[i]));
  return kinds;
}

static const char *
memory_kind_name (CopyContext *context,
                  gint64       kind)
{
  return kind >= 0 && kind < (gint64) context->memory_kinds->len ? g_ptr_array_index (context->memory_kinds, kind) : NULL;
}

/* A copy or memset on its stream's row, with Kineto's arguments and its launch's stack. */
static void
add_transfer (NsysReader   *reader,
              CopyContext  *context,
              gint64        start,
              gint64        duration,
              const gint64  ids[4],   /* correlation, bytes, device, stream */
              gint64        node,
              SuanliString  name,
              NsysCategory  category)
{
  static const NsysArg keys[4] = { NSYS_ARG_CORRELATION, NSYS_ARG_BYTES, NSYS_ARG_DEVICE, NSYS_ARG_STREAM };
  SuanliArg args[6];
  guint n = 0;

  for (guint i = 0; i < G_N_ELEMENTS (keys); i++)
    args[n++] = nsys_reader_int_arg (reader, keys[i], ids[i]);
  if (node != 0)
    args[n++] = nsys_reader_int_arg (reader, NSYS_ARG_GRAPH_NODE, node);
  n = add_stack (reader, context->stacks, ids[0], args, n);
  nsys_reader_add_slice (reader, nsys_reader_stream_track (reader, ids[2], ids[3]), start, duration, name, category,
                         args, n);
}

static void
read_copy (NsysReader   *reader,
           sqlite3_stmt *row,
           gpointer      data)
{
  CopyContext *context = data;
  gint64 start, duration, device, stream, correlation, bytes, kind, source, destination, node;
  g_autofree char *name = NULL;

  if (!nsys_row_times (reader, row, COPY_START, COPY_END, &start, &duration) ||
      !nsys_row_int (reader, row, COPY_DEVICE, &device) || !nsys_row_int (reader, row, COPY_STREAM, &stream) ||
      !nsys_row_int_or (reader, row, COPY_CORRELATION, 0, &correlation) || !nsys_row_int (reader, row, COPY_BYTES, &bytes) ||
      !nsys_row_int_or (reader, row, COPY_KIND, 0, &kind) || !nsys_row_int_or (reader, row, COPY_SOURCE_KIND, -1, &source) ||
      !nsys_row_int_or (reader, row, COPY_DESTINATION_KIND, -1, &destination) ||
      !nsys_row_int_or (reader, row, COPY_GRAPH_NODE, 0, &node))
    return;
  if (kind <= 10 && memory_kind_name (context, source) != NULL && memory_kind_name (context, destination) != NULL)
    name = g_strdup_printf ("%s (%s -> %s)", copy_name (kind), memory_kind_name (context, source),
                            memory_kind_name (context, destination));
  add_transfer (reader, context, start, duration, (const gint64[4]) { correlation, bytes, device, stream }, node,
                suanli_trace_intern (nsys_reader_get_trace (reader), name != NULL ? name : copy_name (kind), -1),
                NSYS_CATEGORY_MEMCPY);
}

enum { SET_START, SET_END, SET_DEVICE, SET_STREAM, SET_CORRELATION, SET_BYTES, SET_GRAPH_NODE, N_SET_COLUMNS };

static const NsysColumn set_columns[N_SET_COLUMNS] = {
  { "start", NULL }, { "end", NULL }, { "deviceId", NULL }, { "streamId", NULL }, { "correlationId", NULL },
  { "bytes", NULL }, { "graphNodeId", NULL },
};

static void
read_memset (NsysReader   *reader,
             sqlite3_stmt *row,
             gpointer      data)
{
  CopyContext *context = data;
  gint64 start, duration, device, stream, correlation, bytes, node;

  if (!nsys_row_times (reader, row, SET_START, SET_END, &start, &duration) ||
      !nsys_row_int (reader, row, SET_DEVICE, &device) || !nsys_row_int (reader, row, SET_STREAM, &stream) ||
      !nsys_row_int_or (reader, row, SET_CORRELATION, 0, &correlation) || !nsys_row_int (reader, row, SET_BYTES, &bytes) ||
      !nsys_row_int_or (reader, row, SET_GRAPH_NODE, 0, &node))
    return;
  add_transfer (reader, context, start, duration, (const gint64[4]) { correlation, bytes, device, stream }, node,
                suanli_trace_intern (nsys_reader_get_trace (reader), "Memset (Device)", -1), NSYS_CATEGORY_MEMSET);
}

gboolean
nsys_read_copies (NsysReader *reader,
                  GHashTable *stacks)
{
  CopyContext context = { stacks, memory_kinds (reader) };
  gboolean read = nsys_reader_read_table (reader, "CUPTI_ACTIVITY_KIND_MEMCPY", copy_columns, N_COPY_COLUMNS, read_copy,
                                          &context) &&
                  nsys_reader_read_table (reader, "CUPTI_ACTIVITY_KIND_MEMSET", set_columns, N_SET_COLUMNS, read_memset,
                                          &context);

  g_ptr_array_unref (context.memory_kinds);
  return read;
}

enum { SYNC_START, SYNC_END, SYNC_DEVICE, SYNC_STREAM, SYNC_CORRELATION, SYNC_TYPE, N_SYNC_COLUMNS };

static const NsysColumn sync_columns[N_SYNC_COLUMNS] = {
  { "start", NULL }, { "end", NULL }, { "deviceId", NULL }, { "streamId", NULL }, { "correlationId", NULL },
  { "syncType", NULL },
};

static void
read_sync (NsysReader   *reader,
           sqlite3_stmt *row,
           gpointer      data)
{
  /* CUPTI's CUpti_ActivitySynchronizationType (ENUM_CUPTI_SYNC_TYPE). */
  static const char * const names[] = {
    "Synchronize", "Event Sync", "Stream Wait Event", "Stream Sync", "Context Sync",
  };
  gint64 start, duration, device, stream, correlation, type;
  SuanliArg args[1];

  if (!nsys_row_times (reader, row, SYNC_START, SYNC_END, &start, &duration) ||
      !nsys_row_int (reader, row, SYNC_DEVICE, &device) || !nsys_row_int_or (reader, row, SYNC_STREAM, -1, &stream) ||
      !nsys_row_int_or (reader, row, SYNC_CORRELATION, 0, &correlation) ||
      !nsys_row_int_or (reader, row, SYNC_TYPE, 0, &type))
    return;
  args[0] = nsys_reader_int_arg (reader, NSYS_ARG_CORRELATION, correlation);
  /* A device-wide sync (no stream: -1, written as 2^32 - 1 by some versions) on stream 0's row, as
   * Kineto shows it. */
  if (stream < 0 || stream >= G_MAXUINT32)
    stream = 0;
  nsys_reader_add_slice (reader, nsys_reader_stream_track (reader, device, stream), start, duration,
                         suanli_trace_intern (nsys_reader_get_trace (reader),
                                              names[type >= 0 && type < (gint64) G_N_ELEMENTS (names) ? type : 0], -1),
                         NSYS_CATEGORY_SYNC, args, G_N_ELEMENTS (args));
}

gboolean
nsys_read_syncs (NsysReader *reader)
{
  return nsys_reader_read_table (reader, "CUPTI_ACTIVITY_KIND_SYNCHRONIZATION", sync_columns, N_SYNC_COLUMNS,
                                 read_sync, NULL);
}

enum { GPU_ID, GPU_NAME, GPU_MEMORY, GPU_SMS, N_GPU_COLUMNS };

/* TARGET_INFO_GPU's columns, and TARGET_INFO_CUDA_GPU's names for them (Nsight Systems 2020 and 2021.1). */
static const NsysColumn gpu_columns[N_GPU_COLUMNS] = {
  { "id", "deviceId" }, { "name", NULL }, { "totalMemory", "globalMemorySize" }, { "smCount", "numMultiprocessors" },
};

typedef struct
{
  guint   group;
  GArray *used;   /* of gint64: the devices with work in the trace */
} GpuContext;

static gboolean
has_work (GpuContext *context,
          gint64      device)
{
  for (guint i = 0; i < context->used->len; i++)
    if (g_array_index (context->used, gint64, i) == device)
      return TRUE;
  return FALSE;
}

static void
read_gpu (NsysReader   *reader,
          sqlite3_stmt *row,
          gpointer      data)
{
  GpuContext *context = data;
  SuanliTrace *trace = nsys_reader_get_trace (reader);
  SuanliGroup *group = suanli_trace_get_group (trace, context->group);
  gint64 id, memory, sms;
  SuanliProcess *process;
  g_autofree char *labels = NULL;

  if (!nsys_row_int (reader, row, GPU_ID, &id) || !nsys_row_int_or (reader, row, GPU_MEMORY, 0, &memory) ||
      !nsys_row_int_or (reader, row, GPU_SMS, 0, &sms))
    return;
  /* The machine's other GPUs are listed too: only those the job used get a row. */
  if (!has_work (context, id))
    return;
  /* Nsight Systems 2020.3 wrote globalMemorySize in MiB, later versions in bytes: no GPU has under
   * 1 MiB, nor 2^20 MiB. */
  if (memory > 0 && memory < (1 << 20))
    memory <<= 20;
  process = suanli_trace_ensure_process (trace, id);
  process->name = nsys_row_text (reader, row, GPU_NAME, G_MAXUINT);
  labels = g_strdup_printf ("%" G_GINT64_FORMAT " SMs, %.0f GiB", sms, (double) memory / (1u << 30));
  process->labels = suanli_trace_intern (trace, labels, -1);
  /* The first GPU with work stands for the file's hardware (a job's GPUs are of one model). */
  if (group->device == 0 && process->name != 0)
    {
      group->device = process->name;
      group->device_memory = memory > 0 ? (guint64) memory : 0;
    }
}

/* Names the GPUs the trace's stream rows are on, and the group's device, from TARGET_INFO_CUDA_GPU
 * where the export has it (Nsight Systems 2020 and 2021.1: its TARGET_INFO_GPU, where there is one,
 * has no memory or SM count), else from TARGET_INFO_GPU. */
void
nsys_read_gpus (NsysReader *reader,
                guint       group)
{
  SuanliTrace *trace = nsys_reader_get_trace (reader);
  GpuContext context = { group, g_array_new (FALSE, FALSE, sizeof (gint64)) };

  for (guint t = 0; t < suanli_trace_get_n_tracks (trace); t++)
    {
      SuanliTrack *track = suanli_trace_get_track (trace, t);

      if (track->group == group && track->kind == SUANLI_TRACK_GPU_STREAM && !has_work (&context, track->pid))
        g_array_append_val (context.used, track->pid);
    }
  nsys_reader_read_table (reader,
                          nsys_reader_has_table (reader, "TARGET_INFO_CUDA_GPU") ? "TARGET_INFO_CUDA_GPU" : "TARGET_INFO_GPU",
                          gpu_columns, N_GPU_COLUMNS, read_gpu, &context);
  g_array_unref (context.used);
}
