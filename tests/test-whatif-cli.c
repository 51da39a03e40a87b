/* test-whatif-cli.c — `suanli-cli trace whatif` as a user runs it, on the real Kineto fixtures: its
 * projection, its JSON and its errors
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <math.h>
#include <string.h>
#include <glib/gstdio.h>
#include <json-glib/json-glib.h>

#include "suanli-test-fixtures.h"
#include "suanli-test-process.h"

typedef SuanliTestRun Run;
G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (Run, suanli_test_run_clear)

#define A100_TRACE "critical_path__simple_add__trace.json.gz"     /* 8 × A100, names its device */
#define SAMPLED    "timeline_analysis__sampled_rank-0.json.gz"    /* names no device */

/* Runs `trace whatif` with @args (after the file) and reads its JSON. */
static JsonObject *
run_json (const char         *path,
          const char * const *args,
          JsonParser        **parser)
{
  const char *argv[16] = { "trace", "whatif", path, "--json" };
  g_auto(Run) run = { 0 };
  g_autoptr(GError) error = NULL;
  guint n = 4;
  JsonObject *root;

  for (guint i = 0; args[i] != NULL; i++)
    argv[n++] = args[i];
  argv[n] = NULL;
  suanli_test_run_cli (&run, "", argv);
  g_assert_cmpint (run.status, ==, 0);
  *parser = json_parser_new ();
  g_assert_true (json_parser_load_from_data (*parser, run.out, -1, &error));
  g_assert_no_error (error);
  root = json_node_get_object (json_parser_get_root (*parser));
  g_assert_cmpstr (json_object_get_string_member (root, "schema"), ==, "suanli-whatif/1");
  return root;
}

static gint64
class_ns (JsonObject *root,
          const char *name,
          const char *member)
{
  JsonArray *classes = json_object_get_array_member (root, "classes");

  for (guint i = 0; i < json_array_get_length (classes); i++)
    {
      JsonObject *entry = json_array_get_object_element (classes, i);

      if (g_str_equal (json_object_get_string_member (entry, "class"), name))
        return json_object_get_int_member (entry, member);
    }
  g_assert_not_reached ();
}

/* The A100 trace projected onto an H100: its GPU work faster, its step no slower; the device
 * read from the trace; each kernel with its factor and reason. */
static void
test_h100_projection (void)
{
  g_autofree char *path = suanli_test_fixture_path (A100_TRACE);
  g_autoptr(JsonParser) parser = NULL;
  JsonObject *root, *measured_on;
  JsonArray *kernels;

  root = run_json (path, (const char *[]) { "--accelerator", "nvidia-h100-sxm", NULL }, &parser);
  measured_on = json_object_get_object_member (root, "measured_on");
  g_assert_true (g_str_has_prefix (json_object_get_string_member (measured_on, "id"), "nvidia-a100"));
  g_assert_cmpstr (json_object_get_string_member (measured_on, "from"), ==, "trace");
  g_assert_cmpstr (json_object_get_string_member (measured_on, "device"), ==, "NVIDIA A100-PG509-200");
  g_assert_cmpint (json_object_get_int_member (root, "replayed_ns"), ==, json_object_get_int_member (root, "measured_ns"));
  g_assert_cmpint (json_object_get_int_member (root, "projected_ns"), <=, json_object_get_int_member (root, "measured_ns"));
  g_assert_cmpint (class_ns (root, "compute", "projected_ns"), <, class_ns (root, "compute", "measured_ns"));
  g_assert_cmpint (class_ns (root, "memory", "projected_ns"), <, class_ns (root, "memory", "measured_ns"));
  /* The classes are shares of the step: the host's (the GPU waiting) grows as the GPU gets faster. */
  g_assert_cmpint (class_ns (root, "host", "projected_ns"), >=, class_ns (root, "host", "measured_ns"));
  g_assert_cmpint (class_ns (root, "compute", "projected_ns") + class_ns (root, "memory", "projected_ns") +
                   class_ns (root, "communication", "projected_ns") + class_ns (root, "host", "projected_ns"), <=,
                   json_object_get_int_member (root, "projected_ns"));
  kernels = json_object_get_array_member (root, "kernels");
  g_assert_cmpuint (json_array_get_length (kernels), >, 0);
  for (guint i = 0; i < json_array_get_length (kernels); i++)
    {
      JsonObject *kernel = json_array_get_object_element (kernels, i);
      const char *name = json_object_get_string_member (kernel, "name");

      g_assert_cmpstr (json_object_get_string_member (kernel, "reason"), !=, "");
      if (g_str_equal (name, "ampere_sgemm_32x32_sliced1x4_tn"))
        {
          /* FP32 on both: 19.5 → 67 TFLOP/s. */
          g_assert_cmpstr (json_object_get_string_member (kernel, "class"), ==, "compute");
          g_assert_cmpfloat_with_epsilon (json_object_get_double_member (kernel, "factor"), 19.5 / 67, 1e-3);
        }
    }
}

