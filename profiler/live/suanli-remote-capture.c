/* suanli-remote-capture.c — a live capture of a job on another node, through its suanli-agent
 *
 * Start opens the agent's WebSocket for the job and first probes the agent's clock (PROBES round
 * trips, NTP's way: the offset is the mean of the two one-way differences, and the probe with the
 * shortest round trip is kept, its half round trip being the bound on the error). The capture's
 * times are moved by that offset so that ranks on different hosts line up. Then START, with
 * credit: the agent sends no more bytes than the credit, and the credit comes back as the bytes
 * are decoded, so a busy workbench slows the agent's sending rather than swelling its memory (the
 * agent drops and counts records instead). A connection lost before the end keeps what came.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <time.h>
#include <glib/gi18n.h>
#include <json-glib/json-glib.h>

#include "suanli-agent-message.h"
#include "suanli-agent-protocol.h"
#include "suanli-json-writer.h"
#include "suanli-remote-capture.h"

#define PROBES          8
#define INITIAL_CREDIT  (16u << 20)
#define CREDIT_RETURN   (1u << 20)   /* bytes decoded before they are acknowledged */
#define START_TIMEOUT_S 30           /* for the agent to say started: CUPTI's first set-up is slow */

struct _SuanliRemoteCapture
{
  SuanliLiveCapture        parent_instance;

  SuanliAgentClient       *client;
  int                      pid;
  SoupWebsocketConnection *connection;
  GTask                   *starting;        /* until the agent says started (or not) */
  guint                    start_timeout;
  char                    *agent_error;     /* what the agent said went wrong after the start */
  guint                    probes_left;
  gint64                   best_round_trip;
  gint64                   clock_offset;
  gboolean                 ended;           /* the agent said so: the stream is whole */
  guint64                  agent_dropped;
  guint64                  uncredited;      /* bytes decoded since credit last went back */
};

G_DEFINE_FINAL_TYPE (SuanliRemoteCapture, suanli_remote_capture, SUANLI_TYPE_LIVE_CAPTURE)

static gint64
now_ns (void)
{
  struct timespec now;

  clock_gettime (CLOCK_REALTIME, &now);
  return (gint64) now.tv_sec * G_GINT64_CONSTANT (1000000000) + now.tv_nsec;
}

static void
send_object (SuanliRemoteCapture *self,
             const char          *type,
             const char          *member,
             gint64               value)
{
  g_autoptr(JsonBuilder) builder = json_builder_new ();
  g_autofree char *text = NULL;

  if (self->connection == NULL || soup_websocket_connection_get_state (self->connection) != SOUP_WEBSOCKET_STATE_OPEN)
    return;
  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "type");
  json_builder_add_string_value (builder, type);
  if (member != NULL)
    {
      json_builder_set_member_name (builder, member);
      json_builder_add_int_value (builder, value);
    }
  json_builder_end_object (builder);
  text = suanli_json_write_builder (builder, FALSE, NULL);   /* a string and an integer */
  soup_websocket_connection_send_text (self->connection, text);
}

static void
fail_start (SuanliRemoteCapture *self,
            GError              *error)
{
  g_autoptr(GTask) task = g_steal_pointer (&self->starting);

  g_clear_handle_id (&self->start_timeout, g_source_remove);
  g_task_return_error (task, error);
}

static gboolean
start_timed_out (gpointer data)
{
  SuanliRemoteCapture *self = data;

  self->start_timeout = 0;
  if (self->starting != NULL)
    {
      SUANLI_LIVE_CAPTURE_GET_CLASS (self)->close (SUANLI_LIVE_CAPTURE (self));
      fail_start (self, g_error_new (G_IO_ERROR, G_IO_ERROR_TIMED_OUT,
                                     _("The agent at %s did not start the capture within %d s"),
                                     suanli_agent_client_get_address (self->client), START_TIMEOUT_S));
    }
  return G_SOURCE_REMOVE;
}

static void
on_clock (SuanliRemoteCapture      *self,
          const SuanliAgentMessage *clock)
{
  gint64 t3 = now_ns ();
  gint64 t0 = clock->t0, t1 = clock->t1, t2 = clock->t2;
  gint64 round_trip;

  if (self->probes_left == 0 || self->starting == NULL)
    return;
  /* An answer without its three times, or with times whose differences overflow, is no probe. */
  if (t0 == SUANLI_AGENT_MESSAGE_NONE || t1 == SUANLI_AGENT_MESSAGE_NONE || t2 == SUANLI_AGENT_MESSAGE_NONE ||
      t0 < 0 || t1 < 0 || t2 < 0 || t0 > t3 || t1 > t2)
    return;
  round_trip = (t3 - t0) - (t2 - t1);
  if (round_trip >= 0 && (self->best_round_trip < 0 || round_trip < self->best_round_trip))
    {
      /* Each difference fits (all four are ≥ 0), their sum need not: t1 = t2 = 2^63 − 1 would
       * wrap it. Halved first, the sum cannot. */
      gint64 ahead = t1 - t0, behind = t2 - t3;

      self->best_round_trip = round_trip;
      self->clock_offset = ahead / 2 + behind / 2 + (ahead % 2 + behind % 2) / 2;
    }
  if (--self->probes_left > 0)
    send_object (self, "clock", "t0", now_ns ());
  else
    {
      suanli_live_capture_set_clock_shift (SUANLI_LIVE_CAPTURE (self), self->clock_offset);
      send_object (self, "start", "credit", INITIAL_CREDIT);
    }
}

