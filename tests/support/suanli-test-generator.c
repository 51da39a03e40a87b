/* suanli-test-generator.c — a record source that makes kernels, in place of CUPTI, for the tests
 *
 * The injection library's own queue, writer and control code run as they do in a job; only where
 * the records come from differs: kernels with increasing correlation ids, one name.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>

#include "suanli-test-generator.h"



static void *
generate (void *data)
{
  SuanliTestGenerator *generator = data;

  suanli_inject_queue_push_string (generator->queue, 1, "generated_kernel");
  for (guint64 i = 0; i < generator->count && g_atomic_int_get (&generator->running); i++)
    {
      SuanliCaptureKernel kernel = { { 0 } };

      suanli_capture_init_record (&kernel.record, SUANLI_CAPTURE_KERNEL, sizeof kernel);
      kernel.start = i * 1000, kernel.end = i * 1000 + 500, kernel.correlation = (guint32) i + 1;
      kernel.stream = 7, kernel.name = 1;
      if (generator->pause_every > 0 && i > 0 && i % generator->pause_every == 0)
        g_usleep (100000);
      if (!generator->wait_when_full)
        generator->refused += !suanli_inject_queue_push (generator->queue, &kernel, sizeof kernel);
      else
        while (!suanli_inject_queue_try_push (generator->queue, &kernel, sizeof kernel))
          g_usleep (50);
    }
  g_atomic_int_set (&generator->done, 1);
  return NULL;
}

static int
generator_start (SuanliInjectSource  *source,
                 SuanliInjectQueue   *queue,
                 SuanliCaptureHeader *header,
                 SuanliCaptureDevice *devices,
                 uint16_t            *n_devices,
                 uint16_t             max_devices,
                 char                *error,
                 size_t               error_size)
{
  SuanliTestGenerator *generator = source->data;

  generator->queue = queue;
  generator->refused = 0;
  g_atomic_int_set (&generator->running, 1);
  g_atomic_int_set (&generator->done, 0);
  header->clock_offset_ns = 1000;
  devices[0].id = 0;
  g_strlcpy (devices[0].name, "Generated GPU", sizeof devices[0].name);
  *n_devices = 1;
  return pthread_create (&generator->thread, NULL, generate, generator) == 0 ? 0 : -1;
}

static int
generator_flush (SuanliInjectSource *source,
                 char               *why,
                 size_t              why_size)
{
  return -1;   /* it never has to end on its own */
}

static uint64_t
generator_stop (SuanliInjectSource *source, char *why, size_t why_size, int *reason)
{
  SuanliTestGenerator *generator = source->data;

  g_atomic_int_set (&generator->running, 0);
  pthread_join (generator->thread, NULL);
  return 0;
}

/* Returns: (transfer none): the source, to give suanli_inject_control_start(). */
SuanliInjectSource *
suanli_test_generator_source (SuanliTestGenerator *generator)
{
  generator->source.start = generator_start;
  generator->source.flush = generator_flush;
  generator->source.stop = generator_stop;
  generator->source.data = generator;
  return &generator->source;
}