/* Overlapping communication never makes a step slower; neither does removing host gaps, which on
 * this host-bound trace makes it faster. */
static void
test_what_ifs_never_slower (void)
{
  g_autofree char *path = suanli_test_fixture_path (A100_TRACE);
  g_autoptr(JsonParser) plain_parser = NULL;
  g_autoptr(JsonParser) overlap_parser = NULL;
  g_autoptr(JsonParser) gaps_parser = NULL;
  JsonObject *plain, *overlap, *gaps;

  plain = run_json (path, (const char *[]) { "--accelerator", "nvidia-h100-sxm", NULL }, &plain_parser);
  overlap = run_json (path, (const char *[]) { "--accelerator", "nvidia-h100-sxm", "--overlap-comm", NULL }, &overlap_parser);
  gaps = run_json (path, (const char *[]) { "--accelerator", "nvidia-h100-sxm", "--no-host-gaps", NULL }, &gaps_parser);
  g_assert_cmpint (json_object_get_int_member (overlap, "projected_ns"), <=, json_object_get_int_member (plain, "projected_ns"));
  g_assert_cmpint (json_object_get_int_member (gaps, "projected_ns"), <, json_object_get_int_member (plain, "projected_ns"));
  g_assert_true (json_object_get_boolean_member (json_object_get_object_member (overlap, "options"), "overlap_comm"));
}

/* The sampled trace names no device: --from gives it; communication is resized for more GPUs. */
static void
test_from_and_gpus (void)
{
  g_autofree char *path = suanli_test_fixture_path (SAMPLED);
  g_autoptr(JsonParser) parser = NULL;
  g_auto(Run) missing = { 0 };
  JsonObject *root;

  suanli_test_run_cli (&missing, "", (const char *[]) { "trace", "whatif", path, "--accelerator", "nvidia-h100-sxm", NULL });
  g_assert_cmpint (missing.status, ==, 2);
  g_assert_nonnull (strstr (missing.err, "--from"));
  g_assert_nonnull (strstr (missing.err, SAMPLED));
  g_assert_cmpstr (missing.out, ==, "");

  root = run_json (path, (const char *[]) { "--accelerator", "nvidia-h100-sxm", "--from", "nvidia-a100-80gb-sxm", "--gpus",
                                            "256", NULL },
                   &parser);
  g_assert_cmpstr (json_object_get_string_member (json_object_get_object_member (root, "measured_on"), "from"), ==, "option");
  g_assert_cmpint (json_object_get_int_member (root, "steps"), ==, 2);
  g_assert_cmpint (class_ns (root, "communication", "projected_ns"), <, class_ns (root, "communication", "measured_ns"));
}

