/* suanli-inject-records.c — CUPTI's activity records into the capture format
 *
 * On the library's decoding thread (never in CUPTI's callbacks): each finished buffer is walked
 * with cuptiActivityGetNextRecord and its records go to the queue in the capture format, names
 * interned as string records the first time they are seen in a capture. A record CUPTI could not
 * time (a start or end of 0, as it writes for work cut off by a flush) is left out: it would draw
 * from the epoch. API calls carry CUPTI's own names for them, without the version suffix.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define _GNU_SOURCE
#include "suanli-inject-cupti.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define NAME_SLOTS    (1u << 14)   /* interned names; past that, names go unshared (each time) */
#define OPEN_MARKERS  256          /* NVTX ranges open at once, waiting for their end */
#define API_NAMES     1024         /* callback ids whose names are kept, per domain */

typedef struct
{
  uint64_t    start;
  uint32_t    id;
  uint32_t    thread;
  uint32_t    name;
} OpenMarker;

static struct
{
  SuanliInjectQueue *queue;           /* NULL outside a capture */
  pthread_mutex_t    lock;            /* all of this: the decoding thread, or a test */
  const char        *names[NAME_SLOTS];
  uint32_t           name_ids[NAME_SLOTS];
  OpenMarker         markers[OPEN_MARKERS];
  unsigned           n_markers;
  char              *api_names[2][API_NAMES];   /* [runtime, driver][cbid], without "_v7000" */
  uint64_t           untimed;         /* records left out for want of times, in this buffer */
  uint64_t           untimed_total;   /* and in this capture */
} records = { .lock = PTHREAD_MUTEX_INITIALIZER };

/* ---- devices ------------------------------------------------------------------------------------- */

typedef CUresult (*DeviceGetCount) (int *);
typedef CUresult (*DeviceGet) (CUdevice *, int);
typedef CUresult (*DeviceGetName) (char *, int, CUdevice);
typedef CUresult (*DeviceGetAttribute) (int *, CUdevice_attribute, CUdevice);
typedef CUresult (*DeviceTotalMem) (size_t *, CUdevice);

/* The CUDA driver the job has loaded. cudart opens libcuda.so.1 RTLD_LOCAL, so its symbols are not
 * in the global scope (dlsym (RTLD_DEFAULT) misses them): it is found by its soname among the
 * loaded objects, never loaded. NULL when the job has no driver loaded by that name. */
static void *
loaded_driver (void)
{
  return dlopen ("libcuda.so.1", RTLD_LAZY | RTLD_NOLOAD);
}

/**
 * suanli_inject_query_devices:
 *
 * The job's GPUs, from the CUDA driver it has loaded already (the library is injected at cuInit):
 * looked up in the process, never loaded. Returns: how many were filled in; 0 without a driver.
 */
uint16_t
suanli_inject_query_devices (SuanliCaptureDevice *devices,
                             uint16_t             max_devices)
{
  void *driver = loaded_driver ();
  void *scope = driver != NULL ? driver : RTLD_DEFAULT;   /* else one linked into the job itself */
  DeviceGetCount get_count = (DeviceGetCount) dlsym (scope, "cuDeviceGetCount");
  DeviceGet get = (DeviceGet) dlsym (scope, "cuDeviceGet");
  DeviceGetName get_name = (DeviceGetName) dlsym (scope, "cuDeviceGetName");
  DeviceGetAttribute get_attribute = (DeviceGetAttribute) dlsym (scope, "cuDeviceGetAttribute");
  DeviceTotalMem total_memory = (DeviceTotalMem) dlsym (scope, "cuDeviceTotalMem_v2");
  int count = 0;
  uint16_t filled = 0;

  if (max_devices == 0 || get_count == NULL || get == NULL || get_name == NULL || get_attribute == NULL || total_memory == NULL ||
      get_count (&count) != CUDA_SUCCESS)
    count = 0;
  for (int i = 0; i < count && filled < max_devices; i++)
    {
      SuanliCaptureDevice *device = &devices[filled];
      CUdevice handle;
      size_t bytes = 0;
      int major = 0, minor = 0, value = 0;

      if (get (&handle, i) != CUDA_SUCCESS)
        continue;
      memset (device, 0, sizeof *device);
      device->id = (uint32_t) i;
      if (get_name (device->name, sizeof device->name - 1, handle) != CUDA_SUCCESS)
        snprintf (device->name, sizeof device->name, "GPU %d", i);
      if (get_attribute (&value, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, handle) == CUDA_SUCCESS)
        device->sm_count = (uint32_t) value;
      if (get_attribute (&value, CU_DEVICE_ATTRIBUTE_CLOCK_RATE, handle) == CUDA_SUCCESS)
        device->core_clock_khz = (uint32_t) value;
      if (get_attribute (&value, CU_DEVICE_ATTRIBUTE_MEMORY_CLOCK_RATE, handle) == CUDA_SUCCESS)
        device->memory_clock_khz = (uint32_t) value;
      if (get_attribute (&major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, handle) == CUDA_SUCCESS &&
          get_attribute (&minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, handle) == CUDA_SUCCESS)
        device->compute_capability = (uint32_t) (major * 10 + minor);
      if (total_memory (&bytes, handle) == CUDA_SUCCESS)
        device->memory_bytes = bytes;
      filled++;
    }
  if (driver != NULL)
    dlclose (driver);   /* the reference NOLOAD took: the job's own keeps it loaded */
  return filled;
}

