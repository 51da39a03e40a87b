/* suanli-advice.h — what to change in a plan, and what the change does
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "suanli-estimate.h"

G_BEGIN_DECLS

typedef struct
{
  const char *id;               /* stable: "recompute-full" */
  const char *severity;         /* "info" or "warning" */
  char       *text;             /* translated */
  const char *technique;        /* catalog id of the technique, or NULL */
  char       *change;           /* a JSON Merge Patch of the plan */
  const char *effect_figure;    /* the estimate figure the change moves ("memory.activations") */
  int         effect_direction; /* -1: it goes down, +1: it goes up */
} SuanliAdvice;

void       suanli_advice_free (SuanliAdvice           *advice);
GPtrArray *suanli_advice_for  (const SuanliPlanInputs *inputs,
                               const SuanliEstimate   *estimate);
gboolean   suanli_estimate_get_figure (const SuanliEstimate *estimate,
                                       const char           *figure,
                                       double               *value);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (SuanliAdvice, suanli_advice_free)

G_END_DECLS
