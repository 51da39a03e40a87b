/* cupti-job.c — a stand-in CUDA job for the live-capture tests, on the stand-in libcupti
 *
 * It starts as a PyTorch job does: libcupti loaded already (--cupti PATH, FAKE_CUPTI_LIBRARY by
 * default, RTLD_LOCAL as a dependency of libtorch_cuda would be; or none, --no-cupti), optionally
 * Debian's libtorch_cpu (--torch: a libtorch-sized symbol table, and frames of its own on the
 * launch stacks), a library of its own from where it keeps it (--load PATH: a wheel's, say) and
 * Kineto's subscription (--kineto-init; --kineto 2.11 or newer says which Kineto, 2.11 by default:
 * kineto-standin.h). Then what libcudart and the CUDA driver do: the driver (--driver PATH,
 * SUANLI_FAKE_CUDA by default; a stand-in answering the device queries) loaded RTLD_LOCAL as
 * cudart loads libcuda.so.1, and at cuInit: load CUDA_INJECTION64_PATH, call its
 * InitializeInjection, and only then go on. Then it
 * launches kernels through the stand-in libcupti's launch calls (fake-cupti.h), found in the
 * libcupti loaded in the process by its soname, as the driver finds its tools: with --no-cupti,
 * launches go unseen until the injection library has loaded one.
 *
 * Launches: --launches N of them, --path (cudaLaunchKernel by default, any of fake-cupti.h's),
 * --rate per second (0: as fast as it goes), on --threads threads, each from --depth frames of
 * its own exported functions (cupti_job_descend…, every other one called back through
 * libtorch_cpu's tinfl_decompress_mem_to_callback with --torch), cycling through three mangled
 * kernel names. Without --interactive it launches those (inside a torch.profiler run with
 * --kineto-profile) and exits (--exit-status). With it, it
 * prints {"ready": …} and then answers each line on standard input with one line of JSON:
 *   launch N [PATH [STREAM [DURATION_NS]]]    graph NODES [PATH [STREAM]]
 *   memcpy BYTES    memset BYTES    hold STREAM    release STREAM    launch-until-dropped STREAM
 *   kineto-init [NAME]    kineto-start    kineto-stop    flush-hang    state    exit [STATUS]
 *   stream-capture STREAM on|off   (cudaStreamBeginCapture / EndCapture: launches there build a graph)
 *   sleep MS   (the job busy on its CPU: its next command comes that much later)
 * (end of input: exit). --report FILE gets the state at the very end, after the injection
 * library's own exit handler: launches per name, the launching threads' OS ids, Kineto's counts
 * and the stand-in libcupti's state.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define _GNU_SOURCE
#include <cupti.h>
#include <dlfcn.h>
#include <getopt.h>
#include <link.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "fake-cupti.h"
#include "kineto-standin.h"

#define MAX_THREADS   64
#define MAX_TIDS      256
#define MAX_NODES     64
#define THREAD_STACK  (16u << 20)   /* deep descents through tinfl take ~11 KiB a level */

static const char * const kernel_names[] = {
  "_Z18suanli_long_kernelxPi",
  "_Z10add_kernelPfPKfS1_i",
  "_ZN2at6native29vectorized_elementwise_kernelILi4ENS0_11FillFunctorIfEENS_6detail5ArrayIPcLi1EEEEEviT0_T1_",
};
#define N_NAMES (sizeof kernel_names / sizeof kernel_names[0])

typedef int (*PutBuffer) (const void *buffer, int length, void *user);
typedef int (*Inflate) (const void *input, size_t *input_size, PutBuffer put, void *user, int flags);

