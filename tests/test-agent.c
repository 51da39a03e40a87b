/* test-agent.c — suanli-agent and the workbench's client over real loopback sockets, with the
 * tests' producer (fake-job: the injection library's control socket, queue and writer, records
 * from a generator) as the node's jobs: jobs listed as `suanli-cli jobs --json` lists them, two
 * ranks captured into one trace, tokens, limits, a slow client, a killed agent, clock offsets,
 * TLS, and many connections
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
#include "suanli-test-crowd.h"
#include "suanli-test-process.h"
#include "suanli-test-wait.h"

typedef SuanliTestAgent Agent;

static char *runtime_dir;
static char *config_dir;

/* ---- helpers -------------------------------------------------------------------------------- */

static gboolean
wake (gpointer data)
{
  return G_SOURCE_CONTINUE;
}

/* Runs the main loop until @done says so; FALSE after 60 s. */
static gboolean
run_until (gboolean (*done) (gpointer),
           gpointer   data)
{
  gint64 deadline = g_get_monotonic_time () + 60 * G_USEC_PER_SEC;
  guint waker = g_timeout_add (20, wake, NULL);

  while (!done (data) && g_get_monotonic_time () < deadline)
    g_main_context_iteration (NULL, TRUE);
  g_source_remove (waker);
  return done (data);
}

static gboolean
is_set (gpointer data)
{
  return *(gpointer *) data != NULL;
}

static gboolean
is_true (gpointer data)
{
  return *(gboolean *) data;
}

typedef struct
{
  SuanliTestAgent *agent;
  const char *text;
} LogSearch;

static gboolean
log_has (gpointer data)
{
  LogSearch *search = data;

  return strstr (search->agent->log->str, search->text) != NULL;
}

/* Whether the agent logs @text within the wait. */
static gboolean
agent_logs (SuanliTestAgent *agent,
            const char *text)
{
  LogSearch search = { agent, text };

  return run_until (log_has, &search);
}

static SuanliAgentClient *
new_client (Agent      *agent,
            const char *token)
{
  g_autoptr(GError) error = NULL;
  SuanliAgentClient *client = suanli_agent_client_new (agent->address, token, &error);

  g_assert_no_error (error);
  return client;
}

static void
got_result (GObject      *source,
            GAsyncResult *result,
            gpointer      data)
{
  *(GAsyncResult **) data = g_object_ref (result);
}

/* Returns: (transfer full): the agent's jobs, or NULL with @error. */
static GPtrArray *
list_jobs (SuanliAgentClient *client,
           GError           **error)
{
  g_autoptr(GAsyncResult) result = NULL;

  suanli_agent_client_list_jobs_async (client, NULL, got_result, &result);
  g_assert_true (run_until (is_set, &result));
  return suanli_agent_client_list_jobs_finish (client, result, error);
}

/* A plain request, as any HTTP client would make it: its status and body. */
static guint
get (Agent      *agent,
     const char *path,
     const char *authorization,
     char      **body)
{
  g_autoptr(SoupSession) session = soup_session_new ();
  g_autofree char *url = g_strdup_printf ("http://127.0.0.1:%u%s", agent->port, path);
  g_autoptr(SoupMessage) message = soup_message_new ("GET", url);
  g_autoptr(GBytes) bytes = NULL;

  if (authorization != NULL)
    soup_message_headers_replace (soup_message_get_request_headers (message), "Authorization", authorization);
  bytes = soup_session_send_and_read (session, message, NULL, NULL);
  if (body != NULL)
    *body = bytes != NULL ? g_strndup (g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes)) : g_strdup ("");
  return soup_message_get_status (message);
}

typedef struct
{
  gboolean ended;
  GError  *error;
} Ending;

static void
on_ended (SuanliLiveCapture *capture,
          const GError      *error,
          gpointer           data)
{
  Ending *ending = data;

  ending->ended = TRUE;
  if (error != NULL)
    ending->error = g_error_copy (error);
}

/* Starts @capture and waits until the agent has said "started". */
static void
start_capture (SuanliLiveCapture *capture,
               Ending            *ending)
{
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;

  g_signal_connect (capture, "ended", G_CALLBACK (on_ended), ending);
  suanli_live_capture_start_async (capture, NULL, got_result, &result);
  g_assert_true (run_until (is_set, &result));
  g_assert_true (suanli_live_capture_start_finish (capture, result, &error));
  g_assert_no_error (error);
}

/* Lists the agent's jobs and starts capturing the first into @trace; returns the capture. */
static SuanliLiveCapture *
capture_first_job (SuanliAgentClient *client,
                   SuanliTrace       *trace,
                   Ending            *ending)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) jobs = list_jobs (client, &error);
  SuanliLiveCapture *capture;

  g_assert_no_error (error);
  g_assert_cmpuint (jobs->len, >=, 1);
  capture = suanli_remote_capture_new (client, trace, g_ptr_array_index (jobs, 0));
  start_capture (capture, ending);
  return capture;
}

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
  client = new_client (&agent, agent.token);
  jobs = list_jobs (client, &error);
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
  g_assert_cmpuint (get (&agent, "/v1/jobs", authorization, &body), ==, 200);
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
  Ending endings[2] = { { 0 } };

  suanli_test_start_agent (&agent, NULL);
  client = new_client (&agent, agent.token);
  jobs = list_jobs (client, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (jobs->len, ==, 2);
  for (guint i = 0; i < 2; i++)
    {
      captures[i] = suanli_remote_capture_new (client, trace, g_ptr_array_index (jobs, i));
      start_capture (captures[i], &endings[i]);
    }
  g_assert_true (suanli_trace_is_growing (trace));
  g_assert_true (run_until (is_true, &endings[0].ended));
  g_assert_true (run_until (is_true, &endings[1].ended));
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
  g_assert_cmpuint (get (&agent, "/v1/jobs", NULL, &body), ==, 401);
  g_assert_null (strstr (body, "pid"));
  g_assert_cmpuint (get (&agent, "/v1/jobs", "Bearer 0123456789abcdef0123456789abcdef", &wrong_body), ==, 401);
  g_assert_null (strstr (wrong_body, "pid"));
  g_assert_cmpuint (get (&agent, "/v1/health", "Basic dXNlcjpwYXNz", NULL), ==, 401);

  stranger = new_client (&agent, "not-the-token-at-all");
  jobs = list_jobs (stranger, &error);
  g_assert_null (jobs);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_PERMISSION_DENIED);
  g_clear_error (&error);

  capture = suanli_remote_capture_new (stranger, trace, &fake);
  suanli_live_capture_start_async (capture, NULL, got_result, &result);
  g_assert_true (run_until (is_set, &result));
  g_assert_false (suanli_live_capture_start_finish (capture, result, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_PERMISSION_DENIED);
  g_assert_cmpuint (suanli_trace_get_n_groups (trace), ==, 0);
  local = suanli_live_list_jobs (NULL);
  g_assert_cmpuint (local->len, ==, 1);
  g_assert_cmpstr (((SuanliLiveJob *) g_ptr_array_index (local, 0))->state, ==, "idle");

  suanli_test_stop_agent (&agent);
  suanli_test_stop_job (job);
}

typedef struct
{
  SoupWebsocketConnection *connection;
  gboolean                 closed;
  GByteArray              *bytes;     /* binary messages, in order */
  GPtrArray               *texts;     /* text messages */
  gboolean                 acknowledging;   /* says it has taken each binary message */
} RawClient;

static void
raw_message (SoupWebsocketConnection *connection,
             SoupWebsocketDataType    type,
             GBytes                  *message,
             gpointer                 data)
{
  RawClient *raw = data;
  gsize length;
  const guint8 *bytes = g_bytes_get_data (message, &length);

  if (type == SOUP_WEBSOCKET_DATA_BINARY)
    {
      g_byte_array_append (raw->bytes, bytes, (guint) length);
      if (raw->acknowledging)
        {
          g_autofree char *ack = g_strdup_printf ("{\"type\": \"credit\", \"bytes\": %" G_GSIZE_FORMAT "}", length);

          soup_websocket_connection_send_text (connection, ack);
        }
    }
  else
    g_ptr_array_add (raw->texts, g_strndup ((const char *) bytes, length));
}

static void
raw_closed (SoupWebsocketConnection *connection,
            gpointer                 data)
{
  ((RawClient *) data)->closed = TRUE;
}

/* A WebSocket to the agent driven by hand, as a misbehaving client would. */
static void
raw_connect (SuanliAgentClient *client,
             const char        *path,
             RawClient         *raw)
{
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;

  suanli_agent_client_connect_async (client, path, NULL, got_result, &result);
  g_assert_true (run_until (is_set, &result));
  raw->connection = suanli_agent_client_connect_finish (client, result, &error);
  g_assert_no_error (error);
  raw->closed = FALSE;
  raw->bytes = g_byte_array_new ();
  raw->texts = g_ptr_array_new_with_free_func (g_free);
  g_signal_connect (raw->connection, "message", G_CALLBACK (raw_message), raw);
  g_signal_connect (raw->connection, "closed", G_CALLBACK (raw_closed), raw);
}

