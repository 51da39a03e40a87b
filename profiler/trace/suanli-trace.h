/* suanli-trace.h — a trace in memory: processes, tracks, slices, instants, counters and flows
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

#define SUANLI_TYPE_TRACE (suanli_trace_get_type ())

G_DECLARE_FINAL_TYPE (SuanliTrace, suanli_trace, SUANLI, TRACE, GObject)

typedef struct _SuanliTrackIndex SuanliTrackIndex;   /* suanli-track-index.h */

/* Strings are interned once and named by index; 0 is the empty string. */
typedef guint32 SuanliString;

typedef enum {
  SUANLI_TRACK_THREAD,     /* CPU thread: pid, tid */
  SUANLI_TRACK_GPU_STREAM, /* GPU device (pid) and stream (tid) */
  SUANLI_TRACK_COUNTER,    /* one counter series */
  SUANLI_TRACK_ASYNC,      /* async slices of one category and name */
} SuanliTrackKind;

enum {
  SUANLI_SLICE_UNFINISHED = 1 << 0,   /* a B never ended: closed at the trace's end */
  SUANLI_SLICE_CLAMPED    = 1 << 1,   /* a CPU slice that overlapped a sibling by a rounding step: clamped */
};

/* One slice: 32 bytes. Times in nanoseconds on the trace's clock. */
typedef struct
{
  gint64       start;
  gint64       duration;
  SuanliString name;
  SuanliString category;
  guint32      args;       /* first argument in the trace's argument table, or G_MAXUINT32 */
  guint16      n_args;
  guint8       depth;
  guint8       flags;
} SuanliSlice;

typedef struct
{
  gint64       time;
  SuanliString name;
  SuanliString category;
} SuanliInstant;

typedef struct
{
  gint64 time;
  double value;
} SuanliSample;

typedef enum {
  SUANLI_ARG_INT,
  SUANLI_ARG_DOUBLE,
  SUANLI_ARG_STRING,
} SuanliArgType;

/* Packed to 13 bytes (from 16): a trace's arguments are most of its memory. Its fields may be
 * unaligned, so they are read and written whole, never through a pointer to one. */
typedef struct __attribute__ ((packed))
{
  SuanliString  key;
  guint8        type;     /* SuanliArgType */
  union {
    gint64       i;
    double       d;
    SuanliString s;
  };
} SuanliArg;

typedef struct
{
  SuanliTrackKind kind;
  guint           group;      /* the file (rank) it came from */
  gint64          pid;
  gint64          tid;
  SuanliString    name;
  int             sort_index;
  GArray         *slices;     /* of SuanliSlice, by start */
  GArray         *instants;   /* of SuanliInstant, by time */
  GArray         *samples;    /* of SuanliSample, by time (counters) */
  guint           max_depth;
} SuanliTrack;

typedef struct
{
  gint64       pid;
  SuanliString name;
  SuanliString labels;
  int          sort_index;
  int          rank;        /* -1 when unknown */
  guint        group;
} SuanliProcess;

/* How much of its job a live capture holds. */
typedef enum {
  SUANLI_GROUP_NOT_CAPTURED,           /* a file another profiler wrote */
  SUANLI_GROUP_CAPTURED_FROM_LAUNCH,   /* a capture from the job's start */
  SUANLI_GROUP_CAPTURED_FROM_START,    /* a capture from START: the collector attached to a running job */
} SuanliGroupCapture;

/* One file of a merged trace: several ranks open as one trace, a group each. */
typedef struct
{
  SuanliString name;        /* the file */
  int          rank;        /* from distributedInfo; -1 when unknown */
  int          world_size;  /* from distributedInfo; 0 when unknown */
  SuanliString device;      /* the accelerator model the file names (Kineto's deviceProperties, a
                             * capture's devices); 0 when it names none */
  guint64      device_memory;   /* that model's memory in bytes; 0 when unknown */
  SuanliGroupCapture capture;
} SuanliGroup;

/* A flow joins a slice to another: a CPU launch to its GPU kernel, say. */
typedef struct
{
  guint32      from_track;
  guint32      from_slice;
  guint32      to_track;
  guint32      to_slice;
  SuanliString category;
} SuanliFlow;

SuanliTrace        *suanli_trace_new              (void);
guint               suanli_trace_begin_group      (SuanliTrace   *self,
                                                   const char    *name);
guint               suanli_trace_get_n_groups     (SuanliTrace   *self);
void                suanli_trace_set_current_group (SuanliTrace  *self,
                                                   guint         group);
