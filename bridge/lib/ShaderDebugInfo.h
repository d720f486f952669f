//===- ShaderDebugInfo.h - DWARF scopes for the shader's source -*- C++ -*-===//
#ifndef SPVBRIDGE_BRIDGE_SHADERDEBUGINFO_H
#define SPVBRIDGE_BRIDGE_SHADERDEBUGINFO_H

#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/StringMap.h"

namespace spvb {

/// Gives every function of the lowered (llvm dialect) `module` that has
/// source locations a DISubprogram in a compile unit of the shader's
/// language (GLSL, or HLSL for `sourcePath` ending in .hlsl), so that its
/// locations become line tables, and declares the variables the lowering
/// marked. `entryPoints` maps each entry's invocation symbol to the entry
/// point name the debug information gives it.
void attachShaderDebugInfo(mlir::ModuleOp module, llvm::StringRef sourcePath,
                           const llvm::StringMap<std::string> &entryPoints);

} // namespace spvb

#endif // SPVBRIDGE_BRIDGE_SHADERDEBUGINFO_H
