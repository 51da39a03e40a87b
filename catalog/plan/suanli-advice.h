/* suanli-advice.h — what to change in a plan, found by estimating each change
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "suanli-estimate.h"

G_BEGIN_DECLS

typedef struct
{
  const char *id;               /* stable: "recompute-full", "combination" */
  const char *severity;         /* "info" or "warning" */
  char       *text;             /* translated: what the change is */
  char       *effect;           /* translated: what the estimator says it does, or NULL for warnings */
  const char *technique;        /* catalog id of the technique, or NULL */
  char       *change;           /* a JSON Merge Patch of the plan */
  const char *effect_figure;    /* the estimate figure the change moves ("memory.activations") */
  int         effect_direction; /* -1: it goes down, +1: it goes up */
  guint       changes;          /* single changes it combines: 1, or more for a combination */
  /* the plan with the change, estimated; all 0 for a warning */
  gboolean    fits_after;
  double      total_after;      /* memory per GPU, bytes */
  double      capacity_after;   /* bytes per GPU */
  double      step_after;       /* training: seconds per step; inference: per output token */
  double      time_after;       /* training: time to train, seconds */
  double      cost_after;
  double      capacity_rps_after;  /* inference: requests per second the system serves */
} SuanliAdvice;

void       suanli_advice_free (SuanliAdvice           *advice);
GPtrArray *suanli_advice_for  (SuanliPlan             *plan,
                               SuanliCatalog          *catalog,
                               const SuanliPlanInputs *inputs,
                               const SuanliEstimate   *estimate);
const char *suanli_advice_technique_title (const char *technique);
gboolean   suanli_estimate_get_figure (const SuanliEstimate *estimate,
                                       const char           *figure,
                                       double               *value);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (SuanliAdvice, suanli_advice_free)

G_END_DECLS
