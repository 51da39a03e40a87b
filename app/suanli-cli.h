/* suanli-cli.h — what the commands of suanli-cli share
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

#include "suanli-catalog.h"
#include "suanli-plan.h"

G_BEGIN_DECLS

/* The exit codes README.md gives, for every command. */
enum {
  SUANLI_EXIT_DONE = 0,           /* warnings allowed */
  SUANLI_EXIT_USAGE_OR_IO = 1,
  SUANLI_EXIT_INVALID_INPUT = 2,  /* the error names where */
};

int suanli_cli_catalog (int argc, char **argv);
int suanli_cli_plan    (int argc, char **argv);
int suanli_cli_trace   (int argc, char **argv);
int suanli_cli_trace_diff (int argc, char **argv);
int suanli_cli_trace_whatif (int argc, char **argv);
int suanli_cli_report (int argc, char **argv);
int suanli_cli_run    (int argc, char **argv);
int suanli_cli_jobs   (int argc, char **argv);
int suanli_cli_record (int argc, char **argv);

SuanliCatalog *suanli_cli_load_catalog (void);
void           suanli_cli_print_padded (const char *text,
                                        int         width);
SuanliPlan    *suanli_cli_read_plan    (const char *argument,
                                        int        *status);

G_END_DECLS
