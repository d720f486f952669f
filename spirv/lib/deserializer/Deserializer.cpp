//===- Deserializer.cpp - SPIR-V binary to MLIR spirv dialect -------------===//
#include "Deserializer.h"

#include "spvbridge/spirv/LocationFormat.h"
#include "spvbridge/spirv/SpvbDialect.h"

using namespace mlir;
using namespace spvb;
using namespace spvb::detail;

void spvb::registerDeserializerDialects(MLIRContext &context) {
  context.loadDialect<spirv::SPIRVDialect, SpvbDialect>();
}

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

std::optional<FileLineColLoc>
Deserializer::getListingLocation(const ParsedInstruction &inst) {
  if (!listing)
    return std::nullopt;
  return FileLineColLoc::get(&context, listing->path,
                             listing->getLine(inst.wordOffset), /*column=*/0);
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

/// The struct type id of an interface block of type \p typeId: the type
/// itself, or the element of an array of blocks (a geometry or tessellation
/// stage's per-vertex gl_in[]); 0 when it is no block.
uint32_t Deserializer::getInterfaceBlockId(uint32_t typeId) const {
  if (memberDecorations.count(typeId))
    return typeId;
  auto element = componentTypeIds.find(typeId);
  if (element != componentTypeIds.end() && element->second.size() == 1 &&
      isa_and_nonnull<spirv::ArrayType>(types.lookup(typeId)) &&
      memberDecorations.count(element->second.front()))
    return element->second.front();
  return 0;
}

/// An interface block (an Input or Output struct with member decorations:
/// gl_PerVertex, clspv's {LocalInvocationId, WorkgroupId}, a user block)
/// becomes a variable per member, with the member's decorations; the block
/// itself is only reached through OpAccessChain and OpLoad. An array of
/// blocks (gl_in[N]) becomes an array of N per member (gl_in[i].x is
/// gl_in_x[i]).
LogicalResult Deserializer::splitBuiltinBlock(const ParsedInstruction &inst,
                                              spirv::PointerType pointerType,
                                              llvm::StringRef symbol) {
  uint32_t blockId = getInterfaceBlockId(pointeeTypeIds.lookup(inst.typeId));
  auto array = dyn_cast<spirv::ArrayType>(pointerType.getPointeeType());
  auto block = dyn_cast<spirv::StructType>(
      array ? array.getElementType() : pointerType.getPointeeType());
  const auto &members = memberDecorations.find(blockId)->second;
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
        case spv::DecorationPatch:
          flags.push_back(kPatchAttr);
          break;
        default:
          break;
        }
      }
    // A `patch` block: Patch on the variable.
    if (hasDecoration(inst.resultId, spv::DecorationPatch))
      flags.push_back(kPatchAttr);
    Type memberType = block.getElementType(i);
    if (!builtin && !location && !hasLocation)
      return fail(inst, "member " + llvm::Twine(i) +
                            " of an interface block has neither a BuiltIn "
                            "nor a Location decoration");
    if (!builtin && !location)
      location = nextLocation;
    if (location)
      nextLocation = *location + getLocationCount(memberType);
    if (array)
      memberType = spirv::ArrayType::get(memberType, array.getNumElements());
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
    auto memberTypes = componentTypeIds.find(blockId);
    if (!builtin && memberTypes != componentTypeIds.end() &&
        i < memberTypes->second.size() &&
        isUnsignedType(memberTypes->second[i]))
      variable->setAttr(kUnsignedAttr, builder.getUnitAttr());
    for (StringRef flag : flags)
      variable->setAttr(flag, builder.getUnitAttr());
    variables.push_back(variable);
  }
  builtinBlocks[inst.resultId] = std::move(variables);
  if (array)
    blockArrays.insert(inst.resultId);
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
  if (inst.opcode == spv::OpLoad && blockArrays.contains(inst.arg(0)))
    return fail(inst, "an array of interface blocks is only used through "
                      "OpAccessChain");
  if (inst.opcode == spv::OpLoad) {
    SmallVector<Value> parts;
    for (spirv::GlobalVariableOp variable : variables)
      parts.push_back(spirv::LoadOp::create(builder, loc, addressOf(variable)));
    mapResult(inst, spirv::CompositeConstructOp::create(builder, loc,
                                                        resultType, parts));
    return success();
  }
  // gl_in[v].member...: the member's array, indexed by v.
  bool arrayed = blockArrays.contains(inst.arg(0));
  unsigned memberArg = arrayed ? 2 : 1;
  std::optional<uint64_t> member = inst.getNumArgs() > memberArg
                                       ? getConstantInt(inst.arg(memberArg))
                                       : std::nullopt;
  if (!member || *member >= variables.size())
    return fail(inst, "an interface block is indexed by a constant member "
                      "number");
  Value address = addressOf(variables[*member]);
  if (inst.getNumArgs() > memberArg + 1 || arrayed) {
    SmallVector<Value> operands{address};
    if (arrayed)
      operands.push_back(getValue(inst.arg(1)));
    for (unsigned i = memberArg + 1; i < inst.getNumArgs(); ++i)
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
           inst.arg(0) == spv::ExecutionModelGeometry ||
           inst.arg(0) == spv::ExecutionModelTessellationControl ||
           inst.arg(0) == spv::ExecutionModelTessellationEvaluation ||
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
    if (std::optional<FileLineColLoc> listed = getListingLocation(inst))
      line = *listed;
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
                       bool debugInfo, const DisassemblyListing *listing) {
  llvm::Expected<ParsedModule> parsed = parseModule(binary);
  if (!parsed)
    return parsed.takeError();
  Deserializer deserializer(binary, *parsed, context, debugInfo, listing);
  return deserializer.run();
}
