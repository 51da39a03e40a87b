/* suanli-analysis.h — what a trace says: GPU time by kind of work, idle time by cause, top kernels,
 * CPU operators, launch delays, training steps, collectives and ranks compared
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "suanli-trace.h"

G_BEGIN_DECLS

/* A gap between GPU work shorter than this is "kernel wait": HolisticTraceAnalysis's default
 * consecutive_kernel_delay of 30, which its docs call nanoseconds but which it compares with
 * Kineto's times, in microseconds. */
#define SUANLI_SHORT_GAP_NS 30000

typedef enum {
  SUANLI_MEMCPY_HTOD,
  SUANLI_MEMCPY_DTOH,
  SUANLI_MEMCPY_DTOD,
  SUANLI_MEMCPY_PTOP,     /* peer to peer, between GPUs */
  SUANLI_MEMCPY_OTHER,    /* a direction the name does not give */
  SUANLI_MEMCPY_N_DIRECTIONS
} SuanliMemcpyDirection;

typedef struct
{
  guint64 count;
  guint64 bytes;          /* from the copies' "bytes" argument; 0 where absent */
  gint64  total_ns;       /* summed durations, for bandwidth: copies of one direction rarely overlap */
  gint64  sized_ns;       /* summed durations of the copies that gave their bytes */
} SuanliMemcpyStats;

typedef struct
{
  gint64 device;       /* the GPU's index (its pid in Kineto traces) */
  int    rank;         /* -1 when unknown */
  guint  group;        /* the file it came from (SuanliGroup) */
  gint64 span_ns;      /* first GPU activity to last */
  gint64 kernel_ns;    /* covered by at least one kernel */
  gint64 busy_ns;      /* covered by any GPU activity: kernels, memcpy, memset */
  gint64 comm_ns;      /* covered by communication kernels (NCCL, RCCL) */
  gint64 compute_ns;   /* covered by kernels other than communication ones */
  gint64 memcpy_ns;
  gint64 memset_ns;
  gint64 idle_ns;      /* span − busy = host_wait + short_gap + other_idle */
  gint64 host_wait_ns; /* gaps where the next work was launched by the CPU only after the gap began */
  gint64 short_gap_ns; /* gaps shorter than SUANLI_SHORT_GAP_NS between work already queued */
  gint64 other_idle_ns;/* the rest: waits on events, syncs, other streams, unknown launches */
  SuanliMemcpyStats memcpy[SUANLI_MEMCPY_N_DIRECTIONS];
} SuanliGpuTime;

typedef struct
{
  SuanliString name;
  guint64      count;
  gint64       total_ns;
  gint64       min_ns;
  gint64       max_ns;
} SuanliKernelStats;

/* CPU operators (cpu_op, or Operator in older traces) by name. */
typedef struct
{
  SuanliString name;
  guint64      count;
  gint64       total_ns;    /* outermost calls only: a recursive operator is not counted twice */
  gint64       self_ns;     /* minus the time of the slices directly under it */
  gint64       max_ns;
} SuanliOperatorStats;

/* From each CPU launch to the start of the GPU work it launched, per file (rank): from the launch
 * call's start (the figures at the top), and from its end, when the call had returned (from_end:
 * negative where the work started before the call returned). */
typedef struct
{
  guint   group;
  guint64 count;
  gint64  min_ns;
  gint64  median_ns;
  gint64  p95_ns;
  gint64  max_ns;
  double  mean_ns;
  struct {
    gint64 min_ns;
    gint64 median_ns;
    gint64 p95_ns;
    gint64 max_ns;
    double mean_ns;
  } from_end;
} SuanliLaunchDelays;

/* One GPU stream: its idle time split as on a device (see SuanliGpuTime), and its queue: the GPU
 * work launched on it and not yet finished, as HolisticTraceAnalysis counts it (+1 when the CPU
 * call that launched the work starts, −1 when the work ends; work without a recorded launch is
 * not counted). */
