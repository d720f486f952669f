//===- DrawArguments.cpp - spv-run's flags for draws ----------------------===//
#include "DrawArguments.h"

#include "RunArguments.h"

#include "spvbridge/amber/GraphicsSettings.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"

using namespace llvm;

namespace spvb::run {

static Error makeError(StringRef flag, StringRef arg, const Twine &message) {
  return createStringError(inconvertibleErrorCode(),
                           "error: " + flag + " '" + arg + "': " + message);
}

/// A VkFormat name in any case, with or without VK_FORMAT_.
static const runtime::VulkanFormat *findFormat(StringRef name) {
  std::string upper = name.upper();
  StringRef bare(upper);
  bare.consume_front("VK_FORMAT_");
  return runtime::findVulkanFormat(bare);
}

Expected<std::array<uint32_t, 2>>
parseDebugPixelArgument(StringRef arg, uint32_t width, uint32_t height) {
  auto [xText, yText] = arg.split(',');
  std::array<uint32_t, 2> pixel;
  if (xText.getAsInteger(10, pixel[0]) || yText.getAsInteger(10, pixel[1]))
    return makeError("--debug-pixel", arg,
                     "expected X,Y (a pixel, e.g. 10,20)");
  if (pixel[0] >= width || pixel[1] >= height)
    return makeError("--debug-pixel", arg,
                     formatv("outside the {0}x{1} framebuffer", width, height));
  return pixel;
}

Expected<FramebufferArgument> parseFramebufferArgument(StringRef arg) {
  auto [size, formatName] = arg.split(':');
  auto [widthText, heightText] = size.split('x');
  if (size.empty() || heightText.empty() ||
      (arg.contains(':') && formatName.empty()))
    return makeError("--framebuffer", arg,
                     "expected WxH or WxH:FORMAT (e.g. 256x256 or "
                     "64x64:R32G32B32A32_SFLOAT)");
  FramebufferArgument framebuffer;
  if (widthText.getAsInteger(10, framebuffer.width) ||
      heightText.getAsInteger(10, framebuffer.height) || !framebuffer.width ||
      !framebuffer.height || framebuffer.width > MaxFramebufferSide ||
      framebuffer.height > MaxFramebufferSide)
    return makeError("--framebuffer", arg,
                     formatv("bad size '{0}' (expected W and H from 1 to {1})",
                             size, MaxFramebufferSide));
  if (formatName.empty()) {
    framebuffer.format = runtime::getVulkanFormat(VK_FORMAT_R8G8B8A8_UNORM);
    return framebuffer;
  }
  framebuffer.format = findFormat(formatName);
  if (!framebuffer.format)
    return makeError("--framebuffer", arg,
                     "unknown format '" + formatName +
                         "' (expected a VkFormat name such as "
                         "R8G8B8A8_UNORM or R32G32B32A32_SFLOAT)");
  if (!framebuffer.format->components ||
      runtime::isIntegerFormat(*framebuffer.format) ||
      framebuffer.format->kind == runtime::ComponentKind::Uscaled ||
      framebuffer.format->kind == runtime::ComponentKind::Sscaled)
    return makeError("--framebuffer", arg,
                     StringRef(framebuffer.format->name) +
                         " is not a float colour format (integer outputs get "
                         "R32G32B32A32_UINT or _SINT attachments of their "
                         "own)");
  return framebuffer;
}

Expected<AttachmentFileArgument> parseAttachmentFileArgument(StringRef arg,
                                                             StringRef flag) {
  AttachmentFileArgument png;
  png.text = arg.str();
  auto [first, rest] = arg.split(':');
  // A leading run of digits and a colon is a location; any other colon
  // belongs to the file name.
  if (!rest.empty() && !first.empty() && all_of(first, isDigit)) {
    if (first.getAsInteger(10, png.location))
      return makeError(flag, arg,
                       "bad location '" + first +
                           "' (expected an unsigned integer)");
    png.path = rest.str();
  } else {
    png.path = arg.str();
  }
  if (png.path.empty())
    return makeError(flag, arg, "empty FILE");
  return png;
}

Expected<VertexDataArgument> parseVertexDataArgument(StringRef arg) {
  auto [locationText, rest] = arg.split(':');
  auto [formatName, data] = rest.split(':');
  if (locationText.empty() || formatName.empty() || data.empty())
    return makeError("--vertex-data", arg, "expected LOCATION:FORMAT:DATA");
  VertexDataArgument vertexData;
  if (locationText.getAsInteger(0, vertexData.location))
    return makeError("--vertex-data", arg,
                     "bad location '" + locationText +
                         "' (expected an unsigned integer)");
  vertexData.format = findFormat(formatName);
  if (!vertexData.format || !vertexData.format->components)
    return makeError("--vertex-data", arg,
                     "unknown format '" + formatName +
                         "' (expected a VkFormat name such as "
                         "R32G32_SFLOAT)");
  Expected<std::vector<uint8_t>> bytes = loadData(data, "--vertex-data");
  if (!bytes)
    return bytes.takeError();
  unsigned texelBytes = vertexData.format->texelBytes;
  if (bytes->empty() || bytes->size() % texelBytes)
    return makeError("--vertex-data", arg,
                     formatv("DATA has {0} bytes, not a whole number of "
                             "{1}-byte {2} vertices",
                             bytes->size(), texelBytes,
                             vertexData.format->name));
  vertexData.bytes = std::move(*bytes);
  return vertexData;
}

Expected<IndexDataArgument> parseIndexDataArgument(StringRef arg) {
  auto [type, data] = arg.split(':');
  IndexDataArgument indices;
  indices.indexSize = StringSwitch<unsigned>(type)
                          .Case("u8", 1)
                          .Case("u16", 2)
                          .Case("u32", 4)
                          .Default(0);
  if (!indices.indexSize || data.empty())
    return makeError("--index-data", arg,
                     "expected u8:DATA, u16:DATA or u32:DATA");
  // A list of numbers is loadData's TYPE:v1,v2,...; anything else a file.
  bool isList = all_of(data, [](char c) {
    return isHexDigit(c) || c == ',' || c == 'x' || c == 'X' || c == ' ';
  });
  Expected<std::vector<uint8_t>> bytes =
      loadData(isList ? arg : data, "--index-data");
  if (!bytes)
    return bytes.takeError();
  if (bytes->empty())
    return makeError("--index-data", arg, "no indices");
  if (bytes->size() % indices.indexSize)
    return makeError("--index-data", arg,
                     formatv("DATA has {0} bytes, not a whole number of "
                             "{1}-byte indices",
                             bytes->size(), indices.indexSize));
  indices.bytes = std::move(*bytes);
  return indices;
}

Expected<VkPrimitiveTopology> parseTopologyArgument(StringRef arg) {
  std::optional<VkPrimitiveTopology> topology = amber::parseTopology(arg);
  if (!topology)
    return makeError("--topology", arg,
                     "unknown topology (expected point_list, line_list, "
                     "line_strip, triangle_list, triangle_strip, "
                     "triangle_fan, one of these with _with_adjacency, or "
                     "patch_list)");
  return *topology;
}

} // namespace spvb::run
