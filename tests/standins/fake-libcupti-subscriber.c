/* fake-libcupti-subscriber.c — the TEST DOUBLE of libcupti.so.13: the one subscriber, and which of
 * its callbacks are on (fake-libcupti.c says what it models and why)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define _GNU_SOURCE
#include <cupti.h>
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "fake-libcupti-private.h"

/* ---- CUPTI: the subscriber ------------------------------------------------------------------------ */

CUptiResult CUPTIAPI
cuptiSubscribe_v2 (CUpti_SubscriberHandle *subscriber,
                   CUpti_CallbackFunc      callback,
                   void                   *userdata,
                   CUpti_SubscriberParams *params)
{
  if (subscriber == NULL || (params != NULL && params->structSize == 0))
    return CUPTI_ERROR_INVALID_PARAMETER;
  fake_cupti_lock ();
  if (fake_cupti.subscribed)
    {
      if (params != NULL && params->oldSubscriberName != NULL && params->oldSubscriberSize > 0)
        snprintf (params->oldSubscriberName, params->oldSubscriberSize, "%s", fake_cupti.subscriber_name);
      fake_cupti_unlock ();
      return CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED;
    }
  fake_cupti.subscribed = true;
  fake_cupti.callback = callback;
  fake_cupti.userdata = userdata;
  if (params != NULL && params->subscriberName != NULL)
    snprintf (fake_cupti.subscriber_name, sizeof fake_cupti.subscriber_name, "CUPTI for %.*s", CUPTI_SUBSCRIBER_NAME_MAX_LEN,
              params->subscriberName);
  else
    fake_cupti.subscriber_name[0] = '\0';
  fake_cupti_unlock ();
  *subscriber = &fake_cupti_subscriber;
  return CUPTI_SUCCESS;
}

CUptiResult CUPTIAPI
cuptiSubscribe (CUpti_SubscriberHandle *subscriber,
                CUpti_CallbackFunc      callback,
                void                   *userdata)
{
  return cuptiSubscribe_v2 (subscriber, callback, userdata, NULL);
}

/* The subscriber's callbacks forgotten. The lock is held. */
void
fake_cupti_forget_subscriber (void)
{
  fake_cupti.subscribed = false;
  fake_cupti.callback = NULL;
  fake_cupti.userdata = NULL;
  fake_cupti.subscriber_name[0] = '\0';
  memset (fake_cupti.runtime_callbacks, 0, sizeof fake_cupti.runtime_callbacks);
  memset (fake_cupti.driver_callbacks, 0, sizeof fake_cupti.driver_callbacks);
}

CUptiResult CUPTIAPI
cuptiUnsubscribe (CUpti_SubscriberHandle subscriber)
{
  CUptiResult result = CUPTI_ERROR_INVALID_PARAMETER;

  fake_cupti_lock ();
  if (fake_cupti.subscribed && subscriber == &fake_cupti_subscriber)
    {
      fake_cupti_forget_subscriber ();
      result = CUPTI_SUCCESS;
    }
  fake_cupti_unlock ();
  return result;
}

/* For a call about @subscriber's callbacks in @domain: the domain's switches (NULL for a domain
 * with no callbacks here) and how many; CUPTI_ERROR_INVALID_PARAMETER when the subscriber is not
 * the one subscribed or the domain is none. The lock is held. */
static CUptiResult
switches_of (CUpti_SubscriberHandle  subscriber,
             CUpti_CallbackDomain    domain,
             uint8_t               **switches,
             unsigned               *n)
{
  *switches = domain == CUPTI_CB_DOMAIN_RUNTIME_API ? fake_cupti.runtime_callbacks
              : domain == CUPTI_CB_DOMAIN_DRIVER_API ? fake_cupti.driver_callbacks : NULL;
  *n = domain == CUPTI_CB_DOMAIN_RUNTIME_API ? CUPTI_RUNTIME_TRACE_CBID_SIZE
       : domain == CUPTI_CB_DOMAIN_DRIVER_API ? CUPTI_DRIVER_TRACE_CBID_SIZE : 0;
  if (!fake_cupti.subscribed || subscriber != &fake_cupti_subscriber || domain <= CUPTI_CB_DOMAIN_INVALID ||
      domain >= CUPTI_CB_DOMAIN_SIZE)
    return CUPTI_ERROR_INVALID_PARAMETER;
  return CUPTI_SUCCESS;
}

CUptiResult CUPTIAPI
cuptiEnableCallback (uint32_t               enable,
                     CUpti_SubscriberHandle subscriber,
                     CUpti_CallbackDomain   domain,
                     CUpti_CallbackId       cbid)
{
  uint8_t *switches;
  unsigned n;
  CUptiResult result;

  fake_cupti_lock ();
  result = switches_of (subscriber, domain, &switches, &n);
  if (result == CUPTI_SUCCESS && switches != NULL && cbid >= n)
    result = CUPTI_ERROR_INVALID_PARAMETER;
  else if (result == CUPTI_SUCCESS && switches != NULL)
    switches[cbid] = enable != 0;
  fake_cupti_unlock ();
  return result;
}

CUptiResult CUPTIAPI
cuptiEnableDomain (uint32_t               enable,
                   CUpti_SubscriberHandle subscriber,
                   CUpti_CallbackDomain   domain)
{
  uint8_t *switches;
  unsigned n;
  CUptiResult result;

  fake_cupti_lock ();
  if ((result = switches_of (subscriber, domain, &switches, &n)) == CUPTI_SUCCESS && switches != NULL)
    memset (switches, enable != 0, n);
  fake_cupti_unlock ();
  return result;
}

CUptiResult CUPTIAPI
cuptiEnableAllDomains (uint32_t               enable,
                       CUpti_SubscriberHandle subscriber)
{
  CUptiResult result = cuptiEnableDomain (enable, subscriber, CUPTI_CB_DOMAIN_RUNTIME_API);

  return result == CUPTI_SUCCESS ? cuptiEnableDomain (enable, subscriber, CUPTI_CB_DOMAIN_DRIVER_API) : result;
}

CUptiResult CUPTIAPI
cuptiGetCallbackState (uint32_t               *enable,
                       CUpti_SubscriberHandle  subscriber,
                       CUpti_CallbackDomain    domain,
                       CUpti_CallbackId        cbid)
{
  uint8_t *switches;
  unsigned n;
  CUptiResult result;

  fake_cupti_lock ();
  result = switches_of (subscriber, domain, &switches, &n);
  if (result == CUPTI_SUCCESS && (enable == NULL || switches == NULL || cbid >= n))
    result = CUPTI_ERROR_INVALID_PARAMETER;
  else if (result == CUPTI_SUCCESS)
    *enable = switches[cbid];
  fake_cupti_unlock ();
  return result;
}
