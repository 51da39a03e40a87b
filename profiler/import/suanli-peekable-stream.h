/* suanli-peekable-stream.h — a buffered stream whose first bytes can be looked at without seeking
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

GInputStream *suanli_peekable_stream_new (GInputStream  *input,
                                          gsize          wanted,
                                          GCancellable  *cancellable,
                                          GError       **error);

G_END_DECLS
