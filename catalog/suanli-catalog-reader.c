/* suanli-catalog-reader.c — reading and checking one catalog file
 *
 * Catalog files come from users and other teams: nothing in them is trusted. Every problem is
 * reported as "FILE:LINE:COLUMN: PATH: why", where PATH names the member (items[3] (nvidia-h100-sxm)
 * .specs.bf16_tflops.unit). json-glib keeps no positions in its tree, so the reader listens to the
 * parser's member and element signals and notes where each value ended; that is the position
 * reported. An item with a problem is left out; the file's other items still load.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>
#include <string.h>
#include <glib/gi18n.h>
#include <json-glib/json-glib.h>

#include "suanli-catalog-reader.h"
#include "suanli-bounded-read.h"
#include "suanli-json-depth.h"
#include "suanli-item.h"

#define SCHEMA "suanli-catalog/1"

typedef struct
{
  int line;
  int column;
} Position;

typedef struct
{
  const char *file_name;
  GHashTable *positions;    /* JsonNode → Position */
  GPtrArray  *problems;
  guint       problems_before;
} Reader;

static const char * const item_members[] = {
  "id", "kind", "vendor", "name", "aliases", "year", "specs", "parts", "trades", "tags", "summary",
  "links", "claims", "unknown", "no_source", NULL
};
static const char * const spec_members[] = { "value", "unit", "source", "confidence", "label", "note", NULL };
static const char * const claim_members[] = {
  "seed", "quote", "spec", "value", "unit", "verdict", "correct_value", "note", NULL
};
/* host_link: what joins accelerators of one box beyond their scale-up domain (PCIe, say). */
static const char * const part_roles[] = { "accelerator", "cpu", "scale_up", "host_link", "scale_out", "storage", NULL };
static const char * const trade_names[SUANLI_N_TRADES] = { "memory", "speed", "accuracy" };

static void
on_object_member (JsonParser *parser,
                  JsonObject *object,
                  const char *member_name,
                  gpointer    user_data)
{
  Reader *reader = user_data;
  Position *position = g_new (Position, 1);

  position->line = (int) json_parser_get_current_line (parser);
  position->column = (int) json_parser_get_current_pos (parser);
  g_hash_table_replace (reader->positions, json_object_get_member (object, member_name), position);
}

static void
on_array_element (JsonParser *parser,
                  JsonArray  *array,
                  int         index,
                  gpointer    user_data)
{
  Reader *reader = user_data;
  Position *position = g_new (Position, 1);

  position->line = (int) json_parser_get_current_line (parser);
  position->column = (int) json_parser_get_current_pos (parser);
  g_hash_table_replace (reader->positions, json_array_get_element (array, (guint) index), position);
}

G_GNUC_PRINTF (4, 5)
static void
problem (Reader     *reader,
         JsonNode   *node,
         const char *path,
         const char *format,
         ...)
{
  const Position *position = node != NULL ? g_hash_table_lookup (reader->positions, node) : NULL;
  g_autofree char *message = NULL;
  va_list args;

  va_start (args, format);
  message = g_strdup_vprintf (format, args);
  va_end (args);

  g_ptr_array_add (reader->problems,
                   g_strdup_printf ("%s:%d:%d: %s%s%s", reader->file_name,
                                    position != NULL ? position->line : 1,
                                    position != NULL ? position->column : 1,
                                    path != NULL ? path : "", path != NULL ? ": " : "", message));
}

static gboolean
is_valid_id (const char *id)
{
  gboolean after_dash = TRUE;

  if (id == NULL || *id == '\0' || strlen (id) > 100)
    return FALSE;
  for (const char *p = id; *p; p++)
    {
      if (*p == '-')
        {
          if (after_dash)
            return FALSE;
          after_dash = TRUE;
        }
      else if (g_ascii_islower (*p) || g_ascii_isdigit (*p))
        after_dash = FALSE;
      else
        return FALSE;
    }
  return !after_dash;
}

/* A source names a document and a date: some words, and a year from 1900 to 2099. */
static gboolean
source_names_a_document (const char *source)
{
  guint letters = 0;
  gboolean has_year = FALSE;

  for (const char *p = source; *p; p++)
    {
      if (g_ascii_isalpha (*p) || (guchar) *p >= 0x80)
        letters++;
      if ((p[0] == '1' && p[1] == '9') || (p[0] == '2' && p[1] == '0'))
        if (g_ascii_isdigit (p[2]) && g_ascii_isdigit (p[3]) && !g_ascii_isdigit (p[4]) &&
            (p == source || !g_ascii_isdigit (p[-1])))
          has_year = TRUE;
    }
  return letters >= 3 && has_year;
}

