/* fake-libcupti.c — a TEST DOUBLE of CUDA 13's libcupti.so.13, for a machine without a GPU
 *
 * What it models, and why each way (see fake-cupti.h for the calls that stand for GPU work):
 * - One subscriber at a time: a second cuptiSubscribe gets
 *   CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED, and cuptiSubscribe_v2 is told the holder's
 *   name ("CUPTI for <name>", "" when it gave none).
 * - One pair of buffer callbacks for the process: cuptiActivityRegisterCallbacks replaces the
 *   last pair, and a buffer is handed to whichever completed callback is registered when it is
 *   handed back, even one asked of an earlier client (how torch.profiler, starting, takes the
 *   buffers of a capture already running).
 * - Buffers: asked for (under CUPTI's lock, on the thread that needs room, as CUPTI does) when a
 *   record has nowhere to go; a NULL answer drops the record and counts it
 *   (cuptiActivityGetNumDroppedRecords). Records lie 8-byte aligned. A full buffer is handed back
 *   on the fake's worker thread once its records are complete; cuptiActivityFlushAll(0) hands back,
 *   on the calling thread, every buffer whose records are complete, full or not, and with
 *   CUPTI_ACTIVITY_FLAG_FLUSH_FORCED every buffer, incomplete records (zero times) and all.
 * - Thread ids in API records: pthread_self() cut to 32 bits by default, gettid() with
 *   CUPTI_ACTIVITY_THREAD_ID_TYPE_SYSTEM, as CUPTI documents.
 * - cuptiFinalize detaches: subscriber, kinds, per-API switches, callbacks and the thread-id type
 *   are forgotten, and buffers not yet handed back are never handed back.
 * - Names from CUDA's headers (fake-cupti-names.py): cuptiGetCallbackName("cudaLaunchKernel_v7000")
 *   and cuptiGetResultString are the real library's, word for word.
 * Left out: everything else CUPTI has (events, metrics, PC sampling, NVTX records, contexts other
 * than one, devices), and function parameters in callback data (NULL).
 *
 * It is one library built from three files: this one (its state, switches, clock, records and the
 * work a job's CUDA calls make, and CUPTI's version, names and time), fake-libcupti-buffers.c
 * (activity buffers and the activity API) and fake-libcupti-subscriber.c (the subscriber and its
 * callbacks); fake-libcupti-private.h is what they share.
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

typedef struct
{
  const char       *function;    /* what the job called */
  CUpti_CallbackId  runtime;     /* 0: a driver call made directly */
  CUpti_CallbackId  driver;
  const char       *driver_function;
  uint8_t           launch_type; /* CUpti_ActivityLaunchType */
} PathInfo;

