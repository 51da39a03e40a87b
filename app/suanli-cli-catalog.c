/* suanli-cli-catalog.c — `suanli-cli catalog list | show | validate`
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <stdio.h>
#include <glib/gi18n.h>

#include "suanli-catalog-reader.h"
#include "suanli-catalog.h"
#include "suanli-cli.h"
#include "suanli-item-json.h"
#include "suanli-units.h"

/* The extra catalog folders from Preferences, when the settings schema is installed. */
static char **
dup_extra_folders (void)
{
  GSettingsSchemaSource *source = g_settings_schema_source_get_default ();
  g_autoptr(GSettingsSchema) schema = NULL;
  g_autoptr(GSettings) settings = NULL;

  if (source != NULL)
    schema = g_settings_schema_source_lookup (source, APPLICATION_ID, TRUE);
  if (schema == NULL)
    return g_new0 (char *, 1);
  settings = g_settings_new_full (schema, NULL, NULL);
  return g_settings_get_strv (settings, "catalog-folders");
}

static SuanliCatalog *
load_catalog (void)
{
  g_auto(GStrv) folders = dup_extra_folders ();
  g_autoptr(GPtrArray) problems = g_ptr_array_new_with_free_func (g_free);
  SuanliCatalog *catalog = suanli_catalog_load_standard ((const char * const *) folders, problems, NULL);

  for (guint i = 0; i < problems->len; i++)
    g_printerr (_("warning: %s\n"), (const char *) g_ptr_array_index (problems, i));
  return catalog;
}

static int
print_json (GPtrArray *items)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *json = suanli_items_to_catalog_json (items, TRUE, &error);

  if (json == NULL)
    {
      g_printerr ("suanli-cli catalog: %s\n", error->message);
      return SUANLI_EXIT_INVALID_INPUT;
    }
  g_print ("%s\n", json);
  return SUANLI_EXIT_DONE;
}

static int
run_list (int    argc,
          char **argv)
{
  g_autofree char *kind_nick = NULL;
  gboolean json = FALSE;
  const GOptionEntry entries[] = {
    { "kind", 0, 0, G_OPTION_ARG_STRING, &kind_nick, N_("Only items of this kind"), N_("KIND") },
    { "json", 0, 0, G_OPTION_ARG_NONE, &json, N_("Print the full items as a catalog document"), NULL },
    { NULL }
  };
  g_autoptr(GOptionContext) context = g_option_context_new (NULL);
  g_autoptr(SuanliCatalog) catalog = NULL;
  g_autoptr(GPtrArray) items = g_ptr_array_new_with_free_func (g_object_unref);
  g_autoptr(GError) error = NULL;
  SuanliItemKind kind = SUANLI_ITEM_KIND_ACCELERATOR;
  int id_width = 2, vendor_width = 6;

  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);
  if (!g_option_context_parse (context, &argc, &argv, &error) || argc > 1)
    {
      g_printerr ("suanli-cli catalog list: %s\n", error != NULL ? error->message : _("too many arguments"));
      return SUANLI_EXIT_USAGE_OR_IO;
    }
  if (kind_nick != NULL && !suanli_item_kind_from_nick (kind_nick, &kind))
    {
      g_printerr (_("suanli-cli catalog list: unknown kind “%s” (accelerator, cpu, link, storage, system, "
                    "cloud-instance, model, tool, technique, dataset)\n"), kind_nick);
      return SUANLI_EXIT_USAGE_OR_IO;
    }

  catalog = load_catalog ();
  for (guint i = 0; i < g_list_model_get_n_items (G_LIST_MODEL (catalog)); i++)
    {
      SuanliItem *item = g_list_model_get_item (G_LIST_MODEL (catalog), i);

      if (kind_nick != NULL && suanli_item_get_kind (item) != kind)
        {
          g_object_unref (item);
          continue;
        }
      id_width = MAX (id_width, (int) g_utf8_strlen (suanli_item_get_id (item), -1));
      vendor_width = MAX (vendor_width, (int) g_utf8_strlen (suanli_item_get_vendor (item), -1));
      g_ptr_array_add (items, item);
    }

  if (json)
    return print_json (items);
  for (guint i = 0; i < items->len; i++)
    {
      SuanliItem *item = g_ptr_array_index (items, i);
      const char *vendor = suanli_item_get_vendor (item);

      /* printf pads by bytes; pad by characters so Chinese vendor names line up. */
      g_print ("%-*s  %-14s  %s%*s  %s\n", id_width, suanli_item_get_id (item),
               suanli_item_kind_to_nick (suanli_item_get_kind (item)), vendor,
               vendor_width - (int) g_utf8_strlen (vendor, -1), "", suanli_item_get_name (item));
    }
  return SUANLI_EXIT_DONE;
}

