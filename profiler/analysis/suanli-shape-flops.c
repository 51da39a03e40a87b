/* suanli-shape-flops.c — FLOPs of an operator from its inputs' shapes
 *
 * Where PyTorch's profiler ran with record_shapes=True but not with_flops=True, the operators carry
 * "Input Dims" ([[32, 64], [64, 128]]) and no "flops". The FLOPs of the operators that dominate
 * training are counted from them, a multiply and an add per term as PyTorch's own counter does
 * (torch/utils/flop_counter.py):
 *
 *   mm (M×K, K×N), addmm (bias, M×K, K×N): 2·M·K·N
 *   bmm (B×M×K, B×K×N), baddbmm (in, B×M×K, B×K×N): 2·B·M·K·N
 *   matmul (…×M×K, …×K×N; a 1-D side is a vector): 2·batch·M·K·N
 *   linear (…×K input, N×K weight): 2·rows·K·N
 *   convolution (N×C×spatial input, C_out×C/groups×kernel weight): 2·N·C_out·(C/groups)·kernel·spatial
 *     — the output's size taken as the input's: Kineto records no output shape nor the stride, so a
 *     strided convolution is counted high (by its stride's product)
 *   scaled dot-product attention (B×H×L×E query, B×H×S×E key, B×H×S×Ev value): 2·B·H·L·S·(E + Ev)
 *
 * Backward operators are not named so and are not counted.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>

#include "suanli-shape-flops.h"

#define MAX_TENSORS 8
#define MAX_DIMS    8

typedef struct
{
  guint  n_dims;
  double dims[MAX_DIMS];
} Shape;

typedef enum {
  OP_NONE, OP_MM, OP_ADDMM, OP_BMM, OP_BADDBMM, OP_MATMUL, OP_LINEAR, OP_CONVOLUTION, OP_ATTENTION,
} ShapeOp;

static ShapeOp
shape_op (const char *name)
{
  static const struct { const char *name; ShapeOp op; } exact[] = {
    { "aten::mm", OP_MM }, { "aten::addmm", OP_ADDMM }, { "aten::bmm", OP_BMM }, { "aten::baddbmm", OP_BADDBMM },
    { "aten::matmul", OP_MATMUL }, { "aten::linear", OP_LINEAR },
    { "aten::scaled_dot_product_attention", OP_ATTENTION },
    { "aten::_scaled_dot_product_flash_attention", OP_ATTENTION },
    { "aten::_scaled_dot_product_efficient_attention", OP_ATTENTION },
    { "aten::_scaled_dot_product_cudnn_attention", OP_ATTENTION },
    { "aten::_flash_attention_forward", OP_ATTENTION }, { "aten::_efficient_attention_forward", OP_ATTENTION },
    { "aten::conv1d", OP_CONVOLUTION }, { "aten::conv2d", OP_CONVOLUTION }, { "aten::conv3d", OP_CONVOLUTION },
    { "aten::convolution", OP_CONVOLUTION }, { "aten::_convolution", OP_CONVOLUTION },
    { "aten::cudnn_convolution", OP_CONVOLUTION }, { "aten::miopen_convolution", OP_CONVOLUTION },
    { "aten::mkldnn_convolution", OP_CONVOLUTION },
  };

  for (guint i = 0; i < G_N_ELEMENTS (exact); i++)
    if (strcmp (name, exact[i].name) == 0)
      return exact[i].op;
  return OP_NONE;
}

/* Whether @name is an operator whose FLOPs its inputs' shapes give. */
gboolean
suanli_shape_flops_operator (const char *name)
{
  return shape_op (name) != OP_NONE;
}

/* Reads "[[32,64],[64,128],[]]" into @shapes; returns how many, or -1 when it is not a list of
 * lists of numbers. */
