/* suanli-inject-cupti.c — CUPTI as the injection library's record source
 *
 * libcupti is loaded only at START, with dlopen: first the copy the job has already (PyTorch's,
 * RTLD_NOLOAD), then CUDA's, then SUANLI_CUPTI_PATH; a job without one still runs, and START says
 * why it cannot capture, quoting CUPTI's own words for any call that fails. While capturing,
 * CUPTI fills buffers from a pool allocated at START; each finished buffer is walked with
 * cuptiActivityGetNextRecord and its records go to the queue in the capture format, names interned
 * as string records the first time they are seen.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define _GNU_SOURCE
#include "suanli-inject.h"
#include "suanli-inject-cupti.h"
#include "suanli-inject-python.h"

#include <dlfcn.h>
#include <execinfo.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define BUFFER_SIZE   (1u << 20)   /* CUPTI's activity buffers: 1 MiB each */
#define POOL_BUFFERS  32
#define NAME_SLOTS    (1u << 14)   /* interned names; past that, names go unshared (each time) */
#define OPEN_MARKERS  256          /* NVTX ranges open at once, waiting for their end */
#define STACK_SLOTS   4096         /* launches whose CPU stack waits for their kernel's record */
#define STACK_DEPTH   24
#define PYTHON_TEXT   1024         /* bytes of Python frames kept per launch (a multiple of 8) */

typedef CUptiResult (*GetVersion) (uint32_t *);
typedef CUptiResult (*GetResultString) (CUptiResult, const char **);
typedef CUptiResult (*GetTimestamp) (uint64_t *);
typedef CUptiResult (*RegisterCallbacks) (CUpti_BuffersCallbackRequestFunc, CUpti_BuffersCallbackCompleteFunc);
typedef CUptiResult (*EnableKind) (CUpti_ActivityKind);
typedef CUptiResult (*FlushAll) (uint32_t);
typedef CUptiResult (*GetNextRecord) (uint8_t *, size_t, CUpti_Activity **);
typedef CUptiResult (*GetNumDropped) (CUcontext, uint32_t, size_t *);
typedef CUptiResult (*Subscribe) (CUpti_SubscriberHandle *, CUpti_CallbackFunc, void *);
typedef CUptiResult (*Unsubscribe) (CUpti_SubscriberHandle);
typedef CUptiResult (*EnableCallback) (uint32_t, CUpti_SubscriberHandle, CUpti_CallbackDomain, CUpti_CallbackId);

typedef struct
{
  uint64_t    start;
  uint32_t    id;
  uint32_t    thread;
  uint32_t    name;
} OpenMarker;

/* The CPU stack of one launch, kept (by correlation id) until its kernel's record comes. */
typedef struct
{
  uint32_t    correlation;
  int         depth;
  void       *frames[STACK_DEPTH];
  uint32_t    python_length;   /* of its text in python_stacks, 0: none */
} LaunchStack;

static struct
{
  void                  *library;
  GetVersion             get_version;
  GetResultString        get_result_string;
  GetTimestamp           get_timestamp;
  RegisterCallbacks      register_callbacks;
  EnableKind             enable;
  EnableKind             disable;
  FlushAll               flush_all;
  GetNextRecord          get_next_record;
  GetNumDropped          get_num_dropped;
  Subscribe              subscribe;
  Unsubscribe            unsubscribe;
  EnableCallback         enable_callback;
  CUpti_SubscriberHandle subscriber;
  SuanliInjectQueue     *queue;         /* NULL outside a capture */
  pthread_mutex_t        lock;          /* the names, the open markers, the queue pointer */
  pthread_mutex_t        pool_lock;     /* the pool only: a launch asking for a buffer never waits on decoding */
  uint8_t               *pool[POOL_BUFFERS];
  unsigned               pool_free;     /* buffers in pool[0 .. pool_free) are free */
  uint64_t               lost;          /* buffers CUPTI asked for when the pool was empty */
  const char            *names[NAME_SLOTS];
  uint32_t               name_ids[NAME_SLOTS];
  OpenMarker             markers[OPEN_MARKERS];
  unsigned               n_markers;
  LaunchStack            stacks[STACK_SLOTS];
  uint64_t              *python_stacks;  /* PYTHON_TEXT bytes per slot, when the job is CPython 3.11 */
} cupti = { .lock = PTHREAD_MUTEX_INITIALIZER, .pool_lock = PTHREAD_MUTEX_INITIALIZER };