static void
print_item (SuanliItem *item)
{
  static const char * const trade_titles[SUANLI_N_TRADES] = { N_("Memory"), N_("Speed"), N_("Accuracy") };
  GHashTableIter iter;
  gpointer role, id;

  g_print ("%s — %s\n", suanli_item_get_name (item), suanli_item_get_vendor (item));
  g_print ("%s: %s", _("id"), suanli_item_get_id (item));
  g_print (", %s: %s", _("kind"), suanli_item_kind_get_singular (suanli_item_get_kind (item)));
  if (suanli_item_get_year (item) != 0)
    g_print (", %s: %d", _("year"), suanli_item_get_year (item));
  g_print ("\n%s\n", suanli_text_get (suanli_item_get_summary (item)));

  if (suanli_item_get_n_specs (item) > 0)
    g_print ("\n%s\n", _("Specs:"));
  for (guint i = 0; i < suanli_item_get_n_specs (item); i++)
    {
      const SuanliSpec *spec = suanli_item_get_spec_at (item, i);
      const SuanliSpecKey *key = suanli_item_kind_find_spec_key (suanli_item_get_kind (item), spec->key);
      g_autofree char *value = suanli_spec_format_value (spec, SUANLI_MEMORY_UNITS_GB);

      g_print ("  ");
      suanli_cli_print_padded (_(key->title), 21);
      g_print ("%s", value);
      g_print ("  [%s] %s\n", suanli_confidence_get_title (spec->confidence), spec->source);
      if (spec->note.en != NULL)
        g_print ("  %-20s %s\n", "", suanli_text_get (&spec->note));
    }

  /* What no source gives, and why: the planner names these when a plan needs them. */
  for (guint i = 0; i < suanli_item_get_n_unknown (item); i++)
    {
      const SuanliText *why;
      const char *key = suanli_item_get_unknown_at (item, i, &why);
      const SuanliSpecKey *spec_key = suanli_item_kind_find_spec_key (suanli_item_get_kind (item), key);

      g_print ("  ");
      suanli_cli_print_padded (spec_key != NULL ? _(spec_key->title) : key, 21);
      g_print ("%s  %s\n", _("unknown"), suanli_text_get (why));
    }

  g_hash_table_iter_init (&iter, suanli_item_get_parts (item));
  while (g_hash_table_iter_next (&iter, &role, &id))
    {
      g_print ("  ");
      suanli_cli_print_padded (suanli_part_role_get_title (role), 21);
      g_print ("%s\n", (const char *) id);
    }

  if (suanli_item_get_trade (item, SUANLI_TRADE_MEMORY)->en != NULL)
    {
      g_print ("\n%s\n", _("Trades:"));
      for (guint i = 0; i < SUANLI_N_TRADES; i++)
        g_print ("  %-10s %s\n", _(trade_titles[i]), suanli_text_get (suanli_item_get_trade (item, i)));
    }

  if (suanli_item_get_n_claims (item) > 0)
    g_print ("\n%s\n", _("Claims in the source articles:"));
  for (guint i = 0; i < suanli_item_get_n_claims (item); i++)
    {
      const SuanliClaim *claim = suanli_item_get_claim_at (item, i);
      g_autofree char *value = suanli_claim_format_figure (claim, claim->value);

      g_print ("  %s %s: “%s”\n", suanli_verdict_is_disputed (claim->verdict) ? "⚠" : "•",
               claim->seed, claim->quote);
      g_print ("    %s — %s", value, suanli_verdict_get_title (claim->verdict));
      if (claim->has_correct_value)
        {
          g_autofree char *correct = suanli_claim_format_figure (claim, claim->correct_value);
          g_print (_(" (right: %s)"), correct);
        }
      g_print ("\n    %s\n", suanli_text_get (&claim->note));
    }

  if (suanli_item_get_n_links (item) > 0)
    g_print ("\n%s\n", _("Links:"));
  for (guint i = 0; i < suanli_item_get_n_links (item); i++)
    {
      const char *title, *url;

      suanli_item_get_link_at (item, i, &title, &url);
      g_print ("  %s <%s>\n", title, url);
    }
}

