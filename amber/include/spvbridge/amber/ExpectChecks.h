//===- ExpectChecks.h - EXPECT and buffer comparisons -----------*- C++ -*-===//
//
// Amber's checks of buffer contents after a run, as its verifier does them:
// EXPECT ... IDX with EQ, NE, LT, LE, GT, GE and TOLERANCE (values read by
// the buffer's type and layout; floats equal within 1e-6 percent, the
// expected value first rounded to the stored type), and EQ_BUFFER,
// RMSE_BUFFER and EQ_HISTOGRAM_EMD_BUFFER between two buffers, and EQ_RGB(A)
// over a rectangle of an image a compute shader wrote.
//
//===----------------------------------------------------------------------===//
#ifndef SPVBRIDGE_TOOLS_AMBER_EXPECTCHECKS_H
#define SPVBRIDGE_TOOLS_AMBER_EXPECTCHECKS_H

#include "spvbridge/amber/AmberScript.h"
#include "spvbridge/amber/PngFiles.h"

#include "llvm/ADT/ArrayRef.h"

#include <optional>
#include <string>

namespace spvb::amber {

/// Why \p expect fails on \p bytes (the buffer's contents): the first
/// differing values with their index and byte offset, and how many differ;
/// none when it holds.
std::optional<std::string> checkExpect(const ExpectCommand &expect,
                                       llvm::ArrayRef<uint8_t> bytes);

/// The rectangle a colour probe compared and which of its texels failed.
struct ProbedTexels {
  uint32_t x = 0, y = 0, width = 0, height = 0;
  /// width * height flags, rows top to bottom: true where the texel fails.
  std::vector<bool> failing;
};

/// Why \p expect (EQ_RGB/EQ_RGBA over a rectangle) fails on the image
/// \p bytes of \p image (level 0, x fastest), as Amber's verifier decides:
/// UNORM/SNORM/sRGB components scaled to [0, 1] (sRGB linearized), each
/// within its tolerance (absolute 0.002 by default) of the colour. When the
/// texels were compared, \p probed (if given) receives the rectangle and
/// which texels fail; it stays empty when the probe fails before that (a
/// rectangle outside the image, no image format).
std::optional<std::string> checkExpectRect(const ExpectRectCommand &expect,
                                           const Buffer &image,
                                           llvm::ArrayRef<uint8_t> bytes,
                                           ProbedTexels *probed = nullptr);

/// The difference image of a failed probe, as large as \p actual (the whole
/// image as 8-bit RGBA):
/// - a texel of the rectangle that fails: opaque red (255, 0, 0, 255);
/// - a texel of the rectangle that passes: opaque grey, 64 + luma / 2 of its
///   actual colour (luma = (77 R + 150 G + 29 B) / 256), so the picture
///   stays recognizable, is never red and never black;
/// - a texel outside the rectangle: transparent black (0, 0, 0, 0).
PngImage makeProbeDifferenceImage(const PngImage &actual,
                                  const ProbedTexels &probed);

/// Why \p compare fails between \p first (of buffer \p firstInfo) and
/// \p second (of \p secondInfo); none when it holds.
std::optional<std::string>
checkBufferComparison(const CompareBuffersCommand &compare,
                      const Buffer &firstInfo, llvm::ArrayRef<uint8_t> first,
                      const Buffer &secondInfo, llvm::ArrayRef<uint8_t> second);

} // namespace spvb::amber

#endif // SPVBRIDGE_TOOLS_AMBER_EXPECTCHECKS_H