/* The stand-in libcupti's launch calls, once one is loaded. */
typedef struct
{
  void     *library;
  uint32_t (*launch) (FakeLaunchPath, const char *, uint32_t, uint64_t);
  uint32_t (*graph_launch) (FakeLaunchPath, uint32_t, const char * const *, unsigned, uint32_t, uint64_t *);
  uint32_t (*copy) (uint8_t, uint64_t, uint32_t);
  uint32_t (*set) (uint64_t, uint32_t, uint32_t);
  void     (*hold_stream) (uint32_t, bool);
  void     (*set_flush_hang) (bool);
  void     (*capture_stream) (uint32_t, bool);
  void     (*state) (FakeCuptiState *);
  int      (*path_from_name) (const char *);
} Fake;

/* One thread's share of a launch command. */
typedef struct
{
  FakeLaunchPath path;
  uint64_t       count;
  uint32_t       stream;
  uint64_t       duration;
  double         rate;
  int            next_level;     /* for the callback through libtorch */
  uint64_t       first;          /* which name comes first */
  bool           until_dropped;
  uint64_t       launched;
  uint64_t       unseen;         /* launched with no libcupti to see them */
  uint64_t       per_name[N_NAMES];
} Share;

static struct
{
  const char     *cupti_path;
  bool            no_cupti;
  const char     *load;           /* --load: a library of the job's own, loaded before cuInit */
  bool            torch;
  int             depth;
  unsigned        threads;
  double          rate;
  FakeLaunchPath  path;
  uint64_t        launches;
  bool            kineto_init;
  bool            kineto_profile;
  const char     *driver;
  const char     *kineto_name;
  const char     *report;
  bool            interactive;
  int             exit_status;
  pthread_mutex_t lock;
  Fake            fake;
  const Fake     *found;          /* &fake once it is filled in */
  const char     *path_name;
  Inflate         inflate;
  uint64_t        launched;
  uint64_t        unseen;
  uint64_t        per_name[N_NAMES];
  int             tids[MAX_TIDS];
  unsigned        n_tids;
  uint32_t        next_graph;
} job = { .depth = 8, .threads = 1, .lock = PTHREAD_MUTEX_INITIALIZER };

/* Exported, so that launch stacks can name them: the frames a test looks for. */
void cupti_job_launch_loop (Share *share);
void cupti_job_descend     (Share *share,
                            int    level);
int  cupti_job_descend_from_torch (const void *buffer,
                                   int         length,
                                   void       *user);

/* ---- the stand-in libcupti, as the driver finds its tool ---------------------------------------- */

static const Fake *
find_fake (void)
{
  const Fake *found = __atomic_load_n (&job.found, __ATOMIC_ACQUIRE);
  void *library;

  if (found != NULL)
    return found;
  pthread_mutex_lock (&job.lock);
  if (job.found == NULL && (library = dlopen ("libcupti.so.13", RTLD_NOW | RTLD_NOLOAD)) != NULL)
    {
      Fake *fake = &job.fake;

      fake->library = library;
      fake->launch = (__typeof__ (fake->launch)) dlsym (library, "fake_cupti_launch");
      fake->graph_launch = (__typeof__ (fake->graph_launch)) dlsym (library, "fake_cupti_graph_launch");
      fake->copy = (__typeof__ (fake->copy)) dlsym (library, "fake_cupti_memcpy");
      fake->set = (__typeof__ (fake->set)) dlsym (library, "fake_cupti_memset");
      fake->hold_stream = (__typeof__ (fake->hold_stream)) dlsym (library, "fake_cupti_hold_stream");
      fake->set_flush_hang = (__typeof__ (fake->set_flush_hang)) dlsym (library, "fake_cupti_set_flush_hang");
      fake->capture_stream = (__typeof__ (fake->capture_stream)) dlsym (library, "fake_cupti_capture_stream");
      fake->state = (__typeof__ (fake->state)) dlsym (library, "fake_cupti_state");
      fake->path_from_name = (__typeof__ (fake->path_from_name)) dlsym (library, "fake_cupti_launch_path_from_name");
      if (fake->launch != NULL && fake->graph_launch != NULL && fake->copy != NULL && fake->set != NULL &&
          fake->hold_stream != NULL && fake->set_flush_hang != NULL &&
          fake->capture_stream != NULL && fake->state != NULL && fake->path_from_name != NULL)
        __atomic_store_n (&job.found, fake, __ATOMIC_RELEASE);
      else
        {
          dlclose (library);   /* NVIDIA's own: it sees nothing of these launches */
          memset (fake, 0, sizeof *fake);
        }
    }
  found = job.found;
  pthread_mutex_unlock (&job.lock);
  return found;
}