static int
read_shapes (const char *text,
             Shape      *shapes)
{
  const char *p = text;
  int n = 0;

  for (; *p == ' '; p++)
    ;
  if (*p++ != '[')
    return -1;
  for (;;)
    {
      for (; *p == ' ' || *p == ','; p++)
        ;
      if (*p == ']')
        return n;
      if (*p != '[' || n >= MAX_TENSORS)
        return *p == '[' ? n : -1;   /* past MAX_TENSORS: the first ones are all the formulas read */
      shapes[n].n_dims = 0;
      for (p++;;)
        {
          char *end;
          double value;

          for (; *p == ' ' || *p == ','; p++)
            ;
          if (*p == ']')
            break;
          value = g_ascii_strtod (p, &end);
          if (end == p || shapes[n].n_dims >= MAX_DIMS || !(value >= 0))
            return -1;
          shapes[n].dims[shapes[n].n_dims++] = value;
          p = end;
        }
      p++;
      n++;
    }
}

static double
product (const Shape *shape,
         guint        from,
         guint        to)
{
  double result = 1;

  for (guint d = from; d < to && d < shape->n_dims; d++)
    result *= shape->dims[d];
  return result;
}

static double
matmul_flops (const Shape *a,
              const Shape *b)
{
  double m, k, n, batch;

  if (a->n_dims == 0 || b->n_dims == 0)
    return 0;
  k = a->dims[a->n_dims - 1];
  m = a->n_dims >= 2 ? a->dims[a->n_dims - 2] : 1;
  n = b->n_dims >= 2 ? b->dims[b->n_dims - 1] : 1;
  /* The broadcast batch: the larger of the two sides' leading dimensions' products. */
  batch = MAX (a->n_dims > 2 ? product (a, 0, a->n_dims - 2) : 1, b->n_dims > 2 ? product (b, 0, b->n_dims - 2) : 1);
  return 2 * batch * m * k * n;
}

static double
convolution_flops (const Shape *input,
                   const Shape *weight)
{
  guint spatial;

  if (input->n_dims < 3 || weight->n_dims != input->n_dims)
    return 0;
  spatial = input->n_dims - 2;
  /* N · C_out · (C_in / groups) · kernel · output positions (taken as the input's). */
  return 2 * input->dims[0] * weight->dims[0] * weight->dims[1] * product (weight, 2, 2 + spatial) *
         product (input, 2, 2 + spatial);
}

static double
attention_flops (const Shape *query,
                 const Shape *key,
                 const Shape *value)
{
  if (query->n_dims < 2 || key->n_dims != query->n_dims || value->n_dims != query->n_dims)
    return 0;
  /* Q·Kᵀ (L×E by E×S) and the weights times V (L×S by S×Ev), per batch and head. */
  return 2 * product (query, 0, query->n_dims - 2) * query->dims[query->n_dims - 2] * key->dims[key->n_dims - 2] *
         (query->dims[query->n_dims - 1] + value->dims[value->n_dims - 1]);
}

/**
 * suanli_shape_flops:
 * @name: the operator ("aten::mm")
 * @input_dims: its "Input Dims" argument as JSON text ("[[32,64],[64,128]]")
 *
 * Returns: the operator's FLOPs from its inputs' shapes (see the top of the file); 0 when @name is
 * not one counted so or the shapes do not fit it.
 */
double
suanli_shape_flops (const char *name,
                    const char *input_dims)
{
  Shape shapes[MAX_TENSORS];
  int n = read_shapes (input_dims, shapes);

  switch (shape_op (name))
    {
    case OP_MM:
    case OP_MATMUL:
      return n >= 2 ? matmul_flops (&shapes[0], &shapes[1]) : 0;
    case OP_ADDMM:
    case OP_BADDBMM:
      return n >= 3 ? matmul_flops (&shapes[1], &shapes[2]) : 0;
    case OP_BMM:
      return n >= 2 && shapes[0].n_dims == 3 ? matmul_flops (&shapes[0], &shapes[1]) : 0;
    case OP_LINEAR:
      /* The weight is N×K: the product is input · weightᵀ. */
      if (n < 2 || shapes[0].n_dims == 0 || shapes[1].n_dims != 2)
        return 0;
      return 2 * product (&shapes[0], 0, shapes[0].n_dims - 1) * shapes[0].dims[shapes[0].n_dims - 1] * shapes[1].dims[0];
    case OP_CONVOLUTION:
      return n >= 2 ? convolution_flops (&shapes[0], &shapes[1]) : 0;
    case OP_ATTENTION:
      return n >= 3 ? attention_flops (&shapes[0], &shapes[1], &shapes[2]) : 0;
    case OP_NONE:
    default:
      return 0;
    }
}
