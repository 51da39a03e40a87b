/* suanli-inject-nvtx.c — NVTX ranges and marks, taken by the injection library itself
 *
 * `suanli-cli run` and `record` point NVTX_INJECTION64_PATH at this library (not at libcupti, which
 * NVTX would then load into every job at its first range, capturing or not). At a job's first NVTX
 * call NVTX loads it and calls InitializeInjectionNvtx2, which puts these handlers in NVTX's
 * tables. While no capture runs they only keep each thread's push depth (a range pushed before
 * START and popped after it is not half recorded); while one runs, a range's end sends an NVTX
 * range record with its start, on the capture's clock, and the thread's OS id.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define _GNU_SOURCE
#include "suanli-inject.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <nvtx3/nvToolsExt.h>

#define MAX_DEPTH    128    /* pushes kept per thread; deeper ones are counted, not recorded */
#define NAME_SLOTS   4096
#define OPEN_RANGES  256    /* start/end ranges (any thread may end them) open at once */
#define KEPT_TEXTS   4096   /* domains and registered strings */

typedef struct
{
  uint64_t start;
  uint32_t name;
  uint32_t domain;
  uint32_t generation;   /* the capture it began in; 0: none */
} OpenRange;

typedef struct
{
  const char *text;      /* owned; compared by content */
  uint32_t    id;
  uint32_t    generation;
} NameSlot;

static struct
{
  pthread_mutex_t lock;                  /* the names and the start/end ranges */
  NameSlot        names[NAME_SLOTS];
  OpenRange       open[OPEN_RANGES];
  uint64_t        open_ids[OPEN_RANGES]; /* the range id each open slot has; 0: free */
  uint64_t        next_range;
} nvtx = { .lock = PTHREAD_MUTEX_INITIALIZER };

static __thread OpenRange pushed[MAX_DEPTH];
static __thread int depth;

static uint64_t
now (void)
{
  uint64_t timestamp = suanli_inject_timestamp ();
  struct timespec clock;

  if (timestamp != 0)
    return timestamp;
  clock_gettime (CLOCK_REALTIME, &clock);   /* a source without CUPTI (the tests') */
  return (uint64_t) clock.tv_sec * 1000000000u + (uint64_t) clock.tv_nsec;
}

/* The id of @text in this capture, its string record sent the first time. */
static uint32_t
name_id (SuanliInjectQueue *queue,
         uint32_t           generation,
         const char        *text)
{
  uint32_t hash, id;

  if (text == NULL)
    return SUANLI_CAPTURE_NO_STRING;
  hash = (uint32_t) suanli_inject_hash (text, strlen (text));
  pthread_mutex_lock (&nvtx.lock);
  for (unsigned probe = 0; probe < 16; probe++)
    {
      NameSlot *slot = &nvtx.names[(hash + probe) & (NAME_SLOTS - 1)];

      if (slot->text != NULL && strcmp (slot->text, text) != 0)
        continue;
      if (slot->text != NULL && slot->generation == generation)
        {
          id = slot->id;
          pthread_mutex_unlock (&nvtx.lock);
          return id;
        }
      if (slot->text == NULL && (slot->text = strdup (text)) == NULL)
        break;
      slot->id = suanli_inject_new_string_id ();
      slot->generation = suanli_inject_queue_push_string (queue, slot->id, text) ? generation : 0;
      id = slot->id;
      pthread_mutex_unlock (&nvtx.lock);
      return id;
    }
  pthread_mutex_unlock (&nvtx.lock);
  /* A crowded table: the name goes out again under a new id. */
  id = suanli_inject_new_string_id ();
  suanli_inject_queue_push_string (queue, id, text);
  return id;
}

/* The text of an event's message: ASCII, or a registered string (whose handle is its text). */
static const char *
message_of (const nvtxEventAttributes_t *attributes)
{
  if (attributes == NULL)
    return NULL;
  switch (attributes->messageType)
    {
    case NVTX_MESSAGE_TYPE_ASCII:
      return attributes->message.ascii;
    case NVTX_MESSAGE_TYPE_REGISTERED:
      return (const char *) attributes->message.registered;
    case NVTX_MESSAGE_TYPE_UNICODE:
      return "(a wide-character NVTX message)";
    default:
      return NULL;
    }
}

