/* suanli-report.h — a plan, its estimate and (when there is one) a trace, as a PDF report
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "suanli-catalog.h"
#include "suanli-estimate.h"
#include "suanli-plan.h"
#include "suanli-trace.h"

G_BEGIN_DECLS

typedef enum {
  SUANLI_PAPER_A4,
  SUANLI_PAPER_LETTER,
} SuanliPaper;

typedef struct _SuanliReport SuanliReport;

SuanliReport *suanli_report_new             (SuanliPlan             *plan,
                                             SuanliCatalog          *catalog,
                                             const SuanliPlanInputs *inputs,
                                             GPtrArray              *warnings);
void          suanli_report_free            (SuanliReport           *self);
void          suanli_report_set_paper       (SuanliReport           *self,
                                             SuanliPaper             paper);
void          suanli_report_set_trace       (SuanliReport           *self,
                                             SuanliTrace            *trace,
                                             const char             *name);
void          suanli_report_add_comparison  (SuanliReport           *self,
                                             const char             *name,
                                             const SuanliPlanInputs *inputs,
                                             const SuanliEstimate   *estimate);
gboolean      suanli_report_write           (SuanliReport           *self,
                                             const char             *path,
                                             guint                  *n_pages,
                                             GError                **error);
const char   *suanli_report_get_font_warning (SuanliReport          *self);
gboolean      suanli_paper_from_nick        (const char             *nick,
                                             SuanliPaper            *paper);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (SuanliReport, suanli_report_free)

G_END_DECLS
