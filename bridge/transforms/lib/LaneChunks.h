//===- LaneChunks.h - Bodies run in chunks of SIMD lanes --------*- C++ -*-===//
//
// What the two ways of running invocations in SIMD lanes share: the
// invocation vectorizer widens a whole barrier-free body, the workgroup
// loops widen each region between barriers. Both check that a body can run
// in lanes, structurize it and mark its masks, then emit it into a loop
// over chunks of W invocations.
//
//===----------------------------------------------------------------------===//
#ifndef SPVBRIDGE_TRANSFORMS_LANECHUNKS_H
#define SPVBRIDGE_TRANSFORMS_LANECHUNKS_H

#include "LaneWidening.h"

#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/IR/IRBuilder.h"

namespace llvm {
class TargetMachine;
} // namespace llvm

namespace spvb {

/// The lanes for a kernel of `invocations` per workgroup: `forced` if
/// given, else as many 32-bit lanes as a vector register of the host holds
/// (4 to 16), fewer for a smaller workgroup; 0 for one invocation.
unsigned getLaneCount(llvm::TargetMachine *machine,
                      const llvm::Function &invocation, uint32_t invocations,
                      unsigned forced);

/// Whether the inlined `body` calls nothing whose meaning depends on
/// running the invocations one after the other or all together (except
/// subgroup instructions lanes run, given `subgroupChunks`: each chunk is a
/// subgroup). If so, readies it for structurizing: its vector reductions
/// become scalar operations and what is undefined (unreachable) returns.
bool canRunInLanes(llvm::Function &body, bool fragment,
                   bool subgroupChunks = false);

/// Structurizes `body` and marks its masks (LaneMasks.h); `divergent` gets
/// the values the uniformity analysis found varying. False if its control
/// flow cannot be run in lanes.
bool prepareLaneBody(llvm::Function &body, unsigned lanes,
                     llvm::DenseSet<const llvm::Value *> &divergent);

/// The ids of the workgroup a chunk loop runs.
struct ChunkIds {
  uint32_t size[3] = {};
  llvm::Value *groupId[3] = {};
  llvm::Value *subgroupSize = nullptr;
  /// Nonzero: the subgroup size, each chunk being one subgroup (or the
  /// whole workgroup, fewer invocations than a subgroup).
  unsigned subgroupChunks = 0;
};

/// Ends `b`'s block with a loop over chunks of `frame.lanes` invocations,
/// from local index 0 while below `limit`, that leaves to `exit`: sets the
/// frame's per-chunk fields (ids, active lanes, `start`, `done`) and, if
/// `laneBlocks`, fills each lane's invocation block in `frame.laneBlocks`.
/// `privateMemory` gives each lane's Private storage (<W x ptr>) from the
/// chunk's local indices, or null if it is the same for every chunk and
/// already in the frame.
void emitChunkLoop(
    llvm::IRBuilder<> &b, LaneFrame &frame, const ChunkIds &ids, uint32_t limit,
    llvm::BasicBlock *exit, bool laneBlocks,
    llvm::function_ref<llvm::Value *(llvm::Value *index)> privateMemory);

/// After widening: the masks and phi slots in `entry`'s first block
/// become SSA values again.
void promoteLaneSlots(llvm::Function &entry);

} // namespace spvb

#endif // SPVBRIDGE_TRANSFORMS_LANECHUNKS_H
