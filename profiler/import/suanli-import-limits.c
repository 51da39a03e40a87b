/* suanli-import-limits.c — how much of a trace an importer reads before it stops
 *
 * Three budgets keep a hostile or broken file from taking the machine: the memory the trace it
 * makes holds (35 MB of gzip can inflate to 10 GB of tiny events, and an unfinished "B" event of
 * 30 bytes is held as a kilobyte until its end comes), the text read in all (which bounds the
 * time), and the length of one JSON value (yajl keeps a value that spans its input chunks and lexes
 * it again with each, so one of 16 MB took 15 s). Past any of them the importer stops and keeps
 * what it read, with a warning that says why. SUANLI_TRACE_MAX_MEMORY, SUANLI_TRACE_MAX_BYTES and
 * SUANLI_TRACE_MAX_TOKEN (bytes) set them.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <unistd.h>

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

/* The memory this process may use: the machine's, or its cgroup's limit (a container, a systemd
 * slice) when that is lower. */
guint64
suanli_import_machine_memory (void)
{
  long pages = sysconf (_SC_PHYS_PAGES), page_size = sysconf (_SC_PAGESIZE);
  guint64 memory = pages > 0 && page_size > 0 ? (guint64) pages * (guint64) page_size : G_GUINT64_CONSTANT (8) << 30;
  g_autofree char *limit = NULL;
  guint64 cgroup = 0;

  /* cgroup v2; "max" when there is no limit. */
  if (g_file_get_contents ("/sys/fs/cgroup/memory.max", &limit, NULL, NULL) &&
      g_ascii_string_to_unsigned (g_strstrip (limit), 10, 1, G_MAXUINT64, &cgroup, NULL))
    memory = MIN (memory, cgroup);
  return memory;
}

SuanliImportLimits
suanli_import_limits (void)
{
  SuanliImportLimits limits = {
    from_environment ("SUANLI_TRACE_MAX_BYTES", SUANLI_IMPORT_DEFAULT_MAX_BYTES),
    from_environment ("SUANLI_TRACE_MAX_TOKEN", SUANLI_IMPORT_DEFAULT_MAX_TOKEN),
    from_environment ("SUANLI_TRACE_MAX_MEMORY", suanli_import_machine_memory () / SUANLI_IMPORT_MEMORY_SHARE),
  };

  return limits;
}
