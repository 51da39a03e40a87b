/* suanli-trace.c — a trace in memory: processes, tracks, slices, instants, counters and flows
 *
 * Built for traces of millions of events: slices are small structs in one array per track, strings
 * are interned once, arguments are typed values in one shared table. No GObject per event.
 * Importers fill a trace, then call suanli_trace_finish(), which sorts each track and works out
 * nesting; after that the trace is read only (a live capture will append and re-finish its tail).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>
#include <string.h>
#include <glib/gi18n.h>

#include "suanli-arg-table.h"
#include "suanli-same-bytes.h"
#include "suanli-trace.h"
#include "suanli-track-index.h"

/* Two sibling slices that overlap by less than this are a rounding artefact, not real overlap. */
#define ROUNDING_NS 1000

/* One slot of the string table: the text's hash and its id + 1 (0: empty). */
typedef struct
{
  guint32 hash;
  guint32 id;
} StringSlot;

struct _SuanliTrace
{
  GObject       parent_instance;

  GStringChunk *chunk;
  StringSlot   *string_slots;   /* text → id: open addressing, at most half full */
  gsize         string_mask;    /* slots, less one (a power of two, less one) */
  GPtrArray    *strings;        /* id → text */
  GArray       *string_lengths; /* id → its text's length (gsize) */
  gsize         string_bytes;   /* what the strings take: texts, their entries, their slots */
  guint32       recent[256];    /* a direct-mapped cache of ids, in front of string_slots */
  GPtrArray    *tracks;         /* of SuanliTrack */
  GHashTable   *track_ids;      /* TrackKey → index + 1 */
  GArray       *processes;      /* of SuanliProcess */
  GHashTable   *process_ids;    /* TrackKey → index + 1 */
  GArray       *groups;         /* of SuanliGroup: one per file read */
  guint         current_group;  /* where new tracks and processes go */
  SuanliArgTable args;          /* every slice's arguments, a slice's together */
  GArray       *flows;          /* of SuanliFlow */
  GPtrArray    *warnings;
  GArray       *warning_groups; /* of guint: the group each warning is about, G_MAXUINT for none */
  int           partial;        /* the warning that says a file was read only partly, or -1 */
  int           notable;        /* the first from an importer (not about overlapping slices), or -1 */
  GHashTable   *metadata;
  GArray       *finished;       /* per track: a TrackMark of what the last finish sorted */
  GPtrArray    *indexes;        /* per track: its SuanliTrackIndex, or NULL until asked for */
  guint         growing;        /* live captures appending (several ranks may be): main thread only */
};

