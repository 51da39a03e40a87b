/* fake-libcupti-buffers.c — the TEST DOUBLE of libcupti.so.13: activity buffers and the activity API
 *
 * Buffers asked for under the fake's lock when a record has nowhere to go, handed back on the
 * fake's worker thread or by a flush, records read back, cuptiFinalize (fake-libcupti.c says what
 * it models and why).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define _GNU_SOURCE
#include <cupti.h>
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "fake-libcupti-private.h"

static pthread_mutex_t hang_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t never = PTHREAD_COND_INITIALIZER;

/* ---- buffers ------------------------------------------------------------------------------------- */

/* The current buffer goes to the full ones, for the worker. The lock is held. */
static void
retire_current (void)
{
  FakeBuffer **tail = &fake_cupti.full;

  if (fake_cupti.current == NULL)
    return;
  while (*tail != NULL)
    tail = &(*tail)->next;
  *tail = fake_cupti.current;
  fake_cupti.current = NULL;
  pthread_cond_signal (&fake_cupti.wake);
}

static void
drop (bool kernel)
{
  fake_cupti.dropped_unread++;
  fake_cupti.counts.records_dropped++;
  if (kernel)
    fake_cupti.counts.kernels_dropped++;
}

/* Room for a record of @size, zeroed, in the current buffer, asking the client for a buffer when
 * there is none; NULL when it gives none: the record is dropped and counted. The lock is held. */
void *
fake_cupti_reserve (size_t      size,
         bool        kernel,
         FakeBuffer **in)
{
  FakeBuffer *buffer = fake_cupti.current;
  void *record;

  size = ALIGN8 (size);
  if (buffer != NULL && (buffer->used + size > buffer->size ||
                         (buffer->max_records > 0 && buffer->records >= buffer->max_records)))
    {
      retire_current ();
      buffer = NULL;
    }
  if (buffer == NULL)
    {
      uint8_t *data = NULL;
      size_t buffer_size = 0, max_records = 0;

      if (fake_cupti.requested == NULL)
        {
          drop (kernel);
          return NULL;
        }
      fake_cupti.requested (&data, &buffer_size, &max_records);
      fake_cupti.counts.buffers_requested++;
      if (data == NULL)
        {
          drop (kernel);
          return NULL;
        }
      buffer = calloc (1, sizeof *buffer);
      if (buffer == NULL)
        abort ();
      *buffer = (FakeBuffer) { data, buffer_size, 0, max_records, 0, 0, false, NULL };
      fake_cupti.current = buffer;
      if (size > buffer_size)
        {
          retire_current ();   /* too small for anything: handed back empty */
          drop (kernel);
          return NULL;
        }
    }
  record = buffer->data + buffer->used;
  memset (record, 0, size);
  buffer->used += size;
  buffer->records++;
  fake_cupti.counts.records_written++;
  *in = buffer;
  return record;
}

/* Takes off the full list the buffers that may go back (all of them when @forced; else those
 * whose records are complete, the current one too), and forgets their incomplete records. The
 * lock is held. */
static FakeBuffer *
take_ready (bool forced,
            bool current_too)
{
  FakeBuffer *ready = NULL, **ready_end = &ready;

  if (current_too && fake_cupti.current != NULL && fake_cupti.current->records > 0 && (forced || fake_cupti.current->incomplete == 0))
    retire_current ();
  for (FakeBuffer **at = &fake_cupti.full; *at != NULL;)
    {
      FakeBuffer *buffer = *at;

      if (forced || buffer->incomplete == 0)
        {
          *at = buffer->next;
          buffer->next = NULL;
          buffer->handed_back = true;
          *ready_end = buffer;
          ready_end = &buffer->next;
        }
      else
        at = &buffer->next;
    }
  for (size_t i = 0; i < fake_cupti.n_incomplete;)
    if (fake_cupti.incomplete[i].buffer->handed_back)
      fake_cupti.incomplete[i] = fake_cupti.incomplete[--fake_cupti.n_incomplete];
    else
      i++;
  if (ready != NULL)
    fake_cupti.delivering++;
  return ready;
}

/* Hands @ready back, each buffer to the completed callback registered now. Called without the
 * lock (the client reads its records, and may call CUPTI); takes it between buffers. */
static void
hand_back (FakeBuffer *ready)
{
  if (ready == NULL)
    return;
  while (ready != NULL)
    {
      FakeBuffer *buffer = ready;
      CUpti_BuffersCallbackCompleteFunc completed;

      ready = buffer->next;
      fake_cupti_lock ();
      completed = fake_cupti.completed;
      if (completed != NULL)
        fake_cupti.counts.buffers_completed++;
      fake_cupti_unlock ();
      if (completed != NULL)
        completed (NULL, 0, buffer->data, buffer->size, buffer->used);
      free (buffer);
    }
  fake_cupti_lock ();
  fake_cupti.delivering--;
  pthread_cond_broadcast (&fake_cupti.handed);
  fake_cupti_unlock ();
}

