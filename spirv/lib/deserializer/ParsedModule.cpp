//===- ParsedModule.cpp - A SPIR-V binary split into instructions ---------===//
#include "ParsedModule.h"

#include "llvm/Support/FormatVariadic.h"

#include <cstring>

using namespace spvb;

#include "GrammarTables.inc"

llvm::StringRef ParsedInstruction::argString(unsigned i) const {
  const auto *chars =
      reinterpret_cast<const char *>(words.data() + operands[i].offset);
  size_t max = operands[i].num_words * 4;
  return llvm::StringRef(chars, strnlen(chars, max));
}

llvm::ArrayRef<uint32_t> ParsedInstruction::argWords(unsigned i) const {
  return llvm::ArrayRef<uint32_t>(words).slice(operands[i].offset,
                                               operands[i].num_words);
}

namespace {
struct ParseState {
  ParsedModule module;
  size_t offset = 5;
};
} // namespace

static spv_result_t onHeader(void *userData, spv_endianness_t, uint32_t,
                             uint32_t version, uint32_t, uint32_t bound,
                             uint32_t) {
  auto *state = static_cast<ParseState *>(userData);
  state->module.version = version;
  state->module.bound = bound;
  return SPV_SUCCESS;
}

static spv_result_t onInstruction(void *userData,
                                  const spv_parsed_instruction_t *parsed) {
  auto *state = static_cast<ParseState *>(userData);
  ParsedInstruction inst;
  inst.opcode = parsed->opcode;
  inst.typeId = parsed->type_id;
  inst.resultId = parsed->result_id;
  inst.extInstType = parsed->ext_inst_type;
  inst.wordOffset = state->offset;
  inst.words.assign(parsed->words, parsed->words + parsed->num_words);
  // Drop the result type and result id operands: instructions are read by
  // argument position after them.
  for (unsigned i = 0; i < parsed->num_operands; ++i) {
    spv_operand_type_t type = parsed->operands[i].type;
    if (type == SPV_OPERAND_TYPE_TYPE_ID || type == SPV_OPERAND_TYPE_RESULT_ID)
      continue;
    inst.operands.push_back(parsed->operands[i]);
  }
  state->offset += parsed->num_words;
  state->module.instructions.push_back(std::move(inst));
  return SPV_SUCCESS;
}

llvm::Expected<ParsedModule> spvb::parseModule(const SpirvBinary &binary) {
  ParseState state;
  spv_context context = spvContextCreate(SPV_ENV_UNIVERSAL_1_6);
  spv_diagnostic diagnostic = nullptr;
  spv_result_t result =
      spvBinaryParse(context, &state, binary.words.data(), binary.words.size(),
                     onHeader, onInstruction, &diagnostic);
  std::string message;
  if (result != SPV_SUCCESS)
    message = diagnostic ? diagnostic->error : "unknown parse failure";
  spvDiagnosticDestroy(diagnostic);
  spvContextDestroy(context);
  if (result != SPV_SUCCESS)
    return llvm::createStringError(
        llvm::inconvertibleErrorCode(),
        llvm::formatv("error: {0}: cannot parse SPIR-V: {1}", binary.name,
                      message));
  return std::move(state.module);
}

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
