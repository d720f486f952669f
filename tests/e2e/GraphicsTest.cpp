//===- GraphicsTest.cpp - Draws checked against hand-derived values -------===//
//
// Small framebuffers (8x8) where every expected texel follows from the
// specification by hand: the top-left rule, interpolation formulas,
// derivatives of known functions, depth compare ops, blend equations and
// UNORM/sRGB rounding.
//
//===----------------------------------------------------------------------===//
#include "KernelFixture.h"

#include "spvbridge/bridge/Draw.h"

#include <spirv/unified1/spirv.hpp>

#include <cmath>

using namespace spvb;
using namespace spvb::test;

namespace {

constexpr uint32_t kSize = 8;

/// Clip-space positions of a quad as a triangle strip, from NDC corners.
std::vector<float> quad(float x0, float y0, float x1, float y1) {
  return {x0, y0, 0, 1, x1, y0, 0, 1, x0, y1, 0, 1, x1, y1, 0, 1};
}

constexpr const char *kPositionVertex = R"(#version 450
layout(location = 0) in vec4 position;
void main() { gl_Position = position; }
)";

/// Counts its invocations in the buffer at set 0, binding 0.
constexpr const char *kCountingVertex = R"(#version 450
layout(set = 0, binding = 0) buffer Counter { uint count; };
layout(location = 0) in vec4 position;
void main() {
  atomicAdd(count, 1u);
  gl_Position = position;
}
)";

constexpr const char *kWhiteFragment = R"(#version 450
layout(location = 0) out vec4 result;
void main() { result = vec4(1); }
)";

runtime::GraphicsState strip() {
  runtime::GraphicsState state;
  state.topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_STRIP;
  return state;
}

class GraphicsTest : public KernelFixture {
protected:
  /// A width x height attachment of `format` (8x8 by default),
  /// zero-filled.
  struct Image {
    explicit Image(const char *format, uint32_t width = kSize,
                   uint32_t height = kSize, uint32_t samples = 1)
        : format(runtime::findVulkanFormat(format)), width(width),
          height(height), samples(samples),
          bytes(width * height * samples * this->format->texelBytes) {}
    runtime::Color at(uint32_t x, uint32_t y, uint32_t sample = 0) const {
      return runtime::decodeColor(*format, attachment().at(x, y, sample));
    }
    runtime::Attachment attachment() const {
      return {const_cast<uint8_t *>(bytes.data()), format, width, height,
              samples};
    }
    const runtime::VulkanFormat *format;
    uint32_t width, height, samples;
    std::vector<uint8_t> bytes;
  };

  std::shared_ptr<const Kernel> stage(llvm::StringRef source,
                                      spv::ExecutionModel model) {
    CompileOptions options;
    options.executionModel = model;
    return compileGlsl(source, options,
                       model == spv::ExecutionModelVertex ? ".vert" : ".frag");
  }

  /// Draws `vertices` (vec4 at Location 0, plus `extra` floats per vertex
  /// at Location 1 when extraComponents > 0) into `target`.
  llvm::Error draw(llvm::StringRef vertexSource, llvm::StringRef fragmentSource,
                   const std::vector<float> &vertices,
                   runtime::GraphicsState state, runtime::RenderTarget target,
                   unsigned extraComponents = 0,
                   const std::vector<uint32_t> *indices = nullptr) {
    auto vertex = stage(vertexSource, spv::ExecutionModelVertex);
    auto fragment = stage(fragmentSource, spv::ExecutionModelFragment);
    if (!vertex || !fragment)
      return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                     "compile failed");
    llvm::Expected<Draw> created = Draw::create(vertex, fragment);
    if (!created)
      return created.takeError();
    if (storage)
      created->bindBuffer(0, 0, storage->data(), storage->size() * 4);
    if (image)
      created->bindImage(0, 1, image);
    unsigned stride = (4 + extraComponents) * sizeof(float);
    std::vector<runtime::VertexAttribute> attributes(1);
    attributes[0].data = reinterpret_cast<const uint8_t *>(vertices.data());
    attributes[0].size = vertices.size() * sizeof(float);
    attributes[0].format = runtime::findVulkanFormat("R32G32B32A32_SFLOAT");
    attributes[0].stride = stride;
    if (extraComponents) {
      runtime::VertexAttribute extra = attributes[0];
      extra.location = 1;
      extra.offset = 16;
      const char *formats[] = {"R32_SFLOAT", "R32G32_SFLOAT",
                               "R32G32B32_SFLOAT", "R32G32B32A32_SFLOAT"};
      extra.format = runtime::findVulkanFormat(formats[extraComponents - 1]);
      attributes.push_back(extra);
    }
    runtime::DrawCall call;
    call.vertexCount = vertices.size() / (4 + extraComponents);
    if (indices) {
      call.indices = reinterpret_cast<const uint8_t *>(indices->data());
      call.indexBytes = indices->size() * 4;
      call.vertexCount = indices->size();
    }
    target.width = target.colors.empty() ? kSize : target.colors[0].width;
    target.height = target.colors.empty() ? kSize : target.colors[0].height;
    llvm::Expected<runtime::DrawStatistics> statistics =
        created->run(launcher, state, attributes, call, target);
    return statistics ? llvm::Error::success() : statistics.takeError();
  }

  /// Draws texture(tex, gl_FragCoord.xy / 8 * scale) of `image` (binding
  /// 1) over the whole framebuffer into `color`.
  llvm::Error drawScaledTexture(double scale, Image &color) {
    runtime::RenderTarget target;
    target.colors.assign(1, color.attachment());
    std::string source = R"(#version 450
layout(set = 0, binding = 1) uniform sampler2D tex;
layout(location = 0) out vec4 result;
void main() { result = texture(tex, gl_FragCoord.xy / 8.0 * SCALE); }
)";
    source.replace(source.find("SCALE"), 5, std::to_string(scale));
    return draw(kPositionVertex, source, quad(-1, -1, 1, 1), strip(), target);
  }

  /// Draws one triangle covering framebuffer x < 2.5 (its third edge lies
  /// left of the framebuffer) into the 4-sample `color`, resolving into
  /// `resolved` if given: pixel 2 is covered at samples 0 and 2 (x + 0.375,
  /// x + 0.125) only.
  llvm::Error drawEdgeTriangle(llvm::StringRef vertexSource,
                               llvm::StringRef fragmentSource,
                               const Image &color,
                               const Image *resolved = nullptr) {
    runtime::RenderTarget target;
    target.colors.assign(1, color.attachment());
    if (resolved)
      target.resolves.assign(1, resolved->attachment());
    return draw(vertexSource, fragmentSource,
                {-0.375f, -1, 0, 1, -0.375f, 3, 0, 1, -5, -1, 0, 1},
                runtime::GraphicsState(), target);
  }

  runtime::Launcher launcher{2};
  /// Bound at set 0, binding 0 and 1 when set.
  std::vector<uint32_t> *storage = nullptr;
  const spvb_image *image = nullptr;
};

