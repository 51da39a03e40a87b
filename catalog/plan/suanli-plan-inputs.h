/* suanli-plan-inputs.h — a plan checked and resolved against the catalog, ready to estimate
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "suanli-catalog.h"
#include "suanli-plan.h"

G_BEGIN_DECLS

typedef enum {
  SUANLI_MODE_TRAIN,
  SUANLI_MODE_LORA,
  SUANLI_MODE_QLORA,
  SUANLI_MODE_INFERENCE,
} SuanliMode;

typedef enum {
  SUANLI_PRECISION_FP32,
  SUANLI_PRECISION_TF32,
  SUANLI_PRECISION_BF16,
  SUANLI_PRECISION_FP16,
  SUANLI_PRECISION_FP8,
  SUANLI_PRECISION_INT8,
  SUANLI_PRECISION_INT4,
} SuanliPrecision;

typedef enum {
  SUANLI_OPTIMIZER_ADAMW,
  SUANLI_OPTIMIZER_ADAMW_8BIT,
  SUANLI_OPTIMIZER_SGD,
} SuanliOptimizer;

typedef enum {
  SUANLI_OFFLOAD_NONE,
  SUANLI_OFFLOAD_OPTIMIZER,
  SUANLI_OFFLOAD_OPTIMIZER_PARAMETERS,
  SUANLI_OFFLOAD_NVME,
} SuanliOffload;

typedef enum {
  SUANLI_RECOMPUTE_NONE,
  SUANLI_RECOMPUTE_SELECTIVE,
  SUANLI_RECOMPUTE_FULL,
} SuanliRecompute;

/* A problem with a plan: the field as a dotted path ("parallelism.tensor") and why. */
typedef struct
{
  char *field;
  char *message;
} SuanliPlanIssue;

void suanli_plan_issue_free (SuanliPlanIssue *issue);

/* Every number the estimator needs, in base units (bytes, FLOP/s, B/s, W, seconds). Counts are
 * doubles: the formulas multiply them. Unset optional values are 0. */
typedef struct
{
  /* model */
  char            model_name[96];      /* the preset's name, or "" */
  double          parameters;
  double          active_parameters;
  double          layers;
  double          hidden;
  double          heads;
  double          kv_heads;
  double          ffn_hidden;
  double          vocab;
  double          experts;
  double          experts_per_token;
  /* workload */
  SuanliMode      mode;
  double          seq_len;
  double          global_batch;
  double          micro_batch;
  double          tokens;
  double          lora_rank;
  double          prompt_tokens;
  double          output_tokens;
  double          batch;
  /* precision */
  SuanliPrecision compute;
  SuanliPrecision weights;
  SuanliPrecision kv_cache;
  SuanliOptimizer optimizer;
  /* parallelism */
  double          tensor;
  double          pipeline;
  double          data;
  double          expert;
  double          virtual_stages;
  gboolean        sequence_parallel;
  int             zero_stage;
  SuanliOffload   offload;
  /* techniques */
  SuanliRecompute recompute;
  gboolean        flash_attention;
  /* system */
  char            accelerator_id[96];
  char            accelerator_name[96];
  double          gpus_per_node;
  double          nodes;
  double          gpus;
  double          peak_flops;           /* dense, of the compute precision, one GPU */
  double          memory_capacity;      /* bytes, as the device reports */
  double          memory_bandwidth;     /* B/s */
  double          board_power;          /* W */
  double          scale_up_bandwidth;   /* B/s per direction per GPU */
  double          scale_out_bandwidth;  /* B/s per direction per GPU */
  gboolean        scale_out_from_cloud; /* the bandwidth is the cloud instance's network */
  gboolean        scale_out_explicit;   /* the plan names its scale-out link */
  double          cpu_memory_per_node;  /* bytes */
  /* assumptions */
  double          mfu;                  /* 0: not set */
  double          achieved_flops;       /* FLOP/s per GPU; 0: not set */
  double          compute_efficiency;
  double          comm_efficiency;
  double          memory_efficiency;
  double          framework_overhead;   /* bytes */
  double          pue;
  double          price_per_gpu_hour;
  char            currency[8];
  double          grid_tco2_per_mwh;
} SuanliPlanInputs;

gboolean suanli_plan_inputs_resolve (SuanliPlan       *plan,
                                     SuanliCatalog    *catalog,
                                     SuanliPlanInputs *inputs,
                                     GPtrArray        *errors,
                                     GPtrArray        *warnings);
double   suanli_precision_bytes     (SuanliPrecision   precision);
const char *suanli_precision_to_nick (SuanliPrecision  precision);
gboolean suanli_plan_inputs_is_training (const SuanliPlanInputs *inputs);
double   suanli_plan_inputs_micro_batches (const SuanliPlanInputs *inputs);
double   suanli_plan_inputs_peak_for (SuanliItem      *accelerator,
                                      SuanliPrecision  precision);

G_END_DECLS
