/* suanli-inject-cupti.h — CUPTI as the injection library's record source
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <stdbool.h>
#include <cuda.h>
#include <cupti_activity.h>
#include <cupti_runtime_cbid.h>
#include <cupti_callbacks.h>
#include <cupti_result.h>

#include "suanli-inject.h"

#ifdef __cplusplus
extern "C" {
#endif

int    suanli_inject_cupti_load          (char              *error,
                                          size_t             error_size);
size_t suanli_inject_cupti_decode_buffer (uint8_t           *buffer,
                                          size_t             valid,
                                          SuanliInjectQueue *queue);
void   suanli_inject_cupti_reset         (void);
uint16_t suanli_inject_query_devices     (SuanliCaptureDevice *devices,
                                          uint16_t             max_devices);
bool   suanli_inject_enable_python_stacks (void);
void   suanli_inject_record_launch_stack (uint32_t           correlation);
size_t suanli_inject_format_launch_stack (uint32_t           correlation,
                                          char              *text,
                                          size_t             size);

#ifdef __cplusplus
}
#endif
