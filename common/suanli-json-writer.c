/* suanli-json-writer.c — JSON text from a json-glib tree, every number valid JSON that reads back the same
 *
 * Every JSON document Suanli writes (plans, estimates, catalog items, search results, the trace
 * commands' and what-if's JSON, live job lists) is written here rather than by json-glib's
 * generator. json-glib 1.6 writes a double in %.17g and appends ".0" where that has no point, so
 * 2e17 came out as "2e+17.0" and infinity as "inf.0", neither of them JSON: a plan saved with such
 * a value could not be opened again. Here a double is written in the fewest digits that read back
 * as the same double, always with a point or an exponent (so that it reads back as a double, not
 * an integer), and a value that is not finite is refused with the path of the member that held it.
 * The indented layout is json-glib's ("name" : value, two spaces a level), so files saved before
 * read the same.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <float.h>
#include <math.h>
#include <string.h>
#include <glib/gi18n.h>

#include "suanli-json-writer.h"

#define INDENT 2

/* Writes @value in the fewest significant digits that read back as exactly @value, with a point or
 * an exponent, whatever the locale. Returns: FALSE, writing "null", when @value is infinite or NaN,
 * which JSON has no number for. */
gboolean
suanli_json_format_double (double value,
                           char   buffer[SUANLI_JSON_NUMBER_SIZE])
{
  if (!isfinite (value))
    {
      g_strlcpy (buffer, "null", SUANLI_JSON_NUMBER_SIZE);
      return FALSE;
    }
  /* 17 significant digits always read back (IEEE 754 binary64); fewer usually do. Any decimal of
   * 15 digits or fewer reads back through a double unchanged (DBL_DIG), so when %.15g reads back it
   * is already the shortest (%g drops trailing zeros), and at most three tries are made: a Chrome
   * export writes millions. Subnormals hold fewer digits, so for them every length is tried. */
  for (int digits = fabs (value) < DBL_MIN ? 1 : DBL_DIG; digits <= 17; digits++)
    {
      char format[8];

      g_snprintf (format, sizeof format, "%%.%dg", digits);
      g_ascii_formatd (buffer, SUANLI_JSON_NUMBER_SIZE, format, value);
      if (g_ascii_strtod (buffer, NULL) == value)
        break;
    }
  if (strpbrk (buffer, ".e") == NULL)
    g_strlcat (buffer, ".0", SUANLI_JSON_NUMBER_SIZE);
  return TRUE;
}

/* Whether @value is a whole number a double holds exactly, below 2^53 either way. The range is
 * checked before any cast: casting 1e300 to an integer is undefined. */
static gboolean
is_whole (double value)
{
  return value > -9007199254740992.0 && value < 9007199254740992.0 && value == floor (value);
}

/* Like suanli_json_format_double, but a whole number (is_whole) is written as an integer: for JSON
 * text put together by hand, such as a merge patch. */
gboolean
suanli_json_format_number (double value,
                           char   buffer[SUANLI_JSON_NUMBER_SIZE])
{
  if (is_whole (value))
    {
      g_snprintf (buffer, SUANLI_JSON_NUMBER_SIZE, "%" G_GINT64_FORMAT, (gint64) value);
      return TRUE;
    }
  return suanli_json_format_double (value, buffer);
}

/* Adds @value as an integer when it is a whole number (memory sizes, counts), else as a double;
 * infinity and NaN are refused when the document is written. */
void
suanli_json_builder_add_number (JsonBuilder *builder,
                                double       value)
{
  if (is_whole (value))
    json_builder_add_int_value (builder, (gint64) value);
  else
    json_builder_add_double_value (builder, value);
}

static void
write_string (GString    *out,
              const char *text)
{
  g_string_append_c (out, '"');
  for (const char *p = text; *p != '\0'; p++)
    {
      unsigned char c = (unsigned char) *p;

      switch (c)
        {
        case '"':  g_string_append (out, "\\\""); break;
        case '\\': g_string_append (out, "\\\\"); break;
        case '\b': g_string_append (out, "\\b"); break;
        case '\f': g_string_append (out, "\\f"); break;
        case '\n': g_string_append (out, "\\n"); break;
        case '\r': g_string_append (out, "\\r"); break;
        case '\t': g_string_append (out, "\\t"); break;
        default:
          if (c < 0x20 || c == 0x7f)
            g_string_append_printf (out, "\\u%04x", c);
          else
            g_string_append_c (out, (char) c);
        }
    }
  g_string_append_c (out, '"');
}

