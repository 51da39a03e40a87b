/* test-palette.c — category colours, stable shades per name, readable text
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include "suanli-palette.h"

static gboolean
same_color (const SuanliColor *a,
            const SuanliColor *b)
{
  return a->red == b->red && a->green == b->green && a->blue == b->blue && a->alpha == b->alpha;
}

static void
test_categories (void)
{
  SuanliColor cpu, kernel;

  suanli_palette_category (SUANLI_CATEGORY_CPU, FALSE, &cpu);
  suanli_palette_category (SUANLI_CATEGORY_KERNEL, FALSE, &kernel);
  /* CPU work is blue, compute kernels green, as README.md tells the profiler's readers. */
  g_assert_cmpfloat (cpu.blue, >, cpu.red);
  g_assert_cmpfloat (cpu.blue, >, cpu.green);
  g_assert_cmpfloat (kernel.green, >, kernel.red);
  g_assert_cmpfloat (kernel.green, >, kernel.blue);
  g_assert_cmpfloat (cpu.alpha, ==, 1.0);
}

static void
test_names_are_stable (void)
{
  SuanliColor first, again, other;

  /* FNV-1a of "" is the offset basis; of "a" it is 0xe40c292c. */
  g_assert_cmpuint (suanli_palette_hash_name (""), ==, 2166136261u);
  g_assert_cmpuint (suanli_palette_hash_name ("a"), ==, 0xe40c292cu);

  suanli_palette_named (SUANLI_CATEGORY_KERNEL, "ampere_sgemm_128x64_tn", FALSE, &first);
  suanli_palette_named (SUANLI_CATEGORY_KERNEL, "ampere_sgemm_128x64_tn", FALSE, &again);
  suanli_palette_named (SUANLI_CATEGORY_KERNEL, "nccl:AllReduce", FALSE, &other);
  g_assert_true (same_color (&first, &again));
  g_assert_false (same_color (&first, &other));
}

static void
test_text_is_readable (void)
{
  SuanliColor text, background;

  for (int category = 0; category < SUANLI_N_CATEGORIES; category++)
    for (int dark = 0; dark <= 1; dark++)
      {
        double background_luma, text_luma;

        suanli_palette_named (category, "aten::linear", dark, &background);
        suanli_palette_text_on (&background, &text);
        background_luma = 0.2126 * background.red + 0.7152 * background.green + 0.0722 * background.blue;
        text_luma = text.red;
        /* The text is at the far end from its background. */
        g_assert_cmpfloat (ABS (background_luma - text_luma), >=, 0.4);
      }
}

int
main (int argc, char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/palette/categories", test_categories);
  g_test_add_func ("/palette/names-are-stable", test_names_are_stable);
  g_test_add_func ("/palette/text-is-readable", test_text_is_readable);

  return g_test_run ();
}
