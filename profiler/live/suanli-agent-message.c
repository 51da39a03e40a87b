/* suanli-agent-message.c — one JSON text message of the agent's WebSocket, read and type-checked
 *
 * Both ends read what the other sends through here (the agent's relay and the workbench's remote
 * capture), so that every field is checked for its type before it is used: a "type" that is a
 * number, a "t0" that is a string or a "message" that is an object is a malformed message, never
 * a crash. Messages are at most SUANLI_AGENT_MAX_CONTROL bytes, which bounds their nesting too.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <json-glib/json-glib.h>

#include "suanli-agent-message.h"

static const struct {
  const char            *name;
  SuanliAgentMessageType type;
} types[] = {
  { "clock", SUANLI_AGENT_MESSAGE_CLOCK },
  { "start", SUANLI_AGENT_MESSAGE_START },
  { "started", SUANLI_AGENT_MESSAGE_STARTED },
  { "credit", SUANLI_AGENT_MESSAGE_CREDIT },
  { "stop", SUANLI_AGENT_MESSAGE_STOP },
  { "error", SUANLI_AGENT_MESSAGE_ERROR },
  { "ended", SUANLI_AGENT_MESSAGE_ENDED },
};

/* The integer member @name of @object; SUANLI_AGENT_MESSAGE_NONE when absent or of another type. */
static gint64
integer (JsonObject *object,
         const char *name)
{
  JsonNode *member = json_object_get_member (object, name);

  if (member == NULL || !JSON_NODE_HOLDS_VALUE (member) || json_node_get_value_type (member) != G_TYPE_INT64)
    return SUANLI_AGENT_MESSAGE_NONE;
  return json_node_get_int (member);
}

/* The string member @name of @object, or NULL when absent or of another type. */
static const char *
string (JsonObject *object,
        const char *name)
{
  JsonNode *member = json_object_get_member (object, name);

  if (member == NULL || !JSON_NODE_HOLDS_VALUE (member) || json_node_get_value_type (member) != G_TYPE_STRING)
    return NULL;
  return json_node_get_string (member);
}

/* Reads @text as one message into @message (cleared first). Fails, with an error that says why,
 * when @text is not a JSON object with a string "type"; an unknown type is read, as UNKNOWN. */
gboolean
suanli_agent_message_read (const char         *text,
                           gsize               length,
                           SuanliAgentMessage *message,
                           GError            **error)
{
  g_autoptr(JsonParser) parser = json_parser_new ();
  JsonNode *root;
  JsonObject *object;
  const char *type, *said;

  *message = (SuanliAgentMessage) {
    .t0 = SUANLI_AGENT_MESSAGE_NONE, .t1 = SUANLI_AGENT_MESSAGE_NONE, .t2 = SUANLI_AGENT_MESSAGE_NONE,
    .credit = SUANLI_AGENT_MESSAGE_NONE, .bytes = SUANLI_AGENT_MESSAGE_NONE,
    .records = SUANLI_AGENT_MESSAGE_NONE, .dropped = SUANLI_AGENT_MESSAGE_NONE,
  };
  if (length > G_MAXSSIZE || !json_parser_load_from_data (parser, text, (gssize) length, error))
    return FALSE;
  root = json_parser_get_root (parser);
  if (root == NULL || !JSON_NODE_HOLDS_OBJECT (root))
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA, "a message is a JSON object");
      return FALSE;
    }
  object = json_node_get_object (root);
  type = string (object, "type");
  if (type == NULL)
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA, "a message's \"type\" is a string");
      return FALSE;
    }
  for (guint i = 0; i < G_N_ELEMENTS (types); i++)
    if (g_str_equal (type, types[i].name))
      message->type = types[i].type;
  message->t0 = integer (object, "t0");
  message->t1 = integer (object, "t1");
  message->t2 = integer (object, "t2");
  message->credit = integer (object, "credit");
  message->bytes = integer (object, "bytes");
  message->records = integer (object, "records");
  message->dropped = integer (object, "dropped");
  if ((said = string (object, "message")) != NULL)
    message->message = g_utf8_make_valid (said, -1);
  return TRUE;
}

void
suanli_agent_message_clear (SuanliAgentMessage *message)
{
  g_clear_pointer (&message->message, g_free);
}
