/* fake-job.c — a profilable process whose records come from the tests' generator instead of
 * CUPTI: the injection library's own control socket, queue and writer, as in a real job. It makes
 * COUNT kernels at each START (argv[1]), lives for SECONDS (argv[2]) and exits with STATUS (argv[3]).
 * Further arguments are not read: they only make its command line (what STATUS reports).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <stdlib.h>
#include <unistd.h>
#include <glib.h>

#include "suanli-inject.h"
#include "suanli-test-generator.h"

static SuanliTestGenerator generator;

int
main (int    argc,
      char **argv)
{
  if (argc < 4)
    {
      g_printerr ("usage: fake-job COUNT SECONDS STATUS [WORDS…]\n");
      return 2;
    }
  generator.count = g_ascii_strtoull (argv[1], NULL, 10);
  generator.wait_when_full = TRUE;
  generator.pause_every = 5000;   /* a job that runs for a while, not all at once */
  if (suanli_inject_control_start (suanli_test_generator_source (&generator), 4 << 20) != 0)
    return 3;
  g_usleep ((gulong) (g_ascii_strtod (argv[2], NULL) * G_USEC_PER_SEC));
  suanli_inject_control_stop ();   /* as at the job's exit: a capture in progress is ended properly */
  return atoi (argv[3]);
}
