//===- Deserializer.cpp - SPIR-V binary to MLIR spirv dialect -------------===//
//
// Two passes over the parsed instructions: module-level declarations (names,
// decorations, types, constants, globals, function signatures), then function
// bodies. Constants, undefs and global addresses are built lazily into a
// per-function prologue that is spliced after the entry block's variables.
//
//===----------------------------------------------------------------------===//
#include "spvbridge/spirv/Deserializer.h"

#include "ParsedModule.h"
#include "spvbridge/spirv/LocationFormat.h"
#include "spvbridge/spirv/SpvbDialect.h"

#include "mlir/Dialect/SPIRV/IR/SPIRVAttributes.h"
#include "mlir/Dialect/SPIRV/IR/SPIRVDialect.h"
#include "mlir/Dialect/SPIRV/IR/SPIRVTypes.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Verifier.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/FormatVariadic.h"

#include <spirv/unified1/GLSL.std.450.h>
#include <spirv/unified1/NonSemanticShaderDebugInfo100.h>
#include <spirv/unified1/spirv.hpp>

using namespace mlir;
using namespace spvb;

/// The pre-NonSemantic debug information sets: no execution semantics.
static bool isDebugInfoSet(llvm::StringRef set) {
  return set == "DebugInfo" || set == "OpenCL.DebugInfo.100";
}

void spvb::registerDeserializerDialects(MLIRContext &context) {
  context.loadDialect<spirv::SPIRVDialect, SpvbDialect>();
}

namespace {

struct DecorationInfo {
  uint32_t decoration;
  std::vector<uint32_t> literals;
};

/// A module-level constant before it is materialized in a function.
struct ConstantInfo {
  uint32_t typeId = 0;
  enum Kind { Scalar, Composite, Null, Undef, Operation } kind = Scalar;
  Attribute scalar;                 // Scalar
  std::vector<uint32_t> components; // Composite
  /// Operation: an OpSpecConstantOp that specialization could not fold.
  const ParsedInstruction *operation = nullptr;
};

/// Where the deserializer reports an error; raised as llvm::Error once.
class DeserializeError {
public:
  explicit operator bool() const { return !message.empty(); }
  std::string message;
};

class Deserializer {
public:
  Deserializer(const SpirvBinary &binary, const ParsedModule &parsed,
               MLIRContext &context, bool debugInfo)
      : binary(binary), parsed(parsed), context(context), builder(&context),
        debugInfo(debugInfo) {}

  llvm::Expected<OwningOpRef<ModuleOp>> run();

private:
  // Module-level passes.
  LogicalResult collectDebugAndDecorations();
  LogicalResult processDeclarations();
  LogicalResult processType(const ParsedInstruction &inst);
  /// kDebugTypeNamesAttr's tree for the type `typeId`.
  Attribute getDebugTypeNames(uint32_t typeId);
  /// Sets the debug attributes of the variable `id` of pointer type
  /// `pointerTypeId`.
  void setDebugNames(Operation *variable, uint32_t id, uint32_t pointerTypeId);
  LogicalResult processConstant(const ParsedInstruction &inst);
  LogicalResult processGlobalVariable(const ParsedInstruction &inst);
  LogicalResult declareFunctions();
  LogicalResult processFunctions();
  LogicalResult processFunction(size_t begin, size_t end);
  LogicalResult processInstruction(const ParsedInstruction &inst);
  LogicalResult processExtInst(const ParsedInstruction &inst);
  LogicalResult processAtomic(const ParsedInstruction &inst);
  LogicalResult processImage(const ParsedInstruction &inst);
  LogicalResult processSubgroup(const ParsedInstruction &inst);
  LogicalResult processBranch(const ParsedInstruction &inst);
  Block *createForwardingBlock(Block *dest, SmallVector<Value> &operands,
                               Location loc);
  void emitEntryPoints();

  // Helpers.
  LogicalResult fail(const ParsedInstruction &inst, const llvm::Twine &msg);
  Type getType(uint32_t id);
  Value getValue(uint32_t id);
  Value materializeConstant(uint32_t id);
  Value materializeNull(Type type);
  std::optional<uint64_t> getConstantInt(uint32_t id);
  SmallVector<Value> getSuccessorOperands(Block *target);
  Location currentLocation(const ParsedInstruction &inst);
  std::string uniqueSymbol(llvm::StringRef base, uint32_t id);
  bool hasDecoration(uint32_t id, uint32_t decoration,
                     uint32_t *literal = nullptr);
  Value addressOf(spirv::GlobalVariableOp global);
  bool isUnsignedType(uint32_t typeId) const;
  LogicalResult divideProjectiveCoordinate(const ParsedInstruction &inst,
                                           SmallVectorImpl<Value> &operands);
  LogicalResult splitBuiltinBlock(const ParsedInstruction &inst,
                                  spirv::PointerType pointerType,
                                  llvm::StringRef symbol);
  LogicalResult useBuiltinBlock(const ParsedInstruction &inst, Type resultType);
  static uint32_t getLocationCount(Type type);
  Operation *createGeneric(llvm::StringRef name, Location loc,
                           TypeRange results, ValueRange operands,
                           ArrayRef<NamedAttribute> attrs = {});
  /// Whether a pointer (or its pointee) is a PhysicalStorageBuffer pointer:
  /// the dialect wants those declared Aliased or Restrict.
  static bool holdsBufferReference(Type type) {
    auto isReference = [](Type t) {
      auto pointer = dyn_cast<spirv::PointerType>(t);
      return pointer && pointer.getStorageClass() ==
                            spirv::StorageClass::PhysicalStorageBuffer;
    };
    if (isReference(type))
      return true;
    auto pointer = dyn_cast<spirv::PointerType>(type);
    if (!pointer)
      return false;
    Type pointee = pointer.getPointeeType();
    if (auto array = dyn_cast<spirv::ArrayType>(pointee))
      pointee = array.getElementType();
    return isReference(pointee);
  }
  void mapResult(const ParsedInstruction &inst, Value value) {
    values[inst.resultId] = value;
  }

  const SpirvBinary &binary;
  const ParsedModule &parsed;
  MLIRContext &context;
  OpBuilder builder;
  ModuleOp module;
  std::string errorMessage;
  bool debugInfo;

  // Debug information.
  llvm::DenseMap<uint32_t, std::string> names;
  llvm::DenseMap<uint32_t, std::map<uint32_t, std::string>> memberNames;
  llvm::DenseMap<uint32_t, std::string> strings;
  uint32_t shaderDebugInfoSet = 0;
  /// NonSemantic.Shader.DebugInfo.100's scopes: a DebugFunction's name and
  /// line, a DebugLexicalBlock's parent, a DebugInlinedAt's call line,
  /// caller scope and outer DebugInlinedAt.
  struct DebugScopeInfo {
    std::string functionName;
    uint32_t line = 0, parent = 0, source = 0;
  };
  struct DebugInlinedAtInfo {
    uint32_t line = 0, scope = 0, inlinedAt = 0;
  };
  struct DebugLocalVariableInfo {
    std::string name;
    uint32_t line = 0, argument = 0, source = 0, scope = 0;
  };
  llvm::DenseMap<uint32_t, DebugScopeInfo> debugScopes;
  llvm::DenseMap<uint32_t, DebugInlinedAtInfo> debugInlinedAts;
  llvm::DenseMap<uint32_t, DebugLocalVariableInfo> debugLocalVariables;
  llvm::DenseSet<uint32_t> emptyDebugExpressions;
  /// The DebugScope in effect: its scope and DebugInlinedAt (0 for none).
  uint32_t currentScope = 0, currentInlinedAt = 0;
  /// In the function being read: its own DebugFunction, and the last
  /// DebugInlinedAt of each function inlined into it.
  const DebugScopeInfo *currentFunctionScope = nullptr;
  llvm::DenseMap<const DebugScopeInfo *, uint32_t> lastInlinedAt;
  void collectShaderDebugInfo(const ParsedInstruction &inst);
  const DebugScopeInfo *getScopeFunction(uint32_t scope);
  Location getInlinedLocation(Location loc, uint32_t scope, uint32_t inlinedAt,
                              unsigned depth = 0);
  /// Result id -> type id, for the types of DebugValue's values.
  llvm::DenseMap<uint32_t, uint32_t> resultTypeIds;
  void processDebugValue(const ParsedInstruction &inst);
  /// Source text the module carries, by file name.
  std::map<std::string, std::string> sourceTexts;
  std::string lastSourceFile;
  llvm::DenseMap<uint32_t, std::string> debugSources;
  llvm::DenseMap<uint32_t, uint32_t> literalConstants;
  std::optional<FileLineColLoc> currentLine;
  const ParsedInstruction *currentInst = nullptr;

  // Module-level tables.
  llvm::DenseMap<uint32_t, std::vector<DecorationInfo>> decorations;
  llvm::DenseMap<uint32_t, std::map<uint32_t, std::vector<DecorationInfo>>>
      memberDecorations;
  llvm::DenseMap<uint32_t, Type> types;
  llvm::DenseMap<uint32_t, uint32_t> pointeeTypeIds;
  /// Each type's first component type (arrays, vectors, matrices: the
  /// element; structs: the members), and the unsigned OpTypeInts: where
  /// isUnsignedType looks for the signedness the dialect drops.
  llvm::DenseMap<uint32_t, llvm::SmallVector<uint32_t, 1>> componentTypeIds;
  llvm::DenseSet<uint32_t> unsignedIntTypeIds;
  /// Structs reached through OpTypeForwardPointer before their definition:
  /// identified structs whose body is set when the OpTypeStruct comes.
  llvm::DenseMap<uint32_t, spirv::StructType> pendingStructs;
  llvm::DenseMap<uint32_t, ConstantInfo> constants;
  llvm::DenseMap<uint32_t, spirv::GlobalVariableOp> globals;
  /// Whether the module lays out Workgroup memory itself: its Workgroup
  /// variables are Blocks (SPV_KHR_workgroup_memory_explicit_layout: all
  /// or none are).
  bool explicitWorkgroupLayout = false;
  /// Input blocks whose members are builtins (clspv's {LocalInvocationId,
  /// WorkgroupId}): a builtin variable per member instead.
  llvm::DenseMap<uint32_t, SmallVector<spirv::GlobalVariableOp>> builtinBlocks;
  llvm::DenseMap<uint32_t, uint32_t> privateInitializers;
  llvm::DenseMap<uint32_t, std::string> extInstSets;
  llvm::DenseMap<uint32_t, spirv::FuncOp> functions;
  llvm::StringSet<> usedSymbols;
  llvm::DenseMap<uint32_t, std::string> reservedFunctionNames;
  struct EntryPoint {
    spirv::ExecutionModel model;
    uint32_t functionId;
    std::string name;
    std::vector<uint32_t> interface;
  };
  std::vector<EntryPoint> entryPoints;
  std::vector<const ParsedInstruction *> executionModes;
  uint32_t addressingModel = spv::AddressingModelLogical;
  uint32_t memoryModel = spv::MemoryModelGLSL450;

  // Per-function state.
  llvm::DenseMap<uint32_t, Value> values;
  llvm::DenseMap<uint32_t, Block *> blocks;
  /// OpPhi instructions per block, in order: they become block arguments.
  llvm::DenseMap<Block *, std::vector<const ParsedInstruction *>> phis;
  Block *currentBlock = nullptr;
  uint32_t currentLabel = 0;
  /// Constants, undefs and global addresses used by the function; spliced
  /// into the entry block after its variables.
  std::unique_ptr<Block> prologue;
};

} // namespace

//===----------------------------------------------------------------------===//
// Helpers
//===----------------------------------------------------------------------===//

LogicalResult Deserializer::fail(const ParsedInstruction &inst,
                                 const llvm::Twine &msg) {
  std::string where = binary.name;
  if (currentLine)
    where += llvm::formatv(": {0}:{1}", currentLine->getFilename().getValue(),
                           currentLine->getLine())
                 .str();
  std::string what = getOpcodeName(inst.opcode);
  if (inst.resultId) {
    what += " %" + std::to_string(inst.resultId);
    auto it = names.find(inst.resultId);
    if (it != names.end() && !it->second.empty())
      what += " '" + it->second + "'";
  }
  if (errorMessage.empty())
    errorMessage =
        llvm::formatv("error: {0}: {1} (instruction {2} at word {3})", where,
                      msg.str(), what, inst.wordOffset)
            .str();
  return failure();
}

Location Deserializer::currentLocation(const ParsedInstruction &inst) {
  Location loc =
      currentLine ? Location(*currentLine) : UnknownLoc::get(&context);
  if (currentLine && currentInlinedAt && debugInfo)
    loc = getInlinedLocation(loc, currentScope, currentInlinedAt);
  if (inst.resultId) {
    auto it = names.find(inst.resultId);
    if (it != names.end() && !it->second.empty())
      return NameLoc::get(StringAttr::get(&context, it->second), loc);
  }
  return loc;
}

