/* suanli-agent-client.c — a workbench's connection to one suanli-agent
 *
 * An address is "host", "host:port" or a URL. Without a scheme, loopback is plain HTTP and
 * anything else HTTPS: the agent refuses plain HTTP off loopback, and the token must not travel
 * bare. A certificate the system does not trust (an agent's self-signed one) is accepted only when
 * it is the one pinned for this agent. The token goes in every request's Authorization header and
 * nowhere else, and only after the agent has answered a fresh challenge with it (the hello, in
 * suanli-agent-proof.c): something else listening at the agent's address learns nothing.
 *
 * On loopback the host is resolved once, and every request goes to that one socket address, the
 * one the agent's answer must name: "localhost" is ::1 first and 127.0.0.1 then, and another user
 * listening on the one the agent is not could relay the hello to it. No redirection is followed
 * (a 3xx is an error): the token goes only where the proof came from. Each answer's body is read
 * within a size and the whole request within a deadline (suanli-bounded-request.c): a program
 * squatting a remembered agent's port cannot hold the workbench with an endless answer.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>
#include <json-glib/json-glib.h>

#include "suanli-agent-client.h"
#include "suanli-agent-proof.h"
#include "suanli-agent-protocol.h"
#include "suanli-bounded-request.h"
#include "suanli-json-depth.h"

#define MAX_JOBS_REPLY (4u << 20)
#define MAX_HELLO_REPLY 4096
#define REQUEST_SECONDS 30

struct _SuanliAgentClient
{
  GObject          parent_instance;

  SoupSession     *session;
  GUri            *base;        /* scheme, host and port */
  char            *address;     /* as the user wrote it */
  char            *token;
  GTlsCertificate *pinned;
  char            *reached;     /* plain HTTP: the one socket address connected to, "[::1]:7811" */
  guint            seconds;     /* each request's deadline */
};

G_DEFINE_FINAL_TYPE (SuanliAgentClient, suanli_agent_client, G_TYPE_OBJECT)

static void
suanli_agent_client_finalize (GObject *object)
{
  SuanliAgentClient *self = SUANLI_AGENT_CLIENT (object);

  g_clear_object (&self->session);
  g_clear_pointer (&self->base, g_uri_unref);
  g_free (self->address);
  g_free (self->reached);
  if (self->token != NULL)
    memset (self->token, 0, strlen (self->token));
  g_free (self->token);
  g_clear_object (&self->pinned);
  G_OBJECT_CLASS (suanli_agent_client_parent_class)->finalize (object);
}

static void
suanli_agent_client_class_init (SuanliAgentClientClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = suanli_agent_client_finalize;
}

static void
suanli_agent_client_init (SuanliAgentClient *self)
{
  self->seconds = REQUEST_SECONDS;
}

static gboolean
is_loopback_host (const char *host)
{
  g_autoptr(GInetAddress) address = g_inet_address_new_from_string (host);

  return g_str_equal (host, "localhost") || (address != NULL && g_inet_address_get_is_loopback (address));
}

/* Returns: (transfer full) (nullable): @address as a base URI, or NULL with @error. */
static GUri *
parse_address (const char  *address,
               GError     **error)
{
  g_autofree char *text = g_strstrip (g_strdup (address));
  g_autofree char *with_scheme = NULL;
  g_autoptr(GUri) uri = NULL;
  const char *scheme;

  if (strstr (text, "://") == NULL)
    {
      g_autofree char *guess = g_strconcat ("http://", text, NULL);
      g_autoptr(GUri) probe = g_uri_parse (guess, G_URI_FLAGS_NONE, NULL);
      gboolean loopback = probe != NULL && g_uri_get_host (probe) != NULL && is_loopback_host (g_uri_get_host (probe));

      with_scheme = g_strconcat (loopback ? "http://" : "https://", text, NULL);
    }
  uri = g_uri_parse (with_scheme != NULL ? with_scheme : text, G_URI_FLAGS_NONE, NULL);
  scheme = uri != NULL ? g_uri_get_scheme (uri) : NULL;
  if (uri == NULL || g_uri_get_host (uri) == NULL || *g_uri_get_host (uri) == '\0' ||
      (g_strcmp0 (scheme, "http") != 0 && g_strcmp0 (scheme, "https") != 0))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                   _("“%s” is not an agent's address: write host, host:port or https://host:port"), address);
      return NULL;
    }
  if (g_str_equal (scheme, "http") && !is_loopback_host (g_uri_get_host (uri)))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                   _("“%s” would send the token unencrypted: an agent off this machine is reached with https://"),
                   address);
      return NULL;
    }
  return g_uri_build (G_URI_FLAGS_NONE, scheme, NULL, g_uri_get_host (uri),
                      g_uri_get_port (uri) > 0 ? g_uri_get_port (uri) : SUANLI_AGENT_DEFAULT_PORT, "", NULL, NULL);
}

