/* suanli-model-follow.h — a view that follows a list model: swaps the model it holds and moves its
 * items-changed handler along
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

void suanli_model_follow (GListModel **slot,
                          GListModel  *model,
                          GCallback    on_items_changed,
                          gpointer     data);

G_END_DECLS
