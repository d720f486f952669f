//===- Surfaces.cpp - Surfaces and what they support ----------------------===//
//
// VK_KHR_surface over X windows (VK_KHR_xcb_surface, VK_KHR_xlib_surface)
// and over nothing (VK_EXT_headless_surface). An X surface's images must
// match the window's size, as on every X driver; a headless one takes any.
//
//===----------------------------------------------------------------------===//
#define VK_USE_PLATFORM_XCB_KHR
#include "EntryPoints.h"
#include "Enumerate.h"
#include "Presentation.h"

#include <cstdio>
#include <new>

using namespace spvb;
using namespace spvb::icd;

llvm::ArrayRef<VkSurfaceFormatKHR> spvb::icd::getSurfaceFormats() {
  // X's 24-bit visuals hold B8G8R8A8 as they are; R8G8B8A8 images, which
  // shaders may also store to, are swapped when presented.
  static const VkSurfaceFormatKHR formats[] = {
      {VK_FORMAT_B8G8R8A8_SRGB, VK_COLOR_SPACE_SRGB_NONLINEAR_KHR},
      {VK_FORMAT_B8G8R8A8_UNORM, VK_COLOR_SPACE_SRGB_NONLINEAR_KHR},
      {VK_FORMAT_R8G8B8A8_SRGB, VK_COLOR_SPACE_SRGB_NONLINEAR_KHR},
      {VK_FORMAT_R8G8B8A8_UNORM, VK_COLOR_SPACE_SRGB_NONLINEAR_KHR}};
  return formats;
}

/// Every present mode shows the image before vkQueuePresentKHR returns:
/// an X server without a display has no vertical blank to wait for.
static constexpr VkPresentModeKHR kPresentModes[] = {
    VK_PRESENT_MODE_FIFO_KHR, VK_PRESENT_MODE_MAILBOX_KHR,
    VK_PRESENT_MODE_IMMEDIATE_KHR};

static VkResult surfaceLost(const char *command, llvm::Error error) {
  std::fprintf(stderr, "error: %s: %s\n", command,
               llvm::toString(std::move(error)).c_str());
  return VK_ERROR_SURFACE_LOST_KHR;
}

static VkResult getCapabilities(VkPhysicalDevice physicalDevice,
                                VkSurfaceKHR surface,
                                VkSurfaceCapabilitiesKHR &capabilities) {
  VkPhysicalDeviceProperties properties;
  spvb_GetPhysicalDeviceProperties(physicalDevice, &properties);
  uint32_t largest = properties.limits.maxImageDimension2D;
  capabilities = {};
  capabilities.minImageCount = 2;
  capabilities.maxImageCount = 8;
  capabilities.maxImageArrayLayers = 1;
  capabilities.supportedTransforms = VK_SURFACE_TRANSFORM_IDENTITY_BIT_KHR;
  capabilities.currentTransform = VK_SURFACE_TRANSFORM_IDENTITY_BIT_KHR;
  capabilities.supportedCompositeAlpha = VK_COMPOSITE_ALPHA_OPAQUE_BIT_KHR;
  capabilities.supportedUsageFlags =
      VK_IMAGE_USAGE_TRANSFER_SRC_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT |
      VK_IMAGE_USAGE_SAMPLED_BIT | VK_IMAGE_USAGE_STORAGE_BIT |
      VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_INPUT_ATTACHMENT_BIT;
  const X11Window *window = fromHandle<Surface>(surface)->window.get();
  if (!window) {
    capabilities.currentExtent = {UINT32_MAX, UINT32_MAX};
    capabilities.minImageExtent = {1, 1};
    capabilities.maxImageExtent = {largest, largest};
    return VK_SUCCESS;
  }
  llvm::Expected<VkExtent2D> extent = window->getExtent();
  if (!extent)
    return surfaceLost("vkGetPhysicalDeviceSurfaceCapabilitiesKHR",
                       extent.takeError());
  capabilities.currentExtent = *extent;
  capabilities.minImageExtent = *extent;
  capabilities.maxImageExtent = *extent;
  return VK_SUCCESS;
}

static VkResult createSurface(std::unique_ptr<X11Window> window,
                              VkSurfaceKHR *pSurface) {
  auto *surface = new (std::nothrow) Surface();
  if (!surface)
    return VK_ERROR_OUT_OF_HOST_MEMORY;
  surface->window = std::move(window);
  *pSurface = toHandle<VkSurfaceKHR>(surface);
  return VK_SUCCESS;
}

