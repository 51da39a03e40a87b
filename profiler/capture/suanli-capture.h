/* suanli-capture.h — the capture stream: what the injection library sends and *.suanli-capture holds
 *
 * Plain C11, no GLib: the injection library includes it inside other people's processes.
 *
 * A stream is a header (SuanliCaptureHeader, then its devices) followed by records, each starting
 * with a SuanliCaptureRecord that gives its kind and whole size. A reader skips kinds it does not
 * know by their size, and a stream cut short reads up to its last whole record. Records only ever
 * grow at their end: a reader takes the prefix it knows (min of the two sizes) and zeroes the rest.
 * Numbers are in the byte order of the machine that wrote them, which the header's endian field
 * tells; times are nanoseconds on CUPTI's clock, and the header says how far that is from
 * CLOCK_REALTIME.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define SUANLI_CAPTURE_MAGIC        "SUANLICP"
#define SUANLI_CAPTURE_VERSION      1
#define SUANLI_CAPTURE_ENDIAN       0x01020304u
#define SUANLI_CAPTURE_MAX_RECORD   (1u << 20)   /* no record is longer; a longer size means damage */
#define SUANLI_CAPTURE_NO_STRING    0u           /* string ids start at 1 */

#define SUANLI_PACKED __attribute__ ((packed))

typedef struct SUANLI_PACKED
{
  char     magic[8];          /* SUANLI_CAPTURE_MAGIC, not NUL-terminated */
  uint16_t version;           /* SUANLI_CAPTURE_VERSION */
  uint16_t header_size;       /* sizeof (SuanliCaptureHeader) when written */
  uint32_t endian;            /* SUANLI_CAPTURE_ENDIAN as the writer stores it */
  uint32_t pid;
  int32_t  rank;              /* RANK, LOCAL_RANK, WORLD_SIZE from the job's environment; -1 unknown */
  int32_t  local_rank;
  int32_t  world_size;
  uint32_t cupti_version;     /* cuptiGetVersion; 0 when CUPTI was not loaded */
  int64_t  clock_offset_ns;   /* CLOCK_REALTIME − CUPTI's clock, measured at START */
  uint64_t start_realtime_ns; /* CLOCK_REALTIME when the capture started */
  char     host[64];          /* NUL-terminated */
  uint16_t n_devices;         /* SuanliCaptureDevice entries that follow the header */
  uint16_t device_size;       /* sizeof (SuanliCaptureDevice) when written */
  /* From here on, added after the first release (a 120-byte header reads these as 0). */
  uint32_t flags;             /* SuanliCaptureFlags */
  uint32_t reserved;
} SuanliCaptureHeader;

#define SUANLI_CAPTURE_HEADER_V1_SIZE 120   /* the smallest header a reader takes */

typedef enum {
  /* The capture began inside InitializeInjection, before the job's first CUDA call returned: it
   * holds all the job's GPU work. Without it the collector attached to a running job, and the
   * capture holds what came after START. */
  SUANLI_CAPTURE_FROM_LAUNCH = 1 << 0,
} SuanliCaptureFlags;

typedef struct SUANLI_PACKED
{
  uint32_t id;
  uint32_t sm_count;
  uint64_t memory_bytes;
  uint32_t core_clock_khz;
  uint32_t memory_clock_khz;
  uint32_t compute_capability; /* major × 10 + minor */
  uint32_t reserved;
  char     name[64];           /* NUL-terminated */
} SuanliCaptureDevice;

typedef enum {
  SUANLI_CAPTURE_KERNEL = 1,
  SUANLI_CAPTURE_MEMCPY,
  SUANLI_CAPTURE_MEMSET,
  SUANLI_CAPTURE_API,          /* a runtime or driver API call */
  SUANLI_CAPTURE_SYNC,
  SUANLI_CAPTURE_NVTX_RANGE,
  SUANLI_CAPTURE_NVTX_MARK,
  SUANLI_CAPTURE_STRING,       /* an interned name: kernels, APIs, NVTX messages */
  SUANLI_CAPTURE_COUNTER,
  SUANLI_CAPTURE_OVERHEAD,
  SUANLI_CAPTURE_DROPPED,
  SUANLI_CAPTURE_END,
  SUANLI_CAPTURE_LAUNCH_STACK, /* a launch's CPU stack as return addresses: the collector names them */
  SUANLI_CAPTURE_MODULE,       /* a module (executable or shared library) mapped in the job */
  SUANLI_CAPTURE_N_KINDS
} SuanliCaptureKind;

typedef struct SUANLI_PACKED
{
  uint16_t kind;               /* SuanliCaptureKind */
  uint16_t flags;              /* none defined yet: written as 0 */
  uint32_t size;               /* of the whole record, this header included */
} SuanliCaptureRecord;

