/* test-trace-input.c — the importer given what a file on disk can be: gzip (whole, in members, cut),
 * over budget, with impossible times, failing reads, and every prefix of a small trace
 *
 * Whatever it is given, the importer keeps what it read before the trouble and says where it was.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <glib/gstdio.h>
#include <gio/gunixinputstream.h>

#include "suanli-import.h"
#include "suanli-import-chrome.h"
#include "suanli-import-limits.h"
#include "suanli-trace-format.h"
#include "suanli-test-fixtures.h"
#include "suanli-test-import.h"
#include "suanli-test-samples.h"

/* @length bytes of @text as one gzip member, appended to @out. */
static void
append_gzip_member (GByteArray *out,
                    const char *text,
                    gsize       length)
{
  g_autoptr(GZlibCompressor) compressor = g_zlib_compressor_new (G_ZLIB_COMPRESSOR_FORMAT_GZIP, 6);
  g_autoptr(GOutputStream) memory = g_memory_output_stream_new_resizable ();
  g_autoptr(GOutputStream) gzip = g_converter_output_stream_new (memory, G_CONVERTER (compressor));
  g_autoptr(GError) error = NULL;

  g_assert_true (g_output_stream_write_all (gzip, text, length, NULL, NULL, &error));
  g_assert_true (g_output_stream_close (gzip, NULL, &error));
  g_byte_array_append (out, g_memory_output_stream_get_data (G_MEMORY_OUTPUT_STREAM (memory)),
                       (guint) g_memory_output_stream_get_data_size (G_MEMORY_OUTPUT_STREAM (memory)));
}

