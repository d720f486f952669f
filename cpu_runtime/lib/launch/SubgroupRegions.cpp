//===- SubgroupRegions.cpp - Subgroup instructions between region loops ---===//
//
// Region loops run a workgroup's invocations one after the other up to a
// cut. A subgroup instruction that every invocation reaches exactly once is
// such a cut: the invocations leave their operands in their slots of the
// workgroup's scratch arrays, the instruction runs here for every subgroup
// at once, and the next region reads the results from theirs. No fiber
// switches, no per-invocation calls.
//
//===----------------------------------------------------------------------===//
#include "DispatchState.h"
#include "SubgroupOperations.h"
#include "TypeDesc.h"

#include "spvbridge/cpu_runtime/kernel_abi.h"

#include <spirv/unified1/spirv.hpp>

#include <algorithm>
#include <cstring>
#include <vector>

using namespace spvb::runtime;

/// Each subgroup's sum of a 32-bit scalar, as a pairwise tree over its
/// lanes as runSubgroupOperation adds: the reductions kernels use most,
/// without going through type descriptors per element.
template <typename T>
static void reduceSum(uint32_t count, uint32_t subgroupSize,
                      const uint8_t *operand, uint64_t operandStride,
                      uint8_t *result, uint64_t resultStride) {
  for (uint32_t begin = 0; begin < count; begin += subgroupSize) {
    uint32_t end = std::min(begin + subgroupSize, count);
    T values[SPVB_MAX_SUBGROUP_SIZE] = {};
    for (uint32_t index = begin; index < end; ++index)
      std::memcpy(&values[index - begin], operand + index * operandStride,
                  sizeof(T));
    for (uint32_t distance = 1; distance < subgroupSize; distance *= 2)
      for (uint32_t lane = 0; lane + distance < subgroupSize;
           lane += 2 * distance)
        values[lane] += values[lane + distance];
    for (uint32_t index = begin; index < end; ++index)
      std::memcpy(result + index * resultStride, &values[0], sizeof(T));
  }
}

extern "C" void spvb_rt_subgroup_all(
    const spvb_dispatch *dispatch, uint32_t invocation_count, uint32_t opcode,
    uint32_t group_operation, uint32_t cluster_size, uint32_t operand_desc,
    uint32_t result_desc, const uint8_t *operand0, uint64_t operand0_stride,
    const uint8_t *operand1, uint64_t operand1_stride, uint8_t *result,
    uint64_t result_stride) {
  uint32_t subgroupSize = std::max(dispatch->subgroup_size, 1u);
  // Every invocation is active: the first of each subgroup is elected
  // (booleans are a byte, as runSubgroupOperation stores them).
  if (opcode == spv::OpGroupNonUniformElect) {
    for (uint32_t index = 0; index < invocation_count; ++index)
      result[index * result_stride] = index % subgroupSize == 0;
    return;
  }
  TypeDesc type(operand_desc);
  if (group_operation == spv::GroupOperationReduce && type.count == 1 &&
      type.bytes == 4 && operand_desc == result_desc) {
    if (opcode == spv::OpGroupNonUniformFAdd)
      return reduceSum<float>(invocation_count, subgroupSize, operand0,
                              operand0_stride, result, result_stride);
    if (opcode == spv::OpGroupNonUniformIAdd)
      return reduceSum<uint32_t>(invocation_count, subgroupSize, operand0,
                                 operand0_stride, result, result_stride);
  }
  thread_local std::vector<SubgroupCall> calls;
  thread_local std::vector<SubgroupMember> members;
  for (uint32_t begin = 0; begin < invocation_count; begin += subgroupSize) {
    uint32_t end = std::min(begin + subgroupSize, invocation_count);
    calls.resize(end - begin);
    members.clear();
    for (uint32_t index = begin; index < end; ++index) {
      SubgroupCall &call = calls[index - begin];
      call = {opcode,
              group_operation,
              cluster_size,
              /*site=*/0,
              operand_desc,
              result_desc,
              operand0 + index * operand0_stride,
              operand1 ? operand1 + index * operand1_stride : nullptr,
              result + index * result_stride};
      members.push_back({index - begin, &call});
    }
    std::string problem = runSubgroupOperation(members, subgroupSize);
    if (!problem.empty()) {
      // An operation spvbridge lacks, the same in every workgroup: first.
      static_cast<DispatchState *>(dispatch->runtime)
          ->faults.report(/*order=*/0, "error: " + problem);
      return;
    }
  }
}
