//===- Reflection.cpp - What a dispatch needs to know about a module ------===//

#include "spvbridge/spirv/Reflection.h"

#include "ParsedModule.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/MathExtras.h"

#include "spirv-tools/libspirv.hpp"

#include <algorithm>
#include <map>

using namespace spvb;

namespace {

llvm::Error makeError(const llvm::Twine &msg) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), msg);
}

/// MatrixStride / RowMajor of the struct member a matrix (or array of
/// matrices) sits in.
struct MatrixLayout {
  uint32_t stride = 0;
  bool rowMajor = false;
};

struct SizeAlign {
  uint64_t size = 0;
  uint64_t align = 1;
};

/// Layout, type naming and constant evaluation over a parsed module.
class Analyzer {
public:
  explicit Analyzer(const ModuleIndex &module) : m(module) {}

  std::string scalarName(uint32_t typeId) const;
  std::string typeString(uint32_t typeId, MatrixLayout layout = {},
                         int depth = 0) const;
  uint64_t blockSize(uint32_t typeId, MatrixLayout layout = {},
                     int depth = 0) const;
  SizeAlign naturalLayout(uint32_t typeId, int depth = 0) const;
  std::optional<uint64_t> evalInt(uint32_t id, int depth = 0) const;
  MatrixLayout memberMatrixLayout(uint32_t structId, uint32_t member) const;
  /// The bit width of an int/float/bool type (bool counts as 1).
  uint32_t scalarWidth(uint32_t typeId) const;

private:
  std::optional<uint64_t> evalSpecOp(const ParsedInstruction &inst,
                                     int depth) const;

  const ModuleIndex &m;
};

uint32_t Analyzer::scalarWidth(uint32_t typeId) const {
  const ParsedInstruction *type = m.lookup(typeId);
  if (!type)
    return 32;
  if (type->opcode == spv::OpTypeInt || type->opcode == spv::OpTypeFloat)
    return type->word(2);
  if (type->opcode == spv::OpTypeBool)
    return 1;
  return 32;
}

std::string Analyzer::scalarName(uint32_t typeId) const {
  const ParsedInstruction *type = m.lookup(typeId);
  if (!type)
    return "?";
  switch (type->opcode) {
  case spv::OpTypeBool:
    return "bool";
  case spv::OpTypeInt:
    return (type->word(3) ? "i" : "u") + std::to_string(type->word(2));
  case spv::OpTypeFloat:
    return "f" + std::to_string(type->word(2));
  default:
    return "?";
  }
}

llvm::StringRef storageClassName(uint32_t storageClass) {
  switch (storageClass) {
  case spv::StorageClassUniformConstant:
    return "UniformConstant";
  case spv::StorageClassInput:
    return "Input";
  case spv::StorageClassUniform:
    return "Uniform";
  case spv::StorageClassOutput:
    return "Output";
  case spv::StorageClassWorkgroup:
    return "Workgroup";
  case spv::StorageClassCrossWorkgroup:
    return "CrossWorkgroup";
  case spv::StorageClassPrivate:
    return "Private";
  case spv::StorageClassFunction:
    return "Function";
  case spv::StorageClassGeneric:
    return "Generic";
  case spv::StorageClassPushConstant:
    return "PushConstant";
  case spv::StorageClassImage:
    return "Image";
  case spv::StorageClassStorageBuffer:
    return "StorageBuffer";
  case spv::StorageClassPhysicalStorageBuffer:
    return "PhysicalStorageBuffer";
  default:
    return "Other";
  }
}

MatrixLayout Analyzer::memberMatrixLayout(uint32_t structId,
                                          uint32_t member) const {
  MatrixLayout layout;
  if (const Decoration *d =
          m.findMemberDecoration(structId, member, spv::DecorationMatrixStride))
    layout.stride = d->args.empty() ? 0 : d->args[0];
  layout.rowMajor =
      m.findMemberDecoration(structId, member, spv::DecorationRowMajor);
  return layout;
}

// Guards recursion on malformed (cyclic) modules.
constexpr int MaxDepth = 64;

std::string Analyzer::typeString(uint32_t typeId, MatrixLayout layout,
                                 int depth) const {
  const ParsedInstruction *type = m.lookup(typeId);
  if (!type || depth > MaxDepth)
    return "?";
  switch (type->opcode) {
  case spv::OpTypeVoid:
    return "void";
  case spv::OpTypeBool:
  case spv::OpTypeInt:
  case spv::OpTypeFloat:
    return scalarName(typeId);
  case spv::OpTypeVector:
    return "vec" + std::to_string(type->word(3)) + "<" +
           typeString(type->word(2), {}, depth + 1) + ">";
  case spv::OpTypeMatrix: {
    const ParsedInstruction *column = m.lookup(type->word(2));
    uint32_t rows = column ? column->word(3) : 0;
    std::string s = "mat" + std::to_string(type->word(3)) + "x" +
                    std::to_string(rows) + "<" +
                    (column ? typeString(column->word(2), {}, depth + 1)
                            : std::string("?"));
    if (layout.stride)
      s += ",stride=" + std::to_string(layout.stride);
    if (layout.rowMajor)
      s += ",row_major";
    return s + ">";
  }
  case spv::OpTypeArray:
  case spv::OpTypeRuntimeArray: {
    std::string s = "array<" + typeString(type->word(2), layout, depth + 1);
    if (type->opcode == spv::OpTypeArray) {
      std::optional<uint64_t> length = evalInt(type->word(3));
      s += "," + (length ? std::to_string(*length) : std::string("?"));
    }
    if (std::optional<uint32_t> stride =
            m.getDecorationArg(typeId, spv::DecorationArrayStride))
      s += ",stride=" + std::to_string(*stride);
    return s + ">";
  }
  case spv::OpTypeStruct: {
    std::string name = m.getName(typeId);
    return name.empty() ? "struct." + std::to_string(typeId) : name;
  }
  case spv::OpTypePointer:
    return ("ptr<" + storageClassName(type->word(2)) + ",").str() +
           typeString(type->word(3), {}, depth + 1) + ">";
  case spv::OpTypeForwardPointer:
    return "ptr";
  case spv::OpTypeImage:
    return "image";
  case spv::OpTypeSampler:
    return "sampler";
  case spv::OpTypeSampledImage:
    return "sampled_image";
  case spv::OpTypeAccelerationStructureKHR:
    return "accel_struct";
  default:
    return llvm::StringRef(spvOpcodeString(type->opcode)).lower();
  }
}

