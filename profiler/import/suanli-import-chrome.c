/* suanli-import-chrome.c — Chrome trace-event JSON, as PyTorch's profiler and Kineto write it
 *
 * The JSON is streamed through yajl's callback parser in 64 KiB chunks (gzip inflated on the way
 * through GIO), so memory holds the trace model, never the file. Each event object's fields are
 * gathered as they come and the event is turned into slices, instants, counter samples, metadata or
 * flow ends when its object closes. Times are parsed from the number's text into integer
 * nanoseconds. After the stream, tracks are sorted and nested, flows are bound to the slices at
 * their ends, and CPU launches are linked to GPU work by their "correlation" argument.
 * A fault in the bytes stops the import with what was read before it, and a warning naming the
 * byte offset and line; the format and the rules are in docs/trace-formats.md. This file runs the
 * stages over the stream; each stage has its own file (see suanli-import-chrome-private.h).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>
#include <glib/gi18n.h>

#include "suanli-analysis.h"
#include "suanli-import-chrome.h"
#include "suanli-import-chrome-private.h"
#include "suanli-import-links.h"

/* How the reading of the stream ended: at its end, at a fault in the bytes, at a budget, or at a
 * read error (@length < 0, the error in the caller's GError). */
typedef struct
{
  guint64          offset, line;         /* how far the stream was read */
  gssize           length;               /* the last read's result */
  gboolean         fault, over_budget;
  guint64          fault_offset, fault_line;
  char            *fault_message;
} StreamEnd;

static void
importer_init (Importer          *importer,
               SuanliTrace       *trace,
               const char        *name,
               SuanliImportStats *stats)
{
  if (stats->by_category == NULL)
    stats->by_category = g_hash_table_new (g_str_hash, g_str_equal);
  importer->trace = trace;
  importer->stats = stats;
  importer->open_slices = g_hash_table_new_full (NULL, NULL, NULL, (GDestroyNotify) g_array_unref);
  importer->open_async = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, (GDestroyNotify) g_array_unref);
  importer->flow_starts = chrome_flow_starts_new ();
  importer->flows = g_array_new (FALSE, FALSE, sizeof (FlowEnd));
  importer->flow_categories = g_array_new (FALSE, FALSE, sizeof (SuanliString));
  importer->category_counts = g_array_new (FALSE, TRUE, sizeof (guint64));
  importer->slice_rooms = g_array_new (FALSE, TRUE, sizeof (SuanliArrayRoom));
  importer->group = suanli_trace_begin_group (trace, name);
  importer->held_before = suanli_trace_get_memory_size (trace);
  importer->strings_before = suanli_trace_get_string_bytes (trace);
  importer->tracks_before = suanli_trace_get_n_tracks (trace);
  importer->last_time = G_MININT64;
  importer->first_time = G_MAXINT64;
  importer->windows_allowed = g_strcmp0 (g_getenv ("SUANLI_TRACE_PARSER"), "yajl") != 0;
  chrome_intern_gpu_categories (importer);
  chrome_mark_tracks (importer);
}

/* The next bytes for yajl: those the windows read past where yajl reads on, then the stream's.
 * Reads end on multiples of CHUNK_SIZE in the file, wherever reading resumed, so that the budgets
 * are checked at the same bytes however the file was read. */
static gssize
read_chunk (GInputStream *stream,
            ChromeResume *resume,
            guchar       *buffer,
            guint64       offset,
            GCancellable *cancellable,
            GError      **error)
{
  gsize wanted = CHUNK_SIZE - (gsize) (offset % CHUNK_SIZE);

  if (resume->at < resume->length)
    {
      gsize length = MIN (wanted, resume->length - resume->at);

      memcpy (buffer, resume->bytes + resume->at, length);
      resume->at += length;
      return (gssize) length;
    }
  if (resume->error != NULL)
    {
      g_propagate_error (error, g_steal_pointer (&resume->error));
      return -1;
    }
  return g_input_stream_read (stream, buffer, wanted, cancellable, error);
}

/* A yajl parser where the windows left off: given the text that leads there ("[" or '{"traceEvents":['
 * and an element when one came before), through the importer's callbacks, which leave the
 * importer as it is between two elements. */
static yajl_handle
resumed_parser (Importer           *importer,
                const ChromeResume *resume)
{
  yajl_handle parser = yajl_alloc (&chrome_callbacks, NULL, importer);
  g_autofree char *lead = importer->array_form ? g_strconcat ("[", resume->after_value ? "[]" : "", NULL)
                                               : g_strconcat ("{\"", importer->key, "\":[", resume->after_value ? "[]" : "", NULL);

  yajl_config (parser, yajl_allow_multiple_values, 0);
  importer->parser = parser;
  importer->depth = 0;
  yajl_parse (parser, (const unsigned char *) lead, strlen (lead));
  return parser;
}

