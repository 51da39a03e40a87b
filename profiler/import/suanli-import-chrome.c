/* suanli-import-chrome.c — Chrome trace-event JSON, as PyTorch's profiler and Kineto write it
 *
 * The JSON is streamed through yajl's callback parser in 64 KiB chunks (gzip inflated on the way
 * through GIO), so memory holds the trace model, never the file. Each event object's fields are
 * gathered as they come and the event is turned into slices, instants, counter samples, metadata or
 * flow ends when its object closes. Times are parsed from the number's text into integer
 * nanoseconds. After the stream, tracks are sorted and nested, flows are bound to the slices at
 * their ends, and CPU launches are linked to GPU work by their "correlation" argument.
 * A fault in the bytes stops the import with what was read before it, and a warning naming the
 * byte offset and line; the format and the rules are in docs/trace-formats.md.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <glib/gi18n.h>
#include <yajl/yajl_parse.h>

#include "suanli-analysis.h"
#include "suanli-import-chrome.h"
#include "suanli-import-limits.h"
#include "suanli-import-links.h"

#define CHUNK_SIZE      (64 * 1024)
#define MAX_DEPTH       64
#define MAX_ARGS        32
#define MAX_STRING      (1024 * 1024)
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
  Place        bad_at[N_BAD];         /* where, for the first of the file's */
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
  /* Last, as only what a new event clears before them is read, and of these two only the text
   * up to their NUL, and of the arguments the first n_args. */
  char         id[64];
  char         meta_name[128];        /* args.name of metadata events */
  SuanliArg    args[MAX_ARGS];
} Event;

typedef struct
{
  guint   track;
  gint64  time;
  gboolean enclosing;
} FlowEnd;

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

/* The key last read at one place in an event's args: events of one kind list the same keys in the
 * same order, so the next event's key there is most often the same, and is then neither copied
 * nor looked up again. */
typedef struct
{
  char         text[128];      /* cut at a NUL (\u0000) and to 127 bytes */
  gsize        length;
  SuanliString id;
  gboolean     interned;       /* id is text's; not until an argument with this key is added */
  gboolean     is_name, is_sort_index;
} ArgKey;

#define MAX_ARG_KEYS 64        /* the keys of one args object held: arrays' too, past them one is reused */

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
  ArgKey             arg_keys[MAX_ARG_KEYS + 1];
  guint              arg_ordinal;     /* keys read so far in this event's args */
  ArgKey            *arg_key;         /* the key of the argument being read */
  gboolean           in_args;
  gboolean           in_id2;
  int                skip_depth;      /* > 0 while skipping a value we do not read */
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
  GHashTable        *flow_starts;     /* key → FlowEnd */
  GArray            *flows;           /* pairs of FlowEnd: start, end */
  GArray            *flow_categories;
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
} Importer;

/* g_ascii_isdigit() without its table: numbers are most of a trace's bytes. */
static inline gboolean
is_digit (char c)
{
  return (guchar) (c - '0') <= 9;
}

/* Newlines in @length bytes, found with memchr: trace lines are long, so this is a fraction of a
 * byte-by-byte loop. Lines are only reported in errors, but the count must run as we go. */
static guint64
count_lines (const guchar *buffer,
             gsize         length)
{
  const guchar *at = buffer, *end = buffer + length;
  guint64 lines = 0;

  while (at < end && (at = memchr (at, '\n', (gsize) (end - at))) != NULL)
    {
      lines++;
      at++;
    }
  return lines;
}

/* Where the parser is: just past the value or bracket it handed over. */
static Place
place_now (Importer *importer)
{
  size_t consumed = yajl_get_bytes_consumed (importer->parser);
  Place place = { importer->chunk_at.offset + consumed, importer->chunk_at.line + count_lines (importer->chunk, consumed) };

  return place;
}

/* The event holds an impossible value; where is worked out only while the file has counted none
 * of its kind (counting the lines costs). */
static void
mark_bad (Importer *importer,
          BadValue  bad)
{
  Event *event = &importer->event;

  if (event->bad & (1u << bad))
    return;
  event->bad |= 1u << bad;
  if (importer->bad[bad].count == 0)
    event->bad_at[bad] = place_now (importer);
}

/* A JSON integer that fits 64 bits; FALSE for fractions, exponents and overflow. */
static gboolean
parse_integer (const char *text,
               gsize       length,
               gint64     *value)
{
  guint64 magnitude = 0;
  gboolean negative = length > 0 && text[0] == '-';
  gsize i = negative ? 1 : 0;

  if (i == length)
    return FALSE;
  for (; i < length; i++)
    {
      if (!is_digit (text[i]) || magnitude > (guint64) G_MAXINT64 / 10)
        return FALSE;
      magnitude = magnitude * 10 + (guint64) (text[i] - '0');
    }
  if (magnitude > (guint64) G_MAXINT64)
    return FALSE;
  *value = negative ? -(gint64) magnitude : (gint64) magnitude;
  return TRUE;
}

/* A decimal such as "1.62963" or "-34.9" (no exponent, at most 19 digits, at most 22 after the
 * point) as the double strtod gives: when the digits, as an integer, are below 2^53, both they and
 * the power of ten are exact doubles, and one IEEE division rounds their quotient correctly, as
 * strtod does. FALSE for anything else, which strtod then reads. */
static gboolean
parse_short_decimal (const char *text,
                     gsize       length,
                     double     *value)
{
  static const double powers[] = { 1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
                                   1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22 };
  guint64 digits = 0;
  guint n_digits = 0, after_point = 0;
  gboolean negative = length > 0 && text[0] == '-', point = FALSE;

  for (gsize i = negative ? 1 : 0; i < length; i++)
    {
      if (text[i] == '.' && !point)
        point = TRUE;
      else if (is_digit (text[i]) && n_digits < 19)
        {
          digits = digits * 10 + (guint64) (text[i] - '0');
          n_digits++;
          after_point += point;
        }
      else
        return FALSE;
    }
  if (n_digits == 0 || after_point >= G_N_ELEMENTS (powers) || digits > (G_GUINT64_CONSTANT (1) << 53))
    return FALSE;
  *value = (double) digits / powers[after_point];
  if (negative)
    *value = -*value;
  return TRUE;
}

/* Decimal microseconds, as text, to integer nanoseconds, without a double's rounding: epoch
 * timestamps need every digit. */
static gboolean
parse_microseconds (const char *text,
                    gsize       length,
                    gint64     *ns)
{
  gint64 whole = 0, fraction = 0;
  int digits = 0;
  gboolean negative = FALSE;
  gsize i = 0;

  if (i < length && (text[i] == '-' || text[i] == '+'))
    negative = text[i++] == '-';
  if (i == length)
    return FALSE;
  for (; i < length && is_digit (text[i]); i++)
    {
      if (whole > TIME_LIMIT_NS / 10 / 1000)
        return FALSE;
      whole = whole * 10 + (text[i] - '0');
    }
  if (i < length && text[i] == '.')
    for (i++; i < length && is_digit (text[i]); i++)
      if (digits < 3)
        {
          fraction = fraction * 10 + (text[i] - '0');
          digits++;
        }
  if (i < length)
    {
      /* An exponent or other form: fall back to a double. */
      g_autofree char *copy = g_strndup (text, length);
      char *end = NULL;
      double value = g_ascii_strtod (copy, &end);

      if (end == copy || *end != '\0' || !(fabs (value * 1000.0) <= (double) TIME_LIMIT_NS))
        return FALSE;
      *ns = (gint64) (value * 1000.0);
      return TRUE;
    }
  while (digits < 3)
    {
      fraction *= 10;
      digits++;
    }
  *ns = (whole * 1000 + fraction) * (negative ? -1 : 1);
  return TRUE;
}