/* ---- names --------------------------------------------------------------------------------------- */

/* The capture's clock: CUPTI's, once libcupti is loaded (0 before). */
uint64_t
suanli_inject_timestamp (void)
{
  uint64_t timestamp = 0;
  GetTimestamp get_timestamp = __atomic_load_n (&suanli_cupti.get_timestamp, __ATOMIC_ACQUIRE);

  if (get_timestamp == NULL || get_timestamp (&timestamp) != CUPTI_SUCCESS)
    return 0;
  return timestamp;
}

/* The id of @name, its string record queued (in @queue) the first time. The lock is held. */
uint32_t
suanli_inject_intern (SuanliInjectQueue *queue,
                      const char        *name)
{
  uint32_t slot;

  if (name == NULL)
    name = "(unnamed)";
  slot = (uint32_t) suanli_inject_hash (name, strlen (name)) & (NAME_SLOTS - 1);
  for (unsigned probe = 0; probe < 64; probe++, slot = (slot + 1) & (NAME_SLOTS - 1))
    {
      if (records.names[slot] == NULL)
        {
          uint32_t id = suanli_inject_new_string_id ();
          char *copy;

          /* Remembered only once its string is in the stream: a name the full queue refused is
           * sent again the next time it is needed. */
          if (!suanli_inject_queue_push_string (queue, id, name) || (copy = strdup (name)) == NULL)
            return id;
          records.names[slot] = copy;
          records.name_ids[slot] = id;
          return id;
        }
      if (strcmp (records.names[slot], name) == 0)
        return records.name_ids[slot];
    }
  /* The table is crowded here: the name goes out again under a new id. */
  {
    uint32_t id = suanli_inject_new_string_id ();

    suanli_inject_queue_push_string (queue, id, name);
    return id;
  }
}

static void
forget_names (void)
{
  for (unsigned i = 0; i < NAME_SLOTS; i++)
    {
      free ((char *) records.names[i]);
      records.names[i] = NULL;
    }
  suanli_inject_reset_string_ids ();
  records.n_markers = 0;
}

/* ---- records ----------------------------------------------------------------------------------- */

static uint32_t
copy_kind (uint8_t kind)
{
  switch (kind)
    {
    case CUPTI_ACTIVITY_MEMCPY_KIND_HTOD:
      return SUANLI_COPY_HTOD;
    case CUPTI_ACTIVITY_MEMCPY_KIND_DTOH:
      return SUANLI_COPY_DTOH;
    case CUPTI_ACTIVITY_MEMCPY_KIND_DTOD:
      return SUANLI_COPY_DTOD;
    case CUPTI_ACTIVITY_MEMCPY_KIND_HTOH:
      return SUANLI_COPY_HTOH;
    case CUPTI_ACTIVITY_MEMCPY_KIND_PTOP:
      return SUANLI_COPY_PTOP;
    default:
      return SUANLI_COPY_UNKNOWN;
    }
}

