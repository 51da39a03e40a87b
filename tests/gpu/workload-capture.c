/* workload-capture.c — what one round of tests/gpu/workload.cu would make, without a GPU: for
 * `check-live.sh selftest`, which runs the check's table code over it.
 *
 *   workload-capture launch|attach CAPTURE REPORT [KINETO] [OPTION…]
 *
 * Writes CAPTURE as the injection library sends it (the real writer of profiler/capture: header,
 * device, strings, API calls, NVTX ranges, kernels with mangled names, copies, a memset, the end),
 * REPORT as the workload writes its report, and KINETO (when given) as torch.profiler would trace
 * the same GPU work (demangled names). "launch" is a capture from the job's first CUDA call (set-up
 * and warm-up included, the from-launch flag set, ended by the job's exit); "attach" one round
 * from a START (ended by STOP). Options:
 *   --lose-kernel       one kernel of the burst is missing from the capture (not from KINETO)
 *   --long-wall-ms F    the long loop's wall time in REPORT (default 10.8)
 *   --end-reason N      the end record's reason (SuanliEndReason), with a detail
 *   --rounds N          REPORT says N rounds (their wall times), CAPTURE holds one
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "suanli-capture.h"

#define US 1000ull
#define LONG_LAUNCHES 50
#define SHORT_LAUNCHES 20000
#define COPIES 10
#define COPY_BYTES (8u << 20)
#define MEMSET_BYTES (1u << 20)
#define SM_COUNT 132
#define THREAD 4242
#define FIRST_STREAM 13
#define SECOND_STREAM 14
#define PER_THREAD_STREAM 15
#define T0 (5000000000ull)                    /* CUPTI's clock at the first record */
#define REALTIME_AT_T0 (1760000000000000000ll) /* CLOCK_REALTIME then */

typedef struct
{
  FILE       *capture;
  FILE       *report;
  FILE       *kineto;
  int         kineto_first;
  uint64_t    records;
  uint32_t    next_string;
  const char *strings[64];
  uint32_t    correlation;
  uint64_t    now;           /* the CPU's time, CUPTI's clock */
  uint64_t    stream_free[3]; /* when each stream's last work ends */
  int         lose_kernel;
} Writer;

static void
put (Writer *w, const void *record, size_t size)
{
  if (fwrite (record, 1, size, w->capture) != size)
    {
      perror ("workload-capture");
      exit (1);
    }
  w->records++;
}

static uint32_t
string_id (Writer *w, const char *text)
{
  char buffer[512];
  size_t size;

  for (uint32_t i = 1; i < w->next_string; i++)
    if (strcmp (w->strings[i], text) == 0)
      return i;
  if (w->next_string == sizeof w->strings / sizeof w->strings[0])
    {
      fprintf (stderr, "workload-capture: too many names\n");
      exit (1);
    }
  w->strings[w->next_string] = strdup (text);
  size = suanli_capture_write_string (buffer, sizeof buffer, w->next_string, text, (uint32_t) strlen (text));
  put (w, buffer, size);
  return w->next_string++;
}

static long long
realtime (uint64_t cupti_ns)
{
  return (long long) (cupti_ns - T0) + REALTIME_AT_T0;
}

static uint32_t
api (Writer *w, const char *name, uint64_t start, uint64_t end)
{
  SuanliCaptureApi record = { 0 };

  suanli_capture_init_record (&record.record, SUANLI_CAPTURE_API, sizeof record);
  record.start = start, record.end = end;
  record.correlation = ++w->correlation;
  record.callback_id = 211;
  record.thread = THREAD;
  record.domain = name[0] == 'c' && name[1] == 'u' && name[2] != 'd' ? SUANLI_API_DRIVER : SUANLI_API_RUNTIME;
  record.name = string_id (w, name);
  put (w, &record, sizeof record);
  return record.correlation;
}

static void
nvtx (Writer *w, const char *name, uint64_t start, uint64_t end)
{
  SuanliCaptureNvtx record = { 0 };

  suanli_capture_init_record (&record.record, SUANLI_CAPTURE_NVTX_RANGE, sizeof record);
  record.start = start, record.end = end;
  record.thread = THREAD;
  record.name = string_id (w, name);
  put (w, &record, sizeof record);
}

