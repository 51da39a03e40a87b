/* suanli-analysis-private.h — what the analyses share among themselves (What If uses the public
 * suanli-classifier.h and suanli-interval.h, never this)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "suanli-analysis.h"
#include "suanli-classifier.h"
#include "suanli-interval.h"

G_BEGIN_DECLS

/* The GPU work an interval list holds (suanli_analysis_gather_work). */
typedef enum {
  SUANLI_WORK_BUSY,            /* all of it: kernels, copies and sets */
  SUANLI_WORK_KERNELS,
  SUANLI_WORK_COMPUTE,         /* kernels other than communication ones */
  SUANLI_WORK_COMMUNICATION,   /* communication kernels (NCCL's, RCCL's) */
  SUANLI_WORK_MEMCPY,
  SUANLI_WORK_MEMSET,
  SUANLI_WORK_N_LISTS
} SuanliWorkList;

SuanliGpuWork  suanli_analysis_work_kind        (SuanliTrace       *trace,
                                                 const SuanliSlice *slice);
guint8        *suanli_analysis_string_byte      (SuanliTrace       *trace,
                                                 GArray            *known,
                                                 SuanliString       string);
gpointer       suanli_analysis_entry            (GArray            *entries,
                                                 GHashTable        *index,
                                                 SuanliString       name,
                                                 gconstpointer      fresh);
guint32      **suanli_analysis_launch_table     (SuanliTrace       *trace);
gint64         suanli_analysis_launch_time      (SuanliTrace       *trace,
                                                 guint32          **launches,
                                                 guint              track,
                                                 guint              slice);
void           suanli_analysis_launch_table_free (SuanliTrace      *trace,
                                                  guint32         **table);
void           suanli_analysis_gather_work      (SuanliTrace       *trace,
                                                 SuanliClassifier  *classifier,
                                                 guint32          **launches,
                                                 GArray            *tracks,
                                                 guint              lists,
                                                 GArray           **gathered);

G_END_DECLS
