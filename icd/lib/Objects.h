//===- Objects.h - The ICD's Vulkan objects ---------------------*- C++ -*-===//
//
// One struct per Vulkan object, as SwiftShader's src/Vulkan has. Dispatchable
// objects (instance, physical device, device, queue, command buffer) begin
// with the loader's data: the loader writes its dispatch table pointer
// there, and checks ICD_LOADER_MAGIC first (vulkan/vk_icd.h). Handles are
// pointers to these structs; non-dispatchable handles are 64-bit on every
// platform we build for, so they are pointers too.
//
//===----------------------------------------------------------------------===//
#ifndef SPVBRIDGE_ICD_LIB_OBJECTS_H
#define SPVBRIDGE_ICD_LIB_OBJECTS_H

#include "spvbridge/bridge/DeviceLimits.h"

#include <vulkan/vk_icd.h>
#include <vulkan/vulkan.h>

#include <memory>
#include <string>
#include <vector>

namespace spvb::icd {

struct DispatchableObject {
  DispatchableObject() { set_loader_magic_value(&loaderData); }
  VK_LOADER_DATA loaderData;
};

struct Instance;

struct PhysicalDevice : DispatchableObject {
  Instance *instance = nullptr;
  /// The limit profile the device reports and dispatches meet
  /// (SPVB_LIMITS, as spv-run --limits; lavapipe by default).
  DeviceLimits limits;
};

struct Instance : DispatchableObject {
  uint32_t apiVersion = VK_API_VERSION_1_0;
  std::unique_ptr<PhysicalDevice> physicalDevice;
};

struct Device;

struct Queue : DispatchableObject {
  Device *device = nullptr;
  uint32_t family = 0;
  uint32_t index = 0;
};

struct Device : DispatchableObject {
  PhysicalDevice *physicalDevice = nullptr;
  std::vector<std::unique_ptr<Queue>> queues;
};

template <typename Object, typename Handle> Object *fromHandle(Handle handle) {
  return reinterpret_cast<Object *>(handle);
}
template <typename Handle, typename Object> Handle toHandle(Object *object) {
  return reinterpret_cast<Handle>(object);
}

} // namespace spvb::icd

#endif // SPVBRIDGE_ICD_LIB_OBJECTS_H