/* Waits for the agent to close @raw's connection, and checks with what code. */
static void
assert_closed_with (RawClient *raw,
                    guint      code)
{
  g_assert_true (run_until (is_true, &raw->closed));
  g_assert_cmpuint (soup_websocket_connection_get_close_code (raw->connection), ==, code);
}

static void
raw_clear (RawClient *raw)
{
  if (raw->connection != NULL)
    g_signal_handlers_disconnect_by_data (raw->connection, raw);
  g_clear_object (&raw->connection);
  g_clear_pointer (&raw->bytes, g_byte_array_unref);
  g_clear_pointer (&raw->texts, g_ptr_array_unref);
}

static gboolean
has_text (gpointer data)
{
  return ((RawClient *) data)->texts->len > 0;
}

/* Oversized, binary and malformed control messages end the connection with the matching code. */
static void
test_bad_messages (void)
{
  Agent agent = { 0 };
  g_autoptr(SuanliAgentClient) client = NULL;
  g_autofree char *big = g_strnfill (SUANLI_AGENT_MAX_CONTROL * 16, 'x');
  g_autofree char *path = g_strdup_printf ("/v1/jobs/%d/capture", 1);
  RawClient raw = { 0 };

  suanli_test_start_agent (&agent, NULL);
  client = new_client (&agent, agent.token);

  raw_connect (client, path, &raw);
  soup_websocket_connection_send_text (raw.connection, big);
  g_assert_true (run_until (is_true, &raw.closed));
  g_assert_true (agent_logs (&agent, "a WebSocket message of more than 4096 bytes"));
  g_assert_cmpuint (raw.texts->len, ==, 0);
  raw_clear (&raw);

  raw_connect (client, path, &raw);
  soup_websocket_connection_send_binary (raw.connection, "START\n", 6);
  assert_closed_with (&raw, SOUP_WEBSOCKET_CLOSE_UNSUPPORTED_DATA);
  raw_clear (&raw);

  raw_connect (client, path, &raw);
  soup_websocket_connection_send_text (raw.connection, "{\"type\": \"start\"");
  assert_closed_with (&raw, SOUP_WEBSOCKET_CLOSE_BAD_DATA);
  raw_clear (&raw);

  /* A job that is not there: an error message, and the connection stays usable. */
  raw_connect (client, path, &raw);
  soup_websocket_connection_send_text (raw.connection, "{\"type\": \"start\", \"credit\": 1024}");
  g_assert_true (run_until (has_text, &raw));
  g_assert_nonnull (strstr (g_ptr_array_index (raw.texts, 0), "no profilable job has pid 1"));
  g_assert_false (raw.closed);
  raw_clear (&raw);

  suanli_test_stop_agent (&agent);
}

