/* suanli-inject-cupti.c — CUPTI as the injection library's record source
 *
 * libcupti is found and loaded at the first START (suanli-inject-cupti-library.c), and its version
 * checked against the headers this was built with. START subscribes (the one subscriber CUPTI
 * allows: when another tool has it, START says who and touches nothing of theirs), takes OS thread
 * ids, enables the launch callbacks (for launch stacks) and the activity kinds, and starts a
 * decoding thread. CUPTI's buffer callbacks only take a buffer from a pool allocated at START and
 * hand finished ones to that thread: all the work on records happens there.
 *
 * PyTorch's profiler in the same job: 2.11's Kineto subscribes at its first run and, refused while
 * we hold the subscription, traces the CPU only (the capture keeps every kernel; the importer says
 * so of a PyTorch job). The Kineto after it never subscribes: a client that calls
 * cuptiActivityRegisterCallbacks after us takes the activity buffers over, and CUPTI gives no word
 * of it. The flush tick notices (launches seen, yet CUPTI neither asks us for a buffer nor hands one
 * back) and the capture ends, keeping what it has, leaving every CUPTI setting as the other client
 * needs it. The other way round (we START while it collects), its buffers come back to us: they are
 * counted, never read or freed, and the end record says so.
 *
 * START registers our own timestamp callback (CLOCK_REALTIME, CUPTI's default), so a TSC clock
 * another profiler left does not stamp our records in raw ticks.
 *
 * STOP disables what START enabled, forces a flush, drains the decoding thread and detaches CUPTI
 * (cuptiFinalize, at the exit of the job's next CUDA call as CUPTI advises, or after a short wait
 * when the job makes none), so the job is as idle as before its first capture.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define _GNU_SOURCE
#include "suanli-inject-cupti.h"

#include <errno.h>
#include <execinfo.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define BUFFER_SIZE      (1u << 20)   /* CUPTI's activity buffers: 1 MiB each */
#define POOL_BUFFERS     32
#define DRAIN_MS         2000         /* the decoding thread has this long to finish at STOP */
/* A launch writes at least a kernel record and an API record (216 + 40 bytes): a buffer holds 4,096
 * launches at most. This many launches with no buffer asked of us and none handed back to us, and
 * CUPTI is dealing with someone else. (A launch made during stream capture writes only its API
 * record, so thousands fit in one buffer; but those records are complete at once, and the regular
 * flush hands that buffer back to us: a capture of graphs is never silence on both counts.) */
#define TAKEOVER_LAUNCHES (3u * BUFFER_SIZE / 256u)
#define FINALIZE_WAIT_MS 200          /* a CUDA call's exit to detach CUPTI at, before doing it anyway */
#define DETACH_WAIT_MS   2000         /* a detach under way on a job's thread has this long to finish */

/* The detach STOP asks of the job's next CUDA call (finalize_wanted). */
enum { DETACH_NONE, DETACH_WANTED, DETACH_RUNNING };

typedef struct
{
  uint8_t  *buffer;
  size_t    valid;
  CUcontext context;
  uint32_t  stream;
} FinishedBuffer;

static struct
{
  CUpti_SubscriberHandle subscriber;
  SuanliInjectQueue     *queue;         /* the capture's, NULL outside one */
  pthread_mutex_t        pool_lock;     /* the pool and the finished buffers */
  pthread_cond_t         finished_ready;
  uint8_t               *pool[POOL_BUFFERS];
  unsigned               pool_free;     /* buffers in pool[0 .. pool_free) are free */
  FinishedBuffer         finished[POOL_BUFFERS];
  unsigned               n_finished;
  pthread_t              decoder;
  int                    decoding;      /* (atomic) the decoding thread runs while this is 1 */
  bool                   decoder_started;
  uint64_t               dropped;       /* (decoding thread) records CUPTI dropped in this capture */
  uint64_t               launches;      /* (atomic) launch callbacks in this capture */
  uint64_t               returned;      /* (atomic) buffers CUPTI handed back in this capture */
  uint64_t               launches_at_request;   /* (atomic) launches when CUPTI last asked us for a buffer */
  uint64_t               launches_at_return;    /* (atomic) launches when CUPTI last handed one back */
  bool                   taken;         /* another client took the activity buffers over */
  uint8_t               *owned[POOL_BUFFERS];   /* every buffer of this capture's pool */
  unsigned               n_owned;
  uint64_t               foreign;       /* (atomic) buffers handed to us that we never gave CUPTI */
  char                   note[512];     /* said in the end record of a capture that ends as asked */
  int                    finalize_wanted;   /* (atomic) a Detach state: detach at the next CUDA call's exit */
  bool                   driver_api_on;
} cupti = {
  .pool_lock = PTHREAD_MUTEX_INITIALIZER, .finished_ready = PTHREAD_COND_INITIALIZER,
};

