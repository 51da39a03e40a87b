/* suanli-nsys-reader.c — an Nsight Systems SQLite export opened read-only, its tables read row by
 * row into a trace
 *
 * The file is opened through SQLite's URI with immutable=1 and SQLITE_OPEN_READONLY: SQLite then
 * takes no lock, writes no journal and never changes a byte of it (an export is never written
 * again). Table and column names changed across Nsight Systems versions, so a reader asks for the
 * columns it wants by name, with the older name beside it; a column neither version has reads as
 * NULL. Each row is named by its rowid, so a bad value is reported as "TABLE row N, column C".
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>
#include <glib/gi18n.h>

#include "suanli-nsys-reader.h"

/* Rows between looks at the cancellable, the progress and the memory held. */
#define CHECK_INTERVAL 4096
/* Past this (about 73 years of nanoseconds) a time is damage, not a clock's reading; the trace's
 * analyses add times and durations, which must not overflow. */
#define TIME_LIMIT_NS (G_GINT64_CONSTANT (1) << 61)
#define DURATION_LIMIT_NS (G_GINT64_CONSTANT (1) << 53)

struct _NsysReader
{
  SuanliTrace        *trace;
  sqlite3            *db;
  char               *name;
  GCancellable       *cancellable;
  GHashTable         *tables;          /* name → GHashTable of its columns, made when first asked */
  GHashTable         *read;            /* names of the tables read */
  GHashTable         *strings;         /* StringIds id → SuanliString */
  sqlite3_stmt       *string_query;
  SuanliString        categories[NSYS_N_CATEGORIES];
  SuanliString        args[NSYS_N_ARGS];
  guint64             counts[NSYS_N_CATEGORIES];
  gint64              origin;
  GError             *error;
  SuanliImportLimits  limits;
  guint64             held_before;
  gsize              *progress;        /* bytes "read" so far, for the loader's fraction */
  gsize               progress_reported;   /* of the file's size, added to @progress so far */
  guint64             file_size;
  guint64             rows_total;      /* estimated, from the tables' largest rowids */
  guint64             rows;            /* read so far, of every table */
  /* The row being read. */
  const char         *table;
  const NsysColumn   *columns;
  gint64              rowid;
  char               *row_problem;     /* why the row is left out; NULL while it is whole */
};

static const char * const category_names[NSYS_N_CATEGORIES] = {
  "kernel", "gpu_memcpy", "gpu_memset", "cuda_runtime", "cuda_driver", "cuda_sync", "user_annotation", "os_runtime",
  "cuda_graph",
};

static const char * const arg_names[NSYS_N_ARGS] = {
  "correlation", "device", "stream", "grid", "block", "registers per thread", "shared memory", "graph id",
  "graph node", "bytes", "Call stack", "domain", "context", "return value",
};

/* A name from the file, safe to put in SQL between double quotes. */
static char *
quote_identifier (const char *name)
{
  g_auto(GStrv) parts = g_strsplit (name, "\"", -1);
  g_autofree char *joined = g_strjoinv ("\"\"", parts);

  return g_strdup_printf ("\"%s\"", joined);
}

static gboolean
cancelled (void *data)
{
  return g_cancellable_is_cancelled (data);
}

/* Fails with SQLite's words, after the file's name unless @name is NULL (the caller names it). */
static void
set_sqlite_error (GError    **error,
                  const char *name,
                  sqlite3    *db,
                  int         code)
{
  g_autofree char *problem = NULL;

  if (code == SQLITE_INTERRUPT)
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_CANCELLED, _("Reading the trace was cancelled"));
      return;
    }
  if (code == SQLITE_NOTADB)
    problem = g_strdup_printf (_("not an SQLite database (%s)"), sqlite3_errstr (code));
  else
    problem = g_strdup_printf (_("SQLite cannot read it: %s"), db != NULL ? sqlite3_errmsg (db) : sqlite3_errstr (code));
  if (name != NULL)
    g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA, "%s: %s", name, problem);
  else
    g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA, problem);
}

static gboolean
list_tables (NsysReader *reader,
             GError    **error)
{
  sqlite3_stmt *query = NULL;
  int code = sqlite3_prepare_v2 (reader->db, "SELECT name FROM sqlite_master WHERE type = 'table'", -1, &query, NULL);

  if (code == SQLITE_OK)
    code = sqlite3_step (query);
  for (; code == SQLITE_ROW; code = sqlite3_step (query))
    if (sqlite3_column_type (query, 0) == SQLITE_TEXT)
      g_hash_table_insert (reader->tables, g_strdup ((const char *) sqlite3_column_text (query, 0)), NULL);
  sqlite3_finalize (query);
  if (code != SQLITE_DONE)
    {
      set_sqlite_error (error, reader->name, reader->db, code);
      return FALSE;
    }
  return TRUE;
}