static const CUpti_ActivityKind enabled_kinds[] = {
  CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL,   /* never KERNEL: that one serialises kernels */
  CUPTI_ACTIVITY_KIND_MEMCPY,
  CUPTI_ACTIVITY_KIND_MEMCPY2,
  CUPTI_ACTIVITY_KIND_MEMSET,
  CUPTI_ACTIVITY_KIND_RUNTIME,
  CUPTI_ACTIVITY_KIND_DRIVER,
  CUPTI_ACTIVITY_KIND_SYNCHRONIZATION,
  CUPTI_ACTIVITY_KIND_MARKER,
  CUPTI_ACTIVITY_KIND_OVERHEAD,
};

/* ---- loading ---------------------------------------------------------------------------------- */

static void *
open_cupti (char   *error,
            size_t  error_size)
{
  static const char * const loaded[] = { "libcupti.so.13", "libcupti.so.12", "libcupti.so" };
  static const char * const installed[] = {
    "/usr/local/cuda/lib64/libcupti.so.13", "/usr/local/cuda/extras/CUPTI/lib64/libcupti.so.13", "libcupti.so.13",
  };
  const char *override = getenv ("SUANLI_CUPTI_PATH");
  void *library;

  for (unsigned i = 0; i < sizeof loaded / sizeof loaded[0]; i++)
    if ((library = dlopen (loaded[i], RTLD_NOW | RTLD_NOLOAD)) != NULL)
      return library;
  for (unsigned i = 0; i < sizeof installed / sizeof installed[0]; i++)
    if ((library = dlopen (installed[i], RTLD_NOW | RTLD_LOCAL)) != NULL)
      return library;
  if (override != NULL && (library = dlopen (override, RTLD_NOW | RTLD_LOCAL)) != NULL)
    return library;
  snprintf (error, error_size, "no libcupti: not in the job, not in /usr/local/cuda, and SUANLI_CUPTI_PATH %s (%s)",
            override != NULL ? "did not load" : "is not set", dlerror ());
  return NULL;
}

static int
load (char   *error,
      size_t  error_size)
{
  struct { const char *name; void **slot; } symbols[] = {
    { "cuptiGetVersion", (void **) &cupti.get_version },
    { "cuptiGetResultString", (void **) &cupti.get_result_string },
    { "cuptiGetTimestamp", (void **) &cupti.get_timestamp },
    { "cuptiActivityRegisterCallbacks", (void **) &cupti.register_callbacks },
    { "cuptiActivityEnable", (void **) &cupti.enable },
    { "cuptiActivityDisable", (void **) &cupti.disable },
    { "cuptiActivityFlushAll", (void **) &cupti.flush_all },
    { "cuptiActivityGetNextRecord", (void **) &cupti.get_next_record },
    { "cuptiActivityGetNumDroppedRecords", (void **) &cupti.get_num_dropped },
    { "cuptiSubscribe", (void **) &cupti.subscribe },
    { "cuptiUnsubscribe", (void **) &cupti.unsubscribe },
    { "cuptiEnableCallback", (void **) &cupti.enable_callback },
  };

  if (cupti.library != NULL)
    return 0;
  if ((cupti.library = open_cupti (error, error_size)) == NULL)
    return -1;
  for (unsigned i = 0; i < sizeof symbols / sizeof symbols[0]; i++)
    if ((*symbols[i].slot = dlsym (cupti.library, symbols[i].name)) == NULL)
      {
        snprintf (error, error_size, "libcupti has no %s: too old", symbols[i].name);
        /* Not half loaded: the next START tries again from nothing. */
        for (unsigned j = 0; j < sizeof symbols / sizeof symbols[0]; j++)
          *symbols[j].slot = NULL;
        dlclose (cupti.library);
        cupti.library = NULL;
        return -1;
      }
  return 0;
}

