/* suanli-trace-names.h — the rows' names and labels, in the user's language
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

#include "suanli-trace.h"

G_BEGIN_DECLS

char *suanli_trace_name_for_display (const char  *name);
char *suanli_trace_process_label    (SuanliTrace *trace,
                                     guint        group_index,
                                     gint64       pid,
                                     gboolean     gpu);
char *suanli_trace_track_label      (SuanliTrace *trace,
                                     SuanliTrack *track);

G_END_DECLS