std::string Deserializer::uniqueSymbol(llvm::StringRef base, uint32_t id) {
  // glslang names functions "foo(vf3;": keep the readable part.
  std::string name = base.take_until([](char c) { return c == '('; }).str();
  if (name.empty())
    name = "id" + std::to_string(id);
  if (usedSymbols.insert(name).second)
    return name;
  std::string unique = name + "_" + std::to_string(id);
  usedSymbols.insert(unique);
  return unique;
}

bool Deserializer::hasDecoration(uint32_t id, uint32_t decoration,
                                 uint32_t *literal) {
  auto it = decorations.find(id);
  if (it == decorations.end())
    return false;
  for (const DecorationInfo &info : it->second) {
    if (info.decoration != decoration)
      continue;
    if (literal && !info.literals.empty())
      *literal = info.literals[0];
    return true;
  }
  return false;
}

/// Whether the integers of type \p typeId are unsigned: its own or its
/// first component's, recursively (a struct mixing signedness is not an
/// interface any shader compiler emits).
bool Deserializer::isUnsignedType(uint32_t typeId) const {
  for (unsigned depth = 0; depth < 16; ++depth) {
    if (unsignedIntTypeIds.contains(typeId))
      return true;
    auto it = componentTypeIds.find(typeId);
    if (it == componentTypeIds.end() || it->second.empty())
      return false;
    typeId = it->second.front();
  }
  return false;
}

/// An interface block (an Input or Output struct with member decorations:
/// gl_PerVertex, clspv's {LocalInvocationId, WorkgroupId}, a user block)
/// becomes a variable per member, with the member's decorations; the block
/// itself is only reached through OpAccessChain and OpLoad.
LogicalResult Deserializer::splitBuiltinBlock(const ParsedInstruction &inst,
                                              spirv::PointerType pointerType,
                                              llvm::StringRef symbol) {
  auto block = dyn_cast<spirv::StructType>(pointerType.getPointeeType());
  const auto &members =
      memberDecorations.find(pointeeTypeIds.lookup(inst.typeId))->second;
  if (!block)
    return fail(inst, "an interface variable with member decorations must be "
                      "a struct");
  // Members without a Location follow the previous member's locations.
  uint32_t nextLocation = 0;
  bool hasLocation =
      hasDecoration(inst.resultId, spv::DecorationLocation, &nextLocation);
  SmallVector<spirv::GlobalVariableOp> variables;
  for (unsigned i = 0; i < block.getNumElements(); ++i) {
    std::optional<spirv::BuiltIn> builtin;
    std::optional<uint32_t> location, component;
    SmallVector<StringRef> flags;
    auto member = members.find(i);
    if (member != members.end())
      for (const DecorationInfo &info : member->second) {
        uint32_t literal = info.literals.empty() ? 0 : info.literals[0];
        switch (info.decoration) {
        case spv::DecorationBuiltIn:
          builtin = spirv::symbolizeBuiltIn(literal);
          break;
        case spv::DecorationLocation:
          location = literal;
          break;
        case spv::DecorationComponent:
          component = literal;
          break;
        case spv::DecorationFlat:
          flags.push_back(kFlatAttr);
          break;
        case spv::DecorationNoPerspective:
          flags.push_back(kNoPerspectiveAttr);
          break;
        case spv::DecorationCentroid:
          flags.push_back(kCentroidAttr);
          break;
        case spv::DecorationSample:
          flags.push_back(kSampleAttr);
          break;
        default:
          break;
        }
      }
    Type memberType = block.getElementType(i);
    if (!builtin && !location && !hasLocation)
      return fail(inst, "member " + llvm::Twine(i) +
                            " of an interface block has neither a BuiltIn "
                            "nor a Location decoration");
    if (!builtin && !location)
      location = nextLocation;
    if (location)
      nextLocation = *location + getLocationCount(memberType);
    auto type =
        spirv::PointerType::get(memberType, pointerType.getStorageClass());
    std::string name =
        builtin ? (symbol + "_" + spirv::stringifyBuiltIn(*builtin)).str()
                : (symbol + "_" + llvm::Twine(i)).str();
    auto variable = spirv::GlobalVariableOp::create(
        builder, currentLocation(inst), type, uniqueSymbol(name, inst.resultId),
        /*initializer=*/nullptr,
        location ? builder.getI32IntegerAttr(*location) : IntegerAttr(),
        /*binding=*/nullptr, /*set=*/nullptr,
        builtin ? builder.getStringAttr(spirv::stringifyBuiltIn(*builtin))
                : StringAttr(),
        /*linkage=*/nullptr);
    if (component)
      variable->setAttr(kComponentAttr, builder.getI32IntegerAttr(*component));
    auto memberTypes =
        componentTypeIds.find(pointeeTypeIds.lookup(inst.typeId));
    if (!builtin && memberTypes != componentTypeIds.end() &&
        i < memberTypes->second.size() &&
        isUnsignedType(memberTypes->second[i]))
      variable->setAttr(kUnsignedAttr, builder.getUnitAttr());
    for (StringRef flag : flags)
      variable->setAttr(flag, builder.getUnitAttr());
    variables.push_back(variable);
  }
  builtinBlocks[inst.resultId] = std::move(variables);
  return success();
}

/// How many Locations a value of `type` consumes (Vulkan's "Location
/// Assignment"): 64-bit vectors of 3 or 4 components take two.
uint32_t Deserializer::getLocationCount(Type type) {
  if (auto array = dyn_cast<spirv::ArrayType>(type))
    return array.getNumElements() * getLocationCount(array.getElementType());
  if (auto matrix = dyn_cast<spirv::MatrixType>(type))
    return matrix.getNumColumns() * getLocationCount(matrix.getColumnType());
  if (auto structType = dyn_cast<spirv::StructType>(type)) {
    uint32_t count = 0;
    for (Type member : structType.getElementTypes())
      count += getLocationCount(member);
    return count;
  }
  auto vector = dyn_cast<VectorType>(type);
  unsigned bits =
      (vector ? vector.getElementType() : type).getIntOrFloatBitWidth();
  return bits == 64 && vector && vector.getNumElements() > 2 ? 2 : 1;
}

LogicalResult Deserializer::useBuiltinBlock(const ParsedInstruction &inst,
                                            Type resultType) {
  const SmallVector<spirv::GlobalVariableOp> &variables =
      builtinBlocks.find(inst.arg(0))->second;
  Location loc = currentLocation(inst);
  if (inst.opcode == spv::OpLoad) {
    SmallVector<Value> parts;
    for (spirv::GlobalVariableOp variable : variables)
      parts.push_back(spirv::LoadOp::create(builder, loc, addressOf(variable)));
    mapResult(inst, spirv::CompositeConstructOp::create(builder, loc,
                                                        resultType, parts));
    return success();
  }
  std::optional<uint64_t> member =
      inst.getNumArgs() > 1 ? getConstantInt(inst.arg(1)) : std::nullopt;
  if (!member || *member >= variables.size())
    return fail(inst, "an interface block is indexed by a constant member "
                      "number");
  Value address = addressOf(variables[*member]);
  if (inst.getNumArgs() > 2) {
    SmallVector<Value> operands{address};
    for (unsigned i = 2; i < inst.getNumArgs(); ++i)
      operands.push_back(getValue(inst.arg(i)));
    address = createGeneric("spirv.AccessChain", loc, resultType, operands)
                  ->getResult(0);
  }
  mapResult(inst, address);
  return success();
}

Type Deserializer::getType(uint32_t id) { return types.lookup(id); }

std::optional<uint64_t> Deserializer::getConstantInt(uint32_t id) {
  auto it = constants.find(id);
  if (it == constants.end())
    return std::nullopt;
  if (it->second.kind == ConstantInfo::Null)
    return 0;
  if (auto intAttr = dyn_cast_or_null<IntegerAttr>(it->second.scalar))
    return intAttr.getValue().getZExtValue();
  if (auto boolAttr = dyn_cast_or_null<BoolAttr>(it->second.scalar))
    return boolAttr.getValue();
  return std::nullopt;
}

Operation *Deserializer::createGeneric(llvm::StringRef name, Location loc,
                                       TypeRange results, ValueRange operands,
                                       ArrayRef<NamedAttribute> attrs) {
  OperationState state(loc, name);
  state.addOperands(operands);
  state.addTypes(results);
  state.addAttributes(attrs);
  return builder.create(state);
}

Value Deserializer::getValue(uint32_t id) {
  auto it = values.find(id);
  if (it != values.end())
    return it->second;
  if (constants.count(id))
    return materializeConstant(id);
  auto global = globals.find(id);
  if (global != globals.end()) {
    Value address = addressOf(global->second);
    values[id] = address;
    return address;
  }
  return nullptr;
}

Value Deserializer::addressOf(spirv::GlobalVariableOp global) {
  OpBuilder::InsertionGuard guard(builder);
  builder.setInsertionPointToEnd(prologue.get());
  return spirv::AddressOfOp::create(builder, global.getLoc(), global);
}

Value Deserializer::materializeNull(Type type) {
  Location loc = UnknownLoc::get(&context);
  if (type.isInteger(1))
    return spirv::ConstantOp::create(builder, loc, type,
                                     builder.getBoolAttr(false));
  if (isa<IntegerType>(type))
    return spirv::ConstantOp::create(builder, loc, type,
                                     builder.getIntegerAttr(type, 0));
  if (isa<FloatType>(type))
    return spirv::ConstantOp::create(builder, loc, type,
                                     builder.getFloatAttr(type, 0.0));
  if (auto vector = dyn_cast<VectorType>(type)) {
    Type element = vector.getElementType();
    Attribute zero = element.isInteger(1)
                         ? Attribute(builder.getBoolAttr(false))
                     : isa<IntegerType>(element)
                         ? Attribute(builder.getIntegerAttr(element, 0))
                         : Attribute(builder.getFloatAttr(element, 0.0));
    return spirv::ConstantOp::create(builder, loc, type,
                                     DenseElementsAttr::get(vector, zero));
  }
  SmallVector<Value> parts;
  if (auto array = dyn_cast<spirv::ArrayType>(type)) {
    Value element = materializeNull(array.getElementType());
    parts.assign(array.getNumElements(), element);
  } else if (auto matrix = dyn_cast<spirv::MatrixType>(type)) {
    Value column = materializeNull(matrix.getColumnType());
    parts.assign(matrix.getNumColumns(), column);
  } else if (auto structType = dyn_cast<spirv::StructType>(type)) {
    for (Type member : structType.getElementTypes())
      parts.push_back(materializeNull(member));
  } else {
    return spirv::UndefOp::create(builder, loc, type);
  }
  return spirv::CompositeConstructOp::create(builder, loc, type, parts);
}

Value Deserializer::materializeConstant(uint32_t id) {
  const ConstantInfo &info = constants.find(id)->second;
  Type type = getType(info.typeId);
  OpBuilder::InsertionGuard guard(builder);
  builder.setInsertionPointToEnd(prologue.get());
  Location loc = UnknownLoc::get(&context);
  Value result;
  switch (info.kind) {
  case ConstantInfo::Scalar:
    result = spirv::ConstantOp::create(builder, loc, type, info.scalar);
    break;
  case ConstantInfo::Null:
    result = materializeNull(type);
    break;
  case ConstantInfo::Undef:
    result = spirv::UndefOp::create(builder, loc, type);
    break;
  case ConstantInfo::Operation: {
    // Build the embedded instruction: same words, opcode from operand 0.
    ParsedInstruction embedded = *info.operation;
    embedded.opcode = embedded.arg(0);
    embedded.operands.erase(embedded.operands.begin());
    if (failed(processInstruction(embedded)))
      return nullptr;
    return values.lookup(id);
  }
  case ConstantInfo::Composite: {
    // Vectors of scalar constants become one dense constant.
    if (auto vector = dyn_cast<VectorType>(type)) {
      SmallVector<Attribute> elements;
      for (uint32_t component : info.components) {
        auto it = constants.find(component);
        if (it == constants.end() || it->second.kind == ConstantInfo::Undef)
          break;
        if (it->second.kind == ConstantInfo::Null) {
          Type element = vector.getElementType();
          elements.push_back(
              element.isInteger(1) ? Attribute(builder.getBoolAttr(false))
              : isa<IntegerType>(element)
                  ? Attribute(builder.getIntegerAttr(element, 0))
                  : Attribute(builder.getFloatAttr(element, 0.0)));
          continue;
        }
        elements.push_back(it->second.scalar);
      }
      if (elements.size() == info.components.size() &&
          llvm::all_of(elements, [](Attribute a) { return a != nullptr; })) {
        result = spirv::ConstantOp::create(
            builder, loc, type, DenseElementsAttr::get(vector, elements));
        break;
      }
    }
    SmallVector<Value> parts;
    for (uint32_t component : info.components)
      parts.push_back(getValue(component));
    builder.setInsertionPointToEnd(prologue.get());
    result = spirv::CompositeConstructOp::create(builder, loc, type, parts);
    break;
  }
  }
  values[id] = result;
  return result;
}