/* "cuptiActivityEnable: CUPTI_ERROR_…" in CUPTI's words. */
static void
quote (CUptiResult  result,
       const char  *call,
       char        *error,
       size_t       error_size)
{
  const char *words = NULL;

  if (cupti.get_result_string == NULL || cupti.get_result_string (result, &words) != CUPTI_SUCCESS || words == NULL)
    words = "unknown error";
  snprintf (error, error_size, "%s failed: %s (CUPTI error %d)", call, words, (int) result);
}

/* Loads libcupti and resolves its functions, without starting anything: for the tests and START. */
int
suanli_inject_cupti_load (char   *error,
                          size_t  error_size)
{
  return load (error, error_size);
}

/* ---- devices ------------------------------------------------------------------------------------- */

typedef CUresult (*DeviceGetCount) (int *);
typedef CUresult (*DeviceGet) (CUdevice *, int);
typedef CUresult (*DeviceGetName) (char *, int, CUdevice);
typedef CUresult (*DeviceGetAttribute) (int *, CUdevice_attribute, CUdevice);
typedef CUresult (*DeviceTotalMem) (size_t *, CUdevice);

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
  DeviceGetCount get_count = (DeviceGetCount) dlsym (RTLD_DEFAULT, "cuDeviceGetCount");
  DeviceGet get = (DeviceGet) dlsym (RTLD_DEFAULT, "cuDeviceGet");
  DeviceGetName get_name = (DeviceGetName) dlsym (RTLD_DEFAULT, "cuDeviceGetName");
  DeviceGetAttribute get_attribute = (DeviceGetAttribute) dlsym (RTLD_DEFAULT, "cuDeviceGetAttribute");
  DeviceTotalMem total_memory = (DeviceTotalMem) dlsym (RTLD_DEFAULT, "cuDeviceTotalMem_v2");
  int count = 0;
  uint16_t filled = 0;

  if (get_count == NULL || get == NULL || get_name == NULL || get_attribute == NULL || total_memory == NULL ||
      get_count (&count) != CUDA_SUCCESS)
    return 0;
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
  return filled;
}

/* ---- launch stacks ------------------------------------------------------------------------------ */

/* Launch stacks get the job's Python frames when it is CPython 3.11 (see suanli-inject-python.c):
 * their room is taken once, here, never in a launch's way. Returns: whether they do. */
bool
suanli_inject_enable_python_stacks (void)
{
  if (cupti.python_stacks == NULL && suanli_inject_python_init ())
    cupti.python_stacks = calloc (STACK_SLOTS, PYTHON_TEXT);
  return cupti.python_stacks != NULL;
}

/* Word by word, each word atomic: a reader racing a writer sees torn text at worst, and then
 * finds the slot's correlation changed and drops it. */
static void
copy_words (uint64_t       *to,
            const uint64_t *from,
            size_t          bytes,
            bool            storing)
{
  for (size_t i = 0; i < (bytes + 7) / 8; i++)
    if (storing)
      __atomic_store_n (&to[i], from[i], __ATOMIC_RELAXED);
    else
      to[i] = __atomic_load_n (&from[i], __ATOMIC_RELAXED);
}

/* On the launching thread, at a launch's entry: its return addresses and Python frames, into a
 * preallocated slot. */
void
suanli_inject_record_launch_stack (uint32_t correlation)
{
  unsigned index = correlation % STACK_SLOTS;
  LaunchStack *slot = &cupti.stacks[index];
  void *frames[STACK_DEPTH];
  int depth = backtrace (frames, STACK_DEPTH);
  uint64_t python[PYTHON_TEXT / 8];
  size_t python_length = cupti.python_stacks != NULL ? suanli_inject_python_stack ((char *) python, PYTHON_TEXT) : 0;

  /* Published last: a reader that sees this correlation sees its frames (and checks again after). */
  __atomic_store_n (&slot->correlation, 0, __ATOMIC_RELEASE);
  __atomic_thread_fence (__ATOMIC_RELEASE);
  for (int i = 0; i < depth; i++)
    __atomic_store_n (&slot->frames[i], frames[i], __ATOMIC_RELAXED);
  __atomic_store_n (&slot->depth, depth, __ATOMIC_RELAXED);
  if (python_length > 0)
    copy_words (cupti.python_stacks + (size_t) index * (PYTHON_TEXT / 8), python, python_length + 1, true);
  __atomic_store_n (&slot->python_length, (uint32_t) python_length, __ATOMIC_RELAXED);
  __atomic_store_n (&slot->correlation, correlation, __ATOMIC_RELEASE);
}

