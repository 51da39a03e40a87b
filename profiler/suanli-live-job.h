/* suanli-live-job.h — a profilable job on this machine, as its control socket describes it
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>

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
  char *socket_path;
} SuanliLiveJob;

void       suanli_live_job_free   (SuanliLiveJob *job);
GPtrArray *suanli_live_list_jobs  (GError       **error);
char      *suanli_live_ask        (const char    *socket_path,
                                   const char    *command,
                                   int           *fd_out,
                                   GError       **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (SuanliLiveJob, suanli_live_job_free)

G_END_DECLS
