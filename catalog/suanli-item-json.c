/* suanli-item-json.c — writing catalog items back as `suanli-catalog/1` JSON
 *
 * What is written reads back to the same items: `suanli-cli catalog list --json` output is a
 * catalog file.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "suanli-item-json.h"
#include "suanli-json-writer.h"

static const char * const trade_names[SUANLI_N_TRADES] = { "memory", "speed", "accuracy" };

static void
write_text (JsonBuilder      *builder,
            const char       *member,
            const SuanliText *text)
{
  if (text->en == NULL && text->zh_CN == NULL)
    return;
  json_builder_set_member_name (builder, member);
  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "en");
  json_builder_add_string_value (builder, text->en != NULL ? text->en : "");
  json_builder_set_member_name (builder, "zh_CN");
  json_builder_add_string_value (builder, text->zh_CN != NULL ? text->zh_CN : "");
  json_builder_end_object (builder);
}

static void
write_strv (JsonBuilder        *builder,
            const char         *member,
            const char * const *strings)
{
  if (strings == NULL || strings[0] == NULL)
    return;
  json_builder_set_member_name (builder, member);
  json_builder_begin_array (builder);
  for (guint i = 0; strings[i] != NULL; i++)
    json_builder_add_string_value (builder, strings[i]);
  json_builder_end_array (builder);
}

static void
write_spec (JsonBuilder      *builder,
            const SuanliSpec *spec)
{
  json_builder_set_member_name (builder, spec->key);
  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "value");
  suanli_json_builder_add_number (builder, spec->value);
  json_builder_set_member_name (builder, "unit");
  json_builder_add_string_value (builder, spec->unit);
  json_builder_set_member_name (builder, "source");
  json_builder_add_string_value (builder, spec->source);
  json_builder_set_member_name (builder, "confidence");
  json_builder_add_string_value (builder, suanli_confidence_to_nick (spec->confidence));
  if (spec->label.en != NULL && g_strcmp0 (spec->label.en, spec->label.zh_CN) == 0)
    {
      json_builder_set_member_name (builder, "label");
      json_builder_add_string_value (builder, spec->label.en);
    }
  else
    write_text (builder, "label", &spec->label);
  write_text (builder, "note", &spec->note);
  json_builder_end_object (builder);
}

static void
write_claim (JsonBuilder       *builder,
             const SuanliClaim *claim)
{
  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "seed");
  json_builder_add_string_value (builder, claim->seed);
  json_builder_set_member_name (builder, "quote");
  json_builder_add_string_value (builder, claim->quote);
  if (claim->spec_key != NULL)
    {
      json_builder_set_member_name (builder, "spec");
      json_builder_add_string_value (builder, claim->spec_key);
    }
  json_builder_set_member_name (builder, "value");
  suanli_json_builder_add_number (builder, claim->value);
  json_builder_set_member_name (builder, "unit");
  json_builder_add_string_value (builder, claim->unit);
  json_builder_set_member_name (builder, "verdict");
  json_builder_add_string_value (builder, suanli_verdict_to_nick (claim->verdict));
  if (claim->has_correct_value)
    {
      json_builder_set_member_name (builder, "correct_value");
      suanli_json_builder_add_number (builder, claim->correct_value);
    }
  write_text (builder, "note", &claim->note);
  json_builder_end_object (builder);
}

void
suanli_item_write_json (SuanliItem  *item,
                        JsonBuilder *builder)
{
  GHashTable *parts = suanli_item_get_parts (item);

  g_return_if_fail (SUANLI_IS_ITEM (item));
  g_return_if_fail (JSON_IS_BUILDER (builder));

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "id");
  json_builder_add_string_value (builder, suanli_item_get_id (item));
  json_builder_set_member_name (builder, "kind");
  json_builder_add_string_value (builder, suanli_item_kind_to_nick (suanli_item_get_kind (item)));
  json_builder_set_member_name (builder, "vendor");
  json_builder_add_string_value (builder, suanli_item_get_vendor (item));
  json_builder_set_member_name (builder, "name");
  json_builder_add_string_value (builder, suanli_item_get_name (item));
  write_strv (builder, "aliases", suanli_item_get_aliases (item));
  if (suanli_item_get_year (item) != 0)
    {
      json_builder_set_member_name (builder, "year");
      json_builder_add_int_value (builder, suanli_item_get_year (item));
    }

  if (suanli_item_get_n_specs (item) > 0)
    {
      json_builder_set_member_name (builder, "specs");
      json_builder_begin_object (builder);
      for (guint i = 0; i < suanli_item_get_n_specs (item); i++)
        write_spec (builder, suanli_item_get_spec_at (item, i));
      json_builder_end_object (builder);
    }

  if (g_hash_table_size (parts) > 0)
    {
      g_autofree const char **roles = (const char **) g_hash_table_get_keys_as_array (parts, NULL);

      json_builder_set_member_name (builder, "parts");
      json_builder_begin_object (builder);
      for (guint i = 0; roles[i] != NULL; i++)
        {
          json_builder_set_member_name (builder, roles[i]);
          json_builder_add_string_value (builder, g_hash_table_lookup (parts, roles[i]));
        }
      json_builder_end_object (builder);
    }

  if (suanli_item_get_trade (item, SUANLI_TRADE_MEMORY)->en != NULL)
    {
      json_builder_set_member_name (builder, "trades");
      json_builder_begin_object (builder);
      for (guint i = 0; i < SUANLI_N_TRADES; i++)
        write_text (builder, trade_names[i], suanli_item_get_trade (item, i));
      json_builder_end_object (builder);
    }

  write_strv (builder, "tags", suanli_item_get_tags (item));
  write_text (builder, "summary", suanli_item_get_summary (item));
  if (suanli_item_get_n_unknown (item) > 0)
    {
      json_builder_set_member_name (builder, "unknown");
      json_builder_begin_object (builder);
      for (guint i = 0; i < suanli_item_get_n_unknown (item); i++)
        {
          const SuanliText *note;
          const char *key = suanli_item_get_unknown_at (item, i, &note);

          write_text (builder, key, note);
        }
      json_builder_end_object (builder);
    }
  if (suanli_item_get_no_source (item)->en != NULL)
    write_text (builder, "no_source", suanli_item_get_no_source (item));

  if (suanli_item_get_n_links (item) > 0)
    {
      json_builder_set_member_name (builder, "links");
      json_builder_begin_array (builder);
      for (guint i = 0; i < suanli_item_get_n_links (item); i++)
        {
          const char *title, *url;

          suanli_item_get_link_at (item, i, &title, &url);
          json_builder_begin_object (builder);
          json_builder_set_member_name (builder, "title");
          json_builder_add_string_value (builder, title);
          json_builder_set_member_name (builder, "url");
          json_builder_add_string_value (builder, url);
          json_builder_end_object (builder);
        }
      json_builder_end_array (builder);
    }

  if (suanli_item_get_n_claims (item) > 0)
    {
      json_builder_set_member_name (builder, "claims");
      json_builder_begin_array (builder);
      for (guint i = 0; i < suanli_item_get_n_claims (item); i++)
        write_claim (builder, suanli_item_get_claim_at (item, i));
      json_builder_end_array (builder);
    }
  json_builder_end_object (builder);
}

/* Returns: (transfer full) (nullable): a whole catalog document holding @items (of SuanliItem), or
 * NULL with @error naming a value that is not finite. */
char *
suanli_items_to_catalog_json (GPtrArray  *items,
                              gboolean    pretty,
                              GError    **error)
{
  g_autoptr(JsonBuilder) builder = json_builder_new ();

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "schema");
  json_builder_add_string_value (builder, "suanli-catalog/1");
  json_builder_set_member_name (builder, "items");
  json_builder_begin_array (builder);
  for (guint i = 0; i < items->len; i++)
    suanli_item_write_json (g_ptr_array_index (items, i), builder);
  json_builder_end_array (builder);
  json_builder_end_object (builder);

  return suanli_json_write_builder (builder, pretty, error);
}