static const char *
type_name (JsonNode *node)
{
  if (node == NULL || JSON_NODE_HOLDS_NULL (node))
    return "null";
  if (JSON_NODE_HOLDS_OBJECT (node))
    return "an object";
  if (JSON_NODE_HOLDS_ARRAY (node))
    return "an array";
  switch (json_node_get_value_type (node))
    {
    case G_TYPE_STRING:
      return "a string";
    case G_TYPE_BOOLEAN:
      return "true or false";
    default:
      return "a number";
    }
}

static gboolean
check_unknown_members (Reader             *reader,
                       JsonObject         *object,
                       const char         *path,
                       const char * const *allowed)
{
  g_autoptr(GList) members = json_object_get_members (object);
  gboolean ok = TRUE;

  for (GList *l = members; l != NULL; l = l->next)
    if (!g_strv_contains (allowed, l->data))
      {
        problem (reader, json_object_get_member (object, l->data), path, _("unknown key “%s”"),
                 (const char *) l->data);
        ok = FALSE;
      }
  return ok;
}

/* Returns: (nullable): the member's string, or NULL after reporting why not. */
static const char *
get_string (Reader     *reader,
            JsonObject *object,
            JsonNode   *object_node,
            const char *path,
            const char *member,
            gboolean    required)
{
  JsonNode *node = json_object_get_member (object, member);

  if (node == NULL)
    {
      if (required)
        problem (reader, object_node, path, _("“%s” is missing"), member);
      return NULL;
    }
  if (!JSON_NODE_HOLDS_VALUE (node) || json_node_get_value_type (node) != G_TYPE_STRING)
    {
      problem (reader, node, path, _("“%s” must be a string, not %s"), member, type_name (node));
      return NULL;
    }
  return json_node_get_string (node);
}

static gboolean
get_number (Reader     *reader,
            JsonObject *object,
            JsonNode   *object_node,
            const char *path,
            const char *member,
            gboolean    required,
            double     *value)
{
  JsonNode *node = json_object_get_member (object, member);
  GType type;

  if (node == NULL)
    {
      if (required)
        problem (reader, object_node, path, _("“%s” is missing"), member);
      return FALSE;
    }
  type = JSON_NODE_HOLDS_VALUE (node) ? json_node_get_value_type (node) : G_TYPE_INVALID;
  if (type != G_TYPE_INT64 && type != G_TYPE_DOUBLE)
    {
      problem (reader, node, path, _("“%s” must be a number, not %s"), member, type_name (node));
      return FALSE;
    }
  *value = json_node_get_double (node);
  if (!isfinite (*value))
    {
      problem (reader, node, path, _("“%s” is out of range"), member);
      return FALSE;
    }
  return TRUE;
}

/* Reads TEXT ({"en": …, "zh_CN": …}) into @text; both languages are required. */
static gboolean
read_text (Reader     *reader,
           JsonNode   *node,
           const char *path,
           char      **en,
           char      **zh_CN)
{
  static const char * const languages[] = { "en", "zh_CN", NULL };
  JsonObject *object;
  const char *english, *chinese;

  if (!JSON_NODE_HOLDS_OBJECT (node))
    {
      problem (reader, node, path, _("must be an object with “en” and “zh_CN”, not %s"), type_name (node));
      return FALSE;
    }
  object = json_node_get_object (node);
  if (!check_unknown_members (reader, object, path, languages))
    return FALSE;
  english = get_string (reader, object, node, path, "en", TRUE);
  chinese = get_string (reader, object, node, path, "zh_CN", TRUE);
  if (english == NULL || chinese == NULL)
    return FALSE;
  if (*english == '\0' || *chinese == '\0')
    {
      problem (reader, node, path, _("a text must not be empty"));
      return FALSE;
    }
  *en = g_strdup (english);
  *zh_CN = g_strdup (chinese);
  return TRUE;
}

