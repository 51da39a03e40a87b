/* suanli-item.h — one entry of the catalog: a part, a model, a tool, a technique or a dataset
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib-object.h>

#include "suanli-claim.h"
#include "suanli-item-kind.h"
#include "suanli-spec.h"
#include "suanli-text.h"

G_BEGIN_DECLS

#define SUANLI_TYPE_ITEM (suanli_item_get_type ())

G_DECLARE_FINAL_TYPE (SuanliItem, suanli_item, SUANLI, ITEM, GObject)

typedef enum {
  SUANLI_TRADE_MEMORY,
  SUANLI_TRADE_SPEED,
  SUANLI_TRADE_ACCURACY,
  SUANLI_N_TRADES,
} SuanliTrade;

SuanliItem         *suanli_item_new             (SuanliItemKind     kind,
                                                 const char        *id,
                                                 const char        *vendor,
                                                 const char        *name);
const char         *suanli_item_get_id          (SuanliItem        *self);
SuanliItemKind      suanli_item_get_kind        (SuanliItem        *self);
const char         *suanli_item_get_vendor      (SuanliItem        *self);
const char         *suanli_item_get_name        (SuanliItem        *self);
int                 suanli_item_get_year        (SuanliItem        *self);
void                suanli_item_set_year        (SuanliItem        *self,
                                                 int                year);
const char * const *suanli_item_get_aliases     (SuanliItem        *self);
void                suanli_item_set_aliases     (SuanliItem        *self,
                                                 const char * const *aliases);
const char * const *suanli_item_get_tags        (SuanliItem        *self);
void                suanli_item_set_tags        (SuanliItem        *self,
                                                 const char * const *tags);
const SuanliText   *suanli_item_get_summary     (SuanliItem        *self);
void                suanli_item_set_summary     (SuanliItem        *self,
                                                 const char        *en,
                                                 const char        *zh_CN);
const SuanliText   *suanli_item_get_trade       (SuanliItem        *self,
                                                 SuanliTrade        trade);
void                suanli_item_set_trade       (SuanliItem        *self,
                                                 SuanliTrade        trade,
                                                 const char        *en,
                                                 const char        *zh_CN);
void                suanli_item_add_spec        (SuanliItem        *self,
                                                 SuanliSpec        *spec);
guint               suanli_item_get_n_specs     (SuanliItem        *self);
const SuanliSpec   *suanli_item_get_spec_at     (SuanliItem        *self,
                                                 guint              position);
const SuanliSpec   *suanli_item_find_spec       (SuanliItem        *self,
                                                 const char        *key);
gboolean            suanli_item_get_spec_value  (SuanliItem        *self,
                                                 const char        *key,
                                                 double            *value);
void                suanli_item_add_claim       (SuanliItem        *self,
                                                 SuanliClaim       *claim);
guint               suanli_item_get_n_claims    (SuanliItem        *self);
const SuanliClaim  *suanli_item_get_claim_at    (SuanliItem        *self,
                                                 guint              position);
guint               suanli_item_count_disputed_claims (SuanliItem  *self);
void                suanli_item_add_link        (SuanliItem        *self,
                                                 const char        *title,
                                                 const char        *url);
guint               suanli_item_get_n_links     (SuanliItem        *self);
void                suanli_item_get_link_at     (SuanliItem        *self,
                                                 guint              position,
                                                 const char       **title,
                                                 const char       **url);
void                suanli_item_set_unknown     (SuanliItem        *self,
                                                 const char        *key,
                                                 const char        *en,
                                                 const char        *zh_CN);
guint               suanli_item_get_n_unknown   (SuanliItem        *self);
const char         *suanli_item_get_unknown_at  (SuanliItem        *self,
                                                 guint              position,
                                                 const SuanliText **note);
const SuanliText   *suanli_item_find_unknown    (SuanliItem        *self,
                                                 const char        *key);
const SuanliText   *suanli_item_get_no_source   (SuanliItem        *self);
void                suanli_item_set_no_source   (SuanliItem        *self,
                                                 const char        *en,
                                                 const char        *zh_CN);
void                suanli_item_set_part        (SuanliItem        *self,
                                                 const char        *role,
                                                 const char        *item_id);
const char         *suanli_item_get_part        (SuanliItem        *self,
                                                 const char        *role);
GHashTable         *suanli_item_get_parts       (SuanliItem        *self);
const char         *suanli_item_get_origin      (SuanliItem        *self);
void                suanli_item_set_origin      (SuanliItem        *self,
                                                 const char        *origin);
guint               suanli_item_match_rank      (SuanliItem        *self,
                                                 const char * const *folded_terms);
gboolean            suanli_item_matches         (SuanliItem        *self,
                                                 const char * const *folded_terms);
char              **suanli_item_fold_query      (const char        *query);

G_END_DECLS
