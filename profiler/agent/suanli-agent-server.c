/* suanli-agent-server.c — suanli-agent's HTTP and WebSocket server
 *
 * Every request passes the early handler first, before any body is read or any WebSocket is
 * accepted: a client over its rate gets 429, one without the token 401 (but for /v1/hello, where a
 * workbench makes the agent prove that it knows the token before sending it) (libsoup 3.2 has no bearer
 * auth domain), and a capture past the connection limit 503. Asking the jobs for their STATUS can
 * wait on a stopped job, so /v1/jobs does it on a worker with the message paused. One log line per
 * request, and per capture connection when it closes; never the token.
 *
 * Before that, from the moment a connection is accepted (libsoup 3.2 starts its first request then):
 * its first byte must come within first_byte_timeout seconds and all its headers within
 * header_timeout (a client sending a byte every few seconds is never idle, yet never done).
 * Connections count per address in two budgets: until its headers show the token a connection is a
 * stranger's, and one address may have max_strangers of those, the oldest closed for a newcomer
 * (a token holder sends its headers at once, so it is never the oldest for long; closing newcomers
 * instead would let strangers on the same address, every local user and SSH tunnel being
 * 127.0.0.1, keep the token holder out for good); with the token, max_per_address requests.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>
#include <unistd.h>
#include <netinet/in.h>
#include <linux/tcp.h>
#include <json-glib/json-glib.h>

#include "suanli-agent-proof.h"
#include "suanli-agent-protocol.h"
#include "suanli-agent-relay.h"
#include "suanli-agent-server.h"
#include "suanli-frame-guard.h"
#include "suanli-live-job.h"

#define CAPTURE_PREFIX "/v1/jobs/"

typedef struct
{
  double tokens;
  gint64 refilled;   /* monotonic µs */
} Bucket;

struct _SuanliAgentServer
{
  GObject     parent_instance;

  SoupServer *server;
  char       *token;
  char       *socket_folder;
  guint       max_connections;
  guint       rate;
  guint       queue_limit;
  gint64      clock_shift_ns;
  guint       connections;    /* capture WebSockets open */
  guint       idle_timeout;   /* seconds a connection may say nothing */
  guint       header_timeout; /* seconds a request may take to send its headers */
  guint       first_byte_timeout;  /* seconds a new connection may take to send its first byte */
  guint       max_per_address;     /* requests with the token open at once per address */
  guint       max_strangers;       /* connections without the token (yet) open at once per address */
  GHashTable *loads;          /* client address → AddressLoad */
  GHashTable *buckets;        /* client address → Bucket, for requests with the token */
  GHashTable *strangers;      /* client address → Bucket, for requests without it */
};

G_DEFINE_FINAL_TYPE (SuanliAgentServer, suanli_agent_server, G_TYPE_OBJECT)

static void
suanli_agent_server_finalize (GObject *object)
{
  SuanliAgentServer *self = SUANLI_AGENT_SERVER (object);

  if (self->server != NULL)
    soup_server_disconnect (self->server);
  g_clear_object (&self->server);
  g_free (self->token);
  g_free (self->socket_folder);
  g_hash_table_unref (self->buckets);
  g_hash_table_unref (self->strangers);
  g_hash_table_unref (self->loads);
  G_OBJECT_CLASS (suanli_agent_server_parent_class)->finalize (object);
}

static void
suanli_agent_server_class_init (SuanliAgentServerClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = suanli_agent_server_finalize;
}

static void
suanli_agent_server_init (SuanliAgentServer *self)
{
  self->buckets = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  self->strangers = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  self->loads = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
}

/* ---- admission ------------------------------------------------------------------------------ */

/* A token bucket per client address in @buckets: @rate a second, bursts of twice that. Those
 * with the token and those without have buckets apart, so that strangers knocking from the same
 * address (loopback, an SSH tunnel) cannot use up the token holder's. */
