/* suanli-plan-name.c — a plan's name: the one its user gave it, else one made from its model and hardware
 *
 * A plan whose "name" is absent or blank follows what it plans: "Llama 2 70B LoRA on 8 × H100 SXM",
 * made afresh from the resolved inputs whenever they change. A name the user typed is kept in the
 * document and no longer follows; removing it makes the plan follow again. Old files that carry a
 * name keep it, as an edited one.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>

#include "suanli-plan-name.h"

/* Whether the document holds a name of its own (not blank). */
gboolean
suanli_plan_name_is_edited (SuanliPlan *plan)
{
  const char *name;

  g_return_val_if_fail (SUANLI_IS_PLAN (plan), FALSE);

  for (name = suanli_plan_get_name (plan); *name != '\0'; name = g_utf8_next_char (name))
    if (!g_unichar_isspace (g_utf8_get_char (name)))
      return TRUE;
  return FALSE;
}

/* "70B", "1.3B", "125M", "1.8T": a parameter count as model names write it. */
static char *
parameter_count (double parameters)
{
  if (parameters >= 1e12)
    return g_strdup_printf ("%.3gT", parameters / 1e12);
  if (parameters >= 1e9)
    return g_strdup_printf ("%.3gB", parameters / 1e9);
  return g_strdup_printf ("%.3gM", parameters / 1e6);
}

/**
 * suanli_plan_name_derive:
 * @inputs: a plan as resolved, possibly with errors (what did not resolve is left out)
 *
 * Returns: (transfer full): the name made from the model, the mode and the hardware.
 */
char *
suanli_plan_name_derive (const SuanliPlanInputs *inputs)
{
  g_autofree char *model = NULL;
  g_autofree char *workload = NULL;

  g_return_val_if_fail (inputs != NULL, NULL);

  if (*inputs->model_name != '\0')
    model = g_strdup (inputs->model_name);
  else if (inputs->parameters > 0)
    {
      g_autofree char *count = parameter_count (inputs->parameters);

      /* Translators: a model without a catalog preset, by its parameter count: "70B model". */
      model = g_strdup_printf (_("%s model"), count);
    }
  else
    return g_strdup (_("Plan"));

  switch (inputs->mode)
    {
    case SUANLI_MODE_LORA:
      /* Translators: a plan's name, "Llama 2 70B LoRA"; the hardware may follow. */
      workload = g_strdup_printf (_("%s LoRA"), model);
      break;
    case SUANLI_MODE_QLORA:
      workload = g_strdup_printf (_("%s QLoRA"), model);
      break;
    case SUANLI_MODE_FINETUNE:
      /* Translators: a plan's name, "Llama 2 70B fine-tune" (every parameter trained); the hardware may follow. */
      workload = g_strdup_printf (_("%s fine-tune"), model);
      break;
    case SUANLI_MODE_INFERENCE:
      /* Translators: a plan's name, "Llama 2 70B inference"; the hardware may follow. */
      workload = g_strdup_printf (_("%s inference"), model);
      break;
    case SUANLI_MODE_TRAIN:
    default:
      /* Translators: a plan's name, "Llama 2 7B training"; the hardware may follow. */
      workload = g_strdup_printf (_("%s training"), model);
      break;
    }
  if (*inputs->accelerator_name == '\0' || inputs->gpus < 1)
    return g_steal_pointer (&workload);
  /* Translators: a plan's name: the workload, then the hardware: "Llama 2 70B LoRA on 8 × H100 SXM". */
  return g_strdup_printf (_("%s on %.0f × %s"), workload, inputs->gpus, inputs->accelerator_name);
}

/**
 * suanli_plan_name_dup:
 * @inputs: (nullable): @plan as resolved, possibly with errors; NULL when it was not
 *
 * Returns: (transfer full): the plan's name in effect: its own, else the derived one.
 */
char *
suanli_plan_name_dup (SuanliPlan             *plan,
                      const SuanliPlanInputs *inputs)
{
  g_return_val_if_fail (SUANLI_IS_PLAN (plan), NULL);

  if (suanli_plan_name_is_edited (plan))
    return g_strdup (suanli_plan_get_name (plan));
  if (inputs == NULL)
    return g_strdup (_("Plan"));
  return suanli_plan_name_derive (inputs);
}
