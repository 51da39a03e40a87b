/* suanli-atomic-file.h — a file written beside its target and put in place only when complete
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

typedef struct _SuanliAtomicFile SuanliAtomicFile;

SuanliAtomicFile *suanli_atomic_file_new       (const char        *path,
                                                GError           **error);
int               suanli_atomic_file_get_fd    (SuanliAtomicFile  *self);
gboolean          suanli_atomic_file_commit    (SuanliAtomicFile  *self,
                                                GError           **error);
void              suanli_atomic_file_abandon   (SuanliAtomicFile  *self);
void              suanli_atomic_file_clean_on_signals (void);
gboolean          suanli_atomic_file_write_contents   (const char        *path,
                                                      const char        *data,
                                                      gsize              length,
                                                      GError           **error);

G_END_DECLS
