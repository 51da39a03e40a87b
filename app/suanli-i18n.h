/* suanli-i18n.h — setting up gettext for the GUI, the CLI and the tests
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

void suanli_i18n_init (void);

G_END_DECLS