typedef struct SUANLI_PACKED
{
  SuanliCaptureRecord record;
  uint64_t start;
  uint64_t end;
  uint32_t correlation;
  uint32_t device;
  uint32_t context;
  uint32_t stream;
  uint32_t name;               /* string id */
  int32_t  grid[3];
  int32_t  block[3];
  uint32_t registers_per_thread;
  uint32_t shared_memory;      /* static + dynamic, bytes */
  uint32_t graph;              /* the CUDA graph it ran in; 0: none */
  uint32_t stack;              /* string id of the launching CPU stack as text (older writers); 0: none */
  uint32_t reserved;
  uint64_t graph_node;         /* CUPTI's graphNodeId; 0: not launched from a graph */
} SuanliCaptureKernel;

typedef enum {
  SUANLI_COPY_UNKNOWN,
  SUANLI_COPY_HTOD,
  SUANLI_COPY_DTOH,
  SUANLI_COPY_DTOD,
  SUANLI_COPY_HTOH,
  SUANLI_COPY_PTOP,
} SuanliCopyKind;

typedef struct SUANLI_PACKED
{
  SuanliCaptureRecord record;
  uint64_t start;
  uint64_t end;
  uint64_t bytes;
  uint32_t correlation;
  uint32_t device;
  uint32_t stream;
  uint32_t copy_kind;          /* SuanliCopyKind */
  uint32_t src_device;         /* peer copies; else the device */
  uint32_t dst_device;
  uint32_t graph;
  uint32_t reserved;
} SuanliCaptureMemcpy;

typedef struct SUANLI_PACKED
{
  SuanliCaptureRecord record;
  uint64_t start;
  uint64_t end;
  uint64_t bytes;
  uint32_t correlation;
  uint32_t device;
  uint32_t stream;
  uint32_t value;
  uint32_t graph;
  uint32_t reserved;
} SuanliCaptureMemset;

typedef enum {
  SUANLI_API_RUNTIME,
  SUANLI_API_DRIVER,
} SuanliApiDomain;

typedef struct SUANLI_PACKED
{
  SuanliCaptureRecord record;
  uint64_t start;
  uint64_t end;
  uint32_t correlation;
  uint32_t callback_id;        /* CUPTI's cbid */
  uint32_t thread;             /* the OS thread id */
  uint32_t domain;             /* SuanliApiDomain */
  uint32_t name;               /* string id */
  uint32_t reserved;
} SuanliCaptureApi;

typedef struct SUANLI_PACKED
{
  SuanliCaptureRecord record;
  uint64_t start;
  uint64_t end;
  uint32_t correlation;
  uint32_t type;               /* CUPTI's CUpti_ActivitySynchronizationType */
  uint32_t context;
  uint32_t stream;             /* or UINT32_MAX */
  uint32_t event;              /* or UINT32_MAX */
  uint32_t reserved;
} SuanliCaptureSync;

typedef struct SUANLI_PACKED
{
  SuanliCaptureRecord record;
  uint64_t start;
  uint64_t end;                /* equal to start for a mark */
  uint32_t thread;
  uint32_t name;               /* string id */
  uint32_t domain;             /* string id; 0: the default domain */
  uint32_t reserved;
} SuanliCaptureNvtx;

/* An interned string: its id, then its bytes (no NUL), padded to 8. */
typedef struct SUANLI_PACKED
{
  SuanliCaptureRecord record;
  uint32_t id;
  uint32_t length;
  /* char text[length]; */
} SuanliCaptureString;

typedef struct SUANLI_PACKED
{
  SuanliCaptureRecord record;
  uint64_t time;
  double   value;
  uint32_t name;               /* string id */
  uint32_t device;
} SuanliCaptureCounter;

typedef struct SUANLI_PACKED
{
  SuanliCaptureRecord record;
  uint64_t start;
  uint64_t end;
  uint32_t kind;               /* CUPTI's CUpti_ActivityOverheadKind */
  uint32_t thread;
} SuanliCaptureOverhead;

typedef enum {
  SUANLI_DROPPED_BY_CUPTI,     /* CUPTI ran out of buffers */
  SUANLI_DROPPED_SLOW_READER,  /* the collector did not keep up: sent nowhere rather than block the job */
  SUANLI_DROPPED_BY_RELAY,     /* a relay between job and collector (suanli-agent) dropped them: its
                                * drops are not in the job's end record */
  SUANLI_DROPPED_UNTIMED,      /* CUPTI wrote them without a start or end (work cut off by a flush) */
} SuanliDropReason;

typedef struct SUANLI_PACKED
{
  SuanliCaptureRecord record;
  uint64_t count;
  uint32_t reason;             /* SuanliDropReason */
  uint32_t reserved;
} SuanliCaptureDropped;

typedef enum {
  SUANLI_END_STOPPED,          /* the collector sent STOP, or went away */
  SUANLI_END_JOB_EXIT,         /* the job exited while capturing */
  SUANLI_END_CUPTI_TAKEN,      /* another CUPTI client (PyTorch's profiler, Nsight) took CUPTI over */
  SUANLI_END_ERROR,            /* CUPTI failed while capturing: the detail says how */
} SuanliEndReason;

typedef struct SUANLI_PACKED
{
  SuanliCaptureRecord record;
  uint64_t records;            /* sent in this capture, this one excluded */
  uint64_t dropped;            /* the job's in all, for any reason: what its drop records counted, and
                                * what they could not (a relay's drops are not in it) */
  uint32_t reason;             /* SuanliEndReason */
  uint32_t detail;             /* string id of why, in words; 0: none */
} SuanliCaptureEnd;

