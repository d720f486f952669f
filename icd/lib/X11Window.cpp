//===- X11Window.cpp - Showing images in an X window ----------------------===//
#include "X11Window.h"

#include "llvm/Support/FormatVariadic.h"

#include <sys/ipc.h>
#include <sys/mman.h>
#include <sys/shm.h>
#include <xcb/shm.h>
#include <xcb/xcb.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>

using namespace spvb::icd;

namespace {
/// An xcb reply, freed as xcb asks.
template <typename Reply> struct ReplyDeleter {
  void operator()(Reply *reply) const { std::free(reply); }
};
template <typename Reply>
using ReplyPtr = std::unique_ptr<Reply, ReplyDeleter<Reply>>;
} // namespace

static llvm::Error makeError(const llvm::Twine &message) {
  return llvm::createStringError(message.str(),
                                 std::make_error_code(std::errc::io_error));
}

static llvm::Error windowGone(uint32_t window, xcb_generic_error_t *error) {
  std::string code =
      error ? llvm::formatv(" (X error {0})", int(error->error_code)).str()
            : std::string(" (the connection to the X server is broken)");
  std::free(error);
  return makeError(llvm::formatv("X window {0:x} is gone{1}", window, code));
}

bool spvb::icd::isBgrxVisual(xcb_connection_t *connection, uint32_t visual) {
  const xcb_setup_t *setup = xcb_get_setup(connection);
  if (setup->image_byte_order != XCB_IMAGE_ORDER_LSB_FIRST)
    return false;
  // Depth 24 must travel as 32 bits per pixel.
  bool packed = false;
  for (auto formats = xcb_setup_pixmap_formats_iterator(setup); formats.rem;
       xcb_format_next(&formats))
    if (formats.data->depth == 24)
      packed = formats.data->bits_per_pixel == 32;
  if (!packed)
    return false;
  for (auto screens = xcb_setup_roots_iterator(setup); screens.rem;
       xcb_screen_next(&screens))
    for (auto depths = xcb_screen_allowed_depths_iterator(screens.data);
         depths.rem; xcb_depth_next(&depths))
      for (auto visuals = xcb_depth_visuals_iterator(depths.data); visuals.rem;
           xcb_visualtype_next(&visuals)) {
        const xcb_visualtype_t &type = *visuals.data;
        if (type.visual_id == visual)
          return depths.data->depth == 24 &&
                 type._class == XCB_VISUAL_CLASS_TRUE_COLOR &&
                 type.red_mask == 0xff0000 && type.green_mask == 0xff00 &&
                 type.blue_mask == 0xff;
      }
  return false;
}

SharedImageMemory::~SharedImageMemory() {
  if (segment) {
    xcb_shm_detach(connection, segment);
    xcb_flush(connection);
    shmdt(data);
  } else if (data) {
    munmap(data, size);
  }
}

/// A System V segment the server attached, or null where there is no
/// server or it cannot share memory with us (no MIT-SHM, another host,
/// another IPC namespace).
static uint8_t *attachSegment(xcb_connection_t *connection, uint64_t size,
                              uint32_t &segment) {
  if (!connection)
    return nullptr;
  const xcb_query_extension_reply_t *extension =
      xcb_get_extension_data(connection, &xcb_shm_id);
  if (!extension || !extension->present)
    return nullptr;
  int id = shmget(IPC_PRIVATE, size, IPC_CREAT | 0600);
  if (id < 0)
    return nullptr;
  void *address = shmat(id, nullptr, 0);
  if (address == reinterpret_cast<void *>(-1)) {
    shmctl(id, IPC_RMID, nullptr);
    return nullptr;
  }
  segment = xcb_generate_id(connection);
  xcb_generic_error_t *error = xcb_request_check(
      connection,
      xcb_shm_attach_checked(connection, segment, id, /*read_only=*/1));
  // Removed now, the segment lives while the server and we have it.
  shmctl(id, IPC_RMID, nullptr);
  if (error) {
    std::free(error);
    shmdt(address);
    segment = 0;
    return nullptr;
  }
  return static_cast<uint8_t *>(address);
}

