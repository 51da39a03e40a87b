/* suanli-export-chrome.c — a trace written back as Chrome trace-event JSON
 *
 * For Perfetto, chrome://tracing and every tool that reads Kineto's files: process and thread
 * names, complete (X) slices with their arguments, instants, counters, and flows as s/f pairs
 * bound to the enclosing slices. Times are written as decimal microseconds with three decimals,
 * exactly (never through a double). Groups (one per file read) keep their pids apart by an
 * offset of group × 1,000,000,000 when there is more than one.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include "suanli-export-chrome.h"
#include "suanli-json-writer.h"

#define GROUP_PID_STRIDE G_GINT64_CONSTANT (1000000000)

static void
append_json_string (GString    *out,
                    const char *text)
{
  g_string_append_c (out, '"');
  for (const guchar *at = (const guchar *) text; *at != '\0'; at++)
    {
      if (*at == '"' || *at == '\\')
        g_string_append_printf (out, "\\%c", *at);
      else if (*at < 0x20)
        g_string_append_printf (out, "\\u%04x", *at);
      else
        g_string_append_c (out, (char) *at);
    }
  g_string_append_c (out, '"');
}

/* @ns as microseconds: "-12.345". */
static void
append_microseconds (GString *out,
                     gint64   ns)
{
  guint64 magnitude = ns < 0 ? (guint64) -(ns + 1) + 1 : (guint64) ns;

  g_string_append_printf (out, "%s%" G_GUINT64_FORMAT ".%03u", ns < 0 ? "-" : "", magnitude / 1000,
                          (guint) (magnitude % 1000));
}

static gint64
pid_of (SuanliTrace *trace,
        guint        group,
        gint64       pid)
{
  return suanli_trace_get_n_groups (trace) > 1 ? pid + (gint64) group * GROUP_PID_STRIDE : pid;
}

static void
append_args (GString           *out,
             SuanliTrace       *trace,
             const SuanliSlice *slice)
{
  const SuanliArg *args = suanli_trace_get_args (trace, slice);

  if (args == NULL || slice->n_args == 0)
    return;
  g_string_append (out, ",\"args\":{");
  for (guint i = 0; i < slice->n_args; i++)
    {
      if (i > 0)
        g_string_append_c (out, ',');
      append_json_string (out, suanli_trace_get_string (trace, args[i].key));
      g_string_append_c (out, ':');
      if (args[i].type == SUANLI_ARG_INT)
        g_string_append_printf (out, "%" G_GINT64_FORMAT, args[i].i);
      else if (args[i].type == SUANLI_ARG_DOUBLE)
        {
          char number[SUANLI_JSON_NUMBER_SIZE];

          /* JSON has no NaN or infinity: those are written as null. */
          suanli_json_format_number (args[i].d, number);
          g_string_append (out, number);
        }
      else
        append_json_string (out, suanli_trace_get_string (trace, args[i].s));
    }
  g_string_append_c (out, '}');
}

/* Writes the event in @out when it has grown past a chunk, or when @last. */
static gboolean
flush (GOutputStream  *output,
       GString        *out,
       gboolean        last,
       GCancellable   *cancellable,
       GError        **error)
{
  if (!last && out->len < 256 * 1024)
    return TRUE;
  if (!g_output_stream_write_all (output, out->str, out->len, NULL, cancellable, error))
    return FALSE;
  g_string_truncate (out, 0);
  return TRUE;
}

static void
begin_event (GString    *out,
             gboolean   *first,
             const char *phase)
{
  g_string_append (out, *first ? "\n" : ",\n");
  *first = FALSE;
  g_string_append_printf (out, "{\"ph\":\"%s\"", phase);
}

static void
append_metadata (GString     *out,
                 gboolean    *first,
                 const char  *what,
                 gint64       pid,
                 gint64       tid,
                 const char  *name)
{
  begin_event (out, first, "M");
  g_string_append_printf (out, ",\"name\":\"%s\",\"pid\":%" G_GINT64_FORMAT ",\"tid\":%" G_GINT64_FORMAT
                          ",\"args\":{\"name\":", what, pid, tid);
  append_json_string (out, name);
  g_string_append (out, "}}");
}

/* An event's phase, name, category, pid and tid: what every slice event starts with. */
static void
append_slice_head (GString           *out,
                   gboolean          *first,
                   const char        *phase,
                   SuanliTrace       *trace,
                   const SuanliSlice *slice,
                   gint64             pid,
                   gint64             tid)
{
  begin_event (out, first, phase);
  g_string_append (out, ",\"name\":");
  append_json_string (out, suanli_trace_get_string (trace, slice->name));
  if (slice->category != 0)
    {
      g_string_append (out, ",\"cat\":");
      append_json_string (out, suanli_trace_get_string (trace, slice->category));
    }
  g_string_append_printf (out, ",\"pid\":%" G_GINT64_FORMAT ",\"tid\":%" G_GINT64_FORMAT, pid, tid);
}