/* Whether a frame is the profiler's own (this library, CUPTI, the driver under the launch). */
static bool
is_profiler_frame (const char *library,
                   const char *name)
{
  static const char * const libraries[] = { "libsuanli-inject", "libcupti", "libcuda.so" };

  /* (backtrace itself shows up where a sanitizer intercepts it.) */
  if (name != NULL && (strncmp (name, "suanli_inject_", 14) == 0 || strcmp (name, "backtrace") == 0))
    return true;
  for (unsigned i = 0; library != NULL && i < sizeof libraries / sizeof libraries[0]; i++)
    if (strncmp (library, libraries[i], strlen (libraries[i])) == 0)
      return true;
  return false;
}

static size_t
append_line (char       *text,
             size_t      size,
             size_t      length,
             const char *line)
{
  int written = snprintf (text + length, size - length, "%s%s", length > 0 ? "\n" : "", line);

  if (written < 0)
    return length;
  return length + ((size_t) written < size - length ? (size_t) written : size - length - 1);
}

/* The frames of the launch @correlation, outermost first, one "function (library)" a line, the
 * profiler's own left out. Where the launch came from Python, its Python frames ("function
 * (file.py:line)") stand in for the interpreter's own native frames. Returns: its length, or 0 when
 * none was kept. */
size_t
suanli_inject_format_launch_stack (uint32_t  correlation,
                                   char     *text,
                                   size_t    size)
{
  unsigned index = correlation % STACK_SLOTS;
  LaunchStack *slot = &cupti.stacks[index];
  void *frames[STACK_DEPTH];
  uint64_t python[PYTHON_TEXT / 8];
  uint32_t python_length;
  size_t length = 0;
  int depth, innermost_interpreter = -1;

  /* A copy, checked to be of one launch: the slot may be taken by a later one meanwhile. */
  if (size == 0 || __atomic_load_n (&slot->correlation, __ATOMIC_ACQUIRE) != correlation)
    return 0;
  depth = __atomic_load_n (&slot->depth, __ATOMIC_RELAXED);
  python_length = __atomic_load_n (&slot->python_length, __ATOMIC_RELAXED);
  if (depth <= 0 || depth > STACK_DEPTH || python_length >= PYTHON_TEXT ||
      (python_length > 0 && cupti.python_stacks == NULL))
    return 0;
  for (int i = 0; i < depth; i++)
    frames[i] = __atomic_load_n (&slot->frames[i], __ATOMIC_RELAXED);
  if (python_length > 0)
    copy_words (python, cupti.python_stacks + (size_t) index * (PYTHON_TEXT / 8), python_length + 1, false);
  __atomic_thread_fence (__ATOMIC_ACQUIRE);
  if (__atomic_load_n (&slot->correlation, __ATOMIC_RELAXED) != correlation)
    return 0;
  ((char *) python)[python_length] = '\0';
  text[0] = '\0';

  /* backtrace gives the innermost frame first. */
  for (int i = 0; i < depth && python_length > 0 && innermost_interpreter < 0; i++)
    {
      Dl_info info;

      if (dladdr (frames[i], &info) != 0 &&
          suanli_inject_is_interpreter_frame (info.dli_fname != NULL && strrchr (info.dli_fname, '/') != NULL
                                                ? strrchr (info.dli_fname, '/') + 1 : info.dli_fname,
                                              info.dli_sname))
        innermost_interpreter = i;
    }
  /* Under the Python frames, only the native frames under the innermost interpreter frame: the
   * rest is the interpreter running those Python frames. */
  if (innermost_interpreter >= 0)
    length = append_line (text, size, length, (const char *) python);
  for (int i = (innermost_interpreter >= 0 ? innermost_interpreter : depth) - 1; i >= 0 && length + 1 < size; i--)
    {
      const char *library, *name;
      char line[512];
      Dl_info info;

      if (dladdr (frames[i], &info) == 0)
        continue;
      library = info.dli_fname != NULL && strrchr (info.dli_fname, '/') != NULL ? strrchr (info.dli_fname, '/') + 1
                                                                               : info.dli_fname;
      name = info.dli_sname;
      if (is_profiler_frame (library, name))
        continue;
      snprintf (line, sizeof line, "%s (%s)", name != NULL ? name : "??", library != NULL ? library : "?");
      length = append_line (text, size, length, line);
    }
  return length;
}

