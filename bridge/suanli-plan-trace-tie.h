/* suanli-plan-trace-tie.h — whether a trace is known to be of a plan's job: tied by the user, or named
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "suanli-plan.h"
#include "suanli-trace.h"

G_BEGIN_DECLS

/* The text a trace carries to say it is of a plan's job: "suanli.plan=" and the plan's name. */
#define SUANLI_PLAN_MARK_PREFIX "suanli.plan="

typedef enum {
  SUANLI_PLAN_TIE_UNKNOWN,   /* nothing says the trace is of the plan's job: not compared */
  SUANLI_PLAN_TIE_TIED,      /* the user said so: the plan lists the trace under "traces" */
  SUANLI_PLAN_TIE_MARKED,    /* the trace names the plan (SUANLI_PLAN_MARK_PREFIX) */
} SuanliPlanTie;

char          *suanli_plan_trace_fingerprint (SuanliTrace *trace);
SuanliPlanTie  suanli_plan_trace_tie         (SuanliPlan  *plan,
                                              const char  *plan_name,
                                              SuanliTrace *trace);
char          *suanli_plan_trace_unknown_job (const char *plan_name);
void           suanli_plan_trace_set_tied    (SuanliPlan  *plan,
                                              SuanliTrace *trace,
                                              gboolean     tied);

G_END_DECLS
