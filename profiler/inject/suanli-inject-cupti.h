/* suanli-inject-cupti.h — CUPTI as the injection library's record source: what its parts share
 *
 * suanli-inject-cupti-library.c  finds and loads libcupti, and holds its functions
 * suanli-inject-cupti.c          the source: START and STOP, CUPTI's callbacks, the decoding thread
 * suanli-inject-records.c        CUPTI's activity records into the capture format
 * suanli-inject-stacks.c         launch stacks (return addresses) and the modules they point into
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <limits.h>
#include <stdbool.h>
#include <cuda.h>
#include <cupti_activity.h>
#include <cupti_callbacks.h>
#include <cupti_driver_cbid.h>
#include <cupti_result.h>
#include <cupti_runtime_cbid.h>
#include <cupti_version.h>

#include "suanli-inject.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef CUptiResult (*GetTimestamp) (uint64_t *);

/* libcupti's functions, resolved once (suanli_inject_cupti_load). The optional ones may be NULL. */
typedef struct
{
  void        *library;
  char         path[PATH_MAX];
  CUptiResult (*get_version) (uint32_t *);
  CUptiResult (*get_result_string) (CUptiResult, const char **);
  GetTimestamp get_timestamp;
  CUptiResult (*register_callbacks) (CUpti_BuffersCallbackRequestFunc, CUpti_BuffersCallbackCompleteFunc);
  CUptiResult (*enable) (CUpti_ActivityKind);
  CUptiResult (*disable) (CUpti_ActivityKind);
  CUptiResult (*flush_all) (uint32_t);
  CUptiResult (*get_next_record) (uint8_t *, size_t, CUpti_Activity **);
  CUptiResult (*get_num_dropped) (CUcontext, uint32_t, size_t *);
  CUptiResult (*subscribe) (CUpti_SubscriberHandle *, CUpti_CallbackFunc, void *);
  CUptiResult (*unsubscribe) (CUpti_SubscriberHandle);
  CUptiResult (*enable_callback) (uint32_t, CUpti_SubscriberHandle, CUpti_CallbackDomain, CUpti_CallbackId);
  CUptiResult (*get_callback_name) (CUpti_CallbackDomain, uint32_t, const char **);
  CUptiResult (*set_thread_id_type) (CUpti_ActivityThreadIdType);
  CUptiResult (*subscribe_v2) (CUpti_SubscriberHandle *, CUpti_CallbackFunc, void *, CUpti_SubscriberParams *);
  CUptiResult (*enable_runtime_api) (CUpti_CallbackId, uint8_t);
  CUptiResult (*enable_driver_api) (CUpti_CallbackId, uint8_t);
  CUptiResult (*finalize) (void);
  CUptiResult (*enable_domain) (uint32_t, CUpti_SubscriberHandle, CUpti_CallbackDomain);
  CUptiResult (*register_timestamp) (CUpti_TimestampCallbackFunc);
} SuanliCuptiApi;

extern SuanliCuptiApi suanli_cupti;

int    suanli_inject_cupti_load          (char              *error,
                                          size_t             error_size);
int    suanli_inject_cupti_check_version (uint32_t           version,
                                          char              *warning,
                                          size_t             warning_size,
                                          char              *error,
                                          size_t             error_size);
void   suanli_inject_cupti_quote         (CUptiResult        result,
                                          const char        *call,
                                          char              *error,
                                          size_t             error_size);

/* Records (suanli-inject-records.c): called on the decoding thread, or by the tests. */
size_t suanli_inject_cupti_decode_buffer (uint8_t           *buffer,
                                          size_t             valid,
                                          SuanliInjectQueue *queue);
void   suanli_inject_records_begin       (SuanliInjectQueue *queue);
uint64_t suanli_inject_records_untimed   (void);
uint32_t suanli_inject_intern            (SuanliInjectQueue *queue,
                                          const char        *name);

uint16_t suanli_inject_query_devices     (SuanliCaptureDevice *devices,
                                          uint16_t             max_devices);

/* Launch stacks (suanli-inject-stacks.c). */
bool   suanli_inject_enable_python_stacks (void);
void   suanli_inject_record_launch_stack (uint32_t           correlation);
void   suanli_inject_push_launch_stack   (SuanliInjectQueue *queue,
                                          uint32_t           correlation);
void   suanli_inject_send_new_modules    (SuanliInjectQueue *queue);
void   suanli_inject_forget_modules      (void);

#ifdef __cplusplus
}
#endif