enum {
  PROP_0,
  PROP_GROWING,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

/* How many slices, instants and samples of a track are sorted and nested. */
typedef struct
{
  guint slices, instants, samples;
} TrackMark;

enum {
  SIGNAL_GROWN,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

/* Tracks are found by group, kind, process, thread and (for counters and async tracks) name;
 * processes by group and pid alone (kind PROCESS_KEY, tid 0). */
typedef struct
{
  guint           group;
  int             kind;
  SuanliString    name;
  gint64          pid;
  gint64          tid;
} TrackKey;

#define PROCESS_KEY (-1)

static guint
track_key_hash (gconstpointer data)
{
  const TrackKey *key = data;
  guint64 mixed = (guint64) key->pid * G_GUINT64_CONSTANT (0x9e3779b97f4a7c15) ^ (guint64) key->tid * 31u ^
                  ((guint64) (key->kind + 1) << 40) ^ ((guint64) key->name << 8) ^ ((guint64) key->group << 52);

  return (guint) (mixed ^ (mixed >> 32));
}

static gboolean
track_key_equal (gconstpointer a,
                 gconstpointer b)
{
  const TrackKey *x = a, *y = b;

  return x->group == y->group && x->kind == y->kind && x->name == y->name && x->pid == y->pid && x->tid == y->tid;
}

G_DEFINE_FINAL_TYPE (SuanliTrace, suanli_trace, G_TYPE_OBJECT)

static void
track_free (SuanliTrack *track)
{
  g_array_unref (track->slices);
  g_array_unref (track->instants);
  g_array_unref (track->samples);
  g_free (track);
}

static void
suanli_trace_finalize (GObject *object)
{
  SuanliTrace *self = SUANLI_TRACE (object);

  g_string_chunk_free (self->chunk);
  g_free (self->string_slots);
  g_ptr_array_unref (self->strings);
  g_array_unref (self->string_lengths);
  g_ptr_array_unref (self->tracks);
  g_hash_table_unref (self->track_ids);
  g_array_unref (self->processes);
  g_hash_table_unref (self->process_ids);
  g_array_unref (self->groups);
  suanli_arg_table_clear (&self->args);
  g_array_unref (self->flows);
  g_ptr_array_unref (self->warnings);
  g_array_unref (self->warning_groups);
  g_hash_table_unref (self->metadata);
  g_array_unref (self->finished);
  g_ptr_array_unref (self->indexes);

  G_OBJECT_CLASS (suanli_trace_parent_class)->finalize (object);
}

static void
suanli_trace_get_property (GObject    *object,
                           guint       property_id,
                           GValue     *value,
                           GParamSpec *pspec)
{
  switch (property_id)
    {
    case PROP_GROWING:
      g_value_set_boolean (value, SUANLI_TRACE (object)->growing > 0);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, property_id, pspec);
    }
}

static void
suanli_trace_class_init (SuanliTraceClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = suanli_trace_finalize;
  G_OBJECT_CLASS (klass)->get_property = suanli_trace_get_property;
  /* A live capture is appending to the trace: analyses on worker threads must wait for it to end. */
  properties[PROP_GROWING] = g_param_spec_boolean ("growing", NULL, NULL, FALSE,
                                                   G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (G_OBJECT_CLASS (klass), N_PROPS, properties);
  /* Items were appended to a finished trace (a live capture) and are now sorted and nested. */
  signals[SIGNAL_GROWN] = g_signal_new ("grown", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                                        G_TYPE_NONE, 0);
}

static void
suanli_trace_init (SuanliTrace *self)
{
  self->chunk = g_string_chunk_new (64 * 1024);
  self->string_mask = 1023;
  self->string_slots = g_new0 (StringSlot, self->string_mask + 1);
  self->strings = g_ptr_array_new ();
  self->string_lengths = g_array_new (FALSE, FALSE, sizeof (gsize));
  self->tracks = g_ptr_array_new_with_free_func ((GDestroyNotify) track_free);
  self->track_ids = g_hash_table_new_full (track_key_hash, track_key_equal, g_free, NULL);
  self->processes = g_array_new (FALSE, TRUE, sizeof (SuanliProcess));
  self->process_ids = g_hash_table_new_full (track_key_hash, track_key_equal, g_free, NULL);
  self->groups = g_array_new (FALSE, TRUE, sizeof (SuanliGroup));
  self->flows = g_array_new (FALSE, FALSE, sizeof (SuanliFlow));
  self->warnings = g_ptr_array_new_with_free_func (g_free);
  self->warning_groups = g_array_new (FALSE, FALSE, sizeof (guint));
  self->partial = -1;
  self->notable = -1;
  self->metadata = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  self->finished = g_array_new (FALSE, TRUE, sizeof (TrackMark));
  self->indexes = g_ptr_array_new_with_free_func ((GDestroyNotify) suanli_track_index_free);
  suanli_trace_intern (self, "", 0);
}

SuanliTrace *
suanli_trace_new (void)
{
  return g_object_new (SUANLI_TYPE_TRACE, NULL);
}

/* Starts a group (one file, usually one rank): the tracks and processes made from now on belong
 * to it, so that pid 0 of rank 0 and pid 0 of rank 1 stay apart. Returns its index. */
guint
suanli_trace_begin_group (SuanliTrace *self,
                          const char  *name)
{
  SuanliGroup group = { suanli_trace_intern (self, name, -1), -1, 0, 0, 0, SUANLI_GROUP_NOT_CAPTURED };

  g_array_append_val (self->groups, group);
  self->current_group = self->groups->len - 1;
  return self->current_group;
}

guint
suanli_trace_get_n_groups (SuanliTrace *self)
{
  return self->groups->len;
}

/* Returns: (nullable): the group, or NULL for tracks made outside any group (group 0 of none). */
SuanliGroup *
suanli_trace_get_group (SuanliTrace *self,
                        guint        index)
{
  return index < self->groups->len ? &g_array_index (self->groups, SuanliGroup, index) : NULL;
}

/* A hash of @length bytes, eight at a time: trace names are long (a kernel's, with its template
 * arguments, is hundreds of bytes), and a byte at a time was most of interning a new one. */
static guint32
hash_text (const char *text,
           gsize       length)
{
  guint64 hash = G_GUINT64_CONSTANT (0x9e3779b97f4a7c15) ^ length, word;

  for (; length >= 8; text += 8, length -= 8)
    {
      memcpy (&word, text, 8);
      hash = (hash ^ word) * G_GUINT64_CONSTANT (0xff51afd7ed558ccd);
      hash ^= hash >> 32;
    }
  word = 0;
  memcpy (&word, text, length);
  hash = (hash ^ word) * G_GUINT64_CONSTANT (0xc4ceb9fe1a85ec53);
  return (guint32) (hash ^ (hash >> 29));
}

static gboolean
string_is (SuanliTrace *self,
           guint32      id,
           const char  *text,
           gsize        length)
{
  return g_array_index (self->string_lengths, gsize, id) == length &&
         (length <= 32 ? suanli_same_bytes (g_ptr_array_index (self->strings, id), text, length)
                       : memcmp (g_ptr_array_index (self->strings, id), text, length) == 0);
}

/* The slot of @text: the one holding it, or the empty one where it would go. */
static StringSlot *
string_slot (SuanliTrace *self,
             const char  *text,
             gsize        length,
             guint32      hash)
{
  gsize at = hash & self->string_mask;

  while (self->string_slots[at].id != 0 &&
         (self->string_slots[at].hash != hash || !string_is (self, self->string_slots[at].id - 1, text, length)))
    at = (at + 1) & self->string_mask;
  return &self->string_slots[at];
}

static void
grow_strings (SuanliTrace *self)
{
  StringSlot *old = self->string_slots;
  gsize n_old = self->string_mask + 1;

  self->string_mask = 2 * n_old - 1;
  self->string_slots = g_new0 (StringSlot, 2 * n_old);
  for (gsize i = 0; i < n_old; i++)
    if (old[i].id != 0)
      {
        gsize at = old[i].hash & self->string_mask;

        while (self->string_slots[at].id != 0)
          at = (at + 1) & self->string_mask;
        self->string_slots[at] = old[i];
      }
  g_free (old);
}

/* As suanli_trace_intern(), for text from a file that may not be UTF-8: invalid bytes become
 * U+FFFD, so that a damaged name does not make the trace unreadable elsewhere (exported JSON, the
 * views). */
SuanliString
suanli_trace_intern_valid (SuanliTrace *self,
                           const char  *text,
                           gssize       length)
{
  g_autofree char *valid = NULL;

  if (g_utf8_validate (text, length, NULL))
    return suanli_trace_intern (self, text, length);
  valid = g_utf8_make_valid (text, length);
  return suanli_trace_intern (self, valid, -1);
}

/* The id of @text (@length bytes, or NUL-terminated when -1), interning it the first time. */
SuanliString
suanli_trace_intern (SuanliTrace *self,
                     const char  *text,
                     gssize       length)
{
  StringSlot *found;
  guint32 hash, id;
  guint slot;

  if (length < 0)
    length = (gssize) strlen (text);
  /* Traces repeat a few hundred names millions of times: a cheap look at the length and three
   * bytes finds most of them before any hashing. */
  slot = length == 0 ? 0 : ((guint) length * 31u + (guchar) text[0] * 7u + (guchar) text[length / 2] * 3u +
                            (guchar) text[length - 1]) & (G_N_ELEMENTS (self->recent) - 1);
  if (self->recent[slot] != 0 && string_is (self, self->recent[slot], text, (gsize) length))
    return self->recent[slot];

  /* A NUL inside (JSON's \u0000) would cut the name short and merge it with others: it is kept
   * visible as ␀ (U+2400) instead. */
  if (memchr (text, '\0', (gsize) length) != NULL)
    {
      g_autoptr(GString) marked = g_string_sized_new ((gsize) length + 8);

      for (gssize i = 0; i < length; i++)
        {
          if (text[i] == '\0')
            g_string_append (marked, "\xe2\x90\x80");
          else
            g_string_append_c (marked, text[i]);
        }
      return suanli_trace_intern (self, marked->str, (gssize) marked->len);
    }
  hash = hash_text (text, (gsize) length);
  found = string_slot (self, text, (gsize) length, hash);
  if (found->id != 0)
    id = found->id - 1;
  else
    {
      gsize stored_length = (gsize) length;

      g_ptr_array_add (self->strings, g_string_chunk_insert_len (self->chunk, text, length));
      g_array_append_val (self->string_lengths, stored_length);
      id = self->strings->len - 1;
      /* The slots are between a quarter and half full. */
      self->string_bytes += stored_length + 1 + sizeof (gpointer) + sizeof (gsize) + 4 * sizeof (StringSlot);
      *found = (StringSlot) { hash, id + 1 };
      if (2 * self->strings->len > self->string_mask + 1)
        grow_strings (self);
    }
  self->recent[slot] = id;
  return id;
}

/* Makes @group the one new tracks and processes go to again: for a live capture of several ranks,
 * whose streams take turns appending. */
void
suanli_trace_set_current_group (SuanliTrace *self,
                                guint        group)
{
  g_return_if_fail (group < self->groups->len);
  self->current_group = group;
}

/* The memory the string table takes, roughly: for the importers' budget (suanli-import-limits.c). */
gsize
suanli_trace_get_string_bytes (SuanliTrace *self)
{
  return self->string_bytes;
}

/* The memory the trace takes, roughly: its strings, tracks and their items, arguments and flows.
 * For the importers' budget, when a file is added to a trace that holds others. */
guint64
suanli_trace_get_memory_size (SuanliTrace *self)
{
  guint64 size = self->string_bytes + (guint64) self->args.n * sizeof (SuanliArg) +
                 (guint64) self->flows->len * sizeof (SuanliFlow);

  for (guint t = 0; t < self->tracks->len; t++)
    {
      SuanliTrack *track = g_ptr_array_index (self->tracks, t);

      size += sizeof *track + (guint64) track->slices->len * sizeof (SuanliSlice) +
              (guint64) track->instants->len * sizeof (SuanliInstant) +
              (guint64) track->samples->len * sizeof (SuanliSample);
    }
  return size;
}

const char *
suanli_trace_get_string (SuanliTrace  *self,
                         SuanliString  string)
{
  g_return_val_if_fail (string < self->strings->len, "");
  return g_ptr_array_index (self->strings, string);
}

/* Whether a live capture is appending (see the "growing" property). */
gboolean
suanli_trace_is_growing (SuanliTrace *self)
{
  return self->growing > 0;
}

/* Each live capture that starts appending says TRUE, and FALSE when it ends: the trace grows
 * while any of them (one per rank, say) still does. */
void
suanli_trace_set_growing (SuanliTrace *self,
                          gboolean     growing)
{
  gboolean was = self->growing > 0;

  g_return_if_fail (growing || self->growing > 0);
  self->growing = growing ? self->growing + 1 : self->growing - 1;
  if (was != (self->growing > 0))
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_GROWING]);
}

