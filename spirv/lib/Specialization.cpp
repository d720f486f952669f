//===- Specialization.cpp - Apply and freeze specialization constants -----===//

#include "spvbridge/spirv/Specialization.h"
#include "spvbridge/spirv/Reflection.h"

#include "ParsedModule.h"

#include "llvm/ADT/APFloat.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/MathExtras.h"

#include "spirv-tools/libspirv.hpp"
#include "spirv-tools/optimizer.hpp"

#include <optional>
#include <unordered_map>

using namespace spvb;

namespace {

llvm::Error makeError(const llvm::Twine &msg) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), msg);
}

enum class ScalarKind { Bool, Int, Float };

struct ScalarType {
  ScalarKind kind;
  uint32_t width;
  bool isSigned;
};

/// Parses the --spec type names (which are also what reflection reports).
std::optional<ScalarType> parseScalarType(llvm::StringRef name) {
  if (name == "bool")
    return ScalarType{ScalarKind::Bool, 32, false};
  if (name.size() < 2)
    return std::nullopt;
  char prefix = name.front();
  unsigned width;
  if (name.drop_front().getAsInteger(10, width))
    return std::nullopt;
  if (prefix == 'f' && (width == 16 || width == 32 || width == 64))
    return ScalarType{ScalarKind::Float, width, true};
  if ((prefix == 'u' || prefix == 'i') &&
      (width == 8 || width == 16 || width == 32 || width == 64))
    return ScalarType{ScalarKind::Int, width, prefix == 'i'};
  return std::nullopt;
}

/// The value's bits, sign- or zero-extended to 64, as SPIR-V literal words.
std::vector<uint32_t> toWords(uint64_t bits, const ScalarType &type) {
  if (type.width == 64)
    return {static_cast<uint32_t>(bits), static_cast<uint32_t>(bits >> 32)};
  if (type.kind == ScalarKind::Int && type.isSigned)
    return {static_cast<uint32_t>(llvm::SignExtend64(bits, type.width))};
  return {static_cast<uint32_t>(bits &
                                llvm::maskTrailingOnes<uint64_t>(type.width))};
}

/// Decimal or 0x hex, optional sign; nullopt if malformed or out of range.
std::optional<uint64_t> parseIntegerBits(llvm::StringRef text,
                                         const ScalarType &type) {
  bool negative = text.consume_front("-");
  if (!negative)
    text.consume_front("+");
  unsigned radix = 10;
  if (text.consume_front_insensitive("0x"))
    radix = 16;
  uint64_t magnitude;
  // getAsInteger rejects empty strings, signs and trailing junk.
  if (text.empty() || text.front() == '+' || text.front() == '-' ||
      text.getAsInteger(radix, magnitude))
    return std::nullopt;
  if (!type.isSigned) {
    if (negative || (type.width < 64 && magnitude >> type.width))
      return std::nullopt;
    return magnitude;
  }
  uint64_t limit = uint64_t(1) << (type.width - 1);
  if (negative ? magnitude > limit : magnitude >= limit)
    return std::nullopt;
  return negative ? uint64_t(0) - magnitude : magnitude;
}

std::optional<uint64_t> parseFloatBits(llvm::StringRef text,
                                       const ScalarType &type) {
  if (text.empty())
    return std::nullopt;
  const llvm::fltSemantics &semantics =
      type.width == 16   ? llvm::APFloat::IEEEhalf()
      : type.width == 32 ? llvm::APFloat::IEEEsingle()
                         : llvm::APFloat::IEEEdouble();
  llvm::APFloat value(semantics);
  llvm::Expected<llvm::APFloat::opStatus> status =
      value.convertFromString(text, llvm::APFloat::rmNearestTiesToEven);
  if (!status) {
    llvm::consumeError(status.takeError());
    return std::nullopt;
  }
  // A finite literal that does not fit is a typo, not a request for inf.
  if (*status & llvm::APFloat::opOverflow)
    return std::nullopt;
  return value.bitcastToAPInt().getZExtValue();
}

std::string describeSpec(const SpecConstantInfo &spec) {
  std::string s =
      "specialization constant SpecId " + std::to_string(spec.specId);
  if (!spec.name.empty())
    s += " ('" + spec.name + "')";
  return s;
}