extern "C" {

VKAPI_ATTR VkResult VKAPI_CALL spvb_CreateHeadlessSurfaceEXT(
    VkInstance, const VkHeadlessSurfaceCreateInfoEXT *,
    const VkAllocationCallbacks *, VkSurfaceKHR *pSurface) {
  return createSurface(nullptr, pSurface);
}

VKAPI_ATTR VkResult VKAPI_CALL spvb_CreateXcbSurfaceKHR(
    VkInstance, const VkXcbSurfaceCreateInfoKHR *pCreateInfo,
    const VkAllocationCallbacks *, VkSurfaceKHR *pSurface) {
  return createSurface(
      std::make_unique<X11Window>(pCreateInfo->connection, pCreateInfo->window),
      pSurface);
}

VKAPI_ATTR VkBool32 VKAPI_CALL spvb_GetPhysicalDeviceXcbPresentationSupportKHR(
    VkPhysicalDevice, uint32_t, xcb_connection_t *connection,
    xcb_visualid_t visual) {
  return isBgrxVisual(connection, visual);
}

VKAPI_ATTR void VKAPI_CALL spvb_DestroySurfaceKHR(
    VkInstance, VkSurfaceKHR surface, const VkAllocationCallbacks *) {
  delete fromHandle<Surface>(surface);
}

VKAPI_ATTR VkResult VKAPI_CALL spvb_GetPhysicalDeviceSurfaceSupportKHR(
    VkPhysicalDevice, uint32_t, VkSurfaceKHR surface, VkBool32 *pSupported) {
  const X11Window *window = fromHandle<Surface>(surface)->window.get();
  if (!window) {
    *pSupported = VK_TRUE;
    return VK_SUCCESS;
  }
  llvm::Expected<bool> supported = window->hasBgrxVisual();
  if (!supported)
    return surfaceLost("vkGetPhysicalDeviceSurfaceSupportKHR",
                       supported.takeError());
  *pSupported = *supported;
  return VK_SUCCESS;
}

VKAPI_ATTR VkResult VKAPI_CALL spvb_GetPhysicalDeviceSurfaceCapabilitiesKHR(
    VkPhysicalDevice physicalDevice, VkSurfaceKHR surface,
    VkSurfaceCapabilitiesKHR *pSurfaceCapabilities) {
  return getCapabilities(physicalDevice, surface, *pSurfaceCapabilities);
}

VKAPI_ATTR VkResult VKAPI_CALL spvb_GetPhysicalDeviceSurfaceCapabilities2KHR(
    VkPhysicalDevice physicalDevice,
    const VkPhysicalDeviceSurfaceInfo2KHR *pSurfaceInfo,
    VkSurfaceCapabilities2KHR *pSurfaceCapabilities) {
  return getCapabilities(physicalDevice, pSurfaceInfo->surface,
                         pSurfaceCapabilities->surfaceCapabilities);
}

VKAPI_ATTR VkResult VKAPI_CALL spvb_GetPhysicalDeviceSurfaceFormatsKHR(
    VkPhysicalDevice, VkSurfaceKHR, uint32_t *pSurfaceFormatCount,
    VkSurfaceFormatKHR *pSurfaceFormats) {
  llvm::ArrayRef<VkSurfaceFormatKHR> formats = getSurfaceFormats();
  return enumerate(
      pSurfaceFormatCount, pSurfaceFormats, formats.size(),
      [&](VkSurfaceFormatKHR &out, uint32_t i) { out = formats[i]; });
}

VKAPI_ATTR VkResult VKAPI_CALL spvb_GetPhysicalDeviceSurfaceFormats2KHR(
    VkPhysicalDevice, const VkPhysicalDeviceSurfaceInfo2KHR *,
    uint32_t *pSurfaceFormatCount, VkSurfaceFormat2KHR *pSurfaceFormats) {
  llvm::ArrayRef<VkSurfaceFormatKHR> formats = getSurfaceFormats();
  return enumerate(pSurfaceFormatCount, pSurfaceFormats, formats.size(),
                   [&](VkSurfaceFormat2KHR &out, uint32_t i) {
                     out.surfaceFormat = formats[i];
                   });
}

VKAPI_ATTR VkResult VKAPI_CALL spvb_GetPhysicalDeviceSurfacePresentModesKHR(
    VkPhysicalDevice, VkSurfaceKHR, uint32_t *pPresentModeCount,
    VkPresentModeKHR *pPresentModes) {
  return enumerate(
      pPresentModeCount, pPresentModes, std::size(kPresentModes),
      [](VkPresentModeKHR &out, uint32_t i) { out = kPresentModes[i]; });
}

VKAPI_ATTR VkResult VKAPI_CALL spvb_GetPhysicalDevicePresentRectanglesKHR(
    VkPhysicalDevice physicalDevice, VkSurfaceKHR surface, uint32_t *pRectCount,
    VkRect2D *pRects) {
  VkSurfaceCapabilitiesKHR capabilities;
  if (VkResult result = getCapabilities(physicalDevice, surface, capabilities))
    return result;
  VkExtent2D extent = capabilities.currentExtent.width == UINT32_MAX
                          ? capabilities.maxImageExtent
                          : capabilities.currentExtent;
  return enumerate(pRectCount, pRects, 1,
                   [&](VkRect2D &out, uint32_t) { out = {{0, 0}, extent}; });
}

} // extern "C"

// Xlib last: its macros (None, Bool, Status) would break the headers above.
#include <X11/Xlib-xcb.h>
#include <vulkan/vulkan_xlib.h>

extern "C" {

VKAPI_ATTR VkResult VKAPI_CALL spvb_CreateXlibSurfaceKHR(
    VkInstance, const VkXlibSurfaceCreateInfoKHR *pCreateInfo,
    const VkAllocationCallbacks *, VkSurfaceKHR *pSurface) {
  return createSurface(
      std::make_unique<X11Window>(XGetXCBConnection(pCreateInfo->dpy),
                                  uint32_t(pCreateInfo->window)),
      pSurface);
}

VKAPI_ATTR VkBool32 VKAPI_CALL spvb_GetPhysicalDeviceXlibPresentationSupportKHR(
    VkPhysicalDevice, uint32_t, Display *dpy, VisualID visualID) {
  return isBgrxVisual(XGetXCBConnection(dpy), uint32_t(visualID));
}

} // extern "C"
