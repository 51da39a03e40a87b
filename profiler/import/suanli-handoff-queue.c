/* suanli-handoff-queue.c — a bounded queue that hands items from one thread to another, in order
 *
 * A ring of @capacity pointers under one lock. POSIX's lock and condition rather than GLib's:
 * ThreadSanitizer (CI runs the importer's tests under it) cannot see into GLib's futexes.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <pthread.h>

#include "suanli-handoff-queue.h"

struct SuanliHandoffQueue
{
  pthread_mutex_t lock;
  pthread_cond_t  changed;
  gpointer       *items;
  guint           capacity, first, count;
};

SuanliHandoffQueue *
suanli_handoff_queue_new (guint capacity)
{
  SuanliHandoffQueue *queue = g_new0 (SuanliHandoffQueue, 1);

  g_return_val_if_fail (capacity > 0, NULL);
  pthread_mutex_init (&queue->lock, NULL);
  pthread_cond_init (&queue->changed, NULL);
  queue->items = g_new0 (gpointer, capacity);
  queue->capacity = capacity;
  return queue;
}

void
suanli_handoff_queue_free (SuanliHandoffQueue *queue)
{
  pthread_mutex_destroy (&queue->lock);
  pthread_cond_destroy (&queue->changed);
  g_free (queue->items);
  g_free (queue);
}

void
suanli_handoff_queue_push (SuanliHandoffQueue *queue,
                           gpointer            item)
{
  pthread_mutex_lock (&queue->lock);
  while (queue->count == queue->capacity)
    pthread_cond_wait (&queue->changed, &queue->lock);
  queue->items[(queue->first + queue->count) % queue->capacity] = item;
  queue->count++;
  pthread_cond_broadcast (&queue->changed);
  pthread_mutex_unlock (&queue->lock);
}

gpointer
suanli_handoff_queue_pop (SuanliHandoffQueue *queue)
{
  gpointer item;

  pthread_mutex_lock (&queue->lock);
  while (queue->count == 0)
    pthread_cond_wait (&queue->changed, &queue->lock);
  item = queue->items[queue->first];
  queue->first = (queue->first + 1) % queue->capacity;
  queue->count--;
  pthread_cond_broadcast (&queue->changed);
  pthread_mutex_unlock (&queue->lock);
  return item;
}
