//===- LaneMasks.h - Lane masks for structured divergent control flow -*- C++
//-*-===//
//
// Once StructurizeCFG has given every divergent branch of the invocation
// body the shape of an if, an if/else or a loop with one back edge, the
// body runs many invocations in SIMD lanes if each divergent branch narrows
// the mask of active lanes and the block where its construct ends widens it
// again (the scheme of AMDGPU's SIAnnotateControlFlow). This step marks the
// scalar body with calls that say where: the lane widening then implements
// them on the real mask. Each call takes and returns masks (<W x i1>) that
// all lanes share:
//
//   {i1 any, mask rest} spvb.lanes.if(i1 cond)
//       active &= cond; `rest` = the lanes that did not enter; branch on any.
//   {i1 any, mask then} spvb.lanes.else(mask rest)
//       the lanes of the then-part leave, `rest` become active.
//   mask spvb.lanes.if.break(i1 cond, mask broken)
//       broken | (active & cond): the lanes leaving the loop so far.
//   i1 spvb.lanes.loop(mask broken)
//       active &= ~broken; true (leave the loop) once no lane is left.
//   void spvb.lanes.end(mask saved)
//       active |= saved where a construct ends.
//
//===----------------------------------------------------------------------===//
#ifndef SPVBRIDGE_TRANSFORMS_LANEMASKS_H
#define SPVBRIDGE_TRANSFORMS_LANEMASKS_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Analysis/UniformityAnalysis.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/Function.h"

namespace llvm {
class LoopInfo;
} // namespace llvm

namespace spvb {

/// What every marker's name starts with.
inline constexpr llvm::StringLiteral kLanesPrefix = "spvb.lanes.";
inline constexpr llvm::StringLiteral kLanesIf = "spvb.lanes.if";
inline constexpr llvm::StringLiteral kLanesElse = "spvb.lanes.else";
inline constexpr llvm::StringLiteral kLanesIfBreak = "spvb.lanes.if.break";
inline constexpr llvm::StringLiteral kLanesLoop = "spvb.lanes.loop";
inline constexpr llvm::StringLiteral kLanesEnd = "spvb.lanes.end";

/// Marks the structurized `function`'s divergent branches for `lanes`
/// lanes. False if its control flow is not structured as expected.
bool insertLaneMasks(llvm::Function &function, unsigned lanes,
                     llvm::DominatorTree &dominators, llvm::LoopInfo &loops,
                     llvm::UniformityInfo &uniformity);

} // namespace spvb

#endif // SPVBRIDGE_TRANSFORMS_LANEMASKS_H