static void *
worker_main (void *data)
{
  for (;;)
    {
      FakeBuffer *ready;

      fake_cupti_lock ();
      while ((ready = take_ready (false, false)) == NULL)
        pthread_cond_wait (&fake_cupti.wake, &fake_cupti.lock);
      fake_cupti_unlock ();
      hand_back (ready);
    }
  return NULL;
}

/* ---- CUPTI: activity --------------------------------------------------------------------------- */

/* A kind on or off; RUNTIME and DRIVER set every per-API switch with it (the kind overrides the
 * switches set before it, as CUPTI documents). */
static CUptiResult
switch_kind (CUpti_ActivityKind kind,
             bool               on)
{
  if (kind <= CUPTI_ACTIVITY_KIND_INVALID || kind >= CUPTI_ACTIVITY_KIND_COUNT)
    return CUPTI_ERROR_INVALID_KIND;
  fake_cupti_lock ();
  fake_cupti.kinds = on ? fake_cupti.kinds | 1ull << kind : fake_cupti.kinds & ~(1ull << kind);
  if (kind == CUPTI_ACTIVITY_KIND_RUNTIME)
    memset (fake_cupti.runtime_api, on, sizeof fake_cupti.runtime_api);
  if (kind == CUPTI_ACTIVITY_KIND_DRIVER)
    memset (fake_cupti.driver_api, on, sizeof fake_cupti.driver_api);
  fake_cupti_unlock ();
  return CUPTI_SUCCESS;
}

CUptiResult CUPTIAPI
cuptiActivityEnable (CUpti_ActivityKind kind)
{
  return switch_kind (kind, true);
}

CUptiResult CUPTIAPI
cuptiActivityDisable (CUpti_ActivityKind kind)
{
  return switch_kind (kind, false);
}

static CUptiResult
enable_api (uint8_t          *switches,
            unsigned          n,
            CUpti_CallbackId  cbid,
            uint8_t           enable)
{
  if (cbid >= n)
    return CUPTI_ERROR_INVALID_PARAMETER;
  fake_cupti_lock ();
  switches[cbid] = enable != 0;
  fake_cupti_unlock ();
  return CUPTI_SUCCESS;
}

CUptiResult CUPTIAPI
cuptiActivityEnableRuntimeApi (CUpti_CallbackId cbid,
                               uint8_t          enable)
{
  return enable_api (fake_cupti.runtime_api, CUPTI_RUNTIME_TRACE_CBID_SIZE, cbid, enable);
}

CUptiResult CUPTIAPI
cuptiActivityEnableDriverApi (CUpti_CallbackId cbid,
                              uint8_t          enable)
{
  return enable_api (fake_cupti.driver_api, CUPTI_DRIVER_TRACE_CBID_SIZE, cbid, enable);
}

CUptiResult CUPTIAPI
cuptiActivityRegisterCallbacks (CUpti_BuffersCallbackRequestFunc  requested,
                                CUpti_BuffersCallbackCompleteFunc completed)
{
  bool start_worker;

  if (requested == NULL || completed == NULL)
    return CUPTI_ERROR_INVALID_PARAMETER;
  fake_cupti_lock ();
  fake_cupti.requested = requested;
  fake_cupti.completed = completed;
  start_worker = !fake_cupti.worker_started;
  fake_cupti.worker_started = true;
  fake_cupti_unlock ();
  if (start_worker)
    {
      pthread_t worker;

      if (pthread_create (&worker, NULL, worker_main, NULL) != 0)
        abort ();
      pthread_detach (worker);
    }
  return CUPTI_SUCCESS;
}

CUptiResult CUPTIAPI
cuptiActivityFlushAll (uint32_t flag)
{
  FakeBuffer *ready;

  fake_cupti_lock ();
  fake_cupti.counts.flushes++;
  if (fake_cupti.flush_hang)
    {
      /* A flush that waits for a device that never answers. */
      fake_cupti_unlock ();
      pthread_mutex_lock (&hang_lock);
      for (;;)
        pthread_cond_wait (&never, &hang_lock);
    }
  if (fake_cupti.requested == NULL)
    {
      fake_cupti_unlock ();
      return CUPTI_ERROR_INVALID_OPERATION;
    }
  ready = take_ready ((flag & CUPTI_ACTIVITY_FLAG_FLUSH_FORCED) != 0, true);
  fake_cupti_unlock ();
  hand_back (ready);
  /* Returns once every buffer that left the fake has been handed over, the worker's included. */
  fake_cupti_lock ();
  while (fake_cupti.delivering > 0)
    pthread_cond_wait (&fake_cupti.handed, &fake_cupti.lock);
  fake_cupti_unlock ();
  return CUPTI_SUCCESS;
}

