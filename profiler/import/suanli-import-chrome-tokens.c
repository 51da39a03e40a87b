/* suanli-import-chrome-tokens.c — the Chrome importer's first stage: yajl's callbacks
 *
 * yajl hands over each key, scalar and bracket as it meets them; these callbacks keep the depth,
 * find the events array (under "traceEvents" or at the top), and gather one event's members into
 * the importer's Event as they come: times parsed from the number's text into integer
 * nanoseconds, pids and tids as numbers or words, the arguments interned with their keys. When an
 * event's object closes it goes to the events stage (suanli-import-chrome-events.c). Members at
 * the top (baseTimeNanoseconds, deviceProperties, distributedInfo) are read here too. Values an
 * event cannot be placed with are counted with where the first was.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>
#include <glib/gi18n.h>

#include "suanli-import-chrome-private.h"
#include "suanli-same-bytes.h"

/* Newlines in @length bytes, sixteen at a time: lines are only reported in errors, but the count
 * must run as we go, and the pretty-printed traces PyTorch writes have a line every 30 bytes or
 * so (memchr per line was 4% of importing one). Each byte of @counts adds one per newline in its
 * column, for at most 255 blocks before they are summed. */
guint64
chrome_count_lines (const guchar *buffer,
                    gsize         length)
{
  typedef guint8 Block __attribute__ ((vector_size (16)));
  const Block newlines = { '\n', '\n', '\n', '\n', '\n', '\n', '\n', '\n',
                           '\n', '\n', '\n', '\n', '\n', '\n', '\n', '\n' };
  const guint64 low_bytes = G_GUINT64_CONSTANT (0x00FF00FF00FF00FF);
  guint64 lines = 0;
  gsize at = 0;

  while (length - at >= sizeof (Block))
    {
      Block counts = { 0 };
      gsize blocks = MIN ((length - at) / sizeof (Block), 255);
      guint64 halves[2];

      for (gsize b = 0; b < blocks; b++, at += sizeof (Block))
        {
          Block block;

          memcpy (&block, buffer + at, sizeof block);
          counts -= (Block) (block == newlines);   /* -1 where equal */
        }
      memcpy (halves, &counts, sizeof halves);
      for (guint h = 0; h < 2; h++)
        {
          /* The eight bytes into four 16-bit sums, and those into the top 16 bits */
          guint64 sums = (halves[h] & low_bytes) + ((halves[h] >> 8) & low_bytes);

          lines += (sums * G_GUINT64_CONSTANT (0x0001000100010001)) >> 48;
        }
    }
  for (; at < length; at++)
    lines += buffer[at] == '\n';
  return lines;
}