static gboolean
rate_allows (SuanliAgentServer *self,
             GHashTable        *buckets,
             const char        *peer)
{
  gint64 now = g_get_monotonic_time ();
  Bucket *bucket = g_hash_table_lookup (buckets, peer);

  if (self->rate == 0)
    return TRUE;
  if (bucket == NULL)
    {
      /* One bucket per address that ever asked; a full table forgets them all rather than grow. */
      if (g_hash_table_size (buckets) > 4096)
        g_hash_table_remove_all (buckets);
      bucket = g_new0 (Bucket, 1);
      bucket->tokens = 2.0 * self->rate;
      bucket->refilled = now;
      g_hash_table_insert (buckets, g_strdup (peer), bucket);
    }
  bucket->tokens = MIN (2.0 * self->rate, bucket->tokens + (double) (now - bucket->refilled) * self->rate / G_USEC_PER_SEC);
  bucket->refilled = now;
  if (bucket->tokens < 1.0)
    return FALSE;
  bucket->tokens -= 1.0;
  return TRUE;
}

/* Compares the whole of both, so that the time taken says nothing about where they differ. */
static gboolean
same_secret (const char *given,
             const char *expected)
{
  gsize given_length = strlen (given), expected_length = strlen (expected);
  guint8 difference = given_length != expected_length;

  for (gsize i = 0; i < expected_length; i++)
    difference |= (guint8) (expected[i] ^ given[i < given_length ? i : 0]);
  return difference == 0;
}

static gboolean
authorized (SuanliAgentServer *self,
            SoupServerMessage *message)
{
  const char *header = soup_message_headers_get_one (soup_server_message_get_request_headers (message),
                                                     "Authorization");

  return header != NULL && g_ascii_strncasecmp (header, "Bearer ", 7) == 0 && same_secret (header + 7, self->token);
}

static gboolean
is_capture_path (const char *path,
                 int        *pid)
{
  const char *rest;
  char *end = NULL;
  guint64 number;

  if (!g_str_has_prefix (path, CAPTURE_PREFIX))
    return FALSE;
  rest = path + strlen (CAPTURE_PREFIX);
  if (!g_ascii_isdigit (*rest))
    return FALSE;
  number = g_ascii_strtoull (rest, &end, 10);
  if (number == 0 || number > G_MAXINT || !g_str_equal (end, "/capture"))
    return FALSE;
  *pid = (int) number;
  return TRUE;
}

static void
refuse (SoupServerMessage *message,
        guint              status,
        const char        *why)
{
  g_autofree char *body = g_strdup_printf ("{\"error\": \"%s\"}\n", why);

  soup_server_message_set_status (message, status, NULL);
  soup_server_message_set_response (message, "application/json", SOUP_MEMORY_COPY, body, strlen (body));
}

static void
admit (SoupServer        *server,
       SoupServerMessage *message,
       const char        *path,
       GHashTable        *query,
       gpointer           data)
{
  SuanliAgentServer *self = data;
  const char *peer = soup_server_message_get_remote_host (message);
  gboolean has_token = authorized (self, message);
  int pid;

  /* The hello is asked without the token by the token holder too, before each request with it: strangers
   * spending their allowance must not keep it out. It costs one HMAC; what bounds a flood of
   * them is the strangers' connection budget. */
  if (!g_str_equal (path, "/v1/hello") &&
      !rate_allows (self, has_token ? self->buckets : self->strangers, peer != NULL ? peer : ""))
    refuse (message, 429 /* Too Many Requests: not in libsoup 3.2's names */, "too many requests");
  else if (g_str_equal (path, "/v1/hello"))
    ;   /* asked before the token is sent, to prove this agent knows it (suanli-agent-proof.c) */
  else if (!has_token)
    {
      soup_message_headers_replace (soup_server_message_get_response_headers (message), "WWW-Authenticate",
                                    "Bearer realm=\"suanli-agent\"");
      refuse (message, SOUP_STATUS_UNAUTHORIZED, "a valid token is needed");
    }
  else if (is_capture_path (path, &pid) && self->connections >= self->max_connections)
    refuse (message, SOUP_STATUS_SERVICE_UNAVAILABLE, "too many captures at once");
}

/* ---- HTTP ----------------------------------------------------------------------------------- */

static void
reply_json (SoupServerMessage *message,
            char              *text)
{
  soup_server_message_set_status (message, SOUP_STATUS_OK, NULL);
  soup_server_message_set_response (message, "application/json", SOUP_MEMORY_TAKE, text, strlen (text));
}

static void
list_jobs (GTask        *task,
           gpointer      source,
           gpointer      data,
           GCancellable *cancellable)
{
  SuanliAgentServer *self = source;
  g_autoptr(GPtrArray) jobs = suanli_live_list_jobs_in (self->socket_folder);

  g_task_return_pointer (task, suanli_live_jobs_to_json (jobs), g_free);
}