/* The sockets process @pid holds open (its /proc/PID/fd links to "socket:[…]"). */
static guint
count_sockets (const char *pid)
{
  g_autofree char *folder = g_build_filename ("/proc", pid, "fd", NULL);
  g_autoptr(GDir) dir = g_dir_open (folder, 0, NULL);
  const char *name;
  guint sockets = 0;

  g_assert_nonnull (dir);
  while ((name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *path = g_build_filename (folder, name, NULL);
      g_autofree char *target = g_file_read_link (path, NULL);

      sockets += target != NULL && g_str_has_prefix (target, "socket:");
    }
  return sockets;
}

typedef struct
{
  const char *pid;
  guint       at_most;
} SocketCount;

static gboolean
holds_few_sockets (gpointer data)
{
  SocketCount *count = data;

  return count_sockets (count->pid) <= count->at_most;
}

/* A TCP connection to the agent made by hand, whose reads give up after 10 s. */
static int
connect_raw (Agent *agent)
{
  struct sockaddr_in address = { .sin_family = AF_INET };
  struct timeval patience = { 10, 0 };
  int fd = socket (AF_INET, SOCK_STREAM, 0);

  address.sin_port = htons ((guint16) agent->port);
  address.sin_addr.s_addr = htonl (INADDR_LOOPBACK);
  g_assert_cmpint (connect (fd, (struct sockaddr *) &address, sizeof address), ==, 0);
  setsockopt (fd, SOL_SOCKET, SO_RCVTIMEO, &patience, sizeof patience);
  return fd;
}

/* A request line sent by hand, and its answer read until the agent closes. */
static void
send_request_line (Agent      *agent,
                   const char *request)
{
  int fd = connect_raw (agent);
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
  g_assert_true (agent_logs (&agent, "/v1/health\\n127.0.0.1 GET"));
  g_assert_null (strstr (agent.log->str, "\n127.0.0.1 GET /v1/jobs"));
  suanli_test_stop_agent (&agent);
}

/* Whether the agent has closed @fd (what it sent before is read and dropped). */
static gboolean
closed_by_agent (int fd)
{
  char buffer[512];
  ssize_t got;

  while ((got = recv (fd, buffer, sizeof buffer, MSG_DONTWAIT)) > 0)
    ;
  return got == 0 || (got < 0 && errno != EAGAIN && errno != EWOULDBLOCK);
}

static gboolean
closed_by_agent_fd (gpointer fd)
{
  return closed_by_agent (GPOINTER_TO_INT (fd));
}

typedef struct
{
  int     fd;
  gint64  sent_at;   /* monotonic µs of the last byte */
  guint   sent;
} Trickle;

/* A client that sends its request one byte every half second, never idle and never done. */
static gboolean
trickled_out (gpointer data)
{
  static const char request[] = "GET /v1/health HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Padding: aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa";
  Trickle *trickle = data;
  gint64 now = g_get_monotonic_time ();

  if (closed_by_agent (trickle->fd))
    return TRUE;
  if (now - trickle->sent_at > G_USEC_PER_SEC / 2 && trickle->sent < sizeof request - 1)
    {
      if (send (trickle->fd, request + trickle->sent, 1, MSG_NOSIGNAL) != 1)
        return TRUE;
      trickle->sent++;
      trickle->sent_at = now;
    }
  return FALSE;
}

typedef struct
{
  int   fds[40];
  guint at_least;
} Crowd;

static gboolean
crowd_thinned (gpointer data)
{
  Crowd *crowd = data;
  guint closed = 0;

  for (guint i = 0; i < G_N_ELEMENTS (crowd->fds); i++)
    closed += closed_by_agent (crowd->fds[i]);
  return closed >= crowd->at_least;
}

static gboolean
owner_gets_in (gpointer data)
{
  Agent *agent = data;
  g_autofree char *authorization = g_strconcat ("Bearer ", agent->token, NULL);

  return get (agent, "/v1/health", authorization, NULL) == 200;
}

/* Slowloris: a request whose headers trickle in is closed at the header deadline, however busy
 * it keeps its connection; and one address cannot hold more than its share of requests open. */
static void
test_slow_headers (void)
{
  const char *options[] = { "--header-timeout=2", "--idle-timeout=600", NULL };
  const char *crowd_options[] = { "--header-timeout=600", "--idle-timeout=600", "--max-strangers=32", NULL };
  Agent agent = { 0 };
  Trickle trickle = { -1, 0, 0 };
  Crowd crowd = { { 0 }, G_N_ELEMENTS (crowd.fds) - 32 };

  suanli_test_start_agent (&agent, options);
  trickle.fd = connect_raw (&agent);
  suanli_test_await (trickled_out, &trickle);
  g_test_message ("closed after %u bytes of headers", trickle.sent);
  g_assert_true (agent_logs (&agent, "its headers did not come within 2 s"));
  close (trickle.fd);
  suanli_test_stop_agent (&agent);

  /* Forty requests begun from one address, none finished, none with the token yet, with no deadline
   * near: eight are too many, and the oldest eight go. */
  suanli_test_start_agent (&agent, crowd_options);
  for (guint i = 0; i < G_N_ELEMENTS (crowd.fds); i++)
    {
      crowd.fds[i] = connect_raw (&agent);
      g_assert_cmpint (send (crowd.fds[i], "G", 1, MSG_NOSIGNAL), ==, 1);
    }
  suanli_test_await (crowd_thinned, &crowd);
  g_assert_true (agent_logs (&agent, "more than 32 connections without the token at once: the oldest closed"));
  for (guint i = 0; i < 8; i++)
    g_assert_true (closed_by_agent (crowd.fds[i]));
  for (guint i = 0; i < G_N_ELEMENTS (crowd.fds); i++)
    close (crowd.fds[i]);
  /* The owner gets in again once the agent has seen the crowd go. */
  suanli_test_await (owner_gets_in, &agent);
  suanli_test_stop_agent (&agent);
}

/* A keep-alive request, its answer read, and the client gone: as curl or a port scanner does. */
static void
request_and_leave (Agent *agent)
{
  static const char request[] = "GET /v1/health HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: keep-alive\r\n\r\n";
  GString *answer = g_string_new (NULL);
  int fd = connect_raw (agent);
  char buffer[1024];
  ssize_t got;

  g_assert_cmpint (send (fd, request, sizeof request - 1, MSG_NOSIGNAL), ==, sizeof request - 1);
  /* The refusal's body ends the answer ("…}\n"), whether or not the agent then closes. */
  while (!g_str_has_suffix (answer->str, "}\n") && (got = recv (fd, buffer, sizeof buffer, 0)) > 0)
    g_string_append_len (answer, buffer, got);
  g_assert_nonnull (strstr (answer->str, "401"));
  g_string_free (answer, TRUE);
  close (fd);
}

/* 100 keep-alive requests without a token, each client gone after its answer: the agent does not
 * keep their sockets (libsoup 3.2 would, in CLOSE_WAIT). */
static void
test_kept_alive_sockets (void)
{
  const char *options[] = { "--rate=0", NULL };
  Agent agent = { 0 };
  SocketCount agent_count = { NULL, 0 };
  guint before;

  suanli_test_start_agent (&agent, options);
  agent_count.pid = g_subprocess_get_identifier (agent.process);
  before = count_sockets (agent_count.pid);
  for (guint i = 0; i < 100; i++)
    request_and_leave (&agent);
  agent_count.at_most = before + 2;
  suanli_test_await (holds_few_sockets, &agent_count);
  g_test_message ("the agent holds %u sockets after 100 requests (%u before)", count_sockets (agent_count.pid), before);

  suanli_test_stop_agent (&agent);
}

#define KEPT_ALIVE_TOKEN "a-token-of-forty-characters-0123456789ab"

/* An agent of few words: its hello, and no jobs. */
static void
serve_no_jobs (SoupServer        *server,
               SoupServerMessage *message,
               const char        *path,
               GHashTable        *query,
               gpointer           data)
{
  soup_server_message_set_status (message, SOUP_STATUS_OK, NULL);
  if (g_str_equal (path, "/v1/hello"))
    {
      GInetSocketAddress *local = G_INET_SOCKET_ADDRESS (soup_server_message_get_local_address (message));
      g_autofree char *address = suanli_agent_address_text (local);
      g_autofree char *proof = suanli_agent_proof (data != NULL ? data : KEPT_ALIVE_TOKEN,
                                                   g_hash_table_lookup (query, "challenge"), address);
      g_autofree char *body = g_strdup_printf ("{\"proof\": \"%s\", \"address\": \"%s\"}", proof, address);

      soup_server_message_set_response (message, "application/json", SOUP_MEMORY_COPY, body, strlen (body));
    }
  else
    soup_server_message_set_response (message, "application/json", SOUP_MEMORY_STATIC, "[]", 2);
}

/* The workbench's client against a server that keeps connections alive, as libsoup 3.2's does by
 * default (an agent of another version, say): no connection stays open after a listing. Server
 * and client are both this process, so its sockets count both ends. */
static void
test_client_sockets (void)
{
  g_autoptr(SoupServer) server = soup_server_new (NULL, NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(SuanliAgentClient) client = NULL;
  g_autofree char *own_pid = g_strdup_printf ("%d", (int) getpid ());
  g_autofree char *address = NULL;
  SocketCount own_count = { own_pid, 0 };
  GSList *uris;

  soup_server_add_handler (server, "/v1/jobs", serve_no_jobs, NULL, NULL);
  soup_server_add_handler (server, "/v1/hello", serve_no_jobs, NULL, NULL);
  g_assert_true (soup_server_listen_local (server, 0, SOUP_SERVER_LISTEN_IPV4_ONLY, &error));
  g_assert_no_error (error);
  uris = soup_server_get_uris (server);
  address = g_strdup_printf ("127.0.0.1:%d", g_uri_get_port (uris->data));
  g_slist_free_full (uris, (GDestroyNotify) g_uri_unref);
  client = suanli_agent_client_new (address, KEPT_ALIVE_TOKEN, &error);
  g_assert_no_error (error);

  /* Before any listing: the server's listening socket. After 21, not one connection more. */
  own_count.at_most = count_sockets (own_pid);
  for (guint i = 0; i < 21; i++)
    g_ptr_array_unref (list_jobs (client, NULL));
  suanli_test_await (holds_few_sockets, &own_count);
  g_test_message ("this process holds %u sockets after 21 listings", count_sockets (own_pid));
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
  g_autofree char *folder = g_build_filename (runtime_dir, "suanli", NULL);
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
  client = new_client (&agent, agent.token);
  remote = list_jobs (client, &error);
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

static gboolean
has_exited (gpointer process)
{
  return g_subprocess_get_identifier (process) == NULL;
}

/* A token "file" that is a FIFO is refused at the start, instead of holding the agent there for
 * as long as nothing writes to it. */
static void
test_token_fifo (void)
{
  g_autofree char *fifo = g_build_filename (runtime_dir, "token-fifo", NULL);
  g_autofree char *option = g_strconcat ("--token-file=", fifo, NULL);
  g_autoptr(GSubprocessLauncher) launcher = g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDERR_PIPE |
                                                                       G_SUBPROCESS_FLAGS_STDOUT_SILENCE);
  g_autoptr(GSubprocess) agent = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GDataInputStream) errors = NULL;
  g_autofree char *said = NULL;
  gsize length = 0;

  g_assert_cmpint (mkfifo (fifo, 0600), ==, 0);
  g_subprocess_launcher_setenv (launcher, "LC_ALL", "C.UTF-8", TRUE);
  agent = g_subprocess_launcher_spawn (launcher, &error, g_getenv ("SUANLI_AGENT"), "--port=0", option, NULL);
  g_assert_no_error (error);
  suanli_test_await (has_exited, agent);
  g_assert_false (g_subprocess_get_successful (agent));
  errors = g_data_input_stream_new (g_subprocess_get_stderr_pipe (agent));
  said = g_data_input_stream_read_upto (errors, "", 0, &length, NULL, NULL);
  g_test_message ("%s", said);
  g_assert_nonnull (strstr (said, "is not a plain file"));
  g_unlink (fifo);
}

/* Whatever any request to the impostor said, headers and all. */
static void
record_request (SoupServer        *server,
                SoupServerMessage *message,
                const char        *path,
                GHashTable        *query,
                gpointer           data)
{
  static const char looks_like_one[] = "{\"proof\": \"0000000000000000000000000000000000000000000000000000000000000000\", "
                                       "\"address\": \"127.0.0.1:7811\"}";
  GString *heard = data;
  SoupMessageHeadersIter iter;
  const char *name, *value;

  g_string_append_printf (heard, "%s %s\n", soup_server_message_get_method (message), path);
  soup_message_headers_iter_init (&iter, soup_server_message_get_request_headers (message));
  while (soup_message_headers_iter_next (&iter, &name, &value))
    g_string_append_printf (heard, "%s: %s\n", name, value);
  /* It cannot answer the challenge: it says something that looks like an answer. */
  soup_server_message_set_status (message, SOUP_STATUS_OK, NULL);
  soup_server_message_set_response (message, "application/json", SOUP_MEMORY_STATIC, looks_like_one,
                                    strlen (looks_like_one));
}

/* Another user's program listens where the agent was: the workbench asks it to prove that it
 * knows the token, it cannot, and it never hears the token, listing or capturing. */
static void
test_impostor (void)
{
  const char *token = "the-owners-token-0123456789abcdef0123456789";
  g_autoptr(SoupServer) impostor = soup_server_new (NULL, NULL);
  g_autoptr(SuanliAgentClient) client = NULL;
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GPtrArray) jobs = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *address = NULL;
  GString *heard = g_string_new (NULL);
  GSList *uris;

  soup_server_add_handler (impostor, NULL, record_request, heard, NULL);
  g_assert_true (soup_server_listen_local (impostor, 0, SOUP_SERVER_LISTEN_IPV4_ONLY, &error));
  uris = soup_server_get_uris (impostor);
  address = g_strdup_printf ("127.0.0.1:%d", g_uri_get_port (uris->data));
  g_slist_free_full (uris, (GDestroyNotify) g_uri_unref);
  client = suanli_agent_client_new (address, token, &error);
  g_assert_no_error (error);

  jobs = list_jobs (client, &error);
  g_assert_null (jobs);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_PERMISSION_DENIED);
  g_assert_nonnull (strstr (error->message, "did not prove that it knows the token"));
  g_clear_error (&error);
  suanli_agent_client_connect_async (client, "/v1/jobs/1/capture", NULL, got_result, &result);
  g_assert_true (run_until (is_set, &result));
  g_assert_null (suanli_agent_client_connect_finish (client, result, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_PERMISSION_DENIED);

  g_test_message ("the impostor heard:\n%s", heard->str);
  g_assert_nonnull (strstr (heard->str, "GET /v1/hello"));
  g_assert_null (strstr (heard->str, token));
  g_assert_null (strstr (heard->str, "/v1/jobs"));
  g_string_free (heard, TRUE);
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
  RawClient raw = { 0 };

  suanli_test_start_agent (&agent, NULL);
  client = new_client (&agent, agent.token);
  authorization = g_strconcat ("Bearer ", agent.token, NULL);
  for (guint i = 0; i < G_N_ELEMENTS (bad_types); i++)
    {
      g_test_message ("sending %s", bad_types[i]);
      raw_connect (client, "/v1/jobs/1/capture", &raw);
      soup_websocket_connection_send_text (raw.connection, bad_types[i]);
      assert_closed_with (&raw, SOUP_WEBSOCKET_CLOSE_BAD_DATA);
      raw_clear (&raw);
    }
  /* A clock probe whose t0 is a string is answered with no t0 of its own (-1), never read as one. */
  raw_connect (client, "/v1/jobs/1/capture", &raw);
  soup_websocket_connection_send_text (raw.connection, "{\"type\": \"clock\", \"t0\": \"now\"}");
  g_assert_true (run_until (has_text, &raw));
  g_test_message ("answered %s", (const char *) g_ptr_array_index (raw.texts, 0));
  g_assert_nonnull (strstr (g_ptr_array_index (raw.texts, 0), "\"t0\":-1"));
  /* Credit that is not a number is credit for bytes never sent. */
  soup_websocket_connection_send_text (raw.connection, "{\"type\": \"credit\", \"bytes\": \"all\"}");
  assert_closed_with (&raw, SOUP_WEBSOCKET_CLOSE_POLICY_VIOLATION);
  raw_clear (&raw);
  g_assert_cmpuint (get (&agent, "/v1/health", authorization, NULL), ==, 200);
  suanli_test_stop_agent (&agent);
}