/* What cuInit does with an injection library: load it, initialise it, and only then return. */
static void
cu_init (void)
{
  const char *path = getenv ("CUDA_INJECTION64_PATH");
  void *library;
  int (*initialize) (void);

  if (path == NULL || *path == '\0')
    return;
  if ((library = dlopen (path, RTLD_NOW | RTLD_LOCAL)) == NULL)
    {
      fprintf (stderr, "cupti-job: cuInit: cannot load the injection library %s: %s\n", path, dlerror ());
      return;
    }
  initialize = (int (*) (void)) dlsym (library, "InitializeInjection");
  if (initialize == NULL || initialize () != 1)
    fprintf (stderr, "cupti-job: cuInit: %s did not initialise\n", path);
}

/* ---- launching ------------------------------------------------------------------------------------ */

static void
note_thread (void)
{
  int tid = (int) syscall (SYS_gettid);

  pthread_mutex_lock (&job.lock);
  for (unsigned i = 0; i < job.n_tids; i++)
    if (job.tids[i] == tid)
      {
        pthread_mutex_unlock (&job.lock);
        return;
      }
  if (job.n_tids < MAX_TIDS)
    job.tids[job.n_tids++] = tid;
  pthread_mutex_unlock (&job.lock);
}

static uint64_t
monotonic_ns (void)
{
  struct timespec now;

  clock_gettime (CLOCK_MONOTONIC, &now);
  return (uint64_t) now.tv_sec * 1000000000u + (uint64_t) now.tv_nsec;
}

static uint64_t
fake_dropped (void)
{
  const Fake *fake = find_fake ();
  FakeCuptiState state;

  if (fake == NULL)
    return 0;
  fake->state (&state);
  return state.records_dropped;
}

__attribute__ ((noinline)) void
cupti_job_launch_loop (Share *share)
{
  uint64_t begun = monotonic_ns ();
  uint64_t limit = share->until_dropped ? 20000000u : share->count;
  uint64_t after_drops = 0;

  note_thread ();
  for (uint64_t i = 0; i < limit; i++)
    {
      const Fake *fake = find_fake ();
      unsigned name = (unsigned) ((share->first + i) % N_NAMES);

      /* Paced in steps of 64 launches: sleeping for a launch's 10 µs is beyond the kernel's timers. */
      if (share->rate > 0 && i % 64 == 0)
        {
          uint64_t due = begun + (uint64_t) ((double) i / share->rate * 1e9);

          if (monotonic_ns () < due)
            {
              struct timespec until = { (time_t) (due / 1000000000u), (long) (due % 1000000000u) };

              clock_nanosleep (CLOCK_MONOTONIC, TIMER_ABSTIME, &until, NULL);
            }
        }
      if (fake != NULL)
        fake->launch (share->path, kernel_names[name], share->stream, share->duration);
      else
        share->unseen++;
      share->launched++;
      share->per_name[name]++;
      if (share->until_dropped && (after_drops > 0 || (i % 256 == 0 && fake_dropped () > 0)) && ++after_drops > 1000)
        break;
    }
  __asm__ volatile ("" ::: "memory");   /* no tail call: this frame stays under the launches */
}

__attribute__ ((noinline)) int
cupti_job_descend_from_torch (const void *buffer,
                              int         length,
                              void       *user)
{
  Share *share = user;

  cupti_job_descend (share, share->next_level);
  __asm__ volatile ("" ::: "memory");
  return 1;
}