TEST_F(GraphicsTest, TopLeftRuleTakesLeftAndTopEdgesOnly) {
  // Framebuffer x = (ndc + 1) * 4: -0.625 is 1.5 and 0.375 is 5.5, edges
  // through pixel centres. The left and top edges (centres 1.5) are in,
  // the right and bottom (5.5) out: pixels 1..4 in x and y.
  Image color("R8G8B8A8_UNORM");
  runtime::RenderTarget target;
  target.colors.assign(1, color.attachment());
  ASSERT_EQ("<success>", errorText(draw(kPositionVertex, R"(#version 450
layout(location = 0) out vec4 result;
void main() { result = vec4(1.0); }
)",
                                        quad(-0.625f, -0.625f, 0.375f, 0.375f),
                                        strip(), target)));
  for (uint32_t y = 0; y < kSize; ++y)
    for (uint32_t x = 0; x < kSize; ++x) {
      bool inside = x >= 1 && x <= 4 && y >= 1 && y <= 4;
      EXPECT_EQ(color.at(x, y).f[0], inside ? 1.0 : 0.0) << x << "," << y;
    }
}

TEST_F(GraphicsTest, OverlappingTrianglesKeepDrawOrderAcrossTiles) {
  // 60 triangles over a 100x70 framebuffer (tiles of 64 pixels, the last
  // ones partial) and a scissor at odd offsets; each writes its number. A
  // pixel holds the number of the last triangle whose coverage takes its
  // centre: vertices snapped to 1/256 pixel, exact edge functions, and the
  // top-left rule for centres on an edge (the specification's rules, here
  // evaluated directly).
  constexpr uint32_t kWidth = 100, kHeight = 70;
  Image color("R32G32B32A32_SFLOAT", kWidth, kHeight);
  runtime::RenderTarget target;
  target.colors.assign(1, color.attachment());
  runtime::GraphicsState state;
  state.scissor = VkRect2D{{13, 7}, {71, 50}};
  std::vector<float> vertices;
  uint32_t seed = 12345;
  auto next = [&] {
    seed = seed * 1664525u + 1013904223u;
    return float(seed >> 8) / float(1u << 24) * 2.4f - 1.2f;
  };
  struct Snapped {
    int64_t x, y;
  };
  std::vector<std::array<Snapped, 3>> triangles;
  for (int t = 0; t < 60; ++t) {
    std::array<Snapped, 3> snapped;
    for (int k = 0; k < 3; ++k) {
      float x = next(), y = next();
      vertices.insert(vertices.end(), {x, y, 0, 1, float(t + 1)});
      snapped[k] = {std::llround((double(x) + 1) * kWidth / 2 * 256),
                    std::llround((double(y) + 1) * kHeight / 2 * 256)};
    }
    triangles.push_back(snapped);
  }
  ASSERT_EQ("<success>", errorText(draw(R"(#version 450
layout(location = 0) in vec4 position;
layout(location = 1) in float number;
layout(location = 0) flat out float id;
void main() { gl_Position = position; id = number; }
)",
                                        R"(#version 450
layout(location = 0) flat in float id;
layout(location = 0) out vec4 result;
void main() { result = vec4(id); }
)",
                                        vertices, state, target, 1)));
  auto edge = [](Snapped a, Snapped b, int64_t px, int64_t py) {
    return (b.x - a.x) * (py - a.y) - (b.y - a.y) * (px - a.x);
  };
  auto topLeft = [](Snapped a, Snapped b) {
    return (b.y == a.y && b.x > a.x) || b.y < a.y;
  };
  unsigned covered = 0;
  for (uint32_t y = 0; y < kHeight; ++y)
    for (uint32_t x = 0; x < kWidth; ++x) {
      float expected = 0;
      bool inScissor = x >= 13 && x < 84 && y >= 7 && y < 57;
      for (size_t t = 0; inScissor && t < triangles.size(); ++t) {
        std::array<Snapped, 3> v = triangles[t];
        int64_t px = x * 256 + 128, py = y * 256 + 128;
        if (edge(v[0], v[1], v[2].x, v[2].y) < 0)
          std::swap(v[1], v[2]);
        if (edge(v[0], v[1], v[2].x, v[2].y) == 0)
          continue;
        bool inside = true;
        for (int k = 0; k < 3; ++k) {
          Snapped a = v[(k + 1) % 3], b = v[(k + 2) % 3];
          int64_t e = edge(a, b, px, py);
          inside = inside && (e > 0 || (e == 0 && topLeft(a, b)));
        }
        if (inside)
          expected = float(t + 1);
      }
      covered += expected != 0;
      ASSERT_EQ(color.at(x, y).f[0], expected) << x << "," << y;
    }
  // The triangles overlap most of the scissor.
  EXPECT_GT(covered, 71u * 50u / 2);
}

TEST_F(GraphicsTest, TrianglesSharingAnEdgeCoverEachSampleOnce) {
  // Two triangles of a full-screen quad, blended additively with 0.25:
  // every pixel, the diagonal's included, must hold exactly 0.25.
  Image color("R32G32B32A32_SFLOAT");
  runtime::RenderTarget target;
  target.colors.assign(1, color.attachment());
  runtime::GraphicsState state = strip();
  runtime::BlendState add;
  add.enable = true;
  add.dstColor = add.dstAlpha = VK_BLEND_FACTOR_ONE;
  state.blend = {add};
  ASSERT_EQ("<success>", errorText(draw(kPositionVertex, R"(#version 450
layout(location = 0) out vec4 result;
void main() { result = vec4(0.25); }
)",
                                        quad(-1, -1, 1, 1), state, target)));
  for (uint32_t y = 0; y < kSize; ++y)
    for (uint32_t x = 0; x < kSize; ++x)
      EXPECT_EQ(color.at(x, y).f[0], 0.25) << x << "," << y;
}

TEST_F(GraphicsTest, InterpolationIsPerspectiveCorrectUnlessNoPerspective) {
  // The left edge has w = 1, the right w = 3 (clip x = ndc * w), u goes
  // 0 -> 1. At the screen fraction s = (x + 0.5) / 8, perspective-correct
  // u = (s / 3) / ((1 - s) + s / 3); noperspective u = s.
  Image color("R32G32B32A32_SFLOAT");
  runtime::RenderTarget target;
  target.colors.assign(1, color.attachment());
  std::vector<float> vertices = {-1, -1, 0, 1, 0, 3, -3, 0, 3, 1,
                                 -1, 1,  0, 1, 0, 3, 3,  0, 3, 1};
  ASSERT_EQ("<success>", errorText(draw(R"(#version 450
layout(location = 0) in vec4 position;
layout(location = 1) in float u;
layout(location = 0) out float smoothU;
layout(location = 1) noperspective out float linearU;
void main() { gl_Position = position; smoothU = u; linearU = u; }
)",
                                        R"(#version 450
layout(location = 0) in float smoothU;
layout(location = 1) noperspective in float linearU;
layout(location = 0) out vec4 result;
void main() { result = vec4(smoothU, linearU, 0, 1); }
)",
                                        vertices, strip(), target, 1)));
  for (uint32_t x = 0; x < kSize; ++x) {
    double s = (x + 0.5) / kSize;
    double perspective = (s / 3) / ((1 - s) + s / 3);
    EXPECT_NEAR(color.at(x, 3).f[0], perspective, 1e-6) << x;
    EXPECT_NEAR(color.at(x, 3).f[1], s, 1e-6) << x;
  }
}

