/* stack-library.c — a real shared library for test-symbolizer: CPU stacks taken (with backtrace, as
 * the injection library takes them) at the bottom of a recursion inside it
 *
 * Its functions are C, under C++ symbols (as a C++ compiler would name them) so that the collector
 * demangles them as it does PyTorch's: descend is "suanli::test::descend(int, void**, int)". One
 * stands where the Python interpreter's evaluation loop would be (its name is what tells), and one
 * where the injection library's launch callback would (its frame is the profiler's own).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <execinfo.h>

#define EXPORT __attribute__ ((visibility ("default"), noinline))

EXPORT int suanli_test_stack_depth (int levels, void **frames, int size) __asm__ ("_ZN6suanli4test5depthEiPPvi");
EXPORT int suanli_test_stack_python (int levels, void **frames, int size) __asm__ ("_ZN6suanli4test6pythonEiPPvi");
EXPORT int suanli_test_descend (int levels, void **frames, int size) __asm__ ("_ZN6suanli4test7descendEiPPvi");
EXPORT int suanli_test_evaluate (int levels, void **frames, int size) __asm__ ("_PyEval_EvalFrameDefault");
EXPORT int suanli_inject_record_launch_stack (void **frames, int size);

/* Where the job's launch callback takes the stack. */
int
suanli_inject_record_launch_stack (void **frames,
                                   int    size)
{
  int depth = backtrace (frames, size);

  __asm__ volatile ("" ::: "memory");   /* no tail call: this frame stays on the stack */
  return depth;
}

int
suanli_test_descend (int    levels,
                     void **frames,
                     int    size)
{
  int depth = levels > 0 ? suanli_test_descend (levels - 1, frames, size) : suanli_inject_record_launch_stack (frames, size);

  __asm__ volatile ("" ::: "memory");
  return depth;
}

int
suanli_test_evaluate (int    levels,
                      void **frames,
                      int    size)
{
  int depth = suanli_test_descend (levels, frames, size);

  __asm__ volatile ("" ::: "memory");
  return depth;
}

/* The stack at the bottom of @levels recursive calls: backtrace's return addresses, innermost
 * first. Returns: how many. */
int
suanli_test_stack_depth (int    levels,
                         void **frames,
                         int    size)
{
  int depth = suanli_test_descend (levels, frames, size);

  __asm__ volatile ("" ::: "memory");
  return depth;
}

/* The same, called from the stand-in for the interpreter's evaluation loop. */
int
suanli_test_stack_python (int    levels,
                          void **frames,
                          int    size)
{
  int depth = suanli_test_evaluate (levels, frames, size);

  __asm__ volatile ("" ::: "memory");
  return depth;
}
