/* test-catalog.c — reading, checking and merging catalogs; searching items; the built-in catalog
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>
#include <glib/gstdio.h>

#include "suanli-catalog-reader.h"
#include "suanli-catalog.h"
#include "suanli-item-csv.h"
#include "suanli-item-json.h"
#include "suanli-units.h"

#define S SUANLI_UNIT_SPACE

/* A small valid catalog. Line numbers matter: tests below point into it. */
static const char valid_catalog[] =
  "{\n"                                                                          /* 1 */
  "  \"schema\": \"suanli-catalog/1\",\n"                                        /* 2 */
  "  \"items\": [\n"                                                             /* 3 */
  "    {\n"                                                                      /* 4 */
  "      \"id\": \"test-gpu\", \"kind\": \"accelerator\", \"vendor\": \"Acme\",\n" /* 5 */
  "      \"name\": \"Test GPU 9000\", \"aliases\": [\"TG9000\"], \"year\": 2024,\n" /* 6 */
  "      \"specs\": {\n"                                                         /* 7 */
  "        \"bf16_tflops\": {\"value\": 989, \"unit\": \"TFLOP/s\", \"source\": \"Acme datasheet (2024-11)\", \"confidence\": \"high\"},\n"
  "        \"memory_bytes\": {\"value\": 150754820096, \"unit\": \"B\", \"source\": \"Acme datasheet (2024)\", \"confidence\": \"medium\", \"label\": \"141 GB HBM3e\"}\n"
  "      },\n"                                                                   /* 10 */
  "      \"tags\": [\"hopper\", \"training\"],\n"
  "      \"summary\": {\"en\": \"A test accelerator.\", \"zh_CN\": \"一个测试用加速器。\"},\n"
  "      \"links\": [{\"title\": \"Datasheet\", \"url\": \"https://example.com/tg9000\"}],\n"
  "      \"claims\": [{\"seed\": \"000_test.txt\", \"quote\": \"TG9000的FP16算力1979 TFLOPS\", \"spec\": \"bf16_tflops\",\n"
  "                  \"value\": 1979, \"unit\": \"TFLOP/s\", \"verdict\": \"sparse-as-dense\", \"correct_value\": 989,\n"
  "                  \"note\": {\"en\": \"Sparse.\", \"zh_CN\": \"稀疏算力。\"}}]\n"
  "    },\n"
  "    {\n"
  "      \"id\": \"test-box\", \"kind\": \"system\", \"vendor\": \"Acme\", \"name\": \"Test Box\",\n"
  "      \"parts\": {\"accelerator\": \"test-gpu\"},\n"                          /* 20 */
  "      \"specs\": {\"accelerators\": {\"value\": 8, \"unit\": \"count\", \"source\": \"Acme box guide (2024)\", \"confidence\": \"high\"},\n"
  "                \"scale_up_domain\": {\"value\": 8, \"unit\": \"count\", \"source\": \"Acme box guide (2024)\", \"confidence\": \"high\"}},\n"
  "      \"summary\": {\"en\": \"Eight of them.\", \"zh_CN\": \"八块。\"}\n"
  "    },\n"
  "    {\n"
  "      \"id\": \"test-recompute\", \"kind\": \"technique\", \"vendor\": \"\", \"name\": \"Recompute\",\n"
  "      \"trades\": {\"memory\": {\"en\": \"less\", \"zh_CN\": \"更少\"}, \"speed\": {\"en\": \"slower\", \"zh_CN\": \"更慢\"},\n"
  "                 \"accuracy\": {\"en\": \"same\", \"zh_CN\": \"不变\"}},\n"
  "      \"summary\": {\"en\": \"Trade compute for memory.\", \"zh_CN\": \"以计算换显存。\"}\n"
  "    }\n"
  "  ]\n"
  "}\n";

static GBytes *
bytes_of (const char *text)
{
  return g_bytes_new_static (text, strlen (text));
}

static void
read_text (const char *text,
           GPtrArray  *items,
           GPtrArray  *problems,
           gboolean    expect_readable)
{
  g_autoptr(GBytes) bytes = bytes_of (text);

  g_assert_cmpint (suanli_catalog_read_bytes ("test.json", bytes, items, problems), ==, expect_readable);
}

