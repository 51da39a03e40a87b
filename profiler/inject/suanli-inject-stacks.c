/* suanli-inject-stacks.c — the CPU stack of each kernel launch, as return addresses, and the
 * modules those addresses point into
 *
 * At a launch (in CUPTI's callback, on the job's thread) the return addresses and, for CPython
 * 3.11, the thread's Python frames go into a preallocated slot by correlation id: no allocation,
 * no lock, no symbol lookup. When the kernel's record is decoded (on the library's own thread) the
 * slot is sent as it is, a SUANLI_CAPTURE_LAUNCH_STACK record; the collector names the addresses.
 * Before the first stack that points into a module, that module (where it is mapped, its file, its
 * build id) goes out as a SUANLI_CAPTURE_MODULE record, so the collector can read its symbols.
 * Naming frames inside the job (dladdr) cost about half a millisecond a frame in a process with
 * libtorch loaded, under a lock, in CUPTI's way: records dropped and STOP stalled.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define _GNU_SOURCE
#include "suanli-inject-cupti.h"
#include "suanli-inject-python.h"

#include <elf.h>
#include <execinfo.h>
#include <link.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define STACK_SLOTS   4096         /* launches whose CPU stack waits for their kernel's record */
#define STACK_DEPTH   32
#define PYTHON_TEXT   1024         /* bytes of Python frames kept per launch (a multiple of 8) */
#define MAX_MODULES   4096

/* The CPU stack of one launch, kept (by correlation id) until its kernel's record comes. */
typedef struct
{
  uint32_t    correlation;
  uint32_t    thread;
  int         depth;
  void       *frames[STACK_DEPTH];
  uint32_t    python_length;   /* of its text in python_stacks, 0: none */
} LaunchStack;

typedef struct
{
  uintptr_t start;
  uintptr_t end;
} SentModule;

static struct
{
  LaunchStack  slots[STACK_SLOTS];
  uint64_t    *python_stacks;     /* PYTHON_TEXT bytes per slot, when the job is CPython 3.11 */
  /* The modules sent in this capture, sorted by start; only the decoding thread touches them. */
  SentModule   modules[MAX_MODULES];
  unsigned     n_modules;
  unsigned long long loads_seen;  /* dl_iterate_phdr's dlpi_adds at the last scan; 0: none yet */
  bool         refused;           /* the queue refused a module in the last scan: look again */
} stacks;

/* Launch stacks get the job's Python frames when it is CPython 3.11 (see suanli-inject-python.c):
 * their room is taken once, here, never in a launch's way. Returns: whether they do. */
bool
suanli_inject_enable_python_stacks (void)
{
  if (stacks.python_stacks == NULL && suanli_inject_python_init ())
    stacks.python_stacks = calloc (STACK_SLOTS, PYTHON_TEXT);
  return stacks.python_stacks != NULL;
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
  LaunchStack *slot = &stacks.slots[index];
  void *frames[STACK_DEPTH];
  int depth = backtrace (frames, STACK_DEPTH);
  uint64_t python[PYTHON_TEXT / 8];
  size_t python_length = stacks.python_stacks != NULL ? suanli_inject_python_stack ((char *) python, PYTHON_TEXT) : 0;

  /* Published last: a reader that sees this correlation sees its frames (and checks again after). */
  __atomic_store_n (&slot->correlation, 0, __ATOMIC_RELEASE);
  __atomic_thread_fence (__ATOMIC_RELEASE);
  for (int i = 0; i < depth; i++)
    __atomic_store_n (&slot->frames[i], frames[i], __ATOMIC_RELAXED);
  __atomic_store_n (&slot->depth, depth, __ATOMIC_RELAXED);
  __atomic_store_n (&slot->thread, suanli_inject_thread_id (), __ATOMIC_RELAXED);
  if (python_length > 0)
    copy_words (stacks.python_stacks + (size_t) index * (PYTHON_TEXT / 8), python, python_length + 1, true);
  __atomic_store_n (&slot->python_length, (uint32_t) python_length, __ATOMIC_RELAXED);
  __atomic_store_n (&slot->correlation, correlation, __ATOMIC_RELEASE);
}

