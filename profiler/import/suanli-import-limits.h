/* suanli-import-limits.h — how much of a trace an importer reads before it stops
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

#define SUANLI_IMPORT_DEFAULT_MAX_BYTES (G_GUINT64_CONSTANT (8) << 30)   /* of text, after gzip */
#define SUANLI_IMPORT_DEFAULT_MAX_TOKEN (G_GUINT64_CONSTANT (1) << 20)   /* one string or number */
/* The trace a file makes may hold this share of the machine's memory (or of the cgroup's limit):
 * sorting a track and the analysis after it need as much again, and the rest is the system's. */
#define SUANLI_IMPORT_MEMORY_SHARE      4                                /* a quarter */

typedef struct
{
  guint64 max_bytes;
  guint64 max_token;
  guint64 max_memory;   /* bytes the trace read from one file may hold */
} SuanliImportLimits;

SuanliImportLimits suanli_import_limits         (void);
guint64            suanli_import_machine_memory (void);

G_END_DECLS
