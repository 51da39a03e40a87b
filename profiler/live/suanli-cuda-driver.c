/* suanli-cuda-driver.c — whether this computer has a CUDA driver for local jobs to be captured on
 *
 * A job becomes profilable when the CUDA driver (libcuda.so.1) loads the injection library at
 * cuInit; without the driver no local job ever appears, and the Live window says so rather than
 * wait. The driver is looked for as the dynamic linker finds it, loaded lazily and never
 * initialised. SUANLI_CUDA_DRIVER names another library to look for (the tests use it).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <gmodule.h>

#include "suanli-cuda-driver.h"

/* @library: (out) (optional): the library looked for. */
gboolean
suanli_cuda_driver_is_present (char **library)
{
  const char *name = g_getenv ("SUANLI_CUDA_DRIVER");
  GModule *module;

  if (name == NULL || *name == '\0')
    name = "libcuda.so.1";
  if (library != NULL)
    *library = g_strdup (name);
  module = g_module_open (name, G_MODULE_BIND_LAZY | G_MODULE_BIND_LOCAL);
  if (module == NULL)
    return FALSE;
  g_module_close (module);
  return TRUE;
}
