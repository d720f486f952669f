//===- LaneSubgroups.h - Subgroup instructions in SIMD lanes ---*- C++ -*-===//
//
// When a chunk of W lanes is one whole subgroup (the kernel is compiled for
// subgroups of W invocations, or its workgroup fits one chunk), a subgroup
// instruction is a vector operation on the chunk: reductions and scans are
// shuffle steps, ballots bit casts of the mask, broadcasts and shuffles
// reads of other lanes. The combining order is the runtime's
// (SubgroupOperations.cpp), so lanes and fibers give the same bits.
//
//===----------------------------------------------------------------------===//
#ifndef SPVBRIDGE_TRANSFORMS_LANESUBGROUPS_H
#define SPVBRIDGE_TRANSFORMS_LANESUBGROUPS_H

#include "llvm/ADT/SmallVector.h"
#include "llvm/IR/IRBuilder.h"

#include <optional>

namespace spvb {

/// An spvb_rt_subgroup call whose instruction lanes can run.
struct LaneSubgroupCall {
  uint32_t opcode = 0;
  /// The GroupOperation of arithmetic instructions.
  uint32_t operation = 0;
  uint32_t clusterSize = 0;
  /// Component types and counts of operand0 (null if none) and the result:
  /// integers, floats, booleans as i8.
  llvm::Type *operandType = nullptr;
  unsigned operandCount = 0;
  llvm::Type *resultType = nullptr;
  unsigned resultCount = 0;
  /// Whether operand1 is a 32-bit index (broadcasts, shuffles).
  bool hasIndex = false;
};

/// `call` as a subgroup instruction lanes run, if it is one.
std::optional<LaneSubgroupCall> getLaneSubgroupCall(const llvm::CallBase &call);

/// The result's components (<W x T> each) of `call` for a chunk of W lanes
/// that is one subgroup of `subgroupSize` (W, or more when the workgroup
/// fits one chunk), with each lane's `operands` (<W x T> per component),
/// `index` (<W x i32>, or null) and `active` lanes (<W x i1>). Inactive
/// lanes take part as the runtime's do: not at all.
llvm::SmallVector<llvm::Value *>
emitLaneSubgroupCall(llvm::IRBuilder<> &b, const LaneSubgroupCall &call,
                     llvm::ArrayRef<llvm::Value *> operands, llvm::Value *index,
                     llvm::Value *active, unsigned subgroupSize);

} // namespace spvb

#endif // SPVBRIDGE_TRANSFORMS_LANESUBGROUPS_H