static void
test_read_valid (void)
{
  g_autoptr(GPtrArray) items = g_ptr_array_new_with_free_func (g_object_unref);
  g_autoptr(GPtrArray) problems = g_ptr_array_new_with_free_func (g_free);
  SuanliItem *gpu;
  const SuanliSpec *memory;
  const SuanliClaim *claim;
  double value = 0;

  read_text (valid_catalog, items, problems, TRUE);
  g_assert_cmpuint (problems->len, ==, 0);
  g_assert_cmpuint (items->len, ==, 3);

  gpu = g_ptr_array_index (items, 0);
  g_assert_cmpstr (suanli_item_get_id (gpu), ==, "test-gpu");
  g_assert_cmpint (suanli_item_get_kind (gpu), ==, SUANLI_ITEM_KIND_ACCELERATOR);
  g_assert_cmpint (suanli_item_get_year (gpu), ==, 2024);
  g_assert_true (suanli_item_get_spec_value (gpu, "bf16_tflops", &value));
  g_assert_cmpfloat (value, ==, 989);
  memory = suanli_item_find_spec (gpu, "memory_bytes");
  g_assert_nonnull (memory);
  g_assert_cmpfloat (memory->value, ==, 150754820096.0);
  g_assert_cmpstr (memory->label.en, ==, "141 GB HBM3e");
  g_assert_cmpint (memory->confidence, ==, SUANLI_CONFIDENCE_MEDIUM);
  g_assert_false (suanli_item_get_spec_value (gpu, "fp8_tflops", NULL));

  g_assert_cmpuint (suanli_item_get_n_claims (gpu), ==, 1);
  claim = suanli_item_get_claim_at (gpu, 0);
  g_assert_cmpint (claim->verdict, ==, SUANLI_VERDICT_SPARSE_AS_DENSE);
  g_assert_true (claim->has_correct_value);
  g_assert_cmpfloat (claim->correct_value, ==, 989);
  g_assert_cmpuint (suanli_item_count_disputed_claims (gpu), ==, 1);

  g_assert_cmpstr (suanli_item_get_part (g_ptr_array_index (items, 1), "accelerator"), ==, "test-gpu");
  g_assert_cmpstr (suanli_item_get_trade (g_ptr_array_index (items, 2), SUANLI_TRADE_SPEED)->zh_CN, ==, "更慢");
}

/* What is written reads back to the same items, and writes again to the same text. */
static void
test_json_round_trip (void)
{
  g_autoptr(GPtrArray) items = g_ptr_array_new_with_free_func (g_object_unref);
  g_autoptr(GPtrArray) again = g_ptr_array_new_with_free_func (g_object_unref);
  g_autoptr(GPtrArray) problems = g_ptr_array_new_with_free_func (g_free);
  g_autofree char *first = NULL;
  g_autofree char *second = NULL;

  read_text (valid_catalog, items, problems, TRUE);
  first = suanli_items_to_catalog_json (items, TRUE, NULL);
  read_text (first, again, problems, TRUE);
  g_assert_cmpuint (problems->len, ==, 0);
  g_assert_cmpuint (again->len, ==, items->len);
  second = suanli_items_to_catalog_json (again, TRUE, NULL);
  g_assert_cmpstr (first, ==, second);
  g_assert_nonnull (strstr (first, "\"value\" : 150754820096"));
}

/* Replaces the first @from in the valid catalog with @to, reads it, and checks that one problem was
 * reported whose text contains every string in @expected. Returns how many items still loaded. */
