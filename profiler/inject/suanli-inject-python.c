/* suanli-inject-python.c — the Python frames of the calling thread, for launch stacks
 *
 * A kernel launched from PyTorch has, natively, a stack of interpreter frames
 * (_PyEval_EvalFrameDefault, again and again) above the C++ that launched it: that says nothing of
 * which Python function it was. So at a launch, when the job is CPython 3.11, the thread's own
 * Python frames are read straight from the interpreter's structures, the way a sampling profiler
 * reads another process: no call into Python, no GIL, no allocation. Only the calling thread's
 * frames are read, and only while that thread is inside a call those frames made, so they cannot
 * go away meanwhile; every object is checked to be of the type expected before it is read.
 *
 * The layouts are CPython 3.11's (Include/cpython/pystate.h, internal/pycore_frame.h,
 * cpython/code.h, cpython/unicodeobject.h) on 64-bit Linux; they change between minor versions,
 * so any other version gets native frames only. tests/scripts/check-python-stack.py checks them against
 * the real interpreter.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "suanli-inject-python.h"

#define MAX_PYTHON_FRAMES 48

/* CPython 3.11, x86-64 and aarch64 (LP64). */
enum {
  THREAD_STATE_CFRAME    = 56,   /* PyThreadState.cframe */
  CFRAME_CURRENT_FRAME   = 8,    /* _PyCFrame.current_frame */
  FRAME_CODE             = 32,   /* _PyInterpreterFrame.f_code */
  FRAME_PREVIOUS         = 48,   /* _PyInterpreterFrame.previous */
  OBJECT_TYPE            = 8,    /* PyObject.ob_type */
  CODE_FILENAME          = 112,  /* PyCodeObject.co_filename */
  CODE_QUALNAME          = 128,  /* PyCodeObject.co_qualname */
  CODE_FIRSTLINENO       = 72,   /* PyCodeObject.co_firstlineno */
  UNICODE_LENGTH         = 16,   /* PyASCIIObject.length */
  UNICODE_STATE          = 32,   /* PyASCIIObject.state: interned:2 kind:3 compact:1 ascii:1 */
  UNICODE_ASCII_DATA     = 48,   /* sizeof (PyASCIIObject) */
  UNICODE_UTF8_LENGTH    = 48,   /* PyCompactUnicodeObject.utf8_length */
  UNICODE_UTF8           = 56,   /* PyCompactUnicodeObject.utf8 */
  UNICODE_COMPACT_DATA   = 72,   /* sizeof (PyCompactUnicodeObject) */
};

typedef void *(*GetThreadState) (void);

static struct
{
  bool           ready;
  GetThreadState this_thread_state;   /* PyGILState_GetThisThreadState: no GIL needed */
  const void    *code_type;           /* &PyCode_Type */
  const void    *unicode_type;        /* &PyUnicode_Type */
} python;

/* Whether this process is CPython 3.11 (the interpreter itself, or an application embedding it):
 * then launch stacks get its frames. Safe to call again; cheap after the first time. */
bool
suanli_inject_python_init (void)
{
  const unsigned long *version;

  if (python.ready)
    return true;
  version = dlsym (RTLD_DEFAULT, "Py_Version");
  if (version == NULL || (*version >> 16) != 0x030B)
    return false;
  python.this_thread_state = (GetThreadState) dlsym (RTLD_DEFAULT, "PyGILState_GetThisThreadState");
  python.code_type = dlsym (RTLD_DEFAULT, "PyCode_Type");
  python.unicode_type = dlsym (RTLD_DEFAULT, "PyUnicode_Type");
  python.ready = python.this_thread_state != NULL && python.code_type != NULL && python.unicode_type != NULL;
  return python.ready;
}

static const void *
pointer_at (const void *base,
            size_t      offset)
{
  const void *value;

  memcpy (&value, (const char *) base + offset, sizeof value);
  return value;
}

static bool
is_of_type (const void *object,
            const void *type)
{
  return object != NULL && pointer_at (object, OBJECT_TYPE) == type;
}

/* Appends the text of a str object as UTF-8: ASCII and strings whose UTF-8 form is cached are
 * copied; in others, each character past ASCII becomes "?". Returns the new length. */
