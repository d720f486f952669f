//===- PresentCheck.cpp - Surfaces and swapchains, checked ----------------===//
//
// Presents into X windows (and headless surfaces) the way an application
// does, one named case after another, and prints `PASS <case>`, `SKIP
// <case>: <why>` or `FAIL <case>: <what differed>`. Every presented image
// holds a pattern worked out by hand, copied in from a buffer: pixel (x, y)
// is red x*y, green 7y, blue 5x (each mod 256). The window is read back
// from the X server (GetImage), after the swapchain is destroyed so that a
// driver's present thread has finished too; windows have odd sizes, so a
// row pitch or a swapped channel shows.
//
//   xcb-bgra       an xcb window, B8G8R8A8_UNORM, FIFO
//   xcb-rgba       the same in R8G8B8A8_UNORM, where the surface offers it
//   xlib           an Xlib window, B8G8R8A8_UNORM, immediate mode
//   resize         the window resized after the swapchain was made: the
//                  surface's current extent follows it, acquiring or
//                  presenting reports the change, and a swapchain made anew
//                  (oldSwapchain) presents at the new size
//   image-alias    an image made with VkImageSwapchainCreateInfoKHR and
//                  bound to an acquired image (VkBindImageMemorySwapchain-
//                  InfoKHR): copied into, it is what the window shows
//   acquire-all    every image acquired: one more with timeout 0 is
//                  VK_NOT_READY
//   headless       VK_EXT_headless_surface, where offered: any extent, three
//                  frames acquired, written, read back and presented
//
// The exit code is 0 if no case failed, 1 if one did and 2 if the device
// or the X connection could not be set up.
//
//===----------------------------------------------------------------------===//
#define VK_USE_PLATFORM_XCB_KHR
#define VK_USE_PLATFORM_XLIB_KHR
#include "VulkanTestSupport.h"
#include <X11/Xlib-xcb.h>

#include <vulkan/vulkan.h>
#include <xcb/xcb.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

namespace {

using namespace vktest;

const char *resultName(VkResult result) {
  switch (result) {
  case VK_SUCCESS:
    return "VK_SUCCESS";
  case VK_SUBOPTIMAL_KHR:
    return "VK_SUBOPTIMAL_KHR";
  case VK_ERROR_OUT_OF_DATE_KHR:
    return "VK_ERROR_OUT_OF_DATE_KHR";
  case VK_NOT_READY:
    return "VK_NOT_READY";
  case VK_TIMEOUT:
    return "VK_TIMEOUT";
  default:
    return "another result";
  }
}

/// The pattern's colour at (x, y): red, green, blue.
void patternAt(uint32_t x, uint32_t y, uint8_t rgb[3]) {
  rgb[0] = uint8_t(x * y);
  rgb[1] = uint8_t(7 * y);
  rgb[2] = uint8_t(5 * x);
}

/// The pattern's texels in \p format (B8G8R8A8 or R8G8B8A8).
void writePattern(uint8_t *texels, VkExtent2D extent, VkFormat format) {
  bool bgra = format == VK_FORMAT_B8G8R8A8_UNORM;
  for (uint32_t y = 0; y < extent.height; ++y)
    for (uint32_t x = 0; x < extent.width; ++x) {
      uint8_t rgb[3];
      patternAt(x, y, rgb);
      uint8_t *texel = texels + 4 * (y * extent.width + x);
      texel[0] = bgra ? rgb[2] : rgb[0];
      texel[1] = rgb[1];
      texel[2] = bgra ? rgb[0] : rgb[2];
      texel[3] = 255;
    }
}

/// An empty string if \p texels (in \p format) hold the pattern, else the
/// first difference.
std::string comparePattern(const uint8_t *texels, VkExtent2D extent,
                           VkFormat format) {
  std::vector<uint8_t> expected(4 * extent.width * extent.height);
  writePattern(expected.data(), extent, format);
  for (uint32_t i = 0; i < extent.width * extent.height; ++i)
    // A window has no alpha: the fourth byte is not compared.
    if (std::memcmp(texels + 4 * i, &expected[4 * i], 3) != 0) {
      char message[160];
      std::snprintf(message, sizeof(message),
                    "pixel (%u, %u) is %u,%u,%u, expected %u,%u,%u",
                    i % extent.width, i / extent.width, texels[4 * i],
                    texels[4 * i + 1], texels[4 * i + 2], expected[4 * i],
                    expected[4 * i + 1], expected[4 * i + 2]);
      return message;
    }
  return "";
}

/// The window's pixels from the X server, blue first (a 24-bit visual).
std::vector<uint8_t> captureWindow(xcb_connection_t *connection,
                                   xcb_window_t window, VkExtent2D extent) {
  xcb_get_image_reply_t *reply = xcb_get_image_reply(
      connection,
      xcb_get_image(connection, XCB_IMAGE_FORMAT_Z_PIXMAP, window, 0, 0,
                    extent.width, extent.height, ~0u),
      nullptr);
  std::vector<uint8_t> pixels;
  if (reply && uint32_t(xcb_get_image_data_length(reply)) ==
                   4 * extent.width * extent.height)
    pixels.assign(xcb_get_image_data(reply),
                  xcb_get_image_data(reply) + 4 * extent.width * extent.height);
  std::free(reply);
  return pixels;
}

std::vector<VkImage> getImages(VkDevice device, VkSwapchainKHR swapchain) {
  uint32_t count = 0;
  vkGetSwapchainImagesKHR(device, swapchain, &count, nullptr);
  std::vector<VkImage> images(count);
  vkGetSwapchainImagesKHR(device, swapchain, &count, images.data());
  return images;
}

class Context {
public:
  void setUp();