/* How many strings the trace holds: their ids are 0 to this, less one. */
guint
suanli_trace_get_n_strings (SuanliTrace *self)
{
  return self->strings->len;
}

/* The track of @kind for (@pid, @tid) — and @name, for counters and async tracks — made on first
 * use. @index, when not NULL, gets its index. */
SuanliTrack *
suanli_trace_ensure_track (SuanliTrace     *self,
                           SuanliTrackKind  kind,
                           gint64           pid,
                           gint64           tid,
                           SuanliString     name,
                           guint           *index)
{
  /* A thread and a GPU stream with the same pid and tid are one track: its names, sort order,
   * syncs and flow ends come in events with no GPU category. GPU work makes it a stream. */
  gboolean row = kind == SUANLI_TRACK_THREAD || kind == SUANLI_TRACK_GPU_STREAM;
  TrackKey key = { self->current_group, row ? SUANLI_TRACK_THREAD : kind, row ? 0 : name, pid, tid };
  gpointer found;
  SuanliTrack *track;

  found = g_hash_table_lookup (self->track_ids, &key);
  if (found != NULL)
    {
      track = g_ptr_array_index (self->tracks, GPOINTER_TO_UINT (found) - 1);
      if (kind == SUANLI_TRACK_GPU_STREAM)
        track->kind = SUANLI_TRACK_GPU_STREAM;
      if (index != NULL)
        *index = GPOINTER_TO_UINT (found) - 1;
      return track;
    }

  track = g_new0 (SuanliTrack, 1);
  track->kind = kind;
  track->group = self->current_group;
  track->pid = pid;
  track->tid = tid;
  track->name = name;
  track->slices = g_array_new (FALSE, FALSE, sizeof (SuanliSlice));
  track->instants = g_array_new (FALSE, FALSE, sizeof (SuanliInstant));
  track->samples = g_array_new (FALSE, FALSE, sizeof (SuanliSample));
  g_ptr_array_add (self->tracks, track);
  g_hash_table_insert (self->track_ids, g_memdup2 (&key, sizeof key), GUINT_TO_POINTER (self->tracks->len));
  suanli_trace_ensure_process (self, pid);
  if (index != NULL)
    *index = self->tracks->len - 1;
  return track;
}

