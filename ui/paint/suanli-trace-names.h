/* suanli-trace-names.h — the English names traces and the analyses give rows, in the user's language
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

char *suanli_trace_name_for_display (const char *name);

G_END_DECLS
