/* suanli-cli-trace-io.c — what the trace commands share: traces read in, results written out
 *
 * `trace summary`, `trace convert` and `trace diff` read their traces, and write their files and
 * JSON, through these, so that each command reads "-" as standard input and replaces its output
 * atomically in the same way.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>
#include <math.h>
#include <string.h>
#include <unistd.h>
#include <gio/gunixinputstream.h>
#include <gio/gunixoutputstream.h>

#include "suanli-cli.h"
#include "suanli-atomic-file.h"
#include "suanli-cli-trace-io.h"
#include "suanli-json-writer.h"
#include "suanli-units.h"

void
suanli_cli_member_int (JsonBuilder *builder,
                       const char  *name,
                       gint64       value)
{
  json_builder_set_member_name (builder, name);
  json_builder_add_int_value (builder, value);
}

/* @value, or null when it is not finite (JSON has no infinity or NaN): a trace's figure that cannot
 * be measured, such as a ratio over no time. */
void
suanli_cli_member_double (JsonBuilder *builder,
                          const char  *name,
                          double       value)
{
  json_builder_set_member_name (builder, name);
  if (isfinite (value))
    json_builder_add_double_value (builder, value);
  else
    json_builder_add_null_value (builder);
}

/* @value, or null when it is NULL. */
void
suanli_cli_member_string (JsonBuilder *builder,
                          const char  *name,
                          const char  *value)
{
  json_builder_set_member_name (builder, name);
  if (value != NULL)
    json_builder_add_string_value (builder, value);
  else
    json_builder_add_null_value (builder);
}

/* Prints what @builder built, indented, with a newline (suanli-json-writer); else prints why not,
 * after @command. */
gboolean
suanli_cli_print_json (JsonBuilder *builder,
                       const char  *command)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *text = suanli_json_write_builder (builder, TRUE, &error);

  if (text == NULL)
    {
      g_printerr ("%s: %s\n", command, error->message);
      return FALSE;
    }
  g_print ("%s\n", text);
  return TRUE;
}

/* "1.20 ms → 0.98 ms (−18.3%)" */
char *
suanli_cli_change_text (gint64 before,
                        gint64 after)
{
  g_autofree char *a = suanli_format_duration_ns (before);
  g_autofree char *b = suanli_format_duration_ns (after);

  if (before <= 0)
    return g_strdup_printf ("%s → %s", a, b);
  return g_strdup_printf ("%s → %s (%+.1f%%)", a, b, 100.0 * (double) (after - before) / (double) before);
}

/* Reads each of @files ("-" is standard input) into @trace, printing errors; the exit status. */
int
suanli_cli_trace_import (SuanliTrace        *trace,
                         SuanliImportStats  *stats,
                         const char * const *files,
                         int                 n_files)
{
  g_autoptr(GError) error = NULL;
  int status = SUANLI_EXIT_DONE;

  for (int i = 0; i < n_files; i++)
    {
      gboolean read;

      /* "-" is standard input: a pipe from curl, ssh or zcat, plain or gzip. */
      if (g_str_equal (files[i], "-"))
        {
          g_autoptr(GInputStream) input = g_unix_input_stream_new (STDIN_FILENO, FALSE);
          read = suanli_import_stream (trace, input, _("standard input"), stats, NULL, &error);
        }
      else
        {
          g_autoptr(GFile) file = g_file_new_for_commandline_arg (files[i]);
          read = suanli_import_file (trace, file, stats, NULL, &error);
        }
      if (!read)
        {
          g_printerr ("%s\n", error->message);
          status = g_error_matches (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA) ? SUANLI_EXIT_INVALID_INPUT
                                                                                 : SUANLI_EXIT_USAGE_OR_IO;
          g_clear_error (&error);
        }
    }
  for (guint i = 0; i < suanli_trace_get_warnings (trace)->len; i++)
    g_printerr (_("warning: %s\n"), (const char *) g_ptr_array_index (suanli_trace_get_warnings (trace), i));
  return status;
}

/* A stream that replaces @out atomically when closed ("-" is standard output; ".gz" compresses):
 * a temporary file beside it (suanli-atomic-file.c) that keeps the mode of the file it replaces
 * and is removed if the command fails or is interrupted. */
GOutputStream *
suanli_cli_trace_open_output (const char  *out,
                              GError     **error)
{
  SuanliAtomicFile *file;
  GOutputStream *output;

  if (g_str_equal (out, "-"))
    return g_unix_output_stream_new (STDOUT_FILENO, FALSE);
  if ((file = suanli_atomic_file_new (out, error)) == NULL)
    return NULL;
  output = g_unix_output_stream_new (suanli_atomic_file_get_fd (file), FALSE);
  if (g_str_has_suffix (out, ".gz"))
    {
      g_autoptr(GZlibCompressor) compressor = g_zlib_compressor_new (G_ZLIB_COMPRESSOR_FORMAT_GZIP, 6);
      GOutputStream *compressed = g_converter_output_stream_new (output, G_CONVERTER (compressor));

      g_object_unref (output);
      output = compressed;
    }
  g_object_set_data (G_OBJECT (output), "suanli-atomic-file", file);
  return output;
}

/* Closes @output when @written, putting the file in place; otherwise (or when closing fails)
 * abandons it, so the old file stays. Returns: whether the file was written. */
gboolean
suanli_cli_trace_close_output (GOutputStream  *output,
                               gboolean        written,
                               GError        **error)
{
  SuanliAtomicFile *file = g_object_steal_data (G_OBJECT (output), "suanli-atomic-file");

  written = written && g_output_stream_close (output, NULL, error);
  if (file == NULL)
    return written;   /* standard output */
  if (written)
    return suanli_atomic_file_commit (file, error);
  suanli_atomic_file_abandon (file);
  return FALSE;
}
