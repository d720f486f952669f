//===- ParsedModule.cpp - A SPIR-V binary split into instructions ---------===//
#include "ParsedModule.h"

#include "llvm/ADT/STLExtras.h"

#include <cstring>

using namespace spvb;

std::string ParsedInstruction::getString(size_t first, size_t *next) const {
  std::string out;
  size_t i = first;
  for (; i < words.size(); ++i) {
    uint32_t w = words[i];
    bool done = false;
    for (int byte = 0; byte < 4 && !done; ++byte) {
      char c = static_cast<char>((w >> (8 * byte)) & 0xff);
      if (c == '\0')
        done = true;
      else
        out += c;
    }
    if (done) {
      ++i;
      break;
    }
  }
  if (next)
    *next = i;
  return out;
}

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
                             uint32_t version, uint32_t generator,
                             uint32_t bound, uint32_t) {
  auto *state = static_cast<ParseState *>(userData);
  state->module.version = version;
  state->module.generator = generator;
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
    message = diagnostic && diagnostic->error
                  ? llvm::StringRef(diagnostic->error).rtrim().str()
                  : std::string("unknown parse error");
  spvDiagnosticDestroy(diagnostic);
  spvContextDestroy(context);
  if (result != SPV_SUCCESS)
    return llvm::createStringError(
        llvm::inconvertibleErrorCode(),
        "error: " + binary.name + ": not a valid SPIR-V binary: " + message);
  return std::move(state.module);
}

ModuleIndex::ModuleIndex(ParsedModule parsed) : module(std::move(parsed)) {
  std::vector<const ParsedInstruction *> groupDecorates;
  for (auto [index, inst] : llvm::enumerate(module.instructions)) {
    if (inst.resultId)
      defs[inst.resultId] = index;
    switch (inst.opcode) {
    case spv::OpName:
      names[inst.word(1)] = inst.getString(2);
      break;
    case spv::OpMemberName:
      memberNames[{inst.word(1), inst.word(2)}] = inst.getString(3);
      break;
    case spv::OpDecorate:
    case spv::OpDecorateId:
      if (inst.size() >= 3)
        decorations[inst.word(1)].push_back(
            {static_cast<spv::Decoration>(inst.word(2)),
             std::vector<uint32_t>(inst.words.begin() + 3, inst.words.end())});
      break;
    case spv::OpMemberDecorate:
      if (inst.size() >= 4)
        memberDecorations[{inst.word(1), inst.word(2)}].push_back(
            {static_cast<spv::Decoration>(inst.word(3)),
             std::vector<uint32_t>(inst.words.begin() + 4, inst.words.end())});
      break;
    case spv::OpGroupDecorate:
    case spv::OpGroupMemberDecorate:
      groupDecorates.push_back(&inst);
      break;
    default:
      break;
    }
  }
  // Decoration groups (old, but legal) copy the group's decorations.
  for (const ParsedInstruction *inst : groupDecorates) {
    std::vector<Decoration> group = decorations[inst->word(1)];
    if (inst->opcode == spv::OpGroupDecorate) {
      for (size_t i = 2; i < inst->size(); ++i)
        llvm::append_range(decorations[inst->word(i)], group);
    } else {
      for (size_t i = 2; i + 1 < inst->size(); i += 2)
        llvm::append_range(
            memberDecorations[{inst->word(i), inst->word(i + 1)}], group);
    }
  }
}

llvm::Expected<ModuleIndex> ModuleIndex::build(const SpirvBinary &binary) {
  llvm::Expected<ParsedModule> parsed = parseModule(binary);
  if (!parsed)
    return parsed.takeError();
  return ModuleIndex(std::move(*parsed));
}

const ParsedInstruction *ModuleIndex::lookup(uint32_t id) const {
  auto it = defs.find(id);
  return it == defs.end() ? nullptr : &module.instructions[it->second];
}

uint32_t ModuleIndex::getOpcode(uint32_t id) const {
  const ParsedInstruction *inst = lookup(id);
  return inst ? inst->opcode : 0;
}

std::string ModuleIndex::getName(uint32_t id) const {
  auto it = names.find(id);
  return it == names.end() ? std::string() : it->second;
}

std::string ModuleIndex::getMemberName(uint32_t id, uint32_t member) const {
  auto it = memberNames.find({id, member});
  return it == memberNames.end() ? std::string() : it->second;
}

static const Decoration *findIn(llvm::ArrayRef<Decoration> list,
                                spv::Decoration kind) {
  for (const Decoration &d : list)
    if (d.kind == kind)
      return &d;
  return nullptr;
}

const Decoration *ModuleIndex::findDecoration(uint32_t id,
                                              spv::Decoration kind) const {
  auto it = decorations.find(id);
  return it == decorations.end() ? nullptr : findIn(it->second, kind);
}

const Decoration *
ModuleIndex::findMemberDecoration(uint32_t id, uint32_t member,
                                  spv::Decoration kind) const {
  auto it = memberDecorations.find({id, member});
  return it == memberDecorations.end() ? nullptr : findIn(it->second, kind);
}

std::optional<uint32_t>
ModuleIndex::getDecorationArg(uint32_t id, spv::Decoration kind) const {
  const Decoration *d = findDecoration(id, kind);
  if (!d || d->args.empty())
    return std::nullopt;
  return d->args[0];
}

std::optional<uint32_t>
ModuleIndex::getMemberDecorationArg(uint32_t id, uint32_t member,
                                    spv::Decoration kind) const {
  const Decoration *d = findMemberDecoration(id, member, kind);
  if (!d || d->args.empty())
    return std::nullopt;
  return d->args[0];
}

std::optional<uint64_t> ModuleIndex::getConstantBits(uint32_t id) const {
  const ParsedInstruction *inst = lookup(id);
  if (!inst || inst->size() < 4 ||
      (inst->opcode != spv::OpConstant && inst->opcode != spv::OpSpecConstant))
    return std::nullopt;
  uint64_t value = inst->word(3);
  if (inst->size() >= 5)
    value |= uint64_t(inst->word(4)) << 32;
  return value;
}
