//===- OpcodeNames.cpp - SPIR-V opcode names from the grammar -------------===//
#include "spvbridge/spirv/OpcodeNames.h"

using namespace spvb;

#include "GrammarTables.inc"

std::string spvb::getOpcodeName(uint32_t opcode) {
  for (const GrammarName &entry : kOpcodeNames)
    if (entry.value == opcode)
      return entry.name;
  return "Op<" + std::to_string(opcode) + ">";
}

llvm::StringRef spvb::getGlslInstName(uint32_t inst) {
  for (const GrammarName &entry : kGlslNames)
    if (entry.value == inst)
      return entry.name;
  return {};
}
