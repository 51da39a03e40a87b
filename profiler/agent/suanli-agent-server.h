/* suanli-agent-server.h — suanli-agent's HTTP and WebSocket server
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <libsoup/soup.h>

G_BEGIN_DECLS

typedef struct
{
  const char      *address;          /* to listen on: 127.0.0.1 unless told otherwise */
  guint            port;             /* 0: any free port */
  GTlsCertificate *certificate;      /* NULL: plain HTTP, allowed on loopback only */
  const char      *token;            /* every client presents it */
  const char      *socket_folder;    /* where the jobs' control sockets are; NULL: this user's own
                                      * (the injection library's, and ~/.suanli-sockets) */
  guint            max_connections;  /* capture WebSockets open at once */
  guint            rate;             /* requests per second per client address (bursts of twice it) */
  guint            queue_limit;      /* bytes a capture may queue for a slow client before dropping */
  gint64           clock_shift_ns;   /* for tests: act as a host whose clock is this far ahead */
  guint            idle_timeout;     /* seconds a connection may send nothing (0: 60) */
  guint            header_timeout;   /* seconds a request may take to send its headers (0: 10) */
  guint            max_per_address;  /* requests with the token open at once per address (0: 32) */
  guint            first_byte_timeout; /* seconds a new connection may take to send its first byte (0: 3) */
  guint            max_strangers;    /* connections without the token (yet) open at once per address (0: 8),
                                      * the oldest closed for a newcomer */
} SuanliAgentOptions;

#define SUANLI_TYPE_AGENT_SERVER (suanli_agent_server_get_type ())

G_DECLARE_FINAL_TYPE (SuanliAgentServer, suanli_agent_server, SUANLI, AGENT_SERVER, GObject)

SuanliAgentServer *suanli_agent_server_new      (const SuanliAgentOptions *options,
                                                 GError                  **error);
char              *suanli_agent_server_get_url  (SuanliAgentServer        *self);

G_END_DECLS
