/* suanli-import-chrome-private.h — the Chrome importer's state, shared by its stages
 *
 * The importer reads a trace in three stages, one file each: the tokens (yajl's callbacks, which
 * gather an event's members as they come: suanli-import-chrome-tokens.c), the events (one
 * finished event object becomes slices, instants, samples, metadata or flow ends:
 * suanli-import-chrome-events.c) and what follows the stream (open slices closed, flows bound,
 * the base time applied, the warnings: suanli-import-chrome-finish.c). suanli-import-chrome.c
 * runs them over the stream. Only these files include this header.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <yajl/yajl_parse.h>

#include "suanli-array-room.h"
#include "suanli-import.h"
#include "suanli-import-limits.h"
#include "suanli-json-walker.h"
#include "suanli-trace.h"

G_BEGIN_DECLS

#define CHUNK_SIZE      (64 * 1024)
#define MAX_DEPTH       64
#define MAX_ARGS        32
#define MAX_STRING      (1024 * 1024)
/* An argument whose value is an array ("Input Dims": [[32, 64], [64, 128]], "Input type": ["float",
 * "float"]) is kept as its compact JSON text, a string, up to this many bytes; a longer one is left out. */
#define ARRAY_ARG_MAX   512
/* Times, durations and the base time are each kept within ±2^61 ns (±73 years), so that a start
 * plus a duration plus a base can never overflow 64 bits, whatever a file says. */
#define TIME_LIMIT_NS   (G_GINT64_CONSTANT (1) << 61)
/* The pid of the row for global instants: below every real or hashed (word) pid. */
#define GLOBAL_PID      G_MININT64
/* What a track, and an entry of a hash table, take besides their items: for the memory budget. */
#define TRACK_BYTES     256
#define ENTRY_BYTES     48

/* Values an event cannot be placed with: warned about once per file, with the count and where the
 * first was. */
typedef enum {
  BAD_TS,       /* ts: not a time within ±TIME_LIMIT_NS; the event is left out */
  BAD_DUR,      /* dur: negative, or not a time within it; the slice is read as 0 long */
  BAD_ID,       /* pid or tid: true, false, null, an array or an object; the event is left out */
  N_BAD,
} BadValue;

/* Where in the file: the byte after the value, and its line. */
typedef struct
{
  guint64 offset, line;
} Place;

typedef struct
{
  guint64 count;
  Place   first;
} BadCount;

typedef struct
{
  SuanliString name;
  SuanliString category;
  char         phase;
  guint8       bad;                   /* of 1 << BadValue */
  gboolean     has_ts, has_dur;
  gint64       ts, dur;
  gint64       pid, tid;
  gboolean     has_pid, has_tid;
  SuanliString pid_name, tid_name;    /* pids and tids given as words */
  char         scope;
  gboolean     bind_enclosing;        /* "bp": "e" */
  guint        n_args;
  gint64       meta_index;            /* args.sort_index */
  gboolean     has_meta_index;
  /* Last, as only what a new event clears before them is read: of bad_at only the places of the
   * bad values marked, of these two texts only the text up to their NUL, and of the arguments the
   * first n_args. */
  Place        bad_at[N_BAD];         /* where, for the first of the file's */
  char         id[64];
  char         meta_name[128];        /* args.name of metadata events */
  SuanliArg    args[MAX_ARGS];
} Event;

/* 16 bytes (24 with the time between the others): a trace holds two for each of its flows until
 * they are bound. */
typedef struct
{
  guint    track;
  gboolean enclosing;
  gint64   time;
} FlowEnd;

/* Numbers as a trace writes them (suanli-import-chrome-numbers.c). */
G_GNUC_INTERNAL gboolean chrome_parse_integer       (const char *text,
                                                     gsize       length,
                                                     gint64     *value);
G_GNUC_INTERNAL gboolean chrome_parse_short_decimal (const char *text,
                                                     gsize       length,
                                                     double     *value);
G_GNUC_INTERNAL gboolean chrome_parse_microseconds  (const char *text,
                                                     gsize       length,
                                                     gint64     *ns);

