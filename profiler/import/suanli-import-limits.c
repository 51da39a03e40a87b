/* suanli-import-limits.c — how much of a trace an importer reads before it stops
 *
 * Two budgets keep a hostile or broken file from taking the machine: the text read in all (35 MB
 * of gzip can inflate to 10 GB of tiny events, which would exhaust memory) and the length of one
 * JSON value (yajl keeps a value that spans its input chunks and lexes it again with each, so one
 * of 16 MB took 15 s). Past either the importer stops and keeps what it read, with a warning that
 * says why. SUANLI_TRACE_MAX_BYTES and SUANLI_TRACE_MAX_TOKEN (bytes) set them.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "suanli-import-limits.h"

static guint64
from_environment (const char *name,
                  guint64     fallback)
{
  const char *text = g_getenv (name);
  guint64 value = 0;

  if (text == NULL || !g_ascii_string_to_unsigned (text, 10, 1, G_MAXUINT64, &value, NULL))
    return fallback;
  return value;
}

SuanliImportLimits
suanli_import_limits (void)
{
  SuanliImportLimits limits = {
    from_environment ("SUANLI_TRACE_MAX_BYTES", SUANLI_IMPORT_DEFAULT_MAX_BYTES),
    from_environment ("SUANLI_TRACE_MAX_TOKEN", SUANLI_IMPORT_DEFAULT_MAX_TOKEN),
  };

  return limits;
}