uint64_t Analyzer::blockSize(uint32_t typeId, MatrixLayout layout,
                             int depth) const {
  const ParsedInstruction *type = m.lookup(typeId);
  if (!type || depth > MaxDepth)
    return 0;
  switch (type->opcode) {
  case spv::OpTypeBool:
  case spv::OpTypeInt:
  case spv::OpTypeFloat:
  case spv::OpTypeVector:
  case spv::OpTypePointer:
  case spv::OpTypeForwardPointer:
    return naturalLayout(typeId, depth).size;
  case spv::OpTypeMatrix: {
    if (!layout.stride)
      return naturalLayout(typeId, depth).size;
    const ParsedInstruction *column = m.lookup(type->word(2));
    uint64_t rows = column ? column->word(3) : 0;
    uint64_t columns = type->word(3);
    return (layout.rowMajor ? rows : columns) * layout.stride;
  }
  case spv::OpTypeArray: {
    uint64_t length = evalInt(type->word(3)).value_or(0);
    std::optional<uint32_t> stride =
        m.getDecorationArg(typeId, spv::DecorationArrayStride);
    return length *
           (stride ? *stride : blockSize(type->word(2), layout, depth + 1));
  }
  case spv::OpTypeRuntimeArray:
    return 0;
  case spv::OpTypeStruct: {
    uint64_t end = 0;
    for (uint32_t i = 0; i + 2 < type->size(); ++i) {
      std::optional<uint32_t> offset;
      if (const Decoration *d =
              m.findMemberDecoration(typeId, i, spv::DecorationOffset))
        if (!d->args.empty())
          offset = d->args[0];
      // A struct without offsets is not a block; lay it out naturally.
      if (!offset)
        return naturalLayout(typeId, depth).size;
      end = std::max<uint64_t>(
          end, *offset + blockSize(type->word(2 + i),
                                   memberMatrixLayout(typeId, i), depth + 1));
    }
    return end;
  }
  default:
    return 0;
  }
}

SizeAlign Analyzer::naturalLayout(uint32_t typeId, int depth) const {
  const ParsedInstruction *type = m.lookup(typeId);
  if (!type || depth > MaxDepth)
    return {};
  switch (type->opcode) {
  case spv::OpTypeBool:
    return {1, 1};
  case spv::OpTypeInt:
  case spv::OpTypeFloat: {
    uint64_t bytes = std::max<uint32_t>(type->word(2) / 8, 1);
    return {bytes, bytes};
  }
  case spv::OpTypeVector: {
    SizeAlign component = naturalLayout(type->word(2), depth + 1);
    return {component.size * type->word(3), component.align};
  }
  case spv::OpTypeMatrix: {
    SizeAlign column = naturalLayout(type->word(2), depth + 1);
    uint64_t stride = llvm::alignTo(column.size, column.align);
    return {stride * type->word(3), column.align};
  }
  case spv::OpTypeArray:
  case spv::OpTypeRuntimeArray: {
    SizeAlign element = naturalLayout(type->word(2), depth + 1);
    uint64_t stride = llvm::alignTo(element.size, element.align);
    uint64_t length = type->opcode == spv::OpTypeArray
                          ? evalInt(type->word(3)).value_or(0)
                          : 0;
    return {stride * length, element.align};
  }
  case spv::OpTypeStruct: {
    SizeAlign result;
    for (size_t i = 2; i < type->size(); ++i) {
      SizeAlign member = naturalLayout(type->word(i), depth + 1);
      result.size = llvm::alignTo(result.size, member.align) + member.size;
      result.align = std::max(result.align, member.align);
    }
    result.size = llvm::alignTo(result.size, result.align);
    return result;
  }
  default:
    // Pointers and opaque handles.
    return {8, 8};
  }
}

uint64_t maskToWidth(uint64_t value, uint32_t width) {
  return width >= 64 ? value : value & ((uint64_t(1) << width) - 1);
}

int64_t signExtend(uint64_t value, uint32_t width) {
  if (width == 0 || width >= 64)
    return static_cast<int64_t>(value);
  return llvm::SignExtend64(value, width);
}