static void
kineto_event (Writer *w, const char *category, const char *name, uint32_t stream, uint64_t start, uint64_t end,
              const char *args)
{
  long long at = realtime (start);

  if (w->kineto == NULL)
    return;
  fprintf (w->kineto, "%s\n{\"ph\":\"X\",\"cat\":\"%s\",\"name\":\"%s\",\"pid\":0,\"tid\":%u,\"ts\":%lld.%03lld,"
           "\"dur\":%llu.%03llu,\"args\":{%s}}", w->kineto_first ? "" : ",", category, name, stream, at / 1000,
           at % 1000, (unsigned long long) (end - start) / 1000, (unsigned long long) (end - start) % 1000, args);
  w->kineto_first = 0;
}

/* A kernel launched now by @api_name on @stream, running @duration; returns when it ends. */
static uint64_t
launch (Writer *w, const char *api_name, const char *mangled, const char *demangled, int stream, int grid,
        uint32_t registers, uint64_t duration, const char *stack, uint32_t graph, int lost)
{
  static const uint32_t stream_ids[] = { FIRST_STREAM, SECOND_STREAM, PER_THREAD_STREAM };
  SuanliCaptureKernel record = { 0 };
  uint64_t start = w->now + 3 * US > w->stream_free[stream] ? w->now + 3 * US : w->stream_free[stream];
  char args[160];

  record.correlation = api (w, api_name, w->now, w->now + 2 * US);
  w->now += 2 * US + 500;
  suanli_capture_init_record (&record.record, SUANLI_CAPTURE_KERNEL, sizeof record);
  record.start = start, record.end = start + duration;
  record.context = 1;
  record.stream = stream_ids[stream];
  record.name = string_id (w, mangled);
  record.grid[0] = grid, record.grid[1] = record.grid[2] = 1;
  record.block[0] = 32, record.block[1] = record.block[2] = 1;
  record.registers_per_thread = registers;
  record.graph = graph;
  record.stack = string_id (w, stack);
  w->stream_free[stream] = record.end;
  if (!lost)
    put (w, &record, sizeof record);
  snprintf (args, sizeof args, "\"correlation\":%u,\"stream\":%u,\"grid\":[%d,1,1],\"block\":[32,1,1]", record.correlation,
            record.stream, grid);
  kineto_event (w, "kernel", demangled, record.stream, record.start, record.end, args);
  return record.end;
}

static void
copy (Writer *w, SuanliCopyKind kind, uint64_t bytes)
{
  SuanliCaptureMemcpy record = { 0 };
  uint64_t start;

  record.correlation = api (w, "cudaMemcpyAsync_v3020", w->now, w->now + 3 * US);
  w->now += 4 * US;
  start = w->stream_free[0] > w->now ? w->stream_free[0] : w->now;
  suanli_capture_init_record (&record.record, SUANLI_CAPTURE_MEMCPY, sizeof record);
  record.start = start, record.end = start + 160 * US;
  record.bytes = bytes;
  record.stream = FIRST_STREAM;
  record.copy_kind = kind;
  w->stream_free[0] = record.end;
  put (w, &record, sizeof record);
}

static void
synchronize (Writer *w, const char *name, int stream)
{
  uint64_t start = w->now;

  w->now = (w->stream_free[stream] > w->now ? w->stream_free[stream] : w->now) + 2 * US;
  api (w, name, start, w->now);
  w->now += 1 * US;
}