/* A pid or tid: an integer, a numeric string, or a word ("CPU functions", "stream 7"). Words get
 * a stable negative number and keep their text as the name. */
static void
read_id (Importer     *importer,
         const char   *text,
         gsize         length,
         gint64       *value,
         SuanliString *name)
{
  char *end = NULL;
  g_autofree char *copy = NULL;
  gint64 number;

  if (parse_integer (text, length, value))
    return;
  copy = g_strndup (text, length);
  *name = suanli_trace_intern (importer->trace, copy, -1);
  /* "stream 7": Kineto's legacy GPU tids. */
  if (g_str_has_prefix (copy, "stream "))
    {
      number = g_ascii_strtoll (copy + 7, &end, 10);
      if (end != copy + 7 && *end == '\0')
        {
          *value = number;
          return;
        }
    }
  *value = -(gint64) (g_str_hash (copy) & 0x7fffffff) - 1;
}

/* The interned id of the argument key being read: interned as an argument is added, never for a
 * key whose value is skipped, so the trace's strings are the same as if each were interned anew. */
static SuanliString
arg_key_id (Importer *importer)
{
  ArgKey *key = importer->arg_key;

  if (!key->interned)
    {
      /* The key holds no NUL (on_map_key cuts it at one), so its length is its strlen. */
      key->id = suanli_trace_intern (importer->trace, key->text, (gssize) key->length);
      key->interned = TRUE;
    }
  return key->id;
}

static void
add_arg (Importer     *importer,
         SuanliArgType type,
         gint64        i,
         double        d,
         const char   *s,
         gsize         length)
{
  Event *event = &importer->event;
  SuanliArg *arg;

  if (event->n_args >= MAX_ARGS)
    return;
  arg = &event->args[event->n_args];
  arg->key = arg_key_id (importer);
  event->n_args++;
  arg->type = type;
  if (type == SUANLI_ARG_INT)
    arg->i = i;
  else if (type == SUANLI_ARG_DOUBLE)
    arg->d = d;
  else
    arg->s = suanli_trace_intern (importer->trace, s, (gssize) MIN (length, MAX_STRING));
}

/* ---- yajl callbacks ----------------------------------------------------------------------- */

static gboolean
skipping (Importer *importer)
{
  return importer->skip_depth > 0;
}

static void
scalar_in_event (Importer   *importer,
                 const char *text,
                 gsize       length,
                 gboolean    is_string)
{
  Event *event = &importer->event;

  if (importer->in_id2)
    {
      g_strlcpy (event->id, "", sizeof event->id);
      memcpy (event->id, text, MIN (length, sizeof event->id - 1));
      event->id[MIN (length, sizeof event->id - 1)] = '\0';
      return;
    }
  if (importer->in_args)
    {
      if (is_string && importer->arg_key->is_name)
        {
          memcpy (event->meta_name, text, MIN (length, sizeof event->meta_name - 1));
          event->meta_name[MIN (length, sizeof event->meta_name - 1)] = '\0';
        }
      if (is_string)
        add_arg (importer, SUANLI_ARG_STRING, 0, 0, text, length);
      else
        {
          gint64 integer = 0;

          double real;

          if (parse_integer (text, length, &integer))
            add_arg (importer, SUANLI_ARG_INT, integer, 0, NULL, 0);
          else if (parse_short_decimal (text, length, &real))
            add_arg (importer, SUANLI_ARG_DOUBLE, 0, real, NULL, 0);
          else
            {
              char copy[64];

              memcpy (copy, text, MIN (length, sizeof copy - 1));
              copy[MIN (length, sizeof copy - 1)] = '\0';
              add_arg (importer, SUANLI_ARG_DOUBLE, 0, g_ascii_strtod (copy, NULL), NULL, 0);
            }
          if (importer->arg_key->is_sort_index)
            {
              event->meta_index = integer;
              event->has_meta_index = TRUE;
            }
        }
      return;
    }

  switch (importer->event_key)
    {
    case KEY_NAME:
      if (is_string)
        event->name = suanli_trace_intern (importer->trace, text, (gssize) MIN (length, MAX_STRING));
      break;
    case KEY_CAT:
      if (is_string)
        event->category = suanli_trace_intern (importer->trace, text, (gssize) MIN (length, MAX_STRING));
      break;
    case KEY_PH:
      if (is_string && length > 0)
        event->phase = text[0];
      break;
    case KEY_TS:
      event->has_ts = parse_microseconds (text, length, &event->ts);
      if (!event->has_ts)
        mark_bad (importer, BAD_TS);
      break;
    case KEY_DUR:
      event->has_dur = parse_microseconds (text, length, &event->dur);
      if (!event->has_dur || event->dur < 0)
        mark_bad (importer, BAD_DUR);
      break;
    case KEY_PID:
      read_id (importer, text, length, &event->pid, &event->pid_name);
      event->has_pid = TRUE;
      break;
    case KEY_TID:
      read_id (importer, text, length, &event->tid, &event->tid_name);
      event->has_tid = TRUE;
      break;
    case KEY_ID:
      memcpy (event->id, text, MIN (length, sizeof event->id - 1));
      event->id[MIN (length, sizeof event->id - 1)] = '\0';
      break;
    case KEY_BP:
      if (is_string)
        event->bind_enclosing = length == 1 && text[0] == 'e';
      break;
    case KEY_SCOPE:
      if (is_string && length > 0)
        event->scope = text[0];
      break;
    case KEY_OTHER:
    case KEY_ARGS:
    case KEY_ID2:
      break;
    }
}

static EventKey
event_key_of (const char *key,
              gsize       length)
{
  /* By length first: this runs for every member of every event. */
  switch (length)
    {
    case 1:
      return key[0] == 's' ? KEY_SCOPE : KEY_OTHER;
    case 2:
      if (key[0] == 'p' && key[1] == 'h')
        return KEY_PH;
      if (key[0] == 't' && key[1] == 's')
        return KEY_TS;
      if (key[0] == 'i' && key[1] == 'd')
        return KEY_ID;
      if (key[0] == 'b' && key[1] == 'p')
        return KEY_BP;
      return KEY_OTHER;
    case 3:
      if (memcmp (key, "id2", 3) == 0)
        return KEY_ID2;
      if (memcmp (key, "cat", 3) == 0)
        return KEY_CAT;
      if (memcmp (key, "dur", 3) == 0)
        return KEY_DUR;
      if (memcmp (key, "pid", 3) == 0)
        return KEY_PID;
      if (memcmp (key, "tid", 3) == 0)
        return KEY_TID;
      return KEY_OTHER;
    case 4:
      if (memcmp (key, "args", 4) == 0)
        return KEY_ARGS;
      return memcmp (key, "name", 4) == 0 ? KEY_NAME : KEY_OTHER;
    case 7:
      return memcmp (key, "bind_id", 7) == 0 ? KEY_ID : KEY_OTHER;
    default:
      return KEY_OTHER;
    }
}

/* A member of one of deviceProperties' devices: the first device's name and memory stand for the
 * file's (a process sees GPUs of one model, as good as always). */
static void
read_device (Importer   *importer,
             const char *text,
             gsize       length,
             gboolean    is_string)
{
  SuanliGroup *group = suanli_trace_get_group (importer->trace, importer->group);
  gint64 bytes = 0;

  if (g_str_equal (importer->key, "name") && is_string && group->device == 0 && length > 0)
    group->device = suanli_trace_intern (importer->trace, text, (gssize) length);
  else if (g_str_equal (importer->key, "totalGlobalMem") && group->device_memory == 0 &&
           parse_integer (text, length, &bytes) && bytes > 0)
    group->device_memory = (guint64) bytes;
}

