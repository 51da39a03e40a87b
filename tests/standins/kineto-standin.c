/* kineto-standin.c — PyTorch's profiler (Kineto) as CUPTI sees it, inside the stand-in job
 *
 * Kineto's CUPTI calls, in its order (libkineto's CuptiCallbackApi, CuptiActivityApi and
 * CuptiTimestamp, read, not copied). PyTorch 2.11's: cuptiSubscribe at the first torch.profiler
 * run (or at libkineto_init, --kineto-init); refused, it traces the CPU only from then on and
 * makes no other CUPTI call. Subscribed, and in the Kineto after 2.11 (which never subscribes), a
 * run's start is: cuptiActivityRegisterTimestampCallback with a TSC clock (raw ticks: here a
 * 3 GHz counter), cuptiGetVersion, cuptiActivityRegisterCallbacks with its own 4 MiB buffers
 * (replacing whoever's were registered, without a word), then cuptiActivityEnable of its kinds
 * (and the per-API switches it turns off); at the stop, cudaDeviceSynchronize and cuptiActivityFlushAll(0), cuptiActivityDisable of the same
 * kinds, cuptiActivityFlushAll(FORCED) and a walk of the buffers it got back. A buffer handed to it
 * that it never gave is logged by Kineto and left alone; here it is counted.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <cupti.h>
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "kineto-standin.h"

#define BUFFER_SIZE  (4u << 20)   /* Kineto's kBufSize */
#define TSC_PER_NS   3            /* the stand-in TSC's ticks per nanosecond */
#define MAX_BUFFERS  256

typedef struct
{
  uint8_t *data;
  size_t   valid;
  bool     ready;   /* handed back */
} Buffer;

static struct
{
  CUptiResult (*subscribe) (CUpti_SubscriberHandle *, CUpti_CallbackFunc, void *);
  CUptiResult (*subscribe_v2) (CUpti_SubscriberHandle *, CUpti_CallbackFunc, void *, CUpti_SubscriberParams *);
  CUptiResult (*get_version) (uint32_t *);
  CUptiResult (*register_callbacks) (CUpti_BuffersCallbackRequestFunc, CUpti_BuffersCallbackCompleteFunc);
  CUptiResult (*enable) (CUpti_ActivityKind);
  CUptiResult (*disable) (CUpti_ActivityKind);
  CUptiResult (*enable_runtime_api) (CUpti_CallbackId, uint8_t);
  CUptiResult (*enable_driver_api) (CUpti_CallbackId, uint8_t);
  CUptiResult (*flush_all) (uint32_t);
  CUptiResult (*next_record) (uint8_t *, size_t, CUpti_Activity **);
  CUptiResult (*register_timestamp) (CUpti_TimestampCallbackFunc);
  bool                   loaded;
  bool                   subscribe_tried;
  KinetoFlavour          flavour;
  pthread_mutex_t        lock;
  Buffer                 buffers[MAX_BUFFERS];
  unsigned               n_buffers;
  CUpti_SubscriberHandle subscriber;
  KinetoStandin          seen;
} kineto = { .lock = PTHREAD_MUTEX_INITIALIZER };

/* The kinds torch.profiler asks for with activities=[CPU, CUDA]. */
static const CUpti_ActivityKind kinds[] = {
  CUPTI_ACTIVITY_KIND_MEMCPY, CUPTI_ACTIVITY_KIND_MEMSET, CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL,
  CUPTI_ACTIVITY_KIND_EXTERNAL_CORRELATION, CUPTI_ACTIVITY_KIND_SYNCHRONIZATION, CUPTI_ACTIVITY_KIND_RUNTIME,
  CUPTI_ACTIVITY_KIND_DRIVER, CUPTI_ACTIVITY_KIND_OVERHEAD,
};

static void CUPTIAPI
on_callback (void                 *data,
             CUpti_CallbackDomain  domain,
             CUpti_CallbackId      cbid,
             const void           *info)
{
  /* Kineto's switchboard: nothing it needs here. */
}

static void CUPTIAPI
buffer_requested (uint8_t **buffer,
                  size_t   *size,
                  size_t   *max_records)
{
  uint8_t *memory = aligned_alloc (8, BUFFER_SIZE);

  *max_records = 0;
  pthread_mutex_lock (&kineto.lock);
  if (memory != NULL && kineto.n_buffers == MAX_BUFFERS)
    {
      free (memory);
      memory = NULL;
    }
  if (memory != NULL)
    kineto.buffers[kineto.n_buffers++] = (Buffer) { memory, 0, false };
  pthread_mutex_unlock (&kineto.lock);
  *buffer = memory;
  *size = memory != NULL ? BUFFER_SIZE : 0;
}

static void CUPTIAPI
buffer_completed (CUcontext  context,
                  uint32_t   stream,
                  uint8_t   *buffer,
                  size_t     size,
                  size_t     valid)
{
  bool known = false;

  pthread_mutex_lock (&kineto.lock);
  for (unsigned i = 0; i < kineto.n_buffers && !known; i++)
    if (kineto.buffers[i].data == buffer)
      {
        kineto.buffers[i].valid = valid;
        kineto.buffers[i].ready = true;
        known = true;
      }
  if (!known)
    kineto.seen.unknown_buffers++;   /* "bufferCompleted called with unknown buffer" */
  pthread_mutex_unlock (&kineto.lock);
}

/* Kineto's TSC clock: raw ticks, not nanoseconds. */
static uint64_t CUPTIAPI
tsc_ticks (void)
{
  struct timespec now;

  clock_gettime (CLOCK_MONOTONIC, &now);
  return ((uint64_t) now.tv_sec * 1000000000u + (uint64_t) now.tv_nsec) * TSC_PER_NS;
}

