/* suanli-json-walker.cc — simdjson's index of a window, walked by JSON's grammar (see the header)
 *
 * simdjson's first stage finds, with SIMD instructions and at gigabytes a second, where every
 * bracket, brace, colon, comma, string and other value begins outside strings, and checks the
 * UTF-8 and that every string ends. The walk here reads that index in order and checks the
 * grammar itself (a key and a colon before each member's value, a comma between two members or
 * elements, the brackets closing in the order they opened), handing each token over as its raw
 * text: scalars as written, strings with their escapes, for the importer to judge as yajl would.
 * simdjson's own walker (On-Demand) was a fifth of the import's time; this one asks nothing of it
 * but its index. Exceptions are off; errors come back as codes.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <algorithm>
#include <memory>
#include <new>
#include <simdjson.h>

#include "suanli-json-walker.h"

static_assert (simdjson::SIMDJSON_PADDING == SUANLI_JSON_PADDING, "the window's padding is simdjson's");

struct SuanliJsonWalker
{
  std::unique_ptr<simdjson::internal::dom_parser_implementation> index;
  size_t          capacity = 0;
  const char     *text = nullptr;
  size_t          length = 0;
  const uint32_t *at_index = nullptr;   /* where each token begins, in order */
  uint32_t        n = 0, next = 0;     /* tokens, and the next to read */
  bool            first = true;        /* no element of the array read yet */
};

/* The text of token @i: from where it begins to where the next begins, less the blanks between. */
static std::string_view
token_text (const SuanliJsonWalker *walker,
            uint32_t                i)
{
  size_t begin = walker->at_index[i], end = i + 1 < walker->n ? walker->at_index[i + 1] : walker->length;

  while (end > begin && (walker->text[end - 1] == ' ' || walker->text[end - 1] == '\t' ||
                         walker->text[end - 1] == '\n' || walker->text[end - 1] == '\r'))
    end--;
  return std::string_view (walker->text + begin, end - begin);
}

/* The character token @i begins with; NUL past the last. */
static char
token_char (const SuanliJsonWalker *walker,
            uint32_t                i)
{
  return i < walker->n ? walker->text[walker->at_index[i]] : '\0';
}

/* A string token's text between its quotes; FALSE when it is not a string that ends before the next token. */
static bool
string_token (const SuanliJsonWalker *walker,
              uint32_t                i,
              std::string_view       *inside)
{
  std::string_view token;

  if (i >= walker->n)
    return false;
  token = token_text (walker, i);
  if (token.size () < 2 || token.front () != '"' || token.back () != '"')
    return false;
  *inside = token.substr (1, token.size () - 2);
  return true;
}

static bool walk_value (SuanliJsonWalker *walker, SuanliJsonTokenFunc func, void *ctx);

/* An object from its '{' to its '}' (members "key": value) or an array from its '[' to its ']'
 * (values), the members or values separated by commas. */
static bool
walk_container (SuanliJsonWalker   *walker,
                bool                object,
                SuanliJsonTokenFunc func,
                void               *ctx)
{
  char close = object ? '}' : ']';
  SuanliJsonToken end = object ? SUANLI_JSON_OBJECT_END : SUANLI_JSON_ARRAY_END;
  std::string_view key;

  if (!func (ctx, object ? SUANLI_JSON_OBJECT_START : SUANLI_JSON_ARRAY_START,
             walker->text + walker->at_index[walker->next++], 1))
    return false;
  if (token_char (walker, walker->next) == close)
    {
      walker->next++;
      return func (ctx, end, nullptr, 0);
    }
  for (;;)
    {
      if (object)
        {
          if (!string_token (walker, walker->next, &key) || !func (ctx, SUANLI_JSON_KEY, key.data (), key.size ()) ||
              token_char (walker, ++walker->next) != ':')
            return false;
          walker->next++;
        }
      if (!walk_value (walker, func, ctx))
        return false;
      char c = token_char (walker, walker->next++);
      if (c != ',')
        return c == close && func (ctx, end, nullptr, 0);
    }
}

static bool
walk_value (SuanliJsonWalker   *walker,
            SuanliJsonTokenFunc func,
            void               *ctx)
{
  std::string_view token;

  switch (token_char (walker, walker->next))
    {
    case '{':
    case '[':
      return walk_container (walker, token_char (walker, walker->next) == '{', func, ctx);
    case '"':
      return string_token (walker, walker->next, &token) &&
             func (ctx, SUANLI_JSON_STRING, token.data (), token.size ()) && (walker->next++, true);
    case '\0':
    case ',':
    case ':':
    case ']':
    case '}':
      return false;
    default:
      token = token_text (walker, walker->next++);
      return func (ctx, SUANLI_JSON_SCALAR, token.data (), token.size ());
    }
}

extern "C" SuanliJsonWalker *
suanli_json_walker_new (void)
{
  return new (std::nothrow) SuanliJsonWalker ();
}

extern "C" void
suanli_json_walker_free (SuanliJsonWalker *walker)
{
  delete walker;
}

/* simdjson's first stage over @text: the index of where each token begins. */
static bool
index_text (SuanliJsonWalker *walker,
            const char       *text,
            gsize             length)
{
  if (length > 0xFFFFFFFFu)
    return false;
  if (walker->index == nullptr || walker->capacity < length)
    {
      size_t capacity = std::max<size_t> (length, 2 * walker->capacity);

      walker->index.reset ();
      if (simdjson::get_active_implementation ()->create_dom_parser_implementation (capacity, 1024, walker->index) !=
          simdjson::SUCCESS)
        return false;
      walker->capacity = capacity;
    }
  if (walker->index->stage1 (reinterpret_cast<const uint8_t *> (text), length, simdjson::stage1_mode::regular) !=
      simdjson::SUCCESS)
    return false;
  walker->text = text;
  walker->length = length;
  walker->at_index = walker->index->structural_indexes.get ();
  walker->n = walker->index->n_structural_indexes;
  walker->next = 0;
  return true;
}

extern "C" gboolean
suanli_json_walker_index (SuanliJsonWalker *walker,
                          const char       *text,
                          gsize             length)
{
  if (!index_text (walker, text, length) || token_char (walker, 0) != '[')
    return FALSE;
  walker->next = 1;
  walker->first = true;
  return TRUE;
}

extern "C" SuanliJsonStep
suanli_json_walker_step (SuanliJsonWalker   *walker,
                         SuanliJsonTokenFunc func,
                         void               *ctx,
                         const char        **after)
{
  char c = token_char (walker, walker->next);

  if (c == ']')
    return ++walker->next == walker->n ? SUANLI_JSON_END : SUANLI_JSON_STOPPED;
  if (!walker->first)
    {
      if (c != ',')
        return SUANLI_JSON_STOPPED;
      walker->next++;
    }
  walker->first = false;
  /* An element is whole only when something follows it: a window's closing ']' is its last byte,
   * and when it is the last token it closed an array the element opened, cut short there. */
  if (!walk_value (walker, func, ctx) || walker->next >= walker->n)
    return SUANLI_JSON_STOPPED;
  /* Where the separator after it is: past the element and any blanks. */
  *after = walker->text + walker->at_index[walker->next];
  return SUANLI_JSON_WALKED;
}

extern "C" gboolean
suanli_json_walker_walk_all (SuanliJsonWalker   *walker,
                             const char         *text,
                             gsize               length,
                             SuanliJsonTokenFunc func,
                             void               *ctx)
{
  return index_text (walker, text, length) && walk_value (walker, func, ctx) && walker->next == walker->n;
}
