/* inject-harness.c — a stand-in for a CUDA job's start, for the tests: loads the library named by
 * CUDA_INJECTION64_PATH and calls its InitializeInjection as the driver does at cuInit, then lives
 * for the seconds given (or until its standard input closes).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

int
main (int    argc,
      char **argv)
{
  const char *path = getenv ("CUDA_INJECTION64_PATH");
  void *library = path != NULL ? dlopen (path, RTLD_NOW | RTLD_LOCAL) : NULL;
  int (*initialize) (void) = library != NULL ? (int (*) (void)) dlsym (library, "InitializeInjection") : NULL;
  char c;

  if (initialize == NULL || initialize () != 1)
    {
      fprintf (stderr, "inject-harness: cannot initialise %s: %s\n", path != NULL ? path : "(no CUDA_INJECTION64_PATH)",
               dlerror ());
      return 3;
    }
  if (argc > 1)
    sleep ((unsigned) atoi (argv[1]));
  else
    while (read (0, &c, 1) > 0)
      ;
  return 0;
}
