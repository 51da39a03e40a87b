// workload.cu — a CUDA job with known work, for the live-capture GPU check (check-live.sh)
//
//   workload REPORT                      one round, then exit (for `suanli-cli record -- workload`)
//   workload REPORT ROUNDS SIGNAL-DIR    after its set-up, writes SIGNAL-DIR/ready, then runs round
//                                        r (1…ROUNDS) once SIGNAL-DIR/go-r exists and writes
//                                        SIGNAL-DIR/done-r after it (for `record --attach`)
//
// Each round, on two streams, inside an NVTX range per phase:
//   suanli_phase_long    50 launches of suanli_long_kernel (a 200 µs spin on the GPU's global
//                        timer, so the SM clock does not change it), each timed with CUDA events
//                        and stamped with CLOCK_REALTIME before its launch and after its event
//   suanli_phase_burst   20,000 launches of suanli_short_kernel on the second stream
//   suanli_phase_copies  10 copies each way of 8 MiB (pinned) and one 1 MiB memset
//   suanli_phase_paths   suanli_path_kernel launched once by each launch path (the runtime's
//                        <<<>>>, cudaLaunchKernel, its _ptsz form, a cooperative launch,
//                        cudaLaunchKernelExC, cuLaunchKernel, cuLaunchKernelEx, a graph), each
//                        from a function of its own and with grid.x = the path's number
// Before the first round, one warm-up launch of suanli_long_kernel. Everything it did and measured
// goes to REPORT as "key value…" lines, for check-live.py to compare with the capture.
//
// SPDX-License-Identifier: GPL-3.0-or-later

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <string>
#include <unistd.h>
#include <cuda.h>
#include <cuda_runtime.h>
#include <nvtx3/nvToolsExt.h>

#define LONG_LAUNCHES  50
#define LONG_NS        200000
#define SHORT_LAUNCHES 20000
#define COPIES         10
#define COPY_BYTES     (8u << 20)
#define MEMSET_BYTES   (1u << 20)
#define WAIT_S         120   // for a go file, at most

// Declared by cuda_runtime_api.h only when the whole file is built for per-thread default streams.
extern "C" cudaError_t CUDARTAPI cudaLaunchKernel_ptsz (const void *func, dim3 grid, dim3 block, void **args,
                                                        size_t shared, cudaStream_t stream);

static __device__ __forceinline__ unsigned long long
global_ns ()
{
  unsigned long long now;
  asm volatile ("mov.u64 %0, %%globaltimer;" : "=l"(now));
  return now;
}

__global__ void
suanli_long_kernel (long long ns, int *sink)
{
  unsigned long long start = global_ns ();
  while (global_ns () - start < (unsigned long long) ns)
    ;
  if (threadIdx.x == 0 && blockIdx.x == 0)
    sink[0] = 1;
}

__global__ void
suanli_short_kernel (int *sink)
{
  if (threadIdx.x == 0 && blockIdx.x == 0)
    sink[1]++;
}

__global__ void
suanli_path_kernel (int *sink)
{
  if (threadIdx.x == 0)
    atomicAdd (&sink[2], 1);
}

static void
check (cudaError_t status, const char *what)
{
  if (status != cudaSuccess)
    {
      fprintf (stderr, "workload: %s: %s\n", what, cudaGetErrorString (status));
      exit (2);
    }
}

static void
check_driver (CUresult status, const char *what)
{
  if (status != CUDA_SUCCESS)
    {
      fprintf (stderr, "workload: %s: CUDA driver error %d\n", what, (int) status);
      exit (2);
    }
}

static long long
realtime_ns ()
{
  struct timespec now;
  clock_gettime (CLOCK_REALTIME, &now);
  return (long long) now.tv_sec * 1000000000LL + now.tv_nsec;
}

static double
ms_since (std::chrono::steady_clock::time_point start)
{
  return std::chrono::duration<double, std::milli> (std::chrono::steady_clock::now () - start).count ();
}

// ---- the launch paths: one function each, so that the launch's stack names it --------------------

typedef CUresult (*LaunchKernelFn) (CUfunction, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned,
                                    CUstream, void **, void **);
typedef CUresult (*LaunchKernelExFn) (const CUlaunchConfig *, CUfunction, void **, void **);

static LaunchKernelFn cu_launch_kernel;
static LaunchKernelExFn cu_launch_kernel_ex;