static void
round_of_work (Writer *w, int round)
{
  static const char *const paths[] = { "chevrons", "runtime", "ptsz", "cooperative", "ex", "driver", "driver_ex", "graph" };
  static const char *const path_apis[] = { "__cudaLaunchKernel_v13000", "cudaLaunchKernel_v7000",
    "cudaLaunchKernel_ptsz_v7000", "cudaLaunchCooperativeKernel_v9000", "cudaLaunchKernelExC_v11060",
    "cuLaunchKernel", "cuLaunchKernelEx", "cudaGraphLaunch_v10000" };
  char stack[160];
  uint64_t begin;

  begin = w->now;
  w->now += 1 * US;
  for (int i = 0; i < LONG_LAUNCHES; i++)
    {
      uint64_t launched = w->now, end;

      api (w, "cudaEventRecord_v3020", w->now, w->now + 1 * US);
      w->now += 1 * US;
      end = launch (w, "__cudaLaunchKernel_v13000", "_Z18suanli_long_kernelxPi", "suanli_long_kernel(long long, int*)", 0,
                    SM_COUNT, 16, 200 * US + (uint64_t) i * 37, "run_round(Job*, int)\nmain", 0, 0);
      api (w, "cudaEventRecord_v3020", w->now, w->now + 1 * US);
      w->now += 1 * US;
      synchronize (w, "cudaEventSynchronize_v3020", 0);
      fprintf (w->report, "long_event_ms %d %d %.6f\n", round, i, (double) (200 * US + (uint64_t) i * 37 + 1500) / 1e6);
      fprintf (w->report, "long_realtime_ns %d %d %lld %lld\n", round, i, realtime (launched) - 400, realtime (w->now) + 300);
      (void) end;
    }
  nvtx (w, "suanli_phase_long", begin, w->now);
  fprintf (w->report, "phase_realtime_ns %d suanli_phase_long %lld %lld\n", round, realtime (begin), realtime (w->now));

  begin = w->now;
  for (int i = 0; i < SHORT_LAUNCHES; i++)
    launch (w, "__cudaLaunchKernel_v13000", "_Z19suanli_short_kernelPi", "suanli_short_kernel(int*)", 1, 1, 8, 1500,
            "run_round(Job*, int)\nmain", 0, w->lose_kernel && i == SHORT_LAUNCHES / 2);
  synchronize (w, "cudaStreamSynchronize_v3020", 1);
  nvtx (w, "suanli_phase_burst", begin, w->now);

  begin = w->now;
  for (int i = 0; i < COPIES; i++)
    {
      copy (w, SUANLI_COPY_HTOD, COPY_BYTES);
      copy (w, SUANLI_COPY_DTOH, COPY_BYTES);
    }
  {
    SuanliCaptureMemset record = { 0 };

    record.correlation = api (w, "cudaMemsetAsync_v3020", w->now, w->now + 2 * US);
    w->now += 3 * US;
    suanli_capture_init_record (&record.record, SUANLI_CAPTURE_MEMSET, sizeof record);
    record.start = w->stream_free[0] > w->now ? w->stream_free[0] : w->now;
    record.end = record.start + 4 * US;
    record.bytes = MEMSET_BYTES;
    record.stream = FIRST_STREAM;
    w->stream_free[0] = record.end;
    put (w, &record, sizeof record);
  }
  synchronize (w, "cudaStreamSynchronize_v3020", 0);
  nvtx (w, "suanli_phase_copies", begin, w->now);

  begin = w->now;
  for (int p = 0; p < 8; p++)
    {
      snprintf (stack, sizeof stack, "suanli_launch_%s\nrun_round(Job*, int)\nmain", paths[p]);
      launch (w, path_apis[p], "_Z18suanli_path_kernelPi", "suanli_path_kernel(int*)", p == 2 ? 2 : 0, p + 1, 10,
              3 * US, stack, p == 7 ? 1 : 0, 0);
    }
  synchronize (w, "cudaStreamSynchronize_v3020", 0);
  nvtx (w, "suanli_phase_paths", begin, w->now);
  fprintf (w->report, "burst_wall_ms %d 61.000\n", round);
}