TEST_F(GraphicsTest, FlatTakesTheProvokingVertex) {
  // A triangle list's provoking vertex is its first.
  Image color("R32G32B32A32_SFLOAT");
  runtime::RenderTarget target;
  target.colors.assign(1, color.attachment());
  std::vector<float> vertices = {-1, -1, 0,  1, 7, 3, -1, 0,
                                 1,  9,  -1, 3, 0, 1, 11};
  runtime::GraphicsState state;
  ASSERT_EQ("<success>", errorText(draw(R"(#version 450
layout(location = 0) in vec4 position;
layout(location = 1) in float value;
layout(location = 0) flat out int id;
void main() { gl_Position = position; id = int(value); }
)",
                                        R"(#version 450
layout(location = 0) flat in int id;
layout(location = 0) out vec4 result;
void main() { result = vec4(float(id)); }
)",
                                        vertices, state, target, 1)));
  EXPECT_EQ(color.at(0, 0).f[0], 7.0);
  EXPECT_EQ(color.at(7, 7).f[0], 7.0);
}

TEST_F(GraphicsTest, DerivativesAreDifferencesInTheQuad) {
  // f = x^2 of gl_FragCoord.x: in the quad at even qx, dFdx (coarse, as
  // llvmpipe) = (qx + 1.5)^2 - (qx + 0.5)^2 = 2 qx + 2, dFdy = 0;
  // fwidth = |dFdx| + |dFdy|.
  Image color("R32G32B32A32_SFLOAT");
  runtime::RenderTarget target;
  target.colors.assign(1, color.attachment());
  ASSERT_EQ("<success>", errorText(draw(kPositionVertex, R"(#version 450
layout(location = 0) out vec4 result;
void main() {
  float f = gl_FragCoord.x * gl_FragCoord.x;
  result = vec4(dFdx(f), dFdy(f), fwidth(f), dFdxFine(gl_FragCoord.y));
}
)",
                                        quad(-1, -1, 1, 1), strip(), target)));
  for (uint32_t y = 0; y < kSize; ++y)
    for (uint32_t x = 0; x < kSize; ++x) {
      double expected = 2.0 * (x & ~1u) + 2;
      runtime::Color c = color.at(x, y);
      EXPECT_EQ(c.f[0], expected) << x << "," << y;
      EXPECT_EQ(c.f[1], 0.0);
      EXPECT_EQ(c.f[2], expected);
      EXPECT_EQ(c.f[3], 0.0);
    }
}

TEST_F(GraphicsTest, DiscardInAFunctionEndsTheInvocation) {
  // Pixels with x < 4 discard (inside a called function, before the
  // output is written): they keep the cleared 0.5.
  Image color("R32G32B32A32_SFLOAT");
  for (uint32_t i = 0; i < kSize * kSize; ++i) {
    float half[4] = {0.5f, 0.5f, 0.5f, 0.5f};
    std::memcpy(color.bytes.data() + i * 16, half, 16);
  }
  runtime::RenderTarget target;
  target.colors.assign(1, color.attachment());
  ASSERT_EQ("<success>", errorText(draw(kPositionVertex, R"(#version 450
layout(location = 0) out vec4 result;
void check() { if (gl_FragCoord.x < 4.0) discard; }
void main() { check(); result = vec4(1.0); }
)",
                                        quad(-1, -1, 1, 1), strip(), target)));
  for (uint32_t x = 0; x < kSize; ++x)
    EXPECT_EQ(color.at(x, 2).f[0], x < 4 ? 0.5 : 1.0) << x;
}

TEST_F(GraphicsTest, FragmentsWrittenThenDiscardedAcrossBatches) {
  // The colour is stored before the discard (SPVB_STAGE_WRITTEN), so the
  // output records are not cleared between batches but for their status
  // words: a 96x96 RGBA8 framebuffer is 2,304 quads, several batches per
  // thread. Pixels with (x + 2 y) % 3 == 0 discard and keep the clear
  // colour 0x40; the others hold x and y as bytes (exact: x / 255 encodes
  // to x). A stale status word from the previous batch would drop a
  // fragment, a missing one keep it.
  constexpr uint32_t kWide = 96;
  Image color("R8G8B8A8_UNORM", kWide, kWide);
  std::fill(color.bytes.begin(), color.bytes.end(), 0x40);
  runtime::RenderTarget target;
  target.colors.assign(1, color.attachment());
  ASSERT_EQ("<success>", errorText(draw(kPositionVertex, R"(#version 450
layout(location = 0) out vec4 result;
void main() {
  ivec2 p = ivec2(gl_FragCoord.xy);
  result = vec4(vec2(p) / 255.0, 1.0, 1.0);
  if ((p.x + 2 * p.y) % 3 == 0)
    discard;
}
)",
                                        quad(-1, -1, 1, 1), strip(), target)));
  for (uint32_t y = 0; y < kWide; ++y)
    for (uint32_t x = 0; x < kWide; ++x) {
      const uint8_t *texel = color.bytes.data() + (y * kWide + x) * 4;
      bool discarded = (x + 2 * y) % 3 == 0;
      ASSERT_EQ(texel[0], discarded ? 0x40 : x) << x << "," << y;
      ASSERT_EQ(texel[1], discarded ? 0x40 : y) << x << "," << y;
      ASSERT_EQ(texel[2], discarded ? 0x40 : 0xff) << x << "," << y;
    }
}

