/* suanli-test-agent-client.c — talking to a running suanli-agent in a test
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>
#include <sys/socket.h>
#include <netinet/in.h>
#include <arpa/inet.h>
#include <unistd.h>

#include "suanli-agent-proof.h"
#include "suanli-agent-protocol.h"
#include "suanli-remote-capture.h"
#include "suanli-test-agent-client.h"
#include "suanli-test-wait.h"

static char *runtime_dir;

void
suanli_test_agent_setup (void)
{
  g_autofree char *config_dir = NULL;

  g_log_set_debug_enabled (FALSE);   /* libsoup's frame-by-frame debug would drown the log */
  runtime_dir = g_dir_make_tmp ("suanli-agent-XXXXXX", NULL);
  config_dir = g_build_filename (runtime_dir, "config", NULL);
  g_setenv ("XDG_RUNTIME_DIR", runtime_dir, TRUE);
  g_setenv ("XDG_CONFIG_HOME", config_dir, TRUE);
  g_setenv ("SUANLI_QUIET", "1", TRUE);
}

int
suanli_test_agent_run (void)
{
  int status = g_test_run ();

  suanli_test_remove_tree (runtime_dir);
  g_clear_pointer (&runtime_dir, g_free);
  return status;
}

const char *
suanli_test_runtime_dir (void)
{
  return runtime_dir;
}

static gboolean
wake (gpointer data)
{
  return G_SOURCE_CONTINUE;
}

/* Runs the main loop until @done says so; FALSE after 60 s. */
gboolean
suanli_test_loop_until (gboolean (*done) (gpointer),
           gpointer   data)
{
  gint64 deadline = g_get_monotonic_time () + 60 * G_USEC_PER_SEC;
  guint waker = g_timeout_add (20, wake, NULL);

  while (!done (data) && g_get_monotonic_time () < deadline)
    g_main_context_iteration (NULL, TRUE);
  g_source_remove (waker);
  return done (data);
}

gboolean
suanli_test_is_set (gpointer data)
{
  return *(gpointer *) data != NULL;
}

gboolean
suanli_test_is_true (gpointer data)
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
gboolean
suanli_test_agent_logs (SuanliTestAgent *agent,
                        const char      *text)
{
  LogSearch search = { agent, text };

  return suanli_test_loop_until (log_has, &search);
}

SuanliAgentClient *
suanli_test_new_client (SuanliTestAgent *agent,
                        const char      *token)
{
  g_autoptr(GError) error = NULL;
  SuanliAgentClient *client = suanli_agent_client_new (agent->address, token, &error);

  g_assert_no_error (error);
  return client;
}

void
suanli_test_got_result (GObject      *source,
                        GAsyncResult *result,
                        gpointer      data)
{
  *(GAsyncResult **) data = g_object_ref (result);
}

/* Returns: (transfer full): the agent's jobs, or NULL with @error. */
GPtrArray *
suanli_test_list_jobs (SuanliAgentClient  *client,
                       GError            **error)
{
  g_autoptr(GAsyncResult) result = NULL;

  suanli_agent_client_list_jobs_async (client, NULL, suanli_test_got_result, &result);
  g_assert_true (suanli_test_loop_until (suanli_test_is_set, &result));
  return suanli_agent_client_list_jobs_finish (client, result, error);
}

/* A plain request, as any HTTP client would make it: its status and body. */
guint
suanli_test_get (SuanliTestAgent  *agent,
                 const char       *path,
                 const char       *authorization,
                 char            **body)
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

static void
on_ended (SuanliLiveCapture *capture,
          const GError      *error,
          gpointer           data)
{
  SuanliTestEnding *ending = data;

  ending->ended = TRUE;
  if (error != NULL)
    ending->error = g_error_copy (error);
}

/* Starts @capture and waits until the agent has said "started". */
void
suanli_test_start_capture (SuanliLiveCapture *capture,
                           SuanliTestEnding  *ending)
{
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;

  g_signal_connect (capture, "ended", G_CALLBACK (on_ended), ending);
  suanli_live_capture_start_async (capture, NULL, suanli_test_got_result, &result);
  g_assert_true (suanli_test_loop_until (suanli_test_is_set, &result));
  g_assert_true (suanli_live_capture_start_finish (capture, result, &error));
  g_assert_no_error (error);
}

