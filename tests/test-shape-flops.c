/* test-shape-flops.c — FLOPs counted from operators' input shapes (PyTorch's record_shapes=True):
 * the importer keeping "Input Dims" and "Input type" arrays, the formulas, the real fixtures that
 * carry shapes, and What If saying why a plan cannot start from a trace that has neither FLOPs nor
 * shapes
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>

#include "suanli-analysis.h"
#include "suanli-import.h"
#include "suanli-shape-flops.h"
#include "suanli-whatif.h"
#include "suanli-test-fixtures.h"
#include "suanli-test-import.h"

/* The string argument @key of the first slice named @name on any thread, or NULL. */
static const char *
string_arg (SuanliTrace *trace,
            const char  *name,
            const char  *key)
{
  for (guint t = 0; t < suanli_trace_get_n_tracks (trace); t++)
    {
      SuanliTrack *track = suanli_trace_get_track (trace, t);

      for (guint s = 0; s < track->slices->len; s++)
        {
          SuanliSlice *slice = &g_array_index (track->slices, SuanliSlice, s);

          if (!g_str_equal (suanli_trace_get_string (trace, slice->name), name))
            continue;
          for (guint a = 0; a < slice->n_args; a++)
            {
              const SuanliArg *arg = &suanli_trace_get_args (trace, slice)[a];

              if (g_str_equal (suanli_trace_get_string (trace, arg->key), key))
                return arg->type == SUANLI_ARG_STRING ? suanli_trace_get_string (trace, arg->s) : "(not a string)";
            }
          return NULL;
        }
    }
  return NULL;
}

/* Arrays of numbers, strings and arrays in args are kept as compact JSON text; one holding an
 * object, a boolean or null, or too long, is left out, and the arguments after it are still read. */
static void
test_array_args (void)
{
  g_autoptr(GString) long_dims = g_string_new ("[");
  g_autofree char *text = NULL;
  g_autoptr(SuanliTestImport) imported = NULL;

  for (guint i = 0; i < 200; i++)
    g_string_append_printf (long_dims, "%s[%u, 64]", i > 0 ? ", " : "", i);
  g_string_append (long_dims, "]");
  text = g_strdup_printf ("{\"traceEvents\": ["
                          "{\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"aten::addmm\", \"pid\": 1, \"tid\": 1, \"ts\": 0, "
                          "\"dur\": 10, \"args\": {\"Input Dims\": [[128], [32, 64], [64, 128], [], []], "
                          "\"Input type\": [\"float\", \"c10::Half\", \"\"], \"Concrete Inputs\": [\"\", {\"a\": 1}], "
                          "\"Flags\": [true, null], \"Long\": %s, \"External id\": 7}},"
                          "{\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"aten::mm\", \"pid\": 1, \"tid\": 1, \"ts\": 20, "
                          "\"dur\": 10, \"args\": {\"Input Dims\": [[2, 3], [3, 4]]}}]}",
                          long_dims->str);
  imported = suanli_test_import_text (text);
  g_assert_no_error (imported->error);
  g_assert_cmpstr (string_arg (imported->trace, "aten::addmm", "Input Dims"), ==, "[[128],[32,64],[64,128],[],[]]");
  g_assert_cmpstr (string_arg (imported->trace, "aten::addmm", "Input type"), ==, "[\"float\",\"c10::Half\",\"\"]");
  g_assert_null (string_arg (imported->trace, "aten::addmm", "Concrete Inputs"));
  g_assert_null (string_arg (imported->trace, "aten::addmm", "Flags"));
  g_assert_null (string_arg (imported->trace, "aten::addmm", "Long"));
  g_assert_cmpstr (string_arg (imported->trace, "aten::addmm", "External id"), ==, "(not a string)");
  g_assert_cmpstr (string_arg (imported->trace, "aten::mm", "Input Dims"), ==, "[[2,3],[3,4]]");
}

