/* suanli-item-kind.c — the kinds of catalog items and the specs each kind may carry
 *
 * The tables here are docs/catalog-format.md in code: a key or unit a kind does not list is an
 * error in a catalog file.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>

#include "suanli-item-kind.h"

static const char * const kind_nicks[SUANLI_N_ITEM_KINDS] = {
  "accelerator", "cpu", "link", "storage", "system", "cloud-instance", "model", "tool", "technique",
  "dataset",
};

static const char * const kind_titles[SUANLI_N_ITEM_KINDS] = {
  N_("Accelerators"), N_("CPUs"), N_("Links"), N_("Storage"), N_("Systems"), N_("Cloud"),
  N_("Models"), N_("Tools"), N_("Techniques"), N_("Datasets"),
};

static const char * const units[] = {
  "TFLOP/s", "TOPS", "B", "GB/s", "TB/s", "Gb/s", "W", "count", "tokens", "USD/h", "CNY/h", "%", "GHz",
  "nm", "year", "h", "min", "ms", "°C", "TOPS/W", "USD",
};

#define U1(a) { a, NULL, NULL }
#define U2(a, b) { a, b, NULL }

static const SuanliSpecKey accelerator_keys[] = {
  { "bf16_tflops", U1 ("TFLOP/s"), N_("BF16") },
  { "fp16_tflops", U1 ("TFLOP/s"), N_("FP16") },
  { "fp8_tflops", U1 ("TFLOP/s"), N_("FP8") },
  { "fp4_tflops", U1 ("TFLOP/s"), N_("FP4") },
  { "tf32_tflops", U1 ("TFLOP/s"), N_("TF32") },
  { "fp32_tflops", U1 ("TFLOP/s"), N_("FP32") },
  { "fp64_tflops", U1 ("TFLOP/s"), N_("FP64") },
  { "int8_tops", U1 ("TOPS"), N_("INT8") },
  { "int4_tops", U1 ("TOPS"), N_("INT4") },
  { "memory_bytes", U1 ("B"), N_("Memory") },
  { "memory_bandwidth", U1 ("TB/s"), N_("Bandwidth") },
  { "tdp", U1 ("W"), N_("TDP") },
  { "scale_up_bandwidth", U1 ("GB/s"), N_("Scale-up") },
  { "scale_up_domain", U1 ("count"), N_("Scale-up domain") },
  { "process", U1 ("nm"), N_("Process") },
};

static const SuanliSpecKey cpu_keys[] = {
  { "cores", U1 ("count"), N_("Cores") },
  { "threads", U1 ("count"), N_("Threads") },
  { "memory_channels", U1 ("count"), N_("Memory channels") },
  { "memory_bandwidth", U1 ("GB/s"), N_("Memory bandwidth") },
  { "pcie_lanes", U1 ("count"), N_("PCIe lanes") },
  { "base_clock", U1 ("GHz"), N_("Base clock") },
  { "boost_clock", U1 ("GHz"), N_("Boost clock") },
  { "tdp", U1 ("W"), N_("TDP") },
};

static const SuanliSpecKey link_keys[] = {
  { "bandwidth_per_direction", U1 ("GB/s"), N_("Per direction") },
  { "bandwidth_bidirectional", U1 ("GB/s"), N_("Bidirectional") },
  { "signaling_rate", U1 ("Gb/s"), N_("Signalling rate") },
  { "lanes", U1 ("count"), N_("Lanes") },
  { "links", U1 ("count"), N_("Links") },
};

static const SuanliSpecKey storage_keys[] = {
  { "capacity_bytes", U1 ("B"), N_("Capacity") },
  { "read_bandwidth", U1 ("GB/s"), N_("Read") },
  { "write_bandwidth", U1 ("GB/s"), N_("Write") },
  { "pcie_generation", U1 ("count"), N_("PCIe generation") },
  { "pcie_lanes", U1 ("count"), N_("PCIe lanes") },
};

static const SuanliSpecKey system_keys[] = {
  { "accelerators", U1 ("count"), N_("Accelerators") },
  { "accelerator_memory_bytes", U1 ("B"), N_("Accelerator memory") },
  { "scale_up_domain", U1 ("count"), N_("Scale-up domain") },
  { "scale_up_bandwidth", U1 ("GB/s"), N_("Scale-up") },
  { "cpu_memory_bytes", U1 ("B"), N_("CPU memory") },
  { "scale_out_ports", U1 ("count"), N_("Scale-out ports") },
  { "power", U1 ("W"), N_("Power") },
};

static const SuanliSpecKey cloud_keys[] = {
  { "accelerators", U1 ("count"), N_("Accelerators") },
  { "scale_up_domain", U1 ("count"), N_("Scale-up domain") },
  { "price_per_hour", U2 ("USD/h", "CNY/h"), N_("Price per hour") },
  { "network_bandwidth", U1 ("Gb/s"), N_("Network") },
  { "cpu_memory_bytes", U1 ("B"), N_("CPU memory") },
};

static const SuanliSpecKey model_keys[] = {
  { "parameters", U1 ("count"), N_("Parameters") },
  { "active_parameters", U1 ("count"), N_("Active parameters") },
  { "layers", U1 ("count"), N_("Layers") },
  { "hidden", U1 ("count"), N_("Hidden size") },
  { "heads", U1 ("count"), N_("Heads") },
  { "kv_heads", U1 ("count"), N_("KV heads") },
  { "ffn_hidden", U1 ("count"), N_("FFN size") },
  { "vocab", U1 ("count"), N_("Vocabulary") },
  { "experts", U1 ("count"), N_("Experts") },
  { "experts_per_token", U1 ("count"), N_("Experts per token") },
  { "expert_ffn_hidden", U1 ("count"), N_("Expert FFN size") },
  { "shared_experts", U1 ("count"), N_("Shared experts") },
  { "dense_layers", U1 ("count"), N_("Dense layers") },
  { "head_dim", U1 ("count"), N_("Head size") },
  { "ffn_matrices", U1 ("count"), N_("FFN matrices") },
  { "embedding_matrices", U1 ("count"), N_("Embedding matrices") },
  { "q_lora_rank", U1 ("count"), N_("Query latent rank") },
  { "kv_lora_rank", U1 ("count"), N_("KV latent rank") },
  { "rope_head_dim", U1 ("count"), N_("Rotary key size") },
  { "sliding_window", U1 ("tokens"), N_("Sliding window") },
  { "window_layers", U1 ("count"), N_("Windowed layers") },
  { "context", U1 ("tokens"), N_("Context") },
  { "training_tokens", U1 ("tokens"), N_("Training tokens") },
};

static const SuanliSpecKey tool_keys[] = {
  { "first_release", U1 ("year"), N_("First release") },
};

static const SuanliSpecKey technique_keys[] = {
  { "memory_saving", U1 ("%"), N_("Memory saving") },
  { "speedup", U1 ("%"), N_("Speed-up") },
  { "accuracy_loss", U1 ("%"), N_("Accuracy loss") },
};

static const SuanliSpecKey dataset_keys[] = {
  { "tokens", U1 ("tokens"), N_("Tokens") },
  { "size_bytes", U1 ("B"), N_("Size") },
  { "examples", U1 ("count"), N_("Examples") },
};

static const struct {
  const SuanliSpecKey *keys;
  guint                n_keys;
} kind_keys[SUANLI_N_ITEM_KINDS] = {
  { accelerator_keys, G_N_ELEMENTS (accelerator_keys) },
  { cpu_keys, G_N_ELEMENTS (cpu_keys) },
  { link_keys, G_N_ELEMENTS (link_keys) },
  { storage_keys, G_N_ELEMENTS (storage_keys) },
  { system_keys, G_N_ELEMENTS (system_keys) },
  { cloud_keys, G_N_ELEMENTS (cloud_keys) },
  { model_keys, G_N_ELEMENTS (model_keys) },
  { tool_keys, G_N_ELEMENTS (tool_keys) },
  { technique_keys, G_N_ELEMENTS (technique_keys) },
  { dataset_keys, G_N_ELEMENTS (dataset_keys) },
};

const char *
suanli_item_kind_to_nick (SuanliItemKind kind)
{
  g_return_val_if_fail (kind < SUANLI_N_ITEM_KINDS, NULL);

  return kind_nicks[kind];
}

gboolean
suanli_item_kind_from_nick (const char     *nick,
                            SuanliItemKind *kind)
{
  for (guint i = 0; i < SUANLI_N_ITEM_KINDS; i++)
    if (g_strcmp0 (kind_nicks[i], nick) == 0)
      {
        *kind = i;
        return TRUE;
      }
  return FALSE;
}

/* The kind's plural title, translated: "Accelerators". */
const char *
suanli_item_kind_get_title (SuanliItemKind kind)
{
  g_return_val_if_fail (kind < SUANLI_N_ITEM_KINDS, NULL);

  return _(kind_titles[kind]);
}

