/* suanli-json-depth.h — how deeply a JSON text nests, checked before a recursive parser sees it
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

/* Deeper than any document Suanli reads or writes (plans and catalogs nest about 6 levels). */
#define SUANLI_JSON_MAX_DEPTH 64

gboolean suanli_json_check_depth (const char *data,
                                  gsize       length,
                                  guint       max_depth,
                                  GError    **error);

G_END_DECLS
