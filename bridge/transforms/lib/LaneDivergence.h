//===- LaneDivergence.h - Which values differ between invocations -*- C++
//-*-===//
//
// LLVM's uniformity analysis and StructurizeCFG learn a function's sources
// of divergence from the target (TargetTransformInfo). The host target has
// none, so the invocation vectorizer hands them a TTI that names the
// invocation body's: the invocation block's per-invocation fields, allocas
// (each invocation has its own), atomics and calls into the runtime.
//
//===----------------------------------------------------------------------===//
#ifndef SPVBRIDGE_TRANSFORMS_LANEDIVERGENCE_H
#define SPVBRIDGE_TRANSFORMS_LANEDIVERGENCE_H

#include "llvm/Analysis/TargetTransformInfo.h"
#include "llvm/IR/Function.h"

#include <optional>

namespace spvb {

/// Which field of the invocation block a load at `offset` bytes with `bytes`
/// bytes reads, if it reads exactly one.
enum class InvocationField {
  WorkgroupId,
  LocalId,
  GlobalId,
  LocalIndex,
  SharedMemory,
  PrivateMemory,
  Runtime,
  SubgroupId,
  SubgroupLocalId,
};
struct InvocationFieldAccess {
  InvocationField field;
  unsigned component; // x, y, z of the id vectors
};
std::optional<InvocationFieldAccess> getInvocationField(int64_t offset,
                                                        uint64_t bytes);
/// Whether every invocation of a workgroup sees the same value of the field.
bool isWorkgroupUniform(InvocationField field);

/// Target information for `body(dispatch, invocation)`, whose second
/// argument is the invocation block: the body's sources of divergence.
llvm::TargetIRAnalysis getLaneDivergenceAnalysis();

} // namespace spvb

#endif // SPVBRIDGE_TRANSFORMS_LANEDIVERGENCE_H