static void
scalar_at_top (Importer   *importer,
               const char *text,
               gsize       length,
               gboolean    is_string)
{
  if (importer->depth == 2 && importer->top_in_distributed && g_str_equal (importer->key, "rank"))
    {
      gint64 rank = -1;

      if (parse_integer (text, length, &rank) && rank >= 0 && rank <= G_MAXINT)
        suanli_trace_get_group (importer->trace, importer->group)->rank = (int) rank;
    }
  else if (importer->depth == 2 && importer->top_in_distributed && g_str_equal (importer->key, "world_size"))
    {
      gint64 size = 0;

      if (parse_integer (text, length, &size) && size > 0 && size <= G_MAXINT)
        suanli_trace_get_group (importer->trace, importer->group)->world_size = (int) size;
    }
  else if (importer->depth == 3 && importer->top_in_devices)
    read_device (importer, text, length, is_string);
  else if (importer->depth == 1 && g_str_equal (importer->key, "baseTimeNanoseconds"))
    {
      gint64 base = 0;
      Place at = place_now (importer);

      /* An integer of nanoseconds; anything else is not a base time and is ignored. */
      if (parse_integer (text, length, &base) && base >= -TIME_LIMIT_NS && base <= TIME_LIMIT_NS)
        {
          importer->base_time_ns = base;
          importer->base_time_at = at;
        }
      else
        {
          g_autofree char *warning = g_strdup_printf (_("baseTimeNanoseconds at byte %llu (line %llu) is not a whole "
                                                        "number of nanoseconds within 73 years of 1970: ignored"),
                                                      (unsigned long long) at.offset, (unsigned long long) at.line);
          suanli_trace_add_warning (importer->trace, warning);
        }
    }
}

static int
on_scalar (Importer   *importer,
           const char *text,
           gsize       length,
           gboolean    is_string)
{
  importer->progressed = TRUE;
  if (skipping (importer))
    return 1;
  if (importer->in_event)
    scalar_in_event (importer, text, length, is_string);
  else
    scalar_at_top (importer, text, length, is_string);
  return 1;
}

/* A value of a type no time or id has (true, false, null, an array or an object) at @depth: one of
 * the event's own members when the event is one level up. */
static void
check_member_type (Importer *importer,
                   int       depth)
{
  if (!importer->in_event || importer->in_args || importer->in_id2 || depth != importer->events_depth + 1)
    return;
  switch (importer->event_key)
    {
    case KEY_TS:
      mark_bad (importer, BAD_TS);
      break;
    case KEY_DUR:
      mark_bad (importer, BAD_DUR);
      break;
    case KEY_PID:
    case KEY_TID:
      mark_bad (importer, BAD_ID);
      break;
    default:
      break;
    }
}

static int
on_null (void *ctx)
{
  Importer *importer = ctx;

  importer->progressed = TRUE;
  if (!skipping (importer))
    check_member_type (importer, importer->depth);
  return 1;
}

static int
on_boolean (void *ctx,
            int   value)
{
  Importer *importer = ctx;

  importer->progressed = TRUE;
  if (!skipping (importer) && importer->in_event && importer->in_args)
    add_arg (importer, SUANLI_ARG_INT, value, 0, NULL, 0);
  else if (!skipping (importer))
    check_member_type (importer, importer->depth);
  return 1;
}

static int
on_number (void       *ctx,
           const char *text,
           size_t      length)
{
  return on_scalar (ctx, text, length, FALSE);
}

static int
on_string (void                *ctx,
           const unsigned char *text,
           size_t               length)
{
  Importer *importer = ctx;

  /* Numeric strings for times and ids are read as numbers by the field readers. */
  return on_scalar (importer, (const char *) text, length, TRUE);
}

static void
begin_event (Importer *importer)
{
  /* All but the texts, made empty, and the arguments, which n_args = 0 leaves unread (the whole
   * event is a kilobyte). */
  memset (&importer->event, 0, G_STRUCT_OFFSET (Event, id));
  importer->event.id[0] = importer->event.meta_name[0] = '\0';
  importer->in_event = TRUE;
  importer->in_args = FALSE;
  importer->in_id2 = FALSE;
}

static void process_event (Importer *importer);

typedef enum {
  NESTING_READ,
  NESTING_SKIPPED,
  NESTING_TOO_DEEP,
} Nesting;

/* One level deeper, for an object or an array: past the limit is an error (a hostile file could
 * otherwise nest without end); inside a value we skip, only counted. */
static Nesting
enter_nested (Importer *importer)
{
  importer->progressed = TRUE;
  importer->depth++;
  if (importer->depth > MAX_DEPTH)
    {
      g_set_error (&importer->limit_error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                   _("the JSON nests more than %d levels deep"), MAX_DEPTH);
      return NESTING_TOO_DEEP;
    }
  if (skipping (importer))
    {
      importer->skip_depth++;
      return NESTING_SKIPPED;
    }
  return NESTING_READ;
}

static int
on_start_map (void *ctx)
{
  Importer *importer = ctx;
  Nesting nesting;

  nesting = enter_nested (importer);
  if (nesting != NESTING_READ)
    return nesting == NESTING_SKIPPED;   /* 0 stops the parser */
  if (importer->top_in_devices)
    importer->skip_depth = importer->depth == 3 ? 0 : 1;   /* a device's members are read; deeper is not */
  else if (importer->events_depth > 0 && importer->depth == importer->events_depth + 1 && !importer->in_event)
    begin_event (importer);
  else if (importer->in_event && importer->depth == importer->events_depth + 2 && importer->event_key == KEY_ARGS)
    {
      importer->in_args = TRUE;
      importer->arg_ordinal = 0;
    }
  else if (importer->in_event && importer->depth == importer->events_depth + 2 && importer->event_key == KEY_ID2)
    importer->in_id2 = TRUE;
  else if (importer->depth == 2 && !importer->array_form && g_str_equal (importer->key, "distributedInfo"))
    importer->top_in_distributed = TRUE;
  else if (importer->depth > 1)
    {
      check_member_type (importer, importer->depth - 1);
      importer->skip_depth = 1;
    }
  return 1;
}

/* memcmp() == 0 for the few bytes of a key, inline: a call per key was a tenth of reading them. */
static inline gboolean
same_bytes (const char          *a,
            const unsigned char *b,
            gsize                length)
{
  guint64 x, y;

  for (; length >= 8; a += 8, b += 8, length -= 8)
    {
      memcpy (&x, a, 8);
      memcpy (&y, b, 8);
      if (x != y)
        return FALSE;
    }
  for (; length > 0; a++, b++, length--)
    if (*a != (char) *b)
      return FALSE;
  return TRUE;
}

/* An argument's key: the one last read at its place in the args, or copied there. */
static void
read_arg_key (Importer            *importer,
              const unsigned char *key,
              gsize                length)
{
  ArgKey *held = &importer->arg_keys[MIN (importer->arg_ordinal, MAX_ARG_KEYS)];
  gsize i;

  importer->arg_ordinal++;
  importer->arg_key = held;
  /* The same bytes: held text has no NUL and is under 128 bytes, so neither has the key. */
  if (held->length == length && same_bytes (held->text, key, length))
    return;
  /* A key is read as the C string it once was, cut at a NUL. */
  for (i = 0; i < MIN (length, sizeof held->text - 1) && key[i] != '\0'; i++)
    held->text[i] = (char) key[i];
  held->text[i] = '\0';
  held->length = i;
  held->interned = FALSE;
  held->is_name = i == 4 && memcmp (held->text, "name", 4) == 0;
  held->is_sort_index = i == 10 && memcmp (held->text, "sort_index", 10) == 0;
}