/* Where the parser is: just past the value or bracket it handed over. */
static Place
place_now (Importer *importer)
{
  size_t consumed;

  if (importer->windowed)
    {
      consumed = (size_t) (importer->token_end - importer->window_base);
      return (Place) { importer->window_at.offset + consumed,
                       importer->window_at.line + chrome_count_lines ((const guchar *) importer->window_base, consumed) };
    }
  consumed = yajl_get_bytes_consumed (importer->parser);
  return (Place) { importer->chunk_at.offset + consumed, importer->chunk_at.line + chrome_count_lines (importer->chunk, consumed) };
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

/* A pid or tid: an integer, a numeric string, or a word ("CPU functions", "stream 7"). Words get
 * a stable negative number and keep their text as the name (and are then @named). */
static void
read_id_text (Importer     *importer,
              const char   *text,
              gsize         length,
              gint64       *value,
              SuanliString *name,
              gboolean     *named)
{
  char *end = NULL;
  g_autofree char *copy = NULL;
  gint64 number;

  if (chrome_parse_integer (text, length, value))
    return;
  copy = g_strndup (text, length);
  *name = suanli_trace_intern (importer->trace, copy, -1);
  *named = TRUE;
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

/* The same, through the two ids of the kind @which (0 pid, 1 tid) held: the same text gives the
 * same value and name. */
static void
read_id (Importer     *importer,
         guint         which,
         const char   *text,
         gsize         length,
         gint64       *value,
         SuanliString *name)
{
  IdHit *hit;

  for (guint way = 0; way < 2; way++)
    {
      hit = &importer->id_hits[which][way];
      if (length != 0 && length == hit->length && suanli_same_bytes (hit->text, text, length))
        {
          *value = hit->value;
          if (hit->named)
            *name = hit->name;
          importer->id_victims[which] = (guint8) (1 - way);
          return;
        }
    }
  hit = &importer->id_hits[which][importer->id_victims[which]];
  importer->id_victims[which] ^= 1;
  hit->named = FALSE;
  read_id_text (importer, text, length, value, &hit->name, &hit->named);
  if (hit->named)
    *name = hit->name;
  /* Held from now on, unless empty or long */
  hit->length = 0;
  if (length > 0 && length <= sizeof hit->text)
    {
      memcpy (hit->text, text, length);
      hit->length = length;
      hit->value = *value;
    }
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

/* ---- arguments whose value is an array ----------------------------------------------------- */

/* Arrays of numbers, strings and arrays in an event's args (PyTorch's record_shapes writes "Input
 * Dims" and "Input type" so) are kept as their compact JSON text: "[[32,64],[64,128]]". */
static void
array_append (Importer   *importer,
              const char *text,
              gsize       length)
{
  if (importer->array_spoiled || importer->array_length + length > sizeof importer->array_text)
    {
      importer->array_spoiled = TRUE;
      return;
    }
  memcpy (importer->array_text + importer->array_length, text, length);
  importer->array_length += length;
}

/* The start of an element: a comma after the one before. */
static void
array_element (Importer *importer)
{
  if (importer->array_comma)
    array_append (importer, ",", 1);
  importer->array_comma = TRUE;
}

/* A number or a string inside an argument's array; a string that would need escaping spoils it. */
static void
array_scalar (Importer   *importer,
              const char *text,
              gsize       length,
              gboolean    is_string)
{
  array_element (importer);
  if (!is_string)
    {
      array_append (importer, text, length);
      return;
    }
  for (gsize i = 0; i < length; i++)
    if (text[i] == '"' || text[i] == '\\' || (guchar) text[i] < 0x20)
      importer->array_spoiled = TRUE;
  array_append (importer, "\"", 1);
  array_append (importer, text, length);
  array_append (importer, "\"", 1);
}

/* The kept text begun afresh, for an argument's array. */
static void
array_restart (Importer *importer)
{
  importer->array_length = 0;
  importer->array_spoiled = FALSE;
}

/* A '[' in the kept text: after a comma unless it opens the argument's array itself. */
static void
array_open (Importer *importer,
            gboolean  outermost)
{
  if (!outermost)
    array_element (importer);
  importer->array_comma = FALSE;
  array_append (importer, "[", 1);
}

/* A ']' in the kept text. */
static void
array_close (Importer *importer)
{
  array_append (importer, "]", 1);
  importer->array_comma = TRUE;
}

/* The argument's array read whole: its text is the argument, unless something spoiled it. */
static void
array_keep (Importer *importer)
{
  if (!importer->array_spoiled)
    add_arg (importer, SUANLI_ARG_STRING, 0, 0, importer->array_text, importer->array_length);
}

/* An array opening at the current depth: an argument's value begins one, or one nests in it.
 * Returns whether it is read so. */
static gboolean
array_begin (Importer *importer)
{
  gboolean outermost = importer->array_depth == 0;

  if (outermost && !(importer->in_event && importer->in_args && importer->depth == importer->events_depth + 3))
    return FALSE;
  if (outermost)
    {
      importer->array_depth = importer->depth;
      array_restart (importer);
    }
  array_open (importer, outermost);
  return TRUE;
}

/* An array closing: the argument's, when it was the outermost. */
static void
array_end (Importer *importer)
{
  array_close (importer);
  if (importer->depth != importer->array_depth)
    return;
  importer->array_depth = 0;
  array_keep (importer);
}

/* ---- yajl callbacks ----------------------------------------------------------------------- */

static gboolean
skipping (Importer *importer)
{
  return importer->skip_depth > 0;
}

/* A scalar in an event's id2: its text kept as the id. */
static void
scalar_in_id2 (Importer   *importer,
               const char *text,
               gsize       length)
{
  Event *event = &importer->event;

  g_strlcpy (event->id, "", sizeof event->id);
  memcpy (event->id, text, MIN (length, sizeof event->id - 1));
  event->id[MIN (length, sizeof event->id - 1)] = '\0';
}

/* A scalar in an event's args: an argument under the key just read. */
static void
scalar_in_args (Importer   *importer,
                const char *text,
                gsize       length,
                gboolean    is_string)
{
  Event *event = &importer->event;

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

      if (chrome_parse_integer (text, length, &integer))
        add_arg (importer, SUANLI_ARG_INT, integer, 0, NULL, 0);
      else if (chrome_parse_short_decimal (text, length, &real))
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
}

/* A scalar that is one of the event's own members (importer->event_key says which). */
static void
scalar_of_event (Importer   *importer,
                 const char *text,
                 gsize       length,
                 gboolean    is_string)
{
  Event *event = &importer->event;

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
      event->has_ts = chrome_parse_microseconds (text, length, &event->ts);
      if (!event->has_ts)
        mark_bad (importer, BAD_TS);
      break;
    case KEY_DUR:
      event->has_dur = chrome_parse_microseconds (text, length, &event->dur);
      if (!event->has_dur || event->dur < 0)
        mark_bad (importer, BAD_DUR);
      break;
    case KEY_PID:
      read_id (importer, 0, text, length, &event->pid, &event->pid_name);
      event->has_pid = TRUE;
      break;
    case KEY_TID:
      read_id (importer, 1, text, length, &event->tid, &event->tid_name);
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

static void
scalar_in_event (Importer   *importer,
                 const char *text,
                 gsize       length,
                 gboolean    is_string)
{
  if (importer->in_id2)
    scalar_in_id2 (importer, text, length);
  else if (importer->in_args)
    scalar_in_args (importer, text, length, is_string);
  else
    scalar_of_event (importer, text, length, is_string);
}

static inline EventKey
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
           chrome_parse_integer (text, length, &bytes) && bytes > 0)
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

      if (chrome_parse_integer (text, length, &rank) && rank >= 0 && rank <= G_MAXINT)
        suanli_trace_get_group (importer->trace, importer->group)->rank = (int) rank;
    }
  else if (importer->depth == 2 && importer->top_in_distributed && g_str_equal (importer->key, "world_size"))
    {
      gint64 size = 0;

      if (chrome_parse_integer (text, length, &size) && size > 0 && size <= G_MAXINT)
        suanli_trace_get_group (importer->trace, importer->group)->world_size = (int) size;
    }
  else if (importer->depth == 3 && importer->top_in_devices)
    read_device (importer, text, length, is_string);
  else if (importer->depth == 1 && g_str_equal (importer->key, "baseTimeNanoseconds"))
    {
      gint64 base = 0;
      Place at = place_now (importer);

      /* An integer of nanoseconds; anything else is not a base time and is ignored. */
      if (chrome_parse_integer (text, length, &base) && base >= -TIME_LIMIT_NS && base <= TIME_LIMIT_NS)
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
  if (importer->array_depth > 0)
    array_scalar (importer, text, length, is_string);
  else if (importer->in_event)
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
  if (!skipping (importer) && importer->array_depth > 0)
    importer->array_spoiled = TRUE;
  else if (!skipping (importer))
    check_member_type (importer, importer->depth);
  return 1;
}

static int
on_boolean (void *ctx,
            int   value)
{
  Importer *importer = ctx;

  importer->progressed = TRUE;
  if (!skipping (importer) && importer->array_depth > 0)
    importer->array_spoiled = TRUE;
  else if (!skipping (importer) && importer->in_event && importer->in_args)
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
  typedef guint8 Block __attribute__ ((vector_size (16)));
  const Block zero = { 0 };
  guint8 *event = (guint8 *) &importer->event;

  /* All but the texts, made empty, and the arguments, which n_args = 0 leaves unread (the whole
   * event is a kilobyte): what lies before bad_at, and a little of bad_at, which is only read
   * where the bits in bad say it was set. Seven stores written out: GCC makes a memset() or a loop
   * of this size a "rep stos", whose start alone costs tens of cycles on some processors. */
  G_STATIC_ASSERT (G_STRUCT_OFFSET (Event, bad_at) <= 7 * sizeof zero &&
                   7 * sizeof zero <= G_STRUCT_OFFSET (Event, id));
  memcpy (event, &zero, sizeof zero);
  memcpy (event + 16, &zero, sizeof zero);
  memcpy (event + 32, &zero, sizeof zero);
  memcpy (event + 48, &zero, sizeof zero);
  memcpy (event + 64, &zero, sizeof zero);
  memcpy (event + 80, &zero, sizeof zero);
  memcpy (event + 96, &zero, sizeof zero);
  importer->event.id[0] = importer->event.meta_name[0] = '\0';
  importer->in_event = TRUE;
  importer->in_args = FALSE;
  importer->in_id2 = FALSE;
}


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
    }
  else if (importer->in_event && importer->depth == importer->events_depth + 2 && importer->event_key == KEY_ID2)
    importer->in_id2 = TRUE;
  else if (importer->depth == 2 && !importer->array_form && g_str_equal (importer->key, "distributedInfo"))
    importer->top_in_distributed = TRUE;
  else if (importer->depth > 1)
    {
      importer->array_spoiled |= importer->array_depth > 0;
      check_member_type (importer, importer->depth - 1);
      importer->skip_depth = 1;
    }
  return 1;
}

