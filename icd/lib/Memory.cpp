//===- Memory.cpp - Device memory and buffers -----------------------------===//
//
// Device memory is host memory: one heap, every allocation mapped for its
// whole life, a buffer's device address its host address.
//
//===----------------------------------------------------------------------===//
#include "Memory.h"

#include "EntryPoints.h"

#include <sys/mman.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <new>

using namespace spvb;
using namespace spvb::icd;

/// Allocations are aligned for any buffer offset alignment we report and
/// for the widest vector the JIT emits.
static constexpr VkDeviceSize kMemoryAlignment = 64;

void spvb::icd::setMemoryRequirements(
    VkMemoryRequirements2 &out, const VkMemoryRequirements &requirements) {
  out.memoryRequirements = requirements;
  for (auto *next = static_cast<VkBaseOutStructure *>(out.pNext); next;
       next = next->pNext)
    if (next->sType == VK_STRUCTURE_TYPE_MEMORY_DEDICATED_REQUIREMENTS) {
      auto *dedicated = reinterpret_cast<VkMemoryDedicatedRequirements *>(next);
      dedicated->prefersDedicatedAllocation = VK_FALSE;
      dedicated->requiresDedicatedAllocation = VK_FALSE;
    }
}

bool spvb::icd::fitsMemory(const char *command, const char *what,
                           VkDeviceSize size, VkDeviceSize offset,
                           const DeviceMemory &memory) {
  if (offset + size <= memory.size)
    return true;
  std::fprintf(stderr,
               "error: %s: %s of %llu bytes at offset %llu does not fit its "
               "memory of %llu bytes\n",
               command, what, (unsigned long long)size,
               (unsigned long long)offset, (unsigned long long)memory.size);
  return false;
}

VkDeviceSize spvb::icd::getMemoryHeapSize() {
  long pages = sysconf(_SC_PHYS_PAGES), pageSize = sysconf(_SC_PAGE_SIZE);
  uint64_t bytes = pages > 0 && pageSize > 0
                       ? uint64_t(pages) * uint64_t(pageSize)
                       : uint64_t(1) << 30;
  return bytes / 4 * 3;
}

