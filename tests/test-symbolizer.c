/* test-symbolizer.c — launch stacks named in the collector: real stacks of this process (backtrace at
 * the bottom of a recursion in a real shared library, and a frame in Debian's libtorch_cpu), its
 * real modules, against what dladdr says of the same addresses; offsets where the file is missing
 * or another build; Python frames spliced in where the interpreter's are
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#define _GNU_SOURCE
#include <dlfcn.h>
#include <string.h>

#include "suanli-demangle.h"
#include "suanli-launch-stack.h"
#include "suanli-symbolizer.h"
#include "suanli-test-capture.h"

/* In libsuanli-test-stack.so (stack-library.c). */
int suanli_test_stack_depth (int levels, void **frames, int size) __asm__ ("_ZN6suanli4test5depthEiPPvi");
int suanli_test_stack_python (int levels, void **frames, int size) __asm__ ("_ZN6suanli4test6pythonEiPPvi");

#define MAX_FRAMES  64
#define LEVELS      6
#define TORCH       "libtorch_cpu.so.1.13"
/* An exported function of libtorch_cpu 1.13, and as Kineto's demangler names it. */
#define TORCH_SYMBOL    "_ZN2at6detail9empty_cpuEN3c108ArrayRefIlEENS1_10ScalarTypeEbNS1_8optionalINS1_12MemoryFormatEEE"
#define TORCH_FUNCTION  "at::detail::empty_cpu(c10::ArrayRef<long>, c10::ScalarType, bool, c10::optional<c10::MemoryFormat>)"
#define PYTHON_FRAMES   "<module> (train.py:1)\ntrain (train.py:40)\nBlock.forward (model/block.py:12)"

typedef struct
{
  guint64 frames[MAX_FRAMES];
  guint   depth;
  guint   first;   /* the innermost frame in the library (a sanitizer's backtrace is another's) */
} Stack;

/* The frames in the library: the launch callback's, the recursion's and the call into it. */
#define LIBRARY_FRAMES (LEVELS + 3)

static const char *
base_name (const char *path)
{
  const char *slash = strrchr (path, '/');

  return slash != NULL ? slash + 1 : path;
}

static void
take_stack (Stack   *stack,
            gboolean python)
{
  void *frames[MAX_FRAMES];
  int depth = python ? suanli_test_stack_python (LEVELS, frames, MAX_FRAMES)
                     : suanli_test_stack_depth (LEVELS, frames, MAX_FRAMES);

  g_assert_cmpint (depth, >, LEVELS + 3);
  g_assert_cmpint (depth, <, MAX_FRAMES);
  stack->first = G_MAXUINT;
  for (int i = 0; i < depth; i++)
    {
      Dl_info info;

      stack->frames[i] = (guint64) (guintptr) frames[i];
      if (stack->first == G_MAXUINT && dladdr (frames[i], &info) != 0 &&
          g_str_equal (base_name (info.dli_fname), "libsuanli-test-stack.so"))
        stack->first = (guint) i;
    }
  stack->depth = (guint) depth;
  g_assert_cmpuint (stack->first, <, 4);
}

/* Debian's libtorch_cpu, loaded; NULL where it is not installed. */
static void *
open_torch (void)
{
  static void *torch;
  static gboolean tried;

  if (!tried)
    {
      tried = TRUE;
      torch = dlopen (TORCH, RTLD_LAZY | RTLD_LOCAL);
      if (torch == NULL)
        g_test_message ("%s not loaded: %s", TORCH, dlerror ());
    }
  return torch;
}

/* An address inside libtorch_cpu's function TORCH_SYMBOL, as a return address there would be. */
static guint64
torch_frame (void)
{
  void *function = dlsym (open_torch (), TORCH_SYMBOL);

  g_assert_nonnull (function);
  return (guint64) (guintptr) function + 8;
}

/* The line dladdr's answer makes, as the job made it: NULL where it names no function (or the
 * frame is the profiler's own, which is left out), "" where it knows no module. */
static char *
dladdr_line (guint64 address)
{
  Dl_info info;
  g_autofree char *demangled = NULL;

  if (dladdr ((void *) (guintptr) address, &info) == 0 || info.dli_fname == NULL)
    return g_strdup ("");
  if (info.dli_sname == NULL)
    return NULL;
  demangled = suanli_demangle (info.dli_sname);
  return g_strdup_printf ("%s (%s)", demangled != NULL ? demangled : info.dli_sname, base_name (info.dli_fname));
}

