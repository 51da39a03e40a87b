/* suanli-nsys-tables.h — the tables of an Nsight Systems export the importer reads, each into the
 * trace; for suanli-import-nsys.c only
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "suanli-nsys-reader.h"

G_BEGIN_DECLS

/* What the host's tables leave for the GPU's: each launch's CPU stack, as "Call stack" text, by
 * correlation id (gint64 → SuanliString). */
gboolean nsys_read_api_calls      (NsysReader *reader,
                                   GHashTable *stacks);
gboolean nsys_read_nvtx           (NsysReader *reader);
gboolean nsys_read_os_runtime     (NsysReader *reader);
gboolean nsys_read_graph_events   (NsysReader *reader);
void     nsys_read_names          (NsysReader *reader);
gboolean nsys_read_kernels        (NsysReader *reader,
                                   GHashTable *stacks);
gboolean nsys_read_copies         (NsysReader *reader,
                                   GHashTable *stacks);
gboolean nsys_read_syncs          (NsysReader *reader);
void     nsys_read_gpus           (NsysReader *reader,
                                   guint       group);
void     nsys_read_session_start  (NsysReader *reader);
char    *nsys_format_callchain    (NsysReader *reader,
                                   const char *table,
                                   gint64      id,
                                   const char *api);

G_END_DECLS
