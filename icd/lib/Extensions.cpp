//===- Extensions.cpp - The extensions the ICD advertises -----------------===//
#include "Extensions.h"

#include "EntryPoints.h"
#include "Enumerate.h"

#include <cstring>
#include <iterator>

using namespace spvb::icd;

VkResult spvb::icd::enumerateExtensions(bool instance, uint32_t *count,
                                        VkExtensionProperties *out) {
  const ExtensionInfo *ofKind[std::size(kExtensions)];
  uint32_t available = 0;
  for (const ExtensionInfo &extension : kExtensions)
    if (extension.instance == instance)
      ofKind[available++] = &extension;
  return enumerate(count, out, available,
                   [&](VkExtensionProperties &property, uint32_t i) {
                     std::memset(&property, 0, sizeof(property));
                     std::strncpy(property.extensionName, ofKind[i]->name,
                                  VK_MAX_EXTENSION_NAME_SIZE - 1);
                     property.specVersion = ofKind[i]->specVersion;
                   });
}

bool spvb::icd::isExtensionSupported(const char *name, bool instance) {
  for (const ExtensionInfo &extension : kExtensions)
    if (extension.instance == instance &&
        std::strcmp(extension.name, name) == 0)
      return true;
  return false;
}