static void
listed_jobs (GObject      *source,
             GAsyncResult *result,
             gpointer      data)
{
  SoupServerMessage *message = data;

  reply_json (message, g_task_propagate_pointer (G_TASK (result), NULL));
  soup_server_message_unpause (message);
  g_object_unref (message);
}

static void
serve (SoupServer        *server,
       SoupServerMessage *message,
       const char        *path,
       GHashTable        *query,
       gpointer           data)
{
  SuanliAgentServer *self = data;
  const char *method = soup_server_message_get_method (message);

  if (!g_str_equal (path, "/v1/health") && !g_str_equal (path, "/v1/jobs") && !g_str_equal (path, "/v1/hello"))
    refuse (message, SOUP_STATUS_NOT_FOUND, "no such resource");
  else if (!g_str_equal (method, SOUP_METHOD_GET))
    {
      soup_message_headers_replace (soup_server_message_get_response_headers (message), "Allow", "GET");
      refuse (message, SOUP_STATUS_METHOD_NOT_ALLOWED, "only GET");
    }
  else if (g_str_equal (path, "/v1/hello"))
    {
      const char *challenge = query != NULL ? g_hash_table_lookup (query, "challenge") : NULL;

      GSocketAddress *reached = soup_server_message_get_local_address (message);

      if (!suanli_agent_challenge_check (challenge))
        refuse (message, SOUP_STATUS_BAD_REQUEST, "a challenge is 64 lowercase hexadecimal digits");
      else if (!G_IS_INET_SOCKET_ADDRESS (reached))
        refuse (message, SOUP_STATUS_INTERNAL_SERVER_ERROR, "no address to answer for");
      else
        {
          /* The answer binds this side of the connection: one relayed from another address is
           * worthless to the workbench (suanli-agent-proof.c). */
          g_autofree char *address = suanli_agent_address_text (G_INET_SOCKET_ADDRESS (reached));
          g_autofree char *proof = suanli_agent_proof (self->token, challenge, address);

          reply_json (message, g_strdup_printf ("{\"proof\": \"%s\", \"address\": \"%s\"}\n", proof, address));
        }
    }
  else if (g_str_equal (path, "/v1/jobs"))
    {
      g_autoptr(GTask) task = g_task_new (self, NULL, listed_jobs, g_object_ref (message));

      soup_server_message_pause (message);
      g_task_run_in_thread (task, list_jobs);
    }
  else
    {
      char host[256] = "";
      g_autofree char *escaped = NULL;

      gethostname (host, sizeof host - 1);
      escaped = g_strescape (host, NULL);
      reply_json (message, g_strdup_printf ("{\"status\": \"ok\", \"version\": \"%s\", \"host\": \"%s\"}\n",
                                            PACKAGE_VERSION, escaped));
    }
}

static void
log_request (SoupServer        *server,
             SoupServerMessage *message,
             gpointer           data)
{
  GUri *uri = soup_server_message_get_uri (message);   /* NULL for a request line it could not read */
  const char *method = soup_server_message_get_method (message);
  /* What the client sent is escaped: a newline in its path ("%0A") would forge a line of the log. */
  g_autofree char *escaped_method = g_strescape (method != NULL ? method : "?", NULL);
  g_autofree char *escaped_path = g_strescape (uri != NULL ? g_uri_get_path (uri) : "?", NULL);

  g_message ("%s %s %s → %u", soup_server_message_get_remote_host (message), escaped_method, escaped_path,
             soup_server_message_get_status (message));
}

/* One address's connections: token holders' requests, and strangers' connections oldest first. */
typedef struct
{
  guint  holders;
  GQueue strangers;   /* of OpenRequest */
} AddressLoad;

/* One request from its connection's accepting until it is done: its place in its address's load,
 * its deadlines. */
typedef struct
{
  SuanliAgentServer *server;
  SoupServerMessage *message;     /* weak: NULL once finalized */
  char              *address;
  GList             *stranger;    /* its link in the load's strangers, until it shows the token or is closed */
  gboolean           holder;      /* counted in the load's holders */
  guint              first_byte;  /* the first byte's deadline source, 0 once past */
  guint              deadline;    /* the header deadline's source, 0 once the headers came */
} OpenRequest;

