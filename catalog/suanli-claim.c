/* suanli-claim.c — what a source article says about a catalog item, and whether it is right
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>

#include "suanli-claim.h"

static const char * const verdict_nicks[] = { "consistent", "sparse-as-dense", "wrong", "unverifiable" };

SuanliClaim *
suanli_claim_new (void)
{
  return g_new0 (SuanliClaim, 1);
}

void
suanli_claim_free (SuanliClaim *claim)
{
  if (claim == NULL)
    return;
  g_free (claim->seed);
  g_free (claim->quote);
  suanli_text_clear (&claim->note);
  g_free (claim);
}

gboolean
suanli_verdict_from_nick (const char    *nick,
                          SuanliVerdict *verdict)
{
  for (guint i = 0; i < G_N_ELEMENTS (verdict_nicks); i++)
    if (g_strcmp0 (verdict_nicks[i], nick) == 0)
      {
        *verdict = i;
        return TRUE;
      }
  return FALSE;
}

const char *
suanli_verdict_to_nick (SuanliVerdict verdict)
{
  g_return_val_if_fail (verdict <= SUANLI_VERDICT_UNVERIFIABLE, NULL);

  return verdict_nicks[verdict];
}

/* The verdict in plain words, translated. */
const char *
suanli_verdict_get_title (SuanliVerdict verdict)
{
  switch (verdict)
    {
    case SUANLI_VERDICT_CONSISTENT:
      return _("Agrees with the sources");
    case SUANLI_VERDICT_SPARSE_AS_DENSE:
      return _("A sparse figure quoted as dense");
    case SUANLI_VERDICT_WRONG:
      return _("Wrong");
    case SUANLI_VERDICT_UNVERIFIABLE:
    default:
      return _("Cannot be checked");
    }
}

/* A claim found wrong, or sparse quoted as dense, must say what the right figure is. */
gboolean
suanli_verdict_needs_correct_value (SuanliVerdict verdict)
{
  return verdict == SUANLI_VERDICT_WRONG || verdict == SUANLI_VERDICT_SPARSE_AS_DENSE;
}
