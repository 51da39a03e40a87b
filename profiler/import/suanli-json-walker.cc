 /* suanli-json-walker.cc — simdjson's index of a window, walked by JSON's grammar (see the header)
 *
 * simdjson's first stage finds, with SIMD instructions and at gigabytes a second, where every
 * bracket, brace, colon, comma, string and other value begins outside strings, and checks the
 * UTF-8 and that every string ends. The walk here reads that index in order and checks the
 * grammar itself (a key and a colon before each member's value, a comma between two members or
 * elements, the brackets closing in the order they opened) and each scalar's spelling, recording
 * every token where it lies. simdjson's own walker (On-Demand) was a fifth of the import's time,
 * and a function called per token a third of it: this walk asks nothing of simdjson but its index
 * and calls nothing per token. Exceptions are off; errors come back as codes.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <algorithm>
#include <cstring>
#include <memory>
#include <new>
#include <simdjson.h>

#include "suanli-json-walker.h"

static_assert (simdjson::SIMDJSON_PADDING == SUANLI_JSON_PADDING, "the window's padding is simdjson's");
static_assert (G_BYTE_ORDER == G_LITTLE_ENDIAN, "needs_decoding() and digits_from() read words little-endian");

struct SuanliJsonWalker
{
  std::unique_ptr<simdjson::internal::dom_parser_implementation> index;
  size_t             capacity = 0;
  const char        *text = nullptr;
  size_t             length = 0;
  const uint32_t    *at_index = nullptr;   /* where each token begins, in order */
  uint32_t           n = 0, next = 0;     /* tokens, and the next to read */
  bool               first = true;        /* no element of the array read yet */
  /* Where the tokens go, and what they must pass */
  SuanliJsonRecords *records = nullptr;
  const char        *origin = nullptr;
  SuanliJsonChecks   checks = { G_MAXUINT64, G_MAXINT };
  const char        *last_end = nullptr;  /* where the last token with text ended */
  bool               check_spans = true;  /* the text is long enough for a span past the budget */
  guint              escaped = 0;         /* escaped strings in the element */
  bool               has_backslash = true;   /* somewhere in the text: its strings are looked at */
};