static gboolean
is_profiler_line (const char *line)
{
  return g_str_has_prefix (line, "suanli_inject_") || g_str_has_prefix (line, "backtrace (") ||
         g_str_has_prefix (line, "__interceptor_backtrace (");
}

/* The kernel's "Call stack" from a capture of this process's modules and @stack. */
static char *
decoded_stack (const Stack *stack,
               const char  *python)
{
  g_auto(SuanliTestCapture) capture = { 0 };
  g_autoptr(SuanliTrace) trace = NULL;
  SuanliTrack *track;
  guint32 name, python_id = 0;

  suanli_test_capture_init (&capture, SUANLI_CAPTURE_FROM_LAUNCH);
  g_assert_cmpuint (suanli_test_capture_own_modules (&capture), >, 3);
  name = suanli_test_capture_string (&capture, "_Z18suanli_long_kernelxPi");
  if (python != NULL)
    python_id = suanli_test_capture_string (&capture, python);
  suanli_test_capture_launch_stack (&capture, 31, python_id, stack->frames, stack->depth);
  suanli_test_capture_kernel (&capture, 31, name, 1000, 2000);
  suanli_test_capture_end (&capture, SUANLI_END_STOPPED, 0, 0);
  trace = suanli_test_capture_decode (&capture);
  track = suanli_test_find_gpu_stream (trace);
  g_assert_cmpuint (track->slices->len, ==, 1);
  return g_strdup (suanli_test_find_string_arg (trace, &g_array_index (track->slices, SuanliSlice, 0), "Call stack"));
}

/* Every frame dladdr names is named alike (demangled), outermost first; the profiler's frames are
 * left out; the library's recursion is there, each level of it. */
static void
test_own_stack (void)
{
  Stack stack;
  g_autofree char *text = NULL;
  g_auto(GStrv) lines = NULL;
  guint line = 0, descents = 0, compared = 0;

  take_stack (&stack, FALSE);
  /* A frame in libtorch_cpu too, where it is installed: among the outer frames, as if the
   * library's caller had been called from there. */
  if (open_torch () != NULL)
    {
      guint at = stack.first + LIBRARY_FRAMES;

      memmove (&stack.frames[at + 1], &stack.frames[at], (stack.depth - at) * sizeof (guint64));
      stack.frames[at] = torch_frame ();
      stack.depth++;
    }
  text = decoded_stack (&stack, NULL);
  g_assert_nonnull (text);
  g_test_message ("launch stack:\n%s", text);
  lines = g_strsplit (text, "\n", -1);
  for (guint i = stack.depth; i-- > 0;)
    {
      g_autofree char *expected = dladdr_line (stack.frames[i]);

      if (expected != NULL && *expected == '\0')
        continue;   /* in no module: left out */
      if (expected != NULL && is_profiler_line (expected))
        {
          g_assert_true (lines[line] == NULL || !g_str_equal (lines[line], expected));
          continue;
        }
      g_assert_nonnull (lines[line]);
      if (expected != NULL)
        {
          g_assert_cmpstr (lines[line], ==, expected);
          compared++;
        }
      descents += g_str_equal (lines[line], "suanli::test::descend(int, void**, int) (libsuanli-test-stack.so)");
      line++;
    }
  g_assert_null (lines[line]);
  g_assert_cmpuint (descents, ==, LEVELS + 1);
  g_assert_cmpuint (compared, >=, LEVELS + 2);
  g_assert_true (g_str_has_suffix (text, "suanli::test::descend(int, void**, int) (libsuanli-test-stack.so)"));
  g_assert_nonnull (strstr (text, "suanli::test::depth(int, void**, int) (libsuanli-test-stack.so)\n"));
  g_assert_null (strstr (text, "suanli_inject_"));
  /* The test's own functions are not exported (dladdr cannot name them): the symbol table can. */
  g_assert_nonnull (strstr (text, "take_stack (test-symbolizer)\n"));
  if (open_torch () != NULL)
    g_assert_nonnull (strstr (text, "\n" TORCH_FUNCTION " (" TORCH ")\n"));
  else
    g_test_message ("%s is not installed: no frame of it compared", TORCH);
}