TEST_F(GraphicsTest, DepthCompareOps) {
  // The attachment holds 0.5; a quad at depth z passes when z OP 0.5.
  const VkCompareOp ops[] = {VK_COMPARE_OP_NEVER,
                             VK_COMPARE_OP_LESS,
                             VK_COMPARE_OP_EQUAL,
                             VK_COMPARE_OP_LESS_OR_EQUAL,
                             VK_COMPARE_OP_GREATER,
                             VK_COMPARE_OP_NOT_EQUAL,
                             VK_COMPARE_OP_GREATER_OR_EQUAL,
                             VK_COMPARE_OP_ALWAYS};
  // passes[op][z] for z = 0.25, 0.5, 0.75, by hand.
  const bool passes[8][3] = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {1, 1, 0},
                             {0, 0, 1}, {1, 0, 1}, {0, 1, 1}, {1, 1, 1}};
  const float depths[3] = {0.25f, 0.5f, 0.75f};
  for (int op = 0; op < 8; ++op)
    for (int d = 0; d < 3; ++d) {
      Image color("R8G8B8A8_UNORM");
      Image depth("D32_SFLOAT");
      for (uint32_t i = 0; i < kSize * kSize; ++i)
        runtime::encodeDepth(*depth.format, 0.5, depth.bytes.data() + i * 4);
      runtime::RenderTarget target;
      target.colors.assign(1, color.attachment());
      target.depthStencil = depth.attachment();
      runtime::GraphicsState state = strip();
      state.depthTest = state.depthWrite = true;
      state.depthCompare = ops[op];
      std::vector<float> vertices = quad(-1, -1, 1, 1);
      for (int v = 0; v < 4; ++v)
        vertices[v * 4 + 2] = depths[d];
      ASSERT_EQ("<success>", errorText(draw(kPositionVertex, R"(#version 450
layout(location = 0) out vec4 result;
void main() { result = vec4(1.0); }
)",
                                            vertices, state, target)));
      EXPECT_EQ(color.at(3, 3).f[0], passes[op][d] ? 1.0 : 0.0)
          << "op " << op << " depth " << depths[d];
      EXPECT_EQ(runtime::decodeDepth(*depth.format, depth.bytes.data()),
                passes[op][d] ? depths[d] : 0.5);
    }
}

// Vulkan's standard locations of 4 samples in a pixel.
constexpr double kSampleX[4] = {0.375, 0.875, 0.125, 0.625};
constexpr double kSampleY[4] = {0.125, 0.375, 0.625, 0.875};

TEST_F(GraphicsTest, MultisampledEdgeCoversTheSamplesBeforeIt) {
  // One triangle covering framebuffer x < 2.5 (its third edge lies left
  // of the framebuffer): pixel 2 has samples 0 and 2 (x + 0.375,
  // x + 0.125) inside and 1 and 3 outside. The shader runs once per pixel
  // and sees the covered samples in gl_SampleMaskIn; the resolve averages
  // the four samples.
  Image color("R32G32B32A32_SFLOAT", kSize, kSize, 4);
  Image resolved("R32G32B32A32_SFLOAT");
  ASSERT_EQ("<success>", errorText(drawEdgeTriangle(kPositionVertex,
                                                    R"(#version 450
layout(location = 0) out vec4 result;
void main() { result = vec4(1.0, float(gl_SampleMaskIn[0]), 0.0, 1.0); }
)",
                                                    color, &resolved)));
  for (uint32_t y = 0; y < kSize; ++y) {
    for (uint32_t x = 0; x < kSize; ++x)
      for (uint32_t sample = 0; sample < 4; ++sample) {
        bool inside = x + kSampleX[sample] < 2.5;
        double mask = x < 2 ? 15 : 5;
        EXPECT_EQ(color.at(x, y, sample).f[0], inside ? 1.0 : 0.0)
            << x << "," << y << " sample " << sample;
        EXPECT_EQ(color.at(x, y, sample).f[1], inside ? mask : 0.0)
            << x << "," << y << " sample " << sample;
      }
    EXPECT_EQ(resolved.at(0, y).f[1], 15.0);
    EXPECT_EQ(resolved.at(2, y).f[0], 0.5);
    EXPECT_EQ(resolved.at(2, y).f[1], 2.5);
    EXPECT_EQ(resolved.at(3, y).f[0], 0.0);
  }
}

TEST_F(GraphicsTest, SampleShadingRunsEachSampleAtItsLocation) {
  // Reading gl_SampleID makes the shader run per sample: each sample gets
  // its id, its location, and the input interpolated there (u is the
  // framebuffer x coordinate: 4 * (ndc + 1)).
  Image color("R32G32B32A32_SFLOAT", kSize, kSize, 4);
  runtime::RenderTarget target;
  target.colors.assign(1, color.attachment());
  ASSERT_EQ("<success>", errorText(draw(R"(#version 450
layout(location = 0) in vec4 position;
layout(location = 0) noperspective out float u;
void main() { gl_Position = position; u = 4.0 * (position.x + 1.0); }
)",
                                        R"(#version 450
layout(location = 0) noperspective in float u;
layout(location = 0) out vec4 result;
void main() {
  result = vec4(float(gl_SampleID), gl_SamplePosition, u);
}
)",
                                        quad(-1, -1, 1, 1), strip(), target)));
  for (uint32_t y = 0; y < kSize; ++y)
    for (uint32_t x = 0; x < kSize; ++x)
      for (uint32_t sample = 0; sample < 4; ++sample) {
        runtime::Color c = color.at(x, y, sample);
        EXPECT_EQ(c.f[0], double(sample));
        EXPECT_EQ(c.f[1], kSampleX[sample]);
        EXPECT_EQ(c.f[2], kSampleY[sample]);
        EXPECT_NEAR(c.f[3], x + kSampleX[sample], 1e-5) << x << "," << y;
      }
}

TEST_F(GraphicsTest, CentroidInputsAreInterpolatedInsideThePrimitive) {
  // The triangle of MultisampledEdgeCoversTheSamplesBeforeIt covers
  // framebuffer x < 2.5: pixel 2 only at samples 0 (x + 0.375) and 2
  // (x + 0.125). Each input is the framebuffer x coordinate; without
  // centroid it is taken at the centre (2.5, on the edge), with centroid
  // at the first covered sample (2.375), in covered pixels at the centre.
  Image color("R32G32B32A32_SFLOAT", kSize, kSize, 4);
  ASSERT_EQ("<success>", errorText(drawEdgeTriangle(
                             R"(#version 450
layout(location = 0) in vec4 position;
layout(location = 0) noperspective out float u;
layout(location = 1) noperspective out float c;
layout(location = 2) out float p;
void main() {
  gl_Position = position;
  u = c = p = 4.0 * (position.x + 1.0);
}
)",
                             R"(#version 450
layout(location = 0) noperspective in float u;
layout(location = 1) centroid noperspective in float c;
layout(location = 2) centroid in float p;
layout(location = 0) out vec4 result;
void main() { result = vec4(u, c, p, 1.0); }
)",
                             color)));
  for (uint32_t y = 0; y < kSize; ++y)
    for (uint32_t x = 0; x <= 2; ++x) {
      runtime::Color c = color.at(x, y, 0);
      double centroid = x == 2 ? 2.375 : x + 0.5;
      EXPECT_NEAR(c.f[0], x + 0.5, 1e-5) << x << "," << y;
      EXPECT_NEAR(c.f[1], centroid, 1e-5) << x << "," << y;
      EXPECT_NEAR(c.f[2], centroid, 1e-5) << x << "," << y;
    }
}

