/* suanli-classifier.c — what kind of work a slice is: kernel, copy (and its direction), memset,
 * communication, CPU operator; told by category and name, each looked up once
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>

#include "suanli-analysis-private.h"

SuanliGpuWork
suanli_analysis_work_kind (SuanliTrace       *trace,
                           const SuanliSlice *slice)
{
  const char *category = suanli_trace_get_string (trace, slice->category);

  if (g_str_equal (category, "kernel") || g_str_equal (category, "Kernel"))
    return SUANLI_GPU_WORK_KERNEL;
  if (g_str_equal (category, "gpu_memcpy") || g_str_equal (category, "Memcpy"))
    return SUANLI_GPU_WORK_MEMCPY;
  if (g_str_equal (category, "gpu_memset") || g_str_equal (category, "Memset"))
    return SUANLI_GPU_WORK_MEMSET;
  /* Meta's MTIA: one category for the device's work, its DMA transfers named "dma_request". */
  if (g_str_equal (category, "mtia_ccp_events"))
    return g_str_equal (suanli_trace_get_string (trace, slice->name), "dma_request") ? SUANLI_GPU_WORK_MEMCPY
                                                                                     : SUANLI_GPU_WORK_KERNEL;
  return SUANLI_GPU_WORK_NONE;
}

/* Kernels, copies and memsets: the work that occupies a GPU (annotations on GPU tracks do not). */
gboolean
suanli_analysis_is_gpu_work (SuanliTrace       *trace,
                             const SuanliSlice *slice)
{
  return suanli_analysis_work_kind (trace, slice) != SUANLI_GPU_WORK_NONE;
}

gboolean
suanli_analysis_is_communication (const char *name)
{
  g_autofree char *lower = g_ascii_strdown (name, -1);

  return strstr (lower, "nccl") != NULL || strstr (lower, "rccl") != NULL;
}

const char *
suanli_memcpy_direction_name (SuanliMemcpyDirection direction)
{
  static const char *const names[] = { "HtoD", "DtoH", "DtoD", "PtoP", "other" };

  return direction < SUANLI_MEMCPY_N_DIRECTIONS ? names[direction] : "other";
}

/* Kineto and CUPTI name copies "Memcpy HtoD (Pageable -> Device)" and the like. */
static SuanliMemcpyDirection
memcpy_direction (const char *name)
{
  for (SuanliMemcpyDirection d = 0; d < SUANLI_MEMCPY_OTHER; d++)
    if (strstr (name, suanli_memcpy_direction_name (d)) != NULL)
      return d;
  return SUANLI_MEMCPY_OTHER;
}

/* Kinds of work, communication and copy directions, looked up once per distinct category and name:
 * a trace has millions of slices but a few hundred distinct strings. They are kept in a byte per
 * string of the trace, by the string's id (a hashed table's lookups were a tenth of the figures). */
struct _SuanliClassifier
{
  SuanliTrace *trace;
  GArray      *categories;      /* of guint8, by category: (kind | operator << 4 | MTIA << 5) + 1; 0 not yet known */
  GArray      *names;           /* of guint8, by name: (communication | direction << 1) + 1; 0 not yet known */
};

SuanliClassifier *
suanli_classifier_new (SuanliTrace *trace)
{
  SuanliClassifier *classifier = g_new0 (SuanliClassifier, 1);

  classifier->trace = trace;
  classifier->categories = g_array_new (FALSE, TRUE, sizeof (guint8));   /* grown with zeros */
  classifier->names = g_array_new (FALSE, TRUE, sizeof (guint8));
  return classifier;
}

void
suanli_classifier_free (SuanliClassifier *classifier)
{
  g_array_unref (classifier->categories);
  g_array_unref (classifier->names);
  g_free (classifier);
}

/* CPU operators: cpu_op, Operator (2021 traces), or no category at all (torch 1.13's CPU traces). */
static gboolean
is_operator_category (const char *category)
{
  return g_str_equal (category, "cpu_op") || g_str_equal (category, "Operator") || *category == '\0';
}

static guint
category_bits (SuanliClassifier  *classifier,
               const SuanliSlice *slice)
{
  guint8 *known = suanli_analysis_string_byte (classifier->trace, classifier->categories, slice->category);
  guint bits;

  if (*known != 0)
    return *known - 1u;
  bits = (guint) suanli_analysis_work_kind (classifier->trace, slice) |
         (guint) is_operator_category (suanli_trace_get_string (classifier->trace, slice->category)) << 4 |
         (guint) g_str_equal (suanli_trace_get_string (classifier->trace, slice->category), "mtia_ccp_events") << 5;
  *known = (guint8) (bits + 1);
  return bits;
}

static guint
name_bits (SuanliClassifier  *classifier,
           const SuanliSlice *slice)
{
  guint8 *known = suanli_analysis_string_byte (classifier->trace, classifier->names, slice->name);
  const char *name;
  guint bits;

  if (*known != 0)
    return *known - 1u;
  name = suanli_trace_get_string (classifier->trace, slice->name);
  bits = (guint) suanli_analysis_is_communication (name) | (guint) memcpy_direction (name) << 1;
  *known = (guint8) (bits + 1);
  return bits;
}

SuanliGpuWork
suanli_classifier_work (SuanliClassifier  *classifier,
                        const SuanliSlice *slice)
{
  guint bits = category_bits (classifier, slice);

  /* An MTIA category's kind depends on the name: not cached by category. */
  if (bits & (1 << 5))
    return suanli_analysis_work_kind (classifier->trace, slice);
  return bits & 0xf;
}

gboolean
suanli_classifier_is_operator (SuanliClassifier  *classifier,
                               const SuanliSlice *slice)
{
  return (category_bits (classifier, slice) >> 4) & 1;
}

gboolean
suanli_classifier_is_communication (SuanliClassifier  *classifier,
                                    const SuanliSlice *slice)
{
  return name_bits (classifier, slice) & 1;
}

SuanliMemcpyDirection
suanli_classifier_direction (SuanliClassifier  *classifier,
                             const SuanliSlice *slice)
{
  return name_bits (classifier, slice) >> 1;
}
