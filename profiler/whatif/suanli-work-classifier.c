/* suanli-work-classifier.c — what bounds each piece of GPU work and its number format
 *
 * Told, in this order: a copy by its direction (host ↔ device: host-bound; between GPUs:
 * communication; on the device: memory) and a memset as memory work; NCCL and RCCL kernels as
 * communication; a kernel whose name names matrix-unit work (gemm, cutlass, xmma, flash …) as
 * compute; one whose name names memory work (elementwise, reduce, copy …) as memory; then by the
 * FLOPs and bytes its operator records (arithmetic intensity against the measured hardware's ridge
 * point, FLOP/s ÷ B/s); then by its operator (aten::mm, aten::conv2d, scaled_dot_product_attention
 * …); memory work otherwise. Each kernel name is told once, from its first launch's operator.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>
#include <glib/gi18n.h>

#include "suanli-classifier.h"
#include "suanli-work-classifier.h"

struct _SuanliWorkClassifier
{
  SuanliTrace      *trace;
  double            ridge;          /* FLOP per byte where compute and memory time are equal; 0 unknown */
  SuanliClassifier *kinds;
  GHashTable       *by_name;        /* name + 1 → SuanliWorkClassification */
};

/* Names of matrix-unit work, checked before the memory words (a "gemm" with "elementwise" in its
 * epilogue's template is a gemm). */
static const char * const compute_words[] = {
  "gemm", "cutlass", "cublas", "xmma", "wgmma", "hmma", "imma", "flash", "fmha", "conv2d", "conv3d",
  "convolution", "implicit_gemm", "scudnn",
};

/* Names of memory-bound work (FFTs too: O(log n) operations per element read, far below any GPU's
 * ridge point; matrix-vector products, gemv, read each matrix element once). */
static const char * const memory_words[] = {
  "elementwise", "vectorized", "reduce", "copy", "nchwtonhwc", "nhwctonchw", "transpose", "fill",
  "index", "softmax", "norm", "dropout", "pool", "embedding", "computeoffsets", "convert", "cast", "cat_", "fft",
  "bn_fw", "bn_bw", "batch_norm", "gemv",
};

/* Weaker names of compute, checked after the memory words. */
static const char * const late_compute_words[] = {
  "cudnn", "attention", "attn", "bmm", "matmul", "triton_mm", "_mm_", "triton_tem",
};

/* Operators whose kernels are matrix products, convolutions or attention. */
static const char * const compute_operators[] = {
  "aten::mm", "aten::addmm", "aten::bmm", "aten::baddbmm", "aten::matmul", "aten::linear", "aten::addbmm",
  "aten::einsum",
};
static const char * const compute_operator_prefixes[] = {
  "aten::conv", "aten::_conv", "aten::cudnn_conv", "aten::scaled_dot_product", "aten::_scaled_dot_product",
  "aten::_flash_attention", "aten::_efficient_attention",
};

static void
classification_free (gpointer data)
{
  SuanliWorkClassification *classification = data;

  g_free (classification->why);
  g_free (classification->format_why);
  g_free (classification);
}

/**
 * suanli_work_classifier_new:
 * @ridge: the measured hardware's ridge point (FLOP/s ÷ B/s), for work whose operator gives FLOPs
 *   and bytes; 0 when unknown
 */
SuanliWorkClassifier *
suanli_work_classifier_new (SuanliTrace *trace,
                            double       ridge)
{
  SuanliWorkClassifier *self = g_new0 (SuanliWorkClassifier, 1);

  self->trace = trace;
  self->ridge = ridge;
  self->kinds = suanli_classifier_new (trace);
  self->by_name = g_hash_table_new_full (NULL, NULL, NULL, classification_free);
  return self;
}

void
suanli_work_classifier_free (SuanliWorkClassifier *self)
{
  suanli_classifier_free (self->kinds);
  g_hash_table_unref (self->by_name);
  g_free (self);
}

static const char *
find_word (const char         *lower,
           const char * const *words,
           guint               n_words)
{
  for (guint i = 0; i < n_words; i++)
    if (strstr (lower, words[i]) != NULL)
      return words[i];
  return NULL;
}

guint
suanli_number_format_bytes (SuanliNumberFormat format)
{
  static const guint bytes[] = { 4, 4, 2, 2, 1, 1 };

  return format < SUANLI_NUMBER_N_FORMATS ? bytes[format] : 4;
}

/**
 * suanli_number_format_from_text:
 * @text: a kernel's name or an operator's input type
 * @matched: (out) (optional): the word that told it
 *
 * The number format that @text names: fp8 (e4m3, e5m2), bf16, tf32, fp16 (half, h884, hmma,
 * nvjet_hsh …), tf32 again (a tensor op's s1688, s16816), int8, fp32 (sgemm, float); the more
 * specific first, so that "tf32f32" is TF32, "e4m3bf16" FP8 and "bf16" not FP16.
 */
