//===- VulkanDrawTest.cpp - Draws on the system's Vulkan driver -----------===//
//
// runDraw on the Vulkan driver (lavapipe: VK_ICD_FILENAMES=/usr/share/vulkan/
// icd.d/lvp_icd.x86_64.json); skipped where there is no Vulkan device.
// Every expected texel is derived by hand in the comments. The viewport is
// the whole framebuffer, so NDC (x, y) lands at framebuffer
// ((x + 1) * width / 2, (y + 1) * height / 2), y pointing down, and a pixel
// is covered when its centre (px + 0.5, py + 0.5) is inside a triangle.
//
//===----------------------------------------------------------------------===//

#include "spvbridge/vulkan/VulkanDraw.h"

#include "spvbridge/spirv/ShaderSource.h"

#include "gtest/gtest.h"

#include <cstring>
#include <initializer_list>
#include <string>
#include <vector>

using namespace spvb;
using namespace spvb::vulkan;

namespace {

/// Passes R32G32_SFLOAT positions through as gl_Position.
constexpr const char *PositionVertexShader = R"(#version 450
layout(location = 0) in vec2 position;
void main() { gl_Position = vec4(position, 0, 1); }
)";

void compile(llvm::StringRef source, ShaderStage stage, SpirvBinary &binary) {
  llvm::Expected<SpirvBinary> result = compileGlsl(
      source, stage == ShaderStage::Vertex ? "test.vert" : "test.frag", stage,
      SourceOptions());
  ASSERT_TRUE(bool(result)) << llvm::toString(result.takeError());
  binary = std::move(*result);
}

template <typename T> std::vector<uint8_t> toBytes(std::initializer_list<T> v) {
  std::vector<uint8_t> bytes(v.size() * sizeof(T));
  std::memcpy(bytes.data(), v.begin(), bytes.size());
  return bytes;
}

uint32_t floatBits(float value) {
  uint32_t bits;
  std::memcpy(&bits, &value, sizeof(bits));
  return bits;
}

/// Two triangles over the whole of NDC [-1, 1]^2, scaled by `scale`.
std::vector<uint8_t> getQuad(float scale = 1) {
  float s = scale;
  return toBytes<float>({-s, -s, s, -s, s, s, -s, -s, s, s, -s, s});
}

/// A draw of `vertices` (vec2 positions at Location 0) into one attachment.
DrawJob makeJob(const SpirvBinary &vertex, const SpirvBinary &fragment,
                llvm::ArrayRef<uint8_t> vertices, uint32_t width,
                uint32_t height, VkFormat format) {
  DrawJob job;
  job.vertex = &vertex;
  job.fragment = &fragment;
  job.width = width;
  job.height = height;
  job.attachments.push_back({0, format, {0, 0, 0, 0}});
  job.vertexBuffers.push_back({0, 2 * sizeof(float), false, vertices});
  job.attributes.push_back({0, 0, VK_FORMAT_R32G32_SFLOAT, 0});
  job.vertexCount = static_cast<uint32_t>(vertices.size() / 8);
  job.repeat = 2;
  return job;
}

/// Runs the draw; the error's text, or empty.
std::string run(const DrawJob &job, DrawResult &result) {
  llvm::Expected<DrawResult> draw = runDraw(job);
  if (!draw)
    return llvm::toString(draw.takeError());
  result = std::move(*draw);
  return "";
}

bool hasNoDevice(const std::string &error) {
  return error.find("no Vulkan device") != std::string::npos;
}

/// Draws `job` into `result`; without a Vulkan device the test is skipped,
/// any other error fails it.
#define DRAW_OR_SKIP(job, result)                                              \
  do {                                                                         \
    std::string error = run(job, result);                                      \
    if (hasNoDevice(error))                                                    \
      GTEST_SKIP() << error;                                                   \
    ASSERT_EQ(error, "");                                                      \
  } while (false)

/// Texel (x, y) of a packed attachment of 4-byte components.
template <typename T, size_t N>
std::array<T, N> getTexel(const std::vector<uint8_t> &bytes, uint32_t width,
                          uint32_t x, uint32_t y) {
  std::array<T, N> texel;
  std::memcpy(texel.data(), bytes.data() + (size_t(y) * width + x) * N * 4,
              N * 4);
  return texel;
}

