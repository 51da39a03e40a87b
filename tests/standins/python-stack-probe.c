/* python-stack-probe.c — launch stacks as the job takes them and the collector names them,
 * callable from Python through ctypes, for tests/scripts/check-python-stack.py: a launch "made" from Python
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <glib.h>

#include "suanli-capture.h"
#include "suanli-inject-cupti.h"
#include "suanli-inject-python.h"
#include "suanli-launch-stack.h"

size_t suanli_probe_python_stack (char *text, size_t size);
size_t suanli_probe_launch_stack (char *text, size_t size, uint32_t correlation);

/* The calling thread's Python frames alone. */
size_t
suanli_probe_python_stack (char   *text,
                           size_t  size)
{
  if (!suanli_inject_enable_python_stacks ())
    return 0;
  return suanli_inject_python_stack (text, size);
}

/* A launch's stack as a kernel would carry it: taken here as the job takes it (the modules, then
 * the stack record, into a queue), then named from those records as the collector names them. */
size_t
suanli_probe_launch_stack (char     *text,
                           size_t    size,
                           uint32_t  correlation)
{
  g_autoptr(SuanliSymbolizer) symbolizer = suanli_symbolizer_new ();
  g_autoptr(GHashTable) strings = g_hash_table_new_full (NULL, NULL, NULL, g_free);
  g_autofree guint64 *frames = NULL;
  g_autofree char *stack = NULL;
  SuanliInjectQueue queue;
  const uint8_t *bytes;
  size_t length, depth = 0;
  uint32_t python = 0;

  suanli_inject_enable_python_stacks ();
  if (suanli_inject_queue_init (&queue, 1 << 20) != 0)
    return 0;
  /* Each call is a capture of its own: its strings and modules are sent again. */
  suanli_inject_reset_string_ids ();
  suanli_inject_forget_modules ();
  suanli_inject_send_new_modules (&queue);
  suanli_inject_push_launch_stack (&queue, correlation);
  length = suanli_inject_queue_peek (&queue, &bytes);
  for (size_t at = 0; at < length;)
    {
      const SuanliCaptureRecord *record;
      union { SuanliCaptureString string; SuanliCaptureModule module; SuanliCaptureLaunchStack stack; } head;

      if (suanli_capture_next_record (bytes + at, length - at, &record) != SUANLI_CAPTURE_OK)
        break;
      suanli_capture_copy_record (record, &head, sizeof head);
      if (record->kind == SUANLI_CAPTURE_STRING)
        g_hash_table_insert (strings, GUINT_TO_POINTER (head.string.id),
                             g_strndup ((const char *) record + sizeof head.string, head.string.length));
      else if (record->kind == SUANLI_CAPTURE_MODULE)
        suanli_symbolizer_add_module (symbolizer, head.module.bias, head.module.start, head.module.end,
                                      g_hash_table_lookup (strings, GUINT_TO_POINTER (head.module.path)),
                                      head.module.build_id, head.module.build_id_length);
      else if (record->kind == SUANLI_CAPTURE_LAUNCH_STACK && head.stack.correlation == correlation)
        {
          depth = head.stack.depth;
          python = head.stack.python;
          frames = g_memdup2 ((const uint8_t *) record + sizeof head.stack, depth * sizeof (guint64));
        }
      at += record->size;
    }
  suanli_inject_queue_destroy (&queue);
  stack = frames != NULL ? suanli_launch_stack_format (symbolizer, frames, (guint) depth,
                                                      g_hash_table_lookup (strings, GUINT_TO_POINTER (python)))
                         : g_strdup ("");
  g_strlcpy (text, stack, size);
  return strlen (text);
}
