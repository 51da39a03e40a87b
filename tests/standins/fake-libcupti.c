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

#include "fake-cupti.h"

#define CLOCK_AHEAD_NS   (3600ull * 1000000000ull)   /* the fake's clock: CLOCK_MONOTONIC an hour ahead */
#define LAUNCH_LATENCY_NS 3000u                      /* from a launch to its kernel's start */
#define STREAM_SLOTS     256                         /* streams are told apart modulo this */
#define NAME_SLOTS       1024
#define ALIGN8(size)     (((size) + 7u) & ~(size_t) 7u)

extern const char * const fake_cupti_runtime_names[CUPTI_RUNTIME_TRACE_CBID_SIZE];
extern const char * const fake_cupti_driver_names[CUPTI_DRIVER_TRACE_CBID_SIZE];
extern const char * const fake_cupti_result_names[];
extern const unsigned fake_cupti_n_result_names;

struct CUpti_Subscriber_st
{
  int unused;
};

/* A client's buffer while the fake writes into it or holds it. */
typedef struct FakeBuffer FakeBuffer;
struct FakeBuffer
{
  uint8_t    *data;
  size_t      size;
  size_t      used;
  size_t      max_records;   /* 0: as many as fit */
  size_t      records;
  unsigned    incomplete;    /* records whose work has not finished (a held stream's) */
  bool        handed_back;
  FakeBuffer *next;
};

/* A kernel record waiting for its held stream. */
typedef struct
{
  FakeBuffer *buffer;
  size_t      offset;
  uint32_t    stream;
  uint64_t    duration;
} Incomplete;

/* One API call in progress: its correlation id and start. */
typedef struct
{
  CUpti_CallbackDomain domain;
  CUpti_CallbackId     cbid;
  const char          *function;
  const char          *symbol;
  bool                 nested;     /* made by the runtime inside a runtime call: no API record */
  uint32_t             correlation;
  uint64_t             start;
  uint64_t             correlation_data;
} Call;

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

static struct
{
  /* Everything below. The buffer-requested callback is called with it held, as CUPTI calls it
   * under its own lock; it is an error-checking mutex so that a client calling back into CUPTI from
   * there is told so rather than hung. */
  pthread_mutex_t                    lock;
  pthread_cond_t                     wake;           /* the worker: a buffer may be ready */
  pthread_cond_t                     handed;         /* a delivery finished */
  bool                               worker_started;
  unsigned                           delivering;     /* deliveries in progress, any thread */
  uint32_t                           version;
  unsigned                           zero_every;     /* FAKE_CUPTI_ZERO_TIMESTAMPS */
  bool                               flush_hang;
  /* The subscriber. */
  bool                               subscribed;
  CUpti_CallbackFunc                 callback;
  void                              *userdata;
  char                               subscriber_name[64];
  uint8_t                            runtime_callbacks[CUPTI_RUNTIME_TRACE_CBID_SIZE];
  uint8_t                            driver_callbacks[CUPTI_DRIVER_TRACE_CBID_SIZE];
  /* Activity. */
  uint64_t                           kinds;
  uint8_t                            runtime_api[CUPTI_RUNTIME_TRACE_CBID_SIZE];
  uint8_t                            driver_api[CUPTI_DRIVER_TRACE_CBID_SIZE];
  CUpti_BuffersCallbackRequestFunc   requested;
  CUpti_BuffersCallbackCompleteFunc  completed;
  int                                thread_id_type;
  FakeBuffer                        *current;
  FakeBuffer                        *full;           /* retired, waiting to be handed back */
  Incomplete                        *incomplete;
  size_t                             n_incomplete;
  size_t                             incomplete_size;
  bool                               held[STREAM_SLOTS];
  uint64_t                           busy_until[STREAM_SLOTS];
  const char                        *names[NAME_SLOTS];
  size_t                             dropped_unread;
  int64_t                            grid_id;
  uint64_t                           kernels_written;
  FakeCuptiState                     counts;         /* its counters only */
} fake = {
  .lock = PTHREAD_ERRORCHECK_MUTEX_INITIALIZER_NP,
  .wake = PTHREAD_COND_INITIALIZER,
  .handed = PTHREAD_COND_INITIALIZER,
  .version = CUPTI_API_VERSION,
};