/* yajl stopped where the events array opened (@consumed bytes into the chunk): the windows read
 * the array, and a new parser goes on from where they left off. */
static void
read_events_in_windows (Importer     *importer,
                        GInputStream *stream,
                        GCancellable *cancellable,
                        const guchar *buffer,
                        gsize         length,
                        size_t        consumed,
                        ChromeResume *resume,
                        StreamEnd    *end)
{
  importer->windows_wanted = FALSE;
  importer->windows_used = TRUE;
  end->line += chrome_count_lines (buffer, consumed);
  end->offset += consumed;
  chrome_read_windows (importer, stream, cancellable, buffer + consumed, length - consumed, end->offset, end->line, resume);
  end->offset = resume->offset;
  end->line = resume->line;
  yajl_free (importer->parser);
  importer->parser = resumed_parser (importer, resume);
}

/* Feeds @stream to yajl chunk by chunk until its end, a fault in the JSON, a budget or a read
 * error, and says which in @end; the events array goes through the windows on the way. */
static void
read_stream (Importer     *importer,
             GInputStream *stream,
             GCancellable *cancellable,
             StreamEnd    *end,
             GError      **error)
{
  g_autofree guchar *buffer = g_malloc (CHUNK_SIZE);
  SuanliImportLimits limits = suanli_import_limits ();
  ChromeResume resume = { 0 };
  guint64 stalled = 0;      /* bytes since a value, key or bracket last came: one token's length */

  *end = (StreamEnd) { .line = 1 };
  importer->parser = yajl_alloc (&chrome_callbacks, NULL, importer);
  yajl_config (importer->parser, yajl_allow_multiple_values, 0);

  while ((end->length = read_chunk (stream, &resume, buffer, end->offset, cancellable, error)) > 0)
    {
      gsize length = (gsize) end->length;
      yajl_status status;

      importer->chunk = buffer;
      importer->chunk_at = (Place) { end->offset, end->line };
      status = yajl_parse (importer->parser, buffer, length);

      if (status != yajl_status_ok && importer->windows_wanted)
        {
          read_events_in_windows (importer, stream, cancellable, buffer, length,
                                  yajl_get_bytes_consumed (importer->parser), &resume, end);
          continue;
        }
      if (status != yajl_status_ok)
        {
          size_t consumed = yajl_get_bytes_consumed (importer->parser);
          unsigned char *text = yajl_get_error (importer->parser, 0, buffer, length);

          end->line += chrome_count_lines (buffer, MIN (consumed, length));
          end->fault = TRUE;
          end->fault_offset = end->offset + consumed;
          end->fault_line = end->line;
          end->fault_message = importer->limit_error != NULL ? g_strdup (importer->limit_error->message)
                                                             : g_strstrip (g_strdup ((const char *) text));
          yajl_free_error (importer->parser, text);
          break;
        }
      end->line += chrome_count_lines (buffer, length);
      end->offset += (guint64) length;
      /* yajl keeps a token that spans chunks and reads it again with each: one of megabytes costs
       * quadratic time. A small gzip can inflate to many gigabytes of text, which takes minutes,
       * and of tiny events, which take more memory than the machine has. Each stops the reading;
       * what came before is kept. */
      stalled = importer->progressed ? 0 : stalled + (guint64) length;
      importer->progressed = FALSE;
      end->fault_message = chrome_over_budget_message (importer, &limits, stalled, end->offset);
      if (end->fault_message != NULL)
        {
          end->fault = end->over_budget = TRUE;
          end->fault_offset = end->offset;
          end->fault_line = end->line;
          break;
        }
    }
  g_free (resume.bytes);
  g_clear_error (&resume.error);
  importer->stats->bytes += end->fault ? end->fault_offset : end->offset;

  importer->chunk_at = (Place) { end->offset, end->line };   /* the end: nothing more of the chunk is read */
  if (!end->fault && end->length == 0 && yajl_complete_parse (importer->parser) != yajl_status_ok)
    {
      /* An unfinished array is a legal trace: the profiler was stopped before it closed it. */
      if (!(importer->array_form && !importer->in_event && importer->depth <= 1))
        {
          end->fault = TRUE;
          end->fault_offset = end->offset;
          end->fault_line = end->line;
          end->fault_message = g_strdup (end->offset == 0 ? _("the file is empty")
                                                          : _("the file ends in the middle of the JSON"));
        }
    }
  yajl_free (importer->parser);
  g_clear_error (&importer->limit_error);
  if (end->length < 0)
    end->fault = FALSE;   /* a read error: reported through @error */
}

