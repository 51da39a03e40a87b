/* suanli-inject-cupti-library.c — finding libcupti in the job, loading it once, and its functions
 *
 * One libcupti per process: when the job has one loaded already (PyTorch's wheel, or its own), that
 * one is used, whatever else is set. Otherwise, in this order: SUANLI_CUPTI_PATH; the
 * nvidia-cuda-cupti wheel beside the job's Python packages (found from where the job loaded
 * libtorch or another module from site-packages); the toolkit of the libcudart the job loaded;
 * $CUDA_HOME, $CUDA_PATH, then /usr/local/cuda (SUANLI_CUDA_DEFAULT_TOOLKIT: another, or "" for
 * none), each in lib64/, extras/CUPTI/lib64/, targets/x86_64-linux/lib/ and lib/ (the layout of
 * pip's nvidia/cu13 wheel); then the loader's own search. Nothing is loaded before the first START, and a library once loaded stays:
 * CUPTI cannot be unloaded safely, and cuptiFinalize detaches it instead.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#define _GNU_SOURCE
#include "suanli-inject-cupti.h"

#include <dlfcn.h>
#include <link.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

SuanliCuptiApi suanli_cupti;

/* The sonames a libcupti of CUDA 13 (the headers built against) and 12 goes by. */
static const char * const sonames[] = { "libcupti.so.13", "libcupti.so.12", "libcupti.so" };

typedef struct
{
  char found[PATH_MAX];     /* a module whose file name starts with the wanted prefix */
  const char *prefix;
} ModuleSearch;

static int
find_module (struct dl_phdr_info *info,
             size_t               size,
             void                *data)
{
  ModuleSearch *search = data;
  const char *base = info->dlpi_name != NULL ? strrchr (info->dlpi_name, '/') : NULL;

  if (base != NULL && strncmp (base + 1, search->prefix, strlen (search->prefix)) == 0)
    {
      snprintf (search->found, sizeof search->found, "%s", info->dlpi_name);
      return 1;
    }
  return 0;
}

/* The path of a module loaded in this process whose file name starts with @prefix, or "". */
static void
loaded_module (const char *prefix,
               char       *path,
               size_t      size)
{
  ModuleSearch search = { .prefix = prefix };

  dl_iterate_phdr (find_module, &search);
  snprintf (path, size, "%s", search.found);
}

static bool
try_open (const char *path,
          int         flags)
{
  if (path == NULL || path[0] == '\0' || (strchr (path, '/') != NULL && access (path, R_OK) != 0))
    return false;
  suanli_cupti.library = dlopen (path, flags);
  if (suanli_cupti.library == NULL)
    return false;
  snprintf (suanli_cupti.path, sizeof suanli_cupti.path, "%s", path);
  return true;
}

/* @folder/@relative, when it fits. */
static bool
try_under (const char *folder,
           const char *relative)
{
  char path[PATH_MAX];

  if (folder == NULL || folder[0] == '\0' ||
      (size_t) snprintf (path, sizeof path, "%s/%s", folder, relative) >= sizeof path)
    return false;
  return try_open (path, RTLD_NOW | RTLD_LOCAL);
}

/* The wheel's libcupti, for a job whose modules come from a Python packages folder. */
static bool
try_wheel (void)
{
  static const char * const wheel_paths[] = {
    "nvidia/cu13/lib/libcupti.so.13", "nvidia/cuda_cupti/lib/libcupti.so.13", "nvidia/cuda_cupti/lib/libcupti.so.12",
  };
  static const char * const anchors[] = { "libtorch_cuda", "libtorch", "libc10_cuda", "libcudart" };

  for (unsigned a = 0; a < sizeof anchors / sizeof anchors[0]; a++)
    {
      char path[PATH_MAX], *packages;

      loaded_module (anchors[a], path, sizeof path);
      if ((packages = strstr (path, "-packages/")) == NULL)
        continue;
      packages[strlen ("-packages")] = '\0';   /* …/site-packages or …/dist-packages */
      for (unsigned w = 0; w < sizeof wheel_paths / sizeof wheel_paths[0]; w++)
        if (try_under (path, wheel_paths[w]))
          return true;
    }
  return false;
}

/* Where a toolkit keeps libcupti: NVIDIA's installers, and pip's nvidia/cu13 wheel (lib/). */
static bool
try_toolkit (const char *toolkit)
{
  static const char * const layouts[] = {
    "lib64/libcupti.so.13", "extras/CUPTI/lib64/libcupti.so.13", "targets/x86_64-linux/lib/libcupti.so.13",
    "lib/libcupti.so.13",
  };

  for (unsigned i = 0; i < sizeof layouts / sizeof layouts[0]; i++)
    if (try_under (toolkit, layouts[i]))
      return true;
  return false;
}

