/* suanli-plan-comparison.h — a trace's figures set against a plan's estimate
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "suanli-estimate.h"
#include "suanli-plan.h"
#include "suanli-trace-figures.h"

G_BEGIN_DECLS

/* One figure, planned and measured, formatted for people. */
typedef struct
{
  const char *figure;       /* "Step time", translated */
  char       *planned;
  char       *measured;
  char       *difference;   /* "+12%", or what the two say together; NULL when nothing can be said */
  char       *detail;       /* more on the measured figure, or NULL */
} SuanliComparisonRow;

/* What the profiler's summary and the report show when the workspace holds both a plan and a trace.
 * It lives here, where both catalog/ and profiler/ may be read, since neither may read the other. */
typedef struct
{
  char    *heading;         /* names the plan and its hardware, and says the trace is assumed to be of its job */
  GArray  *rows;            /* of SuanliComparisonRow */
  double   measured_mfu;    /* what the measured step implies; 0 when the trace has no steps */
  char    *warning;         /* why the measured figures cannot be of this job, or NULL */
} SuanliPlanComparison;

SuanliPlanComparison *suanli_plan_comparison_new     (const char               *plan_name,
                                                      const SuanliPlanInputs   *inputs,
                                                      const SuanliEstimate     *estimate,
                                                      const SuanliTraceFigures *figures);
char                 *suanli_plan_comparison_to_text (const SuanliPlanComparison *self);
void                  suanli_plan_comparison_free    (SuanliPlanComparison       *self);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (SuanliPlanComparison, suanli_plan_comparison_free)

G_END_DECLS
