/* suanli-application.h — the Suanli application: actions, accelerators, opening files
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <adwaita.h>

#include "suanli-catalog.h"

G_BEGIN_DECLS

#define SUANLI_TYPE_APPLICATION (suanli_application_get_type ())

G_DECLARE_FINAL_TYPE (SuanliApplication, suanli_application, SUANLI, APPLICATION, AdwApplication)

SuanliApplication *suanli_application_new         (GApplicationFlags  extra_flags);
SuanliCatalog     *suanli_application_get_catalog (SuanliApplication *self);

G_END_DECLS