TEST(VulkanDraw, ConstantColourUnorm) {
  SpirvBinary vertex, fragment;
  ASSERT_NO_FATAL_FAILURE(
      compile(PositionVertexShader, ShaderStage::Vertex, vertex));
  ASSERT_NO_FATAL_FAILURE(compile(R"(#version 450
layout(location = 0) out vec4 color;
void main() { color = vec4(0.25, 0.5, 0.75, 1.0); }
)",
                                  ShaderStage::Fragment, fragment));
  std::vector<uint8_t> quad = getQuad();
  DrawJob job = makeJob(vertex, fragment, quad, 8, 8, VK_FORMAT_R8G8B8A8_UNORM);
  DrawResult result;
  DRAW_OR_SKIP(job, result);
  EXPECT_EQ(result.drawMilliseconds.size(), 2u);
  ASSERT_EQ(result.attachments.size(), 1u);
  // 8 * 8 texels of 4 bytes, tightly packed.
  ASSERT_EQ(result.attachments[0].size(), 256u);
  // round(0.25 * 255 = 63.75) = 64, round(127.5) = 128,
  // round(191.25) = 191, 255.
  for (size_t i = 0; i < 64; ++i) {
    const uint8_t *texel = &result.attachments[0][4 * i];
    EXPECT_EQ(texel[0], 64) << i;
    EXPECT_EQ(texel[1], 128) << i;
    EXPECT_EQ(texel[2], 191) << i;
    EXPECT_EQ(texel[3], 255) << i;
  }
}

constexpr const char *FragCoordShader = R"(#version 450
layout(location = 0) out vec4 color;
void main() { color = vec4(gl_FragCoord.xy, 0, 1); }
)";

TEST(VulkanDraw, FragCoordFloat) {
  SpirvBinary vertex, fragment;
  ASSERT_NO_FATAL_FAILURE(
      compile(PositionVertexShader, ShaderStage::Vertex, vertex));
  ASSERT_NO_FATAL_FAILURE(
      compile(FragCoordShader, ShaderStage::Fragment, fragment));
  std::vector<uint8_t> quad = getQuad();
  DrawJob job =
      makeJob(vertex, fragment, quad, 4, 3, VK_FORMAT_R32G32B32A32_SFLOAT);
  DrawResult result;
  DRAW_OR_SKIP(job, result);
  ASSERT_EQ(result.attachments.size(), 1u);
  ASSERT_EQ(result.attachments[0].size(), 4u * 3 * 16);
  // gl_FragCoord.xy is the pixel centre, exact in float.
  for (uint32_t y = 0; y < 3; ++y)
    for (uint32_t x = 0; x < 4; ++x) {
      auto texel = getTexel<float, 4>(result.attachments[0], 4, x, y);
      EXPECT_EQ(texel[0], x + 0.5f) << x << "," << y;
      EXPECT_EQ(texel[1], y + 0.5f) << x << "," << y;
      EXPECT_EQ(texel[2], 0.0f) << x << "," << y;
      EXPECT_EQ(texel[3], 1.0f) << x << "," << y;
    }
}