static void
on_text (SuanliRemoteCapture *self,
         GBytes              *bytes)
{
  g_auto(SuanliAgentMessage) message = { 0 };
  gsize length;
  const char *text = g_bytes_get_data (bytes, &length);
  const char *said;

  /* What is not a message of the protocol is not acted on (the agent's own errors say more). */
  if (!suanli_agent_message_read (text, length, &message, NULL))
    return;
  said = message.message != NULL ? message.message : "";
  switch (message.type)
    {
    case SUANLI_AGENT_MESSAGE_CLOCK:
      on_clock (self, &message);
      break;
    case SUANLI_AGENT_MESSAGE_STARTED:
      if (self->starting != NULL)
        {
          g_autoptr(GTask) task = g_steal_pointer (&self->starting);

          g_clear_handle_id (&self->start_timeout, g_source_remove);
          suanli_live_capture_begin (SUANLI_LIVE_CAPTURE (self));
          g_task_return_boolean (task, TRUE);
        }
      break;
    case SUANLI_AGENT_MESSAGE_ERROR:
      if (self->starting != NULL)
        fail_start (self, g_error_new (G_IO_ERROR, G_IO_ERROR_FAILED, _("The agent at %s: %s"),
                                       suanli_agent_client_get_address (self->client), said));
      else
        {
          g_free (self->agent_error);
          self->agent_error = g_strdup (said);
        }
      break;
    case SUANLI_AGENT_MESSAGE_ENDED:
      self->ended = TRUE;
      self->agent_dropped = (guint64) MAX (message.dropped, 0);
      break;
    default:
      break;
    }
}

static void
on_message (SoupWebsocketConnection *connection,
            SoupWebsocketDataType    type,
            GBytes                  *message,
            gpointer                 data)
{
  SuanliRemoteCapture *self = data;
  gsize length;
  const void *bytes;

  if (type == SOUP_WEBSOCKET_DATA_TEXT)
    {
      on_text (self, message);
      return;
    }
  if (!suanli_live_capture_is_running (SUANLI_LIVE_CAPTURE (self)))
    return;
  bytes = g_bytes_get_data (message, &length);
  if (!suanli_live_capture_take (SUANLI_LIVE_CAPTURE (self), bytes, length))
    return;
  self->uncredited += length;
  if (self->uncredited >= CREDIT_RETURN)
    {
      send_object (self, "credit", "bytes", (gint64) self->uncredited);
      self->uncredited = 0;
    }
}

static void
on_closed (SoupWebsocketConnection *connection,
           gpointer                 data)
{
  SuanliRemoteCapture *self = data;
  g_autoptr(GError) error = NULL;

  g_object_ref (self);
  if (self->agent_error != NULL)
    error = g_error_new (G_IO_ERROR, G_IO_ERROR_FAILED, _("The agent at %s: %s"),
                         suanli_agent_client_get_address (self->client), self->agent_error);
  else if (!self->ended)
    {
      guint code = soup_websocket_connection_get_close_code (connection);
      const char *reason = soup_websocket_connection_get_close_data (connection);
      const char *address = suanli_agent_client_get_address (self->client);

      /* Code 0: no close message came, the connection was simply cut (the agent died, say). */
      if (code == 0)
        error = g_error_new (G_IO_ERROR, G_IO_ERROR_CONNECTION_CLOSED, _("The connection to the agent at %s was cut"),
                             address);
      else
        error = g_error_new (G_IO_ERROR, G_IO_ERROR_CONNECTION_CLOSED,
                             _("The agent at %s closed the connection early (%u %s)"), address, code,
                             reason != NULL ? reason : "");
    }
  if (self->starting != NULL)
    fail_start (self, g_steal_pointer (&error));
  else
    suanli_live_capture_end (SUANLI_LIVE_CAPTURE (self), error);
  g_object_unref (self);
}

