/* suanli-item-kind.h — the kinds of catalog items and the specs each kind may carry
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef enum {
  SUANLI_ITEM_KIND_ACCELERATOR,
  SUANLI_ITEM_KIND_CPU,
  SUANLI_ITEM_KIND_LINK,
  SUANLI_ITEM_KIND_STORAGE,
  SUANLI_ITEM_KIND_SYSTEM,
  SUANLI_ITEM_KIND_CLOUD_INSTANCE,
  SUANLI_ITEM_KIND_MODEL,
  SUANLI_ITEM_KIND_TOOL,
  SUANLI_ITEM_KIND_TECHNIQUE,
  SUANLI_ITEM_KIND_DATASET,
  SUANLI_N_ITEM_KINDS,
} SuanliItemKind;

/* How two items' values of a spec may be set against each other (flags). */
typedef enum {
  SUANLI_SPEC_RANKED       = 1 << 0,  /* one value is better than another: the best is marked */
  SUANLI_SPEC_LOWER_BETTER = 1 << 1,  /* ranked, lower first: power, price, process node */
  SUANLI_SPEC_RATIO        = 1 << 2,  /* a ratio of two values means something: throughput,
                                       * bandwidth, capacity, power, price; not a count of a
                                       * topology (a scale-up domain), a node name or a year */
} SuanliSpecCompare;

/* One spec a kind may carry: its key in catalog files, the units it may be given in, its
 * title (untranslated; pass it through gettext to show it) and how values of it compare. */
typedef struct
{
  const char        *key;
  const char        *units[3];
  const char        *title;
  SuanliSpecCompare  compare;
} SuanliSpecKey;

const char          *suanli_item_kind_to_nick       (SuanliItemKind  kind);
gboolean             suanli_item_kind_from_nick     (const char     *nick,
                                                     SuanliItemKind *kind);
const char          *suanli_item_kind_get_title     (SuanliItemKind  kind);
const char          *suanli_item_kind_get_singular  (SuanliItemKind  kind);
const char          *suanli_part_role_get_title     (const char     *role);
const SuanliSpecKey *suanli_item_kind_get_spec_keys (SuanliItemKind  kind,
                                                     guint          *n_keys);
const SuanliSpecKey *suanli_item_kind_find_spec_key (SuanliItemKind  kind,
                                                     const char     *key);
gboolean             suanli_unit_is_known           (const char     *unit);

G_END_DECLS
