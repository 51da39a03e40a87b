/* suanli-json-writer.h — JSON text from a json-glib tree, every number valid JSON that reads back the same
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <json-glib/json-glib.h>

G_BEGIN_DECLS

/* Room for any double suanli_json_format_double writes, with its terminating zero. */
#define SUANLI_JSON_NUMBER_SIZE 32

gboolean  suanli_json_format_double (double        value,
                                     char          buffer[SUANLI_JSON_NUMBER_SIZE]);
gboolean  suanli_json_format_number (double        value,
                                     char          buffer[SUANLI_JSON_NUMBER_SIZE]);
void      suanli_json_builder_add_number (JsonBuilder *builder,
                                          double       value);
char     *suanli_json_write         (JsonNode     *root,
                                     gboolean      pretty,
                                     GError      **error);
char     *suanli_json_write_builder (JsonBuilder  *builder,
                                     gboolean      pretty,
                                     GError      **error);

G_END_DECLS
