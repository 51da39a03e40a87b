/* suanli-efficiency.h — the share of its dense peak a GPU reaches on a plan's work
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "suanli-plan-inputs.h"

G_BEGIN_DECLS

/* Where the compute efficiency of an estimate comes from, and its factors. */
typedef struct
{
  double   fraction;          /* achieved share of the compute precision's dense peak, over hardware FLOPs */
  gboolean modelled;          /* FALSE: the plan's own compute_efficiency */
  double   low, high;         /* the published runs' spread around the model, as factors on fraction */
  double   gemm_ceiling;      /* the share large matrix products reach on this accelerator and precision */
  double   width;             /* the narrowest matrix dimension one GPU multiplies, after tensor parallelism */
  double   width_factor;
  double   non_matrix;        /* memory-bound kernels between the products: time per FLOP at the peak */
  double   attention_share;   /* of the hardware FLOPs (as counted), attention's scores and values */
  double   attention_ceiling; /* the share attention kernels reach, over the FLOPs a causal mask leaves */
  double   scale_factor;      /* straggling and synchronisation past 1,024 GPUs */
  gboolean capped;            /* held to the highest MFU a published run of the precision reached */
  const char *basis;          /* the measurements the ceiling rests on, for explanations */
} SuanliEfficiency;

void   suanli_efficiency_for_training (const SuanliPlanInputs *inputs,
                                       double                  model_flops_per_token,
                                       double                  hardware_flops_per_token,
                                       double                  attention_flops_per_token,
                                       SuanliEfficiency       *efficiency);
void   suanli_efficiency_for_prefill  (const SuanliPlanInputs *inputs,
                                       SuanliEfficiency       *efficiency);
double suanli_efficiency_highest_published_mfu (SuanliPrecision precision);

G_END_DECLS