static char **
read_string_list (Reader     *reader,
                  JsonNode   *node,
                  const char *path,
                  gboolean    lowercase)
{
  g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();
  JsonArray *array;
  gboolean ok = TRUE;

  if (!JSON_NODE_HOLDS_ARRAY (node))
    {
      problem (reader, node, path, _("must be an array of strings, not %s"), type_name (node));
      return NULL;
    }
  array = json_node_get_array (node);
  for (guint i = 0; i < json_array_get_length (array); i++)
    {
      JsonNode *element = json_array_get_element (array, i);
      const char *text;

      if (!JSON_NODE_HOLDS_VALUE (element) || json_node_get_value_type (element) != G_TYPE_STRING)
        {
          problem (reader, element, path, _("element %u must be a string, not %s"), i, type_name (element));
          ok = FALSE;
          continue;
        }
      text = json_node_get_string (element);
      if (lowercase)
        {
          g_autofree char *lower = g_utf8_strdown (text, -1);

          if (!g_str_equal (lower, text))
            {
              problem (reader, element, path, _("“%s” must be lowercase"), text);
              ok = FALSE;
              continue;
            }
        }
      g_strv_builder_add (builder, text);
    }
  return ok ? g_strv_builder_end (builder) : NULL;
}

static gboolean
read_spec (Reader     *reader,
           SuanliItem *item,
           JsonNode   *node,
           const char *key,
           const char *item_path)
{
  g_autofree char *path = g_strdup_printf ("%s.specs.%s", item_path, key);
  const SuanliSpecKey *spec_key = suanli_item_kind_find_spec_key (suanli_item_get_kind (item), key);
  g_autoptr(SuanliSpec) spec = suanli_spec_new ();
  const char *unit, *source, *confidence;
  JsonObject *object;
  JsonNode *note, *label;
  guint before = reader->problems->len;

  if (spec_key == NULL)
    {
      problem (reader, node, path, _("%s items have no spec “%s”"),
               suanli_item_kind_to_nick (suanli_item_get_kind (item)), key);
      return FALSE;
    }
  if (!JSON_NODE_HOLDS_OBJECT (node))
    {
      problem (reader, node, path, _("must be an object, not %s"), type_name (node));
      return FALSE;
    }
  object = json_node_get_object (node);
  check_unknown_members (reader, object, path, spec_members);

  spec->key = spec_key->key;
  /* Figures are positive (a share may be 0 %); counts, sizes and years are whole. */
  if (get_number (reader, object, node, path, "value", TRUE, &spec->value))
    {
      const char *stated = spec_key->units[0];

      if (spec->value < 0 || (spec->value == 0 && !g_str_equal (stated, "%")))
        problem (reader, json_object_get_member (object, "value"), path, _("the value must be more than zero, not %g"),
                 spec->value);
      else if ((g_str_equal (stated, "count") || g_str_equal (stated, "B") || g_str_equal (stated, "year")) &&
               spec->value != floor (spec->value))
        problem (reader, json_object_get_member (object, "value"), path, _("the value must be a whole number, not %g"),
                 spec->value);
    }
  unit = get_string (reader, object, node, path, "unit", TRUE);
  if (unit != NULL && !suanli_unit_is_known (unit))
    problem (reader, json_object_get_member (object, "unit"), path, _("unknown unit “%s”"), unit);
  else if (unit != NULL && !g_strv_contains (spec_key->units, unit))
    problem (reader, json_object_get_member (object, "unit"), path, _("“%s” is given in %s, not %s"),
             key, spec_key->units[0], unit);
  else if (unit != NULL)
    spec->unit = g_intern_string (unit);

  source = get_string (reader, object, node, path, "source", TRUE);
  if (source != NULL && !source_names_a_document (source))
    problem (reader, json_object_get_member (object, "source"), path,
             _("the source must name a document and its date (a year at least), not “%s”"), source);
  spec->source = g_strdup (source);

  confidence = get_string (reader, object, node, path, "confidence", TRUE);
  if (confidence != NULL && !suanli_confidence_from_nick (confidence, &spec->confidence))
    problem (reader, json_object_get_member (object, "confidence"), path,
             _("confidence must be high, medium or low, not “%s”"), confidence);

  /* A label with no words ("141 GB HBM3e") is a string; one with words is TEXT ("~10.2 kW max"). */
  label = json_object_get_member (object, "label");
  if (label != NULL && JSON_NODE_HOLDS_OBJECT (label))
    {
      g_autofree char *label_path = g_strconcat (path, ".label", NULL);
      read_text (reader, label, label_path, &spec->label.en, &spec->label.zh_CN);
    }
  else if (label != NULL)
    {
      const char *text = get_string (reader, object, node, path, "label", FALSE);

      spec->label.en = g_strdup (text);
      spec->label.zh_CN = g_strdup (text);
    }
  note = json_object_get_member (object, "note");
  if (note != NULL)
    {
      g_autofree char *note_path = g_strconcat (path, ".note", NULL);
      read_text (reader, note, note_path, &spec->note.en, &spec->note.zh_CN);
    }

  if (reader->problems->len != before)
    return FALSE;
  suanli_item_add_spec (item, g_steal_pointer (&spec));
  return TRUE;
}

