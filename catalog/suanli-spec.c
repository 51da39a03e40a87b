/* suanli-spec.c — one figure of a catalog item
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>

#include "suanli-spec.h"

static const char * const confidence_nicks[] = { "low", "medium", "high" };

SuanliSpec *
suanli_spec_new (void)
{
  return g_new0 (SuanliSpec, 1);
}

void
suanli_spec_free (SuanliSpec *spec)
{
  if (spec == NULL)
    return;
  g_free (spec->source);
  g_free (spec->label);
  suanli_text_clear (&spec->note);
  g_free (spec);
}

gboolean
suanli_confidence_from_nick (const char       *nick,
                             SuanliConfidence *confidence)
{
  for (guint i = 0; i < G_N_ELEMENTS (confidence_nicks); i++)
    if (g_strcmp0 (confidence_nicks[i], nick) == 0)
      {
        *confidence = i;
        return TRUE;
      }
  return FALSE;
}

const char *
suanli_confidence_to_nick (SuanliConfidence confidence)
{
  g_return_val_if_fail (confidence <= SUANLI_CONFIDENCE_HIGH, NULL);

  return confidence_nicks[confidence];
}

/* Translated: "high", "medium", "low". */
const char *
suanli_confidence_get_title (SuanliConfidence confidence)
{
  switch (confidence)
    {
    case SUANLI_CONFIDENCE_HIGH:
      return C_("confidence", "high");
    case SUANLI_CONFIDENCE_MEDIUM:
      return C_("confidence", "medium");
    case SUANLI_CONFIDENCE_LOW:
    default:
      return C_("confidence", "low");
    }
}