#define RESOLVE(field, name) (kineto.field = (__typeof__ (kineto.field)) dlsym (cupti, name))

void
kineto_standin_set_flavour (KinetoFlavour flavour)
{
  kineto.flavour = flavour;
}

static void
load (void *cupti)
{
  if (kineto.loaded)
    return;
  RESOLVE (subscribe, "cuptiSubscribe");
  RESOLVE (subscribe_v2, "cuptiSubscribe_v2");
  RESOLVE (get_version, "cuptiGetVersion");
  RESOLVE (register_callbacks, "cuptiActivityRegisterCallbacks");
  RESOLVE (enable, "cuptiActivityEnable");
  RESOLVE (disable, "cuptiActivityDisable");
  RESOLVE (enable_runtime_api, "cuptiActivityEnableRuntimeApi");
  RESOLVE (enable_driver_api, "cuptiActivityEnableDriverApi");
  RESOLVE (flush_all, "cuptiActivityFlushAll");
  RESOLVE (next_record, "cuptiActivityGetNextRecord");
  RESOLVE (register_timestamp, "cuptiActivityRegisterTimestampCallback");
  if (kineto.subscribe == NULL || kineto.subscribe_v2 == NULL || kineto.flush_all == NULL ||
      kineto.register_timestamp == NULL)
    {
      fprintf (stderr, "kineto-standin: the libcupti loaded lacks CUPTI's functions\n");
      exit (4);
    }
  kineto.loaded = true;
}

/* 2.11's subscription; the newer Kineto makes none. */
static void
subscribe (const char *name)
{
  if (kineto.flavour != KINETO_2_11 || kineto.subscribe_tried)
    return;
  kineto.subscribe_tried = true;
  if (name != NULL)
    {
      CUpti_SubscriberParams params = { CUpti_SubscriberParams_STRUCT_SIZE, name, NULL, 0 };

      kineto.seen.subscribe_result = kineto.subscribe_v2 (&kineto.subscriber, on_callback, NULL, &params);
    }
  else
    kineto.seen.subscribe_result = kineto.subscribe (&kineto.subscriber, on_callback, NULL);
  kineto.seen.cpu_only = kineto.seen.subscribe_result != CUPTI_SUCCESS;
}

void
kineto_standin_init (void       *cupti,
                     const char *name)
{
  load (cupti);
  subscribe (name);
  kineto.seen.initialised = true;
}

int
kineto_standin_start (void *cupti)
{
  uint32_t version = 0;

  if (!kineto.seen.initialised)
    kineto_standin_init (cupti, NULL);
  kineto.seen.tracing = true;
  if (kineto.seen.cpu_only)
    return 0;   /* the CPU side only: no CUPTI call */
  kineto.register_timestamp (tsc_ticks);
  kineto.get_version (&version);
  kineto.register_callbacks (buffer_requested, buffer_completed);
  for (unsigned i = 0; i < sizeof kinds / sizeof kinds[0]; i++)
    {
      kineto.enable (kinds[i]);
      if (kinds[i] == CUPTI_ACTIVITY_KIND_RUNTIME)
        kineto.enable_runtime_api (CUPTI_RUNTIME_TRACE_CBID_cudaGetDevice_v3020, 0);
      if (kinds[i] == CUPTI_ACTIVITY_KIND_DRIVER)
        {
          kineto.enable_driver_api (CUPTI_DRIVER_TRACE_CBID_cuKernelGetAttribute, 0);
          kineto.enable_driver_api (CUPTI_DRIVER_TRACE_CBID_cuDevicePrimaryCtxGetState, 0);
          kineto.enable_driver_api (CUPTI_DRIVER_TRACE_CBID_cuCtxGetCurrent, 0);
        }
    }
  return 0;
}

void
kineto_standin_stop (void)
{
  if (!kineto.seen.tracing)
    return;
  if (kineto.seen.cpu_only)
    {
      kineto.seen.tracing = false;
      return;
    }
  kineto.flush_all (0);
  for (unsigned i = 0; i < sizeof kinds / sizeof kinds[0]; i++)
    kineto.disable (kinds[i]);
  kineto.flush_all (CUPTI_ACTIVITY_FLAG_FLUSH_FORCED);
  pthread_mutex_lock (&kineto.lock);
  kineto.seen.kernels = kineto.seen.api_records = kineto.seen.records = 0;
  for (unsigned i = 0; i < kineto.n_buffers; i++)
    {
      CUpti_Activity *record = NULL;

      while (kineto.buffers[i].ready &&
             kineto.next_record (kineto.buffers[i].data, kineto.buffers[i].valid, &record) == CUPTI_SUCCESS)
        {
          kineto.seen.records++;
          if (record->kind == CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL || record->kind == CUPTI_ACTIVITY_KIND_KERNEL)
            kineto.seen.kernels++;
          if (record->kind == CUPTI_ACTIVITY_KIND_RUNTIME || record->kind == CUPTI_ACTIVITY_KIND_DRIVER)
            kineto.seen.api_records++;
        }
      /* Buffers CUPTI still holds stay allocated: it may yet hand them back. */
      if (kineto.buffers[i].ready)
        {
          free (kineto.buffers[i].data);
          kineto.buffers[i--] = kineto.buffers[--kineto.n_buffers];
        }
    }
  kineto.seen.tracing = false;
  pthread_mutex_unlock (&kineto.lock);
}

void
kineto_standin_get (KinetoStandin *out)
{
  pthread_mutex_lock (&kineto.lock);
  *out = kineto.seen;
  pthread_mutex_unlock (&kineto.lock);
}

bool
kineto_standin_owns (const void *requested,
                     const void *completed)
{
  return requested == (const void *) buffer_requested && completed == (const void *) buffer_completed;
}