/* ---- names --------------------------------------------------------------------------------------- */

static uint32_t next_string_id;   /* (atomic) the last id given out in this capture */

uint32_t
suanli_inject_new_string_id (void)
{
  return __atomic_add_fetch (&next_string_id, 1, __ATOMIC_RELAXED);
}

void
suanli_inject_reset_string_ids (void)
{
  __atomic_store_n (&next_string_id, 0, __ATOMIC_RELAXED);
}

uint64_t
suanli_inject_timestamp (void)
{
  uint64_t timestamp = 0;
  GetTimestamp get_timestamp = __atomic_load_n (&cupti.get_timestamp, __ATOMIC_ACQUIRE);

  if (get_timestamp == NULL || get_timestamp (&timestamp) != CUPTI_SUCCESS)
    return 0;
  return timestamp;
}

static uint32_t
hash_name (const char *name)
{
  uint32_t hash = 2166136261u;

  for (; *name != '\0'; name++)
    hash = (hash ^ (uint8_t) *name) * 16777619u;
  return hash;
}

/* The id of @name, its string record queued the first time. The lock is held. */
static uint32_t
intern (const char *name)
{
  uint32_t slot;

  if (name == NULL)
    name = "(unnamed)";
  slot = hash_name (name) & (NAME_SLOTS - 1);
  for (unsigned probe = 0; probe < 64; probe++, slot = (slot + 1) & (NAME_SLOTS - 1))
    {
      if (cupti.names[slot] == NULL)
        {
          uint32_t id = suanli_inject_new_string_id ();
          char *copy;

          /* Remembered only once its string is in the stream: a name the full queue refused is
           * sent again the next time it is needed. */
          if (!suanli_inject_queue_push_string (cupti.queue, id, name) || (copy = strdup (name)) == NULL)
            return id;
          cupti.names[slot] = copy;
          cupti.name_ids[slot] = id;
          return id;
        }
      if (strcmp (cupti.names[slot], name) == 0)
        return cupti.name_ids[slot];
    }
  /* The table is crowded here: the name goes out again under a new id. */
  {
    uint32_t id = suanli_inject_new_string_id ();

    suanli_inject_queue_push_string (cupti.queue, id, name);
    return id;
  }
}

