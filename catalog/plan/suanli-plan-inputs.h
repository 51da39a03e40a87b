/* suanli-plan-inputs.h — a plan checked and resolved against the catalog, ready to estimate
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "suanli-catalog.h"
#include "suanli-plan.h"

G_BEGIN_DECLS

/* The least share (MFU, goodput, an efficiency) a plan takes, the planner's own step: below it a
 * share means nothing, and a step time divided by it is no time. */
#define SUANLI_PLAN_MIN_SHARE 0.01
/* The least achieved rate a plan takes, 1 GFLOP/s: below any accelerator's. */
#define SUANLI_PLAN_MIN_TFLOPS 0.001

typedef enum {
  SUANLI_MODE_TRAIN,       /* pre-training: a token budget, Chinchilla applies */
  SUANLI_MODE_LORA,
  SUANLI_MODE_QLORA,
  SUANLI_MODE_INFERENCE,
  SUANLI_MODE_FINETUNE,    /* every parameter trained, on a dataset for some epochs */
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
  SUANLI_OPTIMIZER_ADAMW,            /* fp32 moments and an fp32 master copy: 12 B */
  SUANLI_OPTIMIZER_ADAMW_8BIT,       /* 8-bit moments, fp32 master: 6 B */
  SUANLI_OPTIMIZER_SGD,              /* fp32 momentum and master: 8 B */
  SUANLI_OPTIMIZER_ADAMW_NO_MASTER,  /* fp32 moments, the weights updated in place: 8 B */
  SUANLI_OPTIMIZER_ADAMW_BF16,       /* bf16 moments, no master: 4 B */
  SUANLI_OPTIMIZER_ADAFACTOR,        /* factored second moment, no momentum, fp32 master: about 4 B */
} SuanliOptimizer;

typedef enum {
  SUANLI_LORA_ATTENTION,   /* q, k, v and o projections */
  SUANLI_LORA_ALL_LINEAR,  /* and the feed-forward's matrices */
} SuanliLoraTargets;

/* Whose accounting the training memory follows. */
typedef enum {
  SUANLI_MEMORY_MODEL_ZERO_PAPER,  /* Rajbhandari et al. 2020: (2 + 2 + K)Ψ, sharded by stage */
  SUANLI_MEMORY_MODEL_DEEPSPEED,   /* DeepSpeed's estimators: fp32 gradients, the gathered layer */
  SUANLI_MEMORY_MODEL_FSDP,        /* PyTorch FSDP: sharded fp32 flat parameters, two units unsharded */
} SuanliMemoryModel;

typedef enum {
  SUANLI_OFFLOAD_NONE,
  SUANLI_OFFLOAD_OPTIMIZER,
  SUANLI_OFFLOAD_OPTIMIZER_PARAMETERS,
  SUANLI_OFFLOAD_NVME,
} SuanliOffload;

/* The pipeline's schedule: Megatron's 1F1B (interleaved with virtual stages), or DeepSeek's DualPipe,
 * which runs a forward and a backward chunk together so that each hides the other's communication. */
