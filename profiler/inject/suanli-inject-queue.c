/* suanli-inject-queue.c — a ring of capture records between the sources and the writer thread
 *
 * Preallocated once: taking a record never allocates and never waits for the writer. A record
 * that does not fit is dropped and counted, and the writer reports the count in the stream.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define _GNU_SOURCE
#include "suanli-inject.h"

#include <sys/syscall.h>
#include <unistd.h>

#include <stdlib.h>
#include <string.h>
#include <time.h>

int
suanli_inject_queue_init (SuanliInjectQueue *queue,
                          size_t             capacity)
{
  memset (queue, 0, sizeof *queue);
  queue->data = malloc (capacity);
  if (queue->data == NULL)
    return -1;
  queue->capacity = capacity;
  pthread_mutex_init (&queue->lock, NULL);
  pthread_cond_init (&queue->ready, NULL);
  return 0;
}

void
suanli_inject_queue_destroy (SuanliInjectQueue *queue)
{
  pthread_mutex_destroy (&queue->lock);
  pthread_cond_destroy (&queue->ready);
  free (queue->data);
  queue->data = NULL;
}

/* Copies @size bytes in at the head, wrapping at the end. The lock is held. */
static void
copy_in (SuanliInjectQueue *queue,
         const void        *bytes,
         size_t             size)
{
  size_t first = queue->capacity - queue->head < size ? queue->capacity - queue->head : size;

  memcpy (queue->data + queue->head, bytes, first);
  memcpy (queue->data, (const uint8_t *) bytes + first, size - first);
  queue->head = (queue->head + size) % queue->capacity;
  queue->used += size;
}

/* Takes a whole record if there is room. Returns whether it was taken; a refusal is not counted. */
bool
suanli_inject_queue_try_push (SuanliInjectQueue *queue,
                              const void        *record,
                              size_t             size)
{
  bool taken;

  pthread_mutex_lock (&queue->lock);
  taken = queue->capacity - queue->used >= size;
  if (taken)
    {
      copy_in (queue, record, size);
      queue->pushed++;
      pthread_cond_signal (&queue->ready);
    }
  pthread_mutex_unlock (&queue->lock);
  return taken;
}

/* Takes a whole record, or drops and counts it when there is no room. Returns whether it was taken. */
bool
suanli_inject_queue_push (SuanliInjectQueue *queue,
                          const void        *record,
                          size_t             size)
{
  if (suanli_inject_queue_try_push (queue, record, size))
    return true;
  pthread_mutex_lock (&queue->lock);
  queue->dropped++;
  queue->dropped_total++;
  pthread_mutex_unlock (&queue->lock);
  return false;
}

/* Takes a string record for @text (cut at SUANLI_CAPTURE_MAX_RECORD's worth). */
bool
suanli_inject_queue_push_string (SuanliInjectQueue *queue,
                                 uint32_t           id,
                                 const char        *text)
{
  uint8_t buffer[1024];
  size_t length = strlen (text);
  size_t size;

  /* Names longer than the buffer (C++ templates can run to kilobytes) are cut: still a name. */
  if (suanli_capture_string_size ((uint32_t) length) > sizeof buffer)
    length = sizeof buffer - sizeof (SuanliCaptureString) - 8;
  size = suanli_capture_write_string (buffer, sizeof buffer, id, text, (uint32_t) length);
  return size > 0 && suanli_inject_queue_push (queue, buffer, size);
}

/* Puts a record of the drops since the last one in the stream, when there were some and there is
 * room for it (else it tries again next time, with the count still growing). */
void
suanli_inject_queue_report_drops (SuanliInjectQueue *queue)
{
  SuanliCaptureDropped record;

  pthread_mutex_lock (&queue->lock);
  if (queue->dropped > 0 && queue->capacity - queue->used >= sizeof record)
    {
      memset (&record, 0, sizeof record);
      suanli_capture_init_record (&record.record, SUANLI_CAPTURE_DROPPED, sizeof record);
      record.count = queue->dropped;
      record.reason = SUANLI_DROPPED_SLOW_READER;
      copy_in (queue, &record, sizeof record);
      queue->dropped = 0;
    }
  pthread_mutex_unlock (&queue->lock);
}