/* Down @level frames, every other one through libtorch_cpu when it is loaded, then the launches. */
__attribute__ ((noinline)) void
cupti_job_descend (Share *share,
                   int    level)
{
  /* A raw deflate stream of one stored block: tinfl hands its one byte to the callback. */
  static const unsigned char one_byte[] = { 0x01, 0x01, 0x00, 0xfe, 0xff, 'x' };

  if (level <= 0)
    cupti_job_launch_loop (share);
  else if (job.inflate != NULL && level % 2 == 0)
    {
      size_t size = sizeof one_byte;

      share->next_level = level - 1;
      job.inflate (one_byte, &size, cupti_job_descend_from_torch, share, 0);
    }
  else
    cupti_job_descend (share, level - 1);
  __asm__ volatile ("" ::: "memory");
}

static void *
launch_thread (void *data)
{
  cupti_job_descend (data, job.depth);
  return NULL;
}

/* @count launches split over the job's threads; returns how many were made. */
static uint64_t
launch (FakeLaunchPath path,
        uint64_t       count,
        uint32_t       stream,
        uint64_t       duration,
        bool           until_dropped)
{
  unsigned n = until_dropped ? 1 : job.threads;
  Share shares[MAX_THREADS];
  pthread_t threads[MAX_THREADS];
  pthread_attr_t attributes;
  uint64_t made = 0;

  pthread_attr_init (&attributes);
  pthread_attr_setstacksize (&attributes, THREAD_STACK);
  for (unsigned i = 0; i < n; i++)
    {
      memset (&shares[i], 0, sizeof shares[i]);
      shares[i].path = path;
      shares[i].count = count / n + (i < count % n ? 1 : 0);
      shares[i].stream = stream;
      shares[i].duration = duration;
      shares[i].rate = job.rate / n;
      shares[i].first = job.launched + i;
      shares[i].until_dropped = until_dropped;
      if (pthread_create (&threads[i], &attributes, launch_thread, &shares[i]) != 0)
        {
          fprintf (stderr, "cupti-job: cannot start a launching thread\n");
          exit (5);
        }
    }
  pthread_attr_destroy (&attributes);
  for (unsigned i = 0; i < n; i++)
    {
      pthread_join (threads[i], NULL);
      pthread_mutex_lock (&job.lock);
      job.launched += shares[i].launched;
      job.unseen += shares[i].unseen;
      for (unsigned k = 0; k < N_NAMES; k++)
        job.per_name[k] += shares[i].per_name[k];
      pthread_mutex_unlock (&job.lock);
      made += shares[i].launched;
    }
  return made;
}

/* ---- what it says --------------------------------------------------------------------------------- */

static void
put_string (FILE       *out,
            const char *text)
{
  fputc ('"', out);
  for (; text != NULL && *text != '\0'; text++)
    if (*text == '"' || *text == '\\')
      fprintf (out, "\\%c", *text);
    else if ((unsigned char) *text < 0x20)
      fprintf (out, "\\u%04x", (unsigned char) *text);
    else
      fputc (*text, out);
  fputc ('"', out);
}

/* The path of the libcupti this process has loaded, "" when none. */
static int
find_cupti_path (struct dl_phdr_info *info,
                 size_t               size,
                 void                *data)
{
  const char *name = strrchr (info->dlpi_name, '/');

  if (name != NULL && strncmp (name + 1, "libcupti.so", 11) == 0)
    {
      *(const char **) data = info->dlpi_name;
      return 1;
    }
  return 0;
}

