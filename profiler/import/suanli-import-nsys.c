/* suanli-import-nsys.c — reading an Nsight Systems SQLite export (nsys export --type sqlite, or
 * nsys stats, which writes the same file) into a trace, as the Chrome importer reads a Kineto trace
 *
 * The file is read with SQLite itself, read-only and immutable (suanli-nsys-reader.c), the tables
 * one after another in the order their rows need each other: the session's start (the clock), the
 * CUDA API calls (whose call chains the kernels they launched carry), NVTX, OS runtime calls, CUDA
 * graph events, then the GPU's kernels, copies, memsets and syncs, and last the names of the
 * threads, processes and GPUs that have rows. Launches are joined to their GPU work by correlation
 * id, as in a Kineto trace. A table the importer does not read is named in the trace's warnings.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>
#include <glib/gi18n.h>
#include <glib/gstdio.h>

#include "suanli-analysis.h"
#include "suanli-import-links.h"
#include "suanli-import-nsys.h"
#include "suanli-nsys-tables.h"

/* Tables of what the export describes, not events: read where needed, never listed as left out. */
static gboolean
is_description (const char *table)
{
  static const char * const prefixes[] = { "ENUM_", "META_DATA_", "TARGET_INFO_", "ANALYSIS_" };
  static const char * const names[] = {
    "EXPORT_META_DATA", "StringIds", "ProcessStreams", "UnwindMethodType", "PROFILER_OVERHEAD", "DIAGNOSTIC_EVENT",
    "sqlite_sequence", "sqlite_stat1",
  };

  for (guint i = 0; i < G_N_ELEMENTS (prefixes); i++)
    if (g_str_has_prefix (table, prefixes[i]))
      return TRUE;
  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    if (g_str_equal (table, names[i]))
      return TRUE;
  return FALSE;
}

/* Tables only an Nsight Systems export has: a database with none of them is someone else's. */
static gboolean
is_nsys_export (NsysReader *reader)
{
  static const char * const tables[] = {
    "StringIds", "TARGET_INFO_SESSION_START_TIME", "META_DATA_EXPORT", "EXPORT_META_DATA", "CUPTI_ACTIVITY_KIND_KERNEL",
    "CUPTI_ACTIVITY_KIND_RUNTIME", "NVTX_EVENTS",
  };

  for (guint i = 0; i < G_N_ELEMENTS (tables); i++)
    if (nsys_reader_has_table (reader, tables[i]))
      return TRUE;
  return FALSE;
}

/* One warning naming the tables with rows that nothing here shows (CPU sampling, scheduling, the
 * events of APIs Suanli does not chart), so that no one takes their absence for an empty table. */
static void
warn_unread (NsysReader  *reader,
             SuanliTrace *trace)
{
  g_autoptr(GPtrArray) unread = nsys_reader_unread_tables (reader);
  g_autoptr(GString) list = g_string_new (NULL);
  g_autofree char *warning = NULL;

  for (guint i = 0; i < unread->len; i++)
    {
      const char *table = g_ptr_array_index (unread, i);
      guint64 rows;

      if (is_description (table) || (rows = nsys_reader_estimate_rows (reader, table)) == 0)
        continue;
      g_string_append_printf (list, "%s%s (%llu)", list->len > 0 ? ", " : "", table, (unsigned long long) rows);
    }
  if (list->len == 0)
    return;
  warning = g_strdup_printf (_("Tables of the Nsight Systems export that Suanli does not show (rows): %s"), list->str);
  /* Listed, not toasted: nearly every export has such a table (SCHED_EVENTS). */
  suanli_trace_add_note (trace, warning);
}

static gboolean
read_events (NsysReader *reader)
{
  g_autoptr(GHashTable) stacks = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, NULL);

  nsys_read_session_start (reader);
  return nsys_read_api_calls (reader, stacks) && nsys_read_nvtx (reader) && nsys_read_os_runtime (reader) &&
         nsys_read_graph_events (reader) && nsys_read_kernels (reader, stacks) && nsys_read_copies (reader, stacks) &&
         nsys_read_syncs (reader);
}

static guint64
holds (SuanliTrace *trace,
       guint        group)
{
  guint64 events = 0;

  for (guint t = 0; t < suanli_trace_get_n_tracks (trace); t++)
    {
      SuanliTrack *track = suanli_trace_get_track (trace, t);

      if (track->group == group)
        events += track->slices->len + track->instants->len;
    }
  return events;
}

