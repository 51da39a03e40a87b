/* suanli-json-walker.h — simdjson behind a small C interface
 *
 * The Chrome importer hands a window of whole trace events to the walker as one JSON array,
 * "[" events "]", and takes back a record of its tokens in order, each with where its text lies:
 * the walker finds the structure (simdjson's first stage indexes the window's brackets, quotes and
 * separators with SIMD instructions), checks the grammar and that every scalar is written as JSON
 * writes it, and leaves the values for the importer to read as yajl would (strings with escapes
 * are only marked). The implementation is the project's one C++ source, suanli-json-walker.cc;
 * everything else stays C.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* Bytes past a window's end that must be readable (simdjson reads ahead in blocks). */
#define SUANLI_JSON_PADDING 64

typedef enum {
  SUANLI_JSON_OBJECT_START,
  SUANLI_JSON_OBJECT_END,
  SUANLI_JSON_ARRAY_START,
  SUANLI_JSON_ARRAY_END,
  SUANLI_JSON_KEY,            /* text: between the quotes */
  SUANLI_JSON_STRING,         /* text: between the quotes */
  SUANLI_JSON_NUMBER,         /* text: as written, which is as JSON writes a number */
  SUANLI_JSON_TRUE,
  SUANLI_JSON_FALSE,
  SUANLI_JSON_NULL,
} SuanliJsonToken;

/* A token as the walk records it: its text, @length bytes at @at, and @end, where it ends (past a
 * string's closing quote; 0 for a closing bracket), both counted from the walk's origin. A key or
 * string whose text holds a backslash or a control character is @escaped: its text is as written,
 * for its reader to decode (and then mark @decoded, its text elsewhere). */
typedef struct
{
  guint32 at, end, length;
  guint16 kind;                /* SuanliJsonToken */
  guint8  escaped, decoded;    /* whole bytes: a record is written at once, with no bits to merge */
} SuanliJsonRecord;

/* Where a walk records its tokens, grown as needed (g_renew: the owner frees @items with g_free). */
typedef struct
{
  SuanliJsonRecord *items;
  guint             n, size;
} SuanliJsonRecords;

/* What stops a walk, as it would stop yajl reading for the importer: a run of more than @max_span
 * bytes from the end of one token to the end of the next (yajl's token budget), and more than
 * @max_depth objects and arrays open within one element (64 at most: a deeper limit counts as 64). */
typedef struct
{
  guint64 max_span;
  int     max_depth;
} SuanliJsonChecks;

typedef struct SuanliJsonWalker SuanliJsonWalker;

typedef enum {
  SUANLI_JSON_WALKED,     /* one element was walked whole */
  SUANLI_JSON_END,        /* the array ended */
  SUANLI_JSON_STOPPED,    /* the element is malformed or cut short, or failed a check */
} SuanliJsonStep;

SuanliJsonWalker *suanli_json_walker_new  (void);
void              suanli_json_walker_free (SuanliJsonWalker *walker);

/* Makes room for indexing texts of up to @length bytes (suanli_json_walker_index makes it when
 * it first needs it). FALSE when it cannot. */
gboolean       suanli_json_walker_reserve (SuanliJsonWalker *walker,
                                           gsize             length);

/* Indexes @text, @length bytes holding one JSON array (its last element may be cut short) and
 * followed by SUANLI_JSON_PADDING readable bytes; FALSE when simdjson finds it malformed (bad
 * UTF-8, an unclosed string, a control character in a string) or it does not begin with '['.
 * The text must stay unchanged until the walk is over. The elements' tokens will go to
 * @records, their places counted from @origin (the first token's span too), under @checks. */
gboolean       suanli_json_walker_index (SuanliJsonWalker       *walker,
                                         const char             *text,
                                         gsize                   length,
                                         const char             *origin,
                                         const SuanliJsonChecks *checks,
                                         SuanliJsonRecords      *records);
/* Walks the next element of the indexed array into the records, each token checked: a scalar is
 * a number as JSON writes it, true, false or null, and the checks hold. @after is then where what
 * follows the element begins (blanks may lie between), and @escaped how many of its strings are
 * escaped. A stopped element's records are left for the caller to drop. */
SuanliJsonStep suanli_json_walker_step  (SuanliJsonWalker       *walker,
                                         const char            **after,
                                         guint                  *escaped);

G_END_DECLS