static guint
assert_problem (const char         *from,
                const char         *to,
                const char * const *expected)
{
  g_autoptr(GString) text = g_string_new (valid_catalog);
  g_autoptr(GPtrArray) items = g_ptr_array_new_with_free_func (g_object_unref);
  g_autoptr(GPtrArray) problems = g_ptr_array_new_with_free_func (g_free);
  const char *found;

  found = strstr (text->str, from);
  g_assert_nonnull (found);
  g_string_erase (text, found - text->str, strlen (from));
  g_string_insert (text, found - text->str, to);

  read_text (text->str, items, problems, TRUE);
  if (problems->len != 1)
    {
      for (guint i = 0; i < problems->len; i++)
        g_printerr ("problem: %s\n", (const char *) g_ptr_array_index (problems, i));
      g_assert_cmpuint (problems->len, ==, 1);
    }
  for (guint i = 0; expected[i] != NULL; i++)
    if (strstr (g_ptr_array_index (problems, 0), expected[i]) == NULL)
      g_error ("“%s” does not say “%s”", (const char *) g_ptr_array_index (problems, 0), expected[i]);
  return items->len;
}

static void
test_bad_items (void)
{
  /* Each bad item is left out, named with its line, and the other two still load. */
  g_assert_cmpuint (assert_problem ("\"value\": 989", "\"value\": \"989\"",
                                    (const char *[]) { "test.json:8:", "items[0] (test-gpu).specs.bf16_tflops",
                                                       "must be a number, not a string", NULL }), ==, 2);
  g_assert_cmpuint (assert_problem ("\"unit\": \"TFLOP/s\", \"source\"", "\"unit\": \"TFLOPS\", \"source\"",
                                    (const char *[]) { "test.json:8:", "unknown unit “TFLOPS”", NULL }), ==, 2);
  g_assert_cmpuint (assert_problem ("\"unit\": \"TFLOP/s\", \"source\"", "\"unit\": \"TB/s\", \"source\"",
                                    (const char *[]) { "bf16_tflops", "is given in TFLOP/s, not TB/s", NULL }), ==, 2);
  g_assert_cmpuint (assert_problem ("\"kind\": \"system\"", "\"kind\": \"spaceship\"",
                                    (const char *[]) { "test.json:19:", "items[1] (test-box)", "unknown kind “spaceship”", NULL }), ==, 2);
  g_assert_cmpuint (assert_problem ("\"name\": \"Test Box\",", "",
                                    (const char *[]) { "items[1] (test-box)", "“name” is missing", NULL }), ==, 2);
  g_assert_cmpuint (assert_problem ("\"source\": \"Acme datasheet (2024-11)\"", "\"source\": \"datasheet\"",
                                    (const char *[]) { "must name a document and its date", NULL }), ==, 2);
  g_assert_cmpuint (assert_problem ("\"source\": \"Acme datasheet (2024-11)\"", "\"source\": \"2024\"",
                                    (const char *[]) { "must name a document and its date", NULL }), ==, 2);
  g_assert_cmpuint (assert_problem ("\"confidence\": \"high\"}", "\"confidence\": \"sure\"}",
                                    (const char *[]) { "confidence must be high, medium or low", NULL }), ==, 2);
  g_assert_cmpuint (assert_problem ("\"id\": \"test-box\"", "\"id\": \"test-gpu\"",
                                    (const char *[]) { "the id “test-gpu” is used twice", NULL }), ==, 2);
  g_assert_cmpuint (assert_problem ("\"id\": \"test-box\"", "\"id\": \"Test Box\"",
                                    (const char *[]) { "an id is lowercase letters", NULL }), ==, 2);
  g_assert_cmpuint (assert_problem ("\"year\": 2024", "\"year\": 2024, \"colour\": \"green\"",
                                    (const char *[]) { "unknown key “colour”", NULL }), ==, 2);
  g_assert_cmpuint (assert_problem ("\"verdict\": \"sparse-as-dense\", \"correct_value\": 989,",
                                    "\"verdict\": \"wrong\",",
                                    (const char *[]) { "claims[0]", "must give “correct_value”", NULL }), ==, 2);
  g_assert_cmpuint (assert_problem ("\"zh_CN\": \"八块。\"", "\"fr\": \"huit\"",
                                    (const char *[]) { "items[1] (test-box).summary", NULL }), ==, 2);
  g_assert_cmpuint (assert_problem ("\"parts\": {\"accelerator\": \"test-gpu\"}", "\"parts\": {\"engine\": \"test-gpu\"}",
                                    (const char *[]) { "unknown key “engine”", NULL }), ==, 2);
  g_assert_cmpuint (assert_problem ("\"url\": \"https://example.com/tg9000\"", "\"url\": \"javascript:alert(1)\"",
                                    (const char *[]) { "http or https address", NULL }), ==, 2);
  g_assert_cmpuint (assert_problem ("\"tags\": [\"hopper\", \"training\"]", "\"tags\": [\"Hopper\"]",
                                    (const char *[]) { "must be lowercase", NULL }), ==, 2);
  g_assert_cmpuint (assert_problem (",\n                 \"accuracy\": {\"en\": \"same\", \"zh_CN\": \"不变\"}", "",
                                    (const char *[]) { "items[2] (test-recompute).trades", "“accuracy” is missing", NULL }), ==, 2);
  g_assert_cmpuint (assert_problem ("\"value\": 8, \"unit\": \"count\"", "\"value\": 0, \"unit\": \"count\"",
                                    (const char *[]) { "items[1] (test-box).specs.accelerators", "more than zero", NULL }), ==, 2);
  g_assert_cmpuint (assert_problem ("\"value\": 8, \"unit\": \"count\"", "\"value\": 8.5, \"unit\": \"count\"",
                                    (const char *[]) { "whole number", NULL }), ==, 2);
  g_assert_cmpuint (assert_problem ("\"bf16_tflops\": {", "\"bogomips\": {",
                                    (const char *[]) { "accelerator items have no spec “bogomips”", NULL }), ==, 2);
  /* A system that does not say how its accelerators are wired is refused, named at the item; so is
   * an accelerator whose scale-up bandwidth spans a domain it does not state. */
  g_assert_cmpuint (assert_problem (",\n                \"scale_up_domain\": {\"value\": 8, \"unit\": \"count\", \"source\": \"Acme box guide (2024)\", \"confidence\": \"high\"}",
                                    "",
                                    (const char *[]) { "test.json:21:", "items[1] (test-box)", "“specs.scale_up_domain”", NULL }), ==, 2);
  g_assert_cmpuint (assert_problem ("\"label\": \"141 GB HBM3e\"}\n",
                                    "\"label\": \"141 GB HBM3e\"},\n"
                                    "        \"scale_up_bandwidth\": {\"value\": 450, \"unit\": \"GB/s\", \"source\": \"Acme datasheet (2024)\", \"confidence\": \"high\"}\n",
                                    (const char *[]) { "items[0] (test-gpu)", "how many accelerators that fabric joins", NULL }), ==, 2);
}