/* Errors name what is wrong: an unknown accelerator (exit 2), a malformed option (exit 1). */
static void
test_errors (void)
{
  g_autofree char *path = suanli_test_fixture_path (A100_TRACE);
  g_auto(Run) unknown = { 0 };
  g_auto(Run) faster = { 0 };
  g_auto(Run) precision = { 0 };
  g_auto(Run) absent = { 0 };

  suanli_test_run_cli (&unknown, "", (const char *[]) { "trace", "whatif", path, "--accelerator", "no-such-gpu", NULL });
  g_assert_cmpint (unknown.status, ==, 2);
  g_assert_nonnull (strstr (unknown.err, "--accelerator"));
  g_assert_nonnull (strstr (unknown.err, "no-such-gpu"));
  g_assert_cmpstr (unknown.out, ==, "");

  suanli_test_run_cli (&faster, "", (const char *[]) { "trace", "whatif", path, "--accelerator", "nvidia-h100-sxm", "--faster",
                                                       "gemm", NULL });
  g_assert_cmpint (faster.status, ==, 1);
  g_assert_nonnull (strstr (faster.err, "--faster"));

  {
    g_auto(Run) zero = { 0 };

    suanli_test_run_cli (&zero, "", (const char *[]) { "trace", "whatif", path, "--accelerator", "nvidia-h100-sxm", "--gpus",
                                                       "0", NULL });
    g_assert_cmpint (zero.status, ==, 1);
    g_assert_nonnull (strstr (zero.err, "--gpus"));
  }
  /* At most SUANLI_WHATIF_MAX_GPUS (2²⁰): 2147483647 was taken. */
  {
    g_auto(Run) huge = { 0 };
    g_auto(Run) most = { 0 };

    suanli_test_run_cli (&huge, "", (const char *[]) { "trace", "whatif", path, "--accelerator", "nvidia-h100-sxm", "--gpus",
                                                       "2147483647", NULL });
    g_assert_cmpint (huge.status, ==, 1);
    g_assert_nonnull (strstr (huge.err, "--gpus: 2147483647 is not a GPU count (1 to 1048576)"));
    suanli_test_run_cli (&most, "", (const char *[]) { "trace", "whatif", path, "--accelerator", "nvidia-h100-sxm", "--gpus",
                                                       "1048576", "--json", NULL });
    g_assert_cmpint (most.status, ==, 0);
    g_assert_nonnull (strstr (most.out, "\"gpus\" : 1048576"));
  }

  /* Factors outside 0.001 … 10⁶ (1e-300 overflowed a duration). */
  for (guint i = 0; i < 2; i++)
    {
      g_auto(Run) bound = { 0 };

      suanli_test_run_cli (&bound, "", (const char *[]) { "trace", "whatif", path, "--accelerator", "nvidia-h100-sxm",
                                                          "--faster", i == 0 ? "sgemm=1e-300" : "sgemm=1e7", NULL });
      g_assert_cmpint (bound.status, ==, 1);
      g_assert_nonnull (strstr (bound.err, "--faster"));
      g_assert_nonnull (strstr (bound.err, "from 0.001 to 1e+06"));
    }

  suanli_test_run_cli (&precision, "", (const char *[]) { "trace", "whatif", path, "--accelerator", "nvidia-h100-sxm",
                                                          "--precision", "fp4", NULL });
  g_assert_cmpint (precision.status, ==, 1);
  g_assert_nonnull (strstr (precision.err, "fp4"));

  suanli_test_run_cli (&absent, "", (const char *[]) { "trace", "whatif", "/nonexistent/trace.json", "--accelerator",
                                                       "nvidia-h100-sxm", NULL });
  g_assert_cmpint (absent.status, !=, 0);
  g_assert_nonnull (strstr (absent.err, "/nonexistent/trace.json"));
}

/* Numbers json-glib 1.6 wrote as "1e+18.0" (a step of 10¹⁸ FLOPs): the output parses, and the
 * value is read back within a relative 1e-15. */