/* "unknown": { KEY: TEXT }: figures of the kind that no source confirms, each with why. A key
 * is either a figure or unknown, never both. */
static void
read_unknown (Reader     *reader,
              SuanliItem *item,
              JsonNode   *node,
              const char *item_path)
{
  JsonObject *object;
  g_autoptr(GList) keys = NULL;

  if (!JSON_NODE_HOLDS_OBJECT (node))
    {
      problem (reader, node, item_path, _("“unknown” must be an object, not %s"), type_name (node));
      return;
    }
  object = json_node_get_object (node);
  keys = json_object_get_members (object);
  for (GList *l = keys; l != NULL; l = l->next)
    {
      g_autofree char *path = g_strdup_printf ("%s.unknown.%s", item_path, (const char *) l->data);
      JsonNode *member = json_object_get_member (object, l->data);
      g_autofree char *en = NULL;
      g_autofree char *zh_CN = NULL;

      if (suanli_item_kind_find_spec_key (suanli_item_get_kind (item), l->data) == NULL)
        problem (reader, member, path, _("%s items have no spec “%s”"),
                 suanli_item_kind_to_nick (suanli_item_get_kind (item)), (const char *) l->data);
      else if (suanli_item_find_spec (item, l->data) != NULL)
        problem (reader, member, path, _("“%s” has a value and is marked unknown"), (const char *) l->data);
      else if (read_text (reader, member, path, &en, &zh_CN))
        suanli_item_set_unknown (item, l->data, en, zh_CN);
    }
}

static gboolean
read_claim (Reader     *reader,
            SuanliItem *item,
            JsonNode   *node,
            const char *path)
{
  g_autoptr(SuanliClaim) claim = suanli_claim_new ();
  const char *seed, *quote, *spec, *unit, *verdict;
  JsonObject *object;
  JsonNode *note;
  guint before = reader->problems->len;

  if (!JSON_NODE_HOLDS_OBJECT (node))
    {
      problem (reader, node, path, _("must be an object, not %s"), type_name (node));
      return FALSE;
    }
  object = json_node_get_object (node);
  check_unknown_members (reader, object, path, claim_members);

  seed = get_string (reader, object, node, path, "seed", TRUE);
  quote = get_string (reader, object, node, path, "quote", TRUE);
  if (quote != NULL && *quote == '\0')
    problem (reader, json_object_get_member (object, "quote"), path, _("the quote must not be empty"));
  claim->seed = g_strdup (seed);
  claim->quote = g_strdup (quote);

  spec = get_string (reader, object, node, path, "spec", FALSE);
  if (spec != NULL && suanli_item_kind_find_spec_key (suanli_item_get_kind (item), spec) == NULL)
    problem (reader, json_object_get_member (object, "spec"), path, _("%s items have no spec “%s”"),
             suanli_item_kind_to_nick (suanli_item_get_kind (item)), spec);
  else if (spec != NULL)
    claim->spec_key = suanli_item_kind_find_spec_key (suanli_item_get_kind (item), spec)->key;

  get_number (reader, object, node, path, "value", TRUE, &claim->value);
  unit = get_string (reader, object, node, path, "unit", TRUE);
  if (unit != NULL && !suanli_unit_is_known (unit))
    problem (reader, json_object_get_member (object, "unit"), path, _("unknown unit “%s”"), unit);
  else if (unit != NULL)
    claim->unit = g_intern_string (unit);

  verdict = get_string (reader, object, node, path, "verdict", TRUE);
  if (verdict != NULL && !suanli_verdict_from_nick (verdict, &claim->verdict))
    problem (reader, json_object_get_member (object, "verdict"), path,
             _("the verdict must be consistent, sparse-as-dense, wrong, refuted, misnamed or unverifiable, not “%s”"), verdict);

  claim->has_correct_value = get_number (reader, object, node, path, "correct_value", FALSE,
                                         &claim->correct_value);
  if (verdict != NULL && suanli_verdict_needs_correct_value (claim->verdict) && !claim->has_correct_value)
    problem (reader, node, path, _("a claim found %s must give “correct_value”"), verdict);

  note = json_object_get_member (object, "note");
  if (note == NULL)
    problem (reader, node, path, _("“%s” is missing"), "note");
  else
    {
      g_autofree char *note_path = g_strconcat (path, ".note", NULL);
      read_text (reader, note, note_path, &claim->note.en, &claim->note.zh_CN);
    }

  if (reader->problems->len != before)
    return FALSE;
  suanli_item_add_claim (item, g_steal_pointer (&claim));
  return TRUE;
}