/* A range as it begins: named and timed only while a capture runs. */
static OpenRange
begin (const char *message,
       const char *domain)
{
  SuanliInjectQueue *queue = suanli_inject_control_capture_queue ();
  uint32_t generation = suanli_inject_string_generation ();
  OpenRange range = { 0, 0, 0, 0 };

  if (queue == NULL)
    return range;
  range.start = now ();
  range.name = name_id (queue, generation, message != NULL ? message : "(unnamed)");
  range.domain = domain != NULL ? name_id (queue, generation, domain) : SUANLI_CAPTURE_NO_STRING;
  range.generation = generation;
  return range;
}

/* Sends a range (or, with @mark, a mark) begun in this capture. */
static void
send (const OpenRange *range,
      bool             mark)
{
  SuanliInjectQueue *queue = suanli_inject_control_capture_queue ();
  SuanliCaptureNvtx record;

  if (queue == NULL || range->generation == 0 || range->generation != suanli_inject_string_generation ())
    return;
  memset (&record, 0, sizeof record);
  suanli_capture_init_record (&record.record, mark ? SUANLI_CAPTURE_NVTX_MARK : SUANLI_CAPTURE_NVTX_RANGE,
                              sizeof record);
  record.start = range->start;
  record.end = mark ? range->start : now ();
  record.thread = suanli_inject_thread_id ();
  record.name = range->name;
  record.domain = range->domain;
  suanli_inject_queue_push (queue, &record, sizeof record);
}

/* ---- push and pop ------------------------------------------------------------------------------ */

static int
push (const char *message,
      const char *domain)
{
  OpenRange range = begin (message, domain);

  if (depth < MAX_DEPTH)
    pushed[depth] = range;
  return depth++;
}

static int
pop (void)
{
  if (depth <= 0)
    return -2;   /* NVTX's answer for a pop without a push */
  if (--depth < MAX_DEPTH)
    send (&pushed[depth], false);
  return depth;
}

static int NVTX_API
range_push_a (const char *message)
{
  return push (message, NULL);
}

static int NVTX_API
range_push_ex (const nvtxEventAttributes_t *attributes)
{
  return push (message_of (attributes), NULL);
}

static int NVTX_API
range_pop (void)
{
  return pop ();
}

static int NVTX_API
domain_range_push_ex (nvtxDomainHandle_t           domain,
                      const nvtxEventAttributes_t *attributes)
{
  return push (message_of (attributes), (const char *) domain);
}

static int NVTX_API
domain_range_pop (nvtxDomainHandle_t domain)
{
  return pop ();
}

/* ---- start and end: ranges any thread may end ------------------------------------------------------ */

static nvtxRangeId_t
start (const char *message,
       const char *domain)
{
  OpenRange range = begin (message, domain);
  nvtxRangeId_t id;

  pthread_mutex_lock (&nvtx.lock);
  id = ++nvtx.next_range;
  if (range.generation != 0)
    for (unsigned i = 0; i < OPEN_RANGES; i++)
      if (nvtx.open_ids[i] == 0)
        {
          nvtx.open_ids[i] = id;
          nvtx.open[i] = range;
          break;
        }
  pthread_mutex_unlock (&nvtx.lock);
  return id;
}

static void
end (nvtxRangeId_t id)
{
  OpenRange range = { 0, 0, 0, 0 };

  pthread_mutex_lock (&nvtx.lock);
  for (unsigned i = 0; i < OPEN_RANGES; i++)
    if (nvtx.open_ids[i] == id)
      {
        range = nvtx.open[i];
        nvtx.open_ids[i] = 0;
        break;
      }
  pthread_mutex_unlock (&nvtx.lock);
  send (&range, false);
}

static nvtxRangeId_t NVTX_API
range_start_a (const char *message)
{
  return start (message, NULL);
}

static nvtxRangeId_t NVTX_API
range_start_ex (const nvtxEventAttributes_t *attributes)
{
  return start (message_of (attributes), NULL);
}

static void NVTX_API
range_end (nvtxRangeId_t id)
{
  end (id);
}

static nvtxRangeId_t NVTX_API
domain_range_start_ex (nvtxDomainHandle_t           domain,
                       const nvtxEventAttributes_t *attributes)
{
  return start (message_of (attributes), (const char *) domain);
}

static void NVTX_API
domain_range_end (nvtxDomainHandle_t domain,
                  nvtxRangeId_t      id)
{
  end (id);
}

/* ---- marks, domains and registered strings ---------------------------------------------------------- */

static void
mark (const char *message,
      const char *domain)
{
  OpenRange range = begin (message, domain);

  send (&range, true);
}

static void NVTX_API
mark_a (const char *message)
{
  mark (message, NULL);
}

static void NVTX_API
mark_ex (const nvtxEventAttributes_t *attributes)
{
  mark (message_of (attributes), NULL);
}

