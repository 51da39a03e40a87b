/* test-device-match.c — devices, as drivers and traces name them, found in the built-in catalog
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "suanli-device-match.h"

static SuanliCatalog *
load_builtin (void)
{
  g_autoptr(GPtrArray) problems = g_ptr_array_new_with_free_func (g_free);
  SuanliCatalog *catalog = suanli_catalog_new ();

  suanli_catalog_load_builtin (catalog, problems);
  g_assert_cmpuint (problems->len, ==, 0);
  return catalog;
}

static const char *
match_id (SuanliCatalog *catalog,
          const char    *name,
          guint64        memory)
{
  SuanliItem *item = suanli_device_match (catalog, name, memory);

  g_test_message ("%s (%" G_GUINT64_FORMAT " B): %s", name, memory, item != NULL ? suanli_item_get_id (item) : "none");
  return item != NULL ? suanli_item_get_id (item) : NULL;
}

static void
test_names (void)
{
  g_autoptr(SuanliCatalog) catalog = load_builtin ();
  const char *v100;

  /* What CUDA reports (totalGlobalMem as Kineto writes it). */
  g_assert_cmpstr (match_id (catalog, "NVIDIA H100 80GB HBM3", 85520809984), ==, "nvidia-h100-sxm");
  g_assert_cmpstr (match_id (catalog, "NVIDIA H100 80GB HBM3", 0), ==, "nvidia-h100-sxm");
  g_assert_cmpstr (match_id (catalog, "NVIDIA H100 PCIe", 85029158912), ==, "nvidia-h100-pcie");
  g_assert_cmpstr (match_id (catalog, "NVIDIA A100-SXM4-80GB", 85198045184), ==, "nvidia-a100-80gb-sxm");
  g_assert_cmpstr (match_id (catalog, "NVIDIA A100-SXM4-40GB", 42505273344), ==, "nvidia-a100-40gb-sxm");
  /* The A100 of HolisticTraceAnalysis's traces: its name gives no size; its 39.4 GiB do. */
  g_assert_cmpstr (match_id (catalog, "NVIDIA A100-PG509-200", 42297524224), ==, "nvidia-a100-40gb-sxm");
  g_assert_cmpstr (match_id (catalog, "NVIDIA GeForce RTX 4090", 25393692672), ==, "nvidia-rtx-4090");
  g_assert_cmpstr (match_id (catalog, "NVIDIA H200", 150754820096), ==, "nvidia-h200-sxm");
  /* The H100 NVL (94 GB) is its own part, not an H100 SXM. */
  g_assert_cmpstr (match_id (catalog, "NVIDIA H100 NVL", 100485038080), ==, "nvidia-h100-nvl");
  /* Names the catalog cannot stand behind: ROCm's generic name for an MI250. */
  g_assert_null (match_id (catalog, "AMD Radeon Graphics", 68702699520));
  g_assert_null (match_id (catalog, "", 0));
  /* The V100 of most public traces. */
  v100 = match_id (catalog, "Tesla V100-SXM2-32GB", 34089730048);
  g_assert_cmpstr (v100, ==, "nvidia-v100-sxm2");
  /* The 16 GB V100 of the first DGX-1s and of many public traces is its own part, with or without
   * its memory in the trace; a 16 GB PCIe V100 is neither. */
  g_assert_cmpstr (match_id (catalog, "Tesla V100-SXM2-16GB", 16945512448), ==, "nvidia-v100-sxm2-16gb");
  g_assert_cmpstr (match_id (catalog, "Tesla V100-SXM2-16GB", 0), ==, "nvidia-v100-sxm2-16gb");
  g_assert_cmpstr (match_id (catalog, "Tesla V100-SXM2-32GB", 0), ==, "nvidia-v100-sxm2");
  g_assert_null (match_id (catalog, "Tesla V100-PCIE-16GB", 16945512448));
}

int
main (int argc, char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/device-match/names", test_names);
  return g_test_run ();
}
