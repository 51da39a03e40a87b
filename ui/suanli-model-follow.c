/* suanli-model-follow.c — a view that follows a list model: swaps the model it holds and moves its
 * items-changed handler along
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "suanli-model-follow.h"

/**
 * suanli_model_follow:
 * @slot: where the view holds its model (a reference), or NULL
 * @model: (nullable): the model to follow; NULL to stop following (in dispose)
 * @on_items_changed: (nullable): what the view does when @model's items change (its rebuild),
 *   called with @data alone
 * @data: the view
 *
 * Disconnects @data's handlers from the model in @slot, keeps a reference to @model there
 * instead, and connects @on_items_changed to it (swapped: what changed is not passed on, the
 * views rebuild from the whole model).
 */
void
suanli_model_follow (GListModel **slot,
                     GListModel  *model,
                     GCallback    on_items_changed,
                     gpointer     data)
{
  if (*slot != NULL)
    g_signal_handlers_disconnect_by_data (*slot, data);
  g_set_object (slot, model);
  if (model != NULL && on_items_changed != NULL)
    g_signal_connect_swapped (model, "items-changed", on_items_changed, data);
}
