//===- ParsedModule.h - A SPIR-V binary split into instructions -*- C++ -*-===//
//
// The one reader of SPIR-V words in the front end: SPIRV-Tools'
// spvBinaryParse splits the module into instructions, and ModuleIndex finds
// definitions, names and decorations by id. The deserializer, reflection,
// scalar layout and specialization all read modules through it.
//
//===----------------------------------------------------------------------===//
#ifndef SPVBRIDGE_SPIRV_LIB_PARSEDMODULE_H
#define SPVBRIDGE_SPIRV_LIB_PARSEDMODULE_H

#include "spvbridge/spirv/SpirvBinary.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include <spirv-tools/libspirv.h>
#include <spirv/unified1/spirv.hpp>

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace spvb {

/// One instruction. Two ways to read it: by word, numbered as the
/// specification numbers them (word 0 holds the opcode), or by argument,
/// where argument 0 is the first operand after the result type and result id.
struct ParsedInstruction {
  uint32_t opcode = 0;
  uint32_t typeId = 0;
  uint32_t resultId = 0;
  spv_ext_inst_type_t extInstType = SPV_EXT_INST_TYPE_NONE;
  /// Word offset of the instruction in the binary, for diagnostics.
  size_t wordOffset = 0;
  std::vector<uint32_t> words;
  std::vector<spv_parsed_operand_t> operands;

  /// Word I; 0 past the end, so a short (invalid) instruction reads zeros.
  uint32_t word(size_t i) const { return i < words.size() ? words[i] : 0; }
  size_t size() const { return words.size(); }
  /// The literal string starting at word \p first; \p next receives the
  /// index of the word after it.
  std::string getString(size_t first, size_t *next = nullptr) const;

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
  uint32_t generator = 0;
  uint32_t bound = 0;
  std::vector<ParsedInstruction> instructions;
};

/// Parses the binary; the error is "error: NAME: not a valid SPIR-V binary:
/// " and SPIRV-Tools' diagnostic.
llvm::Expected<ParsedModule> parseModule(const SpirvBinary &binary);

struct Decoration {
  spv::Decoration kind;
  /// The literals (or ids) after the decoration.
  std::vector<uint32_t> args;
};

/// A parsed module with its definitions, debug names and decorations
/// (decoration groups applied) indexed by id.
class ModuleIndex {
public:
  explicit ModuleIndex(ParsedModule module);
  /// Parses \p binary and indexes it.
  static llvm::Expected<ModuleIndex> build(const SpirvBinary &binary);

  const ParsedModule &getModule() const { return module; }
  llvm::ArrayRef<ParsedInstruction> getInstructions() const {
    return module.instructions;
  }
  /// The instruction defining \p id, or null.
  const ParsedInstruction *lookup(uint32_t id) const;
  /// The opcode defining \p id, or 0 (OpNop).
  uint32_t getOpcode(uint32_t id) const;
  /// OpName's text, or "".
  std::string getName(uint32_t id) const;
  /// OpMemberName's text, or "".
  std::string getMemberName(uint32_t id, uint32_t member) const;
  const Decoration *findDecoration(uint32_t id, spv::Decoration kind) const;
  const Decoration *findMemberDecoration(uint32_t id, uint32_t member,
                                         spv::Decoration kind) const;
  /// The first literal of a decoration, if present.
  std::optional<uint32_t> getDecorationArg(uint32_t id,
                                           spv::Decoration kind) const;
  std::optional<uint32_t> getMemberDecorationArg(uint32_t id, uint32_t member,
                                                 spv::Decoration kind) const;
  const std::map<uint32_t, std::vector<Decoration>> &getDecorations() const {
    return decorations;
  }
  /// The value of an OpConstant or OpSpecConstant (its default) of up to 64
  /// bits, zero-extended.
  std::optional<uint64_t> getConstantBits(uint32_t id) const;

private:
  ParsedModule module;
  llvm::DenseMap<uint32_t, size_t> defs;
  std::map<uint32_t, std::string> names;
  std::map<std::pair<uint32_t, uint32_t>, std::string> memberNames;
  std::map<uint32_t, std::vector<Decoration>> decorations;
  std::map<std::pair<uint32_t, uint32_t>, std::vector<Decoration>>
      memberDecorations;
};

} // namespace spvb

#endif // SPVBRIDGE_SPIRV_LIB_PARSEDMODULE_H