/* Returns: (transfer full) (nullable): the socket address @base's loopback host names first
 * ("localhost" is resolved, on this machine only), or NULL with @error. */
static GInetSocketAddress *
resolve_loopback (GUri        *base,
                  const char  *address,
                  GError     **error)
{
  g_autoptr(GInetAddress) literal = g_inet_address_new_from_string (g_uri_get_host (base));
  g_autoptr(GError) failure = NULL;
  GList *found = NULL;
  GInetSocketAddress *first;

  if (literal != NULL)
    return G_INET_SOCKET_ADDRESS (g_inet_socket_address_new (literal, (guint16) g_uri_get_port (base)));
  found = g_resolver_lookup_by_name (g_resolver_get_default (), g_uri_get_host (base), NULL, &failure);
  if (found == NULL)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND, _("Cannot find the agent at %s: %s"), address,
                   failure->message);
      return NULL;
    }
  first = G_INET_SOCKET_ADDRESS (g_inet_socket_address_new (found->data, (guint16) g_uri_get_port (base)));
  g_resolver_free_addresses (found);
  return first;
}

/**
 * suanli_agent_client_new:
 * @address: "host", "host:port" or a URL
 * @token: the agent's token
 *
 * Returns: (transfer full) (nullable): a client, or NULL when @address cannot be an agent's.
 */
SuanliAgentClient *
suanli_agent_client_new (const char  *address,
                         const char  *token,
                         GError     **error)
{
  g_autoptr(GUri) base = parse_address (address, error);
  g_autoptr(GInetSocketAddress) reached = NULL;
  SuanliAgentClient *self;

  if (base == NULL)
    return NULL;
  /* Over HTTPS the pinned certificate says who answers, wherever the name leads; over plain
   * HTTP (loopback) only the socket address does, so it is fixed here for every request. */
  if (g_str_equal (g_uri_get_scheme (base), "http") && (reached = resolve_loopback (base, address, error)) == NULL)
    return NULL;
  self = g_object_new (SUANLI_TYPE_AGENT_CLIENT, NULL);
  self->base = g_steal_pointer (&base);
  self->address = g_strstrip (g_strdup (address));
  self->token = g_strstrip (g_strdup (token));
  if (reached != NULL)
    self->reached = suanli_agent_address_text (reached);
  self->session = soup_session_new_with_options ("timeout", 10, "idle-timeout", 30,
                                                 reached != NULL ? "remote-connectable" : NULL, reached, NULL);
  return self;
}

/* Each request, its connection, headers and body, ends within @seconds (30 unless told). */
void
suanli_agent_client_set_timeout (SuanliAgentClient *self,
                                 guint              seconds)
{
  self->seconds = MAX (seconds, 1);
}

/* The address as the user wrote it: the agent's name in lists and in the trace. */
const char *
suanli_agent_client_get_address (SuanliAgentClient *self)
{
  return self->address;
}

/* Accepts @certificate from this agent even though no authority the system knows signed it. */
void
suanli_agent_client_set_pinned_certificate (SuanliAgentClient *self,
                                            GTlsCertificate   *certificate)
{
  g_set_object (&self->pinned, certificate);
}

