/* fuzz-agent-message.c — libFuzzer target: any bytes as one text message of the agent's WebSocket
 *
 * suanli_agent_message_read is what both the agent (reading a workbench) and the workbench
 * (reading an agent) trust with the other side's bytes. It must never crash, leak or read out of
 * bounds: it reads a message whose every field has its type, or says why not. Built as a fuzzer
 * with -Dfuzzing=true under clang; otherwise tests/fuzz/replay.c runs the saved corpus through it.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>

#include "suanli-agent-message.h"
#include "suanli-agent-protocol.h"

int LLVMFuzzerTestOneInput (const uint8_t *data,
                            size_t         size);

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  g_auto(SuanliAgentMessage) message = { 0 };
  g_autoptr(GError) error = NULL;

  /* The agent's frame guard never lets a longer message through. */
  if (size > SUANLI_AGENT_MAX_CONTROL)
    return 0;
  if (suanli_agent_message_read ((const char *) data, size, &message, &error))
    {
      if (message.message != NULL && !g_utf8_validate (message.message, -1, NULL))
        abort ();
    }
  else if (error == NULL)
    abort ();   /* a refusal always says why */
  return 0;
}
