//===- Swapchains.cpp - VK_KHR_swapchain ----------------------------------===//
//
// A swapchain's images live in memory the X server can read (X11Window.h).
// vkQueuePresentKHR waits for its semaphores, that is for the rendering,
// and puts each image into its window before it returns; so an image is
// free to acquire again at once, and acquiring signals its semaphore and
// fence right away. A window whose size no longer matches its swapchain
// makes both VK_ERROR_OUT_OF_DATE_KHR, as X drivers do.
//
//===----------------------------------------------------------------------===//
#include "EntryPoints.h"
#include "Enumerate.h"
#include "Images.h"
#include "Presentation.h"
#include "Queue.h"

#include "llvm/ADT/STLExtras.h"

#include <cstdio>
#include <cstring>
#include <new>

using namespace spvb;
using namespace spvb::icd;

static bool isSwappedFormat(VkFormat format) {
  return format == VK_FORMAT_R8G8B8A8_UNORM ||
         format == VK_FORMAT_R8G8B8A8_SRGB;
}

/// Swaps the red and blue bytes of \p count 32-bit texels.
static void swapRedBlue(uint8_t *texels, uint64_t count) {
  for (uint64_t i = 0; i < count; ++i)
    std::swap(texels[4 * i], texels[4 * i + 2]);
}

static void destroySwapchain(Swapchain *swapchain) {
  if (!swapchain)
    return;
  for (Image *image : swapchain->images)
    swapchain->device->quarantine.retire(image);
  delete swapchain;
}

/// Whether \p swapchain still fits its window: VK_SUCCESS,
/// VK_ERROR_OUT_OF_DATE_KHR or VK_ERROR_SURFACE_LOST_KHR.
static VkResult checkWindow(const char *command, const Swapchain &swapchain) {
  if (swapchain.retired)
    return VK_ERROR_OUT_OF_DATE_KHR;
  const X11Window *window = swapchain.surface->window.get();
  if (!window)
    return VK_SUCCESS;
  llvm::Expected<VkExtent2D> extent = window->getExtent();
  if (!extent) {
    std::fprintf(stderr, "error: %s: %s\n", command,
                 llvm::toString(extent.takeError()).c_str());
    return VK_ERROR_SURFACE_LOST_KHR;
  }
  return extent->width == swapchain.extent.width &&
                 extent->height == swapchain.extent.height
             ? VK_SUCCESS
             : VK_ERROR_OUT_OF_DATE_KHR;
}

static VkResult acquireImage(VkDevice device, VkSwapchainKHR handle,
                             uint64_t timeout, VkSemaphore semaphore,
                             VkFence fence, uint32_t *pImageIndex) {
  Swapchain &swapchain = *fromHandle<Swapchain>(handle);
  if (VkResult result = checkWindow("vkAcquireNextImageKHR", swapchain))
    return result;
  uint32_t count = swapchain.images.size();
  uint32_t index = swapchain.next;
  while (swapchain.acquired[index]) {
    index = (index + 1) % count;
    if (index == swapchain.next) {
      // Only a present frees an image, and this thread would make it.
      if (timeout == UINT64_MAX)
        std::fprintf(stderr,
                     "error: vkAcquireNextImageKHR: all %u images of the "
                     "swapchain are acquired; present one first\n",
                     count);
      return timeout ? VK_TIMEOUT : VK_NOT_READY;
    }
  }
  swapchain.acquired[index] = true;
  swapchain.next = (index + 1) % count;
  *pImageIndex = index;
  Device &owner = *fromHandle<Device>(device);
  {
    std::lock_guard<std::mutex> lock(owner.mutex);
    if (auto *signaled = fromHandle<Semaphore>(semaphore))
      signaled->value = 1;
    if (auto *signaled = fromHandle<Fence>(fence))
      signaled->signaled = true;
  }
  owner.changed.notify_all();
  return VK_SUCCESS;
}

