//===- RuntimeCallPatterns.cpp - Ops the runtime carries out --------------===//
//
// Subgroup and image instructions need the runtime: a subgroup operation is a
// rendezvous of the subgroup's invocations, an image access goes through the
// runtime's image descriptor; printf and undefined-result reports are
// formatted there. Values cross by address (kernel_abi.h), so one entry point
// serves every type; booleans travel as one byte each.
//
//===----------------------------------------------------------------------===//
#include "PatternUtils.h"
#include "spvbridge/conversion/Layout.h"
#include "spvbridge/conversion/Patterns.h"
#include "spvbridge/cpu_runtime/AbiSymbols.h"
#include "spvbridge/cpu_runtime/kernel_abi.h"
#include "spvbridge/spirv/SpvbDialect.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/SPIRV/IR/SPIRVOps.h"

#include <spirv/unified1/GLSL.std.450.h>
#include <spirv/unified1/spirv.hpp>

using namespace mlir;
using namespace spvb;

namespace {

/// Booleans are stored one byte per component.
Type getMemoryType(Type type) {
  Type element = mlir::getElementTypeOrSelf(type);
  if (!element.isInteger(1))
    return type;
  Type byte = IntegerType::get(type.getContext(), 8);
  if (auto vector = dyn_cast<VectorType>(type))
    return VectorType::get(vector.getShape(), byte);
  return byte;
}

uint32_t getTypeDesc(Type type) {
  if (!type)
    return SPVB_TYPE_DESC(SPVB_KIND_NONE, 0, 0);
  unsigned count = 1;
  if (auto vector = dyn_cast<VectorType>(type)) {
    count = vector.getNumElements();
    type = vector.getElementType();
  }
  if (type.isInteger(1))
    return SPVB_TYPE_DESC(SPVB_KIND_BOOL, 1, count);
  if (isa<IntegerType>(type))
    return SPVB_TYPE_DESC(SPVB_KIND_INT, type.getIntOrFloatBitWidth() / 8,
                          count);
  if (isa<FloatType>(type))
    return SPVB_TYPE_DESC(SPVB_KIND_FLOAT, type.getIntOrFloatBitWidth() / 8,
                          count);
  if (isa<LLVM::LLVMPointerType>(type))
    return SPVB_TYPE_DESC(SPVB_KIND_POINTER, 8, count);
  return SPVB_TYPE_DESC(SPVB_KIND_NONE, 0, 0);
}

/// A stack slot in the function's entry block, so calls in loops do not
/// grow the stack.
Value createEntrySlot(OpBuilder &b, Location loc, Operation *user, Type type) {
  auto func = user->getParentOfType<LLVM::LLVMFuncOp>();
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(&func.getBody().front());
  Value one = createIntConstant(b, loc, b.getI64Type(), 1);
  return LLVM::AllocaOp::create(
      b, loc, LLVM::LLVMPointerType::get(b.getContext()), type, one, 16);
}

Value spill(OpBuilder &b, Location loc, Operation *user, Value value) {
  Type memoryType = getMemoryType(value.getType());
  if (memoryType != value.getType())
    value = LLVM::ZExtOp::create(b, loc, memoryType, value);
  Value slot = createEntrySlot(b, loc, user, memoryType);
  LLVM::StoreOp::create(b, loc, value, slot);
  return slot;
}

Value reload(OpBuilder &b, Location loc, Value slot, Type type) {
  Type memoryType = getMemoryType(type);
  Value value = LLVM::LoadOp::create(b, loc, memoryType, slot);
  if (memoryType != type)
    value = LLVM::TruncOp::create(b, loc, type, value);
  return value;
}

Value getInvocation(Operation *op) {
  return op->getParentOfType<LLVM::LLVMFuncOp>().getArgument(1);
}

class SubgroupPattern : public OpConversionPattern<SubgroupOp> {
public:
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(SubgroupOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Type resultType = getTypeConverter()->convertType(op.getType());
    if (!resultType)
      return rewriter.notifyMatchFailure(op, "result type");
    ValueRange operands = adaptor.getOperands();
    if (operands.size() > 2)
      return rewriter.notifyMatchFailure(op, "too many operands");
    Type ptr = LLVM::LLVMPointerType::get(getContext());
    Type i32 = rewriter.getI32Type();
    Value null = LLVM::ZeroOp::create(rewriter, loc, ptr);
    Value operand0 =
        operands.size() > 0 ? spill(rewriter, loc, op, operands[0]) : null;
    Value operand1 =
        operands.size() > 1 ? spill(rewriter, loc, op, operands[1]) : null;
    Value result =
        createEntrySlot(rewriter, loc, op, getMemoryType(resultType));
    auto constant = [&](uint32_t value) -> Value {
      return createIntConstant(rewriter, loc, i32, value);
    };
    StringRef name = abi::kSubgroup;
    declareRuntimeFunction(
        rewriter, op, name,
        LLVM::LLVMFunctionType::get(
            LLVM::LLVMVoidType::get(getContext()),
            {ptr, i32, i32, i32, i32, i32, i32, ptr, ptr, ptr}));
    Type operandType = operands.empty() ? Type() : operands[0].getType();
    // Sites are numbered on the optimized LLVM IR (SubgroupSites).
    LLVM::CallOp::create(
        rewriter, loc, TypeRange{}, name,
        ValueRange{getInvocation(op), constant(op.getOpcode()),
                   constant(static_cast<uint32_t>(op.getGroupOperation())),
                   constant(op.getClusterSize()), constant(0),
                   constant(getTypeDesc(operandType)),
                   constant(getTypeDesc(op.getType())), operand0, operand1,
                   result});
    rewriter.replaceOp(op, reload(rewriter, loc, result, resultType));
    return success();
  }
};

class ImagePattern : public OpConversionPattern<ImageOp> {
public:
  using OpConversionPattern::OpConversionPattern;

