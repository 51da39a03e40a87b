/* suanli-json-walker.h — simdjson behind a small C interface
 *
 * The Chrome importer hands a window of whole trace events to the walker as one JSON array,
 * "[" events "]", and takes back its tokens in order, as raw text: the walker finds the structure
 * (simdjson's first stage indexes the window's brackets, quotes and separators with SIMD
 * instructions) and checks the grammar, and leaves the scalars for the importer to read and
 * judge as yajl would (their text is handed over as it stands in the file). The implementation is
 * the project's one C++ source, suanli-json-walker.cc; everything else stays C.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* Bytes past a window's end that must be readable (simdjson reads ahead in blocks). */
#define SUANLI_JSON_PADDING 64

typedef enum {
  SUANLI_JSON_OBJECT_START,   /* text: the '{' */
  SUANLI_JSON_OBJECT_END,     /* text: NULL */
  SUANLI_JSON_ARRAY_START,    /* text: the '[' */
  SUANLI_JSON_ARRAY_END,      /* text: NULL */
  SUANLI_JSON_KEY,            /* text: between the quotes, escapes as written */
  SUANLI_JSON_STRING,         /* text: between the quotes, escapes as written */
  SUANLI_JSON_SCALAR,         /* text: a number, true, false or null as written (not yet checked) */
} SuanliJsonToken;

/* Takes one token; FALSE stops the walk. */
typedef gboolean (*SuanliJsonTokenFunc) (void           *ctx,
                                         SuanliJsonToken token,
                                         const char     *text,
                                         gsize           length);

typedef struct SuanliJsonWalker SuanliJsonWalker;

typedef enum {
  SUANLI_JSON_WALKED,     /* one element was walked whole */
  SUANLI_JSON_END,        /* the array ended */
  SUANLI_JSON_STOPPED,    /* the element is malformed or cut short, or the token function stopped it */
} SuanliJsonStep;

SuanliJsonWalker *suanli_json_walker_new  (void);
void              suanli_json_walker_free (SuanliJsonWalker *walker);

/* Indexes @text, @length bytes holding one JSON array (its last element may be cut short) and
 * followed by SUANLI_JSON_PADDING readable bytes; FALSE when simdjson finds it malformed (bad
 * UTF-8, an unclosed string) or it does not begin with '['. The text must stay unchanged until
 * the walk is over. */
gboolean       suanli_json_walker_index (SuanliJsonWalker   *walker,
                                         const char         *text,
                                         gsize               length);
/* Walks the next element of the indexed array, handing its tokens to @func; @after is then where
 * what follows the element begins (blanks may lie between). */
SuanliJsonStep suanli_json_walker_step  (SuanliJsonWalker   *walker,
                                         SuanliJsonTokenFunc func,
                                         void               *ctx,
                                         const char        **after);

/* Walks the whole of @text, any JSON document (padded as for suanli_json_walker_index), handing
 * every token to @func: the benchmark's measure of simdjson's bare walk. FALSE where it is
 * malformed or @func stops. */
gboolean       suanli_json_walker_walk_all (SuanliJsonWalker   *walker,
                                            const char         *text,
                                            gsize               length,
                                            SuanliJsonTokenFunc func,
                                            void               *ctx);

G_END_DECLS
