/* suanli-search.h — finding configurations: hardware × GPU count × parallelism × ZeRO × recompute
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "suanli-estimate.h"

G_BEGIN_DECLS

typedef struct
{
  double   budget;       /* currency units; 0: no limit */
  double   deadline_s;   /* 0: no limit */
  double   max_gpus;     /* 0: 1024 */
  gboolean cloud_only;   /* only the catalog's cloud instances, at their prices */
} SuanliSearchConstraints;

typedef struct
{
  char            accelerator_id[96];
  char            accelerator_name[96];
  char            cloud_instance_id[96];
  double          gpus_per_node;
  double          nodes;
  double          tensor;
  double          pipeline;
  double          data;
  int             zero_stage;
  SuanliRecompute recompute;
  double          time_to_train_s;
  double          cost;
  double          memory_total;
  double          memory_capacity;
  double          price_per_gpu_hour;
  gboolean        dominated;
} SuanliSearchResult;

GArray *suanli_search_run          (const SuanliPlanInputs        *base,
                                    SuanliCatalog                 *catalog,
                                    const SuanliSearchConstraints *constraints,
                                    guint                         *evaluated);
char   *suanli_search_result_patch (const SuanliSearchResult      *result);
char   *suanli_search_to_json      (GArray                        *results,
                                    guint                          evaluated);

G_END_DECLS
