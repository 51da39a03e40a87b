/* suanli-classifier.h — what kind of work a slice is (kernel, copy and its direction, memset,
 * communication, CPU operator), each category and name looked up once per trace; the analyses and
 * What If share it
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "suanli-analysis.h"
#include "suanli-gpu-work.h"

G_BEGIN_DECLS

typedef struct _SuanliClassifier SuanliClassifier;

SuanliClassifier     *suanli_classifier_new              (SuanliTrace       *trace);
void                  suanli_classifier_free             (SuanliClassifier  *classifier);
SuanliGpuWork         suanli_classifier_work             (SuanliClassifier  *classifier,
                                                          const SuanliSlice *slice);
gboolean              suanli_classifier_is_operator      (SuanliClassifier  *classifier,
                                                          const SuanliSlice *slice);
gboolean              suanli_classifier_is_communication (SuanliClassifier  *classifier,
                                                          const SuanliSlice *slice);
SuanliMemcpyDirection suanli_classifier_direction        (SuanliClassifier  *classifier,
                                                          const SuanliSlice *slice);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (SuanliClassifier, suanli_classifier_free)

G_END_DECLS
