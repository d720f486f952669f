//===- FragmentOperations.h - Depth, stencil, blending, writes --*- C++ -*-===//
//
// The specification's "Fragment Operations" after the fragment shader, for
// one fragment at a time in primitive order: depth bounds, stencil and
// depth tests with their writes, then for each colour output blending,
// the colour write mask and the conversion to the attachment's format.
//
//===----------------------------------------------------------------------===//
#ifndef SPVBRIDGE_CPU_RUNTIME_LIB_FRAGMENTOPERATIONS_H
#define SPVBRIDGE_CPU_RUNTIME_LIB_FRAGMENTOPERATIONS_H

#include "spvbridge/cpu_runtime/GraphicsPipeline.h"

#include "StageRecords.h"
#include <array>

#include <optional>

namespace spvb::runtime {

class FragmentOperations {
public:
  /// `outputs` describes the fragment shader's output record.
  FragmentOperations(const GraphicsState &state, RenderTarget &target,
                     llvm::ArrayRef<spvb_stage_variable> outputs);

  /// Whether the shader writes gl_FragDepth.
  bool writesDepth() const { return fragDepthOffset.has_value(); }

  /// Whether a fragment's only effect is its colour outputs stored to
  /// single-sampled one-byte UNORM attachments as they are: no depth or
  /// stencil attachment, sample mask output, blending, logic operation or
  /// write mask.
  bool writesUnorm8Only() const { return unorm8Only; }
  /// A quad at (x, y) whose pixels in `lanes` (bit i: pixel (x + i % 2,
  /// y + i / 2)) are written.
  struct QuadWrite {
    int32_t x, y;
    uint8_t lanes;
  };
  /// Writes the colour outputs of `quads` when writesUnorm8Only(): pixel i
  /// of quad q has output record 4 q + i of `records`, in blocks
  /// (StageRecords::inBlock).
  void writeUnorm8Quads(llvm::ArrayRef<QuadWrite> quads,
                        const StageRecords &records) const;

  /// Tests and writes the samples `samples` (bit s: sample s) of the
  /// fragment at (x, y). `depths` are its interpolated depths at the
  /// samples with the bias added; `record` its output record. Returns the
  /// samples written (passed and kept).
  uint32_t process(int32_t x, int32_t y, uint32_t samples,
                   const std::array<double, 4> &depths, bool frontFacing,
                   const uint8_t *record);

  /// The depth bounds, stencil and depth tests of one sample of the
  /// fragment at (x, y), with their writes; whether it passed. Early
  /// fragment tests run this before the shader, and writeSamples after it.
  bool testDepthStencil(int32_t x, int32_t y, uint32_t sample, double depth,
                        bool frontFacing);
  /// Writes the colour outputs to the samples `samples` of (x, y) that the
  /// shader's SampleMask output (if any) keeps; returns how many those are.
  uint32_t writeSamples(int32_t x, int32_t y, uint32_t samples,
                        const uint8_t *record);

private:
  void writeColors(int32_t x, int32_t y, uint32_t sample,
                   const uint8_t *record);
  bool testStencil(uint8_t *texel, const StencilState &face) const;
  void updateStencil(uint8_t *texel, const StencilState &face,
                     VkStencilOp op) const;
  void writeColor(const spvb_stage_variable &output, const uint8_t *record,
                  Attachment &attachment, const BlendState &blend,
                  uint8_t *texel) const;

  /// A colour output written to one-byte UNORM components with neither
  /// blending nor a write mask: the float components are converted and
  /// stored directly (most draws write nothing else).
  struct Unorm8Write {
    uint32_t offset; ///< of the output in the record
    const Attachment *attachment;
    unsigned bytes;
    uint8_t order[4];
    /// Whether the output has four components (all converted at once).
    bool vec4;
    /// Four-byte RGBA or BGRA texels of a four-component output, whose
    /// quads are converted together.
    bool rgba = false, bgra = false;
  };
  /// Stores a direct write's output in `record` to the texel at `to`.
  static void writeDirect(const Unorm8Write &direct, const uint8_t *record,
                          uint8_t *to);

  const GraphicsState &state;
  RenderTarget &target;
  std::vector<spvb_stage_variable> colorOutputs;
  /// Per colour output: its direct write, if it has one.
  std::vector<std::optional<Unorm8Write>> unorm8Writes;
  /// The direct writes alone, for writeUnorm8.
  std::vector<Unorm8Write> directWrites;
  std::optional<uint32_t> fragDepthOffset;
  std::optional<uint32_t> sampleMaskOffset;
  bool unorm8Only = false;
  /// The viewport's depth range, for clamping.
  double minDepth = 0, maxDepth = 1;
};

} // namespace spvb::runtime

#endif // SPVBRIDGE_CPU_RUNTIME_LIB_FRAGMENTOPERATIONS_H