std::optional<uint64_t> Analyzer::evalInt(uint32_t id, int depth) const {
  const ParsedInstruction *inst = m.lookup(id);
  if (!inst || depth > MaxDepth)
    return std::nullopt;
  switch (inst->opcode) {
  case spv::OpConstant:
  case spv::OpSpecConstant: {
    uint64_t value = inst->word(3);
    if (inst->size() > 4)
      value |= uint64_t(inst->word(4)) << 32;
    return maskToWidth(value, scalarWidth(inst->typeId));
  }
  case spv::OpConstantTrue:
  case spv::OpSpecConstantTrue:
    return 1;
  case spv::OpConstantFalse:
  case spv::OpSpecConstantFalse:
  case spv::OpConstantNull:
    return 0;
  case spv::OpSpecConstantOp:
    return evalSpecOp(*inst, depth);
  default:
    return std::nullopt;
  }
}

/// Integer OpSpecConstantOp, enough for sizes derived from spec constants
/// (local_size_x_id arithmetic, array lengths).
std::optional<uint64_t> Analyzer::evalSpecOp(const ParsedInstruction &inst,
                                             int depth) const {
  auto op = static_cast<spv::Op>(inst.word(3));
  uint32_t width = scalarWidth(inst.typeId);
  auto operand = [&](size_t i) { return evalInt(inst.word(4 + i), depth + 1); };
  auto operandWidth = [&](size_t i) {
    const ParsedInstruction *def = m.lookup(inst.word(4 + i));
    return def ? scalarWidth(def->typeId) : 32;
  };
  if (op == spv::OpCompositeExtract) {
    const ParsedInstruction *composite = m.lookup(inst.word(4));
    uint32_t index = inst.word(5);
    if (!composite || inst.size() != 6 ||
        (composite->opcode != spv::OpConstantComposite &&
         composite->opcode != spv::OpSpecConstantComposite) ||
        3 + index >= composite->size())
      return std::nullopt;
    return evalInt(composite->word(3 + index), depth + 1);
  }
  std::optional<uint64_t> a = operand(0);
  if (!a)
    return std::nullopt;
  // Unary operations.
  switch (op) {
  case spv::OpNot:
    return maskToWidth(~*a, width);
  case spv::OpSNegate:
    return maskToWidth(-*a, width);
  case spv::OpLogicalNot:
    return *a ? 0 : 1;
  case spv::OpUConvert:
    return maskToWidth(*a, width);
  case spv::OpSConvert:
    return maskToWidth(signExtend(*a, operandWidth(0)), width);
  default:
    break;
  }
  if (op == spv::OpSelect) {
    std::optional<uint64_t> b = operand(1), c = operand(2);
    if (!b || !c)
      return std::nullopt;
    return *a ? *b : *c;
  }
  std::optional<uint64_t> b = operand(1);
  if (!b)
    return std::nullopt;
  uint32_t inWidth = operandWidth(0);
  int64_t sa = signExtend(*a, inWidth), sb = signExtend(*b, inWidth);
  switch (op) {
  case spv::OpIAdd:
    return maskToWidth(*a + *b, width);
  case spv::OpISub:
    return maskToWidth(*a - *b, width);
  case spv::OpIMul:
    return maskToWidth(*a * *b, width);
  case spv::OpUDiv:
    return *b ? std::optional<uint64_t>(*a / *b) : std::nullopt;
  case spv::OpUMod:
    return *b ? std::optional<uint64_t>(*a % *b) : std::nullopt;
  case spv::OpSDiv:
    if (!sb || (sb == -1 && sa == INT64_MIN))
      return std::nullopt;
    return maskToWidth(static_cast<uint64_t>(sa / sb), width);
  case spv::OpSRem:
    if (!sb || (sb == -1 && sa == INT64_MIN))
      return std::nullopt;
    return maskToWidth(static_cast<uint64_t>(sa % sb), width);
  case spv::OpSMod: {
    if (!sb || (sb == -1 && sa == INT64_MIN))
      return std::nullopt;
    int64_t r = sa % sb;
    if (r != 0 && ((r < 0) != (sb < 0)))
      r += sb;
    return maskToWidth(static_cast<uint64_t>(r), width);
  }
  case spv::OpShiftLeftLogical:
    return *b >= width ? std::nullopt
                       : std::optional<uint64_t>(maskToWidth(*a << *b, width));
  case spv::OpShiftRightLogical:
    return *b >= width ? std::nullopt : std::optional<uint64_t>(*a >> *b);
  case spv::OpShiftRightArithmetic:
    return *b >= width ? std::nullopt
                       : std::optional<uint64_t>(maskToWidth(
                             static_cast<uint64_t>(sa >> *b), width));
  case spv::OpBitwiseOr:
    return *a | *b;
  case spv::OpBitwiseXor:
    return *a ^ *b;
  case spv::OpBitwiseAnd:
    return *a & *b;
  case spv::OpLogicalOr:
    return (*a || *b) ? 1 : 0;
  case spv::OpLogicalAnd:
    return (*a && *b) ? 1 : 0;
  case spv::OpLogicalEqual:
  case spv::OpIEqual:
    return *a == *b ? 1 : 0;
  case spv::OpLogicalNotEqual:
  case spv::OpINotEqual:
    return *a != *b ? 1 : 0;
  case spv::OpULessThan:
    return *a < *b ? 1 : 0;
  case spv::OpULessThanEqual:
    return *a <= *b ? 1 : 0;
  case spv::OpUGreaterThan:
    return *a > *b ? 1 : 0;
  case spv::OpUGreaterThanEqual:
    return *a >= *b ? 1 : 0;
  case spv::OpSLessThan:
    return sa < sb ? 1 : 0;
  case spv::OpSLessThanEqual:
    return sa <= sb ? 1 : 0;
  case spv::OpSGreaterThan:
    return sa > sb ? 1 : 0;
  case spv::OpSGreaterThanEqual:
    return sa >= sb ? 1 : 0;
  default:
    return std::nullopt;
  }
}