/// The first OpSpecConstantOp CompositeExtract/CompositeInsert whose
/// literal indices leave its composite type: SPIRV-Tools' validator lets
/// them through and its folder then reads out of bounds (found by
/// fuzz-spirv-frontend), so they are refused first.
std::optional<std::string> findBadCompositeIndex(const ModuleIndex &module) {
  // The element count of a composite type and the type of its element
  // `index`: vectors and matrices, arrays of constant length, structs.
  auto element =
      [&](uint32_t typeId,
          uint64_t index) -> std::optional<std::pair<uint64_t, uint32_t>> {
    const ParsedInstruction *type = module.lookup(typeId);
    if (!type)
      return std::nullopt;
    switch (type->opcode) {
    case spv::OpTypeVector:
    case spv::OpTypeMatrix:
      return std::make_pair(uint64_t(type->word(3)), type->word(2));
    case spv::OpTypeArray:
      if (module.getOpcode(type->word(3)) != spv::OpConstant)
        return std::nullopt;
      return std::make_pair(*module.getConstantBits(type->word(3)),
                            type->word(2));
    case spv::OpTypeStruct: {
      uint64_t count = type->size() - 2;
      return std::make_pair(count, index < count ? type->word(2 + index) : 0);
    }
    default:
      return std::nullopt;
    }
  };
  for (const ParsedInstruction &inst : module.getInstructions()) {
    if (inst.opcode != spv::OpSpecConstantOp || inst.size() < 5)
      continue;
    uint32_t op = inst.word(3);
    if (op != spv::OpCompositeExtract && op != spv::OpCompositeInsert)
      continue;
    bool insert = op == spv::OpCompositeInsert;
    size_t first = insert ? 6 : 5;
    const ParsedInstruction *composite = module.lookup(inst.word(4));
    uint32_t type = insert ? inst.typeId : composite ? composite->typeId : 0;
    for (size_t k = first; k < inst.size(); ++k) {
      uint64_t index = inst.word(k);
      std::optional<std::pair<uint64_t, uint32_t>> at = element(type, index);
      if (!at)
        break;
      if (index >= at->first)
        return "OpSpecConstantOp %" + std::to_string(inst.resultId) + " " +
               spvOpcodeString(op) + ": index " + std::to_string(index) +
               " is outside its composite of " + std::to_string(at->first) +
               " elements";
      type = at->second;
    }
  }
  return std::nullopt;
}

/// Whether any OpSpecConstant* is left in a module.
bool hasSpecConstant(const ModuleIndex &module) {
  return llvm::any_of(module.getInstructions(),
                      [](const ParsedInstruction &inst) {
                        switch (inst.opcode) {
                        case spv::OpSpecConstantTrue:
                        case spv::OpSpecConstantFalse:
                        case spv::OpSpecConstant:
                        case spv::OpSpecConstantComposite:
                        case spv::OpSpecConstantOp:
                          return true;
                        default:
                          return false;
                        }
                      });
}

