/* suanli-json-walker.cc — simdjson On-Demand walking a window of trace events (see the header)
 *
 * simdjson's first stage indexes the window's structure at gigabytes a second; walking the
 * index then visits every value, each object's members and each array's elements in order,
 * checking the separators between them as it goes. Scalars are handed over as their raw text and
 * strings with their escapes as written: the importer reads them as it did from yajl, so the
 * two parsers cannot disagree about a value. Exceptions are off; errors come back as codes.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <cstring>
#include <new>
#include <simdjson.h>

#include "suanli-json-walker.h"

using namespace simdjson;

static_assert (SIMDJSON_PADDING == SUANLI_JSON_PADDING, "the window's padding is simdjson's");

struct SuanliJsonWalker
{
  ondemand::parser         parser;
  ondemand::document       document;
  ondemand::array          array;
  ondemand::array_iterator current, end;
  const char              *text_end;
};

/* A token's text less the whitespace simdjson's index keeps after it. */
static std::string_view
trimmed (std::string_view token)
{
  size_t length = token.size ();

  while (length > 0 && (token[length - 1] == ' ' || token[length - 1] == '\t' ||
                        token[length - 1] == '\n' || token[length - 1] == '\r'))
    length--;
  return token.substr (0, length);
}

/* The length of a key's text, from after its opening quote to its closing one: the first quote
 * that no backslash escapes. */
static size_t
key_length (const char *text,
            const char *text_end)
{
  size_t i = 0;

  for (;;)
    {
      const char *quote = static_cast<const char *> (std::memchr (text + i, '"', static_cast<size_t> (text_end - text) - i));
      size_t at = static_cast<size_t> (quote - text), backslashes = 0;

      while (backslashes < at && text[at - 1 - backslashes] == '\\')
        backslashes++;
      if (backslashes % 2 == 0)
        return at;
      i = at + 1;
    }
}

static bool walk_value (SuanliJsonWalker *walker, ondemand::value &value, SuanliJsonTokenFunc func, void *ctx);

static bool
walk_object (SuanliJsonWalker *walker,
             ondemand::value &value,
             const char      *start,
             SuanliJsonTokenFunc func,
             void            *ctx)
{
  ondemand::object object;

  if (value.get_object ().get (object) != SUCCESS || !func (ctx, SUANLI_JSON_OBJECT_START, start, 1))
    return false;
  for (auto member : object)
    {
      ondemand::field field;
      const char *key;

      if (std::move (member).get (field) != SUCCESS)
        return false;
      key = reinterpret_cast<const char *> (field.key ().raw ());
      if (!func (ctx, SUANLI_JSON_KEY, key, key_length (key, walker->text_end)) || !walk_value (walker, field.value (), func, ctx))
        return false;
    }
  return func (ctx, SUANLI_JSON_OBJECT_END, nullptr, 0);
}

static bool
walk_array (SuanliJsonWalker *walker,
            ondemand::value &value,
            const char      *start,
            SuanliJsonTokenFunc func,
            void            *ctx)
{
  ondemand::array array;

  if (value.get_array ().get (array) != SUCCESS || !func (ctx, SUANLI_JSON_ARRAY_START, start, 1))
    return false;
  for (auto element : array)
    {
      ondemand::value inner;

      if (std::move (element).get (inner) != SUCCESS || !walk_value (walker, inner, func, ctx))
        return false;
    }
  return func (ctx, SUANLI_JSON_ARRAY_END, nullptr, 0);
}

static bool
walk_value (SuanliJsonWalker   *walker,
            ondemand::value    &value,
            SuanliJsonTokenFunc func,
            void               *ctx)
{
  std::string_view token = value.raw_json_token ();

  if (token.empty ())
    return false;
  switch (token[0])
    {
    case '{':
      return walk_object (walker, value, token.data (), func, ctx);
    case '[':
      return walk_array (walker, value, token.data (), func, ctx);
    case '"':
      token = trimmed (token);
      if (token.size () < 2 || token.back () != '"')
        return false;
      return func (ctx, SUANLI_JSON_STRING, token.data () + 1, token.size () - 2);
    default:
      token = trimmed (token);
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

extern "C" gboolean
suanli_json_walker_index (SuanliJsonWalker *walker,
                          const char       *text,
                          gsize             length)
{
  walker->text_end = text + length;
  if (walker->parser.iterate (text, length, length + SIMDJSON_PADDING).get (walker->document) != SUCCESS ||
      walker->document.get_array ().get (walker->array) != SUCCESS ||
      walker->array.begin ().get (walker->current) != SUCCESS ||
      walker->array.end ().get (walker->end) != SUCCESS)
    return FALSE;
  return TRUE;
}

extern "C" SuanliJsonStep
suanli_json_walker_step (SuanliJsonWalker   *walker,
                         SuanliJsonTokenFunc func,
                         void               *ctx,
                         const char        **after)
{
  ondemand::value value;
  std::string_view token;

  if (!(walker->current != walker->end))
    return SUANLI_JSON_END;
  if ((*walker->current).get (value) != SUCCESS)
    return SUANLI_JSON_STOPPED;
  token = value.raw_json_token ();
  if (!walk_value (walker, value, func, ctx))
    return SUANLI_JSON_STOPPED;
  if (token[0] == '{' || token[0] == '[')
    {
      /* Where the separator after it is: past the closing bracket and any blanks. */
      if (walker->document.current_location ().get (*after) != SUCCESS)
        return SUANLI_JSON_STOPPED;
    }
  else
    *after = trimmed (token).data () + trimmed (token).size ();
  ++walker->current;
  return SUANLI_JSON_WALKED;
}