static gboolean
accept_pinned (SoupMessage          *message,
               GTlsCertificate      *certificate,
               GTlsCertificateFlags  errors,
               gpointer              data)
{
  SuanliAgentClient *self = data;

  return self->pinned != NULL && g_tls_certificate_is_same (self->pinned, certificate);
}

/* A request to @path (with @query, or NULL) on the agent; with the token unless it is the hello. */
static SoupMessage *
new_message (SuanliAgentClient *self,
             const char        *path,
             const char        *query,
             gboolean           websocket)
{
  g_autoptr(GUri) uri = g_uri_build (G_URI_FLAGS_NONE,
                                     websocket ? (g_str_equal (g_uri_get_scheme (self->base), "https") ? "wss" : "ws")
                                               : g_uri_get_scheme (self->base),
                                     NULL, g_uri_get_host (self->base), g_uri_get_port (self->base), path, query, NULL);
  SoupMessage *message = soup_message_new_from_uri (SOUP_METHOD_GET, uri);

  /* A redirection would send the token somewhere the proof did not come from. */
  soup_message_add_flags (message, SOUP_MESSAGE_NO_REDIRECT);
  if (!g_str_equal (path, "/v1/hello"))
    {
      g_autofree char *authorization = g_strconcat ("Bearer ", self->token, NULL);

      soup_message_headers_replace (soup_message_get_request_headers (message), "Authorization", authorization);
    }
  /* One connection a request, closed after its answer: libsoup 3.2 leaves a kept-alive connection
   * open on both ends after the other has gone (one socket a listing, for ever). */
  if (!websocket)
    soup_message_headers_replace (soup_message_get_request_headers (message), "Connection", "close");
  g_signal_connect_object (message, "accept-certificate", G_CALLBACK (accept_pinned), self, 0);
  return message;
}

/* ---- the hello: the agent proves that it knows the token before the token is sent ---------- */

typedef void (*ProvenFunc) (SuanliAgentClient *self,
                            GTask             *task);

typedef struct
{
  GTask       *task;
  ProvenFunc   then;
  char        *challenge;
  SoupMessage *message;
} Hello;

static void
hello_free (Hello *hello)
{
  g_clear_object (&hello->task);
  g_free (hello->challenge);
  g_clear_object (&hello->message);
  g_free (hello);
}

/* Returns: (transfer full): a request's failure @error, naming the agent. */
static GError *
request_error (SuanliAgentClient *self,
               const GError      *error)
{
  /* Past the size or the deadline, the agent was reached: it answered too much, or too slowly. */
  if (error->domain == G_IO_ERROR && (error->code == G_IO_ERROR_MESSAGE_TOO_LARGE || error->code == G_IO_ERROR_TIMED_OUT))
    return g_error_new (G_IO_ERROR, error->code, _("The agent at %s sent %s: the request was given up"), self->address,
                        error->message);
  return g_error_new (G_IO_ERROR, error->code, _("Cannot reach the agent at %s: %s"), self->address, error->message);
}

/* The string member @name of the hello's answer @root, or NULL. */
static const char *
hello_member (JsonNode   *root,
              const char *name)
{
  JsonNode *member = json_object_get_member (json_node_get_object (root), name);

  if (member == NULL || !JSON_NODE_HOLDS_VALUE (member) || json_node_get_value_type (member) != G_TYPE_STRING)
    return NULL;
  return json_node_get_string (member);
}

/* Reads the hello's answer: its "proof", and the "address" the agent says it was reached at (NULL
 * from an agent of the first protocol, whose proof bound no address). FALSE when it is none. */