static const PathInfo paths[FAKE_N_LAUNCH_PATHS] = {
  [FAKE_LAUNCH_CUDA_LAUNCH_KERNEL] = { "cudaLaunchKernel", CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_v7000,
                                       CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel, "cuLaunchKernel", 0 },
  [FAKE_LAUNCH_CUDA_LAUNCH_KERNEL_PTSZ] = { "cudaLaunchKernel_ptsz", CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_ptsz_v7000,
                                            CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel_ptsz, "cuLaunchKernel_ptsz", 0 },
  [FAKE_LAUNCH_CUDA_LAUNCH_KERNEL_EXC] = { "cudaLaunchKernelExC", CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernelExC_v11060,
                                           CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx, "cuLaunchKernelEx", 0 },
  [FAKE_LAUNCH_CUDA_LAUNCH_KERNEL_EXC_PTSZ] = { "cudaLaunchKernelExC_ptsz",
                                                CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernelExC_ptsz_v11060,
                                                CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx_ptsz, "cuLaunchKernelEx_ptsz", 0 },
  [FAKE_LAUNCH_CUDA_LAUNCH_COOPERATIVE] = { "cudaLaunchCooperativeKernel",
                                            CUPTI_RUNTIME_TRACE_CBID_cudaLaunchCooperativeKernel_v9000,
                                            CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel, "cuLaunchCooperativeKernel",
                                            CUPTI_ACTIVITY_LAUNCH_TYPE_COOPERATIVE_SINGLE_DEVICE },
  [FAKE_LAUNCH_CUDA_LAUNCH_COOPERATIVE_PTSZ] = { "cudaLaunchCooperativeKernel_ptsz",
                                                 CUPTI_RUNTIME_TRACE_CBID_cudaLaunchCooperativeKernel_ptsz_v9000,
                                                 CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel_ptsz,
                                                 "cuLaunchCooperativeKernel_ptsz",
                                                 CUPTI_ACTIVITY_LAUNCH_TYPE_COOPERATIVE_SINGLE_DEVICE },
  [FAKE_LAUNCH_CU_LAUNCH_KERNEL] = { "cuLaunchKernel", 0, CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel, "cuLaunchKernel", 0 },
  [FAKE_LAUNCH_CU_LAUNCH_KERNEL_PTSZ] = { "cuLaunchKernel_ptsz", 0, CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel_ptsz,
                                          "cuLaunchKernel_ptsz", 0 },
  [FAKE_LAUNCH_CU_LAUNCH_KERNEL_EX] = { "cuLaunchKernelEx", 0, CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx, "cuLaunchKernelEx",
                                        0 },
  [FAKE_LAUNCH_CU_LAUNCH_KERNEL_EX_PTSZ] = { "cuLaunchKernelEx_ptsz", 0, CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx_ptsz,
                                             "cuLaunchKernelEx_ptsz", 0 },
  [FAKE_LAUNCH_CU_LAUNCH_COOPERATIVE] = { "cuLaunchCooperativeKernel", 0, CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel,
                                          "cuLaunchCooperativeKernel", CUPTI_ACTIVITY_LAUNCH_TYPE_COOPERATIVE_SINGLE_DEVICE },
  [FAKE_LAUNCH_CU_LAUNCH_COOPERATIVE_PTSZ] = { "cuLaunchCooperativeKernel_ptsz", 0,
                                               CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel_ptsz,
                                               "cuLaunchCooperativeKernel_ptsz",
                                               CUPTI_ACTIVITY_LAUNCH_TYPE_COOPERATIVE_SINGLE_DEVICE },
  [FAKE_LAUNCH_CUDA_GRAPH_LAUNCH] = { "cudaGraphLaunch", CUPTI_RUNTIME_TRACE_CBID_cudaGraphLaunch_v10000,
                                      CUPTI_DRIVER_TRACE_CBID_cuGraphLaunch, "cuGraphLaunch", 0 },
  [FAKE_LAUNCH_CU_GRAPH_LAUNCH] = { "cuGraphLaunch", 0, CUPTI_DRIVER_TRACE_CBID_cuGraphLaunch, "cuGraphLaunch", 0 },
};

FakeCupti fake_cupti = {
  .lock = PTHREAD_ERRORCHECK_MUTEX_INITIALIZER_NP,
  .wake = PTHREAD_COND_INITIALIZER,
  .handed = PTHREAD_COND_INITIALIZER,
  .version = CUPTI_API_VERSION,
};

struct CUpti_Subscriber_st fake_cupti_subscriber;
static uint32_t next_correlation;
static uint64_t next_graph_node = (1ull << 32);

__attribute__ ((constructor)) static void
read_switches (void)
{
  const char *version = getenv ("FAKE_CUPTI_VERSION");
  const char *zeros = getenv ("FAKE_CUPTI_ZERO_TIMESTAMPS");
  const char *hang = getenv ("FAKE_CUPTI_FLUSH_HANG");
  const char *finalize = getenv ("FAKE_CUPTI_FINALIZE_MS");

  if (version != NULL && *version != '\0')
    fake_cupti.version = (uint32_t) strtoul (version, NULL, 10);
  if (zeros != NULL)
    fake_cupti.zero_every = (unsigned) strtoul (zeros + strcspn (zeros, "0123456789"), NULL, 10);
  fake_cupti.flush_hang = hang != NULL && strcmp (hang, "1") == 0;
  fake_cupti.finalize_ms = finalize != NULL ? (unsigned) strtoul (finalize, NULL, 10) : 0;
}