guint
suanli_trace_get_n_tracks (SuanliTrace *self)
{
  return self->tracks->len;
}

SuanliTrack *
suanli_trace_get_track (SuanliTrace *self,
                        guint        index)
{
  g_return_val_if_fail (index < self->tracks->len, NULL);
  return g_ptr_array_index (self->tracks, index);
}

SuanliProcess *
suanli_trace_ensure_process (SuanliTrace *self,
                             gint64       pid)
{
  TrackKey key = { self->current_group, PROCESS_KEY, 0, pid, 0 };
  gpointer found = g_hash_table_lookup (self->process_ids, &key);
  SuanliProcess process = { pid, 0, 0, 0, -1, self->current_group };

  if (found != NULL)
    return &g_array_index (self->processes, SuanliProcess, GPOINTER_TO_UINT (found) - 1);
  g_array_append_val (self->processes, process);
  g_hash_table_insert (self->process_ids, g_memdup2 (&key, sizeof key), GUINT_TO_POINTER (self->processes->len));
  return &g_array_index (self->processes, SuanliProcess, self->processes->len - 1);
}

guint
suanli_trace_get_n_processes (SuanliTrace *self)
{
  return self->processes->len;
}

SuanliProcess *
suanli_trace_get_process (SuanliTrace *self,
                          guint        index)
{
  g_return_val_if_fail (index < self->processes->len, NULL);
  return &g_array_index (self->processes, SuanliProcess, index);
}

/* Stores @n_args arguments together; returns the index of the first. */
guint32
suanli_trace_add_args (SuanliTrace     *self,
                       const SuanliArg *args,
                       guint            n_args)
{
  return suanli_arg_table_add (&self->args, args, n_args);
}

/* Returns: (nullable): the slice's arguments (slice->n_args of them). */
const SuanliArg *
suanli_trace_get_args (SuanliTrace       *self,
                       const SuanliSlice *slice)
{
  if (slice->n_args == 0 || slice->args >= self->args.n)
    return NULL;
  return &self->args.items[slice->args];
}

/* Whether @text is one of the trace's strings, without interning it; @id gets its id. */
gboolean
suanli_trace_lookup_string (SuanliTrace  *self,
                            const char   *text,
                            SuanliString *id)
{
  gsize length = strlen (text);
  const StringSlot *found = string_slot (self, text, length, hash_text (text, length));

  if (found->id == 0)
    return FALSE;
  *id = found->id - 1;
  return TRUE;
}

gboolean
suanli_trace_find_arg_int (SuanliTrace       *self,
                           const SuanliSlice *slice,
                           const char        *key,
                           gint64            *value)
{
  SuanliString id;

  /* A key no string of the trace spells is no slice's. */
  return suanli_trace_lookup_string (self, key, &id) && suanli_trace_find_arg_int_id (self, slice, id, value);
}

/* As suanli_trace_find_arg_int(), with the key's id (from suanli_trace_lookup_string()): one
 * comparison of ids per argument, for a loop over every slice. */