static void
unref_columns (gpointer columns)
{
  if (columns != NULL)
    g_hash_table_unref (columns);
}

/**
 * nsys_reader_open:
 * @path: the export, a file (SQLite cannot read a pipe)
 * @name: (nullable): how errors and the trace's group name it; NULL only to learn what the file is,
 *   with errors that leave naming the file to the caller
 *
 * Opens the export read-only and lists its tables. Returns: (transfer full) (nullable): the reader,
 * or NULL with @error when the file is not an SQLite database or SQLite cannot read it.
 */
NsysReader *
nsys_reader_open (SuanliTrace  *trace,
                  const char   *path,
                  const char   *name,
                  GCancellable *cancellable,
                  GError      **error)
{
  NsysReader *reader = g_new0 (NsysReader, 1);
  g_autofree char *absolute = g_canonicalize_filename (path, NULL);
  g_autofree char *file_uri = g_filename_to_uri (absolute, NULL, error);
  g_autofree char *uri = NULL;
  int code;

  reader->trace = g_object_ref (trace);
  reader->name = g_strdup (name);
  reader->cancellable = cancellable != NULL ? g_object_ref (cancellable) : NULL;
  reader->tables = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, unref_columns);
  reader->read = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  reader->strings = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, NULL);
  reader->limits = suanli_import_limits ();
  reader->held_before = suanli_trace_get_memory_size (trace);
  for (guint i = 0; i < NSYS_N_CATEGORIES; i++)
    reader->categories[i] = suanli_trace_intern (trace, category_names[i], -1);
  for (guint i = 0; i < NSYS_N_ARGS; i++)
    reader->args[i] = suanli_trace_intern (trace, arg_names[i], -1);
  if (file_uri == NULL)
    {
      nsys_reader_free (reader);
      return NULL;
    }
  /* immutable: no lock, no journal, no write, ever; the file is taken as it is. */
  uri = g_strconcat (file_uri, "?mode=ro&immutable=1", NULL);
  code = sqlite3_open_v2 (uri, &reader->db, SQLITE_OPEN_READONLY | SQLITE_OPEN_URI | SQLITE_OPEN_NOMUTEX, NULL);
  if (code != SQLITE_OK)
    {
      set_sqlite_error (error, name, reader->db, code);
      nsys_reader_free (reader);
      return NULL;
    }
  if (cancellable != NULL)
    sqlite3_progress_handler (reader->db, 100000, cancelled, cancellable);
  if (!list_tables (reader, error))
    {
      nsys_reader_free (reader);
      return NULL;
    }
  return reader;
}

void
nsys_reader_free (NsysReader *reader)
{
  g_clear_pointer (&reader->string_query, sqlite3_finalize);
  sqlite3_close (reader->db);
  g_object_unref (reader->trace);
  g_clear_object (&reader->cancellable);
  g_hash_table_unref (reader->tables);
  g_hash_table_unref (reader->read);
  g_hash_table_unref (reader->strings);
  g_clear_error (&reader->error);
  g_free (reader->row_problem);
  g_free (reader->name);
  g_free (reader);
}

SuanliTrace *
nsys_reader_get_trace (NsysReader *reader)
{
  return reader->trace;
}

sqlite3 *
nsys_reader_get_db (NsysReader *reader)
{
  return reader->db;
}

gboolean
nsys_reader_has_table (NsysReader *reader,
                       const char *table)
{
  return g_hash_table_contains (reader->tables, table);
}

static GHashTable *
table_columns (NsysReader *reader,
               const char *table)
{
  GHashTable *columns;
  g_autofree char *quoted = NULL;
  g_autofree char *sql = NULL;
  sqlite3_stmt *query = NULL;

  if (!g_hash_table_contains (reader->tables, table))
    return NULL;
  columns = g_hash_table_lookup (reader->tables, table);
  if (columns != NULL)
    return columns;
  columns = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  quoted = quote_identifier (table);
  sql = g_strdup_printf ("PRAGMA table_info(%s)", quoted);
  if (sqlite3_prepare_v2 (reader->db, sql, -1, &query, NULL) == SQLITE_OK)
    while (sqlite3_step (query) == SQLITE_ROW)
      if (sqlite3_column_type (query, 1) == SQLITE_TEXT)
        g_hash_table_add (columns, g_strdup ((const char *) sqlite3_column_text (query, 1)));
  sqlite3_finalize (query);
  g_hash_table_insert (reader->tables, g_strdup (table), columns);
  return columns;
}

