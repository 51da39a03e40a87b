/* fake-libcupti-private.h — what the parts of the TEST DOUBLE of libcupti.so.13 share
 *
 * One shared library built from fake-libcupti.c (its state, clock, records and the work a job's
 * CUDA calls make), fake-libcupti-buffers.c (activity buffers and the activity API) and
 * fake-libcupti-subscriber.c (the subscriber and its callbacks). Nothing here is exported.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <cupti.h>
#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "fake-cupti.h"

#define CLOCK_AHEAD_NS   (3600ull * 1000000000ull)   /* the fake's clock: CLOCK_MONOTONIC an hour ahead */
#define LAUNCH_LATENCY_NS 3000u                      /* from a launch to its kernel's start */
#define STREAM_SLOTS     256                         /* streams are told apart modulo this */
#define NAME_SLOTS       1024
#define ALIGN8(size)     (((size) + 7u) & ~(size_t) 7u)

extern const char * const fake_cupti_runtime_names[CUPTI_RUNTIME_TRACE_CBID_SIZE];
extern const char * const fake_cupti_driver_names[CUPTI_DRIVER_TRACE_CBID_SIZE];
extern const char * const fake_cupti_result_names[];
extern const unsigned fake_cupti_n_result_names;

struct CUpti_Subscriber_st
{
  int unused;
};

/* A client's buffer while the fake writes into it or holds it. */
typedef struct FakeBuffer FakeBuffer;
struct FakeBuffer
{
  uint8_t    *data;
  size_t      size;
  size_t      used;
  size_t      max_records;   /* 0: as many as fit */
  size_t      records;
  unsigned    incomplete;    /* records whose work has not finished (a held stream's) */
  bool        handed_back;
  FakeBuffer *next;
};

/* A kernel record waiting for its held stream. */
typedef struct
{
  FakeBuffer *buffer;
  size_t      offset;
  uint32_t    stream;
  uint64_t    duration;
} Incomplete;

/* One API call in progress: its correlation id and start. */
typedef struct
{
  CUpti_CallbackDomain domain;
  CUpti_CallbackId     cbid;
  const char          *function;
  const char          *symbol;
  bool                 nested;     /* made by the runtime inside a runtime call: no API record */
  uint32_t             correlation;
  uint64_t             start;
  uint64_t             correlation_data;
} Call;

#pragma GCC visibility push(hidden)

typedef struct
{
  /* Everything below. The buffer-requested callback is called with it held, as CUPTI calls it
   * under its own lock; it is an error-checking mutex so that a client calling back into CUPTI from
   * there is told so rather than hung. */
  pthread_mutex_t                    lock;
  pthread_cond_t                     wake;           /* the worker: a buffer may be ready */
  pthread_cond_t                     handed;         /* a delivery finished */
  bool                               worker_started;
  unsigned                           delivering;     /* deliveries in progress, any thread */
  uint32_t                           version;
  unsigned                           zero_every;     /* FAKE_CUPTI_ZERO_TIMESTAMPS */
  bool                               flush_hang;
  unsigned                           finalize_ms;    /* FAKE_CUPTI_FINALIZE_MS: cuptiFinalize takes this long */
  /* The subscriber. */
  bool                               subscribed;
  CUpti_CallbackFunc                 callback;
  void                              *userdata;
  char                               subscriber_name[64];
  uint8_t                            runtime_callbacks[CUPTI_RUNTIME_TRACE_CBID_SIZE];
  uint8_t                            driver_callbacks[CUPTI_DRIVER_TRACE_CBID_SIZE];
  /* Activity. */
  uint64_t                           kinds;
  uint8_t                            runtime_api[CUPTI_RUNTIME_TRACE_CBID_SIZE];
  uint8_t                            driver_api[CUPTI_DRIVER_TRACE_CBID_SIZE];
  CUpti_BuffersCallbackRequestFunc   requested;
  CUpti_BuffersCallbackCompleteFunc  completed;
  int                                thread_id_type;
  FakeBuffer                        *current;
  FakeBuffer                        *full;           /* retired, waiting to be handed back */
  Incomplete                        *incomplete;
  size_t                             n_incomplete;
  size_t                             incomplete_size;
  bool                               held[STREAM_SLOTS];
  bool                               capturing[STREAM_SLOTS];   /* in stream capture: launches build a graph */
  CUpti_TimestampCallbackFunc        timestamp;      /* the client's clock; NULL: the fake's own */
  uint64_t                           timestamp_native;   /* the fake's clock and the client's, read together */
  uint64_t                           timestamp_client;
  double                             timestamp_rate;     /* its units per ns of the fake's clock */
  uint64_t                           busy_until[STREAM_SLOTS];
  const char                        *names[NAME_SLOTS];
  size_t                             dropped_unread;
  int64_t                            grid_id;
  uint64_t                           kernels_written;
  FakeCuptiState                     counts;         /* its counters only */
} FakeCupti;

extern FakeCupti fake_cupti;
extern struct CUpti_Subscriber_st fake_cupti_subscriber;

/* Takes and drops the fake's lock (see FakeCupti.lock). */
void  fake_cupti_lock               (void);
void  fake_cupti_unlock             (void);
/* Room for a record of @size, zeroed, in the current buffer, asking the client for a buffer when
 * there is none; NULL when it gives none: the record is dropped and counted. The lock is held. */
void *fake_cupti_reserve            (size_t       size,
                                     bool         kernel,
                                     FakeBuffer **in);
/* The subscriber's callbacks forgotten. The lock is held. */
void  fake_cupti_forget_subscriber  (void);

#pragma GCC visibility pop
