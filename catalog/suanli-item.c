/* suanli-item.c — one entry of the catalog
 *
 * Items are built once by the catalog reader and then only read, from any thread; the one
 * exception is the search text, made on the first search (the page searches on the main thread).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>

#include "suanli-item.h"

struct _SuanliItem
{
  GObject         parent_instance;

  SuanliItemKind  kind;
  char           *id;
  char           *vendor;
  char           *name;
  int             year;
  char          **aliases;
  char          **tags;
  SuanliText      summary;
  SuanliText      trades[SUANLI_N_TRADES];
  GPtrArray      *specs;    /* of SuanliSpec */
  GPtrArray      *claims;   /* of SuanliClaim */
  GPtrArray      *links;    /* title, url, title, url, … */
  GHashTable     *parts;    /* role → item id */
  GPtrArray      *unknown;  /* of UnknownFigure: spec keys no source confirms, and why */
  SuanliText      no_source;  /* why an item has neither specs nor links */
  char           *origin;   /* the file it came from */
  char           *search_text;
};

typedef struct
{
  const char *key;   /* interned */
  SuanliText  note;
} UnknownFigure;

G_DEFINE_FINAL_TYPE (SuanliItem, suanli_item, G_TYPE_OBJECT)

enum {
  PROP_0,
  PROP_ID,
  PROP_KIND,
  PROP_VENDOR,
  PROP_NAME,
  PROP_SUMMARY,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static void
suanli_item_finalize (GObject *object)
{
  SuanliItem *self = SUANLI_ITEM (object);

  g_free (self->id);
  g_free (self->vendor);
  g_free (self->name);
  g_strfreev (self->aliases);
  g_strfreev (self->tags);
  suanli_text_clear (&self->summary);
  for (guint i = 0; i < SUANLI_N_TRADES; i++)
    suanli_text_clear (&self->trades[i]);
  g_ptr_array_unref (self->specs);
  g_ptr_array_unref (self->claims);
  g_ptr_array_unref (self->links);
  g_hash_table_unref (self->parts);
  g_ptr_array_unref (self->unknown);
  suanli_text_clear (&self->no_source);
  g_free (self->origin);
  g_free (self->search_text);

  G_OBJECT_CLASS (suanli_item_parent_class)->finalize (object);
}

static void
suanli_item_get_property (GObject    *object,
                          guint       prop_id,
                          GValue     *value,
                          GParamSpec *pspec)
{
  SuanliItem *self = SUANLI_ITEM (object);

  switch (prop_id)
    {
    case PROP_ID:
      g_value_set_string (value, self->id);
      break;
    case PROP_KIND:
      g_value_set_string (value, suanli_item_kind_to_nick (self->kind));
      break;
    case PROP_VENDOR:
      g_value_set_string (value, self->vendor);
      break;
    case PROP_NAME:
      g_value_set_string (value, self->name);
      break;
    case PROP_SUMMARY:
      g_value_set_string (value, suanli_text_get (&self->summary));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
suanli_item_class_init (SuanliItemClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = suanli_item_finalize;
  object_class->get_property = suanli_item_get_property;

  /* Read-only, for expressions and sorters in list widgets; items never change. */
  properties[PROP_ID] = g_param_spec_string ("id", NULL, NULL, NULL, G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  properties[PROP_KIND] = g_param_spec_string ("kind", NULL, NULL, NULL, G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  properties[PROP_VENDOR] = g_param_spec_string ("vendor", NULL, NULL, NULL, G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  properties[PROP_NAME] = g_param_spec_string ("name", NULL, NULL, NULL, G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  properties[PROP_SUMMARY] = g_param_spec_string ("summary", NULL, NULL, NULL,
                                                  G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);

  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
free_spec (gpointer data)
{
  suanli_spec_free (data);
}

static void
free_claim (gpointer data)
{
  suanli_claim_free (data);
}

static void
free_unknown (gpointer data)
{
  UnknownFigure *figure = data;

  suanli_text_clear (&figure->note);
  g_free (figure);
}

static void
suanli_item_init (SuanliItem *self)
{
  self->unknown = g_ptr_array_new_with_free_func (free_unknown);
  self->specs = g_ptr_array_new_with_free_func (free_spec);
  self->claims = g_ptr_array_new_with_free_func (free_claim);
  self->links = g_ptr_array_new_with_free_func (g_free);
  self->parts = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  self->aliases = g_new0 (char *, 1);
  self->tags = g_new0 (char *, 1);
}

SuanliItem *
suanli_item_new (SuanliItemKind  kind,
                 const char     *id,
                 const char     *vendor,
                 const char     *name)
{
  SuanliItem *self;

  g_return_val_if_fail (kind < SUANLI_N_ITEM_KINDS, NULL);
  g_return_val_if_fail (id != NULL && name != NULL, NULL);

  self = g_object_new (SUANLI_TYPE_ITEM, NULL);
  self->kind = kind;
  self->id = g_strdup (id);
  self->vendor = g_strdup (vendor != NULL ? vendor : "");
  self->name = g_strdup (name);
  return self;
}

const char *
suanli_item_get_id (SuanliItem *self)
{
  g_return_val_if_fail (SUANLI_IS_ITEM (self), NULL);
  return self->id;
}

SuanliItemKind
suanli_item_get_kind (SuanliItem *self)
{
  g_return_val_if_fail (SUANLI_IS_ITEM (self), 0);
  return self->kind;
}

const char *
suanli_item_get_vendor (SuanliItem *self)
{
  g_return_val_if_fail (SUANLI_IS_ITEM (self), NULL);
  return self->vendor;
}

const char *
suanli_item_get_name (SuanliItem *self)
{
  g_return_val_if_fail (SUANLI_IS_ITEM (self), NULL);
  return self->name;
}

/* 0 when unknown. */
int
suanli_item_get_year (SuanliItem *self)
{
  g_return_val_if_fail (SUANLI_IS_ITEM (self), 0);
  return self->year;
}

void
suanli_item_set_year (SuanliItem *self,
                      int         year)
{
  g_return_if_fail (SUANLI_IS_ITEM (self));
  self->year = year;
}

const char * const *
suanli_item_get_aliases (SuanliItem *self)
{
  g_return_val_if_fail (SUANLI_IS_ITEM (self), NULL);
  return (const char * const *) self->aliases;
}

void
suanli_item_set_aliases (SuanliItem         *self,
                         const char * const *aliases)
{
  g_return_if_fail (SUANLI_IS_ITEM (self));
  g_strfreev (self->aliases);
  self->aliases = aliases != NULL ? g_strdupv ((char **) aliases) : g_new0 (char *, 1);
  g_clear_pointer (&self->search_text, g_free);
}

const char * const *
suanli_item_get_tags (SuanliItem *self)
{
  g_return_val_if_fail (SUANLI_IS_ITEM (self), NULL);
  return (const char * const *) self->tags;
}

void
suanli_item_set_tags (SuanliItem         *self,
                      const char * const *tags)
{
  g_return_if_fail (SUANLI_IS_ITEM (self));
  g_strfreev (self->tags);
  self->tags = tags != NULL ? g_strdupv ((char **) tags) : g_new0 (char *, 1);
  g_clear_pointer (&self->search_text, g_free);
}

const SuanliText *
suanli_item_get_summary (SuanliItem *self)
{
  g_return_val_if_fail (SUANLI_IS_ITEM (self), NULL);
  return &self->summary;
}

static void
set_text (SuanliText *text,
          const char *en,
          const char *zh_CN)
{
  suanli_text_clear (text);
  text->en = g_strdup (en);
  text->zh_CN = g_strdup (zh_CN);
}

void
suanli_item_set_summary (SuanliItem *self,
                         const char *en,
                         const char *zh_CN)
{
  g_return_if_fail (SUANLI_IS_ITEM (self));
  set_text (&self->summary, en, zh_CN);
  g_clear_pointer (&self->search_text, g_free);
}

const SuanliText *
suanli_item_get_trade (SuanliItem  *self,
                       SuanliTrade  trade)
{
  g_return_val_if_fail (SUANLI_IS_ITEM (self), NULL);
  g_return_val_if_fail (trade < SUANLI_N_TRADES, NULL);
  return &self->trades[trade];
}

void
suanli_item_set_trade (SuanliItem  *self,
                       SuanliTrade  trade,
                       const char  *en,
                       const char  *zh_CN)
{
  g_return_if_fail (SUANLI_IS_ITEM (self));
  g_return_if_fail (trade < SUANLI_N_TRADES);
  set_text (&self->trades[trade], en, zh_CN);
}

/* @spec: (transfer full) */
void
suanli_item_add_spec (SuanliItem *self,
                      SuanliSpec *spec)
{
  g_return_if_fail (SUANLI_IS_ITEM (self));
  g_return_if_fail (spec != NULL && spec->key != NULL);
  g_ptr_array_add (self->specs, spec);
}

guint
suanli_item_get_n_specs (SuanliItem *self)
{
  g_return_val_if_fail (SUANLI_IS_ITEM (self), 0);
  return self->specs->len;
}

const SuanliSpec *
suanli_item_get_spec_at (SuanliItem *self,
                         guint       position)
{
  g_return_val_if_fail (SUANLI_IS_ITEM (self), NULL);
  g_return_val_if_fail (position < self->specs->len, NULL);
  return g_ptr_array_index (self->specs, position);
}

/* Returns: (nullable): the spec called @key. Keys are interned, so this compares pointers first. */
const SuanliSpec *
suanli_item_find_spec (SuanliItem *self,
                       const char *key)
{
  g_return_val_if_fail (SUANLI_IS_ITEM (self), NULL);

  for (guint i = 0; i < self->specs->len; i++)
    {
      const SuanliSpec *spec = g_ptr_array_index (self->specs, i);

      if (spec->key == key || g_str_equal (spec->key, key))
        return spec;
    }
  return NULL;
}

gboolean
suanli_item_get_spec_value (SuanliItem *self,
                            const char *key,
                            double     *value)
{
  const SuanliSpec *spec = suanli_item_find_spec (self, key);

  if (spec == NULL)
    return FALSE;
  if (value != NULL)
    *value = spec->value;
  return TRUE;
}

/* @claim: (transfer full) */
void
suanli_item_add_claim (SuanliItem  *self,
                       SuanliClaim *claim)
{
  g_return_if_fail (SUANLI_IS_ITEM (self));
  g_return_if_fail (claim != NULL);
  g_ptr_array_add (self->claims, claim);
}

guint
suanli_item_get_n_claims (SuanliItem *self)
{
  g_return_val_if_fail (SUANLI_IS_ITEM (self), 0);
  return self->claims->len;
}

const SuanliClaim *
suanli_item_get_claim_at (SuanliItem *self,
                          guint       position)
{
  g_return_val_if_fail (SUANLI_IS_ITEM (self), NULL);
  g_return_val_if_fail (position < self->claims->len, NULL);
  return g_ptr_array_index (self->claims, position);
}

/* Claims the sources contradict: wrong figures, sparse figures quoted as dense, statements refuted
 * and names of products that do not exist. */
guint
suanli_item_count_disputed_claims (SuanliItem *self)
{
  guint count = 0;

  g_return_val_if_fail (SUANLI_IS_ITEM (self), 0);

  for (guint i = 0; i < self->claims->len; i++)
    {
      const SuanliClaim *claim = g_ptr_array_index (self->claims, i);

      if (suanli_verdict_is_disputed (claim->verdict))
        count++;
    }
  return count;
}

void
suanli_item_add_link (SuanliItem *self,
                      const char *title,
                      const char *url)
{
  g_return_if_fail (SUANLI_IS_ITEM (self));
  g_return_if_fail (url != NULL);
  g_ptr_array_add (self->links, g_strdup (title != NULL ? title : url));
  g_ptr_array_add (self->links, g_strdup (url));
}

guint
suanli_item_get_n_links (SuanliItem *self)
{
  g_return_val_if_fail (SUANLI_IS_ITEM (self), 0);
  return self->links->len / 2;
}

void
suanli_item_get_link_at (SuanliItem  *self,
                         guint        position,
                         const char **title,
                         const char **url)
{
  g_return_if_fail (SUANLI_IS_ITEM (self));
  g_return_if_fail (position < self->links->len / 2);
  *title = g_ptr_array_index (self->links, 2 * position);
  *url = g_ptr_array_index (self->links, 2 * position + 1);
}

/* Marks the figure @key as one no source confirms, with @en and @zh_CN saying why. */
void
suanli_item_set_unknown (SuanliItem *self,
                         const char *key,
                         const char *en,
                         const char *zh_CN)
{
  UnknownFigure *figure = g_new0 (UnknownFigure, 1);

  g_return_if_fail (SUANLI_IS_ITEM (self));
  figure->key = g_intern_string (key);
  set_text (&figure->note, en, zh_CN);
  g_ptr_array_add (self->unknown, figure);
}

guint
suanli_item_get_n_unknown (SuanliItem *self)
{
  g_return_val_if_fail (SUANLI_IS_ITEM (self), 0);
  return self->unknown->len;
}

/* Returns: the key of the @position-th unknown figure; @note (optional) gets why it is unknown. */
const char *
suanli_item_get_unknown_at (SuanliItem        *self,
                            guint              position,
                            const SuanliText **note)
{
  UnknownFigure *figure;

  g_return_val_if_fail (SUANLI_IS_ITEM (self), NULL);
  g_return_val_if_fail (position < self->unknown->len, NULL);
  figure = g_ptr_array_index (self->unknown, position);
  if (note != NULL)
    *note = &figure->note;
  return figure->key;
}

/* Returns: (nullable): why no source gives the figure @key, or NULL when it is not marked unknown. */
const SuanliText *
suanli_item_find_unknown (SuanliItem *self,
                          const char *key)
{
  g_return_val_if_fail (SUANLI_IS_ITEM (self), NULL);
  for (guint i = 0; i < self->unknown->len; i++)
    {
      UnknownFigure *figure = g_ptr_array_index (self->unknown, i);

      if (g_str_equal (figure->key, key))
        return &figure->note;
    }
  return NULL;
}

/* Returns: why the item has no source; its en is NULL when none was given. */
const SuanliText *
suanli_item_get_no_source (SuanliItem *self)
{
  g_return_val_if_fail (SUANLI_IS_ITEM (self), NULL);
  return &self->no_source;
}

void
suanli_item_set_no_source (SuanliItem *self,
                           const char *en,
                           const char *zh_CN)
{
  g_return_if_fail (SUANLI_IS_ITEM (self));
  set_text (&self->no_source, en, zh_CN);
}

void
suanli_item_set_part (SuanliItem *self,
                      const char *role,
                      const char *item_id)
{
  g_return_if_fail (SUANLI_IS_ITEM (self));
  g_hash_table_replace (self->parts, g_strdup (role), g_strdup (item_id));
}

/* Returns: (nullable): the id of the item that fills @role ("accelerator", "scale_out", …). */
const char *
suanli_item_get_part (SuanliItem *self,
                      const char *role)
{
  g_return_val_if_fail (SUANLI_IS_ITEM (self), NULL);
  return g_hash_table_lookup (self->parts, role);
}

/* Returns: (transfer none): role → item id. */
GHashTable *
suanli_item_get_parts (SuanliItem *self)
{
  g_return_val_if_fail (SUANLI_IS_ITEM (self), NULL);
  return self->parts;
}

const char *
suanli_item_get_origin (SuanliItem *self)
{
  g_return_val_if_fail (SUANLI_IS_ITEM (self), NULL);
  return self->origin;
}

void
suanli_item_set_origin (SuanliItem *self,
                        const char *origin)
{
  g_return_if_fail (SUANLI_IS_ITEM (self));
  g_free (self->origin);
  self->origin = g_strdup (origin);
}

static void
append_folded (GString    *text,
               const char *part)
{
  g_autofree char *folded = NULL;

  if (part == NULL || *part == '\0')
    return;
  folded = g_utf8_casefold (part, -1);
  g_string_append (text, folded);
  g_string_append_c (text, '\n');
}

/* Everything a search looks at, case-folded once: name, vendor, id, aliases, tags, and the
 * summary in both languages (a Chinese reader may search "英伟达" with the UI in English). */
static const char *
ensure_search_text (SuanliItem *self)
{
  g_autoptr(GString) text = NULL;

  if (self->search_text != NULL)
    return self->search_text;

  text = g_string_new (NULL);
  append_folded (text, self->name);
  append_folded (text, self->vendor);
  append_folded (text, self->id);
  for (guint i = 0; self->aliases[i] != NULL; i++)
    append_folded (text, self->aliases[i]);
  for (guint i = 0; self->tags[i] != NULL; i++)
    append_folded (text, self->tags[i]);
  append_folded (text, self->summary.en);
  append_folded (text, self->summary.zh_CN);
  self->search_text = g_string_free (g_steal_pointer (&text), FALSE);
  return self->search_text;
}

/* Splits @query at white space and case-folds each term, for suanli_item_matches(). */
char **
suanli_item_fold_query (const char *query)
{
  g_autofree char *folded = g_utf8_casefold (query != NULL ? query : "", -1);
  /* Chinese input methods type the ideographic space U+3000; split on it too. */
  g_auto(GStrv) wide_parts = g_strsplit (folded, "\u3000", -1);
  g_autofree char *spaced = g_strjoinv (" ", wide_parts);
  g_auto(GStrv) parts = g_strsplit_set (spaced, " \t\n", -1);
  g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();

  for (guint i = 0; parts[i] != NULL; i++)
    if (*parts[i] != '\0')
      g_strv_builder_add (builder, parts[i]);
  return g_strv_builder_end (builder);
}

/* Whether every term of @folded_terms (from suanli_item_fold_query()) occurs in the item. */
gboolean
suanli_item_matches (SuanliItem         *self,
                     const char * const *folded_terms)
{
  const char *text;

  g_return_val_if_fail (SUANLI_IS_ITEM (self), FALSE);

  text = ensure_search_text (self);
  for (guint i = 0; folded_terms != NULL && folded_terms[i] != NULL; i++)
    if (strstr (text, folded_terms[i]) == NULL)
      return FALSE;
  return TRUE;
}

/* @text case-folded without its white space: "H100 SXM" and "h100sxm" are the same name. */
static char *
fold_name (const char *text)
{
  g_autofree char *folded = g_utf8_casefold (text, -1);
  GString *out = g_string_new (NULL);

  for (const char *p = folded; *p != '\0'; p = g_utf8_next_char (p))
    if (!g_unichar_isspace (g_utf8_get_char (p)))
      g_string_append_unichar (out, g_utf8_get_char (p));
  return g_string_free (out, FALSE);
}

/* How closely @name answers @query (both folded by fold_name()) and @folded_terms. */
static guint
name_rank (const char         *name,
           const char         *query,
           const char * const *folded_terms)
{
  g_autofree char *folded = fold_name (name);

  if (g_str_equal (folded, query))
    return 0;
  if (g_str_has_prefix (folded, query))
    return 1;
  for (guint i = 0; folded_terms[i] != NULL; i++)
    {
      g_autofree char *term = fold_name (folded_terms[i]);

      if (strstr (folded, term) == NULL)
        return 3;
    }
  return 2;
}

/**
 * suanli_item_match_rank:
 * @folded_terms: from suanli_item_fold_query()
 *
 * How well a search names the item, best first: 0 when the query is its name or an alias ("H20"
 * is the H20, not the H200), 1 when a name begins with it, 2 when every term is in one name, 3
 * when the terms are found elsewhere (vendor, tags, summary). G_MAXUINT when it does not match.
 */
guint
suanli_item_match_rank (SuanliItem         *self,
                        const char * const *folded_terms)
{
  g_autofree char *joined = NULL;
  g_autofree char *query = NULL;
  guint rank;

  g_return_val_if_fail (SUANLI_IS_ITEM (self), G_MAXUINT);

  if (folded_terms == NULL || folded_terms[0] == NULL || !suanli_item_matches (self, folded_terms))
    return G_MAXUINT;
  joined = g_strjoinv ("", (char **) folded_terms);
  query = fold_name (joined);
  rank = name_rank (self->name, query, folded_terms);
  for (guint i = 0; self->aliases[i] != NULL && rank > 0; i++)
    rank = MIN (rank, name_rank (self->aliases[i], query, folded_terms));
  return rank;
}
