/* suanli-plan-hardware.h — what a catalog system gives the estimator: one accelerator's figures
 * and the links between accelerators
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "suanli-catalog.h"
#include "suanli-plan-inputs.h"

G_BEGIN_DECLS

/* The scale-up link assumed when neither the plan, its cloud instance nor the accelerator names
 * one, and the host link between scale-up domains when the catalog names none: PCIe 4.0 x16,
 * 16 GT/s × 16 lanes with 128b/130b coding = 31.5 GB/s per direction. */
#define SUANLI_PLAN_DEFAULT_SCALE_UP_BANDWIDTH 31.5e9
/* The scale-out link assumed when none is known: InfiniBand NDR, 400 Gb/s = 50 GB/s per GPU. */
#define SUANLI_PLAN_DEFAULT_SCALE_OUT_BANDWIDTH 50e9

/* The figures an accelerator may lack (suanli_plan_hardware_set_accelerator). */
typedef enum {
  SUANLI_PLAN_MISSING_PEAK             = 1 << 0, /* the dense rate of the compute precision */
  SUANLI_PLAN_MISSING_MEMORY           = 1 << 1,
  SUANLI_PLAN_MISSING_MEMORY_BANDWIDTH = 1 << 2,
  SUANLI_PLAN_MISSING_TDP              = 1 << 3,
} SuanliPlanMissing;

/* How the accelerators of a catalog item are wired (docs/catalog-format.md, "Topology"): B/s per
 * direction per accelerator; 0 where the catalog gives none. */
typedef struct
{
  double scale_up_domain;      /* accelerators that share the scale-up fabric */
  double scale_up_bandwidth;   /* into that fabric, all links */
  double host_link_bandwidth;  /* between scale-up domains inside one node (PCIe) */
  double scale_out_bandwidth;  /* to other nodes */
} SuanliPlanLinks;

/* The fabric a group of GPUs talks over (docs/catalog-format.md, "Topology"). */
typedef enum {
  SUANLI_FABRIC_SCALE_UP,    /* within the scale-up domain: NVLink, HCCS, Infinity Fabric, ICI */
  SUANLI_FABRIC_HOST_LINK,   /* between domains inside a node: PCIe */
  SUANLI_FABRIC_SCALE_OUT,   /* between nodes */
} SuanliFabric;

double            suanli_plan_hardware_peak_for         (SuanliItem       *accelerator,
                                                         SuanliPrecision   precision);
const char       *suanli_plan_hardware_peak_key         (SuanliPrecision   precision);
gboolean          suanli_plan_link_bandwidth            (SuanliItem       *link,
                                                         double           *bandwidth);
SuanliPlanMissing suanli_plan_hardware_set_accelerator  (SuanliPlanInputs *in,
                                                         SuanliItem       *accelerator);
void              suanli_plan_hardware_links            (SuanliCatalog    *catalog,
                                                         SuanliItem       *accelerator,
                                                         SuanliItem       *container,
                                                         double            gpus_per_node,
                                                         SuanliPlanLinks  *links);
void              suanli_plan_hardware_set_links        (SuanliPlanInputs *in,
                                                         const SuanliPlanLinks *links);
SuanliFabric      suanli_plan_hardware_fabric           (const SuanliPlanInputs *in,
                                                         double            span,
                                                         double           *bandwidth);

G_END_DECLS