extern "C" __attribute__ ((noinline)) void
suanli_launch_chevrons (cudaStream_t stream, int *sink)
{
  suanli_path_kernel<<<1, 32, 0, stream>>> (sink);
  check (cudaGetLastError (), "<<<>>>");
}

extern "C" __attribute__ ((noinline)) void
suanli_launch_runtime (cudaStream_t stream, int *sink)
{
  void *args[] = { &sink };
  check (cudaLaunchKernel ((const void *) suanli_path_kernel, dim3 (2), dim3 (32), args, 0, stream), "cudaLaunchKernel");
}

extern "C" __attribute__ ((noinline)) void
suanli_launch_ptsz (int *sink)
{
  void *args[] = { &sink };
  check (cudaLaunchKernel_ptsz ((const void *) suanli_path_kernel, dim3 (3), dim3 (32), args, 0, cudaStreamPerThread),
         "cudaLaunchKernel_ptsz");
  check (cudaStreamSynchronize (cudaStreamPerThread), "per-thread stream");
}

extern "C" __attribute__ ((noinline)) void
suanli_launch_cooperative (cudaStream_t stream, int *sink)
{
  void *args[] = { &sink };
  check (cudaLaunchCooperativeKernel ((const void *) suanli_path_kernel, dim3 (4), dim3 (32), args, 0, stream),
         "cudaLaunchCooperativeKernel");
}

extern "C" __attribute__ ((noinline)) void
suanli_launch_ex (cudaStream_t stream, int *sink)
{
  cudaLaunchConfig_t config = {};
  void *args[] = { &sink };

  config.gridDim = dim3 (5);
  config.blockDim = dim3 (32);
  config.stream = stream;
  check (cudaLaunchKernelExC (&config, (const void *) suanli_path_kernel, args), "cudaLaunchKernelExC");
}

extern "C" __attribute__ ((noinline)) void
suanli_launch_driver (CUfunction function, cudaStream_t stream, int *sink)
{
  void *args[] = { &sink };
  check_driver (cu_launch_kernel (function, 6, 1, 1, 32, 1, 1, 0, (CUstream) stream, args, NULL), "cuLaunchKernel");
}

extern "C" __attribute__ ((noinline)) void
suanli_launch_driver_ex (CUfunction function, cudaStream_t stream, int *sink)
{
  CUlaunchConfig config = {};
  void *args[] = { &sink };

  config.gridDimX = 7, config.gridDimY = 1, config.gridDimZ = 1;
  config.blockDimX = 32, config.blockDimY = 1, config.blockDimZ = 1;
  config.hStream = (CUstream) stream;
  check_driver (cu_launch_kernel_ex (&config, function, args, NULL), "cuLaunchKernelEx");
}

extern "C" __attribute__ ((noinline)) void
suanli_launch_graph (cudaGraphExec_t graph, cudaStream_t stream)
{
  check (cudaGraphLaunch (graph, stream), "cudaGraphLaunch");
}

static const char *const path_names[] = {
  "", "chevrons", "runtime", "ptsz", "cooperative", "ex", "driver", "driver_ex", "graph",
};

// ---- a round ------------------------------------------------------------------------------------

struct Job
{
  FILE *report;
  cudaStream_t first, second;
  int *sink;
  char *device_buffer, *host_buffer;
  CUfunction path_function;
  cudaGraphExec_t graph;
  int sm_count;
};

