/* test-agent-attacks.c — suanli-agent and the workbench's client against the other users of a node
 *
 * Strangers on the agent's port, relays and redirections of the hello, squatters with endless or
 * trickling answers, floods of connections and control messages, and the agent's budgets of time,
 * sockets and memory (docs/remote-agent.md, "Threat model on a shared GPU node").
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

  return suanli_test_get (agent, "/v1/health", authorization, NULL) == 200;
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
  trickle.fd = suanli_test_connect_raw (&agent);
  suanli_test_await (trickled_out, &trickle);
  g_test_message ("closed after %u bytes of headers", trickle.sent);
  g_assert_true (suanli_test_agent_logs (&agent, "its headers did not come within 2 s"));
  close (trickle.fd);
  suanli_test_stop_agent (&agent);

  /* Forty requests begun from one address, none finished, none with the token yet, with no deadline
   * near: eight are too many, and the oldest eight go. */
  suanli_test_start_agent (&agent, crowd_options);
  for (guint i = 0; i < G_N_ELEMENTS (crowd.fds); i++)
    {
      crowd.fds[i] = suanli_test_connect_raw (&agent);
      g_assert_cmpint (send (crowd.fds[i], "G", 1, MSG_NOSIGNAL), ==, 1);
    }
  suanli_test_await (crowd_thinned, &crowd);
  g_assert_true (suanli_test_agent_logs (&agent, "more than 32 connections without the token at once: the oldest closed"));
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
  int fd = suanli_test_connect_raw (agent);
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

  soup_server_add_handler (server, "/v1/jobs", suanli_test_serve_no_jobs, NULL, NULL);
  soup_server_add_handler (server, "/v1/hello", suanli_test_serve_no_jobs, NULL, NULL);
  g_assert_true (soup_server_listen_local (server, 0, SOUP_SERVER_LISTEN_IPV4_ONLY, &error));
  g_assert_no_error (error);
  uris = soup_server_get_uris (server);
  address = g_strdup_printf ("127.0.0.1:%d", g_uri_get_port (uris->data));
  g_slist_free_full (uris, (GDestroyNotify) g_uri_unref);
  client = suanli_agent_client_new (address, SUANLI_TEST_KEPT_ALIVE_TOKEN, &error);
  g_assert_no_error (error);

  /* Before any listing: the server's listening socket. After 21, not one connection more. */
  own_count.at_most = count_sockets (own_pid);
  for (guint i = 0; i < 21; i++)
    g_ptr_array_unref (suanli_test_list_jobs (client, NULL));
  suanli_test_await (holds_few_sockets, &own_count);
  g_test_message ("this process holds %u sockets after 21 listings", count_sockets (own_pid));
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

  jobs = suanli_test_list_jobs (client, &error);
  g_assert_null (jobs);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_PERMISSION_DENIED);
  g_assert_nonnull (strstr (error->message, "did not prove that it knows the token"));
  g_clear_error (&error);
  suanli_agent_client_connect_async (client, "/v1/jobs/1/capture", NULL, suanli_test_got_result, &result);
  g_assert_true (suanli_test_loop_until (suanli_test_is_set, &result));
  g_assert_null (suanli_agent_client_connect_finish (client, result, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_PERMISSION_DENIED);

  g_test_message ("the impostor heard:\n%s", heard->str);
  g_assert_nonnull (strstr (heard->str, "GET /v1/hello"));
  g_assert_null (strstr (heard->str, token));
  g_assert_null (strstr (heard->str, "/v1/jobs"));
  g_string_free (heard, TRUE);
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
  SuanliTestRawClient raw = { 0 };

  g_setenv ("G_DEBUG", "fatal-criticals", TRUE);
  suanli_test_start_agent (&agent, NULL);
  g_unsetenv ("G_DEBUG");
  client = suanli_test_new_client (&agent, agent.token);
  authorization = g_strconcat ("Bearer ", agent.token, NULL);
  suanli_test_raw_connect (client, "/v1/jobs/1/capture", &raw);
  for (guint i = 0; i < 1000 && soup_websocket_connection_get_state (raw.connection) == SOUP_WEBSOCKET_STATE_OPEN; i++)
    soup_websocket_connection_send_text (raw.connection, "{\"type\": \"clock\", \"t0\": 1}");
  suanli_test_assert_closed_with (&raw, SOUP_WEBSOCKET_CLOSE_POLICY_VIOLATION);
  suanli_test_raw_clear (&raw);
  g_assert_cmpuint (suanli_test_get (&agent, "/v1/health", authorization, NULL), ==, 200);
  g_assert_null (strstr (agent.log->str, "CRITICAL"));
  suanli_test_stop_agent (&agent);
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
  SuanliTestRawClient first = { 0 }, second = { 0 }, third = { 0 };

  suanli_test_start_agent (&agent, options);
  client = suanli_test_new_client (&agent, agent.token);
  suanli_test_raw_connect (client, "/v1/jobs/1/capture", &first);
  suanli_test_raw_connect (client, "/v1/jobs/1/capture", &second);
  suanli_agent_client_connect_async (client, "/v1/jobs/1/capture", NULL, suanli_test_got_result, &result);
  g_assert_true (suanli_test_loop_until (suanli_test_is_set, &result));
  g_assert_null (suanli_agent_client_connect_finish (client, result, &error));
  g_assert_nonnull (error);
  g_assert_nonnull (strstr (error->message, "503"));

  soup_websocket_connection_close (first.connection, SOUP_WEBSOCKET_CLOSE_NORMAL, NULL);
  g_assert_true (suanli_test_loop_until (suanli_test_is_true, &first.closed));
  g_assert_true (suanli_test_agent_logs (&agent, "closed (code 1000)"));
  suanli_test_raw_connect (client, "/v1/jobs/1/capture", &third);
  g_assert_false (third.closed);
  suanli_test_raw_clear (&first);
  suanli_test_raw_clear (&second);
  suanli_test_raw_clear (&third);
  suanli_test_stop_agent (&agent);
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
    strangers_refused += suanli_test_get (&agent, "/v1/health", NULL, NULL) == 429;
  g_assert_cmpuint (strangers_refused, >, 0);
  g_assert_cmpuint (suanli_test_get (&agent, "/v1/health", authorization, NULL), ==, 200);
  for (guint i = 0; i < 40; i++)
    too_many += suanli_test_get (&agent, "/v1/health", authorization, NULL) == 429;
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
  silent = suanli_test_connect_raw (&agent);
  started = suanli_test_connect_raw (&agent);
  g_assert_cmpint (send (started, "G", 1, MSG_NOSIGNAL), ==, 1);
  suanli_test_await (closed_by_agent_fd, GINT_TO_POINTER (silent));
  g_assert_true (suanli_test_agent_logs (&agent, "nothing came within 1 s of connecting: closed"));
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
  g_assert_true (suanli_test_loop_until (owner_done, &owner));
  g_test_message ("%u of the token holder's %u requests answered; the strangers had %u answers and %u "
                  "connections closed", owner.answered, owner.wanted, suanli_test_crowd_asked (crowd),
                  suanli_test_crowd_reopened (crowd));
  suanli_test_crowd_stop (crowd);
  g_assert_cmpuint (owner.answered, ==, owner.wanted);
  g_assert_true (suanli_test_agent_logs (&agent, "more than 8 connections without the token at once"));
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
  client = suanli_test_new_client (&agent, agent.token);
  for (guint i = 0; i < 1000; i++)
    {
      SuanliTestRawClient raw = { 0 };

      suanli_test_raw_connect (client, "/v1/jobs/1/capture", &raw);
      if (i % 10 == 0)
        {
          soup_websocket_connection_send_text (raw.connection, "{\"type\": \"clock\", \"t0\": 1}");
          g_assert_true (suanli_test_loop_until (suanli_test_raw_has_text, &raw));
        }
      soup_websocket_connection_close (raw.connection, SOUP_WEBSOCKET_CLOSE_NORMAL, NULL);
      g_assert_true (suanli_test_loop_until (suanli_test_is_true, &raw.closed));
      suanli_test_raw_clear (&raw);
    }
  authorization = g_strconcat ("Bearer ", agent.token, NULL);
  g_assert_cmpuint (suanli_test_get (&agent, "/v1/health", authorization, NULL), ==, 200);
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
  jobs = suanli_test_list_jobs (client, &error);
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
  jobs = suanli_test_list_jobs (relayed, &error);
  g_assert_null (jobs);
  g_test_message ("%s", error->message);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_PERMISSION_DENIED);
  reached = g_strdup_printf ("answered for 127.0.0.1:%u, but the workbench reached [::1]:%u", agent.port,
                             other_port.port);
  g_assert_nonnull (strstr (error->message, reached));
  g_clear_error (&error);
  suanli_agent_client_connect_async (relayed, "/v1/jobs/1/capture", NULL, suanli_test_got_result, &result);
  g_assert_true (suanli_test_loop_until (suanli_test_is_set, &result));
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
  jobs = suanli_test_list_jobs (client, &error);
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
  g_autofree char *option = NULL, *said = NULL, *named = NULL;

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
  said = suanli_test_agent_refusal (agent);
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
  jobs = suanli_test_list_jobs (client, &error);
  /* The client has let go: the squatter's last send fails, or it sent all it had. */
  g_atomic_int_set (&squatter->stop, TRUE);
  g_assert_true (suanli_test_loop_until (suanli_test_is_true, &squatter->done));
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

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  suanli_test_agent_setup ();
  g_test_add_func ("/agent/impostor", test_impostor);
  g_test_add_func ("/agent/kept-alive-sockets", test_kept_alive_sockets);
  g_test_add_func ("/agent/slow-headers", test_slow_headers);
  g_test_add_func ("/agent/client-sockets", test_client_sockets);
  g_test_add_func ("/agent/rate", test_rate);
  g_test_add_func ("/agent/idle-connection", test_idle_connection);
  g_test_add_func ("/agent/first-byte", test_first_byte);
  g_test_add_func ("/agent/connection-limit", test_connection_limit);
  g_test_add_func ("/agent/many-connections", test_many_connections);
  g_test_add_func ("/agent/hello-relayed", test_hello_relayed);
  g_test_add_func ("/agent/hello-redirected", test_hello_redirected);
  g_test_add_func ("/agent/loopback-squatted", test_loopback_squatted);
  g_test_add_func ("/agent/endless-answers", test_endless_answers);
  g_test_add_func ("/agent/trickling-answer", test_trickling_answer);
  g_test_add_func ("/agent/old-hello", test_old_hello);
  g_test_add_func ("/agent/strangers", test_strangers);
  g_test_add_func ("/agent/control-flood", test_control_flood);
  g_test_add_func ("/agent/tokenless-memory", test_tokenless_memory);
  return suanli_test_agent_run ();
}
