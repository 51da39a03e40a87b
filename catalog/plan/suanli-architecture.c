/* suanli-architecture.c — what a transformer's shape implies: parameters and FLOPs per token
 *
 * Counted from the matrices, so that gated feed-forwards (three matrices, SwiGLU), grouped-query
 * and multi-query attention (fewer key/value heads), a head size that is not hidden ÷ heads,
 * multi-head latent attention (DeepSeek-V2/V3) and mixtures of experts with shared experts and
 * leading dense layers all come out right. A matrix of m × n weights costs 2·m·n FLOPs per token
 * forward. Attention is counted as published FLOP budgets count it (Narayanan et al. 2021, PaLM's
 * 6N + 12·L·H·Q·T, NeMo's and Megatron's MFU): each query against the whole sequence, s keys, though
 * a causal mask leaves half of them to compute. For a GPT-style layer (plain 4h feed-forward, as
 * many KV heads as heads) the count is Korthikanti et al. (2022)'s 24h² + 4hs per token per layer.
 * Norms and biases are left out: well under 0.1 % of any model here.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "suanli-architecture.h"

gboolean
suanli_architecture_is_known (const SuanliPlanInputs *in)
{
  return in->layers > 0 && in->hidden > 0 && in->heads > 0;
}

static gboolean
uses_latent_attention (const SuanliPlanInputs *in)
{
  return in->kv_lora_rank > 0;
}

/* Weights of one layer's attention: q, k, v and o projections; with latent attention (DeepSeek-V2,
 * §2.1) the compressions and decompressions instead, the rotary part of q and k beside them. */
double
suanli_architecture_attention_parameters (const SuanliPlanInputs *in)
{
  double h = in->hidden, a = in->heads, d = in->head_dim;

  if (uses_latent_attention (in))
    {
      double rope = in->rope_head_dim, q_rank = in->q_lora_rank, kv_rank = in->kv_lora_rank;
      double q = q_rank > 0 ? h * q_rank + q_rank * a * (d + rope) : h * a * (d + rope);
      double kv = h * (kv_rank + rope) + kv_rank * a * (d + d);

      return q + kv + a * d * h;
    }
  return 2 * h * a * d + 2 * h * in->kv_heads * d;
}

/* One routed (or shared) expert's feed-forward. */
double
suanli_architecture_expert_parameters (const SuanliPlanInputs *in)
{
  return in->ffn_matrices * in->hidden * in->expert_ffn_hidden;
}

/* The feed-forward of a dense layer. */
double
suanli_architecture_dense_ffn_parameters (const SuanliPlanInputs *in)
{
  return in->ffn_matrices * in->hidden * in->ffn_hidden;
}

double
suanli_architecture_embedding_parameters (const SuanliPlanInputs *in)
{
  return in->embedding_matrices * in->vocab * in->hidden;
}

/* Layers whose feed-forward is a mixture of experts. */
double
suanli_architecture_moe_layers (const SuanliPlanInputs *in)
{
  return in->experts > 1 ? MAX (0, in->layers - in->dense_layers) : 0;
}

/* Parameters with @routed_experts of each MoE layer counted (all of them for the model's size,
 * experts_per_token for what one token uses), the router and shared experts always. */
double
suanli_architecture_parameters (const SuanliPlanInputs *in,
                                double                  routed_experts)
{
  double moe_layers = suanli_architecture_moe_layers (in);
  double moe = in->hidden * in->experts +
               (routed_experts + in->shared_experts) * suanli_architecture_expert_parameters (in);

  return in->layers * suanli_architecture_attention_parameters (in) +
         (in->layers - moe_layers) * suanli_architecture_dense_ffn_parameters (in) + moe_layers * moe +
         suanli_architecture_embedding_parameters (in);
}

/* Weights one token is multiplied by: all but the embeddings, and only its routed experts; scaled
 * to the plan's parameter count where that differs from the architecture's (the count wins). */