/* Flow starts waiting for their ends (suanli-import-chrome-flows.c). */
typedef struct ChromeFlowStarts ChromeFlowStarts;

G_GNUC_INTERNAL ChromeFlowStarts *chrome_flow_starts_new  (void);
G_GNUC_INTERNAL void              chrome_flow_starts_free (ChromeFlowStarts *starts);
/* What a start waiting is counted as taking, for the memory budget: its slot twice over, as the
 * table is kept at most half full. */
G_GNUC_INTERNAL gsize             chrome_flow_starts_entry_bytes (void);
/* Keeps @end as the start waiting under @event's category, name and id: TRUE when none waited
 * under them before (else it takes the place of the one that did). */
G_GNUC_INTERNAL gboolean          chrome_flow_starts_put  (ChromeFlowStarts *starts,
                                                           const Event      *event,
                                                           const FlowEnd    *end);
/* Takes the start waiting under @event's category, name and id into @end: FALSE when none waits. */
G_GNUC_INTERNAL gboolean          chrome_flow_starts_take (ChromeFlowStarts *starts,
                                                           const Event      *event,
                                                           FlowEnd          *end);

/* How many items a track held before this import, so the base time shifts only this file's. */
typedef struct
{
  guint slices, instants, samples;
} TrackMark;

/* A row (thread or GPU stream) an event went to: most events go to one of a few rows, found
 * again here without hashing. */
typedef struct
{
  gint64   pid, tid;
  guint    index;
  gboolean valid;
} TrackHit;

/* A pid or tid as read lately: most events repeat one of the last two (a trace's CPU and GPU
 * events take turns), and its text is then not read again (a word's interned, a number's parsed). */
typedef struct
{
  char         text[16];
  gsize        length;        /* 0: none held (an empty id is read anew) */
  gint64       value;
  SuanliString name;
  gboolean     named;         /* a word, whose text is its name */
} IdHit;

/* The members of an event that the importer reads, named once per key rather than compared per value. */
typedef enum {
  KEY_OTHER,
  KEY_NAME,
  KEY_CAT,
  KEY_PH,
  KEY_TS,
  KEY_DUR,
  KEY_PID,
  KEY_TID,
  KEY_ID,
  KEY_BP,
  KEY_SCOPE,
  KEY_ARGS,
  KEY_ID2,
} EventKey;

/* An argument's key as last read: events of one kind list the same keys, so a key is most often
 * found here again, and is then neither copied nor looked up. Held in one of two places chosen by
 * its length and three of its bytes. Held by its place in the args instead, kernels' and
 * operators' keys took each other's places: on the bench's trace 77% of keys were copied anew
 * (17-22% on the real Kineto fixtures); so, 0.001% (0.02-3%, past the first of each key). */
typedef struct
{
  char         text[128];      /* cut at a NUL (\u0000) and to 127 bytes */
  gsize        length;
  SuanliString id;
  gboolean     interned;       /* id is text's; not until an argument with this key is added */
  gboolean     is_name, is_sort_index;
} ArgKey;

#define ARG_KEY_SETS 64        /* a power of two; one key's value is read before the next key can take its place */