static AddressLoad *
address_load (SuanliAgentServer *self,
              const char        *address)
{
  AddressLoad *load = g_hash_table_lookup (self->loads, address);

  if (load == NULL)
    {
      load = g_new0 (AddressLoad, 1);
      g_queue_init (&load->strangers);
      g_hash_table_insert (self->loads, g_strdup (address), load);
    }
  return load;
}

/* Takes @request out of its address's load; the load goes once nothing is left in it. */
static void
unload (OpenRequest *request)
{
  AddressLoad *load;

  if (request->stranger == NULL && !request->holder)
    return;
  load = g_hash_table_lookup (request->server->loads, request->address);
  if (request->stranger != NULL)
    g_queue_delete_link (&load->strangers, g_steal_pointer (&request->stranger));
  if (request->holder)
    load->holders--;
  request->holder = FALSE;
  if (load->holders == 0 && g_queue_is_empty (&load->strangers))
    g_hash_table_remove (request->server->loads, request->address);
}

static void
close_connection (SoupServerMessage *message)
{
  GSocket *socket = soup_server_message_get_socket (message);

  if (socket != NULL)
    g_socket_shutdown (socket, TRUE, TRUE, NULL);
}

/* Closes @request's connection; it no longer counts, though its message lives a moment longer. */
static void
close_request (OpenRequest *request)
{
  unload (request);
  g_clear_handle_id (&request->first_byte, g_source_remove);
  g_clear_handle_id (&request->deadline, g_source_remove);
  close_connection (request->message);
}

static void
open_request_free (gpointer data)
{
  OpenRequest *request = data;

  unload (request);
  g_clear_handle_id (&request->first_byte, g_source_remove);
  g_clear_handle_id (&request->deadline, g_source_remove);
  g_object_unref (request->server);
  g_free (request->address);
  g_free (request);
}

/* The message is finalized: its request is no longer open. */
static void
request_gone (gpointer  data,
              GObject  *message)
{
  open_request_free (data);
}

/* Whether the peer has sent anything on @socket, as the kernel counts it (a TLS handshake too);
 * TRUE when it cannot tell, leaving the connection to the header deadline. */
static gboolean
has_received (GSocket *socket)
{
  struct tcp_info info = { 0 };
  socklen_t size = sizeof info;

  if (getsockopt (g_socket_get_fd (socket), IPPROTO_TCP, TCP_INFO, &info, &size) != 0 ||
      size < G_STRUCT_OFFSET (struct tcp_info, tcpi_bytes_received) + sizeof info.tcpi_bytes_received)
    return TRUE;
  return info.tcpi_bytes_received > 0;
}

static gboolean
first_byte_too_slow (gpointer data)
{
  OpenRequest *request = data;
  GSocket *socket = soup_server_message_get_socket (request->message);

  request->first_byte = 0;
  if (socket != NULL && !has_received (socket))
    {
      g_message ("%s: nothing came within %u s of connecting: closed", request->address,
                 request->server->first_byte_timeout);
      close_request (request);
    }
  return G_SOURCE_REMOVE;
}

static gboolean
headers_too_slow (gpointer data)
{
  OpenRequest *request = data;

  request->deadline = 0;
  g_message ("%s: its headers did not come within %u s: closed", request->address, request->server->header_timeout);
  close_request (request);
  return G_SOURCE_REMOVE;
}

/* The headers are in: with the token, the request leaves the strangers for the holders' budget. */
static void
headers_came (SoupServerMessage *message,
              gpointer           data)
{
  OpenRequest *request = data;
  SuanliAgentServer *self = request->server;
  AddressLoad *load;

  g_clear_handle_id (&request->first_byte, g_source_remove);
  g_clear_handle_id (&request->deadline, g_source_remove);
  if (request->stranger == NULL || !authorized (self, message))
    return;
  load = g_hash_table_lookup (self->loads, request->address);
  g_queue_delete_link (&load->strangers, g_steal_pointer (&request->stranger));
  request->holder = TRUE;
  if (++load->holders > self->max_per_address)
    {
      g_message ("%s: more than %u requests with the token open at once: closed", request->address,
                 self->max_per_address);
      close_request (request);
    }
}

