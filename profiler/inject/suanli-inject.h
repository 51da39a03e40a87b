/* suanli-inject.h — what the parts of the injection library share (plain C and pthreads, no GLib)
 *
 * The library lives inside someone else's CUDA job. At InitializeInjection it only opens a control
 * socket and waits on one thread. A collector connects and asks for START: the library starts a
 * record source (CUPTI; in tests a generator), answers OK and streams the capture format over the
 * same connection until STOP, the collector going away, or the job's exit. Records pass through a
 * preallocated queue to a writer thread that never blocks the job: when the collector is slow the
 * queue fills and records are dropped and counted, never waited for.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "suanli-capture.h"

#ifdef __cplusplus
extern "C" {
#endif

#define SUANLI_INJECT_MAX_COMMAND   128     /* a control line longer than this is refused */
#define SUANLI_INJECT_FLUSH_MS      250     /* the source is flushed this often while capturing */
#define SUANLI_INJECT_MAX_STACK_DEPTH 32    /* frames of a launch stack at most (and by default) */

/* ---- the queue between the sources and the writer ---------------------------------------- */

typedef struct
{
  pthread_mutex_t lock;
  pthread_cond_t  ready;       /* signalled when records arrive, or to wake the writer */
  uint8_t        *data;
  size_t          capacity;
  size_t          head;        /* where the next record goes */
  size_t          tail;        /* the next byte to send */
  size_t          used;
  uint64_t        pushed;      /* records taken */
  uint64_t        dropped;     /* records refused for want of room, not yet reported */
  uint64_t        dropped_total;
} SuanliInjectQueue;

int  suanli_inject_queue_init    (SuanliInjectQueue *queue,
                                  size_t             capacity);
void suanli_inject_queue_destroy (SuanliInjectQueue *queue);
bool suanli_inject_queue_try_push (SuanliInjectQueue *queue,
                                   const void        *record,
                                   size_t             size);
bool suanli_inject_queue_push    (SuanliInjectQueue *queue,
                                  const void        *record,
                                  size_t             size);
bool suanli_inject_queue_push_string (SuanliInjectQueue *queue,
                                      uint32_t           id,
                                      const char        *text);
size_t suanli_inject_queue_peek  (SuanliInjectQueue *queue,
                                  const uint8_t    **data);
void suanli_inject_queue_consume (SuanliInjectQueue *queue,
                                  size_t             bytes);
void suanli_inject_queue_clear   (SuanliInjectQueue *queue);
size_t suanli_inject_queue_used  (SuanliInjectQueue *queue);
void suanli_inject_queue_totals  (SuanliInjectQueue *queue,
                                  uint64_t          *pushed,
                                  uint64_t          *dropped);
void suanli_inject_queue_report_drops (SuanliInjectQueue *queue);

/* ---- where records come from ----------------------------------------------------------------- */

typedef struct SuanliInjectSource SuanliInjectSource;

struct SuanliInjectSource
{
  /* Starts producing into @queue. Fills the header's CUPTI version and clock offset and the devices
   * it knows (up to @max_devices). Returns 0, or -1 with why in @error (quoting CUPTI's words). */
  int  (*start) (SuanliInjectSource  *source,
                 SuanliInjectQueue   *queue,
                 SuanliCaptureHeader *header,
                 SuanliCaptureDevice *devices,
                 uint16_t            *n_devices,
                 uint16_t             max_devices,
                 char                *error,
                 size_t               error_size);
  /* Hands over what it holds, every SUANLI_INJECT_FLUSH_MS while capturing. Returns -1, or a
   * SuanliEndReason when the capture cannot go on (why in words in @why): it is then stopped. */
  int  (*flush) (SuanliInjectSource *source,
                 char               *why,
                 size_t              why_size);
  /* Stops producing; what it still held is in the queue when it returns. Returns records it lost
   * (reported in the stream already). When it finds the capture ended otherwise than by STOP, it
   * sets @reason (a SuanliEndReason) and says why in @why. */
  uint64_t (*stop) (SuanliInjectSource *source,
                    char               *why,
                    size_t              why_size,
                    int                *reason);
  void *data;
  /* Optional: the job's devices, for STATUS before any START (NULL: none known until START). */
  uint16_t (*devices) (SuanliInjectSource  *source,
                       SuanliCaptureDevice *devices,
                       uint16_t             max_devices);
};

SuanliInjectSource *suanli_inject_cupti_source (void);

/* String ids for the stream, shared by every part that sends names (CUPTI's records, NVTX): each
 * capture numbers its strings from 1 again (suanli_inject_reset_string_ids at START). */
uint32_t suanli_inject_new_string_id   (void);
void     suanli_inject_reset_string_ids (void);
uint32_t suanli_inject_string_generation (void);
uint32_t suanli_inject_thread_id       (void);
uint64_t suanli_inject_hash            (const char *text,
                                        size_t      length);
uint64_t suanli_inject_now_ms          (void);
/* The capture's clock: CUPTI's timestamp once libcupti is loaded (0 before). */
uint64_t suanli_inject_timestamp       (void);

/* ---- the control socket ------------------------------------------------------------------------ */

typedef enum {
  SUANLI_INJECT_IDLE,
  SUANLI_INJECT_CAPTURING,
  SUANLI_INJECT_INERT,        /* the socket could not be opened: nothing to attach to */
} SuanliInjectState;

/* A socket's path is at most 107 bytes (sun_path), and "/PID.sock" takes up to 16 of them: the
 * folder, with its NUL, fits in this many. One limit for the library, the CLI and the agent. */
#define SUANLI_INJECT_SOCKET_DIR_SIZE 92

int  suanli_inject_socket_dir    (char       *path,
                                  size_t      size,
                                  char       *error,
                                  size_t      error_size);
int  suanli_inject_fallback_socket_dir (char   *path,
                                        size_t  size);
int  suanli_inject_socket_path   (char       *path,
                                  size_t      size,
                                  int         pid,
                                  char       *error,
                                  size_t      error_size);

/* Starts the control thread on a socket for this process, with @source behind START. Returns 0,
 * or -1 (the library then stays inert) after saying why on stderr unless SUANLI_QUIET=1. */
int  suanli_inject_control_start (SuanliInjectSource *source,
                                  size_t              queue_capacity);
void suanli_inject_control_stop  (void);
void suanli_inject_control_forget (void);
SuanliInjectState suanli_inject_control_state (void);
/* The queue records go to while a capture runs, for sources beside CUPTI's (NVTX); NULL when idle.
 * The queue outlives the capture: a record pushed just as it ends is cleared at the next START. */
SuanliInjectQueue *suanli_inject_control_capture_queue (void);
bool     suanli_inject_control_exiting (void);
/* Frames a launch stack takes in the capture now (START's stack-depth=N, SUANLI_STACK_DEPTH): 0, none. */
int      suanli_inject_control_stack_depth (void);
uint64_t suanli_inject_control_dropped (void);
void suanli_inject_say           (const char *format,
                                  ...) __attribute__ ((format (printf, 1, 2)));

#ifdef __cplusplus
}
#endif