/* The CPU stack of one kernel launch, as return addresses taken at the launch: the job never names
 * them (that costs too much inside it). It comes before the kernel record of the same correlation;
 * the collector names the addresses from the module records and the modules' files. */
typedef struct SUANLI_PACKED
{
  SuanliCaptureRecord record;
  uint32_t correlation;
  uint32_t thread;             /* the OS thread id of the launch */
  uint32_t python;             /* string id of the thread's Python frames at the launch, outermost
                                * first, one "function (file.py:line)" a line; 0: none */
  uint16_t depth;              /* return addresses that follow, innermost first */
  uint16_t reserved;
  /* uint64_t frames[depth]; */
} SuanliCaptureLaunchStack;

/* A module mapped in the job, sent before any stack that has an address in it. */
typedef struct SUANLI_PACKED
{
  SuanliCaptureRecord record;
  uint64_t bias;               /* an address in it, less this, is an address in its file's symbols */
  uint64_t start;              /* its loaded segments span [start, end) */
  uint64_t end;
  uint32_t path;               /* string id of its file's path, as the job loaded it */
  uint8_t  build_id_length;    /* of its GNU build id, 0: none */
  uint8_t  reserved[3];
  uint8_t  build_id[20];
  uint32_t reserved2;
} SuanliCaptureModule;

_Static_assert (sizeof (SuanliCaptureHeader) == 128, "the header's layout is fixed");
_Static_assert (sizeof (SuanliCaptureDevice) == 96, "a device's layout is fixed");
_Static_assert (sizeof (SuanliCaptureRecord) == 8, "a record header's layout is fixed");
_Static_assert (sizeof (SuanliCaptureKernel) == 96, "the kernel record's layout is fixed");
_Static_assert (sizeof (SuanliCaptureMemcpy) == 64, "the memcpy record's layout is fixed");
_Static_assert (sizeof (SuanliCaptureMemset) == 56, "the memset record's layout is fixed");
_Static_assert (sizeof (SuanliCaptureApi) == 48, "the API record's layout is fixed");
_Static_assert (sizeof (SuanliCaptureSync) == 48, "the sync record's layout is fixed");
_Static_assert (sizeof (SuanliCaptureNvtx) == 40, "the NVTX record's layout is fixed");
_Static_assert (sizeof (SuanliCaptureString) == 16, "the string record's layout is fixed");
_Static_assert (sizeof (SuanliCaptureCounter) == 32, "the counter record's layout is fixed");
_Static_assert (sizeof (SuanliCaptureOverhead) == 32, "the overhead record's layout is fixed");
_Static_assert (sizeof (SuanliCaptureDropped) == 24, "the dropped record's layout is fixed");
_Static_assert (sizeof (SuanliCaptureEnd) == 32, "the end record's layout is fixed");
_Static_assert (sizeof (SuanliCaptureLaunchStack) == 24, "the launch stack record's layout is fixed");
_Static_assert (sizeof (SuanliCaptureModule) == 64, "the module record's layout is fixed");

/* ---- reading ------------------------------------------------------------------------------ */

typedef enum {
  SUANLI_CAPTURE_OK,
  SUANLI_CAPTURE_NEED_MORE,    /* the bytes end inside the header or a record */
  SUANLI_CAPTURE_BAD_MAGIC,
  SUANLI_CAPTURE_BAD_VERSION,  /* a newer major format */
  SUANLI_CAPTURE_FOREIGN_ENDIAN,
  SUANLI_CAPTURE_BAD_SIZE,     /* a record or header size that cannot be */
} SuanliCaptureStatus;

const char          *suanli_capture_status_message (SuanliCaptureStatus status);
SuanliCaptureStatus  suanli_capture_read_header    (const void          *data,
                                                    size_t               length,
                                                    SuanliCaptureHeader *header,
                                                    size_t              *consumed);
SuanliCaptureStatus  suanli_capture_read_device    (const void          *data,
                                                    size_t               length,
                                                    const SuanliCaptureHeader *header,
                                                    SuanliCaptureDevice *device,
                                                    size_t              *consumed);
SuanliCaptureStatus  suanli_capture_next_record    (const void          *data,
                                                    size_t               length,
                                                    const SuanliCaptureRecord **record);
size_t               suanli_capture_copy_record    (const SuanliCaptureRecord *record,
                                                    void                *out,
                                                    size_t               out_size);
size_t               suanli_capture_record_size    (SuanliCaptureKind    kind);

/* ---- writing ------------------------------------------------------------------------------ */

void   suanli_capture_init_header (SuanliCaptureHeader *header,
                                   uint16_t             n_devices);
void   suanli_capture_init_record (SuanliCaptureRecord *record,
                                   SuanliCaptureKind    kind,
                                   uint32_t             size);
size_t suanli_capture_string_size (uint32_t             length);
size_t suanli_capture_write_string (void               *out,
                                    size_t              out_size,
                                    uint32_t            id,
                                    const char         *text,
                                    uint32_t            length);

#ifdef __cplusplus
}
#endif
