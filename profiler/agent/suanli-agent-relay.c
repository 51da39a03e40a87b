/* suanli-agent-relay.c — one workbench's WebSocket to one job's capture, inside suanli-agent
 *
 * The relay reads the job's stream as fast as it comes (the job must never wait on a slow
 * network) and cuts it into whole records. They wait in a queue until the workbench's window lets
 * them go out as binary messages: no more than the window may be sent and not acknowledged, and the
 * workbench acknowledges bytes as it decodes them (acknowledging more than was sent ends the
 * connection), so a client that does not read cannot make the agent queue for it. A full queue drops whole records and counts them, and the next
 * record that goes out is preceded by a dropped-records record, so the workbench's trace says how
 * many went missing. String and module records are never dropped: later records name their strings,
 * and launch stacks are named by the modules.
 * See suanli-agent-protocol.h for the messages.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <errno.h>
#include <stddef.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>
#include <glib-unix.h>
#include <json-glib/json-glib.h>

#include "suanli-agent-message.h"
#include "suanli-agent-protocol.h"
#include "suanli-agent-relay.h"
#include "suanli-capture.h"
#include "suanli-json-writer.h"

#define READ_SLICE           (4u << 20)
#define HARD_LIMIT_EXTRA     (64u << 20)   /* past the queue limit, for the records never dropped */
#define MAX_DEVICES          256
#define MAX_DEVICE_SIZE      4096
#define CONTROL_PER_SECOND   200

struct _SuanliAgentRelay
{
  GObject                  parent_instance;

  SoupWebsocketConnection *connection;
  int                      pid;
  char                    *socket_folder;
  char                    *peer;
  gint64                   clock_shift_ns;
  guint                    queue_limit;

  int                      fd;              /* the job's stream; -1 before START and after its end */
  guint                    read_source;
  gboolean                 starting;
  gboolean                 job_ended;
  gboolean                 finished;        /* "ended" sent */
  GByteArray              *input;           /* from the job, not yet a whole header or record */
  gboolean                 has_header;
  guint64                  devices_left;    /* bytes of device entries still to pass */
  GByteArray              *queue;           /* whole records waiting for credit, from queue_head */
  gsize                    queue_head;
  guint64                  window;          /* bytes that may be sent and not yet acknowledged */
  guint64                  acknowledged;    /* bytes the workbench says it has taken */
  gboolean                 stop_sent;
  guint64                  records;
  guint64                  dropped;
  guint64                  drops_unreported;
  guint64                  bytes_sent;
  char                    *failure;         /* the WebSocket's own error, if it had one */
  gint64                   control_window;  /* the second the control message count is for */
  guint                    control_count;
};

G_DEFINE_FINAL_TYPE (SuanliAgentRelay, suanli_agent_relay, G_TYPE_OBJECT)

/* This host's CLOCK_REALTIME, moved by @clock_shift_ns (an agent told to act as a skewed host). */
gint64
suanli_agent_now_ns (gint64 clock_shift_ns)
{
  struct timespec now;

  clock_gettime (CLOCK_REALTIME, &now);
  return (gint64) now.tv_sec * G_GINT64_CONSTANT (1000000000) + now.tv_nsec + clock_shift_ns;
}

static void
close_job (SuanliAgentRelay *self)
{
  g_clear_handle_id (&self->read_source, g_source_remove);
  if (self->fd >= 0)
    close (self->fd);
  self->fd = -1;
}

static void
suanli_agent_relay_finalize (GObject *object)
{
  SuanliAgentRelay *self = SUANLI_AGENT_RELAY (object);

  close_job (self);
  g_clear_object (&self->connection);
  g_free (self->socket_folder);
  g_free (self->failure);
  g_byte_array_unref (self->input);
  g_byte_array_unref (self->queue);
  g_free (self->peer);
  G_OBJECT_CLASS (suanli_agent_relay_parent_class)->finalize (object);
}

static void
suanli_agent_relay_class_init (SuanliAgentRelayClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = suanli_agent_relay_finalize;
}

static void
suanli_agent_relay_init (SuanliAgentRelay *self)
{
  self->fd = -1;
  self->input = g_byte_array_new ();
  self->queue = g_byte_array_new ();
}

static gboolean
is_open (SuanliAgentRelay *self)
{
  return soup_websocket_connection_get_state (self->connection) == SOUP_WEBSOCKET_STATE_OPEN;
}

