/* suanli-demangle.h — C++ names as people read them, the way Kineto shows kernels
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

char *suanli_demangle (const char *name);

G_END_DECLS
