//===- SpirvBinary.h - A SPIR-V module as words -----------------*- C++ -*-===//
//
// The unit every front-end function passes around: the module's words in host
// byte order plus a name for diagnostics.
//
//===----------------------------------------------------------------------===//

#ifndef SPVBRIDGE_SPIRV_SPIRVBINARY_H
#define SPVBRIDGE_SPIRV_SPIRVBINARY_H

#include <cstdint>
#include <string>
#include <vector>

namespace spvb {

struct SpirvBinary {
  /// The module, host byte order, starting with the magic number.
  std::vector<uint32_t> words;
  /// The file name, or "<inline>", used as FILE in "error: FILE: ..." texts.
  std::string name;
  /// The files #include directives read, when compiled from GLSL or HLSL.
  std::vector<std::string> includedFiles;
};

} // namespace spvb

#endif // SPVBRIDGE_SPIRV_SPIRVBINARY_H
