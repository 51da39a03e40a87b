/* suanli-handoff-queue.h — a bounded queue that hands items from one thread to another, in order
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef struct SuanliHandoffQueue SuanliHandoffQueue;

SuanliHandoffQueue *suanli_handoff_queue_new  (guint               capacity);
void                suanli_handoff_queue_free (SuanliHandoffQueue *queue);
/* Waits while the queue holds @capacity items. */
void                suanli_handoff_queue_push (SuanliHandoffQueue *queue,
                                               gpointer            item);
/* Waits while the queue is empty. */
gpointer            suanli_handoff_queue_pop  (SuanliHandoffQueue *queue);

G_END_DECLS