/* ---- modules ------------------------------------------------------------------------------------- */

/* The GNU build id in a loaded module's notes, read from its mapped segments. */
static uint8_t
build_id (const struct dl_phdr_info *info,
          uint8_t                   *id,
          size_t                     size)
{
  for (int i = 0; i < info->dlpi_phnum; i++)
    {
      const ElfW(Phdr) *header = &info->dlpi_phdr[i];
      const uint8_t *note, *end;

      if (header->p_type != PT_NOTE)
        continue;
      note = (const uint8_t *) (info->dlpi_addr + header->p_vaddr);
      end = note + header->p_memsz;
      while (note + sizeof (ElfW(Nhdr)) <= end)
        {
          const ElfW(Nhdr) *entry = (const ElfW(Nhdr) *) note;
          const uint8_t *name = note + sizeof *entry;
          const uint8_t *descriptor = name + ((entry->n_namesz + 3) & ~3u);

          if (descriptor + entry->n_descsz > end)
            break;
          if (entry->n_type == NT_GNU_BUILD_ID && entry->n_namesz == 4 && memcmp (name, "GNU", 4) == 0)
            {
              uint8_t length = entry->n_descsz < size ? (uint8_t) entry->n_descsz : (uint8_t) size;

              memcpy (id, descriptor, length);
              return length;
            }
          note = descriptor + ((entry->n_descsz + 3) & ~3u);
        }
    }
  return 0;
}

static int
compare_modules (const void *a,
                 const void *b)
{
  const SentModule *first = a, *second = b;

  return first->start < second->start ? -1 : first->start > second->start;
}

/* The sent module holding @address, by bisection. */
static bool
module_sent (uintptr_t address)
{
  unsigned low = 0, high = stacks.n_modules;

  while (low < high)
    {
      unsigned middle = (low + high) / 2;

      if (address < stacks.modules[middle].start)
        high = middle;
      else if (address >= stacks.modules[middle].end)
        low = middle + 1;
      else
        return true;
    }
  return false;
}

static bool
already_sent (uintptr_t start)
{
  for (unsigned i = 0; i < stacks.n_modules; i++)
    if (stacks.modules[i].start == start)
      return true;
  return false;
}

static int
send_module (struct dl_phdr_info *info,
             size_t               size,
             void                *data)
{
  SuanliInjectQueue *queue = data;
  SuanliCaptureModule module;
  uintptr_t start = UINTPTR_MAX, end = 0;
  char executable[PATH_MAX];
  const char *path = info->dlpi_name;

  stacks.loads_seen = info->dlpi_adds;
  for (int i = 0; i < info->dlpi_phnum; i++)
    if (info->dlpi_phdr[i].p_type == PT_LOAD)
      {
        uintptr_t first = info->dlpi_addr + info->dlpi_phdr[i].p_vaddr;

        start = first < start ? first : start;
        end = first + info->dlpi_phdr[i].p_memsz > end ? first + info->dlpi_phdr[i].p_memsz : end;
      }
  if (start >= end || already_sent (start) || stacks.n_modules >= MAX_MODULES)
    return 0;
  if (path == NULL || path[0] == '\0')
    {
      /* The main program has no name here: the kernel's link says which file it is. */
      ssize_t length = readlink ("/proc/self/exe", executable, sizeof executable - 1);

      executable[length > 0 ? length : 0] = '\0';
      path = executable;
    }
  memset (&module, 0, sizeof module);
  suanli_capture_init_record (&module.record, SUANLI_CAPTURE_MODULE, sizeof module);
  module.bias = info->dlpi_addr, module.start = start, module.end = end;
  module.path = suanli_inject_intern (queue, path);
  module.build_id_length = build_id (info, module.build_id, sizeof module.build_id);
  if (!suanli_inject_queue_push (queue, &module, sizeof module))
    {
      stacks.refused = true;   /* the queue is full: sent again when a stack needs it */
      return 0;
    }
  stacks.modules[stacks.n_modules++] = (SentModule) { start, end };
  return 0;
}