typedef enum {
  SUANLI_SCHEDULE_1F1B,
  SUANLI_SCHEDULE_DUALPIPE,
} SuanliSchedule;

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
  char            model_name[96];      /* the preset's name, or "" (none, or one the plan changes) */
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
  double          head_dim;             /* hidden / heads unless given */
  double          ffn_matrices;         /* 3: gated (SwiGLU), 2: plain */
  double          expert_ffn_hidden;    /* each routed expert's width; ffn_hidden unless given */
  double          shared_experts;       /* always-active experts per MoE layer */
  double          dense_layers;         /* leading layers with a dense feed-forward (MoE models) */
  double          q_lora_rank;          /* multi-head latent attention: query compression, 0: none */
  double          kv_lora_rank;         /* multi-head latent attention: the cached latent, 0: no MLA */
  double          rope_head_dim;        /* MLA's decoupled rotary key, cached beside the latent */
  double          sliding_window;       /* tokens a windowed layer attends to, 0: no window */
  double          window_layers;        /* layers that use the window (all of them unless given) */
  double          embedding_matrices;   /* 2: separate input and output embeddings, 1: tied */
  double          weight_flops_scale;   /* the parameters ÷ what the architecture implies, where a plan's
                                         * count differs from it by over 10 % (the count wins); else 1 */
  /* workload */
  SuanliMode      mode;
  double          seq_len;
  double          global_batch;
  double          micro_batch;
  double          tokens;               /* trained on in all: the budget, or dataset × epochs */
  double          dataset_tokens;       /* fine-tunes */
  double          epochs;
  double          lora_rank;
  SuanliLoraTargets lora_targets;
  double          prompt_tokens;
  double          output_tokens;
  double          batch;
  double          requests_per_s;       /* inference: the load to serve, 0: not given */
  /* precision */
  SuanliPrecision compute;
  SuanliPrecision weights;
  SuanliPrecision kv_cache;
  SuanliOptimizer optimizer;
  double          quant_group_size;     /* weights per scale and zero-point of 4- and 8-bit weights */
  /* parallelism */
  double          tensor;
  double          pipeline;
  double          data;
  double          expert;
  double          virtual_stages;
  gboolean        sequence_parallel;
  int             zero_stage;
  SuanliOffload   offload;
  SuanliSchedule  schedule;
  /* techniques */
  SuanliRecompute recompute;
  gboolean        flash_attention;
  gboolean        fused_kernels;        /* the kernels between the matrix products run fused */
  /* system */
  char            accelerator_id[96];
  char            accelerator_name[96];
  double          gpus_per_node;
  double          nodes;
  double          gpus;
  double          peak_flops;           /* dense, of the compute precision, one GPU */
  double          reference_flops;      /* dense, of the precision MFU is stated against */
  double          memory_capacity;      /* bytes, as the device reports */
  double          memory_bandwidth;     /* B/s */
  double          board_power;          /* W */
  double          scale_up_domain;      /* GPUs that share the scale-up fabric; 0: the node */
  double          scale_up_bandwidth;   /* B/s per direction per GPU, all links */
  double          host_link_bandwidth;  /* B/s per direction per GPU between scale-up domains in a node */
  double          scale_out_bandwidth;  /* B/s per direction per GPU */
  gboolean        scale_out_explicit;   /* the plan names its scale-out link */
  double          cpu_memory_per_node;  /* bytes */
  /* assumptions */
  double          mfu;                  /* 0: not set; against reference_flops */
  SuanliPrecision mfu_reference;
  double          goodput;              /* share of wall-clock time spent training */
  SuanliMemoryModel memory_model;
  double          achieved_flops;       /* FLOP/s per GPU; 0: not set */
  double          compute_efficiency;
  double          comm_efficiency;
  double          memory_efficiency;
  double          framework_overhead;   /* bytes */
  double          pue;
  double          price_per_gpu_hour;
  char            currency[8];
  double          cny_per_usd;          /* the exchange rate to convert prices with; 0: none */
  double          grid_tco2_per_mwh;
} SuanliPlanInputs;

gboolean suanli_plan_inputs_resolve (SuanliPlan       *plan,
                                     SuanliCatalog    *catalog,
                                     SuanliPlanInputs *inputs,
                                     GPtrArray        *errors,
                                     GPtrArray        *warnings);
const char * const *suanli_plan_inputs_model_keys (void);
double   suanli_precision_bytes     (SuanliPrecision   precision);
const char *suanli_precision_to_nick (SuanliPrecision  precision);
gboolean suanli_plan_inputs_is_training (const SuanliPlanInputs *inputs);
gboolean suanli_plan_inputs_is_finetune (const SuanliPlanInputs *inputs);
gboolean suanli_plan_inputs_is_lora     (const SuanliPlanInputs *inputs);
double   suanli_plan_inputs_micro_batches (const SuanliPlanInputs *inputs);

G_END_DECLS