static int
run_show (int    argc,
          char **argv)
{
  gboolean json = FALSE;
  const GOptionEntry entries[] = {
    { "json", 0, 0, G_OPTION_ARG_NONE, &json, N_("Print the item as a catalog document"), NULL },
    { NULL }
  };
  g_autoptr(GOptionContext) context = g_option_context_new (N_("ID"));
  g_autoptr(SuanliCatalog) catalog = NULL;
  g_autoptr(GError) error = NULL;
  SuanliItem *item;

  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);
  if (!g_option_context_parse (context, &argc, &argv, &error) || argc != 2)
    {
      g_printerr ("suanli-cli catalog show: %s\n", error != NULL ? error->message : _("give one item id"));
      return SUANLI_EXIT_USAGE_OR_IO;
    }

  catalog = load_catalog ();
  item = suanli_catalog_lookup (catalog, argv[1]);
  if (item == NULL)
    {
      g_printerr (_("suanli-cli catalog show: no item has the id “%s”\n"), argv[1]);
      return SUANLI_EXIT_INVALID_INPUT;
    }
  if (json)
    {
      g_autoptr(GPtrArray) items = g_ptr_array_new ();

      g_ptr_array_add (items, item);
      return print_json (items);
    }
  print_item (item);
  return SUANLI_EXIT_DONE;
}

/* Checks each file on its own and against the catalog it would join: parts must name known items. */
static int
run_validate (int    argc,
              char **argv)
{
  gboolean unreadable = FALSE, invalid = FALSE;

  if (argc < 2)
    {
      g_printerr (_("Usage: suanli-cli catalog validate FILE…\n"));
      return SUANLI_EXIT_USAGE_OR_IO;
    }

  for (int i = 1; i < argc; i++)
    {
      g_autoptr(GFile) file = g_file_new_for_commandline_arg (argv[i]);
      g_autoptr(GPtrArray) items = g_ptr_array_new_with_free_func (g_object_unref);
      g_autoptr(GPtrArray) problems = g_ptr_array_new_with_free_func (g_free);
      g_autoptr(SuanliCatalog) catalog = NULL;
      g_autoptr(GFileInputStream) opened = NULL;
      g_autoptr(GError) error = NULL;
      gboolean readable;

      if (!g_file_query_exists (file, NULL))
        {
          g_printerr (_("%s: no such file\n"), argv[i]);
          unreadable = TRUE;
          continue;
        }
      /* A folder, or a file this user may not read, is a failure to read (exit 1), not bad input. */
      opened = g_file_read (file, NULL, &error);
      if (opened == NULL)
        {
          g_printerr ("%s: %s\n", argv[i], error->message);
          unreadable = TRUE;
          continue;
        }
      g_input_stream_close (G_INPUT_STREAM (opened), NULL, NULL);
      readable = suanli_catalog_read_file (file, items, problems, NULL);
      if (readable && problems->len == 0)
        {
          g_autoptr(GPtrArray) ignored = g_ptr_array_new_with_free_func (g_free);

          catalog = suanli_catalog_load_standard (NULL, ignored, NULL);
          suanli_catalog_add_items (catalog, items);
          suanli_catalog_check_references (catalog, problems);
        }
      for (guint j = 0; j < problems->len; j++)
        g_printerr ("%s\n", (const char *) g_ptr_array_index (problems, j));
      if (problems->len > 0)
        invalid = TRUE;
      else
        g_print (ngettext ("%s: %u item, valid\n", "%s: %u items, valid\n", items->len), argv[i], items->len);
    }
  return unreadable ? SUANLI_EXIT_USAGE_OR_IO : invalid ? SUANLI_EXIT_INVALID_INPUT : SUANLI_EXIT_DONE;
}

int
suanli_cli_catalog (int    argc,
                    char **argv)
{
  if (argc >= 2 && g_str_equal (argv[1], "list"))
    return run_list (argc - 1, argv + 1);
  if (argc >= 2 && g_str_equal (argv[1], "show"))
    return run_show (argc - 1, argv + 1);
  if (argc >= 2 && g_str_equal (argv[1], "validate"))
    return run_validate (argc - 1, argv + 1);

  g_printerr (_("Usage: suanli-cli catalog list [--kind KIND] [--json]\n"
                "       suanli-cli catalog show ID [--json]\n"
                "       suanli-cli catalog validate FILE…\n"));
  return SUANLI_EXIT_USAGE_OR_IO;
}