void
fake_cupti_lock (void)
{
  int error = pthread_mutex_lock (&fake_cupti.lock);

  if (error == EDEADLK)
    {
      fprintf (stderr, "fake libcupti: a CUPTI call from inside the buffer-requested callback, on the thread CUPTI "
                       "called it on: real CUPTI holds its lock there\n");
      abort ();
    }
}

void
fake_cupti_unlock (void)
{
  pthread_mutex_unlock (&fake_cupti.lock);
}

static uint64_t
now_ns (void)
{
  struct timespec now;

  clock_gettime (CLOCK_MONOTONIC, &now);
  return (uint64_t) now.tv_sec * 1000000000u + (uint64_t) now.tv_nsec + CLOCK_AHEAD_NS;
}

/* A time on the fake's own clock as the client sees it: through the timestamp callback it
 * registered, if any (cuptiActivityRegisterTimestampCallback), mapped as CUPTI maps the GPU's
 * times onto that clock: linearly, by the offset and rate read at registration. The lock is held. */
static uint64_t
client_time (uint64_t native)
{
  if (fake_cupti.timestamp == NULL)
    return native;
  return fake_cupti.timestamp_client +
         (uint64_t) (int64_t) ((double) (int64_t) (native - fake_cupti.timestamp_native) * fake_cupti.timestamp_rate);
}

static uint32_t
thread_id (void)
{
  if (fake_cupti.thread_id_type == CUPTI_ACTIVITY_THREAD_ID_TYPE_SYSTEM)
    return (uint32_t) syscall (SYS_gettid);
  return (uint32_t) (uintptr_t) pthread_self ();
}

/* A kernel name that outlives the buffers that point at it, as CUPTI's do. The lock is held. */
static const char *
intern (const char *name)
{
  unsigned hash = 5381;

  for (const char *c = name; *c != '\0'; c++)
    hash = hash * 33 + (unsigned char) *c;
  for (unsigned i = 0; i < NAME_SLOTS; i++)
    {
      const char **slot = &fake_cupti.names[(hash + i) % NAME_SLOTS];

      if (*slot == NULL)
        *slot = strdup (name);
      if (*slot != NULL && strcmp (*slot, name) == 0)
        return *slot;
    }
  return "(more kernel names than the fake keeps)";
}

/* ---- records ------------------------------------------------------------------------------------- */

static bool
kind_enabled (CUpti_ActivityKind kind)
{
  return (fake_cupti.kinds & (1ull << kind)) != 0;
}

