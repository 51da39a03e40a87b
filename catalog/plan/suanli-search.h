/* suanli-search.h — finding configurations: hardware × GPU count × parallelism × ZeRO × recompute;
 * for serving, hardware × GPU count × tensor parallelism
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "suanli-estimate.h"

G_BEGIN_DECLS

/* Every field's zero is "no limit" or "any", so `{ 0 }` searches everything. */
typedef struct
{
  double      budget;       /* currency units; 0: no limit */
  double      deadline_s;   /* 0: no limit */
  double      max_gpus;     /* 0: 1024; a fixed GPU count replaces it */
  gboolean    cloud_only;   /* only the catalog's cloud instances, at their prices */
  GHashTable *prices;       /* (nullable): the user's prices, accelerator id → price per GPU-hour in the plan's
                             * currency (suanli_search_prices_new) */
  const char *accelerator;  /* (nullable): only this accelerator's id */
  double      gpus;         /* fixed axes; 0: any */
  double      tensor;
  double      pipeline;
  double      data;
  guint       zero_stages;  /* bit n: ZeRO stage n; 0: any */
  guint       recomputes;   /* bit n: SuanliRecompute n; 0: any */
} SuanliSearchConstraints;

typedef enum
{
  SUANLI_SEARCH_PRICE_NONE,      /* no offer in the plan's currency, no price of the user's */
  SUANLI_SEARCH_PRICE_USER,      /* the user's price for the accelerator */
  SUANLI_SEARCH_PRICE_OFFER,     /* the cheapest cloud instance with the accelerator, per GPU-hour */
  SUANLI_SEARCH_PRICE_INSTANCE,  /* a cloud instance at its own list price (cloud_only) */
} SuanliSearchPriceSource;

typedef struct
{
  double                  per_gpu_hour;
  SuanliSearchPriceSource source;
  SuanliItem             *offer;           /* (nullable) (transfer none): the instance the price is from */
  guint                   other_currency;  /* offers left out for being in another currency, with no rate */
  gboolean                converted;       /* the offer's price was converted from another currency */
} SuanliSearchPrice;

typedef struct
{
  char                    accelerator_id[96];
  char                    accelerator_name[96];
  char                    cloud_instance_id[96];
  char                    cloud_instance_name[96];
  double                  gpus_per_node;
  double                  nodes;
  double                  tensor;
  double                  pipeline;
  double                  data;
  int                     zero_stage;
  SuanliRecompute         recompute;
  double                  time_to_train_s;
  double                  cost;
  double                  memory_total;
  double                  memory_capacity;
  double                  price_per_gpu_hour;
  SuanliSearchPriceSource price_source;
  char                    price_from_id[96];    /* the instance priced from, or "" */
  char                    price_from_name[96];
  gboolean                dominated;
  /* A serving plan's result: what the GPUs serve at capacity (continuous batching at the largest
   * batch that fits) in place of time and cost to train. */
  gboolean                serving;
  double                  requests_per_s;
  double                  batch;                /* sequences each replica decodes at once */
  double                  cost_per_hour;        /* every GPU, at the price searched */
  double                  cost_per_million_tokens;
} SuanliSearchResult;

GHashTable *suanli_search_prices_new    (void);
void        suanli_search_prices_set    (GHashTable                    *prices,
                                         const char                    *accelerator_id,
                                         double                         per_gpu_hour);
gboolean    suanli_search_prices_parse  (GHashTable                    *prices,
                                         const char                    *assignment,
                                         GError                       **error);
void        suanli_search_price_of      (SuanliCatalog                 *catalog,
                                         GHashTable                    *prices,
                                         const char                    *currency,
                                         double                         cny_per_usd,
                                         SuanliItem                    *accelerator,
                                         SuanliSearchPrice             *price);
GPtrArray  *suanli_search_accelerators  (const SuanliPlanInputs        *base,
                                         SuanliCatalog                 *catalog);
GPtrArray  *suanli_search_left_out      (const SuanliPlanInputs        *base,
                                         SuanliCatalog                 *catalog,
                                         const SuanliSearchConstraints *constraints);
GArray     *suanli_search_run           (const SuanliPlanInputs        *base,
                                         SuanliCatalog                 *catalog,
                                         const SuanliSearchConstraints *constraints,
                                         guint                         *evaluated);
char       *suanli_search_result_label  (const SuanliSearchResult      *result);
char       *suanli_search_result_patch  (const SuanliSearchResult      *result);
char       *suanli_search_to_json       (GArray                        *results,
                                         guint                          evaluated,
                                         const char                    *currency,
                                         GPtrArray                     *left_out,
                                         GError                       **error);

G_END_DECLS