static int
on_map_key (void                *ctx,
            const unsigned char *key,
            size_t               length)
{
  Importer *importer = ctx;
  gsize kept = MIN (length, sizeof importer->key - 1), i;

  importer->progressed = TRUE;
  if (skipping (importer))
    return 1;
  if (importer->in_args && importer->depth == importer->events_depth + 2)
    {
      read_arg_key (importer, key, length);
      return 1;
    }
  if (importer->in_event)
    {
      /* An event's own member (or one of its id2): named without copying it. A key is read as the
       * C string it once was, cut at a NUL (\u0000); the names sought are under 8 bytes. */
      for (i = 0; i < MIN (kept, 8) && key[i] != '\0'; i++)
        ;
      if (importer->depth == importer->events_depth + 1)
        importer->in_args = importer->in_id2 = FALSE;
      importer->event_key = event_key_of ((const char *) key, i < 8 ? i : kept);
      return 1;
    }
  /* Copied byte by byte: keys are short, and a NUL ends one. */
  for (i = 0; i < kept && key[i] != '\0'; i++)
    importer->key[i] = (char) key[i];
  importer->key[i] = '\0';
  return 1;
}

static int
on_end_map (void *ctx)
{
  Importer *importer = ctx;

  importer->progressed = TRUE;
  if (skipping (importer))
    {
      importer->skip_depth--;
      importer->depth--;
      return 1;
    }
  if (importer->in_event && importer->depth == importer->events_depth + 1)
    {
      importer->in_event = FALSE;
      process_event (importer);
    }
  else if (importer->in_event && importer->depth == importer->events_depth + 2)
    {
      importer->in_args = FALSE;
      importer->in_id2 = FALSE;
    }
  else if (importer->depth == 2)
    importer->top_in_distributed = FALSE;
  importer->depth--;
  return 1;
}

static int
on_start_array (void *ctx)
{
  Importer *importer = ctx;
  Nesting nesting;

  nesting = enter_nested (importer);
  if (nesting != NESTING_READ)
    return nesting == NESTING_SKIPPED;   /* 0 stops the parser */
  if (importer->depth == 1)
    {
      importer->array_form = TRUE;
      importer->events_depth = 1;
    }
  else if (importer->depth == 2 && !importer->array_form &&
           (g_str_equal (importer->key, "traceEvents") || g_str_equal (importer->key, "systemTraceEvents")))
    importer->events_depth = 2;
  else if (importer->depth == 2 && !importer->array_form && g_str_equal (importer->key, "deviceProperties"))
    importer->top_in_devices = TRUE;
  else
    {
      check_member_type (importer, importer->depth - 1);
      importer->skip_depth = 1;
    }
  return 1;
}

static int
on_end_array (void *ctx)
{
  Importer *importer = ctx;

  importer->progressed = TRUE;
  if (skipping (importer))
    importer->skip_depth--;
  else if (importer->depth == 2)
    importer->top_in_devices = FALSE;
  importer->depth--;
  return 1;
}

static const yajl_callbacks callbacks = {
  on_null, on_boolean, NULL, NULL, on_number, on_string,
  on_start_map, on_map_key, on_end_map, on_start_array, on_end_array,
};

/* ---- events ------------------------------------------------------------------------------- */

static gboolean
is_gpu_category (Importer    *importer,
                 SuanliString category)
{
  for (guint i = 0; i < G_N_ELEMENTS (importer->gpu_categories); i++)
    if (importer->gpu_categories[i] == category)
      return TRUE;
  return FALSE;
}

/* Kineto's categories for work on the GPU (and their names in older traces), interned once. */
static void
intern_gpu_categories (Importer *importer)
{
  static const char * const gpu[] = {
    "kernel", "gpu_memcpy", "gpu_memset", "gpu_user_annotation", "Kernel", "Memcpy", "Memset",
    "mtia_ccp_events",   /* Meta's MTIA accelerators: kernels and DMA on the device's streams */
  };

  G_STATIC_ASSERT (G_N_ELEMENTS (gpu) == G_N_ELEMENTS (importer->gpu_categories));
  for (guint i = 0; i < G_N_ELEMENTS (gpu); i++)
    importer->gpu_categories[i] = suanli_trace_intern (importer->trace, gpu[i], -1);
  importer->memory_event_name = suanli_trace_intern (importer->trace, "[memory]", -1);
}

static SuanliTrack *
event_track (Importer *importer,
             guint    *index)
{
  Event *event = &importer->event;
  SuanliTrackKind kind = is_gpu_category (importer, event->category) ? SUANLI_TRACK_GPU_STREAM : SUANLI_TRACK_THREAD;
  gint64 tid = event->has_tid ? event->tid : event->pid;
  TrackHit *hit = &importer->track_hits[((guint64) event->pid * 31u + (guint64) tid) % G_N_ELEMENTS (importer->track_hits)];
  SuanliTrack *track;

  /* A thread and a GPU stream of one pid and tid are one row (see suanli_trace_ensure_track). */
  if (hit->valid && hit->pid == event->pid && hit->tid == tid)
    {
      track = suanli_trace_get_track (importer->trace, hit->index);
      if (kind == SUANLI_TRACK_GPU_STREAM)
        track->kind = SUANLI_TRACK_GPU_STREAM;
      *index = hit->index;
    }
  else
    {
      track = suanli_trace_ensure_track (importer->trace, kind, event->pid, tid, event->tid_name, index);
      *hit = (TrackHit) { event->pid, tid, *index, TRUE };
    }

  if (event->tid_name != 0 && track->name == 0)
    track->name = event->tid_name;
  if (event->pid_name != 0)
    {
      SuanliProcess *process = suanli_trace_ensure_process (importer->trace, event->pid);
      if (process->name == 0)
        process->name = event->pid_name;
    }
  return track;
}

/* Counted by id as slices come, and added to the stats' table by name once, in importer_clear. */
static void
count_category (Importer    *importer,
                SuanliString category)
{
  if (category >= importer->category_counts->len)
    g_array_set_size (importer->category_counts, category + 1);
  g_array_index (importer->category_counts, guint64, category)++;
}

static void
add_category_counts (Importer *importer)
{
  for (guint id = 0; id < importer->category_counts->len; id++)
    {
      guint64 counted = g_array_index (importer->category_counts, guint64, id);
      const char *text;
      gpointer count;

      if (counted == 0)
        continue;
      text = suanli_trace_get_string (importer->trace, id);
      count = g_hash_table_lookup (importer->stats->by_category, text);
      g_hash_table_replace (importer->stats->by_category, (gpointer) text,
                            GSIZE_TO_POINTER (GPOINTER_TO_SIZE (count) + counted));
    }
}

static void
add_slice (Importer    *importer,
           SuanliTrack *track,
           gint64       start,
           gint64       duration,
           guint8       flags)
{
  Event *event = &importer->event;
  SuanliSlice slice = {
    start, CLAMP (duration, 0, TIME_LIMIT_NS), event->name, event->category, G_MAXUINT32, 0, 0, flags,
  };

  if (event->n_args > 0)
    {
      slice.args = suanli_trace_add_args (importer->trace, event->args, event->n_args);
      slice.n_args = event->n_args;
    }
  g_array_append_val (track->slices, slice);
  importer->held += sizeof slice + event->n_args * sizeof (SuanliArg);
  count_category (importer, event->category);
}

/* The event being read ends the slice that @open[@index] began: removed from @open, and added to
 * @track with the begin's name and arguments (the end's when the begin had none). */
static void
close_slice (Importer    *importer,
             SuanliTrack *track,
             GArray      *open,
             guint        index)
{
  Event begin = g_array_index (open, Event, index);
  Event end = importer->event;

  g_array_remove_index (open, index);
  importer->held -= sizeof begin;
  importer->event = begin;
  if (begin.n_args == 0)
    {
      memcpy (importer->event.args, end.args, sizeof end.args);
      importer->event.n_args = end.n_args;
    }
  add_slice (importer, track, begin.ts, end.ts - begin.ts, 0);
  importer->event = end;
}

