//===- OpcodeNames.h - SPIR-V opcode names from the grammar -----*- C++ -*-===//
#ifndef SPVBRIDGE_SPIRV_OPCODENAMES_H
#define SPVBRIDGE_SPIRV_OPCODENAMES_H

#include <cstdint>
#include <string>

namespace spvb {

/// "OpImageSampleImplicitLod", or "Op<N>" for an opcode the grammar lacks.
std::string getOpcodeName(uint32_t opcode);

} // namespace spvb

#endif // SPVBRIDGE_SPIRV_OPCODENAMES_H