/* Every kind the capture format has a record for. Never KERNEL: that one serialises kernels. API
 * calls: every runtime call but the chatty ones, and only the driver calls that launch. */
static const CUpti_ActivityKind enabled_kinds[] = {
  CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL,
  CUPTI_ACTIVITY_KIND_MEMCPY,
  CUPTI_ACTIVITY_KIND_MEMCPY2,
  CUPTI_ACTIVITY_KIND_MEMSET,
  CUPTI_ACTIVITY_KIND_RUNTIME,
  CUPTI_ACTIVITY_KIND_SYNCHRONIZATION,
  CUPTI_ACTIVITY_KIND_MARKER,
  CUPTI_ACTIVITY_KIND_OVERHEAD,
};

/* Runtime calls PyTorch makes around every operation that say nothing of the work: left out. */
static const CUpti_CallbackId quiet_runtime_calls[] = {
  CUPTI_RUNTIME_TRACE_CBID_cudaGetDevice_v3020, CUPTI_RUNTIME_TRACE_CBID_cudaSetDevice_v3020,
  CUPTI_RUNTIME_TRACE_CBID_cudaGetLastError_v3020, CUPTI_RUNTIME_TRACE_CBID_cudaPeekAtLastError_v3020,
  CUPTI_RUNTIME_TRACE_CBID_cudaGetDeviceCount_v3020, CUPTI_RUNTIME_TRACE_CBID_cudaDeviceGetAttribute_v5000,
  CUPTI_RUNTIME_TRACE_CBID_cudaStreamIsCapturing_v10000, CUPTI_RUNTIME_TRACE_CBID_cudaPointerGetAttributes_v4000,
  CUPTI_RUNTIME_TRACE_CBID_cudaFuncGetAttributes_v3020,
  /* around every <<<…>>> of CUDA 13's nvcc */
  CUPTI_RUNTIME_TRACE_CBID___cudaPushCallConfiguration_v13000, CUPTI_RUNTIME_TRACE_CBID___cudaPopCallConfiguration_v13000,
  CUPTI_RUNTIME_TRACE_CBID___cudaGetKernel_v13000,
};

/* Every way a kernel is launched, through the runtime... */
static const CUpti_CallbackId runtime_launches[] = {
  CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_v7000, CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_ptsz_v7000,
  CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernelExC_v11060, CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernelExC_ptsz_v11060,
  CUPTI_RUNTIME_TRACE_CBID_cudaLaunchCooperativeKernel_v9000,
  CUPTI_RUNTIME_TRACE_CBID_cudaLaunchCooperativeKernel_ptsz_v9000,
  CUPTI_RUNTIME_TRACE_CBID_cudaLaunchCooperativeKernelMultiDevice_v9000,
  CUPTI_RUNTIME_TRACE_CBID_cudaGraphLaunch_v10000, CUPTI_RUNTIME_TRACE_CBID_cudaGraphLaunch_ptsz_v10000,
  /* What CUDA 13's nvcc makes of <<<…>>> (and so PyTorch built for CUDA 13). */
  CUPTI_RUNTIME_TRACE_CBID___cudaLaunchKernel_v13000, CUPTI_RUNTIME_TRACE_CBID___cudaLaunchKernel_ptsz_v13000,
};

/* ...and through the driver (Triton, torch.compile's generated code, CUDA graphs). */
static const CUpti_CallbackId driver_launches[] = {
  CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel, CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel_ptsz,
  CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx, CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx_ptsz,
  CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel, CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel_ptsz,
  CUPTI_DRIVER_TRACE_CBID_cuGraphLaunch, CUPTI_DRIVER_TRACE_CBID_cuGraphLaunch_ptsz,
};

