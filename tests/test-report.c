/* test-report.c — `suanli-cli report` as a user runs it, its PDFs read back with poppler's tools
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>
#include <glib/gi18n.h>
#include <glib/gstdio.h>
#include <gio/gio.h>
#include <json-glib/json-glib.h>

#include "suanli-test-process.h"
#include "suanli-units.h"

typedef SuanliTestRun Run;
G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (Run, suanli_test_run_clear)

/* Runs @argv: "suanli-cli" first stands for the built one; anything else is found on PATH. */
static void
run (Run                *result,
     const char * const *argv)
{
  if (g_str_equal (argv[0], "suanli-cli"))
    suanli_test_run_cli (result, "en", argv + 1);
  else
    suanli_test_run (result, "en", argv);
}

/* A folder of its own for each test, and the files written into it. */
typedef struct
{
  char *directory;
} Fixture;

static void
fixture_set_up (Fixture       *fixture,
                gconstpointer  data)
{
  fixture->directory = g_dir_make_tmp ("suanli-report-XXXXXX", NULL);
  g_assert_nonnull (fixture->directory);
}

static void
fixture_tear_down (Fixture       *fixture,
                   gconstpointer  data)
{
  g_autoptr(GDir) dir = g_dir_open (fixture->directory, 0, NULL);
  const char *name;

  while ((name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *path = g_build_filename (fixture->directory, name, NULL);
      g_unlink (path);
    }
  g_rmdir (fixture->directory);
  g_free (fixture->directory);
}

static char *
write_file (Fixture    *fixture,
            const char *name,
            const char *contents)
{
  char *path = g_build_filename (fixture->directory, name, NULL);

  g_assert_true (g_file_set_contents (path, contents, -1, NULL));
  return path;
}

static guint
count_files (Fixture *fixture)
{
  g_autoptr(GDir) dir = g_dir_open (fixture->directory, 0, NULL);
  guint count = 0;

  while (g_dir_read_name (dir) != NULL)
    count++;
  return count;
}

static const char training_plan[] =
  "{\"schema\": \"suanli-plan/1\", \"name\": \"Seven B on 64\", \"model\": {\"preset\": \"llama-2-7b\"},"
  " \"system\": {\"accelerator\": \"nvidia-h100-sxm\", \"gpus_per_node\": 8, \"nodes\": 8},"
  " \"techniques\": {\"recompute\": \"full\"}, \"parallelism\": {\"zero_stage\": 1},"
  " \"assumptions\": {\"price_per_gpu_hour\": 2.5}}";

/* The estimate the CLI gives for @plan, as JSON. */
static JsonObject *
estimate_of (const char *plan)
{
  g_auto(Run) result = { 0 };
  g_autoptr(JsonParser) parser = json_parser_new ();

  run (&result, (const char *[]) { "suanli-cli", "plan", plan, "--json", NULL });
  g_assert_cmpint (result.status, ==, 0);
  g_assert_true (json_parser_load_from_data (parser, result.out, -1, NULL));
  return json_object_ref (json_node_get_object (json_parser_get_root (parser)));
}

/* The report's text, as pdftotext reads it (in reading order, lines kept). */
static char *
pdf_text (const char *pdf)
{
  g_auto(Run) result = { 0 };

  run (&result, (const char *[]) { "pdftotext", "-enc", "UTF-8", pdf, "-", NULL });
  g_assert_cmpint (result.status, ==, 0);
  return g_steal_pointer (&result.out);
}

static char *
pdf_info (const char *pdf)
{
  g_auto(Run) result = { 0 };

  run (&result, (const char *[]) { "pdfinfo", pdf, NULL });
  g_assert_cmpint (result.status, ==, 0);
  return g_steal_pointer (&result.out);
}

static guint
page_count (const char *info)
{
  const char *pages = strstr (info, "\nPages:");

  g_assert_nonnull (pages);
  return (guint) g_ascii_strtoull (pages + strlen ("\nPages:"), NULL, 10);
}

/* @text with narrow no-break spaces as plain ones: pdftotext gives them so. */
static char *
plain_spaces (const char *text)
{
  g_auto(GStrv) parts = g_strsplit (text, "\u202f", -1);

  return g_strjoinv (" ", parts);
}

static void
assert_contains (const char *haystack,
                 const char *needle)
{
  g_autofree char *plain_haystack = plain_spaces (haystack);
  g_autofree char *plain_needle = plain_spaces (needle);

  if (strstr (plain_haystack, plain_needle) == NULL)
    g_error ("“%s” not found in the report's text", needle);
}

/* Charts stay vectors: pdfimages lists no image at all. */
static void
assert_no_images (const char *pdf)
{
  g_auto(Run) result = { 0 };
  g_auto(GStrv) lines = NULL;

  run (&result, (const char *[]) { "pdfimages", "-list", pdf, NULL });
  g_assert_cmpint (result.status, ==, 0);
  lines = g_strsplit (g_strstrip (result.out), "\n", -1);
  g_assert_cmpuint (g_strv_length (lines), ==, 2);   /* the heading and its rule */
}

/* Every page rendered has ink on it above its footer: at least 0.2% of those pixels are dark. */
static void
assert_pages_not_blank (Fixture    *fixture,
                        const char *pdf,
                        guint       pages)
{
  for (guint page = 1; page <= pages; page++)
    {
      g_autofree char *number = g_strdup_printf ("%u", page);
      g_autofree char *root = g_build_filename (fixture->directory, "page", NULL);
      g_autofree char *image = g_strconcat (root, ".pgm", NULL);
      g_autofree char *contents = NULL;
      g_auto(Run) result = { 0 };
      gsize length, inked = 0, pixels;
      const char *data;
      int width, height, offset = 0;

      run (&result, (const char *[]) { "pdftoppm", "-gray", "-r", "30", "-f", number, "-l", number, "-singlefile", pdf,
                                       root, NULL });
      g_assert_cmpint (result.status, ==, 0);
      g_assert_true (g_file_get_contents (image, &contents, &length, NULL));
      g_assert_cmpint (sscanf (contents, "P5 %d %d 255%n", &width, &height, &offset), ==, 2);
      data = contents + offset + 1;
      pixels = (gsize) width * (gsize) height;
      g_assert_cmpuint (length, >=, (gsize) offset + 1 + pixels);
      pixels = (gsize) width * (gsize) (height * 9 / 10);   /* the footer is in the last tenth */
      for (gsize i = 0; i < pixels; i++)
        inked += (guchar) data[i] < 200;
      g_test_message ("page %u: %.2f%% inked", page, 100.0 * (double) inked / (double) pixels);
      g_assert_cmpuint (inked * 500, >=, pixels);
      g_unlink (image);
    }
}

static void
test_training (Fixture       *fixture,
               gconstpointer  data)
{
  g_autofree char *plan = write_file (fixture, "seven-b.suanli-plan", training_plan);
  g_autofree char *pdf = g_build_filename (fixture->directory, "seven-b.pdf", NULL);
  g_autoptr(JsonObject) estimate = estimate_of (plan);
  JsonObject *training = json_object_get_object_member (estimate, "training");
  JsonObject *memory = json_object_get_object_member (estimate, "memory");
  g_auto(Run) result = { 0 };
  g_autofree char *text = NULL;
  g_autofree char *info = NULL;

  /* It replaces a file of the owner's alone, and keeps it so. */
  g_assert_true (g_file_set_contents_full (pdf, "old", -1, G_FILE_SET_CONTENTS_NONE, 0600, NULL));
  run (&result, (const char *[]) { "suanli-cli", "report", plan, "-o", pdf, NULL });
  g_test_message ("%s%s", result.out, result.err);
  g_assert_cmpint (result.status, ==, 0);
  {
    GStatBuf mode;

    g_assert_cmpint (g_stat (pdf, &mode), ==, 0);
    g_assert_cmpint (mode.st_mode & 0777, ==, 0600);
  }

  /* Metadata, size and pages. */
  info = pdf_info (pdf);
  g_test_message ("%s", info);
  assert_contains (info, "Title:           Seven B on 64");
  assert_contains (info, "Subject:");
  assert_contains (info, "Author:");
  assert_contains (info, "Creator:         Suanli " PACKAGE_VERSION);
  assert_contains (info, "595.276 x 841.89 pts (A4)");
  g_assert_cmpuint (page_count (info), >=, 6);
  assert_no_images (pdf);
  assert_pages_not_blank (fixture, pdf, page_count (info));

  /* The key figures are those of `suanli-cli plan --json`, as the report prints them. */
  text = pdf_text (pdf);
  {
    g_autofree char *total = suanli_format_gib (json_object_get_double_member (memory, "total"));
    g_autofree char *days = suanli_format_days (json_object_get_double_member (training, "time_to_train_s"));
    g_autofree char *step = suanli_format_seconds (json_object_get_double_member (training, "step_time_s"));
    g_autofree char *mfu = g_strdup_printf ("%.1f%%", 100 * json_object_get_double_member (training, "mfu"));
    g_autofree char *energy = suanli_format_energy_kwh (json_object_get_double_member (training, "energy_kwh"));
    g_autofree char *hours = suanli_format_large (json_object_get_double_member (training, "gpu_hours"));
    g_autofree char *cost = g_strdup_printf ("%.0f USD", json_object_get_double_member (training, "cost"));
    g_autofree char *co2 = suanli_format_tonnes (json_object_get_double_member (training, "co2_t"));
    g_autofree char *fit = g_strdup_printf ("Fits: %s of ", total);

    g_test_message ("expecting %s, %s, %s, %s, %s, %s, %s, %s", total, days, step, mfu, energy, hours, cost, co2);
    g_assert_true (json_object_get_boolean_member (memory, "fits"));
    assert_contains (text, fit);
    assert_contains (text, days);
    assert_contains (text, step);
    assert_contains (text, mfu);
    assert_contains (text, energy);
    assert_contains (text, hours);
    assert_contains (text, cost);
    assert_contains (text, co2);
  }
  /* The articles' claims about the H100 cite each article by its title, never a file name. */
  assert_contains (text, "一、硬件选型");
  g_assert_null (strstr (text, "931a379b15de23e4"));
  g_assert_null (strstr (text, ".txt"));
  /* The items, their sources, the advice and the appendix's formulas. */
  assert_contains (text, "Meta Llama 2 7B");
  assert_contains (text, "NVIDIA H100 SXM");
  assert_contains (text, "NVIDIA H100 Tensor Core GPU");
  assert_contains (text, "Touvron et al.");
  assert_contains (text, "Korthikanti et al.");
  /* The appendix names each figure as the summary does, not by its key. */
  assert_contains (text, "step time = compute + exposed communication");
  g_assert_null (strstr (text, "training.step_time_s"));

  /* The outline: a bookmark per section, in order. */
  {
    g_auto(Run) html = { 0 };
    const char *summary, *system, *appendix;

    run (&html, (const char *[]) { "pdftohtml", "-xml", "-i", "-stdout", pdf, NULL });
    g_assert_cmpint (html.status, ==, 0);
    summary = strstr (html.out, ">Summary</item>");
    system = strstr (html.out, ">System</item>");
    appendix = strstr (html.out, ">Appendix: how each figure was worked out</item>");
    g_assert_nonnull (summary);
    g_assert_nonnull (system);
    g_assert_nonnull (appendix);
    g_assert_true (summary < system && system < appendix);
    g_assert_nonnull (strstr (html.out, ">Memory per GPU</item>"));
  }
}

static void
test_inference_and_letter (Fixture       *fixture,
                           gconstpointer  data)
{
  g_autofree char *plan = write_file (fixture, "serve.suanli-plan",
                                      "{\"schema\": \"suanli-plan/1\", \"name\": \"Serve 7B\", \"model\": {\"preset\": \"llama-2-7b\"},"
                                      " \"workload\": {\"mode\": \"inference\", \"prompt_tokens\": 1024, \"output_tokens\": 256,"
                                      " \"batch\": 8}, \"system\": {\"accelerator\": \"nvidia-h100-sxm\", \"gpus_per_node\": 1}}");
  g_autofree char *pdf = g_build_filename (fixture->directory, "serve.pdf", NULL);
  g_autoptr(JsonObject) estimate = estimate_of (plan);
  JsonObject *inference = json_object_get_object_member (estimate, "inference");
  g_autofree char *ttft = suanli_format_seconds (json_object_get_double_member (inference, "ttft_s"));
  g_autofree char *tpot = suanli_format_seconds (json_object_get_double_member (inference, "tpot_s"));
  g_auto(Run) result = { 0 };
  g_autofree char *text = NULL;
  g_autofree char *info = NULL;

  run (&result, (const char *[]) { "suanli-cli", "report", plan, "-o", pdf, "--paper", "letter", NULL });
  g_assert_cmpint (result.status, ==, 0);
  info = pdf_info (pdf);
  assert_contains (info, "612 x 792 pts (letter)");
  text = pdf_text (pdf);
  assert_contains (text, "Inference");
  assert_contains (text, "Time to first token");
  assert_contains (text, ttft);
  assert_contains (text, tpot);
  assert_no_images (pdf);
}

static void
test_does_not_fit (Fixture       *fixture,
                   gconstpointer  data)
{
  g_autofree char *plan = write_file (fixture, "tight.suanli-plan",
                                      "{\"schema\": \"suanli-plan/1\", \"name\": \"Too tight\", \"model\": {\"preset\": \"llama-2-7b\"},"
                                      " \"system\": {\"accelerator\": \"nvidia-h100-sxm\", \"gpus_per_node\": 8}}");
  g_autofree char *pdf = g_build_filename (fixture->directory, "tight.pdf", NULL);
  g_autoptr(JsonObject) estimate = estimate_of (plan);
  JsonObject *memory = json_object_get_object_member (estimate, "memory");
  g_autofree char *total = suanli_format_gib (json_object_get_double_member (memory, "total"));
  g_autofree char *capacity = suanli_format_gib (json_object_get_double_member (memory, "capacity"));
  g_autofree char *line = g_strdup_printf ("Does not fit: %s of %s per GPU", total, capacity);
  g_auto(Run) result = { 0 };
  g_autofree char *text = NULL;

  run (&result, (const char *[]) { "suanli-cli", "report", plan, "-o", pdf, NULL });
  g_assert_cmpint (result.status, ==, 0);
  text = pdf_text (pdf);
  assert_contains (text, line);
  assert_contains (text, "Fits:");   /* the advice says what to do, and what it leads to */
  assert_contains (text, "no price given");
}

/* A Kineto-form trace of rank 0 of @world_size on @device: two steps, each a launch and its GEMM
 * and an NCCL all-reduce. */
static char *
write_trace (Fixture    *fixture,
             const char *name,
             const char *device,
             guint       world_size)
{
  g_autoptr(GString) text = g_string_new (NULL);

  g_string_printf (text, "{\"schemaVersion\":1,\"deviceProperties\":[{\"id\":0,\"name\":\"%s\"}],"
                   "\"distributedInfo\":{\"rank\":0,\"world_size\":%u},\"traceEvents\":[\n", device, world_size);

  for (guint step = 0; step < 2; step++)
    {
      guint base = step * 1000;

      g_string_append_printf (text,
        "{\"ph\":\"X\",\"cat\":\"user_annotation\",\"name\":\"ProfilerStep#%u\",\"pid\":1,\"tid\":1,\"ts\":%u,\"dur\":900},\n"
        "{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"aten::mm\",\"pid\":1,\"tid\":1,\"ts\":%u,\"dur\":100},\n"
        "{\"ph\":\"X\",\"cat\":\"cuda_runtime\",\"name\":\"cudaLaunchKernel\",\"pid\":1,\"tid\":1,\"ts\":%u,\"dur\":5,"
        "\"args\":{\"correlation\":%u}},\n"
        "{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"sm90_xmma_gemm_bf16\",\"pid\":0,\"tid\":7,\"ts\":%u,\"dur\":500,"
        "\"args\":{\"correlation\":%u}},\n"
        "{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"ncclDevKernel_AllReduce_Sum_bf16_RING_LL\",\"pid\":0,\"tid\":13,"
        "\"ts\":%u,\"dur\":200},\n",
        step + 1, base, base + 10, base + 20, step + 1, base + 40, step + 1, base + 600);
    }
  g_string_append (text, "{\"ph\":\"i\",\"s\":\"g\",\"name\":\"end\",\"pid\":1,\"tid\":1,\"ts\":2000}]}\n");
  return write_file (fixture, name, text->str);
}

/* Makes the trace at @path name the plan @plan_name ("suanli.plan=…"), as a mark in place of its "end". */
static void
mark_trace (const char *path,
            const char *plan_name)
{
  g_autofree char *text = NULL;
  g_autofree char *mark = g_strdup_printf ("\"name\":\"suanli.plan=%s\"", plan_name);
  g_autoptr(GString) marked = NULL;

  g_assert_true (g_file_get_contents (path, &text, NULL, NULL));
  marked = g_string_new (text);
  g_assert_cmpuint (g_string_replace (marked, "\"name\":\"end\"", mark, 1), ==, 1);
  g_assert_true (g_file_set_contents (path, marked->str, (gssize) marked->len, NULL));
}

/* A trace on the plan's hardware is set against the plan when it names the plan; without the mark
 * (and without the plan listing it) it is not known to be of the plan's job: not compared. */
static void
test_with_trace (Fixture       *fixture,
                 gconstpointer  data)
{
  g_autofree char *plan = write_file (fixture, "seven-b.suanli-plan", training_plan);
  /* On the plan's hardware: 64 H100s. */
  g_autofree char *trace = write_trace (fixture, "rank0.json", "NVIDIA H100 80GB HBM3", 64);
  g_autofree char *pdf = g_build_filename (fixture->directory, "profiled.pdf", NULL);
  g_auto(Run) result = { 0 };
  g_autofree char *text = NULL;
  g_autofree char *info = NULL;

  {
    g_auto(Run) unmarked = { 0 };
    g_autofree char *unmarked_text = NULL;

    run (&unmarked, (const char *[]) { "suanli-cli", "report", plan, "--trace", trace, "-o", pdf, NULL });
    g_assert_cmpint (unmarked.status, ==, 0);
    unmarked_text = pdf_text (pdf);
    g_strdelimit (unmarked_text, "\n", ' ');   /* the sentence may wrap */
    assert_contains (unmarked_text, "Top kernels");
    assert_contains (unmarked_text, "not known to be of that plan's job");
    g_assert_null (strstr (unmarked_text, "Measured against planned"));
  }
  mark_trace (trace, "Seven B on 64");
  run (&result, (const char *[]) { "suanli-cli", "report", plan, "--trace", trace, "-o", pdf, NULL });
  g_test_message ("%s%s", result.out, result.err);
  g_assert_cmpint (result.status, ==, 0);
  text = pdf_text (pdf);
  assert_contains (text, "Profile: rank0.json");
  assert_contains (text, "Top kernels");
  assert_contains (text, "sm90_xmma_gemm_bf16");
  assert_contains (text, "Measured against planned");
  assert_contains (text, "Difference");
  assert_contains (text, "Flame graph: GPU time by launching stack");
  assert_contains (text, "Timeline");
  /* The flame graph and the timeline are drawn as vectors too. */
  assert_no_images (pdf);
  info = pdf_info (pdf);
  assert_pages_not_blank (fixture, pdf, page_count (info));
}

/* A trace of another job (one V100, or eight H100s where the plan has 64) is shown, but not set
 * against the plan: the PDF says what each ran on instead of an MFU of thousands of percent. */
static void
test_trace_of_another_job (Fixture       *fixture,
                           gconstpointer  data)
{
  g_autofree char *plan = write_file (fixture, "seven-b.suanli-plan", training_plan);
  g_autofree char *v100 = write_trace (fixture, "v100.json", "Tesla V100-SXM2-32GB", 1);
  g_autofree char *eight = write_trace (fixture, "eight.json", "NVIDIA H100 80GB HBM3", 8);
  const char *traces[] = { v100, eight };
  const char *ran_on[] = { "1 × Tesla V100-SXM2-32GB", "8 × NVIDIA H100 80GB HBM3" };

  for (guint i = 0; i < G_N_ELEMENTS (traces); i++)
    {
      g_autofree char *pdf = g_build_filename (fixture->directory, "other-job.pdf", NULL);
      g_autofree char *said = g_strdup_printf ("This trace ran on %s", ran_on[i]);
      g_auto(Run) result = { 0 };
      g_autofree char *text = NULL;

      run (&result, (const char *[]) { "suanli-cli", "report", plan, "--trace", traces[i], "-o", pdf, NULL });
      g_test_message ("%s%s", result.out, result.err);
      g_assert_cmpint (result.status, ==, 0);
      text = pdf_text (pdf);
      g_strdelimit (text, "\n", ' ');   /* the sentence may wrap */
      assert_contains (text, "Top kernels");
      assert_contains (text, said);
      assert_contains (text, "the plan “Seven B on 64” is for 64 × H100 SXM");
      g_assert_null (strstr (text, "Measured against planned"));
      /* Nothing of the comparison's table: its header, a measured figure. */
      g_assert_null (strstr (text, "Difference"));
      g_assert_null (strstr (text, "Measured"));
      g_assert_null (strstr (text, "Over 100% MFU"));
    }
}

static void
test_chinese (Fixture       *fixture,
              gconstpointer  data)
{
  g_autofree char *plan = write_file (fixture, "seven-b.suanli-plan", training_plan);
  g_autofree char *pdf = g_build_filename (fixture->directory, "zh.pdf", NULL);
  g_auto(Run) result = { 0 };
  g_auto(Run) fonts = { 0 };
  g_autofree char *text = NULL;

  run (&result, (const char *[]) { "suanli-cli", "report", plan, "-o", pdf, "--lang", "zh_CN", NULL });
  g_test_message ("%s%s", result.out, result.err);
  g_assert_cmpint (result.status, ==, 0);
  /* The headings are real text that comes out again, in a Chinese font, not boxes. */
  text = pdf_text (pdf);
  assert_contains (text, "摘要");
  assert_contains (text, "系统");
  assert_contains (text, "作业与假设");
  assert_contains (text, "附录：每个数字是怎样算出来的");
  g_assert_null (strstr (result.err, "fonts-noto-cjk"));
  run (&fonts, (const char *[]) { "pdffonts", pdf, NULL });
  g_test_message ("%s", fonts.out);
  assert_contains (fonts.out, "CJKsc");
}

/* The report is clean (issue 33): a serving plan shows requests/s and cost and energy per million
 * tokens, never an MFU of 0 or a cost of 0 with a price set; a training plan with its optimizer
 * offloaded shows ranges, no "Assumed" for a computed figure, no internal key as a heading, no file
 * of the project as a source, and no product that comes out 0 B; in English and in Chinese. */
static void
test_clean (Fixture       *fixture,
            gconstpointer  data)
{
  static const char serving[] =
    "{\"schema\": \"suanli-plan/1\", \"model\": {\"preset\": \"llama-2-70b\"},"
    " \"workload\": {\"mode\": \"inference\", \"prompt_tokens\": 2048, \"batch\": 8},"
    " \"parallelism\": {\"tensor\": 8},"
    " \"system\": {\"accelerator\": \"nvidia-h100-sxm\", \"gpus_per_node\": 8},"
    " \"assumptions\": {\"price_per_gpu_hour\": 3}}";
  static const char offloaded[] =
    "{\"schema\": \"suanli-plan/1\", \"model\": {\"preset\": \"llama-2-7b\"},"
    " \"parallelism\": {\"zero_stage\": 2, \"offload\": \"optimizer\"},"
    " \"system\": {\"accelerator\": \"nvidia-h100-sxm\", \"gpus_per_node\": 8},"
    " \"assumptions\": {\"price_per_gpu_hour\": 3}}";
  const char *languages[] = { "en", "zh_CN" };

  for (guint l = 0; l < G_N_ELEMENTS (languages); l++)
    for (int which = 0; which < 2; which++)
      {
        g_autofree char *plan = write_file (fixture, which == 0 ? "serving.suanli-plan" : "offloaded.suanli-plan",
                                            which == 0 ? serving : offloaded);
        g_autofree char *pdf = g_build_filename (fixture->directory, "clean.pdf", NULL);
        g_auto(Run) result = { 0 };
        g_autofree char *text = NULL;

        run (&result, (const char *[]) { "suanli-cli", "report", plan, "-o", pdf, "--lang", languages[l], NULL });
        g_assert_cmpint (result.status, ==, 0);
        text = pdf_text (pdf);
        g_strdelimit (text, "\n", ' ');
        for (const char *key = text; (key = strstr (key, "memory.")) != NULL; key++)
          g_error ("an internal key in the %s report: %.40s", languages[l], key);
        g_assert_null (strstr (text, "training."));
        g_assert_null (strstr (text, "inference."));
        g_assert_null (strstr (text, ".c)"));
        g_assert_null (strstr (text, "Assumed MFU"));
        g_assert_null (strstr (text, " 0.0%"));
        g_assert_null (strstr (text, " 0 USD"));
        g_assert_null (strstr (text, " 0 kWh"));
        /* A product of nonzero figures that comes out 0 B: "12 × 8.819 × 10⁹ = 0 B". */
        g_assert_false (g_regex_match_simple ("× [0-9.]+ × 10[⁰¹²³⁴⁵⁶⁷⁸⁹]+( ÷ d)? *= 0 B", text, 0, 0));
        if (which == 0)
          {
            assert_contains (text, l == 0 ? "Requests per second" : "每秒请求数");
            assert_contains (text, l == 0 ? "Cost per million tokens" : "每百万词元成本");
            assert_contains (text, l == 0 ? "Energy per million tokens" : "每百万词元能耗");
            g_assert_null (strstr (text, "MFU"));
          }
        else
          {
            assert_contains (text, l == 0 ? "modelled from published runs" : "由已发表训练建模");
            assert_contains (text, "–");
          }
      }
}

/* With fontconfig shown only Latin fonts, a Chinese report says plainly that its Chinese prints as
 * boxes, on stderr and in the PDF, instead of printing boxes without a word. */
static void
test_no_cjk_font (Fixture       *fixture,
                  gconstpointer  data)
{
  g_autofree char *plan = write_file (fixture, "seven-b.suanli-plan", training_plan);
  g_autofree char *pdf = g_build_filename (fixture->directory, "boxes.pdf", NULL);
  g_autofree char *cache = g_build_filename (fixture->directory, "fontconfig-cache", NULL);
  g_autofree char *config_text = g_strdup_printf ("<?xml version=\"1.0\"?>\n<fontconfig>\n"
                                                  "  <dir>/usr/share/fonts/truetype/dejavu</dir>\n"
                                                  "  <cachedir>%s</cachedir>\n</fontconfig>\n", cache);
  g_autofree char *config = write_file (fixture, "fonts.conf", config_text);
  g_auto(Run) result = { 0 };
  g_autofree char *text = NULL;

  if (!g_file_test ("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf", G_FILE_TEST_EXISTS))
    {
      g_test_skip ("DejaVu Sans is not in /usr/share/fonts/truetype/dejavu (fonts-dejavu-core): skipped");
      return;
    }
  g_setenv ("FONTCONFIG_FILE", config, TRUE);
  run (&result, (const char *[]) { "suanli-cli", "report", plan, "-o", pdf, "--lang", "zh_CN", NULL });
  g_unsetenv ("FONTCONFIG_FILE");
  g_test_message ("%s", result.err);
  g_assert_cmpint (result.status, ==, 0);
  assert_contains (result.err, "fonts-noto-cjk");
  text = pdf_text (pdf);
  assert_contains (text, "fonts-noto-cjk");
  {
    /* The cache fontconfig made for this run goes with the fixture's folder. */
    g_autoptr(GDir) dir = g_dir_open (cache, 0, NULL);
    const char *name;

    while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
      {
        g_autofree char *path = g_build_filename (cache, name, NULL);
        g_unlink (path);
      }
    g_rmdir (cache);
  }
}

static void
test_bad_inputs (Fixture       *fixture,
                 gconstpointer  data)
{
  g_autofree char *good = write_file (fixture, "good.suanli-plan", training_plan);
  g_autofree char *bad = write_file (fixture, "bad.suanli-plan",
                                     "{\"schema\": \"suanli-plan/1\", \"model\": {\"preset\": \"no-such-model\"},"
                                     " \"system\": {\"accelerator\": \"nvidia-h100-sxm\"}}");
  g_autofree char *broken_trace = write_file (fixture, "broken.json", "{\"traceEvents\": [{\"ph\": \"X\", \"ts\": ]}");
  g_autofree char *kept = write_file (fixture, "kept.pdf", "an earlier report");
  g_autofree char *missing_trace = g_build_filename (fixture->directory, "missing.json", NULL);
  guint files = count_files (fixture);

  /* An invalid plan: exit 2, its field errors, and the earlier file left as it was. */
  {
    g_auto(Run) result = { 0 };
    g_autofree char *contents = NULL;

    run (&result, (const char *[]) { "suanli-cli", "report", bad, "-o", kept, NULL });
    g_test_message ("%s", result.err);
    g_assert_cmpint (result.status, ==, 2);
    assert_contains (result.err, "model.preset");
    g_assert_true (g_file_get_contents (kept, &contents, NULL, NULL));
    g_assert_cmpstr (contents, ==, "an earlier report");
  }
  /* A folder that is not there: exit 1, and the path in the message. */
  {
    g_auto(Run) result = { 0 };

    run (&result, (const char *[]) { "suanli-cli", "report", good, "-o", "/nonexistent-folder/report.pdf", NULL });
    g_test_message ("%s", result.err);
    g_assert_cmpint (result.status, ==, 1);
    assert_contains (result.err, "/nonexistent-folder/report.pdf");
  }
  /* A trace that is not there (1), or not a trace (2, and where). */
  {
    g_auto(Run) missing = { 0 };
    g_auto(Run) broken = { 0 };

    run (&missing, (const char *[]) { "suanli-cli", "report", good, "--trace", missing_trace, "-o", kept, NULL });
    g_assert_cmpint (missing.status, ==, 1);
    assert_contains (missing.err, "missing.json");
    run (&broken, (const char *[]) { "suanli-cli", "report", good, "--trace", broken_trace, "-o", kept, NULL });
    g_test_message ("%s", broken.err);
    g_assert_cmpint (broken.status, ==, 2);
    assert_contains (broken.err, "broken.json");
  }
  /* An unknown paper size or language is a usage error. */
  {
    g_auto(Run) paper = { 0 };
    g_auto(Run) language = { 0 };

    run (&paper, (const char *[]) { "suanli-cli", "report", good, "-o", kept, "--paper", "a3", NULL });
    g_assert_cmpint (paper.status, ==, 1);
    run (&language, (const char *[]) { "suanli-cli", "report", good, "-o", kept, "--lang", "fr", NULL });
    g_assert_cmpint (language.status, ==, 1);
  }
  /* Nothing new in the folder: no partial PDF, no temporary file. */
  g_assert_cmpuint (count_files (fixture), ==, files);
  {
    g_autofree char *contents = NULL;

    g_assert_true (g_file_get_contents (kept, &contents, NULL, NULL));
    g_assert_cmpstr (contents, ==, "an earlier report");
  }
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add ("/report/training", Fixture, NULL, fixture_set_up, test_training, fixture_tear_down);
  g_test_add ("/report/inference-and-letter", Fixture, NULL, fixture_set_up, test_inference_and_letter, fixture_tear_down);
  g_test_add ("/report/does-not-fit", Fixture, NULL, fixture_set_up, test_does_not_fit, fixture_tear_down);
  g_test_add ("/report/with-trace", Fixture, NULL, fixture_set_up, test_with_trace, fixture_tear_down);
  g_test_add ("/report/trace-of-another-job", Fixture, NULL, fixture_set_up, test_trace_of_another_job, fixture_tear_down);
  g_test_add ("/report/chinese", Fixture, NULL, fixture_set_up, test_chinese, fixture_tear_down);
  g_test_add ("/report/clean", Fixture, NULL, fixture_set_up, test_clean, fixture_tear_down);
  g_test_add ("/report/no-cjk-font", Fixture, NULL, fixture_set_up, test_no_cjk_font, fixture_tear_down);
  g_test_add ("/report/bad-inputs", Fixture, NULL, fixture_set_up, test_bad_inputs, fixture_tear_down);
  return g_test_run ();
}
