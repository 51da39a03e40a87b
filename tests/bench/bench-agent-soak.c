/* bench-agent-soak.c — the real suanli-agent under strangers for a long while, the token holder
 * asking throughout: its memory and the token holder's answers
 *
 * On loopback, where every local user and the owner's SSH tunnel are 127.0.0.1: one thread of
 * strangers holds 32 connections without a byte (opening another whenever the agent closes one)
 * and asks without the token besides, another only asks without the token, as fast as each is
 * answered. Meanwhile the token holder asks for /v1/health every 100 ms and opens a capture
 * WebSocket every second (a clock message, its answer, a close). Prints the agent's resident
 * memory each minute, after the first minute, at the end and at most; the token holder's answers
 * out of its requests and WebSockets; and their median times. Figures only: nothing is asserted.
 *
 * --seconds=N sets the length (600 by default; the soak is 10 minutes).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <stdlib.h>
#include <glib.h>

#include "suanli-agent-client.h"
#include "suanli-bench.h"
#include "suanli-test-agent.h"
#include "suanli-test-crowd.h"

typedef struct
{
  SuanliTestAgent          agent;
  int                      pid;
  SoupSession             *session;
  char                    *authorization;
  SuanliAgentClient       *client;
  gint64                   start;
  guint                    seconds;
  gboolean                 over;

  guint                    requests;          /* the token holder's /v1/health, asked */
  guint                    answered;          /* … and answered with 200 */
  gboolean                 requesting;
  gint64                   requested_at;
  SuanliBench             *request_times;

  guint                    sockets;           /* capture WebSockets begun */
  guint                    sockets_answered;  /* … whose clock message was answered */
  SoupWebsocketConnection *socket;
  gboolean                 socketing;
  gint64                   socket_at;
  SuanliBench             *socket_times;

  guint64                  rss_minute;        /* after the first minute */
  guint64                  rss_max;
  guint64                  rss_last;
  SuanliTestCrowd         *crowds[2];
} Soak;

static void
request_done (GObject      *source,
              GAsyncResult *result,
              gpointer      data)
{
  Soak *soak = data;
  GBytes *body = soup_session_send_and_read_finish (SOUP_SESSION (source), result, NULL);
  SoupMessage *message = soup_session_get_async_result_message (SOUP_SESSION (source), result);

  g_clear_pointer (&body, g_bytes_unref);   /* only the status counts */
  if (soup_message_get_status (message) == SOUP_STATUS_OK)
    {
      soak->answered++;
      suanli_bench_add (soak->request_times, (g_get_monotonic_time () - soak->requested_at) / 1000.0);
    }
  soak->requesting = FALSE;
}

static gboolean
ask_health (gpointer data)
{
  Soak *soak = data;
  g_autofree char *url = NULL;
  g_autoptr(SoupMessage) message = NULL;

  if (soak->requesting)
    return G_SOURCE_CONTINUE;   /* the last one is still out: counted as unanswered until it comes */
  url = g_strdup_printf ("http://127.0.0.1:%u/v1/health", soak->agent.port);
  message = soup_message_new ("GET", url);
  soup_message_headers_replace (soup_message_get_request_headers (message), "Authorization", soak->authorization);
  soak->requesting = TRUE;
  soak->requests++;
  soak->requested_at = g_get_monotonic_time ();
  soup_session_send_and_read_async (soak->session, message, G_PRIORITY_DEFAULT, NULL, request_done, soak);
  return G_SOURCE_CONTINUE;
}

static void
socket_closed (SoupWebsocketConnection *connection,
               gpointer                 data)
{
  Soak *soak = data;

  g_signal_handlers_disconnect_by_data (connection, soak);
  g_clear_object (&soak->socket);
  soak->socketing = FALSE;
}

static void
socket_message (SoupWebsocketConnection *connection,
                SoupWebsocketDataType    type,
                GBytes                  *message,
                gpointer                 data)
{
  Soak *soak = data;

  if (type == SOUP_WEBSOCKET_DATA_TEXT)
    {
      soak->sockets_answered++;
      suanli_bench_add (soak->socket_times, (g_get_monotonic_time () - soak->socket_at) / 1000.0);
    }
  soup_websocket_connection_close (connection, SOUP_WEBSOCKET_CLOSE_NORMAL, NULL);
}

static void
socket_open (GObject      *source,
             GAsyncResult *result,
             gpointer      data)
{
  Soak *soak = data;

  g_autoptr(GError) error = NULL;

  soak->socket = suanli_agent_client_connect_finish (SUANLI_AGENT_CLIENT (source), result, &error);
  if (soak->socket == NULL)
    {
      if (soak->sockets - soak->sockets_answered <= 3)
        g_print ("a WebSocket did not open: %s\n", error->message);
      soak->socketing = FALSE;
      return;
    }
  g_signal_connect (soak->socket, "message", G_CALLBACK (socket_message), soak);
  g_signal_connect (soak->socket, "closed", G_CALLBACK (socket_closed), soak);
  soup_websocket_connection_send_text (soak->socket, "{\"type\": \"clock\", \"t0\": 1}");
}

static gboolean
open_socket (gpointer data)
{
  Soak *soak = data;

  if (soak->socketing)
    return G_SOURCE_CONTINUE;
  soak->socketing = TRUE;
  soak->sockets++;
  soak->socket_at = g_get_monotonic_time ();
  suanli_agent_client_connect_async (soak->client, "/v1/jobs/1/capture", NULL, socket_open, soak);
  return G_SOURCE_CONTINUE;
}

