/* fuzz-chrome-parsers.c — libFuzzer target: the Chrome importer's two parsers on the same bytes
 *
 * The events array of a Chrome or Kineto trace is read in windows through simdjson, and what
 * simdjson might read differently goes back to yajl (profiler/import/suanli-import-chrome-windows.c).
 * This target reads every input with yajl alone (SUANLI_TRACE_PARSER=yajl), then through the
 * windows on 1, 2 and 4 threads (SUANLI_IMPORT_THREADS), at their own size and in windows of 16
 * and 61 bytes (SUANLI_TRACE_WINDOW), which cut elements at every place, and requires the same
 * outcome each time: the same error, or the same warnings and the same trace written back as
 * Chrome JSON. Inputs are sniffed as files are (gzip included), so the replay runs the real
 * traces too.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <stdint.h>
#include <glib.h>

#include "suanli-export-chrome.h"
#include "suanli-import.h"

int LLVMFuzzerTestOneInput (const uint8_t *data,
                            size_t         size);

/* Everything a reading leaves that a user sees, as one text. */
static char *
read_with (const uint8_t *data,
           size_t         size,
           const char    *parser,
           const char    *window,
           const char    *threads)
{
  g_autoptr(SuanliTrace) trace = suanli_trace_new ();
  g_autoptr(GInputStream) stream = g_memory_input_stream_new_from_data (data, (gssize) size, NULL);
  g_autoptr(GOutputStream) json = g_memory_output_stream_new_resizable ();
  g_autoptr(GError) error = NULL;
  GString *outcome = g_string_new (NULL);
  SuanliImportStats stats = { 0 };
  GPtrArray *warnings;

  g_setenv ("SUANLI_TRACE_PARSER", parser, TRUE);
  g_setenv ("SUANLI_IMPORT_THREADS", threads, TRUE);
  if (window != NULL)
    g_setenv ("SUANLI_TRACE_WINDOW", window, TRUE);
  else
    g_unsetenv ("SUANLI_TRACE_WINDOW");
  if (!suanli_import_stream (trace, stream, "fuzz", &stats, NULL, &error))
    {
      g_string_append_printf (outcome, "error: %s\n", error->message);
      suanli_import_stats_clear (&stats);
      return g_string_free (outcome, FALSE);
    }
  g_string_append_printf (outcome, "events %" G_GUINT64_FORMAT ", bytes %" G_GUINT64_FORMAT "\n", stats.events, stats.bytes);
  warnings = suanli_trace_get_warnings (trace);
  for (guint i = 0; i < warnings->len; i++)
    g_string_append_printf (outcome, "warning: %s\n", (const char *) g_ptr_array_index (warnings, i));
  g_assert (suanli_export_chrome (trace, json, NULL, NULL));
  g_assert (g_output_stream_close (json, NULL, NULL));
  g_string_append_len (outcome, g_memory_output_stream_get_data (G_MEMORY_OUTPUT_STREAM (json)),
                       (gssize) g_memory_output_stream_get_data_size (G_MEMORY_OUTPUT_STREAM (json)));
  suanli_import_stats_clear (&stats);
  return g_string_free (outcome, FALSE);
}

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  static const char *windows[] = { NULL, "16", "61" }, *threads[] = { "1", "2", "4" };
  g_autofree char *by_yajl = read_with (data, size, "yajl", NULL, "1");

  for (guint w = 0; w < G_N_ELEMENTS (windows); w++)
    for (guint t = 0; t < G_N_ELEMENTS (threads); t++)
      {
        g_autofree char *by_windows = read_with (data, size, "windows", windows[w], threads[t]);

        g_assert_cmpstr (by_windows, ==, by_yajl);
      }
  return 0;
}