static void
assert_unreadable (const char *text,
                   gsize       length,
                   const char *expected)
{
  g_autoptr(GBytes) bytes = g_bytes_new (text, length);
  g_autoptr(GPtrArray) items = g_ptr_array_new_with_free_func (g_object_unref);
  g_autoptr(GPtrArray) problems = g_ptr_array_new_with_free_func (g_free);

  g_assert_false (suanli_catalog_read_bytes ("bad.json", bytes, items, problems));
  g_assert_cmpuint (items->len, ==, 0);
  g_assert_cmpuint (problems->len, ==, 1);
  if (strstr (g_ptr_array_index (problems, 0), expected) == NULL)
    g_error ("“%s” does not say “%s”", (const char *) g_ptr_array_index (problems, 0), expected);
}

static void
test_bad_files (void)
{
  g_autofree char *large = NULL;

  /* Truncated: the parser's position is reported. */
  assert_unreadable (valid_catalog, 200, "bad.json:");
  assert_unreadable ("{\"schema\": \"suanli-catalog/1\",\n \"items\": [}", 41, "bad.json:2:");
  /* Not UTF-8: line, column and byte offset of the first bad byte. */
  assert_unreadable ("{\n  \"name\": \"caf\xe9\"}", 18, "bad.json:2:15: not UTF-8 text (byte offset 16)");
  assert_unreadable ("[]", 2, "a catalog is an object");
  assert_unreadable ("{\"schema\": \"suanli-catalog/2\", \"items\": []}", 43, "this version reads “suanli-catalog/1”");
  assert_unreadable ("{\"schema\": \"suanli-catalog/1\"}", 30, "“items” must be an array");
  assert_unreadable ("", 0, "bad.json:");

  /* Over 16 MB is refused with that reason, before parsing. */
  large = g_malloc0 (SUANLI_CATALOG_MAX_FILE_SIZE + 1);
  memset (large, ' ', SUANLI_CATALOG_MAX_FILE_SIZE + 1);
  assert_unreadable (large, SUANLI_CATALOG_MAX_FILE_SIZE + 1, "a catalog file may have at most 16777216");

  /* A device has no size to check: its bytes are counted as they come, and refused past 16 MB. */
  {
    g_autoptr(GFile) zero = g_file_new_for_path ("/dev/zero");
    g_autoptr(GPtrArray) items = g_ptr_array_new_with_free_func (g_object_unref);
    g_autoptr(GPtrArray) problems = g_ptr_array_new_with_free_func (g_free);

    g_assert_false (suanli_catalog_read_file (zero, items, problems, NULL));
    g_assert_cmpuint (problems->len, ==, 1);
    g_assert_cmpstr (g_ptr_array_index (problems, 0), ==,
                     "/dev/zero:1:1: the file is larger than 16777216 bytes, the most a catalog file may have");
  }
}