gboolean
suanli_number_format_from_text (const char         *text,
                                SuanliNumberFormat *format,
                                const char        **matched)
{
  /* FP8 first: "e4m3bf16" is an FP8 product with a BF16 output. A tensor-op "s1688"/"s16816"
   * (cutlass_80_tensorop_s1688gemm, no other format word) is FP32 data on the tensor cores: TF32.
   * cuBLAS's nvjet kernels name their types in letters: "hsh", "hss" are half inputs. */
  static const struct { const char *word; SuanliNumberFormat format; } words[] = {
    { "e4m3", SUANLI_NUMBER_FP8 }, { "e5m2", SUANLI_NUMBER_FP8 }, { "fp8", SUANLI_NUMBER_FP8 }, { "float8", SUANLI_NUMBER_FP8 },
    { "bf16", SUANLI_NUMBER_BF16 }, { "bfloat16", SUANLI_NUMBER_BF16 },
    { "tf32", SUANLI_NUMBER_TF32 },
    { "fp16", SUANLI_NUMBER_FP16 }, { "f16", SUANLI_NUMBER_FP16 }, { "half", SUANLI_NUMBER_FP16 },
    { "h884", SUANLI_NUMBER_FP16 }, { "h1688", SUANLI_NUMBER_FP16 }, { "h16816", SUANLI_NUMBER_FP16 },
    { "hgemm", SUANLI_NUMBER_FP16 }, { "hmma", SUANLI_NUMBER_FP16 }, { "nvjet_hsh", SUANLI_NUMBER_FP16 },
    { "nvjet_hss", SUANLI_NUMBER_FP16 },
    { "s1688", SUANLI_NUMBER_TF32 }, { "s16816", SUANLI_NUMBER_TF32 },
    { "int8", SUANLI_NUMBER_INT8 }, { "i8i8", SUANLI_NUMBER_INT8 }, { "imma", SUANLI_NUMBER_INT8 },
    { "s8s8", SUANLI_NUMBER_INT8 }, { "signed char", SUANLI_NUMBER_INT8 },
    { "sgemm", SUANLI_NUMBER_FP32 }, { "fp32", SUANLI_NUMBER_FP32 }, { "f32", SUANLI_NUMBER_FP32 },
    { "float", SUANLI_NUMBER_FP32 },
  };
  g_autofree char *lower = g_ascii_strdown (text, -1);

  for (guint i = 0; i < G_N_ELEMENTS (words); i++)
    if (strstr (lower, words[i].word) != NULL)
      {
        *format = words[i].format;
        if (matched != NULL)
          *matched = words[i].word;
        return TRUE;
      }
  return FALSE;
}

static gboolean
is_compute_operator (const char *name)
{
  for (guint i = 0; i < G_N_ELEMENTS (compute_operators); i++)
    if (g_str_equal (name, compute_operators[i]))
      return TRUE;
  for (guint i = 0; i < G_N_ELEMENTS (compute_operator_prefixes); i++)
    if (g_str_has_prefix (name, compute_operator_prefixes[i]))
      return TRUE;
  return FALSE;
}

/* Cuts a demangled name's parameter list off (the final parenthesised group): "cudnn::reduced_divisor"
 * among an FFT's parameters says nothing of what the kernel does. */
static void
cut_parameters (char *name)
{
  size_t length = strlen (name);
  int depth = 0;

  if (length == 0 || name[length - 1] != ')')
    return;
  for (size_t i = length; i-- > 0;)
    {
      if (name[i] == ')')
        depth++;
      else if (name[i] == '(' && --depth == 0)
        {
          name[i] = '\0';
          return;
        }
    }
}

/* Blanks a name's template arguments (everything inside <…>, at any depth): a gemv's
 * cublasGemvParamsEx<…> or a batch norm's parameters say nothing of what the kernel does. */
static void
cut_template_arguments (char *name)
{
  int depth = 0;

  for (char *c = name; *c != '\0'; c++)
    {
      if (*c == '<')
        depth++;
      if (depth > 0)
        {
          if (*c == '>')
            depth--;
          *c = ' ';
        }
    }
}

