/* fake-cupti.h — a TEST DOUBLE of CUDA 13's libcupti.so.13, and the "GPU work" it reports
 *
 * tests/standins/fake-libcupti.c (with fake-libcupti-buffers.c and fake-libcupti-subscriber.c) builds
 * as libcupti.so.13 (soname and all), so the injection library finds and loads it as it would
 * NVIDIA's: already loaded in the job, or through SUANLI_CUPTI_PATH. It
 * implements the CUPTI calls of cupti.h that the library and Kineto make, with CUPTI's documented
 * semantics (one subscriber at a time; one pair of buffer callbacks for the whole process, the last
 * registration winning; records written into the client's buffers 8-byte aligned, full buffers
 * handed back on a worker thread of its own, cuptiActivityFlushAll on the calling thread; records
 * it had no buffer for counted as dropped; cuptiFinalize forgetting everything).
 *
 * There is no GPU: the functions below stand for what CUDA does when a job launches work, so a
 * stand-in job (tests/standins/cupti-job.c) can call them where a real one calls cudaLaunchKernel and the
 * rest. Each call makes what CUDA and CUPTI make of the real one: the API's enter callback in its
 * domain with a fresh correlation id (a runtime call also makes its nested driver call, with its
 * own callbacks and id, as libcudart does), the activity records of the kinds enabled (the GPU
 * work with the runtime call's correlation id; an API record for the call when RUNTIME or DRIVER,
 * or that callback id alone, is enabled; none for the nested driver call, as CUPTI records none),
 * then the exit callback.
 *
 * What stands in for time on the GPU: work runs at once, on the fake's clock (cuptiGetTimestamp:
 * CLOCK_MONOTONIC an hour ahead, deliberately not CLOCK_REALTIME; or, once a client registers a
 * timestamp callback, that callback's clock, the GPU's times interpolated onto it as CUPTI does),
 * unless its stream is held
 * (fake_cupti_hold_stream): then its records stay incomplete, with zero start and end, and a
 * buffer holding one is not handed back (not even by a default flush) until the stream is let go;
 * a forced flush hands it back as it is, zeros and all, as CUPTI does with kernels still running.
 *
 * Switches, read when the library is loaded: FAKE_CUPTI_VERSION=N (what cuptiGetVersion says;
 * 130001 by default), FAKE_CUPTI_ZERO_TIMESTAMPS=N (every Nth kernel record has zero start and
 * end), FAKE_CUPTI_FINALIZE_MS=N (cuptiFinalize takes N ms before it forgets), FAKE_CUPTI_FLUSH_HANG=1 (cuptiActivityFlushAll never returns; also fake_cupti_set_flush_hang).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <stdbool.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The launch paths CUDA has: runtime ones (each calling its driver twin), driver ones, graphs. */
typedef enum {
  FAKE_LAUNCH_CUDA_LAUNCH_KERNEL,              /* cudaLaunchKernel → cuLaunchKernel */
  FAKE_LAUNCH_CUDA_LAUNCH_KERNEL_PTSZ,         /* cudaLaunchKernel_ptsz → cuLaunchKernel_ptsz */
  FAKE_LAUNCH_CUDA_LAUNCH_KERNEL_EXC,          /* cudaLaunchKernelExC → cuLaunchKernelEx */
  FAKE_LAUNCH_CUDA_LAUNCH_KERNEL_EXC_PTSZ,
  FAKE_LAUNCH_CUDA_LAUNCH_COOPERATIVE,         /* cudaLaunchCooperativeKernel → cuLaunchCooperativeKernel */
  FAKE_LAUNCH_CUDA_LAUNCH_COOPERATIVE_PTSZ,
  FAKE_LAUNCH_CU_LAUNCH_KERNEL,                /* the driver called directly (Triton, torch.compile) */
  FAKE_LAUNCH_CU_LAUNCH_KERNEL_PTSZ,
  FAKE_LAUNCH_CU_LAUNCH_KERNEL_EX,
  FAKE_LAUNCH_CU_LAUNCH_KERNEL_EX_PTSZ,
  FAKE_LAUNCH_CU_LAUNCH_COOPERATIVE,
  FAKE_LAUNCH_CU_LAUNCH_COOPERATIVE_PTSZ,
  FAKE_LAUNCH_CUDA_GRAPH_LAUNCH,               /* cudaGraphLaunch → cuGraphLaunch: a graph's kernel nodes */
  FAKE_LAUNCH_CU_GRAPH_LAUNCH,
  FAKE_N_LAUNCH_PATHS
} FakeLaunchPath;