/* The toolkit a libcudart came from: <toolkit>/lib64/libcudart.so.13 (or pip's …/nvidia/cu13/lib/)
 * → <toolkit>. */
static bool
try_runtime_toolkit (void)
{
  char path[PATH_MAX], *slash;

  loaded_module ("libcudart.so", path, sizeof path);
  for (int up = 0; up < 2 && (slash = strrchr (path, '/')) != NULL; up++)
    *slash = '\0';
  return path[0] != '\0' && try_toolkit (path);
}

/* $CUDA_HOME, $CUDA_PATH, then the machine's own toolkit: a toolkit named comes first, and the
 * others are still looked in (a CUDA_HOME may name a toolkit without CUPTI). */
static bool
try_toolkits (void)
{
  const char *fallback = getenv ("SUANLI_CUDA_DEFAULT_TOOLKIT");
  const char *toolkits[] = { getenv ("CUDA_HOME"), getenv ("CUDA_PATH"), fallback != NULL ? fallback : "/usr/local/cuda" };

  for (unsigned i = 0; i < sizeof toolkits / sizeof toolkits[0]; i++)
    if (try_toolkit (toolkits[i]))
      return true;
  return false;
}

static bool
open_library (char   *error,
              size_t  error_size)
{
  char loaded[PATH_MAX];
  const char *override = getenv ("SUANLI_CUPTI_PATH");

  /* The job's own copy first: a second libcupti in one process breaks both. */
  loaded_module ("libcupti.so", loaded, sizeof loaded);
  if (try_open (loaded, RTLD_NOW | RTLD_NOLOAD))
    return true;
  for (unsigned i = 0; i < sizeof sonames / sizeof sonames[0]; i++)
    if (try_open (sonames[i], RTLD_NOW | RTLD_NOLOAD))
      return true;
  /* The loader's own search last (LD_LIBRARY_PATH, the system's folders). */
  if (try_open (override, RTLD_NOW | RTLD_LOCAL) || try_wheel () || try_runtime_toolkit () || try_toolkits () ||
      try_open ("libcupti.so.13", RTLD_NOW | RTLD_LOCAL))
    return true;
  if (override != NULL)
    snprintf (error, error_size, "no libcupti: SUANLI_CUPTI_PATH=%s did not load (%s), and none was found in the job, "
              "its Python packages or a CUDA toolkit", override, dlerror ());
  else
    snprintf (error, error_size, "no libcupti: none in the job, its Python packages (nvidia-cuda-cupti), "
              "$CUDA_HOME or /usr/local/cuda; set SUANLI_CUPTI_PATH");
  return false;
}

/**
 * suanli_inject_cupti_load:
 *
 * Finds and loads libcupti (once) and resolves the functions the capture uses; the later CUPTI 13
 * ones are optional. Starts nothing. Returns: 0, or -1 with why in @error.
 */