/// Shows image \p index of \p swapchain in its window.
static VkResult presentImage(Swapchain &swapchain, uint32_t index) {
  if (index >= swapchain.images.size()) {
    std::fprintf(stderr,
                 "error: vkQueuePresentKHR: image index %u, but the "
                 "swapchain has %zu images\n",
                 index, swapchain.images.size());
    return VK_ERROR_DEVICE_LOST;
  }
  swapchain.acquired[index] = false;
  if (VkResult result = checkWindow("vkQueuePresentKHR", swapchain))
    return result;
  X11Window *window = swapchain.surface->window.get();
  if (!window)
    return VK_SUCCESS;
  const SharedImageMemory &memory = *swapchain.memories[index];
  uint64_t texels = uint64_t(swapchain.extent.width) * swapchain.extent.height;
  // The texels are the application's again once presented: swapped back.
  bool swapped = isSwappedFormat(swapchain.format);
  if (swapped)
    swapRedBlue(memory.getData(), texels);
  llvm::Error error = window->show(memory, swapchain.extent);
  if (swapped)
    swapRedBlue(memory.getData(), texels);
  if (error) {
    std::fprintf(stderr, "error: vkQueuePresentKHR: %s\n",
                 llvm::toString(std::move(error)).c_str());
    return VK_ERROR_SURFACE_LOST_KHR;
  }
  return VK_SUCCESS;
}

/// Makes \p swapchain's images as \p info describes them.
static VkResult createImages(const VkSwapchainCreateInfoKHR &info,
                             Swapchain &swapchain) {
  VkImageCreateInfo imageInfo = {};
  imageInfo.sType = VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO;
  imageInfo.imageType = VK_IMAGE_TYPE_2D;
  imageInfo.format = info.imageFormat;
  imageInfo.extent = {info.imageExtent.width, info.imageExtent.height, 1};
  imageInfo.mipLevels = 1;
  imageInfo.arrayLayers = info.imageArrayLayers;
  imageInfo.samples = VK_SAMPLE_COUNT_1_BIT;
  imageInfo.usage = info.imageUsage;
  X11Window *window = swapchain.surface->window.get();
  for (uint32_t i = 0; i < info.minImageCount; ++i) {
    auto image = std::make_unique<Image>();
    if (VkResult result =
            describeImage("vkCreateSwapchainKHR", imageInfo, *image))
      return result;
    llvm::Expected<std::unique_ptr<SharedImageMemory>> memory =
        SharedImageMemory::create(window ? window->getConnection() : nullptr,
                                  image->size);
    if (!memory) {
      std::fprintf(stderr, "error: vkCreateSwapchainKHR: %s\n",
                   llvm::toString(memory.takeError()).c_str());
      return VK_ERROR_OUT_OF_DEVICE_MEMORY;
    }
    auto deviceMemory = std::make_unique<DeviceMemory>();
    deviceMemory->data = (*memory)->getData();
    deviceMemory->size = deviceMemory->mappedSize = image->size;
    image->memory = deviceMemory.get();
    swapchain.memories.push_back(std::move(*memory));
    swapchain.deviceMemories.push_back(std::move(deviceMemory));
    swapchain.images.push_back(image.release());
  }
  swapchain.acquired.assign(info.minImageCount, false);
  return VK_SUCCESS;
}

