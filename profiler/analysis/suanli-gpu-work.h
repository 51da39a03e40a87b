/* suanli-gpu-work.h — the kinds of work that occupy a GPU, as the classifier tells them apart
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef enum {
  SUANLI_GPU_WORK_NONE,
  SUANLI_GPU_WORK_KERNEL,
  SUANLI_GPU_WORK_MEMCPY,
  SUANLI_GPU_WORK_MEMSET,
} SuanliGpuWork;

G_END_DECLS
