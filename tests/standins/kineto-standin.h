/* kineto-standin.h — PyTorch's profiler (Kineto) as CUPTI sees it, inside the stand-in job
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <stdbool.h>
#include <stdint.h>

/* Which Kineto: PyTorch 2.11's subscribes to CUPTI at the first torch.profiler run and, refused
 * (another subscriber holds CUPTI), traces the CPU only for the rest of the process; the Kineto
 * after it never subscribes, and registers its buffer callbacks at each run whoever had them. */
typedef enum {
  KINETO_2_11,
  KINETO_NEWER,
} KinetoFlavour;

/* What Kineto did and got, for the tests to compare with what the job launched. */
typedef struct
{
  bool     initialised;
  int      subscribe_result;   /* CUptiResult of its cuptiSubscribe (0 when it made none) */
  bool     cpu_only;           /* refused CUPTI: torch.profiler shows no GPU work */
  bool     tracing;            /* between its start and its stop */
  uint64_t kernels;            /* kernel records in its buffers at its last stop */
  uint64_t api_records;        /* runtime and driver API records, likewise */
  uint64_t records;            /* every record, likewise */
  uint64_t unknown_buffers;    /* buffers handed to it that it never gave CUPTI (another client's) */
} KinetoStandin;

void kineto_standin_set_flavour (KinetoFlavour flavour);
/* At `import torch` (libkineto_init): cuptiSubscribe, as Kineto does (no name), or
 * cuptiSubscribe_v2 under @name when not NULL. A refusal is kept and tracing goes on without it. */
void kineto_standin_init  (void       *cupti,
                           const char *name);
/* torch.profiler's start and stop, with Kineto's CUPTI calls in Kineto's order (the first start
 * initialises Kineto when nothing did). */
int  kineto_standin_start (void       *cupti);
void kineto_standin_stop  (void);
void kineto_standin_get   (KinetoStandin *out);
/* Whether @requested and @completed are Kineto's buffer callbacks. */
bool kineto_standin_owns  (const void *requested,
                           const void *completed);
