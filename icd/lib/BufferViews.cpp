//===- BufferViews.cpp - Texel buffer views -------------------------------===//
//
// A texel buffer's view is a one-dimensional image descriptor (Dim Buffer)
// over the buffer's range, made when the view is.
//
//===----------------------------------------------------------------------===//
#include "DebugUtils.h"
#include "EntryPoints.h"
#include "Formats.h"
#include "Objects.h"

#include <spirv/unified1/spirv.hpp>

#include <new>

using namespace spvb;
using namespace spvb::icd;

extern "C" {

VKAPI_ATTR VkResult VKAPI_CALL spvb_CreateBufferView(
    VkDevice device, const VkBufferViewCreateInfo *pCreateInfo,
    const VkAllocationCallbacks *, VkBufferView *pView) {
  auto fail = [&](const std::string &why) {
    reportError(fromHandle<Device>(device)->physicalDevice->instance,
                "error: vkCreateBufferView: " + why);
    return VK_ERROR_FORMAT_NOT_SUPPORTED;
  };
  Buffer *buffer = fromHandle<Buffer>(pCreateInfo->buffer);
  if (!buffer)
    return fail("buffer is VK_NULL_HANDLE");
  if (!buffer->memory)
    return fail("the buffer has no memory bound");
  const runtime::ImageFormat *texels = getImageFormat(pCreateInfo->format);
  if (!texels)
    return fail("format " + std::to_string(pCreateInfo->format) +
                " has no SPIR-V image format and is not supported");
  auto *view = new (std::nothrow) BufferView();
  if (!view)
    return VK_ERROR_OUT_OF_HOST_MEMORY;
  view->buffer = buffer;
  VkDeviceSize range = pCreateInfo->range == VK_WHOLE_SIZE
                           ? buffer->size - pCreateInfo->offset
                           : pCreateInfo->range;
  spvb_image &descriptor = view->descriptor;
  descriptor.data = buffer->getData() + pCreateInfo->offset;
  descriptor.format = texels->format;
  descriptor.dim = spv::DimBuffer;
  descriptor.extent[0] = uint32_t(range / texels->texelBytes);
  descriptor.extent[1] = 1;
  descriptor.extent[2] = 1;
  descriptor.layers = 1;
  descriptor.levels = 1;
  descriptor.samples = 1;
  descriptor.size = range;
  *pView = toHandle<VkBufferView>(view);
  return VK_SUCCESS;
}

VKAPI_ATTR void VKAPI_CALL spvb_DestroyBufferView(
    VkDevice device, VkBufferView bufferView, const VkAllocationCallbacks *) {
  fromHandle<Device>(device)->quarantine.retire(
      fromHandle<BufferView>(bufferView));
}

} // extern "C"