TEST_F(GraphicsTest, InterpolateAtMovesTheInterpolationPoint) {
  // The triangle of CentroidInputsAreInterpolatedInsideThePrimitive, its
  // inputs the framebuffer x coordinate: interpolateAtOffset(+0.25, 0)
  // reads x + 0.75, interpolateAtSample(2) x + 0.125 (sample 2's
  // location), interpolateAtCentroid 2.375 in pixel 2 (covered at samples
  // 0 and 2) and the centre elsewhere; a flat input keeps its value.
  Image color("R32G32B32A32_SFLOAT", kSize, kSize, 4);
  ASSERT_EQ("<success>", errorText(drawEdgeTriangle(
                             R"(#version 450
layout(location = 0) in vec4 position;
layout(location = 0) noperspective out float u;
layout(location = 1) out float p;
layout(location = 2) flat out float f;
void main() {
  gl_Position = position;
  u = p = 4.0 * (position.x + 1.0);
  f = 7.0;
}
)",
                             R"(#version 450
layout(location = 0) noperspective in float u;
layout(location = 1) in float p;
layout(location = 2) flat in float f;
layout(location = 0) out vec4 result;
void main() {
  result = vec4(interpolateAtOffset(u, vec2(0.25, 0.0)),
                interpolateAtSample(p, 2), interpolateAtCentroid(u),
                interpolateAtOffset(f, vec2(0.3)));
}
)",
                             color)));
  for (uint32_t y = 0; y < kSize; ++y)
    for (uint32_t x = 0; x <= 2; ++x) {
      runtime::Color c = color.at(x, y, 0);
      EXPECT_NEAR(c.f[0], x + 0.75, 1e-5) << x << "," << y;
      EXPECT_NEAR(c.f[1], x + kSampleX[2], 1e-5) << x << "," << y;
      EXPECT_NEAR(c.f[2], x == 2 ? 2.375 : x + 0.5, 1e-5) << x << "," << y;
      EXPECT_EQ(c.f[3], 7.0) << x << "," << y;
    }
}

TEST_F(GraphicsTest, SampleInputsRunTheShaderPerSample) {
  // A Sample-decorated input has a value per covered sample, so the
  // shader runs per sample though it reads neither gl_SampleID nor
  // gl_SamplePosition: s is the framebuffer x coordinate at the sample.
  Image color("R32G32B32A32_SFLOAT", kSize, kSize, 4);
  runtime::RenderTarget target;
  target.colors.assign(1, color.attachment());
  ASSERT_EQ("<success>", errorText(draw(R"(#version 450
layout(location = 0) in vec4 position;
layout(location = 0) noperspective out float s;
void main() { gl_Position = position; s = 4.0 * (position.x + 1.0); }
)",
                                        R"(#version 450
layout(location = 0) sample noperspective in float s;
layout(location = 0) out vec4 result;
void main() { result = vec4(s, 0.0, 0.0, 1.0); }
)",
                                        quad(-1, -1, 1, 1), strip(), target)));
  for (uint32_t y = 0; y < kSize; ++y)
    for (uint32_t x = 0; x < kSize; ++x)
      for (uint32_t sample = 0; sample < 4; ++sample)
        EXPECT_NEAR(color.at(x, y, sample).f[0], x + kSampleX[sample], 1e-5)
            << x << "," << y << " sample " << sample;
}

TEST_F(GraphicsTest, DepthIsTestedPerSample) {
  // The attachment's samples hold 0.75; a quad whose depth is
  // x / 16 + 0.46875 (x in framebuffer pixels) passes LESS left of
  // x = 4.5: in pixel 4 only samples 0 and 2, which keep their own depth.
  Image color("R32G32B32A32_SFLOAT", kSize, kSize, 4);
  Image depth("D32_SFLOAT", kSize, kSize, 4);
  Image resolved("R32G32B32A32_SFLOAT");
  for (uint32_t i = 0; i < kSize * kSize * 4; ++i)
    runtime::encodeDepth(*depth.format, 0.75, depth.bytes.data() + i * 4);
  runtime::RenderTarget target;
  target.colors.assign(1, color.attachment());
  target.depthStencil = depth.attachment();
  target.resolves.assign(1, resolved.attachment());
  runtime::GraphicsState state = strip();
  state.depthTest = state.depthWrite = true;
  state.depthCompare = VK_COMPARE_OP_LESS;
  std::vector<float> vertices = quad(-1, -1, 1, 1);
  for (int v = 0; v < 4; ++v) {
    float x = 4 * (vertices[v * 4] + 1);
    vertices[v * 4 + 2] = x / 16 + 0.46875f;
  }
  ASSERT_EQ("<success>", errorText(draw(kPositionVertex, R"(#version 450
layout(location = 0) out vec4 result;
void main() { result = vec4(1.0); }
)",
                                        vertices, state, target)));
  for (uint32_t y = 0; y < kSize; ++y)
    for (uint32_t x = 0; x < kSize; ++x) {
      for (uint32_t sample = 0; sample < 4; ++sample) {
        double sampleX = x + kSampleX[sample];
        bool passes = sampleX / 16 + 0.46875 < 0.75;
        EXPECT_EQ(color.at(x, y, sample).f[0], passes ? 1.0 : 0.0);
        EXPECT_NEAR(runtime::decodeDepth(*depth.format,
                                         depth.attachment().at(x, y, sample)),
                    passes ? sampleX / 16 + 0.46875 : 0.75, 1e-6);
      }
      EXPECT_EQ(resolved.at(x, y).f[0], x < 4 ? 1.0 : x == 4 ? 0.5 : 0.0);
    }
}

TEST_F(GraphicsTest, AttachmentsWithDifferentSampleCountsAreAnError) {
  Image color("R8G8B8A8_UNORM", kSize, kSize, 4);
  Image depth("D32_SFLOAT");
  runtime::RenderTarget target;
  target.colors.assign(1, color.attachment());
  target.depthStencil = depth.attachment();
  EXPECT_EQ("error: the depth/stencil attachment has 1 samples but the colour "
            "attachment at Location 0 has 4: a draw's attachments share one "
            "sample count",
            errorText(draw(kPositionVertex, R"(#version 450
layout(location = 0) out vec4 result;
void main() { result = vec4(1.0); }
)",
                           quad(-1, -1, 1, 1), strip(), target)));
}

