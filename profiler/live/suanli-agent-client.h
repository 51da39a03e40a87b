/* suanli-agent-client.h — a workbench's connection to one suanli-agent
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <libsoup/soup.h>

#include "suanli-live-job.h"

G_BEGIN_DECLS

#define SUANLI_TYPE_AGENT_CLIENT (suanli_agent_client_get_type ())

G_DECLARE_FINAL_TYPE (SuanliAgentClient, suanli_agent_client, SUANLI, AGENT_CLIENT, GObject)

SuanliAgentClient *suanli_agent_client_new              (const char         *address,
                                                         const char         *token,
                                                         GError            **error);
const char        *suanli_agent_client_get_address      (SuanliAgentClient  *self);
void               suanli_agent_client_set_pinned_certificate (SuanliAgentClient *self,
                                                         GTlsCertificate    *certificate);
void               suanli_agent_client_set_timeout      (SuanliAgentClient  *self,
                                                         guint               seconds);
void               suanli_agent_client_list_jobs_async  (SuanliAgentClient  *self,
                                                         GCancellable       *cancellable,
                                                         GAsyncReadyCallback callback,
                                                         gpointer            user_data);
GPtrArray         *suanli_agent_client_list_jobs_finish (SuanliAgentClient  *self,
                                                         GAsyncResult       *result,
                                                         GError            **error);
void               suanli_agent_client_connect_async    (SuanliAgentClient  *self,
                                                         const char         *path,
                                                         GCancellable       *cancellable,
                                                         GAsyncReadyCallback callback,
                                                         gpointer            user_data);
SoupWebsocketConnection *suanli_agent_client_connect_finish (SuanliAgentClient *self,
                                                         GAsyncResult       *result,
                                                         GError            **error);

G_END_DECLS