static void
connected (GObject      *source,
           GAsyncResult *result,
           gpointer      data)
{
  SuanliRemoteCapture *self = data;
  GError *error = NULL;

  self->connection = suanli_agent_client_connect_finish (self->client, result, &error);
  if (self->starting == NULL)
    {
      /* The start timed out meanwhile. */
      g_clear_error (&error);
      SUANLI_LIVE_CAPTURE_GET_CLASS (self)->close (SUANLI_LIVE_CAPTURE (self));
      g_object_unref (self);
      return;
    }
  if (self->connection == NULL)
    {
      fail_start (self, error);
      g_object_unref (self);
      return;
    }
  g_signal_connect (self->connection, "message", G_CALLBACK (on_message), self);
  g_signal_connect (self->connection, "closed", G_CALLBACK (on_closed), self);
  self->probes_left = PROBES;
  self->best_round_trip = -1;
  send_object (self, "clock", "t0", now_ns ());
  g_object_unref (self);
}

static void
suanli_remote_capture_start_async (SuanliLiveCapture  *capture,
                                   GCancellable       *cancellable,
                                   GAsyncReadyCallback callback,
                                   gpointer            user_data)
{
  SuanliRemoteCapture *self = SUANLI_REMOTE_CAPTURE (capture);
  g_autofree char *path = g_strdup_printf ("/v1/jobs/%d/capture", self->pid);

  g_return_if_fail (self->starting == NULL && self->connection == NULL);
  self->starting = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (self->starting, suanli_remote_capture_start_async);
  self->start_timeout = g_timeout_add_seconds (START_TIMEOUT_S, start_timed_out, self);
  suanli_agent_client_connect_async (self->client, path, cancellable, connected, g_object_ref (self));
}

static gboolean
suanli_remote_capture_start_finish (SuanliLiveCapture  *capture,
                                    GAsyncResult       *result,
                                    GError            **error)
{
  return g_task_propagate_boolean (G_TASK (result), error);
}

static void
suanli_remote_capture_stop (SuanliLiveCapture *capture)
{
  send_object (SUANLI_REMOTE_CAPTURE (capture), "stop", NULL, 0);
}

static void
suanli_remote_capture_close (SuanliLiveCapture *capture)
{
  SuanliRemoteCapture *self = SUANLI_REMOTE_CAPTURE (capture);

  if (self->connection == NULL)
    return;
  g_signal_handlers_disconnect_by_data (self->connection, self);
  if (soup_websocket_connection_get_state (self->connection) == SOUP_WEBSOCKET_STATE_OPEN)
    soup_websocket_connection_close (self->connection, SOUP_WEBSOCKET_CLOSE_NORMAL, NULL);
  g_clear_object (&self->connection);
}

static void
suanli_remote_capture_finalize (GObject *object)
{
  SuanliRemoteCapture *self = SUANLI_REMOTE_CAPTURE (object);

  g_clear_object (&self->client);
  g_free (self->agent_error);
  G_OBJECT_CLASS (suanli_remote_capture_parent_class)->finalize (object);
}

static void
suanli_remote_capture_class_init (SuanliRemoteCaptureClass *klass)
{
  SuanliLiveCaptureClass *capture_class = SUANLI_LIVE_CAPTURE_CLASS (klass);

  G_OBJECT_CLASS (klass)->finalize = suanli_remote_capture_finalize;
  capture_class->start_async = suanli_remote_capture_start_async;
  capture_class->start_finish = suanli_remote_capture_start_finish;
  capture_class->stop = suanli_remote_capture_stop;
  capture_class->close = suanli_remote_capture_close;
}

static void
suanli_remote_capture_init (SuanliRemoteCapture *self)
{
  self->best_round_trip = -1;
}

/**
 * suanli_remote_capture_new:
 * @client: the agent of @job's node
 * @trace: where the capture goes, as a group of its own
 * @job: a job the agent listed
 *
 * Returns: (transfer full): a capture of @job into @trace, not started yet.
 */
SuanliLiveCapture *
suanli_remote_capture_new (SuanliAgentClient   *client,
                           SuanliTrace         *trace,
                           const SuanliLiveJob *job)
{
  SuanliRemoteCapture *self = g_object_new (SUANLI_TYPE_REMOTE_CAPTURE, "trace", trace, NULL);
  g_autofree char *name = suanli_live_job_describe (job);

  self->client = g_object_ref (client);
  self->pid = job->pid;
  suanli_live_capture_set_name (SUANLI_LIVE_CAPTURE (self), name);
  return SUANLI_LIVE_CAPTURE (self);
}

/* How far the agent's host clock is ahead of this one's, in ns, as the probes found it. */
gint64
suanli_remote_capture_get_clock_offset (SuanliRemoteCapture *self)
{
  return self->clock_offset;
}

/* The bound on the offset's error: half the best probe's round trip (-1 before any probe). */
gint64
suanli_remote_capture_get_clock_error (SuanliRemoteCapture *self)
{
  return self->best_round_trip < 0 ? -1 : self->best_round_trip / 2;
}

/* Records the agent dropped because this workbench fell behind, as its end message counts them. */
guint64
suanli_remote_capture_get_agent_dropped (SuanliRemoteCapture *self)
{
  return self->agent_dropped;
}