static void
write_kernel (const char *name,
              uint32_t    stream,
              uint64_t    duration,
              uint32_t    correlation,
              uint8_t     launch_type,
              uint32_t    graph,
              uint64_t    graph_node)
{
  CUpti_ActivityKernel10 *kernel;
  FakeBuffer *buffer = NULL;
  unsigned slot = stream % STREAM_SLOTS;

  fake_cupti_lock ();
  /* A launch into a stream being captured runs nothing: it adds a node to the graph being built. */
  if ((!kind_enabled (CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL) && !kind_enabled (CUPTI_ACTIVITY_KIND_KERNEL)) ||
      fake_cupti.capturing[slot])
    {
      fake_cupti_unlock ();
      return;
    }
  if ((kernel = fake_cupti_reserve (sizeof *kernel, true, &buffer)) == NULL)
    {
      fake_cupti_unlock ();
      return;
    }
  kernel->kind = kind_enabled (CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL) ? CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL
                                                                      : CUPTI_ACTIVITY_KIND_KERNEL;
  kernel->registersPerThread = 32;
  kernel->deviceId = 0;
  kernel->contextId = 1;
  kernel->streamId = stream;
  kernel->gridX = 132, kernel->gridY = 1, kernel->gridZ = 1;
  kernel->blockX = 256, kernel->blockY = 1, kernel->blockZ = 1;
  kernel->staticSharedMemory = 1024;
  kernel->correlationId = correlation;
  kernel->gridId = ++fake_cupti.grid_id;
  kernel->name = intern (name);
  kernel->launchType = launch_type;
  kernel->graphId = graph;
  kernel->graphNodeId = graph_node;
  kernel->channelType = CUPTI_CHANNEL_TYPE_COMPUTE;
  fake_cupti.kernels_written++;
  if (fake_cupti.held[slot])
    {
      /* Not run yet: its times come when the stream is let go. */
      if (fake_cupti.n_incomplete == fake_cupti.incomplete_size)
        {
          fake_cupti.incomplete_size = fake_cupti.incomplete_size > 0 ? fake_cupti.incomplete_size * 2 : 1024;
          fake_cupti.incomplete = realloc (fake_cupti.incomplete, fake_cupti.incomplete_size * sizeof *fake_cupti.incomplete);
          if (fake_cupti.incomplete == NULL)
            abort ();
        }
      fake_cupti.incomplete[fake_cupti.n_incomplete++] = (Incomplete) { buffer, (size_t) ((uint8_t *) kernel - buffer->data), stream,
                                                            duration };
      buffer->incomplete++;
    }
  else if (fake_cupti.zero_every == 0 || fake_cupti.kernels_written % fake_cupti.zero_every != 0)
    {
      uint64_t start = now_ns () + LAUNCH_LATENCY_NS;

      if (fake_cupti.busy_until[slot] > start)
        start = fake_cupti.busy_until[slot];
      kernel->start = client_time (start);
      kernel->end = kernel->completed = client_time (start + duration);
      fake_cupti.busy_until[slot] = start + duration;
    }
  fake_cupti_unlock ();
}

static void
write_api (const Call *call,
           uint64_t    finish)
{
  bool runtime = call->domain == CUPTI_CB_DOMAIN_RUNTIME_API;
  CUpti_ActivityAPI *api;
  FakeBuffer *buffer;

  fake_cupti_lock ();
  if (call->nested || !(runtime ? fake_cupti.runtime_api[call->cbid] : fake_cupti.driver_api[call->cbid]) ||
      (api = fake_cupti_reserve (sizeof *api, false, &buffer)) == NULL)
    {
      fake_cupti_unlock ();
      return;
    }
  api->kind = runtime ? CUPTI_ACTIVITY_KIND_RUNTIME : CUPTI_ACTIVITY_KIND_DRIVER;
  api->cbid = call->cbid;
  api->start = client_time (call->start);
  api->end = client_time (finish);
  api->processId = (uint32_t) getpid ();
  api->threadId = thread_id ();
  api->correlationId = call->correlation;
  api->returnValue = 0;
  fake_cupti_unlock ();
}

/* The subscriber's callback for @call at @site, if it enabled that one. */
static void
issue_callback (Call                  *call,
                CUpti_ApiCallbackSite  site)
{
  static const int success = 0;
  CUpti_CallbackFunc callback = NULL;
  void *userdata = NULL;
  CUpti_CallbackData data;

  fake_cupti_lock ();
  if (fake_cupti.subscribed &&
      (call->domain == CUPTI_CB_DOMAIN_RUNTIME_API ? fake_cupti.runtime_callbacks : fake_cupti.driver_callbacks)[call->cbid])
    callback = fake_cupti.callback, userdata = fake_cupti.userdata;
  fake_cupti_unlock ();
  if (callback == NULL)
    return;
  memset (&data, 0, sizeof data);
  data.callbackSite = site;
  data.functionName = call->function;
  data.functionReturnValue = site == CUPTI_API_EXIT ? (void *) &success : NULL;
  data.symbolName = call->symbol;
  data.context = (CUcontext) &fake_cupti_subscriber;   /* one context, never dereferenced */
  data.contextUid = 1;
  data.correlationData = &call->correlation_data;
  data.correlationId = call->correlation;
  callback (userdata, call->domain, call->cbid, &data);
}

