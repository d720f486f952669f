//===- ParsedModule.h - A SPIR-V binary split into instructions -*- C++ -*-===//
//
// The deserializer's input: every instruction of a module as parsed by
// SPIRV-Tools' spvBinaryParse, plus the grammar's names for diagnostics.
//
//===----------------------------------------------------------------------===//
#ifndef SPVBRIDGE_SPIRV_LIB_PARSEDMODULE_H
#define SPVBRIDGE_SPIRV_LIB_PARSEDMODULE_H

#include "spvbridge/spirv/OpcodeNames.h"
#include "spvbridge/spirv/SpirvBinary.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include <spirv-tools/libspirv.h>

#include <string>
#include <vector>

namespace spvb {

/// One instruction; operand 0 is the first operand after the result type and
/// result id.
struct ParsedInstruction {
  uint32_t opcode = 0;
  uint32_t typeId = 0;
  uint32_t resultId = 0;
  spv_ext_inst_type_t extInstType = SPV_EXT_INST_TYPE_NONE;
  /// Word offset of the instruction in the binary, for diagnostics.
  size_t wordOffset = 0;
  std::vector<uint32_t> words;
  std::vector<spv_parsed_operand_t> operands;

  unsigned getNumArgs() const { return operands.size(); }
  /// First word of argument I.
  uint32_t arg(unsigned i) const { return words[operands[i].offset]; }
  /// Argument I as a literal string.
  llvm::StringRef argString(unsigned i) const;
  /// All words of argument I (for wide literals).
  llvm::ArrayRef<uint32_t> argWords(unsigned i) const;
};

struct ParsedModule {
  uint32_t version = 0;
  uint32_t bound = 0;
  std::vector<ParsedInstruction> instructions;
};

/// Parses the binary; errors carry SPIRV-Tools' diagnostic.
llvm::Expected<ParsedModule> parseModule(const SpirvBinary &binary);

/// "SmoothStep" for 49; empty for an unknown instruction number.
llvm::StringRef getGlslInstName(uint32_t inst);

} // namespace spvb

#endif // SPVBRIDGE_SPIRV_LIB_PARSEDMODULE_H
