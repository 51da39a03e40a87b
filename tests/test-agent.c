/* test-agent.c — suanli-agent and the workbench's client, over loopback: the protocol and captures
 *
 * A real agent with fake jobs as the node's: listing, tokens, messages well and badly formed,
 * captures and their endings, TLS, the list of agents. What other users of the node may do to it is
 * in test-agent-attacks.c; the clock offset in test-agent-clock.c.
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

/* ---- tests ---------------------------------------------------------------------------------- */

/* /v1/jobs serves what `suanli-cli jobs --json` prints, and the client reads it. */
static void
test_jobs (void)
{
  GSubprocess *rank0 = suanli_test_start_job (1000, 30, 0), *rank1 = suanli_test_start_job (1000, 30, 1);
  Agent agent = { 0 };
  g_autoptr(SuanliAgentClient) client = NULL;
  g_autoptr(GPtrArray) jobs = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) served = NULL, printed = NULL;
  g_autofree char *body = NULL, *authorization = NULL;
  g_auto(SuanliTestRun) cli = { 0 };
  const char *cli_args[] = { "jobs", "--json", NULL };
  int ranks_seen = 0;

  suanli_test_start_agent (&agent, NULL);
  client = suanli_test_new_client (&agent, agent.token);
  jobs = suanli_test_list_jobs (client, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (jobs->len, ==, 2);
  for (guint i = 0; i < jobs->len; i++)
    {
      SuanliLiveJob *job = g_ptr_array_index (jobs, i);

      g_assert_cmpstr (job->agent, ==, agent.address);
      g_assert_cmpstr (job->state, ==, "idle");
      g_assert_cmpint (job->world_size, ==, 2);
      g_assert_true (g_str_has_prefix (job->pid_namespace, "pid:["));
      ranks_seen |= 1 << job->rank;
    }
  g_assert_cmpint (ranks_seen, ==, 3);

  authorization = g_strconcat ("Bearer ", agent.token, NULL);
  g_assert_cmpuint (suanli_test_get (&agent, "/v1/jobs", authorization, &body), ==, 200);
  served = json_from_string (body, &error);
  g_assert_no_error (error);
  suanli_test_run_cli (&cli, "en", cli_args);
  g_assert_cmpint (cli.status, ==, 0);
  printed = json_from_string (cli.out, &error);
  g_assert_no_error (error);
  g_assert_true (json_node_equal (served, printed));

  suanli_test_stop_agent (&agent);
  suanli_test_stop_job (rank0);
  suanli_test_stop_job (rank1);
}