gboolean
nsys_reader_has_column (NsysReader *reader,
                        const char *table,
                        const char *column)
{
  GHashTable *columns = table_columns (reader, table);

  return columns != NULL && g_hash_table_contains (columns, column);
}

/* A table whose rows the importer shows or needs: not listed as left out. */
void
nsys_reader_mark_read (NsysReader *reader,
                       const char *table)
{
  g_hash_table_add (reader->read, g_strdup (table));
}

static int
compare_names (gconstpointer a,
               gconstpointer b)
{
  return strcmp (*(const char * const *) a, *(const char * const *) b);
}

/* Returns: (transfer full) (element-type utf8): the tables not read, by name. */
GPtrArray *
nsys_reader_unread_tables (NsysReader *reader)
{
  GPtrArray *unread = g_ptr_array_new_with_free_func (g_free);
  GHashTableIter iter;
  gpointer table;

  g_hash_table_iter_init (&iter, reader->tables);
  while (g_hash_table_iter_next (&iter, &table, NULL))
    if (!g_hash_table_contains (reader->read, table))
      g_ptr_array_add (unread, g_strdup (table));
  g_ptr_array_sort (unread, compare_names);
  return unread;
}

/* The largest rowid: the rows a table holds, as the export wrote them, without counting them. */
guint64
nsys_reader_estimate_rows (NsysReader *reader,
                           const char *table)
{
  g_autofree char *quoted = quote_identifier (table);
  g_autofree char *sql = g_strdup_printf ("SELECT max(rowid) FROM %s", quoted);
  sqlite3_stmt *query = NULL;
  guint64 rows = 0;

  if (sqlite3_prepare_v2 (reader->db, sql, -1, &query, NULL) == SQLITE_OK && sqlite3_step (query) == SQLITE_ROW)
    rows = (guint64) MAX (sqlite3_column_int64 (query, 0), 0);
  sqlite3_finalize (query);
  return rows;
}

/* @progress (nullable) grows, atomically, from its value now by @file_size over the reading. */
void
nsys_reader_set_progress (NsysReader *reader,
                          gsize      *progress,
                          guint64     file_size)
{
  GHashTableIter iter;
  gpointer table;

  reader->progress = progress;
  reader->progress_reported = 0;
  reader->file_size = file_size;
  reader->rows_total = 0;
  g_hash_table_iter_init (&iter, reader->tables);
  while (g_hash_table_iter_next (&iter, &table, NULL))
    if (!g_str_has_prefix (table, "ENUM_"))
      reader->rows_total += nsys_reader_estimate_rows (reader, table);
}

static void
report_progress (NsysReader *reader)
{
  double fraction;
  gsize done;

  if (reader->progress == NULL || reader->rows_total == 0)
    return;
  fraction = MIN (1.0, (double) reader->rows / (double) reader->rows_total);
  done = (gsize) (fraction * (double) reader->file_size);
  if (done > reader->progress_reported)
    {
      g_atomic_pointer_add (reader->progress, done - reader->progress_reported);
      reader->progress_reported = done;
    }
}

static char *
select_sql (NsysReader       *reader,
            const char       *table,
            const NsysColumn *columns,
            guint             n_columns)
{
  GString *sql = g_string_new ("SELECT rowid");
  g_autofree char *quoted = quote_identifier (table);

  for (guint i = 0; i < n_columns; i++)
    {
      const char *name = NULL;

      if (nsys_reader_has_column (reader, table, columns[i].name))
        name = columns[i].name;
      else if (columns[i].alternative != NULL && nsys_reader_has_column (reader, table, columns[i].alternative))
        name = columns[i].alternative;
      if (name != NULL)
        {
          g_autofree char *column = quote_identifier (name);
          g_string_append_printf (sql, ", %s", column);
        }
      else
        g_string_append (sql, ", NULL");
    }
  g_string_append_printf (sql, " FROM %s", quoted);
  return g_string_free (sql, FALSE);
}