/* The runtime function a path's name is ("cudaLaunchKernel", "cuLaunchKernelEx_ptsz"), and back
 * (-1 when @name is none). */
const char *fake_cupti_launch_path_name (FakeLaunchPath  path);
int         fake_cupti_launch_path_from_name (const char *name);

/* One kernel launch (not a graph's) of the kernel @mangled_name on @stream, running @duration_ns.
 * Returns: the correlation id its kernel record carries. */
uint32_t fake_cupti_launch       (FakeLaunchPath  path,
                                  const char     *mangled_name,
                                  uint32_t        stream,
                                  uint64_t        duration_ns);
/* A graph launch (FAKE_LAUNCH_CUDA_GRAPH_LAUNCH or FAKE_LAUNCH_CU_GRAPH_LAUNCH) of graph @graph_id:
 * one kernel per name, each with the graph's id and a node id of its own (written to @node_ids when
 * not NULL). Returns: the launch's correlation id, which all its kernels carry. */
uint32_t fake_cupti_graph_launch (FakeLaunchPath     path,
                                  uint32_t           graph_id,
                                  const char * const *mangled_names,
                                  unsigned           n_nodes,
                                  uint32_t           stream,
                                  uint64_t          *node_ids);
/* cudaMemcpyAsync (→ cuMemcpy…Async) of @bytes in direction @copy_kind (CUpti_ActivityMemcpyKind);
 * cudaMemsetAsync (→ cuMemsetD8Async). Return their correlation ids. */
uint32_t fake_cupti_memcpy       (uint8_t   copy_kind,
                                  uint64_t  bytes,
                                  uint32_t  stream);
uint32_t fake_cupti_memset       (uint64_t  bytes,
                                  uint32_t  value,
                                  uint32_t  stream);

/* A held stream's work does not finish (a long kernel ahead of it) until it is let go. */
void fake_cupti_hold_stream      (uint32_t  stream,
                                  bool      held);
void fake_cupti_set_flush_hang   (bool      hang);
/* cudaStreamBeginCapture / cudaStreamEndCapture: while @stream is captured its launches run nothing
 * and write no kernel record (the kernel becomes a node of the graph being built); their API calls
 * and callbacks are as ever. */
void fake_cupti_capture_stream   (uint32_t  stream,
                                  bool      capturing);

/* What the fake holds now, for the tests to compare with what the library should have left. */
typedef struct
{
  bool      subscribed;
  char      subscriber_name[64];    /* "CUPTI for <name>" given to cuptiSubscribe_v2, "" otherwise */
  void     *subscriber_callback;
  unsigned  runtime_callbacks;      /* callback ids enabled for the subscriber, per domain */
  unsigned  driver_callbacks;
  uint64_t  kinds;                  /* bit k: activity kind k enabled */
  unsigned  runtime_api_records;    /* runtime callback ids whose API records are collected */
  unsigned  driver_api_records;
  void     *buffer_requested;       /* the registered callbacks; NULL: none */
  void     *buffer_completed;
  unsigned  finalized;              /* cuptiFinalize calls */
  int       thread_id_type;         /* CUpti_ActivityThreadIdType */
  uint64_t  records_written;
  uint64_t  records_dropped;        /* for want of a buffer, in all (not reset by reading) */
  uint64_t  kernels_dropped;        /* of which kernel records */
  uint64_t  buffers_requested;
  uint64_t  buffers_completed;      /* handed back through the completed callback */
  unsigned  buffers_held;           /* the client's, not yet handed back */
  unsigned  flushes;                /* cuptiActivityFlushAll calls */
} FakeCuptiState;

void fake_cupti_state (FakeCuptiState *state);

#ifdef __cplusplus
}
#endif