/* CUPTI writes 0 for a time it could not take (work cut off by a forced flush, say). */
static bool
timed (uint64_t start,
       uint64_t end)
{
  if (start != 0 && end != 0 && end >= start)
    return true;
  records.untimed++;   /* left out, and counted as a drop */
  return false;
}

static void
convert_kernel (const CUpti_ActivityKernel10 *in)
{
  SuanliCaptureKernel out;

  if (!timed (in->start, in->end))
    return;
  memset (&out, 0, sizeof out);
  suanli_capture_init_record (&out.record, SUANLI_CAPTURE_KERNEL, sizeof out);
  out.start = in->start, out.end = in->end, out.correlation = in->correlationId;
  out.device = in->deviceId, out.context = in->contextId, out.stream = in->streamId;
  out.name = suanli_inject_intern (records.queue, in->name);
  out.grid[0] = in->gridX, out.grid[1] = in->gridY, out.grid[2] = in->gridZ;
  out.block[0] = in->blockX, out.block[1] = in->blockY, out.block[2] = in->blockZ;
  out.registers_per_thread = in->registersPerThread;
  out.shared_memory = (uint32_t) (in->staticSharedMemory + in->dynamicSharedMemory);
  out.graph = in->graphId;
  out.graph_node = in->graphNodeId;
  suanli_inject_queue_push (records.queue, &out, sizeof out);
}

static void
convert_memcpy (const CUpti_ActivityMemcpy6 *in)
{
  SuanliCaptureMemcpy out;

  if (!timed (in->start, in->end))
    return;
  memset (&out, 0, sizeof out);
  suanli_capture_init_record (&out.record, SUANLI_CAPTURE_MEMCPY, sizeof out);
  out.start = in->start, out.end = in->end, out.bytes = in->bytes, out.correlation = in->correlationId;
  out.device = in->deviceId, out.stream = in->streamId, out.copy_kind = copy_kind (in->copyKind);
  out.src_device = out.dst_device = in->deviceId, out.graph = in->graphId;
  suanli_inject_queue_push (records.queue, &out, sizeof out);
}

static void
convert_peer_copy (const CUpti_ActivityMemcpyPtoP4 *in)
{
  SuanliCaptureMemcpy out;

  if (!timed (in->start, in->end))
    return;
  memset (&out, 0, sizeof out);
  suanli_capture_init_record (&out.record, SUANLI_CAPTURE_MEMCPY, sizeof out);
  out.start = in->start, out.end = in->end, out.bytes = in->bytes, out.correlation = in->correlationId;
  out.device = in->deviceId, out.stream = in->streamId, out.copy_kind = SUANLI_COPY_PTOP;
  out.src_device = in->srcDeviceId, out.dst_device = in->dstDeviceId, out.graph = in->graphId;
  suanli_inject_queue_push (records.queue, &out, sizeof out);
}

static void
convert_memset (const CUpti_ActivityMemset4 *in)
{
  SuanliCaptureMemset out;

  if (!timed (in->start, in->end))
    return;
  memset (&out, 0, sizeof out);
  suanli_capture_init_record (&out.record, SUANLI_CAPTURE_MEMSET, sizeof out);
  out.start = in->start, out.end = in->end, out.bytes = in->bytes, out.correlation = in->correlationId;
  out.device = in->deviceId, out.stream = in->streamId, out.value = in->value, out.graph = in->graphId;
  suanli_inject_queue_push (records.queue, &out, sizeof out);
}

/* CUPTI's name for an API call ("cudaLaunchKernel_v7000"), without its version suffix, as
 * Kineto shows it: looked up once per callback id. The lock is held. */