TEST_F(GraphicsTest, BlendEquation) {
  // src (0.5, 0.25, 1, 0.5) over dst (0.2, 0.4, 0.6, 0.8) with SRC_ALPHA,
  // ONE_MINUS_SRC_ALPHA for colour and ONE, ZERO for alpha:
  // r = 0.5 * 0.5 + 0.2 * 0.5 = 0.35, g = 0.125 + 0.2 = 0.325,
  // b = 0.5 + 0.3 = 0.8, a = 0.5.
  Image color("R32G32B32A32_SFLOAT");
  float dst[4] = {0.2f, 0.4f, 0.6f, 0.8f};
  for (uint32_t i = 0; i < kSize * kSize; ++i)
    std::memcpy(color.bytes.data() + i * 16, dst, 16);
  runtime::RenderTarget target;
  target.colors.assign(1, color.attachment());
  runtime::GraphicsState state = strip();
  runtime::BlendState blend;
  blend.enable = true;
  blend.srcColor = VK_BLEND_FACTOR_SRC_ALPHA;
  blend.dstColor = VK_BLEND_FACTOR_ONE_MINUS_SRC_ALPHA;
  state.blend = {blend};
  ASSERT_EQ("<success>", errorText(draw(kPositionVertex, R"(#version 450
layout(location = 0) out vec4 result;
void main() { result = vec4(0.5, 0.25, 1.0, 0.5); }
)",
                                        quad(-1, -1, 1, 1), state, target)));
  runtime::Color c = color.at(5, 5);
  EXPECT_NEAR(c.f[0], 0.35, 1e-6);
  EXPECT_NEAR(c.f[1], 0.325, 1e-6);
  EXPECT_NEAR(c.f[2], 0.8, 1e-6);
  EXPECT_EQ(c.f[3], 0.5);
}

TEST_F(GraphicsTest, UnormAndSrgbRounding) {
  // B8G8R8A8_UNORM: 0.5 * 255 = 127.5 -> 128, 0.2 * 255 = 51 -> 51 (blue
  // byte first), 1.5 and -0.25 clamp to 255 and 0; R8G8B8A8_SRGB of 0.5: 1.055
  // * 0.5^(1/2.4) - 0.055 = 0.7354 -> 187.5 -> 188, alpha stays linear: 0.2
  // -> 51.
  Image bgra("B8G8R8A8_UNORM");
  Image srgb("R8G8B8A8_SRGB");
  runtime::RenderTarget target;
  target.colors = {bgra.attachment(), srgb.attachment()};
  ASSERT_EQ("<success>", errorText(draw(kPositionVertex, R"(#version 450
layout(location = 0) out vec4 first;
layout(location = 1) out vec4 second;
void main() { first = vec4(0.5, 0.2, 1.5, -0.25); second = vec4(0.5, 0.5, 0.5, 0.2); }
)",
                                        quad(-1, -1, 1, 1), strip(), target)));
  const uint8_t *b = bgra.bytes.data() + (2 * kSize + 2) * 4;
  EXPECT_EQ(b[0], 255);
  EXPECT_EQ(b[1], 51);
  EXPECT_EQ(b[2], 128);
  EXPECT_EQ(b[3], 0);
  const uint8_t *s = srgb.bytes.data() + (2 * kSize + 2) * 4;
  EXPECT_EQ(s[0], 188);
  EXPECT_EQ(s[3], 51);
}

TEST_F(GraphicsTest, ColourOnlyDrawsRoundClampAndSwizzleAsTheSpecSays) {
  // One B8G8R8A8_UNORM attachment and nothing else, the draws' direct
  // path: 0.5 -> 127.5 -> 128 (ties up), 0.2 -> 51, NaN -> 0, 1.5 and
  // -0.25 clamp to 255 and 0; bytes in B, G, R, A order.
  Image bgra("B8G8R8A8_UNORM");
  runtime::RenderTarget target;
  target.colors.assign(1, bgra.attachment());
  ASSERT_EQ("<success>", errorText(draw(kPositionVertex, R"(#version 450
layout(location = 0) out vec4 color;
void main() {
  float nan = uintBitsToFloat(0x7fc00000u);
  color = gl_FragCoord.x < 4.0 ? vec4(0.5, nan, 1.5, -0.25)
                               : vec4(0.2, 1.0, 0.0, 0.5);
}
)",
                                        quad(-1, -1, 1, 1), strip(), target)));
  const uint8_t *left = bgra.bytes.data() + (2 * kSize + 1) * 4;
  EXPECT_EQ(left[0], 255); // B: 1.5
  EXPECT_EQ(left[1], 0);   // G: NaN
  EXPECT_EQ(left[2], 128); // R: 0.5
  EXPECT_EQ(left[3], 0);   // A: -0.25
  const uint8_t *right = bgra.bytes.data() + (2 * kSize + 6) * 4;
  EXPECT_EQ(right[0], 0);
  EXPECT_EQ(right[1], 255);
  EXPECT_EQ(right[2], 51);
  EXPECT_EQ(right[3], 128);
}

TEST_F(GraphicsTest, CullingByFacing) {
  // The strip's first triangle (-1,-1), (1,-1), (-1,1) in framebuffer
  // coordinates (y down) has a = -1/2 * sum(x_i y_i+1 - x_i+1 y_i) < 0:
  // clockwise, so back-facing with the default counter-clockwise front
  // face; culling back faces leaves only the second triangle, which the
  // strip's odd ordering makes clockwise too: nothing is drawn.
  Image color("R8G8B8A8_UNORM");
  runtime::RenderTarget target;
  target.colors.assign(1, color.attachment());
  runtime::GraphicsState state = strip();
  state.cullMode = VK_CULL_MODE_BACK_BIT;
  ASSERT_EQ("<success>", errorText(draw(kPositionVertex, R"(#version 450
layout(location = 0) out vec4 result;
void main() { result = vec4(gl_FrontFacing ? 1.0 : 0.5); }
)",
                                        quad(-1, -1, 1, 1), state, target)));
  EXPECT_EQ(color.at(1, 1).f[0], 0.0);
  state.cullMode = VK_CULL_MODE_FRONT_BIT;
  ASSERT_EQ("<success>", errorText(draw(kPositionVertex, R"(#version 450
layout(location = 0) out vec4 result;
void main() { result = vec4(gl_FrontFacing ? 1.0 : 0.5); }
)",
                                        quad(-1, -1, 1, 1), state, target)));
  // Back-facing fragments report gl_FrontFacing false: 0.5 -> 128.
  EXPECT_EQ(color.at(1, 1).f[0], 128.0 / 255.0);
  EXPECT_EQ(color.at(6, 6).f[0], 128.0 / 255.0);
}

TEST_F(GraphicsTest, HelperInvocationsWriteNoBuffers) {
  // The 4x4 pixels of the top-left rule test lie in 3x3 quads (x and y
  // 0..5), 36 invocations, of which 16 are covered: the counter must count
  // 16, the helpers' atomics and stores having no effect.
  Image color("R8G8B8A8_UNORM");
  runtime::RenderTarget target;
  target.colors.assign(1, color.attachment());
  std::vector<uint32_t> counter(1 + kSize * kSize, 0);
  storage = &counter;
  ASSERT_EQ("<success>", errorText(draw(kPositionVertex, R"(#version 450
layout(set = 0, binding = 0) buffer Counter { uint count; uint seen[]; };
layout(location = 0) out vec4 result;
void main() {
  atomicAdd(count, 1u);
  seen[uint(gl_FragCoord.y) * 8u + uint(gl_FragCoord.x)] = 1u;
  result = vec4(dFdx(gl_FragCoord.x));
}
)",
                                        quad(-0.625f, -0.625f, 0.375f, 0.375f),
                                        strip(), target)));
  EXPECT_EQ(counter[0], 16u);
  for (uint32_t y = 0; y < kSize; ++y)
    for (uint32_t x = 0; x < kSize; ++x)
      EXPECT_EQ(counter[1 + y * kSize + x],
                x >= 1 && x <= 4 && y >= 1 && y <= 4 ? 1u : 0u)
          << x << "," << y;
}

