//===- DeserializeTypes.cpp - Types and constants -------------------------===//
#include "Deserializer.h"

#include "spvbridge/spirv/SpvbDialect.h"

using namespace mlir;
using namespace spvb;
using namespace spvb::detail;

//===----------------------------------------------------------------------===//
// Types and constants
//===----------------------------------------------------------------------===//

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
             getInterfaceBlockId(pointeeTypeIds.lookup(inst.typeId))) {
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
      {spv::DecorationSample, kSampleAttr},
      {spv::DecorationPatch, kPatchAttr}};
  for (auto [decoration, attr] : interpolation)
    if (hasDecoration(inst.resultId, decoration))
      global->setAttr(attr, builder.getUnitAttr());
  if (inst.getNumArgs() > 1) {
    // Private and Output initializers are stored at the start of each entry
    // point: the dialect's initializer must name a symbol, not hold a
    // constant.
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
    if (pointerType.getStorageClass() != spirv::StorageClass::Private &&
        pointerType.getStorageClass() != spirv::StorageClass::Output)
      return fail(inst, "initializer on a " +
                            spirv::stringifyStorageClass(
                                pointerType.getStorageClass()) +
                            " variable is not supported");
    entryInitializers[inst.resultId] = inst.arg(1);
  }
  return success();
}
