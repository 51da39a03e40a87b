/* suanli-flame.h — aggregation trees for flame graphs: CPU stacks, and GPU time by launching stack
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "suanli-trace.h"

G_BEGIN_DECLS

#define SUANLI_TYPE_FLAME (suanli_flame_get_type ())

G_DECLARE_FINAL_TYPE (SuanliFlame, suanli_flame, SUANLI, FLAME, GObject)

/* Node 0 is the root. Children are linked from first_child through next_sibling. */
typedef struct
{
  SuanliString name;
  guint32      parent;
  guint32      first_child;    /* 0: none */
  guint32      next_sibling;   /* 0: none */
  gint64       total;          /* the node and everything under it */
  gint64       self;           /* the node alone */
  guint64      count;          /* slices merged into it */
  gint64       baseline_total; /* differential flames: total and self in the baseline; else 0 */
  gint64       baseline_self;
  gint64       first;          /* the earliest start of what was merged into it (G_MAXINT64: none),
                                * for the time-order view; folded stacks: the line's order */
} SuanliFlameNode;

/* How a flame is made. By default frames whose names differ only by a step or iteration number
 * ("ProfilerStep#12", "Iteration 3") are merged into one ("ProfilerStep#*"), so that the steps of
 * a run, and of two runs, add up; this keeps them apart. */
typedef enum {
  SUANLI_FLAME_KEEP_STEP_NUMBERS = 1 << 0,
} SuanliFlameFlags;

typedef enum {
  SUANLI_FLAME_CPU,   /* nested CPU slices, by thread */
  SUANLI_FLAME_GPU,   /* GPU work under the CPU stack that launched it (by flows) */
} SuanliFlameKind;

/* For suanli_flame_new_for_group(): every group's work. */
#define SUANLI_FLAME_ALL_GROUPS G_MAXUINT

SuanliFlame           *suanli_flame_new          (SuanliTrace     *trace,
                                                  SuanliFlameKind  kind,
                                                  gint64           from,
                                                  gint64           to);
SuanliFlame           *suanli_flame_new_for_group (SuanliTrace    *trace,
                                                  SuanliFlameKind  kind,
                                                  guint            group,
                                                  gint64           from,
                                                  gint64           to);
SuanliFlame           *suanli_flame_new_full     (SuanliTrace     *trace,
                                                  SuanliFlameKind  kind,
                                                  guint            group,
                                                  gint64           from,
                                                  gint64           to,
                                                  SuanliFlameFlags flags);
char                  *suanli_flame_merged_name  (const char      *name);
gboolean               suanli_flame_is_profiler_span (const char  *name,
                                                  const char      *category);
SuanliFlame           *suanli_flame_new_diff     (SuanliFlame     *baseline,
                                                  SuanliFlame     *current);
gboolean               suanli_flame_is_differential (SuanliFlame   *self);
SuanliTrace           *suanli_flame_get_trace    (SuanliFlame     *self);
guint                  suanli_flame_get_n_nodes  (SuanliFlame     *self);
const SuanliFlameNode *suanli_flame_get_node     (SuanliFlame     *self,
                                                  guint            index);
const char            *suanli_flame_get_name     (SuanliFlame     *self,
                                                  guint            index);
gboolean               suanli_flame_write_folded (SuanliFlame     *self,
                                                  GOutputStream   *output,
                                                  GCancellable    *cancellable,
                                                  GError         **error);

G_END_DECLS