int
suanli_inject_cupti_load (char   *error,
                          size_t  error_size)
{
  struct { const char *name; void **slot; bool optional; } symbols[] = {
    { "cuptiGetVersion", (void **) &suanli_cupti.get_version, false },
    { "cuptiGetResultString", (void **) &suanli_cupti.get_result_string, false },
    { "cuptiGetTimestamp", (void **) &suanli_cupti.get_timestamp, false },
    { "cuptiActivityRegisterCallbacks", (void **) &suanli_cupti.register_callbacks, false },
    { "cuptiActivityEnable", (void **) &suanli_cupti.enable, false },
    { "cuptiActivityDisable", (void **) &suanli_cupti.disable, false },
    { "cuptiActivityFlushAll", (void **) &suanli_cupti.flush_all, false },
    { "cuptiActivityGetNextRecord", (void **) &suanli_cupti.get_next_record, false },
    { "cuptiActivityGetNumDroppedRecords", (void **) &suanli_cupti.get_num_dropped, false },
    { "cuptiSubscribe", (void **) &suanli_cupti.subscribe, false },
    { "cuptiUnsubscribe", (void **) &suanli_cupti.unsubscribe, false },
    { "cuptiEnableCallback", (void **) &suanli_cupti.enable_callback, false },
    { "cuptiGetCallbackName", (void **) &suanli_cupti.get_callback_name, false },
    { "cuptiSetThreadIdType", (void **) &suanli_cupti.set_thread_id_type, false },
    { "cuptiSubscribe_v2", (void **) &suanli_cupti.subscribe_v2, true },
    { "cuptiActivityEnableRuntimeApi", (void **) &suanli_cupti.enable_runtime_api, true },
    { "cuptiActivityEnableDriverApi", (void **) &suanli_cupti.enable_driver_api, true },
    { "cuptiFinalize", (void **) &suanli_cupti.finalize, true },
    { "cuptiEnableDomain", (void **) &suanli_cupti.enable_domain, true },
    { "cuptiActivityRegisterTimestampCallback", (void **) &suanli_cupti.register_timestamp, true },
  };

  if (__atomic_load_n (&suanli_cupti.get_timestamp, __ATOMIC_ACQUIRE) != NULL)
    return 0;
  if (suanli_cupti.library == NULL && !open_library (error, error_size))
    return -1;
  for (unsigned i = 0; i < sizeof symbols / sizeof symbols[0]; i++)
    {
      void *symbol = dlsym (suanli_cupti.library, symbols[i].name);

      if (symbol == NULL && !symbols[i].optional)
        {
          snprintf (error, error_size, "%s has no %s: too old", suanli_cupti.path, symbols[i].name);
          /* Not half resolved: the next START tries again. The library stays loaded (one per process). */
          for (unsigned j = 0; j < i; j++)
            *symbols[j].slot = NULL;
          return -1;
        }
      /* get_timestamp last: once it is set, everything is (suanli_inject_timestamp reads it alone). */
      if (symbols[i].slot == (void **) &suanli_cupti.get_timestamp)
        continue;
      *symbols[i].slot = symbol;
    }
  __atomic_store_n (&suanli_cupti.get_timestamp, (GetTimestamp) dlsym (suanli_cupti.library, "cuptiGetTimestamp"),
                    __ATOMIC_RELEASE);
  return 0;
}

/* "cuptiActivityEnable failed: CUPTI_ERROR_… (CUPTI error N)" in CUPTI's words. */
void
suanli_inject_cupti_quote (CUptiResult  result,
                           const char  *call,
                           char        *error,
                           size_t       error_size)
{
  const char *words = NULL;

  if (suanli_cupti.get_result_string == NULL || suanli_cupti.get_result_string (result, &words) != CUPTI_SUCCESS ||
      words == NULL)
    words = "unknown error";
  snprintf (error, error_size, "%s failed: %s (CUPTI error %d)", call, words, (int) result);
}

/**
 * suanli_inject_cupti_check_version:
 *
 * The activity records CUPTI writes are of its own version's structs. Within a major version NVIDIA
 * only adds record versions and grows structs at their end (CUDA 13's Kernel4 to Kernel10 keep every
 * offset the library reads), and the library asks for no record version by number: a newer minor
 * of the major it was built for is taken, with @warning saying so. Another major, or an older minor
 * (whose records may lack fields read here), is refused with a message saying what to do.
 * Returns: 0 (with @warning set, or ""), or -1 with why in @error.
 */
int
suanli_inject_cupti_check_version (uint32_t  version,
                                   char     *warning,
                                   size_t    warning_size,
                                   char     *error,
                                   size_t    error_size)
{
  uint32_t built = CUPTI_API_VERSION / 100;

  if (warning_size > 0)
    warning[0] = '\0';
  if (version / 100 == built)
    return 0;
  if (version >= 10000 && version / 10000 == built / 100 && version / 100 > built)
    {
      snprintf (warning, warning_size, "%s is CUPTI %u.%u, newer than the %u.%u this library was built for: its "
                "records were read with %u.%u's layout, which a newer %u.x keeps", suanli_cupti.path, version / 10000,
                version / 100 % 100, built / 100, built % 100, built / 100, built % 100, built / 100);
      return 0;
    }
  if (version < 10000)   /* before CUDA 13 the version was a plain number (28: CUDA 12.9 Update 1) */
    snprintf (error, error_size, "%s is CUPTI API version %u (CUDA 12 or older), older than the CUDA %u.%u this "
              "library was built for: load CUDA %u.%u's libcupti (SUANLI_CUPTI_PATH) or rebuild against CUDA 12",
              suanli_cupti.path, version, built / 100, built % 100, built / 100, built % 100);
  else
    snprintf (error, error_size, "%s is CUPTI %u.%u, %s than the %u.%u this library was built for: its activity "
              "records would not read right; rebuild libsuanli-inject.so against CUDA %u.%u's headers",
              suanli_cupti.path, version / 10000, version / 100 % 100, version / 100 > built ? "newer" : "older",
              built / 100, built % 100, version / 10000, version / 100 % 100);
  return -1;
}
