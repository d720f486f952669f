//===- BufferCompare.h - Compare a buffer from two backends -----*- C++ -*-===//
//
// spv-run --compare: the same storage buffer after a run on the CPU and on
// Vulkan, compared scalar by scalar along the block's ScalarLayout.
//
// Integers and bools must be equal. Two floats agree when
//   - both are NaN (any payload), or
//   - they are equal after flushing subnormals to zero (Vulkan lets either
//     side flush denormals, and +0 equals -0), or
//   - both are finite and |cpu - vulkan| <= Tolerance::absolute, or
//   - both are finite and at most Tolerance::ulp representable values of
//     their type lie between them (ULP distance).
// An infinity agrees only with the same infinity.
//
// Storage images and storage texel buffers the shader writes are compared
// texel by texel, each component by the format's numeric kind: floats as
// above (r11f_g11f_b10f's small floats by their own ULPs), UNORM and SNORM
// within one unit in the last place of the format (1 / (2^bits - 1), SNORM
// 1 / (2^(bits-1) - 1): rounding may go either way), integers exactly.
//
//===----------------------------------------------------------------------===//

#ifndef SPVBRIDGE_VULKAN_BUFFERCOMPARE_H
#define SPVBRIDGE_VULKAN_BUFFERCOMPARE_H

#include "spvbridge/spirv/Reflection.h"
#include "spvbridge/spirv/ScalarLayout.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/JSON.h"

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace spvb::vulkan {

/// The float tolerance; see docs/vulkan-backend.md#float-tolerance for why
/// these defaults.
struct Tolerance {
  uint64_t ulp = 4;
  double absolute = 0x1p-21;
};

/// Whether two values of one scalar type agree (the file comment's rule).
/// \p cpu and \p vulkan hold the value's bits, zero-extended.
bool scalarsAgree(ScalarKind kind, uint32_t size, uint64_t cpu, uint64_t vulkan,
                  const Tolerance &tolerance);

/// The value as text: decimal integers, true/false, floats that read back
/// exactly (%.5g f16, %.9g f32, %.17g f64; inf, nan).
std::string formatScalar(ScalarKind kind, uint32_t size, uint64_t bits);

struct ScalarDifference {
  /// BufferScalar::index.
  uint64_t index = 0;
  uint64_t offset = 0;
  std::string path;
  std::string cpu;
  std::string vulkan;
};

struct BufferComparison {
  uint32_t set = 0;
  uint32_t binding = 0;
  /// The element of a descriptor array.
  std::optional<uint32_t> element;
  /// A --device-buffer's name (then set and binding are unused).
  std::string device;
  /// Scalars compared.
  uint64_t compared = 0;
  /// Scalars that disagree.
  uint64_t differing = 0;
  /// The first of them (up to the limit compareBuffer was given).
  std::vector<ScalarDifference> first;
  /// An image or texel buffer: the counts are texels and each difference is
  /// one component, its path "texel (x, y, z, layer[, level]) component c".
  bool image = false;

  bool agrees() const { return differing == 0; }
  /// "0:1", "0:1[2]" or the device buffer's name.
  std::string getName() const;
};

/// Compares every scalar of \p layout that lies inside both buffers (they
/// have the same size when both backends ran the same job).
BufferComparison
compareBuffer(uint32_t set, uint32_t binding, const BlockScalarLayout &layout,
              llvm::ArrayRef<uint8_t> cpu, llvm::ArrayRef<uint8_t> vulkan,
              const Tolerance &tolerance, size_t reportLimit = 8);

/// A storage buffer after each backend's run.
struct BufferResults {
  uint32_t set = 0;
  uint32_t binding = 0;
  /// The element of a descriptor array.
  std::optional<uint32_t> element;
  llvm::ArrayRef<uint8_t> cpu;
  llvm::ArrayRef<uint8_t> vulkan;
};

/// Compares every storage buffer of \p reflection that \p results holds
/// (each element of a descriptor array), in binding order, along its
/// block's layout in \p binary (the specialized module). Errors are
/// getBlockScalarLayout's.
llvm::Expected<std::vector<BufferComparison>> compareStorageBuffers(
    const SpirvBinary &binary, const ModuleReflection &reflection,
    llvm::ArrayRef<BufferResults> results, const Tolerance &tolerance);

/// A storage image or texel buffer after each backend's run, packed as
/// --image gives it (x fastest, then y, z, layer; level after level).
struct ImageResults {
  uint32_t set = 0;
  uint32_t binding = 0;
  std::optional<uint32_t> element;
  /// SPIR-V ImageFormat.
  uint32_t format = 0;
  std::array<uint32_t, 3> extent = {1, 1, 1};
  uint32_t layers = 1;
  uint32_t levels = 1;
  llvm::ArrayRef<uint8_t> cpu;
  llvm::ArrayRef<uint8_t> vulkan;
};

/// Compares every texel of \p image (the file comment's rules).
BufferComparison compareImage(const ImageResults &image,
                              const Tolerance &tolerance,
                              size_t reportLimit = 8);

/// Compares every storage image and storage texel buffer of \p reflection
/// that the shader may write (not NonWritable) and \p results holds, in
/// binding order.
std::vector<BufferComparison>
compareStorageImages(const ModuleReflection &reflection,
                     llvm::ArrayRef<ImageResults> results,
                     const Tolerance &tolerance);

/// `--ulp N` (an unsigned integer) and `--abs-tolerance X` (a non-negative
/// number, C strtod syntax incl. hex floats). Errors:
///   error: --ulp 'V': expected an unsigned integer
///   error: --abs-tolerance 'V': expected a non-negative number
llvm::Expected<Tolerance> parseTolerance(llvm::StringRef ulp,
                                         llvm::StringRef absolute);

/// The report's lines for one buffer (SET:BINDING is SET:BINDING[ELEMENT]
/// for an element of a descriptor array, the NAME for a device buffer):
///   SET:BINDING element INDEX (byte OFFSET) PATH: cpu VALUE vs vulkan VALUE
///   ...
///   SET:BINDING: D of N elements differ
/// or, when all agree, "SET:BINDING: all N elements agree"; for an image
///   SET:BINDING texel (X, Y, Z, LAYER[, LEVEL]) component C: cpu V vs
///   vulkan V
/// and "texels" for "elements".
std::string formatComparison(const BufferComparison &comparison);

/// The last line: "compare: all N storage buffers agree" or "compare: D of N
/// storage buffers differ" ("storage buffers and images" when images were
/// compared).
std::string formatSummary(llvm::ArrayRef<BufferComparison> comparisons);

/// --json: {"agree", "ulp", "abs_tolerance", "buffers": [{"set", "binding",
/// "compared", "differing", "first": [{"element", "byte", "path", "cpu",
/// "vulkan"}]}]}; images have "image": true and count texels; an element of
/// a descriptor array has "array_element"; a device buffer has
/// "device_buffer": NAME instead of "set" and "binding".
llvm::json::Value toJSON(llvm::ArrayRef<BufferComparison> comparisons,
                         const Tolerance &tolerance);

} // namespace spvb::vulkan

#endif // SPVBRIDGE_VULKAN_BUFFERCOMPARE_H
