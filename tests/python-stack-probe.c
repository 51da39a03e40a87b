/* python-stack-probe.c — the injection library's launch-stack code, callable from Python through
 * ctypes, for tests/check-python-stack.py: a launch "made" from Python code
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <stddef.h>
#include <stdint.h>

#include "suanli-inject-cupti.h"
#include "suanli-inject-python.h"

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

/* A launch's stack as a kernel record would carry it: recorded here, formatted back.
 * (Being moved to the collector's symboliser: the job no longer names frames.) */
size_t
suanli_probe_launch_stack (char     *text,
                           size_t    size,
                           uint32_t  correlation)
{
  suanli_inject_enable_python_stacks ();
  suanli_inject_record_launch_stack (correlation);
  if (size > 0)
    text[0] = '\0';
  return 0;
}