static const char *
api_name (CUpti_ActivityKind kind,
          uint32_t           cbid)
{
  static __thread char fallback[48];
  bool driver = kind == CUPTI_ACTIVITY_KIND_DRIVER;
  char **slot = cbid < API_NAMES ? &records.api_names[driver][cbid] : NULL;
  const char *name = NULL;

  if (slot != NULL && *slot != NULL)
    return *slot;
  if (suanli_cupti.get_callback_name != NULL &&
      suanli_cupti.get_callback_name (driver ? CUPTI_CB_DOMAIN_DRIVER_API : CUPTI_CB_DOMAIN_RUNTIME_API, cbid, &name) ==
        CUPTI_SUCCESS && name != NULL && slot != NULL && (*slot = strdup (name)) != NULL)
    {
      char *suffix = driver ? NULL : strrchr (*slot, '_');

      /* A runtime call's "_v7000", "_v11060": a version, not part of the name ("_ptsz" stays). The
       * driver's "_v2" is part of its function's name (cuMemAlloc_v2), and stays. */
      if (suffix != NULL && suffix[1] == 'v' && suffix[2] != '\0' && strspn (suffix + 2, "0123456789") == strlen (suffix + 2))
        *suffix = '\0';
      return *slot;
    }
  snprintf (fallback, sizeof fallback, "%s %u", driver ? "cuda driver call" : "cuda runtime call", cbid);
  return fallback;
}

static void
convert_api (const CUpti_ActivityAPI *in)
{
  SuanliCaptureApi out;

  if (!timed (in->start, in->end))
    return;
  memset (&out, 0, sizeof out);
  suanli_capture_init_record (&out.record, SUANLI_CAPTURE_API, sizeof out);
  out.start = in->start, out.end = in->end, out.correlation = in->correlationId, out.callback_id = in->cbid;
  out.thread = in->threadId;
  out.domain = in->kind == CUPTI_ACTIVITY_KIND_DRIVER ? SUANLI_API_DRIVER : SUANLI_API_RUNTIME;
  out.name = suanli_inject_intern (records.queue, api_name (in->kind, in->cbid));
  suanli_inject_queue_push (records.queue, &out, sizeof out);
}

static void
convert_sync (const CUpti_ActivitySynchronization2 *in)
{
  SuanliCaptureSync out;

  if (!timed (in->start, in->end))
    return;
  memset (&out, 0, sizeof out);
  suanli_capture_init_record (&out.record, SUANLI_CAPTURE_SYNC, sizeof out);
  out.start = in->start, out.end = in->end, out.correlation = in->correlationId, out.type = in->type;
  out.context = in->contextId, out.stream = in->streamId, out.event = in->cudaEventId;
  suanli_inject_queue_push (records.queue, &out, sizeof out);
}

/* NVTX: a start and an end record with the same id make a range; an instantaneous one, a mark. */
static void
convert_marker (const CUpti_ActivityMarker2 *in)
{
  SuanliCaptureNvtx out;
  uint32_t thread = in->objectKind == CUPTI_ACTIVITY_OBJECT_THREAD ? in->objectId.pt.threadId : 0;

  memset (&out, 0, sizeof out);
  if (in->flags & CUPTI_ACTIVITY_FLAG_MARKER_START)
    {
      if (records.n_markers < OPEN_MARKERS)
        records.markers[records.n_markers++] = (OpenMarker) { in->timestamp, in->id, thread, suanli_inject_intern (records.queue, in->name) };
      return;
    }
  if (in->flags & CUPTI_ACTIVITY_FLAG_MARKER_END)
    {
      for (unsigned i = records.n_markers; i-- > 0;)
        if (records.markers[i].id == in->id)
          {
            suanli_capture_init_record (&out.record, SUANLI_CAPTURE_NVTX_RANGE, sizeof out);
            out.start = records.markers[i].start, out.end = in->timestamp;
            out.thread = records.markers[i].thread, out.name = records.markers[i].name;
            records.markers[i] = records.markers[--records.n_markers];
            suanli_inject_queue_push (records.queue, &out, sizeof out);
            return;
          }
      return;
    }
  suanli_capture_init_record (&out.record, SUANLI_CAPTURE_NVTX_MARK, sizeof out);
  out.start = out.end = in->timestamp, out.thread = thread, out.name = suanli_inject_intern (records.queue, in->name);
  suanli_inject_queue_push (records.queue, &out, sizeof out);
}

