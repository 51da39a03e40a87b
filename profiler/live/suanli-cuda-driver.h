/* suanli-cuda-driver.h — whether this computer has a CUDA driver for local jobs to be captured on
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

gboolean suanli_cuda_driver_is_present (char **library);

G_END_DECLS