typedef struct
{
  SuanliTrace       *trace;
  SuanliImportStats *stats;
  yajl_handle        parser;
  int                depth;
  gboolean           array_form;      /* a bare array of events */
  int                events_depth;    /* the depth of the events array; 0 until known */
  gboolean           in_event;
  char               key[64];         /* the member being read in an event, or at the top */
  EventKey           event_key;       /* key, when it is an event's own member */
  SuanliString       gpu_categories[8];
  SuanliString       memory_event_name;   /* "[memory]", interned once */
  ArgKey             arg_keys[ARG_KEY_SETS][2];
  guint8             arg_key_victim[ARG_KEY_SETS];   /* the place in the set a new key takes: the older */
  ArgKey            *arg_key;         /* the key of the argument being read */
  gboolean           in_args;
  gboolean           in_id2;
  int                skip_depth;      /* > 0 while skipping a value we do not read */
  int                array_depth;     /* > 0 while reading an argument's array, from this depth */
  gboolean           array_spoiled;   /* it holds an object, true, false or null, or is too long */
  gboolean           array_comma;     /* the next element comes after a comma */
  gsize              array_length;
  char               array_text[ARRAY_ARG_MAX];   /* its compact JSON text so far */
  gboolean           top_key_events;
  gboolean           top_in_distributed;
  gboolean           top_in_devices;  /* in deviceProperties: an object per device */
  guint              group;           /* this file's group in the trace */
  gint64             base_time_ns;    /* added to every time once the file is read */
  gint64             last_time;       /* the latest time in this file, before the base */
  GArray            *marks;           /* of TrackMark: what tracks held before this file */
  Event              event;
  GHashTable        *open_slices;     /* track index → GArray of slice starts (B/E) */
  GHashTable        *open_async;      /* async key → GArray of Event: the begun, not yet ended */
  ChromeFlowStarts  *flow_starts;     /* by category, name and id */
  GArray            *flows;           /* pairs of FlowEnd: start, end */
  GArray            *flow_categories;
  SuanliArrayRoom    flows_room, flow_categories_room;
  GArray            *slice_rooms;     /* of SuanliArrayRoom, by track index: of the tracks' slices */
  guint64            unmatched_ends;
  guint64            unmatched_async_ends;
  guint64            unknown_phases;
  GError            *limit_error;
  gboolean           progressed;     /* a value, key or bracket came since the last chunk */
  GArray            *category_counts; /* of guint64, by category id: slices, for stats->by_category */
  BadCount           bad[N_BAD];
  const guchar      *chunk;           /* the text being parsed, from chunk_at in the file */
  Place              chunk_at;
  Place              base_time_at;    /* where baseTimeNanoseconds was */
  gint64             first_time;      /* the earliest time in this file, before the base */
  guint64            held;            /* bytes this file's items take (strings and tracks apart) */
  guint64            held_before;     /* bytes the trace took before this file (other ranks) */
  gsize              strings_before;  /* the trace's string bytes, and its tracks, before this file */
  guint              tracks_before;
  TrackHit           track_hits[8];   /* the rows events last went to, by pid and tid */
  IdHit              id_hits[2][2];   /* the last two pids, and tids */
  guint8             id_victims[2];   /* of each two, the one a new pid or tid takes: the older */
  /* The events array read in windows (suanli-import-chrome-windows.c) */
  gboolean           windows_allowed;   /* not when SUANLI_TRACE_PARSER=yajl */
  gboolean           windows_wanted;    /* the events array just opened: yajl is stopped for them */
  gboolean           windows_used;      /* once a file */
  gboolean           windowed;          /* a window is being walked: places are in it */
  const char        *window_base;       /* its first byte, at window_at in the file */
  Place              window_at;
  const char        *token_end;         /* the byte after the token being handed over */
} Importer;

/* Where yajl reads on after the windows: at @offset (and @line), past an element or just past the
 * array's '[', with the bytes already read from there on, and a read error met after them. */
typedef struct
{
  guchar  *bytes;
  gsize    length, at;
  GError  *error;
  guint64  offset, line;
  gboolean after_value;
} ChromeResume;

/* Tokens (suanli-import-chrome-tokens.c) */
G_GNUC_INTERNAL extern const yajl_callbacks chrome_callbacks;
G_GNUC_INTERNAL guint chrome_take_tokens (Importer               *importer,
                                          const SuanliJsonRecord *tokens,
                                          guint                   from,
                                          guint                   to,
                                          const char             *raw,
                                          const char             *decoded);
G_GNUC_INTERNAL void  chrome_take_plain_event (Importer               *importer,
                                               const SuanliJsonRecord *tokens,
                                               guint                   from,
                                               guint                   to,
                                               const char             *raw);
G_GNUC_INTERNAL guint64 chrome_count_lines (const guchar *buffer,
                                            gsize         length);

/* Windows (suanli-import-chrome-windows.c): the events array cut into windows and walked */

/* Where an element walked whole ends: the number of tokens up to it, and its end in the bytes. A
 * @plain one is an object with no string to decode (as most events are): chrome_take_plain_event
 * reads it. */
typedef struct
{
  guint    tokens;
  guint32  raw_end;
  gboolean plain;
} ChromeElement;

