/* suanli-inject-stacks.c — the CPU stack of each kernel launch, as return addresses, and the
 * modules those addresses point into
 *
 * At a launch (in CUPTI's callback, on the job's thread) the return addresses and, for CPython
 * 3.11, the thread's Python frames go straight into the capture's queue as a
 * SUANLI_CAPTURE_LAUNCH_STACK record: no allocation, no symbol lookup, one short lock. The
 * collector keeps it until the kernel of the same correlation comes, and names the addresses.
 * Sent at the launch, a stack does not wait for CUPTI to hand its kernel's buffer back, so no stack
 * is lost however many launches a buffer holds. The modules the addresses point into (where each is
 * mapped, its file, its build id) go out as SUANLI_CAPTURE_MODULE records at START, and again
 * whenever the job has loaded more, at each flush (on the control thread).
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

#define STACK_DEPTH   SUANLI_INJECT_MAX_STACK_DEPTH
#define PYTHON_TEXT   1024         /* bytes of Python frames sent per launch at most */
#define MAX_MODULES   4096

typedef struct
{
  uintptr_t start;
  uintptr_t end;
  uint64_t  path_hash;   /* a library unloaded and another loaded at its place is another module */
} SentModule;

/* The modules sent in this capture (a few hundred for PyTorch: looked through in order); only the control thread touches them (and InitializeInjection,
 * before that thread exists). */
static struct
{
  SentModule         modules[MAX_MODULES];
  unsigned           n_modules;
  unsigned long long loads_seen;  /* dl_iterate_phdr's dlpi_adds at the last scan; 0: none yet */
  bool               refused;     /* the queue refused a module in the last scan: look again */
  bool               python;      /* the job is CPython 3.11: stacks get its frames */
} stacks;

/* The Python frames this thread sent last, so a launch from the same Python line sends no text. */
static __thread uint64_t last_python_hash;
static __thread uint32_t last_python_id, last_python_generation;

/* Launch stacks get the job's Python frames when it is CPython 3.11 (see suanli-inject-python.c).
 * Returns: whether they do. */
bool
suanli_inject_enable_python_stacks (void)
{
  if (!stacks.python)
    stacks.python = suanli_inject_python_init ();
  return stacks.python;
}

/* The string id of this thread's Python frames now, their text sent when it differs from the last. */
static uint32_t
python_frames (SuanliInjectQueue *queue)
{
  char text[PYTHON_TEXT];
  size_t length = suanli_inject_python_stack (text, sizeof text);
  uint32_t generation = suanli_inject_string_generation ();
  uint64_t hash;

  if (length == 0)
    return SUANLI_CAPTURE_NO_STRING;
  hash = suanli_inject_hash (text, length);
  if (hash == last_python_hash && generation == last_python_generation)
    return last_python_id;
  last_python_id = suanli_inject_new_string_id ();
  if (!suanli_inject_queue_push_string (queue, last_python_id, text))
    return SUANLI_CAPTURE_NO_STRING;
  last_python_hash = hash;
  last_python_generation = generation;
  return last_python_id;
}

/**
 * suanli_inject_push_launch_stack:
 *
 * On the launching thread, at a launch's entry: its return addresses (and Python frames) into
 * @queue (NULL: nowhere), for the kernel of @correlation.
 */
void
suanli_inject_push_launch_stack (SuanliInjectQueue *queue,
                                 uint32_t           correlation)
{
  struct
  {
    SuanliCaptureLaunchStack head;
    uint64_t                 frames[STACK_DEPTH];
  } record;
  void *frames[STACK_DEPTH];
  int depth;

  if (queue == NULL || (depth = suanli_inject_control_stack_depth ()) <= 0)
    return;
  depth = backtrace (frames, depth < STACK_DEPTH ? depth : STACK_DEPTH);
  if (depth <= 0)
    return;
  memset (&record.head, 0, sizeof record.head);
  suanli_capture_init_record (&record.head.record, SUANLI_CAPTURE_LAUNCH_STACK,
                              (uint32_t) (sizeof record.head + sizeof record.frames[0] * (size_t) depth));
  record.head.correlation = correlation;
  record.head.thread = suanli_inject_thread_id ();
  record.head.depth = (uint16_t) depth;
  record.head.python = stacks.python ? python_frames (queue) : SUANLI_CAPTURE_NO_STRING;
  for (int i = 0; i < depth; i++)
    record.frames[i] = (uint64_t) (uintptr_t) frames[i];
  suanli_inject_queue_push (queue, &record, record.head.record.size);
}

/* In CUPTI's launch callback: the stack into the capture's queue, when a capture runs. */
void
suanli_inject_record_launch_stack (uint32_t correlation)
{
  suanli_inject_push_launch_stack (suanli_inject_control_capture_queue (), correlation);
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

static bool
already_sent (uintptr_t start,
              uintptr_t end,
              uint64_t  path_hash)
{
  for (unsigned i = 0; i < stacks.n_modules; i++)
    if (stacks.modules[i].start == start && stacks.modules[i].end == end && stacks.modules[i].path_hash == path_hash)
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
  uint64_t path_hash;

  stacks.loads_seen = info->dlpi_adds;
  for (int i = 0; i < info->dlpi_phnum; i++)
    if (info->dlpi_phdr[i].p_type == PT_LOAD)
      {
        uintptr_t first = info->dlpi_addr + info->dlpi_phdr[i].p_vaddr;

        start = first < start ? first : start;
        end = first + info->dlpi_phdr[i].p_memsz > end ? first + info->dlpi_phdr[i].p_memsz : end;
      }
  if (start >= end || stacks.n_modules >= MAX_MODULES)
    return 0;
  if (path == NULL || path[0] == '\0')
    {
      /* The main program has no name here: the kernel's link says which file it is. */
      ssize_t length = readlink ("/proc/self/exe", executable, sizeof executable - 1);

      executable[length > 0 ? length : 0] = '\0';
      path = executable;
    }
  path_hash = suanli_inject_hash (path, strlen (path));
  if (already_sent (start, end, path_hash))
    return 0;
  memset (&module, 0, sizeof module);
  suanli_capture_init_record (&module.record, SUANLI_CAPTURE_MODULE, sizeof module);
  module.bias = info->dlpi_addr, module.start = start, module.end = end;
  module.path = suanli_inject_new_string_id ();
  if (!suanli_inject_queue_push_string (queue, module.path, path))
    {
      stacks.refused = true;
      return 0;
    }
  module.build_id_length = build_id (info, module.build_id, sizeof module.build_id);
  if (!suanli_inject_queue_push (queue, &module, sizeof module))
    {
      stacks.refused = true;   /* the queue is full: sent again when a stack needs it */
      return 0;
    }
  stacks.modules[stacks.n_modules++] = (SentModule) { start, end, path_hash };
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

/* Sends the modules not sent yet in this capture, when the job has loaded any since the last look:
 * at START, and at each flush, on the control thread. */
void
suanli_inject_send_new_modules (SuanliInjectQueue *queue)
{
  unsigned long long loads = 0;

  dl_iterate_phdr (count_loads, &loads);
  if (loads == stacks.loads_seen && !stacks.refused)
    return;
  stacks.refused = false;
  dl_iterate_phdr (send_module, queue);
  if (stacks.refused)
    stacks.loads_seen = 0;
}

/* A new capture sends its modules again. */
void
suanli_inject_forget_modules (void)
{
  stacks.n_modules = 0;
  stacks.loads_seen = 0;
}