/* Two ranks captured at once through the agent into one trace: a group each, nothing lost. */
static void
test_two_ranks (void)
{
  const guint64 kernels = 20000;
  GSubprocess *jobs_started[2] = { suanli_test_start_job (kernels, 3, 0), suanli_test_start_job (kernels, 3, 1) };
  Agent agent = { 0 };
  g_autoptr(SuanliAgentClient) client = NULL;
  g_autoptr(GPtrArray) jobs = NULL;
  g_autoptr(SuanliTrace) trace = suanli_trace_new ();
  g_autoptr(GError) error = NULL;
  SuanliLiveCapture *captures[2];
  SuanliTestEnding endings[2] = { { 0 } };

  suanli_test_start_agent (&agent, NULL);
  client = suanli_test_new_client (&agent, agent.token);
  jobs = suanli_test_list_jobs (client, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (jobs->len, ==, 2);
  for (guint i = 0; i < 2; i++)
    {
      captures[i] = suanli_remote_capture_new (client, trace, g_ptr_array_index (jobs, i));
      suanli_test_start_capture (captures[i], &endings[i]);
    }
  g_assert_true (suanli_trace_is_growing (trace));
  g_assert_true (suanli_test_loop_until (suanli_test_is_true, &endings[0].ended));
  g_assert_true (suanli_test_loop_until (suanli_test_is_true, &endings[1].ended));
  g_assert_false (suanli_trace_is_growing (trace));

  g_assert_cmpuint (suanli_trace_get_n_groups (trace), ==, 2);
  for (guint i = 0; i < 2; i++)
    {
      SuanliLiveJob *job = g_ptr_array_index (jobs, i);
      SuanliGroup *group = suanli_trace_get_group (trace, i);

      g_assert_no_error (endings[i].error);
      g_assert_cmpint (group->rank, ==, job->rank);
      g_assert_cmpint (group->world_size, ==, 2);
      g_assert_nonnull (strstr (suanli_trace_get_string (trace, group->name), "rank"));
      g_assert_cmpuint (suanli_test_count_kernels (trace, i), ==, kernels);
      g_assert_cmpuint (suanli_remote_capture_get_agent_dropped (SUANLI_REMOTE_CAPTURE (captures[i])), ==, 0);
      g_object_unref (captures[i]);
    }

  suanli_test_stop_agent (&agent);
  suanli_test_stop_job (jobs_started[0]);
  suanli_test_stop_job (jobs_started[1]);
}

/* No token, or a wrong one: 401 and nothing of the node's jobs, on loopback too; a capture
 * WebSocket is refused before the upgrade and the job never starts capturing. */
static void
test_tokens (void)
{
  GSubprocess *job = suanli_test_start_job (1000, 30, 0);
  Agent agent = { 0 };
  g_autoptr(SuanliAgentClient) stranger = NULL;
  g_autoptr(SuanliTrace) trace = suanli_trace_new ();
  g_autoptr(GPtrArray) jobs = NULL;
  g_autoptr(GPtrArray) local = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(SuanliLiveCapture) capture = NULL;
  g_autofree char *body = NULL, *wrong_body = NULL;
  SuanliLiveJob fake = { .pid = atoi (g_subprocess_get_identifier (job)), .host = (char *) "vm", .rank = 0 };

  suanli_test_start_agent (&agent, NULL);
  g_assert_cmpuint (suanli_test_get (&agent, "/v1/jobs", NULL, &body), ==, 401);
  g_assert_null (strstr (body, "pid"));
  g_assert_cmpuint (suanli_test_get (&agent, "/v1/jobs", "Bearer 0123456789abcdef0123456789abcdef", &wrong_body), ==, 401);
  g_assert_null (strstr (wrong_body, "pid"));
  g_assert_cmpuint (suanli_test_get (&agent, "/v1/health", "Basic dXNlcjpwYXNz", NULL), ==, 401);

  stranger = suanli_test_new_client (&agent, "not-the-token-at-all");
  jobs = suanli_test_list_jobs (stranger, &error);
  g_assert_null (jobs);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_PERMISSION_DENIED);
  g_clear_error (&error);

  capture = suanli_remote_capture_new (stranger, trace, &fake);
  suanli_live_capture_start_async (capture, NULL, suanli_test_got_result, &result);
  g_assert_true (suanli_test_loop_until (suanli_test_is_set, &result));
  g_assert_false (suanli_live_capture_start_finish (capture, result, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_PERMISSION_DENIED);
  g_assert_cmpuint (suanli_trace_get_n_groups (trace), ==, 0);
  local = suanli_live_list_jobs (NULL);
  g_assert_cmpuint (local->len, ==, 1);
  g_assert_cmpstr (((SuanliLiveJob *) g_ptr_array_index (local, 0))->state, ==, "idle");

  suanli_test_stop_agent (&agent);
  suanli_test_stop_job (job);
}

/* Oversized, binary and malformed control messages end the connection with the matching code. */
static void
test_bad_messages (void)
{
  Agent agent = { 0 };
  g_autoptr(SuanliAgentClient) client = NULL;
  g_autofree char *big = g_strnfill (SUANLI_AGENT_MAX_CONTROL * 16, 'x');
  g_autofree char *path = g_strdup_printf ("/v1/jobs/%d/capture", 1);
  SuanliTestRawClient raw = { 0 };

  suanli_test_start_agent (&agent, NULL);
  client = suanli_test_new_client (&agent, agent.token);

  suanli_test_raw_connect (client, path, &raw);
  soup_websocket_connection_send_text (raw.connection, big);
  g_assert_true (suanli_test_loop_until (suanli_test_is_true, &raw.closed));
  g_assert_true (suanli_test_agent_logs (&agent, "a WebSocket message of more than 4096 bytes"));
  g_assert_cmpuint (raw.texts->len, ==, 0);
  suanli_test_raw_clear (&raw);

  suanli_test_raw_connect (client, path, &raw);
  soup_websocket_connection_send_binary (raw.connection, "START\n", 6);
  suanli_test_assert_closed_with (&raw, SOUP_WEBSOCKET_CLOSE_UNSUPPORTED_DATA);
  suanli_test_raw_clear (&raw);

  suanli_test_raw_connect (client, path, &raw);
  soup_websocket_connection_send_text (raw.connection, "{\"type\": \"start\"");
  suanli_test_assert_closed_with (&raw, SOUP_WEBSOCKET_CLOSE_BAD_DATA);
  suanli_test_raw_clear (&raw);

  /* A job that is not there: an error message, and the connection stays usable. */
  suanli_test_raw_connect (client, path, &raw);
  soup_websocket_connection_send_text (raw.connection, "{\"type\": \"start\", \"credit\": 1024}");
  g_assert_true (suanli_test_loop_until (suanli_test_raw_has_text, &raw));
  g_assert_nonnull (strstr (g_ptr_array_index (raw.texts, 0), "no profilable job has pid 1"));
  g_assert_false (raw.closed);
  suanli_test_raw_clear (&raw);

  suanli_test_stop_agent (&agent);
}

/* A request line sent by hand, and its answer read until the agent closes. */
static void
send_request_line (Agent      *agent,
                   const char *request)
{
  int fd = suanli_test_connect_raw (agent);
  char buffer[1024];

  g_assert_cmpint (send (fd, request, strlen (request), MSG_NOSIGNAL), ==, (gssize) strlen (request));
  while (recv (fd, buffer, sizeof buffer, 0) > 0)
    ;
  close (fd);
}

/* A newline in a request's path ("%0A") is escaped in the agent's log, never a line of its own. */
static void
test_log_lines (void)
{
  Agent agent = { 0 };

  suanli_test_start_agent (&agent, NULL);
  send_request_line (&agent, "GET /v1/health%0A127.0.0.1%20GET%20/v1/jobs%20%E2%86%92%20200 HTTP/1.1\r\n"
                             "Host: 127.0.0.1\r\n\r\n");
  g_assert_true (suanli_test_agent_logs (&agent, "/v1/health\\n127.0.0.1 GET"));
  g_assert_null (strstr (agent.log->str, "\n127.0.0.1 GET /v1/jobs"));
  suanli_test_stop_agent (&agent);
}

/* A job whose command line is no UTF-8 (a byte 0xff) and is cut at 1,023 bytes inside a Chinese
 * character is still listed, here and by the agent, with a command that is valid text. */
static void
test_odd_command_line (void)
{
  Agent agent = { 0 };
  g_autoptr(SuanliAgentClient) client = NULL;
  g_autoptr(GPtrArray) local = NULL;
  g_autoptr(GPtrArray) remote = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GSubprocess) job = NULL;
  g_autofree char *folder = g_build_filename (suanli_test_runtime_dir (), "suanli", NULL);
  g_autofree char *socket_path = NULL;
  GString *words = g_string_new ("\xff ");
  const char *program = g_getenv ("SUANLI_FAKE_JOB");
  gsize before = strlen (program) + strlen (" 1 30 0 ") + 2;
  int pid;

  /* 1,023 bytes of the command line are read: make the last of them fall inside a "训". */
  if ((1023 - before) % 3 == 0)
    g_string_append_c (words, 'x');
  while (words->len < 1400)
    g_string_append (words, "训练");
  job = g_subprocess_new (G_SUBPROCESS_FLAGS_NONE, &error, program, "1", "30", "0", words->str, NULL);
  g_assert_no_error (error);
  g_string_free (words, TRUE);
  pid = atoi (g_subprocess_get_identifier (job));
  socket_path = g_strdup_printf ("%s/%d.sock", folder, pid);
  suanli_test_await (suanli_test_job_answers, socket_path);

  local = suanli_live_list_jobs_in (folder);
  suanli_test_start_agent (&agent, NULL);
  client = suanli_test_new_client (&agent, agent.token);
  remote = suanli_test_list_jobs (client, &error);
  g_assert_no_error (error);
  for (guint side = 0; side < 2; side++)
    {
      GPtrArray *jobs = side == 0 ? local : remote;
      const SuanliLiveJob *found = NULL;

      for (guint i = 0; i < jobs->len; i++)
        if (((SuanliLiveJob *) g_ptr_array_index (jobs, i))->pid == pid)
          found = g_ptr_array_index (jobs, i);
      g_assert_nonnull (found);
      g_assert_true (g_utf8_validate (found->command, -1, NULL));
      g_assert_nonnull (strstr (found->command, " 1 30 0 \xef\xbf\xbd "));   /* U+FFFD for the 0xff */
      g_assert_nonnull (strstr (found->command, "训练训练"));
      g_assert_true (g_str_has_suffix (found->command, "训") || g_str_has_suffix (found->command, "练"));
    }
  g_subprocess_force_exit (job);
  g_subprocess_wait (job, NULL, NULL);
  suanli_test_stop_agent (&agent);
}