/* What a fault or a read error leaves: FALSE with @error when nothing was read before it (or the
 * user cancelled); otherwise a warning on the trace that says where the reading stopped and why. */
static gboolean
keep_what_was_read (SuanliTrace     *trace,
                    const char      *name,
                    const StreamEnd *end,
                    gboolean         read_nothing,
                    GError         **error)
{
  g_autofree char *warning = NULL;
  unsigned long long fault_offset = end->fault_offset, fault_line = end->fault_line;

  if (end->length < 0 && (read_nothing || g_error_matches (*error, G_IO_ERROR, G_IO_ERROR_CANCELLED)))
    return FALSE;   /* nothing to keep, or the user asked to stop: the error stands */
  if (!end->fault && end->length >= 0)
    return TRUE;
  if (read_nothing)
    {
      if (end->over_budget)
        g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA, _("%s: stopped reading at byte %llu, line %llu: %s"),
                     name, fault_offset, fault_line, end->fault_message);
      else
        g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA, _("%s: not a trace: at byte %llu, line %llu: %s"),
                     name, fault_offset, fault_line, end->fault_message);
      return FALSE;
    }
  if (end->length >= 0 && end->over_budget)
    warning = g_strdup_printf (_("%s: stopped reading at byte %llu (line %llu), keeping what came before: %s"),
                               name, fault_offset, fault_line, end->fault_message);
  else if (end->length >= 0)
    warning = g_strdup_printf (_("%s: read up to byte %llu (line %llu), where the JSON breaks: %s"),
                               name, fault_offset, fault_line, end->fault_message);
  else
    {
      /* A read error after some events (a cut gzip, a broken pipe): keep them, and say where. */
      warning = g_strdup_printf (_("%s: read up to byte %llu (line %llu), where reading failed: %s"),
                                 name, (unsigned long long) end->offset, (unsigned long long) end->line,
                                 (*error)->message);
      g_clear_error (error);
    }
  suanli_trace_add_partial_warning (trace, warning);
  return TRUE;
}

static void
warn_ignored_events (Importer *importer)
{
  SuanliTrace *trace = importer->trace;

  chrome_warn_count (trace, importer->unmatched_ends, ngettext ("%llu end (E) had no begin (B): ignored",
                                                                "%llu ends (E) had no begin (B): ignored",
                                                                importer->unmatched_ends),
                     (unsigned long long) importer->unmatched_ends);
  chrome_warn_count (trace, importer->unmatched_async_ends, ngettext ("%llu async end had no begin: ignored",
                                                                      "%llu async ends had no begin: ignored",
                                                                      importer->unmatched_async_ends),
                     (unsigned long long) importer->unmatched_async_ends);
  chrome_warn_count (trace, importer->unknown_phases, ngettext ("%llu event of an unknown phase: ignored",
                                                                "%llu events of unknown phases: ignored",
                                                                importer->unknown_phases),
                     (unsigned long long) importer->unknown_phases);
}

/* After the stream: the begun slices closed, and unless the file placed nothing in time, the
 * warnings about impossible values, the base time, the tracks sorted and nested, the flows bound
 * and the launches linked to their GPU work. FALSE with @error when it placed nothing. */
static gboolean
finish_trace (Importer   *importer,
              const char *name,
              GError    **error)
{
  SuanliTrace *trace = importer->trace;

  warn_ignored_events (importer);
  chrome_close_open_slices (importer);
  if (chrome_holds_nothing (importer))
    {
      g_autofree char *left_out = chrome_describe_bad_values (importer, importer->bad[BAD_TS].count > 0 ? BAD_TS : BAD_ID);

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
      return FALSE;
    }
  for (guint bad = 0; bad < N_BAD; bad++)
    {
      g_autofree char *warning = chrome_describe_bad_values (importer, bad);

      if (warning != NULL)
        suanli_trace_add_warning (trace, warning);
    }
  chrome_apply_base_time (importer);
  suanli_trace_finish (trace);
  chrome_bind_flows (importer);
  suanli_import_link_correlations (trace, importer->group);
  suanli_analysis_add_queue_counters (trace, importer->group);
  return TRUE;
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
  StreamEnd end;
  guint64 events_before = stats->events;   /* @stats may count the files read before this one */
  gboolean kept;

  g_return_val_if_fail (SUANLI_IS_TRACE (trace), FALSE);

  importer_init (&importer, trace, name, stats);
  read_stream (&importer, stream, cancellable, &end, error);
  kept = keep_what_was_read (trace, name, &end, stats->events == events_before, error) &&
         finish_trace (&importer, name, error);
  g_free (end.fault_message);
  chrome_importer_clear (&importer);
  return kept;
}