static size_t
append_unicode (char       *text,
                size_t      size,
                size_t      length,
                const void *string)
{
  uint32_t state;
  int64_t count;
  const char *data;
  unsigned kind;        /* bytes per character: 1, 2 or 4 */
  bool utf8 = true;     /* the bytes are UTF-8 already */

  if (!is_of_type (string, python.unicode_type))
    return length;
  memcpy (&state, (const char *) string + UNICODE_STATE, sizeof state);
  if (((state >> 5) & 1) == 0)
    return length;   /* not compact: code objects hold none of those */
  if ((state >> 6) & 1)
    {
      memcpy (&count, (const char *) string + UNICODE_LENGTH, sizeof count);
      data = (const char *) string + UNICODE_ASCII_DATA;
      kind = 1;
    }
  else if ((data = pointer_at (string, UNICODE_UTF8)) != NULL)
    {
      memcpy (&count, (const char *) string + UNICODE_UTF8_LENGTH, sizeof count);
      kind = 1;
    }
  else
    {
      memcpy (&count, (const char *) string + UNICODE_LENGTH, sizeof count);
      data = (const char *) string + UNICODE_COMPACT_DATA;
      kind = (state >> 2) & 7;
      utf8 = false;
      if (kind != 1 && kind != 2 && kind != 4)
        return length;
    }
  for (int64_t i = 0; i < count && length + 1 < size; i++)
    {
      uint32_t c = kind == 1 ? (uint8_t) data[i] : kind == 2 ? ((const uint16_t *) data)[i] : ((const uint32_t *) data)[i];

      text[length++] = utf8 || c < 0x80 ? (char) c : '?';
    }
  text[length] = '\0';
  return length;
}

/* Appends a file name's last two parts ("nn/modules/linear.py" → "modules/linear.py"). */
static size_t
append_file (char       *text,
             size_t      size,
             size_t      length,
             const void *filename)
{
  char path[512];
  size_t path_length = append_unicode (path, sizeof path, 0, filename);
  const char *start = path;
  int slashes = 0;

  for (size_t i = path_length; i > 0; i--)
    if (path[i - 1] == '/' && ++slashes == 2)
      {
        start = path + i;
        break;
      }
  for (; *start != '\0' && length + 1 < size; start++)
    text[length++] = *start;
  text[length] = '\0';
  return length;
}

/**
 * suanli_inject_python_stack:
 *
 * The calling thread's Python frames, outermost first, one "function (dir/file.py:line)" a line
 * (the line is where the function starts). Returns: the text's length; 0 when the process is not
 * CPython 3.11 or the thread runs no Python.
 */
size_t
suanli_inject_python_stack (char   *text,
                            size_t  size)
{
  const void *frames[MAX_PYTHON_FRAMES];
  const void *state, *cframe, *frame;
  size_t length = 0;
  int depth = 0;

  if (size == 0)
    return 0;
  text[0] = '\0';
  if (!python.ready || (state = python.this_thread_state ()) == NULL ||
      (cframe = pointer_at (state, THREAD_STATE_CFRAME)) == NULL)
    return 0;
  /* Innermost first, as they are linked; a loop or a stranger is the end. */
  for (frame = pointer_at (cframe, CFRAME_CURRENT_FRAME); frame != NULL && depth < MAX_PYTHON_FRAMES;
       frame = pointer_at (frame, FRAME_PREVIOUS))
    {
      const void *code = pointer_at (frame, FRAME_CODE);

      if (!is_of_type (code, python.code_type))
        break;
      frames[depth++] = code;
    }
  for (int i = depth - 1; i >= 0 && length + 1 < size; i--)
    {
      int line;

      memcpy (&line, (const char *) frames[i] + CODE_FIRSTLINENO, sizeof line);
      if (length > 0)
        text[length++] = '\n';
      length = append_unicode (text, size, length, pointer_at (frames[i], CODE_QUALNAME));
      length += (size_t) snprintf (text + length, size - length, " (");
      length = length < size ? append_file (text, size, length, pointer_at (frames[i], CODE_FILENAME)) : size - 1;
      if (length + 1 < size)
        length += (size_t) snprintf (text + length, size - length, ":%d)", line);
      if (length >= size)
        length = size - 1;
    }
  text[length] = '\0';
  return length;
}
