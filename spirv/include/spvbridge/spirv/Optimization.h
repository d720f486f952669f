//===- Optimization.h - spirv-opt passes on a module ------------*- C++ -*-===//
//
// Runs SPIRV-Tools optimizer passes named as spirv-opt's flags
// (`--graphics-robust-access`, `-O`, `--inline-entry-points-exhaustive`),
// as Amber's SHADER_OPTIMIZATION does before a shader is used.
//
//===----------------------------------------------------------------------===//
#ifndef SPVBRIDGE_SPIRV_OPTIMIZATION_H
#define SPVBRIDGE_SPIRV_OPTIMIZATION_H

#include "spvbridge/spirv/SpirvBinary.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/Error.h"

#include <string>

namespace spvb {

/// The module after \p passes (spirv-opt flags). Errors name the module and
/// the flag SPIRV-Tools refused, or its message.
llvm::Expected<SpirvBinary>
runSpirvOptPasses(const SpirvBinary &binary, llvm::ArrayRef<std::string> passes,
                  llvm::StringRef targetEnv);

} // namespace spvb

#endif // SPVBRIDGE_SPIRV_OPTIMIZATION_H