/* A client sending 1,000 control messages at once is closed for too many; what it sent after the
 * 200th is ignored without a critical (the agent runs with G_DEBUG=fatal-criticals) and the agent
 * still answers. */
static void
test_control_flood (void)
{
  Agent agent = { 0 };
  g_autoptr(SuanliAgentClient) client = NULL;
  g_autofree char *authorization = NULL;
  RawClient raw = { 0 };

  g_setenv ("G_DEBUG", "fatal-criticals", TRUE);
  suanli_test_start_agent (&agent, NULL);
  g_unsetenv ("G_DEBUG");
  client = new_client (&agent, agent.token);
  authorization = g_strconcat ("Bearer ", agent.token, NULL);
  raw_connect (client, "/v1/jobs/1/capture", &raw);
  for (guint i = 0; i < 1000 && soup_websocket_connection_get_state (raw.connection) == SOUP_WEBSOCKET_STATE_OPEN; i++)
    soup_websocket_connection_send_text (raw.connection, "{\"type\": \"clock\", \"t0\": 1}");
  assert_closed_with (&raw, SOUP_WEBSOCKET_CLOSE_POLICY_VIOLATION);
  raw_clear (&raw);
  g_assert_cmpuint (get (&agent, "/v1/health", authorization, NULL), ==, 200);
  g_assert_null (strstr (agent.log->str, "CRITICAL"));
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
  return ((RawClient *) data)->texts->len >= 2;
}

static gboolean
has_ended_text (gpointer data)
{
  RawClient *raw = data;

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
  RawClient raw = { 0 };
  gint64 dropped;
  gint64 until;

  suanli_test_start_agent (&agent, options);
  client = new_client (&agent, agent.token);
  raw_connect (client, path, &raw);
  soup_websocket_connection_send_text (raw.connection, "{\"type\": \"start\", \"credit\": 65536}");
  /* "started"; then two seconds of a job making records with nowhere for most of them to go. */
  g_assert_true (run_until (has_text, &raw));
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
  g_assert_true (run_until (has_ended_text, &raw));
  assert_closed_with (&raw, SOUP_WEBSOCKET_CLOSE_NORMAL);

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
  raw_clear (&raw);

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
  RawClient raw = { 0 };

  suanli_test_start_agent (&agent, NULL);
  client = new_client (&agent, agent.token);
  raw_connect (client, path, &raw);
  soup_websocket_connection_send_text (raw.connection, "{\"type\": \"start\", \"credit\": 65536}");
  g_assert_true (run_until (has_text, &raw));
  soup_websocket_connection_send_text (raw.connection, "{\"type\": \"credit\", \"bytes\": 67108864}");
  assert_closed_with (&raw, SOUP_WEBSOCKET_CLOSE_POLICY_VIOLATION);
  g_assert_cmpuint (raw.bytes->len, <=, 65536);
  raw_clear (&raw);
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
  Ending ending = { 0 };
  guint64 kept;
  gint64 until;

  suanli_test_start_agent (&agent, NULL);
  client = new_client (&agent, agent.token);
  capture = capture_first_job (client, trace, &ending);
  until = g_get_monotonic_time () + G_USEC_PER_SEC;
  while (g_get_monotonic_time () < until || suanli_live_capture_get_records (capture) == 0)
    g_main_context_iteration (NULL, FALSE);

  g_subprocess_force_exit (agent.process);
  g_assert_true (run_until (is_true, &ending.ended));
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
  Ending ending = { 0 };
  gint64 offset, from, to;

  suanli_test_start_agent (&agent, options);
  client = new_client (&agent, agent.token);
  capture = capture_first_job (client, trace, &ending);
  offset = suanli_remote_capture_get_clock_offset (SUANLI_REMOTE_CAPTURE (capture));
  g_test_message ("estimated offset %.3f ms, bound %.3f ms", offset / 1e6,
                  suanli_remote_capture_get_clock_error (SUANLI_REMOTE_CAPTURE (capture)) / 1e6);
  g_assert_cmpint (ABS (offset - 250 * G_GINT64_CONSTANT (1000000)), <, 1000000);
  g_assert_cmpint (suanli_remote_capture_get_clock_error (SUANLI_REMOTE_CAPTURE (capture)), <, 1000000);

  suanli_live_capture_stop (capture);
  g_assert_true (run_until (is_true, &ending.ended));
  g_assert_no_error (ending.error);
  /* The generator's first kernel starts some µs into its clock, and the header's offset is 0: the
   * agent's skew added 250 ms to it, and the correction took them off again. */
  suanli_trace_get_time_range (trace, &from, &to);
  g_assert_cmpint (ABS (from), <, 1000000);

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
  jobs = list_jobs (unpinned, &error);
  g_assert_null (jobs);
  g_assert_nonnull (error);
  g_clear_error (&error);

  pinned = suanli_agent_client_new (https, agent.token, &error);
  g_assert_no_error (error);
  certificate = g_tls_certificate_new_from_file (certificate_file, &error);
  g_assert_no_error (error);
  suanli_agent_client_set_pinned_certificate (pinned, certificate);
  jobs = list_jobs (pinned, &error);
  g_assert_no_error (error);
  g_assert_nonnull (jobs);
  /* A capture WebSocket over TLS, through the agent's frame guard: a clock probe is answered. */
  {
    RawClient raw = { 0 };

    raw_connect (pinned, "/v1/jobs/1/capture", &raw);
    soup_websocket_connection_send_text (raw.connection, "{\"type\": \"clock\", \"t0\": 1}");
    g_assert_true (run_until (has_text, &raw));
    g_assert_nonnull (strstr (g_ptr_array_index (raw.texts, 0), "\"t2\""));
    soup_websocket_connection_close (raw.connection, SOUP_WEBSOCKET_CLOSE_NORMAL, NULL);
    g_assert_true (run_until (is_true, &raw.closed));
    raw_clear (&raw);
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

/* Past --max-connections, a capture is refused with 503 before the upgrade; once one closes, there
 * is room again. */
static void
test_connection_limit (void)
{
  const char *options[] = { "--max-connections=2", NULL };
  Agent agent = { 0 };
  g_autoptr(SuanliAgentClient) client = NULL;
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  RawClient first = { 0 }, second = { 0 }, third = { 0 };

  suanli_test_start_agent (&agent, options);
  client = new_client (&agent, agent.token);
  raw_connect (client, "/v1/jobs/1/capture", &first);
  raw_connect (client, "/v1/jobs/1/capture", &second);
  suanli_agent_client_connect_async (client, "/v1/jobs/1/capture", NULL, got_result, &result);
  g_assert_true (run_until (is_set, &result));
  g_assert_null (suanli_agent_client_connect_finish (client, result, &error));
  g_assert_nonnull (error);
  g_assert_nonnull (strstr (error->message, "503"));

  soup_websocket_connection_close (first.connection, SOUP_WEBSOCKET_CLOSE_NORMAL, NULL);
  g_assert_true (run_until (is_true, &first.closed));
  g_assert_true (agent_logs (&agent, "closed (code 1000)"));
  raw_connect (client, "/v1/jobs/1/capture", &third);
  g_assert_false (third.closed);
  raw_clear (&first);
  raw_clear (&second);
  raw_clear (&third);
  suanli_test_stop_agent (&agent);
}

/* Jobs in a container: the agent given the container's socket folder lists its jobs (with their
 * PID namespace), and not this machine's; a folder others may write to is refused. */
static void
test_socket_folder (void)
{
  g_autofree char *container = g_build_filename (runtime_dir, "container", NULL);
  g_autofree char *sockets = g_build_filename (container, "suanli", NULL);
  g_autofree char *open_folder = g_build_filename (runtime_dir, "open", NULL);
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
  g_setenv ("XDG_RUNTIME_DIR", runtime_dir, TRUE);

  suanli_test_start_agent (&agent, options);
  client = new_client (&agent, agent.token);
  jobs = list_jobs (client, &error);
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
  g_autofree char *socket_path = g_strdup_printf ("%s/suanli/%s.sock", runtime_dir, g_subprocess_get_identifier (job));
  g_autofree char *authorization = NULL;
  Agent agent = { 0 };
  g_autoptr(SuanliAgentClient) client = NULL;
  g_autoptr(GPtrArray) jobs = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GAsyncResult) result = NULL;
  int waiting[16];

  suanli_test_start_agent (&agent, NULL);
  client = new_client (&agent, agent.token);
  g_subprocess_send_signal (job, SIGSTOP);
  for (guint i = 0; i < G_N_ELEMENTS (waiting); i++)
    {
      struct sockaddr_un address = { .sun_family = AF_UNIX };

      waiting[i] = socket (AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK, 0);
      g_strlcpy (address.sun_path, socket_path, sizeof address.sun_path);
      connect (waiting[i], (struct sockaddr *) &address, sizeof address);   /* the backlog fills */
    }
  suanli_agent_client_list_jobs_async (client, NULL, got_result, &result);
  authorization = g_strconcat ("Bearer ", agent.token, NULL);
  g_assert_cmpuint (get (&agent, "/v1/health", authorization, NULL), ==, 200);
  g_assert_true (run_until (is_set, &result));
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
  g_autofree char *path = g_build_filename (runtime_dir, "agents", NULL);
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
  g_assert_true (agent_logs (&agent, "a WebSocket message of more than 4096 bytes"));
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
  home = g_build_filename (runtime_dir, "home", NULL);
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
    g_assert_cmpuint (get (&agent, "/v1/jobs", authorization, &body), ==, 200);
    g_assert_nonnull (strstr (body, pid));
    suanli_test_stop_agent (&agent);
  }

  suanli_test_stop_job (job);
  g_setenv ("XDG_RUNTIME_DIR", runtime_dir, TRUE);
  suanli_test_put_env ("HOME", saved_home);
  suanli_test_put_env ("TMPDIR", saved_tmp);
}

