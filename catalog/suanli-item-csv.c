/* suanli-item-csv.c — catalog items as CSV, for spreadsheets
 *
 * One row per item, one column per spec of the kind; values exact and in the stored unit, which
 * the header names ("memory_bytes (B)"), so a spreadsheet can compute with them. RFC 4180 quoting;
 * cells that a spreadsheet would run as a formula are prefixed with an apostrophe.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>

#include "suanli-item-csv.h"

static void
append_cell (GString    *csv,
             const char *text,
             gboolean    first)
{
  gboolean formula = text[0] == '=' || text[0] == '+' || text[0] == '-' || text[0] == '@';

  if (!first)
    g_string_append_c (csv, ',');
  if (!formula && strpbrk (text, ",\"\r\n") == NULL)
    {
      g_string_append (csv, text);
      return;
    }
  g_string_append_c (csv, '"');
  if (formula)
    g_string_append_c (csv, '\'');
  for (const char *p = text; *p; p++)
    {
      if (*p == '"')
        g_string_append_c (csv, '"');
      g_string_append_c (csv, *p);
    }
  g_string_append_c (csv, '"');
}

/* Returns: (transfer full): @items (of SuanliItem) of @kind as CSV text; items of other kinds are skipped. */
char *
suanli_items_to_csv (GPtrArray      *items,
                     SuanliItemKind  kind)
{
  g_autoptr(GString) csv = g_string_new (NULL);
  const SuanliSpecKey *keys;
  guint n_keys = 0;

  keys = suanli_item_kind_get_spec_keys (kind, &n_keys);
  append_cell (csv, "id", TRUE);
  append_cell (csv, "name", FALSE);
  append_cell (csv, "vendor", FALSE);
  for (guint k = 0; k < n_keys; k++)
    {
      g_autofree char *header = g_strdup_printf ("%s (%s)", keys[k].key, keys[k].units[0]);
      append_cell (csv, header, FALSE);
    }
  g_string_append (csv, "\r\n");

  for (guint i = 0; i < items->len; i++)
    {
      SuanliItem *item = g_ptr_array_index (items, i);

      if (suanli_item_get_kind (item) != kind)
        continue;
      append_cell (csv, suanli_item_get_id (item), TRUE);
      append_cell (csv, suanli_item_get_name (item), FALSE);
      append_cell (csv, suanli_item_get_vendor (item), FALSE);
      for (guint k = 0; k < n_keys; k++)
        {
          const SuanliSpec *spec = suanli_item_find_spec (item, keys[k].key);
          char number[G_ASCII_DTOSTR_BUF_SIZE] = "";

          /* A spec given in a second unit (a price in CNY) says so in its cell. */
          if (spec != NULL)
            g_ascii_formatd (number, sizeof number, "%.15g", spec->value);
          if (spec != NULL && g_strcmp0 (spec->unit, keys[k].units[0]) != 0)
            {
              g_autofree char *with_unit = g_strdup_printf ("%s %s", number, spec->unit);
              append_cell (csv, with_unit, FALSE);
            }
          else
            {
              /* A number is written bare: it cannot hold a formula. */
              g_string_append_c (csv, ',');
              g_string_append (csv, number);
            }
        }
      g_string_append (csv, "\r\n");
    }
  return g_string_free (g_steal_pointer (&csv), FALSE);
}
