//===- Extensions.h - The extensions the ICD advertises ---------*- C++ -*-===//
#ifndef SPVBRIDGE_ICD_LIB_EXTENSIONS_H
#define SPVBRIDGE_ICD_LIB_EXTENSIONS_H

#include <vulkan/vulkan.h>

namespace spvb::icd {

/// vkEnumerate{Instance,Device}ExtensionProperties over the generated list
/// (extensions.txt).
VkResult enumerateExtensions(bool instance, uint32_t *count,
                             VkExtensionProperties *out);
/// Whether \p name is an instance (or device) extension we advertise.
bool isExtensionSupported(const char *name, bool instance);

} // namespace spvb::icd

#endif // SPVBRIDGE_ICD_LIB_EXTENSIONS_H