gboolean
suanli_trace_find_arg_int_id (SuanliTrace       *self,
                              const SuanliSlice *slice,
                              SuanliString       key,
                              gint64            *value)
{
  const SuanliArg *args = suanli_trace_get_args (self, slice);

  for (guint i = 0; args != NULL && i < slice->n_args; i++)
    if (args[i].key == key)
      {
        if (args[i].type == SUANLI_ARG_INT)
          *value = args[i].i;
        else if (args[i].type == SUANLI_ARG_DOUBLE && fabs (args[i].d) < 9.0e18)
          *value = (gint64) args[i].d;
        else
          return FALSE;
        return TRUE;
      }
  return FALSE;
}

/* The number @key of @slice's arguments, an integer or not. */
gboolean
suanli_trace_find_arg_double (SuanliTrace       *self,
                              const SuanliSlice *slice,
                              const char        *key,
                              double            *value)
{
  const SuanliArg *args = suanli_trace_get_args (self, slice);

  for (guint i = 0; args != NULL && i < slice->n_args; i++)
    if (g_str_equal (suanli_trace_get_string (self, args[i].key), key))
      {
        if (args[i].type == SUANLI_ARG_STRING)
          return FALSE;
        *value = args[i].type == SUANLI_ARG_INT ? (double) args[i].i : args[i].d;
        return TRUE;
      }
  return FALSE;
}

/* Returns: (nullable): the string argument @key of @slice. */
const char *
suanli_trace_find_arg_string (SuanliTrace       *self,
                              const SuanliSlice *slice,
                              const char        *key)
{
  const SuanliArg *args = suanli_trace_get_args (self, slice);

  for (guint i = 0; args != NULL && i < slice->n_args; i++)
    if (args[i].type == SUANLI_ARG_STRING && g_str_equal (suanli_trace_get_string (self, args[i].key), key))
      return suanli_trace_get_string (self, args[i].s);
  return NULL;
}

void
suanli_trace_add_flow (SuanliTrace      *self,
                       const SuanliFlow *flow)
{
  g_array_append_vals (self->flows, flow, 1);
}

GArray *
suanli_trace_get_flows (SuanliTrace *self)
{
  return self->flows;
}

static void
add_group_warning (SuanliTrace *self,
                   guint        group,
                   const char  *warning)
{
  const char *file = group < self->groups->len
                       ? suanli_trace_get_string (self, g_array_index (self->groups, SuanliGroup, group).name)
                       : "";
  gsize length = strlen (file);

  /* Each warning names its file, once: the importers' own messages about a byte offset do. */
  if (length > 0 && !(g_str_has_prefix (warning, file) && g_str_has_prefix (warning + length, ": ")))
    g_ptr_array_add (self->warnings, g_strdup_printf ("%s: %s", file, warning));
  else
    g_ptr_array_add (self->warnings, g_strdup (warning));
  if (length == 0)
    group = G_MAXUINT;
  g_array_append_val (self->warning_groups, group);
}

/* Adds a warning about the current group (the file being read), which it names. */
void
suanli_trace_add_warning (SuanliTrace *self,
                          const char  *warning)
{
  if (self->notable < 0)
    self->notable = (int) self->warnings->len;
  add_group_warning (self, self->groups->len > 0 ? self->current_group : G_MAXUINT, warning);
}

/* Adds a warning about the current group that is listed with the others but never said at once when
 * the trace opens: what a file holds that Suanli does not show, not a problem with what it shows. */
void
suanli_trace_add_note (SuanliTrace *self,
                       const char  *note)
{
  add_group_warning (self, self->groups->len > 0 ? self->current_group : G_MAXUINT, note);
}

/* Adds a warning that the current file was read only up to a point (a cut gzip, JSON that breaks
 * off, a capture cut off): the trace holds what came before, and is partial. */
void
suanli_trace_add_partial_warning (SuanliTrace *self,
                                  const char  *warning)
{
  if (self->partial < 0)
    self->partial = (int) self->warnings->len;
  suanli_trace_add_warning (self, warning);
}

/* Returns: (nullable) (transfer none): the first warning that a file was read only partly, or
 * NULL when every file was read to its end. */
const char *
suanli_trace_get_partial (SuanliTrace *self)
{
  return self->partial >= 0 ? g_ptr_array_index (self->warnings, self->partial) : NULL;
}

/* Returns: (nullable) (transfer none): the warning to say at once when the trace opens: that a
 * file was read only partly, else the first an importer gave; NULL when there is none (slices
 * that overlap and notes are said only among the warnings). */
const char *
suanli_trace_get_headline_warning (SuanliTrace *self)
{
  if (self->partial >= 0)
    return g_ptr_array_index (self->warnings, self->partial);
  return self->notable >= 0 ? g_ptr_array_index (self->warnings, self->notable) : NULL;
}

/* Returns: (transfer none): what the importer had to say (of char *), each naming its file. */
GPtrArray *
suanli_trace_get_warnings (SuanliTrace *self)
{
  return self->warnings;
}

/* How many of the warnings are about @group (a file). */
guint
suanli_trace_count_warnings (SuanliTrace *self,
                             guint        group)
{
  guint count = 0;

  for (guint i = 0; i < self->warning_groups->len; i++)
    count += g_array_index (self->warning_groups, guint, i) == group;
  return count;
}

void
suanli_trace_set_metadata (SuanliTrace *self,
                           const char  *key,
                           const char  *value)
{
  g_hash_table_replace (self->metadata, g_strdup (key), g_strdup (value));
}

