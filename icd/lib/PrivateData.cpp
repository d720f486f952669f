//===- PrivateData.cpp - VK_EXT_private_data ------------------------------===//
//
// A slot is only a key: the values live in the device's map, by object type,
// handle and slot.
//
//===----------------------------------------------------------------------===//
#include "EntryPoints.h"
#include "Objects.h"

#include <new>

using namespace spvb;
using namespace spvb::icd;

namespace {
struct PrivateDataSlot {};
} // namespace

extern "C" {

VKAPI_ATTR VkResult VKAPI_CALL spvb_CreatePrivateDataSlot(
    VkDevice, const VkPrivateDataSlotCreateInfo *,
    const VkAllocationCallbacks *, VkPrivateDataSlot *pPrivateDataSlot) {
  auto *slot = new (std::nothrow) PrivateDataSlot();
  if (!slot)
    return VK_ERROR_OUT_OF_HOST_MEMORY;
  *pPrivateDataSlot = toHandle<VkPrivateDataSlot>(slot);
  return VK_SUCCESS;
}

VKAPI_ATTR void VKAPI_CALL
spvb_DestroyPrivateDataSlot(VkDevice device, VkPrivateDataSlot privateDataSlot,
                            const VkAllocationCallbacks *) {
  auto *slot = fromHandle<PrivateDataSlot>(privateDataSlot);
  if (!slot)
    return;
  Device &owner = *fromHandle<Device>(device);
  {
    std::lock_guard<std::mutex> lock(owner.privateDataMutex);
    for (auto it = owner.privateData.begin(); it != owner.privateData.end();)
      it = std::get<2>(it->first) == slot ? owner.privateData.erase(it)
                                          : std::next(it);
  }
  delete slot;
}

VKAPI_ATTR VkResult VKAPI_CALL spvb_SetPrivateData(
    VkDevice device, VkObjectType objectType, uint64_t objectHandle,
    VkPrivateDataSlot privateDataSlot, uint64_t data) {
  Device &owner = *fromHandle<Device>(device);
  std::lock_guard<std::mutex> lock(owner.privateDataMutex);
  owner.privateData[{objectType, objectHandle,
                     fromHandle<PrivateDataSlot>(privateDataSlot)}] = data;
  return VK_SUCCESS;
}

VKAPI_ATTR void VKAPI_CALL spvb_GetPrivateData(
    VkDevice device, VkObjectType objectType, uint64_t objectHandle,
    VkPrivateDataSlot privateDataSlot, uint64_t *pData) {
  Device &owner = *fromHandle<Device>(device);
  std::lock_guard<std::mutex> lock(owner.privateDataMutex);
  auto it = owner.privateData.find(
      {objectType, objectHandle, fromHandle<PrivateDataSlot>(privateDataSlot)});
  *pData = it != owner.privateData.end() ? it->second : 0;
}

} // extern "C"