#define N_OF(array) (sizeof (array) / sizeof (array)[0])

/* A short wait in a loop that watches for something CUPTI does on another thread. */
static void
pause_briefly (void)
{
  struct timespec pause = { 0, 2 * 1000000 };

  nanosleep (&pause, NULL);
}

/* ---- buffers: CUPTI's callbacks only take and hand on ------------------------------------------- */

static void CUPTIAPI
buffer_requested (uint8_t **buffer,
                  size_t   *size,
                  size_t   *max_records)
{
  __atomic_store_n (&cupti.launches_at_request, __atomic_load_n (&cupti.launches, __ATOMIC_RELAXED), __ATOMIC_RELAXED);
  pthread_mutex_lock (&cupti.pool_lock);
  if (cupti.pool_free > 0)
    {
      *buffer = cupti.pool[--cupti.pool_free];
      *size = BUFFER_SIZE;
    }
  else
    {
      /* No allocation here: CUPTI drops (and counts) the records it has no buffer for. */
      *buffer = NULL;
      *size = 0;
    }
  *max_records = 0;
  pthread_mutex_unlock (&cupti.pool_lock);
}

/* Whether @buffer is one of this capture's (the pool lock is held). */
static bool
is_owned (const uint8_t *buffer)
{
  for (unsigned i = 0; i < cupti.n_owned; i++)
    if (cupti.owned[i] == buffer)
      return true;
  return false;
}

static void CUPTIAPI
buffer_completed (CUcontext  context,
                  uint32_t   stream,
                  uint8_t   *buffer,
                  size_t     size,
                  size_t     valid)
{
  pthread_mutex_lock (&cupti.pool_lock);
  if (!is_owned (buffer))
    {
      /* Another client's, still in CUPTI's hands when our START replaced its buffer callbacks (a
       * profiler that collects without subscribing, as newer PyTorch does): its memory and its
       * records are its own. Neither read nor freed; the capture says so at its end. */
      __atomic_add_fetch (&cupti.foreign, 1, __ATOMIC_RELAXED);
      pthread_mutex_unlock (&cupti.pool_lock);
      return;
    }
  pthread_mutex_unlock (&cupti.pool_lock);
  __atomic_store_n (&cupti.launches_at_return, __atomic_load_n (&cupti.launches, __ATOMIC_RELAXED), __ATOMIC_RELAXED);
  __atomic_add_fetch (&cupti.returned, 1, __ATOMIC_RELEASE);
  pthread_mutex_lock (&cupti.pool_lock);
  if (cupti.n_finished < POOL_BUFFERS)
    cupti.finished[cupti.n_finished++] = (FinishedBuffer) { buffer, valid, context, stream };
  else
    free (buffer);   /* not one of the pool's (cannot be: the pool has no more) */
  pthread_cond_signal (&cupti.finished_ready);
  pthread_mutex_unlock (&cupti.pool_lock);
}

/* The records CUPTI dropped for want of a buffer since the last look, as a drop record now. */
static void
report_cupti_drops (CUcontext context,
                    uint32_t  stream)
{
  size_t dropped = 0;

  if (suanli_cupti.get_num_dropped (context, stream, &dropped) != CUPTI_SUCCESS || dropped == 0)
    return;
  cupti.dropped += dropped;
  {
    SuanliCaptureDropped record;

    memset (&record, 0, sizeof record);
    suanli_capture_init_record (&record.record, SUANLI_CAPTURE_DROPPED, sizeof record);
    record.count = dropped;
    record.reason = SUANLI_DROPPED_BY_CUPTI;
    suanli_inject_queue_push (cupti.queue, &record, sizeof record);
  }
}

