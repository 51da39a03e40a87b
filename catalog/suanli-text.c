/* suanli-text.c — a text in English and Simplified Chinese
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "suanli-text.h"

void
suanli_text_clear (SuanliText *text)
{
  g_clear_pointer (&text->en, g_free);
  g_clear_pointer (&text->zh_CN, g_free);
}

/* Whether the user's languages put Chinese before English (LANGUAGE, LC_ALL, LC_MESSAGES, LANG,
 * as gettext reads them). */
gboolean
suanli_text_prefers_chinese (void)
{
  const char * const *languages = g_get_language_names ();

  for (guint i = 0; languages[i] != NULL; i++)
    {
      if (g_str_has_prefix (languages[i], "zh"))
        return TRUE;
      if (g_str_has_prefix (languages[i], "en") || g_str_equal (languages[i], "C"))
        return FALSE;
    }
  return FALSE;
}

/* The text in the user's language, falling back to the other one; "" when both are missing. */
const char *
suanli_text_get (const SuanliText *text)
{
  const char *preferred, *other;

  g_return_val_if_fail (text != NULL, "");

  if (suanli_text_prefers_chinese ())
    preferred = text->zh_CN, other = text->en;
  else
    preferred = text->en, other = text->zh_CN;
  if (preferred != NULL && *preferred != '\0')
    return preferred;
  return other != NULL ? other : "";
}