/* An argument's key: one held in its set, or copied in place of the set's older one. */
static void
read_arg_key (Importer            *importer,
              const unsigned char *key,
              gsize                length)
{
  guint set = length == 0 ? 0 : ((guint) length * 31u + key[0] * 7u + key[length / 2] * 3u + key[length - 1]) &
                                (ARG_KEY_SETS - 1);
  ArgKey *held;
  gsize i;

  /* The same bytes: held text has no NUL and is under 128 bytes, so neither has the key. */
  for (guint way = 0; way < 2; way++)
    {
      held = &importer->arg_keys[set][way];
      if (held->length == length && suanli_same_bytes (held->text, key, length))
        {
          importer->arg_key = held;
          importer->arg_key_victim[set] = (guint8) (1 - way);
          return;
        }
    }
  held = &importer->arg_keys[set][importer->arg_key_victim[set]];
  importer->arg_key_victim[set] ^= 1;
  importer->arg_key = held;
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
      chrome_process_event (importer);
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
  if (importer->depth == 1 ||
      (importer->depth == 2 && !importer->array_form &&
       (g_str_equal (importer->key, "traceEvents") || g_str_equal (importer->key, "systemTraceEvents"))))
    {
      importer->array_form = importer->depth == 1;
      importer->events_depth = importer->depth;
      /* The events: read in windows from here (suanli-import-chrome-windows.c), once a file. */
      importer->windows_wanted = importer->windows_allowed && !importer->windows_used;
      return !importer->windows_wanted;   /* 0 stops yajl, where the windows take over */
    }
  else if (importer->depth == 2 && !importer->array_form && g_str_equal (importer->key, "deviceProperties"))
    importer->top_in_devices = TRUE;
  else if (!array_begin (importer))
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
  else if (importer->array_depth > 0)
    array_end (importer);
  else if (importer->depth == 2)
    importer->top_in_devices = FALSE;
  importer->depth--;
  return 1;
}