/* libtorch_cpu has no .symtab: its dynamic symbols (tens of thousands of C++ names) name it. */
static void
test_torch (void)
{
  g_autoptr(SuanliSymbolizer) symbolizer = suanli_symbolizer_new ();
  g_autofree char *expected = NULL;
  Dl_info info;
  SuanliFrame frame;
  guint64 address;

  if (open_torch () == NULL)
    {
      g_test_skip (TORCH " is not installed");
      return;
    }
  address = torch_frame ();
  g_assert_true (dladdr ((void *) (guintptr) address, &info) != 0);
  g_assert_cmpstr (info.dli_sname, ==, TORCH_SYMBOL);
  suanli_symbolizer_add_module (symbolizer, (guint64) (guintptr) info.dli_fbase, (guint64) (guintptr) info.dli_fbase,
                                address + 4096, info.dli_fname, NULL, 0);
  suanli_symbolizer_lookup (symbolizer, address, &frame);
  g_assert_cmpstr (frame.function, ==, TORCH_FUNCTION);
  g_assert_cmpstr (frame.library, ==, TORCH);
  g_assert_cmpuint (frame.offset, ==, address - (guint64) (guintptr) info.dli_fbase);
  g_test_message ("%s: %u functions", info.dli_fname, suanli_symbolizer_get_n_symbols (symbolizer, info.dli_fname));
  g_assert_cmpuint (suanli_symbolizer_get_n_symbols (symbolizer, info.dli_fname), >, 10000);
  expected = dladdr_line (address);
  g_assert_cmpstr (expected, ==, TORCH_FUNCTION " (" TORCH ")");
}

/* The library's module as the job would send it, but with @path and @build_id. */
static void
add_library (SuanliSymbolizer *symbolizer,
             const Stack      *stack,
             const char       *path,
             const guint8     *build_id,
             guint             build_id_length)
{
  Dl_info info;
  guint64 base;

  g_assert_true (dladdr ((void *) (guintptr) stack->frames[stack->first], &info) != 0);
  base = (guint64) (guintptr) info.dli_fbase;
  suanli_symbolizer_add_module (symbolizer, base, base, stack->frames[stack->first] + 4096,
                                path != NULL ? path : info.dli_fname, build_id, build_id_length);
}

/* A file that is not there, or whose build id is not the one the job loaded, gives offsets in it:
 * never a name that may be another build's. */
static void
test_offsets (void)
{
  const guint8 wrong[20] = { 0xde, 0xad, 0xbe, 0xef };
  Stack stack;

  take_stack (&stack, FALSE);
  for (guint c = 0; c < 3; c++)
    {
      g_autoptr(SuanliSymbolizer) symbolizer = suanli_symbolizer_new ();
      g_autofree char *text = NULL;
      Dl_info info;

      g_assert_true (dladdr ((void *) (guintptr) stack.frames[stack.first], &info) != 0);
      if (c == 0)
        add_library (symbolizer, &stack, "/nonexistent/libsuanli-test-stack.so", NULL, 0);
      else if (c == 1)
        add_library (symbolizer, &stack, NULL, wrong, sizeof wrong);
      else
        add_library (symbolizer, &stack, NULL, NULL, 0);   /* the control: the right file, no id to check */
      /* The library's frames only: the recursion and the call under it. */
      text = suanli_launch_stack_format (symbolizer, stack.frames + stack.first, LIBRARY_FRAMES, NULL);
      g_test_message ("case %u:\n%s", c, text);
      if (c < 2)
        {
          g_autofree char *innermost = g_strdup_printf ("libsuanli-test-stack.so+0x%" G_GINT64_MODIFIER "x",
                                                        stack.frames[stack.first] - (guint64) (guintptr) info.dli_fbase);
          g_auto(GStrv) lines = g_strsplit (text, "\n", -1);

          /* The profiler's frame cannot be told without its name: it is there, as an offset. */
          g_assert_cmpuint (g_strv_length (lines), ==, LIBRARY_FRAMES);
          for (guint i = 0; lines[i] != NULL; i++)
            g_assert_true (g_str_has_prefix (lines[i], "libsuanli-test-stack.so+0x"));
          g_assert_cmpstr (lines[LIBRARY_FRAMES - 1], ==, innermost);
          g_assert_null (strstr (text, "descend"));
        }
      else
        {
          g_assert_true (g_str_has_prefix (text, "suanli::test::depth(int, void**, int) (libsuanli-test-stack.so)\n"));
          g_assert_true (g_str_has_suffix (text, "\nsuanli::test::descend(int, void**, int) (libsuanli-test-stack.so)"));
          g_assert_null (strstr (text, "suanli_inject_"));
        }
    }
}

/* Python frames stand in for the interpreter's: the Python text, then only the native frames under
 * the innermost interpreter frame. Without an interpreter frame on the stack, the Python text is
 * not shown (the launch did not come from it). */
