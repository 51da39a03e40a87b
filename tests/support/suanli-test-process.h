/* suanli-test-process.h — running the built command-line tools (and poppler's) from a test
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* What a run gave: its exit status and everything it printed. */
typedef struct
{
  int   status;
  char *out;
  char *err;
} SuanliTestRun;

void suanli_test_run_clear (SuanliTestRun      *run);
void suanli_test_run       (SuanliTestRun      *run,
                            const char         *language,
                            const char * const *argv);
void suanli_test_run_cli   (SuanliTestRun      *run,
                            const char         *language,
                            const char * const *args);
void suanli_test_put_env   (const char         *name,
                            const char         *value);
char *suanli_test_summary_json (const char     *path);

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (SuanliTestRun, suanli_test_run_clear)

G_END_DECLS