gboolean
suanli_export_chrome (SuanliTrace    *trace,
                      GOutputStream  *output,
                      GCancellable   *cancellable,
                      GError        **error)
{
  g_autoptr(GString) out = g_string_new ("{\"traceEvents\":[");
  GArray *flows = suanli_trace_get_flows (trace);
  gboolean first = TRUE;

  for (guint p = 0; p < suanli_trace_get_n_processes (trace); p++)
    {
      SuanliProcess *process = suanli_trace_get_process (trace, p);

      if (process->name != 0)
        append_metadata (out, &first, "process_name", pid_of (trace, process->group, process->pid), 0,
                         suanli_trace_get_string (trace, process->name));
    }

  for (guint t = 0; t < suanli_trace_get_n_tracks (trace); t++)
    {
      SuanliTrack *track = suanli_trace_get_track (trace, t);
      gint64 pid = pid_of (trace, track->group, track->pid);

      if ((track->kind == SUANLI_TRACK_THREAD || track->kind == SUANLI_TRACK_GPU_STREAM) && track->name != 0)
        append_metadata (out, &first, "thread_name", pid, track->tid, suanli_trace_get_string (trace, track->name));
      for (guint i = 0; i < track->slices->len; i++)
        {
          SuanliSlice *slice = &g_array_index (track->slices, SuanliSlice, i);

          if (track->kind == SUANLI_TRACK_ASYNC)
            {
              /* An async slice as a begin and end pair, keyed by its track. */
              append_slice_head (out, &first, "b", trace, slice, pid, track->tid);
              g_string_append_printf (out, ",\"id\":%u,\"ts\":", t);
              append_microseconds (out, slice->start);
              append_args (out, trace, slice);
              g_string_append_c (out, '}');
              append_slice_head (out, &first, "e", trace, slice, pid, track->tid);
              g_string_append_printf (out, ",\"id\":%u,\"ts\":", t);
              append_microseconds (out, slice->start + slice->duration);
              g_string_append_c (out, '}');
            }
          else
            {
              append_slice_head (out, &first, "X", trace, slice, pid, track->tid);
              g_string_append (out, ",\"ts\":");
              append_microseconds (out, slice->start);
              g_string_append (out, ",\"dur\":");
              append_microseconds (out, slice->duration);
              append_args (out, trace, slice);
              g_string_append_c (out, '}');
            }
          if (!flush (output, out, FALSE, cancellable, error))
            return FALSE;
        }
      for (guint i = 0; i < track->instants->len; i++)
        {
          SuanliInstant *instant = &g_array_index (track->instants, SuanliInstant, i);

          /* On an async track, an async instant of the same key as the slices. */
          begin_event (out, &first, track->kind == SUANLI_TRACK_ASYNC ? "n" : "i");
          if (track->kind == SUANLI_TRACK_ASYNC)
            g_string_append_printf (out, ",\"id\":%u", t);
          g_string_append (out, ",\"s\":\"t\",\"name\":");
          append_json_string (out, suanli_trace_get_string (trace, instant->name));
          g_string_append_printf (out, ",\"pid\":%" G_GINT64_FORMAT ",\"tid\":%" G_GINT64_FORMAT ",\"ts\":", pid,
                                  track->tid);
          append_microseconds (out, instant->time);
          g_string_append_c (out, '}');
        }
      for (guint i = 0; i < track->samples->len; i++)
        {
          SuanliSample *sample = &g_array_index (track->samples, SuanliSample, i);
          char number[SUANLI_JSON_NUMBER_SIZE];

          /* A counter track is one series: written back as a counter with one value. */
          begin_event (out, &first, "C");
          g_string_append (out, ",\"name\":");
          append_json_string (out, suanli_trace_get_string (trace, track->name));
          g_string_append_printf (out, ",\"pid\":%" G_GINT64_FORMAT ",\"ts\":", pid);
          append_microseconds (out, sample->time);
          suanli_json_format_number (sample->value, number);   /* null where not finite */
          g_string_append_printf (out, ",\"args\":{\"value\":%s}}", number);
          if (!flush (output, out, FALSE, cancellable, error))
            return FALSE;
        }
    }

  for (guint f = 0; f < flows->len; f++)
    {
      SuanliFlow *flow = &g_array_index (flows, SuanliFlow, f);
      guint32 ends[2][2] = { { flow->from_track, flow->from_slice }, { flow->to_track, flow->to_slice } };

      for (guint e = 0; e < 2; e++)
        {
          SuanliTrack *track = suanli_trace_get_track (trace, ends[e][0]);
          SuanliSlice *slice = &g_array_index (track->slices, SuanliSlice, ends[e][1]);

          /* Bound to the enclosing slice ("bp":"e") at its start, where both ends sit. */
          begin_event (out, &first, e == 0 ? "s" : "f");
          g_string_append_printf (out, ",\"id\":%u,\"bp\":\"e\",\"name\":", f + 1);
          append_json_string (out, suanli_trace_get_string (trace, flow->category));
          g_string_append (out, ",\"cat\":");
          append_json_string (out, suanli_trace_get_string (trace, flow->category));
          g_string_append_printf (out, ",\"pid\":%" G_GINT64_FORMAT ",\"tid\":%" G_GINT64_FORMAT ",\"ts\":",
                                  pid_of (trace, track->group, track->pid), track->tid);
          append_microseconds (out, slice->start);
          g_string_append_c (out, '}');
        }
      if (!flush (output, out, FALSE, cancellable, error))
        return FALSE;
    }

  g_string_append (out, "\n],\"displayTimeUnit\":\"ns\"}\n");
  return flush (output, out, TRUE, cancellable, error);
}
