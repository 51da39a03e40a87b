/* suanli-recent-menu.c — a menu of recently used files of some kinds
 *
 * The planner lists recent plans and the profiler recent traces, both from GTK's recent-files
 * list, each item activating an action with the file's URI as its target.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "suanli-recent-menu.h"

#define MAX_ITEMS 10

static gboolean
has_suffix (const char         *uri,
            const char * const *suffixes)
{
  for (const char * const *suffix = suffixes; *suffix != NULL; suffix++)
    if (g_str_has_suffix (uri, *suffix))
      return TRUE;
  return FALSE;
}

/**
 * suanli_recent_menu_new:
 * @suffixes: the endings of the files to list
 * @action: activated with the file's URI (a string target)
 * @none_action, @none_label: the one item shown when there is no such file
 *
 * Returns: (transfer full): the newest files first, at most ten.
 */
GMenuModel *
suanli_recent_menu_new (const char * const *suffixes,
                        const char         *action,
                        const char         *none_action,
                        const char         *none_label)
{
  GMenu *menu = g_menu_new ();
  GList *items = gtk_recent_manager_get_items (gtk_recent_manager_get_default ());
  guint count = 0;

  for (GList *l = items; l != NULL && count < MAX_ITEMS; l = l->next)
    {
      const char *uri = gtk_recent_info_get_uri (l->data);
      g_autoptr(GMenuItem) item = NULL;

      if (!has_suffix (uri, suffixes))
        continue;
      /* The URI as a target value: a detailed action string cannot hold every URI (an apostrophe). */
      /* Menus read "_" as a mnemonic: "my_plan" would show as "myplan". */
      {
        g_auto(GStrv) parts = g_strsplit (gtk_recent_info_get_display_name (l->data), "_", -1);
        g_autofree char *label = g_strjoinv ("__", parts);

        item = g_menu_item_new (label, NULL);
      }
      g_menu_item_set_action_and_target_value (item, action, g_variant_new_string (uri));
      g_menu_append_item (menu, item);
      count++;
    }
  g_list_free_full (items, (GDestroyNotify) gtk_recent_info_unref);
  if (count == 0)
    g_menu_append (menu, none_label, none_action);
  return G_MENU_MODEL (menu);
}
