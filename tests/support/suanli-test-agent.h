/* suanli-test-agent.h — a real suanli-agent and fake profilable jobs, for the tests
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>

#include "suanli-trace.h"

G_BEGIN_DECLS

typedef struct
{
  GSubprocess      *process;
  guint             port;
  char             *token;
  char             *address;          /* "127.0.0.1:PORT" */
  GDataInputStream *log_lines;        /* the agent's stderr, read as the main loop runs */
  GCancellable     *log_cancellable;
  GString          *log;
} SuanliTestAgent;

gboolean     suanli_test_job_answers (gpointer            socket_path);
GSubprocess *suanli_test_start_job   (guint64             count,
                                      double              seconds,
                                      int                 rank);
GSubprocess *suanli_test_start_job_in (const char        *socket_folder,
                                      guint64             count,
                                      double              seconds,
                                      int                 rank);
void         suanli_test_stop_job    (GSubprocess        *job);
void         suanli_test_start_agent (SuanliTestAgent    *agent,
                                      const char * const *options);
void         suanli_test_stop_agent  (SuanliTestAgent    *agent);
guint64      suanli_test_count_kernels (SuanliTrace      *trace,
                                      guint               group);
void         suanli_test_remove_tree (const char         *path);

G_END_DECLS
