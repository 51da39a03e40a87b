/* suanli-capture-decoder.c — a capture stream's bytes, as they come, into a trace
 *
 * The bytes may arrive in pieces of any size (a socket, a file read in blocks): what does not make
 * a whole record yet waits for the next piece. Records become what the Chrome importer makes of a
 * Kineto trace, so that every analysis and view reads both alike: kernels, copies and memsets on
 * their device's stream rows (pid = device, tid = stream) with Kineto's categories and arguments;
 * API calls, NVTX ranges and marks, and CUPTI's overhead on the CPU thread that made them; a
 * counter per name; and drops as warnings. Times move from CUPTI's clock to CLOCK_REALTIME by the
 * header's offset.
 *
 * Kernel names come mangled from CUPTI and are shown demangled, as Kineto shows them (the mangled
 * name stays as an argument); launch stacks come as return addresses and are named here from the
 * job's modules (suanli-symbolizer.c, suanli-launch-stack.c), never in the job.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>
#include <glib/gi18n.h>

#include "capture/suanli-capture.h"
#include "suanli-capture-decoder.h"
#include "suanli-demangle.h"
#include "suanli-import-links.h"
#include "suanli-launch-stack.h"
#include "suanli-symbolizer.h"

/* Launch stacks kept for their kernels: a graph's kernels share their launch's correlation, so a
 * stack is kept after its first kernel, until this many later launches have come. */
#define KEPT_STACKS 16384

typedef enum {
  ARG_CORRELATION,
  ARG_DEVICE,
  ARG_STREAM,
  ARG_GRID,
  ARG_BLOCK,
  ARG_REGISTERS,
  ARG_SHARED_MEMORY,
  ARG_GRAPH,
  ARG_BYTES,
  ARG_CBID,
  ARG_CALL_STACK,
  ARG_MANGLED_NAME,
  ARG_GRAPH_NODE,
  N_ARGS
} ArgKey;

static const char * const arg_names[N_ARGS] = {
  "correlation", "device", "stream", "grid", "block", "registers per thread", "shared memory", "graph id", "bytes",
  "cbid", "Call stack", "mangled name", "graph node",
};

/* A kernel name as shown, worked out once per string id. */
typedef struct
{
  SuanliString shown;     /* demangled, or as it came; 0: not worked out yet */
  SuanliString mangled;   /* as it came, when that differs; else 0 */
} KernelName;

/* A launch's stack, from its record until its kernels come. */
typedef struct
{
  guint32      python;    /* string id */
  guint        depth;
  gboolean     formatted;
  SuanliString text;      /* once formatted: the "Call stack", 0 when it has no frame to show */
  guint64      frames[];
} LaunchStack;

struct _SuanliCaptureDecoder
{
  SuanliTrace        *trace;
  guint               group;
  GByteArray         *pending;       /* bytes not yet a whole header or record */
  guint64             offset;        /* of pending's first byte in the stream */
  gboolean            has_header;
  guint               devices_left;  /* of the header's, still to read */
  SuanliCaptureHeader header;
  GArray             *strings;       /* capture string id → SuanliString (0: not seen) */
  GHashTable         *devices;       /* CUDA context id → device + 1, learned from kernels */
  SuanliString        args[N_ARGS];
  SuanliString        categories[8];
  GArray             *kernel_names;  /* capture string id → KernelName */
  SuanliSymbolizer   *symbolizer;    /* once a module record came */
  GHashTable         *stacks;        /* correlation → LaunchStack */
  GHashTable         *stack_texts;   /* LaunchStack (by its frames) → its text: a loop's launches repeat */
  guint32             kept[KEPT_STACKS];   /* the correlations of the last stacks, a ring */
  guint               kept_next;
  guint64             records;
  guint64             dropped[SUANLI_DROPPED_UNTIMED + 1];   /* by the drop records, by reason */
  guint64             end_dropped;   /* the job's own total, as its end record says */
  char               *end_problem;   /* why the capture ended early, when it did */
  guint64             impossible;    /* records with times no clock gives, left out */
  gboolean            ended;
  gboolean            pytorch_cuda;  /* a module record named PyTorch's CUDA library */
  gint64              clock_shift_ns; /* how far the job's host clock is ahead of the viewer's */
};

/* Past this (about 146 years of nanoseconds) a time is damage, not a clock's reading. */
#define TIME_LIMIT_NS (G_GUINT64_CONSTANT (1) << 62)
/* And a slice longer than this (about 104 days) is too: the analyses sum durations, and a few such
 * would overflow them. */
#define DURATION_LIMIT_NS (G_GUINT64_CONSTANT (1) << 53)

enum {
  CATEGORY_KERNEL,
  CATEGORY_MEMCPY,
  CATEGORY_MEMSET,
  CATEGORY_RUNTIME,
  CATEGORY_DRIVER,
  CATEGORY_SYNC,
  CATEGORY_NVTX,
  CATEGORY_OVERHEAD,
};

/* Stacks alike: the same Python frames and return addresses. */
static guint
stack_hash (gconstpointer key)
{
  const LaunchStack *stack = key;
  guint64 hash = stack->python * G_GUINT64_CONSTANT (0x9e3779b97f4a7c15) + stack->depth;

  for (guint i = 0; i < stack->depth; i++)
    hash = (hash ^ stack->frames[i]) * G_GUINT64_CONSTANT (0x100000001b3);
  return (guint) (hash ^ (hash >> 32));
}