/* The decoding thread: finished buffers into records, then back to the pool. */
static void *
decoder_main (void *data)
{
  for (;;)
    {
      FinishedBuffer finished;
      bool running;

      pthread_mutex_lock (&cupti.pool_lock);
      while (cupti.n_finished == 0 && __atomic_load_n (&cupti.decoding, __ATOMIC_ACQUIRE))
        pthread_cond_wait (&cupti.finished_ready, &cupti.pool_lock);
      running = __atomic_load_n (&cupti.decoding, __ATOMIC_ACQUIRE);
      if (cupti.n_finished == 0)
        {
          pthread_mutex_unlock (&cupti.pool_lock);
          if (!running)
            break;
          continue;
        }
      finished = cupti.finished[0];
      memmove (cupti.finished, cupti.finished + 1, sizeof cupti.finished[0] * --cupti.n_finished);
      pthread_mutex_unlock (&cupti.pool_lock);

      if (finished.valid > 0)
        suanli_inject_cupti_decode_buffer (finished.buffer, finished.valid, NULL);
      /* Not under our lock: CUPTI's own lock is taken inside, and its callbacks take ours. */
      report_cupti_drops (finished.context, finished.stream);
      pthread_mutex_lock (&cupti.pool_lock);
      if (cupti.pool_free < POOL_BUFFERS)
        cupti.pool[cupti.pool_free++] = finished.buffer;
      else
        free (finished.buffer);
      pthread_mutex_unlock (&cupti.pool_lock);
    }
  report_cupti_drops (NULL, 0);
  return NULL;
}

/* Ends the decoding thread once it has decoded what it was given, within DRAIN_MS. */
static void
stop_decoder (void)
{
  struct timespec until;

  if (!cupti.decoder_started)
    return;
  pthread_mutex_lock (&cupti.pool_lock);
  __atomic_store_n (&cupti.decoding, 0, __ATOMIC_RELEASE);
  pthread_cond_signal (&cupti.finished_ready);
  pthread_mutex_unlock (&cupti.pool_lock);
  clock_gettime (CLOCK_REALTIME, &until);
  until.tv_sec += DRAIN_MS / 1000;
  if (pthread_timedjoin_np (cupti.decoder, NULL, &until) != 0)
    pthread_detach (cupti.decoder);   /* stuck in CUPTI: the job goes on without it */
  cupti.decoder_started = false;
}

static void
release_pool (void)
{
  pthread_mutex_lock (&cupti.pool_lock);
  for (unsigned i = 0; i < cupti.pool_free; i++)
    free (cupti.pool[i]);
  cupti.pool_free = 0;
  for (unsigned i = 0; i < cupti.n_finished; i++)
    free (cupti.finished[i].buffer);
  cupti.n_finished = 0;
  cupti.n_owned = 0;
  pthread_mutex_unlock (&cupti.pool_lock);
}

/* ---- callbacks: launch stacks, and the detach --------------------------------------------------- */

static __thread bool in_runtime_launch;   /* a runtime launch calls the driver's: one stack for both */

static bool
is_one_of (CUpti_CallbackId        id,
           const CUpti_CallbackId *ids,
           size_t                  n)
{
  for (size_t i = 0; i < n; i++)
    if (ids[i] == id)
      return true;
  return false;
}

/* Unsubscribes and detaches CUPTI from the job (cuptiFinalize, where this libcupti has it). */
static void
detach (void)
{
  CUpti_SubscriberHandle subscriber = __atomic_exchange_n (&cupti.subscriber, NULL, __ATOMIC_ACQ_REL);

  if (subscriber != NULL)
    suanli_cupti.unsubscribe (subscriber);
  if (suanli_cupti.finalize != NULL)
    suanli_cupti.finalize ();
}

/* Whether this thread takes the detach STOP asked for (then it is under way until it says done). */
static bool
take_detach (void)
{
  int wanted = DETACH_WANTED;

  return __atomic_compare_exchange_n (&cupti.finalize_wanted, &wanted, DETACH_RUNNING, false, __ATOMIC_ACQ_REL,
                                      __ATOMIC_ACQUIRE);
}

/* Until no detach is asked for or under way; one still asked for at @until is done here. Returns
 * false when one under way on a job's thread did not finish within DETACH_WAIT_MS more. */
static bool
settle_detach (uint64_t until)
{
  uint64_t running_until = until + DETACH_WAIT_MS;

  while (__atomic_load_n (&cupti.finalize_wanted, __ATOMIC_ACQUIRE) == DETACH_WANTED && suanli_inject_now_ms () < until)
    pause_briefly ();
  if (take_detach ())
    {
      detach ();
      __atomic_store_n (&cupti.finalize_wanted, DETACH_NONE, __ATOMIC_RELEASE);
    }
  while (__atomic_load_n (&cupti.finalize_wanted, __ATOMIC_ACQUIRE) == DETACH_RUNNING &&
         suanli_inject_now_ms () < running_until)
    pause_briefly ();
  return __atomic_load_n (&cupti.finalize_wanted, __ATOMIC_ACQUIRE) == DETACH_NONE;
}

