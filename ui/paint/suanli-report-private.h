/* suanli-report-private.h — what the parts of SuanliReport share
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "suanli-page-writer.h"
#include "suanli-report.h"

G_BEGIN_DECLS

struct _SuanliReport
{
  char            *plan_name;
  SuanliPlan      *plan;           /* a copy, as it was: its "traces" say which traces are of its job */
  char           **item_ids;       /* the catalog items the plan names, in its order */
  SuanliCatalog   *catalog;
  SuanliPlanInputs inputs;
  SuanliEstimate   estimate;
  GPtrArray       *advice;         /* of SuanliAdvice */
  GPtrArray       *warnings;       /* of char *: "field: message" */
  GPtrArray       *comparisons;    /* of ReportComparison */
  SuanliTrace     *trace;
  char            *trace_name;
  SuanliPaper      paper;
  char            *font_warning;
};

void suanli_report_write_trace (SuanliReport     *self,
                                SuanliPageWriter *writer);

G_END_DECLS
