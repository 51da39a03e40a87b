/* suanli-estimate.h — what a plan needs and takes: memory, time, throughput, energy, cost
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "suanli-efficiency.h"
#include "suanli-plan-inputs.h"

G_BEGIN_DECLS

/* Inference figures; the estimate carries a nominal set and low/high bounds. */
typedef struct
{
  double weights_per_gpu;            /* bytes */
  double kv_bytes_per_token;         /* bytes, whole model, one sequence */
  double max_concurrent_sequences;
  double ttft_s;
  double ttft_compute_s;             /* of it, the prompt's forward pass */
  double ttft_comm_s;                /* of it, the tensor-parallel all-reduces */
  double tpot_s;
  double tokens_per_s;
  gboolean memory_bound;
  double expert_read_fraction;       /* share of the routed experts' weights one decode step reads */
  /* capacity: every replica at the largest batch memory allows */
  double capacity_batch;
  double capacity_step_s;            /* one decode step at that batch */
  double capacity_rps;               /* requests per second the system completes */
} SuanliInferenceFigures;

/* One bound of a training estimate's range: the figures at the low or high end of the efficiency. */
typedef struct
{
  double step_time_s;
  double tokens_per_s;
  double time_to_train_s;
  double mfu;
  double gpu_hours;
  double energy_kwh;
  double cost;
  double co2_t;
} SuanliTrainingRange;

typedef struct
{
  /* memory per GPU, bytes, on the most loaded GPU (the first pipeline stage) */
  double weights;
  double gradients;
  double optimizer;
  double activations;
  double kv_cache;
  double overhead;
  double total;
  double capacity;
  gboolean fits;
  double cpu_offload_per_node;       /* bytes */
  gboolean cpu_fits;                 /* the offloaded states fit the node's CPU memory, with DeepSpeed's 1.5x margin */
  /* training */
  double model_flops_per_step;
  double hardware_flops_per_step;
  double step_time_s;
  double compute_s;
  double communication_s;            /* all of it, overlapped or not */
  double exposed_communication_s;
  double bubble_s;
  double offload_s;                  /* host transfers and the CPU's optimizer step, not overlapped */
  double tokens_per_s;
  double time_to_train_s;
  double mfu;
  double hfu;
  double gpu_hours;
  double energy_kwh;
  double cost;
  double co2_t;
  SuanliEfficiency efficiency;       /* the compute share of peak: modelled, or the plan's */
  SuanliTrainingRange training_low;  /* at the bottom of the efficiency's range: the slow end */
  SuanliTrainingRange training_high; /* at the top: the fast end */
  /* the parts of the communication, seconds per step */
  double data_parallel_s;
  double tensor_parallel_s;
  double pipeline_s;
  double expert_s;
  /* inference */
  double replicas;                   /* independent copies of the model: GPUs ÷ (tensor × pipeline) */
  double replicas_needed;            /* for workload.requests_per_s at the nominal capacity; 0: not asked */
  /* serving at capacity, per million output tokens; 0 when nothing fits (cost: or no price is given) */
  double cost_per_million_tokens;
  double kwh_per_million_tokens;
  SuanliInferenceFigures inference;
  SuanliInferenceFigures inference_low;
  SuanliInferenceFigures inference_high;
} SuanliEstimate;

void  suanli_estimate_compute    (const SuanliPlanInputs *inputs,
                                  SuanliEstimate         *estimate);
char *suanli_estimate_explain    (const SuanliPlanInputs *inputs,
                                  const SuanliEstimate   *estimate,
                                  const char             *figure);
const char * const *suanli_estimate_get_figures (void);
double   suanli_estimate_mfu_at_compute_peak (const SuanliPlanInputs *inputs,
                                              const SuanliEstimate   *estimate);
gboolean suanli_estimate_mfu_above_published (const SuanliPlanInputs *inputs,
                                              const SuanliEstimate   *estimate);

/* The intermediate terms, for explanations and tests. */
double suanli_estimate_parameters_per_gpu        (const SuanliPlanInputs *inputs);
double suanli_estimate_lora_parameters_per_gpu   (const SuanliPlanInputs *inputs);
double suanli_estimate_optimizer_bytes           (const SuanliPlanInputs *inputs);
double suanli_estimate_activations_per_layer     (const SuanliPlanInputs *inputs);
double suanli_estimate_activation_multiplier     (const SuanliPlanInputs *inputs);
double suanli_estimate_kv_bytes_per_token_per_gpu (const SuanliPlanInputs *inputs);
double suanli_estimate_kv_bytes_per_sequence_per_gpu (const SuanliPlanInputs *inputs,
                                                      double                  context);
double suanli_estimate_weight_bytes              (const SuanliPlanInputs *inputs,
                                                  double                  parameters);
double suanli_estimate_training_flops_per_token  (const SuanliPlanInputs *inputs,
                                                  gboolean                hardware);

G_END_DECLS