static void CUPTIAPI
on_callback (void                   *data,
             CUpti_CallbackDomain    domain,
             CUpti_CallbackId        id,
             const void             *info)
{
  const CUpti_CallbackData *call = info;
  bool runtime = domain == CUPTI_CB_DOMAIN_RUNTIME_API;

  if (domain != CUPTI_CB_DOMAIN_RUNTIME_API && domain != CUPTI_CB_DOMAIN_DRIVER_API)
    return;
  /* After STOP: CUPTI detaches best at the exit of a CUDA call (its documentation's advice). */
  if (call->callbackSite == CUPTI_API_EXIT && take_detach ())
    {
      /* STOP waits for this to finish before it frees what cuptiFinalize may still hand back. */
      detach ();
      __atomic_store_n (&cupti.finalize_wanted, DETACH_NONE, __ATOMIC_RELEASE);
      return;
    }
  if (!(runtime ? is_one_of (id, runtime_launches, N_OF (runtime_launches))
                : is_one_of (id, driver_launches, N_OF (driver_launches))))
    return;
  if (call->callbackSite == CUPTI_API_ENTER)
    {
      /* A kernel launch (or a graph's), on the launching thread: where in the program it came from. */
      if (runtime || !in_runtime_launch)
        {
          suanli_inject_record_launch_stack (call->correlationId);
          __atomic_add_fetch (&cupti.launches, 1, __ATOMIC_RELAXED);
        }
      if (runtime)
        in_runtime_launch = true;
    }
  else if (runtime)
    in_runtime_launch = false;
}

static void
enable_launch_callbacks (uint32_t enable)
{
  for (unsigned i = 0; i < N_OF (runtime_launches); i++)
    suanli_cupti.enable_callback (enable, cupti.subscriber, CUPTI_CB_DOMAIN_RUNTIME_API, runtime_launches[i]);
  for (unsigned i = 0; i < N_OF (driver_launches); i++)
    suanli_cupti.enable_callback (enable, cupti.subscriber, CUPTI_CB_DOMAIN_DRIVER_API, driver_launches[i]);
}

static void
enable_driver_launch_records (uint8_t enable)
{
  if (suanli_cupti.enable_driver_api == NULL)
    return;
  for (unsigned i = 0; i < N_OF (driver_launches); i++)
    suanli_cupti.enable_driver_api (driver_launches[i], enable);
  cupti.driver_api_on = enable != 0;
}

/* ---- the source ---------------------------------------------------------------------------------- */

/* CUPTI's timestamps while we capture: CLOCK_REALTIME in nanoseconds, CUPTI's own default on Linux. */
static uint64_t CUPTIAPI
capture_clock (void)
{
  struct timespec now;

  clock_gettime (CLOCK_REALTIME, &now);
  return (uint64_t) now.tv_sec * 1000000000u + (uint64_t) now.tv_nsec;
}

/* Buffers of another client came back to us: our START replaced its buffer callbacks. */
static void
note_foreign_buffers (void)
{
  uint64_t foreign = __atomic_load_n (&cupti.foreign, __ATOMIC_RELAXED);
  size_t used = strlen (cupti.note);

  if (foreign == 0)
    return;
  snprintf (cupti.note + used, sizeof cupti.note - used,
            "%sanother CUPTI client was collecting GPU activity without a subscription when this capture "
            "started (PyTorch's profiler does, in releases after 2.11): CUPTI handed %llu of its buffers to "
            "this capture, so its own trace lacks the GPU work from then on",
            used > 0 ? "; " : "", (unsigned long long) foreign);
}