static void
put_state (FILE *out)
{
  const Fake *fake = find_fake ();
  const char *cupti = "";
  KinetoStandin kineto;

  dl_iterate_phdr (find_cupti_path, &cupti);
  kineto_standin_get (&kineto);
  pthread_mutex_lock (&job.lock);
  fprintf (out, "{\"pid\": %d, \"launched\": %llu, \"unseen\": %llu, \"cupti\": ", (int) getpid (),
           (unsigned long long) job.launched, (unsigned long long) job.unseen);
  put_string (out, cupti);
  fprintf (out, ", \"threads\": [");
  for (unsigned i = 0; i < job.n_tids; i++)
    fprintf (out, "%s%d", i > 0 ? ", " : "", job.tids[i]);
  fprintf (out, "], \"per_name\": {");
  for (unsigned i = 0; i < N_NAMES; i++)
    {
      fprintf (out, "%s", i > 0 ? ", " : "");
      put_string (out, kernel_names[i]);
      fprintf (out, ": %llu", (unsigned long long) job.per_name[i]);
    }
  pthread_mutex_unlock (&job.lock);
  fprintf (out, "}, \"kineto\": {\"initialised\": %s, \"subscribe_result\": %d, \"cpu_only\": %s, \"tracing\": %s, "
                "\"kernels\": %llu, "
                "\"api_records\": %llu, \"records\": %llu, \"unknown_buffers\": %llu}",
           kineto.initialised ? "true" : "false", kineto.subscribe_result, kineto.cpu_only ? "true" : "false",
           kineto.tracing ? "true" : "false",
           (unsigned long long) kineto.kernels, (unsigned long long) kineto.api_records,
           (unsigned long long) kineto.records, (unsigned long long) kineto.unknown_buffers);
  if (fake != NULL)
    {
      FakeCuptiState state;

      fake->state (&state);
      fprintf (out, ", \"fake\": {\"subscribed\": %s, \"subscriber_name\": ", state.subscribed ? "true" : "false");
      put_string (out, state.subscriber_name);
      fprintf (out, ", \"runtime_callbacks\": %u, \"driver_callbacks\": %u, \"kinds\": %llu, \"runtime_api_records\": %u, "
                    "\"driver_api_records\": %u, \"callbacks_registered\": %s, \"kineto_owns_buffers\": %s, "
                    "\"finalized\": %u, \"thread_id_type\": %d, \"records_written\": %llu, \"records_dropped\": %llu, "
                    "\"kernels_dropped\": %llu, \"buffers_requested\": %llu, \"buffers_completed\": %llu, "
                    "\"buffers_held\": %u, \"flushes\": %u}",
               state.runtime_callbacks, state.driver_callbacks, (unsigned long long) state.kinds,
               state.runtime_api_records, state.driver_api_records,
               state.buffer_requested != NULL || state.buffer_completed != NULL ? "true" : "false",
               kineto_standin_owns (state.buffer_requested, state.buffer_completed) ? "true" : "false", state.finalized,
               state.thread_id_type, (unsigned long long) state.records_written,
               (unsigned long long) state.records_dropped, (unsigned long long) state.kernels_dropped,
               (unsigned long long) state.buffers_requested, (unsigned long long) state.buffers_completed,
               state.buffers_held, state.flushes);
    }
  fprintf (out, "}");
}

/* Registered before cuInit, so that it runs after the injection library's own exit handler. */
static void
write_report (void)
{
  FILE *out;

  if (job.report == NULL || (out = fopen (job.report, "w")) == NULL)
    return;
  put_state (out);
  fputc ('\n', out);
  fclose (out);
}

static void
answer_state (void)
{
  put_state (stdout);
  fputc ('\n', stdout);
  fflush (stdout);
}

static void
answer (const char *format,
        ...) __attribute__ ((format (printf, 1, 2)));

static void
answer (const char *format,
        ...)
{
  va_list args;

  va_start (args, format);
  vprintf (format, args);
  va_end (args);
  fputc ('\n', stdout);
  fflush (stdout);
}

/* ---- commands --------------------------------------------------------------------------------------- */

