/* suanli-plan-charts.c — an estimate's memory and step time as stacked bars, for the planner and the report
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>

#include "suanli-plan-charts.h"
#include "suanli-units.h"

typedef struct
{
  const char    *label;
  double         value;
  SuanliCategory category;
  const char    *figure;   /* the estimate's figure, explained when the part is clicked */
} Part;

/* Memory per GPU by what holds it, against the GPU's capacity. */
void
suanli_plan_charts_fill_memory (SuanliStackedBar     *bar,
                                const SuanliEstimate *e)
{
  const Part parts[] = {
    { N_("weights"), e->weights, SUANLI_CATEGORY_CPU, "memory.weights" },
    { N_("gradients"), e->gradients, SUANLI_CATEGORY_KERNEL, "memory.gradients" },
    { N_("optimizer"), e->optimizer, SUANLI_CATEGORY_COMMUNICATION, "memory.optimizer" },
    { N_("activations"), e->activations, SUANLI_CATEGORY_MEMORY, "memory.activations" },
    { N_("KV cache"), e->kv_cache, SUANLI_CATEGORY_OTHER, "memory.kv_cache" },
    { N_("overhead"), e->overhead, SUANLI_CATEGORY_IDLE, "memory.overhead" },
  };
  g_autofree char *capacity = suanli_format_gib (e->capacity);

  suanli_stacked_bar_clear (bar);
  for (guint i = 0; i < G_N_ELEMENTS (parts); i++)
    if (parts[i].value > 0)
      {
        g_autofree char *value = suanli_format_gib (parts[i].value);

        suanli_stacked_bar_add (bar, _(parts[i].label), parts[i].value, parts[i].category, value);
        suanli_stacked_bar_tag_last (bar, parts[i].figure);
      }
  suanli_stacked_bar_set_limit (bar, e->capacity, capacity);
}

/* A training step: compute, the communication it does not hide, and the pipeline's bubble. */
void
suanli_plan_charts_fill_step (SuanliStackedBar     *bar,
                              const SuanliEstimate *e)
{
  const Part parts[] = {
    { N_("compute"), e->compute_s, SUANLI_CATEGORY_KERNEL, "training.compute_s" },
    { N_("exposed communication"), e->exposed_communication_s, SUANLI_CATEGORY_COMMUNICATION,
      "training.exposed_communication_s" },
    { N_("pipeline bubble"), e->bubble_s, SUANLI_CATEGORY_IDLE, "training.bubble_s" },
  };

  suanli_stacked_bar_clear (bar);
  for (guint i = 0; i < G_N_ELEMENTS (parts); i++)
    {
      g_autofree char *value = suanli_format_seconds (parts[i].value);

      suanli_stacked_bar_add (bar, _(parts[i].label), parts[i].value, parts[i].category, value);
      suanli_stacked_bar_tag_last (bar, parts[i].figure);
    }
}
