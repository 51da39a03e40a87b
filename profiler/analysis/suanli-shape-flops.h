/* suanli-shape-flops.h — the floating-point operations of a matrix product, convolution or attention,
 * counted from its inputs' shapes (PyTorch's record_shapes: the "Input Dims" argument)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

gboolean suanli_shape_flops_operator (const char *name);
double   suanli_shape_flops          (const char *name,
                                      const char *input_dims);

G_END_DECLS