static int
parse_path (const char *name,
            FakeLaunchPath *path)
{
  const Fake *fake = find_fake ();
  int found;

  if (name == NULL)
    return 0;
  /* The path's names are the stand-in's; without one loaded, only the default is known. */
  found = fake != NULL ? fake->path_from_name (name)
                      : strcmp (name, "cudaLaunchKernel") == 0 ? (int) FAKE_LAUNCH_CUDA_LAUNCH_KERNEL : -1;
  if (found < 0)
    return -1;
  *path = (FakeLaunchPath) found;
  return 0;
}

static void
run_graph (unsigned    nodes,
           const char *path_name,
           uint32_t    stream)
{
  const Fake *fake = find_fake ();
  const char *names[MAX_NODES];
  uint64_t ids[MAX_NODES];
  FakeLaunchPath path = FAKE_LAUNCH_CUDA_GRAPH_LAUNCH;
  uint32_t correlation, graph;

  if (fake == NULL || nodes == 0 || nodes > MAX_NODES || parse_path (path_name, &path) != 0)
    {
      answer ("{\"error\": \"graph: no libcupti, or a bad node count or path\"}");
      return;
    }
  for (unsigned i = 0; i < nodes; i++)
    names[i] = kernel_names[i % N_NAMES];
  note_thread ();
  graph = ++job.next_graph;
  correlation = fake->graph_launch (path, graph, names, nodes, stream, ids);
  printf ("{\"graph\": %u, \"correlation\": %u, \"nodes\": [", graph, correlation);
  for (unsigned i = 0; i < nodes; i++)
    printf ("%s%llu", i > 0 ? ", " : "", (unsigned long long) ids[i]);
  answer ("]}");
}

/* One command line; returns 0 to go on, 1 to exit. */
static int
command (char *line)
{
  const Fake *fake = find_fake ();
  char *words[6] = { NULL };
  unsigned n = 0;

  for (char *word = strtok (line, " \t\r\n"); word != NULL && n < 6; word = strtok (NULL, " \t\r\n"))
    words[n++] = word;
  if (n == 0)
    answer ("{\"error\": \"an empty line\"}");
  else if (strcmp (words[0], "launch") == 0 && n >= 2)
    {
      FakeLaunchPath path = job.path;
      uint64_t made;

      if (parse_path (words[2], &path) != 0)
        {
          answer ("{\"error\": \"no such launch path\"}");
          return 0;
        }
      made = launch (path, strtoull (words[1], NULL, 10), words[3] != NULL ? (uint32_t) strtoul (words[3], NULL, 10) : 7,
                     words[4] != NULL ? strtoull (words[4], NULL, 10) : 2000, false);
      answer ("{\"launched\": %llu, \"dropped\": %llu}", (unsigned long long) made, (unsigned long long) fake_dropped ());
    }
  else if (strcmp (words[0], "launch-until-dropped") == 0 && n >= 2)
    {
      uint64_t made = launch (job.path, 0, (uint32_t) strtoul (words[1], NULL, 10), 2000, true);

      answer ("{\"launched\": %llu, \"dropped\": %llu}", (unsigned long long) made, (unsigned long long) fake_dropped ());
    }
  else if (strcmp (words[0], "graph") == 0 && n >= 2)
    run_graph ((unsigned) strtoul (words[1], NULL, 10), words[2], words[3] != NULL ? (uint32_t) strtoul (words[3], NULL, 10) : 7);
  else if ((strcmp (words[0], "memcpy") == 0 || strcmp (words[0], "memset") == 0) && n >= 2 && fake != NULL)
    {
      uint64_t bytes = strtoull (words[1], NULL, 10);
      uint32_t correlation = words[0][3] == 'c' ? fake->copy (CUPTI_ACTIVITY_MEMCPY_KIND_HTOD, bytes, 7)
                                                : fake->set (bytes, 0, 7);

      note_thread ();
      answer ("{\"correlation\": %u}", correlation);
    }
  else if ((strcmp (words[0], "hold") == 0 || strcmp (words[0], "release") == 0) && n >= 2 && fake != NULL)
    {
      fake->hold_stream ((uint32_t) strtoul (words[1], NULL, 10), words[0][0] == 'h');
      answer ("{\"ok\": true}");
    }
  else if (strcmp (words[0], "flush-hang") == 0 && fake != NULL)
    {
      fake->set_flush_hang (true);
      answer ("{\"ok\": true}");
    }
  else if (strcmp (words[0], "kineto-init") == 0 && fake != NULL)
    {
      kineto_standin_init (fake->library, words[1]);
      answer_state ();
    }
  else if (strcmp (words[0], "kineto-start") == 0 && fake != NULL)
    {
      kineto_standin_start (fake->library);
      answer_state ();
    }
  else if (strcmp (words[0], "stream-capture") == 0 && n >= 3 && fake != NULL)
    {
      fake->capture_stream ((uint32_t) strtoul (words[1], NULL, 10), strcmp (words[2], "on") == 0);
      answer ("{\"ok\": true}");
    }
  else if (strcmp (words[0], "kineto-stop") == 0)
    {
      kineto_standin_stop ();
      answer_state ();
    }
  else if (strcmp (words[0], "state") == 0)
    answer_state ();
  else if (strcmp (words[0], "sleep") == 0 && n >= 2)
    {
      unsigned ms = (unsigned) strtoul (words[1], NULL, 10);
      struct timespec pause = { (time_t) (ms / 1000), (long) (ms % 1000) * 1000000 };

      nanosleep (&pause, NULL);   /* a job busy on its CPU for a while */
      answer ("{\"ok\": true}");
    }
  else if (strcmp (words[0], "exit") == 0)
    {
      if (n >= 2)
        job.exit_status = atoi (words[1]);
      return 1;
    }
  else
    answer ("{\"error\": \"unknown command, or no libcupti for it\"}");
  return 0;
}

