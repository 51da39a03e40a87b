/* test-trace-format.c — telling trace formats apart from their first bytes
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>
#include <glib/gstdio.h>

#include "suanli-import.h"
#include "suanli-trace-format.h"
#include "suanli-test-fixtures.h"

static SuanliTraceFormat
sniff (const char *text)
{
  return suanli_trace_format_sniff ((const guint8 *) text, strlen (text));
}

static void
test_chrome_json (void)
{
  /* Kineto writes schemaVersion and deviceProperties before traceEvents. */
  g_assert_cmpint (sniff ("{\n  \"schemaVersion\": 1,\n  \"deviceProperties\": ["), ==, SUANLI_TRACE_FORMAT_CHROME_JSON);
  g_assert_cmpint (sniff ("{\"traceEvents\":[{\"ph\":\"X\"}]}"), ==, SUANLI_TRACE_FORMAT_CHROME_JSON);
  /* PyTorch's legacy profiler writes a bare array of events. */
  g_assert_cmpint (sniff ("[{\"name\": \"aten::mm\", \"ph\": \"X\""), ==, SUANLI_TRACE_FORMAT_CHROME_JSON);
  g_assert_cmpint (sniff ("\xef\xbb\xbf  [\n]"), ==, SUANLI_TRACE_FORMAT_CHROME_JSON);
  g_assert_cmpint (sniff ("["), ==, SUANLI_TRACE_FORMAT_CHROME_JSON);
  /* Other JSON is not a trace. */
  g_assert_cmpint (sniff ("[1, 2, 3]"), ==, SUANLI_TRACE_FORMAT_UNKNOWN);
  g_assert_cmpint (sniff ("{\"schema\": \"suanli-plan/1\", \"name\": \"x\"}"), ==, SUANLI_TRACE_FORMAT_UNKNOWN);
}

static void
test_folded (void)
{
  g_assert_cmpint (sniff ("main;parse;lex 120\nmain;eval 30\n"), ==, SUANLI_TRACE_FORMAT_FOLDED);
  /* Two count columns (differential), CRLF, and a last line cut short. */
  g_assert_cmpint (sniff ("a;b 3 5\r\na;c 1 0\r\na;d 1"), ==, SUANLI_TRACE_FORMAT_FOLDED);
  g_assert_cmpint (sniff ("python3 [thread];forward;aten::linear 4"), ==, SUANLI_TRACE_FORMAT_FOLDED);
  /* A frame that ends in digits, right before the count. */
  g_assert_cmpint (sniff ("main;python3.11;f299 9\n"), ==, SUANLI_TRACE_FORMAT_FOLDED);
  g_assert_cmpint (sniff ("just some words\nand more\n"), ==, SUANLI_TRACE_FORMAT_UNKNOWN);
  g_assert_cmpint (sniff ("12345\n"), ==, SUANLI_TRACE_FORMAT_UNKNOWN);
  g_assert_cmpint (sniff ("a;b 12x\n"), ==, SUANLI_TRACE_FORMAT_UNKNOWN);
  g_assert_cmpint (sniff (""), ==, SUANLI_TRACE_FORMAT_UNKNOWN);
  g_assert_cmpint (sniff ("   \n\t"), ==, SUANLI_TRACE_FORMAT_UNKNOWN);
}

/* A first line longer than the sniffed head (a deep stack of long C++ names) is still folded
 * stacks, and reads as such. */
