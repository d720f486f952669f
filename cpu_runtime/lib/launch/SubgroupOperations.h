//===- SubgroupOperations.h - What one subgroup instruction computes -*- C++
//-*-===//
//
// The arithmetic of OpGroupNonUniform* and OpSubgroup*KHR once the active
// invocations of a subgroup are known: reductions, scans and clustered
// reductions, votes, ballots, broadcasts, shuffles and quad operations, over
// the scalar and vector types kernel_abi.h's type descriptors describe.
//
//===----------------------------------------------------------------------===//
#ifndef SPVBRIDGE_CPU_RUNTIME_LIB_SUBGROUPOPERATIONS_H
#define SPVBRIDGE_CPU_RUNTIME_LIB_SUBGROUPOPERATIONS_H

#include "llvm/ADT/ArrayRef.h"

#include <cstdint>
#include <string>

namespace spvb::runtime {

/// One invocation's call of spvb_rt_subgroup.
struct SubgroupCall {
  uint32_t opcode = 0;
  uint32_t groupOperation = 0;
  uint32_t clusterSize = 0;
  uint32_t site = 0;
  uint32_t operandDesc = 0;
  uint32_t resultDesc = 0;
  const void *operand0 = nullptr;
  const void *operand1 = nullptr;
  void *result = nullptr;
};

/// An active invocation: its SubgroupLocalInvocationId and its call.
struct SubgroupMember {
  uint32_t localId;
  const SubgroupCall *call;
};

/// Writes every member's result. `members` are the subgroup's active
/// invocations at one site, in ascending local id. Returns "" or why the
/// operation is unsupported (the results are then zero).
std::string runSubgroupOperation(llvm::ArrayRef<SubgroupMember> members,
                                 uint32_t subgroupSize);

} // namespace spvb::runtime

#endif // SPVBRIDGE_CPU_RUNTIME_LIB_SUBGROUPOPERATIONS_H
