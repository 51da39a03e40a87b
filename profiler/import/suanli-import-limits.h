/* suanli-import-limits.h — how much of a trace an importer reads before it stops
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

#define SUANLI_IMPORT_DEFAULT_MAX_BYTES (G_GUINT64_CONSTANT (8) << 30)   /* of text, after gzip */
#define SUANLI_IMPORT_DEFAULT_MAX_TOKEN (G_GUINT64_CONSTANT (1) << 20)   /* one string or number */

typedef struct
{
  guint64 max_bytes;
  guint64 max_token;
} SuanliImportLimits;

SuanliImportLimits suanli_import_limits (void);

G_END_DECLS
