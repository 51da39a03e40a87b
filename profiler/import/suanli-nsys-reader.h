/* suanli-nsys-reader.h — an Nsight Systems SQLite export opened read-only, its tables read row by
 * row into a trace; for the importer and its table readers only
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <sqlite3.h>

#include "suanli-import-limits.h"
#include "suanli-import-stats.h"
#include "suanli-trace.h"

G_BEGIN_DECLS

/* The categories the export's rows take: Kineto's where Kineto has one, so that every analysis
 * reads both alike. */
typedef enum {
  NSYS_CATEGORY_KERNEL,
  NSYS_CATEGORY_MEMCPY,
  NSYS_CATEGORY_MEMSET,
  NSYS_CATEGORY_RUNTIME,
  NSYS_CATEGORY_DRIVER,
  NSYS_CATEGORY_SYNC,
  NSYS_CATEGORY_NVTX,
  NSYS_CATEGORY_OS_RUNTIME,
  NSYS_CATEGORY_GRAPH,
  NSYS_N_CATEGORIES
} NsysCategory;

typedef enum {
  NSYS_ARG_CORRELATION,
  NSYS_ARG_DEVICE,
  NSYS_ARG_STREAM,
  NSYS_ARG_GRID,
  NSYS_ARG_BLOCK,
  NSYS_ARG_REGISTERS,
  NSYS_ARG_SHARED_MEMORY,
  NSYS_ARG_GRAPH,
  NSYS_ARG_GRAPH_NODE,
  NSYS_ARG_BYTES,
  NSYS_ARG_CALL_STACK,
  NSYS_ARG_DOMAIN,
  NSYS_ARG_CONTEXT,
  NSYS_ARG_RETURN,
  NSYS_N_ARGS
} NsysArg;

/* One column a table reader asks for: absent columns (older or newer schemas) read as NULL. */
typedef struct
{
  const char *name;
  const char *alternative;   /* the same column's name in other Nsight Systems versions, or NULL */
} NsysColumn;

typedef struct _NsysReader NsysReader;

/* Called for each row; column i of the request is statement column i + 1 (0 is the rowid). */
typedef void (*NsysRowFunc) (NsysReader   *reader,
                             sqlite3_stmt *row,
                             gpointer      data);

NsysReader   *nsys_reader_open            (SuanliTrace        *trace,
                                           const char         *path,
                                           const char         *name,
                                           GCancellable       *cancellable,
                                           GError            **error);
void          nsys_reader_free            (NsysReader         *reader);
SuanliTrace  *nsys_reader_get_trace       (NsysReader         *reader);
sqlite3      *nsys_reader_get_db          (NsysReader         *reader);
gboolean      nsys_reader_has_table       (NsysReader         *reader,
                                           const char         *table);
gboolean      nsys_reader_has_column      (NsysReader         *reader,
                                           const char         *table,
                                           const char         *column);
void          nsys_reader_mark_read       (NsysReader         *reader,
                                           const char         *table);
GPtrArray    *nsys_reader_unread_tables   (NsysReader         *reader);
guint64       nsys_reader_estimate_rows   (NsysReader         *reader,
                                           const char         *table);
void          nsys_reader_set_progress    (NsysReader         *reader,
                                           gsize              *progress,
                                           guint64             file_size);
gboolean      nsys_reader_read_table      (NsysReader         *reader,
                                           const char         *table,
                                           const NsysColumn   *columns,
                                           guint               n_columns,
                                           NsysRowFunc         func,
                                           gpointer            data);
GError       *nsys_reader_take_error      (NsysReader         *reader);
guint64       nsys_reader_get_rows        (NsysReader         *reader);

/* Values of the row being read; a bad value leaves the row out and names its column. */
gboolean      nsys_row_int                (NsysReader         *reader,
                                           sqlite3_stmt       *row,
                                           guint               column,
                                           gint64             *value);
gboolean      nsys_row_int_or             (NsysReader         *reader,
                                           sqlite3_stmt       *row,
                                           guint               column,
                                           gint64              fallback,
                                           gint64             *value);
gboolean      nsys_row_times              (NsysReader         *reader,
                                           sqlite3_stmt       *row,
                                           guint               start_column,
                                           guint               end_column,
                                           gint64             *start,
                                           gint64             *duration);
SuanliString  nsys_row_text               (NsysReader         *reader,
                                           sqlite3_stmt       *row,
                                           guint               text_column,
                                           guint               id_column);
void          nsys_row_left_out           (NsysReader         *reader,
                                           sqlite3_stmt       *row,
                                           const char         *why);

SuanliString  nsys_reader_string          (NsysReader         *reader,
                                           gint64              id);
SuanliString  nsys_reader_category        (NsysReader         *reader,
                                           NsysCategory        category);
SuanliArg     nsys_reader_int_arg         (NsysReader         *reader,
                                           NsysArg             key,
                                           gint64              value);
SuanliArg     nsys_reader_string_arg      (NsysReader         *reader,
                                           NsysArg             key,
                                           SuanliString        value);
void          nsys_reader_add_slice       (NsysReader         *reader,
                                           SuanliTrack        *track,
                                           gint64              start,
                                           gint64              duration,
                                           SuanliString        name,
                                           NsysCategory        category,
                                           const SuanliArg    *args,
                                           guint               n_args);
SuanliTrack  *nsys_reader_thread_track    (NsysReader         *reader,
                                           gint64              global_tid);
SuanliTrack  *nsys_reader_stream_track    (NsysReader         *reader,
                                           gint64              device,
                                           gint64              stream);
void          nsys_reader_set_time_origin (NsysReader         *reader,
                                           gint64              origin);
gint64        nsys_reader_time            (NsysReader         *reader,
                                           gint64              time);
void          nsys_reader_count           (NsysReader         *reader,
                                           NsysCategory        category);
void          nsys_reader_add_counts      (NsysReader         *reader,
                                           SuanliImportStats  *stats);

/* Nsight Systems' serialized global ids: the process in bits 24–47, the thread in bits 0–23. */
#define NSYS_PID(global_id) (((global_id) >> 24) & 0xffffff)
#define NSYS_TID(global_id) ((global_id) & 0xffffff)

G_END_DECLS
