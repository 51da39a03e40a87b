/* suanli-spec.c — one figure of a catalog item
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>

#include "suanli-spec.h"
#include "suanli-units.h"

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
  suanli_text_clear (&spec->label);
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

/* A figure as pages and the CLI show it. A size the vendor states (its label, "141 GB HBM3e") is
 * shown as stated, with the bytes the device reports in GiB beside it, which is what the planner
 * computes with; a reader who chose GiB sees the GiB first. A size with no stated figure follows
 * @memory_units; other figures show their label after the value ("450 GB/s (NVLink 900 GB/s)"). */
char *
suanli_spec_format_value (const SuanliSpec  *spec,
                          SuanliMemoryUnits  memory_units)
{
  g_autofree char *value = NULL;

  const char *label = spec->label.en != NULL ? suanli_text_get (&spec->label) : NULL;

  if (g_strcmp0 (spec->unit, "B") == 0 && label != NULL)
    {
      g_autofree char *gib = suanli_format_gib (spec->value);

      if (memory_units == SUANLI_MEMORY_UNITS_GIB)
        return g_strdup_printf ("%s (%s)", gib, label);
      return g_strdup_printf ("%s (%s)", label, gib);
    }
  value = suanli_format_quantity (spec->value, spec->unit, memory_units);
  if (label == NULL)
    return g_steal_pointer (&value);
  return g_strdup_printf ("%s (%s)", value, label);
}

/* The size a vendor states in @spec's label, "141 GB" of "141 GB HBM3e", for a table cell that has
 * no room for the rest; NULL when the spec is no size or its label states none. */
char *
suanli_spec_dup_stated_size (const SuanliSpec *spec)
{
  g_autoptr(GRegex) size = NULL;
  g_autoptr(GMatchInfo) match = NULL;

  if (g_strcmp0 (spec->unit, "B") != 0 || spec->label.en == NULL)
    return NULL;
  size = g_regex_new ("[0-9][0-9.,–]*\\s?[kMGTP]i?B\\b", 0, 0, NULL);
  if (!g_regex_match (size, spec->label.en, 0, &match))
    return NULL;
  return g_match_info_fetch (match, 0);
}

/* A figure where there is room for a number only (a comparison's cell): a size as its vendor states
 * it when @memory_units is GB, else the value in its unit. */
char *
suanli_spec_format_short (const SuanliSpec  *spec,
                          SuanliMemoryUnits  memory_units)
{
  g_autofree char *stated = memory_units == SUANLI_MEMORY_UNITS_GB ? suanli_spec_dup_stated_size (spec) : NULL;

  if (stated != NULL)
    return g_steal_pointer (&stated);
  return suanli_format_quantity (spec->value, spec->unit, memory_units);
}