/* Elements read whole, from a place between two elements of the array (@raw, at @offset and @line
 * in the file, after an element or just after the '['): @raw_length bytes, walked into @tokens.
 * The last window of the array has no tokens and holds every byte read and not walked (yajl
 * reads on from its start), with how the reading ended. */
typedef struct
{
  guchar           *base, *raw;
  gsize             base_size, raw_length;
  guint64           offset, line;
  gboolean          after_value;
  SuanliJsonRecords tokens;       /* placed in @raw; a decoded string's text is in @decoded */
  ChromeElement    *elements;     /* n_elements of them, with room for elements_size */
  guint             n_elements, elements_size;
  GByteArray       *decoded;
  gboolean          last, at_eof;
  GError           *read_error;
  gpointer          next_spare;   /* given back: the next spare window */
} ChromeWindow;

typedef struct ChromeProducer ChromeProducer;

G_GNUC_INTERNAL ChromeProducer *chrome_producer_new  (GInputStream   *stream,
                                                      GCancellable   *cancellable,
                                                      const guchar   *rest,
                                                      gsize           rest_length,
                                                      guint64         offset,
                                                      guint64         line,
                                                      int             events_depth);
G_GNUC_INTERNAL ChromeWindow   *chrome_producer_next (ChromeProducer *producer,
                                                      gboolean        stop);
G_GNUC_INTERNAL void            chrome_producer_free (ChromeProducer *producer);
/* Whether @producer has read all it will: what is left to walk is in memory. */
G_GNUC_INTERNAL gboolean        chrome_producer_read_all (ChromeProducer *producer);
/* Makes, on this thread, the windows and buffers another thread will fill (see the function). */
G_GNUC_INTERNAL void            chrome_producer_make_spares (ChromeProducer *producer);
G_GNUC_INTERNAL void            chrome_window_free   (ChromeWindow   *window);
/* Gives a window handed over back to @producer, from any thread, for its next windows' bytes and
 * tokens (the pages stay mapped: a new megabyte each time cost a tenth of the import in faults). */
G_GNUC_INTERNAL void            chrome_producer_recycle (ChromeProducer *producer,
                                                         ChromeWindow   *window);

/* Replay (suanli-import-chrome-replay.c): the windows' tokens to the callbacks, in order */
G_GNUC_INTERNAL void chrome_read_windows (Importer     *importer,
                                          GInputStream *stream,
                                          GCancellable *cancellable,
                                          const guchar *rest,
                                          gsize         rest_length,
                                          guint64       offset,
                                          guint64       line,
                                          ChromeResume *resume);

/* Events (suanli-import-chrome-events.c) */
G_GNUC_INTERNAL void chrome_intern_gpu_categories (Importer *importer);
G_GNUC_INTERNAL void chrome_process_event (Importer *importer);
G_GNUC_INTERNAL void chrome_add_category_counts (Importer *importer);

/* After the stream (suanli-import-chrome-finish.c) */
G_GNUC_INTERNAL void chrome_mark_tracks (Importer *importer);
G_GNUC_INTERNAL void chrome_close_open_slices (Importer *importer);
G_GNUC_INTERNAL void chrome_bind_flows (Importer *importer);
G_GNUC_INTERNAL void chrome_apply_base_time (Importer *importer);
G_GNUC_INTERNAL gboolean chrome_holds_nothing (Importer *importer);
G_GNUC_INTERNAL guint64 chrome_held_bytes (Importer *importer);
G_GNUC_INTERNAL char *chrome_describe_bad_values (Importer *importer,
                                                  BadValue  bad);
G_GNUC_INTERNAL char *chrome_over_budget_message (Importer                 *importer,
                                                  const SuanliImportLimits *limits,
                                                  guint64                   stalled,
                                                  guint64                   offset);
G_GNUC_INTERNAL void chrome_warn_count (SuanliTrace *trace,
                                        guint64      count,
                                        const char  *format,
                                        ...) G_GNUC_PRINTF (3, 4);
G_GNUC_INTERNAL void chrome_importer_clear (Importer *importer);

G_END_DECLS