TEST_F(GraphicsTest, IndexedVerticesAreShadedOnceEach) {
  // Two triangles and a degenerate one name four corners with nine
  // indices: four vertex invocations, and every pixel interpolated from
  // the corners' outputs.
  Image color("R32G32B32A32_SFLOAT");
  runtime::RenderTarget target;
  target.colors.assign(1, color.attachment());
  std::vector<uint32_t> counter(1, 0);
  storage = &counter;
  std::vector<uint32_t> indices = {0, 1, 2, 2, 1, 3, 3, 3, 3};
  ASSERT_EQ("<success>",
            errorText(draw(R"(#version 450
layout(set = 0, binding = 0) buffer Counter { uint count; };
layout(location = 0) in vec4 position;
layout(location = 0) out float u;
void main() {
  atomicAdd(count, 1u);
  gl_Position = position;
  u = position.x * 0.5 + 0.5;
}
)",
                           R"(#version 450
layout(location = 0) in float u;
layout(location = 0) out vec4 result;
void main() { result = vec4(u, 1, 0, 1); }
)",
                           quad(-1, -1, 1, 1), runtime::GraphicsState(), target,
                           0, &indices)));
  EXPECT_EQ(counter[0], 4u);
  for (uint32_t y = 0; y < kSize; ++y)
    for (uint32_t x = 0; x < kSize; ++x) {
      EXPECT_NEAR(color.at(x, y).f[0], (x + 0.5) / kSize, 1e-6) << x << y;
      EXPECT_EQ(color.at(x, y).f[1], 1.0) << x << "," << y;
    }
}

TEST_F(GraphicsTest, EveryVertexRunsOnceInWholeAndPartialWorkgroups) {
  // Vertex shaders run SPVB_VERTICES_PER_WORKGROUP (16) vertices per
  // workgroup in SIMD lanes, and a last partial group's vertices one by
  // one: for 5 (partial only), 16 (one whole group) and 37 vertices (two
  // and a partial one) the counter counts each vertex once and every
  // gl_VertexIndex is seen exactly once, none past the count.
  for (uint32_t count : {5u, 16u, 37u}) {
    Image color("R8G8B8A8_UNORM");
    runtime::RenderTarget target;
    target.colors.assign(1, color.attachment());
    std::vector<uint32_t> counter(1 + 48, 0);
    storage = &counter;
    // Points at the centre of the framebuffer.
    std::vector<float> points;
    for (uint32_t i = 0; i < count; ++i)
      points.insert(points.end(), {0, 0, 0, 1});
    runtime::GraphicsState state;
    state.topology = VK_PRIMITIVE_TOPOLOGY_POINT_LIST;
    ASSERT_EQ("<success>",
              errorText(draw(R"(#version 450
layout(set = 0, binding = 0) buffer Counter { uint count; uint seen[]; };
layout(location = 0) in vec4 position;
void main() {
  atomicAdd(count, 1u);
  atomicAdd(seen[gl_VertexIndex], 1u);
  gl_Position = position;
  gl_PointSize = 1.0;
}
)",
                             kWhiteFragment, points, state, target)))
        << count;
    EXPECT_EQ(counter[0], count);
    for (uint32_t i = 0; i < 48; ++i)
      EXPECT_EQ(counter[1 + i], i < count ? 1u : 0u) << count << ": " << i;
  }
}

TEST_F(GraphicsTest, AnyIndexValueIsAVertexWithoutRestart) {
  // Without primitive restart ~0u and ~0u - 1 are vertices like any other
  // (past the vertex buffer, so their attributes read zeros): five
  // distinct indices, five vertex invocations.
  Image color("R32G32B32A32_SFLOAT");
  runtime::RenderTarget target;
  target.colors.assign(1, color.attachment());
  std::vector<uint32_t> counter(1, 0);
  storage = &counter;
  std::vector<uint32_t> indices = {0, 1, 2, ~0u, ~0u - 1, ~0u};
  ASSERT_EQ("<success>",
            errorText(draw(kCountingVertex, kWhiteFragment, quad(-1, -1, 1, 1),
                           runtime::GraphicsState(), target, 0, &indices)));
  EXPECT_EQ(counter[0], 5u);
}

TEST_F(GraphicsTest, PrimitiveRestartStartsANewStrip) {
  // Two strips of two triangles each, x in [-1, -0.5] and [0.5, 1] (pixels
  // 0-1 and 6-7), separated by the restart index: the pixels between them
  // (2-5) stay clear, as they would not if the strip went on through the
  // restart, and the restart index names no vertex: eight vertex
  // invocations.
  Image color("R32G32B32A32_SFLOAT");
  runtime::RenderTarget target;
  target.colors.assign(1, color.attachment());
  std::vector<uint32_t> counter(1, 0);
  storage = &counter;
  std::vector<float> vertices = quad(-1, -1, -0.5f, 1);
  std::vector<float> right = quad(0.5f, -1, 1, 1);
  vertices.insert(vertices.end(), right.begin(), right.end());
  std::vector<uint32_t> indices = {0, 1, 2, 3, ~0u, 4, 5, 6, 7};
  runtime::GraphicsState state = strip();
  state.primitiveRestart = true;
  ASSERT_EQ("<success>", errorText(draw(kCountingVertex, kWhiteFragment,
                                        vertices, state, target, 0, &indices)));
  EXPECT_EQ(counter[0], 8u);
  for (uint32_t y = 0; y < kSize; ++y)
    for (uint32_t x = 0; x < kSize; ++x)
      EXPECT_EQ(color.at(x, y).f[0], x < 2 || x >= 6 ? 1.0 : 0.0)
          << x << "," << y;
}

/// An 8x8 RGBA texture whose level 0 is red and level 1 (4x4) green, with
/// `one` the components' value for 1.
template <typename T> std::vector<T> redOverGreen(T one) {
  std::vector<T> texels((64 + 16) * 4, 0);
  for (int i = 0; i < 64; ++i)
    texels[i * 4 + 0] = texels[i * 4 + 3] = one;
  for (int i = 64; i < 80; ++i)
    texels[i * 4 + 1] = texels[i * 4 + 3] = one;
  return texels;
}