static gboolean
stack_equal (gconstpointer a,
             gconstpointer b)
{
  const LaunchStack *x = a, *y = b;

  return x->python == y->python && x->depth == y->depth && memcmp (x->frames, y->frames, x->depth * sizeof (guint64)) == 0;
}

/**
 * suanli_capture_decoder_new:
 * @trace: where the records go, as a group (file, rank) of their own named @name
 *
 * Returns: (transfer full): a decoder waiting for the stream's first bytes.
 */
SuanliCaptureDecoder *
suanli_capture_decoder_new (SuanliTrace *trace,
                            const char  *name)
{
  SuanliCaptureDecoder *self = g_new0 (SuanliCaptureDecoder, 1);
  static const char * const categories[] = {
    "kernel", "gpu_memcpy", "gpu_memset", "cuda_runtime", "cuda_driver", "cuda_sync", "user_annotation", "overhead",
  };

  G_STATIC_ASSERT (G_N_ELEMENTS (categories) == G_N_ELEMENTS (self->categories));
  self->trace = g_object_ref (trace);
  self->group = suanli_trace_begin_group (trace, name);
  self->pending = g_byte_array_new ();
  self->strings = g_array_new (FALSE, TRUE, sizeof (SuanliString));
  self->devices = g_hash_table_new (NULL, NULL);
  self->kernel_names = g_array_new (FALSE, TRUE, sizeof (KernelName));
  self->stacks = g_hash_table_new_full (NULL, NULL, NULL, g_free);
  self->stack_texts = g_hash_table_new_full (stack_hash, stack_equal, g_free, NULL);
  for (guint i = 0; i < N_ARGS; i++)
    self->args[i] = suanli_trace_intern (trace, arg_names[i], -1);
  for (guint i = 0; i < G_N_ELEMENTS (categories); i++)
    self->categories[i] = suanli_trace_intern (trace, categories[i], -1);
  return self;
}

void
suanli_capture_decoder_free (SuanliCaptureDecoder *self)
{
  g_object_unref (self->trace);
  g_byte_array_unref (self->pending);
  g_array_unref (self->strings);
  g_hash_table_unref (self->devices);
  g_array_unref (self->kernel_names);
  g_hash_table_unref (self->stacks);
  g_hash_table_unref (self->stack_texts);
  g_clear_pointer (&self->symbolizer, suanli_symbolizer_free);
  g_free (self->end_problem);
  g_free (self);
}

/**
 * suanli_capture_decoder_steal_rest:
 *
 * Once the stream has ended: the bytes given after its end record (the next stream of a file that
 * holds several, `record`'s of several processes), taken away from the decoder.
 * Returns: (transfer full): those bytes, maybe none.
 */
GBytes *
suanli_capture_decoder_steal_rest (SuanliCaptureDecoder *self)
{
  GBytes *rest = g_bytes_new (self->pending->data, self->pending->len);

  g_byte_array_set_size (self->pending, 0);
  return rest;
}

guint64
suanli_capture_decoder_get_records (SuanliCaptureDecoder *self)
{
  return self->records;
}

/* The job's own drops (CUPTI's, and its queue's for a slow collector): its drop records count them
 * as they happen, and its end record gives the total, reported or not; each is counted once. */
static guint64
job_dropped (SuanliCaptureDecoder *self)
{
  return MAX (self->dropped[SUANLI_DROPPED_BY_CUPTI] + self->dropped[SUANLI_DROPPED_SLOW_READER] +
              self->dropped[SUANLI_DROPPED_UNTIMED], self->end_dropped);
}

/* Records lost before they reached the stream, each counted once: the job's, and those a relay
 * (suanli-agent) dropped on the way. */
guint64
suanli_capture_decoder_get_dropped (SuanliCaptureDecoder *self)
{
  return job_dropped (self) + self->dropped[SUANLI_DROPPED_BY_RELAY];
}

/**
 * suanli_capture_decoder_get_end_problem:
 *
 * Returns: (nullable): why the capture ended early, in words, when its end record says it did
 * (another CUPTI client took CUPTI over, or CUPTI failed); NULL when it was stopped, or the job
 * exited, or no end came.
 */
const char *
suanli_capture_decoder_get_end_problem (SuanliCaptureDecoder *self)
{
  return self->end_problem;
}

/* Whether the stream's end record came: a capture that was stopped, not cut off. */
gboolean
suanli_capture_decoder_has_ended (SuanliCaptureDecoder *self)
{
  return self->ended;
}

/* Whether bytes came after the end record (another stream's). */
gboolean
suanli_capture_decoder_has_rest (SuanliCaptureDecoder *self)
{
  return self->ended && self->pending->len > 0;
}

/* For a capture from another host: its clock runs @shift_ns ahead of this one's (as estimated
 * by clock probes), and its times are moved back by as much, so that hosts line up. */
void
suanli_capture_decoder_set_clock_shift (SuanliCaptureDecoder *self,
                                        gint64                shift_ns)
{
  self->clock_shift_ns = shift_ns;
}

/**
 * suanli_capture_decoder_describe:
 *
 * Returns: how much of its job a capture holds, in words: "Captured from the job's start", or
 * from START only (attached to a running job); NULL for a file that is no capture.
 */
