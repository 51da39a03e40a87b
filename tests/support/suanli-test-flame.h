/* suanli-test-flame.h — finding a frame in a flame graph by its name
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "suanli-flame.h"

/* The child of @parent named @name, or 0. */
static inline guint
suanli_test_flame_child (SuanliFlame *flame,
                         guint        parent,
                         const char  *name)
{
  for (guint at = suanli_flame_get_node (flame, parent)->first_child; at != 0;
       at = suanli_flame_get_node (flame, at)->next_sibling)
    if (g_str_equal (suanli_flame_get_name (flame, at), name))
      return at;
  return 0;
}