SmallVector<Value> Deserializer::getSuccessorOperands(Block *target) {
  SmallVector<Value> operands;
  auto it = phis.find(target);
  if (it == phis.end())
    return operands;
  for (const ParsedInstruction *phi : it->second) {
    Value incoming;
    for (unsigned i = 0; i + 1 < phi->getNumArgs(); i += 2)
      if (phi->arg(i + 1) == currentLabel) {
        incoming = getValue(phi->arg(i));
        break;
      }
    if (!incoming) {
      // An OpPhi must name every predecessor; a missing one is a validation
      // error, but keep the CFG well formed for the verifier's message.
      incoming = spirv::UndefOp::create(builder, builder.getUnknownLoc(),
                                        getType(phi->typeId));
    }
    operands.push_back(incoming);
  }
  return operands;
}

//===----------------------------------------------------------------------===//
// Module-level declarations
//===----------------------------------------------------------------------===//

/// What the debug information needs of NonSemantic.Shader.DebugInfo.100:
/// source files and text, function and block scopes, inlining, local
/// variables. Its numbers are ids of constants.
void Deserializer::collectShaderDebugInfo(const ParsedInstruction &inst) {
  auto number = [&](unsigned i) {
    return i < inst.getNumArgs() ? literalConstants.lookup(inst.arg(i)) : 0;
  };
  auto id = [&](unsigned i) { return i < inst.getNumArgs() ? inst.arg(i) : 0; };
  switch (inst.arg(1)) {
  case NonSemanticShaderDebugInfo100DebugSource:
    lastSourceFile = strings.lookup(id(2));
    debugSources[inst.resultId] = lastSourceFile;
    if (inst.getNumArgs() > 3)
      sourceTexts[lastSourceFile] = strings.lookup(inst.arg(3));
    break;
  case NonSemanticShaderDebugInfo100DebugSourceContinued:
    sourceTexts[lastSourceFile] += strings.lookup(id(2));
    break;
  case NonSemanticShaderDebugInfo100DebugFunction: {
    // glslang names functions with their parameter types: "collatz(u1;".
    std::string name = strings.lookup(id(2));
    name = name.substr(0, name.find('('));
    debugScopes[inst.resultId] = {name, number(5), 0, id(4)};
    break;
  }
  case NonSemanticShaderDebugInfo100DebugFunctionDefinition:
    // Optimizers drop OpName; the debug information keeps the name.
    if (auto scope = debugScopes.find(id(2));
        scope != debugScopes.end() && names.lookup(id(3)).empty())
      names[id(3)] = scope->second.functionName;
    break;
  case NonSemanticShaderDebugInfo100DebugLexicalBlock:
    debugScopes[inst.resultId] = {"", number(3), id(5), id(2)};
    break;
  case NonSemanticShaderDebugInfo100DebugInlinedAt:
    debugInlinedAts[inst.resultId] = {number(2), id(3), id(4)};
    break;
  case NonSemanticShaderDebugInfo100DebugLocalVariable:
    debugLocalVariables[inst.resultId] = {strings.lookup(id(2)), number(5),
                                          number(9), id(4), id(7)};
    break;
  case NonSemanticShaderDebugInfo100DebugExpression:
    if (inst.getNumArgs() == 2)
      emptyDebugExpressions.insert(inst.resultId);
    break;
  case NonSemanticShaderDebugInfo100DebugDeclare:
    // A variable the optimizer kept without its OpName.
    if (auto variable = debugLocalVariables.find(id(2));
        variable != debugLocalVariables.end() && inst.getNumArgs() == 5 &&
        emptyDebugExpressions.count(id(4)) && names.lookup(id(3)).empty())
      names[id(3)] = variable->second.name;
    break;
  }
}

/// The DebugFunction a scope is in, following lexical blocks' parents.
const Deserializer::DebugScopeInfo *
Deserializer::getScopeFunction(uint32_t scope) {
  for (unsigned depth = 0; depth < 64; ++depth) {
    auto it = debugScopes.find(scope);
    if (it == debugScopes.end())
      return nullptr;
    if (!it->second.functionName.empty())
      return &it->second;
    scope = it->second.parent;
  }
  return nullptr;
}

/// `loc` in `scope` inlined at `inlinedAt`: a CallSiteLoc whose callee is
/// fused with a kInlinedFunctionAttr marker naming the inlined function
/// and whose caller is the call's line, itself inlined when its scope was.
Location Deserializer::getInlinedLocation(Location loc, uint32_t scope,
                                          uint32_t inlinedAt, unsigned depth) {
  const DebugScopeInfo *function = getScopeFunction(scope);
  auto call = debugInlinedAts.find(inlinedAt);
  if (!function || call == debugInlinedAts.end() || depth > 64)
    return loc;
  Attribute marker = builder.getDictionaryAttr(
      {builder.getNamedAttr(kInlinedFunctionAttr,
                            builder.getStringAttr(function->functionName)),
       builder.getNamedAttr("line",
                            builder.getI32IntegerAttr(function->line))});
  auto callerScope = debugScopes.find(call->second.scope);
  // A reference into the map, not a copy: lookup() returns by value.
  llvm::StringRef file = "<unknown>";
  if (callerScope != debugScopes.end()) {
    auto source = debugSources.find(callerScope->second.source);
    if (source != debugSources.end())
      file = source->second;
  }
  Location caller =
      FileLineColLoc::get(&context, file, call->second.line, /*column=*/0);
  return CallSiteLoc::get(FusedLoc::get(&context, {loc}, marker),
                          getInlinedLocation(caller, call->second.scope,
                                             call->second.inlinedAt,
                                             depth + 1));
}

/// DebugValue of a whole value (no indexes, no operations): a
/// spvb.debug_value naming the variable. Optimizers leave some outside
/// their variable's scope (spirv-opt puts an inlined parameter's first
/// value before the inlined code's DebugScope): those are placed in the
/// variable's function, inlined where it last was, or dropped.
void Deserializer::processDebugValue(const ParsedInstruction &inst) {
  if (inst.getNumArgs() != 5)
    return;
  auto found = debugLocalVariables.find(inst.arg(2));
  if (found == debugLocalVariables.end() ||
      !emptyDebugExpressions.count(inst.arg(4)))
    return;
  const DebugLocalVariableInfo &variable = found->second;
  const DebugScopeInfo *function = getScopeFunction(variable.scope);
  Location loc = currentLocation(inst);
  if (function && function != getScopeFunction(currentScope)) {
    Location line = FileLineColLoc::get(
        &context, debugSources.lookup(variable.source),
        variable.line ? variable.line : function->line, /*column=*/0);
    if (function == currentFunctionScope)
      loc = line;
    else if (uint32_t inlinedAt = lastInlinedAt.lookup(function))
      loc = getInlinedLocation(line, variable.scope, inlinedAt);
    else
      return;
  }
  // Only now: a constant operand is materialized where it is asked for.
  Value value = getValue(inst.arg(3));
  if (!value || isa<spirv::PointerType>(value.getType()))
    return;
  DebugValueOp::create(builder, loc, value,
                       builder.getStringAttr(variable.name),
                       builder.getI32IntegerAttr(variable.line),
                       builder.getI32IntegerAttr(variable.argument),
                       getDebugTypeNames(resultTypeIds.lookup(inst.arg(3))));
}

LogicalResult Deserializer::collectDebugAndDecorations() {
  for (const ParsedInstruction &inst : parsed.instructions) {
    if (debugInfo && inst.resultId && inst.typeId)
      resultTypeIds[inst.resultId] = inst.typeId;
    switch (inst.opcode) {
    case spv::OpName:
      names[inst.arg(0)] = inst.argString(1).str();
      break;
    case spv::OpMemberName:
      memberNames[inst.arg(0)][inst.arg(1)] = inst.argString(2).str();
      break;
    // NonSemantic.Shader.DebugInfo.100 (glslang -gV, DXC
    // -fspv-debug=vulkan-with-source) gives lines as DebugLine: its
    // DebugSource files and constant operands.
    case spv::OpExtInstImport:
      if (inst.argString(0) == "NonSemantic.Shader.DebugInfo.100")
        shaderDebugInfoSet = inst.resultId;
      break;
    case spv::OpConstant:
      if (inst.getNumArgs() == 1)
        literalConstants[inst.resultId] = inst.arg(0);
      break;
    case spv::OpExtInst:
      if (!shaderDebugInfoSet || inst.arg(0) != shaderDebugInfoSet)
        break;
      collectShaderDebugInfo(inst);
      break;
    // The source text glslang -g and DXC put in the module.
    case spv::OpSource:
      if (inst.getNumArgs() > 3) {
        lastSourceFile = strings.lookup(inst.arg(2));
        sourceTexts[lastSourceFile] = inst.argString(3).str();
      }
      break;
    case spv::OpSourceContinued:
      sourceTexts[lastSourceFile] += inst.argString(0).str();
      break;
    case spv::OpString:
      strings[inst.resultId] = inst.argString(0).str();
      break;
    case spv::OpEntryPoint:
      // Entry functions are named after their entry point (the ABI symbols
      // follow it): reserve the name before any global takes it.
      if ((inst.arg(0) == spv::ExecutionModelGLCompute ||
           inst.arg(0) == spv::ExecutionModelVertex ||
           inst.arg(0) == spv::ExecutionModelFragment) &&
          !reservedFunctionNames.count(inst.arg(1)) &&
          usedSymbols.insert(inst.argString(2)).second)
        reservedFunctionNames[inst.arg(1)] = inst.argString(2).str();
      break;
    case spv::OpDecorate:
    case spv::OpDecorateId: {
      DecorationInfo info{inst.arg(1), {}};
      for (unsigned i = 2; i < inst.getNumArgs(); ++i)
        info.literals.push_back(inst.arg(i));
      decorations[inst.arg(0)].push_back(info);
      break;
    }
    case spv::OpMemberDecorate: {
      DecorationInfo info{inst.arg(2), {}};
      for (unsigned i = 3; i < inst.getNumArgs(); ++i)
        info.literals.push_back(inst.arg(i));
      memberDecorations[inst.arg(0)][inst.arg(1)].push_back(info);
      break;
    }
    case spv::OpGroupDecorate:
      // The group's own decorations precede it (OpDecorate on the group).
      for (unsigned i = 1; i < inst.getNumArgs(); ++i) {
        auto group = decorations.lookup(inst.arg(0));
        auto &target = decorations[inst.arg(i)];
        target.insert(target.end(), group.begin(), group.end());
      }
      break;
    case spv::OpGroupMemberDecorate:
      for (unsigned i = 1; i + 1 < inst.getNumArgs(); i += 2) {
        auto group = decorations.lookup(inst.arg(0));
        auto &target = memberDecorations[inst.arg(i)][inst.arg(i + 1)];
        target.insert(target.end(), group.begin(), group.end());
      }
      break;
    default:
      break;
    }
  }
  return success();
}