static void
write_file (const char *directory,
            const char *name,
            const char *text)
{
  g_autofree char *path = g_build_filename (directory, name, NULL);

  g_assert_true (g_file_set_contents (path, text, -1, NULL));
}

static void
count_changes (GListModel *model,
               guint       position,
               guint       removed,
               guint       added,
               gpointer    user_data)
{
  (*(guint *) user_data)++;
}

/* A later folder overrides items by id; a bad file is reported and does not stop the good one. */
static void
test_merge_and_override (void)
{
  g_autofree char *base = g_dir_make_tmp ("suanli-catalog-XXXXXX", NULL);
  g_autofree char *first = g_build_filename (base, "first", NULL);
  g_autofree char *second = g_build_filename (base, "second", NULL);
  g_autoptr(GFile) first_dir = g_file_new_for_path (first);
  g_autoptr(GFile) second_dir = g_file_new_for_path (second);
  g_autoptr(GFile) missing_dir = g_file_new_build_filename (base, "missing", NULL);
  g_autoptr(SuanliCatalog) catalog = suanli_catalog_new ();
  g_autoptr(GPtrArray) problems = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GString) override = g_string_new (valid_catalog);
  guint changes = 0;
  SuanliItem *gpu;

  g_assert_cmpint (g_mkdir (first, 0700), ==, 0);
  g_assert_cmpint (g_mkdir (second, 0700), ==, 0);
  write_file (first, "a.json", valid_catalog);
  write_file (second, "0-broken.json", "{\"schema\": \"suanli-catalog/1\", \"items\": [");
  g_string_replace (override, "Test GPU 9000", "Test GPU 9000 (ours)", 1);
  g_string_replace (override, "\"value\": 989", "\"value\": 1000", 1);
  write_file (second, "b.json", override->str);

  g_signal_connect (catalog, "items-changed", G_CALLBACK (count_changes), &changes);
  suanli_catalog_load_directory (catalog, first_dir, problems, NULL);
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (catalog)), ==, 3);
  g_assert_cmpuint (changes, ==, 1);

  suanli_catalog_load_directory (catalog, second_dir, problems, NULL);
  suanli_catalog_load_directory (catalog, missing_dir, problems, NULL);
  g_assert_cmpuint (g_list_model_get_n_items (G_LIST_MODEL (catalog)), ==, 3);
  g_assert_cmpuint (suanli_catalog_get_n_overridden (catalog), ==, 3);
  gpu = suanli_catalog_lookup (catalog, "test-gpu");
  g_assert_cmpstr (suanli_item_get_name (gpu), ==, "Test GPU 9000 (ours)");
  g_assert_true (g_str_has_suffix (suanli_item_get_origin (gpu), "b.json"));
  g_assert_cmpuint (problems->len, ==, 1);
  g_assert_nonnull (strstr (g_ptr_array_index (problems, 0), "0-broken.json:1:"));
  g_assert_cmpuint (suanli_catalog_count_kind (catalog, SUANLI_ITEM_KIND_SYSTEM), ==, 1);

  g_ptr_array_set_size (problems, 0);
  suanli_catalog_check_references (catalog, problems);
  g_assert_cmpuint (problems->len, ==, 0);

  for (const char *dir_name = "first"; dir_name != NULL; dir_name = g_str_equal (dir_name, "first") ? "second" : NULL)
    {
      g_autofree char *dir = g_build_filename (base, dir_name, NULL);
      g_autoptr(GDir) listing = g_dir_open (dir, 0, NULL);
      const char *name;

      while ((name = g_dir_read_name (listing)) != NULL)
        {
          g_autofree char *path = g_build_filename (dir, name, NULL);
          g_unlink (path);
        }
      g_rmdir (dir);
    }
  g_rmdir (base);
}