/* Each formula, by hand. */
static void
test_formulas (void)
{
  g_assert_cmpfloat (suanli_shape_flops ("aten::mm", "[[32,64],[64,128]]"), ==, 2.0 * 32 * 64 * 128);
  g_assert_cmpfloat (suanli_shape_flops ("aten::addmm", "[[128],[32,64],[64,128],[],[]]"), ==, 2.0 * 32 * 64 * 128);
  g_assert_cmpfloat (suanli_shape_flops ("aten::bmm", "[[4,8,16],[4,16,32]]"), ==, 2.0 * 4 * 8 * 16 * 32);
  g_assert_cmpfloat (suanli_shape_flops ("aten::baddbmm", "[[4,8,32],[4,8,16],[4,16,32],[],[]]"), ==,
                     2.0 * 4 * 8 * 16 * 32);
  /* matmul broadcasts a batch, and reads a 1-D side as a vector. */
  g_assert_cmpfloat (suanli_shape_flops ("aten::matmul", "[[2,3,8,16],[16,32]]"), ==, 2.0 * 6 * 8 * 16 * 32);
  g_assert_cmpfloat (suanli_shape_flops ("aten::matmul", "[[8,16],[16]]"), ==, 2.0 * 8 * 16);
  /* linear: input 4×10×64, weight 128×64 (out × in), bias. */
  g_assert_cmpfloat (suanli_shape_flops ("aten::linear", "[[4,10,64],[128,64],[128]]"), ==, 2.0 * 40 * 64 * 128);
  /* A 3×3 convolution of 8 → 16 channels over 32×32, batch 2; grouped (4 groups: weight 16×2×3×3). */
  g_assert_cmpfloat (suanli_shape_flops ("aten::conv2d", "[[2,8,32,32],[16,8,3,3],[16],[],[],[],[]]"), ==,
                     2.0 * 2 * 16 * 8 * 9 * 1024);
  g_assert_cmpfloat (suanli_shape_flops ("aten::cudnn_convolution", "[[2,8,32,32],[16,2,3,3]]"), ==,
                     2.0 * 2 * 16 * 2 * 9 * 1024);
  /* Attention: batch 2, 8 heads, 128 queries, 256 keys, 64 wide: Q·Kᵀ and the weights times V. */
  g_assert_cmpfloat (suanli_shape_flops ("aten::scaled_dot_product_attention", "[[2,8,128,64],[2,8,256,64],[2,8,256,64]]"),
                     ==, 2.0 * 16 * 128 * 256 * (64 + 64));
  /* Not counted: other operators, shapes that do not fit, text that is not a list of shapes. */
  g_assert_cmpfloat (suanli_shape_flops ("aten::add", "[[32,64],[32,64]]"), ==, 0);
  g_assert_cmpfloat (suanli_shape_flops ("aten::mm", "[[32,64]]"), ==, 0);
  g_assert_cmpfloat (suanli_shape_flops ("aten::mm", "[[32,64],[]]"), ==, 0);
  g_assert_cmpfloat (suanli_shape_flops ("aten::bmm", "[[32,64],[64,8]]"), ==, 0);
  g_assert_cmpfloat (suanli_shape_flops ("aten::mm", "[[[1,2]],[3]]"), ==, 0);
  g_assert_cmpfloat (suanli_shape_flops ("aten::mm", "[\"float\",\"float\"]"), ==, 0);
  g_assert_cmpfloat (suanli_shape_flops ("aten::mm", "[[-1,2],[2,3]]"), ==, 0);
  g_assert_cmpfloat (suanli_shape_flops ("aten::mm", ""), ==, 0);
}

static SuanliTrace *
load_fixture (const char *name)
{
  g_autofree char *path = suanli_test_fixture_path (name);

  return suanli_test_load_file (path);
}

static SuanliWhatif *
project (SuanliTrace *trace)
{
  SuanliWhatifOptions options;
  g_autoptr(GError) error = NULL;
  SuanliWhatif *whatif;

  suanli_whatif_options_init (&options);
  g_strlcpy (options.measured.name, "A100", sizeof options.measured.name);
  options.measured.flops[SUANLI_NUMBER_BF16] = 312e12;
  options.measured.memory_bandwidth = 2e12;
  options.target = options.measured;
  g_strlcpy (options.target.name, "H100", sizeof options.target.name);
  options.target.flops[SUANLI_NUMBER_BF16] = 989e12;
  whatif = suanli_whatif_new (trace, &options, &error);
  g_assert_no_error (error);
  return whatif;
}

/* Two real fixtures carry "Input Dims" and no "flops": their matrix products are counted. The
 * figures were recomputed from the files with Python's json module (the outermost operator that
 * counts, by the same formulas): the sampled rank's 378 operators 5,393,749,061,136 FLOPs, the
 * MI250 loop's 2 operators (addmm) 327,680. A projection of them can start a plan; one of the
 * A100 trace, which has neither FLOPs nor shapes, says why not. */
static void
test_fixtures (void)
{
  static const struct { const char *name; double flops; guint64 operators; } carrying[] = {
    { "timeline_analysis__sampled_rank-0.json.gz", 5393749061136.0, 378 },
    { "amd_trace__mi250_minitoy_train_ROCm6_2_kineto.json.gz", 327680.0, 2 },
  };

  for (guint i = 0; i < G_N_ELEMENTS (carrying); i++)
    {
      g_autoptr(SuanliTrace) trace = load_fixture (carrying[i].name);
      g_autoptr(SuanliWhatif) whatif = project (trace);
      SuanliFlopCount count;

      suanli_analysis_flops (trace, &count);
      g_assert_cmpfloat (count.flops, ==, carrying[i].flops);
      g_assert_cmpuint (count.operators, ==, carrying[i].operators);
      g_assert_cmpuint (count.from_shapes, ==, carrying[i].operators);
      g_assert_cmpfloat (suanli_whatif_get_figures (whatif)->projected_mfu, >, 0);
      g_assert_cmpfloat (suanli_whatif_get_figures (whatif)->projected_mfu, <=, 1);
      g_assert_null (suanli_whatif_get_mfu_unknown (whatif));
    }
  {
    g_autoptr(SuanliTrace) trace = load_fixture ("critical_path__simple_add__trace.json.gz");
    g_autoptr(SuanliWhatif) whatif = project (trace);

    g_assert_cmpfloat (suanli_whatif_get_figures (whatif)->projected_mfu, ==, 0);
    g_assert_nonnull (suanli_whatif_get_mfu_unknown (whatif));
    g_assert_nonnull (strstr (suanli_whatif_get_mfu_unknown (whatif), "record_shapes=True"));
  }
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/shape-flops/array-args", test_array_args);
  g_test_add_func ("/shape-flops/formulas", test_formulas);
  g_test_add_func ("/shape-flops/fixtures", test_fixtures);
  return g_test_run ();
}
