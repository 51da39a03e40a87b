/* suanli-work-classifier.h — what bounds each piece of GPU work (compute, memory, communication,
 * host) and its number format, told by its name, its operator and the FLOPs and bytes PyTorch
 * records, each with the reason
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "suanli-whatif.h"

G_BEGIN_DECLS

typedef struct
{
  SuanliWorkClass    work_class;
  SuanliNumberFormat format;
  gboolean           format_known;   /* from the name or the operator; FALSE: assumed */
  char              *why;            /* the class's reason: "“gemm” in the name" */
  char              *format_why;     /* "bf16 in the name", "assumed: the name gives none" */
} SuanliWorkClassification;

typedef struct _SuanliWorkClassifier SuanliWorkClassifier;

SuanliWorkClassifier           *suanli_work_classifier_new      (SuanliTrace          *trace,
                                                                 double                ridge);
void                            suanli_work_classifier_free     (SuanliWorkClassifier *self);
const SuanliWorkClassification *suanli_work_classifier_classify (SuanliWorkClassifier *self,
                                                                 const SuanliSlice    *work,
                                                                 const SuanliSlice    *op);
gboolean                        suanli_number_format_from_text  (const char           *text,
                                                                 SuanliNumberFormat   *format,
                                                                 const char          **matched);
guint                           suanli_number_format_bytes      (SuanliNumberFormat    format);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (SuanliWorkClassifier, suanli_work_classifier_free)

G_END_DECLS