const char *
suanli_trace_get_metadata (SuanliTrace *self,
                           const char  *key)
{
  return g_hash_table_lookup (self->metadata, key);
}

/* At equal start the longer slice comes first: it is the parent. */
static int
compare_slices (gconstpointer a,
                gconstpointer b,
                gpointer      unused)
{
  const SuanliSlice *x = a, *y = b;

  if (x->start != y->start)
    return x->start < y->start ? -1 : 1;
  return (x->duration < y->duration) - (x->duration > y->duration);
}

static int
compare_instants (gconstpointer a,
                  gconstpointer b,
                  gpointer      unused)
{
  const SuanliInstant *x = a, *y = b;

  return (x->time > y->time) - (x->time < y->time);
}

static int
compare_samples (gconstpointer a,
                 gconstpointer b,
                 gpointer      unused)
{
  const SuanliSample *x = a, *y = b;

  return (x->time > y->time) - (x->time < y->time);
}

/* Depths from nesting: a stack of the ends of the open slices. A slice that starts inside another
 * but ends after it overlaps its sibling. On a CPU thread, by less than a rounding step (a trace
 * written in whole microseconds rounds a child's end past its parent's), it is clamped to end with
 * its parent. GPU work is measured by the device, not rounded, and is never shortened: a slice
 * of a GPU stream keeps its duration and is nested as if it ended with its parent, as a real
 * overlap on a thread is, which is counted. */
static guint
nest (SuanliTrack *track,
      guint        from,
      guint       *overlaps)
{
  gint64 ends[256];
  guint depth = 0, max_depth = 0;

  for (guint i = from; i < track->slices->len; i++)
    {
      SuanliSlice *slice = &g_array_index (track->slices, SuanliSlice, i);
      gint64 end = slice->start + slice->duration;

      while (depth > 0 && ends[depth - 1] <= slice->start)
        depth--;
      if (depth > 0 && end > ends[depth - 1])
        {
          if (end - ends[depth - 1] <= ROUNDING_NS && track->kind == SUANLI_TRACK_GPU_STREAM)
            end = ends[depth - 1];
          else if (end - ends[depth - 1] <= ROUNDING_NS)
            {
              slice->duration = ends[depth - 1] - slice->start;
              slice->flags |= SUANLI_SLICE_CLAMPED;
              end = ends[depth - 1];
            }
          else
            {
              /* A real overlap: kept whole, but nested as if it ended with its parent, so that
               * the slices after it are not pushed deeper. */
              (*overlaps)++;
              end = ends[depth - 1];
            }
        }
      slice->depth = (guint8) MIN (depth, G_MAXUINT8);
      max_depth = MAX (max_depth, depth);
      if (depth < G_N_ELEMENTS (ends))
        ends[depth++] = end;
    }
  return max_depth;
}

/* Async slices need not nest: each goes to the first row (depth) free at its start, as on a
 * Gantt chart, so that overlapping requests or transfers stay apart. */
static guint
pack (SuanliTrack *track)
{
  gint64 ends[256];
  guint rows = 0, max_depth = 0;

  for (guint i = 0; i < track->slices->len; i++)
    {
      SuanliSlice *slice = &g_array_index (track->slices, SuanliSlice, i);
      guint row = 0;

      while (row < rows && ends[row] > slice->start)
        row++;
      if (row == rows)
        {
          if (rows < G_N_ELEMENTS (ends))
            ends[rows++] = G_MININT64;
          else
            row = rows - 1;   /* 256 overlapping at once: the last row takes the rest */
        }
      ends[row] = MAX (ends[row], slice->start + slice->duration);
      slice->depth = (guint8) row;
      max_depth = MAX (max_depth, row);
    }
  return max_depth;
}

static void warn_overlaps (SuanliTrace *self,
                           guint       *overlaps);

/* Notes what every track holds now, as sorted and nested. */
static void
mark_finished (SuanliTrace *self)
{
  g_array_set_size (self->finished, self->tracks->len);
  for (guint t = 0; t < self->tracks->len; t++)
    {
      SuanliTrack *track = g_ptr_array_index (self->tracks, t);
      TrackMark mark = { track->slices->len, track->instants->len, track->samples->len };

      g_array_index (self->finished, TrackMark, t) = mark;
    }
}

/* Sorts what was appended to @array after its first @finished items. When all of it comes at or
 * after the last finished item, only the tail is sorted (stably); otherwise the whole array is.
 * Returns: the first position whose order may have changed. */
static guint
sort_tail (GArray           *array,
           guint             finished,
           GCompareDataFunc  compare)
{
  gsize size = g_array_get_element_size (array);
  gboolean tail_only = finished > 0;

  if (finished >= array->len)
    return array->len;
  for (guint i = finished; i < array->len && tail_only; i++)
    tail_only = compare (array->data + (gsize) (finished - 1) * size, array->data + (gsize) i * size, NULL) <= 0;
  if (!tail_only)
    finished = 0;
  g_qsort_with_data (array->data + (gsize) finished * size, (gint) (array->len - finished), size, compare, NULL);
  return finished;
}

#define MAX_RUNS 32

/* Sorts @array stably, as GLib's array sort does (since 2.32: equal items keep their file order).
 * A trace's tracks come as a few runs already in order (a sampled trace's pieces, a step's span
 * written after the operators inside it): each run is merged into the sorted ones before it, from
 * the back, with a copy of the run alone. Every stable sort gives the one same order. More runs
 * than MAX_RUNS, and GLib's merge sort does it. */
