//===- LaneWidening.h - Run the invocation body in SIMD lanes ---*- C++ -*-===//
//
// Emits the invocation body once for W invocations at a time: a value that
// differs between invocations becomes a <W x T> vector, one that does not
// stays scalar (LLVM's uniformity analysis decides), memory accesses through
// varying addresses become masked gathers and scatters, and what has no
// vector form (the runtime's calls, atomics) runs lane by lane in lane order.
// Values live across divergent control flow follow the rule of SIMT
// hardware: an inactive lane keeps its old value.
//
//===----------------------------------------------------------------------===//
#ifndef SPVBRIDGE_TRANSFORMS_LANEWIDENING_H
#define SPVBRIDGE_TRANSFORMS_LANEWIDENING_H

#include "LaneDivergence.h"

#include "llvm/ADT/DenseSet.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/Instructions.h"

namespace spvb {

/// Where the widened body goes and what it reads instead of the invocation
/// block's fields.
struct LaneFrame {
  unsigned lanes = 0;
  /// Blocks are added to the function of `start`, which ends in no
  /// terminator yet and branches to the body; returns branch to `done`.
  llvm::BasicBlock *start = nullptr;
  llvm::BasicBlock *done = nullptr;
  /// Where allocas go (the entry block of the function).
  llvm::Instruction *allocaPoint = nullptr;
  /// The active lanes (<W x i1>), read and written by the mask operations.
  llvm::AllocaInst *active = nullptr;
  llvm::Value *dispatch = nullptr;
  /// The workgroup's invocation block: the fields all invocations share.
  llvm::Value *group = nullptr;
  /// Each lane's invocation block (<W x ptr>), for the runtime's calls.
  llvm::Value *laneBlocks = nullptr;
  /// <W x i32> (pointers: <W x ptr>) per varying field and component.
  llvm::Value *localId[3] = {};
  llvm::Value *globalId[3] = {};
  llvm::Value *localIndex = nullptr;
  llvm::Value *subgroupId = nullptr;
  llvm::Value *subgroupLocalId = nullptr;
  llvm::Value *privateMemory = nullptr;
  /// What a body's third argument stands for, if it has one: the
  /// workgroup's scratch memory, where a region between barriers finds
  /// the values the regions before it left.
  llvm::Value *scratch = nullptr;
  /// Whether a chunk's lanes lie in one row of the workgroup, so that the
  /// x components of their ids count up as the local index does.
  bool rowHoldsChunk = false;
  /// Whether the workgroup is one row (its y and z extents are 1).
  bool oneRow = false;
  /// Nonzero: each chunk is one whole subgroup of this size, whose
  /// instructions the lanes run (LaneSubgroups.h).
  unsigned subgroupSize = 0;
  /// The workgroup's invocation count, the scalar workgroup id times the
  /// workgroup size per dimension, and the end of the block before the
  /// loop over chunks, where values for the whole workgroup go.
  unsigned invocations = 0;
  llvm::Value *groupBase[3] = {};
  llvm::Instruction *prologueEnd = nullptr;
};

/// Whether `call` is spvb_rt_subgroup for a derivative (OpDPdx ...
/// OpFwidthCoarse) of 32-bit floats, which lanes compute as shuffles within
/// each group of four (a fragment quad).
bool isQuadDerivative(const llvm::CallBase &call);

/// Whether the widened body passes the invocation block to calls, so each
/// lane needs a block of its own.
bool needsLaneBlocks(const llvm::Function &body);

/// Emits `body` (structurized, marked by insertLaneMasks) into the frame's
/// function. `divergent` holds the values the uniformity analysis found
/// varying before the marks (phis made since vary with their incoming
/// values). False if the body holds something the widening does not
/// handle; the caller then deletes the function.
bool widenBody(llvm::Function &body,
               const llvm::DenseSet<const llvm::Value *> &divergent,
               const LaneFrame &frame);

} // namespace spvb

#endif // SPVBRIDGE_TRANSFORMS_LANEWIDENING_H
