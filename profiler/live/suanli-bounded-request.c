/* suanli-bounded-request.c — an HTTP request whose answer is read within a size and a time
 *
 * soup_session_send_and_read() holds the whole body before anyone can look at its size, and the
 * session's timeout counts each read alone: a server sending an endless body, or a byte a second,
 * is read for ever. Here the body is counted as it comes and reading stops one chunk past the
 * limit, and a deadline for the whole request (connection, headers and body) cancels it.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>

#include "suanli-bounded-request.h"

#define CHUNK (16 * 1024)

/* ---- a deadline: a cancellable that a timer, or the caller's own cancellable, cancels -------- */

typedef struct
{
  GCancellable *parent;
  gulong        parent_handler;
  guint         timer;
  gboolean      passed;
} Deadline;

static void
deadline_disarm (Deadline *deadline)
{
  if (deadline->parent != NULL)
    g_cancellable_disconnect (deadline->parent, deadline->parent_handler);
  g_clear_object (&deadline->parent);
  g_clear_handle_id (&deadline->timer, g_source_remove);
}

static void
deadline_free (gpointer data)
{
  deadline_disarm (data);
  g_free (data);
}

static gboolean
deadline_reached (gpointer data)
{
  GCancellable *cancellable = data;
  Deadline *deadline = g_object_get_data (G_OBJECT (cancellable), "suanli-deadline");

  deadline->timer = 0;
  deadline->passed = TRUE;
  g_cancellable_cancel (cancellable);
  return G_SOURCE_REMOVE;
}

static void
parent_cancelled (GCancellable *parent,
                  gpointer      data)
{
  g_cancellable_cancel (data);
}

/* Returns: (transfer full): a cancellable cancelled after @seconds, or when @cancellable is. The
 * timer goes with it: drop it once the request is done. */
GCancellable *
suanli_deadline_new (GCancellable *cancellable,
                     guint         seconds)
{
  GCancellable *self = g_cancellable_new ();
  Deadline *deadline = g_new0 (Deadline, 1);

  /* Neither the timer nor the handler holds a reference: both go when disarmed, or with it. */
  deadline->timer = g_timeout_add_seconds (seconds, deadline_reached, self);
  if (cancellable != NULL)
    {
      deadline->parent = g_object_ref (cancellable);
      deadline->parent_handler = g_cancellable_connect (cancellable, G_CALLBACK (parent_cancelled), self, NULL);
    }
  g_object_set_data_full (G_OBJECT (self), "suanli-deadline", deadline, deadline_free);
  return self;
}

/* The request is done: @deadline's timer stops, whoever else still holds it. */
void
suanli_deadline_disarm (GCancellable *deadline)
{
  deadline_disarm (g_object_get_data (G_OBJECT (deadline), "suanli-deadline"));
}

/* Whether @deadline was cancelled by its timer rather than by its caller. */
gboolean
suanli_deadline_passed (GCancellable *deadline)
{
  Deadline *data = g_object_get_data (G_OBJECT (deadline), "suanli-deadline");

  return data != NULL && data->passed;
}

/* ---- the request ---------------------------------------------------------------------------- */

typedef struct
{
  SoupMessage  *message;
  GInputStream *body;
  GByteArray   *read;
  GCancellable *deadline;
  gsize         limit;
  guint         seconds;
  gboolean      read_to_end;
} Request;

static void
request_free (gpointer data)
{
  Request *request = data;

  g_clear_object (&request->message);
  /* Closing a body before its end would read the rest (libsoup skips it), endless or not: once
   * the request is cancelled, the close gives up at once and the connection is dropped. */
  if (request->body != NULL && !request->read_to_end)
    g_cancellable_cancel (request->deadline);
  if (request->body != NULL)
    g_input_stream_close (request->body, request->deadline, NULL);
  suanli_deadline_disarm (request->deadline);
  g_clear_object (&request->body);
  g_clear_pointer (&request->read, g_byte_array_unref);
  g_clear_object (&request->deadline);
  g_free (request);
}

/* Returns @error as it is, or as a time-out when the deadline cancelled the request. */
static void
return_error (GTask  *task,
              GError *error)
{
  Request *request = g_task_get_task_data (task);

  if (suanli_deadline_passed (request->deadline))
    {
      g_error_free (error);
      error = g_error_new (G_IO_ERROR, G_IO_ERROR_TIMED_OUT, _("no whole answer within %u s"), request->seconds);
    }
  g_task_return_error (task, error);
}

static void read_more (GTask *task);

static void
chunk_read (GObject      *source,
            GAsyncResult *result,
            gpointer      data)
{
  g_autoptr(GTask) task = data;
  Request *request = g_task_get_task_data (task);
  GError *error = NULL;
  g_autoptr(GBytes) chunk = g_input_stream_read_bytes_finish (G_INPUT_STREAM (source), result, &error);

  if (chunk == NULL)
    return_error (task, error);
  else if (g_bytes_get_size (chunk) == 0)
    {
      request->read_to_end = TRUE;
      g_task_return_pointer (task, g_byte_array_free_to_bytes (g_steal_pointer (&request->read)),
                           (GDestroyNotify) g_bytes_unref);
    }
  else if (request->read->len + g_bytes_get_size (chunk) > request->limit)
    g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_MESSAGE_TOO_LARGE,
                             _("an answer of more than %u bytes"), (guint) request->limit);
  else
    {
      g_byte_array_append (request->read, g_bytes_get_data (chunk, NULL), (guint) g_bytes_get_size (chunk));
      read_more (g_steal_pointer (&task));
    }
}

static void
read_more (GTask *task)
{
  Request *request = g_task_get_task_data (task);

  g_input_stream_read_bytes_async (request->body, CHUNK, G_PRIORITY_DEFAULT, request->deadline, chunk_read, task);
}

static void
sent (GObject      *source,
      GAsyncResult *result,
      gpointer      data)
{
  GTask *task = data;
  Request *request = g_task_get_task_data (task);
  GError *error = NULL;

  request->body = soup_session_send_finish (SOUP_SESSION (source), result, &error);
  if (request->body == NULL)
    {
      return_error (task, error);
      g_object_unref (task);
      return;
    }
  read_more (task);
}

/**
 * suanli_bounded_request_async:
 * @limit: the most bytes of body taken; past it, G_IO_ERROR_MESSAGE_TOO_LARGE
 * @seconds: the whole request's deadline; past it, G_IO_ERROR_TIMED_OUT
 *
 * Sends @message and reads its body, at most @limit bytes of it, all within @seconds.
 */
void
suanli_bounded_request_async (SoupSession         *session,
                              SoupMessage         *message,
                              gsize                limit,
                              guint                seconds,
                              GCancellable        *cancellable,
                              GAsyncReadyCallback  callback,
                              gpointer             user_data)
{
  GTask *task = g_task_new (session, cancellable, callback, user_data);
  Request *request = g_new0 (Request, 1);

  request->message = g_object_ref (message);
  request->read = g_byte_array_new ();
  request->deadline = suanli_deadline_new (cancellable, seconds);
  request->limit = limit;
  request->seconds = seconds;
  g_task_set_task_data (task, request, request_free);
  soup_session_send_async (session, message, G_PRIORITY_DEFAULT, request->deadline, sent, task);
}

/* Returns: (transfer full): the whole body, or NULL with @error. */
GBytes *
suanli_bounded_request_finish (GAsyncResult  *result,
                               GError       **error)
{
  return g_task_propagate_pointer (G_TASK (result), error);
}