static void
sort_stable (GArray           *array,
             GCompareDataFunc  compare)
{
  gsize size = g_array_get_element_size (array);
  guint starts[MAX_RUNS + 1];
  guint n_runs = 1;
  g_autofree char *copy = NULL;
  gsize copy_size = 0;

  starts[0] = 0;
  for (guint i = 1; i < array->len; i++)
    if (compare (array->data + (gsize) (i - 1) * size, array->data + (gsize) i * size, NULL) > 0)
      {
        if (n_runs == MAX_RUNS)
          {
            g_array_sort_with_data (array, compare, NULL);
            return;
          }
        starts[n_runs++] = i;
      }
  starts[n_runs] = array->len;
  for (guint r = 1; r < n_runs; r++)
    {
      /* Items [0, starts[r]) are in order; the run [starts[r], starts[r + 1]) joins them. A tie
       * goes to the run, from the back, so that the earlier item stays first. */
      gsize run = starts[r + 1] - starts[r];
      char *before = array->data + (gsize) starts[r] * size;   /* one past the sorted items left */
      char *taken = NULL;                                       /* one past the run's items left */
      char *to = array->data + (gsize) starts[r + 1] * size;

      if (run * size > copy_size)
        {
          g_free (copy);
          copy_size = run * size;
          copy = g_malloc (copy_size);
        }
      memcpy (copy, before, run * size);
      taken = copy + run * size;
      while (taken > copy)
        {
          to -= size;
          if (before > array->data && compare (before - size, taken - size, NULL) > 0)
            {
              before -= size;
              memcpy (to, before, size);
            }
          else
            {
              taken -= size;
              memcpy (to, taken, size);
            }
        }
    }
}

/**
 * suanli_trace_finish_appended:
 *
 * For a live capture: after items were appended to the tracks of a finished trace (and new tracks
 * made), sorts and nests what is new (re-nesting from the last top-level slice before it) and emits
 * "grown". Cheap when the new items come after the old ones, as a capture's do.
 */
void
suanli_trace_finish_appended (SuanliTrace *self)
{
  g_autofree guint *overlaps = g_new0 (guint, self->groups->len + 1);   /* per group, then none */

  for (guint t = 0; t < self->tracks->len; t++)
    {
      SuanliTrack *track = g_ptr_array_index (self->tracks, t);
      TrackMark mark = { 0 };
      guint from;

      if (t < self->finished->len)
        mark = g_array_index (self->finished, TrackMark, t);
      sort_tail (track->instants, mark.instants, compare_instants);
      sort_tail (track->samples, mark.samples, compare_samples);
      from = sort_tail (track->slices, mark.slices, compare_slices);
      if (from >= track->slices->len)
        continue;
      if (t < self->indexes->len)
        g_clear_pointer (&g_ptr_array_index (self->indexes, t), suanli_track_index_free);   /* made again when asked */
      if (track->kind == SUANLI_TRACK_ASYNC)
        {
          track->max_depth = pack (track);
          continue;
        }
      /* Nesting resumes at the last top-level slice before the new ones: nothing was open there. */
      if (from > 0)
        {
          from--;
          while (from > 0 && g_array_index (track->slices, SuanliSlice, from).depth != 0)
            from--;
        }
      track->max_depth = MAX (from > 0 ? track->max_depth : 0,
                              nest (track, from, &overlaps[MIN (track->group, self->groups->len)]));
    }
  mark_finished (self);
  warn_overlaps (self, overlaps);
  g_signal_emit (self, signals[SIGNAL_GROWN], 0);
}

/* Sorts every track and works out nesting. Idempotent: overlaps are warned about only on tracks
 * that changed since the last finish, so that a second file does not count the first one's again. */
void
suanli_trace_finish (SuanliTrace *self)
{
  g_autofree guint *overlaps = g_new0 (guint, self->groups->len + 1);   /* per group, then none */

  for (guint t = 0; t < self->tracks->len; t++)
    {
      SuanliTrack *track = g_ptr_array_index (self->tracks, t);
      TrackMark mark = { 0 };
      guint counted = 0;

      if (t < self->finished->len)
        mark = g_array_index (self->finished, TrackMark, t);
      sort_stable (track->slices, compare_slices);
      sort_stable (track->instants, compare_instants);
      sort_stable (track->samples, compare_samples);
      track->max_depth = track->kind == SUANLI_TRACK_ASYNC ? pack (track) : nest (track, 0, &counted);
      if (mark.slices != track->slices->len)
        overlaps[MIN (track->group, self->groups->len)] += counted;
    }
  g_ptr_array_set_size (self->indexes, 0);
  mark_finished (self);
  warn_overlaps (self, overlaps);
}

/**
 * suanli_trace_get_track_index:
 * @track: a track's index in the trace
 *
 * The finished track's slices indexed for drawing, made the first time they are asked for and kept
 * until the track changes. Not thread-safe: ask from one thread at a time (the loader makes them
 * all on its worker, before the trace reaches the main thread).
 *
 * Returns: (transfer none): the index.
 */
