/* suanli-json-depth.c — how deeply a JSON text nests, checked before a recursive parser sees it
 *
 * json-glib parses arrays and objects by recursion: 80,000 nested brackets (160 KB, far under
 * any size limit) overflow the stack. Every JSON document read with json-glib from a file or from
 * the network is scanned here first, in one pass without recursion, and refused past
 * SUANLI_JSON_MAX_DEPTH with the place where it went too deep.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>

#include "suanli-json-depth.h"

/* Returns: whether @data (@length bytes) nests no deeper than @max_depth arrays and objects;
 * otherwise @error says "LINE:COLUMN: …" of the bracket that went too deep, and its byte offset
 * (the caller puts the file's name before it). Brackets inside strings do not count. */
gboolean
suanli_json_check_depth (const char *data,
                         gsize       length,
                         guint       max_depth,
                         GError    **error)
{
  guint depth = 0, line = 1, column = 0;
  gboolean in_string = FALSE, escaped = FALSE;

  for (gsize i = 0; i < length; i++)
    {
      char c = data[i];

      column++;
      if (c == '\n')
        line++, column = 0;
      if (in_string)
        {
          if (escaped)
            escaped = FALSE;
          else if (c == '\\')
            escaped = TRUE;
          else if (c == '"')
            in_string = FALSE;
          continue;
        }
      if (c == '"')
        in_string = TRUE;
      else if ((c == '[' || c == '{') && ++depth > max_depth)
        {
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                       _("%u:%u: nested deeper than %u arrays and objects (byte %lu)"),
                       line, column, max_depth, (unsigned long) i);
          return FALSE;
        }
      else if ((c == ']' || c == '}') && depth > 0)
        depth--;
    }
  return TRUE;
}