/* Whether the trace read so far is within SUANLI_TRACE_MAX_MEMORY; sets the error when not. */
static gboolean
within_budget (NsysReader *reader)
{
  guint64 held = suanli_trace_get_memory_size (reader->trace);

  if (held <= reader->held_before || held - reader->held_before <= reader->limits.max_memory)
    return TRUE;
  g_set_error (&reader->error, G_IO_ERROR, G_IO_ERROR_NO_SPACE,
               _("%s: stopped reading at table %s, row %lld: the trace read so far takes more than %llu MiB of memory "
                 "(SUANLI_TRACE_MAX_MEMORY, in bytes, sets it; by default a quarter of the machine's memory)"),
               reader->name, reader->table, (long long) reader->rowid,
               (unsigned long long) (reader->limits.max_memory >> 20));
  return FALSE;
}

static void
warn_left_out (NsysReader *reader,
               const char *table,
               guint64     left_out,
               gint64      first_row,
               const char *first_problem)
{
  g_autofree char *warning = NULL;

  if (left_out == 0)
    return;
  warning = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%s: %llu row was left out: row %lld %s",
                                          "%s: %llu rows were left out; the first, row %lld, %s", left_out),
                             table, (unsigned long long) left_out, (long long) first_row, first_problem);
  suanli_trace_add_warning (reader->trace, warning);
}

/**
 * nsys_reader_read_table:
 *
 * Calls @func for each row of @table (nothing when the export has no such table), the @columns it
 * has by name, NULL for those it lacks. A row with a bad value is left out and counted, and the
 * first such row named in a warning. Returns: FALSE when the reading stopped (cancelled, SQLite
 * could not read on, or the trace outgrew its memory budget): nsys_reader_take_error() says why.
 */
gboolean
nsys_reader_read_table (NsysReader       *reader,
                        const char       *table,
                        const NsysColumn *columns,
                        guint             n_columns,
                        NsysRowFunc       func,
                        gpointer          data)
{
  g_autofree char *sql = NULL;
  g_autofree char *first_problem = NULL;
  sqlite3_stmt *query = NULL;
  guint64 left_out = 0;
  gint64 first_row = 0;
  int code;

  if (reader->error != NULL)
    return FALSE;
  if (!nsys_reader_has_table (reader, table))
    return TRUE;
  nsys_reader_mark_read (reader, table);
  sql = select_sql (reader, table, columns, n_columns);
  reader->table = table;
  reader->columns = columns;
  code = sqlite3_prepare_v2 (reader->db, sql, -1, &query, NULL);
  if (code == SQLITE_OK)
    code = sqlite3_step (query);
  for (; code == SQLITE_ROW; code = sqlite3_step (query))
    {
      reader->rowid = sqlite3_column_int64 (query, 0);
      func (reader, query, data);
      if (reader->row_problem != NULL)
        {
          if (left_out++ == 0)
            {
              first_row = reader->rowid;
              first_problem = g_steal_pointer (&reader->row_problem);
            }
          g_clear_pointer (&reader->row_problem, g_free);
        }
      if (++reader->rows % CHECK_INTERVAL == 0)
        {
          report_progress (reader);
          if (g_cancellable_set_error_if_cancelled (reader->cancellable, &reader->error) || !within_budget (reader))
            break;
        }
    }
  sqlite3_finalize (query);
  warn_left_out (reader, table, left_out, first_row, first_problem);
  if (reader->error == NULL && code != SQLITE_DONE)
    {
      if (code == SQLITE_INTERRUPT)
        g_set_error_literal (&reader->error, G_IO_ERROR, G_IO_ERROR_CANCELLED, _("Reading the trace was cancelled"));
      else
        g_set_error (&reader->error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA, _("%s: table %s, after row %lld: %s"),
                     reader->name, table, (long long) reader->rowid, sqlite3_errmsg (reader->db));
    }
  reader->table = NULL;
  reader->columns = NULL;
  report_progress (reader);
  return reader->error == NULL;
}

/* Returns: (transfer full) (nullable): why the reading stopped; the reader reads on after it. */
GError *
nsys_reader_take_error (NsysReader *reader)
{
  return g_steal_pointer (&reader->error);
}

guint64
nsys_reader_get_rows (NsysReader *reader)
{
  return reader->rows;
}

/* Leaves the row being read out, saying why (the first reason stands). */
void
nsys_row_left_out (NsysReader   *reader,
                   sqlite3_stmt *row,
                   const char   *why)
{
  if (reader->row_problem == NULL)
    reader->row_problem = g_strdup (why);
}