const char *
suanli_capture_decoder_describe (SuanliGroupCapture capture)
{
  switch (capture)
    {
    case SUANLI_GROUP_CAPTURED_FROM_LAUNCH:
      return _("Captured from the job's start");
    case SUANLI_GROUP_CAPTURED_FROM_START:
      return _("Captured from START (attached to a running job: earlier work is not in it)");
    case SUANLI_GROUP_NOT_CAPTURED:
    default:
      return NULL;
    }
}

/* ---- records into the trace --------------------------------------------------------------- */

static gint64
realtime (SuanliCaptureDecoder *self,
          guint64               cupti_ns)
{
  return (gint64) cupti_ns + self->header.clock_offset_ns - self->clock_shift_ns;
}

/* Text from the stream, interned as valid UTF-8: a damaged name must not make the trace unreadable
 * elsewhere (exported JSON, the views). */
static SuanliString
intern_text (SuanliCaptureDecoder *self,
             const char           *text,
             gssize                length)
{
  return suanli_trace_intern_valid (self->trace, text, length);
}

static SuanliString
string_of (SuanliCaptureDecoder *self,
           guint32               id)
{
  if (id != SUANLI_CAPTURE_NO_STRING && id < self->strings->len && g_array_index (self->strings, SuanliString, id) != 0)
    return g_array_index (self->strings, SuanliString, id);
  {
    g_autofree char *unknown = g_strdup_printf ("(name %u)", id);
    return suanli_trace_intern (self->trace, unknown, -1);
  }
}

/* The text of string @id, or NULL when the stream has not named it. */
static const char *
known_text (SuanliCaptureDecoder *self,
            guint32               id)
{
  if (id == SUANLI_CAPTURE_NO_STRING || id >= self->strings->len || g_array_index (self->strings, SuanliString, id) == 0)
    return NULL;
  return suanli_trace_get_string (self->trace, g_array_index (self->strings, SuanliString, id));
}

static SuanliArg
int_arg (SuanliCaptureDecoder *self,
         ArgKey                key,
         gint64                value)
{
  SuanliArg arg = { self->args[key], SUANLI_ARG_INT, { .i = value } };
  return arg;
}

static SuanliArg
text_arg (SuanliCaptureDecoder *self,
          ArgKey                key,
          const char           *text)
{
  SuanliArg arg = { self->args[key], SUANLI_ARG_STRING, { .s = suanli_trace_intern (self->trace, text, -1) } };
  return arg;
}

/* Whether @cupti_ns, moved to this host's realtime clock, is within the times a trace holds: the
 * Chrome importer reads none past ±2^61 ns (73 years from 1970), so a capture keeps none either,
 * and what it keeps writes to JSON that reads back the same. */
static gboolean
within_trace_times (SuanliCaptureDecoder *self,
                    guint64               cupti_ns)
{
  gint64 time;

  if (__builtin_add_overflow ((gint64) cupti_ns, self->header.clock_offset_ns, &time) ||
      __builtin_sub_overflow (time, self->clock_shift_ns, &time))
    return FALSE;
  return time > -(G_GINT64_CONSTANT (1) << 61) && time < (G_GINT64_CONSTANT (1) << 61);
}

/* Whether @start and @end can be a clock's readings of one piece of work; counts the record out when not. */
static gboolean
possible (SuanliCaptureDecoder *self,
          guint64               start,
          guint64               end)
{
  if (start < TIME_LIMIT_NS && end < TIME_LIMIT_NS && (end <= start || end - start < DURATION_LIMIT_NS) &&
      within_trace_times (self, start) && within_trace_times (self, end))
    return TRUE;
  self->impossible++;
  return FALSE;
}

static void
add_slice (SuanliCaptureDecoder *self,
           SuanliTrack          *track,
           guint64               start,
           guint64               end,
           SuanliString          name,
           int                   category,
           const SuanliArg      *args,
           guint                 n_args)
{
  SuanliSlice slice = { 0, end > start ? (gint64) (end - start) : 0, name, self->categories[category], G_MAXUINT32,
                        0, 0, 0 };

  if (!possible (self, start, end))
    return;
  slice.start = realtime (self, start);

  if (n_args > 0)
    {
      slice.args = suanli_trace_add_args (self->trace, args, n_args);
      slice.n_args = (guint16) n_args;
    }
  g_array_append_val (track->slices, slice);
}

static SuanliTrack *
stream_track (SuanliCaptureDecoder *self,
              guint32               device,
              guint32               stream)
{
  return suanli_trace_ensure_track (self->trace, SUANLI_TRACK_GPU_STREAM, device, stream, 0, NULL);
}

static SuanliTrack *
thread_track (SuanliCaptureDecoder *self,
              guint32               thread)
{
  return suanli_trace_ensure_track (self->trace, SUANLI_TRACK_THREAD, self->header.pid, thread, 0, NULL);
}

/* A kernel's name as Kineto shows it: demangled, once per string id. */
static const KernelName *
kernel_name (SuanliCaptureDecoder *self,
             guint32               id)
{
  static const KernelName none = { 0, 0 };
  KernelName *name;

  if (known_text (self, id) == NULL)
    return &none;   /* "(name N)" */
  if (id >= self->kernel_names->len)
    g_array_set_size (self->kernel_names, id + 1);
  name = &g_array_index (self->kernel_names, KernelName, id);
  if (name->shown == 0)
    {
      g_autofree char *demangled = suanli_demangle (known_text (self, id));

      name->shown = demangled != NULL ? intern_text (self, demangled, -1) : string_of (self, id);
      name->mangled = demangled != NULL ? string_of (self, id) : 0;
    }
  return name;
}