/* ---- main ------------------------------------------------------------------------------------------- */

static void
usage (void)
{
  fprintf (stderr, "usage: cupti-job [--cupti PATH | --no-cupti] [--torch] [--depth N] [--threads N] [--rate R] "
                   "[--path NAME] [--launches N] [--kineto 2.11|newer] [--kineto-init [--kineto-name NAME]] [--kineto-profile] "
                   "[--driver PATH] [--report FILE] [--interactive] "
                   "[--exit-status N]\n");
  exit (2);
}

static void
parse_options (int    argc,
               char **argv)
{
  static const struct option options[] = {
    { "cupti", required_argument, NULL, 'c' },   { "no-cupti", no_argument, NULL, 'n' },
    { "torch", no_argument, NULL, 't' },         { "depth", required_argument, NULL, 'd' },
    { "threads", required_argument, NULL, 'T' }, { "rate", required_argument, NULL, 'r' },
    { "path", required_argument, NULL, 'p' },    { "launches", required_argument, NULL, 'l' },
    { "kineto-init", no_argument, NULL, 'k' },   { "kineto-name", required_argument, NULL, 'K' },
    { "report", required_argument, NULL, 'R' },  { "interactive", no_argument, NULL, 'i' },
    { "exit-status", required_argument, NULL, 'x' }, { "load", required_argument, NULL, 'L' },
    { "kineto", required_argument, NULL, 'F' },  { "kineto-profile", no_argument, NULL, 'P' },
    { "driver", required_argument, NULL, 'D' },
    { NULL, 0, NULL, 0 },
  };
  const char *path = NULL;
  int option;

  job.cupti_path = getenv ("FAKE_CUPTI_LIBRARY");
  job.driver = getenv ("SUANLI_FAKE_CUDA");
  while ((option = getopt_long (argc, argv, "", options, NULL)) != -1)
    switch (option)
      {
      case 'c': job.cupti_path = optarg; break;
      case 'n': job.no_cupti = true; break;
      case 'L': job.load = optarg; break;
      case 't': job.torch = true; break;
      case 'd': job.depth = atoi (optarg); break;
      case 'T': job.threads = (unsigned) atoi (optarg); break;
      case 'r': job.rate = strtod (optarg, NULL); break;
      case 'p': path = optarg; break;
      case 'l': job.launches = strtoull (optarg, NULL, 10); break;
      case 'k': job.kineto_init = true; break;
      case 'K': job.kineto_name = optarg; break;
      case 'P': job.kineto_profile = true; break;
      case 'D': job.driver = optarg; break;
      case 'F':
        if (strcmp (optarg, "2.11") != 0 && strcmp (optarg, "newer") != 0)
          usage ();
        kineto_standin_set_flavour (strcmp (optarg, "newer") == 0 ? KINETO_NEWER : KINETO_2_11);
        break;
      case 'R': job.report = optarg; break;
      case 'i': job.interactive = true; break;
      case 'x': job.exit_status = atoi (optarg); break;
      default: usage ();
      }
  if (optind != argc || job.threads == 0 || job.threads > MAX_THREADS || job.depth < 0 ||
      (!job.no_cupti && job.cupti_path == NULL))
    usage ();
  job.path_name = path;
}

