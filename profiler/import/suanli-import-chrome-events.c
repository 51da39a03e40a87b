/* suanli-import-chrome-events.c — the Chrome importer's second stage: one event into the trace
 *
 * A finished event object, by its phase: complete (X) and begin/end (B/E) slices on their thread or
 * GPU stream's track, instants, counters (C) as samples, PyTorch's "[memory]" events as memory
 * counters, metadata (M) naming processes and threads, flow ends (s/t/f) kept until the stream
 * ends, and async begin/end pairs. Begun slices the file never ends are closed at its last time.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>
#include <string.h>
#include <glib/gi18n.h>

#include "suanli-analysis.h"
#include "suanli-import-chrome-private.h"

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
void
chrome_intern_gpu_categories (Importer *importer)
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

void
chrome_add_category_counts (Importer *importer)
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

/* Adds a slice of the event to @track, the trace's track @index. */
static void
add_slice (Importer    *importer,
           SuanliTrack *track,
           guint        index,
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
  if (index >= importer->slice_rooms->len)
    g_array_set_size (importer->slice_rooms, index + 1);
  *(SuanliSlice *) suanli_array_room_append (&g_array_index (importer->slice_rooms, SuanliArrayRoom, index), track->slices,
                                             sizeof slice, 1) = slice;
  importer->held += sizeof slice + event->n_args * sizeof (SuanliArg);
  count_category (importer, event->category);
}

/* The event being read ends the slice that @open[@index] began: removed from @open, and added to
 * @track with the begin's name and arguments (the end's when the begin had none). */
static void
close_slice (Importer    *importer,
             SuanliTrack *track,
             guint        track_index,
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
  add_slice (importer, track, track_index, begin.ts, end.ts - begin.ts, 0);
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
  close_slice (importer, track, index, open, open->len - 1);
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

/* Flow v1: "s" starts, "t" steps, "f" finishes; keyed by category, name and id. */
static void
flow_event (Importer *importer)
{
  Event *event = &importer->event;
  FlowEnd end = { 0, event->phase == 'f' && event->bind_enclosing, event->ts }, start;

  event_track (importer, &end.track);
  if (event->phase == 's')
    {
      if (chrome_flow_starts_put (importer->flow_starts, event, &end))
        importer->held += chrome_flow_starts_entry_bytes ();
    }
  else if (event->phase == 'f')
    {
      /* Orphan ends are common in real traces: dropped quietly (correlation links them anyway). */
      if (!chrome_flow_starts_take (importer->flow_starts, event, &start))
        return;
      start.enclosing = TRUE;
      memcpy (suanli_array_room_append (&importer->flows_room, importer->flows, sizeof end, 2), ((FlowEnd[2]) { start, end }),
              2 * sizeof end);
      *(SuanliString *) suanli_array_room_append (&importer->flow_categories_room, importer->flow_categories,
                                                  sizeof event->category, 1) = event->category;
      importer->held += 2 * sizeof end + sizeof event->category;
      importer->held -= chrome_flow_starts_entry_bytes ();
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
             GArray   *open,
             guint    *index)
{
  const Event *root = open != NULL && open->len > 0 ? &g_array_index (open, Event, 0) : &importer->event;

  return suanli_trace_ensure_track (importer->trace, SUANLI_TRACK_ASYNC, root->pid, 0, root->name, index);
}

static void
async_event (Importer *importer)
{
  Event *event = &importer->event;
  g_autofree char *key = async_key (event);
  GArray *open = g_hash_table_lookup (importer->open_async, key);
  SuanliTrack *track;
  guint match, index;

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

      g_array_append_val (async_track (importer, open, NULL)->instants, instant);
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
  track = async_track (importer, open, &index);
  close_slice (importer, track, index, open, match);
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

void
chrome_process_event (Importer *importer)
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
      add_slice (importer, track, index, event->ts, event->has_dur ? event->dur : 0, 0);
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

/* Begun slices (B) and async begins the file never ended: closed at the file's last time, and
 * counted in a warning. */
void
chrome_close_open_slices (Importer *importer)
{
  GHashTableIter iter;
  gpointer key, value;
  gint64 last = importer->last_time;
  guint64 unfinished = 0;

  g_hash_table_iter_init (&iter, importer->open_slices);
  while (g_hash_table_iter_next (&iter, &key, &value))
    {
      GArray *open = value;
      guint index = GPOINTER_TO_UINT (key) - 1;
      SuanliTrack *track = suanli_trace_get_track (importer->trace, index);

      for (guint i = open->len; i-- > 0;)
        {
          importer->event = g_array_index (open, Event, i);
          add_slice (importer, track, index, importer->event.ts, last - importer->event.ts, SUANLI_SLICE_UNFINISHED);
          unfinished++;
        }
    }
  /* Async slices still open: closed the same way, on their own tracks. */
  g_hash_table_iter_init (&iter, importer->open_async);
  while (g_hash_table_iter_next (&iter, &key, &value))
    {
      GArray *open = value;
      guint index;
      SuanliTrack *track = async_track (importer, open, &index);

      for (guint i = open->len; i-- > 0;)
        {
          importer->event = g_array_index (open, Event, i);
          add_slice (importer, track, index, importer->event.ts, last - importer->event.ts, SUANLI_SLICE_UNFINISHED);
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