/* A client over its rate gets 429; strangers without the token, knocking from the same address,
 * use up their own allowance, not the token holder's. */
static void
test_rate (void)
{
  const char *options[] = { "--rate=5", NULL };
  Agent agent = { 0 };
  g_autofree char *authorization = NULL;
  guint too_many = 0, strangers_refused = 0;

  suanli_test_start_agent (&agent, options);
  authorization = g_strconcat ("Bearer ", agent.token, NULL);
  for (guint i = 0; i < 40; i++)
    strangers_refused += get (&agent, "/v1/health", NULL, NULL) == 429;
  g_assert_cmpuint (strangers_refused, >, 0);
  g_assert_cmpuint (get (&agent, "/v1/health", authorization, NULL), ==, 200);
  for (guint i = 0; i < 40; i++)
    too_many += get (&agent, "/v1/health", authorization, NULL) == 429;
  g_assert_cmpuint (too_many, >, 0);
  g_assert_cmpuint (too_many, <, 40);
  suanli_test_stop_agent (&agent);
}

/* A new connection that sends nothing within the first-byte deadline is closed; one that has sent
 * a byte is left to its header deadline. */
static void
test_first_byte (void)
{
  const char *options[] = { "--first-byte-timeout=1", "--header-timeout=600", "--idle-timeout=600", NULL };
  Agent agent = { 0 };
  int silent, started;

  suanli_test_start_agent (&agent, options);
  silent = connect_raw (&agent);
  started = connect_raw (&agent);
  g_assert_cmpint (send (started, "G", 1, MSG_NOSIGNAL), ==, 1);
  suanli_test_await (closed_by_agent_fd, GINT_TO_POINTER (silent));
  g_assert_true (agent_logs (&agent, "nothing came within 1 s of connecting: closed"));
  g_assert_false (closed_by_agent (started));
  close (silent);
  close (started);
  suanli_test_stop_agent (&agent);
}

/* A connection that says nothing is dropped after the idle timeout: silent sockets do not pile up. */
static void
test_idle_connection (void)
{
  const char *options[] = { "--idle-timeout=1", NULL };
  Agent agent = { 0 };
  struct sockaddr_in address = { .sin_family = AF_INET };
  struct timeval patience = { 20, 0 };
  gint64 before;
  char byte;
  int fd;

  suanli_test_start_agent (&agent, options);
  address.sin_port = htons ((guint16) agent.port);
  address.sin_addr.s_addr = htonl (INADDR_LOOPBACK);
  fd = socket (AF_INET, SOCK_STREAM, 0);
  g_assert_cmpint (connect (fd, (struct sockaddr *) &address, sizeof address), ==, 0);
  setsockopt (fd, SOL_SOCKET, SO_RCVTIMEO, &patience, sizeof patience);
  before = g_get_monotonic_time ();
  g_assert_cmpint (recv (fd, &byte, 1, 0), ==, 0);   /* closed by the agent, not timed out here */
  g_test_message ("an idle connection was dropped after %.1f s", (g_get_monotonic_time () - before) / 1e6);
  close (fd);
  suanli_test_stop_agent (&agent);
}

typedef struct
{
  Agent       *agent;
  SoupSession *session;
  char        *authorization;
  guint        wanted;
  guint        done;
  guint        answered;   /* with 200 */
} Owner;

static gboolean owner_ask (gpointer data);

static void
owner_got (GObject      *source,
           GAsyncResult *result,
           gpointer      data)
{
  Owner *owner = data;
  GBytes *body = soup_session_send_and_read_finish (SOUP_SESSION (source), result, NULL);

  g_clear_pointer (&body, g_bytes_unref);   /* only the status counts */
  owner->answered += soup_message_get_status (soup_session_get_async_result_message (SOUP_SESSION (source), result)) ==
                     SOUP_STATUS_OK;
  if (++owner->done < owner->wanted)
    g_timeout_add (50, owner_ask, owner);
}

/* The token holder's next request, on the main loop, so that the agent's log keeps being read. */
static gboolean
owner_ask (gpointer data)
{
  Owner *owner = data;
  g_autofree char *url = g_strdup_printf ("http://127.0.0.1:%u/v1/health", owner->agent->port);
  g_autoptr(SoupMessage) message = soup_message_new ("GET", url);

  soup_message_headers_replace (soup_message_get_request_headers (message), "Authorization", owner->authorization);
  soup_session_send_and_read_async (owner->session, message, G_PRIORITY_DEFAULT, NULL, owner_got, owner);
  return G_SOURCE_REMOVE;
}

static gboolean
owner_done (gpointer data)
{
  Owner *owner = data;

  return owner->done == owner->wanted;
}

static gboolean
crowd_was_closed (gpointer data)
{
  return suanli_test_crowd_reopened (data) >= 100;
}

/* Strangers on the token holder's own address (every local user, an SSH tunnel: 127.0.0.1) hold
 * 40 connections without a byte, opening another whenever one is closed, and ask without the
 * token as fast as they are answered: every one of the token holder's 40 requests, one each 50 ms
 * or so while that goes on, is answered. */
static void
test_strangers (void)
{
  Agent agent = { 0 };
  Owner owner = { &agent, NULL, NULL, 40, 0, 0 };
  SuanliTestCrowd *crowd;

  suanli_test_start_agent (&agent, NULL);
  owner.session = soup_session_new ();
  owner.authorization = g_strconcat ("Bearer ", agent.token, NULL);
  crowd = suanli_test_crowd_start (agent.port, 40, TRUE);
  suanli_test_await (crowd_was_closed, crowd);   /* the agent has had to close a hundred of theirs */
  owner_ask (&owner);
  g_assert_true (run_until (owner_done, &owner));
  g_test_message ("%u of the token holder's %u requests answered; the strangers had %u answers and %u "
                  "connections closed", owner.answered, owner.wanted, suanli_test_crowd_asked (crowd),
                  suanli_test_crowd_reopened (crowd));
  suanli_test_crowd_stop (crowd);
  g_assert_cmpuint (owner.answered, ==, owner.wanted);
  g_assert_true (agent_logs (&agent, "more than 8 connections without the token at once"));
  g_object_unref (owner.session);
  g_free (owner.authorization);
  suanli_test_stop_agent (&agent);
}