/* Points @data at the oldest bytes waiting; returns how many lie there before the ring wraps. */
size_t
suanli_inject_queue_peek (SuanliInjectQueue *queue,
                          const uint8_t    **data)
{
  size_t contiguous;

  pthread_mutex_lock (&queue->lock);
  *data = queue->data + queue->tail;
  contiguous = queue->capacity - queue->tail;
  if (contiguous > queue->used)
    contiguous = queue->used;
  pthread_mutex_unlock (&queue->lock);
  return contiguous;
}

/* Frees @bytes from the tail, once sent. */
void
suanli_inject_queue_consume (SuanliInjectQueue *queue,
                             size_t             bytes)
{
  pthread_mutex_lock (&queue->lock);
  queue->tail = (queue->tail + bytes) % queue->capacity;
  queue->used -= bytes;
  pthread_mutex_unlock (&queue->lock);
}

/* How many bytes wait to be sent. */
size_t
suanli_inject_queue_used (SuanliInjectQueue *queue)
{
  size_t used;

  pthread_mutex_lock (&queue->lock);
  used = queue->used;
  pthread_mutex_unlock (&queue->lock);
  return used;
}

/* The records taken and refused since the last clear. */
void
suanli_inject_queue_totals (SuanliInjectQueue *queue,
                            uint64_t          *pushed,
                            uint64_t          *dropped)
{
  pthread_mutex_lock (&queue->lock);
  *pushed = queue->pushed;
  *dropped = queue->dropped_total;
  pthread_mutex_unlock (&queue->lock);
}

/* Forgets everything waiting and the counts: for the next capture. */
void
suanli_inject_queue_clear (SuanliInjectQueue *queue)
{
  pthread_mutex_lock (&queue->lock);
  queue->head = queue->tail = queue->used = 0;
  queue->pushed = queue->dropped = queue->dropped_total = 0;
  pthread_mutex_unlock (&queue->lock);
}

/* ---- string ids ------------------------------------------------------------------------------- */

static uint32_t next_string_id;   /* (atomic) the last id given out in this capture */
static uint32_t string_generation = 1;   /* (atomic) which capture's ids they are */

uint32_t
suanli_inject_new_string_id (void)
{
  return __atomic_add_fetch (&next_string_id, 1, __ATOMIC_RELAXED);
}

void
suanli_inject_reset_string_ids (void)
{
  __atomic_store_n (&next_string_id, 0, __ATOMIC_RELAXED);
  /* Never 0: that stands for "no capture" with those who keep names across captures. */
  if (__atomic_add_fetch (&string_generation, 1, __ATOMIC_RELEASE) == 0)
    __atomic_store_n (&string_generation, 1, __ATOMIC_RELEASE);
}

/* Changes at each capture's start: a name sent in an earlier capture must be sent again. */
uint32_t
suanli_inject_string_generation (void)
{
  return __atomic_load_n (&string_generation, __ATOMIC_ACQUIRE);
}

static __thread uint32_t this_thread;
static pthread_once_t fork_handler_once = PTHREAD_ONCE_INIT;

/* In a forked child, on its one thread (the one that forked): its id is its own, not its parent's. */
static void
forget_thread_id (void)
{
  this_thread = 0;
}

static void
watch_forks (void)
{
  pthread_atfork (NULL, NULL, forget_thread_id);
}

/* The calling thread's OS id (what CUPTI, with the SYSTEM thread id type, and every tool shows). */
uint32_t
suanli_inject_thread_id (void)
{
  if (this_thread == 0)
    {
      pthread_once (&fork_handler_once, watch_forks);
      this_thread = (uint32_t) syscall (SYS_gettid);
    }
  return this_thread;
}

/* ---- small things the library's parts share ------------------------------------------------------ */

/* FNV-1a over @length bytes of @text: for the name tables. */
uint64_t
suanli_inject_hash (const char *text,
                    size_t      length)
{
  uint64_t hash = 14695981039346656037ull;

  for (size_t i = 0; i < length; i++)
    hash = (hash ^ (uint8_t) text[i]) * 1099511628211ull;
  return hash;
}

/* Milliseconds on the monotonic clock, for deadlines. */
uint64_t
suanli_inject_now_ms (void)
{
  struct timespec now;

  clock_gettime (CLOCK_MONOTONIC, &now);
  return (uint64_t) now.tv_sec * 1000u + (uint64_t) now.tv_nsec / 1000000u;
}
