/* suanli-class-shares.c — the steps' time split among the classes of work
 *
 * Each instant of the steps goes to one class: compute while any compute work runs on the file's
 * GPU, else memory while memory work runs, else communication (what no compute or memory work
 * hides: exposed communication), else host (copies between host and device, and the time the GPU
 * runs nothing, waiting for the host). The classes thus add up to the steps' time.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "suanli-class-shares.h"

/* A piece of GPU work beginning (+1) or ending (−1) at a time. */
typedef struct
{
  gint64 time;
  gint32 change;
  guint8 work_class;
} ClassChange;

static int
compare_changes (gconstpointer a,
                 gconstpointer b)
{
  const ClassChange *x = a, *y = b;

  return (x->time > y->time) - (x->time < y->time);
}

/* The class an instant goes to while @running pieces of each class run. */
static SuanliWorkClass
leading_class (const gint64 *running)
{
  static const SuanliWorkClass by_precedence[] = { SUANLI_WORK_COMPUTE, SUANLI_WORK_MEMORY,
                                                   SUANLI_WORK_COMMUNICATION };

  for (guint i = 0; i < G_N_ELEMENTS (by_precedence); i++)
    if (running[by_precedence[i]] > 0)
      return by_precedence[i];
  return SUANLI_WORK_HOST;
}

/**
 * suanli_class_shares:
 * @classes: per node, its SuanliWorkClass
 * @starts: per node, its start
 * @ends: per node, its end
 * @from: the steps' start
 * @to: the steps' end
 * @class_ns: (out caller-allocates): per class (SUANLI_WORK_N_CLASSES), its share of @from … @to
 *
 * Splits @from … @to among the classes of the GPU work running in it (see the top of the file).
 */
void
suanli_class_shares (const SuanliReplayNode *nodes,
                     guint                   n_nodes,
                     const guint8           *classes,
                     const gint64           *starts,
                     const gint64           *ends,
                     gint64                  from,
                     gint64                  to,
                     gint64                 *class_ns)
{
  g_autoptr(GArray) changes = g_array_new (FALSE, FALSE, sizeof (ClassChange));
  gint64 running[SUANLI_WORK_N_CLASSES] = { 0 };
  gint64 time = from;

  for (guint k = 0; k < SUANLI_WORK_N_CLASSES; k++)
    class_ns[k] = 0;
  if (to <= from)
    return;
  for (guint n = 0; n < n_nodes; n++)
    {
      ClassChange begin = { MAX (starts[n], from), +1, classes[n] }, end = { MIN (ends[n], to), -1, classes[n] };

      if (nodes[n].kind != SUANLI_REPLAY_GPU || begin.time >= end.time)
        continue;
      g_array_append_val (changes, begin);
      g_array_append_val (changes, end);
    }
  g_array_sort (changes, compare_changes);
  for (guint i = 0; i < changes->len; i++)
    {
      const ClassChange *change = &g_array_index (changes, ClassChange, i);

      class_ns[leading_class (running)] += change->time - time;
      time = change->time;
      running[change->work_class] += change->change;
    }
  class_ns[leading_class (running)] += to - time;
}
