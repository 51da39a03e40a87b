/* nvtx-job.c — a stand-in for a job that marks its phases with NVTX (as PyTorch's
 * torch.cuda.nvtx and Megatron do), for tests/test-inject-nvtx.c
 *
 * It starts as a CUDA job does (loading CUDA_INJECTION64_PATH and calling InitializeInjection, as
 * the driver does at cuInit), then obeys lines on its standard input, answering each on stdout:
 *   push NAME | pop | start NAME | end | mark NAME | domain DOMAIN NAME (push and pop in a domain)
 *   maps   — "cupti loaded" or "no cupti": whether any libcupti is mapped in this process
 * NVTX itself (the header-only nvtx3 from CUDA's headers) loads NVTX_INJECTION64_PATH at the first
 * call. The job exits at the end of its input.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <nvtx3/nvToolsExt.h>

static int
cupti_is_mapped (void)
{
  FILE *maps = fopen ("/proc/self/maps", "r");
  char line[4096];
  int found = 0;

  while (maps != NULL && fgets (line, sizeof line, maps) != NULL)
    if (strstr (line, "libcupti") != NULL)
      found = 1;
  if (maps != NULL)
    fclose (maps);
  return found;
}

int
main (void)
{
  const char *path = getenv ("CUDA_INJECTION64_PATH");
  void *library = path != NULL ? dlopen (path, RTLD_NOW | RTLD_LOCAL) : NULL;
  int (*initialize) (void) = library != NULL ? (int (*) (void)) dlsym (library, "InitializeInjection") : NULL;
  nvtxRangeId_t open_range = 0;
  char line[512];

  if (initialize == NULL || initialize () != 1)
    {
      fprintf (stderr, "nvtx-job: cannot initialise %s\n", path != NULL ? path : "(no CUDA_INJECTION64_PATH)");
      return 3;
    }
  setvbuf (stdout, NULL, _IOLBF, 0);
  while (fgets (line, sizeof line, stdin) != NULL)
    {
      char *name = strchr (line, ' ');

      line[strcspn (line, "\n")] = '\0';
      if (name != NULL)
        *name++ = '\0';
      if (strcmp (line, "push") == 0 && name != NULL)
        printf ("pushed %d\n", nvtxRangePushA (name));
      else if (strcmp (line, "pop") == 0)
        printf ("popped %d\n", nvtxRangePop ());
      else if (strcmp (line, "start") == 0 && name != NULL)
        printf ("started %llu\n", (unsigned long long) (open_range = nvtxRangeStartA (name)));
      else if (strcmp (line, "end") == 0)
        {
          nvtxRangeEnd (open_range);
          printf ("ended\n");
        }
      else if (strcmp (line, "mark") == 0 && name != NULL)
        {
          nvtxMarkA (name);
          printf ("marked\n");
        }
      else if (strcmp (line, "domain") == 0 && name != NULL && strchr (name, ' ') != NULL)
        {
          char *message = strchr (name, ' ');
          nvtxDomainHandle_t domain;
          nvtxEventAttributes_t attributes = { 0 };

          *message++ = '\0';
          domain = nvtxDomainCreateA (name);
          attributes.version = NVTX_VERSION;
          attributes.size = NVTX_EVENT_ATTRIB_STRUCT_SIZE;
          attributes.messageType = NVTX_MESSAGE_TYPE_ASCII;
          attributes.message.ascii = message;
          nvtxDomainRangePushEx (domain, &attributes);
          printf ("domain popped %d\n", nvtxDomainRangePop (domain));
        }
      else if (strcmp (line, "maps") == 0)
        printf ("%s\n", cupti_is_mapped () ? "cupti loaded" : "no cupti");
      else
        printf ("unknown %s\n", line);
    }
  return 0;
}
