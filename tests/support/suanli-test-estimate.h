/* suanli-test-estimate.h — what the estimator's tests share: the built-in catalog, plans resolved
 * and estimated from JSON text, and figures compared within a tolerance
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "suanli-catalog.h"
#include "suanli-estimate.h"
#include "suanli-plan.h"

G_BEGIN_DECLS

#define assert_close(actual, expected) suanli_test_assert_relative ((actual), (expected), 1e-9, #actual)

SuanliCatalog *suanli_test_estimate_catalog  (void);
void           suanli_test_assert_relative   (double            actual,
                                              double            expected,
                                              double            tolerance,
                                              const char       *what);
gboolean       suanli_test_resolve           (const char       *json,
                                              SuanliPlanInputs *inputs,
                                              SuanliEstimate   *estimate,
                                              GPtrArray        *errors);
void           suanli_test_estimate_valid    (const char       *json,
                                              SuanliPlanInputs *inputs,
                                              SuanliEstimate   *estimate);

G_END_DECLS