static void
begin_call (Call                 *call,
       CUpti_CallbackDomain  domain,
       CUpti_CallbackId      cbid,
       const char           *function,
       const char           *symbol,
       bool                  nested)
{
  *call = (Call) { domain, cbid, function, symbol, nested, __atomic_add_fetch (&next_correlation, 1, __ATOMIC_RELAXED),
                   now_ns (), 0 };
  issue_callback (call, CUPTI_API_ENTER);
}

static void
finish_call (Call *call)
{
  uint64_t at = now_ns ();

  issue_callback (call, CUPTI_API_EXIT);
  write_api (call, at);
}

/* ---- the work: what a job's CUDA calls make ------------------------------------------------------ */

const char *
fake_cupti_launch_path_name (FakeLaunchPath path)
{
  return path < FAKE_N_LAUNCH_PATHS ? paths[path].function : NULL;
}

int
fake_cupti_launch_path_from_name (const char *name)
{
  for (int i = 0; i < FAKE_N_LAUNCH_PATHS; i++)
    if (strcmp (paths[i].function, name) == 0)
      return i;
  return -1;
}

/* The runtime call and its driver call, or the driver call alone, around @work. */
static uint32_t
call_path (FakeLaunchPath  path,
           const char     *symbol,
           void          (*work) (uint32_t correlation, const PathInfo *info, void *data),
           void           *data)
{
  const PathInfo *info = &paths[path];
  Call outer, inner;

  if (info->runtime != 0)
    {
      begin_call (&outer, CUPTI_CB_DOMAIN_RUNTIME_API, info->runtime, info->function, symbol, false);
      begin_call (&inner, CUPTI_CB_DOMAIN_DRIVER_API, info->driver, info->driver_function, symbol, true);
      work (outer.correlation, info, data);
      finish_call (&inner);
      finish_call (&outer);
      return outer.correlation;
    }
  begin_call (&outer, CUPTI_CB_DOMAIN_DRIVER_API, info->driver, info->driver_function, symbol, false);
  work (outer.correlation, info, data);
  finish_call (&outer);
  return outer.correlation;
}

typedef struct
{
  const char         *name;
  const char * const *names;
  unsigned            n_nodes;
  uint32_t            graph;
  uint32_t            stream;
  uint64_t            duration;
  uint64_t           *node_ids;
} Work;

static void
run_kernel (uint32_t        correlation,
            const PathInfo *info,
            void           *data)
{
  const Work *work = data;

  write_kernel (work->name, work->stream, work->duration, correlation, info->launch_type, 0, 0);
}

static void
run_graph (uint32_t        correlation,
           const PathInfo *info,
           void           *data)
{
  const Work *work = data;

  for (unsigned i = 0; i < work->n_nodes; i++)
    {
      uint64_t node = __atomic_add_fetch (&next_graph_node, 1, __ATOMIC_RELAXED);

      if (work->node_ids != NULL)
        work->node_ids[i] = node;
      write_kernel (work->names[i], work->stream, work->duration, correlation, 0, work->graph, node);
    }
}

uint32_t
fake_cupti_launch (FakeLaunchPath  path,
                   const char     *mangled_name,
                   uint32_t        stream,
                   uint64_t        duration_ns)
{
  Work work = { mangled_name, NULL, 0, 0, stream, duration_ns, NULL };

  if (path >= FAKE_N_LAUNCH_PATHS || path == FAKE_LAUNCH_CUDA_GRAPH_LAUNCH || path == FAKE_LAUNCH_CU_GRAPH_LAUNCH)
    return 0;
  return call_path (path, mangled_name, run_kernel, &work);
}

