/* suanli-catalog-reader.h — reading and checking one catalog file
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

/* Files over this size are refused whole: a catalog is a few hundred kilobytes. */
#define SUANLI_CATALOG_MAX_FILE_SIZE (16 * 1024 * 1024)

gboolean suanli_catalog_read_bytes (const char    *file_name,
                                    GBytes        *bytes,
                                    GPtrArray     *items,
                                    GPtrArray     *problems);
gboolean suanli_catalog_read_file  (GFile         *file,
                                    GPtrArray     *items,
                                    GPtrArray     *problems,
                                    GCancellable  *cancellable);

G_END_DECLS
