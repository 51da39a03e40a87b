// workload.cu — a CUDA job with known work, for the live-capture GPU check
//
// Two streams; 50 launches of suanli_long_kernel (a spin of about 200 µs) on the first, each timed
// with CUDA events; a burst of 20,000 launches of suanli_short_kernel on the second; 10 copies each
// way of 8 MiB; NVTX ranges around each phase. Writes what it did and measured to the file given
// (key value lines), for check-live.sh to compare with what the capture saw.
//
// SPDX-License-Identifier: GPL-3.0-or-later

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>
#include <nvtx3/nvToolsExt.h>

#define LONG_LAUNCHES  50
#define SHORT_LAUNCHES 20000
#define COPIES         10
#define COPY_BYTES     (8u << 20)

__global__ void
suanli_long_kernel (long long cycles, int *sink)
{
  long long start = clock64 ();
  while (clock64 () - start < cycles)
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

static void
check (cudaError_t status, const char *what)
{
  if (status != cudaSuccess)
    {
      fprintf (stderr, "workload: %s: %s\n", what, cudaGetErrorString (status));
      exit (2);
    }
}

int
main (int argc, char **argv)
{
  FILE *report = argc > 1 ? fopen (argv[1], "w") : stdout;
  cudaStream_t first, second;
  cudaDeviceProp properties;
  int *sink;
  char *device_buffer, *host_buffer;
  long long cycles;

  int clock_khz = 0;

  check (cudaGetDeviceProperties (&properties, 0), "cudaGetDeviceProperties");
  check (cudaDeviceGetAttribute (&clock_khz, cudaDevAttrClockRate, 0), "cudaDeviceGetAttribute");
  cycles = (long long) clock_khz * 200 / 1000;   // kHz × 200 µs
  check (cudaStreamCreate (&first), "cudaStreamCreate");
  check (cudaStreamCreate (&second), "cudaStreamCreate");
  check (cudaMalloc (&sink, 16), "cudaMalloc");
  check (cudaMalloc (&device_buffer, COPY_BYTES), "cudaMalloc");
  check (cudaMallocHost (&host_buffer, COPY_BYTES), "cudaMallocHost");

  // A warm-up launch, so that module loading is not in the timings.
  suanli_long_kernel<<<1, 32, 0, first>>> (1000, sink);
  check (cudaDeviceSynchronize (), "warm-up");

  nvtxRangePushA ("suanli_phase_long");
  {
    auto start = std::chrono::steady_clock::now ();
    for (int i = 0; i < LONG_LAUNCHES; i++)
      {
        cudaEvent_t before, after;
        float ms = 0;

        cudaEventCreate (&before);
        cudaEventCreate (&after);
        cudaEventRecord (before, first);
        suanli_long_kernel<<<properties.multiProcessorCount, 32, 0, first>>> (cycles, sink);
        cudaEventRecord (after, first);
        cudaEventSynchronize (after);
        cudaEventElapsedTime (&ms, before, after);
        fprintf (report, "long_event_ms %d %.6f\n", i, ms);
        cudaEventDestroy (before);
        cudaEventDestroy (after);
      }
    fprintf (report, "long_wall_ms %.3f\n",
             std::chrono::duration<double, std::milli> (std::chrono::steady_clock::now () - start).count ());
  }
  nvtxRangePop ();

  nvtxRangePushA ("suanli_phase_burst");
  {
    auto start = std::chrono::steady_clock::now ();
    for (int i = 0; i < SHORT_LAUNCHES; i++)
      suanli_short_kernel<<<1, 32, 0, second>>> (sink);
    check (cudaStreamSynchronize (second), "burst");
    fprintf (report, "burst_wall_ms %.3f\n",
             std::chrono::duration<double, std::milli> (std::chrono::steady_clock::now () - start).count ());
  }
  nvtxRangePop ();

  nvtxRangePushA ("suanli_phase_copies");
  for (int i = 0; i < COPIES; i++)
    {
      check (cudaMemcpyAsync (device_buffer, host_buffer, COPY_BYTES, cudaMemcpyHostToDevice, first), "HtoD");
      check (cudaMemcpyAsync (host_buffer, device_buffer, COPY_BYTES, cudaMemcpyDeviceToHost, first), "DtoH");
    }
  check (cudaStreamSynchronize (first), "copies");
  nvtxRangePop ();

  fprintf (report, "long_launches %d\nshort_launches %d\ncopies_each_way %d\n", LONG_LAUNCHES + 1, SHORT_LAUNCHES, COPIES);
  if (report != stdout)
    fclose (report);
  return 0;
}