LogicalResult Deserializer::processType(const ParsedInstruction &inst) {
  Type type;
  switch (inst.opcode) {
  case spv::OpTypeVector:
  case spv::OpTypeMatrix:
  case spv::OpTypeArray:
  case spv::OpTypeRuntimeArray:
    componentTypeIds[inst.resultId] = {inst.arg(0)};
    break;
  case spv::OpTypeStruct:
    for (unsigned i = 0; i < inst.getNumArgs(); ++i)
      componentTypeIds[inst.resultId].push_back(inst.arg(i));
    break;
  default:
    break;
  }
  switch (inst.opcode) {
  case spv::OpTypeVoid:
    type = NoneType::get(&context);
    break;
  case spv::OpTypeBool:
    type = builder.getI1Type();
    break;
  case spv::OpTypeInt:
    type = builder.getIntegerType(inst.arg(0));
    if (inst.arg(1) == 0)
      unsignedIntTypeIds.insert(inst.resultId);
    break;
  case spv::OpTypeFloat:
    switch (inst.arg(0)) {
    case 16:
      type = builder.getF16Type();
      break;
    case 32:
      type = builder.getF32Type();
      break;
    case 64:
      type = builder.getF64Type();
      break;
    default:
      return fail(inst, llvm::Twine("unsupported float width ") +
                            llvm::Twine(inst.arg(0)));
    }
    break;
  case spv::OpTypeVector:
    type = VectorType::get({static_cast<int64_t>(inst.arg(1))},
                           getType(inst.arg(0)));
    break;
  case spv::OpTypeMatrix:
    type = spirv::MatrixType::get(getType(inst.arg(0)), inst.arg(1));
    break;
  case spv::OpTypeArray: {
    std::optional<uint64_t> count = getConstantInt(inst.arg(1));
    if (!count)
      return fail(inst, "array length is not a constant (specialize first)");
    uint32_t stride = 0;
    hasDecoration(inst.resultId, spv::DecorationArrayStride, &stride);
    type = spirv::ArrayType::get(getType(inst.arg(0)), *count, stride);
    break;
  }
  case spv::OpTypeRuntimeArray: {
    uint32_t stride = 0;
    hasDecoration(inst.resultId, spv::DecorationArrayStride, &stride);
    type = spirv::RuntimeArrayType::get(getType(inst.arg(0)), stride);
    break;
  }
  case spv::OpTypeStruct: {
    SmallVector<Type> members;
    for (unsigned i = 0; i < inst.getNumArgs(); ++i)
      members.push_back(getType(inst.arg(i)));
    SmallVector<spirv::StructType::OffsetInfo> offsets;
    SmallVector<spirv::StructType::MemberDecorationInfo> memberInfo;
    auto memberIt = memberDecorations.find(inst.resultId);
    if (memberIt != memberDecorations.end()) {
      for (unsigned i = 0; i < members.size(); ++i) {
        auto decoIt = memberIt->second.find(i);
        if (decoIt == memberIt->second.end())
          continue;
        for (const DecorationInfo &info : decoIt->second) {
          switch (info.decoration) {
          case spv::DecorationOffset:
            offsets.resize(members.size(), 0);
            offsets[i] = info.literals[0];
            break;
          case spv::DecorationMatrixStride:
            memberInfo.emplace_back(
                i, spirv::Decoration::MatrixStride,
                builder.getI32IntegerAttr(info.literals[0]));
            break;
          case spv::DecorationRowMajor:
          case spv::DecorationColMajor:
          case spv::DecorationNonWritable:
          case spv::DecorationNonReadable:
          case spv::DecorationCoherent:
          case spv::DecorationVolatile:
            memberInfo.emplace_back(
                i, static_cast<spirv::Decoration>(info.decoration),
                UnitAttr::get(&context));
            break;
          default:
            break;
          }
        }
      }
    }
    SmallVector<spirv::StructType::StructDecorationInfo> structInfo;
    if (hasDecoration(inst.resultId, spv::DecorationBlock))
      structInfo.emplace_back(spirv::Decoration::Block,
                              UnitAttr::get(&context));
    if (hasDecoration(inst.resultId, spv::DecorationBufferBlock))
      structInfo.emplace_back(spirv::Decoration::BufferBlock,
                              UnitAttr::get(&context));
    auto pending = pendingStructs.find(inst.resultId);
    if (pending != pendingStructs.end()) {
      if (failed(pending->second.trySetBody(members, offsets, memberInfo,
                                            structInfo)))
        return fail(inst, "cannot define a forward-referenced struct");
      type = pending->second;
    } else if (members.empty()) {
      type = spirv::StructType::getEmpty(&context);
    } else {
      type = spirv::StructType::get(members, offsets, memberInfo, structInfo);
    }
    break;
  }
  case spv::OpTypeForwardPointer: {
    // Buffer references may point to structs declared later (or to
    // themselves): declare the pointee as an identified struct now.
    uint32_t pointerId = inst.arg(0);
    auto definition = llvm::find_if(parsed.instructions, [&](const auto &i) {
      return i.opcode == spv::OpTypePointer && i.resultId == pointerId;
    });
    if (definition == parsed.instructions.end())
      return fail(inst, "forward pointer is never defined");
    uint32_t pointeeId = definition->arg(1);
    if (!getType(pointeeId)) {
      auto identified = spirv::StructType::getIdentified(
          &context, "struct" + std::to_string(pointeeId));
      pendingStructs[pointeeId] = identified;
      types[pointeeId] = identified;
    }
    pointeeTypeIds[pointerId] = pointeeId;
    types[pointerId] = spirv::PointerType::get(
        getType(pointeeId), static_cast<spirv::StorageClass>(inst.arg(1)));
    return success();
  }
  case spv::OpTypePointer: {
    if (types.count(inst.resultId))
      return success(); // Declared by OpTypeForwardPointer.
    pointeeTypeIds[inst.resultId] = inst.arg(1);
    Type pointee = getType(inst.arg(1));
    if (!pointee) {
      // A struct that a buffer reference declares later: identified now.
      auto identified = spirv::StructType::getIdentified(
          &context, "struct" + std::to_string(inst.arg(1)));
      pendingStructs[inst.arg(1)] = identified;
      types[inst.arg(1)] = identified;
      pointee = identified;
    }
    type = spirv::PointerType::get(
        pointee, static_cast<spirv::StorageClass>(inst.arg(0)));
    break;
  }
  case spv::OpTypeImage: {
    using namespace spirv;
    type = ImageType::get(getType(inst.arg(0)), static_cast<Dim>(inst.arg(1)),
                          static_cast<ImageDepthInfo>(inst.arg(2)),
                          static_cast<ImageArrayedInfo>(inst.arg(3)),
                          static_cast<ImageSamplingInfo>(inst.arg(4)),
                          static_cast<ImageSamplerUseInfo>(inst.arg(5)),
                          static_cast<ImageFormat>(inst.arg(6)));
    break;
  }
  case spv::OpTypeSampledImage:
    type = spirv::SampledImageType::get(getType(inst.arg(0)));
    break;
  case spv::OpTypeSampler:
    type = SamplerType::get(&context);
    break;
  case spv::OpTypeFunction: {
    SmallVector<Type> params;
    for (unsigned i = 1; i < inst.getNumArgs(); ++i)
      params.push_back(getType(inst.arg(i)));
    Type result = getType(inst.arg(0));
    type = isa<NoneType>(result) ? builder.getFunctionType(params, {})
                                 : builder.getFunctionType(params, result);
    break;
  }
  default:
    return fail(inst, "unsupported type");
  }
  types[inst.resultId] = type;
  return success();
}

LogicalResult Deserializer::processConstant(const ParsedInstruction &inst) {
  ConstantInfo info;
  info.typeId = inst.typeId;
  Type type = getType(inst.typeId);
  switch (inst.opcode) {
  case spv::OpConstantTrue:
  case spv::OpConstantFalse:
    info.scalar = builder.getBoolAttr(inst.opcode == spv::OpConstantTrue);
    break;
  case spv::OpConstant: {
    llvm::ArrayRef<uint32_t> words = inst.argWords(0);
    uint64_t bits = words[0];
    if (words.size() > 1)
      bits |= static_cast<uint64_t>(words[1]) << 32;
    if (auto intType = dyn_cast<IntegerType>(type)) {
      info.scalar = builder.getIntegerAttr(
          type, llvm::APInt(intType.getWidth(), bits, /*isSigned=*/false,
                            /*implicitTrunc=*/true));
    } else if (auto floatType = dyn_cast<FloatType>(type)) {
      llvm::APInt raw(floatType.getWidth(), bits, false, true);
      info.scalar = builder.getFloatAttr(
          type, llvm::APFloat(floatType.getFloatSemantics(), raw));
    } else {
      return fail(inst, "constant of unsupported type");
    }
    break;
  }
  case spv::OpConstantComposite:
  case spv::OpSpecConstantComposite:
    info.kind = ConstantInfo::Composite;
    for (unsigned i = 0; i < inst.getNumArgs(); ++i)
      info.components.push_back(inst.arg(i));
    break;
  case spv::OpConstantNull:
    info.kind = ConstantInfo::Null;
    break;
  case spv::OpUndef:
    info.kind = ConstantInfo::Undef;
    break;
  case spv::OpSpecConstantOp:
    // Its operands are frozen constants; it is evaluated where it is used.
    info.kind = ConstantInfo::Operation;
    info.operation = &inst;
    break;
  default:
    return fail(inst, "specialization constant left in the module "
                      "(the module must be specialized first)");
  }
  constants[inst.resultId] = std::move(info);
  return success();
}

LogicalResult
Deserializer::processGlobalVariable(const ParsedInstruction &inst) {
  auto pointerType = dyn_cast_or_null<spirv::PointerType>(getType(inst.typeId));
  if (!pointerType)
    return fail(inst, "variable of non-pointer type");
  Location loc = currentLocation(inst);
  // An anonymous block ("buffer X { ... };") is named after its type.
  std::string base = names.lookup(inst.resultId);
  if (base.empty())
    base = names.lookup(pointeeTypeIds.lookup(inst.typeId));
  if (base.empty())
    base = "var" + std::to_string(inst.resultId);
  std::string symbol = uniqueSymbol(base, inst.resultId);
  IntegerAttr binding, set;
  StringAttr builtin;
  uint32_t literal = 0;
  if (hasDecoration(inst.resultId, spv::DecorationBinding, &literal))
    binding = builder.getI32IntegerAttr(literal);
  if (hasDecoration(inst.resultId, spv::DecorationDescriptorSet, &literal))
    set = builder.getI32IntegerAttr(literal);
  if (hasDecoration(inst.resultId, spv::DecorationBuiltIn, &literal)) {
    std::optional<spirv::BuiltIn> value = spirv::symbolizeBuiltIn(literal);
    if (!value)
      return fail(inst, llvm::Twine("unknown BuiltIn ") + llvm::Twine(literal));
    builtin = builder.getStringAttr(spirv::stringifyBuiltIn(*value));
  } else if ((pointerType.getStorageClass() == spirv::StorageClass::Input ||
              pointerType.getStorageClass() == spirv::StorageClass::Output) &&
             memberDecorations.count(pointeeTypeIds.lookup(inst.typeId))) {
    return splitBuiltinBlock(inst, pointerType, symbol);
  }
  IntegerAttr location;
  if (hasDecoration(inst.resultId, spv::DecorationLocation, &literal))
    location = builder.getI32IntegerAttr(literal);
  if (pointerType.getStorageClass() == spirv::StorageClass::Workgroup &&
      hasDecoration(pointeeTypeIds.lookup(inst.typeId), spv::DecorationBlock))
    explicitWorkgroupLayout = true;
  auto global = spirv::GlobalVariableOp::create(
      builder, loc, pointerType, symbol, /*initializer=*/nullptr, location,
      binding, set, builtin, /*linkage=*/nullptr);
  globals[inst.resultId] = global;
  setDebugNames(global, inst.resultId, inst.typeId);
  if (hasDecoration(inst.resultId, spv::DecorationComponent, &literal))
    global->setAttr(kComponentAttr, builder.getI32IntegerAttr(literal));
  if (!builtin &&
      (pointerType.getStorageClass() == spirv::StorageClass::Input ||
       pointerType.getStorageClass() == spirv::StorageClass::Output) &&
      isUnsignedType(pointeeTypeIds.lookup(inst.typeId)))
    global->setAttr(kUnsignedAttr, builder.getUnitAttr());
  std::pair<spv::Decoration, StringRef> interpolation[] = {
      {spv::DecorationFlat, kFlatAttr},
      {spv::DecorationNoPerspective, kNoPerspectiveAttr},
      {spv::DecorationCentroid, kCentroidAttr},
      {spv::DecorationSample, kSampleAttr}};
  for (auto [decoration, attr] : interpolation)
    if (hasDecoration(inst.resultId, decoration))
      global->setAttr(attr, builder.getUnitAttr());
  if (inst.getNumArgs() > 1) {
    // Private initializers are stored at the start of each entry point: the
    // dialect's initializer must name a symbol, not hold a constant.
    // Workgroup memory is zero-filled by the runtime, which is what a null
    // initializer (ZeroInitializeWorkgroupMemory) asks for.
    auto init = constants.find(inst.arg(1));
    bool isNull =
        init != constants.end() && init->second.kind == ConstantInfo::Null;
    if (pointerType.getStorageClass() == spirv::StorageClass::Workgroup &&
        isNull) {
      // --perturb-undefined must then leave Workgroup memory zero.
      global->setAttr(kZeroInitializedAttr, builder.getUnitAttr());
      return success();
    }
    if (pointerType.getStorageClass() != spirv::StorageClass::Private)
      return fail(inst, "initializer on a " +
                            spirv::stringifyStorageClass(
                                pointerType.getStorageClass()) +
                            " variable is not supported");
    privateInitializers[inst.resultId] = inst.arg(1);
  }
  return success();
}

Attribute Deserializer::getDebugTypeNames(uint32_t typeId) {
  Type type = getType(typeId);
  llvm::SmallVector<uint32_t, 1> components = componentTypeIds.lookup(typeId);
  if (auto structType = dyn_cast_or_null<spirv::StructType>(type)) {
    SmallVector<Attribute> members, trees;
    const std::map<uint32_t, std::string> &named = memberNames[typeId];
    for (unsigned i = 0; i < structType.getNumElements(); ++i) {
      auto it = named.find(i);
      members.push_back(builder.getStringAttr(
          it != named.end() ? it->second : "_" + std::to_string(i)));
      trees.push_back(i < components.size() ? getDebugTypeNames(components[i])
                                            : builder.getStringAttr(""));
    }
    return builder.getArrayAttr({builder.getStringAttr(names.lookup(typeId)),
                                 builder.getArrayAttr(members),
                                 builder.getArrayAttr(trees)});
  }
  if (isa_and_nonnull<spirv::ArrayType, spirv::RuntimeArrayType>(type) &&
      !components.empty())
    return builder.getArrayAttr({getDebugTypeNames(components.front())});
  return builder.getStringAttr(isUnsignedType(typeId) ? "u" : "");
}

void Deserializer::setDebugNames(Operation *variable, uint32_t id,
                                 uint32_t pointerTypeId) {
  if (!debugInfo)
    return;
  variable->setAttr(kDebugNameAttr, builder.getStringAttr(names.lookup(id)));
  variable->setAttr(kDebugTypeNamesAttr,
                    getDebugTypeNames(pointeeTypeIds.lookup(pointerTypeId)));
}

