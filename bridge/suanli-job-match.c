/* suanli-job-match.c — whether a trace is of a plan's job: the same accelerator, as many of them
 *
 * Measured figures set against a plan say something only when the trace is of that plan's job: a
 * V100's step against eight H100s' reads as an MFU of thousands of percent. The trace names its
 * device ("Tesla V100-SXM2-32GB"), which the catalog maps to an accelerator; the plan names one
 * from the catalog. Both, and the GPU counts, must agree.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>

#include "suanli-device-match.h"
#include "suanli-job-match.h"

/**
 * suanli_job_match_new:
 * @plan_name: the plan's name, for the sentence
 * @inputs: the plan resolved against @catalog
 *
 * Returns: (transfer full): whether @trace is of the plan's job, and what it ran on.
 */
SuanliJobMatch *
suanli_job_match_new (SuanliTrace            *trace,
                      SuanliCatalog          *catalog,
                      const char             *plan_name,
                      const SuanliPlanInputs *inputs)
{
  SuanliJobMatch *self = g_new0 (SuanliJobMatch, 1);
  guint64 memory = 0;
  const char *device = suanli_trace_get_accelerator (trace, &memory, &self->gpus);
  g_autofree char *planned = g_strdup_printf ("%g × %s", inputs->gpus, inputs->accelerator_name);

  if (device == NULL)
    {
      self->why = g_strdup_printf (_("The trace does not say what it ran on, so it is not set against the plan “%s” (%s)."),
                                   plan_name, planned);
      return self;
    }
  self->ran_on = g_strdup_printf ("%u × %s", self->gpus, device);
  self->accelerator = suanli_device_match (catalog, device, memory);
  self->same_job = self->accelerator != NULL && g_str_equal (suanli_item_get_id (self->accelerator), inputs->accelerator_id) &&
                   (double) self->gpus == inputs->gpus;
  if (self->same_job)
    return self;
  if (self->accelerator == NULL)
    self->why = g_strdup_printf (_("This trace ran on %s, which the catalog does not have; the plan “%s” is for %s, so the "
                                   "two are not compared."),
                                 self->ran_on, plan_name, planned);
  else
    self->why = g_strdup_printf (_("This trace ran on %s; the plan “%s” is for %s, so the two are not compared."),
                                 self->ran_on, plan_name, planned);
  return self;
}

void
suanli_job_match_free (SuanliJobMatch *self)
{
  g_free (self->ran_on);
  g_free (self->why);
  g_free (self);
}