/* Each second: the agent's memory (and a line each minute); its log, which this bench does not
 * keep, forgotten. */
static gboolean
look (gpointer data)
{
  Soak *soak = data;
  gint64 elapsed = (g_get_monotonic_time () - soak->start) / G_USEC_PER_SEC;

  g_string_truncate (soak->agent.log, 0);
  soak->rss_last = suanli_test_process_rss (soak->pid);
  soak->rss_max = MAX (soak->rss_max, soak->rss_last);
  if (elapsed >= 60 && soak->rss_minute == 0)
    soak->rss_minute = soak->rss_last;
  if (elapsed % 60 == 0 || elapsed >= soak->seconds)
    g_print ("%4" G_GINT64_FORMAT " s: agent %" G_GUINT64_FORMAT " KiB; token holder %u of %u requests, "
             "%u of %u WebSockets answered; strangers %u answers, %u connections closed on them\n",
             elapsed, soak->rss_last >> 10, soak->answered, soak->requests, soak->sockets_answered, soak->sockets,
             suanli_test_crowd_asked (soak->crowds[0]) + suanli_test_crowd_asked (soak->crowds[1]),
             suanli_test_crowd_reopened (soak->crowds[0]));
  soak->over = elapsed >= soak->seconds;
  return G_SOURCE_CONTINUE;
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
  int seconds = 600;
  const GOptionEntry entries[] = {
    { "seconds", 0, 0, G_OPTION_ARG_INT, &seconds, "How long to soak (default 600)", "S" },
    { NULL }
  };
  g_autoptr(GOptionContext) context = g_option_context_new (NULL);
  g_autoptr(GError) error = NULL;
  g_autofree char *scratch = g_dir_make_tmp ("suanli-bench-soak-XXXXXX", NULL);
  g_autofree char *config = g_build_filename (scratch, "config", NULL);
  Soak soak = { 0 };
  guint sources[4];

  g_option_context_add_main_entries (context, entries, NULL);
  if (!g_option_context_parse (context, &argc, &argv, &error) || seconds < 1)
    {
      g_printerr ("bench-agent-soak: %s\n", error != NULL ? error->message : "--seconds is at least 1");
      return EXIT_FAILURE;
    }
  g_setenv ("XDG_RUNTIME_DIR", scratch, TRUE);
  g_setenv ("XDG_CONFIG_HOME", config, TRUE);
  g_setenv ("SUANLI_QUIET", "1", TRUE);
  soak.seconds = (guint) seconds;
  soak.request_times = suanli_bench_new ("the token holder's /v1/health, asked to answered", "ms");
  soak.socket_times = suanli_bench_new ("the token holder's capture WebSocket, opened to its clock answer", "ms");
  suanli_test_start_agent (&soak.agent, NULL);
  soak.pid = atoi (g_subprocess_get_identifier (soak.agent.process));
  soak.session = soup_session_new ();
  soak.authorization = g_strconcat ("Bearer ", soak.agent.token, NULL);
  soak.client = suanli_agent_client_new (soak.agent.address, soak.agent.token, &error);
  if (soak.client == NULL)
    g_error ("%s", error->message);
  soak.crowds[0] = suanli_test_crowd_start (soak.agent.port, 32, TRUE);
  soak.crowds[1] = suanli_test_crowd_start (soak.agent.port, 0, TRUE);
  soak.start = g_get_monotonic_time ();
  g_print ("%4d s: agent %" G_GUINT64_FORMAT " KiB at the start\n", 0, suanli_test_process_rss (soak.pid) >> 10);
  sources[0] = g_timeout_add (100, ask_health, &soak);
  sources[1] = g_timeout_add (1000, open_socket, &soak);
  sources[2] = g_timeout_add (1000, look, &soak);
  sources[3] = g_timeout_add (20, wake, NULL);   /* the loop looks at `over` at least this often */
  while (!soak.over)
    g_main_context_iteration (NULL, TRUE);
  for (guint i = 0; i < G_N_ELEMENTS (sources); i++)
    g_source_remove (sources[i]);
  suanli_test_crowd_stop (soak.crowds[0]);
  suanli_test_crowd_stop (soak.crowds[1]);

  if (soak.rss_minute != 0)
    g_print ("agent's resident memory: %" G_GUINT64_FORMAT " KiB after the first minute, %" G_GUINT64_FORMAT
             " KiB at the end (%+.1f %%), %" G_GUINT64_FORMAT " KiB at most\n", soak.rss_minute >> 10,
             soak.rss_last >> 10, 100.0 * ((double) soak.rss_last - (double) soak.rss_minute) / (double) soak.rss_minute,
             soak.rss_max >> 10);
  else
    g_print ("agent's resident memory: %" G_GUINT64_FORMAT " KiB at the end, %" G_GUINT64_FORMAT " KiB at most\n",
             soak.rss_last >> 10, soak.rss_max >> 10);
  g_print ("token holder: %u of %u requests answered, %u of %u WebSockets answered\n", soak.answered, soak.requests,
           soak.sockets_answered, soak.sockets);
  suanli_bench_report (soak.request_times);
  suanli_bench_report (soak.socket_times);

  suanli_bench_free (soak.request_times);
  suanli_bench_free (soak.socket_times);
  g_object_unref (soak.client);
  g_object_unref (soak.session);
  g_free (soak.authorization);
  suanli_test_stop_agent (&soak.agent);
  suanli_test_remove_tree (scratch);
  return EXIT_SUCCESS;
}
