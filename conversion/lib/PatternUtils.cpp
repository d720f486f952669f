//===- PatternUtils.cpp - Small builders shared by the patterns -----------===//
#include "PatternUtils.h"

#include "spvbridge/cpu_runtime/kernel_abi.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"

using namespace mlir;

Value spvb::insertValue(OpBuilder &b, Location loc, Value container,
                        Value value, int64_t position) {
  return LLVM::InsertValueOp::create(b, loc, container, value,
                                     ArrayRef<int64_t>{position});
}

Value spvb::extractValue(OpBuilder &b, Location loc, Value container,
                         int64_t position) {
  return LLVM::ExtractValueOp::create(b, loc, container,
                                      ArrayRef<int64_t>{position});
}

static Attribute scalarAttr(OpBuilder &b, Type element, double value) {
  if (isa<FloatType>(element))
    return b.getFloatAttr(element, value);
  return b.getIntegerAttr(element, static_cast<int64_t>(value));
}

Value spvb::createConstant(OpBuilder &b, Location loc, Type type,
                           double value) {
  Type element = getElementTypeOrSelf(type);
  Attribute attr = scalarAttr(b, element, value);
  if (auto vector = dyn_cast<VectorType>(type))
    attr = DenseElementsAttr::get(vector, attr);
  return LLVM::ConstantOp::create(b, loc, type, cast<TypedAttr>(attr));
}

Value spvb::createIntConstant(OpBuilder &b, Location loc, Type type,
                              int64_t value) {
  Type element = getElementTypeOrSelf(type);
  Attribute attr = b.getIntegerAttr(
      element, llvm::APInt(element.getIntOrFloatBitWidth(), value,
                           /*isSigned=*/true, /*implicitTrunc=*/true));
  if (auto vector = dyn_cast<VectorType>(type))
    attr = DenseElementsAttr::get(vector, attr);
  return LLVM::ConstantOp::create(b, loc, type, cast<TypedAttr>(attr));
}

Value spvb::createAllOnes(OpBuilder &b, Location loc, Type type) {
  return createIntConstant(b, loc, type, -1);
}

Value spvb::extractElement(OpBuilder &b, Location loc, Value vector,
                           int64_t i) {
  Value index = createIntConstant(b, loc, b.getI32Type(), i);
  return LLVM::ExtractElementOp::create(b, loc, vector, index);
}

Value spvb::insertElement(OpBuilder &b, Location loc, Value vector,
                          Value scalar, int64_t i) {
  Value index = createIntConstant(b, loc, b.getI32Type(), i);
  return LLVM::InsertElementOp::create(b, loc, vector, scalar, index);
}

Value spvb::splatScalar(OpBuilder &b, Location loc, Value scalar,
                        VectorType type) {
  Value poison = LLVM::PoisonOp::create(b, loc, type);
  Value inserted = insertElement(b, loc, poison, scalar, 0);
  SmallVector<int32_t> mask(type.getNumElements(), 0);
  return LLVM::ShuffleVectorOp::create(b, loc, inserted, poison, mask);
}

Value spvb::createByteOffset(OpBuilder &b, Location loc, Value base,
                             Value offset) {
  return LLVM::GEPOp::create(b, loc, base.getType(), b.getI8Type(), base,
                             ValueRange{offset});
}

Value spvb::createByteOffset(OpBuilder &b, Location loc, Value base,
                             int64_t offset) {
  if (offset == 0)
    return base;
  Value value = LLVM::ConstantOp::create(b, loc, b.getI64Type(),
                                         b.getI64IntegerAttr(offset));
  return createByteOffset(b, loc, base, value);
}

Value spvb::createIntrinsic(OpBuilder &b, Location loc, llvm::StringRef name,
                            Type result, ValueRange args) {
  return LLVM::CallIntrinsicOp::create(b, loc, result, b.getStringAttr(name),
                                       args)
      .getResult(0);
}

void spvb::declareRuntimeFunction(OpBuilder &b, Operation *from,
                                  llvm::StringRef name,
                                  LLVM::LLVMFunctionType type) {
  auto module = from->getParentOfType<ModuleOp>();
  if (module.lookupSymbol(name))
    return;
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(module.getBody());
  LLVM::LLVMFuncOp::create(b, from->getLoc(), name, type);
}

Value spvb::createStringConstant(OpBuilder &b, Operation *from,
                                 llvm::StringRef prefix, llvm::StringRef text) {
  auto module = from->getParentOfType<ModuleOp>();
  Location loc = from->getLoc();
  Type ptr = LLVM::LLVMPointerType::get(b.getContext());
  std::string bytes = text.str();
  bytes.push_back('\0');
  // Equal texts share one constant (race checks name the same buffer at
  // every access).
  std::string name;
  for (unsigned i = 0;; ++i) {
    name = (prefix + "." + llvm::Twine(i)).str();
    auto existing = module.lookupSymbol<LLVM::GlobalOp>(name);
    if (!existing)
      break;
    auto value = dyn_cast_or_null<StringAttr>(existing.getValueOrNull());
    if (value && value.getValue() == bytes)
      return LLVM::AddressOfOp::create(b, loc, ptr, name);
  }
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(module.getBody());
    LLVM::GlobalOp::create(
        b, loc, LLVM::LLVMArrayType::get(b.getI8Type(), bytes.size()),
        /*isConstant=*/true, LLVM::Linkage::Private, name,
        b.getStringAttr(bytes));
  }
  return LLVM::AddressOfOp::create(b, loc, ptr, name);
}