std::optional<ShaderStage> stageOf(spv::ExecutionModel model) {
  switch (model) {
  case spv::ExecutionModelGLCompute:
    return ShaderStage::Compute;
  case spv::ExecutionModelVertex:
    return ShaderStage::Vertex;
  case spv::ExecutionModelFragment:
    return ShaderStage::Fragment;
  case spv::ExecutionModelGeometry:
    return ShaderStage::Geometry;
  case spv::ExecutionModelTessellationControl:
    return ShaderStage::TessControl;
  case spv::ExecutionModelTessellationEvaluation:
    return ShaderStage::TessEvaluation;
  default:
    return std::nullopt;
  }
}

/// Execution models that have workgroups.
bool hasWorkgroups(spv::ExecutionModel model) {
  switch (model) {
  case spv::ExecutionModelGLCompute:
  case spv::ExecutionModelKernel:
  case spv::ExecutionModelTaskNV:
  case spv::ExecutionModelMeshNV:
  case spv::ExecutionModelTaskEXT:
  case spv::ExecutionModelMeshEXT:
    return true;
  default:
    return false;
  }
}

bool isAtomicOp(spv::Op op) {
  return (op >= spv::OpAtomicLoad && op <= spv::OpAtomicXor) ||
         op == spv::OpAtomicFlagTestAndSet || op == spv::OpAtomicFlagClear ||
         op == spv::OpAtomicFMinEXT || op == spv::OpAtomicFMaxEXT ||
         op == spv::OpAtomicFAddEXT;
}

bool isSubgroupOp(spv::Op op) {
  return (op >= spv::OpGroupNonUniformElect &&
          op <= spv::OpGroupNonUniformQuadSwap) ||
         op == spv::OpGroupNonUniformRotateKHR ||
         op == spv::OpGroupNonUniformPartitionNV ||
         op == spv::OpSubgroupBallotKHR ||
         op == spv::OpSubgroupFirstInvocationKHR ||
         op == spv::OpSubgroupAllKHR || op == spv::OpSubgroupAnyKHR ||
         op == spv::OpSubgroupAllEqualKHR ||
         op == spv::OpSubgroupReadInvocationKHR;
}

bool isSubgroupBuiltin(uint32_t builtin) {
  switch (builtin) {
  case spv::BuiltInSubgroupSize:
  case spv::BuiltInSubgroupMaxSize:
  case spv::BuiltInNumSubgroups:
  case spv::BuiltInSubgroupId:
  case spv::BuiltInSubgroupLocalInvocationId:
  case spv::BuiltInSubgroupEqMask:
  case spv::BuiltInSubgroupGeMask:
  case spv::BuiltInSubgroupGtMask:
  case spv::BuiltInSubgroupLeMask:
  case spv::BuiltInSubgroupLtMask:
    return true;
  default:
    return false;
  }
}

/// Capability names come from SPIRV-Tools' grammar tables, which are only
/// reachable through the disassembler: disassemble "OpCapability N" alone.
std::string capabilityName(uint32_t capability) {
  std::vector<uint32_t> words = {
      0x07230203, 0x00010600, 0, 1, 0, (2u << 16) | spv::OpCapability,
      capability};
  spvtools::SpirvTools tools(SPV_ENV_UNIVERSAL_1_6);
  std::string text;
  if (tools.Disassemble(words, &text, SPV_BINARY_TO_TEXT_OPTION_NO_HEADER)) {
    llvm::StringRef name = llvm::StringRef(text).trim();
    if (name.consume_front("OpCapability "))
      return name.str();
  }
  return "Capability" + std::to_string(capability);
}

std::vector<SpecConstantInfo> collectSpecConstants(const ModuleIndex &m,
                                                   const Analyzer &analyzer) {
  std::vector<SpecConstantInfo> result;
  for (const ParsedInstruction &inst : m.getInstructions()) {
    if (inst.opcode != spv::OpSpecConstant &&
        inst.opcode != spv::OpSpecConstantTrue &&
        inst.opcode != spv::OpSpecConstantFalse)
      continue;
    std::optional<uint32_t> specId =
        m.getDecorationArg(inst.resultId, spv::DecorationSpecId);
    if (!specId)
      continue;
    SpecConstantInfo info;
    info.specId = *specId;
    info.resultId = inst.resultId;
    info.name = m.getName(inst.resultId);
    info.type = analyzer.scalarName(inst.typeId);
    if (inst.opcode == spv::OpSpecConstant)
      info.defaultWords.assign(inst.words.begin() + 3, inst.words.end());
    else
      info.defaultWords = {inst.opcode == spv::OpSpecConstantTrue ? 1u : 0u};
    result.push_back(std::move(info));
  }
  llvm::stable_sort(result,
                    [](const SpecConstantInfo &a, const SpecConstantInfo &b) {
                      return a.specId < b.specId;
                    });
  return result;
}

class Reflector {
public:
  Reflector(const ModuleIndex &module, const SpirvBinary &binary)
      : m(module), analyzer(module), binary(binary) {}

  llvm::Expected<ModuleReflection> run();

private:
  void scanModule();
  llvm::Error resolveWorkgroupSizes();
  void addVariable(const ParsedInstruction &var);
  void addStageMode(const ParsedInstruction &mode);
  void fillBlock(ResourceInfo &resource, uint32_t structId);
  void assignSlots();
  void placeStorage(StorageLayout &layout, const ParsedInstruction &var,
                    uint32_t pointee);