  /// The commonest sampling (a vec4 from a vec2 coordinate, with at most
  /// bias, lod and gradients) passes its operands by value to
  /// spvb_rt_sample2, which lane widening turns into one call for all
  /// lanes. False if `op` is not of that form.
  bool lowerSample2(ImageOp op, ArrayRef<Value> flat, Type resultType,
                    ConversionPatternRewriter &rewriter) const {
    uint32_t mask = op.getImageOperands();
    const uint32_t allowed = spv::ImageOperandsBiasMask |
                             spv::ImageOperandsLodMask |
                             spv::ImageOperandsGradMask;
    if ((op.getOpcode() != spv::OpImageSampleImplicitLod &&
         op.getOpcode() != spv::OpImageSampleExplicitLod) ||
        (mask & ~allowed))
      return false;
    Type f32 = rewriter.getF32Type();
    Type vec2 = VectorType::get({2}, f32);
    if (resultType != VectorType::get({4}, f32) || flat.size() < 3 ||
        !isa<LLVM::LLVMPointerType>(flat[0].getType()) ||
        !isa<LLVM::LLVMPointerType>(flat[1].getType()) ||
        flat[2].getType() != vec2)
      return false;
    Location loc = op.getLoc();
    Value zero = LLVM::ConstantOp::create(rewriter, loc, f32,
                                          rewriter.getF32FloatAttr(0));
    // u, v, bias, lod, du/dx, dv/dx, du/dy, dv/dy.
    SmallVector<Value> inputs(8, zero);
    auto component = [&](Value vector, int64_t index) -> Value {
      return LLVM::ExtractElementOp::create(
          rewriter, loc, vector,
          createIntConstant(rewriter, loc, rewriter.getI32Type(), index));
    };
    inputs[0] = component(flat[2], 0);
    inputs[1] = component(flat[2], 1);
    // Image operands follow in mask-bit order.
    size_t next = 3;
    for (auto [bit, slot] : {std::pair(spv::ImageOperandsBiasMask, 2),
                             std::pair(spv::ImageOperandsLodMask, 3)}) {
      if (!(mask & bit))
        continue;
      if (next >= flat.size() || flat[next].getType() != f32)
        return false;
      inputs[slot] = flat[next++];
    }
    if (mask & spv::ImageOperandsGradMask) {
      if (next + 2 != flat.size() || flat[next].getType() != vec2 ||
          flat[next + 1].getType() != vec2)
        return false;
      for (unsigned i = 0; i < 2; ++i) {
        inputs[4 + 2 * i] = component(flat[next + i], 0);
        inputs[5 + 2 * i] = component(flat[next + i], 1);
      }
      next += 2;
    }
    if (next != flat.size())
      return false;
    Type ptr = LLVM::LLVMPointerType::get(getContext());
    Type i32 = rewriter.getI32Type();
    Value result = createEntrySlot(rewriter, loc, op, resultType);
    SmallVector<Value> args = {createIntConstant(rewriter, loc, i32, mask),
                               flat[0], flat[1]};
    llvm::append_range(args, inputs);
    args.push_back(result);
    SmallVector<Type> types = {i32, ptr, ptr};
    types.append(8, f32);
    types.push_back(ptr);
    StringRef name = abi::kSample2;
    declareRuntimeFunction(rewriter, op, name,
                           LLVM::LLVMFunctionType::get(
                               LLVM::LLVMVoidType::get(getContext()), types));
    LLVM::CallOp::create(rewriter, loc, TypeRange{}, name, args);
    rewriter.replaceOp(op, reload(rewriter, loc, result, resultType));
    return true;
  }

