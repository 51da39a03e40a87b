/* suanli-job-match.h — whether a trace is of a plan's job: the same accelerator, as many of them
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "suanli-catalog.h"
#include "suanli-plan-inputs.h"
#include "suanli-trace.h"

G_BEGIN_DECLS

typedef struct
{
  gboolean    same_job;      /* the plan's accelerator and GPU count are the trace's */
  char       *ran_on;        /* "1 × Tesla V100-SXM2-32GB"; NULL when the trace does not say */
  SuanliItem *accelerator;   /* the catalog's accelerator the trace ran on, or NULL */
  guint       gpus;          /* the GPUs of the trace's job */
  char       *why;           /* when not the same job: what each ran on, in a sentence */
} SuanliJobMatch;

SuanliJobMatch *suanli_job_match_new  (SuanliTrace            *trace,
                                       SuanliCatalog          *catalog,
                                       const char             *plan_name,
                                       const SuanliPlanInputs *inputs);
void            suanli_job_match_free (SuanliJobMatch         *self);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (SuanliJobMatch, suanli_job_match_free)

G_END_DECLS