static void
convert_overhead (const CUpti_ActivityOverhead3 *in)
{
  SuanliCaptureOverhead out;

  if (!timed (in->start, in->end))
    return;
  memset (&out, 0, sizeof out);
  suanli_capture_init_record (&out.record, SUANLI_CAPTURE_OVERHEAD, sizeof out);
  out.start = in->start, out.end = in->end, out.kind = in->overheadKind;
  out.thread = in->objectKind == CUPTI_ACTIVITY_OBJECT_THREAD ? in->objectId.pt.threadId : 0;
  suanli_inject_queue_push (records.queue, &out, sizeof out);
}

static void
convert (const CUpti_Activity *record)
{
  switch (record->kind)
    {
    case CUPTI_ACTIVITY_KIND_KERNEL:
    case CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL:
      convert_kernel ((const CUpti_ActivityKernel10 *) record);
      break;
    case CUPTI_ACTIVITY_KIND_MEMCPY:
      convert_memcpy ((const CUpti_ActivityMemcpy6 *) record);
      break;
    case CUPTI_ACTIVITY_KIND_MEMCPY2:
      convert_peer_copy ((const CUpti_ActivityMemcpyPtoP4 *) record);
      break;
    case CUPTI_ACTIVITY_KIND_MEMSET:
      convert_memset ((const CUpti_ActivityMemset4 *) record);
      break;
    case CUPTI_ACTIVITY_KIND_RUNTIME:
    case CUPTI_ACTIVITY_KIND_DRIVER:
      convert_api ((const CUpti_ActivityAPI *) record);
      break;
    case CUPTI_ACTIVITY_KIND_SYNCHRONIZATION:
      convert_sync ((const CUpti_ActivitySynchronization2 *) record);
      break;
    case CUPTI_ACTIVITY_KIND_MARKER:
      convert_marker ((const CUpti_ActivityMarker2 *) record);
      break;
    case CUPTI_ACTIVITY_KIND_OVERHEAD:
      convert_overhead ((const CUpti_ActivityOverhead3 *) record);
      break;
    default:
      break;   /* kinds the capture has no record for */
    }
}

/**
 * suanli_inject_cupti_decode_buffer:
 * @buffer, @valid: a buffer of CUPTI activity records, as CUPTI hands it back
 *
 * Walks the records with cuptiActivityGetNextRecord and puts them in @queue (NULL: the capture's,
 * and nowhere when none is running) in the capture format.
 * Returns: how many records were read.
 */
size_t
suanli_inject_cupti_decode_buffer (uint8_t           *buffer,
                                   size_t             valid,
                                   SuanliInjectQueue *queue)
{
  CUpti_Activity *record = NULL;
  size_t count = 0;

  pthread_mutex_lock (&records.lock);
  if (queue != NULL)
    records.queue = queue;
  if (records.queue == NULL)
    {
      /* A buffer after the capture ended (the queue is gone): nowhere to put it. */
      pthread_mutex_unlock (&records.lock);
      return 0;
    }
  records.untimed = 0;
  while (suanli_cupti.get_next_record (buffer, valid, &record) == CUPTI_SUCCESS)
    {
      convert (record);
      count++;
    }
  if (records.untimed > 0)
    {
      SuanliCaptureDropped dropped;

      memset (&dropped, 0, sizeof dropped);
      suanli_capture_init_record (&dropped.record, SUANLI_CAPTURE_DROPPED, sizeof dropped);
      dropped.count = records.untimed;
      dropped.reason = SUANLI_DROPPED_UNTIMED;
      suanli_inject_queue_push (records.queue, &dropped, sizeof dropped);
      records.untimed_total += records.untimed;
    }
  pthread_mutex_unlock (&records.lock);
  return count;
}

/* A capture begins (its records go to @queue, names and open ranges forgotten: its strings are sent
 * again), or ends (NULL). */
void
suanli_inject_records_begin (SuanliInjectQueue *queue)
{
  pthread_mutex_lock (&records.lock);
  if (queue != NULL)
    {
      records.untimed_total = 0;
      forget_names ();
    }
  records.queue = queue;
  pthread_mutex_unlock (&records.lock);
}


/* Records of this capture left out for want of times (each sent as a drop record already). */
uint64_t
suanli_inject_records_untimed (void)
{
  uint64_t untimed;

  pthread_mutex_lock (&records.lock);
  untimed = records.untimed_total;
  pthread_mutex_unlock (&records.lock);
  return untimed;
}
