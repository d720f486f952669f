//===- Samplers.cpp - Samplers --------------------------------------------===//
//
// A sampler is the runtime's sampler descriptor (kernel_abi.h), which takes
// Vulkan's enumerations as they are. Anisotropy, min/max reduction and
// custom border colours are not reported, so never asked for.
//
//===----------------------------------------------------------------------===//
#include "EntryPoints.h"
#include "Objects.h"

#include <new>

using namespace spvb;
using namespace spvb::icd;

extern "C" {

VKAPI_ATTR VkResult VKAPI_CALL
spvb_CreateSampler(VkDevice, const VkSamplerCreateInfo *pCreateInfo,
                   const VkAllocationCallbacks *, VkSampler *pSampler) {
  auto *sampler = new (std::nothrow) Sampler();
  if (!sampler)
    return VK_ERROR_OUT_OF_HOST_MEMORY;
  spvb_sampler &descriptor = sampler->descriptor;
  descriptor.mag_filter = pCreateInfo->magFilter;
  descriptor.min_filter = pCreateInfo->minFilter;
  descriptor.mipmap_mode = pCreateInfo->mipmapMode;
  descriptor.address_mode[0] = pCreateInfo->addressModeU;
  descriptor.address_mode[1] = pCreateInfo->addressModeV;
  descriptor.address_mode[2] = pCreateInfo->addressModeW;
  descriptor.mip_lod_bias = pCreateInfo->mipLodBias;
  descriptor.min_lod = pCreateInfo->minLod;
  descriptor.max_lod = pCreateInfo->maxLod;
  descriptor.border_color = pCreateInfo->borderColor;
  descriptor.unnormalized_coordinates = pCreateInfo->unnormalizedCoordinates;
  descriptor.compare_enable = pCreateInfo->compareEnable;
  descriptor.compare_op = pCreateInfo->compareOp;
  *pSampler = toHandle<VkSampler>(sampler);
  return VK_SUCCESS;
}

VKAPI_ATTR void VKAPI_CALL spvb_DestroySampler(VkDevice device,
                                               VkSampler sampler,
                                               const VkAllocationCallbacks *) {
  fromHandle<Device>(device)->quarantine.retire(fromHandle<Sampler>(sampler));
}

} // extern "C"
