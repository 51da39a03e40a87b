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

/* How values compare: MORE and LESS are ranked (more or less is better), RATIO adds a ratio;
 * AS_IS is read as it is (a model's layers are neither better nor worse than another's). */
#define AS_IS      0
#define MORE       SUANLI_SPEC_RANKED
#define LESS       (SUANLI_SPEC_RANKED | SUANLI_SPEC_LOWER_BETTER)
#define MORE_RATIO (MORE | SUANLI_SPEC_RATIO)
#define LESS_RATIO (LESS | SUANLI_SPEC_RATIO)
#define RATIO_ONLY SUANLI_SPEC_RATIO

static const SuanliSpecKey accelerator_keys[] = {
  { "bf16_tflops", U1 ("TFLOP/s"), N_("BF16"), MORE_RATIO },
  { "fp16_tflops", U1 ("TFLOP/s"), N_("FP16"), MORE_RATIO },
  { "fp8_tflops", U1 ("TFLOP/s"), N_("FP8"), MORE_RATIO },
  { "fp4_tflops", U1 ("TFLOP/s"), N_("FP4"), MORE_RATIO },
  { "tf32_tflops", U1 ("TFLOP/s"), N_("TF32"), MORE_RATIO },
  { "fp32_tflops", U1 ("TFLOP/s"), N_("FP32"), MORE_RATIO },
  { "fp64_tflops", U1 ("TFLOP/s"), N_("FP64"), MORE_RATIO },
  { "int8_tops", U1 ("TOPS"), N_("INT8"), MORE_RATIO },
  { "int4_tops", U1 ("TOPS"), N_("INT4"), MORE_RATIO },
  { "memory_bytes", U1 ("B"), N_("Memory"), MORE_RATIO },
  { "memory_bandwidth", U1 ("TB/s"), N_("Bandwidth"), MORE_RATIO },
  { "tdp", U1 ("W"), N_("TDP"), LESS_RATIO },
  { "scale_up_bandwidth", U1 ("GB/s"), N_("Scale-up"), MORE_RATIO },
  { "scale_up_domain", U1 ("count"), N_("Scale-up domain"), MORE },
  { "process", U1 ("nm"), N_("Process"), LESS },
};

static const SuanliSpecKey cpu_keys[] = {
  { "cores", U1 ("count"), N_("Cores"), MORE_RATIO },
  { "threads", U1 ("count"), N_("Threads"), MORE_RATIO },
  { "memory_channels", U1 ("count"), N_("Memory channels"), MORE },
  { "memory_bandwidth", U1 ("GB/s"), N_("Memory bandwidth"), MORE_RATIO },
  { "pcie_lanes", U1 ("count"), N_("PCIe lanes"), MORE },
  { "base_clock", U1 ("GHz"), N_("Base clock"), MORE_RATIO },
  { "boost_clock", U1 ("GHz"), N_("Boost clock"), MORE_RATIO },
  { "tdp", U1 ("W"), N_("TDP"), LESS_RATIO },
};

static const SuanliSpecKey link_keys[] = {
  { "bandwidth_per_direction", U1 ("GB/s"), N_("Per direction"), MORE_RATIO },
  { "bandwidth_bidirectional", U1 ("GB/s"), N_("Bidirectional"), MORE_RATIO },
  { "signaling_rate", U1 ("Gb/s"), N_("Signalling rate"), MORE_RATIO },
  { "lanes", U1 ("count"), N_("Lanes"), AS_IS },
  { "links", U1 ("count"), N_("Links"), AS_IS },
};

static const SuanliSpecKey storage_keys[] = {
  { "capacity_bytes", U1 ("B"), N_("Capacity"), MORE_RATIO },
  { "read_bandwidth", U1 ("GB/s"), N_("Read"), MORE_RATIO },
  { "write_bandwidth", U1 ("GB/s"), N_("Write"), MORE_RATIO },
  { "pcie_generation", U1 ("count"), N_("PCIe generation"), MORE },
  { "pcie_lanes", U1 ("count"), N_("PCIe lanes"), MORE },
};

