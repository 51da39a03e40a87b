/* suanli-bounded-read.h — a whole file read into memory, never more than a limit
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

GBytes *suanli_read_bounded (GFile        *file,
                             gsize         limit,
                             GCancellable *cancellable,
                             GError      **error);

G_END_DECLS
