/* suanli-test-generator.h — a record source that makes kernels, in place of CUPTI, for the tests
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

#include "suanli-inject.h"

G_BEGIN_DECLS

typedef struct
{
  SuanliInjectQueue *queue;
  pthread_t          thread;
  guint64            count;            /* kernels to make at each START */
  gboolean           wait_when_full;   /* the tests' way to lose nothing; CUPTI's callbacks drop instead */
  guint              pause_every;      /* records between 100 ms pauses, like a job between steps; 0: none */
  volatile gint      running;
  volatile gint      done;
  guint64            refused;          /* pushes the queue refused */
  SuanliInjectSource source;
} SuanliTestGenerator;

SuanliInjectSource *suanli_test_generator_source (SuanliTestGenerator *generator);

G_END_DECLS