/* The "Call stack" of the launch @correlation, from its stack record: 0 when none came or it has
 * no frame to show. */
static SuanliString
launch_stack_text (SuanliCaptureDecoder *self,
                   guint32               correlation)
{
  LaunchStack *stack = g_hash_table_lookup (self->stacks, GUINT_TO_POINTER (correlation));

  if (stack == NULL)
    return 0;
  if (!stack->formatted)
    {
      gpointer text;

      if (g_hash_table_lookup_extended (self->stack_texts, stack, NULL, &text))
        stack->text = GPOINTER_TO_UINT (text);
      else
        {
          g_autoptr(SuanliSymbolizer) none = NULL;
          g_autofree char *formatted = NULL;

          /* Frames in no module are left out: without module records, all are. */
          if (self->symbolizer == NULL)
            none = suanli_symbolizer_new ();
          formatted = suanli_launch_stack_format (self->symbolizer != NULL ? self->symbolizer : none, stack->frames,
                                                  stack->depth, known_text (self, stack->python));
          stack->text = *formatted != '\0' ? intern_text (self, formatted, -1) : 0;
          g_hash_table_insert (self->stack_texts, g_memdup2 (stack, sizeof (LaunchStack) + stack->depth * sizeof (guint64)),
                               GUINT_TO_POINTER (stack->text));
        }
      stack->formatted = TRUE;
    }
  return stack->text;
}

static void
decode_kernel (SuanliCaptureDecoder      *self,
               const SuanliCaptureRecord *record)
{
  SuanliCaptureKernel kernel;
  g_autofree char *grid = NULL;
  g_autofree char *block = NULL;
  const KernelName *name;
  SuanliString stack = 0;
  SuanliArg args[11];
  guint n = 0;

  suanli_capture_copy_record (record, &kernel, sizeof kernel);
  g_hash_table_insert (self->devices, GUINT_TO_POINTER (kernel.context), GUINT_TO_POINTER (kernel.device + 1));
  grid = g_strdup_printf ("[%d, %d, %d]", kernel.grid[0], kernel.grid[1], kernel.grid[2]);
  block = g_strdup_printf ("[%d, %d, %d]", kernel.block[0], kernel.block[1], kernel.block[2]);
  args[n++] = int_arg (self, ARG_CORRELATION, kernel.correlation);
  args[n++] = int_arg (self, ARG_DEVICE, kernel.device);
  args[n++] = int_arg (self, ARG_STREAM, kernel.stream);
  args[n++] = text_arg (self, ARG_GRID, grid);
  args[n++] = text_arg (self, ARG_BLOCK, block);
  args[n++] = int_arg (self, ARG_REGISTERS, kernel.registers_per_thread);
  args[n++] = int_arg (self, ARG_SHARED_MEMORY, kernel.shared_memory);
  if (kernel.graph != 0)
    args[n++] = int_arg (self, ARG_GRAPH, kernel.graph);
  if (kernel.graph_node != 0)
    args[n++] = int_arg (self, ARG_GRAPH_NODE, (gint64) kernel.graph_node);
  name = kernel_name (self, kernel.name);
  if (name->mangled != 0)
    {
      SuanliArg mangled = { self->args[ARG_MANGLED_NAME], SUANLI_ARG_STRING, { .s = name->mangled } };
      args[n++] = mangled;
    }
  /* An older writer's stack came as text; a newer one's as addresses, before the kernel. */
  if (kernel.stack != SUANLI_CAPTURE_NO_STRING)
    stack = string_of (self, kernel.stack);
  else
    stack = launch_stack_text (self, kernel.correlation);
  if (stack != 0)
    {
      SuanliArg call_stack = { self->args[ARG_CALL_STACK], SUANLI_ARG_STRING, { .s = stack } };
      args[n++] = call_stack;
    }
  add_slice (self, stream_track (self, kernel.device, kernel.stream), kernel.start, kernel.end,
             name->shown != 0 ? name->shown : string_of (self, kernel.name), CATEGORY_KERNEL, args, n);
}

static const char *
copy_name (guint32 kind)
{
  static const char * const names[] = {
    "Memcpy", "Memcpy HtoD", "Memcpy DtoH", "Memcpy DtoD", "Memcpy HtoH", "Memcpy PtoP",
  };

  return kind < G_N_ELEMENTS (names) ? names[kind] : names[0];
}

static void
decode_memcpy (SuanliCaptureDecoder      *self,
               const SuanliCaptureRecord *record)
{
  SuanliCaptureMemcpy copy;
  SuanliArg args[4];

  suanli_capture_copy_record (record, &copy, sizeof copy);
  args[0] = int_arg (self, ARG_CORRELATION, copy.correlation);
  args[1] = int_arg (self, ARG_BYTES, (gint64) copy.bytes);
  args[2] = int_arg (self, ARG_DEVICE, copy.device);
  args[3] = int_arg (self, ARG_STREAM, copy.stream);
  add_slice (self, stream_track (self, copy.device, copy.stream), copy.start, copy.end,
             suanli_trace_intern (self->trace, copy_name (copy.copy_kind), -1), CATEGORY_MEMCPY, args, G_N_ELEMENTS (args));
}