static void
test_json_numbers (void)
{
  static const char trace[] =
    "{\"schemaVersion\": 1, \"deviceProperties\": [{\"id\": 0, \"name\": \"NVIDIA A100-SXM4-80GB\"}],\n"
    " \"traceEvents\": [\n"
    "  {\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"aten::mm\", \"pid\": 1, \"tid\": 1, \"ts\": 5, \"dur\": 12,\n"
    "   \"args\": {\"flops\": 1e18}},\n"
    "  {\"ph\": \"X\", \"cat\": \"cuda_runtime\", \"name\": \"cudaLaunchKernel\", \"pid\": 1, \"tid\": 1, \"ts\": 10,\n"
    "   \"dur\": 5, \"args\": {\"correlation\": 1}},\n"
    "  {\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"ampere_sgemm_128x64_nn\", \"pid\": 0, \"tid\": 7, \"ts\": 20,\n"
    "   \"dur\": 500, \"args\": {\"correlation\": 1, \"stream\": 7, \"device\": 0}}]}\n";
  g_autofree char *directory = g_dir_make_tmp ("suanli-whatif-cli-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (directory, "flops.json", NULL);
  g_autoptr(JsonParser) parser = NULL;
  JsonObject *root;
  double flops;

  g_assert_true (g_file_set_contents (path, trace, -1, NULL));
  root = run_json (path, (const char *[]) { "--accelerator", "nvidia-h100-sxm", NULL }, &parser);
  flops = json_object_get_double_member (root, "flops_per_step");
  g_assert_cmpfloat (fabs (flops - 1e18), <=, 1e3);
  g_unlink (path);
  g_rmdir (directory);
}

/* A CPU-only trace needs no --from: nothing is projected, its host work is replayed, and no note
 * speaks of communication overlapped. The MI250 trace's two steps (9.3 ms, 49 µs) get a note. */
static void
test_cpu_only_and_steps (void)
{
  g_autofree char *cpu = suanli_test_fixture_path ("cpu_only__rank-34.Jul_15_10_52_41.1074.pt.trace.json.gz");
  g_autofree char *mi250 = suanli_test_fixture_path ("amd_trace__mi250_minitoy_train_ROCm6_2_kineto.json.gz");
  g_autoptr(JsonParser) parser = NULL, mi250_parser = NULL;
  JsonObject *root;
  JsonArray *notes;
  gboolean said = FALSE;

  root = run_json (cpu, (const char *[]) { "--accelerator", "nvidia-h100-sxm", "--overlap-comm", NULL }, &parser);
  g_assert_cmpstr (json_object_get_string_member (json_object_get_object_member (root, "measured_on"), "from"), ==, "none");
  g_assert_cmpint (json_object_get_int_member (root, "replayed_ns"), ==, json_object_get_int_member (root, "measured_ns"));
  g_assert_cmpint (json_object_get_int_member (root, "projected_ns"), ==, json_object_get_int_member (root, "measured_ns"));
  notes = json_object_get_array_member (root, "notes");
  for (guint i = 0; i < json_array_get_length (notes); i++)
    g_assert_null (strstr (json_array_get_string_element (notes, i), "Communication fully overlapped"));

  root = run_json (mi250, (const char *[]) { "--accelerator", "nvidia-h100-sxm", "--from", "amd-mi250x", NULL }, &mi250_parser);
  notes = json_object_get_array_member (root, "notes");
  for (guint i = 0; i < json_array_get_length (notes); i++)
    said |= g_str_has_prefix (json_array_get_string_element (notes, i), "The measured steps differ by more than 2×");
  g_assert_true (said);
}

/* The reason given for the first communication kernel of @root's projection. */
static const char *
communication_reason (JsonObject *root)
{
  JsonArray *kernels = json_object_get_array_member (root, "kernels");

  for (guint i = 0; i < json_array_get_length (kernels); i++)
    {
      JsonObject *kernel = json_array_get_object_element (kernels, i);

      if (g_str_equal (json_object_get_string_member (kernel, "class"), "communication"))
        return json_object_get_string_member (kernel, "reason");
    }
  g_error ("no communication kernel in the projection");
  return NULL;
}

/* An A100's all-reduce over 8 GPUs onto an Ascend 910B, whose seven HCCS links are counted together
 * as the A100's twelve NVLinks are: the collective's reason gives both catalog notes and 300 → 196
 * GB/s. Onto H200 NVL, whose 4-way bridge joins fewer than the job's 8 GPUs, the all-reduce crosses
 * PCIe 5.0 x16: 300 → 63 GB/s, and the reason says why. */
static void
test_link_notes (void)
{
  static const char trace[] =
    "{\"schemaVersion\": 1, \"deviceProperties\": [{\"id\": 0, \"name\": \"NVIDIA A100-SXM4-80GB\"}],\n"
    " \"distributedInfo\": {\"backend\": \"nccl\", \"rank\": 0, \"world_size\": 8},\n"
    " \"traceEvents\": [\n"
    "  {\"ph\": \"X\", \"cat\": \"cuda_runtime\", \"name\": \"cudaLaunchKernel\", \"pid\": 1, \"tid\": 1, \"ts\": 10,\n"
    "   \"dur\": 5, \"args\": {\"correlation\": 1}},\n"
    "  {\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"ncclDevKernel_AllReduce_Sum_bf16_RING_LL(ncclDevComm*)\", \"pid\": 0,\n"
    "   \"tid\": 7, \"ts\": 20, \"dur\": 500, \"args\": {\"correlation\": 1, \"stream\": 7, \"device\": 0}}]}\n";
  g_autofree char *directory = g_dir_make_tmp ("suanli-whatif-cli-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (directory, "allreduce.json", NULL);
  g_autoptr(JsonParser) parser = NULL;
  g_autoptr(JsonParser) bridged_parser = NULL;
  const char *reason;

  g_assert_true (g_file_set_contents (path, trace, -1, NULL));
  reason = communication_reason (run_json (path, (const char *[]) { "--accelerator", "huawei-ascend-910b", NULL },
                                           &parser));
  g_assert_nonnull (strstr (reason, "the catalog's notes: "));
  g_assert_nonnull (strstr (reason, "“NVLink 3: 12 links"));
  g_assert_nonnull (strstr (reason, "Ascend 910B: “All seven HCCS links"));
  g_assert_nonnull (strstr (reason, "link 300 → 196 GB/s"));

  reason = communication_reason (run_json (path, (const char *[]) { "--accelerator", "nvidia-h200-nvl", NULL },
                                           &bridged_parser));
  g_assert_nonnull (strstr (reason, "link 300 → 63 GB/s"));
  g_assert_nonnull (strstr (reason, "8 GPUs span more than H200 NVL's scale-up domain of 4: its host link"));
  g_unlink (path);
  g_rmdir (directory);
}

/* The text: the three step times, the classes, a kernel's reason, the notes. */
static void
test_text (void)
{
  g_autofree char *path = suanli_test_fixture_path (A100_TRACE);
  g_auto(Run) run = { 0 };

  suanli_test_run_cli (&run, "", (const char *[]) { "trace", "whatif", path, "--accelerator", "nvidia-h100-sxm", "--faster",
                                                    "sgemm=2", NULL });
  g_assert_cmpint (run.status, ==, 0);
  g_assert_nonnull (strstr (run.out, "Measured on A100"));
  g_assert_nonnull (strstr (run.out, "Projected onto H100 SXM"));
  g_assert_nonnull (strstr (run.out, "replayed"));
  g_assert_nonnull (strstr (run.out, "compute-bound"));
  g_assert_nonnull (strstr (run.out, "2× faster (“sgemm”)"));
  g_assert_nonnull (strstr (run.out, "Notes:"));
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/whatif-cli/h100-projection", test_h100_projection);
  g_test_add_func ("/whatif-cli/what-ifs-never-slower", test_what_ifs_never_slower);
  g_test_add_func ("/whatif-cli/from-and-gpus", test_from_and_gpus);
  g_test_add_func ("/whatif-cli/errors", test_errors);
  g_test_add_func ("/whatif-cli/text", test_text);
  g_test_add_func ("/whatif-cli/json-numbers", test_json_numbers);
  g_test_add_func ("/whatif-cli/link-notes", test_link_notes);
  g_test_add_func ("/whatif-cli/cpu-only-and-steps", test_cpu_only_and_steps);
  return g_test_run ();
}
