/* suanli-estimate-json.h — an estimate as `suanli-estimate/1` JSON, the CLI's output contract
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "suanli-advice.h"

G_BEGIN_DECLS

char *suanli_estimate_to_json (const SuanliPlanInputs *inputs,
                               const SuanliEstimate   *estimate,
                               const char             *name,
                               GPtrArray              *errors,
                               GPtrArray              *warnings,
                               GPtrArray              *advice,
                               GError                **error);

G_END_DECLS
