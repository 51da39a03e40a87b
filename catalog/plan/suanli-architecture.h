/* suanli-architecture.h — what a transformer's shape implies: parameters and FLOPs per token
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "suanli-plan-inputs.h"

G_BEGIN_DECLS

gboolean suanli_architecture_is_known            (const SuanliPlanInputs *inputs);
double   suanli_architecture_attention_parameters (const SuanliPlanInputs *inputs);
double   suanli_architecture_expert_parameters   (const SuanliPlanInputs *inputs);
double   suanli_architecture_dense_ffn_parameters (const SuanliPlanInputs *inputs);
double   suanli_architecture_embedding_parameters (const SuanliPlanInputs *inputs);
double   suanli_architecture_moe_layers          (const SuanliPlanInputs *inputs);
double   suanli_architecture_parameters          (const SuanliPlanInputs *inputs,
                                                  double                  routed_experts);
double   suanli_architecture_largest_layer       (const SuanliPlanInputs *inputs);
double   suanli_architecture_attention_context   (const SuanliPlanInputs *inputs,
                                                  double                  seq_len);
double   suanli_architecture_counted_attention_keys (const SuanliPlanInputs *inputs,
                                                  double                  seq_len);
double   suanli_architecture_forward_flops_per_token (const SuanliPlanInputs *inputs,
                                                  double                  seq_len);
double   suanli_architecture_attention_score_flops (const SuanliPlanInputs *inputs,
                                                  double                  keys);
double   suanli_architecture_decode_keys         (const SuanliPlanInputs *inputs,
                                                  double                  context);
double   suanli_architecture_matrix_parameters   (const SuanliPlanInputs *inputs);
double   suanli_architecture_logit_flops_per_token (const SuanliPlanInputs *inputs);
double   suanli_architecture_kv_elements_per_token_per_layer (const SuanliPlanInputs *inputs);

G_END_DECLS