static void
decode_memset (SuanliCaptureDecoder      *self,
               const SuanliCaptureRecord *record)
{
  SuanliCaptureMemset set;
  SuanliArg args[4];

  suanli_capture_copy_record (record, &set, sizeof set);
  args[0] = int_arg (self, ARG_CORRELATION, set.correlation);
  args[1] = int_arg (self, ARG_BYTES, (gint64) set.bytes);
  args[2] = int_arg (self, ARG_DEVICE, set.device);
  args[3] = int_arg (self, ARG_STREAM, set.stream);
  add_slice (self, stream_track (self, set.device, set.stream), set.start, set.end,
             suanli_trace_intern (self->trace, "Memset (Device)", -1), CATEGORY_MEMSET, args, G_N_ELEMENTS (args));
}

static void
decode_api (SuanliCaptureDecoder      *self,
            const SuanliCaptureRecord *record)
{
  SuanliCaptureApi api;
  SuanliArg args[2];

  suanli_capture_copy_record (record, &api, sizeof api);
  args[0] = int_arg (self, ARG_CORRELATION, api.correlation);
  args[1] = int_arg (self, ARG_CBID, api.callback_id);
  add_slice (self, thread_track (self, api.thread), api.start, api.end, string_of (self, api.name),
             api.domain == SUANLI_API_DRIVER ? CATEGORY_DRIVER : CATEGORY_RUNTIME, args, G_N_ELEMENTS (args));
}

static void
decode_sync (SuanliCaptureDecoder      *self,
             const SuanliCaptureRecord *record)
{
  /* CUPTI's CUpti_ActivitySynchronizationType: 1 event, 2 stream wait event, 3 stream, 4 context. */
  static const char * const names[] = {
    "Synchronize", "Event Sync", "Stream Wait Event", "Stream Sync", "Context Sync",
  };
  SuanliCaptureSync sync;
  SuanliArg args[1];
  guint device;

  suanli_capture_copy_record (record, &sync, sizeof sync);
  args[0] = int_arg (self, ARG_CORRELATION, sync.correlation);
  /* On the stream it waited for, as Kineto shows syncs (device-wide ones on stream 0's row), of the
   * device the context's kernels ran on (GPU 0 until one has been seen). */
  device = GPOINTER_TO_UINT (g_hash_table_lookup (self->devices, GUINT_TO_POINTER (sync.context)));
  add_slice (self, stream_track (self, device > 0 ? device - 1 : 0, sync.stream == G_MAXUINT32 ? 0 : sync.stream),
             sync.start, sync.end,
             suanli_trace_intern (self->trace, names[sync.type < G_N_ELEMENTS (names) ? sync.type : 0], -1),
             CATEGORY_SYNC, args, G_N_ELEMENTS (args));
}

static void
decode_nvtx (SuanliCaptureDecoder      *self,
             const SuanliCaptureRecord *record,
             gboolean                   mark)
{
  SuanliCaptureNvtx nvtx;

  suanli_capture_copy_record (record, &nvtx, sizeof nvtx);
  if (mark)
    {
      SuanliInstant instant = { 0, string_of (self, nvtx.name), self->categories[CATEGORY_NVTX] };

      if (!possible (self, nvtx.start, nvtx.start))
        return;
      instant.time = realtime (self, nvtx.start);
      g_array_append_val (thread_track (self, nvtx.thread)->instants, instant);
      return;
    }
  add_slice (self, thread_track (self, nvtx.thread), nvtx.start, nvtx.end, string_of (self, nvtx.name), CATEGORY_NVTX,
             NULL, 0);
}

static void
decode_string (SuanliCaptureDecoder      *self,
               const SuanliCaptureRecord *record)
{
  SuanliCaptureString string;
  const char *text = (const char *) record + sizeof string;

  suanli_capture_copy_record (record, &string, sizeof string);
  if (string.id == SUANLI_CAPTURE_NO_STRING || string.length > record->size - sizeof string || string.id > 1u << 20)
    return;   /* damaged, or an id no writer would use: the names that need it show as unknown */
  if (string.id >= self->strings->len)
    g_array_set_size (self->strings, string.id + 1);
  g_array_index (self->strings, SuanliString, string.id) = intern_text (self, text, string.length);
  /* A name given again: a kernel that uses it is named anew. */
  if (string.id < self->kernel_names->len)
    g_array_index (self->kernel_names, KernelName, string.id).shown = 0;
}

static void
decode_counter (SuanliCaptureDecoder      *self,
                const SuanliCaptureRecord *record)
{
  SuanliCaptureCounter counter;
  SuanliSample sample;

  suanli_capture_copy_record (record, &counter, sizeof counter);
  if (!possible (self, counter.time, counter.time))
    return;
  sample.time = realtime (self, counter.time);
  sample.value = counter.value;
  g_array_append_val (suanli_trace_ensure_track (self->trace, SUANLI_TRACK_COUNTER, counter.device, 0,
                                                 string_of (self, counter.name), NULL)->samples, sample);
}

static void
decode_overhead (SuanliCaptureDecoder      *self,
                 const SuanliCaptureRecord *record)
{
  SuanliCaptureOverhead overhead;

  suanli_capture_copy_record (record, &overhead, sizeof overhead);
  add_slice (self, thread_track (self, overhead.thread), overhead.start, overhead.end,
             suanli_trace_intern (self->trace, "CUPTI overhead", -1), CATEGORY_OVERHEAD, NULL, 0);
}