static gboolean
read_hello (GBytes  *body,
            char   **proof,
            char   **address)
{
  g_autoptr(JsonParser) parser = json_parser_new ();
  gsize length;
  const char *data = g_bytes_get_data (body, &length);
  JsonNode *root;

  if (!json_parser_load_from_data (parser, data, (gssize) length, NULL) ||
      (root = json_parser_get_root (parser)) == NULL || !JSON_NODE_HOLDS_OBJECT (root) ||
      hello_member (root, "proof") == NULL)
    return FALSE;
  *proof = g_strdup (hello_member (root, "proof"));
  *address = g_strdup (hello_member (root, "address"));
  return TRUE;
}

/* A 3xx: the error naming the agent and where it pointed. The token goes only where the proof
 * came from, so no redirection is followed. */
static void
set_redirection_error (SuanliAgentClient *self,
                       SoupMessage       *message,
                       GError           **error)
{
  const char *location = soup_message_headers_get_one (soup_message_get_response_headers (message), "Location");
  g_autofree char *escaped = g_strescape (location != NULL ? location : "", NULL);

  g_set_error (error, G_IO_ERROR, G_IO_ERROR_PERMISSION_DENIED,
               _("The agent at %s answered %u, a redirection to “%s”: the workbench follows none, and the token was "
                 "not sent"), self->address, soup_message_get_status (message), escaped);
}

/* Whether @proof of the hello @hello answers it for where the workbench connected; otherwise
 * @error says why not, without the token having gone anywhere. */
static gboolean
check_proof (SuanliAgentClient *self,
             Hello             *hello,
             const char        *proof,
             const char        *address,
             GError           **error)
{
  /* Off loopback, TLS and the pinned certificate bind the connection, and a tunnel or NAT may
   * change the address on the way: the agent's own address is bound there. On loopback it must be
   * the very socket address connected to. */
  const char *expected = self->reached != NULL ? self->reached : address;

  if (address == NULL || strlen (address) > 64)
    g_set_error (error, G_IO_ERROR, G_IO_ERROR_PERMISSION_DENIED,
                 _("The agent at %s answered the hello without the address it was reached at (an agent of an older "
                   "version, or not an agent), so the token was not sent: update suanli-agent there"), self->address);
  else if (suanli_agent_proof_matches (self->token, hello->challenge, expected, proof))
    return TRUE;
  else if (!g_str_equal (address, expected) && suanli_agent_proof_matches (self->token, hello->challenge, address, proof))
    g_set_error (error, G_IO_ERROR, G_IO_ERROR_PERMISSION_DENIED,
                 _("The agent at %s answered for %s, but the workbench reached %s: something relays it (another "
                   "program listening there, or a tunnel to another port), so the token was not sent"),
                 self->address, address, expected);
  else
    g_set_error (error, G_IO_ERROR, G_IO_ERROR_PERMISSION_DENIED,
                 _("The agent at %s did not prove that it knows the token, so the token was not sent: "
                   "it has another token, or another program is listening there"), self->address);
  return FALSE;
}

static void
hello_read (GObject      *source,
            GAsyncResult *result,
            gpointer      data)
{
  Hello *hello = data;
  SuanliAgentClient *self = g_task_get_source_object (hello->task);
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) body = suanli_bounded_request_finish (result, &error);
  g_autofree char *proof = NULL, *address = NULL;

  if (body == NULL)
    g_task_return_error (hello->task, request_error (self, error));
  else if (SOUP_STATUS_IS_REDIRECTION (soup_message_get_status (hello->message)))
    {
      set_redirection_error (self, hello->message, &error);
      g_task_return_error (hello->task, g_steal_pointer (&error));
    }
  else if (soup_message_get_status (hello->message) != SOUP_STATUS_OK || !read_hello (body, &proof, &address))
    g_task_return_new_error (hello->task, G_IO_ERROR, G_IO_ERROR_PERMISSION_DENIED,
                             _("The agent at %s did not prove that it knows the token, so the token was not sent: "
                               "it has another token, or another program is listening there"),
                             self->address);
  else if (!check_proof (self, hello, proof, address, &error))
    g_task_return_error (hello->task, g_steal_pointer (&error));
  else
    hello->then (self, g_steal_pointer (&hello->task));
  hello_free (hello);
}