/* libsoup 3.1.2 to 3.3 keep a reference to each socket they accept that nothing ever drops (in
 * SoupListener's listen_watch(); fixed in 3.4.0): the GSocket, about 340 bytes, outlives its
 * connection. Dropped here, once per socket, as the connection's first request starts, while the
 * connection holds a reference of its own. */
static void
release_listener_reference (GSocket *socket)
{
  static GQuark released;

  if (!soup_check_version (3, 1, 2) || soup_check_version (3, 4, 0))
    return;
  if (released == 0)
    released = g_quark_from_static_string ("suanli-listener-reference-released");
  if (g_object_get_qdata (G_OBJECT (socket), released) != NULL)
    return;
  g_object_set_qdata (G_OBJECT (socket), released, GINT_TO_POINTER (TRUE));
  g_object_unref (socket);
}

/* Every connection is dropped after idle_timeout seconds without a byte: half-sent requests and
 * silent sockets do not hold file descriptors for ever. (Workbenches keep their capture
 * connections alive with pings.) And every answer but a WebSocket's 101 closes its connection:
 * libsoup 3.2 never notices that a client has closed a kept-alive connection, which then stays in
 * CLOSE_WAIT for good, one descriptor each, token or no token (fixed in 3.3). The handshake
 * replaces "Connection: close" with "Upgrade". So each connection has one request, begun (in
 * libsoup 3.2) as the connection is accepted: a stranger's until its headers show the token. */
static void
limit_idleness (SoupServer        *server,
                SoupServerMessage *message,
                gpointer           data)
{
  SuanliAgentServer *self = data;
  GSocket *socket = soup_server_message_get_socket (message);
  const char *address = soup_server_message_get_remote_host (message);
  OpenRequest *request = g_new0 (OpenRequest, 1);
  AddressLoad *load;

  if (socket != NULL)
    {
      release_listener_reference (socket);
      g_socket_set_timeout (socket, self->idle_timeout);
    }
  soup_message_headers_replace (soup_server_message_get_response_headers (message), "Connection", "close");

  request->server = g_object_ref (self);
  request->message = message;
  request->address = g_strdup (address != NULL ? address : "");
  g_object_weak_ref (G_OBJECT (message), request_gone, request);
  load = address_load (self, request->address);
  g_queue_push_tail (&load->strangers, request);
  request->stranger = g_queue_peek_tail_link (&load->strangers);
  if (g_queue_get_length (&load->strangers) > self->max_strangers)
    {
      OpenRequest *oldest = g_queue_peek_head (&load->strangers);

      g_message ("%s: more than %u connections without the token at once: the oldest closed", request->address,
                 self->max_strangers);
      close_request (oldest);
    }
  request->first_byte = g_timeout_add_seconds (self->first_byte_timeout, first_byte_too_slow, request);
  request->deadline = g_timeout_add_seconds (self->header_timeout, headers_too_slow, request);
  g_signal_connect (message, "got-headers", G_CALLBACK (headers_came), request);
}

/* ---- captures ------------------------------------------------------------------------------- */

static void
capture_closed (SoupWebsocketConnection *connection,
                gpointer                 data)
{
  SuanliAgentServer *self = data;

  self->connections--;
  g_object_unref (self);
}

static void
unref_stream (gpointer  data,
              GClosure *closure)
{
  g_object_unref (data);
}

static void
capture_closed_stream (SoupWebsocketConnection *connection,
                       gpointer                 data)
{
  g_io_stream_close (data, NULL, NULL);   /* the socket (or TLS) connection under the guard */
}

