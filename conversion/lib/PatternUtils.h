//===- PatternUtils.h - Small builders shared by the patterns ---*- C++ -*-===//
#ifndef SPVBRIDGE_CONVERSION_LIB_PATTERNUTILS_H
#define SPVBRIDGE_CONVERSION_LIB_PATTERNUTILS_H

#include "spvbridge/conversion/Interface.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/TypeUtilities.h"
#include "mlir/Transforms/DialectConversion.h"

namespace spvb {

/// An integer or float constant, splatted when `type` is a vector.
mlir::Value createConstant(mlir::OpBuilder &b, mlir::Location loc,
                           mlir::Type type, double value);
mlir::Value createIntConstant(mlir::OpBuilder &b, mlir::Location loc,
                              mlir::Type type, int64_t value);
/// All bits set, splatted for vectors.
mlir::Value createAllOnes(mlir::OpBuilder &b, mlir::Location loc,
                          mlir::Type type);
/// Vector element access by constant index.
mlir::Value extractElement(mlir::OpBuilder &b, mlir::Location loc,
                           mlir::Value vector, int64_t index);
mlir::Value insertElement(mlir::OpBuilder &b, mlir::Location loc,
                          mlir::Value vector, mlir::Value scalar,
                          int64_t index);
/// A vector of `type` with every component `scalar`.
mlir::Value splatScalar(mlir::OpBuilder &b, mlir::Location loc,
                        mlir::Value scalar, mlir::VectorType type);
/// i8-addressed pointer arithmetic.
mlir::Value createByteOffset(mlir::OpBuilder &b, mlir::Location loc,
                             mlir::Value base, mlir::Value offset);
mlir::Value createByteOffset(mlir::OpBuilder &b, mlir::Location loc,
                             mlir::Value base, int64_t offset);
/// The address `offset` bytes into this invocation's stage input or output
/// record (kernel_abi.h): stage_inputs/outputs + global_id[0] * record size,
/// or the byte's place in the record's block (InterfaceLayout::recordLanes).
mlir::Value getStageRecordAddress(mlir::OpBuilder &b, mlir::Location loc,
                                  mlir::Value dispatch, mlir::Value invocation,
                                  bool output, const InterfaceLayout &layout,
                                  uint64_t offset);
/// The address `offset` bytes past `address` in a record in blocks of
/// `lanes`. `wordAligned`: `address` is at the start of a word, as the
/// address of anything 4-byte aligned in the record is; otherwise the
/// address's own byte in its word is taken into account.
mlir::Value offsetBlockedRecord(mlir::OpBuilder &b, mlir::Location loc,
                                mlir::Value address, mlir::Value offset,
                                uint32_t lanes, bool wordAligned);
mlir::Value offsetBlockedRecord(mlir::OpBuilder &b, mlir::Location loc,
                                mlir::Value address, int64_t offset,
                                uint32_t lanes, bool wordAligned);
/// Calls an LLVM intrinsic by name.
mlir::Value createIntrinsic(mlir::OpBuilder &b, mlir::Location loc,
                            llvm::StringRef name, mlir::Type result,
                            mlir::ValueRange args);
/// Aggregate element access by constant position.
mlir::Value insertValue(mlir::OpBuilder &b, mlir::Location loc,
                        mlir::Value container, mlir::Value value,
                        int64_t position);
mlir::Value extractValue(mlir::OpBuilder &b, mlir::Location loc,
                         mlir::Value container, int64_t position);
/// Declares a runtime function in the module of `from` if it is not there.
void declareRuntimeFunction(mlir::OpBuilder &b, mlir::Operation *from,
                            llvm::StringRef name,
                            mlir::LLVM::LLVMFunctionType type);
/// The address of a new private NUL-terminated constant holding `text`,
/// named `prefix.N`, in the module of `from`.
mlir::Value createStringConstant(mlir::OpBuilder &b, mlir::Operation *from,
                                 llvm::StringRef prefix, llvm::StringRef text);

/// Emits what `body` builds in a block of its own that runs only when the
/// i1 `condition` equals `when` (reports off the common path); the
/// insertion point then continues after it.
void emitConditionally(mlir::ConversionPatternRewriter &rewriter,
                       mlir::Location loc, mlir::Value condition, bool when,
                       llvm::function_ref<void()> body);

/// Resizes an integer (or integer vector) to the width of `like`.
mlir::Value castIntegerToWidthOf(mlir::OpBuilder &b, mlir::Location loc,
                                 mlir::Value value, mlir::Type like,
                                 bool isSigned);

/// Removes ops that have no lowered form (module-level declarations).
template <typename Op>
class ErasePattern : public mlir::OpConversionPattern<Op> {
public:
  using mlir::OpConversionPattern<Op>::OpConversionPattern;
  mlir::LogicalResult
  matchAndRewrite(Op op, typename Op::Adaptor,
                  mlir::ConversionPatternRewriter &rewriter) const override {
    rewriter.eraseOp(op);
    return mlir::success();
  }
};

} // namespace spvb

#endif // SPVBRIDGE_CONVERSION_LIB_PATTERNUTILS_H