static void
test_dangling_part (void)
{
  g_autoptr(GString) text = g_string_new (valid_catalog);
  g_autoptr(GPtrArray) items = g_ptr_array_new_with_free_func (g_object_unref);
  g_autoptr(GPtrArray) problems = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(SuanliCatalog) catalog = suanli_catalog_new ();

  g_string_replace (text, "\"accelerator\": \"test-gpu\"", "\"accelerator\": \"no-such-gpu\"", 1);
  read_text (text->str, items, problems, TRUE);
  suanli_catalog_add_items (catalog, items);
  suanli_catalog_check_references (catalog, problems);
  g_assert_cmpuint (problems->len, ==, 1);
  g_assert_nonnull (strstr (g_ptr_array_index (problems, 0), "test-box: the part “accelerator” names “no-such-gpu”"));
}

static gboolean
matches (SuanliItem *item,
         const char *query)
{
  g_auto(GStrv) terms = suanli_item_fold_query (query);

  return suanli_item_matches (item, (const char * const *) terms);
}

static void
test_search (void)
{
  g_autoptr(GPtrArray) items = g_ptr_array_new_with_free_func (g_object_unref);
  g_autoptr(GPtrArray) problems = g_ptr_array_new_with_free_func (g_free);
  SuanliItem *gpu;

  read_text (valid_catalog, items, problems, TRUE);
  gpu = g_ptr_array_index (items, 0);
  g_assert_true (matches (gpu, ""));
  g_assert_true (matches (gpu, "test gpu"));
  g_assert_true (matches (gpu, "ACME"));          /* vendor, any case */
  g_assert_true (matches (gpu, "tg9000"));        /* alias */
  g_assert_true (matches (gpu, "hopper"));        /* tag */
  g_assert_true (matches (gpu, "测试用"));         /* the Chinese summary */
  g_assert_true (matches (gpu, "acme\u3000加速器")); /* an ideographic space between terms */
  g_assert_false (matches (gpu, "acme amd"));     /* every term must match */
  g_assert_false (matches (g_ptr_array_index (items, 1), "hopper"));
}

static void
test_csv (void)
{
  g_autoptr(GPtrArray) items = g_ptr_array_new_with_free_func (g_object_unref);
  g_autoptr(GPtrArray) problems = g_ptr_array_new_with_free_func (g_free);
  g_autofree char *csv = NULL;
  g_auto(GStrv) lines = NULL;

  read_text (valid_catalog, items, problems, TRUE);
  suanli_item_set_summary (g_ptr_array_index (items, 0), "x", "x");
  csv = suanli_items_to_csv (items, SUANLI_ITEM_KIND_ACCELERATOR);
  lines = g_strsplit (csv, "\r\n", -1);
  /* A header naming each spec's unit, one row per accelerator (the system and technique are left
   * out), exact values in the stored unit, and an empty cell where a spec is missing. */
  g_assert_true (g_str_has_prefix (lines[0], "id,name,vendor,bf16_tflops (TFLOP/s),fp16_tflops (TFLOP/s),"));
  g_assert_nonnull (strstr (lines[0], "memory_bytes (B)"));
  g_assert_true (g_str_has_prefix (lines[1], "test-gpu,Test GPU 9000,Acme,989,,"));
  g_assert_nonnull (strstr (lines[1], ",150754820096,"));
  g_assert_cmpstr (lines[2], ==, "");
  g_assert_null (lines[3]);
}

