//===- ResourceChecks.h - The resources a shader needs, given --*- C++ -*-===//
#ifndef SPVBRIDGE_TOOLS_SPV_RUN_RESOURCECHECKS_H
#define SPVBRIDGE_TOOLS_SPV_RUN_RESOURCECHECKS_H

#include "HostResources.h"

#include "spvbridge/bridge/Compiler.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

namespace spvb {

/// The descriptors the shader's (set, binding) has: its array size, or for a
/// runtime-sized array one past the highest element given (at least 1).
uint32_t getDescriptorCount(const ResourceInfo &resource,
                            llvm::ArrayRef<HostBuffer> buffers);

/// Whether the buffers, images and samplers given fit what the shader
/// (\p shaderPath) uses, and push constants are given if it has any.
llvm::Error checkResources(const ModuleReflection &reflection,
                           llvm::ArrayRef<HostBuffer> buffers,
                           llvm::ArrayRef<HostSampler> samplers, bool hasPush,
                           llvm::StringRef shaderPath);

} // namespace spvb

#endif // SPVBRIDGE_TOOLS_SPV_RUN_RESOURCECHECKS_H
