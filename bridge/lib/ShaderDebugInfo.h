//===- ShaderDebugInfo.h - DWARF scopes for the shader's source -*- C++ -*-===//
#ifndef SPVBRIDGE_BRIDGE_SHADERDEBUGINFO_H
#define SPVBRIDGE_BRIDGE_SHADERDEBUGINFO_H

#include "mlir/IR/BuiltinOps.h"

namespace spvb {

/// Gives every function of the lowered (llvm dialect) `module` that has
/// source locations a DISubprogram in a compile unit of the shader's
/// language (GLSL, or HLSL for `sourcePath` ending in .hlsl), so that its
/// locations become line tables. The function `entrySymbol` is named
/// `entryPoint` in the debug information.
void attachShaderDebugInfo(mlir::ModuleOp module, llvm::StringRef sourcePath,
                           llvm::StringRef entryPoint,
                           llvm::StringRef entrySymbol);

} // namespace spvb

#endif // SPVBRIDGE_BRIDGE_SHADERDEBUGINFO_H