LogicalResult Deserializer::processDeclarations() {
  for (const ParsedInstruction &inst : parsed.instructions) {
    currentInst = &inst;
    switch (inst.opcode) {
    case spv::OpCapability: {
      switch (inst.arg(0)) {
      case spv::CapabilityKernel:
      case spv::CapabilityAddresses:
      case spv::CapabilityLinkage:
      case spv::CapabilityGenericPointer:
        return fail(inst, "unsupported capability " +
                              spirv::stringifyCapability(
                                  static_cast<spirv::Capability>(inst.arg(0))));
      default:
        break;
      }
      break;
    }
    case spv::OpExtInstImport: {
      llvm::StringRef set = inst.argString(0);
      if (set != "GLSL.std.450" && !set.starts_with("NonSemantic.") &&
          !isDebugInfoSet(set))
        return fail(inst, "unsupported extended instruction set '" + set + "'");
      extInstSets[inst.resultId] = set.str();
      break;
    }
    case spv::OpMemoryModel:
      if (inst.arg(0) != spv::AddressingModelLogical &&
          inst.arg(0) != spv::AddressingModelPhysicalStorageBuffer64)
        return fail(inst, "unsupported addressing model");
      addressingModel = inst.arg(0);
      memoryModel = inst.arg(1);
      break;
    case spv::OpEntryPoint: {
      EntryPoint entry;
      entry.model = static_cast<spirv::ExecutionModel>(inst.arg(0));
      entry.functionId = inst.arg(1);
      entry.name = inst.argString(2).str();
      for (unsigned i = 3; i < inst.getNumArgs(); ++i)
        entry.interface.push_back(inst.arg(i));
      entryPoints.push_back(std::move(entry));
      break;
    }
    case spv::OpExecutionMode:
    case spv::OpExecutionModeId:
      executionModes.push_back(&inst);
      break;
    case spv::OpTypeVoid:
    case spv::OpTypeBool:
    case spv::OpTypeInt:
    case spv::OpTypeFloat:
    case spv::OpTypeVector:
    case spv::OpTypeMatrix:
    case spv::OpTypeArray:
    case spv::OpTypeRuntimeArray:
    case spv::OpTypeStruct:
    case spv::OpTypePointer:
    case spv::OpTypeFunction:
    case spv::OpTypeImage:
    case spv::OpTypeSampler:
    case spv::OpTypeSampledImage:
    case spv::OpTypeForwardPointer:
      if (failed(processType(inst)))
        return failure();
      break;
    case spv::OpConstantTrue:
    case spv::OpConstantFalse:
    case spv::OpConstant:
    case spv::OpConstantComposite:
    case spv::OpConstantNull:
    case spv::OpSpecConstantTrue:
    case spv::OpSpecConstantFalse:
    case spv::OpSpecConstant:
    case spv::OpSpecConstantComposite:
    case spv::OpSpecConstantOp:
    case spv::OpConstantSampler:
      if (failed(processConstant(inst)))
        return failure();
      break;
    case spv::OpUndef:
      if (failed(processConstant(inst)))
        return failure();
      break;
    case spv::OpVariable:
      if (failed(processGlobalVariable(inst)))
        return failure();
      break;
    case spv::OpFunction:
      // Functions follow all declarations.
      return success();
    default:
      break;
    }
  }
  return success();
}

LogicalResult Deserializer::declareFunctions() {
  // Entry point functions take the entry point's name so the ABI symbols
  // follow it; others take their OpName.
  llvm::DenseMap<uint32_t, std::string> entryNames;
  for (const EntryPoint &entry : entryPoints)
    entryNames.try_emplace(entry.functionId, entry.name);
  // A function is at the OpLine before it (glslang's declaration line).
  FileLineColLoc line; // Null outside an OpLine's reach.
  for (const ParsedInstruction &inst : parsed.instructions) {
    if (inst.opcode == spv::OpLine) {
      auto file = strings.find(inst.arg(0));
      line = FileLineColLoc::get(
          &context, file != strings.end() ? file->second : "<unknown>",
          inst.arg(1), inst.arg(2));
    } else if (inst.opcode == spv::OpNoLine ||
               inst.opcode == spv::OpFunctionEnd) {
      line = {};
    }
    if (inst.opcode != spv::OpFunction)
      continue;
    auto fnType = dyn_cast_or_null<FunctionType>(getType(inst.arg(1)));
    if (!fnType)
      return fail(inst, "function type is not an OpTypeFunction");
    std::string base = entryNames.count(inst.resultId)
                           ? entryNames[inst.resultId]
                           : (names.count(inst.resultId)
                                  ? names[inst.resultId]
                                  : "fn" + std::to_string(inst.resultId));
    auto reserved = reservedFunctionNames.find(inst.resultId);
    std::string symbol = reserved != reservedFunctionNames.end()
                             ? reserved->second
                             : uniqueSymbol(base, inst.resultId);
    auto control = static_cast<spirv::FunctionControl>(inst.arg(0));
    auto func = spirv::FuncOp::create(
        builder, line ? Location(line) : currentLocation(inst), symbol, fnType,
        control);
    functions[inst.resultId] = func;
  }
  return success();
}

void Deserializer::emitEntryPoints() {
  for (const EntryPoint &entry : entryPoints) {
    spirv::FuncOp func = functions.lookup(entry.functionId);
    if (!func)
      continue;
    SmallVector<Attribute> interface;
    for (uint32_t id : entry.interface) {
      if (auto global = globals.lookup(id))
        interface.push_back(SymbolRefAttr::get(global.getSymNameAttr()));
      for (spirv::GlobalVariableOp member : builtinBlocks.lookup(id))
        interface.push_back(SymbolRefAttr::get(member.getSymNameAttr()));
    }
    auto op = spirv::EntryPointOp::create(builder, func.getLoc(), entry.model,
                                          func, interface);
    op->setAttr(kEntryNameAttr, builder.getStringAttr(entry.name));
  }
  // A constant decorated BuiltIn WorkgroupSize overrides LocalSize (glslang
  // emits one for local_size_*_id), and is the only size of a module that
  // has no LocalSize at all.
  std::optional<SmallVector<int32_t>> builtinSize;
  for (auto &[id, info] : constants) {
    uint32_t builtin = 0;
    if (info.kind != ConstantInfo::Composite ||
        !hasDecoration(id, spv::DecorationBuiltIn, &builtin) ||
        builtin != spv::BuiltInWorkgroupSize)
      continue;
    builtinSize.emplace();
    for (uint32_t component : info.components)
      builtinSize->push_back(getConstantInt(component).value_or(1));
  }
  llvm::DenseSet<uint32_t> sized;
  for (const ParsedInstruction *inst : executionModes) {
    spirv::FuncOp func = functions.lookup(inst->arg(0));
    if (!func)
      continue;
    if (inst->arg(1) == spv::ExecutionModeLocalSize ||
        inst->arg(1) == spv::ExecutionModeLocalSizeId)
      sized.insert(inst->arg(0));
    SmallVector<int32_t> params;
    for (unsigned i = 2; i < inst->getNumArgs(); ++i) {
      uint32_t word = inst->arg(i);
      // LocalSizeId's operands are ids: record their (specialized) values.
      if (inst->opcode == spv::OpExecutionModeId)
        word = getConstantInt(word).value_or(0);
      params.push_back(static_cast<int32_t>(word));
    }
    uint32_t mode = inst->arg(1);
    if (mode == spv::ExecutionModeLocalSizeId)
      mode = spv::ExecutionModeLocalSize;
    if (mode == spv::ExecutionModeLocalSize && builtinSize)
      params = *builtinSize;
    if (auto symbolized = spirv::symbolizeExecutionMode(mode))
      spirv::ExecutionModeOp::create(builder, func.getLoc(), func, *symbolized,
                                     params);
  }
  if (!builtinSize)
    return;
  for (const EntryPoint &entry : entryPoints) {
    spirv::FuncOp func = functions.lookup(entry.functionId);
    if (func && entry.model == spirv::ExecutionModel::GLCompute &&
        sized.insert(entry.functionId).second)
      spirv::ExecutionModeOp::create(builder, func.getLoc(), func,
                                     spirv::ExecutionMode::LocalSize,
                                     *builtinSize);
  }
}

//===----------------------------------------------------------------------===//
// Functions
//===----------------------------------------------------------------------===//

LogicalResult Deserializer::processFunctions() {
  size_t begin = 0;
  for (size_t i = 0; i < parsed.instructions.size(); ++i) {
    uint32_t opcode = parsed.instructions[i].opcode;
    if (opcode == spv::OpFunction)
      begin = i;
    else if (opcode == spv::OpFunctionEnd && failed(processFunction(begin, i)))
      return failure();
  }
  return success();
}

LogicalResult Deserializer::processFunction(size_t begin, size_t end) {
  const auto &insts = parsed.instructions;
  spirv::FuncOp func = functions.lookup(insts[begin].resultId);
  values.clear();
  blocks.clear();
  phis.clear();
  currentLine.reset();
  currentScope = currentInlinedAt = 0;
  currentFunctionScope = nullptr;
  lastInlinedAt.clear();
  prologue = std::make_unique<Block>();

  // Blocks, with OpPhi as block arguments. The entry block also holds the
  // function parameters, which precede the first OpLabel.
  Region &body = func.getBody();
  Block *entry = nullptr;
  Block *block = nullptr;
  auto getEntry = [&]() {
    if (!entry) {
      entry = new Block();
      body.push_back(entry);
    }
    return entry;
  };
  for (size_t i = begin + 1; i < end; ++i) {
    const ParsedInstruction &inst = insts[i];
    if (inst.opcode == spv::OpFunctionParameter) {
      Type type = getType(inst.typeId);
      if (holdsBufferReference(type)) {
        // A buffer reference is Aliased/Restrict; a pointer to one is
        // AliasedPointer/RestrictPointer.
        auto pointee = dyn_cast<spirv::PointerType>(
            cast<spirv::PointerType>(type).getPointeeType());
        bool isReference =
            !pointee || pointee.getStorageClass() !=
                            spirv::StorageClass::PhysicalStorageBuffer;
        bool restrict =
            hasDecoration(inst.resultId, spv::DecorationRestrict) ||
            hasDecoration(inst.resultId, spv::DecorationRestrictPointer);
        spirv::Decoration decoration =
            isReference ? (restrict ? spirv::Decoration::Restrict
                                    : spirv::Decoration::Aliased)
                        : (restrict ? spirv::Decoration::RestrictPointer
                                    : spirv::Decoration::AliasedPointer);
        func.setArgAttr(getEntry()->getNumArguments(), "spirv.decoration",
                        spirv::DecorationAttr::get(&context, decoration));
      }
      unsigned index = getEntry()->getNumArguments();
      if (std::string name = names.lookup(inst.resultId);
          debugInfo && !name.empty()) {
        func.setArgAttr(index, kDebugNameAttr, builder.getStringAttr(name));
        uint32_t pointee = pointeeTypeIds.lookup(inst.typeId);
        func.setArgAttr(index, kDebugTypeNamesAttr,
                        getDebugTypeNames(pointee ? pointee : inst.typeId));
      }
      values[inst.resultId] =
          getEntry()->addArgument(type, currentLocation(inst));
    } else if (inst.opcode == spv::OpLabel) {
      if (blocks.empty()) {
        block = getEntry();
      } else {
        block = new Block();
        body.push_back(block);
      }
      blocks[inst.resultId] = block;
    } else if (inst.opcode == spv::OpPhi) {
      values[inst.resultId] =
          block->addArgument(getType(inst.typeId), currentLocation(inst));
      phis[block].push_back(&inst);
    }
  }
  if (!entry)
    return success(); // A declaration: spirv.func without a body.

  bool inEntryVariables = true;
  Block *entryBlock = &body.front();
  for (size_t i = begin + 1; i < end; ++i) {
    const ParsedInstruction &inst = insts[i];
    currentInst = &inst;
    switch (inst.opcode) {
    case spv::OpFunctionParameter:
    case spv::OpPhi:
    case spv::OpSelectionMerge:
    case spv::OpLoopMerge:
    case spv::OpNop:
      continue;
    case spv::OpLine: {
      auto file = strings.find(inst.arg(0));
      currentLine = FileLineColLoc::get(
          &context, file != strings.end() ? file->second : "<unknown>",
          inst.arg(1), inst.arg(2));
      continue;
    }
    case spv::OpNoLine:
      currentLine.reset();
      continue;
    case spv::OpLabel:
      currentBlock = blocks[inst.resultId];
      currentLabel = inst.resultId;
      builder.setInsertionPointToEnd(currentBlock);
      continue;
    default:
      break;
    }
    if (inEntryVariables && inst.opcode != spv::OpVariable) {
      // The entry block's variables are done: what follows the prologue
      // starts here, beginning with the Private initializers of entry points.
      inEntryVariables = false;
      bool isEntry = llvm::any_of(entryPoints, [&](const EntryPoint &e) {
        return functions.lookup(e.functionId) == func;
      });
      if (isEntry)
        for (auto [varId, initId] : privateInitializers)
          spirv::StoreOp::create(builder, func.getLoc(), getValue(varId),
                                 getValue(initId));
    }
    if (failed(processInstruction(inst)))
      return failure();
  }
  // Splice the prologue after the entry block's variables.
  Block::iterator insertAt = entryBlock->begin();
  while (insertAt != entryBlock->end() && isa<spirv::VariableOp>(*insertAt))
    ++insertAt;
  entryBlock->getOperations().splice(insertAt, prologue->getOperations());
  prologue.reset();
  return success();
}

