/* suanli-serving.h — a serving plan's figures at its capacity: requests, tokens, cost and energy
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "suanli-estimate.h"

G_BEGIN_DECLS

/* What a serving plan does running flat out (continuous batching at the largest batch that fits),
 * on all its GPUs. A figure that cannot be known is 0 with its flag FALSE. */
typedef struct
{
  double   requests_per_s;
  double   tokens_per_s;               /* output tokens generated */
  double   cost_per_million_tokens;    /* in the plan's currency */
  double   kwh_per_million_tokens;     /* at the wall: board power × PUE */
  gboolean has_cost;                   /* a price is set */
  gboolean has_energy;                 /* the accelerator's TDP is known */
} SuanliServingFigures;

gboolean suanli_serving_figures (const SuanliPlanInputs *inputs,
                                 const SuanliEstimate   *estimate,
                                 SuanliServingFigures   *figures);

G_END_DECLS