  const ModuleIndex &m;
  Analyzer analyzer;
  const SpirvBinary &binary;
  ModuleReflection r;
  /// Entry point function id -> index into r.entryPoints.
  llvm::DenseMap<uint32_t, size_t> entryIndex;
  /// Function id -> LocalSize literals or LocalSizeId ids.
  std::map<uint32_t, std::array<uint32_t, 3>> localSize, localSizeId;
  /// Function ids with OpExecutionMode EarlyFragmentTests.
  llvm::DenseSet<uint32_t> earlyFragmentTests;
  /// Function id -> its geometry and tessellation execution modes.
  llvm::DenseMap<uint32_t, EntryPointInfo::GeometryModes> geometryModes;
  llvm::DenseMap<uint32_t, EntryPointInfo::TessellationModes> tessellationModes;
};

llvm::Expected<ModuleReflection> Reflector::run() {
  r.sourceName = binary.name;
  r.spirvVersion = m.getModule().version;
  r.generator = m.getModule().generator;
  r.idBound = m.getModule().bound;
  scanModule();
  if (llvm::Error err = resolveWorkgroupSizes())
    return err;
  assignSlots();
  r.specConstants = collectSpecConstants(m, analyzer);
  for (spv::Capability capability : r.capabilities)
    r.capabilityNames.push_back(capabilityName(capability));
  return std::move(r);
}

void Reflector::scanModule() {
  for (const ParsedInstruction &inst : m.getInstructions()) {
    auto op = static_cast<spv::Op>(inst.opcode);
    if (op == spv::OpControlBarrier)
      r.usesBarriers = true;
    else if (isAtomicOp(op))
      r.usesAtomics = true;
    else if (isSubgroupOp(op))
      r.usesSubgroupOps = true;

    switch (op) {
    case spv::OpCapability:
      r.capabilities.push_back(static_cast<spv::Capability>(inst.word(1)));
      break;
    case spv::OpExtension:
      r.extensions.push_back(inst.getString(1));
      break;
    case spv::OpExtInstImport:
      r.extInstImports.push_back(inst.getString(2));
      break;
    case spv::OpMemoryModel:
      r.addressingModel = static_cast<spv::AddressingModel>(inst.word(1));
      r.memoryModel = static_cast<spv::MemoryModel>(inst.word(2));
      break;
    case spv::OpEntryPoint: {
      EntryPointInfo entry;
      entry.executionModel = static_cast<spv::ExecutionModel>(inst.word(1));
      entry.stage = stageOf(entry.executionModel);
      entry.functionId = inst.word(2);
      size_t next = 0;
      entry.name = inst.getString(3, &next);
      entry.interfaceIds.assign(inst.words.begin() + next, inst.words.end());
      r.entryPoints.push_back(std::move(entry));
      break;
    }
    case spv::OpExecutionMode:
      if (inst.word(2) == spv::ExecutionModeLocalSize && inst.size() >= 6)
        localSize[inst.word(1)] = {inst.word(3), inst.word(4), inst.word(5)};
      if (inst.word(2) == spv::ExecutionModeEarlyFragmentTests)
        earlyFragmentTests.insert(inst.word(1));
      addStageMode(inst);
      break;
    case spv::OpExecutionModeId:
      if (inst.word(2) == spv::ExecutionModeLocalSizeId && inst.size() >= 6)
        localSizeId[inst.word(1)] = {inst.word(3), inst.word(4), inst.word(5)};
      break;
    case spv::OpVariable:
      addVariable(inst);
      break;
    default:
      break;
    }
  }
  for (const auto &[id, decorations] : m.getDecorations())
    for (const Decoration &d : decorations)
      if (d.kind == spv::DecorationBuiltIn && !d.args.empty() &&
          isSubgroupBuiltin(d.args[0]))
        r.usesSubgroupOps = true;
}

llvm::Error Reflector::resolveWorkgroupSizes() {
  // The WorkgroupSize builtin, if any, decides the size of every
  // compute-like entry point.
  const ParsedInstruction *builtin = nullptr;
  for (const auto &[id, decorations] : m.getDecorations())
    for (const Decoration &d : decorations)
      if (d.kind == spv::DecorationBuiltIn && !d.args.empty() &&
          d.args[0] == spv::BuiltInWorkgroupSize)
        if (const ParsedInstruction *def = m.lookup(id))
          if (def->opcode == spv::OpConstantComposite ||
              def->opcode == spv::OpSpecConstantComposite)
            builtin = def;

  auto resolve = [&](EntryPointInfo &entry, std::array<uint32_t, 3> ids,
                     WorkgroupSizeSource source) -> llvm::Error {
    for (int i = 0; i < 3; ++i) {
      std::optional<uint64_t> value = analyzer.evalInt(ids[i]);
      if (!value)
        return makeError("error: " + binary.name +
                         ": cannot resolve the workgroup size of entry "
                         "point '" +
                         entry.name + "': %" + llvm::Twine(ids[i]) +
                         " is not an integer constant");
      entry.workgroupSize[i] = static_cast<uint32_t>(*value);
      entry.workgroupSizeSpecIds[i] = std::nullopt;
      const ParsedInstruction *def = m.lookup(ids[i]);
      if (def && def->opcode == spv::OpSpecConstant)
        entry.workgroupSizeSpecIds[i] =
            m.getDecorationArg(ids[i], spv::DecorationSpecId);
    }
    entry.workgroupSizeSource = source;
    return llvm::Error::success();
  };

  for (EntryPointInfo &entry : r.entryPoints) {
    entry.earlyFragmentTests = earlyFragmentTests.contains(entry.functionId);
    entry.geometry = geometryModes.lookup(entry.functionId);
    entry.tessellation = tessellationModes.lookup(entry.functionId);
    if (!hasWorkgroups(entry.executionModel))
      continue;
    if (builtin && builtin->size() >= 6) {
      if (llvm::Error err = resolve(
              entry, {builtin->word(3), builtin->word(4), builtin->word(5)},
              WorkgroupSizeSource::WorkgroupSizeBuiltin))
        return err;
      continue;
    }
    auto ids = localSizeId.find(entry.functionId);
    if (ids != localSizeId.end()) {
      if (llvm::Error err =
              resolve(entry, ids->second, WorkgroupSizeSource::LocalSizeId))
        return err;
      continue;
    }
    auto literals = localSize.find(entry.functionId);
    if (literals != localSize.end()) {
      entry.workgroupSize = literals->second;
      entry.workgroupSizeSource = WorkgroupSizeSource::LocalSize;
    }
  }
  return llvm::Error::success();
}