static void
send_json (SuanliAgentRelay *self,
           JsonBuilder      *builder)
{
  g_autofree char *text = suanli_json_write_builder (builder, FALSE, NULL);   /* strings and integers */

  if (is_open (self))
    soup_websocket_connection_send_text (self->connection, text);
}

static void
send_error (SuanliAgentRelay *self,
            const char       *message)
{
  g_autoptr(JsonBuilder) builder = json_builder_new ();
  g_autofree char *valid = g_utf8_make_valid (message, -1);   /* a job's words, checked nowhere else */

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "type");
  json_builder_add_string_value (builder, "error");
  json_builder_set_member_name (builder, "message");
  json_builder_add_string_value (builder, valid);
  json_builder_end_object (builder);
  send_json (self, builder);
}

static void
send_type (SuanliAgentRelay *self,
           const char       *type)
{
  g_autoptr(JsonBuilder) builder = json_builder_new ();

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "type");
  json_builder_add_string_value (builder, type);
  json_builder_end_object (builder);
  send_json (self, builder);
}

/* Sends what the queue holds, as far as the window goes (bytes sent less bytes acknowledged);
 * after the job's end, "ended" and close. */
static void
flush (SuanliAgentRelay *self)
{
  while (is_open (self) && self->queue->len > self->queue_head && self->bytes_sent - self->acknowledged < self->window)
    {
      guint64 room = self->window - (self->bytes_sent - self->acknowledged);
      gsize length = MIN (self->queue->len - self->queue_head, MIN (room, SUANLI_AGENT_MAX_DATA_MESSAGE));

      soup_websocket_connection_send_binary (self->connection, self->queue->data + self->queue_head, length);
      self->queue_head += length;
      self->bytes_sent += length;
    }
  /* Sent bytes leave the queue in one move now and then, not one per message. */
  if (self->queue_head > 0 && (self->queue_head == self->queue->len || self->queue_head > self->queue->len / 2))
    {
      g_byte_array_remove_range (self->queue, 0, (guint) self->queue_head);
      self->queue_head = 0;
    }
  if (self->job_ended && !self->finished && self->queue->len == 0 && is_open (self))
    {
      g_autoptr(JsonBuilder) builder = json_builder_new ();

      self->finished = TRUE;
      json_builder_begin_object (builder);
      json_builder_set_member_name (builder, "type");
      json_builder_add_string_value (builder, "ended");
      json_builder_set_member_name (builder, "records");
      json_builder_add_int_value (builder, (gint64) self->records);
      json_builder_set_member_name (builder, "dropped");
      json_builder_add_int_value (builder, (gint64) self->dropped);
      json_builder_end_object (builder);
      send_json (self, builder);
      soup_websocket_connection_close (self->connection, SOUP_WEBSOCKET_CLOSE_NORMAL, NULL);
    }
}

static void
append_dropped (SuanliAgentRelay *self)
{
  SuanliCaptureDropped dropped = { .count = self->drops_unreported, .reason = SUANLI_DROPPED_BY_RELAY };

  suanli_capture_init_record (&dropped.record, SUANLI_CAPTURE_DROPPED, sizeof dropped);
  g_byte_array_append (self->queue, (const guint8 *) &dropped, sizeof dropped);
  self->drops_unreported = 0;
}

/* One whole record from the job: queued, or dropped and counted when the queue is full. Returns
 * FALSE when even the records that are never dropped (names, drop counts, the end) pass the hard
 * limit: the capture cannot go on. */
static gboolean
enqueue_record (SuanliAgentRelay          *self,
                const SuanliCaptureRecord *record)
{
  /* Modules too: every launch stack after one is named by it. */
  gboolean must_keep = record->kind == SUANLI_CAPTURE_STRING || record->kind == SUANLI_CAPTURE_END ||
                       record->kind == SUANLI_CAPTURE_DROPPED || record->kind == SUANLI_CAPTURE_MODULE;
  gsize queued = self->queue->len - self->queue_head;

  if (queued + record->size > (gsize) self->queue_limit + HARD_LIMIT_EXTRA)
    return FALSE;
  if (!must_keep && queued + record->size > self->queue_limit)
    {
      self->dropped++;
      self->drops_unreported++;
      return TRUE;
    }
  if (self->drops_unreported > 0)
    append_dropped (self);
  g_byte_array_append (self->queue, (const guint8 *) record, record->size);
  self->records++;
  return TRUE;
}

