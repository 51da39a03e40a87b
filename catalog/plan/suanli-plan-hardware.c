/* suanli-plan-hardware.c — what a catalog system gives the estimator: one accelerator's figures
 * and the links between accelerators
 *
 * The one place where catalog items become the estimator's hardware inputs: the plan's resolver
 * (suanli-plan-inputs.c) and the configuration search (suanli-search.c) both come here, so that a
 * plan and the search's candidate for the same system are estimated on the same figures. What a
 * plan names in place of these (its own links, its GPUs per node) stays with the resolver.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib.h>

#include "suanli-plan-hardware.h"

/* The spec keys that give each precision's dense rate, in the order they are read. */
static const char * const peak_keys[][2] = {
  [SUANLI_PRECISION_FP32] = { "fp32_tflops", NULL },
  [SUANLI_PRECISION_TF32] = { "tf32_tflops", NULL },
  [SUANLI_PRECISION_BF16] = { "bf16_tflops", "fp16_tflops" },
  [SUANLI_PRECISION_FP16] = { "fp16_tflops", "bf16_tflops" },
  [SUANLI_PRECISION_FP8] = { "fp8_tflops", NULL },
  [SUANLI_PRECISION_INT8] = { "int8_tops", NULL },
  [SUANLI_PRECISION_INT4] = { "int4_tops", "int8_tops" },
};

/* The dense peak of @precision on @accelerator, in FLOP/s (OP/s for integers); 0 when it has none. */
double
suanli_plan_hardware_peak_for (SuanliItem      *accelerator,
                               SuanliPrecision  precision)
{
  double value = 0;

  for (guint i = 0; i < 2; i++)
    if (peak_keys[precision][i] != NULL && suanli_item_get_spec_value (accelerator, peak_keys[precision][i], &value))
      return value * 1e12;
  return 0;
}

/* The spec key that gives the dense rate of @precision (the first one suanli_plan_hardware_peak_for
 * reads), to name what an accelerator lacks. */
const char *
suanli_plan_hardware_peak_key (SuanliPrecision precision)
{
  return peak_keys[precision][0];
}

/**
 * suanli_plan_link_bandwidth:
 * @link: (nullable): a link of the catalog
 * @bandwidth: (out): its bandwidth, B/s per direction; 0 when it has none
 *
 * Returns: FALSE when @link is NULL or the catalog gives it no bandwidth.
 */
gboolean
suanli_plan_link_bandwidth (SuanliItem *link,
                            double     *bandwidth)
{
  double value = 0;
  gboolean known = link != NULL && suanli_item_get_spec_value (link, "bandwidth_per_direction", &value);

  *bandwidth = value * 1e9;
  return known;
}

/**
 * suanli_plan_hardware_set_accelerator:
 * @in: the inputs, whose compute precision picks the peak rate
 * @accelerator: an accelerator of the catalog
 *
 * Puts @accelerator's id, name, peak rate, memory, memory bandwidth, TDP and its own scale-up
 * bandwidth into @in; a figure the catalog lacks is set to 0.
 *
 * Returns: the figures the catalog lacks.
 */
SuanliPlanMissing
suanli_plan_hardware_set_accelerator (SuanliPlanInputs *in,
                                      SuanliItem       *accelerator)
{
  SuanliPlanMissing missing = 0;
  double memory = 0, bandwidth = 0, tdp = 0, scale_up = 0;

  g_strlcpy (in->accelerator_id, suanli_item_get_id (accelerator), sizeof in->accelerator_id);
  g_strlcpy (in->accelerator_name, suanli_item_get_name (accelerator), sizeof in->accelerator_name);
  in->peak_flops = suanli_plan_hardware_peak_for (accelerator, in->compute);
  if (in->peak_flops <= 0)
    missing |= SUANLI_PLAN_MISSING_PEAK;
  if (!suanli_item_get_spec_value (accelerator, "memory_bytes", &memory))
    missing |= SUANLI_PLAN_MISSING_MEMORY;
  if (!suanli_item_get_spec_value (accelerator, "memory_bandwidth", &bandwidth))
    missing |= SUANLI_PLAN_MISSING_MEMORY_BANDWIDTH;
  if (!suanli_item_get_spec_value (accelerator, "tdp", &tdp))
    missing |= SUANLI_PLAN_MISSING_TDP;
  suanli_item_get_spec_value (accelerator, "scale_up_bandwidth", &scale_up);
  in->memory_capacity = memory;
  in->memory_bandwidth = bandwidth * 1e12;
  in->board_power = tdp;
  in->scale_up_bandwidth = scale_up * 1e9;
  return missing;
}

/**
 * suanli_plan_hardware_cloud_links:
 * @catalog: the catalog its links are looked up in
 * @cloud: a cloud instance of the catalog
 * @gpus_per_node: the GPUs that share the instance's network
 * @links: (out caller-allocates): the instance's links
 *
 * The instance's scale-up and scale-out links as its parts name them; without a scale-out link,
 * its network (Gb/s) shared by @gpus_per_node GPUs.
 */
void
suanli_plan_hardware_cloud_links (SuanliCatalog   *catalog,
                                  SuanliItem      *cloud,
                                  double           gpus_per_node,
                                  SuanliPlanLinks *links)
{
  const char *scale_up = suanli_item_get_part (cloud, "scale_up");
  const char *scale_out = suanli_item_get_part (cloud, "scale_out");

  suanli_plan_link_bandwidth (scale_up != NULL ? suanli_catalog_lookup (catalog, scale_up) : NULL,
                              &links->scale_up_bandwidth);
  suanli_plan_link_bandwidth (scale_out != NULL ? suanli_catalog_lookup (catalog, scale_out) : NULL,
                              &links->scale_out_bandwidth);
  if (links->scale_out_bandwidth == 0)
    {
      double network = 0;

      suanli_item_get_spec_value (cloud, "network_bandwidth", &network);
      links->scale_out_bandwidth = network / 8 * 1e9 / MAX (gpus_per_node, 1);
    }
}
