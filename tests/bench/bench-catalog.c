/* bench-catalog.c — a 10,000-item catalog: how long it takes to load, and to filter per keystroke
 *
 * The catalog is generated to look like the built-in one (specs with sources, claims, summaries in
 * both languages), written to a temporary file and read back with the real reader. Filtering is
 * what the catalog page runs on every keystroke: fold the query, match every item.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>
#include <unistd.h>
#include <glib/gstdio.h>

#include "suanli-bench.h"
#include "suanli-catalog-reader.h"
#include "suanli-catalog.h"

#define N_ITEMS 10000

static char *
generate_catalog (void)
{
  static const char *vendors[] = { "NVIDIA", "AMD", "Intel", "Google", "Huawei", "Cambricon", "Acme", "Globex" };
  GString *json = g_string_new ("{\"schema\": \"suanli-catalog/1\", \"items\": [\n");

  for (guint i = 0; i < N_ITEMS; i++)
    {
      const char *vendor = vendors[i % G_N_ELEMENTS (vendors)];

      g_string_append_printf (json,
        "%s{\"id\": \"gen-accel-%u\", \"kind\": \"accelerator\", \"vendor\": \"%s\", \"name\": \"%s X%u\",\n"
        " \"aliases\": [\"X%u\"], \"year\": %u, \"tags\": [\"generated\", \"hbm3e\"],\n"
        " \"specs\": {\n"
        "  \"bf16_tflops\": {\"value\": %u, \"unit\": \"TFLOP/s\", \"source\": \"%s datasheet (2025)\", \"confidence\": \"high\"},\n"
        "  \"fp8_tflops\": {\"value\": %u, \"unit\": \"TFLOP/s\", \"source\": \"%s datasheet (2025)\", \"confidence\": \"high\"},\n"
        "  \"memory_bytes\": {\"value\": %" G_GUINT64_FORMAT ", \"unit\": \"B\", \"source\": \"%s datasheet (2025)\", \"confidence\": \"medium\", \"label\": \"%u GB\"},\n"
        "  \"memory_bandwidth\": {\"value\": %.2f, \"unit\": \"TB/s\", \"source\": \"%s datasheet (2025)\", \"confidence\": \"high\"},\n"
        "  \"tdp\": {\"value\": %u, \"unit\": \"W\", \"source\": \"%s datasheet (2025)\", \"confidence\": \"high\"}},\n"
        " \"summary\": {\"en\": \"Generated accelerator number %u for the benchmark, with HBM memory.\",\n"
        "              \"zh_CN\": \"用于基准测试的第 %u 号生成加速器，配备 HBM 显存。\"},\n"
        " \"claims\": [{\"seed\": \"000_bench.txt\", \"quote\": \"X%u 的算力达到 %u TFLOPS\", \"spec\": \"bf16_tflops\",\n"
        "              \"value\": %u, \"unit\": \"TFLOP/s\", \"verdict\": \"sparse-as-dense\", \"correct_value\": %u,\n"
        "              \"note\": {\"en\": \"Sparse.\", \"zh_CN\": \"稀疏。\"}}]}",
        i == 0 ? "" : ",\n", i, vendor, vendor, i, i, 2015 + i % 11,
        100 + i % 2000, vendor, 200 + i % 4000, vendor, (guint64) (16 + i % 256) << 30, vendor, 16 + i % 256,
        0.5 + (i % 60) / 10.0, vendor, 150 + i % 1000, vendor, i, i, i, 2 * (100 + i % 2000), 2 * (100 + i % 2000),
        100 + i % 2000);
    }
  g_string_append (json, "\n]}\n");
  return g_string_free (json, FALSE);
}

typedef struct
{
  char          *path;
  SuanliCatalog *catalog;
} LoadData;

static void
load_once (gpointer data)
{
  LoadData *load = data;
  g_autoptr(GFile) file = g_file_new_for_path (load->path);
  g_autoptr(GPtrArray) problems = g_ptr_array_new_with_free_func (g_free);

  g_clear_object (&load->catalog);
  load->catalog = suanli_catalog_new ();
  suanli_catalog_load_file (load->catalog, file, problems, NULL);
  g_assert_cmpuint (problems->len, ==, 0);
}

typedef struct
{
  SuanliCatalog *catalog;
  const char    *query;
  guint          matched;
} FilterData;

static void
filter_once (gpointer data)
{
  FilterData *filter = data;
  g_auto(GStrv) terms = suanli_item_fold_query (filter->query);
  GListModel *model = G_LIST_MODEL (filter->catalog);

  filter->matched = 0;
  for (guint i = 0; i < g_list_model_get_n_items (model); i++)
    {
      g_autoptr(SuanliItem) item = g_list_model_get_item (model, i);

      if (suanli_item_matches (item, (const char * const *) terms))
        filter->matched++;
    }
}

int
main (int   argc,
      char *argv[])
{
  g_autofree char *json = generate_catalog ();
  g_autoptr(SuanliBench) load_bench = suanli_bench_new ("load 10,000 items", "ms");
  g_autoptr(SuanliBench) filter_bench = suanli_bench_new ("filter 10,000 items per keystroke", "ms");
  g_autoptr(SuanliBench) first_bench = suanli_bench_new ("first search (builds the search text)", "ms");
  const char *typed = "nvidia x42 hbm";
  LoadData load = { NULL, NULL };
  int fd;

  fd = g_file_open_tmp ("suanli-bench-XXXXXX.json", &load.path, NULL);
  g_assert_cmpint (fd, >=, 0);
  close (fd);
  g_assert_true (g_file_set_contents (load.path, json, -1, NULL));
  g_print ("generated catalog: %zu bytes, %d items\n", strlen (json), N_ITEMS);

  suanli_bench_time (load_bench, 7, load_once, &load);
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (load.catalog)), ==, N_ITEMS);
  suanli_bench_report (load_bench);

  /* The first search folds every item's text once; later keystrokes reuse it. */
  {
    FilterData first = { load.catalog, "n", 0 };
    suanli_bench_time (first_bench, 1, filter_once, &first);
    suanli_bench_report (first_bench);
  }

  /* Every prefix of the typed query, as keystrokes, several rounds. */
  for (guint round = 0; round < 5; round++)
    for (gsize length = 1; length <= strlen (typed); length++)
      {
        g_autofree char *prefix = g_strndup (typed, length);
        FilterData filter = { load.catalog, prefix, 0 };

        suanli_bench_time (filter_bench, 1, filter_once, &filter);
        if (round == 0 && length == strlen (typed))
          g_print ("“%s” matches %u items\n", typed, filter.matched);
      }
  suanli_bench_report (filter_bench);

  g_object_unref (load.catalog);
  g_unlink (load.path);
  g_free (load.path);
  return 0;
}