/* The header goes out as it came, but for the clock offset of an agent told to act as a skewed
 * host: CUPTI's times then land where that host's clock would put them. */
static void
pass_header (SuanliAgentRelay          *self,
             const SuanliCaptureHeader *header,
             gsize                      size)
{
  gint64 offset = header->clock_offset_ns + self->clock_shift_ns;
  guint at = self->queue->len;

  g_byte_array_append (self->queue, self->input->data, (guint) size);
  memcpy (self->queue->data + at + offsetof (SuanliCaptureHeader, clock_offset_ns), &offset, sizeof offset);
  self->devices_left = (guint64) header->n_devices * header->device_size;
}

/* More devices than any node has, or entries larger than any writer makes: damage. */
static gboolean
devices_fit (const SuanliCaptureHeader *header)
{
  return header->n_devices <= MAX_DEVICES && header->device_size <= MAX_DEVICE_SIZE;
}

/* Cuts what has come into the header, device entries and whole records. Returns NULL, or why the
 * stream cannot go on (the bytes before the fault have been taken). */
static const char *
cut_records (SuanliAgentRelay *self)
{
  const char *failure = NULL;
  gsize used = 0;

  while (used < self->input->len)
    {
      const guint8 *at = self->input->data + used;
      gsize left = self->input->len - used;

      if (!self->has_header)
        {
          SuanliCaptureHeader header;
          gsize consumed = 0;
          SuanliCaptureStatus status = suanli_capture_read_header (at, left, &header, &consumed);

          if (status == SUANLI_CAPTURE_NEED_MORE)
            break;
          if (status != SUANLI_CAPTURE_OK || !devices_fit (&header))
            {
              failure = status != SUANLI_CAPTURE_OK ? suanli_capture_status_message (status)
                                                    : "more devices in the header than a node has";
              break;
            }
          pass_header (self, &header, consumed);   /* the stream's first bytes: used is 0 */
          used = consumed;
          self->has_header = TRUE;
        }
      else if (self->devices_left > 0)
        {
          gsize length = MIN (left, self->devices_left);

          g_byte_array_append (self->queue, at, (guint) length);
          self->devices_left -= length;
          used += length;
        }
      else
        {
          const SuanliCaptureRecord *record = NULL;
          SuanliCaptureStatus status = suanli_capture_next_record (at, left, &record);

          if (status == SUANLI_CAPTURE_NEED_MORE)
            break;
          if (status != SUANLI_CAPTURE_OK)
            {
              failure = suanli_capture_status_message (status);
              break;
            }
          if (!enqueue_record (self, record))
            {
              failure = "the workbench does not keep up and the job's names alone fill the queue";
              break;
            }
          used += record->size;
        }
    }
  g_byte_array_remove_range (self->input, 0, (guint) used);
  return failure;
}

static void
job_ended (SuanliAgentRelay *self,
           const char       *why)
{
  self->read_source = 0;
  close_job (self);
  self->job_ended = TRUE;
  /* A stream cut inside a record goes on as it was cut: the workbench keeps its whole records.
   * A damaged one ends before the damage. */
  if (why == NULL)
    g_byte_array_append (self->queue, self->input->data, self->input->len);
  g_byte_array_set_size (self->input, 0);
  if (why != NULL)
    {
      g_message ("%s: the capture of pid %d ends here: %s", self->peer, self->pid, why);
      send_error (self, why);
    }
  flush (self);
}