llvm::Expected<std::unique_ptr<SharedImageMemory>>
SharedImageMemory::create(xcb_connection_t *connection, uint64_t size) {
  std::unique_ptr<SharedImageMemory> memory(new SharedImageMemory());
  memory->connection = connection;
  memory->size = size;
  memory->data = attachSegment(connection, size, memory->segment);
  if (!memory->data) {
    void *mapped = mmap(nullptr, size, PROT_READ | PROT_WRITE,
                        MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (mapped == MAP_FAILED)
      return makeError(llvm::formatv("cannot map {0} bytes: {1}", size,
                                     std::strerror(errno)));
    memory->data = static_cast<uint8_t *>(mapped);
  }
  return memory;
}

X11Window::~X11Window() {
  if (context) {
    xcb_free_gc(connection, context);
    xcb_flush(connection);
  }
}

llvm::Expected<VkExtent2D> X11Window::getExtent() const {
  xcb_generic_error_t *error = nullptr;
  ReplyPtr<xcb_get_geometry_reply_t> geometry(xcb_get_geometry_reply(
      connection, xcb_get_geometry(connection, window), &error));
  if (!geometry)
    return windowGone(window, error);
  return VkExtent2D{geometry->width, geometry->height};
}

llvm::Expected<bool> X11Window::hasBgrxVisual() const {
  xcb_generic_error_t *error = nullptr;
  ReplyPtr<xcb_get_window_attributes_reply_t> attributes(
      xcb_get_window_attributes_reply(
          connection, xcb_get_window_attributes(connection, window), &error));
  if (!attributes)
    return windowGone(window, error);
  return isBgrxVisual(connection, attributes->visual);
}

llvm::Error X11Window::show(const SharedImageMemory &memory,
                            VkExtent2D extent) {
  if (!context) {
    context = xcb_generate_id(connection);
    uint32_t noExposures = 0;
    xcb_create_gc(connection, context, window, XCB_GC_GRAPHICS_EXPOSURES,
                  &noExposures);
  }
  std::vector<xcb_void_cookie_t> requests;
  if (memory.getSegment()) {
    requests.push_back(xcb_shm_put_image_checked(
        connection, window, context, extent.width, extent.height, 0, 0,
        extent.width, extent.height, 0, 0, 24, XCB_IMAGE_FORMAT_Z_PIXMAP,
        /*send_event=*/0, memory.getSegment(), 0));
  } else {
    // Bands of rows, each within the server's request size.
    uint64_t rowBytes = uint64_t(extent.width) * 4;
    uint64_t requestBytes =
        uint64_t(xcb_get_maximum_request_length(connection)) * 4;
    uint32_t rows = std::max<uint64_t>(1, (requestBytes - 64) / rowBytes);
    for (uint32_t y = 0; y < extent.height; y += rows) {
      uint32_t band = std::min(rows, extent.height - y);
      requests.push_back(xcb_put_image_checked(
          connection, XCB_IMAGE_FORMAT_Z_PIXMAP, window, context, extent.width,
          band, 0, int16_t(y), 0, 24, band * rowBytes,
          memory.getData() + y * rowBytes));
    }
  }
  // Checking waits for the server to have read the pixels: the image may
  // be drawn into again once this returns.
  xcb_generic_error_t *refusal = nullptr;
  for (xcb_void_cookie_t request : requests) {
    xcb_generic_error_t *error = xcb_request_check(connection, request);
    if (refusal)
      std::free(error);
    else
      refusal = error;
  }
  if (!refusal)
    return llvm::Error::success();
  int code = refusal->error_code;
  std::free(refusal);
  return makeError(llvm::formatv(
      "the X server refused the image for window {0:x} (X error {1})", window,
      code));
}