SuanliTrackIndex *
suanli_trace_get_track_index (SuanliTrace *self,
                              guint        track)
{
  g_return_val_if_fail (track < self->tracks->len, NULL);

  if (self->indexes->len < self->tracks->len)
    g_ptr_array_set_size (self->indexes, (gint) self->tracks->len);
  if (g_ptr_array_index (self->indexes, track) == NULL)
    g_ptr_array_index (self->indexes, track) = suanli_track_index_new (g_ptr_array_index (self->tracks, track));
  return g_ptr_array_index (self->indexes, track);
}

/* Makes every track's drawing index now, so that whoever draws the trace first does not wait for it. */
void
suanli_trace_index_tracks (SuanliTrace *self)
{
  for (guint t = 0; t < self->tracks->len; t++)
    suanli_trace_get_track_index (self, t);
}

/* @overlaps: per group, then for tracks of none. */
static void
warn_overlaps (SuanliTrace *self,
               guint       *overlaps)
{
  for (guint g = 0; g <= self->groups->len; g++)
    if (overlaps[g] > 0)
      {
        g_autofree char *warning = g_strdup_printf (ngettext ("%u slice overlaps a sibling partly and was kept at its depth",
                                                              "%u slices overlap a sibling partly and were kept at their depth",
                                                              overlaps[g]),
                                                    overlaps[g]);
        add_group_warning (self, g < self->groups->len ? g : G_MAXUINT, warning);
      }
}

/**
 * suanli_trace_get_accelerator:
 * @memory: (out) (optional): the model's memory in bytes, 0 when unknown
 * @count: (out) (optional): the GPUs of the job the trace is of
 *
 * What the trace ran on, as its files say: the accelerator model the first file naming one names,
 * and how many of them the job used: the largest world size a file gives, else one per file when
 * there are several (ranks), else the devices its GPU streams ran on (at least one).
 *
 * Returns: (nullable): the model as the trace names it ("NVIDIA H100 80GB HBM3"), or NULL.
 */
const char *
suanli_trace_get_accelerator (SuanliTrace *self,
                              guint64     *memory,
                              guint       *count)
{
  const SuanliGroup *named = NULL;
  guint world = 0, devices = 0;

  for (guint g = 0; g < self->groups->len; g++)
    {
      const SuanliGroup *group = &g_array_index (self->groups, SuanliGroup, g);

      if (named == NULL && group->device != 0)
        named = group;
      world = MAX (world, (guint) MAX (group->world_size, 0));
    }
  if (world == 0 && self->groups->len > 1)
    world = self->groups->len;
  if (world == 0)
    {
      /* Kineto lists every GPU the process could see; a process of one rank uses those it ran on. */
      g_autoptr(GHashTable) seen = g_hash_table_new (g_int64_hash, g_int64_equal);

      for (guint t = 0; t < self->tracks->len; t++)
        {
          SuanliTrack *track = g_ptr_array_index (self->tracks, t);

          if (track->kind == SUANLI_TRACK_GPU_STREAM && track->slices->len > 0)
            g_hash_table_add (seen, &track->pid);
        }
      devices = g_hash_table_size (seen);
    }
  if (memory != NULL)
    *memory = named != NULL ? named->device_memory : 0;
  if (count != NULL)
    *count = world > 0 ? world : MAX (devices, 1);
  return named != NULL ? suanli_trace_get_string (self, named->device) : NULL;
}

void
suanli_trace_get_time_range (SuanliTrace *self,
                             gint64      *first,
                             gint64      *last)
{
  gint64 low = G_MAXINT64, high = G_MININT64;

  for (guint t = 0; t < self->tracks->len; t++)
    {
      SuanliTrack *track = g_ptr_array_index (self->tracks, t);

      for (guint i = 0; i < track->slices->len; i++)
        {
          SuanliSlice *slice = &g_array_index (track->slices, SuanliSlice, i);
          low = MIN (low, slice->start);
          high = MAX (high, slice->start + slice->duration);
        }
      for (guint i = 0; i < track->instants->len; i++)
        {
          gint64 time = g_array_index (track->instants, SuanliInstant, i).time;
          low = MIN (low, time);
          high = MAX (high, time);
        }
      for (guint i = 0; i < track->samples->len; i++)
        {
          gint64 time = g_array_index (track->samples, SuanliSample, i).time;
          low = MIN (low, time);
          high = MAX (high, time);
        }
    }
  if (low > high)
    low = high = 0;
  *first = low;
  *last = high;
}

guint64
suanli_trace_get_n_slices (SuanliTrace *self)
{
  guint64 n = 0;

  for (guint t = 0; t < self->tracks->len; t++)
    n += ((SuanliTrack *) g_ptr_array_index (self->tracks, t))->slices->len;
  return n;
}

/* "key=value" for an argument, as a details line or a tooltip shows it. */
char *
suanli_trace_format_arg (SuanliTrace     *self,
                         const SuanliArg *arg)
{
  const char *key = suanli_trace_get_string (self, arg->key);

  switch (arg->type)
    {
    case SUANLI_ARG_INT:
      return g_strdup_printf ("%s=%lld", key, (long long) arg->i);
    case SUANLI_ARG_DOUBLE:
      return g_strdup_printf ("%s=%g", key, arg->d);
    case SUANLI_ARG_STRING:
    default:
      return g_strdup_printf ("%s=%s", key, suanli_trace_get_string (self, arg->s));
    }
}