TEST(VulkanDraw, UncoveredTexelsKeepTheClearValue) {
  SpirvBinary vertex, fragment;
  ASSERT_NO_FATAL_FAILURE(
      compile(PositionVertexShader, ShaderStage::Vertex, vertex));
  ASSERT_NO_FATAL_FAILURE(
      compile(FragCoordShader, ShaderStage::Fragment, fragment));
  // NDC (-1, -1), (0, -1), (-1, 1) on 4x3 is framebuffer (0, 0), (2, 0),
  // (0, 3): the centres inside x/2 + y/3 < 1 are (0.5, 0.5) at 0.42,
  // (1.5, 0.5) at 0.92 and (0.5, 1.5) at 0.75; the nearest outside are
  // (0.5, 2.5) at 1.08 and (1.5, 1.5) at 1.25.
  std::vector<uint8_t> triangle = toBytes<float>({-1, -1, 0, -1, -1, 1});
  DrawJob job =
      makeJob(vertex, fragment, triangle, 4, 3, VK_FORMAT_R32G32B32A32_SFLOAT);
  job.attachments[0].clear = {floatBits(-1), floatBits(-2), floatBits(7),
                              floatBits(0.5f)};
  DrawResult result;
  DRAW_OR_SKIP(job, result);
  ASSERT_EQ(result.attachments.size(), 1u);
  ASSERT_EQ(result.attachments[0].size(), 4u * 3 * 16);
  for (uint32_t y = 0; y < 3; ++y)
    for (uint32_t x = 0; x < 4; ++x) {
      bool covered =
          (x == 0 && y == 0) || (x == 1 && y == 0) || (x == 0 && y == 1);
      std::array<float, 4> expected = {-1, -2, 7, 0.5f};
      if (covered)
        expected = {x + 0.5f, y + 0.5f, 0, 1};
      EXPECT_EQ((getTexel<float, 4>(result.attachments[0], 4, x, y)), expected)
          << x << "," << y;
    }
}

TEST(VulkanDraw, UniformBufferPushConstantsAndStorageBuffer) {
  // The push constants reach both stages: the vertex shader scales the
  // quad, the fragment shader adds the offset.
  SpirvBinary vertex, fragment;
  ASSERT_NO_FATAL_FAILURE(compile(R"(#version 450
layout(location = 0) in vec2 position;
layout(push_constant) uniform Push { vec4 offset; float scale; } push;
void main() { gl_Position = vec4(position * push.scale, 0, 1); }
)",
                                  ShaderStage::Vertex, vertex));
  ASSERT_NO_FATAL_FAILURE(compile(R"(#version 450
layout(set = 0, binding = 0) uniform Colour { vec4 colour; } u;
layout(set = 0, binding = 1) buffer Count { uint fragments; } count;
layout(push_constant) uniform Push { vec4 offset; float scale; } push;
layout(location = 0) out vec4 color;
void main() {
  color = u.colour + push.offset;
  atomicAdd(count.fragments, 1u);
}
)",
                                  ShaderStage::Fragment, fragment));
  std::vector<uint8_t> quad = getQuad();
  DrawJob job =
      makeJob(vertex, fragment, quad, 4, 4, VK_FORMAT_R32G32B32A32_SFLOAT);
  std::vector<uint8_t> colour = toBytes<float>({0.5f, 0.25f, -1, 2});
  std::vector<uint8_t> count = toBytes<uint32_t>({100});
  // std430 push constants: offset at 0, scale at 16.
  std::vector<uint8_t> push = toBytes<float>({1, 2, 3, 4, 0.5f});
  BufferBinding uniform;
  uniform.uniform = true;
  uniform.initial = colour;
  BufferBinding storage;
  storage.binding = 1;
  storage.initial = count;
  job.buffers = {uniform, storage};
  job.pushConstants = push;
  DrawResult result;
  DRAW_OR_SKIP(job, result);
  ASSERT_EQ(result.attachments.size(), 1u);
  ASSERT_EQ(result.attachments[0].size(), 4u * 4 * 16);
  // Scaled by 0.5 the quad spans framebuffer 1 to 3 in x and y: the
  // centres 1.5 and 2.5 are inside, 0.5 and 3.5 outside (clear, zero).
  for (uint32_t y = 0; y < 4; ++y)
    for (uint32_t x = 0; x < 4; ++x) {
      bool covered = x >= 1 && x <= 2 && y >= 1 && y <= 2;
      // (0.5 + 1, 0.25 + 2, -1 + 3, 2 + 4), exact in float.
      std::array<float, 4> expected = {0, 0, 0, 0};
      if (covered)
        expected = {1.5f, 2.25f, 2, 6};
      EXPECT_EQ((getTexel<float, 4>(result.attachments[0], 4, x, y)), expected)
          << x << "," << y;
    }
  // Each of the 3 draws starts from 100 and adds the 4 covered fragments.
  ASSERT_EQ(result.buffers.size(), 2u);
  EXPECT_EQ(result.buffers[0], colour);
  EXPECT_EQ(result.buffers[1], toBytes<uint32_t>({104}));
}