typedef struct
{
  gint64  device;        /* the device's pid */
  gint64  stream;        /* the stream's tid */
  guint   track;         /* the stream's track */
  guint   group;
  int     rank;
  gint64  span_ns;       /* its first work's start to its last work's end */
  gint64  busy_ns;
  gint64  idle_ns;       /* span − busy = host_wait + short_gap + other_idle */
  gint64  host_wait_ns;
  gint64  short_gap_ns;
  gint64  other_idle_ns;
  guint64 launched;      /* work with a recorded launch: what the queue counts */
  gint64  queue_max;     /* the most launched and unfinished at once */
  double  queue_mean;    /* averaged over time, from the first launch to the last end */
  double  queue_mean_of_changes; /* averaged over the changes, as HTA's queue length summary is */
} SuanliStreamTime;

/* One ProfilerStep#N annotation on a CPU thread, and the GPU work of its file inside it. */
typedef struct
{
  guint   group;
  int     rank;
  gint64  step;          /* N */
  gint64  start;
  gint64  cpu_ns;        /* the annotation's own span */
  gint64  duration_ns;   /* its period: to the next step's start (see suanli-analysis-steps.c) */
  gint64  kernel_ns;     /* union of the file's kernels inside the period */
  gint64  busy_ns;       /* union of all the file's GPU work inside the period */
  gint64  comm_ns;       /* union of its communication kernels inside the period */
  guint64 kernels;       /* kernels starting inside the period */
} SuanliStepStats;

/* Communication kernels of one collective (AllReduce, AllGather, SendRecv …) in one file. */
typedef struct
{
  guint        group;
  char         collective[48];   /* kept here, not interned: analyses only read the trace */
  guint64      count;
  gint64       total_ns;
  guint64      sized;         /* kernels whose message size the trace gives (record_param_comms) */
  guint64      bytes;         /* their bytes, summed */
  gint64       sized_ns;      /* their durations, summed */
  int          group_size;    /* ranks in the collective's group; 0 when the trace does not say */
  double       algbw_gbps;    /* bytes ÷ time, 0 when no size is known */
  double       busbw_gbps;    /* algbw × the collective's bus factor; 0 when it cannot be known */
} SuanliCollectiveStats;

/* A rank is a straggler when its measure (see SuanliRankStats) exceeds the median over the ranks
 * by more than this fraction. */
#define SUANLI_STRAGGLER_THRESHOLD 0.05

/* What the ranks are compared by: the median step time where a rank has ProfilerStep#N
 * annotations; GPU busy time where it has none (a file cut before its first step, a capture
 * without annotations). */
typedef enum {
  SUANLI_RANK_BY_STEP,
  SUANLI_RANK_BY_BUSY,
} SuanliRankMeasure;

/* One file (rank) of a trace: its steps, its GPU time and how it compares with the other ranks.
 * Ranks are compared within their measure: those with steps by median step time against the
 * median of those ranks' median step times, those without by GPU busy time against the median of
 * their busy times. The median over ranks is the lower middle value when their count is even, so
 * that of two ranks the slower one is measured against the faster. */
typedef struct
{
  guint             group;
  int               rank;             /* -1 when unknown */
  SuanliString      name;             /* the group's: its file */
  guint             steps;
  gint64            median_step_ns;   /* -1 without steps */
  gint64            slowest_step_ns;  /* -1 without steps */
  gint64            busy_ns;          /* GPU busy time, summed over the group's devices */
  gint64            compute_ns;       /* in kernels other than communication ones */
  gint64            comm_ns;          /* in communication kernels (NCCL, RCCL) */
  SuanliRankMeasure measure;
  gint64            measured_ns;      /* the median step time or the busy time */
  gint64            reference_ns;     /* the median of measured_ns over the ranks of the same measure */
  double            slower;           /* measured_ns ÷ reference_ns − 1; 0 when there is no reference */
  gboolean          straggler;        /* measured_ns > reference_ns × (1 + SUANLI_STRAGGLER_THRESHOLD) */
} SuanliRankStats;