typedef struct
{
  SuanliTestCrowd *crowd;
  guint            at_least;
} Asked;

static gboolean
crowd_has_asked (gpointer data)
{
  Asked *asked = data;

  return suanli_test_crowd_asked (asked->crowd) >= asked->at_least;
}

/* Token-less requests, each on a connection of its own, do not make the agent grow: after the
 * first 5,000, 30,000 more add less than 64 bytes each to its resident memory (libsoup 3.2 alone
 * keeps each accepted socket, about 340 bytes). */
static void
test_tokenless_memory (void)
{
  const char *options[] = { "--rate=0", NULL };
  Agent agent = { 0 };
  Asked asked = { NULL, 5000 };
  int pid;
  guint64 before, after;

#if defined(__SANITIZE_ADDRESS__)
#define UNDER_ADDRESS_SANITIZER 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define UNDER_ADDRESS_SANITIZER 1
#endif
#endif
#ifdef UNDER_ADDRESS_SANITIZER
  /* Its quarantine keeps what is freed: resident memory says nothing here. */
  g_test_skip ("AddressSanitizer's quarantine grows the agent's resident memory");
  return;
#endif
  suanli_test_start_agent (&agent, options);
  pid = atoi (g_subprocess_get_identifier (agent.process));
  asked.crowd = suanli_test_crowd_start (agent.port, 0, TRUE);
  suanli_test_await (crowd_has_asked, &asked);
  before = suanli_test_process_rss (pid);
  asked.at_least += 30000;
  suanli_test_await (crowd_has_asked, &asked);
  after = suanli_test_process_rss (pid);
  suanli_test_crowd_stop (asked.crowd);
  g_string_truncate (agent.log, 0);
  g_test_message ("the agent's resident memory: %" G_GUINT64_FORMAT " KiB after 5,000 token-less requests, "
                  "%" G_GUINT64_FORMAT " KiB after 30,000 more (%.0f bytes each)", before >> 10, after >> 10,
                  ((double) after - (double) before) / 30000);
  g_assert_cmpuint (before, >, 0);
  g_assert_cmpint ((gint64) after - (gint64) before, <, 30000 * 64);
  suanli_test_stop_agent (&agent);
}

/* A thousand capture connections opened and closed, some with a probe: the agent still serves,
 * and (under the sanitizer build) exits without leaks. */
static void
test_many_connections (void)
{
  const char *options[] = { "--rate=0", NULL };
  Agent agent = { 0 };
  g_autoptr(SuanliAgentClient) client = NULL;
  g_autofree char *authorization = NULL;

  suanli_test_start_agent (&agent, options);
  client = new_client (&agent, agent.token);
  for (guint i = 0; i < 1000; i++)
    {
      RawClient raw = { 0 };

      raw_connect (client, "/v1/jobs/1/capture", &raw);
      if (i % 10 == 0)
        {
          soup_websocket_connection_send_text (raw.connection, "{\"type\": \"clock\", \"t0\": 1}");
          g_assert_true (run_until (has_text, &raw));
        }
      soup_websocket_connection_close (raw.connection, SOUP_WEBSOCKET_CLOSE_NORMAL, NULL);
      g_assert_true (run_until (is_true, &raw.closed));
      raw_clear (&raw);
    }
  authorization = g_strconcat ("Bearer ", agent.token, NULL);
  g_assert_cmpuint (get (&agent, "/v1/health", authorization, NULL), ==, 200);
  suanli_test_stop_agent (&agent);
}

/* ---- relays, redirections and endless answers ----------------------------------------------- */

/* The stranger's side of an attack needs a second user: root here and in CI, nobody there. */
static gboolean
can_be_a_stranger (void)
{
  if (getuid () == 0)
    return TRUE;
  g_test_skip ("not run as root: the stranger cannot run as another user (nobody) here, and the attack needs two");
  return FALSE;
}

typedef struct
{
  GSubprocess      *process;
  GDataInputStream *out;
  guint             port;     /* where it listens, 0 when it could not */
  char             *said;     /* its line when it could not listen */
  GString          *heard;    /* everything the workbench sent it */
} Stranger;

/* Starts tests/stranger as user nobody: relaying ("relay") or redirecting ("redirect") what comes
 * to @ip:@port to the agent at @agent_ip:@agent_port. Returns whether it listens. */