/* Lists the agent's jobs and starts capturing the first into @trace; returns the capture. */
SuanliLiveCapture *
suanli_test_capture_first_job (SuanliAgentClient *client,
                               SuanliTrace       *trace,
                               SuanliTestEnding  *ending)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) jobs = suanli_test_list_jobs (client, &error);
  SuanliLiveCapture *capture;

  g_assert_no_error (error);
  g_assert_cmpuint (jobs->len, >=, 1);
  capture = suanli_remote_capture_new (client, trace, g_ptr_array_index (jobs, 0));
  suanli_test_start_capture (capture, ending);
  return capture;
}

/* ---- by hand ---------------------------------------------------------------------------------- */

static void
raw_message (SoupWebsocketConnection *connection,
             SoupWebsocketDataType    type,
             GBytes                  *message,
             gpointer                 data)
{
  SuanliTestRawClient *raw = data;
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
  ((SuanliTestRawClient *) data)->closed = TRUE;
}

/* A WebSocket to the agent driven by hand, as a misbehaving client would. */
void
suanli_test_raw_connect (SuanliAgentClient   *client,
                         const char          *path,
                         SuanliTestRawClient *raw)
{
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GError) error = NULL;

  suanli_agent_client_connect_async (client, path, NULL, suanli_test_got_result, &result);
  g_assert_true (suanli_test_loop_until (suanli_test_is_set, &result));
  raw->connection = suanli_agent_client_connect_finish (client, result, &error);
  g_assert_no_error (error);
  raw->closed = FALSE;
  raw->bytes = g_byte_array_new ();
  raw->texts = g_ptr_array_new_with_free_func (g_free);
  g_signal_connect (raw->connection, "message", G_CALLBACK (raw_message), raw);
  g_signal_connect (raw->connection, "closed", G_CALLBACK (raw_closed), raw);
}

/* Waits for the agent to close @raw's connection, and checks with what code. */
void
suanli_test_assert_closed_with (SuanliTestRawClient *raw,
                                guint                code)
{
  g_assert_true (suanli_test_loop_until (suanli_test_is_true, &raw->closed));
  g_assert_cmpuint (soup_websocket_connection_get_close_code (raw->connection), ==, code);
}

void
suanli_test_raw_clear (SuanliTestRawClient *raw)
{
  if (raw->connection != NULL)
    g_signal_handlers_disconnect_by_data (raw->connection, raw);
  g_clear_object (&raw->connection);
  g_clear_pointer (&raw->bytes, g_byte_array_unref);
  g_clear_pointer (&raw->texts, g_ptr_array_unref);
}

gboolean
suanli_test_raw_has_text (gpointer data)
{
  return ((SuanliTestRawClient *) data)->texts->len > 0;
}

/* A TCP connection to the agent made by hand, whose reads give up after 10 s. */
int
suanli_test_connect_raw (SuanliTestAgent *agent)
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


void
suanli_test_serve_no_jobs (SoupServer        *server,
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
      g_autofree char *proof = suanli_agent_proof (data != NULL ? data : SUANLI_TEST_KEPT_ALIVE_TOKEN,
                                                   g_hash_table_lookup (query, "challenge"), address);
      g_autofree char *body = g_strdup_printf ("{\"proof\": \"%s\", \"address\": \"%s\"}", proof, address);

      soup_server_message_set_response (message, "application/json", SOUP_MEMORY_COPY, body, strlen (body));
    }
  else
    soup_server_message_set_response (message, "application/json", SOUP_MEMORY_STATIC, "[]", 2);
}

gboolean
suanli_test_has_exited (gpointer process)
{
  return g_subprocess_get_identifier (process) == NULL;
}

char *
suanli_test_agent_refusal (GSubprocess *agent)
{
  g_autoptr(GDataInputStream) errors = NULL;
  gsize length = 0;
  char *said;

  suanli_test_await (suanli_test_has_exited, agent);
  g_assert_false (g_subprocess_get_successful (agent));
  errors = g_data_input_stream_new (g_subprocess_get_stderr_pipe (agent));
  said = g_data_input_stream_read_upto (errors, "", 0, &length, NULL, NULL);
  g_test_message ("%s", said);
  return said;
}