/// Folds the scalar OpSpecConstantOp conversions SPIRV-Tools' folder leaves
/// alone (SConvert, UConvert, FConvert) when their operand is a plain
/// constant; glslang emits them for int16_t/float16_t/double spec constants.
/// Returns whether anything changed.
bool foldConversions(const ModuleIndex &module, std::vector<uint32_t> &words) {
  auto scalarType = [&](uint32_t typeId) -> std::optional<ScalarType> {
    const ParsedInstruction *type = module.lookup(typeId);
    if (type && type->opcode == spv::OpTypeInt)
      return ScalarType{ScalarKind::Int, type->word(2), type->word(3) != 0};
    if (type && type->opcode == spv::OpTypeFloat)
      return ScalarType{ScalarKind::Float, type->word(2), true};
    return std::nullopt;
  };

  const ParsedModule &parsed = module.getModule();
  std::vector<uint32_t> out(words.begin(), words.begin() + 5);
  bool changed = false;
  for (const ParsedInstruction &inst : parsed.instructions) {
    std::optional<std::vector<uint32_t>> folded;
    if (inst.opcode == spv::OpSpecConstantOp && inst.size() == 5) {
      uint32_t op = inst.word(3);
      const ParsedInstruction *operand = module.lookup(inst.word(4));
      std::optional<ScalarType> to = scalarType(inst.typeId);
      if (operand && operand->opcode == spv::OpConstant && to &&
          (op == spv::OpSConvert || op == spv::OpUConvert ||
           op == spv::OpFConvert)) {
        std::optional<ScalarType> from = scalarType(operand->typeId);
        uint64_t bits = *module.getConstantBits(operand->resultId);
        if (from && op == spv::OpFConvert && from->kind == ScalarKind::Float &&
            to->kind == ScalarKind::Float) {
          auto semantics = [](uint32_t width) -> const llvm::fltSemantics & {
            return width == 16   ? llvm::APFloat::IEEEhalf()
                   : width == 32 ? llvm::APFloat::IEEEsingle()
                                 : llvm::APFloat::IEEEdouble();
          };
          llvm::APFloat value(semantics(from->width),
                              llvm::APInt(from->width, bits));
          bool lossy;
          value.convert(semantics(to->width),
                        llvm::APFloat::rmNearestTiesToEven, &lossy);
          folded = toWords(value.bitcastToAPInt().getZExtValue(), *to);
        } else if (from && from->kind == ScalarKind::Int &&
                   to->kind == ScalarKind::Int && op != spv::OpFConvert) {
          if (op == spv::OpSConvert)
            bits = static_cast<uint64_t>(llvm::SignExtend64(bits, from->width));
          else if (from->width < 64)
            bits &= llvm::maskTrailingOnes<uint64_t>(from->width);
          folded = toWords(bits, *to);
        }
      }
    }
    if (folded) {
      out.push_back(uint32_t(3 + folded->size()) << 16 | spv::OpConstant);
      out.push_back(inst.typeId);
      out.push_back(inst.resultId);
      llvm::append_range(out, *folded);
      changed = true;
    } else {
      llvm::append_range(out, inst.words);
    }
  }
  if (changed)
    words = std::move(out);
  return changed;
}

} // namespace

llvm::Expected<SpecConstantValue> spvb::parseSpecArgument(llvm::StringRef arg) {
  auto fail = [&](const llvm::Twine &what) {
    return makeError("error: --spec '" + arg + "': " + what);
  };
  llvm::SmallVector<llvm::StringRef, 4> parts;
  arg.split(parts, ':');
  if (parts.size() != 3)
    return fail("expected ID:TYPE:VALUE");
  llvm::StringRef idText = parts[0], typeText = parts[1], valueText = parts[2];

  SpecConstantValue result;
  std::optional<uint64_t> id =
      parseIntegerBits(idText, ScalarType{ScalarKind::Int, 32, false});
  if (!id || idText.starts_with("+"))
    return fail("bad id '" + idText +
                "' (expected an unsigned 32-bit integer)");
  result.id = static_cast<uint32_t>(*id);

  std::optional<ScalarType> type = parseScalarType(typeText);
  if (!type)
    return fail("unknown type '" + typeText +
                "' (expected bool, u8, i8, u16, i16, u32, i32, u64, i64, "
                "f16, f32 or f64)");
  result.type = typeText.str();

  std::optional<uint64_t> bits;
  switch (type->kind) {
  case ScalarKind::Bool:
    if (valueText == "true" || valueText == "1")
      bits = 1;
    else if (valueText == "false" || valueText == "0")
      bits = 0;
    break;
  case ScalarKind::Int:
    bits = parseIntegerBits(valueText, *type);
    break;
  case ScalarKind::Float:
    bits = parseFloatBits(valueText, *type);
    break;
  }
  if (!bits)
    return fail("bad value '" + valueText + "' for type " + typeText);
  result.words = toWords(*bits, *type);
  return result;
}

