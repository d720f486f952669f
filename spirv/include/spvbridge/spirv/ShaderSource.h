//===- ShaderSource.h - Load shaders and turn them into SPIR-V --*- C++ -*-===//
//
// Everything that produces a SpirvBinary: reading .spv files, assembling
// .spvasm text with SPIRV-Tools, and compiling GLSL/HLSL with glslang in
// process. All errors come back as llvm::Error whose message is the complete
// line(s) a tool prints, starting with "error: ".
//
//===----------------------------------------------------------------------===//

#ifndef SPVBRIDGE_SPIRV_SHADERSOURCE_H
#define SPVBRIDGE_SPIRV_SHADERSOURCE_H

#include "spvbridge/spirv/SpirvBinary.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <string>
#include <vector>

namespace spvb {

enum class ShaderStage {
  Compute,
  Vertex,
  Fragment,
  Geometry,
  TessControl,
  TessEvaluation,
};

/// Lower-case stage name ("compute", "vertex", ...).
llvm::StringRef getShaderStageName(ShaderStage stage);

struct SourceOptions {
  /// Preprocessor definitions, "NAME" or "NAME=VALUE". A bare NAME is defined
  /// as 1, as C compilers and dxc do.
  std::vector<std::string> defines;
  /// Searched, in order, for #include "x" and #include <x> after the
  /// directory of the including file.
  std::vector<std::string> includeDirs;
  /// vulkan1.0, vulkan1.1, vulkan1.1spv1.4, vulkan1.2, vulkan1.3 or
  /// spv1.0 .. spv1.6. Selects the SPIR-V version glslang and the assembler
  /// emit.
  std::string targetEnv = "vulkan1.2";
  /// HLSL entry point function; becomes the SPIR-V entry point name.
  std::string entry = "main";
  /// For a debugger: HLSL is not legalized (SPIRV-Tools' inlining and SSA
  /// rewriting remove functions and variables) when the module is valid
  /// without it.
  bool debug = false;
};

/// Loads a shader by file extension: .spv (binary, either byte order),
/// .spvasm (SPIRV-Tools assembly), .comp/.vert/.frag (GLSL of that stage),
/// .glsl (GLSL compute) or .hlsl (HLSL compute).
llvm::Expected<SpirvBinary> loadShaderFile(llvm::StringRef path,
                                           const SourceOptions &opts);

/// Checks the header of a SPIR-V file image and converts it to host byte
/// order. \p name is used in error messages.
llvm::Expected<SpirvBinary> parseSpirvBinary(llvm::ArrayRef<char> bytes,
                                             llvm::StringRef name);

/// Compiles GLSL with glslang. The result carries OpSource/OpLine debug info.
/// \p name is the file name used for #include resolution, OpSource and
/// messages ("<inline>" when there is no file).
llvm::Expected<SpirvBinary> compileGlsl(llvm::StringRef source,
                                        llvm::StringRef name, ShaderStage stage,
                                        const SourceOptions &opts);

/// Compiles HLSL with glslang; opts.entry names the entry point function.
llvm::Expected<SpirvBinary> compileHlsl(llvm::StringRef source,
                                        llvm::StringRef name, ShaderStage stage,
                                        const SourceOptions &opts);

/// Assembles SPIRV-Tools assembly text. Numeric ids written in the text (%12)
/// are kept, so ids in later diagnostics match the source.
llvm::Expected<SpirvBinary> assembleSpirv(llvm::StringRef text,
                                          llvm::StringRef name,
                                          const SourceOptions &opts);

/// Disassembles to SPIRV-Tools assembly with friendly names, as spirv-dis.
llvm::Expected<std::string> disassembleSpirv(const SpirvBinary &binary);

} // namespace spvb

#endif // SPVBRIDGE_SPIRV_SHADERSOURCE_H
