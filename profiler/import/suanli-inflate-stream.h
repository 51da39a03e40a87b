/* suanli-inflate-stream.h — gzip inflated by ISA-L on its own thread, read as a plain stream
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

#define SUANLI_TYPE_INFLATE_STREAM (suanli_inflate_stream_get_type ())

G_DECLARE_FINAL_TYPE (SuanliInflateStream, suanli_inflate_stream, SUANLI, INFLATE_STREAM, GInputStream)

GInputStream *suanli_inflate_stream_new (GInputStream *compressed,
                                         GCancellable *cancellable);

G_END_DECLS