/// LLVM IR cannot give a phi two incoming values from one predecessor, so a
/// second edge to a block with arguments goes through a block of its own.
/// `operands` become that edge's (empty) operands.
Block *Deserializer::createForwardingBlock(Block *dest,
                                           SmallVector<Value> &operands,
                                           Location loc) {
  auto *forward = new Block();
  forward->insertBefore(dest);
  OpBuilder::InsertionGuard guard(builder);
  builder.setInsertionPointToEnd(forward);
  spirv::BranchOp::create(builder, loc, dest, operands);
  operands.clear();
  return forward;
}

LogicalResult Deserializer::processBranch(const ParsedInstruction &inst) {
  Location loc = currentLocation(inst);
  auto target = [&](uint32_t label) { return blocks.lookup(label); };
  switch (inst.opcode) {
  case spv::OpBranch: {
    Block *dest = target(inst.arg(0));
    spirv::BranchOp::create(builder, loc, dest, getSuccessorOperands(dest));
    return success();
  }
  case spv::OpBranchConditional: {
    Block *t = target(inst.arg(1));
    SmallVector<Value> tOperands = getSuccessorOperands(t);
    Block *f = target(inst.arg(2));
    SmallVector<Value> fOperands = getSuccessorOperands(f);
    if (t == f && !tOperands.empty())
      f = createForwardingBlock(f, fOperands, loc);
    spirv::BranchConditionalOp::create(builder, loc, getValue(inst.arg(0)), t,
                                       tOperands, f, fOperands);
    return success();
  }
  case spv::OpSwitch: {
    Value selector = getValue(inst.arg(0));
    unsigned width = selector.getType().getIntOrFloatBitWidth();
    Block *defaultDest = target(inst.arg(1));
    SmallVector<Value> defaultOperands = getSuccessorOperands(defaultDest);
    llvm::SmallPtrSet<Block *, 8> seen{defaultDest};
    SmallVector<llvm::APInt> literals;
    SmallVector<Block *> dests;
    SmallVector<SmallVector<Value>> operandStorage;
    for (unsigned i = 2; i + 1 < inst.getNumArgs(); i += 2) {
      llvm::ArrayRef<uint32_t> words = inst.argWords(i);
      uint64_t value = words[0];
      if (words.size() > 1)
        value |= static_cast<uint64_t>(words[1]) << 32;
      literals.push_back(llvm::APInt(width, value, false, true));
      Block *dest = target(inst.arg(i + 1));
      SmallVector<Value> destOperands = getSuccessorOperands(dest);
      if (!seen.insert(dest).second && !destOperands.empty())
        dest = createForwardingBlock(dest, destOperands, loc);
      dests.push_back(dest);
      operandStorage.push_back(destOperands);
    }
    SmallVector<ValueRange> operands(operandStorage.begin(),
                                     operandStorage.end());
    spirv::SwitchOp::create(builder, loc, selector, defaultDest,
                            defaultOperands, literals, dests, operands);
    return success();
  }
  default:
    return failure();
  }
}

static bool isImageInstruction(uint32_t opcode);

static bool isSubgroupInstruction(uint32_t opcode);

/// Instructions whose operands are all ids and whose spirv op takes them in
/// the same order with no attributes: built generically by name.
static bool isDirectlyMapped(uint32_t opcode) {
  switch (opcode) {
  case spv::OpSNegate:
  case spv::OpFNegate:
  case spv::OpIAdd:
  case spv::OpFAdd:
  case spv::OpISub:
  case spv::OpFSub:
  case spv::OpIMul:
  case spv::OpFMul:
  case spv::OpUDiv:
  case spv::OpSDiv:
  case spv::OpFDiv:
  case spv::OpUMod:
  case spv::OpSRem:
  case spv::OpSMod:
  case spv::OpFRem:
  case spv::OpFMod:
  case spv::OpVectorTimesScalar:
  case spv::OpMatrixTimesScalar:
  case spv::OpVectorTimesMatrix:
  case spv::OpMatrixTimesVector:
  case spv::OpMatrixTimesMatrix:
  case spv::OpTranspose:
  case spv::OpDot:
  case spv::OpIAddCarry:
  case spv::OpISubBorrow:
  case spv::OpUMulExtended:
  case spv::OpSMulExtended:
  case spv::OpShiftRightLogical:
  case spv::OpShiftRightArithmetic:
  case spv::OpShiftLeftLogical:
  case spv::OpBitwiseOr:
  case spv::OpBitwiseXor:
  case spv::OpBitwiseAnd:
  case spv::OpNot:
  case spv::OpBitFieldInsert:
  case spv::OpBitFieldSExtract:
  case spv::OpBitFieldUExtract:
  case spv::OpBitReverse:
  case spv::OpBitCount:
  case spv::OpConvertFToU:
  case spv::OpConvertFToS:
  case spv::OpConvertSToF:
  case spv::OpConvertUToF:
  case spv::OpUConvert:
  case spv::OpSConvert:
  case spv::OpFConvert:
  case spv::OpIsNan:
  case spv::OpIsInf:
  case spv::OpOrdered:
  case spv::OpUnordered:
  case spv::OpLogicalEqual:
  case spv::OpLogicalNotEqual:
  case spv::OpLogicalOr:
  case spv::OpLogicalAnd:
  case spv::OpLogicalNot:
  case spv::OpIEqual:
  case spv::OpINotEqual:
  case spv::OpUGreaterThan:
  case spv::OpSGreaterThan:
  case spv::OpUGreaterThanEqual:
  case spv::OpSGreaterThanEqual:
  case spv::OpULessThan:
  case spv::OpSLessThan:
  case spv::OpULessThanEqual:
  case spv::OpSLessThanEqual:
  case spv::OpFOrdEqual:
  case spv::OpFUnordEqual:
  case spv::OpFOrdNotEqual:
  case spv::OpFUnordNotEqual:
  case spv::OpFOrdLessThan:
  case spv::OpFUnordLessThan:
  case spv::OpFOrdGreaterThan:
  case spv::OpFUnordGreaterThan:
  case spv::OpFOrdLessThanEqual:
  case spv::OpFUnordLessThanEqual:
  case spv::OpFOrdGreaterThanEqual:
  case spv::OpFUnordGreaterThanEqual:
  case spv::OpVectorExtractDynamic:
  case spv::OpVectorInsertDynamic:
  case spv::OpCompositeConstruct:
  case spv::OpAccessChain:
  case spv::OpConvertUToPtr:
  case spv::OpConvertPtrToU:
    return true;
  default:
    return false;
  }
}