/* After the 101 went out: the connection is the WebSocket's, read through a frame guard. */
static void
upgraded (SoupServerMessage *message,
          gpointer           data)
{
  SuanliAgentServer *self = data;
  GUri *uri = soup_server_message_get_uri (message);
  g_autoptr(GIOStream) stream = NULL;
  g_autoptr(GInputStream) guarded = NULL;
  g_autoptr(GIOStream) wrapped = NULL;
  g_autoptr(SoupWebsocketConnection) connection = NULL;
  int pid = 0;

  g_signal_handlers_disconnect_by_func (message, upgraded, data);
  is_capture_path (g_uri_get_path (uri), &pid);
  stream = soup_server_message_steal_connection (message);
  guarded = suanli_frame_guard_new (g_io_stream_get_input_stream (stream), SUANLI_AGENT_MAX_CONTROL);
  wrapped = g_simple_io_stream_new (guarded, g_io_stream_get_output_stream (stream));
  connection = soup_websocket_connection_new (wrapped, uri, SOUP_WEBSOCKET_CONNECTION_SERVER, NULL, NULL, NULL);
  g_signal_connect_data (connection, "closed", G_CALLBACK (capture_closed_stream), g_object_ref (stream),
                         unref_stream, 0);
  self->connections++;
  g_signal_connect (connection, "closed", G_CALLBACK (capture_closed), g_object_ref (self));
  suanli_agent_relay_new (connection, pid, self->socket_folder, soup_server_message_get_remote_host (message),
                          self->clock_shift_ns, self->queue_limit);
}

/* The capture WebSocket's handshake, done here rather than by libsoup's WebSocket handler so that
 * the connection can be read through a frame guard (see suanli-frame-guard.c). */
static void
serve_capture (SoupServer        *server,
               SoupServerMessage *message,
               const char        *path,
               GHashTable        *query,
               gpointer           data)
{
  int pid;

  if (!is_capture_path (path, &pid))
    {
      refuse (message, SOUP_STATUS_NOT_FOUND, "no such resource");
      return;
    }
  /* Sets the 101 and its headers, or an error status when this is no WebSocket handshake. */
  if (soup_websocket_server_process_handshake (message, NULL, NULL, NULL, NULL))
    g_signal_connect_object (message, "wrote-informational", G_CALLBACK (upgraded), data, 0);
}

/* ---- the server ----------------------------------------------------------------------------- */

static gboolean
is_loopback (GInetAddress *address)
{
  return g_inet_address_get_is_loopback (address);
}

/* 127.0.0.1 or ::1: the addresses "localhost" names. */
static gboolean
is_localhost (GInetAddress *address)
{
  g_autofree char *text = g_inet_address_to_string (address);

  return g_str_equal (text, "127.0.0.1") || g_str_equal (text, "::1");
}

static gboolean
listen_at (SuanliAgentServer       *self,
           const char              *ip,
           guint                    port,
           SoupServerListenOptions  flags,
           GError                 **error)
{
  g_autoptr(GInetAddress) address = g_inet_address_new_from_string (ip);
  g_autoptr(GSocketAddress) socket_address = g_inet_socket_address_new (address, (guint16) port);

  return soup_server_listen (self->server, socket_address, flags, error);
}

/* The port of the (first) socket listening. */
static guint
listening_port (SuanliAgentServer *self)
{
  GSList *listeners = soup_server_get_listeners (self->server);
  g_autoptr(GSocketAddress) local = listeners != NULL ? g_socket_get_local_address (listeners->data, NULL) : NULL;

  g_slist_free (listeners);
  return local != NULL ? g_inet_socket_address_get_port (G_INET_SOCKET_ADDRESS (local)) : 0;
}

/* GLib resolves "localhost" to ::1 first, then 127.0.0.1: an agent listening on one of them alone
 * leaves the other to another user, who is found first and can relay the hello. So the agent on
 * loopback listens on both, on the same port, or does not start; 127.0.0.1 alone only where this
 * machine has no IPv6 loopback, which no one can listen on either. With port 0, a port free on
 * both is looked for. */
static gboolean
listen_on_loopback (SuanliAgentServer       *self,
                    guint                    port,
                    SoupServerListenOptions  flags,
                    GError                 **error)
{
  if (!suanli_agent_has_ipv6_loopback ())
    {
      g_message ("this machine has no IPv6 loopback (::1): listening on 127.0.0.1 alone, "
                 "where no one else can listen on ::1 either");
      return listen_at (self, "127.0.0.1", port, flags, error);
    }
  for (guint attempt = 0; attempt < 32; attempt++)
    {
      g_autoptr(GError) failure = NULL;
      guint bound;

      if (!listen_at (self, "127.0.0.1", port, flags, error))
        return FALSE;
      bound = listening_port (self);
      if (listen_at (self, "::1", bound, flags, &failure))
        return TRUE;
      soup_server_disconnect (self->server);
      if (port != 0 || !g_error_matches (failure, G_IO_ERROR, G_IO_ERROR_ADDRESS_IN_USE))
        {
          g_set_error (error, G_IO_ERROR, g_error_matches (failure, G_IO_ERROR, G_IO_ERROR_ADDRESS_IN_USE)
                                            ? G_IO_ERROR_ADDRESS_IN_USE : G_IO_ERROR_FAILED,
                       "cannot listen on [::1]:%u (%s): on 127.0.0.1:%u alone, whoever listens on [::1]:%u would be "
                       "found first as localhost", bound, failure->message, bound, bound);
          return FALSE;
        }
    }
  g_set_error (error, G_IO_ERROR, G_IO_ERROR_ADDRESS_IN_USE, "found no port free on both 127.0.0.1 and ::1");
  return FALSE;
}

