/* suanli-frame-guard.h — an input stream that reads a WebSocket client's frames as they pass and
 * fails once one message grows past a limit
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

#define SUANLI_TYPE_FRAME_GUARD (suanli_frame_guard_get_type ())

G_DECLARE_FINAL_TYPE (SuanliFrameGuard, suanli_frame_guard, SUANLI, FRAME_GUARD, GFilterInputStream)

GInputStream *suanli_frame_guard_new (GInputStream *base,
                                      guint64       max_message);

G_END_DECLS
