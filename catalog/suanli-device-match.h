/* suanli-device-match.h — the catalog's accelerator a device reports itself as
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "suanli-catalog.h"

G_BEGIN_DECLS

SuanliItem *suanli_device_match (SuanliCatalog *catalog,
                                 const char    *device_name,
                                 guint64        memory_bytes);

G_END_DECLS