static void
test_csv_quoting (void)
{
  g_autoptr(GPtrArray) items = g_ptr_array_new_with_free_func (g_object_unref);
  g_autofree char *csv = NULL;

  g_ptr_array_add (items, suanli_item_new (SUANLI_ITEM_KIND_TOOL, "t", "Acme, Inc.", "=HYPERLINK(\"x\")"));
  csv = suanli_items_to_csv (items, SUANLI_ITEM_KIND_TOOL);
  /* Commas and quotes are quoted; a cell a spreadsheet would run as a formula is defused. */
  g_assert_nonnull (strstr (csv, "t,\"'=HYPERLINK(\"\"x\"\")\",\"Acme, Inc.\","));
}

static void
test_quantities (void)
{
  g_autofree char *tflops = suanli_format_quantity (494.5, "TFLOP/s", SUANLI_MEMORY_UNITS_GB);
  g_autofree char *bandwidth = suanli_format_quantity (3.35, "TB/s", SUANLI_MEMORY_UNITS_GB);
  g_autofree char *memory = suanli_format_quantity (150754820096.0, "B", SUANLI_MEMORY_UNITS_GIB);
  g_autofree char *parameters = suanli_format_quantity (70e9, "count", SUANLI_MEMORY_UNITS_GB);
  g_autofree char *tokens = suanli_format_quantity (2e12, "tokens", SUANLI_MEMORY_UNITS_GB);
  g_autofree char *layers = suanli_format_quantity (80, "count", SUANLI_MEMORY_UNITS_GB);
  g_autofree char *percent = suanli_format_quantity (35, "%", SUANLI_MEMORY_UNITS_GB);
  g_autofree char *board_power = suanli_format_quantity (10200, "W", SUANLI_MEMORY_UNITS_GB);
  g_autofree char *rack_power = suanli_format_quantity (132000, "W", SUANLI_MEMORY_UNITS_GB);
  g_autofree char *price = suanli_format_quantity (2345678.25, "USD", SUANLI_MEMORY_UNITS_GB);
  g_autofree char *below = suanli_format_quantity (9999, "W", SUANLI_MEMORY_UNITS_GB);

  g_assert_cmpstr (tflops, ==, "494.5" S "TFLOP/s");
  g_assert_cmpstr (bandwidth, ==, "3.35" S "TB/s");
  g_assert_cmpstr (memory, ==, "140" S "GiB");
  g_assert_cmpstr (parameters, ==, "70.0 billion");
  g_assert_cmpstr (tokens, ==, "2.00 trillion tokens");
  g_assert_cmpstr (layers, ==, "80");
  g_assert_cmpstr (percent, ==, "35%");
  /* Grouped in threes from 10,000, never in %g's exponent form. */
  g_assert_cmpstr (board_power, ==, "10,200" S "W");
  g_assert_cmpstr (rack_power, ==, "132,000" S "W");
  g_assert_cmpstr (price, ==, "2,345,678" S "USD");
  g_assert_cmpstr (below, ==, "9999" S "W");
}

/* Chinese groups large numbers by 万 and 亿; exact sizes below a million stay exact (a feed-forward
 * of 28672 is never 2.87万). */
static void
test_quantities_chinese (void)
{
  if (g_test_subprocess ())
    {
      g_autofree char *parameters = NULL;
      g_autofree char *ffn = NULL;
      g_autofree char *intermediate = NULL;
      g_autofree char *resnet = NULL;

      g_setenv ("LANGUAGE", "zh_CN", TRUE);
      parameters = suanli_format_count (70e9);
      ffn = suanli_format_count (28672);
      intermediate = suanli_format_count (11008);
      resnet = suanli_format_count (25557032);
      g_assert_cmpstr (parameters, ==, "700亿");
      g_assert_cmpstr (ffn, ==, "28672");
      g_assert_cmpstr (intermediate, ==, "11008");
      g_assert_cmpstr (resnet, ==, "2556万");
      return;
    }
  g_test_trap_subprocess (NULL, 0, G_TEST_SUBPROCESS_DEFAULT);
  g_test_trap_assert_passed ();
}

