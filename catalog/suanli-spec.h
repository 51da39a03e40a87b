/* suanli-spec.h — one figure of a catalog item: value, unit, source and how sure it is
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "suanli-text.h"
#include "suanli-units.h"

G_BEGIN_DECLS

typedef enum {
  SUANLI_CONFIDENCE_LOW,
  SUANLI_CONFIDENCE_MEDIUM,
  SUANLI_CONFIDENCE_HIGH,
} SuanliConfidence;

typedef struct
{
  const char       *key;         /* interned */
  double            value;
  const char       *unit;        /* interned */
  char             *source;      /* the document: a title or URL, and a date */
  SuanliConfidence  confidence;
  SuanliText        label;       /* the marketed figure, in each language; en NULL when none */
  SuanliText        note;
} SuanliSpec;

SuanliSpec *suanli_spec_new                (void);
void        suanli_spec_free               (SuanliSpec       *spec);
gboolean    suanli_confidence_from_nick    (const char       *nick,
                                            SuanliConfidence *confidence);
const char *suanli_confidence_to_nick      (SuanliConfidence  confidence);
const char *suanli_confidence_get_title    (SuanliConfidence  confidence);
char       *suanli_spec_dup_stated_size    (const SuanliSpec *spec);
char       *suanli_spec_format_short       (const SuanliSpec *spec,
                                            SuanliMemoryUnits memory_units);
char       *suanli_spec_format_value       (const SuanliSpec *spec,
                                            SuanliMemoryUnits memory_units);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (SuanliSpec, suanli_spec_free)

G_END_DECLS
