//===- ProcAddr.cpp - Entry points by name --------------------------------===//
#include "ProcAddr.h"

#include "EntryPoints.h"

#include <algorithm>
#include <cstring>
#include <iterator>

using namespace spvb::icd;

static const EntryPoint *findEntryPoint(const char *name) {
  if (!name)
    return nullptr;
  const EntryPoint *end = std::end(kEntryPoints);
  const EntryPoint *it =
      std::lower_bound(std::begin(kEntryPoints), end, name,
                       [](const EntryPoint &entry, const char *key) {
                         return std::strcmp(entry.name, key) < 0;
                       });
  return it != end && std::strcmp(it->name, name) == 0 ? it : nullptr;
}

PFN_vkVoidFunction spvb::icd::getInstanceProcAddr(VkInstance instance,
                                                  const char *name) {
  const EntryPoint *entry = findEntryPoint(name);
  if (!entry)
    return nullptr;
  // Without an instance only global commands (and, since 1.2,
  // vkGetInstanceProcAddr itself) may be queried.
  if (!instance && entry->level != DispatchLevel::Global &&
      std::strcmp(name, "vkGetInstanceProcAddr") != 0)
    return nullptr;
  return entry->function;
}

PFN_vkVoidFunction spvb::icd::getPhysicalDeviceProcAddr(VkInstance,
                                                        const char *name) {
  const EntryPoint *entry = findEntryPoint(name);
  if (!entry || entry->level != DispatchLevel::PhysicalDevice)
    return nullptr;
  return entry->function;
}

PFN_vkVoidFunction spvb::icd::getDeviceProcAddr(VkDevice, const char *name) {
  const EntryPoint *entry = findEntryPoint(name);
  if (!entry || entry->level != DispatchLevel::Device)
    return nullptr;
  return entry->function;
}