/* Counted as they come (the job sends them while it captures); said once, at the end. */
static void
decode_dropped (SuanliCaptureDecoder      *self,
                const SuanliCaptureRecord *record)
{
  SuanliCaptureDropped dropped;

  suanli_capture_copy_record (record, &dropped, sizeof dropped);
  /* A reason from a newer writer: the job's, as CUPTI's are. */
  self->dropped[dropped.reason <= SUANLI_DROPPED_UNTIMED ? dropped.reason : SUANLI_DROPPED_BY_CUPTI] += dropped.count;
}

/* One warning of @count records lost, in @format (a translated "%llu records …"), when there are any. */
static void
warn_lost (SuanliCaptureDecoder *self,
           guint64               count,
           const char           *format)
{
  g_autofree char *warning = NULL;

  if (count == 0)
    return;
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
  warning = g_strdup_printf (format, (unsigned long long) count);
#pragma GCC diagnostic pop
  suanli_trace_add_warning (self->trace, warning);
}

#define PLURAL_OF(count) ((gulong) MIN ((count), G_MAXULONG))

static void
warn_dropped (SuanliCaptureDecoder *self)
{
  guint64 cupti = self->dropped[SUANLI_DROPPED_BY_CUPTI];
  guint64 untimed = self->dropped[SUANLI_DROPPED_UNTIMED];
  /* The job's drops its drop records did not report (its queue was full then too) are its queue's. */
  guint64 slow = job_dropped (self) - cupti - untimed;
  guint64 relay = self->dropped[SUANLI_DROPPED_BY_RELAY];

  warn_lost (self, cupti, ngettext ("%llu record was dropped by CUPTI (its buffers were full)",
                                    "%llu records were dropped by CUPTI (its buffers were full)", PLURAL_OF (cupti)));
  warn_lost (self, untimed, ngettext ("%llu record came from CUPTI without its times (work cut off by a flush) and "
                                      "was left out",
                                      "%llu records came from CUPTI without their times (work cut off by a flush) "
                                      "and were left out", PLURAL_OF (untimed)));
  warn_lost (self, slow, ngettext ("%llu record was dropped because the collector did not keep up",
                                   "%llu records were dropped because the collector did not keep up",
                                   PLURAL_OF (slow)));
  warn_lost (self, relay, ngettext ("%llu record was dropped by suanli-agent because the workbench did not keep up",
                                    "%llu records were dropped by suanli-agent because the workbench did not keep up",
                                    PLURAL_OF (relay)));
}

static void
decode_end (SuanliCaptureDecoder      *self,
            const SuanliCaptureRecord *record)
{
  SuanliCaptureEnd end;
  const char *detail;

  suanli_capture_copy_record (record, &end, sizeof end);
  self->ended = TRUE;
  self->end_dropped = end.dropped;
  detail = known_text (self, end.detail);
  g_clear_pointer (&self->end_problem, g_free);
  if (end.reason == SUANLI_END_CUPTI_TAKEN)
    self->end_problem = detail != NULL
                          ? g_strdup_printf (_("another CUPTI client (PyTorch's profiler, Nsight) took CUPTI over: %s"), detail)
                          : g_strdup (_("another CUPTI client (PyTorch's profiler, Nsight) took CUPTI over"));
  else if (end.reason == SUANLI_END_ERROR)
    self->end_problem = detail != NULL ? g_strdup_printf (_("CUPTI failed: %s"), detail)
                                       : g_strdup (_("CUPTI failed"));
  if (self->end_problem != NULL)
    {
      g_autofree char *warning = g_strdup_printf (_("The capture ended early: %s. What came before is kept."),
                                                  self->end_problem);

      suanli_trace_add_warning (self->trace, warning);
    }
  else if (detail != NULL)
    {
      /* A capture that ended as asked, with something the job had to say of it. */
      g_autofree char *warning = g_strdup_printf (_("The job noted: %s."), detail);

      suanli_trace_add_warning (self->trace, warning);
    }
  if (self->pytorch_cuda && end.reason != SUANLI_END_CUPTI_TAKEN)
    suanli_trace_add_warning (self->trace,
                              _("PyTorch runs in this job, and this capture held CUPTI: a torch.profiler run during it "
                                "recorded no GPU work in its own trace (CUPTI takes one client at a time, and "
                                "PyTorch 2.11's profiler, refused, traces the CPU only). That GPU work is in this "
                                "capture."));
}

static void
decode_module (SuanliCaptureDecoder      *self,
               const SuanliCaptureRecord *record)
{
  SuanliCaptureModule module;

  suanli_capture_copy_record (record, &module, sizeof module);
  {
    const char *path = known_text (self, module.path);
    const char *name = path != NULL ? strrchr (path, '/') : NULL;

    if (name != NULL && g_str_has_prefix (name + 1, "libtorch_cuda"))
      self->pytorch_cuda = TRUE;
  }
  if (self->symbolizer == NULL)
    self->symbolizer = suanli_symbolizer_new ();
  suanli_symbolizer_add_module (self->symbolizer, module.bias, module.start, module.end,
                                suanli_trace_get_string (self->trace, string_of (self, module.path)), module.build_id,
                                MIN (module.build_id_length, sizeof module.build_id));
  /* Stacks not yet named are named by the modules as they are when their kernels come; those named
   * already stay as they were, but a stack like them is named anew. */
  g_hash_table_remove_all (self->stack_texts);
}

