/* suanli-launch-stack.c — a kernel launch's CPU stack as the "Call stack" text
 *
 * The job sends a launch's return addresses, innermost first, and, when it runs CPython, that
 * thread's Python frames as text. The kernel's "Call stack" argument is the launch's frames,
 * outermost first, one "function (library)" a line ("library+0xOFFSET" where the library's file
 * cannot name it), without the profiler's own frames (the injection library, CUPTI and the driver
 * under the launch). Where the launch came from Python, the Python frames stand in for the
 * interpreter's native ones: the Python text first, then only the native frames under the
 * innermost interpreter frame. The flame graph reads the lines as frames.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <string.h>

#include "suanli-launch-stack.h"

/**
 * suanli_launch_stack_is_interpreter_frame:
 * @library: (nullable): the frame's file name, without its folder
 * @function: (nullable): its function
 *
 * Whether a native frame is the Python interpreter's own (the evaluation loop and the calls around
 * it): the Python frames stand for them.
 */
gboolean
suanli_launch_stack_is_interpreter_frame (const char *library,
                                          const char *function)
{
  if (library != NULL && (g_str_has_prefix (library, "python3") || g_str_has_prefix (library, "libpython3")))
    return TRUE;
  return function != NULL && g_str_has_prefix (function, "_PyEval_");
}

/* Whether a frame is the profiler's own: the injection library, CUPTI, the driver under the launch,
 * and backtrace itself (which shows up where a sanitizer intercepts it). */
static gboolean
is_profiler_frame (const SuanliFrame *frame)
{
  static const char * const libraries[] = { "libsuanli-inject", "libcupti", "libcuda.so" };

  if (frame->function != NULL &&
      (g_str_has_prefix (frame->function, "suanli_inject_") || g_str_equal (frame->function, "backtrace") ||
       g_str_equal (frame->function, "__interceptor_backtrace")))
    return TRUE;
  for (guint i = 0; i < G_N_ELEMENTS (libraries); i++)
    if (g_str_has_prefix (frame->library, libraries[i]))
      return TRUE;
  return FALSE;
}

/**
 * suanli_launch_stack_format:
 * @frames: (array length=depth): return addresses, innermost first
 * @python: (nullable): the launching thread's Python frames, outermost first, a line each
 *
 * Returns: (transfer full): the "Call stack" text; "" when none of the frames is in a module.
 */
char *
suanli_launch_stack_format (SuanliSymbolizer *symbolizer,
                            const guint64    *frames,
                            guint             depth,
                            const char       *python)
{
  g_autofree SuanliFrame *named = g_new (SuanliFrame, MAX (depth, 1));
  GString *text = g_string_new (NULL);
  guint native = depth;   /* the frames shown are [0, native) */

  for (guint i = 0; i < depth; i++)
    suanli_symbolizer_lookup (symbolizer, frames[i], &named[i]);
  if (python != NULL && *python != '\0')
    for (guint i = 0; i < depth && native == depth; i++)
      if (named[i].library != NULL && suanli_launch_stack_is_interpreter_frame (named[i].library, named[i].function))
        native = i;
  /* The Python frames only where the interpreter is on the stack: the launch came from them. */
  if (native < depth)
    g_string_append (text, python);
  for (guint i = native; i-- > 0;)
    {
      SuanliFrame *frame = &named[i];

      if (frame->library == NULL || is_profiler_frame (frame))
        continue;   /* in no module: nothing to name it by */
      if (text->len > 0)
        g_string_append_c (text, '\n');
      if (frame->function != NULL)
        {
          g_string_append (text, frame->function);
          g_string_append (text, " (");
          g_string_append (text, frame->library);
          g_string_append_c (text, ')');
        }
      else
        g_string_append_printf (text, "%s+0x%" G_GINT64_MODIFIER "x", frame->library, frame->offset);
    }
  return g_string_free (text, FALSE);
}