static struct CUpti_Subscriber_st the_subscriber;
static uint32_t next_correlation;
static uint64_t next_graph_node = (1ull << 32);
static pthread_mutex_t hang_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t never = PTHREAD_COND_INITIALIZER;

__attribute__ ((constructor)) static void
read_switches (void)
{
  const char *version = getenv ("FAKE_CUPTI_VERSION");
  const char *zeros = getenv ("FAKE_CUPTI_ZERO_TIMESTAMPS");
  const char *hang = getenv ("FAKE_CUPTI_FLUSH_HANG");

  if (version != NULL && *version != '\0')
    fake.version = (uint32_t) strtoul (version, NULL, 10);
  if (zeros != NULL)
    fake.zero_every = (unsigned) strtoul (zeros + strcspn (zeros, "0123456789"), NULL, 10);
  fake.flush_hang = hang != NULL && strcmp (hang, "1") == 0;
}

static void
lock (void)
{
  int error = pthread_mutex_lock (&fake.lock);

  if (error == EDEADLK)
    {
      fprintf (stderr, "fake libcupti: a CUPTI call from inside the buffer-requested callback, on the thread CUPTI "
                       "called it on: real CUPTI holds its lock there\n");
      abort ();
    }
}

static void
unlock (void)
{
  pthread_mutex_unlock (&fake.lock);
}

static uint64_t
now_ns (void)
{
  struct timespec now;

  clock_gettime (CLOCK_MONOTONIC, &now);
  return (uint64_t) now.tv_sec * 1000000000u + (uint64_t) now.tv_nsec + CLOCK_AHEAD_NS;
}

static uint32_t
thread_id (void)
{
  if (fake.thread_id_type == CUPTI_ACTIVITY_THREAD_ID_TYPE_SYSTEM)
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
      const char **slot = &fake.names[(hash + i) % NAME_SLOTS];

      if (*slot == NULL)
        *slot = strdup (name);
      if (*slot != NULL && strcmp (*slot, name) == 0)
        return *slot;
    }
  return "(more kernel names than the fake keeps)";
}

/* ---- buffers ------------------------------------------------------------------------------------- */

/* The current buffer goes to the full ones, for the worker. The lock is held. */
static void
retire_current (void)
{
  FakeBuffer **tail = &fake.full;

  if (fake.current == NULL)
    return;
  while (*tail != NULL)
    tail = &(*tail)->next;
  *tail = fake.current;
  fake.current = NULL;
  pthread_cond_signal (&fake.wake);
}

static void
drop (bool kernel)
{
  fake.dropped_unread++;
  fake.counts.records_dropped++;
  if (kernel)
    fake.counts.kernels_dropped++;
}

/* Room for a record of @size, zeroed, in the current buffer, asking the client for a buffer when
 * there is none; NULL when it gives none: the record is dropped and counted. The lock is held. */