static void
decode_launch_stack (SuanliCaptureDecoder      *self,
                     const SuanliCaptureRecord *record)
{
  SuanliCaptureLaunchStack head;
  LaunchStack *stack;
  guint32 *slot;

  suanli_capture_copy_record (record, &head, sizeof head);
  if (record->size < sizeof head || (record->size - sizeof head) / sizeof (guint64) < head.depth)
    return;   /* fewer frames than it says: damaged */
  stack = g_malloc (sizeof (LaunchStack) + head.depth * sizeof (guint64));
  stack->python = head.python;
  stack->depth = head.depth;
  stack->formatted = FALSE;
  stack->text = 0;
  memcpy (stack->frames, (const guint8 *) record + sizeof head, head.depth * sizeof (guint64));
  /* The oldest kept stack makes room, unless its correlation came again since. */
  slot = &self->kept[self->kept_next];
  self->kept_next = (self->kept_next + 1) % KEPT_STACKS;
  if (*slot != 0 && *slot != head.correlation)
    g_hash_table_remove (self->stacks, GUINT_TO_POINTER (*slot));
  *slot = head.correlation;
  g_hash_table_replace (self->stacks, GUINT_TO_POINTER (head.correlation), stack);
}

static void
decode_record (SuanliCaptureDecoder      *self,
               const SuanliCaptureRecord *record)
{
  SuanliCaptureRecord head;

  memcpy (&head, record, sizeof head);
  self->records++;
  switch (head.kind)
    {
    case SUANLI_CAPTURE_KERNEL:
      decode_kernel (self, record);
      break;
    case SUANLI_CAPTURE_MEMCPY:
      decode_memcpy (self, record);
      break;
    case SUANLI_CAPTURE_MEMSET:
      decode_memset (self, record);
      break;
    case SUANLI_CAPTURE_API:
      decode_api (self, record);
      break;
    case SUANLI_CAPTURE_SYNC:
      decode_sync (self, record);
      break;
    case SUANLI_CAPTURE_NVTX_RANGE:
    case SUANLI_CAPTURE_NVTX_MARK:
      decode_nvtx (self, record, head.kind == SUANLI_CAPTURE_NVTX_MARK);
      break;
    case SUANLI_CAPTURE_STRING:
      decode_string (self, record);
      break;
    case SUANLI_CAPTURE_COUNTER:
      decode_counter (self, record);
      break;
    case SUANLI_CAPTURE_OVERHEAD:
      decode_overhead (self, record);
      break;
    case SUANLI_CAPTURE_DROPPED:
      decode_dropped (self, record);
      break;
    case SUANLI_CAPTURE_END:
      decode_end (self, record);
      break;
    case SUANLI_CAPTURE_MODULE:
      decode_module (self, record);
      break;
    case SUANLI_CAPTURE_LAUNCH_STACK:
      decode_launch_stack (self, record);
      break;
    default:
      self->records--;   /* a kind from a newer writer: skipped, by its size */
      break;
    }
}

/* ---- the stream ----------------------------------------------------------------------------- */

static void
name_processes (SuanliCaptureDecoder *self)
{
  SuanliGroup *group = suanli_trace_get_group (self->trace, self->group);
  SuanliProcess *process = suanli_trace_ensure_process (self->trace, self->header.pid);
  g_autofree char *name = g_strdup_printf ("pid %u on %s", self->header.pid, self->header.host);

  group->rank = self->header.rank;
  group->world_size = MAX (self->header.world_size, 0);
  process->name = intern_text (self, name, -1);
  process->rank = self->header.rank;
  /* A header from before the flag (or an attach) holds what came after START only. */
  group->capture = (self->header.flags & SUANLI_CAPTURE_FROM_LAUNCH) != 0 ? SUANLI_GROUP_CAPTURED_FROM_LAUNCH
                                                                          : SUANLI_GROUP_CAPTURED_FROM_START;
}

static void
name_device (SuanliCaptureDecoder      *self,
             const SuanliCaptureDevice *device)
{
  SuanliProcess *process = suanli_trace_ensure_process (self->trace, device->id);
  SuanliGroup *group = suanli_trace_get_group (self->trace, self->group);
  g_autofree char *labels = g_strdup_printf ("%u SMs, %.0f GiB", device->sm_count, (double) device->memory_bytes / (1u << 30));

  process->name = intern_text (self, device->name, -1);
  /* The first device stands for the capture's hardware (a job's GPUs are of one model). */
  if (group->device == 0)
    {
      group->device = process->name;
      group->device_memory = device->memory_bytes;
    }
  process->labels = suanli_trace_intern (self->trace, labels, -1);
  process->rank = self->header.rank;
}

static gboolean
fail (SuanliCaptureDecoder *self,
      SuanliCaptureStatus   status,
      GError              **error)
{
  g_autofree char *name = g_strdup (suanli_trace_get_string (self->trace, suanli_trace_get_group (self->trace, self->group)->name));

  g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA, _("%s: not a readable capture: at byte %llu: %s"), name,
               (unsigned long long) self->offset, suanli_capture_status_message (status));
  return FALSE;
}

/**
 * suanli_capture_decoder_feed:
 * @data: the stream's next bytes, any number of them
 *
 * Adds every whole record among what came so far to the trace (not yet finished: see
 * suanli_capture_decoder_finish()). Returns: FALSE with @error, naming the byte offset, when the
 * stream cannot be a capture; what was read before stays in the trace.
 */