/* A token "file" that is a FIFO is refused at the start, instead of holding the agent there for
 * as long as nothing writes to it. */
static void
test_token_fifo (void)
{
  g_autofree char *fifo = g_build_filename (suanli_test_runtime_dir (), "token-fifo", NULL);
  g_autofree char *option = g_strconcat ("--token-file=", fifo, NULL);
  g_autoptr(GSubprocessLauncher) launcher = g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDERR_PIPE |
                                                                       G_SUBPROCESS_FLAGS_STDOUT_SILENCE);
  g_autoptr(GSubprocess) agent = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *said = NULL;

  g_assert_cmpint (mkfifo (fifo, 0600), ==, 0);
  g_subprocess_launcher_setenv (launcher, "LC_ALL", "C.UTF-8", TRUE);
  agent = g_subprocess_launcher_spawn (launcher, &error, g_getenv ("SUANLI_AGENT"), "--port=0", option, NULL);
  g_assert_no_error (error);
  said = suanli_test_agent_refusal (agent);
  g_assert_nonnull (strstr (said, "is not a plain file"));
  g_unlink (fifo);
}

/* Fields of the wrong type: a "type" that is a number, a boolean, a fraction, null or an object
 * ends the connection as bad data; a mistyped number is no number. The agent lives on. */
static void
test_mistyped_messages (void)
{
  static const char * const bad_types[] = {
    "{\"type\": 5}", "{\"type\": true}", "{\"type\": 1.5}", "{\"type\": null}", "{\"type\": {}}",
    "{\"type\": [\"clock\"]}", "{}", "[1, 2]", "\"clock\"", "5",
  };
  Agent agent = { 0 };
  g_autoptr(SuanliAgentClient) client = NULL;
  g_autofree char *authorization = NULL;
  SuanliTestRawClient raw = { 0 };

  suanli_test_start_agent (&agent, NULL);
  client = suanli_test_new_client (&agent, agent.token);
  authorization = g_strconcat ("Bearer ", agent.token, NULL);
  for (guint i = 0; i < G_N_ELEMENTS (bad_types); i++)
    {
      g_test_message ("sending %s", bad_types[i]);
      suanli_test_raw_connect (client, "/v1/jobs/1/capture", &raw);
      soup_websocket_connection_send_text (raw.connection, bad_types[i]);
      suanli_test_assert_closed_with (&raw, SOUP_WEBSOCKET_CLOSE_BAD_DATA);
      suanli_test_raw_clear (&raw);
    }
  /* A clock probe whose t0 is a string is answered with no t0 of its own (-1), never read as one. */
  suanli_test_raw_connect (client, "/v1/jobs/1/capture", &raw);
  soup_websocket_connection_send_text (raw.connection, "{\"type\": \"clock\", \"t0\": \"now\"}");
  g_assert_true (suanli_test_loop_until (suanli_test_raw_has_text, &raw));
  g_test_message ("answered %s", (const char *) g_ptr_array_index (raw.texts, 0));
  g_assert_nonnull (strstr (g_ptr_array_index (raw.texts, 0), "\"t0\":-1"));
  /* Credit that is not a number is credit for bytes never sent. */
  soup_websocket_connection_send_text (raw.connection, "{\"type\": \"credit\", \"bytes\": \"all\"}");
  suanli_test_assert_closed_with (&raw, SOUP_WEBSOCKET_CLOSE_POLICY_VIOLATION);
  suanli_test_raw_clear (&raw);
  g_assert_cmpuint (suanli_test_get (&agent, "/v1/health", authorization, NULL), ==, 200);
  suanli_test_stop_agent (&agent);
}