LogicalResult Deserializer::processInstruction(const ParsedInstruction &inst) {
  Location loc = currentLocation(inst);
  Type resultType = inst.typeId ? getType(inst.typeId) : Type();
  SmallVector<Value> operands;
  auto idArgs = [&](unsigned from) -> LogicalResult {
    for (unsigned i = from; i < inst.getNumArgs(); ++i) {
      Value value = getValue(inst.arg(i));
      if (!value)
        return fail(inst, llvm::Twine("operand %") + llvm::Twine(inst.arg(i)) +
                              " is not defined before its use");
      operands.push_back(value);
    }
    return success();
  };

  if (inst.getNumArgs() && inst.operands[0].type == SPV_OPERAND_TYPE_ID &&
      builtinBlocks.count(inst.arg(0))) {
    if (inst.opcode == spv::OpAccessChain ||
        inst.opcode == spv::OpInBoundsAccessChain || inst.opcode == spv::OpLoad)
      return useBuiltinBlock(inst, resultType);
    return fail(inst, "an interface block is only used through "
                      "OpAccessChain or OpLoad");
  }
  if (isDirectlyMapped(inst.opcode)) {
    if (failed(idArgs(0)))
      return failure();
    // The spirv dialect names these ops after the instruction.
    std::string name = "spirv." + getOpcodeName(inst.opcode).substr(2);
    Operation *op = createGeneric(name, loc, resultType, operands);
    mapResult(inst, op->getResult(0));
    return success();
  }

  switch (inst.opcode) {
  case spv::OpPtrAccessChain:
  case spv::OpInBoundsPtrAccessChain: {
    if (failed(idArgs(0)))
      return failure();
    Operation *op =
        createGeneric("spirv.PtrAccessChain", loc, resultType, operands);
    // The Element operand steps by the pointer type's ArrayStride, or by
    // the pointee's size when the pointer has none. Workgroup memory the
    // module does not lay out is ours to lay out: an ArrayStride there is
    // ignored (the CTS's ptr_access_chain/workgroup_bad_stride).
    uint32_t stride = 0;
    auto baseType = llvm::find_if(parsed.instructions, [&](const auto &i) {
      return i.resultId == inst.arg(0);
    });
    bool implicitLayout =
        cast<spirv::PointerType>(resultType).getStorageClass() ==
            spirv::StorageClass::Workgroup &&
        !explicitWorkgroupLayout;
    if (baseType != parsed.instructions.end() && !implicitLayout &&
        hasDecoration(baseType->typeId, spv::DecorationArrayStride, &stride))
      op->setAttr("spvb.ptr_stride", builder.getI32IntegerAttr(stride));
    mapResult(inst, op->getResult(0));
    return success();
  }
  case spv::OpSelect: {
    if (failed(idArgs(0)))
      return failure();
    if (isa<spirv::StructType, spirv::ArrayType, spirv::MatrixType>(
            resultType)) {
      mapResult(inst,
                CompositeSelectOp::create(builder, loc, resultType, operands[0],
                                          operands[1], operands[2]));
      return success();
    }
    mapResult(inst, spirv::SelectOp::create(builder, loc, operands[0],
                                            operands[1], operands[2]));
    return success();
  }
  case spv::OpSDot:
  case spv::OpUDot:
  case spv::OpSUDot:
  case spv::OpSDotAccSat:
  case spv::OpUDotAccSat:
  case spv::OpSUDotAccSat: {
    bool packed = false;
    for (unsigned i = 0; i < inst.getNumArgs(); ++i) {
      if (inst.operands[i].type == SPV_OPERAND_TYPE_ID)
        operands.push_back(getValue(inst.arg(i)));
      else
        packed = true; // the only format is PackedVectorFormat4x8Bit
    }
    // spirv-val lets pointers through here (SPIRV-Tools 2022.4).
    for (auto [index, operand] : llvm::enumerate(operands))
      if (!getElementTypeOrSelf(operand.getType()).isInteger())
        return fail(inst, llvm::formatv("operand {0} is not an integer "
                                        "scalar or vector, as the "
                                        "specification requires",
                                        index + 1)
                              .str());
    Value accumulator = operands.size() > 2 ? operands[2] : Value();
    mapResult(inst, IntegerDotOp::create(
                        builder, loc, resultType, operands[0], operands[1],
                        accumulator, builder.getI32IntegerAttr(inst.opcode),
                        packed ? builder.getUnitAttr() : UnitAttr()));
    return success();
  }
  case spv::OpPtrEqual:
  case spv::OpPtrNotEqual:
  case spv::OpPtrDiff: {
    uint32_t stride = 0;
    auto base = llvm::find_if(parsed.instructions, [&](const auto &i) {
      return i.resultId == inst.arg(0);
    });
    if (base != parsed.instructions.end())
      hasDecoration(base->typeId, spv::DecorationArrayStride, &stride);
    mapResult(inst, PointerCompareOp::create(
                        builder, loc, resultType,
                        builder.getI32IntegerAttr(inst.opcode),
                        builder.getI32IntegerAttr(stride),
                        getValue(inst.arg(0)), getValue(inst.arg(1))));
    return success();
  }
  case spv::OpInBoundsAccessChain: {
    if (failed(idArgs(0)))
      return failure();
    Operation *op =
        createGeneric("spirv.AccessChain", loc, resultType, operands);
    mapResult(inst, op->getResult(0));
    return success();
  }
  case spv::OpCopyObject:
    mapResult(inst, getValue(inst.arg(0)));
    return success();
  case spv::OpCopyLogical: {
    Value value = getValue(inst.arg(0));
    mapResult(inst, value.getType() == resultType
                        ? value
                        : CopyLogicalOp::create(builder, loc, resultType, value)
                              .getResult());
    return success();
  }
  case spv::OpAssumeTrueKHR:
  case spv::OpExpectKHR:
    // Optimization hints: an assumption that does not hold must not become
    // host undefined behaviour, so drop it. OpExpectKHR yields its value.
    if (inst.opcode == spv::OpExpectKHR)
      mapResult(inst, getValue(inst.arg(0)));
    return success();
  case spv::OpBitcast: {
    Value value = getValue(inst.arg(0));
    if (value.getType() == resultType) {
      // int <-> uint: signless integers make this an identity.
      mapResult(inst, value);
      return success();
    }
    if (isa<spirv::PointerType>(resultType) !=
        isa<spirv::PointerType>(value.getType())) {
      mapResult(inst,
                PointerBitcastOp::create(builder, loc, resultType, value));
      return success();
    }
    mapResult(inst, spirv::BitcastOp::create(builder, loc, resultType, value));
    return success();
  }
  case spv::OpUndef:
    mapResult(inst, spirv::UndefOp::create(builder, loc, resultType));
    return success();
  case spv::OpIsHelperInvocationEXT:
    mapResult(inst, IsHelperOp::create(builder, loc, resultType));
    return success();
  case spv::OpVariable: {
    auto var = spirv::VariableOp::create(builder, loc, resultType,
                                         spirv::StorageClass::Function,
                                         /*initializer=*/nullptr);
    setDebugNames(var, inst.resultId, inst.typeId);
    if (holdsBufferReference(resultType))
      var->setAttr(hasDecoration(inst.resultId, spv::DecorationRestrictPointer)
                       ? "restrict_pointer"
                       : "aliased_pointer",
                   builder.getUnitAttr());
    mapResult(inst, var);
    if (inst.getNumArgs() > 1) {
      // Initialize after the prologue so the constant is defined.
      OpBuilder::InsertionGuard guard(builder);
      Value init = getValue(inst.arg(1));
      builder.setInsertionPointToEnd(prologue.get());
      spirv::StoreOp::create(builder, loc, var, init);
    }
    return success();
  }
  case spv::OpLoad: {
    Value ptr = getValue(inst.arg(0));
    // spirv.Load accepts only SPIR-V result types.
    if (isa<SamplerType>(resultType)) {
      mapResult(inst, LoadSamplerOp::create(builder, loc, resultType, ptr));
      return success();
    }
    mapResult(inst, spirv::LoadOp::create(builder, loc, ptr));
    return success();
  }
  case spv::OpStore:
    spirv::StoreOp::create(builder, loc, getValue(inst.arg(0)),
                           getValue(inst.arg(1)));
    return success();
  case spv::OpCopyMemory:
    spirv::CopyMemoryOp::create(builder, loc, getValue(inst.arg(0)),
                                getValue(inst.arg(1)), nullptr, nullptr,
                                nullptr, nullptr);
    return success();
  case spv::OpCompositeExtract: {
    SmallVector<int32_t> indices;
    for (unsigned i = 1; i < inst.getNumArgs(); ++i)
      indices.push_back(inst.arg(i));
    Value composite = getValue(inst.arg(0));
    if (indices.empty()) {
      mapResult(inst, composite);
      return success();
    }
    Operation *op = createGeneric(
        "spirv.CompositeExtract", loc, resultType, composite,
        {builder.getNamedAttr("indices", builder.getI32ArrayAttr(indices))});
    mapResult(inst, op->getResult(0));
    return success();
  }
  case spv::OpCompositeInsert: {
    SmallVector<int32_t> indices;
    for (unsigned i = 2; i < inst.getNumArgs(); ++i)
      indices.push_back(inst.arg(i));
    Value object = getValue(inst.arg(0));
    Value composite = getValue(inst.arg(1));
    if (indices.empty()) {
      mapResult(inst, object);
      return success();
    }
    Operation *op = createGeneric(
        "spirv.CompositeInsert", loc, resultType, {object, composite},
        {builder.getNamedAttr("indices", builder.getI32ArrayAttr(indices))});
    mapResult(inst, op->getResult(0));
    return success();
  }
  case spv::OpVectorShuffle: {
    SmallVector<int32_t> components;
    for (unsigned i = 2; i < inst.getNumArgs(); ++i) {
      uint32_t c = inst.arg(i);
      // 0xFFFFFFFF means "undefined component": pick the first one.
      components.push_back(c == 0xFFFFFFFFu ? 0 : static_cast<int32_t>(c));
    }
    Operation *op =
        createGeneric("spirv.VectorShuffle", loc, resultType,
                      {getValue(inst.arg(0)), getValue(inst.arg(1))},
                      {builder.getNamedAttr(
                          "components", builder.getI32ArrayAttr(components))});
    mapResult(inst, op->getResult(0));
    return success();
  }
  case spv::OpFunctionCall: {
    spirv::FuncOp callee = functions.lookup(inst.arg(0));
    if (!callee)
      return fail(inst, "call of an unknown function");
    if (failed(idArgs(1)))
      return failure();
    SmallVector<Type> results;
    if (!isa<NoneType>(resultType))
      results.push_back(resultType);
    auto call = spirv::FunctionCallOp::create(
        builder, loc, results, FlatSymbolRefAttr::get(callee.getSymNameAttr()),
        operands,
        /*arg_attrs=*/nullptr, /*res_attrs=*/nullptr);
    if (!results.empty())
      mapResult(inst, call.getResult(0));
    return success();
  }
  case spv::OpArrayLength: {
    auto op =
        ArrayLengthOp::create(builder, loc, resultType, getValue(inst.arg(0)),
                              builder.getI32IntegerAttr(inst.arg(1)));
    mapResult(inst, op);
    return success();
  }
  case spv::OpQuantizeToF16:
    mapResult(inst, QuantizeToF16Op::create(builder, loc, resultType,
                                            getValue(inst.arg(0))));
    return success();
  case spv::OpAny:
    mapResult(inst, AnyOp::create(builder, loc, builder.getI1Type(),
                                  getValue(inst.arg(0))));
    return success();
  case spv::OpAll:
    mapResult(inst, AllOp::create(builder, loc, builder.getI1Type(),
                                  getValue(inst.arg(0))));
    return success();
  case spv::OpOuterProduct:
    mapResult(inst, OuterProductOp::create(builder, loc, resultType,
                                           getValue(inst.arg(0)),
                                           getValue(inst.arg(1))));
    return success();
  case spv::OpExtInst:
    return processExtInst(inst);
  case spv::OpControlBarrier:
  case spv::OpMemoryBarrier: {
    bool control = inst.opcode == spv::OpControlBarrier;
    unsigned first = control ? 1 : 0;
    std::optional<uint64_t> memScope = getConstantInt(inst.arg(first));
    std::optional<uint64_t> semantics = getConstantInt(inst.arg(first + 1));
    std::optional<uint64_t> execScope =
        control ? getConstantInt(inst.arg(0)) : std::optional<uint64_t>(0);
    if (!memScope || !semantics || !execScope)
      return fail(inst, "scope and semantics must be constants");
    SmallVector<NamedAttribute> attrs;
    if (control)
      attrs.push_back(builder.getNamedAttr(
          "execution_scope",
          spirv::ScopeAttr::get(&context,
                                static_cast<spirv::Scope>(*execScope))));
    attrs.push_back(builder.getNamedAttr(
        "memory_scope",
        spirv::ScopeAttr::get(&context, static_cast<spirv::Scope>(*memScope))));
    attrs.push_back(builder.getNamedAttr(
        "memory_semantics",
        spirv::MemorySemanticsAttr::get(
            &context, static_cast<spirv::MemorySemantics>(*semantics))));
    createGeneric(control ? "spirv.ControlBarrier" : "spirv.MemoryBarrier", loc,
                  {}, {}, attrs);
    return success();
  }
  case spv::OpBranch:
  case spv::OpBranchConditional:
  case spv::OpSwitch:
    return processBranch(inst);
  case spv::OpReturn:
    spirv::ReturnOp::create(builder, loc);
    return success();
  case spv::OpReturnValue:
    spirv::ReturnValueOp::create(builder, loc, getValue(inst.arg(0)));
    return success();
  case spv::OpKill:
  case spv::OpTerminateInvocation:
    spirv::KillOp::create(builder, loc);
    return success();
  case spv::OpDemoteToHelperInvocation:
    DemoteOp::create(builder, loc);
    return success();
  case spv::OpUnreachable: {
    // Reaching it is undefined; returning is what the lowering does anyway,
    // and spirv.Unreachable is only valid in blocks without predecessors.
    auto func =
        builder.getBlock()->getParent()->getParentOfType<spirv::FuncOp>();
    ArrayRef<Type> results = func.getFunctionType().getResults();
    if (results.empty())
      spirv::ReturnOp::create(builder, loc);
    else
      spirv::ReturnValueOp::create(
          builder, loc, spirv::UndefOp::create(builder, loc, results.front()));
    return success();
  }
  default:
    break;
  }
  if (inst.opcode >= spv::OpAtomicLoad && inst.opcode <= spv::OpAtomicXor)
    return processAtomic(inst);
  if (isImageInstruction(inst.opcode))
    return processImage(inst);
  // Derivatives are quad operations: the runtime runs fragments in quads.
  if (isSubgroupInstruction(inst.opcode) ||
      (inst.opcode >= spv::OpDPdx && inst.opcode <= spv::OpFwidthCoarse))
    return processSubgroup(inst);
  if (inst.opcode == spv::OpAtomicFAddEXT ||
      inst.opcode == spv::OpAtomicFMinEXT ||
      inst.opcode == spv::OpAtomicFMaxEXT)
    return processAtomic(inst);
  return fail(inst, "unsupported instruction");
}

static bool isImageInstruction(uint32_t opcode) {
  return (opcode >= spv::OpSampledImage && opcode <= spv::OpImageWrite) ||
         opcode == spv::OpImage ||
         (opcode >= spv::OpImageQueryFormat &&
          opcode <= spv::OpImageQuerySamples) ||
         opcode == spv::OpImageTexelPointer ||
         (opcode >= spv::OpImageSparseSampleImplicitLod &&
          opcode <= spv::OpImageSparseRead);
}

static bool isSubgroupInstruction(uint32_t opcode) {
  return (opcode >= spv::OpGroupNonUniformElect &&
          opcode <= spv::OpGroupNonUniformQuadSwap) ||
         opcode == spv::OpSubgroupBallotKHR ||
         opcode == spv::OpSubgroupFirstInvocationKHR ||
         opcode == spv::OpSubgroupAllKHR || opcode == spv::OpSubgroupAnyKHR ||
         opcode == spv::OpSubgroupAllEqualKHR ||
         opcode == spv::OpSubgroupReadInvocationKHR ||
         opcode == spv::OpGroupNonUniformRotateKHR;
}

/// A projective sample's coordinate (u [, v] [, w], q) becomes (u/q [, v/q]
/// [, w/q]), and a Dref Dref/q (Vulkan's "Projection Operation"), so that it
/// is sampled as the non-projective instruction.
LogicalResult
Deserializer::divideProjectiveCoordinate(const ParsedInstruction &inst,
                                         SmallVectorImpl<Value> &operands) {
  Location loc = currentLocation(inst);
  bool isDref = inst.opcode == spv::OpImageSampleProjDrefImplicitLod ||
                inst.opcode == spv::OpImageSampleProjDrefExplicitLod;
  if (operands.size() < (isDref ? 3u : 2u))
    return fail(inst, "a projective sample without its operands");
  auto sampled = dyn_cast<spirv::SampledImageType>(operands[0].getType());
  auto image = sampled ? dyn_cast<spirv::ImageType>(sampled.getImageType())
                       : spirv::ImageType();
  auto vector = dyn_cast<VectorType>(operands[1].getType());
  if (!image || !vector)
    return fail(inst, "a projective sample needs a sampled image and a "
                      "coordinate vector");
  unsigned dims;
  switch (image.getDim()) {
  case spirv::Dim::Dim1D:
    dims = 1;
    break;
  case spirv::Dim::Dim2D:
  case spirv::Dim::Rect:
    dims = 2;
    break;
  case spirv::Dim::Dim3D:
    dims = 3;
    break;
  default:
    return fail(inst, "a projective sample of a " +
                          spirv::stringifyDim(image.getDim()) + " image");
  }
  if (vector.getNumElements() <= dims)
    return fail(inst, "the projective coordinate has no q component");
  auto extract = [&](unsigned i) {
    return spirv::CompositeExtractOp::create(builder, loc, operands[1],
                                             ArrayRef<int32_t>{int32_t(i)})
        .getResult();
  };
  Value q = extract(dims);
  SmallVector<Value> divided;
  for (unsigned i = 0; i < dims; ++i)
    divided.push_back(spirv::FDivOp::create(builder, loc, extract(i), q));
  if (inst.opcode == spv::OpImageSampleProjDrefImplicitLod ||
      inst.opcode == spv::OpImageSampleProjDrefExplicitLod)
    operands[2] = spirv::FDivOp::create(builder, loc, operands[2], q);
  operands[1] =
      dims == 1 ? divided.front()
                : spirv::CompositeConstructOp::create(
                      builder, loc,
                      VectorType::get({int64_t(dims)}, vector.getElementType()),
                      divided)
                      .getResult();
  return success();
}

