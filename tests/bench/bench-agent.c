/* bench-agent.c — records per second from a job, through suanli-agent and its WebSocket, into the
 * workbench's trace; against the same job captured over its local socket in the same run
 *
 * This process is the job (the injection library's control socket, queue and writer, with the
 * tests' generator for CUPTI) and the workbench (a remote capture, decoding on its main loop); the
 * agent is the real suanli-agent on loopback between them, with a queue big enough that nothing
 * drops (the generator outruns any collector: a real agent's 16 MiB queue would drop and count).
 * Prints medians of three runs of RECORDS records each way, and their ratio (aim: ≥ 1 million
 * records a second through the agent).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <stdlib.h>
#include <unistd.h>
#include <glib.h>

#include "suanli-bench.h"
#include "suanli-local-capture.h"
#include "suanli-remote-capture.h"
#include "suanli-test-agent.h"
#include "suanli-test-generator.h"

#define RECORDS 2000000

static SuanliTestGenerator generator;

static void
on_started (GObject      *object,
            GAsyncResult *result,
            gpointer      data)
{
  g_autoptr(GError) error = NULL;

  if (!suanli_live_capture_start_finish (SUANLI_LIVE_CAPTURE (object), result, &error))
    g_error ("the capture did not start: %s", error->message);
}

static void
on_ended (SuanliLiveCapture *capture,
          const GError      *error,
          gpointer           data)
{
  if (error != NULL)
    g_error ("the capture ended early: %s", error->message);
  *(gboolean *) data = TRUE;
}

/* One capture of RECORDS kernels, START to the end record decoded; returns records per second. */
static double
capture_once (SuanliAgentClient   *client,
              const SuanliLiveJob *job)
{
  g_autoptr(SuanliTrace) trace = suanli_trace_new ();
  g_autoptr(SuanliLiveCapture) capture = client != NULL ? suanli_remote_capture_new (client, trace, job)
                                                        : suanli_local_capture_new (trace, job);
  gboolean ended = FALSE, stopped = FALSE;
  gint64 start = g_get_monotonic_time ();

  generator.count = RECORDS;
  g_atomic_int_set (&generator.done, 0);   /* the last run's */
  g_signal_connect (capture, "ended", G_CALLBACK (on_ended), &ended);
  suanli_live_capture_start_async (capture, NULL, on_started, NULL);
  while (!ended)
    {
      g_main_context_iteration (NULL, TRUE);
      if (!stopped && g_atomic_int_get (&generator.done) && suanli_live_capture_is_running (capture))
        {
          suanli_live_capture_stop (capture);
          stopped = TRUE;
        }
    }
  if (suanli_trace_get_n_slices (trace) != RECORDS)
    g_error ("%" G_GUINT64_FORMAT " of %u records arrived", suanli_trace_get_n_slices (trace), RECORDS);
  return RECORDS / ((g_get_monotonic_time () - start) / 1e6);
}

static void
got_jobs (GObject      *source,
          GAsyncResult *result,
          gpointer      data)
{
  *(GPtrArray **) data = suanli_agent_client_list_jobs_finish (SUANLI_AGENT_CLIENT (source), result, NULL);
}

static gboolean
wake (gpointer data)
{
  return G_SOURCE_CONTINUE;
}

int
main (int    argc,
      char **argv)
{
  g_autofree char *scratch = g_dir_make_tmp ("suanli-bench-agent-XXXXXX", NULL);
  g_autofree char *config = g_build_filename (scratch, "config", NULL);
  g_autoptr(SuanliBench) local = suanli_bench_new ("records per second, job to trace over the local socket", "records/s");
  g_autoptr(SuanliBench) remote = suanli_bench_new ("records per second, job to trace through suanli-agent (WebSocket)",
                                                    "records/s");
  g_autoptr(SuanliAgentClient) client = NULL;
  g_autoptr(GPtrArray) local_jobs = NULL;
  GPtrArray *remote_jobs = NULL;
  SuanliTestAgent agent = { 0 };
  guint waker = g_timeout_add (20, wake, NULL);

  g_setenv ("XDG_RUNTIME_DIR", scratch, TRUE);
  g_setenv ("XDG_CONFIG_HOME", config, TRUE);
  g_setenv ("SUANLI_QUIET", "1", TRUE);
  generator.wait_when_full = TRUE;
  if (suanli_inject_control_start (suanli_test_generator_source (&generator), 16 << 20) != 0)
    g_error ("the control socket did not start");
  suanli_test_start_agent (&agent, (const char * const []) { "--rate=0", "--queue=1024", NULL });
  client = suanli_agent_client_new (agent.address, agent.token, NULL);
  suanli_agent_client_list_jobs_async (client, NULL, got_jobs, &remote_jobs);
  while (remote_jobs == NULL)
    g_main_context_iteration (NULL, TRUE);
  local_jobs = suanli_live_list_jobs (NULL);
  if (remote_jobs->len != 1 || local_jobs == NULL || local_jobs->len != 1)
    g_error ("this process is not listed as the one job");

  for (guint i = 0; i < 3; i++)
    {
      suanli_bench_add (local, capture_once (NULL, g_ptr_array_index (local_jobs, 0)));
      suanli_bench_add (remote, capture_once (client, g_ptr_array_index (remote_jobs, 0)));
    }
  suanli_bench_report (local);
  suanli_bench_report (remote);
  g_print ("through the agent / local socket: %.2f\n", suanli_bench_median (remote) / suanli_bench_median (local));

  g_source_remove (waker);
  g_ptr_array_unref (remote_jobs);
  suanli_test_stop_agent (&agent);
  suanli_inject_control_stop ();
  suanli_test_remove_tree (scratch);
  return EXIT_SUCCESS;
}