/* The reader both ends share: every field checked for its type before it is used. */
static void
test_message_reader (void)
{
  g_auto(SuanliAgentMessage) message = { 0 };
  g_autoptr(GError) error = NULL;
  const char *clock = "{\"type\": \"clock\", \"t0\": 1, \"t1\": \"2\", \"t2\": 3.5}";
  const char *said = "{\"type\": \"error\", \"message\": \"bad \\u00ff\\ud800 byte\"}";
  const char *numbered = "{\"type\": 5}", *later = "{\"type\": \"later\", \"message\": 7}";

  g_assert_false (suanli_agent_message_read (numbered, strlen (numbered), &message, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA);
  g_clear_error (&error);
  g_assert_true (suanli_agent_message_read (clock, strlen (clock), &message, &error));
  g_assert_no_error (error);
  g_assert_cmpint (message.type, ==, SUANLI_AGENT_MESSAGE_CLOCK);
  g_assert_cmpint (message.t0, ==, 1);
  g_assert_cmpint (message.t1, ==, SUANLI_AGENT_MESSAGE_NONE);
  g_assert_cmpint (message.t2, ==, SUANLI_AGENT_MESSAGE_NONE);
  suanli_agent_message_clear (&message);
  g_assert_true (suanli_agent_message_read (later, strlen (later), &message, NULL));
  g_assert_cmpint (message.type, ==, SUANLI_AGENT_MESSAGE_UNKNOWN);
  g_assert_null (message.message);
  suanli_agent_message_clear (&message);
  if (suanli_agent_message_read (said, strlen (said), &message, NULL))
    g_assert_true (message.message == NULL || g_utf8_validate (message.message, -1, NULL));
}

static gboolean
has_two_texts (gpointer data)
{
  return ((SuanliTestRawClient *) data)->texts->len >= 2;
}

static gboolean
has_ended_text (gpointer data)
{
  SuanliTestRawClient *raw = data;

  for (guint i = 0; i < raw->texts->len; i++)
    if (strstr (g_ptr_array_index (raw->texts, i), "\"ended\"") != NULL)
      return TRUE;
  return FALSE;
}

/* A client that gives a small window and takes nothing: the agent never sends past it, its queue
 * fills, whole records drop and are counted; once the client takes what came, the rest arrives
 * with a dropped-records record that the decoder reads, and the end message gives the same count. */
static void
test_slow_client (void)
{
  GSubprocess *job = suanli_test_start_job (200000, 30, 0);
  const char *options[] = { "--queue=1", NULL };
  Agent agent = { 0 };
  g_autoptr(SuanliAgentClient) client = NULL;
  g_autoptr(SuanliTrace) trace = suanli_trace_new ();
  g_autoptr(SuanliCaptureDecoder) decoder = suanli_capture_decoder_new (trace, "slow");
  g_autoptr(JsonNode) ended = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *path = g_strdup_printf ("/v1/jobs/%s/capture", g_subprocess_get_identifier (job));
  SuanliTestRawClient raw = { 0 };
  gint64 dropped;
  gint64 until;

  suanli_test_start_agent (&agent, options);
  client = suanli_test_new_client (&agent, agent.token);
  suanli_test_raw_connect (client, path, &raw);
  soup_websocket_connection_send_text (raw.connection, "{\"type\": \"start\", \"credit\": 65536}");
  /* "started"; then two seconds of a job making records with nowhere for most of them to go. */
  g_assert_true (suanli_test_loop_until (suanli_test_raw_has_text, &raw));
  g_assert_cmpstr (g_ptr_array_index (raw.texts, 0), ==, "{\"type\":\"started\"}");
  until = g_get_monotonic_time () + 2 * G_USEC_PER_SEC;
  while (g_get_monotonic_time () < until)
    g_main_context_iteration (NULL, FALSE);
  g_assert_cmpuint (raw.bytes->len, <=, 65536);
  g_assert_cmpuint (raw.bytes->len, >, 0);

  /* Now it takes what comes, and says so: the rest flows, window by window. */
  raw.acknowledging = TRUE;
  soup_websocket_connection_send_text (raw.connection, "{\"type\": \"stop\"}");
  {
    g_autofree char *ack = g_strdup_printf ("{\"type\": \"credit\", \"bytes\": %u}", raw.bytes->len);

    soup_websocket_connection_send_text (raw.connection, ack);
  }
  g_assert_true (suanli_test_loop_until (has_ended_text, &raw));
  suanli_test_assert_closed_with (&raw, SOUP_WEBSOCKET_CLOSE_NORMAL);

  ended = json_from_string (g_ptr_array_index (raw.texts, raw.texts->len - 1), &error);
  g_assert_no_error (error);
  dropped = json_object_get_int_member (json_node_get_object (ended), "dropped");
  g_assert_cmpint (dropped, >, 0);
  g_assert_true (suanli_capture_decoder_feed (decoder, raw.bytes->data, raw.bytes->len, &error));
  g_assert_no_error (error);
  g_assert_true (suanli_capture_decoder_has_ended (decoder));
  g_assert_cmpuint (suanli_capture_decoder_get_dropped (decoder), ==, (guint64) dropped);
  g_test_message ("%" G_GINT64_FORMAT " records dropped for a slow client, %u bytes came", dropped, raw.bytes->len);
  g_assert_true (has_two_texts (&raw));
  suanli_test_raw_clear (&raw);

  suanli_test_stop_agent (&agent);
  suanli_test_stop_job (job);
}

/* A client that acknowledges bytes it was never sent (so as not to read, yet be sent more) is cut
 * off: the agent's memory is not the client's to fill. */
static void
test_false_credit (void)
{
  GSubprocess *job = suanli_test_start_job (200000, 30, 0);
  Agent agent = { 0 };
  g_autoptr(SuanliAgentClient) client = NULL;
  g_autofree char *path = g_strdup_printf ("/v1/jobs/%s/capture", g_subprocess_get_identifier (job));
  SuanliTestRawClient raw = { 0 };

  suanli_test_start_agent (&agent, NULL);
  client = suanli_test_new_client (&agent, agent.token);
  suanli_test_raw_connect (client, path, &raw);
  soup_websocket_connection_send_text (raw.connection, "{\"type\": \"start\", \"credit\": 65536}");
  g_assert_true (suanli_test_loop_until (suanli_test_raw_has_text, &raw));
  soup_websocket_connection_send_text (raw.connection, "{\"type\": \"credit\", \"bytes\": 67108864}");
  suanli_test_assert_closed_with (&raw, SOUP_WEBSOCKET_CLOSE_POLICY_VIOLATION);
  g_assert_cmpuint (raw.bytes->len, <=, 65536);
  suanli_test_raw_clear (&raw);
  suanli_test_stop_agent (&agent);
  suanli_test_stop_job (job);
}

/* The agent killed mid-capture: the workbench hears of it, and keeps what came. */
static void
test_agent_killed (void)
{
  GSubprocess *job = suanli_test_start_job (2000000, 30, 0);
  Agent agent = { 0 };
  g_autoptr(SuanliAgentClient) client = NULL;
  g_autoptr(SuanliTrace) trace = suanli_trace_new ();
  g_autoptr(SuanliLiveCapture) capture = NULL;
  SuanliTestEnding ending = { 0 };
  guint64 kept;
  gint64 until;

  suanli_test_start_agent (&agent, NULL);
  client = suanli_test_new_client (&agent, agent.token);
  capture = suanli_test_capture_first_job (client, trace, &ending);
  until = g_get_monotonic_time () + G_USEC_PER_SEC;
  while (g_get_monotonic_time () < until || suanli_live_capture_get_records (capture) == 0)
    g_main_context_iteration (NULL, FALSE);

  g_subprocess_force_exit (agent.process);
  g_assert_true (suanli_test_loop_until (suanli_test_is_true, &ending.ended));
  g_assert_error (ending.error, G_IO_ERROR, G_IO_ERROR_CONNECTION_CLOSED);
  g_assert_nonnull (strstr (ending.error->message, agent.address));
  kept = suanli_trace_get_n_slices (trace);
  g_assert_cmpuint (kept, >, 0);
  g_assert_cmpuint (kept, <, 2000000);
  g_assert_false (suanli_trace_is_growing (trace));
  g_test_message ("%" G_GUINT64_FORMAT " kernels kept after the agent died", kept);
  g_clear_error (&ending.error);

  g_subprocess_wait (agent.process, NULL, NULL);
  g_clear_object (&agent.process);
  suanli_test_stop_agent (&agent);
  suanli_test_stop_job (job);
}

/* Off loopback the agent will not serve plain HTTP; with a certificate it serves HTTPS, which the
 * client accepts only for the certificate pinned for that agent. */
static void
test_tls (void)
{
  g_autofree char *folder = g_dir_make_tmp ("suanli-tls-XXXXXX", NULL);
  g_autofree char *certificate_file = g_build_filename (folder, "agent.pem", NULL);
  g_autofree char *key_file = g_build_filename (folder, "agent.key", NULL);
  g_autofree char *certificate_option = g_strconcat ("--tls-certificate=", certificate_file, NULL);
  g_autofree char *key_option = g_strconcat ("--tls-key=", key_file, NULL);
  const char *openssl[] = { "openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2", "-subj",
                            "/CN=127.0.0.1", "-keyout", key_file, "-out", certificate_file, NULL };
  const char *bare[] = { g_getenv ("SUANLI_AGENT"), "--address=0.0.0.0", "--port=0", NULL };
  const char *options[] = { certificate_option, key_option, NULL };
  g_auto(SuanliTestRun) made = { 0 };
  g_auto(SuanliTestRun) refused = { 0 };
  Agent agent = { 0 };
  g_autoptr(SuanliAgentClient) pinned = NULL, unpinned = NULL;
  g_autoptr(GTlsCertificate) certificate = NULL;
  g_autoptr(GPtrArray) jobs = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *https = NULL, *openssl_path = NULL;

  suanli_test_run (&refused, "en", bare);
  g_assert_cmpint (refused.status, ==, 1);
  g_assert_nonnull (strstr (refused.err, "needs TLS"));

  openssl_path = g_find_program_in_path ("openssl");
  if (openssl_path == NULL)
    {
      g_test_skip ("openssl is not installed: no certificate to serve HTTPS with");
      return;
    }
  suanli_test_run (&made, "en", openssl);
  g_assert_cmpint (made.status, ==, 0);
  suanli_test_start_agent (&agent, options);
  https = g_strdup_printf ("https://127.0.0.1:%u", agent.port);

  unpinned = suanli_agent_client_new (https, agent.token, &error);
  g_assert_no_error (error);
  jobs = suanli_test_list_jobs (unpinned, &error);
  g_assert_null (jobs);
  g_assert_nonnull (error);
  g_clear_error (&error);

  pinned = suanli_agent_client_new (https, agent.token, &error);
  g_assert_no_error (error);
  certificate = g_tls_certificate_new_from_file (certificate_file, &error);
  g_assert_no_error (error);
  suanli_agent_client_set_pinned_certificate (pinned, certificate);
  jobs = suanli_test_list_jobs (pinned, &error);
  g_assert_no_error (error);
  g_assert_nonnull (jobs);
  /* A capture WebSocket over TLS, through the agent's frame guard: a clock probe is answered. */
  {
    SuanliTestRawClient raw = { 0 };

    suanli_test_raw_connect (pinned, "/v1/jobs/1/capture", &raw);
    soup_websocket_connection_send_text (raw.connection, "{\"type\": \"clock\", \"t0\": 1}");
    g_assert_true (suanli_test_loop_until (suanli_test_raw_has_text, &raw));
    g_assert_nonnull (strstr (g_ptr_array_index (raw.texts, 0), "\"t2\""));
    soup_websocket_connection_close (raw.connection, SOUP_WEBSOCKET_CLOSE_NORMAL, NULL);
    g_assert_true (suanli_test_loop_until (suanli_test_is_true, &raw.closed));
    suanli_test_raw_clear (&raw);
  }

  suanli_test_stop_agent (&agent);

  /* A key that is not the certificate's is refused at the start, not at the clients' handshakes. */
  {
    g_autofree char *other_key = g_build_filename (folder, "other.key", NULL);
    g_autofree char *other_option = g_strconcat ("--tls-key=", other_key, NULL);
    const char *genrsa[] = { "openssl", "genrsa", "-out", other_key, "2048", NULL };
    const char *mismatched[] = { g_getenv ("SUANLI_AGENT"), "--port=0", certificate_option, other_option, NULL };
    g_auto(SuanliTestRun) keyed = { 0 };
    g_auto(SuanliTestRun) started = { 0 };

    suanli_test_run (&keyed, "en", genrsa);
    g_assert_cmpint (keyed.status, ==, 0);
    suanli_test_run (&started, "en", mismatched);
    g_assert_cmpint (started.status, ==, 1);
    g_assert_nonnull (strstr (started.err, "the key does not belong to the certificate"));
    g_unlink (other_key);
  }
  g_unlink (certificate_file);
  g_unlink (key_file);
  g_rmdir (folder);
}

/* Jobs in a container: the agent given the container's socket folder lists its jobs (with their
 * PID namespace), and not this machine's; a folder others may write to is refused. */
static void
test_socket_folder (void)
{
  g_autofree char *container = g_build_filename (suanli_test_runtime_dir (), "container", NULL);
  g_autofree char *sockets = g_build_filename (container, "suanli", NULL);
  g_autofree char *open_folder = g_build_filename (suanli_test_runtime_dir (), "open", NULL);
  g_autofree char *option = g_strconcat ("--socket-dir=", sockets, NULL);
  g_autofree char *open_option = g_strconcat ("--socket-dir=", open_folder, NULL);
  const char *options[] = { option, NULL };
  const char *refused_argv[] = { g_getenv ("SUANLI_AGENT"), "--port=0", open_option, NULL };
  GSubprocess *here = suanli_test_start_job (1000, 30, 0);
  GSubprocess *inside;
  Agent agent = { 0 };
  g_autoptr(SuanliAgentClient) client = NULL;
  g_autoptr(GPtrArray) jobs = NULL;
  g_autoptr(GError) error = NULL;
  g_auto(SuanliTestRun) refused = { 0 };

  g_assert_cmpint (g_mkdir_with_parents (container, 0700), ==, 0);
  g_setenv ("XDG_RUNTIME_DIR", container, TRUE);
  inside = suanli_test_start_job (1000, 30, 1);
  g_setenv ("XDG_RUNTIME_DIR", suanli_test_runtime_dir (), TRUE);

  suanli_test_start_agent (&agent, options);
  client = suanli_test_new_client (&agent, agent.token);
  jobs = suanli_test_list_jobs (client, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (jobs->len, ==, 1);
  g_assert_cmpint (((SuanliLiveJob *) g_ptr_array_index (jobs, 0))->pid, ==, atoi (g_subprocess_get_identifier (inside)));
  g_assert_true (g_str_has_prefix (((SuanliLiveJob *) g_ptr_array_index (jobs, 0))->pid_namespace, "pid:["));
  suanli_test_stop_agent (&agent);

  g_assert_cmpint (g_mkdir_with_parents (open_folder, 0700), ==, 0);
  g_assert_cmpint (g_chmod (open_folder, 0770), ==, 0);
  suanli_test_run (&refused, "en", refused_argv);
  g_assert_cmpint (refused.status, ==, 1);
  g_assert_nonnull (strstr (refused.err, "writable by no one else"));

  suanli_test_stop_job (inside);
  suanli_test_stop_job (here);
}

/* A job stopped (in a debugger, say) with its socket's backlog full: listing the jobs gives up on it
 * after the ask's timeout instead of waiting forever, and the agent answers others meanwhile. */
static void
test_stopped_job (void)
{
  GSubprocess *job = suanli_test_start_job (1000, 30, 0);
  g_autofree char *socket_path = g_strdup_printf ("%s/suanli/%s.sock", suanli_test_runtime_dir (), g_subprocess_get_identifier (job));
  g_autofree char *authorization = NULL;
  Agent agent = { 0 };
  g_autoptr(SuanliAgentClient) client = NULL;
  g_autoptr(GPtrArray) jobs = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GAsyncResult) result = NULL;
  int waiting[16];

  suanli_test_start_agent (&agent, NULL);
  client = suanli_test_new_client (&agent, agent.token);
  g_subprocess_send_signal (job, SIGSTOP);
  for (guint i = 0; i < G_N_ELEMENTS (waiting); i++)
    {
      struct sockaddr_un address = { .sun_family = AF_UNIX };

      waiting[i] = socket (AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK, 0);
      g_strlcpy (address.sun_path, socket_path, sizeof address.sun_path);
      connect (waiting[i], (struct sockaddr *) &address, sizeof address);   /* the backlog fills */
    }
  suanli_agent_client_list_jobs_async (client, NULL, suanli_test_got_result, &result);
  authorization = g_strconcat ("Bearer ", agent.token, NULL);
  g_assert_cmpuint (suanli_test_get (&agent, "/v1/health", authorization, NULL), ==, 200);
  g_assert_true (suanli_test_loop_until (suanli_test_is_set, &result));
  jobs = suanli_agent_client_list_jobs_finish (client, result, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (jobs->len, ==, 0);

  for (guint i = 0; i < G_N_ELEMENTS (waiting); i++)
    close (waiting[i]);
  g_subprocess_send_signal (job, SIGCONT);
  suanli_test_stop_agent (&agent);
  suanli_test_stop_job (job);
}

/* The workbench's list of agents: kept with their tokens in a file only its owner reads, IPv6
 * addresses included, read back as written; a file others may read is refused; plain HTTP off
 * this machine is refused before any token is sent. */
static void
test_agent_list (void)
{
  g_autofree char *path = g_build_filename (suanli_test_runtime_dir (), "agents", NULL);
  g_autoptr(SuanliAgentList) list = suanli_agent_list_new (path);
  g_autoptr(SuanliAgentList) again = suanli_agent_list_new (path);
  g_autoptr(SuanliAgentClient) v6 = NULL, node = NULL, bare = NULL;
  g_autoptr(GError) error = NULL;
  GStatBuf info;

  g_assert_true (suanli_agent_list_load (list, &error));
  g_assert_no_error (error);
  v6 = suanli_agent_client_new ("[::1]:7811", "token-of-the-v6-agent", &error);
  g_assert_no_error (error);
  node = suanli_agent_client_new ("https://gpu-node-3:7811", "token-of-node-3", &error);
  g_assert_no_error (error);
  g_assert_true (suanli_agent_list_add (list, v6, "token-of-the-v6-agent", &error));
  g_assert_true (suanli_agent_list_add (list, node, "token-of-node-3", &error));
  g_assert_no_error (error);
  g_assert_cmpint (g_stat (path, &info), ==, 0);
  g_assert_cmpint (info.st_mode & 0777, ==, 0600);

  g_assert_true (suanli_agent_list_load (again, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (suanli_agent_list_get_n (again), ==, 2);
  g_assert_nonnull (suanli_agent_list_find (again, "[::1]:7811"));
  g_assert_true (suanli_agent_list_remove (again, "[::1]:7811", &error));
  g_assert_true (suanli_agent_list_load (list, &error));
  g_assert_cmpuint (suanli_agent_list_get_n (list), ==, 1);
  g_assert_nonnull (suanli_agent_list_find (list, "https://gpu-node-3:7811"));

  g_assert_cmpint (g_chmod (path, 0644), ==, 0);
  g_assert_false (suanli_agent_list_load (again, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_PERMISSION_DENIED);
  g_clear_error (&error);
  g_unlink (path);

  bare = suanli_agent_client_new ("http://gpu-node-3:7811", "a-token", &error);
  g_assert_null (bare);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT);
}

/* Writes one client frame (masked, as clients must). Returns whether it all went. */
static gboolean
send_frame (int           fd,
            gboolean      fin,
            guint         opcode,
            const guint8 *payload,
            gsize         length)
{
  const guint8 mask[4] = { 0x12, 0x34, 0x56, 0x78 };
  g_autoptr(GByteArray) frame = g_byte_array_new ();
  guint8 byte = (guint8) ((fin ? 0x80 : 0) | opcode);

  g_byte_array_append (frame, &byte, 1);
  g_assert_cmpuint (length, <, 65536);
  if (length < 126)
    {
      byte = (guint8) (0x80 | length);
      g_byte_array_append (frame, &byte, 1);
    }
  else
    {
      guint8 extended[3] = { 0x80 | 126, (guint8) (length >> 8), (guint8) length };

      g_byte_array_append (frame, extended, 3);
    }
  g_byte_array_append (frame, mask, 4);
  for (gsize i = 0; i < length; i++)
    {
      byte = payload[i] ^ mask[i % 4];
      g_byte_array_append (frame, &byte, 1);
    }
  return send (fd, frame->data, frame->len, MSG_NOSIGNAL) == (gssize) frame->len;
}

/* A capture WebSocket over a plain socket, upgraded by hand; returns the socket. */
static int
open_raw_websocket (Agent *agent)
{
  struct sockaddr_in address = { .sin_family = AF_INET };
  struct timeval patience = { 20, 0 };
  g_autofree char *request = g_strdup_printf ("GET /v1/jobs/1/capture HTTP/1.1\r\nHost: 127.0.0.1:%u\r\n"
                                              "Upgrade: websocket\r\nConnection: Upgrade\r\n"
                                              "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
                                              "Sec-WebSocket-Version: 13\r\nAuthorization: Bearer %s\r\n\r\n",
                                              agent->port, agent->token);
  g_autoptr(GString) answer = g_string_new (NULL);
  int fd = socket (AF_INET, SOCK_STREAM, 0);
  char c;

  address.sin_port = htons ((guint16) agent->port);
  address.sin_addr.s_addr = htonl (INADDR_LOOPBACK);
  g_assert_cmpint (connect (fd, (struct sockaddr *) &address, sizeof address), ==, 0);
  setsockopt (fd, SOL_SOCKET, SO_RCVTIMEO, &patience, sizeof patience);
  g_assert_cmpint (send (fd, request, strlen (request), MSG_NOSIGNAL), ==, (gssize) strlen (request));
  while (!g_str_has_suffix (answer->str, "\r\n\r\n") && recv (fd, &c, 1, 0) == 1)
    g_string_append_c (answer, c);
  g_assert_true (g_str_has_prefix (answer->str, "HTTP/1.1 101"));
  return fd;
}

/* One control message in endless continuation frames (libsoup 3.2 limits frames, not messages):
 * the agent's frame guard ends the connection once the message passes its limit; a message split
 * into small frames under the limit is answered as usual. */
static void
test_fragmented_messages (void)
{
  const char *options[] = { "--rate=0", NULL };
  Agent agent = { 0 };
  const char *first = "{\"type\": \"clock\", ", *second = "\"t0\": 1}";
  guint8 filler[1000];
  guint8 reply[256];
  gssize got;
  guint sent = 0;
  int fd;

  suanli_test_start_agent (&agent, options);
  fd = open_raw_websocket (&agent);
  g_assert_true (send_frame (fd, FALSE, 0x1, (const guint8 *) first, strlen (first)));
  g_assert_true (send_frame (fd, TRUE, 0x0, (const guint8 *) second, strlen (second)));
  got = recv (fd, reply, sizeof reply, 0);
  g_assert_cmpint (got, >, 2);
  g_assert_cmpint (reply[0], ==, 0x81);   /* a whole text frame: the clock's answer */
  g_assert_nonnull (g_strstr_len ((const char *) reply + 2, got - 2, "\"t1\""));

  memset (filler, ' ', sizeof filler);
  g_assert_true (send_frame (fd, FALSE, 0x1, filler, sizeof filler));
  for (sent = 1; sent < 1000; sent++)
    {
      struct pollfd closed = { fd, POLLIN, 0 };

      if (poll (&closed, 1, 0) > 0)
        break;   /* the agent has closed (or said something: it does nothing else here) */
      if (!send_frame (fd, FALSE, 0x0, filler, sizeof filler))
        break;   /* closed under the sending */
      g_usleep (2000);
    }
  /* The guard fails on the fifth frame; the close takes a few more of the client's 2 ms to be seen. */
  g_test_message ("the client saw the connection end after %u frames of 1,000 bytes", sent);
  g_assert_cmpuint (sent, <, 500);
  g_assert_true (suanli_test_agent_logs (&agent, "a WebSocket message of more than 4096 bytes"));
  close (fd);
  suanli_test_stop_agent (&agent);
}

/* Without $XDG_RUNTIME_DIR, a stranger makes $TMPDIR/suanli-UID first, so a job puts its socket in
 * $HOME/.suanli-sockets; then the stranger removes that folder: the job is still listed, though the
 * socket folder is $TMPDIR/suanli-UID again. Making another user's folder needs root. */
static void
test_fallen_back_job (void)
{
  g_autofree char *home = NULL, *taken = NULL, *fallback = NULL;
  g_autofree char *saved_home = g_strdup (g_getenv ("HOME")), *saved_tmp = g_strdup (g_getenv ("TMPDIR"));
  g_autoptr(GPtrArray) jobs = NULL;
  g_autoptr(GError) error = NULL;
  GSubprocess *job;
  gboolean listed = FALSE;

  if (getuid () != 0)
    {
      g_test_skip ("making a folder of another user's needs root");
      return;
    }
  home = g_build_filename (suanli_test_runtime_dir (), "home", NULL);
  taken = g_strdup_printf ("%s/suanli-%u", home, (unsigned) getuid ());
  fallback = g_build_filename (home, ".suanli-sockets", NULL);
  g_assert_cmpint (g_mkdir_with_parents (taken, 0700), ==, 0);
  g_assert_cmpint (chown (taken, 65534, 65534), ==, 0);
  g_unsetenv ("XDG_RUNTIME_DIR");
  g_setenv ("TMPDIR", home, TRUE);
  g_setenv ("HOME", home, TRUE);
  job = suanli_test_start_job_in (fallback, 1000, 30, 0);
  g_assert_cmpint (g_rmdir (taken), ==, 0);

  jobs = suanli_live_list_jobs (&error);
  g_assert_no_error (error);
  for (guint i = 0; i < jobs->len; i++)
    listed |= ((SuanliLiveJob *) g_ptr_array_index (jobs, i))->pid == atoi (g_subprocess_get_identifier (job));
  g_assert_true (listed);

  /* An agent left to its own folders lists it too, for a remote workbench. */
  {
    Agent agent = { 0 };
    g_autofree char *authorization = NULL, *body = NULL;
    g_autofree char *pid = g_strdup_printf ("\"pid\" : %s,", g_subprocess_get_identifier (job));

    suanli_test_start_agent (&agent, NULL);
    authorization = g_strconcat ("Bearer ", agent.token, NULL);
    g_assert_cmpuint (suanli_test_get (&agent, "/v1/jobs", authorization, &body), ==, 200);
    g_assert_nonnull (strstr (body, pid));
    suanli_test_stop_agent (&agent);
  }

  suanli_test_stop_job (job);
  g_setenv ("XDG_RUNTIME_DIR", suanli_test_runtime_dir (), TRUE);
  suanli_test_put_env ("HOME", saved_home);
  suanli_test_put_env ("TMPDIR", saved_tmp);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  suanli_test_agent_setup ();
  g_test_add_func ("/agent/jobs", test_jobs);
  g_test_add_func ("/agent/two-ranks", test_two_ranks);
  g_test_add_func ("/agent/tokens", test_tokens);
  g_test_add_func ("/agent/bad-messages", test_bad_messages);
  g_test_add_func ("/agent/mistyped-messages", test_mistyped_messages);
  g_test_add_func ("/agent/token-fifo", test_token_fifo);
  g_test_add_func ("/agent/log-lines", test_log_lines);
  g_test_add_func ("/agent/odd-command-line", test_odd_command_line);
  g_test_add_func ("/agent/message-reader", test_message_reader);
  g_test_add_func ("/agent/slow-client", test_slow_client);
  g_test_add_func ("/agent/false-credit", test_false_credit);
  g_test_add_func ("/agent/agent-killed", test_agent_killed);
  g_test_add_func ("/agent/tls", test_tls);
  g_test_add_func ("/agent/agent-list", test_agent_list);
  g_test_add_func ("/agent/fragmented-messages", test_fragmented_messages);
  g_test_add_func ("/agent/stopped-job", test_stopped_job);
  g_test_add_func ("/agent/socket-folder", test_socket_folder);
  g_test_add_func ("/agent/fallen-back-job", test_fallen_back_job);
  return suanli_test_agent_run ();
}