static gboolean
start_stranger (Stranger   *stranger,
                const char *mode,
                const char *ip,
                guint       port,
                const char *agent_ip,
                guint       agent_port)
{
  g_autofree char *port_text = g_strdup_printf ("%u", port);
  g_autofree char *agent_port_text = g_strdup_printf ("%u", agent_port);
  g_autoptr(GError) error = NULL;
  g_autofree char *user = NULL;
  g_autofree char *line = NULL;

  stranger->process = g_subprocess_new (G_SUBPROCESS_FLAGS_STDOUT_PIPE, &error, g_getenv ("SUANLI_STRANGER"), mode,
                                        ip, port_text, agent_ip, agent_port_text, NULL);
  g_assert_no_error (error);
  stranger->out = g_data_input_stream_new (g_subprocess_get_stdout_pipe (stranger->process));
  stranger->heard = g_string_new (NULL);
  user = g_data_input_stream_read_line_utf8 (stranger->out, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (user, ==, "user nobody");
  line = g_data_input_stream_read_line_utf8 (stranger->out, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_nonnull (line);
  g_test_message ("the stranger on %s: %s", ip, line);
  if (g_str_has_prefix (line, "listening "))
    stranger->port = (guint) g_ascii_strtoull (line + strlen ("listening "), NULL, 10);
  else
    stranger->said = g_steal_pointer (&line);
  return stranger->port != 0;
}

/* Ends the stranger and collects all it heard. */
static void
stop_stranger (Stranger *stranger)
{
  char buffer[4096];
  gssize got;

  if (stranger->process == NULL)
    return;
  g_subprocess_force_exit (stranger->process);
  g_subprocess_wait (stranger->process, NULL, NULL);
  /* Its children (one a connection) die with it, and the pipe ends. */
  while ((got = g_input_stream_read (G_INPUT_STREAM (stranger->out), buffer, sizeof buffer, NULL, NULL)) > 0)
    g_string_append_len (stranger->heard, buffer, got);
  g_test_message ("the stranger heard:\n%s", stranger->heard->str);
  g_clear_object (&stranger->out);
  g_clear_object (&stranger->process);
}

static void
free_stranger (Stranger *stranger)
{
  stop_stranger (stranger);
  g_string_free (stranger->heard, TRUE);
  g_free (stranger->said);
}

/* Another user relays [::1]:PORT to the agent on 127.0.0.1:PORT, where GLib looks first for
 * localhost: the agent listens on [::1]:PORT itself, so the stranger cannot. And a stranger who
 * relays another port on ::1 to the agent gets an answer that names the agent's own address,
 * which the workbench refuses: the token never reaches the stranger, listing or capturing. */
static void
test_hello_relayed (void)
{
  GSubprocess *job = NULL;
  Agent agent = { 0 };
  Stranger same_port = { 0 }, other_port = { 0 };
  g_autoptr(SuanliAgentClient) client = NULL;
  g_autoptr(SuanliAgentClient) relayed = NULL;
  g_autoptr(GPtrArray) jobs = NULL;
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *localhost = NULL, *through = NULL, *reached = NULL;
  gboolean squatted;

  if (!can_be_a_stranger ())
    return;
  if (!suanli_agent_has_ipv6_loopback ())
    {
      g_test_skip ("this machine has no IPv6 loopback (::1): no one can listen there, so there is no relay to "
                   "check (the agent then listens on 127.0.0.1 alone)");
      return;
    }
  job = suanli_test_start_job (1000, 30, 0);
  suanli_test_start_agent (&agent, NULL);

  squatted = start_stranger (&same_port, "relay", "::1", agent.port, "127.0.0.1", agent.port);
  localhost = g_strdup_printf ("localhost:%u", agent.port);
  client = suanli_agent_client_new (localhost, agent.token, &error);
  g_assert_no_error (error);
  jobs = list_jobs (client, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (jobs->len, ==, 1);
  stop_stranger (&same_port);
  g_assert_null (strstr (same_port.heard->str, agent.token));
  g_assert_false (squatted);
  g_assert_nonnull (strstr (same_port.said, "in use"));

  g_assert_true (start_stranger (&other_port, "relay", "::1", 0, "127.0.0.1", agent.port));
  through = g_strdup_printf ("[::1]:%u", other_port.port);
  relayed = suanli_agent_client_new (through, agent.token, &error);
  g_assert_no_error (error);
  g_clear_pointer (&jobs, g_ptr_array_unref);
  jobs = list_jobs (relayed, &error);
  g_assert_null (jobs);
  g_test_message ("%s", error->message);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_PERMISSION_DENIED);
  reached = g_strdup_printf ("answered for 127.0.0.1:%u, but the workbench reached [::1]:%u", agent.port,
                             other_port.port);
  g_assert_nonnull (strstr (error->message, reached));
  g_clear_error (&error);
  suanli_agent_client_connect_async (relayed, "/v1/jobs/1/capture", NULL, got_result, &result);
  g_assert_true (run_until (is_set, &result));
  g_assert_null (suanli_agent_client_connect_finish (relayed, result, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_PERMISSION_DENIED);
  stop_stranger (&other_port);
  g_assert_nonnull (strstr (other_port.heard->str, "GET /v1/hello"));
  g_assert_null (strstr (other_port.heard->str, agent.token));
  g_assert_null (strstr (other_port.heard->str, "/v1/jobs"));

  free_stranger (&same_port);
  free_stranger (&other_port);
  suanli_test_stop_agent (&agent);
  suanli_test_stop_job (job);
}

/* Another user answers the hello with a 302 to the real agent (which then answers it): the
 * workbench follows no redirection, names the agent in its error, and sends the token nowhere. */
static void
test_hello_redirected (void)
{
  Agent agent = { 0 };
  Stranger stranger = { 0 };
  g_autoptr(SuanliAgentClient) client = NULL;
  g_autoptr(GPtrArray) jobs = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *address = NULL;

  if (!can_be_a_stranger ())
    return;
  suanli_test_start_agent (&agent, NULL);
  g_assert_true (start_stranger (&stranger, "redirect", "127.0.0.1", 0, "127.0.0.1", agent.port));
  address = g_strdup_printf ("127.0.0.1:%u", stranger.port);
  client = suanli_agent_client_new (address, agent.token, &error);
  g_assert_no_error (error);
  jobs = list_jobs (client, &error);
  stop_stranger (&stranger);
  g_assert_nonnull (strstr (stranger.heard->str, "GET /v1/hello"));
  g_assert_null (strstr (stranger.heard->str, agent.token));
  g_assert_null (strstr (stranger.heard->str, "/v1/jobs"));
  g_assert_null (jobs);
  g_test_message ("%s", error->message);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_PERMISSION_DENIED);
  g_assert_nonnull (strstr (error->message, address));
  g_assert_nonnull (strstr (error->message, "a redirection"));
  free_stranger (&stranger);
  suanli_test_stop_agent (&agent);
}

/* Another user holds [::1]:PORT before the agent starts on PORT: the agent will not listen on
 * 127.0.0.1:PORT alone, where localhost would find the stranger first; it says why and ends. */
static void
test_loopback_squatted (void)
{
  Stranger stranger = { 0 };
  g_autoptr(GSubprocessLauncher) launcher = g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDERR_PIPE |
                                                                       G_SUBPROCESS_FLAGS_STDOUT_SILENCE);
  g_autoptr(GSubprocess) agent = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GDataInputStream) errors = NULL;
  g_autofree char *option = NULL, *said = NULL, *named = NULL;
  gsize length = 0;

  if (!can_be_a_stranger ())
    return;
  if (!suanli_agent_has_ipv6_loopback ())
    {
      g_test_skip ("this machine has no IPv6 loopback (::1): no one can hold it, and the agent listens on "
                   "127.0.0.1 alone");
      return;
    }
  g_assert_true (start_stranger (&stranger, "relay", "::1", 0, "127.0.0.1", 9));
  option = g_strdup_printf ("--port=%u", stranger.port);
  g_subprocess_launcher_setenv (launcher, "LC_ALL", "C.UTF-8", TRUE);
  agent = g_subprocess_launcher_spawn (launcher, &error, g_getenv ("SUANLI_AGENT"), option, NULL);
  g_assert_no_error (error);
  suanli_test_await (has_exited, agent);
  g_assert_false (g_subprocess_get_successful (agent));
  errors = g_data_input_stream_new (g_subprocess_get_stderr_pipe (agent));
  said = g_data_input_stream_read_upto (errors, "", 0, &length, NULL, NULL);
  g_test_message ("%s", said);
  named = g_strdup_printf ("cannot listen on [::1]:%u", stranger.port);
  g_assert_nonnull (strstr (said, named));
  free_stranger (&stranger);
}

typedef enum
{
  ENDLESS_HELLO,     /* the hello's answer never ends */
  TRICKLING_HELLO,   /* the hello's answer comes a byte a second */
  ENDLESS_JOBS,      /* a good hello, then a list of jobs that never ends */
  OLD_HELLO,         /* the first protocol's hello, which binds no address */
} Answer;

#define ENDLESS_TOKEN "a-token-for-endless-answers-0123456789abcd"
#define ENDLESS_STOP (256u << 20)   /* bytes after which even the endless answer ends */

typedef struct
{
  GSocket *listener;
  Answer   answer;
  guint64  sent;        /* body bytes the last connection took */
  gboolean cut;         /* the client closed it before its end */
  gboolean stop;        /* the client is done: take no more connections */
  gboolean done;        /* set by the squatter's thread as it ends */
} Squatter;

/* The request line's target, and the challenge in it. */
static char *
read_request (GSocket *connection)
{
  char request[8192];
  gsize have = 0;

  request[0] = '\0';
  while (have < sizeof request - 1 && strstr (request, "\r\n\r\n") == NULL)
    {
      gssize got = g_socket_receive (connection, request + have, sizeof request - 1 - have, NULL, NULL);

      if (got <= 0)
        break;
      have += (gsize) got;
      request[have] = '\0';
    }
  return g_strndup (request, strcspn (request, "\r\n"));
}

/* A program squatting a remembered agent's port: it answers as Squatter.answer says, each
 * connection in turn, until the client cuts one short or all is sent. */
static gpointer
squat (gpointer data)
{
  Squatter *squatter = data;
  static const char head[] = "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nConnection: close\r\n\r\n";

  for (;;)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(GSocket) connection = g_socket_accept (squatter->listener, NULL, &error);
      g_autofree char *line = NULL;
      char chunk[65536];
      const char *challenge;

      if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_TIMED_OUT) && !g_atomic_int_get (&squatter->stop))
        continue;
      if (connection == NULL)
        break;
      g_socket_set_timeout (connection, 0);
      g_socket_set_blocking (connection, TRUE);
      line = read_request (connection);
      squatter->sent = 0;
      if (g_socket_send (connection, head, strlen (head), NULL, NULL) < 0)
        break;
      if ((challenge = strstr (line, "challenge=")) != NULL &&
          (squatter->answer == ENDLESS_JOBS || squatter->answer == OLD_HELLO))
        {
          g_autoptr(GSocketAddress) local = g_socket_get_local_address (connection, NULL);
          g_autofree char *address = suanli_agent_address_text (G_INET_SOCKET_ADDRESS (local));
          g_autofree char *wanted = g_strndup (challenge + strlen ("challenge="), SUANLI_AGENT_CHALLENGE_LENGTH);
          g_autofree char *proof = NULL, *body = NULL;

          if (squatter->answer == OLD_HELLO)
            {
              g_autoptr(GHmac) hmac = g_hmac_new (G_CHECKSUM_SHA256, (const guchar *) ENDLESS_TOKEN,
                                                  strlen (ENDLESS_TOKEN));

              g_hmac_update (hmac, (const guchar *) "suanli-agent-hello/1:", strlen ("suanli-agent-hello/1:"));
              g_hmac_update (hmac, (const guchar *) wanted, strlen (wanted));
              proof = g_strdup (g_hmac_get_string (hmac));
              body = g_strdup_printf ("{\"proof\": \"%s\"}", proof);
            }
          else
            {
              proof = suanli_agent_proof (ENDLESS_TOKEN, wanted, address);
              body = g_strdup_printf ("{\"proof\": \"%s\", \"address\": \"%s\"}", proof, address);
            }
          g_socket_send (connection, body, strlen (body), NULL, NULL);
          g_socket_close (connection, NULL);
          continue;
        }
      if (squatter->answer == OLD_HELLO)
        {
          g_socket_send (connection, "[]", 2, NULL, NULL);
          g_socket_close (connection, NULL);
          continue;
        }
      memset (chunk, ' ', sizeof chunk);
      chunk[0] = '[';
      while (squatter->sent < ENDLESS_STOP)
        {
          gsize size = squatter->answer == TRICKLING_HELLO ? 1 : sizeof chunk;
          gssize put = g_socket_send (connection, chunk, size, NULL, NULL);

          if (put <= 0)
            {
              squatter->cut = TRUE;
              break;
            }
          squatter->sent += (guint64) put;
          chunk[0] = ' ';
          if (squatter->answer == TRICKLING_HELLO)
            g_usleep (G_USEC_PER_SEC);
        }
      break;
    }
  g_atomic_int_set (&squatter->done, TRUE);
  return NULL;
}