static void
test_folded_long_first_line (void)
{
  GString *text = g_string_new ("main");
  g_autoptr(SuanliTrace) trace = suanli_trace_new ();
  g_autoptr(GInputStream) stream = NULL;
  g_autoptr(GError) error = NULL;
  SuanliImportStats stats = { 0 };

  while (text->len < SUANLI_TRACE_SNIFF_LENGTH + 1000)
    g_string_append (text, ";at::native::(anonymous namespace)::cpu_kernel_vec<float, std::allocator<float>>");
  g_assert_cmpint (suanli_trace_format_sniff ((const guint8 *) text->str, SUANLI_TRACE_SNIFF_LENGTH), ==,
                   SUANLI_TRACE_FORMAT_FOLDED);
  g_string_append (text, " 7\nmain;other 3\n");
  stream = g_memory_input_stream_new_from_data (g_string_free (text, FALSE), -1, g_free);
  g_assert_true (suanli_import_stream (trace, stream, "deep.folded", &stats, NULL, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (stats.events, ==, 2);
  suanli_import_stats_clear (&stats);

  /* Past SUANLI_TRACE_MAX_BYTES, reading stops and what came before is kept. */
  {
    GString *many = g_string_new (NULL);
    g_autoptr(SuanliTrace) budgeted = suanli_trace_new ();
    g_autoptr(GInputStream) input = NULL;

    for (guint i = 0; i < 20000; i++)
      g_string_append_printf (many, "main;f%u 1\n", i);
    input = g_memory_input_stream_new_from_data (g_string_free (many, FALSE), -1, g_free);
    g_setenv ("SUANLI_TRACE_MAX_BYTES", "100000", TRUE);
    g_assert_true (suanli_import_stream (budgeted, input, "many.folded", &stats, NULL, &error));
    g_unsetenv ("SUANLI_TRACE_MAX_BYTES");
    g_assert_no_error (error);
    g_assert_cmpuint (suanli_trace_get_warnings (budgeted)->len, ==, 1);
    g_assert_nonnull (strstr (g_ptr_array_index (suanli_trace_get_warnings (budgeted), 0),
                              "more text than SUANLI_TRACE_MAX_BYTES allows"));
    g_assert_cmpuint (stats.events, >, 0);
    g_assert_cmpuint (stats.events, <, 20000);
    suanli_import_stats_clear (&stats);
  }
}

static void
test_folded_utf16 (void)
{
  /* "a;b 7\n" in UTF-16LE with its byte-order mark, then the same in big-endian. */
  static const guint8 le[] = { 0xff, 0xfe, 'a', 0, ';', 0, 'b', 0, ' ', 0, '7', 0, '\n', 0 };
  static const guint8 be[] = { 0xfe, 0xff, 0, 'a', 0, ';', 0, 'b', 0, ' ', 0, '7', 0, '\n' };

  g_assert_cmpint (suanli_trace_format_sniff (le, sizeof le), ==, SUANLI_TRACE_FORMAT_FOLDED);
  g_assert_cmpint (suanli_trace_format_sniff (be, sizeof be), ==, SUANLI_TRACE_FORMAT_FOLDED);
  /* Cut inside a code unit: the odd byte is left out, not misread. */
  g_assert_cmpint (suanli_trace_format_sniff (le, sizeof le - 1), ==, SUANLI_TRACE_FORMAT_FOLDED);
}

/* Every prefix of every sample is sniffed without reading past its end (valgrind and ASan see
 * to that) and without crashing. */
static void
test_every_prefix (void)
{
  static const char *samples[] = {
    "{\n  \"schemaVersion\": 1, \"traceEvents\": []}",
    "[{\"ph\": \"X\"}]",
    "main;parse 1\r\nmain;eval 2 3\n",
    "\xff\xfe" "a\0;\0b\0 \0" "1\0",
  };

  for (guint i = 0; i < G_N_ELEMENTS (samples); i++)
    {
      gsize length = i == 3 ? 12 : strlen (samples[i]);

      for (gsize cut = 0; cut <= length; cut++)
        {
          g_autofree guint8 *copy = g_memdup2 (samples[i], cut);
          SuanliTraceFormat format = suanli_trace_format_sniff (copy, cut);

          g_assert_cmpint (format, >=, SUANLI_TRACE_FORMAT_UNKNOWN);
          g_assert_cmpint (format, <=, SUANLI_TRACE_FORMAT_FOLDED);
        }
    }
}

static GFile *
write_temporary (const char *name,
                 const void *data,
                 gsize       length)
{
  g_autofree char *path = g_build_filename (g_get_tmp_dir (), name, NULL);

  g_assert_true (g_file_set_contents (path, data, (gssize) length, NULL));
  return g_file_new_for_path (path);
}

static void
test_gzip_file (void)
{
  const char *trace = "{\"traceEvents\": [{\"ph\": \"X\", \"name\": \"gemm\"}]}";
  g_autoptr(GZlibCompressor) compressor = g_zlib_compressor_new (G_ZLIB_COMPRESSOR_FORMAT_GZIP, 6);
  g_autoptr(GOutputStream) memory = g_memory_output_stream_new_resizable ();
  g_autoptr(GOutputStream) gzip = g_converter_output_stream_new (memory, G_CONVERTER (compressor));
  g_autoptr(GFile) file = NULL;
  g_autoptr(GFile) truncated = NULL;
  g_autoptr(GError) error = NULL;
  gboolean compressed = FALSE;
  gsize length;

  g_assert_true (g_output_stream_write_all (gzip, trace, strlen (trace), NULL, NULL, &error));
  g_assert_true (g_output_stream_close (gzip, NULL, &error));
  g_assert_no_error (error);
  length = g_memory_output_stream_get_data_size (G_MEMORY_OUTPUT_STREAM (memory));

  file = write_temporary ("suanli-sniff.json.gz",
                          g_memory_output_stream_get_data (G_MEMORY_OUTPUT_STREAM (memory)), length);
  g_assert_cmpint (suanli_trace_format_sniff_file (file, &compressed, NULL, &error), ==,
                   SUANLI_TRACE_FORMAT_CHROME_JSON);
  g_assert_no_error (error);
  g_assert_true (compressed);

  /* A gzip file cut short still shows what it is from what inflates, or fails with a reason. */
  truncated = write_temporary ("suanli-sniff-cut.json.gz",
                               g_memory_output_stream_get_data (G_MEMORY_OUTPUT_STREAM (memory)), length / 2);
  suanli_trace_format_sniff_file (truncated, &compressed, NULL, &error);
  if (error != NULL)
    g_assert_true (g_str_has_prefix (error->message, "Cannot decompress"));
  g_clear_error (&error);

  g_file_delete (file, NULL, NULL);
  g_file_delete (truncated, NULL, NULL);
}

static void
test_missing_file (void)
{
  g_autoptr(GFile) file = g_file_new_for_path ("/nonexistent/suanli/trace.json");
  g_autoptr(GError) error = NULL;

  g_assert_cmpint (suanli_trace_format_sniff_file (file, NULL, NULL, &error), ==, SUANLI_TRACE_FORMAT_UNKNOWN);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND);
}

/* The real Kineto traces in tests/data/kineto. */
static void
test_real_fixtures (void)
{
  const char *directory = suanli_test_fixtures_dir ();
  g_autoptr(GDir) dir = NULL;
  const char *name;
  guint count = 0;


  dir = g_dir_open (directory, 0, NULL);
  while ((name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *path = g_build_filename (directory, name, NULL);
      g_autoptr(GFile) file = g_file_new_for_path (path);
      g_autoptr(GError) error = NULL;
      gboolean compressed = FALSE;

      if (!g_str_has_suffix (name, ".json.gz"))
        continue;
      g_assert_cmpint (suanli_trace_format_sniff_file (file, &compressed, NULL, &error), ==,
                       SUANLI_TRACE_FORMAT_CHROME_JSON);
      g_assert_no_error (error);
      g_assert_true (compressed);
      count++;
    }
  g_assert_cmpuint (count, >, 0);
  g_test_message ("%u real Kineto traces sniffed", count);
}

int
main (int argc, char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/trace-format/chrome-json", test_chrome_json);
  g_test_add_func ("/trace-format/folded", test_folded);
  g_test_add_func ("/trace-format/folded-long-first-line", test_folded_long_first_line);
  g_test_add_func ("/trace-format/folded-utf16", test_folded_utf16);
  g_test_add_func ("/trace-format/every-prefix", test_every_prefix);
  g_test_add_func ("/trace-format/gzip-file", test_gzip_file);
  g_test_add_func ("/trace-format/missing-file", test_missing_file);
  g_test_add_func ("/trace-format/real-fixtures", test_real_fixtures);

  return g_test_run ();
}