gboolean
suanli_capture_decoder_feed (SuanliCaptureDecoder *self,
                             const void           *data,
                             gsize                 length,
                             GError              **error)
{
  gsize used = 0;

  /* Several captures (ranks) may be appending to one trace in turns. */
  suanli_trace_set_current_group (self->trace, self->group);
  g_byte_array_append (self->pending, data, (guint) length);
  /* Nothing after the end record is this stream's: it stays pending, for the next stream of a file
   * that holds several (suanli_capture_decoder_steal_rest). */
  while (used < self->pending->len && !self->ended)
    {
      const guint8 *at = self->pending->data + used;
      gsize left = self->pending->len - used;
      SuanliCaptureStatus status;
      gsize consumed = 0;

      if (!self->has_header)
        {
          status = suanli_capture_read_header (at, left, &self->header, &consumed);
          if (status == SUANLI_CAPTURE_OK)
            {
              if (self->header.clock_offset_ns >= (gint64) TIME_LIMIT_NS || self->header.clock_offset_ns <= -(gint64) TIME_LIMIT_NS)
                {
                  suanli_trace_add_warning (self->trace, _("The capture's clock offset is impossible: times are left on "
                                                           "CUPTI's clock"));
                  self->header.clock_offset_ns = 0;
                }
              self->has_header = TRUE;
              self->devices_left = self->header.n_devices;
              name_processes (self);
            }
        }
      else if (self->devices_left > 0)
        {
          SuanliCaptureDevice device;

          status = suanli_capture_read_device (at, left, &self->header, &device, &consumed);
          if (status == SUANLI_CAPTURE_OK)
            {
              self->devices_left--;
              name_device (self, &device);
            }
        }
      else
        {
          const SuanliCaptureRecord *record;

          status = suanli_capture_next_record (at, left, &record);
          if (status == SUANLI_CAPTURE_OK)
            {
              SuanliCaptureRecord head;

              memcpy (&head, record, sizeof head);
              consumed = head.size;
              decode_record (self, record);
            }
        }
      if (status == SUANLI_CAPTURE_NEED_MORE)
        break;
      if (status != SUANLI_CAPTURE_OK)
        {
          g_byte_array_remove_range (self->pending, 0, (guint) used);
          self->offset += used;
          return fail (self, status, error);
        }
      used += consumed;
    }
  g_byte_array_remove_range (self->pending, 0, (guint) used);
  self->offset += used;
  return TRUE;
}

static void
warn_impossible (SuanliCaptureDecoder *self)
{
  g_autofree char *warning = NULL;

  if (self->impossible == 0)
    return;
  warning = g_strdup_printf (_("%llu records with times no clock gives were left out"),
                             (unsigned long long) self->impossible);
  suanli_trace_add_warning (self->trace, warning);
}

/* What is said once the stream has ended, after why it ended early (the workbench shows the first
 * warning): what was lost, and that a capture from START holds only what came after it. */
static void
warn_at_end (SuanliCaptureDecoder *self)
{
  warn_dropped (self);
  warn_impossible (self);
  if (self->has_header && !(self->header.flags & SUANLI_CAPTURE_FROM_LAUNCH))
    suanli_trace_add_warning (self->trace, suanli_capture_decoder_describe (SUANLI_GROUP_CAPTURED_FROM_START));
}

/**
 * suanli_capture_decoder_finish:
 *
 * The stream has ended: sorts and nests the trace and links launches to their GPU work. A stream
 * cut inside a record keeps every whole record before it, and says so in a warning. Returns:
 * FALSE with @error when it held no header at all.
 */
gboolean
suanli_capture_decoder_finish (SuanliCaptureDecoder *self,
                               GError              **error)
{
  if (!self->has_header)
    return fail (self, self->offset + self->pending->len == 0 ? SUANLI_CAPTURE_NEED_MORE
                                                              : suanli_capture_read_header (self->pending->data,
                                                                                            self->pending->len,
                                                                                            &self->header, &(gsize) { 0 }),
                 error);
  /* Warnings about this capture, even after another's bytes were fed. */
  suanli_trace_set_current_group (self->trace, self->group);
  if (self->pending->len > 0)
    {
      g_autofree char *warning = g_strdup_printf (_("The capture ends inside a record at byte %llu: %llu bytes after "
                                                    "the last whole record were left out"),
                                                  (unsigned long long) self->offset,
                                                  (unsigned long long) self->pending->len);

      suanli_trace_add_warning (self->trace, warning);
    }
  else if (!self->ended)
    suanli_trace_add_warning (self->trace, _("The capture has no end record: it was cut off, not stopped"));
  warn_at_end (self);
  suanli_trace_finish (self->trace);
  suanli_import_link_correlations (self->trace, self->group);
  return TRUE;
}

/**
 * suanli_capture_decoder_update:
 *
 * For a live capture: sorts and nests what came since the last update, and the trace emits
 * "grown" for the views to show it.
 */
void
suanli_capture_decoder_update (SuanliCaptureDecoder *self)
{
  suanli_trace_finish_appended (self->trace);
}

/**
 * suanli_capture_decoder_finish_live:
 *
 * For a live capture whose stream has ended: what is left is sorted in, and launches are linked
 * to their GPU work.
 */
void
suanli_capture_decoder_finish_live (SuanliCaptureDecoder *self)
{
  suanli_trace_set_current_group (self->trace, self->group);
  if (self->has_header && !self->ended)
    suanli_trace_add_warning (self->trace, _("The capture has no end record: it was cut off, not stopped"));
  warn_at_end (self);
  /* Sorted first: the links name slices by their index. */
  suanli_trace_finish_appended (self->trace);
  suanli_import_link_correlations (self->trace, self->group);
}
