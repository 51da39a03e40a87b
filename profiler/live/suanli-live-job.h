/* suanli-live-job.h — a profilable job on this machine, as its control socket describes it
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>
#include <json-glib/json-glib.h>

G_BEGIN_DECLS

typedef struct
{
  int   pid;
  char *host;
  char *command;
  int   rank;         /* -1 when the job's environment does not say */
  int   local_rank;
  int   world_size;
  char *state;        /* "idle", "capturing" or "inert" */
  int   devices;
  char *pid_namespace; /* "pid:[…]", "" when the job does not say */
  char *socket_path;   /* local jobs */
  char *agent;         /* remote jobs: the agent's address */
} SuanliLiveJob;

void           suanli_live_job_free      (SuanliLiveJob *job);
char          *suanli_live_job_describe  (const SuanliLiveJob *job);
void           suanli_live_job_write     (const SuanliLiveJob *job,
                                          JsonBuilder         *builder);
char          *suanli_live_jobs_to_json  (GPtrArray           *jobs);
SuanliLiveJob *suanli_live_job_read      (JsonNode            *node,
                                          GError             **error);
GPtrArray *suanli_live_list_jobs  (GError       **error);
GPtrArray *suanli_live_list_jobs_in (const char  *folder);
char      *suanli_live_ask        (const char    *socket_path,
                                   const char    *command,
                                   int           *fd_out,
                                   GError       **error);
int        suanli_live_start      (const char    *socket_path,
                                   GError       **error);
int        suanli_live_start_with_stacks (const char *socket_path,
                                          int         stack_depth,
                                          GError    **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (SuanliLiveJob, suanli_live_job_free)

G_END_DECLS
