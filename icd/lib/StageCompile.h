//===- StageCompile.h - One pipeline stage's shader compiled ----*- C++ -*-===//
//
// A VkPipelineShaderStageCreateInfo compiled for its execution model, with
// its specialization constants, and under SPVB_DEBUG its debug build too:
// shared by compute and graphics pipelines.
//
//===----------------------------------------------------------------------===//
#ifndef SPVBRIDGE_ICD_LIB_STAGECOMPILE_H
#define SPVBRIDGE_ICD_LIB_STAGECOMPILE_H

#include "Objects.h"

#include "llvm/Support/Error.h"

#include <spirv/unified1/spirv.hpp>

namespace spvb::icd {

struct CompiledStage {
  std::shared_ptr<const Kernel> kernel;
  /// VK_EXT_subgroup_size_control's required size, or 0: the device's.
  uint32_t requiredSubgroupSize = 0;
  /// Under SPVB_DEBUG: the same shader built for the debugger.
  std::shared_ptr<const Kernel> debugKernel;
};

/// Compiles \p stage's module (named by its debug-utils name when it has
/// one) for \p model and for the subgroup size it will run with, as a GPU
/// driver does: a compute shader's subgroup instructions then run in SIMD
/// lanes.
llvm::Expected<CompiledStage>
compileStage(Device &device, const VkPipelineShaderStageCreateInfo &stage,
             spv::ExecutionModel model);

} // namespace spvb::icd

#endif // SPVBRIDGE_ICD_LIB_STAGECOMPILE_H