static void
read_links (Reader     *reader,
            SuanliItem *item,
            JsonNode   *node,
            const char *path)
{
  static const char * const link_members[] = { "title", "url", NULL };
  JsonArray *array;

  if (!JSON_NODE_HOLDS_ARRAY (node))
    {
      problem (reader, node, path, _("must be an array, not %s"), type_name (node));
      return;
    }
  array = json_node_get_array (node);
  for (guint i = 0; i < json_array_get_length (array); i++)
    {
      JsonNode *element = json_array_get_element (array, i);
      g_autofree char *element_path = g_strdup_printf ("%s[%u]", path, i);
      JsonObject *object;
      const char *title, *url;

      if (!JSON_NODE_HOLDS_OBJECT (element))
        {
          problem (reader, element, element_path, _("must be an object, not %s"), type_name (element));
          continue;
        }
      object = json_node_get_object (element);
      check_unknown_members (reader, object, element_path, link_members);
      title = get_string (reader, object, element, element_path, "title", TRUE);
      url = get_string (reader, object, element, element_path, "url", TRUE);
      if (url != NULL && !g_str_has_prefix (url, "https://") && !g_str_has_prefix (url, "http://"))
        problem (reader, json_object_get_member (object, "url"), element_path,
                 _("a link must be an http or https address, not “%s”"), url);
      else if (title != NULL && url != NULL)
        suanli_item_add_link (item, title, url);
    }
}

static void
read_parts (Reader     *reader,
            SuanliItem *item,
            JsonNode   *node,
            const char *path)
{
  JsonObject *object;
  g_autoptr(GList) roles = NULL;

  if (!JSON_NODE_HOLDS_OBJECT (node))
    {
      problem (reader, node, path, _("must be an object, not %s"), type_name (node));
      return;
    }
  object = json_node_get_object (node);
  if (!check_unknown_members (reader, object, path, part_roles))
    return;
  roles = json_object_get_members (object);
  for (GList *l = roles; l != NULL; l = l->next)
    {
      const char *id = get_string (reader, object, node, path, l->data, TRUE);

      if (id != NULL && !is_valid_id (id))
        problem (reader, json_object_get_member (object, l->data), path, _("“%s” is not an item id"), id);
      else if (id != NULL)
        suanli_item_set_part (item, l->data, id);
    }
}

static void
read_trades (Reader     *reader,
             SuanliItem *item,
             JsonNode   *node,
             const char *path)
{
  static const char * const allowed[] = { "memory", "speed", "accuracy", NULL };
  JsonObject *object;

  if (!JSON_NODE_HOLDS_OBJECT (node))
    {
      problem (reader, node, path, _("must be an object, not %s"), type_name (node));
      return;
    }
  object = json_node_get_object (node);
  check_unknown_members (reader, object, path, allowed);
  for (guint i = 0; i < SUANLI_N_TRADES; i++)
    {
      JsonNode *text = json_object_get_member (object, trade_names[i]);
      g_autofree char *text_path = g_strdup_printf ("%s.%s", path, trade_names[i]);
      g_autofree char *en = NULL;
      g_autofree char *zh_CN = NULL;

      if (text == NULL)
        problem (reader, node, path, _("“%s” is missing"), trade_names[i]);
      else if (read_text (reader, text, text_path, &en, &zh_CN))
        suanli_item_set_trade (item, i, en, zh_CN);
    }
}

/* How the accelerators are wired is what plans go wrong on most (docs/catalog-format.md, "Topology"):
 * a system states how many accelerators share its scale-up fabric, and an accelerator that gives a
 * scale-up bandwidth states the domain it spans, or why no source gives it. */
