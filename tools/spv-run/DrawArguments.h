//===- DrawArguments.h - spv-run's flags for draws --------------*- C++ -*-===//
//
// The flags that make spv-run draw instead of dispatch:
//
//   spv-run shader.frag --framebuffer 256x256[:FORMAT] [--png [LOC:]FILE]
//           [--attachment-out [LOC:]FILE]
//   spv-run shader.vert shader.frag --framebuffer WxH[:FORMAT]
//           [--vertex-data LOCATION:FORMAT:DATA]... [--index-data TYPE:DATA]
//           [--topology NAME] [--vertices N] [--instances N]
//
// Every error starts with "error: ", names the flag and quotes the argument
// as given, as RunArguments.h's do.
//
//===----------------------------------------------------------------------===//
#ifndef SPVBRIDGE_TOOLS_SPV_RUN_DRAWARGUMENTS_H
#define SPVBRIDGE_TOOLS_SPV_RUN_DRAWARGUMENTS_H

#include "spvbridge/cpu_runtime/VulkanFormats.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace spvb::run {

/// The largest framebuffer side: lavapipe's maxFramebufferWidth/Height.
constexpr uint32_t MaxFramebufferSide = 16384;

/// `--framebuffer WxH[:FORMAT]`: the format of the colour attachments of
/// float outputs (FORMAT a VkFormat name without VK_FORMAT_, in any case;
/// default R8G8B8A8_UNORM). Errors:
///   error: --framebuffer 'ARG': expected WxH or WxH:FORMAT (e.g. 256x256 or
///          64x64:R32G32B32A32_SFLOAT)
///   error: --framebuffer 'ARG': bad size 'S' (expected W and H from 1 to
///          16384)
///   error: --framebuffer 'ARG': unknown format 'F' (expected a VkFormat
///          name such as R8G8B8A8_UNORM or R32G32B32A32_SFLOAT)
///   error: --framebuffer 'ARG': F is not a float colour format (integer
///          outputs get R32G32B32A32_UINT or _SINT attachments of their own)
struct FramebufferArgument {
  uint32_t width = 0, height = 0;
  const runtime::VulkanFormat *format = nullptr;
};
llvm::Expected<FramebufferArgument>
parseFramebufferArgument(llvm::StringRef arg);

/// `--debug-pixel X,Y`: a pixel of a `width` x `height` framebuffer.
/// Errors:
///   error: --debug-pixel 'ARG': expected X,Y (a pixel, e.g. 10,20)
///   error: --debug-pixel 'ARG': outside the WxH framebuffer
llvm::Expected<std::array<uint32_t, 2>>
parseDebugPixelArgument(llvm::StringRef arg, uint32_t width, uint32_t height);

/// `--png [LOCATION:]FILE` and `--attachment-out [LOCATION:]FILE` (\p
/// flag): the colour attachment of output Location LOCATION (default 0) as
/// a PNG or as raw texels. Errors:
///   error: FLAG 'ARG': empty FILE
///   error: FLAG 'ARG': bad location 'L' (expected an unsigned integer)
struct AttachmentFileArgument {
  /// The argument as given, for errors.
  std::string text;
  uint32_t location = 0;
  std::string path;
};
llvm::Expected<AttachmentFileArgument>
parseAttachmentFileArgument(llvm::StringRef arg, llvm::StringRef flag);

/// `--vertex-data LOCATION:FORMAT:DATA`: per-vertex values of the vertex
/// shader's input Location, tightly packed in FORMAT (a VkFormat name, as
/// --framebuffer's); DATA as --buffer's. Errors:
///   error: --vertex-data 'ARG': expected LOCATION:FORMAT:DATA
///   error: --vertex-data 'ARG': bad location 'L' (expected an unsigned
///          integer)
///   error: --vertex-data 'ARG': unknown format 'F' (expected a VkFormat
///          name such as R32G32_SFLOAT)
///   error: --vertex-data 'ARG': DATA has N bytes, not a whole number of
///          B-byte FORMAT vertices
///   and those of loadData.
struct VertexDataArgument {
  uint32_t location = 0;
  const runtime::VulkanFormat *format = nullptr;
  std::vector<uint8_t> bytes;
};
llvm::Expected<VertexDataArgument> parseVertexDataArgument(llvm::StringRef arg);

/// `--index-data u8|u16|u32:DATA`: an index buffer of that type; DATA is
/// a list of values (`u16:0,1,2`) or a file of raw indices (`u16:FILE`).
/// Errors:
///   error: --index-data 'ARG': expected u8:DATA, u16:DATA or u32:DATA
///   error: --index-data 'ARG': DATA has N bytes, not a whole number of
///          B-byte indices
///   error: --index-data 'ARG': no indices
///   and those of loadData.
struct IndexDataArgument {
  unsigned indexSize = 4;
  std::vector<uint8_t> bytes;
};
llvm::Expected<IndexDataArgument> parseIndexDataArgument(llvm::StringRef arg);

/// `--topology NAME`: Amber's and Vulkan's names in any case
/// (triangle_list, TRIANGLE_STRIP, VK_PRIMITIVE_TOPOLOGY_POINT_LIST, ...).
/// Error:
///   error: --topology 'ARG': unknown topology (expected point_list,
///          line_list, line_strip, triangle_list, triangle_strip or
///          triangle_fan)
llvm::Expected<VkPrimitiveTopology> parseTopologyArgument(llvm::StringRef arg);

} // namespace spvb::run

#endif // SPVBRIDGE_TOOLS_SPV_RUN_DRAWARGUMENTS_H
