/* suanli-agent-message.h — one JSON text message of the agent's WebSocket, read and type-checked
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef enum {
  SUANLI_AGENT_MESSAGE_UNKNOWN,   /* a "type" this side does not know: answered, never acted on */
  SUANLI_AGENT_MESSAGE_CLOCK,
  SUANLI_AGENT_MESSAGE_START,
  SUANLI_AGENT_MESSAGE_STARTED,
  SUANLI_AGENT_MESSAGE_CREDIT,
  SUANLI_AGENT_MESSAGE_STOP,
  SUANLI_AGENT_MESSAGE_ERROR,
  SUANLI_AGENT_MESSAGE_ENDED,
} SuanliAgentMessageType;

/* A number that was absent, or not an integer, reads as SUANLI_AGENT_MESSAGE_NONE. */
#define SUANLI_AGENT_MESSAGE_NONE G_MININT64

typedef struct
{
  SuanliAgentMessageType type;
  gint64                 t0, t1, t2;   /* clock */
  gint64                 credit;       /* start */
  gint64                 bytes;        /* credit */
  gint64                 records;      /* ended */
  gint64                 dropped;      /* ended */
  char                  *message;      /* error: valid UTF-8, or NULL */
} SuanliAgentMessage;

gboolean suanli_agent_message_read  (const char         *text,
                                     gsize               length,
                                     SuanliAgentMessage *message,
                                     GError            **error);
void     suanli_agent_message_clear (SuanliAgentMessage *message);

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (SuanliAgentMessage, suanli_agent_message_clear)

G_END_DECLS
