//===- QuadDerivatives.h - The derivative rule of a 2x2 quad ----*- C++ -*-===//
//
// The one rule for OpDPdx ... OpFwidthCoarse, shared by the runtime (which
// evaluates derivatives of invocations running on fibers) and the SIMD lane
// widening (which evaluates them as shuffles within each group of four
// lanes), so that both give the same value.
//
// A fragment quad's invocations are numbered x + 2y. A derivative is the
// difference between horizontal (dx) or vertical (dy) neighbours: fine
// derivatives, and plain OpDPdx/OpDPdy/OpFwidth as lavapipe computes them
// (Vulkan allows either), use the invocation's own row or column; coarse
// ones the quad's first. OpFwidth* is |dx| + |dy|.
//
//===----------------------------------------------------------------------===//
#ifndef SPVBRIDGE_CPU_RUNTIME_QUADDERIVATIVES_H
#define SPVBRIDGE_CPU_RUNTIME_QUADDERIVATIVES_H

#include <spirv/unified1/spirv.hpp>

#include <cstdint>

namespace spvb::abi {

enum class DerivativeKind { X, Y, Width };

/// Whether \p opcode is a derivative instruction.
constexpr bool isDerivativeOpcode(uint32_t opcode) {
  return opcode >= spv::OpDPdx && opcode <= spv::OpFwidthCoarse;
}

/// What a derivative opcode computes.
constexpr DerivativeKind getDerivativeKind(uint32_t opcode) {
  switch (opcode) {
  case spv::OpDPdx:
  case spv::OpDPdxFine:
  case spv::OpDPdxCoarse:
    return DerivativeKind::X;
  case spv::OpDPdy:
  case spv::OpDPdyFine:
  case spv::OpDPdyCoarse:
    return DerivativeKind::Y;
  default:
    return DerivativeKind::Width;
  }
}

/// The quad members (0..3) whose values a derivative of member \p self
/// subtracts: dx = value[right] - value[left], dy = value[below] -
/// value[above].
struct QuadNeighbours {
  uint32_t right, left, below, above;
};

constexpr QuadNeighbours getQuadNeighbours(uint32_t opcode, uint32_t self) {
  bool coarse = opcode == spv::OpDPdxCoarse || opcode == spv::OpDPdyCoarse ||
                opcode == spv::OpFwidthCoarse;
  uint32_t row = coarse ? 0 : (self >> 1) & 1;
  uint32_t column = coarse ? 0 : self & 1;
  return {2 * row + 1, 2 * row, 2 + column, column};
}

} // namespace spvb::abi

#endif // SPVBRIDGE_CPU_RUNTIME_QUADDERIVATIVES_H