/* A kernel's class from its name, its operator's counts and its operator. */
static void
classify_kernel (SuanliWorkClassifier     *self,
                 SuanliWorkClassification *out,
                 const char               *name,
                 const SuanliSlice        *op)
{
  g_autofree char *lower = g_ascii_strdown (name, -1);
  char *library;
  const char *op_name = op != NULL ? suanli_trace_get_string (self->trace, op->name) : NULL;
  const char *word;
  double flops = 0, bytes = 0;

  cut_parameters (lower);
  cut_template_arguments (lower);
  /* FBGEMM names its library, not a gemm: its embedding and quantising kernels are memory work. */
  for (library = strstr (lower, "fbgemm"); library != NULL; library = strstr (library, "fbgemm"))
    memcpy (library, "fb____", strlen ("fbgemm"));
  if ((word = find_word (lower, compute_words, G_N_ELEMENTS (compute_words))) != NULL)
    {
      out->work_class = SUANLI_WORK_COMPUTE;
      out->why = g_strdup_printf (_("“%s” in the name"), word);
      return;
    }
  if ((word = find_word (lower, memory_words, G_N_ELEMENTS (memory_words))) != NULL)
    {
      out->work_class = SUANLI_WORK_MEMORY;
      out->why = g_strdup_printf (_("“%s” in the name"), word);
      return;
    }
  if (op != NULL && suanli_trace_find_arg_double (self->trace, op, "flops", &flops) && flops > 0 &&
      suanli_trace_find_arg_double (self->trace, op, "bytes", &bytes) && bytes > 0 && self->ridge > 0)
    {
      out->work_class = flops / bytes >= self->ridge ? SUANLI_WORK_COMPUTE : SUANLI_WORK_MEMORY;
      /* Translators: "aten::addmm counts 2.1e+09 FLOP in 1.6e+07 bytes: 131 FLOP/B against a ridge of 153". */
      out->why = g_strdup_printf (_("%s counts %.3g FLOP in %.3g bytes: %.0f FLOP/B against a ridge of %.0f"), op_name,
                                  flops, bytes, flops / bytes, self->ridge);
      return;
    }
  if ((word = find_word (lower, late_compute_words, G_N_ELEMENTS (late_compute_words))) != NULL)
    {
      out->work_class = SUANLI_WORK_COMPUTE;
      out->why = g_strdup_printf (_("“%s” in the name"), word);
      return;
    }
  if (op_name != NULL && is_compute_operator (op_name))
    {
      out->work_class = SUANLI_WORK_COMPUTE;
      out->why = g_strdup_printf (_("launched by %s"), op_name);
      return;
    }
  if (op != NULL && suanli_trace_find_arg_double (self->trace, op, "flops", &flops) && flops > 0)
    {
      out->work_class = SUANLI_WORK_COMPUTE;
      out->why = g_strdup_printf (_("%s counts %.3g FLOP"), op_name, flops);
      return;
    }
  out->work_class = SUANLI_WORK_MEMORY;
  out->why = g_strdup (_("no matrix work in its name or operator"));
}

/* A copy's class, by its direction. */
static void
classify_copy (SuanliWorkClassifier     *self,
               SuanliWorkClassification *out,
               const SuanliSlice        *work)
{
  switch (suanli_classifier_direction (self->kinds, work))
    {
    case SUANLI_MEMCPY_HTOD:
    case SUANLI_MEMCPY_DTOH:
      out->work_class = SUANLI_WORK_HOST;
      out->why = g_strdup (_("a copy between host and device"));
      break;
    case SUANLI_MEMCPY_PTOP:
      out->work_class = SUANLI_WORK_COMMUNICATION;
      out->why = g_strdup (_("a copy between GPUs"));
      break;
    default:
      out->work_class = SUANLI_WORK_MEMORY;
      out->why = g_strdup (_("a copy on the device"));
      break;
    }
}

/* The work's number format: from its name, else its operator's input type, else assumed FP32. */
static void
find_format (SuanliWorkClassifier     *self,
             SuanliWorkClassification *out,
             const char               *name,
             const SuanliSlice        *op)
{
  const char *word = NULL, *input_type;

  out->format = SUANLI_NUMBER_FP32;
  if (suanli_number_format_from_text (name, &out->format, &word))
    {
      out->format_known = TRUE;
      out->format_why = g_strdup_printf (_("“%s” in the name"), word);
    }
  else if (op != NULL && (input_type = suanli_trace_find_arg_string (self->trace, op, "Input type")) != NULL &&
           suanli_number_format_from_text (input_type, &out->format, &word))
    {
      out->format_known = TRUE;
      out->format_why = g_strdup_printf (_("its operator's input type %s"), input_type);
    }
  else
    out->format_why = g_strdup (_("assumed: neither the name nor the operator gives one"));
}

/**
 * suanli_work_classifier_classify:
 * @work: a kernel, copy or memset
 * @op: (nullable): the CPU operator that launched it (the innermost around its launch)
 *
 * Returns: (transfer none): how @work's name is classed (the first call for a name decides).
 */
const SuanliWorkClassification *
suanli_work_classifier_classify (SuanliWorkClassifier *self,
                                 const SuanliSlice    *work,
                                 const SuanliSlice    *op)
{
  gpointer key = GUINT_TO_POINTER (work->name + 1);
  SuanliWorkClassification *out = g_hash_table_lookup (self->by_name, key);
  const char *name;

  if (out != NULL)
    return out;
  out = g_new0 (SuanliWorkClassification, 1);
  name = suanli_trace_get_string (self->trace, work->name);
  switch (suanli_classifier_work (self->kinds, work))
    {
    case SUANLI_GPU_WORK_MEMCPY:
      classify_copy (self, out, work);
      break;
    case SUANLI_GPU_WORK_MEMSET:
      out->work_class = SUANLI_WORK_MEMORY;
      out->why = g_strdup (_("a memset"));
      break;
    default:
      if (suanli_classifier_is_communication (self->kinds, work))
        {
          out->work_class = SUANLI_WORK_COMMUNICATION;
          out->why = g_strdup (_("NCCL or RCCL in the name"));
        }
      else
        classify_kernel (self, out, name, op);
      break;
    }
  find_format (self, out, name, op);
  g_hash_table_insert (self->by_name, key, out);
  return out;
}
