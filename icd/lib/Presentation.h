//===- Presentation.h - Surfaces and swapchains -----------------*- C++ -*-===//
//
// A surface is an X window (xcb or Xlib) or nothing at all (headless); a
// swapchain owns its images and their memory. Presentation is synchronous:
// vkQueuePresentKHR returns once the X server has the pixels, so an image
// is free again as soon as it is presented.
//
//===----------------------------------------------------------------------===//
#ifndef SPVBRIDGE_ICD_LIB_PRESENTATION_H
#define SPVBRIDGE_ICD_LIB_PRESENTATION_H

#include "Objects.h"
#include "X11Window.h"

namespace spvb::icd {

struct Surface {
  /// Null for a headless surface, whose presents show nothing.
  std::unique_ptr<X11Window> window;
};

struct Swapchain {
  Device *device = nullptr;
  Surface *surface = nullptr;
  VkExtent2D extent = {0, 0};
  VkFormat format = VK_FORMAT_UNDEFINED;
  /// Where the images' texels live; the server reads them there.
  std::vector<std::unique_ptr<SharedImageMemory>> memories;
  std::vector<std::unique_ptr<DeviceMemory>> deviceMemories;
  std::vector<Image *> images;
  /// Which images the application holds (acquired, not yet presented).
  std::vector<bool> acquired;
  /// The image the next acquire tries first.
  uint32_t next = 0;
  /// Replaced by a newer swapchain (oldSwapchain): it presents no more.
  bool retired = false;
};

/// The formats a swapchain's images may have, in the order surfaces
/// offer them.
llvm::ArrayRef<VkSurfaceFormatKHR> getSurfaceFormats();

} // namespace spvb::icd

#endif // SPVBRIDGE_ICD_LIB_PRESENTATION_H