uint32_t
fake_cupti_graph_launch (FakeLaunchPath      path,
                         uint32_t            graph_id,
                         const char * const *mangled_names,
                         unsigned            n_nodes,
                         uint32_t            stream,
                         uint64_t           *node_ids)
{
  Work work = { NULL, mangled_names, n_nodes, graph_id, stream, 2000, node_ids };

  if (path != FAKE_LAUNCH_CUDA_GRAPH_LAUNCH && path != FAKE_LAUNCH_CU_GRAPH_LAUNCH)
    return 0;
  return call_path (path, NULL, run_graph, &work);
}

static void
run_copy (CUpti_ActivityKind kind,
          uint8_t            copy_kind,
          uint64_t           bytes,
          uint32_t           value,
          uint32_t           stream,
          uint32_t           correlation)
{
  FakeBuffer *buffer;
  uint64_t start = now_ns () + LAUNCH_LATENCY_NS, finish = start + 1000 + bytes / 20;   /* 20 GB/s */

  fake_cupti_lock ();
  if (!kind_enabled (kind))
    ;
  else if (kind == CUPTI_ACTIVITY_KIND_MEMCPY)
    {
      CUpti_ActivityMemcpy6 *copy = fake_cupti_reserve (sizeof *copy, false, &buffer);

      if (copy != NULL)
        {
          copy->kind = kind, copy->copyKind = copy_kind, copy->flags = CUPTI_ACTIVITY_FLAG_MEMCPY_ASYNC;
          copy->srcKind = copy_kind == CUPTI_ACTIVITY_MEMCPY_KIND_HTOD ? CUPTI_ACTIVITY_MEMORY_KIND_PINNED
                                                                       : CUPTI_ACTIVITY_MEMORY_KIND_DEVICE;
          copy->dstKind = copy_kind == CUPTI_ACTIVITY_MEMCPY_KIND_DTOH ? CUPTI_ACTIVITY_MEMORY_KIND_PINNED
                                                                       : CUPTI_ACTIVITY_MEMORY_KIND_DEVICE;
          copy->bytes = bytes, copy->start = client_time (start), copy->end = client_time (finish);
          copy->contextId = 1, copy->streamId = stream, copy->correlationId = correlation;
          copy->channelType = CUPTI_CHANNEL_TYPE_COMPUTE;
        }
    }
  else
    {
      CUpti_ActivityMemset4 *set = fake_cupti_reserve (sizeof *set, false, &buffer);

      if (set != NULL)
        {
          set->kind = kind, set->value = value, set->bytes = bytes, set->start = client_time (start);
          set->end = client_time (finish);
          set->contextId = 1, set->streamId = stream, set->correlationId = correlation;
          set->flags = CUPTI_ACTIVITY_FLAG_MEMSET_ASYNC, set->memoryKind = CUPTI_ACTIVITY_MEMORY_KIND_DEVICE;
        }
    }
  fake_cupti_unlock ();
}

uint32_t
fake_cupti_memcpy (uint8_t   copy_kind,
                   uint64_t  bytes,
                   uint32_t  stream)
{
  CUpti_CallbackId driver = copy_kind == CUPTI_ACTIVITY_MEMCPY_KIND_HTOD ? CUPTI_DRIVER_TRACE_CBID_cuMemcpyHtoDAsync_v2
                            : copy_kind == CUPTI_ACTIVITY_MEMCPY_KIND_DTOH ? CUPTI_DRIVER_TRACE_CBID_cuMemcpyDtoHAsync_v2
                                                                            : CUPTI_DRIVER_TRACE_CBID_cuMemcpyAsync;
  Call outer, inner;

  begin_call (&outer, CUPTI_CB_DOMAIN_RUNTIME_API, CUPTI_RUNTIME_TRACE_CBID_cudaMemcpyAsync_v3020, "cudaMemcpyAsync", NULL,
         false);
  begin_call (&inner, CUPTI_CB_DOMAIN_DRIVER_API, driver, fake_cupti_driver_names[driver], NULL, true);
  run_copy (CUPTI_ACTIVITY_KIND_MEMCPY, copy_kind, bytes, 0, stream, outer.correlation);
  finish_call (&inner);
  finish_call (&outer);
  return outer.correlation;
}