/* B opens a slice on its thread's stack; E closes the top one. */
static void
begin_end (Importer    *importer,
           SuanliTrack *track,
           guint        index)
{
  Event *event = &importer->event;
  GArray *open = g_hash_table_lookup (importer->open_slices, GUINT_TO_POINTER (index + 1));

  if (open == NULL)
    {
      open = g_array_new (FALSE, FALSE, sizeof (Event));
      g_hash_table_insert (importer->open_slices, GUINT_TO_POINTER (index + 1), open);
    }
  if (event->phase == 'B')
    {
      g_array_append_val (open, *event);
      importer->held += sizeof *event;
      return;
    }
  if (open->len == 0)
    {
      importer->unmatched_ends++;
      return;
    }
  close_slice (importer, track, open, open->len - 1);
}

static void
counter (Importer *importer)
{
  Event *event = &importer->event;

  for (guint i = 0; i < event->n_args; i++)
    {
      const SuanliArg *arg = &event->args[i];
      g_autofree char *series = g_strdup_printf ("%s %s", suanli_trace_get_string (importer->trace, event->name),
                                                 suanli_trace_get_string (importer->trace, arg->key));
      SuanliTrack *track;
      SuanliSample sample = { event->ts, 0 };

      if (arg->type == SUANLI_ARG_STRING)
        {
          char *end = NULL;
          const char *text = suanli_trace_get_string (importer->trace, arg->s);

          sample.value = g_ascii_strtod (text, &end);
          if (end == text)
            continue;
        }
      else
        sample.value = arg->type == SUANLI_ARG_INT ? (double) arg->i : arg->d;
      track = suanli_trace_ensure_track (importer->trace, SUANLI_TRACK_COUNTER, event->pid, 0,
                                         suanli_trace_intern (importer->trace, series, -1), NULL);
      g_array_append_val (track->samples, sample);
      importer->held += sizeof sample;
    }
}

/* PyTorch's profiler (profile_memory=True) writes each allocation and free as a "[memory]" instant
 * whose args give the allocator's totals after it. The totals become two counters per device, so the
 * timeline draws them as areas and the analysis finds the peak; the instants themselves, with no
 * arguments kept, would say nothing. */
static void
memory_event (Importer *importer)
{
  Event *event = &importer->event;
  gint64 device_type = 0, device = 0, allocated = -1, reserved = -1;

  for (guint i = 0; i < event->n_args; i++)
    {
      const SuanliArg *arg = &event->args[i];
      const char *key = suanli_trace_get_string (importer->trace, arg->key);
      gint64 value;

      if (arg->type == SUANLI_ARG_INT)
        value = arg->i;
      else if (arg->type == SUANLI_ARG_DOUBLE && fabs (arg->d) < 9.0e18)
        value = (gint64) arg->d;
      else
        continue;
      if (g_str_equal (key, "Device Type"))
        device_type = value;
      else if (g_str_equal (key, "Device Id"))
        device = value;
      else if (g_str_equal (key, "Total Allocated"))
        allocated = value;
      else if (g_str_equal (key, "Total Reserved"))
        reserved = value;
    }
  for (int kind = 0; kind < 2; kind++)
    {
      gint64 value = kind == 0 ? allocated : reserved;
      g_autofree char *name = NULL;
      SuanliTrack *track;
      SuanliSample sample = { event->ts, (double) value };

      if (value < 0)
        continue;
      name = suanli_memory_counter_name (device_type, device, kind == 1);
      track = suanli_trace_ensure_track (importer->trace, SUANLI_TRACK_COUNTER, event->pid, 0,
                                         suanli_trace_intern (importer->trace, name, -1), NULL);
      g_array_append_val (track->samples, sample);
      importer->held += sizeof sample;
    }
}

static void
metadata (Importer *importer)
{
  Event *event = &importer->event;
  const char *name = suanli_trace_get_string (importer->trace, event->name);
  SuanliProcess *process = suanli_trace_ensure_process (importer->trace, event->pid);

  if (g_str_equal (name, "process_name") && *event->meta_name)
    process->name = suanli_trace_intern (importer->trace, event->meta_name, -1);
  else if (g_str_equal (name, "process_labels") && *event->meta_name)
    process->labels = suanli_trace_intern (importer->trace, event->meta_name, -1);
  else if (g_str_equal (name, "process_sort_index") && event->has_meta_index)
    process->sort_index = (int) event->meta_index;
  else if (g_str_equal (name, "thread_name") && *event->meta_name)
    {
      guint index;
      SuanliTrack *track = event_track (importer, &index);
      track->name = suanli_trace_intern (importer->trace, event->meta_name, -1);
    }
  else if (g_str_equal (name, "thread_sort_index") && event->has_meta_index)
    {
      guint index;
      event_track (importer, &index)->sort_index = (int) event->meta_index;
    }
}

/* A flow's key: category and name (as hexadecimal ids) and the id text; no printf, as every
 * launch in a Kineto trace has a flow pair. */
static void
flow_key (const Event *event,
          char         key[16 + sizeof event->id])
{
  static const char hex[] = "0123456789abcdef";

  for (guint i = 0; i < 8; i++)
    {
      key[i] = hex[(event->category >> (28 - 4 * i)) & 0xf];
      key[8 + i] = hex[(event->name >> (28 - 4 * i)) & 0xf];
    }
  memcpy (key + 16, event->id, sizeof event->id);   /* NUL-terminated within its 64 bytes */
}

/* What a flow start waiting for its end takes. */
static guint64
flow_start_bytes (const char *key)
{
  return strlen (key) + 1 + sizeof (FlowEnd) + ENTRY_BYTES;
}

/* Flow v1: "s" starts, "t" steps, "f" finishes; keyed by category, name and id. */
static void
flow_event (Importer *importer)
{
  Event *event = &importer->event;
  char key[16 + sizeof event->id];
  FlowEnd end = { 0, event->ts, event->phase == 'f' && event->bind_enclosing };

  flow_key (event, key);
  event_track (importer, &end.track);
  if (event->phase == 's')
    {
      if (g_hash_table_replace (importer->flow_starts, g_strdup (key), g_memdup2 (&end, sizeof end)))
        importer->held += flow_start_bytes (key);
    }
  else if (event->phase == 'f')
    {
      FlowEnd *start = g_hash_table_lookup (importer->flow_starts, key);

      /* Orphan ends are common in real traces: dropped quietly (correlation links them anyway). */
      if (start == NULL)
        return;
      start->enclosing = TRUE;
      g_array_append_vals (importer->flows, start, 1);
      g_array_append_val (importer->flows, end);
      g_array_append_val (importer->flow_categories, event->category);
      g_hash_table_remove (importer->flow_starts, key);
      importer->held += 2 * sizeof end + sizeof event->category;
      importer->held -= flow_start_bytes (key);
    }
}

/* An async slice's key: its category, process and id (nestable async events of one id stack). */
static char *
async_key (const Event *event)
{
  return g_strdup_printf ("%x:%" G_GINT64_FORMAT ":%s", event->category, event->pid, event->id);
}

/* Async slices (b/e/n, and the legacy S/T/F) go to a track of their own per process and the name
 * of the outermost slice of their id, so that nested async slices sit under their parent. */
static SuanliTrack *
async_track (Importer *importer,
             GArray   *open)
{
  const Event *root = open != NULL && open->len > 0 ? &g_array_index (open, Event, 0) : &importer->event;

  return suanli_trace_ensure_track (importer->trace, SUANLI_TRACK_ASYNC, root->pid, 0, root->name, NULL);
}