/* Each key says how its values compare: a count of a topology, a node name or a year gives no
 * ratio, while throughput, bandwidth, capacity, power and price do; power and price rank lower
 * first; a model's shape is not ranked. */
static void
test_spec_compare (void)
{
  static const struct {
    SuanliItemKind    kind;
    const char       *key;
    SuanliSpecCompare compare;
  } expected[] = {
    { SUANLI_ITEM_KIND_ACCELERATOR, "bf16_tflops", SUANLI_SPEC_RANKED | SUANLI_SPEC_RATIO },
    { SUANLI_ITEM_KIND_ACCELERATOR, "memory_bandwidth", SUANLI_SPEC_RANKED | SUANLI_SPEC_RATIO },
    { SUANLI_ITEM_KIND_ACCELERATOR, "tdp", SUANLI_SPEC_RANKED | SUANLI_SPEC_LOWER_BETTER | SUANLI_SPEC_RATIO },
    { SUANLI_ITEM_KIND_ACCELERATOR, "scale_up_domain", SUANLI_SPEC_RANKED },
    { SUANLI_ITEM_KIND_ACCELERATOR, "process", SUANLI_SPEC_RANKED | SUANLI_SPEC_LOWER_BETTER },
    { SUANLI_ITEM_KIND_SYSTEM, "scale_up_domain", SUANLI_SPEC_RANKED },
    { SUANLI_ITEM_KIND_SYSTEM, "accelerators", 0 },
    { SUANLI_ITEM_KIND_CLOUD_INSTANCE, "price_per_hour", SUANLI_SPEC_RANKED | SUANLI_SPEC_LOWER_BETTER | SUANLI_SPEC_RATIO },
    { SUANLI_ITEM_KIND_LINK, "lanes", 0 },
    { SUANLI_ITEM_KIND_MODEL, "parameters", SUANLI_SPEC_RATIO },
    { SUANLI_ITEM_KIND_MODEL, "layers", 0 },
    { SUANLI_ITEM_KIND_TOOL, "first_release", 0 },
  };

  for (guint i = 0; i < G_N_ELEMENTS (expected); i++)
    {
      const SuanliSpecKey *key = suanli_item_kind_find_spec_key (expected[i].kind, expected[i].key);

      g_assert_nonnull (key);
      g_assert_cmpint (key->compare, ==, expected[i].compare);
    }
  /* No scale-up domain, wherever a kind has one, gives a ratio. */
  for (guint k = 0; k < SUANLI_N_ITEM_KINDS; k++)
    {
      const SuanliSpecKey *key = suanli_item_kind_find_spec_key (k, "scale_up_domain");

      g_assert_true (key == NULL || (key->compare & SUANLI_SPEC_RATIO) == 0);
    }
}

int
main (int argc, char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/catalog/read-valid", test_read_valid);
  g_test_add_func ("/catalog/json-round-trip", test_json_round_trip);
  g_test_add_func ("/catalog/bad-items", test_bad_items);
  g_test_add_func ("/catalog/bad-files", test_bad_files);
  g_test_add_func ("/catalog/merge-and-override", test_merge_and_override);
  g_test_add_func ("/catalog/dangling-part", test_dangling_part);
  g_test_add_func ("/catalog/search", test_search);
  g_test_add_func ("/catalog/csv", test_csv);
  g_test_add_func ("/catalog/csv-quoting", test_csv_quoting);
  g_test_add_func ("/catalog/quantities", test_quantities);
  g_test_add_func ("/catalog/quantities-chinese", test_quantities_chinese);
  g_test_add_func ("/catalog/spec-compare", test_spec_compare);

  return g_test_run ();
}