/* One item's kind in words, translated: "accelerator", in Chinese 加速卡. */
const char *
suanli_item_kind_get_singular (SuanliItemKind kind)
{
  static const char * const singular[SUANLI_N_ITEM_KINDS] = {
    NC_("kind", "accelerator"), NC_("kind", "CPU"), NC_("kind", "link"), NC_("kind", "storage"),
    NC_("kind", "system"), NC_("kind", "cloud instance"), NC_("kind", "model"), NC_("kind", "tool"),
    NC_("kind", "technique"), NC_("kind", "dataset"),
  };

  g_return_val_if_fail (kind < SUANLI_N_ITEM_KINDS, NULL);

  return g_dpgettext2 (GETTEXT_PACKAGE, "kind", singular[kind]);
}

/* A part's role in a system or cloud instance ("scale_up") in words, translated; the role itself
 * when it is not one the format names. */
const char *
suanli_part_role_get_title (const char *role)
{
  static const struct { const char *role; const char *title; } roles[] = {
    { "accelerator", N_("Accelerator") }, { "cpu", N_("CPU") }, { "scale_up", N_("Scale-up link") },
    { "host_link", N_("Host link") }, { "scale_out", N_("Scale-out network") }, { "storage", N_("Storage") },
  };

  for (guint i = 0; i < G_N_ELEMENTS (roles); i++)
    if (g_strcmp0 (roles[i].role, role) == 0)
      return _(roles[i].title);
  return role;
}

const SuanliSpecKey *
suanli_item_kind_get_spec_keys (SuanliItemKind  kind,
                                guint          *n_keys)
{
  g_return_val_if_fail (kind < SUANLI_N_ITEM_KINDS, NULL);

  *n_keys = kind_keys[kind].n_keys;
  return kind_keys[kind].keys;
}

/* Returns: (nullable): the spec key @key of @kind, or NULL when @kind does not have it. */
const SuanliSpecKey *
suanli_item_kind_find_spec_key (SuanliItemKind  kind,
                                const char     *key)
{
  g_return_val_if_fail (kind < SUANLI_N_ITEM_KINDS, NULL);

  for (guint i = 0; i < kind_keys[kind].n_keys; i++)
    if (g_strcmp0 (kind_keys[kind].keys[i].key, key) == 0)
      return &kind_keys[kind].keys[i];
  return NULL;
}

gboolean
suanli_unit_is_known (const char *unit)
{
  for (guint i = 0; i < G_N_ELEMENTS (units); i++)
    if (g_strcmp0 (units[i], unit) == 0)
      return TRUE;
  return FALSE;
}