static void
check_topology (Reader     *reader,
                SuanliItem *item,
                JsonObject *object,
                JsonNode   *node,
                const char *path)
{
  JsonNode *specs = json_object_get_member (object, "specs");
  SuanliItemKind kind = suanli_item_get_kind (item);
  gboolean has_domain = suanli_item_get_spec_value (item, "scale_up_domain", NULL);

  /* Named where the specs are, else where the item is. */
  if (specs != NULL)
    node = specs;
  if (kind == SUANLI_ITEM_KIND_SYSTEM && !has_domain)
    problem (reader, node, path, _("a system must say how many accelerators share its scale-up fabric "
                                   "(“specs.scale_up_domain”)"));
  else if (kind == SUANLI_ITEM_KIND_ACCELERATOR && !has_domain &&
           suanli_item_get_spec_value (item, "scale_up_bandwidth", NULL) &&
           suanli_item_find_unknown (item, "scale_up_domain") == NULL)
    problem (reader, node, path, _("an accelerator with a scale-up bandwidth must say how many accelerators "
                                   "that fabric joins (“specs.scale_up_domain”, or why not in “unknown”)"));
}

static SuanliItem *
read_item (Reader     *reader,
           JsonNode   *node,
           guint       index)
{
  g_autoptr(SuanliItem) item = NULL;
  g_autofree char *path = NULL;
  const char *id, *kind_nick, *vendor, *name;
  SuanliItemKind kind = SUANLI_ITEM_KIND_ACCELERATOR;
  JsonObject *object;
  JsonNode *member;
  guint before = reader->problems->len;

  path = g_strdup_printf ("items[%u]", index);
  if (!JSON_NODE_HOLDS_OBJECT (node))
    {
      problem (reader, node, path, _("an item must be an object, not %s"), type_name (node));
      return NULL;
    }
  object = json_node_get_object (node);

  id = get_string (reader, object, node, path, "id", TRUE);
  if (id != NULL)
    {
      g_free (path);
      path = g_strdup_printf ("items[%u] (%s)", index, id);
      if (!is_valid_id (id))
        problem (reader, json_object_get_member (object, "id"), path,
                 _("an id is lowercase letters, digits and single dashes, not “%s”"), id);
    }
  check_unknown_members (reader, object, path, item_members);

  kind_nick = get_string (reader, object, node, path, "kind", TRUE);
  if (kind_nick != NULL && !suanli_item_kind_from_nick (kind_nick, &kind))
    problem (reader, json_object_get_member (object, "kind"), path, _("unknown kind “%s”"), kind_nick);
  vendor = get_string (reader, object, node, path, "vendor", TRUE);
  name = get_string (reader, object, node, path, "name", TRUE);
  if (name != NULL && *name == '\0')
    problem (reader, json_object_get_member (object, "name"), path, _("the name must not be empty"));
  if (reader->problems->len != before)
    return NULL;

  item = suanli_item_new (kind, id, vendor, name);
  suanli_item_set_origin (item, reader->file_name);

  if ((member = json_object_get_member (object, "year")) != NULL)
    {
      double year = 0;

      if (get_number (reader, object, node, path, "year", FALSE, &year) &&
          (year != floor (year) || year < 1900 || year > 2100))
        problem (reader, member, path, _("“year” must be a whole year, not %g"), year);
      suanli_item_set_year (item, (int) year);
    }

  if ((member = json_object_get_member (object, "aliases")) != NULL)
    {
      g_autofree char *list_path = g_strconcat (path, ".aliases", NULL);
      g_auto(GStrv) aliases = read_string_list (reader, member, list_path, FALSE);
      suanli_item_set_aliases (item, (const char * const *) aliases);
    }
  if ((member = json_object_get_member (object, "tags")) != NULL)
    {
      g_autofree char *list_path = g_strconcat (path, ".tags", NULL);
      g_auto(GStrv) tags = read_string_list (reader, member, list_path, TRUE);
      suanli_item_set_tags (item, (const char * const *) tags);
    }

  if ((member = json_object_get_member (object, "summary")) == NULL)
    problem (reader, node, path, _("“%s” is missing"), "summary");
  else
    {
      g_autofree char *text_path = g_strconcat (path, ".summary", NULL);
      g_autofree char *en = NULL;
      g_autofree char *zh_CN = NULL;

      if (read_text (reader, member, text_path, &en, &zh_CN))
        suanli_item_set_summary (item, en, zh_CN);
    }

  if ((member = json_object_get_member (object, "specs")) != NULL)
    {
      if (!JSON_NODE_HOLDS_OBJECT (member))
        problem (reader, member, path, _("“specs” must be an object, not %s"), type_name (member));
      else
        {
          JsonObject *specs = json_node_get_object (member);
          g_autoptr(GList) keys = json_object_get_members (specs);

          for (GList *l = keys; l != NULL; l = l->next)
            read_spec (reader, item, json_object_get_member (specs, l->data), l->data, path);
        }
    }

  if ((member = json_object_get_member (object, "parts")) != NULL)
    {
      g_autofree char *parts_path = g_strconcat (path, ".parts", NULL);
      read_parts (reader, item, member, parts_path);
    }

  if ((member = json_object_get_member (object, "trades")) != NULL)
    {
      g_autofree char *trades_path = g_strconcat (path, ".trades", NULL);
      read_trades (reader, item, member, trades_path);
    }
  else if (kind == SUANLI_ITEM_KIND_TECHNIQUE)
    problem (reader, node, path, _("a technique must say what it trades (“trades”)"));

  if ((member = json_object_get_member (object, "unknown")) != NULL)
    read_unknown (reader, item, member, path);
  if ((member = json_object_get_member (object, "no_source")) != NULL)
    {
      g_autofree char *text_path = g_strconcat (path, ".no_source", NULL);
      g_autofree char *en = NULL;
      g_autofree char *zh_CN = NULL;

      if (read_text (reader, member, text_path, &en, &zh_CN))
        suanli_item_set_no_source (item, en, zh_CN);
    }

  if ((member = json_object_get_member (object, "links")) != NULL)
    {
      g_autofree char *links_path = g_strconcat (path, ".links", NULL);
      read_links (reader, item, member, links_path);
    }

  if ((member = json_object_get_member (object, "claims")) != NULL)
    {
      if (!JSON_NODE_HOLDS_ARRAY (member))
        problem (reader, member, path, _("“claims” must be an array, not %s"), type_name (member));
      else
        {
          JsonArray *claims = json_node_get_array (member);

          for (guint i = 0; i < json_array_get_length (claims); i++)
            {
              g_autofree char *claim_path = g_strdup_printf ("%s.claims[%u]", path, i);
              read_claim (reader, item, json_array_get_element (claims, i), claim_path);
            }
        }
    }

  check_topology (reader, item, object, node, path);
  if (reader->problems->len != before)
    return NULL;
  return g_steal_pointer (&item);
}

