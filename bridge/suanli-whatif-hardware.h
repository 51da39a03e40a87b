/* suanli-whatif-hardware.h — a catalog accelerator's rates as the what-if engine takes them
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "suanli-catalog.h"
#include "suanli-whatif.h"

G_BEGIN_DECLS

gboolean suanli_whatif_hardware_from_item (SuanliCatalog        *catalog,
                                           SuanliItem           *item,
                                           SuanliWhatifHardware *out);

G_END_DECLS