static void *
reserve (size_t      size,
         bool        kernel,
         FakeBuffer **in)
{
  FakeBuffer *buffer = fake.current;
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

      if (fake.requested == NULL)
        {
          drop (kernel);
          return NULL;
        }
      fake.requested (&data, &buffer_size, &max_records);
      fake.counts.buffers_requested++;
      if (data == NULL)
        {
          drop (kernel);
          return NULL;
        }
      buffer = calloc (1, sizeof *buffer);
      if (buffer == NULL)
        abort ();
      *buffer = (FakeBuffer) { data, buffer_size, 0, max_records, 0, 0, false, NULL };
      fake.current = buffer;
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
  fake.counts.records_written++;
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

  if (current_too && fake.current != NULL && fake.current->records > 0 && (forced || fake.current->incomplete == 0))
    retire_current ();
  for (FakeBuffer **at = &fake.full; *at != NULL;)
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
  for (size_t i = 0; i < fake.n_incomplete;)
    if (fake.incomplete[i].buffer->handed_back)
      fake.incomplete[i] = fake.incomplete[--fake.n_incomplete];
    else
      i++;
  if (ready != NULL)
    fake.delivering++;
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
      lock ();
      completed = fake.completed;
      if (completed != NULL)
        fake.counts.buffers_completed++;
      unlock ();
      if (completed != NULL)
        completed (NULL, 0, buffer->data, buffer->size, buffer->used);
      free (buffer);
    }
  lock ();
  fake.delivering--;
  pthread_cond_broadcast (&fake.handed);
  unlock ();
}

static void *
worker_main (void *data)
{
  for (;;)
    {
      FakeBuffer *ready;

      lock ();
      while ((ready = take_ready (false, false)) == NULL)
        pthread_cond_wait (&fake.wake, &fake.lock);
      unlock ();
      hand_back (ready);
    }
  return NULL;
}

/* ---- records ------------------------------------------------------------------------------------- */

