/* suanli-serving.c — a serving plan's figures at its capacity: requests, tokens, cost and energy
 *
 * Per-token cost and energy are what a buyer compares serving systems by. They are taken at the
 * plan's capacity (inference.capacity_rps, every replica busy): the GPUs are paid and powered by
 * the hour whether they are busy or not, so a lighter load costs more per token, never less.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>

#include "suanli-serving.h"

/* Fills @figures for a serving plan; FALSE (and zeros) for a training plan, or one that serves
 * nothing because not even one sequence fits beside the weights. */
gboolean
suanli_serving_figures (const SuanliPlanInputs *in,
                        const SuanliEstimate   *e,
                        SuanliServingFigures   *figures)
{
  double million_tokens_h;

  g_return_val_if_fail (in != NULL && e != NULL && figures != NULL, FALSE);

  memset (figures, 0, sizeof *figures);
  if (suanli_plan_inputs_is_training (in) || e->inference.capacity_rps <= 0)
    return FALSE;
  figures->requests_per_s = e->inference.capacity_rps;
  figures->tokens_per_s = e->inference.capacity_rps * in->output_tokens;
  /* Hours the whole system takes to generate a million tokens. */
  million_tokens_h = 1e6 / figures->tokens_per_s / 3600;
  figures->has_cost = in->price_per_gpu_hour > 0;
  figures->cost_per_million_tokens = in->price_per_gpu_hour * in->gpus * million_tokens_h;
  figures->has_energy = in->board_power > 0;
  figures->kwh_per_million_tokens = in->board_power / 1000 * in->pue * in->gpus * million_tokens_h;
  return TRUE;
}
