/* test-agent-clock.c — the clock offset between the workbench and suanli-agent, and answers that
 * would overflow it
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <poll.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <netinet/in.h>
#include <arpa/inet.h>
#include <unistd.h>
#include <string.h>
#include <glib.h>
#include <glib/gstdio.h>
#include <json-glib/json-glib.h>

#include "suanli-agent-message.h"
#include "suanli-agent-proof.h"
#include "suanli-agent-protocol.h"
#include "suanli-agent-list.h"
#include "suanli-capture-decoder.h"
#include "suanli-remote-capture.h"
#include "suanli-test-agent.h"
#include "suanli-test-agent-client.h"
#include "suanli-test-crowd.h"
#include "suanli-test-process.h"
#include "suanli-test-wait.h"

typedef SuanliTestAgent Agent;

#define CLOCK_TOKEN "a-token-for-the-clock-at-the-end-0123456789"

/* An agent whose clock runs 250 ms ahead: the probes find it within 1 ms, and the capture's times
 * are moved back by what they found. */
static void
test_clock_offset (void)
{
  GSubprocess *job = suanli_test_start_job (1000, 30, 0);
  const char *options[] = { "--clock-shift-ms=250", NULL };
  Agent agent = { 0 };
  g_autoptr(SuanliAgentClient) client = NULL;
  g_autoptr(SuanliTrace) trace = suanli_trace_new ();
  g_autoptr(SuanliLiveCapture) capture = NULL;
  SuanliTestEnding ending = { 0 };
  gint64 offset, from, to;

  suanli_test_start_agent (&agent, options);
  client = suanli_test_new_client (&agent, agent.token);
  capture = suanli_test_capture_first_job (client, trace, &ending);
  offset = suanli_remote_capture_get_clock_offset (SUANLI_REMOTE_CAPTURE (capture));
  g_test_message ("estimated offset %.3f ms, bound %.3f ms", offset / 1e6,
                  suanli_remote_capture_get_clock_error (SUANLI_REMOTE_CAPTURE (capture)) / 1e6);
  g_assert_cmpint (ABS (offset - 250 * G_GINT64_CONSTANT (1000000)), <, 1000000);
  g_assert_cmpint (suanli_remote_capture_get_clock_error (SUANLI_REMOTE_CAPTURE (capture)), <, 1000000);

  suanli_live_capture_stop (capture);
  g_assert_true (suanli_test_loop_until (suanli_test_is_true, &ending.ended));
  g_assert_no_error (ending.error);
  /* The generator's first kernel starts some µs into its clock, and the header's offset is 0: the
   * agent's skew added 250 ms to it, and the correction took them off again. */
  suanli_trace_get_time_range (trace, &from, &to);
  g_assert_cmpint (ABS (from), <, 1000000);

  suanli_test_stop_agent (&agent);
  suanli_test_stop_job (job);
}

/* A fake agent answering every clock probe with t1 = t2 = 2^63 − 1, then starting. */
static void
clock_at_the_end (SoupWebsocketConnection *connection,
                  SoupWebsocketDataType    type,
                  GBytes                  *message,
                  gpointer                 data)
{
  g_auto(SuanliAgentMessage) read = { 0 };

  if (!suanli_agent_message_read (g_bytes_get_data (message, NULL), g_bytes_get_size (message), &read, NULL))
    return;
  if (read.type == SUANLI_AGENT_MESSAGE_CLOCK)
    {
      g_autofree char *answer = g_strdup_printf ("{\"type\": \"clock\", \"t0\": %" G_GINT64_FORMAT ", \"t1\": %"
                                                 G_GINT64_FORMAT ", \"t2\": %" G_GINT64_FORMAT "}", read.t0,
                                                 G_MAXINT64, G_MAXINT64);

      soup_websocket_connection_send_text (connection, answer);
    }
  else if (read.type == SUANLI_AGENT_MESSAGE_START)
    soup_websocket_connection_send_text (connection, "{\"type\": \"started\"}");
}

static void
serve_clock_at_the_end (SoupServer              *server,
                        SoupServerMessage       *message,
                        const char              *path,
                        SoupWebsocketConnection *connection,
                        gpointer                 data)
{
  g_signal_connect (connection, "message", G_CALLBACK (clock_at_the_end), NULL);
  g_object_set_data_full (G_OBJECT (server), "connection", g_object_ref (connection), g_object_unref);
}

/* Clock answers at the end of time: the offset is reckoned without overflow (the agent's clock is
 * far ahead), not wrapped into one far behind. */
static void
test_clock_overflow (void)
{
  g_autoptr(SoupServer) server = soup_server_new (NULL, NULL);
  g_autoptr(SuanliAgentClient) client = NULL;
  g_autoptr(SuanliTrace) trace = suanli_trace_new ();
  g_autoptr(SuanliLiveCapture) capture = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *address = NULL;
  SuanliLiveJob job = { .pid = 1, .host = (char *) "far-future", .command = (char *) "job", .rank = -1,
                        .state = (char *) "idle", .pid_namespace = (char *) "" };
  SuanliTestEnding ending = { 0 };
  gint64 offset;
  GSList *uris;

  soup_server_add_handler (server, "/v1/hello", suanli_test_serve_no_jobs, (gpointer) CLOCK_TOKEN, NULL);
  soup_server_add_websocket_handler (server, "/v1/jobs/1/capture", NULL, NULL, serve_clock_at_the_end, NULL, NULL);
  g_assert_true (soup_server_listen_local (server, 0, SOUP_SERVER_LISTEN_IPV4_ONLY, &error));
  uris = soup_server_get_uris (server);
  address = g_strdup_printf ("127.0.0.1:%d", g_uri_get_port (uris->data));
  g_slist_free_full (uris, (GDestroyNotify) g_uri_unref);
  client = suanli_agent_client_new (address, CLOCK_TOKEN, &error);
  g_assert_no_error (error);
  job.agent = address;
  capture = suanli_remote_capture_new (client, trace, &job);
  suanli_test_start_capture (capture, &ending);
  offset = suanli_remote_capture_get_clock_offset (SUANLI_REMOTE_CAPTURE (capture));
  g_test_message ("offset %" G_GINT64_FORMAT " ns", offset);
  g_assert_cmpint (offset, >, G_MAXINT64 / 2);
  g_clear_object (&capture);
  g_clear_pointer (&ending.error, g_error_free);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  suanli_test_agent_setup ();
  g_test_add_func ("/agent/clock-offset", test_clock_offset);
  g_test_add_func ("/agent/clock-overflow", test_clock_overflow);
  return suanli_test_agent_run ();
}