static void
forget_names (void)
{
  for (unsigned i = 0; i < NAME_SLOTS; i++)
    {
      free ((char *) cupti.names[i]);
      cupti.names[i] = NULL;
    }
  suanli_inject_reset_string_ids ();
  cupti.n_markers = 0;
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

static void
convert_kernel (const CUpti_ActivityKernel10 *in)
{
  SuanliCaptureKernel out;

  memset (&out, 0, sizeof out);
  suanli_capture_init_record (&out.record, SUANLI_CAPTURE_KERNEL, sizeof out);
  out.start = in->start, out.end = in->end, out.correlation = in->correlationId;
  out.device = in->deviceId, out.context = in->contextId, out.stream = in->streamId;
  out.name = intern (in->name);
  out.grid[0] = in->gridX, out.grid[1] = in->gridY, out.grid[2] = in->gridZ;
  out.block[0] = in->blockX, out.block[1] = in->blockY, out.block[2] = in->blockZ;
  out.registers_per_thread = in->registersPerThread;
  out.shared_memory = (uint32_t) (in->staticSharedMemory + in->dynamicSharedMemory);
  out.graph = in->graphId;
  {
    char stack[2048];

    if (suanli_inject_format_launch_stack (in->correlationId, stack, sizeof stack) > 0)
      out.stack = intern (stack);
  }
  suanli_inject_queue_push (cupti.queue, &out, sizeof out);
}

static void
convert_memcpy (const CUpti_ActivityMemcpy6 *in)
{
  SuanliCaptureMemcpy out;

  memset (&out, 0, sizeof out);
  suanli_capture_init_record (&out.record, SUANLI_CAPTURE_MEMCPY, sizeof out);
  out.start = in->start, out.end = in->end, out.bytes = in->bytes, out.correlation = in->correlationId;
  out.device = in->deviceId, out.stream = in->streamId, out.copy_kind = copy_kind (in->copyKind);
  out.src_device = out.dst_device = in->deviceId, out.graph = in->graphId;
  suanli_inject_queue_push (cupti.queue, &out, sizeof out);
}

static void
convert_peer_copy (const CUpti_ActivityMemcpyPtoP4 *in)
{
  SuanliCaptureMemcpy out;

  memset (&out, 0, sizeof out);
  suanli_capture_init_record (&out.record, SUANLI_CAPTURE_MEMCPY, sizeof out);
  out.start = in->start, out.end = in->end, out.bytes = in->bytes, out.correlation = in->correlationId;
  out.device = in->deviceId, out.stream = in->streamId, out.copy_kind = SUANLI_COPY_PTOP;
  out.src_device = in->srcDeviceId, out.dst_device = in->dstDeviceId, out.graph = in->graphId;
  suanli_inject_queue_push (cupti.queue, &out, sizeof out);
}

static void
convert_memset (const CUpti_ActivityMemset4 *in)
{
  SuanliCaptureMemset out;

  memset (&out, 0, sizeof out);
  suanli_capture_init_record (&out.record, SUANLI_CAPTURE_MEMSET, sizeof out);
  out.start = in->start, out.end = in->end, out.bytes = in->bytes, out.correlation = in->correlationId;
  out.device = in->deviceId, out.stream = in->streamId, out.value = in->value, out.graph = in->graphId;
  suanli_inject_queue_push (cupti.queue, &out, sizeof out);
}

/* CUPTI records API calls by callback id; the name is looked up once per id. */
static const char *
api_name (CUpti_ActivityKind kind,
          uint32_t           cbid)
{
  static __thread char name[48];

  snprintf (name, sizeof name, "%s %u", kind == CUPTI_ACTIVITY_KIND_DRIVER ? "cuda driver call" : "cuda runtime call",
            cbid);
  return name;
}

static void
convert_api (const CUpti_ActivityAPI *in)
{
  SuanliCaptureApi out;

  memset (&out, 0, sizeof out);
  suanli_capture_init_record (&out.record, SUANLI_CAPTURE_API, sizeof out);
  out.start = in->start, out.end = in->end, out.correlation = in->correlationId, out.callback_id = in->cbid;
  out.thread = in->threadId;
  out.domain = in->kind == CUPTI_ACTIVITY_KIND_DRIVER ? SUANLI_API_DRIVER : SUANLI_API_RUNTIME;
  out.name = intern (api_name (in->kind, in->cbid));
  suanli_inject_queue_push (cupti.queue, &out, sizeof out);
}

static void
convert_sync (const CUpti_ActivitySynchronization2 *in)
{
  SuanliCaptureSync out;

  memset (&out, 0, sizeof out);
  suanli_capture_init_record (&out.record, SUANLI_CAPTURE_SYNC, sizeof out);
  out.start = in->start, out.end = in->end, out.correlation = in->correlationId, out.type = in->type;
  out.context = in->contextId, out.stream = in->streamId, out.event = in->cudaEventId;
  suanli_inject_queue_push (cupti.queue, &out, sizeof out);
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
      if (cupti.n_markers < OPEN_MARKERS)
        cupti.markers[cupti.n_markers++] = (OpenMarker) { in->timestamp, in->id, thread, intern (in->name) };
      return;
    }
  if (in->flags & CUPTI_ACTIVITY_FLAG_MARKER_END)
    {
      for (unsigned i = cupti.n_markers; i-- > 0;)
        if (cupti.markers[i].id == in->id)
          {
            suanli_capture_init_record (&out.record, SUANLI_CAPTURE_NVTX_RANGE, sizeof out);
            out.start = cupti.markers[i].start, out.end = in->timestamp;
            out.thread = cupti.markers[i].thread, out.name = cupti.markers[i].name;
            cupti.markers[i] = cupti.markers[--cupti.n_markers];
            suanli_inject_queue_push (cupti.queue, &out, sizeof out);
            return;
          }
      return;
    }
  suanli_capture_init_record (&out.record, SUANLI_CAPTURE_NVTX_MARK, sizeof out);
  out.start = out.end = in->timestamp, out.thread = thread, out.name = intern (in->name);
  suanli_inject_queue_push (cupti.queue, &out, sizeof out);
}