/* Asks the agent to answer a fresh challenge with the token, and calls @then with @task once it
 * has; otherwise @task returns the refusal, and nothing with the token is sent. Every request that
 * carries the token comes after one: the agent may have gone, and something else taken its port,
 * since the last. */
static void
prove_then (SuanliAgentClient *self,
            GTask             *task,
            ProvenFunc         then)
{
  Hello *hello = g_new0 (Hello, 1);
  g_autofree char *query = NULL;

  hello->task = task;
  hello->then = then;
  hello->challenge = suanli_agent_challenge_new ();
  query = g_strconcat ("challenge=", hello->challenge, NULL);
  hello->message = new_message (self, "/v1/hello", query, FALSE);
  suanli_bounded_request_async (self->session, hello->message, MAX_HELLO_REPLY, self->seconds,
                                g_task_get_cancellable (task), hello_read, hello);
}

static gboolean
check_status (SuanliAgentClient *self,
              SoupMessage       *message,
              GError           **error)
{
  guint status = soup_message_get_status (message);

  if (status == SOUP_STATUS_OK || status == SOUP_STATUS_SWITCHING_PROTOCOLS)
    return TRUE;
  if (SOUP_STATUS_IS_REDIRECTION (status))
    set_redirection_error (self, message, error);
  else if (status == SOUP_STATUS_UNAUTHORIZED)
    g_set_error (error, G_IO_ERROR, G_IO_ERROR_PERMISSION_DENIED, _("The agent at %s refused the token"),
                 self->address);
  else
    g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED, _("The agent at %s answered %u %s"), self->address, status,
                 soup_message_get_reason_phrase (message));
  return FALSE;
}

static GPtrArray *
parse_jobs (SuanliAgentClient *self,
            GBytes            *body,
            GError           **error)
{
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GPtrArray) jobs = g_ptr_array_new_with_free_func ((GDestroyNotify) suanli_live_job_free);
  gsize length;
  const char *data = g_bytes_get_data (body, &length);
  JsonNode *root;
  JsonArray *array;

  if (!suanli_json_check_depth (data, length, SUANLI_JSON_MAX_DEPTH, error) ||
      !json_parser_load_from_data (parser, data, (gssize) length, error))
    return NULL;
  root = json_parser_get_root (parser);
  if (root == NULL || !JSON_NODE_HOLDS_ARRAY (root))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA, _("The agent at %s sent no list of jobs"), self->address);
      return NULL;
    }
  array = json_node_get_array (root);
  for (guint i = 0; i < json_array_get_length (array); i++)
    {
      g_autoptr(GError) failure = NULL;
      SuanliLiveJob *job = suanli_live_job_read (json_array_get_element (array, i), &failure);

      if (job == NULL)
        {
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA, _("The agent at %s: job %u: %s"), self->address, i,
                       failure->message);
          return NULL;
        }
      job->agent = g_strdup (self->address);
      g_ptr_array_add (jobs, job);
    }
  return g_steal_pointer (&jobs);
}

static void
jobs_read (GObject      *source,
           GAsyncResult *result,
           gpointer      data)
{
  g_autoptr(GTask) task = data;
  SuanliAgentClient *self = g_task_get_source_object (task);
  SoupMessage *message = g_task_get_task_data (task);
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) body = suanli_bounded_request_finish (result, &error);
  GPtrArray *jobs;

  if (body == NULL)
    {
      g_task_return_error (task, request_error (self, error));
      return;
    }
  if (!check_status (self, message, &error))
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }
  if ((jobs = parse_jobs (self, body, &error)) == NULL)
    {
      g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_INVALID_DATA, "%s", error->message);
      return;
    }
  g_task_return_pointer (task, jobs, (GDestroyNotify) g_ptr_array_unref);
}

