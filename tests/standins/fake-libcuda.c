/* fake-libcuda.c — a stand-in for the CUDA driver's device queries, for the unit test of the
 * injection library's device list (no GPU here): two "GPUs" with known figures.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include <stdio.h>
#include <cuda.h>

CUresult
cuDeviceGetCount (int *count)
{
  *count = 2;
  return CUDA_SUCCESS;
}

CUresult
cuDeviceGet (CUdevice *device,
             int       ordinal)
{
  *device = ordinal;
  return ordinal < 2 ? CUDA_SUCCESS : CUDA_ERROR_INVALID_DEVICE;
}

CUresult
cuDeviceGetName (char     *name,
                 int       length,
                 CUdevice  device)
{
  snprintf (name, (size_t) length, "Test GPU %d", (int) device);
  return CUDA_SUCCESS;
}

CUresult
cuDeviceGetAttribute (int                *value,
                      CUdevice_attribute  attribute,
                      CUdevice            device)
{
  switch (attribute)
    {
    case CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT:
      *value = 132;
      return CUDA_SUCCESS;
    case CU_DEVICE_ATTRIBUTE_CLOCK_RATE:
      *value = 1980000;
      return CUDA_SUCCESS;
    case CU_DEVICE_ATTRIBUTE_MEMORY_CLOCK_RATE:
      *value = 3201000;
      return CUDA_SUCCESS;
    case CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR:
      *value = 9;
      return CUDA_SUCCESS;
    case CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR:
      *value = 0;
      return CUDA_SUCCESS;
    default:
      return CUDA_ERROR_INVALID_VALUE;
    }
}

CUresult
cuDeviceTotalMem_v2 (size_t   *bytes,
                     CUdevice  device)
{
  *bytes = (size_t) 150754820096ull;
  return CUDA_SUCCESS;
}
