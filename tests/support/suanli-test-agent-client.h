/* suanli-test-agent-client.h — talking to a running suanli-agent in a test: the workbench's client,
 * plain HTTP requests, hand-driven WebSockets and TCP connections, and a stand-in agent's answers
 *
 * Shared by the agent's tests (test-agent*.c); the agent itself is started by suanli-test-agent.h.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <libsoup/soup.h>

#include "suanli-agent-client.h"
#include "suanli-live-capture.h"
#include "suanli-test-agent.h"

G_BEGIN_DECLS

/* The token that suanli_test_serve_no_jobs() proves it knows when given none. */
#define SUANLI_TEST_KEPT_ALIVE_TOKEN "a-token-of-forty-characters-0123456789ab"

/* How a capture ended, as its "ended" signal said. */
typedef struct
{
  gboolean ended;
  GError  *error;
} SuanliTestEnding;

/* A WebSocket to the agent driven by hand, as a misbehaving client would. */
typedef struct
{
  SoupWebsocketConnection *connection;
  gboolean                 closed;
  GByteArray              *bytes;          /* binary messages, in order */
  GPtrArray               *texts;          /* text messages */
  gboolean                 acknowledging;  /* says it has taken each binary message */
} SuanliTestRawClient;

/* Makes a private XDG_RUNTIME_DIR and XDG_CONFIG_HOME for the agents of a test program, after
 * g_test_init(); suanli_test_agent_run() runs the tests and removes them. */
void         suanli_test_agent_setup      (void);
int          suanli_test_agent_run        (void);
const char  *suanli_test_runtime_dir      (void);

/* Runs the main loop until @done says so; FALSE after 60 s. */
gboolean     suanli_test_loop_until       (gboolean           (*done) (gpointer),
                                           gpointer             data);
gboolean     suanli_test_is_set           (gpointer             data);
gboolean     suanli_test_is_true          (gpointer             data);
/* Whether the agent logs @text within the wait. */
gboolean     suanli_test_agent_logs       (SuanliTestAgent     *agent,
                                           const char          *text);

SuanliAgentClient *suanli_test_new_client (SuanliTestAgent     *agent,
                                           const char          *token);
/* Keeps a reference to @result in the GAsyncResult * that @data points to. */
void         suanli_test_got_result       (GObject             *source,
                                           GAsyncResult        *result,
                                           gpointer             data);
/* Returns: (transfer full): the agent's jobs, or NULL with @error. */
GPtrArray   *suanli_test_list_jobs        (SuanliAgentClient   *client,
                                           GError             **error);
/* A plain request, as any HTTP client would make it: its status and body. */
guint        suanli_test_get              (SuanliTestAgent     *agent,
                                           const char          *path,
                                           const char          *authorization,
                                           char               **body);
/* Starts @capture and waits until the agent has said "started". */
void         suanli_test_start_capture    (SuanliLiveCapture   *capture,
                                           SuanliTestEnding    *ending);
/* Lists the agent's jobs and starts capturing the first into @trace; returns the capture. */
SuanliLiveCapture *suanli_test_capture_first_job (SuanliAgentClient *client,
                                                  SuanliTrace       *trace,
                                                  SuanliTestEnding  *ending);

void         suanli_test_raw_connect      (SuanliAgentClient   *client,
                                           const char          *path,
                                           SuanliTestRawClient *raw);
/* Waits for the agent to close @raw's connection, and checks with what code. */
void         suanli_test_assert_closed_with (SuanliTestRawClient *raw,
                                             guint                code);
void         suanli_test_raw_clear        (SuanliTestRawClient *raw);
/* Whether @data, a SuanliTestRawClient, has had a text message. */
gboolean     suanli_test_raw_has_text     (gpointer             data);

/* A TCP connection to the agent made by hand, whose reads give up after 10 s. */
int          suanli_test_connect_raw      (SuanliTestAgent     *agent);
/* Whether @process, a GSubprocess, has exited. */
gboolean     suanli_test_has_exited       (gpointer             process);

/* An agent of few words, as a SoupServer handler: its hello (proving @data's token, or
 * SUANLI_TEST_KEPT_ALIVE_TOKEN), and no jobs. */
void         suanli_test_serve_no_jobs    (SoupServer          *server,
                                           SoupServerMessage   *message,
                                           const char          *path,
                                           GHashTable          *query,
                                           gpointer             data);

/* Waits for @agent, started with its stderr piped, to exit unsuccessfully; returns what it said
 * there (also given to g_test_message). */
char        *suanli_test_agent_refusal    (GSubprocess         *agent);

G_END_DECLS