static void NVTX_API
domain_mark_ex (nvtxDomainHandle_t           domain,
                const nvtxEventAttributes_t *attributes)
{
  mark (message_of (attributes), (const char *) domain);
}

/* A domain's handle, and a registered string's, is the library's one copy of its text, kept for the
 * job's life as NVTX's handles are: the same name gives the same handle. */
static const char *
keep_text (const char *text)
{
  static struct
  {
    pthread_mutex_t lock;
    char           *texts[KEPT_TEXTS];
  } kept = { .lock = PTHREAD_MUTEX_INITIALIZER };
  const char *found = "(too many NVTX domains and strings)";

  if (text == NULL)
    text = "";
  pthread_mutex_lock (&kept.lock);
  for (unsigned i = 0; i < KEPT_TEXTS; i++)
    if (kept.texts[i] == NULL || strcmp (kept.texts[i], text) == 0)
      {
        if (kept.texts[i] == NULL && (kept.texts[i] = strdup (text)) == NULL)
          break;
        found = kept.texts[i];
        break;
      }
  pthread_mutex_unlock (&kept.lock);
  return found;
}

static nvtxDomainHandle_t NVTX_API
domain_create_a (const char *name)
{
  return (nvtxDomainHandle_t) keep_text (name);
}

static nvtxStringHandle_t NVTX_API
domain_register_string_a (nvtxDomainHandle_t  domain,
                          const char         *text)
{
  return (nvtxStringHandle_t) keep_text (text);
}

/* ---- the injection entry point ------------------------------------------------------------------- */

typedef struct
{
  unsigned            id;
  NvtxFunctionPointer handler;
} Handler;

static void
install (const NvtxExportTableCallbacks *callbacks,
         NvtxCallbackModule              module,
         const Handler                  *handlers,
         size_t                          n)
{
  NvtxFunctionTable table = NULL;
  unsigned int size = 0;

  if (callbacks->GetModuleFunctionTable (module, &table, &size) == 0 || table == NULL)
    return;
  for (size_t i = 0; i < n; i++)
    if (handlers[i].id < size && table[handlers[i].id] != NULL)
      *table[handlers[i].id] = handlers[i].handler;
}

__attribute__ ((visibility ("default"))) int InitializeInjectionNvtx2 (NvtxGetExportTableFunc_t get_export_table);

int
InitializeInjectionNvtx2 (NvtxGetExportTableFunc_t get_export_table)
{
#define HANDLER(id, function) { id, (NvtxFunctionPointer) function }
  static const Handler core[] = {
    HANDLER (NVTX_CBID_CORE_MarkEx, mark_ex), HANDLER (NVTX_CBID_CORE_MarkA, mark_a),
    HANDLER (NVTX_CBID_CORE_RangeStartEx, range_start_ex), HANDLER (NVTX_CBID_CORE_RangeStartA, range_start_a),
    HANDLER (NVTX_CBID_CORE_RangeEnd, range_end), HANDLER (NVTX_CBID_CORE_RangePushEx, range_push_ex),
    HANDLER (NVTX_CBID_CORE_RangePushA, range_push_a), HANDLER (NVTX_CBID_CORE_RangePop, range_pop),
  };
  static const Handler core2[] = {
    HANDLER (NVTX_CBID_CORE2_DomainMarkEx, domain_mark_ex),
    HANDLER (NVTX_CBID_CORE2_DomainRangeStartEx, domain_range_start_ex),
    HANDLER (NVTX_CBID_CORE2_DomainRangeEnd, domain_range_end),
    HANDLER (NVTX_CBID_CORE2_DomainRangePushEx, domain_range_push_ex),
    HANDLER (NVTX_CBID_CORE2_DomainRangePop, domain_range_pop),
    HANDLER (NVTX_CBID_CORE2_DomainCreateA, domain_create_a),
    HANDLER (NVTX_CBID_CORE2_DomainRegisterStringA, domain_register_string_a),
  };
#undef HANDLER
  const NvtxExportTableCallbacks *callbacks = get_export_table != NULL ? get_export_table (NVTX_ETID_CALLBACKS) : NULL;

  if (callbacks == NULL || callbacks->GetModuleFunctionTable == NULL)
    return 0;
  install (callbacks, NVTX_CB_MODULE_CORE, core, sizeof core / sizeof core[0]);
  install (callbacks, NVTX_CB_MODULE_CORE2, core2, sizeof core2 / sizeof core2[0]);
  return 1;
}
