/* suanli-analysis-private.h — what the analyses share inside libsuanli-profiler
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "suanli-analysis.h"

G_BEGIN_DECLS

typedef enum {
  SUANLI_WORK_NONE,
  SUANLI_WORK_KERNEL,
  SUANLI_WORK_MEMCPY,
  SUANLI_WORK_MEMSET,
} SuanliWorkKind;

/* A stretch of GPU work; launch is when the CPU launched it, G_MININT64 when not known. */
typedef struct
{
  gint64 start;
  gint64 end;
  gint64 launch;
} SuanliInterval;

typedef struct _SuanliClassifier SuanliClassifier;

SuanliClassifier     *suanli_classifier_new              (SuanliTrace       *trace);
void                  suanli_classifier_free             (SuanliClassifier  *classifier);
SuanliWorkKind        suanli_classifier_work             (SuanliClassifier  *classifier,
                                                          const SuanliSlice *slice);
gboolean              suanli_classifier_is_operator      (SuanliClassifier  *classifier,
                                                          const SuanliSlice *slice);
gboolean              suanli_classifier_is_communication (SuanliClassifier  *classifier,
                                                          const SuanliSlice *slice);
SuanliMemcpyDirection suanli_classifier_direction        (SuanliClassifier  *classifier,
                                                          const SuanliSlice *slice);

SuanliWorkKind suanli_analysis_work_kind        (SuanliTrace       *trace,
                                                 const SuanliSlice *slice);
gint64         suanli_interval_merge            (GArray            *intervals);
gint64         suanli_interval_covered          (GArray            *merged,
                                                 gint64             from,
                                                 gint64             to);
int            suanli_compare_int64             (gconstpointer      a,
                                                 gconstpointer      b);
gpointer       suanli_analysis_entry            (GArray            *entries,
                                                 GHashTable        *index,
                                                 SuanliString       name,
                                                 gconstpointer      fresh);
guint32      **suanli_analysis_launch_table     (SuanliTrace       *trace);
gint64         suanli_analysis_launch_time      (SuanliTrace       *trace,
                                                 guint32          **launches,
                                                 guint              track,
                                                 guint              slice);
void           suanli_interval_split_idle       (GArray            *busy,
                                                 gint64            *host_wait_ns,
                                                 gint64            *short_gap_ns,
                                                 gint64            *other_idle_ns);
void           suanli_analysis_launch_table_free (SuanliTrace      *trace,
                                                  guint32         **table);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (SuanliClassifier, suanli_classifier_free)

G_END_DECLS