double
suanli_architecture_matrix_parameters (const SuanliPlanInputs *in)
{
  double scale = in->weight_flops_scale > 0 ? in->weight_flops_scale : 1;

  return scale * (suanli_architecture_parameters (in, in->experts > 1 ? in->experts_per_token : 0) -
                  suanli_architecture_embedding_parameters (in));
}

/* The largest single weight matrix, as DeepSpeed's estimators count the layer ZeRO-3 gathers whole:
 * usually the embedding, else a feed-forward matrix. */
double
suanli_architecture_largest_layer (const SuanliPlanInputs *in)
{
  double h = in->hidden;

  return MAX (in->vocab * h, MAX (h * in->ffn_hidden, MAX (h * in->expert_ffn_hidden, h * in->heads * in->head_dim)));
}

/* Keys a query attends to, on average over a causal sequence of @seq_len and over the layers:
 * (s + 1)/2 without a window; a window of W < s caps it, W − W(W − 1)/(2s). */
double
suanli_architecture_attention_context (const SuanliPlanInputs *in,
                                       double                  seq_len)
{
  double s = seq_len, full = (s + 1) / 2, windowed = full, w = in->sliding_window;

  if (w > 0 && w < s)
    windowed = w - w * (w - 1) / (2 * s);
  return (windowed * in->window_layers + full * (in->layers - in->window_layers)) / in->layers;
}

/* Keys each query is counted against in a FLOP budget of a @seq_len sequence: all s of them, as
 * Megatron, NeMo and PaLM count; a windowed layer's W. */
double
suanli_architecture_counted_attention_keys (const SuanliPlanInputs *in,
                                            double                  seq_len)
{
  double s = seq_len, w = in->sliding_window, windowed = w > 0 && w < s ? w : s;

  return (windowed * in->window_layers + s * (in->layers - in->window_layers)) / in->layers;
}

/* Q·Kᵀ and scores·V over all layers, forward, for one query that attends to @keys keys on
 * average over the layers. */
double
suanli_architecture_attention_score_flops (const SuanliPlanInputs *in,
                                           double                  keys)
{
  double qk = uses_latent_attention (in) ? in->head_dim + in->rope_head_dim : in->head_dim;

  return in->layers * 2 * in->heads * (qk + in->head_dim) * keys;
}

/* The same for a token decoded after @context tokens: windowed layers look back W at most. */
double
suanli_architecture_decode_keys (const SuanliPlanInputs *in,
                                 double                  context)
{
  double windowed = in->sliding_window > 0 ? MIN (context, in->sliding_window) : context;

  return (windowed * in->window_layers + context * (in->layers - in->window_layers)) / in->layers;
}

/* The output projection onto the vocabulary. */
double
suanli_architecture_logit_flops_per_token (const SuanliPlanInputs *in)
{
  return 2 * in->hidden * in->vocab;
}

/* Forward FLOPs of one token as budgets count them: every matrix the token passes (the routed
 * experts it is sent to), attention against the whole sequence, and the logits. The input
 * embedding is a lookup. */
double
suanli_architecture_forward_flops_per_token (const SuanliPlanInputs *in,
                                             double                  seq_len)
{
  double matrices = suanli_architecture_matrix_parameters (in);

  return 2 * matrices + suanli_architecture_attention_score_flops (in, suanli_architecture_counted_attention_keys (in, seq_len)) +
         suanli_architecture_logit_flops_per_token (in);
}

/* Values one token leaves in one layer's cache: a key and a value per KV head, or MLA's latent and
 * rotary key, shared by all heads (DeepSeek-V2, Table 1: (d_c + d_h^R) per layer). */
double
suanli_architecture_kv_elements_per_token_per_layer (const SuanliPlanInputs *in)
{
  if (uses_latent_attention (in))
    return in->kv_lora_rank + in->rope_head_dim;
  return 2 * in->kv_heads * in->head_dim;
}
