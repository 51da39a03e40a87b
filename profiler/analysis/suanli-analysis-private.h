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

SuanliGpuWork  suanli_analysis_work_kind        (SuanliTrace       *trace,
                                                 const SuanliSlice *slice);
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

G_END_DECLS