SuanliGroup        *suanli_trace_get_group        (SuanliTrace   *self,
                                                   guint          index);
SuanliString        suanli_trace_intern           (SuanliTrace   *self,
                                                   const char    *text,
                                                   gssize         length);
SuanliString        suanli_trace_intern_valid     (SuanliTrace   *self,
                                                   const char    *text,
                                                   gssize         length);
const char         *suanli_trace_get_string       (SuanliTrace   *self,
                                                   SuanliString   string);
gboolean            suanli_trace_lookup_string    (SuanliTrace   *self,
                                                   const char    *text,
                                                   SuanliString  *id);
guint               suanli_trace_get_n_strings    (SuanliTrace   *self);
gsize               suanli_trace_get_string_bytes (SuanliTrace   *self);
guint64             suanli_trace_get_memory_size  (SuanliTrace   *self);
SuanliTrack        *suanli_trace_ensure_track     (SuanliTrace   *self,
                                                   SuanliTrackKind kind,
                                                   gint64         pid,
                                                   gint64         tid,
                                                   SuanliString   name,
                                                   guint         *index);
guint               suanli_trace_get_n_tracks     (SuanliTrace   *self);
SuanliTrack        *suanli_trace_get_track        (SuanliTrace   *self,
                                                   guint          index);
SuanliProcess      *suanli_trace_ensure_process   (SuanliTrace   *self,
                                                   gint64         pid);
guint               suanli_trace_get_n_processes  (SuanliTrace   *self);
SuanliProcess      *suanli_trace_get_process      (SuanliTrace   *self,
                                                   guint          index);
guint32             suanli_trace_add_args         (SuanliTrace   *self,
                                                   const SuanliArg *args,
                                                   guint          n_args);
const SuanliArg    *suanli_trace_get_args         (SuanliTrace   *self,
                                                   const SuanliSlice *slice);
char               *suanli_trace_format_arg       (SuanliTrace   *self,
                                                   const SuanliArg *arg);
gboolean            suanli_trace_find_arg_int     (SuanliTrace   *self,
                                                   const SuanliSlice *slice,
                                                   const char    *key,
                                                   gint64        *value);
gboolean            suanli_trace_find_arg_double  (SuanliTrace   *self,
                                                   const SuanliSlice *slice,
                                                   const char    *key,
                                                   double        *value);
const char         *suanli_trace_find_arg_string  (SuanliTrace   *self,
                                                   const SuanliSlice *slice,
                                                   const char    *key);
gboolean            suanli_trace_find_arg_int_id  (SuanliTrace   *self,
                                                   const SuanliSlice *slice,
                                                   SuanliString   key,
                                                   gint64        *value);
void                suanli_trace_add_flow         (SuanliTrace   *self,
                                                   const SuanliFlow *flow);
GArray             *suanli_trace_get_flows        (SuanliTrace   *self);
void                suanli_trace_add_warning      (SuanliTrace   *self,
                                                   const char    *warning);
void                suanli_trace_add_note         (SuanliTrace   *self,
                                                   const char    *note);
void                suanli_trace_add_partial_warning (SuanliTrace *self,
                                                      const char  *warning);
const char         *suanli_trace_get_partial      (SuanliTrace   *self);
const char         *suanli_trace_get_headline_warning (SuanliTrace *self);
GPtrArray          *suanli_trace_get_warnings     (SuanliTrace   *self);
guint               suanli_trace_count_warnings   (SuanliTrace   *self,
                                                   guint          group);
void                suanli_trace_set_metadata     (SuanliTrace   *self,
                                                   const char    *key,
                                                   const char    *value);
const char         *suanli_trace_get_metadata     (SuanliTrace   *self,
                                                   const char    *key);
void                suanli_trace_get_time_range   (SuanliTrace   *self,
                                                   gint64        *first,
                                                   gint64        *last);
guint64             suanli_trace_get_n_slices     (SuanliTrace   *self);
const char         *suanli_trace_get_accelerator  (SuanliTrace   *self,
                                                   guint64       *memory,
                                                   guint         *count);
void                suanli_trace_finish           (SuanliTrace   *self);
void                suanli_trace_finish_appended  (SuanliTrace   *self);
SuanliTrackIndex   *suanli_trace_get_track_index  (SuanliTrace   *self,
                                                   guint          track);
void                suanli_trace_index_tracks     (SuanliTrace   *self);
gboolean            suanli_trace_is_growing       (SuanliTrace   *self);
void                suanli_trace_set_growing      (SuanliTrace   *self,
                                                   gboolean       growing);

G_END_DECLS
