/* suanli-symbolizer.h — a job's return addresses named from its modules' files
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef struct _SuanliSymbolizer SuanliSymbolizer;

/* What an address is. */
typedef struct
{
  const char *function;   /* demangled; NULL when no symbol of a file that matches covers it */
  const char *library;    /* the module's file name, without its folder; NULL when in no module */
  guint64     offset;     /* in the module's file: the address less the module's bias */
} SuanliFrame;

SuanliSymbolizer *suanli_symbolizer_new        (void);
void              suanli_symbolizer_free       (SuanliSymbolizer *self);
void              suanli_symbolizer_add_module (SuanliSymbolizer *self,
                                                guint64           bias,
                                                guint64           start,
                                                guint64           end,
                                                const char       *path,
                                                const guint8     *build_id,
                                                guint             build_id_length);
void              suanli_symbolizer_lookup     (SuanliSymbolizer *self,
                                                guint64           address,
                                                SuanliFrame      *frame);
guint             suanli_symbolizer_get_n_symbols (SuanliSymbolizer *self,
                                                   const char       *path);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (SuanliSymbolizer, suanli_symbolizer_free)

G_END_DECLS
