/* suanli-cli-trace-io.h — what the trace commands of suanli-cli share: traces in, results out
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <json-glib/json-glib.h>

#include "suanli-import.h"

G_BEGIN_DECLS

int            suanli_cli_trace_import       (SuanliTrace        *trace,
                                              SuanliImportStats  *stats,
                                              const char * const *files,
                                              int                 n_files);
GOutputStream *suanli_cli_trace_open_output  (const char         *out,
                                              GError            **error);
gboolean       suanli_cli_trace_close_output (GOutputStream      *output,
                                              gboolean            written,
                                              GError            **error);
void           suanli_cli_member_int         (JsonBuilder        *builder,
                                              const char         *name,
                                              gint64              value);
void           suanli_cli_member_double      (JsonBuilder        *builder,
                                              const char         *name,
                                              double              value);
void           suanli_cli_member_string      (JsonBuilder        *builder,
                                              const char         *name,
                                              const char         *value);
gboolean       suanli_cli_print_json         (JsonBuilder        *builder,
                                              const char         *command);
char          *suanli_cli_change_text        (gint64              before,
                                              gint64              after);

G_END_DECLS