extern "C" {

VKAPI_ATTR VkResult VKAPI_CALL spvb_CreateSwapchainKHR(
    VkDevice device, const VkSwapchainCreateInfoKHR *pCreateInfo,
    const VkAllocationCallbacks *, VkSwapchainKHR *pSwapchain) {
  const VkSwapchainCreateInfoKHR &info = *pCreateInfo;
  if (auto *old = fromHandle<Swapchain>(info.oldSwapchain))
    old->retired = true;
  if (!llvm::any_of(getSurfaceFormats(), [&](const VkSurfaceFormatKHR &f) {
        return f.format == info.imageFormat &&
               f.colorSpace == info.imageColorSpace;
      })) {
    std::fprintf(stderr,
                 "error: vkCreateSwapchainKHR: format %d in colour space %d "
                 "is not one the surface offers (see "
                 "vkGetPhysicalDeviceSurfaceFormatsKHR)\n",
                 info.imageFormat, info.imageColorSpace);
    return VK_ERROR_INITIALIZATION_FAILED;
  }
  Surface *surface = fromHandle<Surface>(info.surface);
  if (surface->window) {
    llvm::Expected<bool> supported = surface->window->hasBgrxVisual();
    if (!supported || !*supported) {
      std::fprintf(
          stderr, "error: vkCreateSwapchainKHR: %s\n",
          supported ? "the window's visual is not 24-bit TrueColor with red "
                      "in 0xff0000 and blue in 0xff; only such windows are "
                      "presented to (see vkGetPhysicalDeviceSurfaceSupportKHR)"
                    : llvm::toString(supported.takeError()).c_str());
      return VK_ERROR_SURFACE_LOST_KHR;
    }
  }
  auto *swapchain = new (std::nothrow) Swapchain();
  if (!swapchain)
    return VK_ERROR_OUT_OF_HOST_MEMORY;
  swapchain->device = fromHandle<Device>(device);
  swapchain->surface = surface;
  swapchain->extent = info.imageExtent;
  swapchain->format = info.imageFormat;
  if (VkResult result = createImages(info, *swapchain)) {
    destroySwapchain(swapchain);
    return result;
  }
  *pSwapchain = toHandle<VkSwapchainKHR>(swapchain);
  return VK_SUCCESS;
}

VKAPI_ATTR void VKAPI_CALL spvb_DestroySwapchainKHR(
    VkDevice, VkSwapchainKHR swapchain, const VkAllocationCallbacks *) {
  destroySwapchain(fromHandle<Swapchain>(swapchain));
}

VKAPI_ATTR VkResult VKAPI_CALL spvb_GetSwapchainImagesKHR(
    VkDevice, VkSwapchainKHR swapchain, uint32_t *pSwapchainImageCount,
    VkImage *pSwapchainImages) {
  const std::vector<Image *> &images = fromHandle<Swapchain>(swapchain)->images;
  return enumerate(
      pSwapchainImageCount, pSwapchainImages, images.size(),
      [&](VkImage &out, uint32_t i) { out = toHandle<VkImage>(images[i]); });
}

VKAPI_ATTR VkResult VKAPI_CALL spvb_AcquireNextImageKHR(
    VkDevice device, VkSwapchainKHR swapchain, uint64_t timeout,
    VkSemaphore semaphore, VkFence fence, uint32_t *pImageIndex) {
  return acquireImage(device, swapchain, timeout, semaphore, fence,
                      pImageIndex);
}

VKAPI_ATTR VkResult VKAPI_CALL spvb_AcquireNextImage2KHR(
    VkDevice device, const VkAcquireNextImageInfoKHR *pAcquireInfo,
    uint32_t *pImageIndex) {
  return acquireImage(device, pAcquireInfo->swapchain, pAcquireInfo->timeout,
                      pAcquireInfo->semaphore, pAcquireInfo->fence,
                      pImageIndex);
}

VKAPI_ATTR VkResult VKAPI_CALL
spvb_QueuePresentKHR(VkQueue queue, const VkPresentInfoKHR *pPresentInfo) {
  const VkPresentInfoKHR &info = *pPresentInfo;
  Device &device = *fromHandle<Queue>(queue)->device;
  // The rendering the semaphores stand for finishes first.
  llvm::ArrayRef<VkSemaphore> waits(info.pWaitSemaphores,
                                    info.waitSemaphoreCount);
  VkResult waited = waitFor(device, UINT64_MAX, [&] {
    return llvm::all_of(waits, [](VkSemaphore semaphore) {
      return fromHandle<Semaphore>(semaphore)->value != 0;
    });
  });
  if (waited != VK_SUCCESS)
    return waited;
  {
    std::lock_guard<std::mutex> lock(device.mutex);
    for (VkSemaphore semaphore : waits)
      fromHandle<Semaphore>(semaphore)->value = 0;
  }
  VkResult overall = VK_SUCCESS;
  for (uint32_t i = 0; i < info.swapchainCount; ++i) {
    VkResult result = presentImage(*fromHandle<Swapchain>(info.pSwapchains[i]),
                                   info.pImageIndices[i]);
    if (info.pResults)
      info.pResults[i] = result;
    if (overall == VK_SUCCESS)
      overall = result;
  }
  return overall;
}

VKAPI_ATTR VkResult VKAPI_CALL spvb_GetDeviceGroupPresentCapabilitiesKHR(
    VkDevice,
    VkDeviceGroupPresentCapabilitiesKHR *pDeviceGroupPresentCapabilities) {
  VkDeviceGroupPresentCapabilitiesKHR &capabilities =
      *pDeviceGroupPresentCapabilities;
  std::memset(capabilities.presentMask, 0, sizeof(capabilities.presentMask));
  capabilities.presentMask[0] = 1;
  capabilities.modes = VK_DEVICE_GROUP_PRESENT_MODE_LOCAL_BIT_KHR;
  return VK_SUCCESS;
}

VKAPI_ATTR VkResult VKAPI_CALL spvb_GetDeviceGroupSurfacePresentModesKHR(
    VkDevice, VkSurfaceKHR, VkDeviceGroupPresentModeFlagsKHR *pModes) {
  *pModes = VK_DEVICE_GROUP_PRESENT_MODE_LOCAL_BIT_KHR;
  return VK_SUCCESS;
}

} // extern "C"