/**
 * suanli_agent_server_new:
 *
 * Returns: (transfer full) (nullable): a server listening as @options say, or NULL with @error:
 * an address off loopback without a certificate is refused, since the token would travel bare.
 */
SuanliAgentServer *
suanli_agent_server_new (const SuanliAgentOptions *options,
                         GError                  **error)
{
  g_autoptr(SuanliAgentServer) self = g_object_new (SUANLI_TYPE_AGENT_SERVER, NULL);
  g_autoptr(GInetAddress) address = g_inet_address_new_from_string (options->address);
  g_autoptr(GSocketAddress) socket_address = NULL;
  SoupServerListenOptions flags = options->certificate != NULL ? SOUP_SERVER_LISTEN_HTTPS : 0;

  if (address == NULL)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT, "“%s” is not an IP address", options->address);
      return NULL;
    }
  if (!is_loopback (address) && options->certificate == NULL)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED,
                   "listening on %s, off loopback, needs TLS: give --tls-certificate and --tls-key",
                   options->address);
      return NULL;
    }
  self->token = g_strdup (options->token);
  self->socket_folder = g_strdup (options->socket_folder);
  self->max_connections = options->max_connections;
  self->rate = options->rate;
  self->queue_limit = options->queue_limit;
  self->clock_shift_ns = options->clock_shift_ns;
  self->idle_timeout = options->idle_timeout > 0 ? options->idle_timeout : 60;
  self->header_timeout = options->header_timeout > 0 ? options->header_timeout : 10;
  self->max_per_address = options->max_per_address > 0 ? options->max_per_address : 32;
  self->first_byte_timeout = options->first_byte_timeout > 0 ? options->first_byte_timeout : 3;
  self->max_strangers = options->max_strangers > 0 ? options->max_strangers : 8;
  self->server = soup_server_new ("server-header", "suanli-agent/" PACKAGE_VERSION " ",
                                  "tls-certificate", options->certificate, NULL);
  /* Handlers go by the longest matching path: the capture path needs its own early handler. */
  soup_server_add_early_handler (self->server, NULL, admit, self, NULL);
  soup_server_add_early_handler (self->server, CAPTURE_PREFIX, admit, self, NULL);
  soup_server_add_handler (self->server, NULL, serve, self, NULL);
  soup_server_add_handler (self->server, CAPTURE_PREFIX, serve_capture, self, NULL);
  g_signal_connect (self->server, "request-finished", G_CALLBACK (log_request), self);
  g_signal_connect (self->server, "request-started", G_CALLBACK (limit_idleness), self);

  if (is_localhost (address))
    {
      if (!listen_on_loopback (self, options->port, flags, error))
        return NULL;
    }
  else
    {
      socket_address = g_inet_socket_address_new (address, (guint16) options->port);
      if (!soup_server_listen (self->server, socket_address, flags, error))
        return NULL;
    }
  return g_steal_pointer (&self);
}

/* Returns: (transfer full): where the server listens, as URLs parted by ", "
 * ("http://127.0.0.1:7811/, http://[::1]:7811/"). */
char *
suanli_agent_server_get_url (SuanliAgentServer *self)
{
  GSList *uris = soup_server_get_uris (self->server);
  GString *text = g_string_new (NULL);

  for (GSList *uri = uris; uri != NULL; uri = uri->next)
    {
      g_autofree char *one = g_uri_to_string (uri->data);

      g_string_append_printf (text, "%s%s", text->len > 0 ? ", " : "", one);
    }
  g_slist_free_full (uris, (GDestroyNotify) g_uri_unref);
  return g_string_free (text, FALSE);
}