/* The tokens @from to @to that the windows walked (suanli-import-chrome-replay.c), each handed to
 * the callback yajl calls for it, here where they can be called directly: their texts are in
 * @raw or, decoded, in @decoded. Returns the first one refused, or @to. */
guint
chrome_take_tokens (Importer               *importer,
                    const SuanliJsonRecord *tokens,
                    guint                   from,
                    guint                   to,
                    const char             *raw,
                    const char             *decoded)
{
  guint t;

  for (t = from; t < to; t++)
    {
      const SuanliJsonRecord *token = &tokens[t];
      const char *text = (token->decoded ? decoded : raw) + token->at;
      int taken = 0;

      if (token->end != 0)
        importer->token_end = raw + token->end;
      switch ((SuanliJsonToken) token->kind)
        {
        case SUANLI_JSON_OBJECT_START:
          taken = on_start_map (importer);
          break;
        case SUANLI_JSON_OBJECT_END:
          taken = on_end_map (importer);
          break;
        case SUANLI_JSON_ARRAY_START:
          taken = on_start_array (importer);
          break;
        case SUANLI_JSON_ARRAY_END:
          taken = on_end_array (importer);
          break;
        case SUANLI_JSON_KEY:
          taken = on_map_key (importer, (const unsigned char *) text, token->length);
          break;
        case SUANLI_JSON_STRING:
          taken = on_string (importer, (const unsigned char *) text, token->length);
          break;
        case SUANLI_JSON_NUMBER:
          taken = on_number (importer, text, token->length);
          break;
        case SUANLI_JSON_TRUE:
        case SUANLI_JSON_FALSE:
          taken = on_boolean (importer, token->kind == SUANLI_JSON_TRUE);
          break;
        case SUANLI_JSON_NULL:
          taken = on_null (importer);
          break;
        }
      if (!taken)
        break;
    }
  return t;
}