Value spvb::castIntegerToWidthOf(OpBuilder &b, Location loc, Value value,
                                 Type like, bool isSigned) {
  unsigned from = getElementTypeOrSelf(value.getType()).getIntOrFloatBitWidth();
  unsigned to = getElementTypeOrSelf(like).getIntOrFloatBitWidth();
  Type target = like;
  if (auto vector = dyn_cast<VectorType>(value.getType()))
    target = VectorType::get(vector.getShape(), getElementTypeOrSelf(like));
  else
    target = getElementTypeOrSelf(like);
  if (from == to)
    return value;
  if (from > to)
    return LLVM::TruncOp::create(b, loc, target, value);
  if (isSigned)
    return LLVM::SExtOp::create(b, loc, target, value);
  return LLVM::ZExtOp::create(b, loc, target, value);
}

void spvb::emitConditionally(ConversionPatternRewriter &rewriter, Location loc,
                             Value condition, bool when,
                             llvm::function_ref<void()> body) {
  Block *current = rewriter.getInsertionBlock();
  Block *continuation =
      rewriter.splitBlock(current, rewriter.getInsertionPoint());
  Block *taken = rewriter.createBlock(continuation);
  body();
  LLVM::BrOp::create(rewriter, loc, ValueRange{}, continuation);
  rewriter.setInsertionPointToEnd(current);
  if (when)
    LLVM::CondBrOp::create(rewriter, loc, condition, taken, continuation);
  else
    LLVM::CondBrOp::create(rewriter, loc, condition, continuation, taken);
  rewriter.setInsertionPointToStart(continuation);
}

Value spvb::getStageRecordAddress(OpBuilder &b, Location loc, Value dispatch,
                                  Value invocation, bool output,
                                  const InterfaceLayout &layout,
                                  uint64_t offset) {
  Type ptr = LLVM::LLVMPointerType::get(b.getContext());
  Type i64 = b.getI64Type();
  // The dispatch block is invariant; the invocation block is not (the
  // workgroup entry rewrites its copy for each invocation).
  Value base = LLVM::LoadOp::create(
      b, loc, ptr,
      createByteOffset(b, loc, dispatch,
                       output ? offsetof(spvb_dispatch, stage_outputs)
                              : offsetof(spvb_dispatch, stage_inputs)),
      8, false, false, /*isInvariant=*/true);
  auto loadId = [&](size_t field) -> Value {
    return LLVM::ZExtOp::create(
        b, loc, i64,
        LLVM::LoadOp::create(b, loc, b.getI32Type(),
                             createByteOffset(b, loc, invocation, field), 4));
  };
  auto constant = [&](uint64_t value) {
    return LLVM::ConstantOp::create(b, loc, i64, b.getI64IntegerAttr(value));
  };
  uint64_t size = output ? layout.stageOutputSize : layout.stageInputSize;
  if (uint32_t lanes = layout.recordLanes) {
    // The block's start, then the lane's first word.
    Value block, lane;
    if (layout.blockPerWorkgroup) {
      block = loadId(offsetof(spvb_invocation, workgroup_id));
      lane = loadId(offsetof(spvb_invocation, local_index));
    } else {
      Value index = loadId(offsetof(spvb_invocation, global_id));
      block = LLVM::UDivOp::create(b, loc, index, constant(lanes));
      lane = LLVM::URemOp::create(b, loc, index, constant(lanes));
    }
    Value start = LLVM::AddOp::create(
        b, loc, LLVM::MulOp::create(b, loc, block, constant(lanes * size)),
        LLVM::MulOp::create(b, loc, lane, constant(4)));
    return createByteOffset(b, loc, createByteOffset(b, loc, base, start),
                            int64_t(spvb_blocked_record_offset(offset, lanes)));
  }
  Value index = loadId(layout.recordsPerWorkgroup
                           ? offsetof(spvb_invocation, workgroup_id)
                           : offsetof(spvb_invocation, global_id));
  Value record = LLVM::MulOp::create(b, loc, index, constant(size));
  return createByteOffset(b, loc, createByteOffset(b, loc, base, record),
                          offset);
}

Value spvb::offsetBlockedRecord(OpBuilder &b, Location loc, Value address,
                                Value offset, uint32_t lanes,
                                bool wordAligned) {
  Type i64 = b.getI64Type();
  auto constant = [&](int64_t value) {
    return LLVM::ConstantOp::create(b, loc, i64, b.getI64IntegerAttr(value));
  };
  if (!wordAligned) {
    // Step back to the word's start and count the byte into the offset.
    Value byte = LLVM::AndOp::create(
        b, loc, LLVM::PtrToIntOp::create(b, loc, i64, address), constant(3));
    address = createByteOffset(b, loc, address,
                               LLVM::SubOp::create(b, loc, constant(0), byte));
    offset = LLVM::AddOp::create(b, loc, offset, byte);
  }
  Value words = LLVM::MulOp::create(
      b, loc, LLVM::AndOp::create(b, loc, offset, constant(~int64_t(3))),
      constant(lanes));
  Value byte = LLVM::AndOp::create(b, loc, offset, constant(3));
  return createByteOffset(b, loc, address,
                          LLVM::AddOp::create(b, loc, words, byte));
}

Value spvb::offsetBlockedRecord(OpBuilder &b, Location loc, Value address,
                                int64_t offset, uint32_t lanes,
                                bool wordAligned) {
  if (wordAligned)
    return createByteOffset(
        b, loc, address,
        int64_t(spvb_blocked_record_offset(uint64_t(offset), lanes)));
  return offsetBlockedRecord(
      b, loc, address,
      LLVM::ConstantOp::create(b, loc, b.getI64Type(),
                               b.getI64IntegerAttr(offset)),
      lanes, wordAligned);
}
