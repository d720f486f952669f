//===- WindowCaptureLayer.cpp - What an X window shows, after the last frame -//
//
// A Vulkan layer for tests of windowed applications (vkcube): when the
// application destroys its swapchain, every frame it presented has reached
// the X server, and the layer writes what the window shows then to
// $SPVB_CAPTURE (a binary PPM), read from the server with GetImage. It
// reads the window, not the swapchain's images, so it checks presentation
// too, and works the same over any driver.
//
//===----------------------------------------------------------------------===//
#define VK_USE_PLATFORM_XCB_KHR
#include <vulkan/vk_layer.h>
#include <vulkan/vulkan.h>

#include <xcb/xcb.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>

namespace {

struct Window {
  xcb_connection_t *connection;
  xcb_window_t window;
};

/// One instance and one device: enough for the applications tested.
struct State {
  std::mutex mutex;
  PFN_vkGetInstanceProcAddr nextInstanceProcAddr = nullptr;
  PFN_vkGetDeviceProcAddr nextDeviceProcAddr = nullptr;
  VkInstance instance = VK_NULL_HANDLE;
  VkDevice device = VK_NULL_HANDLE;
  /// Resolved when the instance is made: asked later, the loader's last
  /// link would answer from the application's dispatch table, whose entry
  /// is this layer's.
  PFN_vkCreateXcbSurfaceKHR nextCreateXcbSurface = nullptr;
  std::map<VkSurfaceKHR, Window> surfaces;
  std::map<VkSwapchainKHR, VkSurfaceKHR> swapchains;
};

State &getState() {
  static State state;
  return state;
}

template <typename Info> auto *findLinkInfo(const Info *info, int type) {
  using LinkInfo =
      std::conditional_t<std::is_same_v<Info, VkInstanceCreateInfo>,
                         VkLayerInstanceCreateInfo, VkLayerDeviceCreateInfo>;
  auto *chain = static_cast<const LinkInfo *>(info->pNext);
  while (chain &&
         !(chain->sType == type && chain->function == VK_LAYER_LINK_INFO))
    chain = static_cast<const LinkInfo *>(chain->pNext);
  return const_cast<LinkInfo *>(chain);
}

/// Writes what \p window shows to $SPVB_CAPTURE.
void capture(const Window &window) {
  const char *path = std::getenv("SPVB_CAPTURE");
  if (!path)
    return;
  xcb_connection_t *connection = window.connection;
  xcb_generic_error_t *error = nullptr;
  xcb_get_geometry_reply_t *geometry = xcb_get_geometry_reply(
      connection, xcb_get_geometry(connection, window.window), &error);
  if (!geometry) {
    std::fprintf(stderr, "capture layer: the window is gone\n");
    std::free(error);
    return;
  }
  uint16_t width = geometry->width, height = geometry->height;
  std::free(geometry);
  xcb_get_image_reply_t *image = xcb_get_image_reply(
      connection,
      xcb_get_image(connection, XCB_IMAGE_FORMAT_Z_PIXMAP, window.window, 0, 0,
                    width, height, ~0u),
      &error);
  if (!image || xcb_get_image_data_length(image) != width * height * 4) {
    std::fprintf(stderr,
                 "capture layer: GetImage gave no 32-bit pixels (X error "
                 "%d)\n",
                 error ? error->error_code : 0);
    std::free(image);
    std::free(error);
    return;
  }
  const uint8_t *pixels = xcb_get_image_data(image);
  FILE *file = std::fopen(path, "wb");
  if (!file) {
    std::fprintf(stderr, "capture layer: cannot write %s\n", path);
    std::free(image);
    return;
  }
  std::fprintf(file, "P6\n%u %u\n255\n", width, height);
  // 24-bit TrueColor pixels: blue, green, red, unused.
  for (size_t i = 0; i < size_t(width) * height; ++i) {
    const uint8_t rgb[3] = {pixels[4 * i + 2], pixels[4 * i + 1],
                            pixels[4 * i]};
    std::fwrite(rgb, 1, 3, file);
  }
  std::fclose(file);
  std::free(image);
}

VKAPI_ATTR VkResult VKAPI_CALL
CreateInstance(const VkInstanceCreateInfo *pCreateInfo,
               const VkAllocationCallbacks *pAllocator, VkInstance *pInstance) {
  auto *link =
      findLinkInfo(pCreateInfo, VK_STRUCTURE_TYPE_LOADER_INSTANCE_CREATE_INFO);
  if (!link)
    return VK_ERROR_INITIALIZATION_FAILED;
  PFN_vkGetInstanceProcAddr next =
      link->u.pLayerInfo->pfnNextGetInstanceProcAddr;
  link->u.pLayerInfo = link->u.pLayerInfo->pNext;
  auto create = reinterpret_cast<PFN_vkCreateInstance>(
      next(VK_NULL_HANDLE, "vkCreateInstance"));
  VkResult result = create(pCreateInfo, pAllocator, pInstance);
  if (result == VK_SUCCESS) {
    State &state = getState();
    std::lock_guard<std::mutex> lock(state.mutex);
    state.nextInstanceProcAddr = next;
    state.instance = *pInstance;
    state.nextCreateXcbSurface = reinterpret_cast<PFN_vkCreateXcbSurfaceKHR>(
        next(*pInstance, "vkCreateXcbSurfaceKHR"));
  }
  return result;
}

VKAPI_ATTR VkResult VKAPI_CALL CreateDevice(
    VkPhysicalDevice physicalDevice, const VkDeviceCreateInfo *pCreateInfo,
    const VkAllocationCallbacks *pAllocator, VkDevice *pDevice) {
  auto *link =
      findLinkInfo(pCreateInfo, VK_STRUCTURE_TYPE_LOADER_DEVICE_CREATE_INFO);
  if (!link)
    return VK_ERROR_INITIALIZATION_FAILED;
  PFN_vkGetInstanceProcAddr nextInstance =
      link->u.pLayerInfo->pfnNextGetInstanceProcAddr;
  PFN_vkGetDeviceProcAddr nextDevice =
      link->u.pLayerInfo->pfnNextGetDeviceProcAddr;
  link->u.pLayerInfo = link->u.pLayerInfo->pNext;
  State &state = getState();
  auto create = reinterpret_cast<PFN_vkCreateDevice>(
      nextInstance(state.instance, "vkCreateDevice"));
  VkResult result = create(physicalDevice, pCreateInfo, pAllocator, pDevice);
  if (result == VK_SUCCESS) {
    std::lock_guard<std::mutex> lock(state.mutex);
    state.nextDeviceProcAddr = nextDevice;
    state.device = *pDevice;
  }
  return result;
}

VKAPI_ATTR VkResult VKAPI_CALL CreateXcbSurfaceKHR(
    VkInstance instance, const VkXcbSurfaceCreateInfoKHR *pCreateInfo,
    const VkAllocationCallbacks *pAllocator, VkSurfaceKHR *pSurface) {
  State &state = getState();
  VkResult result =
      state.nextCreateXcbSurface(instance, pCreateInfo, pAllocator, pSurface);
  if (result == VK_SUCCESS) {
    std::lock_guard<std::mutex> lock(state.mutex);
    state.surfaces[*pSurface] = {pCreateInfo->connection, pCreateInfo->window};
  }
  return result;
}

VKAPI_ATTR VkResult VKAPI_CALL CreateSwapchainKHR(
    VkDevice device, const VkSwapchainCreateInfoKHR *pCreateInfo,
    const VkAllocationCallbacks *pAllocator, VkSwapchainKHR *pSwapchain) {
  State &state = getState();
  auto create = reinterpret_cast<PFN_vkCreateSwapchainKHR>(
      state.nextDeviceProcAddr(device, "vkCreateSwapchainKHR"));
  VkResult result = create(device, pCreateInfo, pAllocator, pSwapchain);
  if (result == VK_SUCCESS) {
    std::lock_guard<std::mutex> lock(state.mutex);
    state.swapchains[*pSwapchain] = pCreateInfo->surface;
  }
  return result;
}

VKAPI_ATTR void VKAPI_CALL
DestroySwapchainKHR(VkDevice device, VkSwapchainKHR swapchain,
                    const VkAllocationCallbacks *pAllocator) {
  State &state = getState();
  auto destroy = reinterpret_cast<PFN_vkDestroySwapchainKHR>(
      state.nextDeviceProcAddr(device, "vkDestroySwapchainKHR"));
  // Destroying it finishes every present (a driver's present thread too).
  destroy(device, swapchain, pAllocator);
  std::lock_guard<std::mutex> lock(state.mutex);
  auto found = state.swapchains.find(swapchain);
  if (found == state.swapchains.end())
    return;
  auto surface = state.surfaces.find(found->second);
  if (surface != state.surfaces.end())
    capture(surface->second);
  state.swapchains.erase(found);
}

PFN_vkVoidFunction intercept(const char *name) {
#define INTERCEPT(NAME)                                                        \
  if (std::strcmp(name, "vk" #NAME) == 0)                                      \
    return reinterpret_cast<PFN_vkVoidFunction>(NAME);
  INTERCEPT(CreateInstance)
  INTERCEPT(CreateDevice)
  INTERCEPT(CreateXcbSurfaceKHR)
  INTERCEPT(CreateSwapchainKHR)
  INTERCEPT(DestroySwapchainKHR)
#undef INTERCEPT
  return nullptr;
}

} // namespace

extern "C" {

__attribute__((visibility("default"))) VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL
spvbCaptureGetDeviceProcAddr(VkDevice device, const char *name) {
  if (PFN_vkVoidFunction function = intercept(name))
    return function;
  return getState().nextDeviceProcAddr(device, name);
}

__attribute__((visibility("default"))) VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL
spvbCaptureGetInstanceProcAddr(VkInstance instance, const char *name) {
  if (std::strcmp(name, "vkGetDeviceProcAddr") == 0)
    return reinterpret_cast<PFN_vkVoidFunction>(spvbCaptureGetDeviceProcAddr);
  if (PFN_vkVoidFunction function = intercept(name))
    return function;
  State &state = getState();
  return state.nextInstanceProcAddr ? state.nextInstanceProcAddr(instance, name)
                                    : nullptr;
}

__attribute__((visibility("default"))) VKAPI_ATTR VkResult VKAPI_CALL
vkNegotiateLoaderLayerInterfaceVersion(VkNegotiateLayerInterface *pVersion) {
  if (pVersion->loaderLayerInterfaceVersion < 2)
    return VK_ERROR_INITIALIZATION_FAILED;
  pVersion->loaderLayerInterfaceVersion = 2;
  pVersion->pfnGetInstanceProcAddr = spvbCaptureGetInstanceProcAddr;
  pVersion->pfnGetDeviceProcAddr = spvbCaptureGetDeviceProcAddr;
  pVersion->pfnGetPhysicalDeviceProcAddr = nullptr;
  return VK_SUCCESS;
}

} // extern "C"