/* ---- plain events, read straight from their tokens ------------------------------------------ */

/* The object or array opening at @token, handed to the callbacks one token at a time, as a
 * plain event hands over what it does not read itself (suanli-import-chrome-replay.c never
 * decodes a plain event's strings). Returns its closing token. */
static const SuanliJsonRecord *
take_container (Importer               *importer,
                const SuanliJsonRecord *token,
                const char             *raw)
{
  const SuanliJsonRecord *close = token;
  guint taken;

  for (int open = 0;; close++)
    if (close->kind == SUANLI_JSON_OBJECT_START || close->kind == SUANLI_JSON_ARRAY_START)
      open++;
    else if ((close->kind == SUANLI_JSON_OBJECT_END || close->kind == SUANLI_JSON_ARRAY_END) && --open == 0)
      break;
  /* None refuses: the walk kept within the nesting limit. */
  taken = chrome_take_tokens (importer, token, 0, (guint) (close - token) + 1, raw, raw);
  g_assert (taken == (guint) (close - token) + 1);
  return close;
}

/* An argument's array of numbers, strings and arrays (PyTorch's "Input Dims"), from its '[' at
 * @token: kept as its compact text by the callbacks' helpers (array_open() and on), without them.
 * Returns its ']', or NULL where it holds anything else (an object, true, false or null), which
 * the callbacks are left to read. */
static const SuanliJsonRecord *
take_arg_array (Importer               *importer,
                const SuanliJsonRecord *token,
                const char             *raw)
{
  const SuanliJsonRecord *close = token;

  for (int open = 0;; close++)
    {
      if (close->kind == SUANLI_JSON_ARRAY_START)
        open++;
      else if (close->kind == SUANLI_JSON_ARRAY_END)
        open--;
      else if (close->kind != SUANLI_JSON_NUMBER && close->kind != SUANLI_JSON_STRING)
        return NULL;
      if (open == 0)
        break;
    }
  array_restart (importer);
  for (const SuanliJsonRecord *at = token; at <= close; at++)
    {
      if (at->end != 0)
        importer->token_end = raw + at->end;
      if (at->kind == SUANLI_JSON_ARRAY_START)
        array_open (importer, at == token);
      else if (at->kind == SUANLI_JSON_ARRAY_END)
        array_close (importer);
      else
        array_scalar (importer, raw + at->at, at->length, at->kind == SUANLI_JSON_STRING);
    }
  array_keep (importer);
  return close;
}

/* An event's args or id2 object, from its '{' at @token: scalars read here, anything else handed
 * to the callbacks. Returns its '}'. */
