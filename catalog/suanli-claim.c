/* suanli-claim.c — what a source article says about a catalog item, and whether it is right
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>

#include "suanli-claim.h"
#include "suanli-units.h"

static const char * const verdict_nicks[] = { "consistent", "sparse-as-dense", "wrong", "unverifiable", "refuted",
                                                "misnamed" };

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
  g_return_val_if_fail (verdict < G_N_ELEMENTS (verdict_nicks), NULL);

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
    case SUANLI_VERDICT_REFUTED:
      return _("Contradicted by the sources");
    case SUANLI_VERDICT_MISNAMED:
      return _("No product of that name exists");
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

/* Claims the sources contradict, which pages mark with a warning: a wrong figure, a sparse one
 * quoted as dense, a statement refuted, a product that does not exist. */
gboolean
suanli_verdict_is_disputed (SuanliVerdict verdict)
{
  return verdict != SUANLI_VERDICT_CONSISTENT && verdict != SUANLI_VERDICT_UNVERIFIABLE;
}

/* @value (the claim's or its correct value) in the claim's unit, as the article states it: a size
 * in decimal GB or TB as printed ("96GB" is 96 GB, not 96 GiB), hours, ms and °C as they are. */
char *
suanli_claim_format_figure (const SuanliClaim *claim,
                            double             value)
{
  if (g_strcmp0 (claim->unit, "B") == 0)
    return suanli_format_stated_bytes (value);
  return suanli_format_quantity (value, claim->unit, SUANLI_MEMORY_UNITS_GB);
}