static void
test_python (void)
{
  Stack stack;
  g_autofree char *text = NULL;
  g_autofree char *native = NULL;
  g_autoptr(GString) expected = g_string_new (PYTHON_FRAMES);

  g_assert_true (suanli_launch_stack_is_interpreter_frame ("python3.11", "main"));
  g_assert_true (suanli_launch_stack_is_interpreter_frame ("libpython3.12.so.1.0", NULL));
  g_assert_true (suanli_launch_stack_is_interpreter_frame ("libtorch_python.so", "_PyEval_EvalFrameDefault"));
  g_assert_false (suanli_launch_stack_is_interpreter_frame ("libtorch_python.so", "THPVariable_add"));

  take_stack (&stack, TRUE);
  text = decoded_stack (&stack, PYTHON_FRAMES);
  g_test_message ("launch stack:\n%s", text);
  for (guint i = 0; i <= LEVELS; i++)
    g_string_append (expected, "\nsuanli::test::descend(int, void**, int) (libsuanli-test-stack.so)");
  g_assert_cmpstr (text, ==, expected->str);

  take_stack (&stack, FALSE);
  native = decoded_stack (&stack, PYTHON_FRAMES);
  g_assert_null (strstr (native, "train.py"));
  g_assert_nonnull (strstr (native, "take_stack (test-symbolizer)\n"));
}

/* Kernels of one graph launch share its correlation: each gets the launch's stack; so does another
 * launch from the same place. A frame in no module is left out; a stack of such frames only gives
 * no "Call stack" at all. */
static void
test_shared_and_unknown (void)
{
  g_auto(SuanliTestCapture) capture = { 0 };
  g_autoptr(SuanliTrace) trace = NULL;
  SuanliTrack *track;
  Stack stack;
  const guint64 nowhere[] = { 16, 32 };
  guint32 name;

  take_stack (&stack, FALSE);
  stack.frames[stack.depth++] = 8;   /* in no module */
  suanli_test_capture_init (&capture, SUANLI_CAPTURE_FROM_LAUNCH);
  suanli_test_capture_own_modules (&capture);
  name = suanli_test_capture_string (&capture, "triton_poi_fused_add_0");
  suanli_test_capture_launch_stack (&capture, 7, 0, stack.frames, stack.depth);
  suanli_test_capture_kernel (&capture, 7, name, 1000, 2000);
  suanli_test_capture_kernel (&capture, 7, name, 3000, 4000);
  suanli_test_capture_launch_stack (&capture, 8, 0, nowhere, G_N_ELEMENTS (nowhere));
  suanli_test_capture_kernel (&capture, 8, name, 5000, 6000);
  suanli_test_capture_launch_stack (&capture, 9, 0, stack.frames, stack.depth);
  suanli_test_capture_kernel (&capture, 9, name, 7000, 8000);
  suanli_test_capture_end (&capture, SUANLI_END_STOPPED, 0, 0);
  trace = suanli_test_capture_decode (&capture);
  track = suanli_test_find_gpu_stream (trace);
  g_assert_cmpuint (track->slices->len, ==, 4);
  {
    const char *first = suanli_test_find_string_arg (trace, &g_array_index (track->slices, SuanliSlice, 0), "Call stack");
    const char *second = suanli_test_find_string_arg (trace, &g_array_index (track->slices, SuanliSlice, 1), "Call stack");
    const char *again = suanli_test_find_string_arg (trace, &g_array_index (track->slices, SuanliSlice, 3), "Call stack");

    g_assert_nonnull (first);
    g_assert_true (first == second);   /* one string, interned once */
    g_assert_true (first == again);
    g_assert_true (g_str_has_suffix (first, "suanli::test::descend(int, void**, int) (libsuanli-test-stack.so)"));
  }
  g_assert_null (suanli_test_find_string_arg (trace, &g_array_index (track->slices, SuanliSlice, 2), "Call stack"));
  /* The name of a C kernel (Triton's) stays as it is, with no mangled name beside it. */
  g_assert_cmpstr (suanli_trace_get_string (trace, g_array_index (track->slices, SuanliSlice, 0).name), ==,
                   "triton_poi_fused_add_0");
  g_assert_null (suanli_test_find_string_arg (trace, &g_array_index (track->slices, SuanliSlice, 0), "mangled name"));
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/symbolizer/own-stack", test_own_stack);
  g_test_add_func ("/symbolizer/torch", test_torch);
  g_test_add_func ("/symbolizer/offsets", test_offsets);
  g_test_add_func ("/symbolizer/python", test_python);
  g_test_add_func ("/symbolizer/shared-and-unknown", test_shared_and_unknown);
  return g_test_run ();
}