extern "C" {

VKAPI_ATTR VkResult VKAPI_CALL
spvb_AllocateMemory(VkDevice, const VkMemoryAllocateInfo *pAllocateInfo,
                    const VkAllocationCallbacks *, VkDeviceMemory *pMemory) {
  VkDeviceSize size = pAllocateInfo->allocationSize;
  if (pAllocateInfo->memoryTypeIndex != 0) {
    std::fprintf(stderr,
                 "error: vkAllocateMemory: memory type %u does not exist (the "
                 "device has one, 0)\n",
                 pAllocateInfo->memoryTypeIndex);
    return VK_ERROR_OUT_OF_DEVICE_MEMORY;
  }
  if (size > getMemoryHeapSize()) {
    std::fprintf(stderr,
                 "error: vkAllocateMemory: %llu bytes exceed the memory heap "
                 "(%llu bytes, three quarters of the host's memory)\n",
                 (unsigned long long)size,
                 (unsigned long long)getMemoryHeapSize());
    return VK_ERROR_OUT_OF_DEVICE_MEMORY;
  }
  auto *memory = new (std::nothrow) DeviceMemory();
  if (!memory)
    return VK_ERROR_OUT_OF_HOST_MEMORY;
  VkDeviceSize rounded =
      (size + kMemoryAlignment - 1) / kMemoryAlignment * kMemoryAlignment;
  // Pages of their own, zero-filled (a shader that reads memory it never
  // wrote reads the same values on every run): memory-bound kernels ran
  // 1.5x slower in aligned_alloc's memory (saxpy 1M, one thread).
  void *mapped = mmap(nullptr, rounded, PROT_READ | PROT_WRITE,
                      MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (mapped == MAP_FAILED) {
    std::fprintf(stderr, "error: vkAllocateMemory: cannot map %llu bytes: %s\n",
                 (unsigned long long)rounded, std::strerror(errno));
    delete memory;
    return VK_ERROR_OUT_OF_DEVICE_MEMORY;
  }
  memory->data = static_cast<uint8_t *>(mapped);
  memory->mappedSize = rounded;
  memory->size = size;
  *pMemory = toHandle<VkDeviceMemory>(memory);
  return VK_SUCCESS;
}

VKAPI_ATTR void VKAPI_CALL spvb_FreeMemory(VkDevice, VkDeviceMemory memory,
                                           const VkAllocationCallbacks *) {
  if (auto *object = fromHandle<DeviceMemory>(memory)) {
    munmap(object->data, object->mappedSize);
    delete object;
  }
}

VKAPI_ATTR VkResult VKAPI_CALL spvb_MapMemory(VkDevice, VkDeviceMemory memory,
                                              VkDeviceSize offset, VkDeviceSize,
                                              VkMemoryMapFlags, void **ppData) {
  *ppData = fromHandle<DeviceMemory>(memory)->data + offset;
  return VK_SUCCESS;
}

VKAPI_ATTR void VKAPI_CALL spvb_UnmapMemory(VkDevice, VkDeviceMemory) {}

/// The memory is coherent: nothing to flush or invalidate.
VKAPI_ATTR VkResult VKAPI_CALL
spvb_FlushMappedMemoryRanges(VkDevice, uint32_t, const VkMappedMemoryRange *) {
  return VK_SUCCESS;
}

VKAPI_ATTR VkResult VKAPI_CALL spvb_InvalidateMappedMemoryRanges(
    VkDevice, uint32_t, const VkMappedMemoryRange *) {
  return VK_SUCCESS;
}

VKAPI_ATTR void VKAPI_CALL spvb_GetDeviceMemoryCommitment(
    VkDevice, VkDeviceMemory memory, VkDeviceSize *pCommittedMemoryInBytes) {
  *pCommittedMemoryInBytes = fromHandle<DeviceMemory>(memory)->size;
}

VKAPI_ATTR VkResult VKAPI_CALL
spvb_CreateBuffer(VkDevice device, const VkBufferCreateInfo *pCreateInfo,
                  const VkAllocationCallbacks *, VkBuffer *pBuffer) {
  auto *buffer = new (std::nothrow) Buffer();
  if (!buffer)
    return VK_ERROR_OUT_OF_HOST_MEMORY;
  buffer->size = pCreateInfo->size;
  buffer->usage = pCreateInfo->usage;
  if (buffer->usage & VK_BUFFER_USAGE_SHADER_DEVICE_ADDRESS_BIT) {
    Device &owner = *fromHandle<Device>(device);
    std::lock_guard<std::mutex> lock(owner.namesMutex);
    owner.addressableBuffers.insert(buffer);
  }
  *pBuffer = toHandle<VkBuffer>(buffer);
  return VK_SUCCESS;
}

VKAPI_ATTR void VKAPI_CALL spvb_DestroyBuffer(VkDevice device, VkBuffer buffer,
                                              const VkAllocationCallbacks *) {
  Buffer *object = fromHandle<Buffer>(buffer);
  if (!object)
    return;
  {
    Device &owner = *fromHandle<Device>(device);
    std::lock_guard<std::mutex> lock(owner.namesMutex);
    owner.addressableBuffers.erase(object);
    owner.objectNames.erase(reinterpret_cast<uint64_t>(buffer));
  }
  fromHandle<Device>(device)->quarantine.retire(object);
}

static VkMemoryRequirements getBufferRequirements(VkDeviceSize size) {
  VkMemoryRequirements requirements;
  requirements.size =
      (size + kMemoryAlignment - 1) / kMemoryAlignment * kMemoryAlignment;
  requirements.alignment = kMemoryAlignment;
  requirements.memoryTypeBits = 1;
  return requirements;
}

VKAPI_ATTR void VKAPI_CALL spvb_GetBufferMemoryRequirements(
    VkDevice, VkBuffer buffer, VkMemoryRequirements *pMemoryRequirements) {
  *pMemoryRequirements =
      getBufferRequirements(fromHandle<Buffer>(buffer)->size);
}

/// VK_KHR_maintenance4: the requirements of a buffer not yet created.
VKAPI_ATTR void VKAPI_CALL spvb_GetDeviceBufferMemoryRequirements(
    VkDevice, const VkDeviceBufferMemoryRequirements *pInfo,
    VkMemoryRequirements2 *pMemoryRequirements) {
  setMemoryRequirements(*pMemoryRequirements,
                        getBufferRequirements(pInfo->pCreateInfo->size));
}

/// A buffer's device address is its host address: shaders dereference it.
VKAPI_ATTR VkDeviceAddress VKAPI_CALL
spvb_GetBufferDeviceAddress(VkDevice, const VkBufferDeviceAddressInfo *pInfo) {
  return reinterpret_cast<VkDeviceAddress>(
      fromHandle<Buffer>(pInfo->buffer)->getData());
}

/// bufferDeviceAddressCaptureReplay is not supported: no opaque addresses.
VKAPI_ATTR uint64_t VKAPI_CALL spvb_GetBufferOpaqueCaptureAddress(
    VkDevice, const VkBufferDeviceAddressInfo *) {
  return 0;
}

VKAPI_ATTR uint64_t VKAPI_CALL spvb_GetDeviceMemoryOpaqueCaptureAddress(
    VkDevice, const VkDeviceMemoryOpaqueCaptureAddressInfo *) {
  return 0;
}

VKAPI_ATTR VkResult VKAPI_CALL spvb_BindBufferMemory(VkDevice, VkBuffer buffer,
                                                     VkDeviceMemory memory,
                                                     VkDeviceSize offset) {
  Buffer *object = fromHandle<Buffer>(buffer);
  DeviceMemory *backing = fromHandle<DeviceMemory>(memory);
  // Cheap to check, and a buffer past its memory would fault in a shader.
  if (!fitsMemory("vkBindBufferMemory", "a buffer", object->size, offset,
                  *backing))
    return VK_ERROR_OUT_OF_DEVICE_MEMORY;
  object->memory = backing;
  object->memoryOffset = offset;
  return VK_SUCCESS;
}

} // extern "C"