static void
async_event (Importer *importer)
{
  Event *event = &importer->event;
  g_autofree char *key = async_key (event);
  GArray *open = g_hash_table_lookup (importer->open_async, key);
  guint match;

  if (event->phase == 'b' || event->phase == 'S')
    {
      if (open == NULL)
        {
          open = g_array_new (FALSE, FALSE, sizeof (Event));
          importer->held += strlen (key) + 1 + ENTRY_BYTES;
          g_hash_table_insert (importer->open_async, g_steal_pointer (&key), open);
        }
      g_array_append_val (open, *event);
      importer->held += sizeof *event;
      return;
    }
  if (event->phase == 'n' || event->phase == 'T')
    {
      SuanliInstant instant = { event->ts, event->name, event->category };

      g_array_append_val (async_track (importer, open)->instants, instant);
      importer->held += sizeof instant;
      return;
    }
  /* An end closes the innermost open slice of its name, or the innermost one when it has none. */
  for (match = open != NULL ? open->len : 0; match-- > 0;)
    if (event->name == 0 || g_array_index (open, Event, match).name == event->name)
      break;
  if (open == NULL || match == G_MAXUINT)
    {
      importer->unmatched_async_ends++;
      return;
    }
  close_slice (importer, async_track (importer, open), open, match);
}

/* Counts the event's impossible values. Returns: FALSE when it cannot be placed in time or in a
 * row, and is left out. */
static gboolean
count_bad_values (Importer *importer)
{
  Event *event = &importer->event;
  gboolean placed = TRUE;

  for (guint bad = 0; bad < N_BAD; bad++)
    {
      if (!(event->bad & (1u << bad)))
        continue;
      /* Metadata needs no time, and only a complete slice (X) a duration. */
      if ((bad == BAD_TS && event->phase == 'M') || (bad == BAD_DUR && event->phase != 'X'))
        continue;
      if (importer->bad[bad].count++ == 0)
        importer->bad[bad].first = event->bad_at[bad];
      placed = placed && bad == BAD_DUR;
    }
  return placed;
}

static void
process_event (Importer *importer)
{
  Event *event = &importer->event;
  SuanliTrack *track;
  guint index;

  importer->stats->events++;
  if (event->phase == 0)
    return;   /* an empty final {} of an unfinished array */
  if (event->bad != 0 && !count_bad_values (importer))
    return;
  if (event->phase != 'M')
    {
      importer->first_time = MIN (importer->first_time, event->ts);
      importer->last_time = MAX (importer->last_time, event->ts + (event->phase == 'X' ? MAX (0, event->dur) : 0));
    }

  switch (event->phase)
    {
    case 'X':
      track = event_track (importer, &index);
      add_slice (importer, track, event->ts, event->has_dur ? event->dur : 0, 0);
      break;
    case 'B':
    case 'E':
      track = event_track (importer, &index);
      begin_end (importer, track, index);
      break;
    case 'i':
    case 'I':
    case 'R':
      if (event->name == importer->memory_event_name && event->n_args > 0)
        {
          memory_event (importer);
          break;
        }
      {
        SuanliInstant instant = { event->ts, event->name, event->category };

        /* Global instants get a row of their own, apart from every process (pid 0 is GPU 0). */
        if (event->scope == 'g')
          {
            event->pid = GLOBAL_PID, event->has_tid = FALSE, event->tid = GLOBAL_PID;
            event->pid_name = event->tid_name = 0;
          }
        track = event_track (importer, &index);
        g_array_append_val (track->instants, instant);
        importer->held += sizeof instant;
        break;
      }
    case 'C':
      counter (importer);
      break;
    case 'M':
      metadata (importer);
      break;
    case 's':
    case 't':
    case 'f':
      flow_event (importer);
      break;
    case 'b':
    case 'e':
    case 'n':
    case 'S':
    case 'T':
    case 'F':
      async_event (importer);
      break;
    case 'P':
      /* Samples are counted as events; their stacks are not read. */
      break;
    default:
      importer->unknown_phases++;
    }
}

/* ---- after the stream --------------------------------------------------------------------- */

/* The deepest slice of @track around @time (or, unless @enclosing, the first at or after it). */
static gboolean
find_slice (SuanliTrack *track,
            gint64       time,
            gboolean     enclosing,
            guint32     *slice_index)
{
  GArray *slices = track->slices;
  guint low = 0, high = slices->len;
  gboolean found = FALSE;

  if (!enclosing)
    {
      /* The first slice starting at or after @time. */
      while (low < high)
        {
          guint middle = (low + high) / 2;

          if (g_array_index (slices, SuanliSlice, middle).start < time)
            low = middle + 1;
          else
            high = middle;
        }
      *slice_index = low;
      return low < slices->len;
    }

  /* The first slice starting after @time. */
  while (low < high)
    {
      guint middle = (low + high) / 2;

      if (g_array_index (slices, SuanliSlice, middle).start <= time)
        low = middle + 1;
      else
        high = middle;
    }
  /* Slices before it that still cover @time: the last of them is the deepest. */
  for (guint i = low; i-- > 0;)
    {
      SuanliSlice *slice = &g_array_index (slices, SuanliSlice, i);

      if (slice->start <= time && time <= slice->start + slice->duration)
        {
          *slice_index = i;
          found = TRUE;
          break;
        }
      if (slice->depth == 0)
        break;
    }
  return found;
}

static void
bind_flows (Importer *importer)
{
  for (guint i = 0; i + 1 < importer->flows->len; i += 2)
    {
      FlowEnd *start = &g_array_index (importer->flows, FlowEnd, i);
      FlowEnd *end = &g_array_index (importer->flows, FlowEnd, i + 1);
      SuanliFlow flow = { start->track, 0, end->track, 0, g_array_index (importer->flow_categories, SuanliString, i / 2) };

      if (find_slice (suanli_trace_get_track (importer->trace, start->track), start->time, TRUE, &flow.from_slice) &&
          find_slice (suanli_trace_get_track (importer->trace, end->track), end->time, end->enclosing, &flow.to_slice))
        suanli_trace_add_flow (importer->trace, &flow);
    }
}

static void
close_open_slices (Importer *importer)
{
  GHashTableIter iter;
  gpointer key, value;
  gint64 last = importer->last_time;
  guint64 unfinished = 0;

  g_hash_table_iter_init (&iter, importer->open_slices);
  while (g_hash_table_iter_next (&iter, &key, &value))
    {
      GArray *open = value;
      SuanliTrack *track = suanli_trace_get_track (importer->trace, GPOINTER_TO_UINT (key) - 1);

      for (guint i = open->len; i-- > 0;)
        {
          importer->event = g_array_index (open, Event, i);
          add_slice (importer, track, importer->event.ts, last - importer->event.ts, SUANLI_SLICE_UNFINISHED);
          unfinished++;
        }
    }
  /* Async slices still open: closed the same way, on their own tracks. */
  g_hash_table_iter_init (&iter, importer->open_async);
  while (g_hash_table_iter_next (&iter, &key, &value))
    {
      GArray *open = value;
      SuanliTrack *track = async_track (importer, open);

      for (guint i = open->len; i-- > 0;)
        {
          importer->event = g_array_index (open, Event, i);
          add_slice (importer, track, importer->event.ts, last - importer->event.ts, SUANLI_SLICE_UNFINISHED);
          unfinished++;
        }
    }
  if (unfinished > 0)
    {
      g_autofree char *warning = g_strdup_printf (ngettext ("%llu slice began and never ended: closed at the trace's end",
                                                              "%llu slices began and never ended: closed at the trace's end",
                                                              unfinished),
                                                    (unsigned long long) unfinished);
      suanli_trace_add_warning (importer->trace, warning);
    }
}

static void
mark_tracks (Importer *importer)
{
  guint n_tracks = suanli_trace_get_n_tracks (importer->trace);

  importer->marks = g_array_sized_new (FALSE, FALSE, sizeof (TrackMark), n_tracks);
  for (guint t = 0; t < n_tracks; t++)
    {
      SuanliTrack *track = suanli_trace_get_track (importer->trace, t);
      TrackMark mark = { track->slices->len, track->instants->len, track->samples->len };
      g_array_append_val (importer->marks, mark);
    }
}