TEST_F(GraphicsTest, ImplicitLodComesFromTheQuadsDerivatives) {
  // The red-over-green texture in RGBA32F, sampled with nearest filtering
  // and mipmaps (the general path). u = x / 8 * scale moves scale texels
  // per pixel, so lambda = log2(scale): level 0 for scale 1, level 1 for
  // scale 2.
  std::vector<float> texels = redOverGreen(1.0f);
  spvb_sampler sampler{};
  sampler.max_lod = 10;
  spvb_image texture = makeImage2D(texels.data(), texels.size() * 4,
                                   spv::ImageFormatRgba32f, 8, 8, 2, &sampler);
  image = &texture;
  for (double scale : {1.0, 2.0}) {
    Image color("R32G32B32A32_SFLOAT");
    ASSERT_EQ("<success>", errorText(drawScaledTexture(scale, color)));
    runtime::Color c = color.at(2, 2);
    EXPECT_EQ(c.f[0], scale == 1 ? 1.0 : 0.0) << scale;
    EXPECT_EQ(c.f[1], scale == 1 ? 0.0 : 1.0) << scale;
  }
}

TEST_F(GraphicsTest, Rgba8TrilinearLodComesFromTheQuadsDerivatives) {
  // The red-over-green texture in RGBA8, sampled with linear filtering and
  // linear mipmaps (the single-precision lane path); lambda = log2(scale)
  // as above. Each level is one colour, so bilinear filtering returns it
  // exactly and the result is red * (1 - f) + green * f with f = lambda's
  // fraction (level 0 when lambda <= 0, level 1 at 1).
  std::vector<uint8_t> texels = redOverGreen(uint8_t(255));
  spvb_sampler sampler{};
  sampler.mag_filter = sampler.min_filter = 1; // VK_FILTER_LINEAR
  sampler.mipmap_mode = 1;                     // VK_SAMPLER_MIPMAP_MODE_LINEAR
  sampler.max_lod = 10;
  spvb_image texture = makeImage2D(texels.data(), texels.size(),
                                   spv::ImageFormatRgba8, 8, 8, 2, &sampler);
  image = &texture;
  for (auto [scale, fraction] :
       {std::pair(1.0, 0.0), std::pair(0.5, 0.0), std::pair(2.0, 1.0),
        std::pair(std::pow(2.0, 0.25), 0.25),
        std::pair(std::pow(2.0, 0.5), 0.5)}) {
    Image color("R32G32B32A32_SFLOAT");
    ASSERT_EQ("<success>", errorText(drawScaledTexture(scale, color)));
    for (uint32_t y = 0; y < kSize; ++y)
      for (uint32_t x = 0; x < kSize; ++x) {
        runtime::Color c = color.at(x, y);
        EXPECT_NEAR(c.f[0], 1 - fraction, 2e-5) << scale << " " << x << y;
        EXPECT_NEAR(c.f[1], fraction, 2e-5) << scale << " " << x << y;
        EXPECT_EQ(c.f[2], 0.0) << scale;
        EXPECT_NEAR(c.f[3], 1.0, 1e-6) << scale;
      }
  }
}

TEST_F(GraphicsTest, PointsCoverTheirSquareWithPointCoord) {
  // A point of size 2 at NDC (0, 0) = framebuffer (4, 4) covers [3, 5) in x
  // and y: pixels 3 and 4. gl_PointCoord = (centre - corner) / size:
  // pixel 3 -> (3.5 - 3) / 2 = 0.25, pixel 4 -> 0.75.
  Image color("R32G32B32A32_SFLOAT");
  runtime::RenderTarget target;
  target.colors.assign(1, color.attachment());
  runtime::GraphicsState state;
  state.topology = VK_PRIMITIVE_TOPOLOGY_POINT_LIST;
  ASSERT_EQ("<success>", errorText(draw(R"(#version 450
layout(location = 0) in vec4 position;
void main() { gl_Position = position; gl_PointSize = 2.0; }
)",
                                        R"(#version 450
layout(location = 0) out vec4 result;
void main() { result = vec4(gl_PointCoord, 1.0, 1.0); }
)",
                                        {0, 0, 0, 1}, state, target)));
  for (uint32_t y = 0; y < kSize; ++y)
    for (uint32_t x = 0; x < kSize; ++x) {
      bool inside = (x == 3 || x == 4) && (y == 3 || y == 4);
      runtime::Color c = color.at(x, y);
      EXPECT_EQ(c.f[2], inside ? 1.0 : 0.0) << x << "," << y;
      if (inside) {
        EXPECT_EQ(c.f[0], x == 3 ? 0.25 : 0.75);
        EXPECT_EQ(c.f[1], y == 3 ? 0.25 : 0.75);
      }
    }
}

TEST_F(GraphicsTest, HorizontalLineCoversOneRow) {
  // A width-1 line from framebuffer (0, 4.5) to (8, 4.5) (NDC y = 0.125)
  // is the rectangle y in [4, 5): row 4, every column.
  Image color("R8G8B8A8_UNORM");
  runtime::RenderTarget target;
  target.colors.assign(1, color.attachment());
  runtime::GraphicsState state;
  state.topology = VK_PRIMITIVE_TOPOLOGY_LINE_LIST;
  ASSERT_EQ("<success>", errorText(draw(kPositionVertex, R"(#version 450
layout(location = 0) out vec4 result;
void main() { result = vec4(1.0); }
)",
                                        {-1, 0.125f, 0, 1, 1, 0.125f, 0, 1},
                                        state, target)));
  for (uint32_t y = 0; y < kSize; ++y)
    for (uint32_t x = 0; x < kSize; ++x)
      EXPECT_EQ(color.at(x, y).f[0], y == 4 ? 1.0 : 0.0) << x << "," << y;
}

TEST_F(GraphicsTest, TooFewVerticesForATriangleDrawNothing) {
  // Two vertices of a triangle list make no primitive: the draw succeeds
  // and leaves the attachment as it was (all zero).
  Image color("R8G8B8A8_UNORM");
  runtime::RenderTarget target;
  target.colors.assign(1, color.attachment());
  ASSERT_EQ("<success>", errorText(draw(kPositionVertex, kWhiteFragment,
                                        {-1, -1, 0, 1, 1, 1, 0, 1},
                                        runtime::GraphicsState(), target)));
  for (uint32_t y = 0; y < kSize; ++y)
    for (uint32_t x = 0; x < kSize; ++x)
      EXPECT_EQ(color.at(x, y).f[0], 0.0) << x << "," << y;
}

TEST_F(GraphicsTest, MissingVertexDataIsAnError) {
  Image color("R8G8B8A8_UNORM");
  runtime::RenderTarget target;
  target.colors.assign(1, color.attachment());
  std::string message = errorText(draw(R"(#version 450
layout(location = 0) in vec4 position;
layout(location = 3) in vec4 missing;
void main() { gl_Position = position + missing; }
)",
                                       R"(#version 450
layout(location = 0) out vec4 result;
void main() { result = vec4(1.0); }
)",
                                       quad(-1, -1, 1, 1), strip(), target));
  EXPECT_EQ(message, "error: the vertex shader reads input Location 3, but no "
                     "vertex data is bound to it");
}

} // namespace