static bool
kind_enabled (CUpti_ActivityKind kind)
{
  return (fake.kinds & (1ull << kind)) != 0;
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

  lock ();
  if (!kind_enabled (CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL) && !kind_enabled (CUPTI_ACTIVITY_KIND_KERNEL))
    {
      unlock ();
      return;
    }
  if ((kernel = reserve (sizeof *kernel, true, &buffer)) == NULL)
    {
      unlock ();
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
  kernel->gridId = ++fake.grid_id;
  kernel->name = intern (name);
  kernel->launchType = launch_type;
  kernel->graphId = graph;
  kernel->graphNodeId = graph_node;
  kernel->channelType = CUPTI_CHANNEL_TYPE_COMPUTE;
  fake.kernels_written++;
  if (fake.held[slot])
    {
      /* Not run yet: its times come when the stream is let go. */
      if (fake.n_incomplete == fake.incomplete_size)
        {
          fake.incomplete_size = fake.incomplete_size > 0 ? fake.incomplete_size * 2 : 1024;
          fake.incomplete = realloc (fake.incomplete, fake.incomplete_size * sizeof *fake.incomplete);
          if (fake.incomplete == NULL)
            abort ();
        }
      fake.incomplete[fake.n_incomplete++] = (Incomplete) { buffer, (size_t) ((uint8_t *) kernel - buffer->data), stream,
                                                            duration };
      buffer->incomplete++;
    }
  else if (fake.zero_every == 0 || fake.kernels_written % fake.zero_every != 0)
    {
      uint64_t start = now_ns () + LAUNCH_LATENCY_NS;

      if (fake.busy_until[slot] > start)
        start = fake.busy_until[slot];
      kernel->start = start;
      kernel->end = kernel->completed = start + duration;
      fake.busy_until[slot] = kernel->end;
    }
  unlock ();
}

static void
write_api (const Call *call,
           uint64_t    finish)
{
  bool runtime = call->domain == CUPTI_CB_DOMAIN_RUNTIME_API;
  CUpti_ActivityAPI *api;
  FakeBuffer *buffer;

  lock ();
  if (call->nested || !(runtime ? fake.runtime_api[call->cbid] : fake.driver_api[call->cbid]) ||
      (api = reserve (sizeof *api, false, &buffer)) == NULL)
    {
      unlock ();
      return;
    }
  api->kind = runtime ? CUPTI_ACTIVITY_KIND_RUNTIME : CUPTI_ACTIVITY_KIND_DRIVER;
  api->cbid = call->cbid;
  api->start = call->start;
  api->end = finish;
  api->processId = (uint32_t) getpid ();
  api->threadId = thread_id ();
  api->correlationId = call->correlation;
  api->returnValue = 0;
  unlock ();
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

  lock ();
  if (fake.subscribed &&
      (call->domain == CUPTI_CB_DOMAIN_RUNTIME_API ? fake.runtime_callbacks : fake.driver_callbacks)[call->cbid])
    callback = fake.callback, userdata = fake.userdata;
  unlock ();
  if (callback == NULL)
    return;
  memset (&data, 0, sizeof data);
  data.callbackSite = site;
  data.functionName = call->function;
  data.functionReturnValue = site == CUPTI_API_EXIT ? (void *) &success : NULL;
  data.symbolName = call->symbol;
  data.context = (CUcontext) &the_subscriber;   /* one context, never dereferenced */
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

  lock ();
  if (!kind_enabled (kind))
    ;
  else if (kind == CUPTI_ACTIVITY_KIND_MEMCPY)
    {
      CUpti_ActivityMemcpy6 *copy = reserve (sizeof *copy, false, &buffer);

      if (copy != NULL)
        {
          copy->kind = kind, copy->copyKind = copy_kind, copy->flags = CUPTI_ACTIVITY_FLAG_MEMCPY_ASYNC;
          copy->srcKind = copy_kind == CUPTI_ACTIVITY_MEMCPY_KIND_HTOD ? CUPTI_ACTIVITY_MEMORY_KIND_PINNED
                                                                       : CUPTI_ACTIVITY_MEMORY_KIND_DEVICE;
          copy->dstKind = copy_kind == CUPTI_ACTIVITY_MEMCPY_KIND_DTOH ? CUPTI_ACTIVITY_MEMORY_KIND_PINNED
                                                                       : CUPTI_ACTIVITY_MEMORY_KIND_DEVICE;
          copy->bytes = bytes, copy->start = start, copy->end = finish;
          copy->contextId = 1, copy->streamId = stream, copy->correlationId = correlation;
          copy->channelType = CUPTI_CHANNEL_TYPE_COMPUTE;
        }
    }
  else
    {
      CUpti_ActivityMemset4 *set = reserve (sizeof *set, false, &buffer);

      if (set != NULL)
        {
          set->kind = kind, set->value = value, set->bytes = bytes, set->start = start, set->end = finish;
          set->contextId = 1, set->streamId = stream, set->correlationId = correlation;
          set->flags = CUPTI_ACTIVITY_FLAG_MEMSET_ASYNC, set->memoryKind = CUPTI_ACTIVITY_MEMORY_KIND_DEVICE;
        }
    }
  unlock ();
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
fake_cupti_hold_stream (uint32_t stream,
                        bool     held)
{
  unsigned slot = stream % STREAM_SLOTS;

  lock ();
  fake.held[slot] = held;
  if (!held)
    {
      /* The stream runs its queue now, one kernel after another. */
      uint64_t at = now_ns ();

      for (size_t i = 0; i < fake.n_incomplete;)
        {
          Incomplete *waiting = &fake.incomplete[i];

          if (waiting->stream % STREAM_SLOTS != slot)
            {
              i++;
              continue;
            }
          {
            CUpti_ActivityKernel10 *kernel = (CUpti_ActivityKernel10 *) (waiting->buffer->data + waiting->offset);

            kernel->start = at;
            kernel->end = kernel->completed = at + waiting->duration;
            at = kernel->end;
            waiting->buffer->incomplete--;
            fake.incomplete[i] = fake.incomplete[--fake.n_incomplete];
          }
        }
      if (fake.busy_until[slot] < at)
        fake.busy_until[slot] = at;
      pthread_cond_signal (&fake.wake);
    }
  unlock ();
}

void
fake_cupti_set_flush_hang (bool hang)
{
  lock ();
  fake.flush_hang = hang;
  unlock ();
}

void
fake_cupti_state (FakeCuptiState *state)
{
  lock ();
  *state = fake.counts;
  state->subscribed = fake.subscribed;
  snprintf (state->subscriber_name, sizeof state->subscriber_name, "%s", fake.subscriber_name);
  state->subscriber_callback = fake.subscribed ? (void *) fake.callback : NULL;
  state->runtime_callbacks = state->driver_callbacks = state->runtime_api_records = state->driver_api_records = 0;
  for (unsigned i = 0; i < CUPTI_RUNTIME_TRACE_CBID_SIZE; i++)
    state->runtime_callbacks += fake.runtime_callbacks[i], state->runtime_api_records += fake.runtime_api[i];
  for (unsigned i = 0; i < CUPTI_DRIVER_TRACE_CBID_SIZE; i++)
    state->driver_callbacks += fake.driver_callbacks[i], state->driver_api_records += fake.driver_api[i];
  state->kinds = fake.kinds;
  state->buffer_requested = (void *) fake.requested;
  state->buffer_completed = (void *) fake.completed;
  state->thread_id_type = fake.thread_id_type;
  state->buffers_held = fake.current != NULL;
  for (FakeBuffer *buffer = fake.full; buffer != NULL; buffer = buffer->next)
    state->buffers_held++;
  unlock ();
}

/* ---- CUPTI: version, results, names, time -------------------------------------------------------- */

CUptiResult CUPTIAPI
cuptiGetVersion (uint32_t *version)
{
  if (version == NULL)
    return CUPTI_ERROR_INVALID_PARAMETER;
  *version = fake.version;
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
  *timestamp = now_ns ();
  return CUPTI_SUCCESS;
}

CUptiResult CUPTIAPI
cuptiSetThreadIdType (CUpti_ActivityThreadIdType type)
{
  if ((unsigned) type >= CUPTI_ACTIVITY_THREAD_ID_TYPE_SIZE)
    return CUPTI_ERROR_NOT_SUPPORTED;
  lock ();
  fake.thread_id_type = type;
  unlock ();
  return CUPTI_SUCCESS;
}

CUptiResult CUPTIAPI
cuptiGetThreadIdType (CUpti_ActivityThreadIdType *type)
{
  if (type == NULL)
    return CUPTI_ERROR_INVALID_PARAMETER;
  lock ();
  *type = (CUpti_ActivityThreadIdType) fake.thread_id_type;
  unlock ();
  return CUPTI_SUCCESS;
}

/* ---- CUPTI: the subscriber ------------------------------------------------------------------------ */

CUptiResult CUPTIAPI
cuptiSubscribe_v2 (CUpti_SubscriberHandle *subscriber,
                   CUpti_CallbackFunc      callback,
                   void                   *userdata,
                   CUpti_SubscriberParams *params)
{
  if (subscriber == NULL || (params != NULL && params->structSize == 0))
    return CUPTI_ERROR_INVALID_PARAMETER;
  lock ();
  if (fake.subscribed)
    {
      if (params != NULL && params->oldSubscriberName != NULL && params->oldSubscriberSize > 0)
        snprintf (params->oldSubscriberName, params->oldSubscriberSize, "%s", fake.subscriber_name);
      unlock ();
      return CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED;
    }
  fake.subscribed = true;
  fake.callback = callback;
  fake.userdata = userdata;
  if (params != NULL && params->subscriberName != NULL)
    snprintf (fake.subscriber_name, sizeof fake.subscriber_name, "CUPTI for %.*s", CUPTI_SUBSCRIBER_NAME_MAX_LEN,
              params->subscriberName);
  else
    fake.subscriber_name[0] = '\0';
  unlock ();
  *subscriber = &the_subscriber;
  return CUPTI_SUCCESS;
}

CUptiResult CUPTIAPI
cuptiSubscribe (CUpti_SubscriberHandle *subscriber,
                CUpti_CallbackFunc      callback,
                void                   *userdata)
{
  return cuptiSubscribe_v2 (subscriber, callback, userdata, NULL);
}

/* The subscriber's callbacks forgotten. The lock is held. */
static void
forget_subscriber (void)
{
  fake.subscribed = false;
  fake.callback = NULL;
  fake.userdata = NULL;
  fake.subscriber_name[0] = '\0';
  memset (fake.runtime_callbacks, 0, sizeof fake.runtime_callbacks);
  memset (fake.driver_callbacks, 0, sizeof fake.driver_callbacks);
}

CUptiResult CUPTIAPI
cuptiUnsubscribe (CUpti_SubscriberHandle subscriber)
{
  CUptiResult result = CUPTI_ERROR_INVALID_PARAMETER;

  lock ();
  if (fake.subscribed && subscriber == &the_subscriber)
    {
      forget_subscriber ();
      result = CUPTI_SUCCESS;
    }
  unlock ();
  return result;
}

/* For a call about @subscriber's callbacks in @domain: the domain's switches (NULL for a domain
 * with no callbacks here) and how many; CUPTI_ERROR_INVALID_PARAMETER when the subscriber is not
 * the one subscribed or the domain is none. The lock is held. */
static CUptiResult
switches_of (CUpti_SubscriberHandle  subscriber,
             CUpti_CallbackDomain    domain,
             uint8_t               **switches,
             unsigned               *n)
{
  *switches = domain == CUPTI_CB_DOMAIN_RUNTIME_API ? fake.runtime_callbacks
              : domain == CUPTI_CB_DOMAIN_DRIVER_API ? fake.driver_callbacks : NULL;
  *n = domain == CUPTI_CB_DOMAIN_RUNTIME_API ? CUPTI_RUNTIME_TRACE_CBID_SIZE
       : domain == CUPTI_CB_DOMAIN_DRIVER_API ? CUPTI_DRIVER_TRACE_CBID_SIZE : 0;
  if (!fake.subscribed || subscriber != &the_subscriber || domain <= CUPTI_CB_DOMAIN_INVALID ||
      domain >= CUPTI_CB_DOMAIN_SIZE)
    return CUPTI_ERROR_INVALID_PARAMETER;
  return CUPTI_SUCCESS;
}

CUptiResult CUPTIAPI
cuptiEnableCallback (uint32_t               enable,
                     CUpti_SubscriberHandle subscriber,
                     CUpti_CallbackDomain   domain,
                     CUpti_CallbackId       cbid)
{
  uint8_t *switches;
  unsigned n;
  CUptiResult result;

  lock ();
  result = switches_of (subscriber, domain, &switches, &n);
  if (result == CUPTI_SUCCESS && switches != NULL && cbid >= n)
    result = CUPTI_ERROR_INVALID_PARAMETER;
  else if (result == CUPTI_SUCCESS && switches != NULL)
    switches[cbid] = enable != 0;
  unlock ();
  return result;
}

CUptiResult CUPTIAPI
cuptiEnableDomain (uint32_t               enable,
                   CUpti_SubscriberHandle subscriber,
                   CUpti_CallbackDomain   domain)
{
  uint8_t *switches;
  unsigned n;
  CUptiResult result;

  lock ();
  if ((result = switches_of (subscriber, domain, &switches, &n)) == CUPTI_SUCCESS && switches != NULL)
    memset (switches, enable != 0, n);
  unlock ();
  return result;
}

CUptiResult CUPTIAPI
cuptiEnableAllDomains (uint32_t               enable,
                       CUpti_SubscriberHandle subscriber)
{
  CUptiResult result = cuptiEnableDomain (enable, subscriber, CUPTI_CB_DOMAIN_RUNTIME_API);

  return result == CUPTI_SUCCESS ? cuptiEnableDomain (enable, subscriber, CUPTI_CB_DOMAIN_DRIVER_API) : result;
}

CUptiResult CUPTIAPI
cuptiGetCallbackState (uint32_t               *enable,
                       CUpti_SubscriberHandle  subscriber,
                       CUpti_CallbackDomain    domain,
                       CUpti_CallbackId        cbid)
{
  uint8_t *switches;
  unsigned n;
  CUptiResult result;

  lock ();
  result = switches_of (subscriber, domain, &switches, &n);
  if (result == CUPTI_SUCCESS && (enable == NULL || switches == NULL || cbid >= n))
    result = CUPTI_ERROR_INVALID_PARAMETER;
  else if (result == CUPTI_SUCCESS)
    *enable = switches[cbid];
  unlock ();
  return result;
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
  lock ();
  fake.kinds = on ? fake.kinds | 1ull << kind : fake.kinds & ~(1ull << kind);
  if (kind == CUPTI_ACTIVITY_KIND_RUNTIME)
    memset (fake.runtime_api, on, sizeof fake.runtime_api);
  if (kind == CUPTI_ACTIVITY_KIND_DRIVER)
    memset (fake.driver_api, on, sizeof fake.driver_api);
  unlock ();
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
  lock ();
  switches[cbid] = enable != 0;
  unlock ();
  return CUPTI_SUCCESS;
}

CUptiResult CUPTIAPI
cuptiActivityEnableRuntimeApi (CUpti_CallbackId cbid,
                               uint8_t          enable)
{
  return enable_api (fake.runtime_api, CUPTI_RUNTIME_TRACE_CBID_SIZE, cbid, enable);
}

CUptiResult CUPTIAPI
cuptiActivityEnableDriverApi (CUpti_CallbackId cbid,
                              uint8_t          enable)
{
  return enable_api (fake.driver_api, CUPTI_DRIVER_TRACE_CBID_SIZE, cbid, enable);
}

CUptiResult CUPTIAPI
cuptiActivityRegisterCallbacks (CUpti_BuffersCallbackRequestFunc  requested,
                                CUpti_BuffersCallbackCompleteFunc completed)
{
  bool start_worker;

  if (requested == NULL || completed == NULL)
    return CUPTI_ERROR_INVALID_PARAMETER;
  lock ();
  fake.requested = requested;
  fake.completed = completed;
  start_worker = !fake.worker_started;
  fake.worker_started = true;
  unlock ();
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

  lock ();
  fake.counts.flushes++;
  if (fake.flush_hang)
    {
      /* A flush that waits for a device that never answers. */
      unlock ();
      pthread_mutex_lock (&hang_lock);
      for (;;)
        pthread_cond_wait (&never, &hang_lock);
    }
  if (fake.requested == NULL)
    {
      unlock ();
      return CUPTI_ERROR_INVALID_OPERATION;
    }
  ready = take_ready ((flag & CUPTI_ACTIVITY_FLAG_FLUSH_FORCED) != 0, true);
  unlock ();
  hand_back (ready);
  /* Returns once every buffer that left the fake has been handed over, the worker's included. */
  lock ();
  while (fake.delivering > 0)
    pthread_cond_wait (&fake.handed, &fake.lock);
  unlock ();
  return CUPTI_SUCCESS;
}

CUptiResult CUPTIAPI
cuptiActivityGetNumDroppedRecords (CUcontext  context,
                                   uint32_t   stream,
                                   size_t    *dropped)
{
  if (dropped == NULL)
    return CUPTI_ERROR_INVALID_PARAMETER;
  lock ();
  *dropped = fake.dropped_unread;
  fake.dropped_unread = 0;
  unlock ();
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

  lock ();
  forget_subscriber ();
  fake.kinds = 0;
  memset (fake.runtime_api, 0, sizeof fake.runtime_api);
  memset (fake.driver_api, 0, sizeof fake.driver_api);
  fake.requested = NULL;
  fake.completed = NULL;
  fake.thread_id_type = CUPTI_ACTIVITY_THREAD_ID_TYPE_DEFAULT;
  /* What it held is never handed back: the client's memory is the client's loss. */
  retire_current ();
  while ((buffer = fake.full) != NULL)
    {
      fake.full = buffer->next;
      free (buffer);
    }
  fake.n_incomplete = 0;
  fake.dropped_unread = 0;
  fake.counts.finalized++;
  unlock ();
  return CUPTI_SUCCESS;
}