static int
subscribe (char   *error,
           size_t  error_size)
{
  char holder[CUPTI_OLD_SUBSCRIBER_NAME_MIN_LEN + 1] = "";
  CUptiResult result;

  if (suanli_cupti.subscribe_v2 != NULL)
    {
      CUpti_SubscriberParams params = { CUpti_SubscriberParams_STRUCT_SIZE, "Suanli", holder, sizeof holder - 1 };

      result = suanli_cupti.subscribe_v2 (&cupti.subscriber, on_callback, NULL, &params);
    }
  else
    result = suanli_cupti.subscribe (&cupti.subscriber, on_callback, NULL);
  if (result == CUPTI_SUCCESS)
    return 0;
  cupti.subscriber = NULL;
  if (result == CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED)
    snprintf (error, error_size, "another CUPTI client holds CUPTI in this job%s%s%s (PyTorch's profiler keeps it "
              "once it has run; or Nsight Systems, Nsight Compute, compute-sanitizer): nothing of it was touched",
              holder[0] != '\0' ? " (" : "", holder, holder[0] != '\0' ? ")" : "");
  else
    suanli_inject_cupti_quote (result, "cuptiSubscribe", error, error_size);
  return -1;
}

static void
disable_kinds (unsigned n)
{
  while (n-- > 0)
    suanli_cupti.disable (enabled_kinds[n]);
  if (cupti.driver_api_on)
    enable_driver_launch_records (0);
}

static int
cupti_start (SuanliInjectSource  *source,
             SuanliInjectQueue   *queue,
             SuanliCaptureHeader *header,
             SuanliCaptureDevice *devices,
             uint16_t            *n_devices,
             uint16_t             max_devices,
             char                *error,
             size_t               error_size)
{
  struct timespec before, after;
  uint64_t timestamp = 0;
  uint32_t version = 0;
  CUptiResult result;
  unsigned enabled = 0;

  *n_devices = 0;
  if (suanli_inject_cupti_load (error, error_size) != 0)
    return -1;
  if ((result = suanli_cupti.get_version (&version)) != CUPTI_SUCCESS)
    {
      suanli_inject_cupti_quote (result, "cuptiGetVersion", error, error_size);
      return -1;
    }
  if (suanli_inject_cupti_check_version (version, cupti.note, sizeof cupti.note, error, error_size) != 0)
    return -1;
  if (cupti.note[0] != '\0')
    suanli_inject_say ("%s", cupti.note);
  header->cupti_version = version;
  /* A detach asked for at the last STOP and not done yet is done now, before anything is set up. */
  if (!settle_detach (suanli_inject_now_ms ()))
    {
      snprintf (error, error_size, "the last capture's detach (cuptiFinalize) has not finished on the job's thread");
      return -1;
    }
  /* Nothing is touched before the subscription: a failure here leaves another client's CUPTI as it was. */
  if (subscribe (error, error_size) != 0)
    return -1;
  /* Our own clock, before any kind is on: another profiler in the job may have given CUPTI one that
   * counts raw TSC ticks (PyTorch's does), whose rate an offset alone cannot undo. Then the clock
   * CUPTI stamps with, against CLOCK_REALTIME. */
  if (suanli_cupti.register_timestamp != NULL &&
      (result = suanli_cupti.register_timestamp (capture_clock)) != CUPTI_SUCCESS)
    {
      suanli_inject_cupti_quote (result, "cuptiActivityRegisterTimestampCallback", error, error_size);
      goto failed;
    }
  clock_gettime (CLOCK_REALTIME, &before);
  result = suanli_cupti.get_timestamp (&timestamp);
  clock_gettime (CLOCK_REALTIME, &after);
  if (result != CUPTI_SUCCESS)
    {
      suanli_inject_cupti_quote (result, "cuptiGetTimestamp", error, error_size);
      goto failed;
    }
  header->clock_offset_ns = (int64_t) (((uint64_t) before.tv_sec * 1000000000u + (uint64_t) before.tv_nsec) / 2 +
                                       ((uint64_t) after.tv_sec * 1000000000u + (uint64_t) after.tv_nsec) / 2) -
                            (int64_t) timestamp;
  /* The OS's thread ids, the ones the job's CPU side and every other tool shows. */
  if ((result = suanli_cupti.set_thread_id_type (CUPTI_ACTIVITY_THREAD_ID_TYPE_SYSTEM)) != CUPTI_SUCCESS)
    {
      suanli_inject_cupti_quote (result, "cuptiSetThreadIdType", error, error_size);
      goto failed;
    }
  cupti.queue = queue;
  cupti.dropped = 0;
  cupti.taken = false;
  __atomic_store_n (&cupti.foreign, 0, __ATOMIC_RELAXED);
  __atomic_store_n (&cupti.launches, 0, __ATOMIC_RELAXED);
  __atomic_store_n (&cupti.returned, 0, __ATOMIC_RELAXED);
  __atomic_store_n (&cupti.launches_at_request, 0, __ATOMIC_RELAXED);
  __atomic_store_n (&cupti.launches_at_return, 0, __ATOMIC_RELAXED);
  suanli_inject_records_begin (queue);
  suanli_inject_forget_modules ();
  suanli_inject_send_new_modules (queue);
  pthread_mutex_lock (&cupti.pool_lock);
  for (; cupti.pool_free < POOL_BUFFERS; cupti.pool_free++)
    if ((cupti.pool[cupti.pool_free] = aligned_alloc (8, BUFFER_SIZE)) == NULL)
      break;
  cupti.n_owned = cupti.pool_free;
  memcpy (cupti.owned, cupti.pool, sizeof cupti.pool[0] * cupti.n_owned);
  pthread_mutex_unlock (&cupti.pool_lock);
  __atomic_store_n (&cupti.decoding, 1, __ATOMIC_RELEASE);
  if (pthread_create (&cupti.decoder, NULL, decoder_main, NULL) != 0)
    {
      snprintf (error, error_size, "cannot start the decoding thread");
      goto failed;
    }
  cupti.decoder_started = true;
  {
    void *warm_up[2];

    backtrace (warm_up, 2);   /* the first call loads the unwinder: not in a launch's way */
    suanli_inject_enable_python_stacks ();
    enable_launch_callbacks (1);
  }
  if ((result = suanli_cupti.register_callbacks (buffer_requested, buffer_completed)) != CUPTI_SUCCESS)
    {
      suanli_inject_cupti_quote (result, "cuptiActivityRegisterCallbacks", error, error_size);
      goto failed;
    }
  for (; enabled < N_OF (enabled_kinds); enabled++)
    if ((result = suanli_cupti.enable (enabled_kinds[enabled])) != CUPTI_SUCCESS)
      {
        suanli_inject_cupti_quote (result, "cuptiActivityEnable", error, error_size);
        goto failed;
      }
  if (suanli_cupti.enable_runtime_api != NULL)
    for (unsigned i = 0; i < N_OF (quiet_runtime_calls); i++)
      suanli_cupti.enable_runtime_api (quiet_runtime_calls[i], 0);
  enable_driver_launch_records (1);
  *n_devices = suanli_inject_query_devices (devices, max_devices);
  return 0;

failed:
  disable_kinds (enabled);
  stop_decoder ();
  detach ();
  cupti.queue = NULL;
  suanli_inject_records_begin (NULL);
  release_pool ();
  return -1;
}

