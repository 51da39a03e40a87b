/* suanli-test-estimate.c — what the estimator's tests share
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>

#include "suanli-plan-inputs.h"
#include "suanli-test-estimate.h"

/* The built-in catalog, loaded once for the test program; it must load without a problem. */
SuanliCatalog *
suanli_test_estimate_catalog (void)
{
  static SuanliCatalog *catalog;

  if (catalog == NULL)
    {
      g_autoptr(GPtrArray) problems = g_ptr_array_new_with_free_func (g_free);

      catalog = suanli_catalog_new ();
      suanli_catalog_load_builtin (catalog, problems);
      g_assert_cmpuint (problems->len, ==, 0);
    }
  return catalog;
}

void
suanli_test_assert_relative (double      actual,
                             double      expected,
                             double      tolerance,
                             const char *what)
{
  if (fabs (actual - expected) > tolerance * fabs (expected))
    g_error ("%s = %.12g, expected %.12g", what, actual, expected);
}

/* Resolves @json and, when it is valid, estimates it; returns whether it was valid, with its errors
 * in @errors. */
gboolean
suanli_test_resolve (const char       *json,
                     SuanliPlanInputs *inputs,
                     SuanliEstimate   *estimate,
                     GPtrArray        *errors)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(SuanliPlan) plan = suanli_plan_new_from_data (json, -1, "test.suanli-plan", &error);
  g_autoptr(GPtrArray) warnings = g_ptr_array_new_with_free_func ((GDestroyNotify) suanli_plan_issue_free);
  gboolean valid;

  g_assert_no_error (error);
  valid = suanli_plan_inputs_resolve (plan, suanli_test_estimate_catalog (), inputs, errors, warnings);
  if (valid)
    suanli_estimate_compute (inputs, estimate);
  return valid;
}

/* Resolves and estimates @json, which must be valid: its errors are printed and the test fails. */
void
suanli_test_estimate_valid (const char       *json,
                            SuanliPlanInputs *inputs,
                            SuanliEstimate   *estimate)
{
  g_autoptr(GPtrArray) errors = g_ptr_array_new_with_free_func ((GDestroyNotify) suanli_plan_issue_free);

  if (!suanli_test_resolve (json, inputs, estimate, errors))
    {
      for (guint i = 0; i < errors->len; i++)
        g_printerr ("%s: %s\n", ((SuanliPlanIssue *) g_ptr_array_index (errors, i))->field,
                    ((SuanliPlanIssue *) g_ptr_array_index (errors, i))->message);
      g_error ("plan unexpectedly invalid: %s", json);
    }
}
