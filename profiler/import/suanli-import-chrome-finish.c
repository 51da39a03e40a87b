/* suanli-import-chrome-finish.c — the Chrome importer's last stage: after the stream
 *
 * Flows bound to the slices at their ends, the file's base time added to the times it read (and
 * only to those: the trace may hold other ranks' files), the warnings that count what was left out,
 * and the memory budget that stops a reading whose trace grows past it.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>

#include "suanli-import-chrome-private.h"

/* The first of @slices starting after @time (at or after it, with @at_too), sought outward from
 * @hint: a file's flows come nearly in time order, so the answer is most often near the last one,
 * and a binary search over the whole track was a cache miss a step. */
static guint
first_starting_after (const GArray *slices,
                      gint64        time,
                      gboolean      at_too,
                      guint         hint)
{
  const SuanliSlice *slice = (const SuanliSlice *) (gpointer) slices->data;
  guint low, high, step = 1;

#define PAST(i) (at_too ? slice[i].start >= time : slice[i].start > time)
  hint = MIN (hint, slices->len);
  if (hint == slices->len || PAST (hint))
    {
      /* At or before @hint: step back, doubling, to a slice not past it. */
      low = 0;
      high = hint;
      while (high > 0)
        {
          guint probe = high > step ? high - step : 0;

          if (!PAST (probe))
            {
              low = probe + 1;
              break;
            }
          high = probe;
          step *= 2;
        }
    }
  else
    {
      /* After @hint: step on, doubling, to a slice past it (or the end). */
      low = hint + 1;
      high = slices->len;
      while (low < slices->len)
        {
          guint probe = slices->len - low > step ? low + step - 1 : slices->len - 1;

          if (PAST (probe))
            {
              high = probe;
              break;
            }
          low = probe + 1;
          step *= 2;
        }
    }
  while (low < high)
    {
      guint middle = low + (high - low) / 2;

      if (PAST (middle))
        high = middle;
      else
        low = middle + 1;
    }
#undef PAST
  return low;
}

/* The deepest slice of @track around @time (or, unless @enclosing, the first at or after it).
 * @hint: where the last search on @track ended; it is moved to where this one does. */
static gboolean
find_slice (SuanliTrack *track,
            gint64       time,
            gboolean     enclosing,
            guint       *hint,
            guint32     *slice_index)
{
  GArray *slices = track->slices;
  guint after = first_starting_after (slices, time, !enclosing, *hint);

  *hint = after;
  if (!enclosing)
    {
      *slice_index = after;
      return after < slices->len;
    }
  /* Slices before the first starting after @time that still cover it: the last is the deepest. */
  for (guint i = after; i-- > 0;)
    {
      SuanliSlice *slice = &g_array_index (slices, SuanliSlice, i);

      if (slice->start <= time && time <= slice->start + slice->duration)
        {
          *slice_index = i;
          return TRUE;
        }
      if (slice->depth == 0)
        break;
    }
  return FALSE;
}

void
chrome_bind_flows (Importer *importer)
{
  g_autofree guint *hints = g_new0 (guint, suanli_trace_get_n_tracks (importer->trace));

  for (guint i = 0; i + 1 < importer->flows->len; i += 2)
    {
      FlowEnd *start = &g_array_index (importer->flows, FlowEnd, i);
      FlowEnd *end = &g_array_index (importer->flows, FlowEnd, i + 1);
      SuanliFlow flow = { start->track, 0, end->track, 0, g_array_index (importer->flow_categories, SuanliString, i / 2) };

      if (find_slice (suanli_trace_get_track (importer->trace, start->track), start->time, TRUE, &hints[start->track], &flow.from_slice) &&
          find_slice (suanli_trace_get_track (importer->trace, end->track), end->time, end->enclosing, &hints[end->track], &flow.to_slice))
        suanli_trace_add_flow (importer->trace, &flow);
    }
  /* Bound, their ends are not read again: held on through the links and queue counters that come
   * next, they were a tenth of a large trace's import at its peak. */
  g_clear_pointer (&importer->flows, g_array_unref);
  g_clear_pointer (&importer->flow_categories, g_array_unref);
}

void
chrome_mark_tracks (Importer *importer)
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
void
chrome_apply_base_time (Importer *importer)
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
void
chrome_warn_count (SuanliTrace *trace,
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
char *
chrome_describe_bad_values (Importer *importer,
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
gboolean
chrome_holds_nothing (Importer *importer)
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

void
chrome_importer_clear (Importer *importer)
{
  chrome_add_category_counts (importer);
  g_array_unref (importer->category_counts);
  g_array_unref (importer->slice_rooms);
  g_hash_table_unref (importer->open_slices);
  g_hash_table_unref (importer->open_async);
  chrome_flow_starts_free (importer->flow_starts);
  g_clear_pointer (&importer->flows, g_array_unref);
  g_clear_pointer (&importer->flow_categories, g_array_unref);
  g_array_unref (importer->marks);
}

/* The memory the trace takes so far: what the files before this one took, and this one's items,
 * begins waiting for their ends, and the strings and tracks it added. */
guint64
chrome_held_bytes (Importer *importer)
{
  return importer->held_before + importer->held + (suanli_trace_get_string_bytes (importer->trace) - importer->strings_before) +
         (guint64) (suanli_trace_get_n_tracks (importer->trace) - importer->tracks_before) * TRACK_BYTES;
}

/* Why the reading stopped at a budget (see suanli-import-limits.c), or NULL while within them. */
char *
chrome_over_budget_message (Importer                 *importer,
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
  if (chrome_held_bytes (importer) > limits->max_memory)
    return g_strdup_printf (_("the trace read so far takes more than %llu MiB of memory (SUANLI_TRACE_MAX_MEMORY, "
                              "in bytes, sets it; by default a quarter of the machine's memory)"),
                            (unsigned long long) (limits->max_memory >> 20));
  return NULL;
}