static int
taken_over (char   *why,
            size_t  why_size)
{
  cupti.taken = true;
  snprintf (why, why_size, "another CUPTI client (PyTorch's profiler, most likely) took CUPTI's activity buffers over: "
            "the capture ended there, with what it had, and left CUPTI to it");
  return SUANLI_END_CUPTI_TAKEN;
}

/* Whether CUPTI has been asking someone else for buffers: launches enough to fill several, and no
 * request of ours (a request, unlike a buffer coming back, does not wait for the GPU's work). */
static bool
buffers_asked_elsewhere (void)
{
  uint64_t launches = __atomic_load_n (&cupti.launches, __ATOMIC_RELAXED);

  return launches - __atomic_load_n (&cupti.launches_at_request, __ATOMIC_RELAXED) > TAKEOVER_LAUNCHES &&
         launches - __atomic_load_n (&cupti.launches_at_return, __ATOMIC_RELAXED) > TAKEOVER_LAUNCHES;
}

/* Every SUANLI_INJECT_FLUSH_MS: hands finished buffers over, sends the modules the job loaded
 * since, and checks nobody took the buffers over. */
static int
cupti_flush (SuanliInjectSource *source,
             char               *why,
             size_t              why_size)
{
  suanli_cupti.flush_all (0);
  suanli_inject_send_new_modules (cupti.queue);
  return buffers_asked_elsewhere () ? taken_over (why, why_size) : -1;
}

/* At STOP: a forced flush hands back every buffer of ours; when launches came since the last one
 * and none comes back, another client has them (a short torch.profiler session, say). */