uint32_t
fake_cupti_memset (uint64_t  bytes,
                   uint32_t  value,
                   uint32_t  stream)
{
  Call outer, inner;

  begin_call (&outer, CUPTI_CB_DOMAIN_RUNTIME_API, CUPTI_RUNTIME_TRACE_CBID_cudaMemsetAsync_v3020, "cudaMemsetAsync", NULL,
         false);
  begin_call (&inner, CUPTI_CB_DOMAIN_DRIVER_API, CUPTI_DRIVER_TRACE_CBID_cuMemsetD8Async, "cuMemsetD8Async", NULL, true);
  run_copy (CUPTI_ACTIVITY_KIND_MEMSET, 0, bytes, value, stream, outer.correlation);
  finish_call (&inner);
  finish_call (&outer);
  return outer.correlation;
}

void
fake_cupti_capture_stream (uint32_t stream,
                           bool     capturing)
{
  fake_cupti_lock ();
  fake_cupti.capturing[stream % STREAM_SLOTS] = capturing;
  fake_cupti_unlock ();
}

CUptiResult CUPTIAPI
cuptiActivityRegisterTimestampCallback (CUpti_TimestampCallbackFunc callback)
{
  struct timespec pause = { 0, 2000000 };
  uint64_t client[2], native[2];

  if (callback == NULL)
    return CUPTI_ERROR_INVALID_PARAMETER;
  /* Two readings of both clocks 2 ms apart give the callback's rate (not under the lock: the
   * callback is the client's code). */
  for (int i = 0; i < 2; i++)
    {
      if (i > 0)
        nanosleep (&pause, NULL);
      client[i] = callback ();
      native[i] = now_ns ();
    }
  fake_cupti_lock ();
  fake_cupti.timestamp = callback;
  fake_cupti.timestamp_native = native[1];
  fake_cupti.timestamp_client = client[1];
  fake_cupti.timestamp_rate = (double) (client[1] - client[0]) / (double) (native[1] - native[0]);
  fake_cupti_unlock ();
  return CUPTI_SUCCESS;
}

void
fake_cupti_hold_stream (uint32_t stream,
                        bool     held)
{
  unsigned slot = stream % STREAM_SLOTS;

  fake_cupti_lock ();
  fake_cupti.held[slot] = held;
  if (!held)
    {
      /* The stream runs its queue now, one kernel after another. */
      uint64_t at = now_ns ();

      for (size_t i = 0; i < fake_cupti.n_incomplete;)
        {
          Incomplete *waiting = &fake_cupti.incomplete[i];

          if (waiting->stream % STREAM_SLOTS != slot)
            {
              i++;
              continue;
            }
          {
            CUpti_ActivityKernel10 *kernel = (CUpti_ActivityKernel10 *) (waiting->buffer->data + waiting->offset);

            kernel->start = client_time (at);
            kernel->end = kernel->completed = client_time (at + waiting->duration);
            at += waiting->duration;
            waiting->buffer->incomplete--;
            fake_cupti.incomplete[i] = fake_cupti.incomplete[--fake_cupti.n_incomplete];
          }
        }
      if (fake_cupti.busy_until[slot] < at)
        fake_cupti.busy_until[slot] = at;
      pthread_cond_signal (&fake_cupti.wake);
    }
  fake_cupti_unlock ();
}

void
fake_cupti_set_flush_hang (bool hang)
{
  fake_cupti_lock ();
  fake_cupti.flush_hang = hang;
  fake_cupti_unlock ();
}