int
main (int    argc,
      char **argv)
{
  Writer w = { 0 };
  SuanliCaptureHeader header;
  SuanliCaptureDevice device = { 0 };
  SuanliCaptureEnd end = { 0 };
  int launch_mode, rounds = 1, end_reason;
  double long_wall = 10.8;
  int first_option = 4;

  if (argc < 4 || (strcmp (argv[1], "launch") != 0 && strcmp (argv[1], "attach") != 0))
    {
      fprintf (stderr, "usage: workload-capture launch|attach CAPTURE REPORT [KINETO] [--lose-kernel] [--long-wall-ms F] "
               "[--end-reason N] [--rounds N]\n");
      return 2;
    }
  launch_mode = strcmp (argv[1], "launch") == 0;
  end_reason = launch_mode ? SUANLI_END_JOB_EXIT : SUANLI_END_STOPPED;
  if (argc > 4 && argv[4][0] != '-')
    {
      if ((w.kineto = fopen (argv[4], "w")) == NULL)
        {
          perror (argv[4]);
          return 1;
        }
      fputs ("{\"traceEvents\":[", w.kineto);
      w.kineto_first = 1;
      first_option = 5;
    }
  for (int i = first_option; i < argc; i++)
    if (strcmp (argv[i], "--lose-kernel") == 0)
      w.lose_kernel = 1;
    else if (strcmp (argv[i], "--long-wall-ms") == 0 && i + 1 < argc)
      long_wall = atof (argv[++i]);
    else if (strcmp (argv[i], "--end-reason") == 0 && i + 1 < argc)
      end_reason = atoi (argv[++i]);
    else if (strcmp (argv[i], "--rounds") == 0 && i + 1 < argc)
      rounds = atoi (argv[++i]);
    else
      {
        fprintf (stderr, "workload-capture: unknown option %s\n", argv[i]);
        return 2;
      }
  if ((w.capture = fopen (argv[2], "wb")) == NULL || (w.report = fopen (argv[3], "w")) == NULL)
    {
      perror ("workload-capture");
      return 1;
    }
  w.next_string = 1;
  w.now = T0;

  suanli_capture_init_header (&header, 1);
  header.pid = 4242;
  header.cupti_version = 28;
  header.clock_offset_ns = REALTIME_AT_T0 - (long long) T0;
  header.start_realtime_ns = (uint64_t) REALTIME_AT_T0;
  header.flags = launch_mode ? SUANLI_CAPTURE_FROM_LAUNCH : 0;
  strcpy (header.host, "selftest");
  fwrite (&header, 1, sizeof header, w.capture);
  device.sm_count = SM_COUNT;
  device.memory_bytes = 141ull << 30;
  device.compute_capability = 90;
  strcpy (device.name, "NVIDIA H200");
  fwrite (&device, 1, sizeof device, w.capture);

  fprintf (w.report, "pid 4242\nrounds %d\ndevice NVIDIA H200\nsm_count %d\nstream_id first %d\nstream_id second %d\n"
           "registers suanli_long_kernel 16\nregisters suanli_short_kernel 8\nregisters suanli_path_kernel 10\n",
           rounds, SM_COUNT, FIRST_STREAM, SECOND_STREAM);
  for (int p = 1; p <= 8; p++)
    fprintf (w.report, "path %d %s\n", p,
             (const char *[]) { "", "chevrons", "runtime", "ptsz", "cooperative", "ex", "driver", "driver_ex", "graph" }[p]);
  fprintf (w.report, "long_ns 200000\nlong_launches %d\nshort_launches %d\ncopies_each_way %d\ncopy_bytes %u\n"
           "memset_bytes %u\nwarm_up_launches 1\n", LONG_LAUNCHES, SHORT_LAUNCHES, COPIES, COPY_BYTES, MEMSET_BYTES);
  if (launch_mode)
    {
      /* The set-up: a stream capture's launch (no kernel comes of it), then the warm-up. */
      uint64_t begin = w.now;

      api (&w, "__cudaLaunchKernel_v13000", w.now, w.now + 2 * US);
      w.now += 3 * US;
      nvtx (&w, "suanli_graph_capture", begin, w.now);
      launch (&w, "__cudaLaunchKernel_v13000", "_Z18suanli_long_kernelxPi", "suanli_long_kernel(long long, int*)", 0, 1,
              16, 2 * US, "set_up(Job*)\nmain", 0, 0);
      synchronize (&w, "cudaDeviceSynchronize_v3020", 0);
    }
  round_of_work (&w, 1);
  for (int r = 1; r <= rounds; r++)
    fprintf (w.report, "long_wall_ms %d %.3f\n", r, long_wall);

  suanli_capture_init_record (&end.record, SUANLI_CAPTURE_END, sizeof end);
  end.records = w.records;
  end.reason = (uint32_t) end_reason;
  if (end_reason == SUANLI_END_CUPTI_TAKEN)
    end.detail = string_id (&w, "another CUPTI client (PyTorch's profiler) subscribed");
  fwrite (&end, 1, sizeof end, w.capture);
  if (w.kineto != NULL)
    {
      fputs ("\n]}\n", w.kineto);
      fclose (w.kineto);
    }
  return fclose (w.capture) != 0 || fclose (w.report) != 0;
}