llvm::Expected<SpirvBinary>
spvb::specialize(const SpirvBinary &binary,
                 llvm::ArrayRef<SpecConstantValue> values) {
  llvm::Expected<std::vector<SpecConstantInfo>> specs =
      listSpecConstants(binary);
  if (!specs)
    return specs.takeError();
  llvm::DenseMap<uint32_t, const SpecConstantInfo *> bySpecId;
  for (const SpecConstantInfo &spec : *specs)
    bySpecId[spec.specId] = &spec;

  std::unordered_map<uint32_t, std::vector<uint32_t>> defaults;
  for (const SpecConstantValue &value : values) {
    auto it = bySpecId.find(value.id);
    if (it == bySpecId.end())
      return makeError("error: " + binary.name +
                       ": no specialization constant with SpecId " +
                       llvm::Twine(value.id));
    const SpecConstantInfo &spec = *it->second;
    std::optional<ScalarType> given = parseScalarType(value.type);
    std::optional<ScalarType> wanted = parseScalarType(spec.type);
    if (!given || !wanted || given->kind != wanted->kind ||
        given->width != wanted->width)
      return makeError("error: " + binary.name + ": " + describeSpec(spec) +
                       " has type " + spec.type +
                       ", but the value given has type " + value.type);
    if (!defaults.emplace(value.id, std::vector<uint32_t>()).second)
      return makeError("error: " + binary.name + ": SpecId " +
                       llvm::Twine(value.id) + " is given more than once");
    // Signedness may differ: re-extend the bits for the constant's type.
    uint64_t bits = value.words.empty() ? 0 : value.words[0];
    if (value.words.size() > 1)
      bits |= uint64_t(value.words[1]) << 32;
    defaults[value.id] = wanted->kind == ScalarKind::Bool
                             ? std::vector<uint32_t>{bits ? 1u : 0u}
                             : toWords(bits, *wanted);
  }

  llvm::Expected<ModuleIndex> module = ModuleIndex::build(binary);
  if (!module)
    return module.takeError();
  // Nothing to do: skip the optimizer's validation and IR round trip.
  if (values.empty() && !hasSpecConstant(*module))
    return binary;

  if (std::optional<std::string> bad = findBadCompositeIndex(*module))
    return makeError("error: " + binary.name + ": cannot specialize: " + *bad);

  std::string message;
  spvtools::Optimizer optimizer(SPV_ENV_UNIVERSAL_1_6);
  optimizer.SetMessageConsumer([&](spv_message_level_t level, const char *,
                                   const spv_position_t &, const char *msg) {
    if (level <= SPV_MSG_ERROR && message.empty())
      message = llvm::StringRef(msg).rtrim(" \t\r\n").str();
  });
  optimizer.RegisterPass(
      spvtools::CreateSetSpecConstantDefaultValuePass(defaults));
  optimizer.RegisterPass(spvtools::CreateFreezeSpecConstantValuePass());
  optimizer.RegisterPass(spvtools::CreateFoldSpecConstantOpAndCompositePass());

  spvtools::ValidatorOptions validatorOptions;
  validatorOptions.SetScalarBlockLayout(true);
  validatorOptions.SetWorkgroupScalarBlockLayout(true);
  validatorOptions.SetAllowLocalSizeId(true);
  spvtools::OptimizerOptions options;
  options.set_run_validator(true);
  options.set_validator_options(validatorOptions);

  SpirvBinary result;
  result.name = binary.name;
  if (!optimizer.Run(binary.words.data(), binary.words.size(), &result.words,
                     options))
    return makeError(
        "error: " + binary.name + ": cannot specialize: " +
        (message.empty() ? "SPIRV-Tools optimizer failed" : message));
  // Each round of our conversion folding may unblock SPIRV-Tools' folder.
  while (true) {
    llvm::Expected<ModuleIndex> round = ModuleIndex::build(result);
    if (!round)
      return round.takeError();
    if (!hasSpecConstant(*round) || !foldConversions(*round, result.words))
      break;
    spvtools::Optimizer folder(SPV_ENV_UNIVERSAL_1_6);
    folder.SetMessageConsumer([&](spv_message_level_t level, const char *,
                                  const spv_position_t &, const char *msg) {
      if (level <= SPV_MSG_ERROR && message.empty())
        message = llvm::StringRef(msg).rtrim(" \t\r\n").str();
    });
    folder.RegisterPass(spvtools::CreateFoldSpecConstantOpAndCompositePass());
    spvtools::OptimizerOptions folderOptions;
    folderOptions.set_run_validator(false);
    std::vector<uint32_t> folded;
    if (!folder.Run(result.words.data(), result.words.size(), &folded,
                    folderOptions))
      return makeError(
          "error: " + binary.name + ": cannot specialize: " +
          (message.empty() ? "SPIRV-Tools optimizer failed" : message));
    result.words = std::move(folded);
  }
  // Unfolded OpSpecConstantOp/Composite over frozen constants are fine: the
  // deserializer evaluates them.
  return result;
}
