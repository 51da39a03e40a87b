/* suanli-catalog.h — every catalog item, built in and the user's, as one list
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>

#include "suanli-item.h"

G_BEGIN_DECLS

#define SUANLI_TYPE_CATALOG (suanli_catalog_get_type ())

G_DECLARE_FINAL_TYPE (SuanliCatalog, suanli_catalog, SUANLI, CATALOG, GObject)

SuanliCatalog *suanli_catalog_new                (void);
void           suanli_catalog_add_items          (SuanliCatalog        *self,
                                                  GPtrArray            *items);
void           suanli_catalog_replace_all        (SuanliCatalog        *self,
                                                  SuanliCatalog        *source);
gboolean       suanli_catalog_load_file          (SuanliCatalog        *self,
                                                  GFile                *file,
                                                  GPtrArray            *problems,
                                                  GCancellable         *cancellable);
void           suanli_catalog_load_directory     (SuanliCatalog        *self,
                                                  GFile                *directory,
                                                  GPtrArray            *problems,
                                                  GCancellable         *cancellable);
void           suanli_catalog_load_builtin       (SuanliCatalog        *self,
                                                  GPtrArray            *problems);
void           suanli_catalog_check_references   (SuanliCatalog        *self,
                                                  GPtrArray            *problems);
SuanliItem    *suanli_catalog_lookup             (SuanliCatalog        *self,
                                                  const char           *id);
guint          suanli_catalog_count_kind         (SuanliCatalog        *self,
                                                  SuanliItemKind        kind);
guint          suanli_catalog_get_n_overridden   (SuanliCatalog        *self);
GFile         *suanli_catalog_dup_user_directory (void);
SuanliCatalog *suanli_catalog_load_standard      (const char * const   *extra_folders,
                                                  GPtrArray            *problems,
                                                  GCancellable         *cancellable);
void           suanli_catalog_load_standard_async  (const char * const *extra_folders,
                                                    GCancellable       *cancellable,
                                                    GAsyncReadyCallback callback,
                                                    gpointer            user_data);
SuanliCatalog *suanli_catalog_load_standard_finish (GAsyncResult       *result,
                                                    GPtrArray         **problems,
                                                    GError            **error);

G_END_DECLS