static void
run_round (Job *job, int round)
{
  long long begin, end;

  nvtxRangePushA ("suanli_phase_long");
  begin = realtime_ns ();
  {
    auto start = std::chrono::steady_clock::now ();
    for (int i = 0; i < LONG_LAUNCHES; i++)
      {
        cudaEvent_t before, after;
        float ms = 0;
        long long launched, synchronized;

        check (cudaEventCreate (&before), "cudaEventCreate");
        check (cudaEventCreate (&after), "cudaEventCreate");
        launched = realtime_ns ();
        check (cudaEventRecord (before, job->first), "cudaEventRecord");
        suanli_long_kernel<<<job->sm_count, 32, 0, job->first>>> (LONG_NS, job->sink);
        check (cudaEventRecord (after, job->first), "cudaEventRecord");
        check (cudaEventSynchronize (after), "cudaEventSynchronize");
        synchronized = realtime_ns ();
        check (cudaEventElapsedTime (&ms, before, after), "cudaEventElapsedTime");
        fprintf (job->report, "long_event_ms %d %d %.6f\n", round, i, ms);
        fprintf (job->report, "long_realtime_ns %d %d %lld %lld\n", round, i, launched, synchronized);
        cudaEventDestroy (before);
        cudaEventDestroy (after);
      }
    fprintf (job->report, "long_wall_ms %d %.3f\n", round, ms_since (start));
  }
  end = realtime_ns ();
  nvtxRangePop ();
  fprintf (job->report, "phase_realtime_ns %d suanli_phase_long %lld %lld\n", round, begin, end);

  nvtxRangePushA ("suanli_phase_burst");
  begin = realtime_ns ();
  {
    auto start = std::chrono::steady_clock::now ();
    for (int i = 0; i < SHORT_LAUNCHES; i++)
      suanli_short_kernel<<<1, 32, 0, job->second>>> (job->sink);
    check (cudaStreamSynchronize (job->second), "burst");
    fprintf (job->report, "burst_wall_ms %d %.3f\n", round, ms_since (start));
  }
  end = realtime_ns ();
  nvtxRangePop ();
  fprintf (job->report, "phase_realtime_ns %d suanli_phase_burst %lld %lld\n", round, begin, end);

  nvtxRangePushA ("suanli_phase_copies");
  begin = realtime_ns ();
  for (int i = 0; i < COPIES; i++)
    {
      check (cudaMemcpyAsync (job->device_buffer, job->host_buffer, COPY_BYTES, cudaMemcpyHostToDevice, job->first), "HtoD");
      check (cudaMemcpyAsync (job->host_buffer, job->device_buffer, COPY_BYTES, cudaMemcpyDeviceToHost, job->first), "DtoH");
    }
  check (cudaMemsetAsync (job->device_buffer, 0, MEMSET_BYTES, job->first), "cudaMemsetAsync");
  check (cudaStreamSynchronize (job->first), "copies");
  end = realtime_ns ();
  nvtxRangePop ();
  fprintf (job->report, "phase_realtime_ns %d suanli_phase_copies %lld %lld\n", round, begin, end);

  nvtxRangePushA ("suanli_phase_paths");
  begin = realtime_ns ();
  suanli_launch_chevrons (job->first, job->sink);
  suanli_launch_runtime (job->first, job->sink);
  suanli_launch_ptsz (job->sink);
  suanli_launch_cooperative (job->first, job->sink);
  suanli_launch_ex (job->first, job->sink);
  suanli_launch_driver (job->path_function, job->first, job->sink);
  suanli_launch_driver_ex (job->path_function, job->first, job->sink);
  suanli_launch_graph (job->graph, job->first);
  check (cudaStreamSynchronize (job->first), "paths");
  end = realtime_ns ();
  nvtxRangePop ();
  fprintf (job->report, "phase_realtime_ns %d suanli_phase_paths %lld %lld\n", round, begin, end);
  fflush (job->report);
}

