//===- OpcodeNames.h - SPIR-V opcode names from the grammar -----*- C++ -*-===//
#ifndef SPVBRIDGE_SPIRV_OPCODENAMES_H
#define SPVBRIDGE_SPIRV_OPCODENAMES_H

#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <string>

namespace spvb {

/// "OpImageSampleImplicitLod", or "Op<N>" for an opcode the grammar lacks.
std::string getOpcodeName(uint32_t opcode);

/// "SmoothStep" for GLSL.std.450 instruction 49; empty for an unknown one.
llvm::StringRef getGlslInstName(uint32_t inst);

} // namespace spvb

#endif // SPVBRIDGE_SPIRV_OPCODENAMES_H