LogicalResult Deserializer::processImage(const ParsedInstruction &inst) {
  Location loc = currentLocation(inst);
  SmallVector<Value> operands;
  uint32_t mask = 0;
  for (unsigned i = 0; i < inst.getNumArgs(); ++i) {
    spv_operand_type_t type = inst.operands[i].type;
    if (type == SPV_OPERAND_TYPE_IMAGE ||
        type == SPV_OPERAND_TYPE_OPTIONAL_IMAGE) {
      mask = inst.arg(i);
      continue;
    }
    if (type != SPV_OPERAND_TYPE_ID)
      return fail(inst, "unexpected literal operand");
    Value value = getValue(inst.arg(i));
    if (!value)
      return fail(inst, llvm::Twine("operand %") + llvm::Twine(inst.arg(i)) +
                            " is not defined before its use");
    operands.push_back(value);
  }
  uint32_t opcode = inst.opcode;
  switch (opcode) {
  case spv::OpImageSampleProjImplicitLod:
  case spv::OpImageSampleProjExplicitLod:
  case spv::OpImageSampleProjDrefImplicitLod:
  case spv::OpImageSampleProjDrefExplicitLod:
    if (failed(divideProjectiveCoordinate(inst, operands)))
      return failure();
    opcode = opcode == spv::OpImageSampleProjImplicitLod
                 ? spv::OpImageSampleImplicitLod
             : opcode == spv::OpImageSampleProjExplicitLod
                 ? spv::OpImageSampleExplicitLod
             : opcode == spv::OpImageSampleProjDrefImplicitLod
                 ? spv::OpImageSampleDrefImplicitLod
                 : spv::OpImageSampleDrefExplicitLod;
    break;
  default:
    break;
  }
  SmallVector<Type> results;
  if (inst.typeId)
    results.push_back(getType(inst.typeId));
  auto op =
      ImageOp::create(builder, loc, results, builder.getI32IntegerAttr(opcode),
                      builder.getI32IntegerAttr(mask), operands);
  if (inst.typeId)
    mapResult(inst, op.getResult());
  return success();
}

LogicalResult Deserializer::processSubgroup(const ParsedInstruction &inst) {
  Location loc = currentLocation(inst);
  SmallVector<Value> operands;
  int32_t groupOperation = -1;
  uint32_t clusterSize = 0;
  bool hasScope = inst.opcode >= spv::OpGroupNonUniformElect &&
                  inst.opcode <= spv::OpGroupNonUniformQuadSwap;
  for (unsigned i = hasScope ? 1 : 0; i < inst.getNumArgs(); ++i) {
    if (inst.operands[i].type == SPV_OPERAND_TYPE_GROUP_OPERATION) {
      groupOperation = inst.arg(i);
      continue;
    }
    // ClusterSize is the constant after the value of a clustered reduce.
    if (groupOperation == spv::GroupOperationClusteredReduce &&
        operands.size() == 1) {
      std::optional<uint64_t> size = getConstantInt(inst.arg(i));
      if (!size)
        return fail(inst, "ClusterSize must be a constant");
      clusterSize = *size;
      continue;
    }
    operands.push_back(getValue(inst.arg(i)));
  }
  auto op =
      SubgroupOp::create(builder, loc, getType(inst.typeId),
                         builder.getI32IntegerAttr(inst.opcode),
                         builder.getI32IntegerAttr(groupOperation),
                         builder.getI32IntegerAttr(clusterSize), operands);
  mapResult(inst, op);
  return success();
}

LogicalResult Deserializer::processAtomic(const ParsedInstruction &inst) {
  Location loc = currentLocation(inst);
  Type resultType = inst.typeId ? getType(inst.typeId) : Type();
  Value pointer = getValue(inst.arg(0));
  std::optional<uint64_t> scope = getConstantInt(inst.arg(1));
  std::optional<uint64_t> semantics = getConstantInt(inst.arg(2));
  if (!scope || !semantics)
    return fail(inst, "atomic scope and semantics must be constants");
  auto scopeAttr =
      spirv::ScopeAttr::get(&context, static_cast<spirv::Scope>(*scope));
  auto semanticsAttr = [&](uint64_t value) {
    return spirv::MemorySemanticsAttr::get(
        &context, static_cast<spirv::MemorySemantics>(value));
  };
  switch (inst.opcode) {
  case spv::OpAtomicLoad:
    mapResult(inst,
              AtomicLoadOp::create(builder, loc, resultType, pointer,
                                   builder.getI32IntegerAttr(*scope),
                                   builder.getI32IntegerAttr(*semantics)));
    return success();
  case spv::OpAtomicStore:
    AtomicStoreOp::create(builder, loc, pointer, getValue(inst.arg(3)),
                          builder.getI32IntegerAttr(*scope),
                          builder.getI32IntegerAttr(*semantics));
    return success();
  case spv::OpAtomicCompareExchange:
  case spv::OpAtomicCompareExchangeWeak: {
    std::optional<uint64_t> unequal = getConstantInt(inst.arg(3));
    if (!unequal)
      return fail(inst, "atomic semantics must be constants");
    Operation *op = createGeneric(
        "spirv.AtomicCompareExchange", loc, resultType,
        {pointer, getValue(inst.arg(4)), getValue(inst.arg(5))},
        {builder.getNamedAttr("memory_scope", scopeAttr),
         builder.getNamedAttr("equal_semantics", semanticsAttr(*semantics)),
         builder.getNamedAttr("unequal_semantics", semanticsAttr(*unequal))});
    mapResult(inst, op->getResult(0));
    return success();
  }
  default:
    break;
  }
  std::string name;
  switch (inst.opcode) {
  case spv::OpAtomicExchange:
    name = "spirv.AtomicExchange";
    break;
  case spv::OpAtomicIIncrement:
    name = "spirv.AtomicIIncrement";
    break;
  case spv::OpAtomicIDecrement:
    name = "spirv.AtomicIDecrement";
    break;
  case spv::OpAtomicIAdd:
    name = "spirv.AtomicIAdd";
    break;
  case spv::OpAtomicISub:
    name = "spirv.AtomicISub";
    break;
  case spv::OpAtomicSMin:
    name = "spirv.AtomicSMin";
    break;
  case spv::OpAtomicUMin:
    name = "spirv.AtomicUMin";
    break;
  case spv::OpAtomicSMax:
    name = "spirv.AtomicSMax";
    break;
  case spv::OpAtomicUMax:
    name = "spirv.AtomicUMax";
    break;
  case spv::OpAtomicAnd:
    name = "spirv.AtomicAnd";
    break;
  case spv::OpAtomicOr:
    name = "spirv.AtomicOr";
    break;
  case spv::OpAtomicXor:
    name = "spirv.AtomicXor";
    break;
  case spv::OpAtomicFAddEXT:
    name = "spirv.EXT.AtomicFAdd";
    break;
  case spv::OpAtomicFMinEXT:
  case spv::OpAtomicFMaxEXT:
    mapResult(inst,
              AtomicFMinMaxOp::create(
                  builder, loc, resultType, pointer, getValue(inst.arg(3)),
                  builder.getBoolAttr(inst.opcode == spv::OpAtomicFMaxEXT),
                  builder.getI32IntegerAttr(*scope),
                  builder.getI32IntegerAttr(*semantics)));
    return success();
  default:
    return fail(inst, "unsupported atomic instruction");
  }
  SmallVector<Value> operands{pointer};
  if (inst.getNumArgs() > 3)
    operands.push_back(getValue(inst.arg(3)));
  Operation *op = createGeneric(
      name, loc, resultType, operands,
      {builder.getNamedAttr("memory_scope", scopeAttr),
       builder.getNamedAttr("semantics", semanticsAttr(*semantics))});
  mapResult(inst, op->getResult(0));
  return success();
}

LogicalResult Deserializer::processExtInst(const ParsedInstruction &inst) {
  Location loc = currentLocation(inst);
  Type resultType = getType(inst.typeId);
  auto setIt = extInstSets.find(inst.arg(0));
  if (setIt == extInstSets.end())
    return fail(inst, "extended instruction set is not imported");
  llvm::StringRef set = setIt->second;
  uint32_t number = inst.arg(1);
  if (inst.arg(0) == shaderDebugInfoSet) {
    // DebugLine Source LineStart LineEnd ColumnStart ColumnEnd, the
    // numbers as constants: as OpLine.
    if (number == NonSemanticShaderDebugInfo100DebugLine &&
        inst.getNumArgs() > 5) {
      auto source = debugSources.find(inst.arg(2));
      currentLine = FileLineColLoc::get(
          &context, source != debugSources.end() ? source->second : "<unknown>",
          literalConstants.lookup(inst.arg(3)),
          literalConstants.lookup(inst.arg(5)));
    } else if (number == NonSemanticShaderDebugInfo100DebugNoLine) {
      currentLine.reset();
    } else if (number == NonSemanticShaderDebugInfo100DebugScope &&
               inst.getNumArgs() > 2) {
      currentScope = inst.arg(2);
      currentInlinedAt = inst.getNumArgs() > 3 ? inst.arg(3) : 0;
      if (const DebugScopeInfo *function = getScopeFunction(currentScope)) {
        if (currentInlinedAt)
          lastInlinedAt[function] = currentInlinedAt;
        else
          currentFunctionScope = function;
      }
    } else if (number == NonSemanticShaderDebugInfo100DebugNoScope) {
      currentScope = currentInlinedAt = 0;
    } else if (number == NonSemanticShaderDebugInfo100DebugValue && debugInfo) {
      processDebugValue(inst);
    }
    return success();
  }
  SmallVector<Value> operands;
  for (unsigned i = 2; i < inst.getNumArgs(); ++i)
    operands.push_back(getValue(inst.arg(i)));

  if (set == "GLSL.std.450") {
    llvm::StringRef glslName = getGlslInstName(number);
    if (glslName.empty())
      return fail(inst, llvm::Twine("unknown GLSL.std.450 instruction ") +
                            llvm::Twine(number));
    std::string opName = ("spirv.GL." + glslName).str();
    Operation *op;
    if (RegisteredOperationName::lookup(opName, &context))
      op = createGeneric(opName, loc, resultType, operands);
    else
      op = GLSLExtOp::create(builder, loc, resultType,
                             builder.getI32IntegerAttr(number), operands);
    mapResult(inst, op->getResult(0));
    return success();
  }
  if (set == "NonSemantic.DebugPrintf") {
    if (number != 1 || operands.empty())
      return fail(inst, "malformed DebugPrintf");
    auto format = strings.find(inst.arg(2));
    if (format == strings.end())
      return fail(inst, "DebugPrintf format is not an OpString");
    DebugPrintfOp::create(builder, loc, builder.getStringAttr(format->second),
                          ValueRange(operands).drop_front());
    return success();
  }
  if (set.starts_with("NonSemantic.") || isDebugInfoSet(set)) {
    // Other non-semantic and debug-info instructions carry no meaning for
    // execution; their results are never used by semantic code.
    return success();
  }
  return fail(inst, "unsupported extended instruction set '" + set + "'");
}

//===----------------------------------------------------------------------===//
// Driver
//===----------------------------------------------------------------------===//

llvm::Expected<OwningOpRef<ModuleOp>> Deserializer::run() {
  registerDeserializerDialects(context);
  Location loc = FileLineColLoc::get(&context, binary.name, 0, 0);
  OwningOpRef<ModuleOp> owned(ModuleOp::create(loc));
  module = *owned;
  builder.setInsertionPointToEnd(module.getBody());

  auto error = [&]() {
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   errorMessage);
  };
  if (failed(collectDebugAndDecorations()) || failed(processDeclarations()) ||
      failed(declareFunctions()))
    return error();
  module->setAttr("spvb.addressing_model",
                  builder.getStringAttr(spirv::stringifyAddressingModel(
                      static_cast<spirv::AddressingModel>(addressingModel))));
  module->setAttr("spvb.memory_model",
                  builder.getStringAttr(spirv::stringifyMemoryModel(
                      static_cast<spirv::MemoryModel>(memoryModel))));
  if (debugInfo && !sourceTexts.empty()) {
    SmallVector<NamedAttribute> texts;
    for (const auto &[file, text] : sourceTexts)
      if (!file.empty() && !text.empty())
        texts.push_back(
            builder.getNamedAttr(file, builder.getStringAttr(text)));
    module->setAttr(kDebugSourcesAttr, builder.getDictionaryAttr(texts));
  }
  if (failed(processFunctions()))
    return error();
  builder.setInsertionPointToEnd(module.getBody());
  emitEntryPoints();

  // The dialect's verifiers check what SPIR-V validation also checks; a
  // failure here is a gap in our deserializer, reported with its location.
  std::string diagnostics;
  ScopedDiagnosticHandler handler(&context, [&](Diagnostic &diag) {
    if (diag.getSeverity() == DiagnosticSeverity::Error && diagnostics.empty())
      diagnostics = formatError(binary.name, diag.getLocation(), diag.str());
    return success();
  });
  if (failed(verify(module)))
    return llvm::createStringError(llvm::inconvertibleErrorCode(), diagnostics);
  return owned;
}

llvm::Expected<OwningOpRef<ModuleOp>>
spvb::deserializeSpirv(const SpirvBinary &binary, MLIRContext &context,
                       bool debugInfo) {
  llvm::Expected<ParsedModule> parsed = parseModule(binary);
  if (!parsed)
    return parsed.takeError();
  Deserializer deserializer(binary, *parsed, context, debugInfo);
  return deserializer.run();
}