int
main (int    argc,
      char **argv)
{
  char line[256];

  parse_options (argc, argv);
  /* What the job has loaded before CUDA starts: PyTorch's libcupti, libtorch, Kineto. */
  if (!job.no_cupti && dlopen (job.cupti_path, RTLD_NOW | RTLD_LOCAL) == NULL)
    {
      fprintf (stderr, "cupti-job: cannot load %s: %s\n", job.cupti_path, dlerror ());
      return 3;
    }
  /* A library of the job's own, where the job keeps it (a wheel's, in a Python packages folder). */
  if (job.load != NULL && dlopen (job.load, RTLD_NOW | RTLD_LOCAL) == NULL)
    {
      fprintf (stderr, "cupti-job: cannot load %s: %s\n", job.load, dlerror ());
      return 3;
    }
  if (job.torch)
    {
      void *torch = dlopen ("libtorch_cpu.so.1.13", RTLD_NOW | RTLD_LOCAL);

      if (torch == NULL || (job.inflate = (Inflate) dlsym (torch, "tinfl_decompress_mem_to_callback")) == NULL)
        {
          fprintf (stderr, "cupti-job: cannot load Debian's libtorch_cpu: %s\n", dlerror ());
          return 3;
        }
    }
  if (job.path_name != NULL && parse_path (job.path_name, &job.path) != 0)
    {
      fprintf (stderr, "cupti-job: no launch path %s\n", job.path_name);
      return 2;
    }
  if (job.kineto_init && find_fake () != NULL)
    kineto_standin_init (job.fake.library, job.kineto_name);
  atexit (write_report);
  note_thread ();
  /* libcudart's dlopen of the driver: RTLD_LOCAL, so its symbols are not in the global scope. */
  if (job.driver != NULL && *job.driver != '\0' && dlopen (job.driver, RTLD_NOW | RTLD_LOCAL) == NULL)
    {
      fprintf (stderr, "cupti-job: cannot load the driver %s: %s\n", job.driver, dlerror ());
      return 3;
    }
  cu_init ();
  if (job.kineto_profile && find_fake () != NULL)
    kineto_standin_start (job.fake.library);
  if (job.launches > 0)
    launch (job.path, job.launches, 7, 2000, false);
  if (job.kineto_profile)
    kineto_standin_stop ();
  if (!job.interactive)
    return job.exit_status;
  answer ("{\"ready\": true, \"pid\": %d}", (int) getpid ());
  while (fgets (line, sizeof line, stdin) != NULL)
    if (command (line) != 0)
      break;
  return job.exit_status;
}