static void
set_up (Job *job)
{
  cudaFuncAttributes attributes;
  unsigned long long id;
  cudaDeviceProp properties;
  cudaDriverEntryPointQueryResult found;
  cudaGraph_t graph;

  check (cudaGetDeviceProperties (&properties, 0), "cudaGetDeviceProperties");
  job->sm_count = properties.multiProcessorCount;
  fprintf (job->report, "device %s\nsm_count %d\n", properties.name, properties.multiProcessorCount);
  check (cudaStreamCreateWithFlags (&job->first, cudaStreamNonBlocking), "cudaStreamCreate");
  check (cudaStreamCreateWithFlags (&job->second, cudaStreamNonBlocking), "cudaStreamCreate");
  check (cudaStreamGetId (job->first, &id), "cudaStreamGetId");
  fprintf (job->report, "stream_id first %llu\n", id);
  check (cudaStreamGetId (job->second, &id), "cudaStreamGetId");
  fprintf (job->report, "stream_id second %llu\n", id);
  check (cudaMalloc (&job->sink, 16), "cudaMalloc");
  check (cudaMalloc (&job->device_buffer, COPY_BYTES), "cudaMalloc");
  check (cudaMallocHost (&job->host_buffer, COPY_BYTES), "cudaMallocHost");
  memset (job->host_buffer, 1, COPY_BYTES);

  check (cudaFuncGetAttributes (&attributes, suanli_long_kernel), "cudaFuncGetAttributes");
  fprintf (job->report, "registers suanli_long_kernel %d\n", attributes.numRegs);
  check (cudaFuncGetAttributes (&attributes, suanli_short_kernel), "cudaFuncGetAttributes");
  fprintf (job->report, "registers suanli_short_kernel %d\n", attributes.numRegs);
  check (cudaFuncGetAttributes (&attributes, suanli_path_kernel), "cudaFuncGetAttributes");
  fprintf (job->report, "registers suanli_path_kernel %d\n", attributes.numRegs);

  // The driver's launches, reached through the runtime (no link to libcuda).
  check (cudaGetDriverEntryPointByVersion ("cuLaunchKernel", (void **) &cu_launch_kernel, 12000, cudaEnableDefault, &found),
         "cuLaunchKernel's entry point");
  check (cudaGetDriverEntryPointByVersion ("cuLaunchKernelEx", (void **) &cu_launch_kernel_ex, 12000, cudaEnableDefault,
                                           &found), "cuLaunchKernelEx's entry point");
  check (cudaGetFuncBySymbol ((cudaFunction_t *) &job->path_function, (const void *) suanli_path_kernel),
         "cudaGetFuncBySymbol");
  // A graph of one kernel, grid.x 8, captured from a stream: its launch makes no kernel, so the
  // range tells check-live.py to expect none.
  nvtxRangePushA ("suanli_graph_capture");
  check (cudaStreamBeginCapture (job->first, cudaStreamCaptureModeThreadLocal), "cudaStreamBeginCapture");
  suanli_path_kernel<<<8, 32, 0, job->first>>> (job->sink);
  check (cudaStreamEndCapture (job->first, &graph), "cudaStreamEndCapture");
  check (cudaGraphInstantiate (&job->graph, graph, 0), "cudaGraphInstantiate");
  nvtxRangePop ();
  for (int path = 1; path <= 8; path++)
    fprintf (job->report, "path %d %s\n", path, path_names[path]);

  // A warm-up launch, so that module loading is not in the timings.
  suanli_long_kernel<<<1, 32, 0, job->first>>> (1000, job->sink);
  check (cudaDeviceSynchronize (), "warm-up");
  fprintf (job->report, "long_ns %d\nlong_launches %d\nshort_launches %d\ncopies_each_way %d\ncopy_bytes %u\n"
           "memset_bytes %u\nwarm_up_launches 1\n", LONG_NS, LONG_LAUNCHES, SHORT_LAUNCHES, COPIES, COPY_BYTES,
           MEMSET_BYTES);
  fflush (job->report);
}

// Waits for @path to exist, for WAIT_S at most.
static bool
wait_for (const std::string &path)
{
  for (int i = 0; i < WAIT_S * 200; i++)
    {
      if (access (path.c_str (), F_OK) == 0)
        return true;
      usleep (5000);
    }
  return false;
}

static void
touch (const std::string &path)
{
  FILE *file = fopen (path.c_str (), "w");
  if (file == NULL)
    {
      perror (path.c_str ());
      exit (2);
    }
  fprintf (file, "%d\n", (int) getpid ());
  fclose (file);
}

int
main (int argc, char **argv)
{
  Job job = {};
  int rounds = argc > 2 ? atoi (argv[2]) : 1;

  if (argc < 2 || argc == 3 || rounds < 1)
    {
      fprintf (stderr, "usage: workload REPORT [ROUNDS SIGNAL-DIR]\n");
      return 2;
    }
  if ((job.report = fopen (argv[1], "w")) == NULL)
    {
      perror (argv[1]);
      return 2;
    }
  fprintf (job.report, "pid %d\nrounds %d\n", (int) getpid (), rounds);
  set_up (&job);
  if (argc == 2)
    run_round (&job, 1);
  else
    {
      std::string signals = argv[3];

      touch (signals + "/ready");
      for (int round = 1; round <= rounds; round++)
        {
          if (!wait_for (signals + "/go-" + std::to_string (round)))
            {
              fprintf (stderr, "workload: no %s/go-%d within %d s\n", signals.c_str (), round, WAIT_S);
              return 3;
            }
          run_round (&job, round);
          touch (signals + "/done-" + std::to_string (round));
        }
    }
  fclose (job.report);
  return 0;
}