static int
count_loads (struct dl_phdr_info *info,
             size_t               size,
             void                *data)
{
  *(unsigned long long *) data = info->dlpi_adds;
  return 1;
}

/* Sends the modules not sent yet, when the job has loaded any since the last look. */
static void
send_new_modules (SuanliInjectQueue *queue)
{
  unsigned long long loads = 0;

  dl_iterate_phdr (count_loads, &loads);
  if (loads == stacks.loads_seen && !stacks.refused)
    return;
  stacks.refused = false;
  dl_iterate_phdr (send_module, queue);
  if (stacks.refused)
    stacks.loads_seen = 0;
  qsort (stacks.modules, stacks.n_modules, sizeof stacks.modules[0], compare_modules);
}

/* A new capture sends its modules again. */
void
suanli_inject_forget_modules (void)
{
  stacks.n_modules = 0;
  stacks.loads_seen = 0;
}

/**
 * suanli_inject_send_launch_stack:
 *
 * On the decoding thread: the stack kept for the launch @correlation, as a launch stack record
 * (after the modules it needs). The cupti lock is held (names are interned).
 * Returns: whether one was kept and sent.
 */
bool
suanli_inject_send_launch_stack (SuanliInjectQueue *queue,
                                 uint32_t           correlation)
{
  unsigned index = correlation % STACK_SLOTS;
  LaunchStack *slot = &stacks.slots[index];
  struct
  {
    SuanliCaptureLaunchStack head;
    uint64_t                 frames[STACK_DEPTH];
  } record;
  uint64_t python[PYTHON_TEXT / 8];
  uint32_t python_length;
  int depth;

  /* A copy, checked to be of one launch: the slot may be taken by a later one meanwhile. */
  if (__atomic_load_n (&slot->correlation, __ATOMIC_ACQUIRE) != correlation)
    return false;
  memset (&record.head, 0, sizeof record.head);
  depth = __atomic_load_n (&slot->depth, __ATOMIC_RELAXED);
  python_length = __atomic_load_n (&slot->python_length, __ATOMIC_RELAXED);
  if (depth <= 0 || depth > STACK_DEPTH || python_length >= PYTHON_TEXT ||
      (python_length > 0 && stacks.python_stacks == NULL))
    return false;
  for (int i = 0; i < depth; i++)
    record.frames[i] = (uint64_t) (uintptr_t) __atomic_load_n (&slot->frames[i], __ATOMIC_RELAXED);
  record.head.thread = __atomic_load_n (&slot->thread, __ATOMIC_RELAXED);
  if (python_length > 0)
    copy_words (python, stacks.python_stacks + (size_t) index * (PYTHON_TEXT / 8), python_length + 1, false);
  __atomic_thread_fence (__ATOMIC_ACQUIRE);
  if (__atomic_load_n (&slot->correlation, __ATOMIC_RELAXED) != correlation)
    return false;
  ((char *) python)[python_length] = '\0';

  for (int i = 0; i < depth; i++)
    if (!module_sent ((uintptr_t) record.frames[i]))
      {
        send_new_modules (queue);
        break;   /* one look per stack: an address in no module (generated code) stays unnamed */
      }
  suanli_capture_init_record (&record.head.record, SUANLI_CAPTURE_LAUNCH_STACK,
                              (uint32_t) (sizeof record.head + sizeof record.frames[0] * (size_t) depth));
  record.head.correlation = correlation;
  record.head.depth = (uint16_t) depth;
  record.head.python = python_length > 0 ? suanli_inject_intern (queue, (const char *) python) : SUANLI_CAPTURE_NO_STRING;
  return suanli_inject_queue_push (queue, &record, record.head.record.size);
}