static int
forced_flush (char   *why,
              size_t  why_size)
{
  uint64_t returned = __atomic_load_n (&cupti.returned, __ATOMIC_ACQUIRE);
  bool launched_since = __atomic_load_n (&cupti.launches, __ATOMIC_RELAXED) !=
                        __atomic_load_n (&cupti.launches_at_return, __ATOMIC_RELAXED);

  suanli_cupti.flush_all (CUPTI_ACTIVITY_FLAG_FLUSH_FORCED);
  /* (on this thread; a little later, were CUPTI to do it on its own) */
  for (uint64_t until = suanli_inject_now_ms () + 100;
       __atomic_load_n (&cupti.returned, __ATOMIC_ACQUIRE) == returned && suanli_inject_now_ms () < until;)
    pause_briefly ();
  if (launched_since && __atomic_load_n (&cupti.returned, __ATOMIC_ACQUIRE) == returned)
    return taken_over (why, why_size);
  return -1;
}

static uint64_t
cupti_stop (SuanliInjectSource *source,
            char               *why,
            size_t              why_size,
            int                *reason)
{
  bool pool_safe = true;

  if (!cupti.taken && buffers_asked_elsewhere ())
    *reason = taken_over (why, why_size);
  if (!cupti.taken)
    {
      int ended = forced_flush (why, why_size);

      if (ended >= 0)
        *reason = ended;
    }
  if (cupti.taken)
    {
      /* Everything but our subscription is the other client's now: kinds, buffers, callbacks. */
      CUpti_SubscriberHandle subscriber = __atomic_exchange_n (&cupti.subscriber, NULL, __ATOMIC_ACQ_REL);

      enable_launch_callbacks (0);
      stop_decoder ();
      if (subscriber != NULL)
        suanli_cupti.unsubscribe (subscriber);
    }
  else
    {
      disable_kinds (N_OF (enabled_kinds));
      /* What came between the flush and the disable. Not under any lock of ours: flushing calls
       * buffer_completed, which takes one. */
      suanli_cupti.flush_all (CUPTI_ACTIVITY_FLAG_FLUSH_FORCED);
      stop_decoder ();
      enable_launch_callbacks (0);
      /* Detach at the exit of the job's next CUDA call, or here when it makes none soon. Not at the
       * job's exit: CUDA may be tearing down, and the process ends anyway. */
      if (suanli_inject_control_exiting ())
        {
          CUpti_SubscriberHandle subscriber = __atomic_exchange_n (&cupti.subscriber, NULL, __ATOMIC_ACQ_REL);

          if (subscriber != NULL)
            suanli_cupti.unsubscribe (subscriber);
        }
      else if (suanli_cupti.finalize != NULL && suanli_cupti.enable_domain != NULL)
        {
          __atomic_store_n (&cupti.finalize_wanted, DETACH_WANTED, __ATOMIC_RELEASE);
          suanli_cupti.enable_domain (1, cupti.subscriber, CUPTI_CB_DOMAIN_RUNTIME_API);
          suanli_cupti.enable_domain (1, cupti.subscriber, CUPTI_CB_DOMAIN_DRIVER_API);
          /* cuptiFinalize may still hand buffers back: the pool stays until it has returned. */
          pool_safe = settle_detach (suanli_inject_now_ms () + FINALIZE_WAIT_MS);
        }
      else
        detach ();
    }
  note_foreign_buffers ();
  if (!cupti.taken && cupti.note[0] != '\0')
    snprintf (why, why_size, "%s", cupti.note);
  cupti.dropped += suanli_inject_records_untimed ();
  cupti.queue = NULL;
  suanli_inject_records_begin (NULL);   /* a buffer CUPTI hands back late has nowhere to go */
  if (pool_safe)
    release_pool ();   /* (else kept: a detach stuck on a job's thread may still write into it) */
  return cupti.dropped;
}

static uint16_t
cupti_devices (SuanliInjectSource  *source,
               SuanliCaptureDevice *devices,
               uint16_t             max_devices)
{
  return suanli_inject_query_devices (devices, max_devices);
}

static SuanliInjectSource cupti_source = { cupti_start, cupti_flush, cupti_stop, NULL, cupti_devices };

SuanliInjectSource *
suanli_inject_cupti_source (void)
{
  return &cupti_source;
}