static const SuanliSpecKey system_keys[] = {
  { "accelerators", U1 ("count"), N_("Accelerators"), AS_IS },
  { "accelerator_memory_bytes", U1 ("B"), N_("Accelerator memory"), MORE_RATIO },
  { "scale_up_domain", U1 ("count"), N_("Scale-up domain"), MORE },
  { "scale_up_bandwidth", U1 ("GB/s"), N_("Scale-up"), MORE_RATIO },
  { "cpu_memory_bytes", U1 ("B"), N_("CPU memory"), MORE_RATIO },
  { "scale_out_ports", U1 ("count"), N_("Scale-out ports"), AS_IS },
  { "power", U1 ("W"), N_("Power"), LESS_RATIO },
};

static const SuanliSpecKey cloud_keys[] = {
  { "accelerators", U1 ("count"), N_("Accelerators"), AS_IS },
  { "scale_up_domain", U1 ("count"), N_("Scale-up domain"), MORE },
  { "price_per_hour", U2 ("USD/h", "CNY/h"), N_("Price per hour"), LESS_RATIO },
  { "network_bandwidth", U1 ("Gb/s"), N_("Network"), MORE_RATIO },
  { "cpu_memory_bytes", U1 ("B"), N_("CPU memory"), MORE_RATIO },
};

static const SuanliSpecKey model_keys[] = {
  { "parameters", U1 ("count"), N_("Parameters"), RATIO_ONLY },
  { "active_parameters", U1 ("count"), N_("Active parameters"), RATIO_ONLY },
  { "layers", U1 ("count"), N_("Layers"), AS_IS },
  { "hidden", U1 ("count"), N_("Hidden size"), AS_IS },
  { "heads", U1 ("count"), N_("Heads"), AS_IS },
  { "kv_heads", U1 ("count"), N_("KV heads"), AS_IS },
  { "ffn_hidden", U1 ("count"), N_("FFN size"), AS_IS },
  { "vocab", U1 ("count"), N_("Vocabulary"), AS_IS },
  { "experts", U1 ("count"), N_("Experts"), AS_IS },
  { "experts_per_token", U1 ("count"), N_("Experts per token"), AS_IS },
  { "expert_ffn_hidden", U1 ("count"), N_("Expert FFN size"), AS_IS },
  { "shared_experts", U1 ("count"), N_("Shared experts"), AS_IS },
  { "dense_layers", U1 ("count"), N_("Dense layers"), AS_IS },
  { "head_dim", U1 ("count"), N_("Head size"), AS_IS },
  { "ffn_matrices", U1 ("count"), N_("FFN matrices"), AS_IS },
  { "embedding_matrices", U1 ("count"), N_("Embedding matrices"), AS_IS },
  { "q_lora_rank", U1 ("count"), N_("Query latent rank"), AS_IS },
  { "kv_lora_rank", U1 ("count"), N_("KV latent rank"), AS_IS },
  { "rope_head_dim", U1 ("count"), N_("Rotary key size"), AS_IS },
  { "sliding_window", U1 ("tokens"), N_("Sliding window"), AS_IS },
  { "window_layers", U1 ("count"), N_("Windowed layers"), AS_IS },
  { "context", U1 ("tokens"), N_("Context"), MORE_RATIO },
  { "training_tokens", U1 ("tokens"), N_("Training tokens"), RATIO_ONLY },
};

static const SuanliSpecKey tool_keys[] = {
  { "first_release", U1 ("year"), N_("First release"), AS_IS },
};

static const SuanliSpecKey technique_keys[] = {
  { "memory_saving", U1 ("%"), N_("Memory saving"), MORE },
  { "speedup", U1 ("%"), N_("Speed-up"), MORE },
  { "accuracy_loss", U1 ("%"), N_("Accuracy loss"), LESS },
};

static const SuanliSpecKey dataset_keys[] = {
  { "tokens", U1 ("tokens"), N_("Tokens"), RATIO_ONLY },
  { "size_bytes", U1 ("B"), N_("Size"), RATIO_ONLY },
  { "examples", U1 ("count"), N_("Examples"), RATIO_ONLY },
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