static void
convert_overhead (const CUpti_ActivityOverhead3 *in)
{
  SuanliCaptureOverhead out;

  memset (&out, 0, sizeof out);
  suanli_capture_init_record (&out.record, SUANLI_CAPTURE_OVERHEAD, sizeof out);
  out.start = in->start, out.end = in->end, out.kind = in->overheadKind;
  out.thread = in->objectKind == CUPTI_ACTIVITY_OBJECT_THREAD ? in->objectId.pt.threadId : 0;
  suanli_inject_queue_push (cupti.queue, &out, sizeof out);
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

  pthread_mutex_lock (&cupti.lock);
  if (queue != NULL)
    cupti.queue = queue;
  if (cupti.queue == NULL)
    {
      /* A buffer after the capture ended (the queue is gone): nowhere to put it. */
      pthread_mutex_unlock (&cupti.lock);
      return 0;
    }
  while (cupti.get_next_record (buffer, valid, &record) == CUPTI_SUCCESS)
    {
      convert (record);
      count++;
    }
  pthread_mutex_unlock (&cupti.lock);
  return count;
}

/* Forgets the names and open ranges: a new capture sends its strings again. */
void
suanli_inject_cupti_reset (void)
{
  pthread_mutex_lock (&cupti.lock);
  forget_names ();
  pthread_mutex_unlock (&cupti.lock);
}

/* ---- buffers ------------------------------------------------------------------------------------- */

static void CUPTIAPI
buffer_requested (uint8_t **buffer,
                  size_t   *size,
                  size_t   *max_records)
{
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
      cupti.lost++;
    }
  *max_records = 0;
  pthread_mutex_unlock (&cupti.pool_lock);
}

static void CUPTIAPI
buffer_completed (CUcontext  context,
                  uint32_t   stream,
                  uint8_t   *buffer,
                  size_t     size,
                  size_t     valid)
{
  if (valid > 0)
    suanli_inject_cupti_decode_buffer (buffer, valid, NULL);
  pthread_mutex_lock (&cupti.pool_lock);
  if (cupti.pool_free < POOL_BUFFERS)
    cupti.pool[cupti.pool_free++] = buffer;
  else
    free (buffer);
  pthread_mutex_unlock (&cupti.pool_lock);
}

static void CUPTIAPI
on_callback (void                   *data,
             CUpti_CallbackDomain    domain,
             CUpti_CallbackId        id,
             const void             *info)
{
  const CUpti_CallbackData *call = info;

  /* A kernel launch (or a graph's), on the launching thread: where in the program it came from. */
  if (domain == CUPTI_CB_DOMAIN_RUNTIME_API && call->callbackSite == CUPTI_API_ENTER)
    suanli_inject_record_launch_stack (call->correlationId);
}

/* ---- the source ---------------------------------------------------------------------------------- */