static void
left_out_for_column (NsysReader   *reader,
                     sqlite3_stmt *row,
                     guint         column)
{
  const char *name = reader->columns[column].name;
  g_autofree char *why = NULL;

  switch (sqlite3_column_type (row, (int) column + 1))
    {
    case SQLITE_NULL:
      why = g_strdup_printf (_("has no value in column %s"), name);
      break;
    case SQLITE_TEXT:
      why = g_strdup_printf (_("has text where column %s holds an integer"), name);
      break;
    case SQLITE_FLOAT:
      why = g_strdup_printf (_("has a real number where column %s holds an integer"), name);
      break;
    default:
      why = g_strdup_printf (_("has bytes where column %s holds an integer"), name);
      break;
    }
  nsys_row_left_out (reader, row, why);
}

/* The integer in @column (counted from 0 in the request); FALSE, the row left out, when it has none. */
gboolean
nsys_row_int (NsysReader   *reader,
              sqlite3_stmt *row,
              guint         column,
              gint64       *value)
{
  if (sqlite3_column_type (row, (int) column + 1) != SQLITE_INTEGER)
    {
      left_out_for_column (reader, row, column);
      return FALSE;
    }
  *value = sqlite3_column_int64 (row, (int) column + 1);
  return TRUE;
}

/* An optional integer: @fallback where the column is NULL (or absent); a value of another type
 * still leaves the row out. */
gboolean
nsys_row_int_or (NsysReader   *reader,
                 sqlite3_stmt *row,
                 guint         column,
                 gint64        fallback,
                 gint64       *value)
{
  if (sqlite3_column_type (row, (int) column + 1) == SQLITE_NULL)
    {
      *value = fallback;
      return TRUE;
    }
  return nsys_row_int (reader, row, column, value);
}

/* A start and end that a clock can give: start within the trace's range, the end not before it. */
gboolean
nsys_row_times (NsysReader   *reader,
                sqlite3_stmt *row,
                guint         start_column,
                guint         end_column,
                gint64       *start,
                gint64       *duration)
{
  gint64 end;

  if (!nsys_row_int (reader, row, start_column, start) || !nsys_row_int (reader, row, end_column, &end))
    return FALSE;
  if (*start <= -TIME_LIMIT_NS || *start >= TIME_LIMIT_NS || end <= -TIME_LIMIT_NS || end >= TIME_LIMIT_NS)
    {
      nsys_row_left_out (reader, row, _("has a time no clock gives"));
      return FALSE;
    }
  if (end < *start || end - *start >= DURATION_LIMIT_NS)
    {
      nsys_row_left_out (reader, row, _("ends before it starts, or lasts longer than a clock can"));
      return FALSE;
    }
  *duration = end - *start;
  return TRUE;
}

static SuanliString
intern_valid (NsysReader *reader,
              const char *text,
              gssize      length)
{
  return suanli_trace_intern_valid (reader->trace, text, length);
}

/* A name given inline in @text_column (a TEXT), or by id into StringIds in @id_column; either may be
 * G_MAXUINT for none. 0, the empty string, when the row has neither. */
SuanliString
nsys_row_text (NsysReader   *reader,
               sqlite3_stmt *row,
               guint         text_column,
               guint         id_column)
{
  if (text_column != G_MAXUINT && sqlite3_column_type (row, (int) text_column + 1) == SQLITE_TEXT)
    return intern_valid (reader, (const char *) sqlite3_column_text (row, (int) text_column + 1),
                         sqlite3_column_bytes (row, (int) text_column + 1));
  if (id_column != G_MAXUINT && sqlite3_column_type (row, (int) id_column + 1) == SQLITE_INTEGER)
    return nsys_reader_string (reader, sqlite3_column_int64 (row, (int) id_column + 1));
  if (id_column != G_MAXUINT && sqlite3_column_type (row, (int) id_column + 1) == SQLITE_TEXT)
    return intern_valid (reader, (const char *) sqlite3_column_text (row, (int) id_column + 1),
                         sqlite3_column_bytes (row, (int) id_column + 1));
  return 0;
}

