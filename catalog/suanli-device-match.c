/* suanli-device-match.c — the catalog's accelerator a device reports itself as
 *
 * Drivers name devices their own way ("NVIDIA H100 80GB HBM3", "Tesla V100-SXM2-32GB",
 * "NVIDIA A100-SXM4-40GB"); the catalog names an accelerator and lists its aliases ("H100",
 * "A100 SXM4 40GB"). A device is an accelerator when every word of one of its names is a word of
 * the device's, the vendor's brand words aside; a memory size in a name ("40GB") also holds when
 * the device's memory is that size. The name with the most words matched wins, then the one
 * nearer in memory; an accelerator whose memory is far from the device's is never it.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>

#include "suanli-device-match.h"

#define MEMORY_TOLERANCE 0.1   /* a "40GB" A100 reports 39.4 GiB; an 80 GB H100, 79.6 */

/* Words that only say whose it is, which device names and catalog names use unevenly. */
static const char * const brand_words[] = { "nvidia", "amd", "intel", "tesla", "geforce", NULL };

/* The lowercase ASCII words of @text, brand words left out. */
static GPtrArray *
words_of (const char *text)
{
  GPtrArray *words = g_ptr_array_new_with_free_func (g_free);
  g_autofree char *lower = g_ascii_strdown (text, -1);
  g_auto(GStrv) parts = NULL;

  for (char *c = lower; *c != '\0'; c++)
    if (!g_ascii_isalnum (*c) && !((guchar) *c & 0x80))
      *c = ' ';
  parts = g_strsplit (lower, " ", -1);
  for (guint i = 0; parts[i] != NULL; i++)
    if (*parts[i] != '\0' && !g_strv_contains (brand_words, parts[i]))
      g_ptr_array_add (words, g_strdup (parts[i]));
  return words;
}

static gboolean
near (double a,
      double b)
{
  return a > 0 && b > 0 && fabs (a - b) <= MEMORY_TOLERANCE * MAX (a, b);
}

/* "40gb" holds for a device of 40 GB (or GiB) of memory. */
static gboolean
memory_word_holds (const char *word,
                   guint64     memory_bytes)
{
  char *end = NULL;
  guint64 size = g_ascii_strtoull (word, &end, 10);

  if (end == word || g_strcmp0 (end, "gb") != 0 || memory_bytes == 0)
    return FALSE;
  return near ((double) memory_bytes, (double) size * 1e9) || near ((double) memory_bytes, (double) size * (1u << 30));
}

/* How many words of @name the device has (0: not all of them). */
static guint
score_name (const char *name,
            GPtrArray  *device_words,
            guint64     memory_bytes)
{
  g_autoptr(GPtrArray) words = words_of (name);

  for (guint i = 0; i < words->len; i++)
    {
      const char *word = g_ptr_array_index (words, i);
      gboolean found = memory_word_holds (word, memory_bytes);

      for (guint j = 0; !found && j < device_words->len; j++)
        found = g_str_equal (word, g_ptr_array_index (device_words, j));
      if (!found)
        return 0;
    }
  return words->len;
}

/**
 * suanli_device_match:
 * @device_name: as the driver reports it ("NVIDIA H100 80GB HBM3")
 * @memory_bytes: the device's memory, or 0 when unknown
 *
 * Returns: (transfer none) (nullable): the catalog's accelerator the device is, or NULL when the
 * catalog has none that it can be.
 */
SuanliItem *
suanli_device_match (SuanliCatalog *catalog,
                     const char    *device_name,
                     guint64        memory_bytes)
{
  g_autoptr(GPtrArray) device_words = NULL;
  SuanliItem *best = NULL;
  guint best_score = 0;
  double best_distance = G_MAXDOUBLE;

  g_return_val_if_fail (SUANLI_IS_CATALOG (catalog), NULL);
  if (device_name == NULL || *device_name == '\0')
    return NULL;
  device_words = words_of (device_name);
  for (guint i = 0; i < g_list_model_get_n_items (G_LIST_MODEL (catalog)); i++)
    {
      g_autoptr(SuanliItem) item = g_list_model_get_item (G_LIST_MODEL (catalog), i);
      const char * const *aliases = suanli_item_get_aliases (item);
      double memory = 0, distance;
      guint score;

      if (suanli_item_get_kind (item) != SUANLI_ITEM_KIND_ACCELERATOR)
        continue;
      if (suanli_item_get_spec_value (item, "memory_bytes", &memory) && memory_bytes > 0 && memory > 0 &&
          !near (memory, (double) memory_bytes))
        continue;
      score = score_name (suanli_item_get_name (item), device_words, memory_bytes);
      for (guint a = 0; aliases != NULL && aliases[a] != NULL; a++)
        score = MAX (score, score_name (aliases[a], device_words, memory_bytes));
      distance = memory > 0 && memory_bytes > 0 ? fabs (memory - (double) memory_bytes) : G_MAXDOUBLE / 2;
      if (score > best_score || (score == best_score && score > 0 && distance < best_distance))
        {
          best = item;
          best_score = score;
          best_distance = distance;
        }
    }
  return best;
}