  LogicalResult
  matchAndRewrite(ImageOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    ValueRange operands = adaptor.getOperands();
    Type resultType;
    if (op.getResult()) {
      resultType = getTypeConverter()->convertType(op.getResult().getType());
      if (!resultType)
        return rewriter.notifyMatchFailure(op, "result type");
    }
    // Pairing and unpairing sampled images needs no runtime.
    if (op.getOpcode() == spv::OpSampledImage) {
      Value pair = LLVM::PoisonOp::create(rewriter, loc, resultType);
      pair = insertValue(rewriter, loc, pair, operands[0], 0);
      rewriter.replaceOp(op, insertValue(rewriter, loc, pair, operands[1], 1));
      return success();
    }
    if (op.getOpcode() == spv::OpImage) {
      rewriter.replaceOp(op, extractValue(rewriter, loc, operands[0], 0));
      return success();
    }
    Type ptr = LLVM::LLVMPointerType::get(getContext());
    Type i32 = rewriter.getI32Type();
    // Sampled images pass their image and sampler as two operands.
    SmallVector<Value> flat;
    for (Value operand : operands) {
      if (isa<LLVM::LLVMStructType>(operand.getType())) {
        flat.push_back(extractValue(rewriter, loc, operand, 0));
        flat.push_back(extractValue(rewriter, loc, operand, 1));
      } else {
        flat.push_back(operand);
      }
    }
    if (lowerSample2(op, flat, resultType, rewriter))
      return success();
    size_t count = std::max<size_t>(flat.size(), 1);
    Value array = createEntrySlot(rewriter, loc, op,
                                  LLVM::LLVMArrayType::get(ptr, count));
    Value descs = createEntrySlot(rewriter, loc, op,
                                  LLVM::LLVMArrayType::get(i32, count));
    for (auto [i, operand] : llvm::enumerate(flat)) {
      Value slot = spill(rewriter, loc, op, operand);
      Value address = createByteOffset(rewriter, loc, array, i * 8);
      LLVM::StoreOp::create(rewriter, loc, slot, address, 8);
      Value desc =
          createIntConstant(rewriter, loc, i32, getTypeDesc(operand.getType()));
      LLVM::StoreOp::create(rewriter, loc, desc,
                            createByteOffset(rewriter, loc, descs, i * 4), 4);
    }
    Value result =
        resultType
            ? createEntrySlot(rewriter, loc, op, getMemoryType(resultType))
            : LLVM::ZeroOp::create(rewriter, loc, ptr).getResult();
    auto constant = [&](uint32_t value) -> Value {
      return createIntConstant(rewriter, loc, i32, value);
    };
    StringRef name = abi::kImage;
    declareRuntimeFunction(
        rewriter, op, name,
        LLVM::LLVMFunctionType::get(LLVM::LLVMVoidType::get(getContext()),
                                    {ptr, i32, i32, i32, i32, ptr, ptr, ptr}));
    LLVM::CallOp::create(rewriter, loc, TypeRange{}, name,
                         ValueRange{getInvocation(op), constant(op.getOpcode()),
                                    constant(op.getImageOperands()),
                                    constant(getTypeDesc(resultType)),
                                    constant(flat.size()), descs, array,
                                    result});
    if (resultType)
      rewriter.replaceOp(op, reload(rewriter, loc, result, resultType));
    else
      rewriter.eraseOp(op);
    return success();
  }
};

/// The (descs, args) arrays of a printf-style call: each value spilled to
/// a slot of its own, typed by its SPVB_TYPE_DESC.
std::pair<Value, Value> packPrintfArguments(OpBuilder &b, Location loc,
                                            Operation *user, ValueRange args) {
  Type ptr = LLVM::LLVMPointerType::get(b.getContext());
  Type i32 = b.getI32Type();
  size_t count = std::max<size_t>(args.size(), 1);
  Value descs =
      createEntrySlot(b, loc, user, LLVM::LLVMArrayType::get(i32, count));
  Value values =
      createEntrySlot(b, loc, user, LLVM::LLVMArrayType::get(ptr, count));
  for (auto [i, arg] : llvm::enumerate(args)) {
    Value desc = createIntConstant(b, loc, i32, getTypeDesc(arg.getType()));
    LLVM::StoreOp::create(b, loc, desc, createByteOffset(b, loc, descs, i * 4),
                          4);
    LLVM::StoreOp::create(b, loc, spill(b, loc, user, arg),
                          createByteOffset(b, loc, values, i * 8), 8);
  }
  return {descs, values};
}

/// debugPrintfEXT: spvb_rt_printf(invocation, format, count, descs, args).
class DebugPrintfPattern : public OpConversionPattern<DebugPrintfOp> {
public:
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(DebugPrintfOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Type ptr = LLVM::LLVMPointerType::get(getContext());
    Type i32 = rewriter.getI32Type();
    Value format = createStringConstant(rewriter, op, "spvb.printf.format",
                                        op.getFormat());
    ValueRange args = adaptor.getArgs();
    auto [descs, values] = packPrintfArguments(rewriter, loc, op, args);
    StringRef callee = abi::kPrintf;
    declareRuntimeFunction(
        rewriter, op, callee,
        LLVM::LLVMFunctionType::get(LLVM::LLVMVoidType::get(getContext()),
                                    {ptr, ptr, i32, ptr, ptr}));
    Value argCount = createIntConstant(rewriter, loc, i32, args.size());
    LLVM::CallOp::create(
        rewriter, loc, TypeRange{}, callee,
        ValueRange{getInvocation(op), format, argCount, descs, values});
    rewriter.eraseOp(op);
    return success();
  }
};

/// if (undefined) spvb_rt_undefined(dispatch, invocation, message, count,
/// descs, args): the report is off the common path.
class CheckDefinedPattern : public OpConversionPattern<CheckDefinedOp> {
public:
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(CheckDefinedOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto func = op->getParentOfType<LLVM::LLVMFuncOp>();
    if (!func || func.getNumArguments() < 2)
      return rewriter.notifyMatchFailure(op, "not in a converted function");
    Location loc = op.getLoc();
    Type ptr = LLVM::LLVMPointerType::get(getContext());
    Type i32 = rewriter.getI32Type();
    ValueRange args = adaptor.getArgs();
    emitConditionally(
        rewriter, loc, adaptor.getUndefined(), /*when=*/true, [&] {
          auto [descs, values] = packPrintfArguments(rewriter, loc, op, args);
          StringRef callee = abi::kUndefined;
          declareRuntimeFunction(
              rewriter, op, callee,
              LLVM::LLVMFunctionType::get(LLVM::LLVMVoidType::get(getContext()),
                                          {ptr, ptr, ptr, i32, ptr, ptr}));
          LLVM::CallOp::create(
              rewriter, loc, TypeRange{}, callee,
              ValueRange{func.getArgument(0), func.getArgument(1),
                         createStringConstant(rewriter, op,
                                              "spvb.undefined.message",
                                              op.getMessage()),
                         createIntConstant(rewriter, loc, i32, args.size()),
                         descs, values});
        });
    rewriter.eraseOp(op);
    return success();
  }
};

/// GLSL.std.450 InterpolateAtCentroid/Sample/Offset in a fragment shader:
/// spvb_rt_interpolate(invocation, instruction, input, result_desc,
/// operand, operand_desc, result). In other stages GLSLPatterns reports
/// them.
class InterpolateAtPattern : public OpConversionPattern<GLSLExtOp> {
public:
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(GLSLExtOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    uint32_t inst = op.getInst();
    if (inst < GLSLstd450InterpolateAtCentroid ||
        inst > GLSLstd450InterpolateAtOffset || op->getNumResults() != 1)
      return failure();
    auto module = op->getParentOfType<ModuleOp>();
    if (!module || llvm::none_of(module.getOps<spirv::EntryPointOp>(),
                                 [](spirv::EntryPointOp entry) {
                                   return entry.getExecutionModel() ==
                                          spirv::ExecutionModel::Fragment;
                                 }))
      return failure();
    ValueRange args = adaptor.getOperands();
    unsigned expected = inst == GLSLstd450InterpolateAtCentroid ? 1 : 2;
    if (args.size() != expected ||
        !isa<LLVM::LLVMPointerType>(args[0].getType()))
      return op->emitError() << "GLSL.std.450 instruction " << inst
                             << " expects a pointer to an input"
                             << (expected == 2 ? " and one more operand" : "");
    Type resultType =
        getTypeConverter()->convertType(op->getResult(0).getType());
    if (!resultType)
      return rewriter.notifyMatchFailure(op, "result type");
    Location loc = op.getLoc();
    Type ptr = LLVM::LLVMPointerType::get(getContext());
    Type i32 = rewriter.getI32Type();
    Value operand = expected == 2
                        ? spill(rewriter, loc, op, args[1])
                        : LLVM::ZeroOp::create(rewriter, loc, ptr).getResult();
    uint32_t operandDesc =
        expected == 2 ? getTypeDesc(args[1].getType()) : getTypeDesc(Type());
    Value result = createEntrySlot(rewriter, loc, op, resultType);
    StringRef name = abi::kInterpolate;
    declareRuntimeFunction(
        rewriter, op, name,
        LLVM::LLVMFunctionType::get(LLVM::LLVMVoidType::get(getContext()),
                                    {ptr, i32, ptr, i32, ptr, i32, ptr}));
    LLVM::CallOp::create(
        rewriter, loc, TypeRange{}, name,
        ValueRange{
            getInvocation(op), createIntConstant(rewriter, loc, i32, inst),
            args[0],
            createIntConstant(rewriter, loc, i32, getTypeDesc(resultType)),
            operand, createIntConstant(rewriter, loc, i32, operandDesc),
            result});
    rewriter.replaceOp(op, reload(rewriter, loc, result, resultType));
    return success();
  }
};

} // namespace

void spvb::populateRuntimeCallPatterns(const TypeConverter &converter,
                                       RewritePatternSet &patterns) {
  patterns.add<SubgroupPattern, ImagePattern, DebugPrintfPattern,
               CheckDefinedPattern, InterpolateAtPattern>(
      converter, patterns.getContext(), kOverrideBenefit);
}