void Reflector::addStageMode(const ParsedInstruction &inst) {
  uint32_t mode = inst.word(2);
  uint32_t literal = inst.size() >= 4 ? inst.word(3) : 0;
  EntryPointInfo::GeometryModes &modes = geometryModes[inst.word(1)];
  EntryPointInfo::TessellationModes &tessellation =
      tessellationModes[inst.word(1)];
  // Triangles and OutputVertices mean the same to both stages' readers.
  switch (mode) {
  case spv::ExecutionModeTriangles:
  case spv::ExecutionModeQuads:
  case spv::ExecutionModeIsolines:
    tessellation.domain = mode;
    break;
  case spv::ExecutionModeSpacingEqual:
  case spv::ExecutionModeSpacingFractionalEven:
  case spv::ExecutionModeSpacingFractionalOdd:
    tessellation.spacing = mode;
    break;
  case spv::ExecutionModeVertexOrderCw:
  case spv::ExecutionModeVertexOrderCcw:
    tessellation.vertexOrder = mode;
    break;
  case spv::ExecutionModePointMode:
    tessellation.pointMode = true;
    break;
  case spv::ExecutionModeOutputVertices:
    tessellation.outputVertices = literal;
    break;
  default:
    break;
  }
  switch (mode) {
  case spv::ExecutionModeInputPoints:
    modes.inputVertices = 1;
    break;
  case spv::ExecutionModeInputLines:
    modes.inputVertices = 2;
    break;
  case spv::ExecutionModeInputLinesAdjacency:
    modes.inputVertices = 4;
    break;
  case spv::ExecutionModeTriangles:
    modes.inputVertices = 3;
    break;
  case spv::ExecutionModeInputTrianglesAdjacency:
    modes.inputVertices = 6;
    break;
  case spv::ExecutionModeOutputPoints:
  case spv::ExecutionModeOutputLineStrip:
  case spv::ExecutionModeOutputTriangleStrip:
    modes.output = mode;
    break;
  case spv::ExecutionModeOutputVertices:
    modes.maxVertices = literal;
    break;
  case spv::ExecutionModeInvocations:
    modes.invocations = literal;
    break;
  default:
    break;
  }
}

