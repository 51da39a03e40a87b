/* suanli-launch-stack.h — a kernel launch's CPU stack as the "Call stack" text
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "suanli-symbolizer.h"

G_BEGIN_DECLS

gboolean suanli_launch_stack_is_interpreter_frame (const char       *library,
                                                   const char       *function);
char    *suanli_launch_stack_format               (SuanliSymbolizer *symbolizer,
                                                   const guint64    *frames,
                                                   guint             depth,
                                                   const char       *python);

G_END_DECLS