/* Both are within ±TIME_LIMIT_NS, so the sum cannot overflow; the result is kept within it too. */
static void
shift (gint64 *time,
       gint64  base)
{
  *time = CLAMP (*time + base, -TIME_LIMIT_NS, TIME_LIMIT_NS);
}

/* Kineto writes baseTimeNanoseconds after the events, so it is added once the file is read, to
 * this file's items only (the trace may already hold other ranks). */
static void
apply_base_time (Importer *importer)
{
  gint64 base = importer->base_time_ns;

  if (base == 0)
    return;
  /* A file whose ts are absolute already (microseconds since 1970) and that names a base time too
   * would have every time pushed past 2043. */
  if ((base > 0 && importer->last_time > TIME_LIMIT_NS - base) || (base < 0 && importer->first_time < -TIME_LIMIT_NS - base))
    {
      g_autofree char *warning = g_strdup_printf (_("baseTimeNanoseconds at byte %llu (line %llu) would move the "
                                                    "events more than 73 years from 1970 (their ts may be absolute "
                                                    "already): not added"),
                                                  (unsigned long long) importer->base_time_at.offset,
                                                  (unsigned long long) importer->base_time_at.line);
      suanli_trace_add_warning (importer->trace, warning);
      return;
    }
  for (guint t = 0; t < suanli_trace_get_n_tracks (importer->trace); t++)
    {
      SuanliTrack *track = suanli_trace_get_track (importer->trace, t);
      TrackMark mark = { 0 };

      if (t < importer->marks->len)
        mark = g_array_index (importer->marks, TrackMark, t);
      for (guint i = mark.slices; i < track->slices->len; i++)
        shift (&g_array_index (track->slices, SuanliSlice, i).start, base);
      for (guint i = mark.instants; i < track->instants->len; i++)
        shift (&g_array_index (track->instants, SuanliInstant, i).time, base);
      for (guint i = mark.samples; i < track->samples->len; i++)
        shift (&g_array_index (track->samples, SuanliSample, i).time, base);
    }
  for (guint i = 0; i < importer->flows->len; i++)
    shift (&g_array_index (importer->flows, FlowEnd, i).time, base);
}

/* A warning that @count events were ignored, when there were any; @format takes the count. */
static void G_GNUC_PRINTF (3, 4)
warn_count (SuanliTrace *trace,
            guint64      count,
            const char  *format,
            ...)
{
  g_autofree char *warning = NULL;
  va_list args;

  if (count == 0)
    return;
  va_start (args, format);
  warning = g_strdup_vprintf (format, args);
  va_end (args);
  suanli_trace_add_warning (trace, warning);
}

/* What is said about the file's values of kind @bad, with how many and where the first was; NULL
 * when it had none. */
static char *
describe_bad_values (Importer *importer,
                     BadValue  bad)
{
  const BadCount *counted = &importer->bad[bad];
  unsigned long long count = counted->count, offset = counted->first.offset, line = counted->first.line;

  if (count == 0)
    return NULL;
  switch (bad)
    {
    case BAD_TS:
      return g_strdup_printf (ngettext ("%llu event has a ts that is no time within 73 years of 1970 (at byte %llu, "
                                        "line %llu): left out",
                                        "%llu events have a ts that is no time within 73 years of 1970 (the first "
                                        "at byte %llu, line %llu): left out", count),
                              count, offset, line);
    case BAD_DUR:
      return g_strdup_printf (ngettext ("%llu slice has a dur that is negative or no time within 73 years (at byte "
                                        "%llu, line %llu): read as 0",
                                        "%llu slices have a dur that is negative or no time within 73 years (the "
                                        "first at byte %llu, line %llu): read as 0", count),
                              count, offset, line);
    case BAD_ID:
    case N_BAD:
    default:
      return g_strdup_printf (ngettext ("%llu event has a pid or tid that is neither a number nor a word (true, "
                                        "false, null, an array or an object; at byte %llu, line %llu): left out",
                                        "%llu events have a pid or tid that is neither a number nor a word (true, "
                                        "false, null, an array or an object; the first at byte %llu, line %llu): "
                                        "left out", count),
                              count, offset, line);
    }
}

/* Whether this file added nothing to any track: metadata alone names tracks but fills none, and
 * flow ends alone join nothing. */
static gboolean
holds_nothing (Importer *importer)
{
  for (guint t = 0; t < suanli_trace_get_n_tracks (importer->trace); t++)
    {
      SuanliTrack *track = suanli_trace_get_track (importer->trace, t);
      TrackMark mark = { 0 };

      if (t < importer->marks->len)
        mark = g_array_index (importer->marks, TrackMark, t);
      if (track->slices->len > mark.slices || track->instants->len > mark.instants || track->samples->len > mark.samples)
        return FALSE;
    }
  return TRUE;
}

static void
importer_clear (Importer *importer)
{
  add_category_counts (importer);
  g_array_unref (importer->category_counts);
  g_hash_table_unref (importer->open_slices);
  g_hash_table_unref (importer->open_async);
  g_hash_table_unref (importer->flow_starts);
  g_array_unref (importer->flows);
  g_array_unref (importer->flow_categories);
  g_array_unref (importer->marks);
}

/* The memory the trace takes so far: what the files before this one took, and this one's items,
 * begins waiting for their ends, and the strings and tracks it added. */
static guint64
held_bytes (Importer *importer)
{
  return importer->held_before + importer->held + (suanli_trace_get_string_bytes (importer->trace) - importer->strings_before) +
         (guint64) (suanli_trace_get_n_tracks (importer->trace) - importer->tracks_before) * TRACK_BYTES;
}

/* Why the reading stopped at a budget (see suanli-import-limits.c), or NULL while within them. */
static char *
over_budget_message (Importer                 *importer,
                     const SuanliImportLimits *limits,
                     guint64                   stalled,
                     guint64                   offset)
{
  if (stalled > limits->max_token)
    return g_strdup_printf (_("one JSON value is longer than %llu bytes (SUANLI_TRACE_MAX_TOKEN)"),
                            (unsigned long long) limits->max_token);
  if (offset > limits->max_bytes)
    return g_strdup_printf (_("the trace is longer than %llu bytes of JSON (SUANLI_TRACE_MAX_BYTES)"),
                            (unsigned long long) limits->max_bytes);
  if (held_bytes (importer) > limits->max_memory)
    return g_strdup_printf (_("the trace read so far takes more than %llu MiB of memory (SUANLI_TRACE_MAX_MEMORY, "
                              "in bytes, sets it; by default a quarter of the machine's memory)"),
                            (unsigned long long) (limits->max_memory >> 20));
  return NULL;
}

/* Reads the Chrome trace JSON in @stream into @trace (which may already hold other ranks).
 * Returns FALSE with @error only when nothing could be read; a fault later keeps what was read and
 * adds a warning with its byte offset and line. */