void Reflector::addVariable(const ParsedInstruction &var) {
  auto storageClass = static_cast<spv::StorageClass>(var.word(3));
  const ParsedInstruction *pointer = m.lookup(var.typeId);
  if (!pointer || pointer->opcode != spv::OpTypePointer)
    return;
  uint32_t pointee = pointer->word(3);

  if (storageClass == spv::StorageClassWorkgroup) {
    // SPV_KHR_workgroup_memory_explicit_layout: Block structs alias at 0.
    if (m.findDecoration(pointee, spv::DecorationBlock)) {
      StorageVariable v;
      v.variableId = var.resultId;
      v.name = m.getName(var.resultId);
      v.type = analyzer.typeString(pointee);
      v.offset = 0;
      v.size = analyzer.blockSize(pointee);
      v.alignment = analyzer.naturalLayout(pointee).align;
      v.hasInitializer = var.size() > 4;
      r.workgroupStorage.size = std::max(r.workgroupStorage.size, v.size);
      r.workgroupStorage.alignment =
          std::max(r.workgroupStorage.alignment, v.alignment);
      r.workgroupStorage.variables.push_back(std::move(v));
      return;
    }
    placeStorage(r.workgroupStorage, var, pointee);
    return;
  }
  if (storageClass == spv::StorageClassPrivate) {
    placeStorage(r.privateStorage, var, pointee);
    return;
  }
  if (storageClass != spv::StorageClassStorageBuffer &&
      storageClass != spv::StorageClassUniform &&
      storageClass != spv::StorageClassUniformConstant &&
      storageClass != spv::StorageClassPushConstant)
    return;

  ResourceInfo resource;
  resource.variableId = var.resultId;
  resource.name = m.getName(var.resultId);
  // Descriptor arrays: the descriptor type is the element type.
  const ParsedInstruction *type = m.lookup(pointee);
  if (type && storageClass != spv::StorageClassPushConstant) {
    if (type->opcode == spv::OpTypeArray) {
      resource.arraySize =
          static_cast<uint32_t>(analyzer.evalInt(type->word(3)).value_or(0));
      pointee = type->word(2);
    } else if (type->opcode == spv::OpTypeRuntimeArray) {
      resource.arraySize = 0;
      pointee = type->word(2);
    }
    type = m.lookup(pointee);
  }
  if (!type)
    return;
  resource.type = analyzer.typeString(pointee);

  switch (storageClass) {
  case spv::StorageClassStorageBuffer:
    resource.kind = ResourceKind::StorageBuffer;
    break;
  case spv::StorageClassUniform:
    resource.kind = m.findDecoration(pointee, spv::DecorationBufferBlock)
                        ? ResourceKind::StorageBuffer
                        : ResourceKind::UniformBuffer;
    break;
  case spv::StorageClassPushConstant:
    resource.kind = ResourceKind::PushConstant;
    break;
  default: // UniformConstant
    if (const ParsedInstruction *image = type->opcode == spv::OpTypeSampledImage
                                             ? m.lookup(type->word(2))
                                             : type;
        image && image->opcode == spv::OpTypeImage) {
      ImageInfo info;
      info.dim = static_cast<spv::Dim>(image->word(3));
      info.depth = image->word(4) == 1;
      info.arrayed = image->word(5) != 0;
      info.multisampled = image->word(6) != 0;
      info.sampled = image->word(7);
      info.format = static_cast<spv::ImageFormat>(image->word(8));
      if (const ParsedInstruction *component = m.lookup(image->word(2))) {
        info.componentBits = component->word(2);
        info.componentKind = component->opcode == spv::OpTypeFloat ? 'f'
                             : component->word(3)                  ? 'i'
                                                                   : 'u';
      }
      resource.image = info;
    }
    switch (type->opcode) {
    case spv::OpTypeImage: {
      uint32_t dim = type->word(3), sampled = type->word(7);
      if (dim == spv::DimSubpassData)
        resource.kind = ResourceKind::InputAttachment;
      else if (dim == spv::DimBuffer)
        resource.kind = sampled == 2 ? ResourceKind::StorageTexelBuffer
                                     : ResourceKind::UniformTexelBuffer;
      else
        resource.kind = sampled == 2 ? ResourceKind::StorageImage
                                     : ResourceKind::SampledImage;
      break;
    }
    case spv::OpTypeSampledImage: {
      // GLSL's samplerBuffer is a sampled image of a Dim Buffer image, bound
      // as a uniform texel buffer.
      const ParsedInstruction *image = m.lookup(type->word(2));
      resource.kind = image && image->word(3) == spv::DimBuffer
                          ? ResourceKind::UniformTexelBuffer
                          : ResourceKind::CombinedImageSampler;
      break;
    }
    case spv::OpTypeSampler:
      resource.kind = ResourceKind::Sampler;
      break;
    case spv::OpTypeAccelerationStructureKHR:
      resource.kind = ResourceKind::AccelerationStructure;
      break;
    default:
      // Loose OpenGL-style uniforms are not Vulkan resources.
      return;
    }
    break;
  }

  if (resource.kind != ResourceKind::PushConstant) {
    resource.set =
        m.getDecorationArg(var.resultId, spv::DecorationDescriptorSet)
            .value_or(0);
    resource.binding =
        m.getDecorationArg(var.resultId, spv::DecorationBinding).value_or(0);
  }
  resource.nonWritable =
      m.findDecoration(var.resultId, spv::DecorationNonWritable);
  resource.nonReadable =
      m.findDecoration(var.resultId, spv::DecorationNonReadable);

  bool isBuffer = resource.kind == ResourceKind::StorageBuffer ||
                  resource.kind == ResourceKind::UniformBuffer ||
                  resource.kind == ResourceKind::PushConstant;
  if (isBuffer) {
    if (type->opcode == spv::OpTypeStruct)
      fillBlock(resource, pointee);
    else
      resource.staticSize = analyzer.blockSize(pointee);
  }

  if (resource.kind == ResourceKind::PushConstant) {
    if (!r.pushConstants || r.pushConstants->staticSize < resource.staticSize)
      r.pushConstants = std::move(resource);
    r.pushConstantSize = r.pushConstants->staticSize;
    return;
  }
  r.resources.push_back(std::move(resource));
}

void Reflector::fillBlock(ResourceInfo &resource, uint32_t structId) {
  const ParsedInstruction *type = m.lookup(structId);
  resource.blockTypeName = m.getName(structId);
  uint32_t memberCount = static_cast<uint32_t>(type->size() - 2);
  bool allNonWritable = memberCount > 0, allNonReadable = memberCount > 0;
  for (uint32_t i = 0; i < memberCount; ++i) {
    uint32_t memberType = type->word(2 + i);
    MatrixLayout layout = analyzer.memberMatrixLayout(structId, i);
    BlockMember member;
    member.name = m.getMemberName(structId, i);
    if (const Decoration *d =
            m.findMemberDecoration(structId, i, spv::DecorationOffset))
      member.offset = d->args.empty() ? 0 : d->args[0];
    member.size = analyzer.blockSize(memberType, layout);
    member.type = analyzer.typeString(memberType, layout);
    resource.staticSize =
        std::max<uint64_t>(resource.staticSize, member.offset + member.size);
    const ParsedInstruction *def = m.lookup(memberType);
    if (def && def->opcode == spv::OpTypeRuntimeArray && i + 1 == memberCount) {
      resource.runtimeArrayOffset = member.offset;
      resource.runtimeArrayStride =
          m.getDecorationArg(memberType, spv::DecorationArrayStride)
              .value_or(analyzer.blockSize(def->word(2), layout));
    }
    allNonWritable &= m.findMemberDecoration(
                          structId, i, spv::DecorationNonWritable) != nullptr;
    allNonReadable &= m.findMemberDecoration(
                          structId, i, spv::DecorationNonReadable) != nullptr;
    resource.members.push_back(std::move(member));
  }
  resource.nonWritable |= allNonWritable;
  resource.nonReadable |= allNonReadable;
}