  VkInstance Instance = VK_NULL_HANDLE;
  VkPhysicalDevice PhysicalDevice = VK_NULL_HANDLE;
  VkDevice Device = VK_NULL_HANDLE;
  VkQueue Queue = VK_NULL_HANDLE;
  VkCommandPool Pool = VK_NULL_HANDLE;
  /// The pattern, then room for a read-back image.
  VkBuffer Staging = VK_NULL_HANDLE;
  uint8_t *StagingData = nullptr;
  static constexpr VkDeviceSize kHalf = 1 << 20;
  bool Headless = false;
  xcb_connection_t *Connection = nullptr;
  xcb_screen_t *Screen = nullptr;

  xcb_window_t makeWindow(VkExtent2D extent);
  VkSurfaceKHR makeSurface(xcb_window_t window);
  bool offers(VkSurfaceKHR surface, VkFormat format);
  VkSwapchainKHR makeSwapchain(VkSurfaceKHR surface, VkExtent2D extent,
                               VkFormat format, VkPresentModeKHR mode,
                               VkSwapchainKHR old = VK_NULL_HANDLE,
                               uint32_t minImageCount = 2);
  VkResult acquire(VkSwapchainKHR swapchain, uint32_t &index,
                   uint64_t timeout = UINT64_MAX);
  /// Copies the pattern into \p image (and, with \p readBack, the image
  /// back into the staging buffer's second half), leaving it ready to
  /// present, and presents image \p index of \p swapchain.
  VkResult copyAndPresent(VkImage image, VkExtent2D extent, VkFormat format,
                          VkSwapchainKHR swapchain, uint32_t index,
                          bool readBack = false);
  /// Draws the pattern into \p window through a swapchain and reads the
  /// window back: empty if it shows the pattern, else the difference.
  std::string presentPattern(VkSurfaceKHR surface, xcb_window_t window,
                             VkExtent2D extent, VkFormat format,
                             VkPresentModeKHR mode,
                             xcb_connection_t *connection = nullptr);
  /// Reads \p window back on \p connection, the one the driver presented
  /// on (so the server has its images first); ours by default.
  std::string checkWindow(xcb_window_t window, VkExtent2D extent,
                          xcb_connection_t *connection = nullptr);
};

void Context::setUp() {
  Connection = xcb_connect(nullptr, nullptr);
  if (xcb_connection_has_error(Connection)) {
    std::fprintf(stderr, "setup: cannot connect to the X server\n");
    std::exit(2);
  }
  Screen = xcb_setup_roots_iterator(xcb_get_setup(Connection)).data;

  uint32_t count = 0;
  vkEnumerateInstanceExtensionProperties(nullptr, &count, nullptr);
  std::vector<VkExtensionProperties> available(count);
  vkEnumerateInstanceExtensionProperties(nullptr, &count, available.data());
  std::vector<const char *> extensions = {VK_KHR_SURFACE_EXTENSION_NAME,
                                          VK_KHR_XCB_SURFACE_EXTENSION_NAME,
                                          VK_KHR_XLIB_SURFACE_EXTENSION_NAME};
  for (const VkExtensionProperties &extension : available)
    if (std::strcmp(extension.extensionName,
                    VK_EXT_HEADLESS_SURFACE_EXTENSION_NAME) == 0)
      Headless = true;
  if (Headless)
    extensions.push_back(VK_EXT_HEADLESS_SURFACE_EXTENSION_NAME);
  auto app = makeStruct<VkApplicationInfo>(VK_STRUCTURE_TYPE_APPLICATION_INFO);
  app.apiVersion = VK_API_VERSION_1_1;
  auto instanceInfo =
      makeStruct<VkInstanceCreateInfo>(VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO);
  instanceInfo.pApplicationInfo = &app;
  instanceInfo.enabledExtensionCount = extensions.size();
  instanceInfo.ppEnabledExtensionNames = extensions.data();
  check(vkCreateInstance(&instanceInfo, nullptr, &Instance),
        "vkCreateInstance");
  count = 1;
  VkResult enumerated =
      vkEnumeratePhysicalDevices(Instance, &count, &PhysicalDevice);
  if ((enumerated != VK_SUCCESS && enumerated != VK_INCOMPLETE) || !count)
    check(VK_ERROR_INITIALIZATION_FAILED, "vkEnumeratePhysicalDevices");
  VkPhysicalDeviceProperties properties;
  vkGetPhysicalDeviceProperties(PhysicalDevice, &properties);
  std::printf("device: %s\n", properties.deviceName);
  if (!vkGetPhysicalDeviceXcbPresentationSupportKHR(
          PhysicalDevice, 0, Connection, Screen->root_visual)) {
    std::fprintf(stderr, "setup: queue family 0 cannot present to the "
                         "screen's visual\n");
    std::exit(2);
  }

  float priority = 1;
  auto queueInfo = makeStruct<VkDeviceQueueCreateInfo>(
      VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO);
  queueInfo.queueCount = 1;
  queueInfo.pQueuePriorities = &priority;
  const char *deviceExtensions[] = {VK_KHR_SWAPCHAIN_EXTENSION_NAME};
  auto deviceInfo =
      makeStruct<VkDeviceCreateInfo>(VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO);
  deviceInfo.queueCreateInfoCount = 1;
  deviceInfo.pQueueCreateInfos = &queueInfo;
  deviceInfo.enabledExtensionCount = 1;
  deviceInfo.ppEnabledExtensionNames = deviceExtensions;
  check(vkCreateDevice(PhysicalDevice, &deviceInfo, nullptr, &Device),
        "vkCreateDevice");
  vkGetDeviceQueue(Device, 0, 0, &Queue);
  auto poolInfo = makeStruct<VkCommandPoolCreateInfo>(
      VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO);
  poolInfo.flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT;
  check(vkCreateCommandPool(Device, &poolInfo, nullptr, &Pool),
        "vkCreateCommandPool");

  auto bufferInfo =
      makeStruct<VkBufferCreateInfo>(VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO);
  bufferInfo.size = 2 * kHalf;
  bufferInfo.usage =
      VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT;
  check(vkCreateBuffer(Device, &bufferInfo, nullptr, &Staging),
        "vkCreateBuffer");
  VkMemoryRequirements requirements;
  vkGetBufferMemoryRequirements(Device, Staging, &requirements);
  VkPhysicalDeviceMemoryProperties memoryProperties;
  vkGetPhysicalDeviceMemoryProperties(PhysicalDevice, &memoryProperties);
  constexpr VkMemoryPropertyFlags wanted = VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT |
                                           VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
  uint32_t type = 0;
  while (!(requirements.memoryTypeBits & (1u << type)) ||
         (memoryProperties.memoryTypes[type].propertyFlags & wanted) != wanted)
    ++type;
  auto allocation =
      makeStruct<VkMemoryAllocateInfo>(VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO);
  allocation.allocationSize = requirements.size;
  allocation.memoryTypeIndex = type;
  VkDeviceMemory memory;
  check(vkAllocateMemory(Device, &allocation, nullptr, &memory),
        "vkAllocateMemory");
  check(vkBindBufferMemory(Device, Staging, memory, 0), "vkBindBufferMemory");
  check(vkMapMemory(Device, memory, 0, VK_WHOLE_SIZE, 0,
                    reinterpret_cast<void **>(&StagingData)),
        "vkMapMemory");
}

xcb_window_t Context::makeWindow(VkExtent2D extent) {
  xcb_window_t window = xcb_generate_id(Connection);
  xcb_create_window(Connection, XCB_COPY_FROM_PARENT, window, Screen->root, 0,
                    0, extent.width, extent.height, 0,
                    XCB_WINDOW_CLASS_INPUT_OUTPUT, Screen->root_visual, 0,
                    nullptr);
  xcb_map_window(Connection, window);
  xcb_flush(Connection);
  return window;
}

VkSurfaceKHR Context::makeSurface(xcb_window_t window) {
  auto info = makeStruct<VkXcbSurfaceCreateInfoKHR>(
      VK_STRUCTURE_TYPE_XCB_SURFACE_CREATE_INFO_KHR);
  info.connection = Connection;
  info.window = window;
  VkSurfaceKHR surface;
  check(vkCreateXcbSurfaceKHR(Instance, &info, nullptr, &surface),
        "vkCreateXcbSurfaceKHR");
  VkBool32 supported = VK_FALSE;
  check(vkGetPhysicalDeviceSurfaceSupportKHR(PhysicalDevice, 0, surface,
                                             &supported),
        "vkGetPhysicalDeviceSurfaceSupportKHR");
  if (!supported)
    check(VK_ERROR_INITIALIZATION_FAILED, "presenting to the window");
  return surface;
}

bool Context::offers(VkSurfaceKHR surface, VkFormat format) {
  uint32_t count = 0;
  vkGetPhysicalDeviceSurfaceFormatsKHR(PhysicalDevice, surface, &count,
                                       nullptr);
  std::vector<VkSurfaceFormatKHR> formats(count);
  vkGetPhysicalDeviceSurfaceFormatsKHR(PhysicalDevice, surface, &count,
                                       formats.data());
  for (const VkSurfaceFormatKHR &offered : formats)
    if (offered.format == format)
      return true;
  return false;
}

VkSwapchainKHR Context::makeSwapchain(VkSurfaceKHR surface, VkExtent2D extent,
                                      VkFormat format, VkPresentModeKHR mode,
                                      VkSwapchainKHR old,
                                      uint32_t minImageCount) {
  VkSurfaceCapabilitiesKHR capabilities;
  check(vkGetPhysicalDeviceSurfaceCapabilitiesKHR(PhysicalDevice, surface,
                                                  &capabilities),
        "vkGetPhysicalDeviceSurfaceCapabilitiesKHR");
  auto info = makeStruct<VkSwapchainCreateInfoKHR>(
      VK_STRUCTURE_TYPE_SWAPCHAIN_CREATE_INFO_KHR);
  info.surface = surface;
  info.minImageCount = std::max(minImageCount, capabilities.minImageCount);
  info.imageFormat = format;
  info.imageColorSpace = VK_COLOR_SPACE_SRGB_NONLINEAR_KHR;
  info.imageExtent = extent;
  info.imageArrayLayers = 1;
  info.imageUsage =
      VK_IMAGE_USAGE_TRANSFER_DST_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT;
  info.imageSharingMode = VK_SHARING_MODE_EXCLUSIVE;
  info.preTransform = VK_SURFACE_TRANSFORM_IDENTITY_BIT_KHR;
  info.compositeAlpha = VK_COMPOSITE_ALPHA_OPAQUE_BIT_KHR;
  info.presentMode = mode;
  info.clipped = VK_TRUE;
  info.oldSwapchain = old;
  VkSwapchainKHR swapchain;
  check(vkCreateSwapchainKHR(Device, &info, nullptr, &swapchain),
        "vkCreateSwapchainKHR");
  // Applications ask for the images first; the validation layer tracks
  // acquisitions only of images it has seen.
  getImages(Device, swapchain);
  return swapchain;
}

VkResult Context::acquire(VkSwapchainKHR swapchain, uint32_t &index,
                          uint64_t timeout) {
  auto fenceInfo =
      makeStruct<VkFenceCreateInfo>(VK_STRUCTURE_TYPE_FENCE_CREATE_INFO);
  VkFence fence;
  check(vkCreateFence(Device, &fenceInfo, nullptr, &fence), "vkCreateFence");
  VkResult result = vkAcquireNextImageKHR(Device, swapchain, timeout,
                                          VK_NULL_HANDLE, fence, &index);
  if (result == VK_SUCCESS || result == VK_SUBOPTIMAL_KHR)
    check(vkWaitForFences(Device, 1, &fence, VK_TRUE, UINT64_MAX),
          "vkWaitForFences");
  vkDestroyFence(Device, fence, nullptr);
  return result;
}

VkResult Context::copyAndPresent(VkImage image, VkExtent2D extent,
                                 VkFormat format, VkSwapchainKHR swapchain,
                                 uint32_t index, bool readBack) {
  writePattern(StagingData, extent, format);
  auto allocateInfo = makeStruct<VkCommandBufferAllocateInfo>(
      VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO);
  allocateInfo.commandPool = Pool;
  allocateInfo.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
  allocateInfo.commandBufferCount = 1;
  VkCommandBuffer commands;
  check(vkAllocateCommandBuffers(Device, &allocateInfo, &commands),
        "vkAllocateCommandBuffers");
  auto begin = makeStruct<VkCommandBufferBeginInfo>(
      VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO);
  check(vkBeginCommandBuffer(commands, &begin), "vkBeginCommandBuffer");
  transition(commands, image, VK_IMAGE_LAYOUT_UNDEFINED,
             VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 0,
             VK_ACCESS_TRANSFER_WRITE_BIT);
  VkBufferImageCopy region = {};
  region.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
  region.imageExtent = {extent.width, extent.height, 1};
  vkCmdCopyBufferToImage(commands, Staging, image,
                         VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1, &region);
  VkImageLayout last = VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL;
  if (readBack) {
    transition(commands, image, last, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL,
               VK_ACCESS_TRANSFER_WRITE_BIT, VK_ACCESS_TRANSFER_READ_BIT);
    last = VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL;
    region.bufferOffset = kHalf;
    vkCmdCopyImageToBuffer(commands, image, last, Staging, 1, &region);
  }
  transition(commands, image, last, VK_IMAGE_LAYOUT_PRESENT_SRC_KHR,
             VK_ACCESS_TRANSFER_WRITE_BIT, 0);
  check(vkEndCommandBuffer(commands), "vkEndCommandBuffer");

  auto semaphoreInfo = makeStruct<VkSemaphoreCreateInfo>(
      VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO);
  VkSemaphore rendered;
  check(vkCreateSemaphore(Device, &semaphoreInfo, nullptr, &rendered),
        "vkCreateSemaphore");
  auto submit = makeStruct<VkSubmitInfo>(VK_STRUCTURE_TYPE_SUBMIT_INFO);
  submit.commandBufferCount = 1;
  submit.pCommandBuffers = &commands;
  submit.signalSemaphoreCount = 1;
  submit.pSignalSemaphores = &rendered;
  check(vkQueueSubmit(Queue, 1, &submit, VK_NULL_HANDLE), "vkQueueSubmit");
  auto present =
      makeStruct<VkPresentInfoKHR>(VK_STRUCTURE_TYPE_PRESENT_INFO_KHR);
  present.waitSemaphoreCount = 1;
  present.pWaitSemaphores = &rendered;
  present.swapchainCount = 1;
  present.pSwapchains = &swapchain;
  present.pImageIndices = &index;
  VkResult result = vkQueuePresentKHR(Queue, &present);
  check(vkQueueWaitIdle(Queue), "vkQueueWaitIdle");
  vkDestroySemaphore(Device, rendered, nullptr);
  vkFreeCommandBuffers(Device, Pool, 1, &commands);
  return result;
}

std::string Context::checkWindow(xcb_window_t window, VkExtent2D extent,
                                 xcb_connection_t *connection) {
  std::vector<uint8_t> pixels =
      captureWindow(connection ? connection : Connection, window, extent);
  if (pixels.empty())
    return "the window could not be read back";
  return comparePattern(pixels.data(), extent, VK_FORMAT_B8G8R8A8_UNORM);
}

std::string Context::presentPattern(VkSurfaceKHR surface, xcb_window_t window,
                                    VkExtent2D extent, VkFormat format,
                                    VkPresentModeKHR mode,
                                    xcb_connection_t *connection) {
  VkSwapchainKHR swapchain = makeSwapchain(surface, extent, format, mode);
  uint32_t index = 0;
  VkResult acquired = acquire(swapchain, index);
  if (acquired != VK_SUCCESS)
    return std::string("acquiring gave ") + resultName(acquired);
  VkResult presented = copyAndPresent(getImages(Device, swapchain)[index],
                                      extent, format, swapchain, index);
  vkDestroySwapchainKHR(Device, swapchain, nullptr);
  if (presented != VK_SUCCESS)
    return std::string("presenting gave ") + resultName(presented);
  return checkWindow(window, extent, connection);
}

int Failures = 0;

void report(const char *name, const std::string &failure) {
  if (failure.empty()) {
    std::printf("PASS %s\n", name);
  } else {
    std::printf("FAIL %s: %s\n", name, failure.c_str());
    ++Failures;
  }
}

void runXcb(Context &context, const char *name, VkFormat format) {
  VkExtent2D extent = {61, 37};
  xcb_window_t window = context.makeWindow(extent);
  VkSurfaceKHR surface = context.makeSurface(window);
  if (!context.offers(surface, format)) {
    std::printf("SKIP %s: the surface does not offer the format\n", name);
  } else {
    report(name, context.presentPattern(surface, window, extent, format,
                                        VK_PRESENT_MODE_FIFO_KHR));
  }
  vkDestroySurfaceKHR(context.Instance, surface, nullptr);
  xcb_destroy_window(context.Connection, window);
}

void runXlib(Context &context) {
  Display *display = XOpenDisplay(nullptr);
  if (!display)
    return report("xlib", "XOpenDisplay failed");
  VkExtent2D extent = {45, 29};
  Window window = XCreateSimpleWindow(display, DefaultRootWindow(display), 0, 0,
                                      extent.width, extent.height, 0, 0, 0);
  XMapWindow(display, window);
  XSync(display, False);
  auto info = makeStruct<VkXlibSurfaceCreateInfoKHR>(
      VK_STRUCTURE_TYPE_XLIB_SURFACE_CREATE_INFO_KHR);
  info.dpy = display;
  info.window = window;
  VkSurfaceKHR surface;
  check(vkCreateXlibSurfaceKHR(context.Instance, &info, nullptr, &surface),
        "vkCreateXlibSurfaceKHR");
  Visual *visual = DefaultVisual(display, DefaultScreen(display));
  std::string failure;
  if (!vkGetPhysicalDeviceXlibPresentationSupportKHR(
          context.PhysicalDevice, 0, display, XVisualIDFromVisual(visual)))
    failure = "no presentation support for the default visual";
  else
    failure = context.presentPattern(
        surface, uint32_t(window), extent, VK_FORMAT_B8G8R8A8_UNORM,
        VK_PRESENT_MODE_IMMEDIATE_KHR, XGetXCBConnection(display));
  report("xlib", failure);
  vkDestroySurfaceKHR(context.Instance, surface, nullptr);
  XDestroyWindow(display, window);
  XCloseDisplay(display);
}

void runResize(Context &context) {
  VkExtent2D before = {40, 30}, after = {53, 21};
  xcb_window_t window = context.makeWindow(before);
  VkSurfaceKHR surface = context.makeSurface(window);
  VkSwapchainKHR swapchain = context.makeSwapchain(
      surface, before, VK_FORMAT_B8G8R8A8_UNORM, VK_PRESENT_MODE_FIFO_KHR);
  uint32_t size[] = {after.width, after.height};
  xcb_configure_window(context.Connection, window,
                       XCB_CONFIG_WINDOW_WIDTH | XCB_CONFIG_WINDOW_HEIGHT,
                       size);
  std::free(xcb_get_input_focus_reply(
      context.Connection, xcb_get_input_focus(context.Connection), nullptr));
  std::string failure;
  VkSurfaceCapabilitiesKHR capabilities;
  vkGetPhysicalDeviceSurfaceCapabilitiesKHR(context.PhysicalDevice, surface,
                                            &capabilities);
  if (capabilities.currentExtent.width != after.width ||
      capabilities.currentExtent.height != after.height)
    failure = "the current extent is " +
              std::to_string(capabilities.currentExtent.width) + "x" +
              std::to_string(capabilities.currentExtent.height);
  uint32_t index = 0;
  VkResult acquired = context.acquire(swapchain, index);
  VkResult presented = VK_SUCCESS;
  if (acquired == VK_SUCCESS)
    presented = context.copyAndPresent(
        getImages(context.Device, swapchain)[index], before,
        VK_FORMAT_B8G8R8A8_UNORM, swapchain, index);
  bool told = acquired != VK_SUCCESS || presented != VK_SUCCESS;
  if (failure.empty() && !told)
    failure = "neither acquiring nor presenting reported the resize";
  VkSwapchainKHR renewed =
      context.makeSwapchain(surface, after, VK_FORMAT_B8G8R8A8_UNORM,
                            VK_PRESENT_MODE_FIFO_KHR, swapchain);
  vkDestroySwapchainKHR(context.Device, swapchain, nullptr);
  if (failure.empty() && context.acquire(renewed, index) != VK_SUCCESS)
    failure = "acquiring from the new swapchain failed";
  if (failure.empty()) {
    VkResult result =
        context.copyAndPresent(getImages(context.Device, renewed)[index], after,
                               VK_FORMAT_B8G8R8A8_UNORM, renewed, index);
    if (result != VK_SUCCESS)
      failure =
          std::string("presenting at the new size gave ") + resultName(result);
  }
  vkDestroySwapchainKHR(context.Device, renewed, nullptr);
  if (failure.empty())
    failure = context.checkWindow(window, after);
  if (failure.empty())
    std::printf("PASS resize (acquire: %s, present: %s)\n",
                resultName(acquired),
                acquired == VK_SUCCESS ? resultName(presented) : "not tried");
  else
    report("resize", failure);
  vkDestroySurfaceKHR(context.Instance, surface, nullptr);
  xcb_destroy_window(context.Connection, window);
}

void runImageAlias(Context &context) {
  VkExtent2D extent = {33, 19};
  xcb_window_t window = context.makeWindow(extent);
  VkSurfaceKHR surface = context.makeSurface(window);
  VkSwapchainKHR swapchain = context.makeSwapchain(
      surface, extent, VK_FORMAT_B8G8R8A8_UNORM, VK_PRESENT_MODE_FIFO_KHR);
  uint32_t index = 0;
  std::string failure;
  if (context.acquire(swapchain, index) != VK_SUCCESS) {
    failure = "acquiring failed";
  } else {
    auto alias = makeStruct<VkImageSwapchainCreateInfoKHR>(
        VK_STRUCTURE_TYPE_IMAGE_SWAPCHAIN_CREATE_INFO_KHR);
    alias.swapchain = swapchain;
    auto info =
        makeStruct<VkImageCreateInfo>(VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO);
    info.pNext = &alias;
    info.imageType = VK_IMAGE_TYPE_2D;
    info.format = VK_FORMAT_B8G8R8A8_UNORM;
    info.extent = {extent.width, extent.height, 1};
    info.mipLevels = 1;
    info.arrayLayers = 1;
    info.samples = VK_SAMPLE_COUNT_1_BIT;
    info.tiling = VK_IMAGE_TILING_OPTIMAL;
    info.usage =
        VK_IMAGE_USAGE_TRANSFER_DST_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT;
    VkImage image;
    check(vkCreateImage(context.Device, &info, nullptr, &image),
          "vkCreateImage");
    auto bindSwapchain = makeStruct<VkBindImageMemorySwapchainInfoKHR>(
        VK_STRUCTURE_TYPE_BIND_IMAGE_MEMORY_SWAPCHAIN_INFO_KHR);
    bindSwapchain.swapchain = swapchain;
    bindSwapchain.imageIndex = index;
    auto bind = makeStruct<VkBindImageMemoryInfo>(
        VK_STRUCTURE_TYPE_BIND_IMAGE_MEMORY_INFO);
    bind.pNext = &bindSwapchain;
    bind.image = image;
    check(vkBindImageMemory2(context.Device, 1, &bind), "vkBindImageMemory2");
    VkResult presented = context.copyAndPresent(
        image, extent, VK_FORMAT_B8G8R8A8_UNORM, swapchain, index);
    vkDestroyImage(context.Device, image, nullptr);
    if (presented != VK_SUCCESS)
      failure = std::string("presenting gave ") + resultName(presented);
  }
  vkDestroySwapchainKHR(context.Device, swapchain, nullptr);
  if (failure.empty())
    failure = context.checkWindow(window, extent);
  report("image-alias", failure);
  vkDestroySurfaceKHR(context.Instance, surface, nullptr);
  xcb_destroy_window(context.Connection, window);
}

void runAcquireAll(Context &context) {
  VkExtent2D extent = {16, 16};
  xcb_window_t window = context.makeWindow(extent);
  VkSurfaceKHR surface = context.makeSurface(window);
  VkSwapchainKHR swapchain = context.makeSwapchain(
      surface, extent, VK_FORMAT_B8G8R8A8_UNORM, VK_PRESENT_MODE_FIFO_KHR);
  size_t count = getImages(context.Device, swapchain).size();
  std::string failure;
  uint32_t index = 0;
  for (size_t i = 0; i < count && failure.empty(); ++i)
    if (VkResult result = context.acquire(swapchain, index, 0))
      failure = "acquiring image " + std::to_string(i + 1) + " of " +
                std::to_string(count) + " gave " + resultName(result);
  if (failure.empty()) {
    VkResult result = context.acquire(swapchain, index, 0);
    if (result != VK_NOT_READY)
      failure = std::string("one more gave ") + resultName(result);
  }
  vkDestroySwapchainKHR(context.Device, swapchain, nullptr);
  report("acquire-all", failure);
  vkDestroySurfaceKHR(context.Instance, surface, nullptr);
  xcb_destroy_window(context.Connection, window);
}

void runHeadless(Context &context) {
  if (!context.Headless)
    return (void)std::printf(
        "SKIP headless: VK_EXT_headless_surface is not offered\n");
  auto info = makeStruct<VkHeadlessSurfaceCreateInfoEXT>(
      VK_STRUCTURE_TYPE_HEADLESS_SURFACE_CREATE_INFO_EXT);
  VkSurfaceKHR surface;
  auto create = reinterpret_cast<PFN_vkCreateHeadlessSurfaceEXT>(
      vkGetInstanceProcAddr(context.Instance, "vkCreateHeadlessSurfaceEXT"));
  check(create(context.Instance, &info, nullptr, &surface),
        "vkCreateHeadlessSurfaceEXT");
  std::string failure;
  VkSurfaceCapabilitiesKHR capabilities;
  vkGetPhysicalDeviceSurfaceCapabilitiesKHR(context.PhysicalDevice, surface,
                                            &capabilities);
  if (capabilities.currentExtent.width != UINT32_MAX)
    failure = "the current extent is defined";
  VkExtent2D extent = {27, 13};
  VkSwapchainKHR swapchain =
      context.makeSwapchain(surface, extent, VK_FORMAT_R8G8B8A8_UNORM,
                            VK_PRESENT_MODE_FIFO_KHR, VK_NULL_HANDLE, 3);
  std::vector<VkImage> images = getImages(context.Device, swapchain);
  for (int frame = 0; frame < 3 && failure.empty(); ++frame) {
    uint32_t index = 0;
    if (context.acquire(swapchain, index) != VK_SUCCESS ||
        index >= images.size()) {
      failure = "acquiring frame " + std::to_string(frame) + " failed";
      break;
    }
    VkResult presented =
        context.copyAndPresent(images[index], extent, VK_FORMAT_R8G8B8A8_UNORM,
                               swapchain, index, /*readBack=*/true);
    if (presented != VK_SUCCESS)
      failure = std::string("presenting gave ") + resultName(presented);
    else
      failure = comparePattern(context.StagingData + Context::kHalf, extent,
                               VK_FORMAT_R8G8B8A8_UNORM);
  }
  vkDestroySwapchainKHR(context.Device, swapchain, nullptr);
  report("headless", failure);
  vkDestroySurfaceKHR(context.Instance, surface, nullptr);
}

} // namespace

int main() {
  Context context;
  context.setUp();
  runXcb(context, "xcb-bgra", VK_FORMAT_B8G8R8A8_UNORM);
  runXcb(context, "xcb-rgba", VK_FORMAT_R8G8B8A8_UNORM);
  runXlib(context);
  runResize(context);
  runImageAlias(context);
  runAcquireAll(context);
  runHeadless(context);
  return Failures ? 1 : 0;
}
