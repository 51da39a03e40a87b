/* suanli-counting-stream.h — an input stream that counts the bytes read through it, for progress
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

#define SUANLI_TYPE_COUNTING_STREAM (suanli_counting_stream_get_type ())

G_DECLARE_FINAL_TYPE (SuanliCountingStream, suanli_counting_stream, SUANLI, COUNTING_STREAM, GFilterInputStream)

GInputStream *suanli_counting_stream_new       (GInputStream         *base,
                                                gsize                *counter);

G_END_DECLS