/**
 * suanli_import_nsys:
 * @path: the export: a file, as SQLite reads only files
 * @name: the file as errors and the trace's group name it
 * @progress: (nullable): grows, atomically, by the file's size over the reading
 *
 * Reads the export into @trace (which may hold other ranks already) as a group of its own.
 * Returns: FALSE with @error when nothing could be read (not SQLite, not an export, cancelled, no
 * event in it); a fault after some rows keeps what was read and says where in a warning.
 */
gboolean
suanli_import_nsys (SuanliTrace       *trace,
                    const char        *path,
                    const char        *name,
                    SuanliImportStats *stats,
                    gsize             *progress,
                    GCancellable      *cancellable,
                    GError           **error)
{
  NsysReader *reader = nsys_reader_open (trace, path, name, cancellable, error);
  GStatBuf info;
  g_autoptr(GError) fault = NULL;
  guint group;

  if (reader == NULL)
    return FALSE;
  if (!is_nsys_export (reader))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                   _("%s: an SQLite database, but not an Nsight Systems export: it has no StringIds, "
                     "CUPTI_ACTIVITY_KIND_* or NVTX_EVENTS table"), name);
      nsys_reader_free (reader);
      return FALSE;
    }
  group = suanli_trace_begin_group (trace, name);
  nsys_reader_set_progress (reader, progress, g_stat (path, &info) == 0 ? (guint64) info.st_size : 0);
  read_events (reader);
  fault = nsys_reader_take_error (reader);
  if (fault != NULL && (g_error_matches (fault, G_IO_ERROR, G_IO_ERROR_CANCELLED) || holds (trace, group) == 0))
    {
      g_propagate_error (error, g_steal_pointer (&fault));
      nsys_reader_free (reader);
      return FALSE;
    }
  if (holds (trace, group) == 0)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                   _("%s: holds no trace: no CUDA, NVTX or OS runtime event (was it recorded with --trace=cuda,nvtx?)"),
                   name);
      nsys_reader_free (reader);
      return FALSE;
    }
  if (fault != NULL)
    {
      g_autofree char *warning = g_strdup_printf (_("%s (what came before is kept)"), fault->message);

      suanli_trace_add_warning (trace, warning);
    }
  /* The names, even after a fault: what was read is shown with them. */
  nsys_read_names (reader);
  nsys_read_gpus (reader, group);
  /* After a fault, the tables after it were not read: the fault's warning says so already. */
  if (fault == NULL)
    warn_unread (reader, trace);
  nsys_reader_add_counts (reader, stats);
  stats->bytes += g_stat (path, &info) == 0 ? (guint64) info.st_size : 0;
  nsys_reader_free (reader);

  suanli_trace_finish (trace);
  suanli_import_link_correlations (trace, group);
  suanli_analysis_add_queue_counters (trace, group);
  return TRUE;
}

/**
 * suanli_import_nsys_is_export:
 *
 * Whether the SQLite database at @path is an Nsight Systems export. Returns: FALSE with @error when
 * SQLite cannot read it (the error does not name the file: the caller does, as for any file whose
 * kind it asks); FALSE without when it is someone else's database.
 */
gboolean
suanli_import_nsys_is_export (const char *path,
                              GError    **error)
{
  g_autoptr(SuanliTrace) scratch = suanli_trace_new ();
  NsysReader *reader = nsys_reader_open (scratch, path, NULL, NULL, error);
  gboolean is_export;

  if (reader == NULL)
    return FALSE;
  is_export = is_nsys_export (reader);
  nsys_reader_free (reader);
  return is_export;
}

static char *
quote_if_needed (const char *path)
{
  for (const char *c = path; *c != '\0'; c++)
    if (!g_ascii_isalnum (*c) && strchr ("._-/+,:@%=", *c) == NULL)
      return g_shell_quote (path);
  return g_strdup (path);
}

/**
 * suanli_import_nsys_export_command:
 * @report: a report's path (.nsys-rep, or .qdrep of older versions)
 *
 * Returns: (transfer full): the command that writes its SQLite export beside it.
 */
char *
suanli_import_nsys_export_command (const char *report)
{
  g_autofree char *stem = NULL;
  g_autofree char *output = NULL;
  g_autofree char *quoted_output = NULL;
  g_autofree char *quoted_report = quote_if_needed (report);

  if (g_str_has_suffix (report, ".nsys-rep"))
    stem = g_strndup (report, strlen (report) - strlen (".nsys-rep"));
  else if (g_str_has_suffix (report, ".qdrep"))
    stem = g_strndup (report, strlen (report) - strlen (".qdrep"));
  else
    stem = g_strdup (report);
  output = g_strconcat (stem, ".sqlite", NULL);
  quoted_output = quote_if_needed (output);
  return g_strdup_printf ("nsys export --type sqlite -o %s %s", quoted_output, quoted_report);
}
