/* suanli-demangle.c — C++ names as people read them, the way Kineto shows kernels
 *
 * CUPTI names kernels by their symbols (_Z18suanli_long_kernelxPi) and a module's symbol table
 * holds its functions the same way; Kineto shows them through the Itanium C++ ABI's demangler, and
 * so do we, with the very one it uses (libstdc++'s), so that a capture and a Kineto trace of the
 * same job name their kernels alike.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <stdlib.h>

#include "suanli-demangle.h"

/* libstdc++'s abi::__cxa_demangle, declared here: its header is C++. */
char *__cxa_demangle (const char *mangled,
                      char       *buffer,
                      size_t     *length,
                      int        *status);

/**
 * suanli_demangle:
 * @name: a symbol: a C++ one (_Z…), or any other
 *
 * Returns: (transfer full) (nullable): @name demangled ("suanli_long_kernel(long long, int*)"),
 * or NULL when it is not a C++ symbol or does not demangle (C names, "triton_poi_fused_add_0",
 * damaged ones): those stay as they are. Only names that start as C++ symbols do are tried, since
 * the demangler also takes a lone type's code ("f" would become "float").
 */
char *
suanli_demangle (const char *name)
{
  char *demangled;
  char *copy;
  int status = -1;

  if (name == NULL || name[0] != '_' || name[1] != 'Z')
    return NULL;
  demangled = __cxa_demangle (name, NULL, NULL, &status);
  if (status != 0 || demangled == NULL)
    {
      free (demangled);
      return NULL;
    }
  /* From malloc, handed on as GLib's. */
  copy = g_strdup (demangled);
  free (demangled);
  return copy;
}