/* The most memory one device's allocator held during the trace, from PyTorch's "[memory]" events
 * (profile_memory=True), which the importer turns into two counters per device. */
typedef struct
{
  gint64  pid;             /* the process whose counters these are */
  guint   group;
  gint64  device_type;     /* c10's DeviceType: 0 CPU, 1 CUDA (ROCm's GPUs report as CUDA too) */
  gint64  device;          /* its index; -1 for the CPU */
  double  peak_allocated;  /* bytes in tensors; -1 when the trace does not say */
  double  peak_reserved;   /* bytes the caching allocator held from the device; -1 when not said */
  gint64  peak_time;       /* when the allocated bytes peaked */
} SuanliMemoryPeak;

/* Floating-point operations that PyTorch's profiler counted (with_flops=True: matrix products and
 * convolutions carry a "flops" argument), or that the inputs' shapes give (record_shapes=True). */
typedef struct
{
  double  flops;           /* summed over the outermost operators that carry one */
  guint64 operators;       /* how many did */
  guint64 from_shapes;     /* of them, those counted from their inputs' shapes (record_shapes=True) */
  gint64  first_ns;        /* the first such operator's start */
  gint64  last_ns;         /* the last one's end */
} SuanliFlopCount;

gboolean suanli_analysis_is_gpu_work      (SuanliTrace       *trace,
                                           const SuanliSlice *slice);
gboolean suanli_analysis_is_communication (const char        *name);
GArray  *suanli_analysis_gpu_time         (SuanliTrace       *trace);
GArray  *suanli_analysis_stream_time      (SuanliTrace       *trace);
GArray  *suanli_analysis_queue_length     (SuanliTrace       *trace,
                                           guint              track);
void     suanli_analysis_add_queue_counters (SuanliTrace     *trace,
                                           guint              group);
char    *suanli_queue_counter_name        (gint64             stream);
GArray  *suanli_analysis_top_kernels      (SuanliTrace       *trace);
GArray  *suanli_analysis_top_kernels_in   (SuanliTrace       *trace,
                                           gint64             from,
                                           gint64             to);
GArray  *suanli_analysis_cpu_operators    (SuanliTrace       *trace);
GArray  *suanli_analysis_cpu_operators_in (SuanliTrace       *trace,
                                           gint64             from,
                                           gint64             to);
gint64   suanli_analysis_overlap          (const SuanliSlice *slice,
                                           gint64             from,
                                           gint64             to);
GArray  *suanli_analysis_launch_delays    (SuanliTrace       *trace);
GArray  *suanli_analysis_steps            (SuanliTrace       *trace);
GArray  *suanli_analysis_collectives      (SuanliTrace       *trace);
GArray  *suanli_analysis_ranks            (SuanliTrace       *trace);
GArray  *suanli_analysis_ranks_from       (SuanliTrace       *trace,
                                           GArray            *gpus,
                                           GArray            *steps);
gint64   suanli_analysis_median_step      (GArray            *steps);
gint64   suanli_analysis_step_time        (GArray            *steps);
double   suanli_analysis_bus_factor       (const char        *collective,
                                           int                group_size);
char    *suanli_analysis_collective_name  (const char        *kernel);
char    *suanli_memory_device_name        (gint64             device_type,
                                           gint64             device);
char    *suanli_memory_counter_name       (gint64             device_type,
                                           gint64             device,
                                           gboolean           reserved);
GArray  *suanli_analysis_memory_peaks     (SuanliTrace       *trace);
void     suanli_analysis_flops            (SuanliTrace       *trace,
                                           SuanliFlopCount   *count);
const char *suanli_memcpy_direction_name  (SuanliMemcpyDirection direction);

G_END_DECLS
