//===- DeserializeOps.cpp - Instructions in function bodies ---------------===//
#include "Deserializer.h"

#include "spvbridge/spirv/LocationFormat.h"
#include "spvbridge/spirv/SpvbDialect.h"

using namespace mlir;
using namespace spvb;
using namespace spvb::detail;

//===----------------------------------------------------------------------===//
// Instructions
//===----------------------------------------------------------------------===//

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
  case spv::OpEmitVertex:
    spirv::EmitVertexOp::create(builder, loc);
    return success();
  case spv::OpEndPrimitive:
    spirv::EndPrimitiveOp::create(builder, loc);
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
