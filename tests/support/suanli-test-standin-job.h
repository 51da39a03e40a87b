/* suanli-test-standin-job.h — the stand-in CUDA job (tests/standins/cupti-job.c), driven a line at a time
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gio/gio.h>
#include <json-glib/json-glib.h>

#include "suanli-test-capture-reader.h"

G_BEGIN_DECLS

/* An interactive cupti-job (SUANLI_CUPTI_JOB) with the injection library (SUANLI_INJECT_LIBRARY)
 * as its CUDA_INJECTION64_PATH. */
typedef struct
{
  GSubprocess      *process;
  GDataInputStream *answers;
  GOutputStream    *commands;
  char             *pid;
  char             *socket_path;
  gboolean          exited;
} SuanliTestJob;

SuanliTestJob     *suanli_test_job_start          (const char * const *arguments,
                                                   const char * const *environment);
JsonObject        *suanli_test_job_answer         (SuanliTestJob      *job);
void               suanli_test_job_say            (SuanliTestJob      *job,
                                                   const char         *command);
JsonObject        *suanli_test_job_ask            (SuanliTestJob      *job,
                                                   const char         *command);
void               suanli_test_job_do             (SuanliTestJob      *job,
                                                   const char         *command);
gboolean           suanli_test_job_exited         (gpointer            job);
double             suanli_test_job_exit           (SuanliTestJob      *job);
JsonObject        *suanli_test_job_fake_state     (SuanliTestJob      *job);
GPtrArray         *suanli_test_job_cupti_mappings (SuanliTestJob      *job);
char              *suanli_test_job_start_refused  (SuanliTestJob      *job);
SuanliTestCapture *suanli_test_job_capture        (SuanliTestJob      *job);
void               suanli_test_job_free           (SuanliTestJob      *job);
SuanliTestCapture *suanli_test_job_capture_command (SuanliTestJob *job,
                                                    const char    *command,
                                                    JsonObject   **answer);
void               suanli_test_job_await_flushes  (SuanliTestJob      *job,
                                                   SuanliTestCapture  *capture,
                                                   guint               more);
char              *suanli_test_standin_begin      (void);
void               suanli_test_standin_end        (const char         *folder);
char              *suanli_test_standin_path       (const char         *name);
char              *suanli_test_copy_file          (const char         *source,
                                                   const char         *folder,
                                                   const char         *relative);
/* A GSpawnChildSetupFunc: the child is killed when the test ends, however it ends. */
void               suanli_test_dies_with_test     (gpointer            data);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (SuanliTestJob, suanli_test_job_free)

G_END_DECLS
