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

#include <string.h>
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
 * Puts @accelerator's id, name, peak rate, memory, memory bandwidth and TDP into @in; a figure the
 * catalog lacks is set to 0. How it is wired is suanli_plan_hardware_links()'s.
 *
 * Returns: the figures the catalog lacks.
 */
SuanliPlanMissing
suanli_plan_hardware_set_accelerator (SuanliPlanInputs *in,
                                      SuanliItem       *accelerator)
{
  SuanliPlanMissing missing = 0;
  double memory = 0, bandwidth = 0, tdp = 0;

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
  in->memory_capacity = memory;
  in->memory_bandwidth = bandwidth * 1e12;
  in->board_power = tdp;
  return missing;
}

/* The bandwidth of @item's part @role, a link of the catalog, B/s per direction; 0 when none. */
static double
part_bandwidth (SuanliCatalog *catalog,
                SuanliItem    *item,
                const char    *role)
{
  const char *id = suanli_item_get_part (item, role);
  double bandwidth = 0;

  suanli_plan_link_bandwidth (id != NULL ? suanli_catalog_lookup (catalog, id) : NULL, &bandwidth);
  return bandwidth;
}

/* What @item itself says of its wiring, over what @links has already. */
static void
read_links (SuanliCatalog   *catalog,
            SuanliItem      *item,
            SuanliPlanLinks *links)
{
  double value = 0;

  if (suanli_item_get_spec_value (item, "scale_up_domain", &value))
    links->scale_up_domain = value;
  if (suanli_item_get_spec_value (item, "scale_up_bandwidth", &value))
    links->scale_up_bandwidth = value * 1e9;
  if ((value = part_bandwidth (catalog, item, "host_link")) > 0)
    links->host_link_bandwidth = value;
  if ((value = part_bandwidth (catalog, item, "scale_out")) > 0)
    links->scale_out_bandwidth = value;
}

/**
 * suanli_plan_hardware_links:
 * @catalog: the catalog parts are looked up in
 * @accelerator: (nullable): the accelerator; @container's when NULL
 * @container: (nullable): the system or cloud instance it is in, or NULL
 * @gpus_per_node: the GPUs that share a cloud instance's network
 * @links: (out caller-allocates): how the accelerators are wired
 *
 * The accelerator's own figures first (its usual scale-up domain, its bandwidth over all links,
 * its host link), then what @container says over them. A `scale_up` part gives the bandwidth
 * only where no figure does: a link item's bandwidth may count one link of several
 * (docs/catalog-format.md, "Topology"). A cloud instance without a scale-out link shares its
 * network (Gb/s) among @gpus_per_node GPUs.
 */
void
suanli_plan_hardware_links (SuanliCatalog   *catalog,
                            SuanliItem      *accelerator,
                            SuanliItem      *container,
                            double           gpus_per_node,
                            SuanliPlanLinks *links)
{
  memset (links, 0, sizeof *links);
  if (accelerator == NULL && container != NULL)
    {
      const char *id = suanli_item_get_part (container, "accelerator");

      accelerator = id != NULL ? suanli_catalog_lookup (catalog, id) : NULL;
    }
  if (accelerator != NULL)
    read_links (catalog, accelerator, links);
  if (container != NULL)
    read_links (catalog, container, links);
  if (links->scale_up_bandwidth == 0 && container != NULL)
    links->scale_up_bandwidth = part_bandwidth (catalog, container, "scale_up");
  if (links->scale_up_bandwidth == 0 && accelerator != NULL)
    links->scale_up_bandwidth = part_bandwidth (catalog, accelerator, "scale_up");
  if (links->scale_out_bandwidth == 0 && container != NULL &&
      suanli_item_get_kind (container) == SUANLI_ITEM_KIND_CLOUD_INSTANCE)
    {
      double network = 0;

      suanli_item_get_spec_value (container, "network_bandwidth", &network);
      links->scale_out_bandwidth = network / 8 * 1e9 / MAX (gpus_per_node, 1);
    }
}

/**
 * suanli_plan_hardware_set_links:
 * @in: the inputs
 * @links: what suanli_plan_hardware_links() found
 *
 * Puts the wiring into @in: the scale-up domain (0 where unknown: the estimator then takes the
 * node), the scale-up bandwidth (PCIe 4.0 x16 where unknown), the host link (PCIe 4.0 x16 where
 * unknown) and the scale-out bandwidth where @links has one.
 */
void
suanli_plan_hardware_set_links (SuanliPlanInputs      *in,
                                const SuanliPlanLinks *links)
{
  in->scale_up_domain = links->scale_up_domain;
  in->scale_up_bandwidth = links->scale_up_bandwidth > 0 ? links->scale_up_bandwidth
                                                         : SUANLI_PLAN_DEFAULT_SCALE_UP_BANDWIDTH;
  in->host_link_bandwidth = links->host_link_bandwidth > 0 ? links->host_link_bandwidth
                                                           : SUANLI_PLAN_DEFAULT_SCALE_UP_BANDWIDTH;
  if (links->scale_out_bandwidth > 0)
    in->scale_out_bandwidth = links->scale_out_bandwidth;
}

/**
 * suanli_plan_hardware_fabric:
 * @in: resolved inputs
 * @span: the consecutive GPUs a group of ranks covers
 * @bandwidth: (out) (optional): what each GPU of the group sends at, B/s per direction, before
 *   the communication efficiency
 *
 * The fabric a group talks over: the scale-up fabric while it stays within the scale-up domain
 * (the node where the catalog gives none), the host link between domains inside a node, the
 * scale-out network beyond. A ring that crosses a slower fabric runs at that fabric's speed.
 */
SuanliFabric
suanli_plan_hardware_fabric (const SuanliPlanInputs *in,
                             double                  span,
                             double                 *bandwidth)
{
  double domain = in->scale_up_domain > 0 ? in->scale_up_domain : in->gpus_per_node;
  SuanliFabric fabric;
  double rate;

  if (span <= domain)
    fabric = SUANLI_FABRIC_SCALE_UP, rate = in->scale_up_bandwidth;
  else if (span <= in->gpus_per_node)
    fabric = SUANLI_FABRIC_HOST_LINK, rate = MIN (in->host_link_bandwidth, in->scale_up_bandwidth);
  else
    fabric = SUANLI_FABRIC_SCALE_OUT, rate = in->scale_out_bandwidth;
  if (bandwidth != NULL)
    *bandwidth = rate;
  return fabric;
}