/* StringIds' text for @id, looked up once; "(string N)" where the table has none. */
SuanliString
nsys_reader_string (NsysReader *reader,
                    gint64      id)
{
  gpointer found = g_hash_table_lookup (reader->strings, &id);
  SuanliString string = 0;

  if (found != NULL)
    return GPOINTER_TO_UINT (found);
  if (reader->string_query == NULL && nsys_reader_has_table (reader, "StringIds"))
    {
      nsys_reader_mark_read (reader, "StringIds");
      sqlite3_prepare_v2 (reader->db, "SELECT value FROM StringIds WHERE id = ?", -1, &reader->string_query, NULL);
    }
  if (reader->string_query != NULL)
    {
      sqlite3_reset (reader->string_query);
      sqlite3_bind_int64 (reader->string_query, 1, id);
      if (sqlite3_step (reader->string_query) == SQLITE_ROW && sqlite3_column_type (reader->string_query, 0) == SQLITE_TEXT)
        string = intern_valid (reader, (const char *) sqlite3_column_text (reader->string_query, 0),
                               sqlite3_column_bytes (reader->string_query, 0));
    }
  if (string == 0)
    {
      g_autofree char *unknown = g_strdup_printf ("(string %lld)", (long long) id);
      string = suanli_trace_intern (reader->trace, unknown, -1);
    }
  g_hash_table_insert (reader->strings, g_memdup2 (&id, sizeof id), GUINT_TO_POINTER (string));
  return string;
}

SuanliString
nsys_reader_category (NsysReader  *reader,
                      NsysCategory category)
{
  return reader->categories[category];
}

SuanliArg
nsys_reader_int_arg (NsysReader *reader,
                     NsysArg     key,
                     gint64      value)
{
  SuanliArg arg = { reader->args[key], SUANLI_ARG_INT, { .i = value } };

  return arg;
}

SuanliArg
nsys_reader_string_arg (NsysReader  *reader,
                        NsysArg      key,
                        SuanliString value)
{
  SuanliArg arg = { reader->args[key], SUANLI_ARG_STRING, { .s = value } };

  return arg;
}

/* Times on the export's clock (nanoseconds from the session's start) moved to the trace's: UTC,
 * when the export says when the session started, so that ranks' exports line up. */
void
nsys_reader_set_time_origin (NsysReader *reader,
                             gint64      origin)
{
  reader->origin = origin;
}

gint64
nsys_reader_time (NsysReader *reader,
                  gint64      time)
{
  return reader->origin + time;
}

void
nsys_reader_add_slice (NsysReader      *reader,
                       SuanliTrack     *track,
                       gint64           start,
                       gint64           duration,
                       SuanliString     name,
                       NsysCategory     category,
                       const SuanliArg *args,
                       guint            n_args)
{
  SuanliSlice slice = { nsys_reader_time (reader, start), duration, name, reader->categories[category], G_MAXUINT32,
                        0, 0, 0 };

  if (n_args > 0)
    {
      slice.args = suanli_trace_add_args (reader->trace, args, n_args);
      slice.n_args = (guint16) n_args;
    }
  g_array_append_val (track->slices, slice);
  reader->counts[category]++;
}

void
nsys_reader_count (NsysReader  *reader,
                   NsysCategory category)
{
  reader->counts[category]++;
}

SuanliTrack *
nsys_reader_thread_track (NsysReader *reader,
                          gint64      global_tid)
{
  return suanli_trace_ensure_track (reader->trace, SUANLI_TRACK_THREAD, NSYS_PID (global_tid), NSYS_TID (global_tid),
                                    0, NULL);
}

SuanliTrack *
nsys_reader_stream_track (NsysReader *reader,
                          gint64      device,
                          gint64      stream)
{
  return suanli_trace_ensure_track (reader->trace, SUANLI_TRACK_GPU_STREAM, device, stream, 0, NULL);
}

/* The slices read, by category, into @stats (which may count other files' too). */
void
nsys_reader_add_counts (NsysReader        *reader,
                        SuanliImportStats *stats)
{
  if (stats->by_category == NULL)
    stats->by_category = g_hash_table_new (g_str_hash, g_str_equal);
  for (guint c = 0; c < NSYS_N_CATEGORIES; c++)
    {
      const char *text = suanli_trace_get_string (reader->trace, reader->categories[c]);
      gpointer count;

      if (reader->counts[c] == 0)
        continue;
      count = g_hash_table_lookup (stats->by_category, text);
      g_hash_table_replace (stats->by_category, (gpointer) text,
                            GSIZE_TO_POINTER (GPOINTER_TO_SIZE (count) + reader->counts[c]));
    }
  stats->events += reader->rows;
}
