/* suanli-text.h — a text in English and Simplified Chinese, as catalog files carry them
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef struct
{
  char *en;
  char *zh_CN;
} SuanliText;

void        suanli_text_clear           (SuanliText       *text);
const char *suanli_text_get             (const SuanliText *text);
gboolean    suanli_text_prefers_chinese (void);

G_END_DECLS
