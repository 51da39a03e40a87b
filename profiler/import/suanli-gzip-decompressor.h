/* suanli-gzip-decompressor.h — gzip decompression that goes on through concatenated members
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

#define SUANLI_TYPE_GZIP_DECOMPRESSOR (suanli_gzip_decompressor_get_type ())

G_DECLARE_FINAL_TYPE (SuanliGzipDecompressor, suanli_gzip_decompressor, SUANLI, GZIP_DECOMPRESSOR, GObject)

GConverter *suanli_gzip_decompressor_new (void);

G_END_DECLS