static gboolean
on_job_readable (int          fd,
                 GIOCondition condition,
                 gpointer     data)
{
  SuanliAgentRelay *self = data;
  const char *failure;
  gsize taken = 0;

  while (taken < READ_SLICE)
    {
      guint old = self->input->len;
      ssize_t got;

      g_byte_array_set_size (self->input, old + (1 << 16));
      got = recv (fd, self->input->data + old, 1 << 16, MSG_DONTWAIT);
      g_byte_array_set_size (self->input, old + (guint) MAX (got, 0));
      if (got < 0 && errno == EINTR)
        continue;
      if (got < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
        break;
      if (got <= 0)
        {
          job_ended (self, cut_records (self));
          return G_SOURCE_REMOVE;
        }
      taken += (gsize) got;
    }
  if ((failure = cut_records (self)) != NULL)
    {
      job_ended (self, failure);
      return G_SOURCE_REMOVE;
    }
  flush (self);
  return G_SOURCE_CONTINUE;
}

/* On a worker: finds the job and sends it START (CUPTI's first set-up can take seconds). Asking
 * the jobs may wait on one that is stopped, so the main loop never does it. */
static void
ask_start (GTask        *task,
           gpointer      source,
           gpointer      data,
           GCancellable *cancellable)
{
  SuanliAgentRelay *self = source;
  g_autoptr(GPtrArray) jobs = suanli_live_list_jobs_in (self->socket_folder);
  const char *socket_path = NULL;
  GError *error = NULL;
  int fd;

  for (guint i = 0; i < jobs->len && socket_path == NULL; i++)
    if (((SuanliLiveJob *) g_ptr_array_index (jobs, i))->pid == self->pid)
      socket_path = ((SuanliLiveJob *) g_ptr_array_index (jobs, i))->socket_path;
  if (socket_path == NULL)
    {
      g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_NOT_FOUND, "no profilable job has pid %d", self->pid);
      return;
    }
  fd = suanli_live_start (socket_path, &error);
  if (fd < 0)
    g_task_return_error (task, error);
  else
    g_task_return_int (task, fd);
}

static void
started (GObject      *source,
         GAsyncResult *result,
         gpointer      data)
{
  SuanliAgentRelay *self = SUANLI_AGENT_RELAY (source);
  g_autoptr(GError) error = NULL;
  gssize fd = g_task_propagate_int (G_TASK (result), &error);

  self->starting = FALSE;
  if (fd < 0)
    {
      g_message ("%s: capture of pid %d refused: %s", self->peer, self->pid, error->message);
      send_error (self, error->message);
      return;
    }
  if (!is_open (self))
    {
      close ((int) fd);   /* the workbench left while the job was starting: the job sees it gone */
      return;
    }
  self->fd = (int) fd;
  self->read_source = g_unix_fd_add (self->fd, G_IO_IN | G_IO_HUP | G_IO_ERR, on_job_readable, self);
  g_message ("%s: capture of pid %d started", self->peer, self->pid);
  send_type (self, "started");
}

/* The workbench has taken @bytes more: room for as many again. Acknowledging more than was sent
 * is a client that does not read and lies about it; it is cut off. */
static gboolean
acknowledge (SuanliAgentRelay *self,
             gint64            bytes)
{
  if (bytes < 0 || (guint64) bytes > self->bytes_sent - self->acknowledged)
    return FALSE;
  self->acknowledged += (guint64) bytes;
  return TRUE;
}

static void
answer_clock (SuanliAgentRelay *self,
              gint64            t0,
              gint64            t1)
{
  g_autoptr(JsonBuilder) builder = json_builder_new ();

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "type");
  json_builder_add_string_value (builder, "clock");
  json_builder_set_member_name (builder, "t0");
  json_builder_add_int_value (builder, t0);
  json_builder_set_member_name (builder, "t1");
  json_builder_add_int_value (builder, t1);
  json_builder_set_member_name (builder, "t2");
  json_builder_add_int_value (builder, suanli_agent_now_ns (self->clock_shift_ns));
  json_builder_end_object (builder);
  send_json (self, builder);
}

