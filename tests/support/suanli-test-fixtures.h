/* suanli-test-fixtures.h — the real Kineto traces the repository carries in tests/data/kineto
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

const char *suanli_test_fixtures_dir (void);
char       *suanli_test_fixture_path (const char *name);

G_END_DECLS