static void
release_pool (void)
{
  for (unsigned i = 0; i < cupti.pool_free; i++)
    free (cupti.pool[i]);
  cupti.pool_free = 0;
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
  if (load (error, error_size) != 0)
    return -1;
  if ((result = cupti.get_version (&version)) != CUPTI_SUCCESS)
    {
      quote (result, "cuptiGetVersion", error, error_size);
      return -1;
    }
  header->cupti_version = version;
  /* The clock CUPTI stamps with (another library may have changed it), against CLOCK_REALTIME. */
  clock_gettime (CLOCK_REALTIME, &before);
  result = cupti.get_timestamp (&timestamp);
  clock_gettime (CLOCK_REALTIME, &after);
  if (result != CUPTI_SUCCESS)
    {
      quote (result, "cuptiGetTimestamp", error, error_size);
      return -1;
    }
  header->clock_offset_ns = (int64_t) (((uint64_t) before.tv_sec * 1000000000u + (uint64_t) before.tv_nsec) / 2 +
                                       ((uint64_t) after.tv_sec * 1000000000u + (uint64_t) after.tv_nsec) / 2) -
                            (int64_t) timestamp;
  pthread_mutex_lock (&cupti.lock);
  cupti.queue = queue;
  forget_names ();
  pthread_mutex_unlock (&cupti.lock);
  pthread_mutex_lock (&cupti.pool_lock);
  cupti.lost = 0;
  for (; cupti.pool_free < POOL_BUFFERS; cupti.pool_free++)
    if ((cupti.pool[cupti.pool_free] = aligned_alloc (8, BUFFER_SIZE)) == NULL)
      break;
  pthread_mutex_unlock (&cupti.pool_lock);
  if ((result = cupti.subscribe (&cupti.subscriber, on_callback, NULL)) != CUPTI_SUCCESS)
    {
      quote (result, "cuptiSubscribe", error, error_size);
      if (result == CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED)
        strncat (error, ": another tool holds CUPTI (PyTorch's profiler, Nsight, compute-sanitizer)",
                 error_size - strlen (error) - 1);
      cupti.subscriber = NULL;
      goto failed;
    }
  {
    static const CUpti_CallbackId launches[] = {
      CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_v7000, CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernelExC_v11060,
      CUPTI_RUNTIME_TRACE_CBID_cudaGraphLaunch_v10000,
    };
    void *warm_up[2];

    backtrace (warm_up, 2);   /* the first call loads the unwinder: not in a launch's way */
    suanli_inject_enable_python_stacks ();
    for (unsigned i = 0; i < sizeof launches / sizeof launches[0]; i++)
      cupti.enable_callback (1, cupti.subscriber, CUPTI_CB_DOMAIN_RUNTIME_API, launches[i]);
  }
  if ((result = cupti.register_callbacks (buffer_requested, buffer_completed)) != CUPTI_SUCCESS)
    {
      quote (result, "cuptiActivityRegisterCallbacks", error, error_size);
      goto failed;
    }
  for (; enabled < sizeof enabled_kinds / sizeof enabled_kinds[0]; enabled++)
    if ((result = cupti.enable (enabled_kinds[enabled])) != CUPTI_SUCCESS)
      {
        quote (result, "cuptiActivityEnable", error, error_size);
        goto failed;
      }
  *n_devices = suanli_inject_query_devices (devices, max_devices);
  return 0;

failed:
  while (enabled-- > 0)
    cupti.disable (enabled_kinds[enabled]);
  if (cupti.subscriber != NULL)
    cupti.unsubscribe (cupti.subscriber);
  cupti.subscriber = NULL;
  pthread_mutex_lock (&cupti.lock);
  cupti.queue = NULL;
  pthread_mutex_unlock (&cupti.lock);
  pthread_mutex_lock (&cupti.pool_lock);
  release_pool ();
  pthread_mutex_unlock (&cupti.pool_lock);
  return -1;
}

static void
cupti_flush (SuanliInjectSource *source)
{
  cupti.flush_all (0);
}

static uint64_t
cupti_stop (SuanliInjectSource *source)
{
  size_t dropped = 0;

  for (unsigned i = 0; i < sizeof enabled_kinds / sizeof enabled_kinds[0]; i++)
    cupti.disable (enabled_kinds[i]);
  /* Not under our lock: flushing calls buffer_completed, which takes it. */
  cupti.flush_all (CUPTI_ACTIVITY_FLAG_FLUSH_FORCED);
  cupti.get_num_dropped (NULL, 0, &dropped);
  if (cupti.subscriber != NULL)
    cupti.unsubscribe (cupti.subscriber);
  cupti.subscriber = NULL;
  pthread_mutex_lock (&cupti.lock);
  cupti.queue = NULL;   /* a buffer CUPTI hands back late has nowhere to go */
  pthread_mutex_unlock (&cupti.lock);
  pthread_mutex_lock (&cupti.pool_lock);
  release_pool ();
  dropped += cupti.lost;
  pthread_mutex_unlock (&cupti.pool_lock);
  return dropped;
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
