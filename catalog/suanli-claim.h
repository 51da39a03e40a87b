/* suanli-claim.h — what a source article says about a catalog item, and whether it is right
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "suanli-text.h"

G_BEGIN_DECLS

typedef enum {
  SUANLI_VERDICT_CONSISTENT,
  SUANLI_VERDICT_SPARSE_AS_DENSE,
  SUANLI_VERDICT_WRONG,
  SUANLI_VERDICT_UNVERIFIABLE,
  SUANLI_VERDICT_REFUTED,         /* contradicted, with no one right figure to give */
  SUANLI_VERDICT_MISNAMED,        /* the figure fits, but the product named does not exist */
} SuanliVerdict;

typedef struct
{
  char          *seed;            /* the article's file name */
  char          *quote;           /* its words, verbatim */
  const char    *spec_key;        /* interned, or NULL */
  double         value;
  const char    *unit;            /* interned */
  SuanliVerdict  verdict;
  gboolean       has_correct_value;
  double         correct_value;
  SuanliText     note;
} SuanliClaim;

SuanliClaim *suanli_claim_new             (void);
void         suanli_claim_free            (SuanliClaim   *claim);
gboolean     suanli_verdict_from_nick     (const char    *nick,
                                           SuanliVerdict *verdict);
const char  *suanli_verdict_to_nick       (SuanliVerdict  verdict);
const char  *suanli_verdict_get_title     (SuanliVerdict  verdict);
gboolean     suanli_verdict_needs_correct_value (SuanliVerdict verdict);
gboolean     suanli_verdict_is_disputed   (SuanliVerdict  verdict);
char        *suanli_claim_format_figure   (const SuanliClaim *claim,
                                           double         value);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (SuanliClaim, suanli_claim_free)

G_END_DECLS