/* Reports where the first byte that is not UTF-8 is, as line:column and byte offset. */
static gboolean
check_utf8 (Reader     *reader,
            const char *data,
            gsize       length)
{
  const char *end = NULL;
  int line = 1, column = 1;

  if (g_utf8_validate_len (data, length, &end))
    return TRUE;
  for (const char *p = data; p < end; p++)
    {
      if (*p == '\n')
        line++, column = 1;
      else if (((guchar) *p & 0xc0) != 0x80)
        column++;
    }
  g_ptr_array_add (reader->problems,
                   g_strdup_printf (_("%s:%d:%d: not UTF-8 text (byte offset %lu)"),
                                    reader->file_name, line, column, (unsigned long) (end - data)));
  return FALSE;
}

/* One pass over the document. With @with_positions, every value's position is noted as the parser
 * goes, for the messages; that costs a third of the time, so a first pass goes without, and only a
 * file with problems is read again with them. */
static gboolean
read_document (const char *file_name,
               const char *data,
               gsize       length,
               GPtrArray  *items,
               GPtrArray  *problems,
               gboolean    with_positions)
{
  g_autoptr(JsonParser) parser = json_parser_new_immutable ();
  g_autoptr(GHashTable) positions = g_hash_table_new_full (NULL, NULL, NULL, g_free);
  g_autoptr(GHashTable) seen_ids = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr(GError) error = NULL;
  Reader reader = { file_name, positions, problems, problems->len };
  JsonNode *root, *items_node;
  JsonObject *object;
  const char *schema;

  if (with_positions)
    {
      g_signal_connect (parser, "object-member", G_CALLBACK (on_object_member), &reader);
      g_signal_connect (parser, "array-element", G_CALLBACK (on_array_element), &reader);
    }
  if (!suanli_json_check_depth (data, length, SUANLI_JSON_MAX_DEPTH, &error) ||
      !json_parser_load_from_data (parser, data, (gssize) length, &error))
    {
      /* json-glib's message starts with "<data>:LINE:COLUMN: ", the depth check's with "LINE:COLUMN: ". */
      const char *message = g_str_has_prefix (error->message, "<data>:") ? error->message + 7 : error->message;
      g_ptr_array_add (problems, g_strdup_printf ("%s:%s", file_name, message));
      return FALSE;
    }

  root = json_parser_get_root (parser);
  if (root == NULL || !JSON_NODE_HOLDS_OBJECT (root))
    {
      problem (&reader, NULL, NULL, _("a catalog is an object with “schema” and “items”"));
      return FALSE;
    }
  object = json_node_get_object (root);
  schema = get_string (&reader, object, root, NULL, "schema", TRUE);
  if (schema == NULL)
    return FALSE;
  if (!g_str_equal (schema, SCHEMA))
    {
      problem (&reader, json_object_get_member (object, "schema"), NULL,
               _("the schema is “%s”; this version reads “%s”"), schema, SCHEMA);
      return FALSE;
    }
  items_node = json_object_get_member (object, "items");
  if (items_node == NULL || !JSON_NODE_HOLDS_ARRAY (items_node))
    {
      problem (&reader, items_node != NULL ? items_node : root, NULL, _("“items” must be an array"));
      return FALSE;
    }

  for (guint i = 0; i < json_array_get_length (json_node_get_array (items_node)); i++)
    {
      JsonNode *node = json_array_get_element (json_node_get_array (items_node), i);
      SuanliItem *item = read_item (&reader, node, i);

      if (item == NULL)
        continue;
      if (g_hash_table_contains (seen_ids, suanli_item_get_id (item)))
        {
          g_autofree char *path = g_strdup_printf ("items[%u]", i);
          problem (&reader, node, path, _("the id “%s” is used twice in this file"), suanli_item_get_id (item));
          g_object_unref (item);
          continue;
        }
      g_hash_table_add (seen_ids, (gpointer) suanli_item_get_id (item));
      g_ptr_array_add (items, item);
    }
  return TRUE;
}

