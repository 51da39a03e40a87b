/* suanli-import-nsys.h — reading an Nsight Systems SQLite export (nsys export --type sqlite)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "suanli-import-stats.h"

G_BEGIN_DECLS

/* The first bytes of every SQLite database, and of an Nsight Systems report (.nsys-rep, .qdrep). */
#define SUANLI_NSYS_SQLITE_MAGIC "SQLite format 3"
#define SUANLI_NSYS_REPORT_MAGIC "NVIDIA Tegra Profiler Report"

gboolean  suanli_import_nsys             (SuanliTrace       *trace,
                                          const char        *path,
                                          const char        *name,
                                          SuanliImportStats *stats,
                                          gsize             *progress,
                                          GCancellable      *cancellable,
                                          GError           **error);
gboolean  suanli_import_nsys_is_export   (const char        *path,
                                          GError           **error);
char     *suanli_import_nsys_export_command (const char     *report);

G_END_DECLS
