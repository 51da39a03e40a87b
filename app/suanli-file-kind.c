/* suanli-file-kind.c — what a file is, judged by its name and its first bytes
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>
#include <glib/gi18n.h>

#include "suanli-file-kind.h"
#include "suanli-import-nsys.h"

/* Finds `"schema" : "PREFIX` in the head of a JSON document; the documents Suanli writes put the
 * schema first, and the others cannot contain it unless they are ours. */
static gboolean
head_has_schema (const char *head,
                 gsize       length,
                 const char *prefix)
{
  static const char key[] = "\"schema\"";
  const char *end = head + length;
  const char *at = head;

  while ((at = g_strstr_len (at, end - at, key)) != NULL)
    {
      at += strlen (key);
      while (at < end && g_ascii_isspace (*at))
        at++;
      if (at == end || *at != ':')
        continue;
      at++;
      while (at < end && g_ascii_isspace (*at))
        at++;
      if (at < end && *at == '"' && (gsize) (end - at - 1) >= strlen (prefix) &&
          strncmp (at + 1, prefix, strlen (prefix)) == 0)
        return TRUE;
    }
  return FALSE;
}

/* Returns the file's kind; sets @trace_format for traces. A file that cannot be read is an error;
 * a file that can be read but is none of Suanli's kinds is SUANLI_FILE_KIND_UNKNOWN. */
SuanliFileKind
suanli_file_kind_detect (GFile              *file,
                         SuanliTraceFormat  *trace_format,
                         GCancellable       *cancellable,
                         GError            **error)
{
  g_autoptr(GBytes) head = NULL;
  g_autofree char *basename = NULL;
  SuanliTraceFormat format;
  const char *data;
  gsize length = 0;

  g_return_val_if_fail (G_IS_FILE (file), SUANLI_FILE_KIND_UNKNOWN);

  if (trace_format != NULL)
    *trace_format = SUANLI_TRACE_FORMAT_UNKNOWN;

  head = suanli_trace_format_read_head (file, NULL, cancellable, error);
  if (head == NULL)
    return SUANLI_FILE_KIND_UNKNOWN;

  basename = g_file_get_basename (file);
  if (basename != NULL && g_str_has_suffix (basename, ".suanli-plan"))
    return SUANLI_FILE_KIND_PLAN;

  data = g_bytes_get_data (head, &length);
  if (head_has_schema (data, length, "suanli-plan/"))
    return SUANLI_FILE_KIND_PLAN;
  if (head_has_schema (data, length, "suanli-catalog/"))
    return SUANLI_FILE_KIND_CATALOG;

  format = suanli_trace_format_sniff ((const guint8 *) data, length);
  if (format == SUANLI_TRACE_FORMAT_UNKNOWN)
    return SUANLI_FILE_KIND_UNKNOWN;
  /* Any SQLite database starts alike: an Nsight Systems export is told by its tables. */
  if (format == SUANLI_TRACE_FORMAT_NSYS_SQLITE)
    {
      g_autofree char *path = g_file_get_path (file);

      if (path == NULL || !suanli_import_nsys_is_export (path, error))
        return SUANLI_FILE_KIND_UNKNOWN;
    }
  if (trace_format != NULL)
    *trace_format = format;
  return SUANLI_FILE_KIND_TRACE;
}

const char *
suanli_file_kind_describe (SuanliFileKind kind)
{
  switch (kind)
    {
    case SUANLI_FILE_KIND_PLAN:
      return _("Suanli plan");
    case SUANLI_FILE_KIND_CATALOG:
      return _("Suanli catalog");
    case SUANLI_FILE_KIND_TRACE:
      return _("Trace");
    case SUANLI_FILE_KIND_UNKNOWN:
    default:
      return _("Unknown file");
    }
}