TEST(VulkanDraw, IndexedFlatVertexIndex) {
  SpirvBinary vertex, fragment;
  ASSERT_NO_FATAL_FAILURE(compile(R"(#version 450
layout(location = 0) in vec2 position;
layout(location = 0) flat out uint id;
void main() {
  gl_Position = vec4(position, 0, 1);
  id = uint(gl_VertexIndex);
}
)",
                                  ShaderStage::Vertex, vertex));
  ASSERT_NO_FATAL_FAILURE(compile(R"(#version 450
layout(location = 0) flat in uint id;
layout(location = 0) out uint color;
void main() { color = id; }
)",
                                  ShaderStage::Fragment, fragment));
  // Vertices 0 and 1 are never indexed; 2 to 5 are the corners top-left,
  // top-right, bottom-right, bottom-left.
  std::vector<uint8_t> vertices =
      toBytes<float>({9, 9, 9, 9, -1, -1, 1, -1, 1, 1, -1, 1});
  DrawJob job = makeJob(vertex, fragment, vertices, 4, 4, VK_FORMAT_R32_UINT);
  job.attachments[0].clear = {99, 0, 0, 0};
  // Upper-right triangle first vertex 3, lower-left first vertex 5; the
  // diagonal from (0, 0) to (4, 4) divides them.
  std::vector<uint8_t> indices = toBytes<uint16_t>({3, 4, 2, 5, 2, 4});
  job.indices = indices;
  job.indexType = VK_INDEX_TYPE_UINT16;
  job.indexCount = 6;
  DrawResult result;
  DRAW_OR_SKIP(job, result);
  ASSERT_EQ(result.attachments.size(), 1u);
  ASSERT_EQ(result.attachments[0].size(), 4u * 4 * 4);
  // The flat value is the provoking (first) vertex's index: 3 above the
  // diagonal (x > y), 5 below; pixels on it belong to exactly one.
  for (uint32_t y = 0; y < 4; ++y)
    for (uint32_t x = 0; x < 4; ++x) {
      uint32_t id = getTexel<uint32_t, 1>(result.attachments[0], 4, x, y)[0];
      if (x > y)
        EXPECT_EQ(id, 3u) << x << "," << y;
      else if (x < y)
        EXPECT_EQ(id, 5u) << x << "," << y;
      else
        EXPECT_TRUE(id == 3 || id == 5) << x << "," << y << ": " << id;
    }
}

TEST(VulkanDraw, UnsupportedFormats) {
  SpirvBinary vertex, fragment;
  ASSERT_NO_FATAL_FAILURE(
      compile(PositionVertexShader, ShaderStage::Vertex, vertex));
  ASSERT_NO_FATAL_FAILURE(
      compile(FragCoordShader, ShaderStage::Fragment, fragment));
  std::vector<uint8_t> quad = getQuad();
  DrawJob job = makeJob(vertex, fragment, quad, 4, 4, VK_FORMAT_D32_SFLOAT);
  DrawResult result;
  std::string error = run(job, result);
  if (hasNoDevice(error))
    GTEST_SKIP() << error;
  // The device's name sits between the quotes.
  EXPECT_EQ(error.rfind("error: --framebuffer: the Vulkan device '", 0), 0u)
      << error;
  llvm::StringRef tail = "' cannot use VK_FORMAT_D32_SFLOAT as a colour "
                         "attachment (vkGetPhysicalDeviceFormatProperties)";
  EXPECT_TRUE(llvm::StringRef(error).ends_with(tail)) << error;

  job = makeJob(vertex, fragment, quad, 4, 4, VK_FORMAT_R8G8B8A8_UNORM);
  job.attributes[0].format = VK_FORMAT_D32_SFLOAT;
  error = run(job, result);
  EXPECT_EQ(error.rfind("error: vertex data: the Vulkan device '", 0), 0u)
      << error;
  EXPECT_TRUE(llvm::StringRef(error).ends_with(
      "' cannot use VK_FORMAT_D32_SFLOAT as a vertex attribute (Location 0)"))
      << error;
}

} // namespace