static inline bool
is_blank (char c)
{
  return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

/* The character token @i begins with; NUL past the last. */
static inline char
token_char (const SuanliJsonWalker *walker,
            uint32_t                i)
{
  return i < walker->n ? walker->text[walker->at_index[i]] : '\0';
}

/* A number as JSON writes it, which is what yajl reads as one: -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)? */
static inline bool
is_digit (char c)
{
  return (unsigned char) (c - '0') <= 9;
}

/* Where the run of digits from @i ends: eight bytes at a time, reading past the text's end into
 * the window's padding. In each byte XORed with '0', a digit is 0 to 9; adding 0x76 sets the high
 * bit of any other (and one already high is kept), so the lowest byte with its high bit set is
 * the first that is not a digit. A carry only runs upwards, past that byte. */
static inline size_t
digits_from (std::string_view text,
             size_t           i)
{
  const uint64_t ones = 0x0101010101010101u;

  for (; i < text.size (); i += 8)
    {
      uint64_t word, other;

      memcpy (&word, text.data () + i, 8);
      word ^= ones * '0';
      other = ((word + ones * 0x76) | word) & (ones * 0x80);
      if (other != 0)
        return std::min (text.size (), i + (size_t) __builtin_ctzll (other) / 8);
    }
  return text.size ();
}

G_ALWAYS_INLINE static inline bool
is_json_number (std::string_view text)
{
  size_t i = 0, after;

  if (i < text.size () && text[i] == '-')
    i++;
  if (i < text.size () && text[i] == '0')
    i++;
  else if ((after = digits_from (text, i)) > i)
    i = after;
  else
    return false;
  if (i < text.size () && text[i] == '.')
    {
      if ((after = digits_from (text, i + 1)) == i + 1)
        return false;
      i = after;
    }
  if (i < text.size () && (text[i] == 'e' || text[i] == 'E'))
    {
      i++;
      if (i < text.size () && (text[i] == '+' || text[i] == '-'))
        i++;
      if ((after = digits_from (text, i)) == i)
        return false;
      i = after;
    }
  return i == text.size ();
}

/* Whether any byte of @text is a control character or a backslash: eight at a time, the last
 * word read whole (the text is padded) and its bytes past the end masked off. */
static inline bool
needs_decoding (std::string_view text)
{
  const uint64_t ones = 0x0101010101010101u, highs = ones * 0x80;
  size_t i = 0;

  for (;; i += 8)
    {
      uint64_t word, backslash, found;

      memcpy (&word, text.data () + i, 8);
      backslash = word ^ (ones * '\\');
      found = (((word - ones * 0x20) & ~word) | ((backslash - ones) & ~backslash)) & highs;
      if (i + 8 >= text.size ())
        {
          size_t left = text.size () - i;

          /* Little-endian: the first bytes are the low ones. A borrow only runs upwards, so the
           * bytes kept are judged right. */
          return left > 0 && (found & (left >= 8 ? ~0ull : (1ull << (8 * left)) - 1)) != 0;
        }
      if (found)
        return true;
    }
}

/* What walking one element needs at hand: a local copy, so that it stays in registers. */
struct ElementWalk
{
  const char       *text, *origin;
  const uint32_t   *index;
  uint32_t          n;
  size_t            length;
  uint64_t          max_span;
  bool              has_backslash;
  SuanliJsonRecord *out;
  const char       *last_end;
  guint             escaped;
};

/* A token's record, unless its text ends too far past the last one's: the importer's token
 * budget counts the bytes from one token's end to the next one's. Only @spans walks check that:
 * in a text shorter than the budget, none is too long. */
template <bool spans>
G_ALWAYS_INLINE static inline bool
put (ElementWalk    &walk,
     SuanliJsonToken kind,
     const char     *begin,
     size_t          length,
     const char     *end)
{
  if (spans)
    {
      if ((uint64_t) (begin + length - walk.last_end) >= walk.max_span)
        return false;
      walk.last_end = begin + length;
    }
  *walk.out++ = SuanliJsonRecord { (guint32) (begin - walk.origin), (guint32) (end - walk.origin), (guint32) length,
                                   (guint16) kind, 0, 0 };
  return true;
}

/* Where token @t ends: where the next begins, less the blanks between. */
G_ALWAYS_INLINE static inline const char *
token_end (const ElementWalk &walk,
           uint32_t           t)
{
  const char *end = walk.text + (t + 1 < walk.n ? walk.index[t + 1] : walk.length);

  while (end > walk.text + walk.index[t] && is_blank (end[-1]))
    end--;
  return end;
}

/* The string (key or value) at token @t, from its quote to the quote that ends before the next
 * token; one with a backslash is marked, for the importer to decode. */
template <bool spans>
G_ALWAYS_INLINE static inline bool
put_string (ElementWalk    &walk,
            uint32_t        t,
            SuanliJsonToken kind)
{
  const char *begin = walk.text + walk.index[t], *end = token_end (walk, t);

  if (end - begin < 2 || *begin != '"' || end[-1] != '"' || !put<spans> (walk, kind, begin + 1, (size_t) (end - begin - 2), end))
    return false;
  if (G_UNLIKELY (walk.has_backslash && needs_decoding (std::string_view (begin + 1, (size_t) (end - begin - 2)))))
    {
      walk.out[-1].escaped = 1;
      walk.escaped++;
    }
  return true;
}

/* A number, true, false or null, as JSON writes them. */
template <bool spans>
G_ALWAYS_INLINE static inline bool
put_scalar (ElementWalk &walk,
            uint32_t     t)
{
  std::string_view scalar (walk.text + walk.index[t], (size_t) (token_end (walk, t) - (walk.text + walk.index[t])));
  SuanliJsonToken kind;

  if (scalar.size () > 0 && (is_digit (scalar[0]) || scalar[0] == '-'))
    {
      if (!is_json_number (scalar))
        return false;
      kind = SUANLI_JSON_NUMBER;
    }
  else if (scalar == "true")
    kind = SUANLI_JSON_TRUE;
  else if (scalar == "false")
    kind = SUANLI_JSON_FALSE;
  else if (scalar == "null")
    kind = SUANLI_JSON_NULL;
  else
    return false;
  return put<spans> (walk, kind, scalar.data (), scalar.size (), scalar.data () + scalar.size ());
}

/* One element, from token walker->next, into the records (the index made room for a record per
 * token). The walk is one loop over locals, with the open containers as bits: written as calls
 * through the walker, every token's record made the compiler reload the walker's fields (the
 * records might have been them), and the walk was a quarter of the import. */
template <bool spans>
static bool
walk_element (SuanliJsonWalker *walker)
{
  ElementWalk walk = { walker->text, walker->origin, walker->at_index, walker->n, walker->length,
                       walker->checks.max_span, walker->has_backslash,
                       walker->records->items + walker->records->n, walker->last_end, 0 };
  const char *const text = walk.text;
  const uint32_t *const index = walk.index;
  const uint32_t n = walk.n;
  const int max_depth = std::min (walker->checks.max_depth, 64);   /* the bits of @objects */
  uint32_t i = walker->next;
  uint64_t objects = 0;   /* bit 0: the innermost open container is an object; bit 1 the one around it… */
  int depth = 0;
  bool whole = false;
  char c;

value:
  if (i >= n)
    goto done;
  c = text[index[i]];
  if (c == '{' || c == '[')
    {
      const bool object = c == '{';

      if (!put<spans> (walk, object ? SUANLI_JSON_OBJECT_START : SUANLI_JSON_ARRAY_START, text + index[i], 1, text + index[i] + 1) ||
          ++depth > max_depth)
        goto done;
      objects = (objects << 1) | object;
      if (++i < n && text[index[i]] == (object ? '}' : ']'))
        {
          i++;
          goto close;
        }
      if (object)
        goto key;
      goto value;
    }
  if (c == '"')
    {
      if (!put_string<spans> (walk, i, SUANLI_JSON_STRING))
        goto done;
    }
  else if (c == ',' || c == ':' || c == ']' || c == '}' || !put_scalar<spans> (walk, i))
    goto done;
  i++;
  goto after_value;

key:
  if (i >= n || text[index[i]] != '"' || !put_string<spans> (walk, i, SUANLI_JSON_KEY) || ++i >= n || text[index[i]] != ':')
    goto done;
  i++;
  goto value;

after_value:
  if (depth == 0)
    {
      whole = true;
      goto done;
    }
  if (i >= n)
    goto done;
  c = text[index[i++]];
  if (c == ',')
    {
      if (objects & 1)
        goto key;
      goto value;
    }
  if (c != ((objects & 1) ? '}' : ']'))
    goto done;

close:
  *walk.out++ = SuanliJsonRecord { 0, 0, 0, (guint16) ((objects & 1) ? SUANLI_JSON_OBJECT_END : SUANLI_JSON_ARRAY_END), 0, 0 };
  depth--;
  objects >>= 1;
  goto after_value;

done:
  walker->next = i;
  walker->last_end = walk.last_end;
  walker->escaped = walk.escaped;
  walker->records->n = (guint) (walk.out - walker->records->items);
  return whole;
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

/* Room in the index for @length bytes, grown at least twofold. */
static bool
reserve (SuanliJsonWalker *walker,
         size_t            length)
{
  size_t capacity;

  if (walker->index != nullptr && walker->capacity >= length)
    return true;
  capacity = std::max<size_t> (length, 2 * walker->capacity);
  walker->index.reset ();
  walker->capacity = 0;
  if (simdjson::get_active_implementation ()->create_dom_parser_implementation (capacity, 1024, walker->index) !=
      simdjson::SUCCESS)
    return false;
  walker->capacity = capacity;
  return true;
}

/* simdjson's first stage over @text: the index of where each token begins. */
static bool
index_text (SuanliJsonWalker *walker,
            const char       *text,
            gsize             length)
{
  if (length > 0xFFFFFFFFu || !reserve (walker, length))
    return false;
  if (walker->index->stage1 (reinterpret_cast<const uint8_t *> (text), length, simdjson::stage1_mode::regular) !=
      simdjson::SUCCESS)
    return false;
  walker->text = text;
  walker->length = length;
  /* simdjson's first stage refuses a control character in a string, so only a backslash makes
   * one need decoding: a text without any (most windows of most traces) is not looked at again
   * string by string. */
  walker->has_backslash = memchr (text, '\\', length) != nullptr;
  walker->at_index = walker->index->structural_indexes.get ();
  walker->n = walker->index->n_structural_indexes;
  walker->next = 0;
  return true;
}

extern "C" gboolean
suanli_json_walker_reserve (SuanliJsonWalker *walker,
                            gsize             length)
{
  return length <= 0xFFFFFFFFu && reserve (walker, length);
}

extern "C" gboolean
suanli_json_walker_index (SuanliJsonWalker       *walker,
                          const char             *text,
                          gsize                   length,
                          const char             *origin,
                          const SuanliJsonChecks *checks,
                          SuanliJsonRecords      *records)
{
  if (!index_text (walker, text, length) || token_char (walker, 0) != '[')
    return FALSE;
  walker->next = 1;
  walker->first = true;
  /* Room for a record per token: the walk then never checks for it. */
  if (records->size - records->n < walker->n)
    {
      records->size = records->n + std::max (walker->n, 1024u);
      records->items = g_renew (SuanliJsonRecord, records->items, records->size);
    }
  walker->records = records;
  walker->origin = walker->last_end = origin;
  walker->check_spans = (uint64_t) (text + length - origin) >= checks->max_span;
  walker->checks = *checks;
  return TRUE;
}

extern "C" SuanliJsonStep
suanli_json_walker_step (SuanliJsonWalker *walker,
                         const char      **after,
                         guint            *escaped)
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
  if (!(walker->check_spans ? walk_element<true> (walker) : walk_element<false> (walker)) || walker->next >= walker->n)
    return SUANLI_JSON_STOPPED;
  /* Where the separator after it is: past the element and any blanks. */
  *after = walker->text + walker->at_index[walker->next];
  *escaped = walker->escaped;
  return SUANLI_JSON_WALKED;
}
