//===- X11Window.h - Showing images in an X window --------------*- C++ -*-===//
//
// What presentation asks of the X server, through xcb (an Xlib surface's
// display gives its xcb connection): the window's size and visual, and
// images put into it. Where the server shares memory with us (MIT-SHM, a
// local display), swapchain images live in shared segments and are shown
// without a copy; elsewhere they travel in PutImage requests.
//
//===----------------------------------------------------------------------===//
#ifndef SPVBRIDGE_ICD_LIB_X11WINDOW_H
#define SPVBRIDGE_ICD_LIB_X11WINDOW_H

#include "llvm/Support/Error.h"

#include <vulkan/vulkan.h>

#include <cstdint>
#include <memory>

struct xcb_connection_t;

namespace spvb::icd {

/// Whether \p visual of \p connection's screens takes 32-bit pixels with
/// blue in the lowest byte and red in the third, as B8G8R8A8 images hold
/// them (a 24-bit TrueColor visual on a little-endian server): the only
/// kind we present to.
bool isBgrxVisual(xcb_connection_t *connection, uint32_t visual);

/// Memory the X server may read too: a System V segment attached to the
/// server, or plain pages where it cannot be.
class SharedImageMemory {
public:
  ~SharedImageMemory();
  /// \p size bytes for \p connection (null: no server), zero-filled.
  static llvm::Expected<std::unique_ptr<SharedImageMemory>>
  create(xcb_connection_t *connection, uint64_t size);
  uint8_t *getData() const { return data; }
  /// The server's name for the segment, or 0 where it has none.
  uint32_t getSegment() const { return segment; }

private:
  SharedImageMemory() = default;
  xcb_connection_t *connection = nullptr;
  uint8_t *data = nullptr;
  uint64_t size = 0;
  uint32_t segment = 0;
};

/// One X window that presents images.
class X11Window {
public:
  X11Window(xcb_connection_t *connection, uint32_t window)
      : connection(connection), window(window) {}
  ~X11Window();

  xcb_connection_t *getConnection() const { return connection; }
  /// The window's size; an error says the window is gone.
  llvm::Expected<VkExtent2D> getExtent() const;
  /// Whether the window's visual is one we present to (isBgrxVisual).
  llvm::Expected<bool> hasBgrxVisual() const;
  /// Shows \p extent's pixels (B8G8R8A8, rows packed) at the window's
  /// origin and returns once the server has read them; \p memory holds
  /// them.
  llvm::Error show(const SharedImageMemory &memory, VkExtent2D extent);

private:
  xcb_connection_t *connection;
  uint32_t window;
  /// The graphics context images are put with, made at the first show.
  uint32_t context = 0;
};

} // namespace spvb::icd

#endif // SPVBRIDGE_ICD_LIB_X11WINDOW_H