/* Reads the catalog document in @bytes. Valid items go to @items (of SuanliItem), problems to
 * @problems (of "FILE:LINE:COLUMN: …" strings). Returns FALSE when the document as a whole could not
 * be read (too large, not UTF-8, not JSON, not a catalog); TRUE otherwise, even if items were left
 * out, which @problems then says. */
gboolean
suanli_catalog_read_bytes (const char *file_name,
                           GBytes     *bytes,
                           GPtrArray  *items,
                           GPtrArray  *problems)
{
  Reader reader = { file_name, NULL, problems, problems->len };
  guint items_before = items->len, problems_before = problems->len;
  const char *data;
  gsize length = 0;
  gboolean ok;

  g_return_val_if_fail (file_name != NULL && bytes != NULL, FALSE);

  data = g_bytes_get_data (bytes, &length);
  if (length > SUANLI_CATALOG_MAX_FILE_SIZE)
    {
      g_ptr_array_add (problems, g_strdup_printf (_("%s:1:1: the file is %lu bytes; a catalog file may have at "
                                                    "most %d"),
                                                  file_name, (unsigned long) length, SUANLI_CATALOG_MAX_FILE_SIZE));
      return FALSE;
    }
  if (length == 0)
    {
      g_ptr_array_add (problems, g_strdup_printf (_("%s:1:1: the file is empty"), file_name));
      return FALSE;
    }
  if (!check_utf8 (&reader, data, length))
    return FALSE;

  ok = read_document (file_name, data, length, items, problems, FALSE);
  if (problems->len > problems_before)
    {
      g_ptr_array_remove_range (items, items_before, items->len - items_before);
      g_ptr_array_remove_range (problems, problems_before, problems->len - problems_before);
      ok = read_document (file_name, data, length, items, problems, TRUE);
    }
  return ok;
}

/* Reads a catalog file; an unreadable file is a problem like any other. */
gboolean
suanli_catalog_read_file (GFile        *file,
                          GPtrArray    *items,
                          GPtrArray    *problems,
                          GCancellable *cancellable)
{
  g_autofree char *name = g_file_get_parse_name (file);
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(GError) error = NULL;

  /* Counted while read: a FIFO or /dev/zero has no size to check beforehand. */
  bytes = suanli_read_bounded (file, SUANLI_CATALOG_MAX_FILE_SIZE, cancellable, &error);
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_MESSAGE_TOO_LARGE))
    {
      g_ptr_array_add (problems, g_strdup_printf (_("%s:1:1: the file is larger than %d bytes, the most a catalog "
                                                    "file may have"),
                                                  name, SUANLI_CATALOG_MAX_FILE_SIZE));
      return FALSE;
    }
  if (bytes == NULL)
    {
      g_ptr_array_add (problems, g_strdup_printf ("%s: %s", name, error->message));
      return FALSE;
    }
  return suanli_catalog_read_bytes (name, bytes, items, problems);
}