/* Lists the jobs of a squatter answering as @answer; returns the error, and what it sent. */
static GError *
list_from_squatter (Answer    answer,
                    guint     seconds,
                    Squatter *squatter)
{
  g_autoptr(GInetAddress) loopback = g_inet_address_new_loopback (G_SOCKET_FAMILY_IPV4);
  g_autoptr(GSocketAddress) any_port = g_inet_socket_address_new (loopback, 0);
  g_autoptr(GSocketAddress) bound = NULL;
  g_autoptr(SuanliAgentClient) client = NULL;
  g_autoptr(GPtrArray) jobs = NULL;
  g_autofree char *address = NULL;
  GError *error = NULL;
  GThread *thread;

  squatter->answer = answer;
  squatter->listener = g_socket_new (G_SOCKET_FAMILY_IPV4, G_SOCKET_TYPE_STREAM, G_SOCKET_PROTOCOL_TCP, NULL);
  g_assert_true (g_socket_bind (squatter->listener, any_port, TRUE, NULL));
  g_assert_true (g_socket_listen (squatter->listener, NULL));
  g_socket_set_timeout (squatter->listener, 1);   /* to look at squatter->stop now and then */
  bound = g_socket_get_local_address (squatter->listener, NULL);
  address = g_strdup_printf ("127.0.0.1:%u", g_inet_socket_address_get_port (G_INET_SOCKET_ADDRESS (bound)));
  thread = g_thread_new ("squatter", squat, squatter);
  client = suanli_agent_client_new (address, ENDLESS_TOKEN, &error);
  g_assert_no_error (error);
  suanli_agent_client_set_timeout (client, seconds);
  jobs = list_jobs (client, &error);
  /* The client has let go: the squatter's last send fails, or it sent all it had. */
  g_atomic_int_set (&squatter->stop, TRUE);
  g_assert_true (run_until (is_true, &squatter->done));
  g_clear_object (&client);
  g_thread_join (thread);
  g_clear_object (&squatter->listener);
  g_test_message ("the squatter sent %" G_GUINT64_FORMAT " bytes of body%s", squatter->sent,
                  squatter->cut ? ", and then the client cut the connection" : "");
  if (error != NULL)
    g_test_message ("%s", error->message);
  return error;
}

/* A squatter's endless answer to the hello, and after a good hello an endless list of jobs: the
 * client stops reading at its limit, with an error naming the agent, and cuts the connection. */
static void
test_endless_answers (void)
{
  Squatter squatter = { 0 };
  g_autoptr(GError) hello_error = list_from_squatter (ENDLESS_HELLO, 30, &squatter);
  g_autoptr(GError) jobs_error = NULL;

  g_assert_nonnull (hello_error);
  g_assert_nonnull (strstr (hello_error->message, "more than 4096 bytes"));
  g_assert_true (squatter.cut);
  g_assert_cmpuint (squatter.sent, <, 64u << 20);

  memset (&squatter, 0, sizeof squatter);
  jobs_error = list_from_squatter (ENDLESS_JOBS, 30, &squatter);
  g_assert_nonnull (jobs_error);
  g_assert_nonnull (strstr (jobs_error->message, "more than 4194304 bytes"));
  g_assert_true (squatter.cut);
  g_assert_cmpuint (squatter.sent, <, 64u << 20);
}

/* An answer that comes a byte a second is never idle long enough for a per-read timeout: the
 * request's own deadline ends it, with an error saying so. */
static void
test_trickling_answer (void)
{
  Squatter squatter = { 0 };
  g_autoptr(GError) error = list_from_squatter (TRICKLING_HELLO, 2, &squatter);

  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_TIMED_OUT);
  g_assert_nonnull (strstr (error->message, "within 2 s"));
  g_assert_nonnull (strstr (error->message, "127.0.0.1:"));
  g_assert_true (squatter.cut);
}

/* An agent of the first protocol proves the token without binding an address: refused, with an
 * error that says to update it, rather than accepted. */
static void
test_old_hello (void)
{
  Squatter squatter = { 0 };
  g_autoptr(GError) error = list_from_squatter (OLD_HELLO, 30, &squatter);

  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_PERMISSION_DENIED);
  g_assert_nonnull (strstr (error->message, "update suanli-agent there"));
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
  Ending ending = { 0 };
  gint64 offset;
  GSList *uris;

  soup_server_add_handler (server, "/v1/hello", serve_no_jobs, (gpointer) ENDLESS_TOKEN, NULL);
  soup_server_add_websocket_handler (server, "/v1/jobs/1/capture", NULL, NULL, serve_clock_at_the_end, NULL, NULL);
  g_assert_true (soup_server_listen_local (server, 0, SOUP_SERVER_LISTEN_IPV4_ONLY, &error));
  uris = soup_server_get_uris (server);
  address = g_strdup_printf ("127.0.0.1:%d", g_uri_get_port (uris->data));
  g_slist_free_full (uris, (GDestroyNotify) g_uri_unref);
  client = suanli_agent_client_new (address, ENDLESS_TOKEN, &error);
  g_assert_no_error (error);
  job.agent = address;
  capture = suanli_remote_capture_new (client, trace, &job);
  start_capture (capture, &ending);
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
  int status;

  g_test_init (&argc, &argv, NULL);
  g_log_set_debug_enabled (FALSE);   /* libsoup's frame-by-frame debug would drown the log */
  runtime_dir = g_dir_make_tmp ("suanli-agent-XXXXXX", NULL);
  config_dir = g_build_filename (runtime_dir, "config", NULL);
  g_setenv ("XDG_RUNTIME_DIR", runtime_dir, TRUE);
  g_setenv ("XDG_CONFIG_HOME", config_dir, TRUE);
  g_setenv ("SUANLI_QUIET", "1", TRUE);
  g_test_add_func ("/agent/jobs", test_jobs);
  g_test_add_func ("/agent/two-ranks", test_two_ranks);
  g_test_add_func ("/agent/tokens", test_tokens);
  g_test_add_func ("/agent/impostor", test_impostor);
  g_test_add_func ("/agent/bad-messages", test_bad_messages);
  g_test_add_func ("/agent/mistyped-messages", test_mistyped_messages);
  g_test_add_func ("/agent/kept-alive-sockets", test_kept_alive_sockets);
  g_test_add_func ("/agent/token-fifo", test_token_fifo);
  g_test_add_func ("/agent/log-lines", test_log_lines);
  g_test_add_func ("/agent/slow-headers", test_slow_headers);
  g_test_add_func ("/agent/odd-command-line", test_odd_command_line);
  g_test_add_func ("/agent/client-sockets", test_client_sockets);
  g_test_add_func ("/agent/message-reader", test_message_reader);
  g_test_add_func ("/agent/slow-client", test_slow_client);
  g_test_add_func ("/agent/false-credit", test_false_credit);
  g_test_add_func ("/agent/agent-killed", test_agent_killed);
  g_test_add_func ("/agent/clock-offset", test_clock_offset);
  g_test_add_func ("/agent/tls", test_tls);
  g_test_add_func ("/agent/agent-list", test_agent_list);
  g_test_add_func ("/agent/fragmented-messages", test_fragmented_messages);
  g_test_add_func ("/agent/rate", test_rate);
  g_test_add_func ("/agent/idle-connection", test_idle_connection);
  g_test_add_func ("/agent/first-byte", test_first_byte);
  g_test_add_func ("/agent/stopped-job", test_stopped_job);
  g_test_add_func ("/agent/connection-limit", test_connection_limit);
  g_test_add_func ("/agent/socket-folder", test_socket_folder);
  g_test_add_func ("/agent/many-connections", test_many_connections);
  g_test_add_func ("/agent/hello-relayed", test_hello_relayed);
  g_test_add_func ("/agent/hello-redirected", test_hello_redirected);
  g_test_add_func ("/agent/loopback-squatted", test_loopback_squatted);
  g_test_add_func ("/agent/endless-answers", test_endless_answers);
  g_test_add_func ("/agent/trickling-answer", test_trickling_answer);
  g_test_add_func ("/agent/old-hello", test_old_hello);
  g_test_add_func ("/agent/clock-overflow", test_clock_overflow);
  g_test_add_func ("/agent/strangers", test_strangers);
  g_test_add_func ("/agent/control-flood", test_control_flood);
  g_test_add_func ("/agent/fallen-back-job", test_fallen_back_job);
  g_test_add_func ("/agent/tokenless-memory", test_tokenless_memory);
  status = g_test_run ();
  suanli_test_remove_tree (runtime_dir);
  return status;
}