void Reflector::assignSlots() {
  llvm::stable_sort(r.resources,
                    [](const ResourceInfo &a, const ResourceInfo &b) {
                      return std::tie(a.set, a.binding, a.variableId) <
                             std::tie(b.set, b.binding, b.variableId);
                    });
  uint32_t next = 0;
  for (size_t i = 0; i < r.resources.size(); ++i) {
    ResourceInfo &resource = r.resources[i];
    uint32_t count = std::max<uint32_t>(resource.arraySize, 1);
    if (i > 0 && r.resources[i - 1].set == resource.set &&
        r.resources[i - 1].binding == resource.binding) {
      // An alias: same slot, and the binding spans the larger array.
      resource.slot = r.resources[i - 1].slot;
      next = std::max(next, resource.slot + count);
      continue;
    }
    resource.slot = next;
    next += count;
  }
  r.bindingTableSize = next;
}

void Reflector::placeStorage(StorageLayout &layout,
                             const ParsedInstruction &var, uint32_t pointee) {
  SizeAlign sa = analyzer.naturalLayout(pointee);
  StorageVariable v;
  v.variableId = var.resultId;
  v.name = m.getName(var.resultId);
  v.type = analyzer.typeString(pointee);
  v.offset = llvm::alignTo(layout.size, sa.align);
  v.size = sa.size;
  v.alignment = sa.align;
  v.hasInitializer = var.size() > 4;
  layout.size = v.offset + v.size;
  layout.alignment = std::max(layout.alignment, sa.align);
  layout.variables.push_back(std::move(v));
}

} // namespace

llvm::StringRef spvb::getCompiledStageName(uint32_t executionModel) {
  switch (executionModel) {
  case spv::ExecutionModelGLCompute:
    return "compute";
  case spv::ExecutionModelVertex:
    return "vertex";
  case spv::ExecutionModelTessellationControl:
    return "tessellation control";
  case spv::ExecutionModelTessellationEvaluation:
    return "tessellation evaluation";
  case spv::ExecutionModelGeometry:
    return "geometry";
  case spv::ExecutionModelFragment:
    return "fragment";
  default:
    return "";
  }
}

llvm::StringRef spvb::getResourceKindName(ResourceKind kind) {
  switch (kind) {
  case ResourceKind::StorageBuffer:
    return "storage-buffer";
  case ResourceKind::UniformBuffer:
    return "uniform-buffer";
  case ResourceKind::PushConstant:
    return "push-constant";
  case ResourceKind::StorageImage:
    return "storage-image";
  case ResourceKind::SampledImage:
    return "sampled-image";
  case ResourceKind::CombinedImageSampler:
    return "combined-image-sampler";
  case ResourceKind::Sampler:
    return "sampler";
  case ResourceKind::UniformTexelBuffer:
    return "uniform-texel-buffer";
  case ResourceKind::StorageTexelBuffer:
    return "storage-texel-buffer";
  case ResourceKind::InputAttachment:
    return "input-attachment";
  case ResourceKind::AccelerationStructure:
    return "acceleration-structure";
  }
  llvm_unreachable("unknown resource kind");
}

const EntryPointInfo *
ModuleReflection::findEntryPoint(llvm::StringRef name) const {
  for (const EntryPointInfo &entry : entryPoints)
    if (entry.name == name)
      return &entry;
  return nullptr;
}

llvm::Expected<const EntryPointInfo *>
ModuleReflection::getEntryPoint(llvm::StringRef name) const {
  if (const EntryPointInfo *entry = findEntryPoint(name))
    return entry;
  std::string available;
  for (const EntryPointInfo &entry : entryPoints)
    available += (available.empty() ? "" : ", ") + entry.name;
  if (available.empty())
    available = "none";
  return makeError("error: " + sourceName + ": no entry point named '" + name +
                   "' (available: " + available + ")");
}

const ResourceInfo *ModuleReflection::findResource(uint32_t set,
                                                   uint32_t binding) const {
  for (const ResourceInfo &resource : resources)
    if (resource.set == set && resource.binding == binding)
      return &resource;
  return nullptr;
}

const SpecConstantInfo *
ModuleReflection::findSpecConstant(uint32_t specId) const {
  for (const SpecConstantInfo &spec : specConstants)
    if (spec.specId == specId)
      return &spec;
  return nullptr;
}

llvm::Expected<ModuleReflection>
spvb::reflectModule(const SpirvBinary &binary) {
  llvm::Expected<ModuleIndex> module = ModuleIndex::build(binary);
  if (!module)
    return module.takeError();
  return Reflector(*module, binary).run();
}

llvm::Expected<std::vector<SpecConstantInfo>>
spvb::listSpecConstants(const SpirvBinary &binary) {
  llvm::Expected<ModuleIndex> module = ModuleIndex::build(binary);
  if (!module)
    return module.takeError();
  Analyzer analyzer(*module);
  return collectSpecConstants(*module, analyzer);
}