void
fake_cupti_state (FakeCuptiState *state)
{
  fake_cupti_lock ();
  *state = fake_cupti.counts;
  state->subscribed = fake_cupti.subscribed;
  snprintf (state->subscriber_name, sizeof state->subscriber_name, "%s", fake_cupti.subscriber_name);
  state->subscriber_callback = fake_cupti.subscribed ? (void *) fake_cupti.callback : NULL;
  state->runtime_callbacks = state->driver_callbacks = state->runtime_api_records = state->driver_api_records = 0;
  for (unsigned i = 0; i < CUPTI_RUNTIME_TRACE_CBID_SIZE; i++)
    state->runtime_callbacks += fake_cupti.runtime_callbacks[i], state->runtime_api_records += fake_cupti.runtime_api[i];
  for (unsigned i = 0; i < CUPTI_DRIVER_TRACE_CBID_SIZE; i++)
    state->driver_callbacks += fake_cupti.driver_callbacks[i], state->driver_api_records += fake_cupti.driver_api[i];
  state->kinds = fake_cupti.kinds;
  state->buffer_requested = (void *) fake_cupti.requested;
  state->buffer_completed = (void *) fake_cupti.completed;
  state->thread_id_type = fake_cupti.thread_id_type;
  state->buffers_held = fake_cupti.current != NULL;
  for (FakeBuffer *buffer = fake_cupti.full; buffer != NULL; buffer = buffer->next)
    state->buffers_held++;
  fake_cupti_unlock ();
}

/* ---- CUPTI: version, results, names, time -------------------------------------------------------- */

CUptiResult CUPTIAPI
cuptiGetVersion (uint32_t *version)
{
  if (version == NULL)
    return CUPTI_ERROR_INVALID_PARAMETER;
  *version = fake_cupti.version;
  return CUPTI_SUCCESS;
}

CUptiResult CUPTIAPI
cuptiGetResultString (CUptiResult  result,
                      const char **text)
{
  if (text == NULL)
    return CUPTI_ERROR_INVALID_PARAMETER;
  if ((unsigned) result < fake_cupti_n_result_names && fake_cupti_result_names[result] != NULL)
    {
      *text = fake_cupti_result_names[result];
      return CUPTI_SUCCESS;
    }
  *text = "<unknown>";
  return CUPTI_ERROR_INVALID_PARAMETER;
}

CUptiResult CUPTIAPI
cuptiGetCallbackName (CUpti_CallbackDomain   domain,
                      uint32_t               cbid,
                      const char           **name)
{
  if (name == NULL)
    return CUPTI_ERROR_INVALID_PARAMETER;
  *name = NULL;
  if (domain == CUPTI_CB_DOMAIN_RUNTIME_API && cbid < CUPTI_RUNTIME_TRACE_CBID_SIZE)
    *name = fake_cupti_runtime_names[cbid];
  else if (domain == CUPTI_CB_DOMAIN_DRIVER_API && cbid < CUPTI_DRIVER_TRACE_CBID_SIZE)
    *name = fake_cupti_driver_names[cbid];
  return *name != NULL ? CUPTI_SUCCESS : CUPTI_ERROR_INVALID_PARAMETER;
}

CUptiResult CUPTIAPI
cuptiGetTimestamp (uint64_t *timestamp)
{
  if (timestamp == NULL)
    return CUPTI_ERROR_INVALID_PARAMETER;
  fake_cupti_lock ();
  *timestamp = client_time (now_ns ());
  fake_cupti_unlock ();
  return CUPTI_SUCCESS;
}

CUptiResult CUPTIAPI
cuptiSetThreadIdType (CUpti_ActivityThreadIdType type)
{
  if ((unsigned) type >= CUPTI_ACTIVITY_THREAD_ID_TYPE_SIZE)
    return CUPTI_ERROR_NOT_SUPPORTED;
  fake_cupti_lock ();
  fake_cupti.thread_id_type = type;
  fake_cupti_unlock ();
  return CUPTI_SUCCESS;
}

CUptiResult CUPTIAPI
cuptiGetThreadIdType (CUpti_ActivityThreadIdType *type)
{
  if (type == NULL)
    return CUPTI_ERROR_INVALID_PARAMETER;
  fake_cupti_lock ();
  *type = (CUpti_ActivityThreadIdType) fake_cupti.thread_id_type;
  fake_cupti_unlock ();
  return CUPTI_SUCCESS;
}