gboolean
suanli_import_chrome (SuanliTrace       *trace,
                      GInputStream      *stream,
                      const char        *name,
                      SuanliImportStats *stats,
                      GCancellable      *cancellable,
                      GError           **error)
{
  Importer importer = { 0 };
  g_autofree guchar *buffer = g_malloc (CHUNK_SIZE);
  guint64 offset = 0, line = 1;
  gboolean fault = FALSE;
  g_autofree char *fault_message = NULL;
  guint64 fault_offset = 0, fault_line = 0;
  guint64 stalled = 0;      /* bytes since a value, key or bracket last came: one token's length */
  gboolean over_budget = FALSE;
  SuanliImportLimits limits = suanli_import_limits ();
  guint64 events_before = stats->events;   /* @stats may count the files read before this one */
  gssize length;

  g_return_val_if_fail (SUANLI_IS_TRACE (trace), FALSE);

  if (stats->by_category == NULL)
    stats->by_category = g_hash_table_new (g_str_hash, g_str_equal);
  importer.trace = trace;
  importer.stats = stats;
  importer.open_slices = g_hash_table_new_full (NULL, NULL, NULL, (GDestroyNotify) g_array_unref);
  importer.open_async = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, (GDestroyNotify) g_array_unref);
  importer.flow_starts = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  importer.flows = g_array_new (FALSE, FALSE, sizeof (FlowEnd));
  importer.flow_categories = g_array_new (FALSE, FALSE, sizeof (SuanliString));
  importer.category_counts = g_array_new (FALSE, TRUE, sizeof (guint64));
  importer.group = suanli_trace_begin_group (trace, name);
  importer.held_before = suanli_trace_get_memory_size (trace);
  importer.strings_before = suanli_trace_get_string_bytes (trace);
  importer.tracks_before = suanli_trace_get_n_tracks (trace);
  importer.last_time = G_MININT64;
  importer.first_time = G_MAXINT64;
  intern_gpu_categories (&importer);
  mark_tracks (&importer);
  importer.parser = yajl_alloc (&callbacks, NULL, &importer);
  yajl_config (importer.parser, yajl_allow_multiple_values, 0);

  while (!fault && (length = g_input_stream_read (stream, buffer, CHUNK_SIZE, cancellable, error)) > 0)
    {
      yajl_status status;

      importer.chunk = buffer;
      importer.chunk_at = (Place) { offset, line };
      status = yajl_parse (importer.parser, buffer, (size_t) length);

      if (status != yajl_status_ok)
        {
          size_t consumed = yajl_get_bytes_consumed (importer.parser);
          unsigned char *text = yajl_get_error (importer.parser, 0, buffer, (size_t) length);

          line += count_lines (buffer, MIN (consumed, (size_t) length));
          fault = TRUE;
          fault_offset = offset + consumed;
          fault_line = line;
          fault_message = importer.limit_error != NULL ? g_strdup (importer.limit_error->message)
                                                       : g_strstrip (g_strdup ((const char *) text));
          yajl_free_error (importer.parser, text);
          break;
        }
      line += count_lines (buffer, (gsize) length);
      offset += (guint64) length;
      /* yajl keeps a token that spans chunks and reads it again with each: one of megabytes costs
       * quadratic time. A small gzip can inflate to many gigabytes of text, which takes minutes,
       * and of tiny events, which take more memory than the machine has. Each stops the reading;
       * what came before is kept. */
      stalled = importer.progressed ? 0 : stalled + (guint64) length;
      importer.progressed = FALSE;
      fault_message = over_budget_message (&importer, &limits, stalled, offset);
      if (fault_message != NULL)
        {
          fault = over_budget = TRUE;
          fault_offset = offset;
          fault_line = line;
          break;
        }
    }
  stats->bytes += offset + (fault ? fault_offset - offset : 0);

  importer.chunk_at = (Place) { offset, line };   /* the end: nothing more of the chunk is read */
  if (!fault && length == 0 && yajl_complete_parse (importer.parser) != yajl_status_ok)
    {
      /* An unfinished array is a legal trace: the profiler was stopped before it closed it. */
      if (!(importer.array_form && !importer.in_event && importer.depth <= 1))
        {
          fault = TRUE;
          fault_offset = offset;
          fault_line = line;
          fault_message = g_strdup (offset == 0 ? _("the file is empty") : _("the file ends in the middle of the JSON"));
        }
    }
  yajl_free (importer.parser);
  g_clear_error (&importer.limit_error);

  if (length < 0)
    fault = FALSE;   /* a read error: reported through @error below */
  if (length < 0 && (stats->events == events_before || g_error_matches (*error, G_IO_ERROR, G_IO_ERROR_CANCELLED)))
    {
      /* Nothing to keep, or the user asked to stop: the error stands. */
      importer_clear (&importer);
      return FALSE;
    }

  if (fault || length < 0)
    {
      if (stats->events == events_before)
        {
          if (length >= 0 && over_budget)
            g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA, _("%s: stopped reading at byte %llu, line %llu: %s"),
                         name, (unsigned long long) fault_offset, (unsigned long long) fault_line, fault_message);
          else if (length >= 0)
            g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA, _("%s: not a trace: at byte %llu, line %llu: %s"),
                         name, (unsigned long long) fault_offset, (unsigned long long) fault_line, fault_message);
          importer_clear (&importer);
          return FALSE;
        }
      if (length >= 0 && over_budget)
        {
          g_autofree char *warning = g_strdup_printf (_("%s: stopped reading at byte %llu (line %llu), keeping what "
                                                        "came before: %s"),
                                                      name, (unsigned long long) fault_offset,
                                                      (unsigned long long) fault_line, fault_message);
          suanli_trace_add_partial_warning (trace, warning);
        }
      else if (length >= 0)
        {
          g_autofree char *warning = g_strdup_printf (_("%s: read up to byte %llu (line %llu), where the JSON breaks: %s"),
                                                      name, (unsigned long long) fault_offset,
                                                      (unsigned long long) fault_line, fault_message);
          suanli_trace_add_partial_warning (trace, warning);
        }
      else
        {
          /* A read error after some events (a cut gzip, a broken pipe): keep them, and say where. */
          g_autofree char *warning = g_strdup_printf (_("%s: read up to byte %llu (line %llu), where reading failed: %s"),
                                                      name, (unsigned long long) offset, (unsigned long long) line,
                                                      (*error)->message);
          suanli_trace_add_partial_warning (trace, warning);
          g_clear_error (error);
        }
    }

  warn_count (trace, importer.unmatched_ends, ngettext ("%llu end (E) had no begin (B): ignored",
                                                        "%llu ends (E) had no begin (B): ignored",
                                                        importer.unmatched_ends),
              (unsigned long long) importer.unmatched_ends);
  warn_count (trace, importer.unmatched_async_ends, ngettext ("%llu async end had no begin: ignored",
                                                              "%llu async ends had no begin: ignored",
                                                              importer.unmatched_async_ends),
              (unsigned long long) importer.unmatched_async_ends);
  warn_count (trace, importer.unknown_phases, ngettext ("%llu event of an unknown phase: ignored",
                                                        "%llu events of unknown phases: ignored",
                                                        importer.unknown_phases),
              (unsigned long long) importer.unknown_phases);
  close_open_slices (&importer);
  if (holds_nothing (&importer))
    {
      g_autofree char *left_out = describe_bad_values (&importer, importer.bad[BAD_TS].count > 0 ? BAD_TS : BAD_ID);

      /* JSON (or the part before a fault), but no event with a time: a settings file, an empty
       * list, a wrong export; or a trace whose times (or rows) cannot be made sense of. */
      if (left_out != NULL)
        g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA, _("%s: holds no trace that can be placed in time: %s"),
                     name, left_out);
      else
        g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                     _("%s: holds no trace: no event with a time in it (a Chrome or Kineto trace lists its events "
                       "in \"traceEvents\" or as a top-level array)"),
                     name);
      importer_clear (&importer);
      return FALSE;
    }
  for (guint bad = 0; bad < N_BAD; bad++)
    {
      g_autofree char *warning = describe_bad_values (&importer, bad);

      if (warning != NULL)
        suanli_trace_add_warning (trace, warning);
    }
  apply_base_time (&importer);
  suanli_trace_finish (trace);
  bind_flows (&importer);
  suanli_import_link_correlations (trace, importer.group);
  suanli_analysis_add_queue_counters (trace, importer.group);

  importer_clear (&importer);
  return TRUE;
}
