/* suanli-agent-list.h — the agents a workbench connects to, remembered with their tokens
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "suanli-agent-client.h"

G_BEGIN_DECLS

#define SUANLI_TYPE_AGENT_LIST (suanli_agent_list_get_type ())

G_DECLARE_FINAL_TYPE (SuanliAgentList, suanli_agent_list, SUANLI, AGENT_LIST, GObject)

SuanliAgentList   *suanli_agent_list_new        (const char      *path);
const char        *suanli_agent_list_get_path   (SuanliAgentList *self);
gboolean           suanli_agent_list_load       (SuanliAgentList *self,
                                                 GError         **error);
guint              suanli_agent_list_get_n      (SuanliAgentList *self);
SuanliAgentClient *suanli_agent_list_get        (SuanliAgentList *self,
                                                 guint            index);
SuanliAgentClient *suanli_agent_list_find       (SuanliAgentList *self,
                                                 const char      *address);
gboolean           suanli_agent_list_add        (SuanliAgentList *self,
                                                 SuanliAgentClient *client,
                                                 const char      *token,
                                                 GError         **error);
gboolean           suanli_agent_list_remove     (SuanliAgentList *self,
                                                 const char      *address,
                                                 GError         **error);

G_END_DECLS
