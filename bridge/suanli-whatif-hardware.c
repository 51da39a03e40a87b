/* suanli-whatif-hardware.c — a catalog accelerator's rates as the what-if engine takes them
 *
 * The profiler does not read the catalog (docs/architecture.md): the view and the CLI turn the
 * accelerator into plain numbers here. Rates are the catalog's dense ones, through the planner's
 * own reading (BF16 and FP16 stand in for each other where one is missing); memory bandwidth from
 * TB/s, the scale-up link from GB/s per direction over all links, with the scale-up domain and
 * the host link beyond it. A figure the catalog lacks stays 0, which the engine reports as unknown.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>

#include "suanli-plan-hardware.h"
#include "suanli-whatif-hardware.h"

/* The planner's precision for each of the engine's number formats (the same order). */
static const SuanliPrecision precisions[SUANLI_NUMBER_N_FORMATS] = {
  [SUANLI_NUMBER_FP32] = SUANLI_PRECISION_FP32, [SUANLI_NUMBER_TF32] = SUANLI_PRECISION_TF32,
  [SUANLI_NUMBER_BF16] = SUANLI_PRECISION_BF16, [SUANLI_NUMBER_FP16] = SUANLI_PRECISION_FP16,
  [SUANLI_NUMBER_FP8] = SUANLI_PRECISION_FP8,   [SUANLI_NUMBER_INT8] = SUANLI_PRECISION_INT8,
};

/* The note of @item's spec @key, in the user's language, into @out ("" when none). */
static void
copy_note (SuanliItem *item,
           const char *key,
           char       *out,
           gsize       size)
{
  const SuanliSpec *spec = suanli_item_find_spec (item, key);
  const char *text = spec != NULL ? suanli_text_get (&spec->note) : NULL;

  g_strlcpy (out, text != NULL ? text : "", size);
}

/**
 * suanli_whatif_hardware_from_item:
 * @catalog: (nullable): the catalog @item's links are looked up in; without it the job is taken to
 *   fit the scale-up domain
 * @item: an accelerator of the catalog
 * @out: (out caller-allocates): its rates; count is left 0 (as the trace says)
 *
 * Returns: FALSE when @item is not an accelerator (@out is then cleared).
 */
gboolean
suanli_whatif_hardware_from_item (SuanliCatalog        *catalog,
                                  SuanliItem           *item,
                                  SuanliWhatifHardware *out)
{
  double value = 0;

  memset (out, 0, sizeof *out);
  if (item == NULL || suanli_item_get_kind (item) != SUANLI_ITEM_KIND_ACCELERATOR)
    return FALSE;
  g_strlcpy (out->name, suanli_item_get_name (item), sizeof out->name);
  for (guint f = 0; f < SUANLI_NUMBER_N_FORMATS; f++)
    out->flops[f] = suanli_plan_hardware_peak_for (item, precisions[f]);
  if (suanli_item_get_spec_value (item, "memory_bandwidth", &value))
    out->memory_bandwidth = value * 1e12;
  if (suanli_item_get_spec_value (item, "scale_up_bandwidth", &value))
    out->link_bandwidth = value * 1e9;
  if (catalog != NULL)
    {
      SuanliPlanLinks links;

      /* The planner's own reading of how the part is wired (suanli-plan-hardware.c). */
      suanli_plan_hardware_links (catalog, item, NULL, 1, &links);
      out->scale_up_domain = (guint) MIN (links.scale_up_domain, G_MAXUINT);
      out->host_link_bandwidth = links.host_link_bandwidth;
    }
  /* What the figures count, where the catalog says (FP32 is vector on one part and matrix on
   * another; a link figure is one link on one and all of them on another). */
  copy_note (item, "fp32_tflops", out->flops_note[SUANLI_NUMBER_FP32], sizeof out->flops_note[SUANLI_NUMBER_FP32]);
  copy_note (item, "tf32_tflops", out->flops_note[SUANLI_NUMBER_TF32], sizeof out->flops_note[SUANLI_NUMBER_TF32]);
  copy_note (item, "scale_up_bandwidth", out->link_note, sizeof out->link_note);
  return TRUE;
}