CUptiResult CUPTIAPI
cuptiActivityGetNumDroppedRecords (CUcontext  context,
                                   uint32_t   stream,
                                   size_t    *dropped)
{
  if (dropped == NULL)
    return CUPTI_ERROR_INVALID_PARAMETER;
  fake_cupti_lock ();
  *dropped = fake_cupti.dropped_unread;
  fake_cupti.dropped_unread = 0;
  fake_cupti_unlock ();
  return CUPTI_SUCCESS;
}

/* The size of a record of @kind in a buffer; 0 for kinds the fake does not know. */
static size_t
record_size (CUpti_ActivityKind kind)
{
  switch (kind)
    {
    case CUPTI_ACTIVITY_KIND_KERNEL:
    case CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL:
      return sizeof (CUpti_ActivityKernel10);
    case CUPTI_ACTIVITY_KIND_RUNTIME:
    case CUPTI_ACTIVITY_KIND_DRIVER:
      return sizeof (CUpti_ActivityAPI);
    case CUPTI_ACTIVITY_KIND_MEMCPY:
      return sizeof (CUpti_ActivityMemcpy6);
    case CUPTI_ACTIVITY_KIND_MEMCPY2:
      return sizeof (CUpti_ActivityMemcpyPtoP4);
    case CUPTI_ACTIVITY_KIND_MEMSET:
      return sizeof (CUpti_ActivityMemset4);
    case CUPTI_ACTIVITY_KIND_MARKER:
      return sizeof (CUpti_ActivityMarker2);
    case CUPTI_ACTIVITY_KIND_SYNCHRONIZATION:
      return sizeof (CUpti_ActivitySynchronization2);
    case CUPTI_ACTIVITY_KIND_OVERHEAD:
      return sizeof (CUpti_ActivityOverhead3);
    case CUPTI_ACTIVITY_KIND_EXTERNAL_CORRELATION:
      return sizeof (CUpti_ActivityExternalCorrelation);
    default:
      return 0;
    }
}

CUptiResult CUPTIAPI
cuptiActivityGetNextRecord (uint8_t         *buffer,
                            size_t           valid,
                            CUpti_Activity **record)
{
  uint8_t *next;

  if (buffer == NULL || record == NULL)
    return CUPTI_ERROR_INVALID_PARAMETER;
  next = *record == NULL ? buffer : (uint8_t *) *record + ALIGN8 (record_size ((*record)->kind));
  if (next < buffer || next + sizeof (CUpti_Activity) > buffer + valid)
    {
      *record = NULL;
      return CUPTI_ERROR_MAX_LIMIT_REACHED;
    }
  if (record_size (((CUpti_Activity *) next)->kind) == 0)
    {
      *record = NULL;
      return CUPTI_ERROR_INVALID_KIND;
    }
  *record = (CUpti_Activity *) next;
  return CUPTI_SUCCESS;
}

CUptiResult CUPTIAPI
cuptiFinalize (void)
{
  FakeBuffer *buffer;

  /* Detaching from a device takes a while; what CUPTI holds is forgotten at its end. */
  if (fake_cupti.finalize_ms > 0)
    {
      struct timespec pause = { (time_t) (fake_cupti.finalize_ms / 1000), (long) (fake_cupti.finalize_ms % 1000) * 1000000 };

      nanosleep (&pause, NULL);
    }
  fake_cupti_lock ();
  fake_cupti_forget_subscriber ();
  fake_cupti.kinds = 0;
  memset (fake_cupti.runtime_api, 0, sizeof fake_cupti.runtime_api);
  memset (fake_cupti.driver_api, 0, sizeof fake_cupti.driver_api);
  fake_cupti.requested = NULL;
  fake_cupti.completed = NULL;
  fake_cupti.thread_id_type = CUPTI_ACTIVITY_THREAD_ID_TYPE_DEFAULT;
  fake_cupti.timestamp = NULL;   /* CUPTI's own clock again */
  /* What it held is never handed back: the client's memory is the client's loss. */
  retire_current ();
  while ((buffer = fake_cupti.full) != NULL)
    {
      fake_cupti.full = buffer->next;
      free (buffer);
    }
  fake_cupti.n_incomplete = 0;
  fake_cupti.dropped_unread = 0;
  fake_cupti.counts.finalized++;
  fake_cupti_unlock ();
  return CUPTI_SUCCESS;
}
