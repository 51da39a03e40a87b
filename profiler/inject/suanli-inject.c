/* suanli-inject.c — libsuanli-inject.so: what the CUDA driver loads through CUDA_INJECTION64_PATH
 *
 * The driver calls InitializeInjection at cuInit. It must come back at once, make no CUDA calls,
 * and never harm the job: it only opens the control socket (suanli-inject-control.c) with CUPTI
 * behind START, and returns 1 whether or not that worked. A forked child (a DataLoader worker)
 * inherits no socket or threads: it starts its own on its next cuInit, if it makes one.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "suanli-inject.h"

#include <stdlib.h>
#include <unistd.h>

#define QUEUE_CAPACITY (64u << 20)   /* 64 MiB of records between CUPTI and the collector */

static pid_t initialized_in;   /* the process that initialised: a forked child has another pid */

/* At the job's exit, a capture in progress is flushed and ended properly. */
static void
at_exit (void)
{
  if (initialized_in == getpid ())
    suanli_inject_control_stop ();
}

/* In a forked child the control thread does not exist: forget the parent's state quietly. */
static void
in_child (void)
{
  initialized_in = 0;
  suanli_inject_control_forget ();
}

__attribute__ ((visibility ("default"))) int InitializeInjection (void);

int
InitializeInjection (void)
{
  if (initialized_in == getpid ())
    return 1;   /* called again: nothing more to do */
  initialized_in = getpid ();
  if (suanli_inject_control_start (suanli_inject_cupti_source (), QUEUE_CAPACITY) == 0)
    {
      atexit (at_exit);
      pthread_atfork (NULL, NULL, in_child);
    }
  return 1;
}
