/* suanli-inject-python.h — the Python frames of the calling thread, for launch stacks
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>

bool   suanli_inject_python_init  (void);
size_t suanli_inject_python_stack (char   *text,
                                   size_t  size);