static void
on_message (SoupWebsocketConnection *connection,
            SoupWebsocketDataType    type,
            GBytes                  *message,
            gpointer                 data)
{
  SuanliAgentRelay *self = data;
  gint64 received = suanli_agent_now_ns (self->clock_shift_ns);
  g_auto(SuanliAgentMessage) said = { 0 };
  gint64 second = g_get_monotonic_time () / G_USEC_PER_SEC;
  gsize length;
  const char *text = g_bytes_get_data (message, &length);

  /* After this side has closed, libsoup still hands over what the client sent meanwhile: ignored,
   * since closing again would be a critical (and one per message, for a client sending fast). */
  if (soup_websocket_connection_get_state (connection) != SOUP_WEBSOCKET_STATE_OPEN)
    return;
  if (second != self->control_window)
    {
      self->control_window = second;
      self->control_count = 0;
    }
  if (++self->control_count > CONTROL_PER_SECOND)
    {
      soup_websocket_connection_close (connection, SOUP_WEBSOCKET_CLOSE_POLICY_VIOLATION, "too many messages");
      return;
    }
  if (type != SOUP_WEBSOCKET_DATA_TEXT)
    {
      soup_websocket_connection_close (connection, SOUP_WEBSOCKET_CLOSE_UNSUPPORTED_DATA, "control messages are text");
      return;
    }
  if (!suanli_agent_message_read (text, length, &said, NULL))
    {
      soup_websocket_connection_close (connection, SOUP_WEBSOCKET_CLOSE_BAD_DATA,
                                       "control messages are JSON objects with a string \"type\"");
      return;
    }
  switch (said.type)
    {
    case SUANLI_AGENT_MESSAGE_CLOCK:
      answer_clock (self, said.t0 != SUANLI_AGENT_MESSAGE_NONE ? said.t0 : -1, received);
      break;
    case SUANLI_AGENT_MESSAGE_START:
      {
        g_autoptr(GTask) task = NULL;

        if (self->starting || self->fd >= 0 || self->job_ended)
          {
            send_error (self, "this connection has started its capture already");
            return;
          }
        self->starting = TRUE;
        self->window = (guint64) CLAMP (said.credit, 0, (gint64) SUANLI_AGENT_MAX_CREDIT);
        task = g_task_new (self, NULL, started, NULL);
        g_task_run_in_thread (task, ask_start);
      }
      break;
    case SUANLI_AGENT_MESSAGE_CREDIT:
      if (!acknowledge (self, said.bytes))
        {
          soup_websocket_connection_close (connection, SOUP_WEBSOCKET_CLOSE_POLICY_VIOLATION,
                                           "credit for bytes never sent");
          return;
        }
      flush (self);
      break;
    case SUANLI_AGENT_MESSAGE_STOP:
      /* Once, and never waiting: a job stopped in a debugger must not stop the agent. */
      if (self->fd >= 0 && !self->stop_sent)
        self->stop_sent = send (self->fd, "STOP\n", 5, MSG_NOSIGNAL | MSG_DONTWAIT) == 5;
      break;
    default:
      send_error (self, "unknown message type");
    }
}

/* libsoup's own refusals (a frame past the size limit, a broken frame) come here before the close. */
static void
on_error (SoupWebsocketConnection *connection,
          GError                  *error,
          gpointer                 data)
{
  SuanliAgentRelay *self = data;

  if (self->failure == NULL)
    self->failure = g_strdup (error->message);
}

static void
on_closed (SoupWebsocketConnection *connection,
           gpointer                 data)
{
  SuanliAgentRelay *self = data;

  /* Closing the job's stream ends its capture: the job sees its collector gone. */
  close_job (self);
  g_message ("%s: connection for pid %d closed (code %u%s%s): %" G_GUINT64_FORMAT " records, %" G_GUINT64_FORMAT
             " bytes sent, %" G_GUINT64_FORMAT " dropped", self->peer, self->pid,
             soup_websocket_connection_get_close_code (connection), self->failure != NULL ? ", " : "",
             self->failure != NULL ? self->failure : "", self->records, self->bytes_sent, self->dropped);
  g_signal_handlers_disconnect_by_data (connection, self);
  g_object_unref (self);   /* the connection's hold, taken in _new() */
}

/**
 * suanli_agent_relay_new:
 * @connection: the workbench's WebSocket, open
 * @pid: the job it asked for
 * @socket_folder: (nullable): where the jobs' sockets are; NULL for this user's own
 * @peer: the workbench's address, for the log
 * @queue_limit: bytes of whole records that may wait for credit before records drop
 *
 * Returns: (transfer none): the relay, which lives as long as @connection is open.
 */
SuanliAgentRelay *
suanli_agent_relay_new (SoupWebsocketConnection *connection,
                        int                      pid,
                        const char              *socket_folder,
                        const char              *peer,
                        gint64                   clock_shift_ns,
                        guint                    queue_limit)
{
  SuanliAgentRelay *self = g_object_new (SUANLI_TYPE_AGENT_RELAY, NULL);

  self->connection = g_object_ref (connection);
  self->pid = pid;
  self->socket_folder = g_strdup (socket_folder);
  self->peer = g_strdup (peer);
  self->clock_shift_ns = clock_shift_ns;
  self->queue_limit = queue_limit;
  soup_websocket_connection_set_max_incoming_payload_size (connection, SUANLI_AGENT_MAX_CONTROL);
  g_signal_connect (connection, "message", G_CALLBACK (on_message), self);
  g_signal_connect (connection, "error", G_CALLBACK (on_error), self);
  g_signal_connect (connection, "closed", G_CALLBACK (on_closed), self);
  return self;
}
