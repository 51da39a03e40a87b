/* suanli-bounded-request.h — an HTTP request whose answer is read within a size and a time
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <libsoup/soup.h>

G_BEGIN_DECLS

void    suanli_bounded_request_async  (SoupSession         *session,
                                       SoupMessage         *message,
                                       gsize                limit,
                                       guint                seconds,
                                       GCancellable        *cancellable,
                                       GAsyncReadyCallback  callback,
                                       gpointer             user_data);
GBytes *suanli_bounded_request_finish (GAsyncResult        *result,
                                       GError             **error);

GCancellable *suanli_deadline_new     (GCancellable        *cancellable,
                                       guint                seconds);
void          suanli_deadline_disarm  (GCancellable        *deadline);
gboolean      suanli_deadline_passed  (GCancellable        *deadline);

G_END_DECLS