static void
new_line (GString  *out,
          gboolean  pretty,
          guint     depth)
{
  if (!pretty)
    return;
  g_string_append_c (out, '\n');
  for (guint i = 0; i < depth * INDENT; i++)
    g_string_append_c (out, ' ');
}

/* @path is where @node is ("workload.tokens", "items[3].price"), for the error. */
static gboolean
write_node (GString   *out,
            JsonNode  *node,
            gboolean   pretty,
            guint      depth,
            GString   *path,
            GError   **error)
{
  gsize path_length = path->len;

  switch (JSON_NODE_TYPE (node))
    {
    case JSON_NODE_NULL:
      g_string_append (out, "null");
      return TRUE;

    case JSON_NODE_OBJECT:
      {
        g_autoptr(GList) members = json_object_get_members (json_node_get_object (node));

        g_string_append_c (out, '{');
        for (GList *l = members; l != NULL; l = l->next)
          {
            const char *name = l->data;

            new_line (out, pretty, depth + 1);
            write_string (out, name);
            g_string_append (out, pretty ? " : " : ":");
            g_string_append_printf (path, "%s%s", path->len > 0 ? "." : "", name);
            if (!write_node (out, json_object_get_member (json_node_get_object (node), name), pretty, depth + 1, path,
                             error))
              return FALSE;
            g_string_truncate (path, path_length);
            if (l->next != NULL)
              g_string_append_c (out, ',');
          }
        if (members != NULL)
          new_line (out, pretty, depth);
        g_string_append_c (out, '}');
        return TRUE;
      }

    case JSON_NODE_ARRAY:
      {
        JsonArray *array = json_node_get_array (node);
        guint length = json_array_get_length (array);

        g_string_append_c (out, '[');
        for (guint i = 0; i < length; i++)
          {
            new_line (out, pretty, depth + 1);
            g_string_append_printf (path, "[%u]", i);
            if (!write_node (out, json_array_get_element (array, i), pretty, depth + 1, path, error))
              return FALSE;
            g_string_truncate (path, path_length);
            if (i + 1 < length)
              g_string_append_c (out, ',');
          }
        if (length > 0)
          new_line (out, pretty, depth);
        g_string_append_c (out, ']');
        return TRUE;
      }

    case JSON_NODE_VALUE:
      switch (json_node_get_value_type (node))
        {
        case G_TYPE_INT64:
          g_string_append_printf (out, "%" G_GINT64_FORMAT, json_node_get_int (node));
          return TRUE;
        case G_TYPE_BOOLEAN:
          g_string_append (out, json_node_get_boolean (node) ? "true" : "false");
          return TRUE;
        case G_TYPE_STRING:
          write_string (out, json_node_get_string (node));
          return TRUE;
        case G_TYPE_DOUBLE:
          {
            char number[SUANLI_JSON_NUMBER_SIZE];
            double value = json_node_get_double (node);

            if (!suanli_json_format_double (value, number))
              {
                g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
                             /* Translators: the first %s is where in the document ("workload.tokens"), the
                              * second "infinity", "-infinity" or "NaN" */
                             _("%s: %s is not a number JSON can hold"), path->len > 0 ? path->str : "(root)",
                             isnan (value) ? "NaN" : value > 0 ? "infinity" : "-infinity");
                return FALSE;
              }
            g_string_append (out, number);
            return TRUE;
          }
        default:
          break;
        }
      break;
    }
  g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA, _("%s: a value of a kind JSON cannot hold"),
               path->len > 0 ? path->str : "(root)");
  return FALSE;
}

/* Returns: (transfer full) (nullable): @root as JSON text, indented two spaces a level when
 * @pretty (with no newline at the end), or NULL with @error naming the member that holds a value
 * JSON cannot (infinity, NaN). */
char *
suanli_json_write (JsonNode  *root,
                   gboolean   pretty,
                   GError   **error)
{
  g_autoptr(GString) out = g_string_new (NULL);
  g_autoptr(GString) path = g_string_new (NULL);

  g_return_val_if_fail (root != NULL, NULL);

  if (!write_node (out, root, pretty, 0, path, error))
    return NULL;
  return g_string_free (g_steal_pointer (&out), FALSE);
}

/* Returns: (transfer full) (nullable): what @builder built, as suanli_json_write writes it. */
char *
suanli_json_write_builder (JsonBuilder  *builder,
                           gboolean      pretty,
                           GError      **error)
{
  g_autoptr(JsonNode) root = json_builder_get_root (builder);

  return suanli_json_write (root, pretty, error);
}