static void
send_list (SuanliAgentClient *self,
           GTask             *task)
{
  SoupMessage *message = new_message (self, "/v1/jobs", NULL, FALSE);

  g_task_set_task_data (task, message, g_object_unref);
  suanli_bounded_request_async (self->session, message, MAX_JOBS_REPLY, self->seconds, g_task_get_cancellable (task),
                                jobs_read, task);
}

/* Asks the agent for its node's profilable jobs; each comes back with its agent set. */
void
suanli_agent_client_list_jobs_async (SuanliAgentClient  *self,
                                     GCancellable       *cancellable,
                                     GAsyncReadyCallback callback,
                                     gpointer            user_data)
{
  prove_then (self, g_task_new (self, cancellable, callback, user_data), send_list);
}

/* Returns: (transfer full) (element-type SuanliLiveJob): the agent's jobs. */
GPtrArray *
suanli_agent_client_list_jobs_finish (SuanliAgentClient  *self,
                                      GAsyncResult       *result,
                                      GError            **error)
{
  return g_task_propagate_pointer (G_TASK (result), error);
}

static void
connected (GObject      *source,
           GAsyncResult *result,
           gpointer      data)
{
  g_autoptr(GTask) task = data;
  SuanliAgentClient *self = g_task_get_source_object (task);
  SoupMessage *message = g_task_get_task_data (task);
  g_autoptr(GError) error = NULL;
  g_autoptr(GError) refusal = NULL;
  SoupWebsocketConnection *connection = soup_session_websocket_connect_finish (SOUP_SESSION (source), result, &error);
  GCancellable *deadline = g_object_get_data (G_OBJECT (message), "suanli-deadline");

  /* The handshake is over: its deadline must not touch the connection that lasts. */
  suanli_deadline_disarm (deadline);
  if (connection != NULL)
    {
      /* The agent's binary messages are at most SUANLI_AGENT_MAX_DATA_MESSAGE bytes. */
      soup_websocket_connection_set_max_incoming_payload_size (connection, SUANLI_AGENT_MAX_DATA_MESSAGE + 4096);
      soup_websocket_connection_set_keepalive_interval (connection, 10);
      g_task_return_pointer (task, connection, g_object_unref);
    }
  else if (soup_message_get_status (message) != 0 && !check_status (self, message, &refusal))
    g_task_return_error (task, g_steal_pointer (&refusal));
  else if (suanli_deadline_passed (deadline))
    g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_TIMED_OUT,
                             _("Cannot reach the agent at %s: no answer within %u s"), self->address, self->seconds);
  else
    g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_FAILED, _("Cannot reach the agent at %s: %s"), self->address,
                             error->message);
}

static void
send_connect (SuanliAgentClient *self,
              GTask             *task)
{
  SoupMessage *message = new_message (self, g_task_get_task_data (task), NULL, TRUE);
  GCancellable *deadline = suanli_deadline_new (g_task_get_cancellable (task), self->seconds);

  /* The handshake too ends within the deadline; the deadline goes with the message. */
  g_object_set_data_full (G_OBJECT (message), "suanli-deadline", deadline, g_object_unref);
  g_task_set_task_data (task, message, g_object_unref);   /* the path goes, the message stays */
  soup_session_websocket_connect_async (self->session, message, NULL, NULL, G_PRIORITY_DEFAULT, deadline, connected,
                                        task);
}

/* Opens a WebSocket to @path on the agent, with the token, once the agent has proved it knows it. */
void
suanli_agent_client_connect_async (SuanliAgentClient  *self,
                                   const char         *path,
                                   GCancellable       *cancellable,
                                   GAsyncReadyCallback callback,
                                   gpointer            user_data)
{
  GTask *task = g_task_new (self, cancellable, callback, user_data);

  g_task_set_task_data (task, g_strdup (path), g_free);
  prove_then (self, task, send_connect);
}

/* Returns: (transfer full): the open connection. */
SoupWebsocketConnection *
suanli_agent_client_connect_finish (SuanliAgentClient  *self,
                                    GAsyncResult       *result,
                                    GError            **error)
{
  return g_task_propagate_pointer (G_TASK (result), error);
}