static const SuanliJsonRecord *
take_args_or_id2 (Importer               *importer,
           const SuanliJsonRecord *token,
           const char             *raw)
{
  gboolean args = importer->event_key == KEY_ARGS;

  importer->in_args = args;
  importer->in_id2 = !args;
  importer->depth++;
  for (token++; token->kind != SUANLI_JSON_OBJECT_END; token++)
    {
      const char *key = raw + token->at;
      const SuanliJsonRecord *close;

      if (args)
        read_arg_key (importer, (const unsigned char *) key, token->length);
      else
        importer->event_key = event_key_of (key, token->length);
      token++;
      if (token->end != 0)
        importer->token_end = raw + token->end;
      if ((token->kind == SUANLI_JSON_STRING || token->kind == SUANLI_JSON_NUMBER) && args)
        scalar_in_args (importer, raw + token->at, token->length, token->kind == SUANLI_JSON_STRING);
      else if (token->kind == SUANLI_JSON_STRING || token->kind == SUANLI_JSON_NUMBER)
        scalar_in_id2 (importer, raw + token->at, token->length);
      else if (token->kind == SUANLI_JSON_ARRAY_START && args && (close = take_arg_array (importer, token, raw)) != NULL)
        token = close;
      else if (token->kind == SUANLI_JSON_OBJECT_START || token->kind == SUANLI_JSON_ARRAY_START)
        token = take_container (importer, token, raw);
      else if (args && token->kind != SUANLI_JSON_NULL)
        add_arg (importer, SUANLI_ARG_INT, token->kind == SUANLI_JSON_TRUE, 0, NULL, 0);
      /* null in args, and true, false or null in an id2, are passed over */
    }
  importer->in_args = importer->in_id2 = FALSE;
  importer->depth--;
  return token;
}

/* An element the windows found plain (ChromeElement): an object with no escaped string, so no
 * key holds a NUL. Its tokens @from to @to are read here as the callbacks would read them one by
 * one (chrome_take_tokens), into the same event, without their checks of depth and state at every
 * token: most events are so, and handing their tokens over one by one was a fifth of the import.
 * What the callbacks do not read of an event (an object or array in another member) is handed to
 * them still. */
void
chrome_take_plain_event (Importer               *importer,
                         const SuanliJsonRecord *tokens,
                         guint                   from,
                         guint                   to,
                         const char             *raw)
{
  const SuanliJsonRecord *token = &tokens[from], *close = &tokens[to - 1];

  importer->progressed = TRUE;
  importer->depth = importer->events_depth + 1;
  importer->token_end = raw + token->end;
  begin_event (importer);
  for (token++; token < close; token++)
    {
      importer->in_args = importer->in_id2 = FALSE;
      importer->event_key = event_key_of (raw + token->at, token->length);
      token++;
      if (token->end != 0)
        importer->token_end = raw + token->end;
      switch ((SuanliJsonToken) token->kind)
        {
        case SUANLI_JSON_STRING:
        case SUANLI_JSON_NUMBER:
          scalar_of_event (importer, raw + token->at, token->length, token->kind == SUANLI_JSON_STRING);
          break;
        case SUANLI_JSON_OBJECT_START:
          if (importer->event_key == KEY_ARGS || importer->event_key == KEY_ID2)
            token = take_args_or_id2 (importer, token, raw);
          else
            token = take_container (importer, token, raw);
          break;
        case SUANLI_JSON_ARRAY_START:
          token = take_container (importer, token, raw);
          break;
        case SUANLI_JSON_TRUE:
        case SUANLI_JSON_FALSE:
        case SUANLI_JSON_NULL:
          check_member_type (importer, importer->depth);
          break;
        case SUANLI_JSON_OBJECT_END:
        case SUANLI_JSON_ARRAY_END:
        case SUANLI_JSON_KEY:
          g_assert_not_reached ();
        }
    }
  importer->in_event = FALSE;
  chrome_process_event (importer);
  importer->depth = importer->events_depth;
}

const yajl_callbacks chrome_callbacks = {
  on_null, on_boolean, NULL, NULL, on_number, on_string,
  on_start_map, on_map_key, on_end_map, on_start_array, on_end_array,
};