static void
test_gzip_members (void)
{
  /* Three members cut at arbitrary places (as `cat a.gz b.gz c.gz` makes): read as one text. */
  g_autoptr(GByteArray) gzip = g_byte_array_new ();
  gsize length = sizeof suanli_test_kineto_trace - 1, first = length / 3, second = length / 2;
  g_autoptr(SuanliTrace) trace = suanli_trace_new ();
  g_autoptr(GInputStream) stream = NULL;
  g_autoptr(GError) error = NULL;
  SuanliImportStats stats = { 0 };

  append_gzip_member (gzip, suanli_test_kineto_trace, first);
  append_gzip_member (gzip, suanli_test_kineto_trace + first, second - first);
  append_gzip_member (gzip, suanli_test_kineto_trace + second, length - second);
  stream = g_memory_input_stream_new_from_data (gzip->data, gzip->len, NULL);
  g_assert_true (suanli_import_stream (trace, stream, "members.json.gz", &stats, NULL, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (stats.bytes, ==, length);
  g_assert_cmpuint (stats.events, ==, 9);
  g_assert_cmpuint (suanli_trace_get_n_slices (trace), ==, 7);
  g_assert_cmpuint (suanli_trace_get_warnings (trace)->len, ==, 0);
  suanli_import_stats_clear (&stats);
}

/* Budgets: one JSON value of megabytes (quadratic to lex across chunks) and more text than
 * SUANLI_TRACE_MAX_BYTES both stop the reading; what came before is kept, and a warning says why. */
static void
test_budgets (void)
{
  GString *text = g_string_new ("{\"traceEvents\": [");
  g_autofree char *data = NULL;
  gsize length;

  for (guint i = 0; i < 1000; i++)
    g_string_append_printf (text, "{\"ph\": \"X\", \"name\": \"k\", \"pid\": 1, \"tid\": 1, \"ts\": %u, \"dur\": 1},", i);
  g_string_append (text, "{\"ph\": \"X\", \"name\": \"");
  for (guint i = 0; i < 3 << 20; i += 64)
    g_string_append (text, "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef");
  g_string_append (text, "\", \"pid\": 1, \"tid\": 1, \"ts\": 5000, \"dur\": 1}]}");
  length = text->len;
  data = g_string_free (text, FALSE);

  for (guint round = 0; round < 2; round++)
    {
      g_autoptr(SuanliTrace) trace = suanli_trace_new ();
      g_autoptr(GInputStream) stream = g_memory_input_stream_new_from_data (data, (gssize) length, NULL);
      g_autoptr(GError) error = NULL;
      SuanliImportStats stats = { 0 };
      const char *warning;

      /* The second round: a budget of text that the first 1,000 events already pass. */
      if (round == 1)
        g_setenv ("SUANLI_TRACE_MAX_BYTES", "50000", TRUE);
      g_assert_true (suanli_import_stream (trace, stream, "budget.json", &stats, NULL, &error));
      g_unsetenv ("SUANLI_TRACE_MAX_BYTES");
      g_assert_no_error (error);
      g_assert_cmpuint (suanli_trace_get_warnings (trace)->len, ==, 1);
      warning = g_ptr_array_index (suanli_trace_get_warnings (trace), 0);
      g_test_message ("%s", warning);
      g_assert_true (g_str_has_prefix (warning, "budget.json: stopped reading at byte "));
      g_assert_nonnull (strstr (warning, round == 0 ? "one JSON value is longer than 1048576 bytes"
                                                     : "the trace is longer than 50000 bytes of JSON"));
      g_assert_cmpuint (suanli_trace_get_n_slices (trace), >, 0);
      g_assert_cmpuint (suanli_trace_get_n_slices (trace), <=, 1000);
      suanli_import_stats_clear (&stats);
    }
}

/* The warning of @imported that starts with @start, or NULL. */
static const char *
find_warning (SuanliTestImport   *imported,
              const char *start)
{
  GPtrArray *warnings = suanli_trace_get_warnings (imported->trace);

  for (guint i = 0; i < warnings->len; i++)
    if (g_str_has_prefix (g_ptr_array_index (warnings, i), start))
      return g_ptr_array_index (warnings, i);
  return NULL;
}

/* The byte just past @value, the first time it is in @text: where the importer says it is. */
static gsize
end_of (const char *text,
        const char *value)
{
  const char *at = strstr (text, value);

  g_assert_nonnull (at);
  return (gsize) (at - text) + strlen (value);
}

/* Times no clock gives: a ts past 64 bits or ±1e400 is left out (it was read as 0), a negative or
 * endless dur is read as 0; each kind is warned about once, with how many and where the first is.
 * Metadata needs no time. A pid or tid of true, null, an array or an object leaves the event out
 * (it went to pid 0, GPU 0 in a Kineto trace). */
static void
test_impossible_times (void)
{
  static const char text[] =
    "{\"traceEvents\": [\n"
    "{\"ph\": \"X\", \"name\": \"a\", \"pid\": 1, \"tid\": 1, \"ts\": 10, \"dur\": 5},\n"
    "{\"ph\": \"X\", \"name\": \"b\", \"pid\": 1, \"tid\": 1, \"ts\": 9223372036854775807, \"dur\": 5},\n"
    "{\"ph\": \"i\", \"name\": \"c\", \"pid\": 1, \"tid\": 1, \"ts\": -1e400},\n"
    "{\"ph\": \"X\", \"name\": \"d\", \"pid\": 1, \"tid\": 1, \"ts\": 20, \"dur\": -3},\n"
    "{\"ph\": \"X\", \"name\": \"e\", \"pid\": 1, \"tid\": 1, \"ts\": 30, \"dur\": 1e400},\n"
    "{\"ph\": \"X\", \"name\": \"f\", \"pid\": true, \"tid\": 1, \"ts\": 40, \"dur\": 1},\n"
    "{\"ph\": \"X\", \"name\": \"g\", \"pid\": 1, \"tid\": null, \"ts\": 40, \"dur\": 1},\n"
    "{\"ph\": \"X\", \"name\": \"h\", \"pid\": [1], \"tid\": 1, \"ts\": 40, \"dur\": 1},\n"
    "{\"ph\": \"X\", \"name\": \"i\", \"pid\": {\"a\": 1}, \"tid\": 1, \"ts\": 40, \"dur\": 1},\n"
    "{\"ph\": \"M\", \"name\": \"process_name\", \"pid\": 1, \"ts\": \"never\", \"args\": {\"name\": \"p\"}}\n"
    "]}\n";
  g_autoptr(SuanliTestImport) imported = suanli_test_import_text (text);
  g_autofree char *ts_warning = g_strdup_printf ("test.json: 2 events have a ts that is no time within 73 years of "
                                                 "1970 (the first at byte %zu, line 3): left out",
                                                 end_of (text, "9223372036854775807"));
  g_autofree char *dur_warning = g_strdup_printf ("test.json: 2 slices have a dur that is negative or no time within "
                                                  "73 years (the first at byte %zu, line 5): read as 0",
                                                  end_of (text, "-3"));
  g_autofree char *id_warning = g_strdup_printf ("test.json: 4 events have a pid or tid that is neither a number nor "
                                                 "a word (true, false, null, an array or an object; the first at "
                                                 "byte %zu, line 7): left out", end_of (text, "true"));
  SuanliTrack *track;

  g_assert_true (imported->ok);
  g_assert_cmpuint (imported->stats.events, ==, 10);
  g_assert_cmpuint (suanli_trace_get_warnings (imported->trace)->len, ==, 3);
  g_assert_cmpstr (find_warning (imported, "test.json: 2 events have a ts"), ==, ts_warning);
  g_assert_cmpstr (find_warning (imported, "test.json: 2 slices have a dur"), ==, dur_warning);
  g_assert_cmpstr (find_warning (imported, "test.json: 4 events have a pid"), ==, id_warning);
  /* a, d and e on pid 1; nothing at pid 0, and no instant at time 0. */
  g_assert_cmpuint (suanli_trace_get_n_slices (imported->trace), ==, 3);
  g_assert_cmpuint (suanli_trace_get_n_tracks (imported->trace), ==, 1);
  track = suanli_test_find_track (imported->trace, SUANLI_TRACK_THREAD, 1, 1);
  g_assert_nonnull (track);
  g_assert_cmpuint (track->instants->len, ==, 0);
  g_assert_cmpint (g_array_index (track->slices, SuanliSlice, 0).start, ==, 10000);
  g_assert_cmpint (g_array_index (track->slices, SuanliSlice, 1).duration, ==, 0);
  g_assert_cmpint (g_array_index (track->slices, SuanliSlice, 2).duration, ==, 0);
  g_assert_cmpstr (suanli_trace_get_string (imported->trace,
                                            suanli_trace_ensure_process (imported->trace, 1)->name), ==, "p");
}

/* A trace none of whose times can be read is no trace: the error says why and where. */
static void
test_impossible_times_only (void)
{
  static const char text[] = "[{\"ph\": \"X\", \"name\": \"a\", \"pid\": 1, \"ts\": 9223372036854775807, \"dur\": 5},\n"
                             "{\"ph\": \"X\", \"name\": \"b\", \"pid\": 1, \"ts\": 1e400, \"dur\": 5}]";
  g_autoptr(SuanliTestImport) imported = suanli_test_import_text (text);
  g_autofree char *message = g_strdup_printf ("test.json: holds no trace that can be placed in time: 2 events have a "
                                              "ts that is no time within 73 years of 1970 (the first at byte %zu, "
                                              "line 1): left out", end_of (text, "9223372036854775807"));

  g_assert_false (imported->ok);
  g_assert_error (imported->error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA);
  g_assert_cmpstr (imported->error->message, ==, message);
}

/* Times written as absolute already (microseconds since 1970) and a baseTimeNanoseconds as well:
 * adding it would put every slice at the clamp, 2^61 ns; it is not added, and a warning says so.
 * A base time past 64 bits or out of range is ignored, with a warning. */
static void
test_impossible_base_time (void)
{
  static const char absolute[] =
    "{\"traceEvents\": [\n"
    "{\"ph\": \"X\", \"name\": \"a\", \"pid\": 1, \"tid\": 1, \"ts\": 1700000000000000, \"dur\": 5},\n"
    "{\"ph\": \"X\", \"name\": \"b\", \"pid\": 1, \"tid\": 1, \"ts\": 1700000000000010, \"dur\": 5}\n"
    "],\n\"baseTimeNanoseconds\": 1700000000000000000}\n";
  static const char too_big[] =
    "{\"baseTimeNanoseconds\": 92233720368547758070,\n"
    "\"traceEvents\": [{\"ph\": \"X\", \"name\": \"a\", \"pid\": 1, \"tid\": 1, \"ts\": 10, \"dur\": 5}]}\n";
  g_autoptr(SuanliTestImport) shifted = suanli_test_import_text (absolute);
  g_autoptr(SuanliTestImport) ignored = suanli_test_import_text (too_big);
  g_autofree char *not_added = g_strdup_printf ("test.json: baseTimeNanoseconds at byte %zu (line 5) would move the "
                                                "events more than 73 years from 1970 (their ts may be absolute "
                                                "already): not added", end_of (absolute, "1700000000000000000"));
  g_autofree char *not_read = g_strdup_printf ("test.json: baseTimeNanoseconds at byte %zu (line 1) is not a whole "
                                               "number of nanoseconds within 73 years of 1970: ignored",
                                               end_of (too_big, "92233720368547758070"));
  gint64 first = 0, last = 0;

  g_assert_true (shifted->ok);
  g_assert_cmpuint (suanli_trace_get_warnings (shifted->trace)->len, ==, 1);
  g_assert_cmpstr (g_ptr_array_index (suanli_trace_get_warnings (shifted->trace), 0), ==, not_added);
  suanli_trace_get_time_range (shifted->trace, &first, &last);
  g_assert_cmpint (first, ==, G_GINT64_CONSTANT (1700000000000000000));
  g_assert_cmpint (last, ==, G_GINT64_CONSTANT (1700000000000015000));

  g_assert_true (ignored->ok);
  g_assert_cmpuint (suanli_trace_get_warnings (ignored->trace)->len, ==, 1);
  g_assert_cmpstr (g_ptr_array_index (suanli_trace_get_warnings (ignored->trace), 0), ==, not_read);
  suanli_trace_get_time_range (ignored->trace, &first, &last);
  g_assert_cmpint (first, ==, 10000);
}

/* The memory budget is the whole trace's: a second rank that alone would fit stops where the two
 * together pass it, and keeps what it read. */
static void
test_memory_budget_across_files (void)
{
  g_autoptr(GString) text = g_string_new ("{\"traceEvents\": [");
  g_autoptr(SuanliTrace) trace = suanli_trace_new ();
  SuanliImportStats stats = { 0 };
  g_autoptr(GError) error = NULL;
  g_autofree char *budget = NULL;
  const char *warning;

  for (guint i = 0; i < 2000; i++)
    g_string_append_printf (text, "{\"ph\": \"X\", \"name\": \"k\", \"pid\": 1, \"tid\": 1, \"ts\": %u, \"dur\": 1},", i);
  g_string_append (text, "{}]}");
  for (guint rank = 0; rank < 2; rank++)
    {
      g_autoptr(GInputStream) stream = g_memory_input_stream_new_from_data (text->str, (gssize) text->len, NULL);

      if (rank == 1)
        {
          budget = g_strdup_printf ("%" G_GUINT64_FORMAT, suanli_trace_get_memory_size (trace) + 10000);
          g_setenv ("SUANLI_TRACE_MAX_MEMORY", budget, TRUE);
        }
      g_assert_true (suanli_import_stream (trace, stream, rank == 0 ? "rank0.json" : "rank1.json", &stats, NULL, &error));
      g_assert_no_error (error);
    }
  g_unsetenv ("SUANLI_TRACE_MAX_MEMORY");
  g_assert_cmpuint (suanli_trace_get_warnings (trace)->len, ==, 1);
  warning = g_ptr_array_index (suanli_trace_get_warnings (trace), 0);
  g_test_message ("%s", warning);
  g_assert_true (g_str_has_prefix (warning, "rank1.json: stopped reading at byte 65536 (line 1), keeping what came "
                                            "before: the trace read so far takes more than 0 MiB of memory "
                                            "(SUANLI_TRACE_MAX_MEMORY"));
  g_assert_cmpuint (suanli_trace_get_n_slices (trace), >, 2000);
  g_assert_cmpuint (suanli_trace_get_n_slices (trace), <, 4000);
  suanli_import_stats_clear (&stats);
}

/* Flow starts that never meet their ends add nothing to the trace, but wait in memory: they count
 * against the memory budget as the table's slots they take (96 bytes, the table at most half full),
 * so a file of them stops at the budget, about 20,000 starts for 4 MB. */
static void
test_memory_budget_flow_starts (void)
{
  g_autoptr(GString) text = g_string_new ("{\"traceEvents\": [\n");
  g_autoptr(SuanliTrace) trace = suanli_trace_new ();
  g_autoptr(GInputStream) stream = NULL;
  g_autoptr(GError) error = NULL;
  SuanliImportStats stats = { 0 };
  const char *warning, *at;
  guint64 stopped;

  g_string_append (text, "{\"ph\": \"X\", \"name\": \"k\", \"pid\": 1, \"tid\": 1, \"ts\": 0, \"dur\": 1},\n");
  for (guint i = 0; i < 200000; i++)
    g_string_append_printf (text, "{\"ph\": \"s\", \"id\": %u, \"pid\": 1, \"tid\": 1, \"ts\": 1, \"cat\": \"ac2g\", \"name\": \"ac2g\"},\n", i);
  g_string_append (text, "{}]}");
  stream = g_memory_input_stream_new_from_data (text->str, (gssize) text->len, NULL);
  g_setenv ("SUANLI_TRACE_MAX_MEMORY", "4000000", TRUE);
  g_assert_true (suanli_import_stream (trace, stream, "flows.json", &stats, NULL, &error));
  g_unsetenv ("SUANLI_TRACE_MAX_MEMORY");
  g_assert_no_error (error);
  g_assert_cmpuint (suanli_trace_get_warnings (trace)->len, ==, 1);
  warning = g_ptr_array_index (suanli_trace_get_warnings (trace), 0);
  g_test_message ("%s", warning);
  g_assert_true (g_str_has_prefix (warning, "flows.json: stopped reading at byte "));
  g_assert_nonnull (strstr (warning, "of memory (SUANLI_TRACE_MAX_MEMORY"));
  /* Each start is about 85 bytes of JSON: 4 MB of budget at 192 bytes a start is spent after about
   * 1.8 MB of them; counted at 85 bytes a start (as before they had slots), after about 4 MB. */
  at = warning + strlen ("flows.json: stopped reading at byte ");
  stopped = g_ascii_strtoull (at, NULL, 10);
  g_assert_cmpuint (stopped, >, 1000000);
  g_assert_cmpuint (stopped, <, 3000000);
  g_assert_cmpuint (suanli_trace_get_n_slices (trace), ==, 1);
  suanli_import_stats_clear (&stats);
}

/* The memory budget's default is a quarter of what the machine (or its cgroup) gives, never more
 * than the machine has; SUANLI_TRACE_MAX_MEMORY replaces it. */
static void
test_memory_budget_default (void)
{
  guint64 machine = suanli_import_machine_memory ();
  long pages = sysconf (_SC_PHYS_PAGES), page_size = sysconf (_SC_PAGESIZE);

  g_unsetenv ("SUANLI_TRACE_MAX_MEMORY");
  g_assert_cmpuint (machine, >, 0);
  g_assert_cmpuint (machine, <=, (guint64) pages * (guint64) page_size);
  g_assert_cmpuint (suanli_import_limits ().max_memory, ==, machine / 4);
  g_setenv ("SUANLI_TRACE_MAX_MEMORY", "1000000", TRUE);
  g_assert_cmpuint (suanli_import_limits ().max_memory, ==, 1000000);
  g_setenv ("SUANLI_TRACE_MAX_MEMORY", "lots", TRUE);
  g_assert_cmpuint (suanli_import_limits ().max_memory, ==, machine / 4);
  g_unsetenv ("SUANLI_TRACE_MAX_MEMORY");
}

/* A small gzip file cut short: the error names the file and the byte where its data stops. */
static void
test_gzip_cut (void)
{
  g_autoptr(GByteArray) gzip = g_byte_array_new ();
  g_autoptr(SuanliTrace) trace = suanli_trace_new ();
  g_autoptr(GInputStream) stream = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *expected = NULL;
  SuanliImportStats stats = { 0 };

  append_gzip_member (gzip, suanli_test_kineto_trace, sizeof suanli_test_kineto_trace - 1);
  g_byte_array_set_size (gzip, gzip->len / 2);
  expected = g_strdup_printf ("cut.json.gz: the gzip data stops short at byte %u: the file was cut before its end",
                              gzip->len);
  stream = g_memory_input_stream_new_from_data (gzip->data, gzip->len, NULL);
  g_assert_false (suanli_import_stream (trace, stream, "cut.json.gz", &stats, NULL, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA);
  g_assert_cmpstr (error->message, ==, expected);
  suanli_import_stats_clear (&stats);
}

static void
test_gzip_file (void)
{
  g_autofree char *path = g_build_filename (g_get_tmp_dir (), "suanli-test-trace-XXXXXX.json.gz", NULL);
  g_autoptr(GFile) file = NULL;
  g_autoptr(GZlibCompressor) compressor = g_zlib_compressor_new (G_ZLIB_COMPRESSOR_FORMAT_GZIP, 6);
  g_autoptr(GOutputStream) memory = g_memory_output_stream_new_resizable ();
  g_autoptr(GOutputStream) gzip = g_converter_output_stream_new (memory, G_CONVERTER (compressor));
  g_autoptr(SuanliTrace) trace = suanli_trace_new ();
  g_autoptr(GError) error = NULL;
  SuanliImportStats stats = { 0 };
  int fd;

  g_assert_true (g_output_stream_write_all (gzip, suanli_test_kineto_trace, sizeof suanli_test_kineto_trace - 1, NULL, NULL, &error));
  g_assert_true (g_output_stream_close (gzip, NULL, &error));
  fd = g_mkstemp (path);
  g_assert_cmpint (fd, >=, 0);
  close (fd);
  g_assert_true (g_file_set_contents (path, g_memory_output_stream_get_data (G_MEMORY_OUTPUT_STREAM (memory)),
                                      (gssize) g_memory_output_stream_get_data_size (G_MEMORY_OUTPUT_STREAM (memory)),
                                      &error));
  file = g_file_new_for_path (path);
  g_assert_true (suanli_import_file (trace, file, &stats, NULL, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (stats.events, ==, 9);
  g_assert_cmpuint (stats.bytes, ==, sizeof suanli_test_kineto_trace - 1);
  g_assert_cmpuint (suanli_trace_get_n_slices (trace), ==, 7);
  suanli_import_stats_clear (&stats);
  g_unlink (path);
}

static void
test_faults (void)
{
  /* Not JSON at all: an error naming the byte and line, nothing kept. */
  {
    g_autoptr(SuanliTestImport) imported = suanli_test_import_text ("[\n{\"ph\":\"X\"\n  oops");

    g_assert_false (imported->ok);
    g_assert_error (imported->error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA);
    g_assert_nonnull (strstr (imported->error->message, "test.json: not a trace: at byte"));
    g_assert_nonnull (strstr (imported->error->message, "line 3"));
  }
  /* A fault after some events keeps them, with a warning that says where. */
  {
    g_autoptr(SuanliTestImport) imported = suanli_test_import_text (
      "{\"traceEvents\":[{\"ph\":\"X\",\"name\":\"kept\",\"pid\":1,\"tid\":1,\"ts\":1,\"dur\":1},\n"
      "{\"ph\":\"X\",\"name\":\"also kept\",\"pid\":1,\"tid\":1,\"ts\":3,\"dur\":1}\n"
      "{\"ph\":\"X\"}]}");

    g_assert_true (imported->ok);
    g_assert_no_error (imported->error);
    g_assert_cmpuint (suanli_trace_get_n_slices (imported->trace), ==, 2);
    g_assert_true (suanli_test_has_warning (imported->trace, "test.json: read up to byte 135 (line 3)"));
  }
  /* The object form cut short is a fault (only the bare array may be left unfinished). */
  {
    g_autoptr(SuanliTestImport) imported = suanli_test_import_text (
      "{\"traceEvents\":[{\"ph\":\"X\",\"name\":\"kept\",\"pid\":1,\"tid\":1,\"ts\":1,\"dur\":1},");

    g_assert_true (imported->ok);
    g_assert_cmpuint (suanli_trace_get_n_slices (imported->trace), ==, 1);
    g_assert_true (suanli_test_has_warning (imported->trace, "the file ends in the middle of the JSON"));
  }
  /* Nesting has a limit, inside events' values too: a hostile file cannot exhaust the stack. */
  {
    g_autofree char *deep = g_strnfill (100, '[');
    g_autoptr(SuanliTestImport) imported = suanli_test_import_text (deep);
    g_autoptr(GString) deep_args = g_string_new ("[{\"ph\":\"X\",\"ts\":1,\"dur\":1},{\"ph\":\"X\",\"args\":{\"a\":");

    g_assert_false (imported->ok);
    g_assert_nonnull (strstr (imported->error->message, "the JSON nests more than 64 levels deep"));
    for (guint i = 0; i < 100; i++)
      g_string_append (deep_args, "{\"b\":");
    {
      g_autoptr(SuanliTestImport) kept = suanli_test_import_text (deep_args->str);

      g_assert_true (kept->ok);
      g_assert_cmpuint (suanli_trace_get_n_slices (kept->trace), ==, 1);
      g_assert_true (suanli_test_has_warning (kept->trace, "the JSON nests more than 64 levels deep"));
    }
  }
  /* Unknown phases are counted, not fatal. */
  {
    g_autoptr(SuanliTestImport) imported = suanli_test_import_text ("[{\"ph\":\"Q\",\"ts\":1},{\"ph\":\"X\",\"ts\":1,\"dur\":1}]");

    g_assert_true (imported->ok);
    g_assert_true (suanli_test_has_warning (imported->trace, "1 event of an unknown phase"));
  }
}

/* Every prefix of a small trace imports or fails cleanly: no crash, no leak (the sanitizer build
 * runs this too), and what it keeps never exceeds the whole. */
static void
test_every_prefix (void)
{
  suanli_test_import_every_prefix (suanli_import_chrome, "test.json", suanli_test_kineto_trace,
                                   sizeof suanli_test_kineto_trace - 1, 7);
}

/* A trace of @n small complete events, longer than the sniffed head once @n passes a few hundred. */
static GString *
many_events (guint n)
{
  GString *text = g_string_new ("{\"traceEvents\": [");

  for (guint i = 0; i < n; i++)
    g_string_append_printf (text, "%s{\"ph\": \"X\", \"name\": \"op%u\", \"ts\": %u, \"dur\": 1, \"pid\": 1, \"tid\": 1}",
                            i == 0 ? "" : ", ", i % 97, i * 2);
  g_string_append (text, "]}");
  return text;
}

/* A member whose checksum does not match what inflates: the events are kept, and the warning names
 * the byte of the gzip data where the damage was found. */
static void
test_gzip_damaged (void)
{
  g_autoptr(GByteArray) gzip = g_byte_array_new ();
  g_autoptr(GString) text = many_events (20000);
  g_autoptr(SuanliTrace) trace = suanli_trace_new ();
  g_autoptr(GInputStream) stream = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *expected = NULL;
  SuanliImportStats stats = { 0 };
  GPtrArray *warnings;

  append_gzip_member (gzip, text->str, text->len);
  gzip->data[gzip->len - 8] ^= 0xff;   /* the CRC-32 of the member's trailer */
  stream = g_memory_input_stream_new_from_data (gzip->data, gzip->len, NULL);
  g_assert_true (suanli_import_stream (trace, stream, "damaged.json.gz", &stats, NULL, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (stats.events, ==, 20000);
  warnings = suanli_trace_get_warnings (trace);
  g_assert_cmpuint (warnings->len, ==, 1);
  /* The checksum is checked at the member's end, where the warning places it. */
  expected = g_strdup_printf ("where reading failed: at byte %u of the gzip data: the checksum does not match", gzip->len);
  g_assert_nonnull (strstr (g_ptr_array_index (warnings, 0), expected));
  suanli_import_stats_clear (&stats);
}

/* Bytes after a member's end that are not another member (some tools pad with them): the events
 * before are kept, and the warning says the gzip data stops making sense there. */
static void
test_gzip_trailing_garbage (void)
{
  g_autoptr(GByteArray) gzip = g_byte_array_new ();
  g_autoptr(GString) text = many_events (20000);
  g_autoptr(SuanliTrace) trace = suanli_trace_new ();
  g_autoptr(GInputStream) stream = NULL;
  g_autoptr(GError) error = NULL;
  static const guint8 garbage[16] = { 'n', 'o', 't', ' ', 'g', 'z', 'i', 'p' };
  SuanliImportStats stats = { 0 };
  GPtrArray *warnings;

  append_gzip_member (gzip, text->str, text->len);
  g_byte_array_append (gzip, garbage, sizeof garbage);
  stream = g_memory_input_stream_new_from_data (gzip->data, gzip->len, NULL);
  g_assert_true (suanli_import_stream (trace, stream, "padded.json.gz", &stats, NULL, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (stats.events, ==, 20000);
  warnings = suanli_trace_get_warnings (trace);
  g_assert_cmpuint (warnings->len, ==, 1);
  g_assert_nonnull (strstr (g_ptr_array_index (warnings, 0), " of the gzip data: not a gzip header"));
  suanli_import_stats_clear (&stats);
}

/* A pipe whose writer stays open after more than the sniffed head of a text that is not JSON: the
 * importer fails at the JSON while the inflating thread waits on the pipe for more, and dropping
 * the stream stops that thread rather than hanging. */
static void
test_gzip_pipe_left_open (void)
{
  g_autoptr(GByteArray) gzip = g_byte_array_new ();
  g_autoptr(GString) text = g_string_new ("[");
  g_autoptr(SuanliTrace) trace = suanli_trace_new ();
  g_autoptr(GInputStream) stream = NULL;
  g_autoptr(GError) error = NULL;
  SuanliImportStats stats = { 0 };
  int fds[2];

  while (text->len < 4 * SUANLI_TRACE_SNIFF_LENGTH)
    g_string_append (text, "not a trace ");
  append_gzip_member (gzip, text->str, text->len);
  g_assert_cmpint (pipe (fds), ==, 0);
  g_assert_cmpint (write (fds[1], gzip->data, gzip->len), ==, (gssize) gzip->len);
  stream = g_unix_input_stream_new (fds[0], TRUE);
  g_assert_false (suanli_import_stream (trace, stream, "pipe.json.gz", &stats, NULL, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA);
  g_assert_true (g_str_has_prefix (error->message, "pipe.json.gz: not a trace: at byte "));
  close (fds[1]);
  suanli_import_stats_clear (&stats);
}

/* Cancelled while it reads: the import stops with the cancellation, not with a gzip error. */
static void
test_gzip_cancelled (void)
{
  g_autoptr(GByteArray) gzip = g_byte_array_new ();
  g_autoptr(SuanliTrace) trace = suanli_trace_new ();
  g_autoptr(GInputStream) stream = NULL;
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  g_autoptr(GError) error = NULL;
  SuanliImportStats stats = { 0 };

  append_gzip_member (gzip, suanli_test_kineto_trace, sizeof suanli_test_kineto_trace - 1);
  stream = g_memory_input_stream_new_from_data (gzip->data, gzip->len, NULL);
  g_cancellable_cancel (cancellable);
  g_assert_false (suanli_import_stream (trace, stream, "cancelled.json.gz", &stats, cancellable, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  suanli_import_stats_clear (&stats);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/trace/gzip-file", test_gzip_file);
  g_test_add_func ("/trace/gzip-members", test_gzip_members);
  g_test_add_func ("/trace/gzip-cut", test_gzip_cut);
  g_test_add_func ("/trace/gzip-damaged", test_gzip_damaged);
  g_test_add_func ("/trace/gzip-trailing-garbage", test_gzip_trailing_garbage);
  g_test_add_func ("/trace/gzip-pipe-left-open", test_gzip_pipe_left_open);
  g_test_add_func ("/trace/gzip-cancelled", test_gzip_cancelled);
  g_test_add_func ("/trace/budgets", test_budgets);
  g_test_add_func ("/trace/memory-budget-default", test_memory_budget_default);
  g_test_add_func ("/trace/memory-budget-across-files", test_memory_budget_across_files);
  g_test_add_func ("/trace/memory-budget-flow-starts", test_memory_budget_flow_starts);
  g_test_add_func ("/trace/impossible-times", test_impossible_times);
  g_test_add_func ("/trace/impossible-times-only", test_impossible_times_only);
  g_test_add_func ("/trace/impossible-base-time", test_impossible_base_time);
  g_test_add_func ("/trace/faults", test_faults);
  g_test_add_func ("/trace/every-prefix", test_every_prefix);
  return g_test_run ();
}
